"""Ranks of given typefaces through the corner-index reader (#7): drawn
corners (vision.glyph_train's random designs and simulated camera, with the
typeface fixed) read by the whole reader (read_patch) and by the rank
networks alone.  Made for the flat-topped 3 (a 3 whose top is a straight
bar, as many real decks print it), which the networks took for a 5 while no
training typeface drew one.

    .venv/bin/python -m bench.glyph_flat3 --font /tmp/lead/fonts/x/usr/share/fonts/truetype/opendin/OSP-DIN.ttf
    .venv/bin/python -m bench.glyph_flat3 --font F.ttf --ranks all --model /tmp/candidate.npz
    .venv/bin/python -m bench.glyph_flat3 --deck anglo --deck gnomangelo --deck simplistic --deck paris

Per typeface (or third-party deck, --deck: its own face art, every suit,
the top-left corner sampled at 1.2-4 px/mm with the corner placed a little
wrong) and rank: corners drawn, read right by the reader, misread (and as
what), declined; then the rank networks' likeliest class."""

from __future__ import annotations

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import cardart, glyph_model  # noqa: E402
from vision import decks as decklib  # noqa: E402
from vision.cards import Plane, sample_patch  # noqa: E402
from vision.corner_index import builtin_references, extract_glyphs, read_patch  # noqa: E402
from vision.glyph_model import RANKS, SUITS  # noqa: E402
from vision.glyph_train import _corner_tile, _photograph, _random_style  # noqa: E402


def use_model(path: str | None) -> None:
    """Read with the rank/suit networks in ``path`` instead of the shipped ones."""
    if path:
        glyph_model.MODEL_PATH = glyph_model.Path(path)
        glyph_model._nets.cache_clear()


def tally_font(font: str, ranks: list[str], n: int, seed: int) -> dict[str, collections.Counter]:
    """Per rank: "right"/"declined"/"misread" and "as X" (the reader's
    misreadings), "net X" (the rank networks' likeliest class) over ``n``
    drawn corners of ``font``."""
    rng = np.random.default_rng(seed)
    refs = builtin_references()
    out: dict[str, collections.Counter] = {}
    for rank in ranks:
        t: collections.Counter = collections.Counter()
        for _ in range(n):
            style = _random_style(rng, [font])
            suit = str(rng.choice(["spades", "hearts", "diamonds", "clubs"]))
            _count(t, _photograph(rng, _corner_tile(rng, rank, suit, style)), rank, suit, refs)
        out[rank] = t
    return out


DECK_PPM = (1.2, 1.5, 2.0, 3.0, 4.0)


def deck_patches(face: np.ndarray, rng: np.random.Generator, ppm: float, n: int) -> list[np.ndarray]:
    """``n`` upright top-left corner patches of a BGRA face on a table
    colour, seen at ``ppm`` px/mm, the corner estimate off by up to 0.8 mm
    and 2 degrees (as the pipeline places it)."""
    table = np.array([40, 110, 40], np.float32)
    a = face[..., 3:4].astype(np.float32) / 255
    art = (face[..., :3] * a + table * (1 - a)).astype(np.uint8)
    pad = int(6 * cardart.PX)
    art = cv2.copyMakeBorder(art, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=table.tolist())
    k = ppm / cardart.PX
    small = cv2.resize(cv2.GaussianBlur(art, (0, 0), 0.45 / k) if k < 0.7 else art, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    plane = Plane(np.eye(3), np.diag([ppm, ppm, 1.0]), True)
    out = []
    for _ in range(n):
        ang = np.radians(rng.uniform(-2, 2))
        u, v = np.array([np.cos(ang), np.sin(ang)]), np.array([-np.sin(ang), np.cos(ang)])
        out.append(sample_patch(small, plane, 6.0 + rng.uniform(-0.8, 0.8, 2), u, v))
    return out


def tally_deck(deck: decklib.Deck, ranks: list[str], n: int, seed: int) -> dict[str, collections.Counter]:
    """tally_font's counts for a third-party deck's own face art: ``n``
    patches per suit and scale (DECK_PPM)."""
    rng = np.random.default_rng(seed)
    refs = builtin_references()
    out: dict[str, collections.Counter] = {}
    for rank in ranks:
        t: collections.Counter = collections.Counter()
        for suit in SUITS:
            for ppm in DECK_PPM:
                for patch in deck_patches(deck(rank, suit), rng, ppm, n):
                    _count(t, patch, rank, suit, refs)
        out[rank] = t
    return out


def _count(t: collections.Counter, patch: np.ndarray, rank: str, suit: str, refs) -> None:
    t["drawn"] += 1
    r = read_patch(patch, refs)
    if r is None:
        t["declined"] += 1
    elif r.rank == rank and r.suit == suit:
        t["right"] += 1
    else:
        t["misread"] += 1
        t[f"as {r.rank}" if r.rank != rank else f"as {r.suit}"] += 1
    gl = extract_glyphs(patch)
    if gl is not None:
        p = glyph_model.rank_probs(gl.rank_ink, gl.rank_view)
        t[f"net {glyph_model.RANK_CLASSES[int(np.argmax(p))]}"] += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--font", action="append", default=[], help="typeface file (repeatable)")
    ap.add_argument("--deck", action="append", default=[], help="third-party decks whose name contains this (repeatable)")
    ap.add_argument("--ranks", default="3,5", help="comma-separated ranks, or 'all'")
    ap.add_argument("-n", type=int, default=60, help="corners per typeface and rank (per deck, rank, suit and scale: n // 10 + 1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--model", help="a glyph_model weights file to read with instead of the shipped one")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    use_model(args.model)
    ranks = list(RANKS) if args.ranks == "all" else args.ranks.split(",")
    total: collections.Counter = collections.Counter()
    decks = [decklib.Deck(s) for s in decklib.sources() if any(k in s.name for k in args.deck)]
    runs = [(os.path.basename(f), lambda f=f: tally_font(f, ranks, args.n, args.seed)) for f in args.font]
    runs += [(d.name, lambda d=d: tally_deck(d, ranks, args.n // 10 + 1, args.seed)) for d in decks]
    for name, run in runs:
        for rank, t in run().items():
            total.update({k: v for k, v in t.items() if k in ("drawn", "right", "misread", "declined")})
            rest = ", ".join(f"{k} {v}" for k, v in sorted(t.items()) if k.startswith(("as ", "net ")))
            print(f"{name} {rank}: {t['drawn']} drawn, {t['right']} right, {t['misread']} misread, {t['declined']} declined ({rest})", flush=True)
    print(f"total: {total['drawn']} drawn, {total['right']} right, {total['misread']} misread, {total['declined']} declined")


if __name__ == "__main__":
    main()
