"""Where the cards the pipeline does not find are lost: a diagnostic for #7.

    .venv/bin/python -m bench.vision_misses --scenes 60
    .venv/bin/python -m bench.vision_misses --scenes 60 --list          # every miss, seed and card
    .venv/bin/python -m bench.vision_misses --scenes 10 --deck kde/standard   # a third-party deck
    .venv/bin/python -m bench.vision_misses --scenes 3 --seed0 1000 --size 4000x3000 --deck neoclassical  # photo size, no mat

For every face card with an uncovered corner index (the same scenes as
bench/vision.py's accuracy run), the best of its uncovered index corners is put
in one class:

- ``corner_read_ok``: a paper corner was found there and the reader reads it right;
- ``corner_misread``: a corner was found and read, but wrong;
- ``corner_declined``: a corner was found and the reader declines both edge assignments;
- ``no_corner``: no paper corner was found within 4 mm of the card's corner
  (an index on a card under others, touching another card, a blurred edge).

``found``/``expected`` are bench/vision.py's figures for the same scenes, which
also count indices found without an outer corner (staggered stacks).

Then, for every card the pipeline does not find, what the edge-free finder
(vision.index_pairs) made of its uncovered indices (the best fate over them):

- ``finder_read``: the finder read a pair there (yet no sighting counts: merged away, misplaced outline);
- ``finder_misplaced``: a reading, but its rank is not where the pair put it;
- ``finder_declined``: a patch placed from a pair there, and the reader declines it;
- ``finder_not_tried``: a pair there, not read (over ``MAX_TRIES``, or its spots used or tried already);
- ``finder_no_edge``: a pair there with no card end seen beyond its rank's top, not read (over ``MAX_BLIND_TRIES``);
- ``finder_wrong_way``: pairs there, none running the card's way (rank -> suit);
- ``finder_skipped``: ink spots there are skipped as known (near the index of a card read or found; since session 41 not those at a tried corner's index places, whose pairs are tried last and held to more: "declined" or "not_tried" then);
- ``finder_no_pair``: ink spots there, but no pair of index layout;
- ``finder_faint_or_size``: paper holes there, but none passes the ink-contrast or size test;
- ``finder_no_spot``: no ink spot on paper there at all (the index is not inside the paper mask)."""

from __future__ import annotations

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision.pipeline as vp  # noqa: E402
from bench.vision_decks_photo import photo_scene  # noqa: E402
from vision.cards import find_corners, find_notched_corners, sample_patch, table_share_fn  # noqa: E402
from vision.corner_index import read_patch  # noqa: E402
from vision.evaluate import _index_spots, score  # noqa: E402
from vision.index_pairs import find_index_pairs  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402

FINDER_FATES = (
    "finder_read",
    "finder_misplaced",
    "finder_declined",
    "finder_not_tried",
    "finder_no_edge",
    "finder_wrong_way",
    "finder_skipped",
    "finder_no_pair",
    "finder_faint_or_size",
    "finder_no_spot",
)
_CAND_FATE = {
    "read": "finder_read",
    "misplaced": "finder_misplaced",
    "declined": "finder_declined",
    "cap": "finder_not_tried",
    "used": "finder_not_tried",
    "repeat": "finder_not_tried",
    "no_edge": "finder_no_edge",
}


def _traced_pipeline(pipe: VisionPipeline, img):
    """Run ``pipe`` on ``img`` with the finder traced: (result, trace, finder args)."""
    seen: dict = {}

    def traced(*a, **k):
        seen["args"] = a
        seen["trace"] = {}
        return find_index_pairs(*a, **k, trace=seen["trace"])

    # without a mat the frame is read at several scales (VisionPipeline._search_scale):
    # the trace wanted is the finder's in the reading that was kept, not the last one
    runs: list = []
    inner = pipe._process

    def process_once(*a, **k):
        seen.clear()
        r = inner(*a, **k)
        runs.append((r, seen.get("trace", {}), seen.get("args")))
        return r

    real, vp.find_index_pairs = vp.find_index_pairs, traced
    pipe._process = process_once
    try:
        res = pipe.process(img)
    finally:
        vp.find_index_pairs = real
        del pipe._process
    for r, trace, args in runs:
        if r is res:
            return res, trace, args
    return res, seen.get("trace", {}), seen.get("args")


def _card_frames(card) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(corner, u, v) in the card's plane mm for each index corner, in
    ``index_visible`` order (0, 2, 1, 3)."""
    c = np.asarray(card.corners_mm, np.float64)
    out = []
    for k in (0, 2, 1, 3)[: len(card.index_visible)]:
        short = c[(k + 1) % 4] - c[k] if k in (0, 2) else c[k - 1] - c[k]
        long_ = c[(k + 3) % 4] - c[k] if k in (0, 2) else c[(k + 1) % 4] - c[k]
        out.append((c[k], short / np.linalg.norm(short), long_ / np.linalg.norm(long_)))
    return out


#: the generator's index box in card mm (x0, y0, x1, y1): about where its styles put it
GENERATOR_INDEX_BOX = (3.0, 4.0, 9.0, 17.0)


def finder_fate(card, truth, trace: dict, args, ppm: float, index_box=GENERATOR_INDEX_BOX) -> str:
    """What the finder made of ``card``'s uncovered indices (the best fate
    over them).  ``index_box``: where the deck's index lies, card mm from its
    corner (x0, y0, x1, y1)."""
    if not trace or args is None:
        return "finder_no_spot"
    plane, holes = args[1], trace.get("holes", args[2])
    H = truth.homography
    spots = trace["spots"]
    spot_px = plane.to_frame(spots.centres) if len(spots.centres) else np.zeros((0, 2))
    stats, cents = holes
    hole_px = plane.to_frame(plane.to_plane(cents[1:])) if len(cents) > 1 else np.zeros((0, 2))
    x0, y0, x1, y1 = index_box
    xc, half = (x0 + x1) / 2, (y1 - y0) / 2
    fates = []
    for (corner, u, v), vis in zip(_card_frames(card), card.index_visible, strict=False):
        if not vis:
            continue
        # the rank's top and the index's middle
        pts = cv2.perspectiveTransform(
            np.float32([corner + xc * u + y0 * v, corner + xc * u + (y0 + half) * v]).reshape(-1, 1, 2), H
        ).reshape(-1, 2)
        top_px, mid = pts[0], pts[1]
        vdir = (mid - top_px) / np.linalg.norm(mid - top_px)
        best = None
        for top, cv_, _ids, fate in trace["cands"]:
            tp = plane.to_frame(np.array([top, top + cv_]))
            if np.linalg.norm(tp[0] - top_px) > max(4.0, 0.4 * half) * ppm:
                continue
            d = (tp[1] - tp[0]) / max(np.linalg.norm(tp[1] - tp[0]), 1e-9)
            f = _CAND_FATE[fate] if float(d @ vdir) > 0.8 else "finder_wrong_way"
            best = f if best is None or FINDER_FATES.index(f) < FINDER_FATES.index(best) else best
        if best is None:
            near = np.linalg.norm(spot_px - mid, axis=1) < half * ppm if len(spot_px) else np.zeros(0, bool)
            if near.any():
                best = "finder_no_pair" if (~trace["skip"][near]).any() else "finder_skipped"
            elif len(hole_px) and (np.linalg.norm(hole_px - mid, axis=1) < half * ppm).any():
                best = "finder_faint_or_size"
            else:
                best = "finder_no_spot"
        fates.append(best)
    return min(fates, key=FINDER_FATES.index) if fates else "finder_no_spot"


def _found_cards(res, truth, ppm: float) -> set[int]:
    """Ids (positions in truth.cards) of face cards some card sighting lies at (score's 9 mm rule)."""
    out = set()
    for ci, card in enumerate(truth.cards):
        if card.kind != "face":
            continue
        spots = _index_spots(card, truth.homography)
        if any(
            np.linalg.norm(np.array(a) - sp) < 9 * ppm
            for sg in res.sightings
            if sg.kind == "card"
            for a in sg.anchors_px
            for sp in spots
        ):
            out.add(ci)
    return out


def classify(
    n_scenes: int,
    seed0: int = 0,
    misses: list | None = None,
    deck=None,
    size: tuple[int, int] | None = None,
    bench_size: tuple[int, int] = (1280, 720),
    background: str | None = None,
) -> collections.Counter:
    """Tally of corner classes and, for cards missed, finder fates; ``misses``
    (when given) gets (seed, card index, corner class, finder fate) per miss.
    ``deck``: a third-party deck's faces (:class:`vision.decks.Deck`) instead
    of the generator's.  ``size``: bench.vision_decks_photo's scenes instead
    (that size, no mat, 6-9 cards).  ``bench_size``: bench/vision.py's scenes
    at this frame size (its ``--size``).  ``background``: every scene on this
    table instead of one drawn at random."""
    tally: collections.Counter = collections.Counter()
    for i in range(seed0, seed0 + n_scenes):
        if size is None:
            img, truth = render_scene(*bench_size, 4 + (i % 9), seed=i, mat=i % 3 != 2, faces=deck, background=background)
        else:
            img, truth = photo_scene(i, seed0, size, deck, background)
        pipe = VisionPipeline()
        res, trace, args = _traced_pipeline(pipe, img)
        s = score(res, truth)
        tally["expected"] += s.expected
        tally["found"] += s.found
        tally["read"] += s.read
        *_, bg, _mask, plane, blobs = pipe._prepare(img)
        share = table_share_fn(img, plane, bg)
        corners = []
        for bi, b in enumerate(blobs):
            found_here = find_corners(bi, b, plane.metric)
            corners += found_here + find_notched_corners(bi, b, plane.metric, found_here, share)
        cpx = plane.to_frame(np.array([c.point for c in corners])) if corners else np.zeros((0, 2))
        ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
        found = _found_cards(res, truth, ppm)
        for ci, card in enumerate(truth.cards):
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
                reads = [
                    read_patch(sample_patch(img, plane, co.point, u, v), pipe.refs)
                    for u, v in ((co.d1, co.d2), (co.d2, co.d1))
                ]
                reads = [r for r in reads if r is not None]
                if any((r.rank, r.suit) == (card.rank, card.suit) for r in reads):
                    best = "corner_read_ok"
                    break
                if reads:
                    best = "corner_misread"
                elif best == "no_corner":
                    best = "corner_declined"
            tally[best] += 1
            if ci not in found:
                tally["missed"] += 1
                fate = finder_fate(
                    card, truth, trace, args, ppm, GENERATOR_INDEX_BOX if deck is None else deck.index_box
                )
                tally[(best, fate)] += 1
                tally[fate] += 1
                if misses is not None:
                    misses.append((i, ci, best, fate))
    return tally


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=60)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--size", help="WxH: bench.vision_decks_photo's no-mat scenes at this size (e.g. 4000x3000; --seed0 1000 for its seeds)")
    ap.add_argument("--bench-size", default="1280x720", help="WxH: bench/vision.py's scenes at this size (its --size)")
    ap.add_argument("--background", default=None, help="every scene on this table: wood, felt, light, plaid, white, bright or black")
    ap.add_argument("--list", action="store_true", help="print every miss: seed, card, corner class, finder fate")
    ap.add_argument(
        "--deck",
        action="append",
        default=[],
        help="a third-party deck (bench/vision_decks.py) whose name contains this (repeatable); each is classified apart",
    )
    args = ap.parse_args()
    cv2.setNumThreads(1)
    from vision import decks as decklib

    for deck in decklib.chosen(args.deck):
        report(args, deck)


def report(args, deck) -> None:
    misses: list = []
    size = tuple(int(x) for x in args.size.lower().split("x")) if args.size else None
    bench_size = tuple(int(x) for x in args.bench_size.lower().split("x"))
    t = classify(args.scenes, args.seed0, misses, deck, size, bench_size, args.background)
    e = t["expected"] or 1
    name = f" ({deck.name})" if deck is not None else ""
    print(f"{args.scenes} scenes from seed {args.seed0}{name}: {t['expected']} face cards with an uncovered index")
    print(
        f"  pipeline found {t['found']} ({100 * t['found'] / e:.1f} %), read right {t['read']} ({100 * t['read'] / max(t['found'], 1):.1f} % of found)"
    )
    for k in ("corner_read_ok", "corner_misread", "corner_declined", "no_corner"):
        print(f"  {k:16s} {t[k]:5d}  {100 * t[k] / e:5.1f} %")
    m = t["missed"]
    print(
        f"{m} cards missed ({100 * m / e:.1f} %); what the edge-free finder made of them (no_corner / corner_declined / other):"
    )
    for k in FINDER_FATES:
        if t[k]:
            split = (
                " / ".join(str(t[(c, k)]) for c in ("no_corner", "corner_declined"))
                + f" / {t[k] - t[('no_corner', k)] - t[('corner_declined', k)]}"
            )
            print(f"  {k:22s} {t[k]:5d}  {100 * t[k] / e:5.1f} %   ({split})")
    if args.list:
        for seed, ci, corner, fate in misses:
            print(f"  seed {seed} card {ci}: {corner}, {fate}")


if __name__ == "__main__":
    main()
