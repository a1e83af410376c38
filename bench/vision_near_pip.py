"""What the pip row beside an index (vision.near_pip) makes of the cards the pipeline still misses: a diagnostic for #7.

    .venv/bin/python -m bench.vision_near_pip --scenes 100
    .venv/bin/python -m bench.vision_near_pip --scenes 100 --seed0 500 --list   # every miss

For every face card with an uncovered corner index that the pipeline does not
find (bench/vision.py's scenes), every declined look the pip-row stage was
given near one of its corners (a corner's edge assignment, or a patch the
edge-free finder placed from an ink pair) is classed, and the card counts
under its furthest class:

- ``no look``: no declined look at any of its corners (no corner found, no pair read);
- ``no glyphs``: the reader cut no rank and suit there;
- ``rank unsure, likeliest right`` / ``rank unsure, likeliest wrong``: the
  rank networks' likeliest rank is (is not) the card's, and neither the
  reader's rank rules nor the layout candidate (near_pip.candidate_rank) take it;
- ``rank taken, wrong``: a candidate rank that is not the card's;
- ``row: <why>``: the rank is right, the row was not read (vision.near_pip.read_row's reason);
- ``row read, suit right|wrong, read|declined (<why>)``: the row was read.

Court cards and aces are counted apart (they print no pip row).

    .venv/bin/python -m bench.vision_near_pip --decks      # the row on every installed deck's clean faces

``--decks`` reads the row of every 2-10 face of each installed third-party
deck (vision.decks), drawn on white paper at the stage's 2 px/mm and a
720p frame's blur: whether it lies where the rank's first row does, whether
its suit is read sure and right, and whether it would contradict the
card's own (right) reading; and, for every face (aces and court cards
too) from either index corner, which number ranks the layout beside the
index rules out (near_pip.contradicts_rank), and whether one is its own."""

from __future__ import annotations

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision.pipeline as vp  # noqa: E402
from bench.vision_misses import _found_cards  # noqa: E402
from vision import glyph_model, near_pip  # noqa: E402
from vision.corner_index import evidence, extract_glyphs  # noqa: E402
from vision.glyphs import NUMBER_RANKS, RANKS, SUITS  # noqa: E402
from vision.index_pairs import card_corner  # noqa: E402
from vision.scene import render_scene  # noqa: E402
from vision.suit_decision import likeliest_suit, suit_share  # noqa: E402


def _look_class(card, ev, rank, row) -> tuple[int, str]:
    """(how far the look got, its class) for a look at ``card``."""
    if ev is None:
        return 0, "no glyphs"
    if rank is None:
        top = glyph_model.RANK_CLASSES[int(np.argmax(ev.rank_p))] if ev.rank_p is not None else ""
        return 1, "rank unsure, likeliest " + ("right" if top == card.rank else "wrong")
    if rank != card.rank:
        return 2, "rank taken, wrong"
    if row.why:
        return 3, f"row: {row.why}"
    si, share = likeliest_suit(row.suit_p, row.red)
    r = near_pip.decide(ev, row)
    if r is not None:
        why = "read"
    elif not near_pip.fits_rank(row.centres, rank):
        why = "declined (not where the rank's first row lies)"
    elif near_pip.sure_number_rank(ev) is None and near_pip.layout_rank(ev, row) is None:
        why = "declined (the layout names no rank)"
    elif share < near_pip.NEAR_PIPS.suit or row.suit_p[-1] > near_pip.NEAR_PIPS.junk:
        why = "declined (row unsure)"
    elif ev.glyphs.red != row.red:
        why = "declined (index ink of the other colour)"
    elif suit_share(ev.suit_p, row.red, si) < near_pip.NEAR_PIPS.index_suit:
        why = "declined (the index rules the suit out)"
    else:
        why = "declined"
    return 4, f"row read, suit {'right' if SUITS[si] == card.suit else 'wrong'}, {why}"


def classify(n_scenes: int, seed0: int = 0, misses: list | None = None) -> collections.Counter:
    tally: collections.Counter = collections.Counter()
    looks: list = []
    real = vp.VisionPipeline._near_pip_cards

    def traced(self, frame, plane, declined, blobs, found, pair_declined=(), mask=None, glyphs_of=extract_glyphs):
        every = [(c.point, u, v, patch, blobs[c.blob].contour_plane) for c, u, v, patch in declined]
        every += [(pc, u, v, patch, None) for pc, u, v, patch in pair_declined]
        for point, u, v, patch, contour in every:
            gl = extract_glyphs(patch)
            if gl is not None and contour is None:
                point = card_corner(point, u, v, gl.rank_box)
            ev = evidence(gl, self.refs, full=True) if gl is not None and gl.red is not None else None
            rank = near_pip.candidate_rank(ev) if ev is not None else None
            row = near_pip.sample_row(frame, plane, point, u, v, contour=contour, mask=mask if contour is None else None)
            looks.append((plane.to_frame(np.array([point]))[0], ev, rank, row))
        return real(self, frame, plane, declined, blobs, found, pair_declined, mask, glyphs_of)

    vp.VisionPipeline._near_pip_cards = traced
    try:
        for i in range(seed0, seed0 + n_scenes):
            img, truth = render_scene(1280, 720, 4 + (i % 9), seed=i, mat=i % 3 != 2)
            looks.clear()
            res = vp.VisionPipeline().process(img)
            ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
            found = _found_cards(res, truth, ppm)
            best: dict[int, tuple[int, str]] = {}
            for p, ev, rank, row in looks:
                d = [(float(np.linalg.norm(c.corners_px[k] - p)), ci) for ci, c in enumerate(truth.cards) if c.kind == "face" for k in range(4)]
                dist, ci = min(d) if d else (np.inf, -1)
                if dist >= 3 * ppm or ci in found or not truth.cards[ci].readable:
                    continue
                cls = _look_class(truth.cards[ci], ev, rank, row)
                if ci not in best or cls[0] > best[ci][0]:
                    best[ci] = cls
            for ci, card in enumerate(truth.cards):
                if card.kind != "face" or not card.readable:
                    continue
                tally["expected"] += 1
                if ci in found:
                    continue
                kind = "number" if card.rank in NUMBER_RANKS else "ace or court"
                cls = best.get(ci, (-1, "no look"))[1]
                tally[(kind, cls)] += 1
                tally["missed"] += 1
                if misses is not None:
                    misses.append((i, f"{card.rank} {card.suit}", cls))
    finally:
        vp.VisionPipeline._near_pip_cards = real
    return tally


def layout_rules(t: collections.Counter, face: np.ndarray, rank: str) -> None:
    """Count what near_pip.contradicts_rank says of a face seen from either
    index corner (its paper the card, as the pipeline's region ends at its
    edge): the number ranks it rules out, and whether one is its own."""
    for f in (face, np.ascontiguousarray(face[::-1, ::-1])):
        paper = np.zeros(f.shape[:2], np.uint8)
        paper[1:-1, 1:-1] = 1
        row = near_pip.read_row(f, paper, layout_only=True)
        out = [q for q in NUMBER_RANKS if near_pip.contradicts_rank(row, q)]
        t["layout: looks"] += 1
        t["layout: wrong number ranks ruled out"] += len([q for q in out if q != rank])
        if rank in out:
            t["layout: RULES OUT the face's own rank"] += 1


def deck_rows() -> collections.Counter:
    """bench.vision_near_pip --decks: per deck and in total."""
    from vision import decks
    from vision import geometry as g
    from vision.pips import FACE_PPM

    total: collections.Counter = collections.Counter()
    for deck in decks.decks():
        t: collections.Counter = collections.Counter()
        for rank in RANKS:
            for suit in SUITS:
                try:
                    art = deck(rank, suit)
                except Exception:  # noqa: BLE001 - a face the renderer cannot draw is left out
                    continue
                a = art[:, :, 3:4].astype(np.float32) / 255
                bgr = (art[:, :, :3].astype(np.float32) * a + 235 * (1 - a)).astype(np.uint8)
                face = cv2.resize(bgr, (round(g.CARD_W * FACE_PPM), round(g.CARD_H * FACE_PPM)), interpolation=cv2.INTER_AREA)
                face = cv2.GaussianBlur(face, (0, 0), 0.8)
                layout_rules(t, face, rank)
                if rank not in NUMBER_RANKS:
                    continue
                row = near_pip.read_row(face, np.ones(face.shape[:2], np.uint8))
                t["faces"] += 1
                if row.why:
                    t[f"not read: {row.why}"] += 1
                    continue
                if not near_pip.fits_rank(row.centres, rank):
                    t["not where the rank's first row lies"] += 1
                    continue
                si, share = likeliest_suit(row.suit_p, row.red)
                sure = share >= near_pip.NEAR_PIPS.suit and row.suit_p[-1] <= near_pip.NEAR_PIPS.junk
                t[f"fits, suit {'right' if SUITS[si] == suit else 'WRONG'}{'' if sure else ', unsure'}"] += 1
                if near_pip.contradicts(row, rank, suit):
                    t["CONTRADICTS the right reading"] += 1
        print(f"  {deck.name:32s} " + ", ".join(f"{k} {v}" for k, v in sorted(t.items())))
        total.update(t)
    print("all decks: " + ", ".join(f"{k} {v}" for k, v in sorted(total.items())))
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--list", action="store_true", help="print every miss: seed, card, class")
    ap.add_argument("--decks", action="store_true", help="the row on every installed third-party deck's clean number faces")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.decks:
        deck_rows()
        return
    misses: list = []
    t = classify(args.scenes, args.seed0, misses)
    e = t["expected"] or 1
    print(f"{args.scenes} scenes from seed {args.seed0}: {t['expected']} face cards with an uncovered index, {t['missed']} missed")
    for kind in ("number", "ace or court"):
        rows = sorted(((k[1], v) for k, v in t.items() if isinstance(k, tuple) and k[0] == kind), key=lambda kv: -kv[1])
        print(f"  {kind} cards missed: {sum(v for _, v in rows)}")
        for cls, v in rows:
            print(f"    {cls:66s} {v:4d}  {100 * v / e:5.1f} %")
    if args.list:
        for seed, card, cls in misses:
            print(f"  seed {seed} {card}: {cls}")


if __name__ == "__main__":
    main()
