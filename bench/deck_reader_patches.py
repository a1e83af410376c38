"""bench.reader_patches on third-party deck art: index patches cut at the
corners the pipeline finds in bench.vision_decks' scenes (the same seeds, one
deck's faces each), saved with their truth for bench.reader_tune (#7).

    .venv/bin/python -m bench.deck_reader_patches --scenes 10 --out /tmp/deck_patches.npz [--deck NAME ...]
    .venv/bin/python -m bench.deck_reader_patches --scenes 3 --seed0 1000 --size 4000x3000 --out /tmp/photo_patches.npz

A reader decision tuned on generated scenes can be checked here on deck art
it never saw, without running the pipeline again.  Localized decks (court
letters other than J/Q/K) are in: what the reader reads there must be right
too (their own court letters it should decline)."""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench import reader_patches  # noqa: E402
from vision import decks as decklib  # noqa: E402


def collect(n_scenes: int, keys: list[str], seed0: int = 0, size: tuple[int, int] | None = None) -> dict[str, np.ndarray]:
    """reader_patches.collect over every deck whose name holds one of ``keys`` (all without)."""
    parts = []
    chosen = [d for d in decklib.decks() if not keys or any(k in d.name for k in keys)]
    for deck in chosen:
        d = reader_patches.collect(n_scenes, seed0, size, deck)
        d["decks"] = np.array([deck.name] * len(d["patches"]))
        parts.append(d)
        print(f"{deck.name}: {len(d['patches'])} patches", flush=True)
    if not parts:
        return {}
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    # corners are numbered per deck: make them unique over the file
    offset, pairs = 0, []
    for p in parts:
        pairs.append(p["pairs"] + offset)
        offset += int(p["pairs"].max(initial=0)) + 1
    out["pairs"] = np.concatenate(pairs)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=10)
    ap.add_argument("--deck", action="append", default=[], help="only decks whose name contains this (repeatable)")
    ap.add_argument("--size", help="WxH: bench.vision_decks_photo's no-mat scenes at this size (e.g. 4000x3000 with --seed0 1000)")
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    size = tuple(int(x) for x in args.size.lower().split("x")) if args.size else None
    d = collect(args.scenes, args.deck, args.seed0, size)
    if not d:
        print("no third-party decks (apt-get install " + " ".join(decklib.APT_PACKAGES) + ")")
        return
    np.savez_compressed(args.out, **d)
    print(f"{len(d['patches'])} patches ({(d['kinds'] == 'card').sum()} at index corners, {(d['kinds'] == 'neg').sum()} negatives) -> {args.out}")


if __name__ == "__main__":
    main()
