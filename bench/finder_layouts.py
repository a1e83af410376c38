"""What the edge-free finder's layout tests say about the spots of missed indices (#7).

    .venv/bin/python -m bench.finder_layouts --scenes 12 --deck kde/standard
    .venv/bin/python -m bench.finder_layouts --scenes 20 --seed0 500          # the generator's decks

For every card the pipeline misses (bench/vision_misses.py's scenes and
classes), for each uncovered index corner: the paper holes whose centre lies
in the deck's index box (card mm from the corner: where the rank and suit
are), with their size along the card's true axes, whether they pass the
finder's spot tests (size, ink contrast, skipped as known), and for every
two of them one above the other (the upper one taken as the rank) which of
:func:`vision.index_pairs.candidate_pairs`'s tests the pair fails.  Then a
tally of the failing tests (for each index, those of its pair failing
fewest).  ``--exact`` measures the glyphs from their pixels instead of their
boxes (a turned glyph's box overstates it).  In scenes without a mat whose
scale is searched, the finder's last call is traced, which may not be the
scale the pipeline kept (the plane mm per card mm printed shows it).
"""

from __future__ import annotations

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.vision_misses import GENERATOR_INDEX_BOX, _card_frames, _found_cards, _traced_pipeline  # noqa: E402
from vision import index_pairs as ip  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402


def pair_failures(rh, sh, gap, ratio) -> list[str]:
    """Which of candidate_pairs's single-rank tests a (rank, suit) pair fails."""
    out = []
    if not ip.RANK_H[0] <= rh <= ip.RANK_H[1]:
        out.append(f"rank_h {rh:.1f}")
    if not 0.3 * rh <= sh <= ip.PART_SUIT * rh:
        out.append(f"suit_h/rank_h {sh / rh:.2f}")
    if gap > ip.MAX_GAP:
        out.append(f"gap {gap:.1f}")
    if gap < -0.35 * rh:
        out.append(f"overlap {gap:.1f}")
    if not 0.3 < ratio < 3.0:
        out.append(f"width_ratio {ratio:.2f}")
    return out


def describe(args_, trace, card, deck_box, tally, verbose: bool, exact: bool = False) -> None:
    """Print (with ``verbose``) and tally in ``tally`` the holes in ``card``'s
    uncovered index boxes and the tests their pairs fail.  ``args_``: the
    finder's (frame, plane, holes, mask, gray) and the scene's homography
    (mat mm -> frame px)."""
    plane, holes, mask = args_[1], args_[2], args_[3]
    gray = args_[4] if len(args_) > 4 else None
    stats, cents = holes
    frame_to_plane = np.linalg.inv(plane.plane_to_frame)
    x0, y0, x1, y1 = deck_box
    spots = trace["spots"]
    spot_labels = set(spots.labels.tolist())
    skip_by_label = dict(zip(spots.labels.tolist(), trace["skip"].tolist(), strict=True))
    for (corner, u, v), vis in zip(_card_frames(card), card.index_visible, strict=False):
        if not vis:
            continue
        # card mm -> frame px -> plane mm, for the corner and the axes
        H = args_[-1]  # noqa: N806
        pts = np.float32([corner, corner + u, corner + v]).reshape(-1, 1, 2)
        fpx = cv2.perspectiveTransform(pts, H).reshape(-1, 2)
        pl = cv2.perspectiveTransform(fpx.reshape(-1, 1, 2), frame_to_plane).reshape(-1, 2).astype(np.float64)
        pu, pv = pl[1] - pl[0], pl[2] - pl[0]
        scale = (np.linalg.norm(pu) + np.linalg.norm(pv)) / 2  # plane mm per card mm
        pu, pv = pu / np.linalg.norm(pu), pv / np.linalg.norm(pv)
        if len(stats) <= 1:
            continue
        cp = plane.to_plane(cents[1:]).astype(np.float64)
        rel = cp - pl[0]
        cu, cv_ = rel @ pu / scale, rel @ pv / scale
        inbox = np.nonzero((cu > x0 - 1) & (cu < x1 + 1) & (cv_ > y0 - 1) & (cv_ < y1 + 1))[0]
        if verbose:
            print(f"  corner at plane {pl[0].round(1)}, {len(inbox)} holes in the index box ({scale:.2f} plane mm per card mm)")
        rows = []
        for k in inbox.tolist():
            lab = k + 1
            x, y, w, h, area = stats[lab].tolist()
            box = np.float32([[x, y], [x + w, y], [x, y + h]])
            p0, p1, p2 = plane.to_plane(box).astype(np.float64)
            ex, ey = p1 - p0, p2 - p0
            ev = abs(ex @ pv) + abs(ey @ pv)
            eu = abs(ex @ pu) + abs(ey @ pu)
            if exact:
                pts, px = ip.spot_points(mask, plane, (x, y, w, h, area))
                ev, eu = (float(np.ptp(pts @ d)) + px if len(pts) else 0.0 for d in (pv, pu))
            diag = float(np.linalg.norm(ex + ey))
            contrast = None
            if gray is not None:
                gh, gw = gray.shape
                lo = cv2.minMaxLoc(gray[y : y + h, x : x + w])[0]
                hi = cv2.minMaxLoc(gray[max(y - 2, 0) : min(y + h + 2, gh), max(x - 2, 0) : min(x + w + 2, gw)])[1]
                contrast = hi - lo
            state = "spot" if lab in spot_labels else "dropped"
            if lab in spot_labels and skip_by_label[lab]:
                state = "skipped"
            rows.append((lab, float(cu[k]), float(cv_[k]), ev, eu, diag, area, contrast, state, cp[k]))
            if verbose:
                print(
                    f"    hole {lab}: at card ({cu[k]:.1f}, {cv_[k]:.1f}) mm, along v {ev:.1f} u {eu:.1f} diag {diag:.1f}"
                    f" px {area} contrast {contrast} -> {state}"
                )
            if state == "dropped":
                why = []
                if diag <= ip.GLYPH_DIAG[0]:
                    why.append("small")
                if diag >= 22.0:
                    why.append("large")
                if area < 4:
                    why.append("few_px")
                if contrast is not None and contrast < ip.MIN_INK_CONTRAST:
                    why.append("faint")
                for w_ in why:
                    tally["drop_" + w_] += 1
        # pairs: upper one the rank, lower one the suit (along the true v)
        best = None
        for ra in rows:
            for sb in rows:
                if ra is sb or sb[2] <= ra[2]:
                    continue
                dist = float(np.linalg.norm(sb[9] - ra[9]))
                rh, sh = ra[3], sb[3]
                gap = dist - (rh + sh) / 2
                fails = pair_failures(rh, sh, gap, sb[4] / max(ra[4], 1e-6))
                if not ip.SUIT_DIST[0] < dist < ip.SUIT_DIST[1]:
                    fails.append(f"suit_dist {dist:.1f}")
                fails += [f"{r[8]} {r[0]}" for r in (ra, sb) if r[8] != "spot"]
                if verbose:
                    print(f"    pair {ra[0]} over {sb[0]}: rh {rh:.1f} sh {sh:.1f} gap {gap:.1f} -> {fails or 'ok'}")
                if best is None or len(fails) < len(best):
                    best = fails
        if best is None:
            tally["no_two_holes"] += 1
        else:
            for f in best:
                tally["pair_" + f.split()[0]] += 1
            if not best:
                tally["pair_passes"] += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=12)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--deck", action="append", default=[])
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--exact", action="store_true", help="glyph extents from their pixels, not their boxes")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    from vision import decks as decklib

    for deck in decklib.chosen(args.deck):
        tally: collections.Counter = collections.Counter()
        box = GENERATOR_INDEX_BOX if deck is None else deck.index_box
        for i in range(args.seed0, args.seed0 + args.scenes):
            img, truth = render_scene(1280, 720, 4 + (i % 9), seed=i, mat=i % 3 != 2, faces=deck)
            pipe = VisionPipeline()
            res, trace, fargs = _traced_pipeline(pipe, img)
            if not trace or fargs is None:
                continue
            ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
            found = _found_cards(res, truth, ppm)
            for ci, card in enumerate(truth.cards):
                if card.kind != "face" or not card.readable or ci in found:
                    continue
                if args.verbose:
                    print(f"seed {i} card {ci} {card.rank}{card.suit[0]} (ppm {ppm:.2f})")
                tally["missed"] += 1
                describe((*fargs[:5], truth.homography), trace, card, box, tally, args.verbose, args.exact)
        print(deck.name if deck is not None else "generator", dict(sorted(tally.items())))


if __name__ == "__main__":
    main()
