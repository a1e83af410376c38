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
``--cprofile`` prints the top functions of one 12-card scene instead.

``--against REV`` compares instead: the whole ``vision`` package as it was at
git revision REV against the working tree, the two interleaved frame by frame
in one process (a busy machine's load hits both alike; timing them one after
the other on a shared machine gave differences of 20 % either way), with
whether their sightings are the same:

    .venv/bin/python bench/vision_profile.py --against cdaaf2d --scenes 5 --repeats 6
    .venv/bin/python bench/vision_profile.py --against cdaaf2d --size 1920x1080 --repeats 4"""

from __future__ import annotations

import argparse
import collections
import cProfile
import importlib
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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
    "find_notched_corners",
    "find_backs",
    "table_share_fn",
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
#: (inclusive: a step's time holds the steps it calls)
METHODS = (
    "_prepare",
    "_read_corner",
    "_pips_contradict",
    "_fused",
    "_holes",
    "_sibling_indices",
    "_pip_faces",
    "_near_pip_cards",
    "_markers",
    "_inner_paper",
    "_unread",
    "_stack_evidence",
    "_finish",
)

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
          f"(p90 {1000 * _p90(totals):.1f}, mean {1000 * statistics.mean(totals):.1f})")
    print(f"  {'step':22s} {'median':>7s} {'p90':>7s} {'mean':>7s}  calls/frame")
    names = sorted({k for f in frames for k in f[1]}, key=lambda k: -sum(f[1].get(k, 0) for f in frames))
    for name in names:
        vals = sorted(f[1].get(name, 0.0) for f in frames)
        calls = statistics.mean(f[2].get(name, 0) for f in frames)
        print(f"  {name:22s} {1000 * statistics.median(vals):7.2f} {1000 * _p90(vals):7.2f} {1000 * statistics.mean(vals):7.2f}  {calls:6.1f}")


def _p90(sorted_vals: list[float]) -> float:
    """The 90th percentile of sorted values, as bench/vision.py takes it."""
    return sorted_vals[int(len(sorted_vals) * 0.9)]


def _sightings(result) -> list:
    return [(s.kind, s.rank, s.suit, s.marker_id, s.back, s.anchors_px, s.outline_px, s.above) for s in result.sightings]


def against(rev: str, w: int, h: int, cards, count: int, repeats: int) -> None:
    """The pipeline at ``rev`` and now, interleaved: CPU ms per frame (median,
    p90, and now/then per scene) and whether the sightings are the same."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        tar = subprocess.run(["git", "archive", rev, "vision"], cwd=root, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
        os.rename(os.path.join(tmp, "vision"), os.path.join(tmp, "vision_then"))
        sys.path.insert(0, tmp)
        then = importlib.import_module("vision_then.pipeline")
        print(f"OpenCV {cv2.__version__}, threads {cv2.getNumThreads()}; vision at {rev} (then) against the working tree (now)")
        for n in cards:
            t_then, t_now, ratios, differ = [], [], [], 0
            for img in scenes(w, h, n, count):
                a, b = then.VisionPipeline(reuse_static=False), pl.VisionPipeline(reuse_static=False)
                ra, rb = a.process(img), b.process(img)  # calibrated once each
                ta, tb = [], []
                for _ in range(repeats):
                    c = time.thread_time()
                    ra = a.process(img)
                    ta.append(time.thread_time() - c)
                    c = time.thread_time()
                    rb = b.process(img)
                    tb.append(time.thread_time() - c)
                differ += _sightings(ra) != _sightings(rb)
                t_then += ta
                t_now += tb
                ratios.append(statistics.median(tb) / statistics.median(ta))
            t_then.sort()
            t_now.sort()
            print(f"{w}x{h}, {n:2d} cards: then {1000 * statistics.median(t_then):6.1f} ms (p90 {1000 * _p90(t_then):6.1f}), "
                  f"now {1000 * statistics.median(t_now):6.1f} ms (p90 {1000 * _p90(t_now):6.1f}); now/then per scene "
                  f"{' '.join(f'{r:.2f}' for r in ratios)}; sightings differ in {differ} of {count} scenes; "
                  f"load {os.getloadavg()[0]:.1f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--cards", default="0,6,12")
    ap.add_argument("--scenes", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=6)
    ap.add_argument("--cprofile", action="store_true")
    ap.add_argument("--against", metavar="REV", help="compare with the vision package at this git revision")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    w, h = (int(x) for x in args.size.split("x"))
    if args.against:
        against(args.against, w, h, [int(x) for x in args.cards.split(",")], args.scenes, args.repeats)
        return
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
