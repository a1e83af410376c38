"""Whether a change to the vision package leaves every sighting as it was, for #7.

    .venv/bin/python -m bench.vision_same --against 23b1fa1
    .venv/bin/python -m bench.vision_same --against HEAD --scenes 40 --big 4

The ``vision`` package at git revision REV (extracted with ``git archive``,
imported as ``vision_then``, as bench/vision_profile.py does) and the working
tree's run on the same generated scenes: 1280x720 scenes
``render_scene(1280, 720, 4 + i % 9, seed=i, mat=i % 3 != 2)`` for i below
``--scenes``, then ``--big`` 1920x1080 ones (seeds 5000+).  Each scene goes
through one pipeline per package ``--frames`` times (the first frame
calibrates, the rest are the video mode's frames), and every frame's
sightings are compared field by field: kind, label, ids, stacking exactly;
confidences to 1e-6; outlines and anchors to 1e-3 px (outlines on the mat to
1e-3 mm).  Speed-ups that only reorder floating-point sums may move a
confidence in the 7th digit: the largest differences are printed either way.
Exit status 1 when any frame differs beyond those tolerances."""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import pipeline as now_pipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402

CONFIDENCE_TOL = 1e-6
PX_TOL = 1e-3
EXACT = ("id", "kind", "rank", "suit", "marker_id", "back", "overlaps", "above", "stack_level")
POINTS = ("outline_px", "outline_mm", "anchors_px")


def frame_differences(then: list, now: list) -> tuple[list[str], dict[str, float]]:
    """(what differs beyond the tolerances, largest difference per numeric field)
    between two frames' sightings."""
    problems: list[str] = []
    largest = {"confidence": 0.0, **{k: 0.0 for k in POINTS}}
    if len(then) != len(now):
        return [f"{len(then)} sightings then, {len(now)} now: {[s.label for s in then]} / {[s.label for s in now]}"], largest
    for a, b in zip(then, now, strict=True):
        for k in EXACT:
            if getattr(a, k) != getattr(b, k):
                problems.append(f"sighting {a.id} {k}: {getattr(a, k)!r} then, {getattr(b, k)!r} now")
        d = abs(float(a.confidence) - float(b.confidence))
        largest["confidence"] = max(largest["confidence"], d)
        if not d <= CONFIDENCE_TOL:
            problems.append(f"sighting {a.id} confidence {a.confidence!r} then, {b.confidence!r} now")
        for k in POINTS:
            pa, pb = getattr(a, k), getattr(b, k)
            if (pa is None) != (pb is None) or (pa is not None and np.shape(pa) != np.shape(pb)):
                problems.append(f"sighting {a.id} {k}: {pa} then, {pb} now")
                continue
            if pa is None or len(pa) == 0:
                continue
            d = float(np.max(np.abs(np.asarray(pa, np.float64) - np.asarray(pb, np.float64))))
            largest[k] = max(largest[k], d)
            if not d <= PX_TOL:
                problems.append(f"sighting {a.id} {k} moved {d:.4g}: {pa} then, {pb} now")
    return problems, largest


def scenes(count: int, big: int):
    """(name, image) of the scenes compared."""
    for i in range(count):
        img, _ = render_scene(1280, 720, 4 + i % 9, seed=i, mat=i % 3 != 2)
        yield f"720p seed {i}", img
    for i in range(big):
        img, _ = render_scene(1920, 1080, 4 + (i * 5) % 9, seed=5000 + i, mat=i % 3 != 2)
        yield f"1080p seed {5000 + i}", img


def load_then(rev: str, tmp: str, module: str = "pipeline"):
    """A module (``pipeline`` unless told) of the vision package at ``rev``,
    extracted into ``tmp`` as the package ``vision_then``, so that it runs
    beside today's in one process."""
    root = Path(__file__).resolve().parent.parent
    tar = subprocess.run(["git", "archive", rev, "vision"], cwd=root, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
    os.rename(os.path.join(tmp, "vision"), os.path.join(tmp, "vision_then"))
    sys.path.insert(0, tmp)
    return importlib.import_module(f"vision_then.{module}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", metavar="REV", default="HEAD", help="the vision package at this git revision (default HEAD)")
    ap.add_argument("--scenes", type=int, default=120, help="1280x720 scenes (seeds 0..N-1)")
    ap.add_argument("--big", type=int, default=12, help="1920x1080 scenes (seeds 5000..)")
    ap.add_argument("--frames", type=int, default=2, help="frames per scene through one pipeline")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        then_pipeline = load_then(args.against, tmp)
        largest = {"confidence": 0.0, **{k: 0.0 for k in POINTS}}
        frames = differ = sightings = 0
        for name, img in scenes(args.scenes, args.big):
            a, b = then_pipeline.VisionPipeline(), now_pipeline.VisionPipeline()
            for f in range(args.frames):
                ra, rb = a.process(img), b.process(img)
                problems, big = frame_differences(ra.sightings, rb.sightings)
                frames += 1
                sightings += len(ra.sightings)
                for k, v in big.items():
                    largest[k] = max(largest[k], v)
                if problems:
                    differ += 1
                    print(f"{name} frame {f}: " + "; ".join(problems[:4]), flush=True)
    print(
        f"{frames} frames ({sightings} sightings then) against {args.against}: {differ} differ; largest differences: "
        + ", ".join(f"{k} {v:.3g}" for k, v in largest.items())
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
