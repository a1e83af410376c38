"""Where the cards the pipeline does not find are lost: a diagnostic for #7.

    .venv/bin/python -m bench.vision_misses --scenes 60

For every face card with an uncovered corner index (the same scenes as
bench/vision.py's accuracy run), the best of its uncovered index corners is put
in one class:

- ``corner_read_ok``: a paper corner was found there and the reader reads it right;
- ``corner_misread``: a corner was found and read, but wrong;
- ``corner_declined``: a corner was found and the reader declines both edge assignments;
- ``no_corner``: no paper corner was found within 4 mm of the card's corner
  (an index on a card under others, touching another card, a blurred edge).

``found``/``expected`` are bench/vision.py's figures for the same scenes, which
also count indices found without an outer corner (staggered stacks)."""

from __future__ import annotations

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.cards import find_corners, sample_patch  # noqa: E402
from vision.corner_index import read_patch  # noqa: E402
from vision.evaluate import score  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402


def classify(n_scenes: int, seed0: int = 0) -> collections.Counter:
    tally: collections.Counter = collections.Counter()
    for i in range(seed0, seed0 + n_scenes):
        mat = i % 3 != 2
        img, truth = render_scene(1280, 720, 4 + (i % 9), seed=i, mat=mat)
        pipe = VisionPipeline()
        s = score(pipe.process(img), truth)
        tally["expected"] += s.expected
        tally["found"] += s.found
        tally["read"] += s.read
        *_, plane, blobs = pipe._prepare(img)
        corners = [c for bi, b in enumerate(blobs) for c in find_corners(bi, b, plane.metric)]
        cpx = plane.to_frame(np.array([c.point for c in corners])) if corners else np.zeros((0, 2))
        ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
        for card in truth.cards:
            if card.kind != "face" or not card.readable:
                continue
            best = "no_corner"
            for c, vis in zip([0, 2, 1, 3], card.index_visible, strict=False):
                if not vis or not len(cpx):
                    continue
                d = np.linalg.norm(cpx - card.corners_px[c], axis=1)
                if d.min() >= 4 * ppm:
                    continue
                co = corners[int(d.argmin())]
                reads = [read_patch(sample_patch(img, plane, co.point, u, v), pipe.refs) for u, v in ((co.d1, co.d2), (co.d2, co.d1))]
                reads = [r for r in reads if r is not None]
                if any((r.rank, r.suit) == (card.rank, card.suit) for r in reads):
                    best = "corner_read_ok"
                    break
                if reads:
                    best = "corner_misread"
                elif best == "no_corner":
                    best = "corner_declined"
            tally[best] += 1
    return tally


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=60)
    ap.add_argument("--seed0", type=int, default=0)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    t = classify(args.scenes, args.seed0)
    e = t["expected"] or 1
    print(f"{args.scenes} scenes from seed {args.seed0}: {t['expected']} face cards with an uncovered index")
    print(f"  pipeline found {t['found']} ({100 * t['found'] / e:.1f} %), read right {t['read']} ({100 * t['read'] / max(t['found'], 1):.1f} % of found)")
    for k in ("corner_read_ok", "corner_misread", "corner_declined", "no_corner"):
        print(f"  {k:16s} {t[k]:5d}  {100 * t[k] / e:5.1f} %")


if __name__ == "__main__":
    main()
