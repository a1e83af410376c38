"""One thread reads the source as fast as it delivers and keeps only the newest
frame, so the pipeline never works on a stale, queued frame."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    index: int  # 1, 2, 3 ... in capture order
    time: float  # time.monotonic() at capture


class FrameGrabber:
    """``FrameGrabber(source)`` starts reading at once.  :meth:`latest` returns the
    newest frame (or None before the first); :meth:`wait_newer` blocks for a
    frame newer than one already seen.  ``ended`` is set when the source runs out."""

    def __init__(self, source, start: bool = True) -> None:
        self.source = source
        self._lock = threading.Condition()
        self._frame: Frame | None = None
        self._stop = threading.Event()
        self.ended = threading.Event()
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=f"grabber:{getattr(source, 'name', 'source')}", daemon=True)
        if start:
            self._thread.start()

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        n = 0
        try:
            while not self._stop.is_set():
                img = self.source.read()
                if img is None:
                    break
                n += 1
                with self._lock:
                    self._frame = Frame(img, n, time.monotonic())
                    self._lock.notify_all()
        except BaseException as exc:  # keep the reason for the caller
            self.error = exc
        finally:
            self.ended.set()
            with self._lock:
                self._lock.notify_all()

    def latest(self) -> Frame | None:
        with self._lock:
            return self._frame

    def wait_newer(self, index: int, timeout: float = 1.0) -> Frame | None:
        """The newest frame with an index above ``index``; None on timeout or end."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while (self._frame is None or self._frame.index <= index) and not self.ended.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._lock.wait(left)
            if self._frame is not None and self._frame.index > index:
                return self._frame
            return None

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self.source.close()

    def __enter__(self) -> FrameGrabber:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
