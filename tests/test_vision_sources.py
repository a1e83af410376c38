"""Frame sources and the newest-frame grabber, with real files and OpenCV I/O."""

import threading
import time

import cv2
import numpy as np
import pytest

from vision.grabber import FrameGrabber
from vision.sources import ImageFolderSource, SceneSource, SourceError, VideoFileSource, open_source


def _frame(i, w=160, h=120):
    img = np.zeros((h, w, 3), np.uint8)
    cv2.putText(img, str(i), (10, 80), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 3)
    img[:, :, 2] = i * 20
    return img


def test_image_folder_in_name_order(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), _frame(i))
    (tmp_path / "notes.txt").write_text("not an image")
    src = open_source(str(tmp_path))
    assert isinstance(src, ImageFolderSource)
    reds = []
    while (img := src.read()) is not None:
        reds.append(int(img[0, 0, 2]))
    assert reds == [0, 20, 40]


def test_video_file_round_trip(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (160, 120))
    for i in range(12):
        writer.write(_frame(i))
    writer.release()
    src = open_source(str(path))
    assert isinstance(src, VideoFileSource) and src.fps == pytest.approx(30.0)
    n = 0
    while src.read() is not None:
        n += 1
    src.close()
    assert n == 12


def test_scene_source_is_a_camera_with_a_hand_passing():
    src = SceneSource(seed=3, width=640, height=360, n_cards=4, frames=70)
    frames = []
    while (img := src.read()) is not None:
        frames.append(img)
    assert len(frames) == 70 and frames[0].shape == (360, 640, 3)
    assert np.abs(frames[45].astype(int) - frames[5].astype(int)).mean() > 1  # the hand


def test_bad_specs_say_what_to_try(tmp_path):
    with pytest.raises(SourceError, match="try"):
        open_source(str(tmp_path / "missing.mp4"))
    with pytest.raises(SourceError, match="no images"):
        open_source(str(tmp_path))
    with pytest.raises(SourceError, match="picamera2"):
        open_source("pi")  # not installed here: a clear message instead


class _SlowCounter:
    """A source that makes frames faster than the consumer takes them."""

    name = "counter"
    fps = 200.0

    def __init__(self, n):
        self.n, self.i = n, 0
        self.closed = threading.Event()

    def read(self):
        if self.i >= self.n:
            return None
        self.i += 1
        time.sleep(0.002)
        return np.full((4, 4, 3), self.i % 256, np.uint8)

    def close(self):
        self.closed.set()


def test_grabber_always_hands_out_the_newest_frame():
    src = _SlowCounter(60)
    with FrameGrabber(src) as grab:
        first = grab.wait_newer(0, timeout=5)
        assert first is not None
        assert grab.ended.wait(5)
        last = grab.latest()
        assert last.index == 60 and int(last.image[0, 0, 0]) == 60
        assert grab.wait_newer(60, timeout=0.1) is None  # ended: nothing newer
    assert src.closed.is_set()
