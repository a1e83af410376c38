"""Index patches cut at the corners the pipeline finds in generated scenes, with
their truth, saved so that the corner-index reader can be measured and tuned
without running the whole pipeline again (#7).

    .venv/bin/python -m bench.reader_patches --scenes 60 --seed0 0 --out /tmp/patches_0.npz

The scenes are bench/vision.py's (and bench.vision_misses'); every corner found
is sampled with both edge assignments, as the pipeline does.  A corner within
4 mm of a face card's index corner whose index is uncovered is labelled with
that card ("orient" says which assignment puts the short edge across the top and
the long edge down, both pointing into the card); where two such corners meet
(one card's index beside another's in a pile), with the card whose edges the
corner runs along, and a corner that runs along neither is left out (until
session 55 it was labelled with the last of them, and both its looks were junk
to the patch networks' training: 20 of the 27 patches of benchmark seeds 0-199
the networks read as a card, sure and "wrong", were at such corners);
a corner more than 10 mm from every card corner is a negative (anything read
there would be a false card)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.vision_decks_photo import photo_scene  # noqa: E402
from vision.cards import find_corners, sample_patch  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402

# each card corner's neighbours along the short and the long edge
_SHORT = {0: 1, 1: 0, 2: 3, 3: 2}
_LONG = {0: 3, 1: 2, 2: 1, 3: 0}


@dataclass(frozen=True)
class CornerLook:
    """One paper corner the pipeline finds, seen one way (``u`` across the
    index, ``v`` down it), with the truth there: ``label`` ("Q spades"),
    ``kind`` ("card" at an uncovered index corner, "neg" far from every
    card corner) and ``orient`` (both axes run along the card's edges into
    it).  ``corner`` numbers the corner (its two looks share it)."""

    seed: int
    image: np.ndarray
    plane: object
    ppm: float
    point: np.ndarray
    u: np.ndarray
    v: np.ndarray
    corner: int
    label: str
    kind: str
    orient: bool


def corner_looks(n_scenes: int, seed0: int, size: tuple[int, int] | None = None, faces=None, frame: tuple[int, int] = (1280, 720)) -> Iterator[CornerLook]:
    """Every corner found in bench/vision.py's scenes ``seed0``.., both ways;
    corners near a card corner whose index is covered are neither card nor
    negative, and left out.  ``size``: bench.vision_decks_photo's scenes
    instead (that size, no mat, 6-9 cards).  ``faces``: a third-party deck's
    (vision.decks.Deck) instead of the generator's.  ``frame``: the size of
    bench/vision.py's scenes (its ``--size``)."""
    pair = 0
    for i in range(seed0, seed0 + n_scenes):
        if size is None:
            img, truth = render_scene(*frame, 4 + (i % 9), seed=i, mat=i % 3 != 2, faces=faces)
        else:
            img, truth = photo_scene(i, seed0, size, faces)
        pipe = VisionPipeline()
        *_, plane, blobs = pipe._prepare(img)
        corners = [c for bi, b in enumerate(blobs) for c in find_corners(bi, b, plane.metric)]
        ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
        all_corners = np.array([p for c in truth.cards for p in c.corners_px]) if truth.cards else np.zeros((0, 2))
        for co in corners:
            p = plane.to_frame(np.array([co.point]))[0]
            d_all = np.linalg.norm(all_corners - p, axis=1).min() if len(all_corners) else 1e9
            # every face card whose uncovered index corner lies within 4 mm: where two cards'
            # corners meet, the patch shows the one whose edges the corner runs along
            near = [
                (f"{card.rank} {card.suit}", (card.corners_px[_SHORT[c]] - card.corners_px[c], card.corners_px[_LONG[c]] - card.corners_px[c]))
                for card in truth.cards
                if card.kind == "face"
                for c, vis in zip([0, 2, 1, 3], card.index_visible, strict=False)
                if vis and np.linalg.norm(card.corners_px[c] - p) < 4 * ppm
            ]
            if not near and d_all < 10 * ppm:
                continue  # near a card corner whose index is covered: neither
            looks = ((co.d1, co.d2), (co.d2, co.d1))
            fits = [next((label for label, edges in near if _runs_along(plane, co.point, p, u, v, edges)), None) for u, v in looks]
            if near and not any(fits):
                continue  # at an index, but along no edges of its card (another card's corner there): neither
            pair += 1
            card = fits[0] or fits[1] or ""  # the card at this corner ("" far from every card)
            for (u, v), label in zip(looks, fits, strict=True):
                # the other look at an index corner is that card the wrong way round
                yield CornerLook(i, img, plane, ppm, co.point, u, v, pair, label or card, "card" if near else "neg", label is not None)


def _runs_along(plane, point: np.ndarray, p: np.ndarray, u: np.ndarray, v: np.ndarray, edges) -> bool:
    """Whether both patch axes (plane directions ``u`` and ``v`` at ``point``,
    frame point ``p``) run along the card's edges (frame vectors: the short
    one, then the long one), pointing into it."""
    fu, fv = plane.to_frame(np.array([point + 10 * u, point + 10 * v])) - p
    return all(float(np.dot(f, e)) > 0.7 * np.linalg.norm(f) * np.linalg.norm(e) for f, e in zip((fu, fv), edges, strict=True))


def collect(n_scenes: int, seed0: int, size: tuple[int, int] | None = None, faces=None,
            frame: tuple[int, int] = (1280, 720)) -> dict[str, np.ndarray]:
    patches, labels, orient, seeds, kinds, ppms, pairs = [], [], [], [], [], [], []
    for x in corner_looks(n_scenes, seed0, size, faces, frame):
        patches.append(sample_patch(x.image, x.plane, x.point, x.u, x.v))
        labels.append(x.label)
        orient.append(x.orient)
        seeds.append(x.seed)
        pairs.append(x.corner)
        kinds.append(x.kind)
        ppms.append(x.ppm)
    return {
        "patches": np.array(patches, np.uint8),
        "labels": np.array(labels),
        "orient": np.array(orient),
        "seeds": np.array(seeds),
        "pairs": np.array(pairs),
        "kinds": np.array(kinds),
        "ppm": np.array(ppms, np.float32),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=60)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", default="1280x720", help="frame size WxH of bench/vision.py's scenes")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    d = collect(args.scenes, args.seed0, frame=tuple(int(x) for x in args.size.split("x")))
    np.savez_compressed(args.out, **d)
    print(f"{len(d['patches'])} patches ({(d['kinds'] == 'card').sum()} at index corners, {(d['kinds'] == 'neg').sum()} negatives) -> {args.out}")


if __name__ == "__main__":
    main()
