"""The reader's two small networks' own CPU time per call, as they were at a
git revision (the numpy reference, HEAD by default) and in the working tree:

    .venv/bin/python -m bench.vision_nets
    .venv/bin/python -m bench.vision_nets --against 0c19f9a --scenes 8 --rounds 15

The inputs are real ones: the working tree's pipeline runs on generated
720p scenes (``render_scene(1280, 720, 12, seed=1000 + k, mat=True)``) and
every call of ``patch_model.input_probs`` (the whole-patch network, one
patch a call) and of ``glyph_model.rank_probs`` / ``suit_probs`` (the glyph
networks' ensemble, with the reader's early-exit bounds) is recorded.  Then
both versions run all of them, interleaved round by round (a busy machine's
load hits both alike), single thread (cv2.setNumThreads(1),
OPENBLAS_NUM_THREADS=1), timed with time.thread_time; printed: the median
round's ms per call, the ratio, and the largest difference of the
probabilities (and whether the early exits, None, are the same)."""

from __future__ import annotations

import argparse
import importlib
import os
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
import numpy as np  # noqa: E402

from vision import glyph_model, patch_model  # noqa: E402
from vision import pipeline as pl  # noqa: E402
from vision.scene import render_scene  # noqa: E402


def record(scenes: int) -> tuple[list[np.ndarray], list[tuple]]:
    """The network inputs of ``scenes`` frames: patch_model.input_probs's
    ``x``, and (kind, ink, view, bounds) of every rank_probs / suit_probs."""
    patches, glyphs = [], []
    saved = patch_model.input_probs, glyph_model.rank_probs, glyph_model.suit_probs

    def input_probs(x):
        patches.append(np.array(x))
        return saved[0](x)

    def rank_probs(ink, view, *bounds):
        glyphs.append(("rank", np.array(ink), np.array(view), bounds))
        return saved[1](ink, view, *bounds)

    def suit_probs(ink, view, *bounds):
        glyphs.append(("suit", np.array(ink), np.array(view), bounds))
        return saved[2](ink, view, *bounds)

    patch_model.input_probs, glyph_model.rank_probs, glyph_model.suit_probs = input_probs, rank_probs, suit_probs
    try:
        for k in range(scenes):
            pl.VisionPipeline(reuse_static=False).process(render_scene(1280, 720, 12, seed=1000 + k, mat=True)[0])
    finally:
        patch_model.input_probs, glyph_model.rank_probs, glyph_model.suit_probs = saved
    return patches, glyphs


def _largest_difference(a, b) -> float:
    """Largest |a - b| of two outputs (arrays, tuples of arrays, or None: inf when only one is None)."""
    if a is None or b is None:
        return 0.0 if a is None and b is None else float("inf")
    if isinstance(a, tuple):
        return max(_largest_difference(x, y) for x, y in zip(a, b, strict=True))
    return float(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max())


def compare(name: str, calls, then_fn, now_fn, rounds: int, per_frame: float) -> None:
    """Time ``then_fn`` and ``now_fn`` on every argument tuple of ``calls``, interleaved; print one line."""
    diff = max(_largest_difference(then_fn(*c), now_fn(*c)) for c in calls)
    t_then, t_now = [], []
    for _ in range(rounds):
        for fn, out in ((then_fn, t_then), (now_fn, t_now)):
            t = time.thread_time()
            for c in calls:
                fn(*c)
            out.append((time.thread_time() - t) / len(calls) * 1e3)
    a, b = statistics.median(t_then), statistics.median(t_now)
    print(
        f"{name:32s} then {a:6.3f} ms/call (min {min(t_then):.3f}), now {b:6.3f} ms/call (min {min(t_now):.3f}); "
        f"now/then {b / a:.2f}; {per_frame:5.1f} calls/frame: {per_frame * (a - b):5.2f} ms/frame saved; "
        f"largest probability difference {diff:.2e}",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", default="HEAD", metavar="REV", help="the vision package at this git revision is 'then'")
    ap.add_argument("--scenes", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=11)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    patches, glyphs = record(args.scenes)
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        tar = subprocess.run(["git", "archive", args.against, "vision"], cwd=root, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
        os.rename(os.path.join(tmp, "vision"), os.path.join(tmp, "vision_then"))
        sys.path.insert(0, tmp)
        then_patch = importlib.import_module("vision_then.patch_model")
        then_glyph = importlib.import_module("vision_then.glyph_model")
        print(f"OpenCV {cv2.__version__}, threads {cv2.getNumThreads()}, numpy {np.__version__}; "
              f"{args.scenes} scenes: {len(patches)} patch calls, {len(glyphs)} glyph calls; "
              f"vision at {args.against} (then) against the working tree (now); load {os.getloadavg()[0]:.1f}")

        def glyph(mod):
            return lambda kind, ink, view, bounds: (mod.rank_probs if kind == "rank" else mod.suit_probs)(ink, view, *bounds)

        n = args.scenes
        compare("patch_model.input_probs", [(x,) for x in patches], then_patch.input_probs, patch_model.input_probs, args.rounds, len(patches) / n)
        compare("glyph_model.rank/suit_probs", glyphs, glyph(then_glyph), glyph(glyph_model), args.rounds, len(glyphs) / n)


if __name__ == "__main__":
    main()
