"""Frame sources: a camera (V4L2/USB through cv2.VideoCapture, or a Raspberry
Pi camera through picamera2), a video file, a folder of images, or the scene
generator.  All give BGR uint8 frames through the same small interface."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

IMAGE_EXTS = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class SourceError(RuntimeError):
    """A source that cannot be opened; the message says what to try."""


class Source(Protocol):
    name: str
    fps: float

    def read(self) -> np.ndarray | None:
        """The next frame, or None when the source has ended."""

    def close(self) -> None: ...


#: the frame size a camera is asked for.  1920x1080, not 1280x720: over an
#: A2 mat a 720p frame gives a card about 2 px/mm and its index's rank 6-9
#: px, and on 1000 generated scenes (bench/vision.py --size) 1080p finds
#: 91.9 % of the cards against 74.3 % and misreads 0.65 % of those it reads
#: against 2.5 %, for about 40 % more CPU per frame (12 cards: 112.7 ms
#: against 81.2, bench/vision.py --skip-accuracy).  A camera that cannot
#: gives its nearest size.
CAMERA_SIZE = (1920, 1080)


class CameraSource:
    """A V4L2/USB camera.  Asks for MJPG: at 1280x720 and above many webcams
    deliver only about 10 fps (5 at 1080p) as raw YUYV over USB 2, 30 fps as
    MJPG."""

    def __init__(self, device: int | str, width: int = CAMERA_SIZE[0], height: int = CAMERA_SIZE[1], fps: float = 30.0) -> None:
        api = cv2.CAP_V4L2 if os.name == "posix" else cv2.CAP_ANY
        self.cap = cv2.VideoCapture(device, api)
        if not self.cap.isOpened():
            self.cap = cv2.VideoCapture(device)
        if not self.cap.isOpened():
            raise SourceError(f"cannot open camera {device!r}: is it plugged in, and is the user in the 'video' group?")
        self.cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self.cap.set(cv2.CAP_PROP_FPS, fps)
        self.cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self.fps = self.cap.get(cv2.CAP_PROP_FPS) or fps
        self.name = f"camera {device}"

    def read(self) -> np.ndarray | None:
        ok, frame = self.cap.read()
        return frame if ok else None

    def close(self) -> None:
        self.cap.release()


class VideoFileSource:
    """A video file, played once at its own pace (``realtime``) or as fast as read."""

    def __init__(self, path: str, realtime: bool = False) -> None:
        self.cap = cv2.VideoCapture(path)
        if not self.cap.isOpened():
            raise SourceError(f"cannot open video {path!r} (is it a video OpenCV can decode?)")
        self.fps = self.cap.get(cv2.CAP_PROP_FPS) or 30.0
        self.name = path
        self.realtime = realtime
        self._next = time.monotonic()

    def read(self) -> np.ndarray | None:
        if self.realtime:
            delay = self._next - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self._next = max(self._next, time.monotonic()) + 1 / self.fps
        ok, frame = self.cap.read()
        return frame if ok else None

    def close(self) -> None:
        self.cap.release()


class ImageFolderSource:
    """Every image in a folder, in name order, once (or ``loop``)."""

    def __init__(self, folder: str, loop: bool = False, fps: float = 30.0) -> None:
        self.paths = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_EXTS)
        if not self.paths:
            raise SourceError(f"no images ({', '.join(IMAGE_EXTS)}) in {folder!r}")
        self.loop = loop
        self.fps = fps
        self.name = folder
        self._i = 0

    def read(self) -> np.ndarray | None:
        if self._i >= len(self.paths):
            if not self.loop:
                return None
            self._i = 0
        path = self.paths[self._i]
        self._i += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise SourceError(f"cannot read image {str(path)!r}")
        return frame

    def close(self) -> None:
        pass


class SceneSource:
    """The scene generator as a camera: a fixed table of cards with a hand
    passing over it now and then (for the demo and tests).  ``frames``: how many
    frames before it ends (None: endless)."""

    def __init__(self, seed: int = 0, width: int = 1280, height: int = 720, n_cards: int = 8, frames: int | None = None, fps: float = 30.0) -> None:
        from .scene import render_scene

        self._render = render_scene
        self.seed, self.width, self.height, self.n_cards = seed, width, height, n_cards
        self.frames = frames
        self.fps = fps
        self.name = f"sim:{seed}"
        self._i = 0
        self._still, self.truth = render_scene(width, height, n_cards, seed, occluders=0, effects=False)
        self._hand, _ = render_scene(width, height, n_cards, seed, occluders=1, effects=False)
        rng = np.random.default_rng(seed)
        self._noise = [rng.integers(0, 4, self._still.shape, dtype=np.uint8) for _ in range(2)]

    def read(self) -> np.ndarray | None:
        if self.frames is not None and self._i >= self.frames:
            return None
        i = self._i
        self._i += 1
        img = self._hand if (i // 20) % 3 == 2 else self._still
        return cv2.add(img, self._noise[i % 2])  # a little sensor noise, frame to frame

    def close(self) -> None:
        pass


class PiCameraSource:
    """A Raspberry Pi camera through picamera2 (OpenCV cannot open libcamera
    cameras).  Only available where picamera2 is installed (``apt install
    python3-picamera2`` on Raspberry Pi OS); not testable without one."""

    def __init__(self, width: int = CAMERA_SIZE[0], height: int = CAMERA_SIZE[1]) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise SourceError("picamera2 is not installed: on Raspberry Pi OS run 'sudo apt install python3-picamera2' and create the venv with --system-site-packages") from exc
        self.cam = Picamera2()
        self.cam.configure(self.cam.create_video_configuration(main={"size": (width, height), "format": "BGR888"}))
        self.cam.start()
        self.fps = 30.0
        self.name = "picamera2"

    def read(self) -> np.ndarray | None:
        # "BGR888" in libcamera terms is RGB byte order in memory; convert for OpenCV
        return cv2.cvtColor(self.cam.capture_array(), cv2.COLOR_RGB2BGR)

    def close(self) -> None:
        self.cam.stop()


def open_source(spec: str) -> Source:
    """Open a frame source from a text spec:

    - ``"0"``, ``"1"`` ... or ``"/dev/video0"``: a V4L2/USB camera;
    - ``"pi"`` / ``"picamera2"``: the Raspberry Pi camera;
    - ``"sim"`` or ``"sim:SEED"``: the scene generator;
    - a directory: every image in it, in name order;
    - any other path: a video file (or a single image, as a one-frame folder).
    """
    spec = spec.strip()
    if spec.isdigit():
        return CameraSource(int(spec))
    if spec.startswith("/dev/video"):
        return CameraSource(spec)
    if spec in ("pi", "picamera2"):
        return PiCameraSource()
    if spec == "sim" or spec.startswith("sim:"):
        seed = int(spec.split(":", 1)[1]) if ":" in spec else 0
        return SceneSource(seed)
    p = Path(spec)
    if p.is_dir():
        return ImageFolderSource(spec)
    if not p.exists():
        raise SourceError(f"no such camera, folder or file: {spec!r} (try 0, /dev/video0, pi, sim, a folder or a video)")
    if p.suffix.lower() in IMAGE_EXTS:
        src = ImageFolderSource(str(p.parent))
        src.paths = [p]
        return src
    return VideoFileSource(spec)
