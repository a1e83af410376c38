"""Where notched corners land: a diagnostic for #7's corners near index ink.

    .venv/bin/python -m bench.vision_notched --scenes 12
    .venv/bin/python -m bench.vision_notched --scenes 12 --deck kde/standard --deck aisleriot/paris

``vision.cards.find_notched_corners`` extrapolates corners across ink (and
steps) that the plain corner finder cannot see.  Every such corner on the same
scenes as bench/vision.py's accuracy run is put in one class by the card
corner it lies at (within 4 mm): ``index`` (a face card's index corner: what it
is for), ``other_corner`` (another corner of some card: harmless, read and
declined), ``nowhere`` (no card corner: a hand, glare, a junction of
outlines; each costs reads and risks a false card).  Counted apart for the
corners made from the hull's edges and from the outline's own runs.  Also
the CPU time (thread time) of find_corners + find_notched_corners per frame."""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision.cards as vc  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402


def where(point_px: np.ndarray, truth, ppm: float) -> str:
    """The class of a corner at ``point_px`` (frame pixels) in ``truth``'s scene."""
    kind = "nowhere"
    for card in truth.cards:
        d = np.linalg.norm(np.asarray(card.corners_px, np.float64) - point_px, axis=1)
        if d.min() < 4 * ppm:
            if card.kind == "face" and int(d.argmin()) in (0, 2):
                return "index"
            kind = "other_corner"
    return kind


def tally(n_scenes: int, seed0: int = 0, deck=None) -> tuple[collections.Counter, float]:
    """(class counts by method, CPU ms per frame of corner finding) over the scenes."""
    counts: collections.Counter = collections.Counter()
    from_runs: list = []
    real = getattr(vc, "_run_corners", None)  # None: an older vision.cards (``--against`` style comparisons)

    def spy(*a, **k):
        found = real(*a, **k)
        from_runs.extend(found)
        return found

    cpu = 0.0
    if real is not None:
        vc._run_corners = spy
    try:
        for i in range(seed0, seed0 + n_scenes):
            img, truth = render_scene(1280, 720, 4 + (i % 9), seed=i, mat=i % 3 != 2, faces=deck)
            *_, bg, _mask, plane, blobs = VisionPipeline()._prepare(img)
            share = vc.table_share_fn(img, plane, bg)
            ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
            from_runs.clear()
            t = time.thread_time()
            notched = []
            for bi, b in enumerate(blobs):
                notched += vc.find_notched_corners(bi, b, plane.metric, vc.find_corners(bi, b, plane.metric), share)
            cpu += time.thread_time() - t
            for c in notched:
                method = "runs" if any(c is r for r in from_runs) else "hull"
                counts[(method, where(plane.to_frame(c.point[None])[0], truth, ppm))] += 1
    finally:
        if real is not None:
            vc._run_corners = real
    return counts, 1000 * cpu / max(n_scenes, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=12)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--deck", action="append", default=[], help="a third-party deck whose name contains this (repeatable)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    from vision import decks as decklib

    for deck in decklib.chosen(args.deck):
        counts, ms = tally(args.scenes, args.seed0, deck)
        name = deck.name if deck is not None else "generator decks"
        print(f"{name}: {args.scenes} scenes from seed {args.seed0}, corner finding {ms:.1f} ms CPU per frame")
        for method in ("hull", "runs"):
            row = "  ".join(f"{k} {counts[(method, k)]:3d}" for k in ("index", "other_corner", "nowhere"))
            print(f"  notched from {method:4s}: {row}")


if __name__ == "__main__":
    main()
