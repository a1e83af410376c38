"""How often the pipeline gets the stack order of overlapping cards right.

    .venv/bin/python -m bench.vision_stack --scenes 100
    .venv/bin/python -m bench.vision_stack --scenes 100 --seed0 500 --without-evidence

For every pair of overlapping card sightings that both match a generated card
(same rank and suit, read where that card's index is), the pair is *right*
when the sighting of the card drawn later (on top) is above the other and not
the other way round, *wrong* when it is the other way round, and *unknown*
when neither or both are above.  ``--without-evidence`` switches off
VisionPipeline._stack_evidence (the checks of a card's other corners) to
measure what it adds.  Same scenes as bench/vision.py's accuracy run."""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import pipeline as vp  # noqa: E402
from vision.evaluate import _index_spots  # noqa: E402
from vision.scene import render_scene  # noqa: E402


def _matches(result, truth) -> dict[int, int]:
    """Sighting id -> index in truth.cards (draw order) of the card it reads."""
    ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
    out = {}
    for sg in result.sightings:
        if sg.kind != "card":
            continue
        best = None
        for ti, c in enumerate(truth.cards):
            if c.kind != "face" or (c.rank, c.suit) != (sg.rank, sg.suit):
                continue
            d = min(np.linalg.norm(np.array(a) - sp) for a in sg.anchors_px for sp in _index_spots(c, truth.homography))
            if d < 9 * ppm and (best is None or d < best[0]):
                best = (d, ti)
        if best:
            out[sg.id] = best[1]
    return out


def tally(n_scenes: int, seed0: int, evidence: bool = True) -> dict[str, int]:
    if not evidence:
        vp.VisionPipeline._stack_evidence = lambda self, *a: set()
    t = {"right": 0, "wrong": 0, "unknown": 0}
    for i in range(seed0, seed0 + n_scenes):
        img, truth = render_scene(1280, 720, 4 + (i % 9), seed=i, mat=i % 3 != 2)
        result = vp.VisionPipeline().process(img)
        m = _matches(result, truth)
        by = {sg.id: sg for sg in result.sightings}
        for a in m:
            for b in m:
                if a >= b or b not in by[a].overlaps:
                    continue
                a_up, b_up = b in by[a].above, a in by[b].above
                if a_up == b_up:
                    t["unknown"] += 1
                else:
                    top = a if a_up else b
                    t["right" if top == (a if m[a] > m[b] else b) else "wrong"] += 1
    return t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--without-evidence", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    t = tally(args.scenes, args.seed0, not args.without_evidence)
    n = sum(t.values()) or 1
    print(f"{args.scenes} scenes from seed {args.seed0}{' (without stack evidence)' if args.without_evidence else ''}: {n} overlapping pairs of read cards")
    for k in ("right", "wrong", "unknown"):
        print(f"  {k:8s} {t[k]:5d}  {100 * t[k] / n:5.1f} %")


if __name__ == "__main__":
    main()
