"""Where a frame's CPU time goes: a per-step breakdown of VisionPipeline, for #7.

    .venv/bin/python bench/vision_profile.py                    # 1280x720, 0/6/12 cards
    .venv/bin/python bench/vision_profile.py --size 1920x1080 --cards 12

Single thread (cv2.setNumThreads(1)).  Each step is wrapped with a timer of the
thread's CPU time (time.thread_time), which a busy machine disturbs far less
than wall time; the figures are ms per frame (each scene is calibrated once,
then processed ``--repeats`` times in full, as bench/vision.py times it), the
median and the mean over the frames timed (the mean includes the mat re-check
every 15 frames).  Steps nest: ``read_patch`` and ``sample_patch`` count the
pipeline's own reads (inside ``_read_corner`` and ``_sibling_indices``);
``find_index_pairs`` (the edge-free index finder) includes the reads it makes;
the whole-frame steps are inside ``_prepare``.
``--cprofile`` prints the top functions of one 12-card scene instead."""

from __future__ import annotations

import argparse
import collections
import cProfile
import os
import pstats
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402

from vision import pipeline as pl  # noqa: E402
from vision.scene import render_scene  # noqa: E402

#: module-level functions the pipeline calls, by the name it imported them under
FUNCTIONS = (
    "background_colour",
    "paper_mask",
    "paper_tiles",
    "paper_mask_in",
    "quarter",
    "split_on_edges",
    "split_on_edges_in",
    "find_blobs",
    "find_corners",
    "sample_patch",
    "read_patch",
    "find_quads",
    "find_index_pairs",
    "clear_mask",
    "detect_markers",
    "_merge_same_card",
    "_dedupe",
)
#: VisionPipeline methods
METHODS = ("_prepare", "_read_corner", "_holes", "_sibling_indices", "_markers", "_inner_paper", "_finish")

SPENT: collections.Counter = collections.Counter()
CALLS: collections.Counter = collections.Counter()


def _timed(name, fn):
    def wrapper(*a, **k):
        t = time.thread_time()
        try:
            return fn(*a, **k)
        finally:
            SPENT[name] += time.thread_time() - t
            CALLS[name] += 1

    return wrapper


def instrument() -> None:
    for name in FUNCTIONS:
        if hasattr(pl, name):
            setattr(pl, name, _timed(name, getattr(pl, name)))
    for name in METHODS:
        raw = pl.VisionPipeline.__dict__.get(name)
        if isinstance(raw, staticmethod):
            setattr(pl.VisionPipeline, name, staticmethod(_timed(name, raw.__func__)))
        elif raw is not None:
            setattr(pl.VisionPipeline, name, _timed(name, raw))
    pl.MatTracker.update = _timed("mat.update", pl.MatTracker.update)


def scenes(w: int, h: int, n: int, count: int):
    for seed in range(count):
        img, _ = render_scene(w, h, n, seed=1000 + seed, mat=True, occluders=0 if n == 0 else None)
        yield img


def breakdown(w: int, h: int, n: int, count: int, repeats: int) -> None:
    frames: list[tuple[float, dict, dict]] = []  # (total s, step s, step calls) per timed frame
    for img in scenes(w, h, n, count):
        pipe = pl.VisionPipeline(reuse_static=False)
        pipe.process(img)  # calibrated once, as a running camera would be: not counted
        for _ in range(repeats):
            SPENT.clear()
            CALLS.clear()
            t = time.thread_time()
            pipe.process(img)
            frames.append((time.thread_time() - t, dict(SPENT), dict(CALLS)))
    totals = sorted(f[0] for f in frames)
    print(f"\n{w}x{h}, {n} cards: {1000 * statistics.median(totals):.1f} ms CPU per frame, median of {len(frames)} frames "
          f"(mean {1000 * statistics.mean(totals):.1f})")
    print(f"  {'step':22s} {'median':>7s} {'mean':>7s}  calls/frame")
    names = sorted({k for f in frames for k in f[1]}, key=lambda k: -sum(f[1].get(k, 0) for f in frames))
    for name in names:
        vals = [f[1].get(name, 0.0) for f in frames]
        calls = statistics.mean(f[2].get(name, 0) for f in frames)
        print(f"  {name:22s} {1000 * statistics.median(vals):7.2f} {1000 * statistics.mean(vals):7.2f}  {calls:6.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--cards", default="0,6,12")
    ap.add_argument("--scenes", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=6)
    ap.add_argument("--cprofile", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    w, h = (int(x) for x in args.size.split("x"))
    if args.cprofile:
        imgs = list(scenes(w, h, int(args.cards.split(",")[-1]), args.scenes))
        pipes = [pl.VisionPipeline(reuse_static=False) for _ in imgs]
        for p, img in zip(pipes, imgs, strict=True):
            p.process(img)
        prof = cProfile.Profile(time.thread_time)
        prof.enable()
        for _ in range(args.repeats):
            for p, img in zip(pipes, imgs, strict=True):
                p.process(img)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        return
    instrument()
    print(f"OpenCV {cv2.__version__}, threads {cv2.getNumThreads()}, load average {os.getloadavg()[0]:.1f}")
    for n in (int(x) for x in args.cards.split(",")):
        breakdown(w, h, n, args.scenes, args.repeats)


if __name__ == "__main__":
    main()
