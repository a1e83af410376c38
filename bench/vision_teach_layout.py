"""Teaching a deck from four layout photos (one suit each, A to K in rows), #7.

    .venv/bin/python -m bench.vision_teach_layout                      # every third-party deck
    .venv/bin/python -m bench.vision_teach_layout --deck berlin --deck ancient_french
    .venv/bin/python -m bench.vision_teach_layout --layout-size 1920x1080

For each deck of bench/vision_decks.py (Debian's aisleriot and KDE card art,
the four with no rank-over-suit index left out unless named): four photos of
its suits laid out for ``companion vision teach``
(``vision.decks.suit_layout_photo``, seeds 100-103), taught into a temporary
folder by ``vision.teach.teach`` as the command does; then the deck's
phone-photo scenes of bench.vision_decks_photo (no mat, 6-9 cards, seeds
1000..) read untaught and taught.  Printed per deck: cards taught of 52,
found / read right / misread untaught and taught, and the first reason a
card or photo was not taught; then totals.  Single thread."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402

from bench.vision_decks_photo import photo_scene  # noqa: E402
from vision import decks as decklib  # noqa: E402
from vision.evaluate import Score, score  # noqa: E402
from vision.glyphs import SUITS  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.teach import load_deck, teach  # noqa: E402

#: decks printing no rank over a suit in their corners: teaching cannot help them
NO_INDEX = ("oxygen", "tango")


def taught_refs(deck, folder: Path, size: tuple[int, int]):
    """Teach ``deck`` from its four suit layout photos in ``folder``: (references or None, report)."""
    paths = []
    for k, suit in enumerate(SUITS):
        img, _ = decklib.suit_layout_photo(deck, suit, seed=100 + k, size=size)
        p = folder / f"{suit}.jpg"
        cv2.imwrite(str(p), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        paths.append(p)
    report = teach(paths, "layout", root=folder / "taught")
    return load_deck("layout", root=folder / "taught"), report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", action="append", default=[], help="only decks whose name contains this (repeatable)")
    ap.add_argument("--scenes", type=int, default=3, help="photo scenes per deck read untaught and taught")
    ap.add_argument("--size", default="4000x3000", help="the photo scenes' size")
    ap.add_argument("--layout-size", default="4000x3000", help="the layout photos' size")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    size = tuple(int(t) for t in args.size.lower().split("x"))
    layout_size = tuple(int(t) for t in args.layout_size.lower().split("x"))
    if decklib.renderer() is None or not decklib.all_sources():
        print("no third-party decks (apt-get install " + " ".join(decklib.APT_PACKAGES) + ")")
        return
    chosen = [d for d in decklib.decks() if (any(k in d.name for k in args.deck) if args.deck else not any(k in d.name for k in NO_INDEX))]
    print(f"layout photos {args.layout_size}, photo scenes {args.size} from seed 1000, {args.scenes} per deck")
    print(f"{'deck':32s} taught  untaught found/right/misread   taught found/right/misread   first reason not taught")
    total = {"taught": 0, "before": Score(), "after": Score()}
    for deck in chosen:
        with tempfile.TemporaryDirectory() as tmp:
            refs, report = taught_refs(deck, Path(tmp), layout_size)
        before, after = Score(), Score()
        for i in range(args.scenes):
            img, truth = photo_scene(1000 + i, 1000, size, deck)
            before.add(score(VisionPipeline().process(img), truth))
            after.add(score(VisionPipeline(references=refs).process(img), truth) if refs is not None else score(VisionPipeline().process(img), truth))
        total["taught"] += len(report.learnt)
        total["before"].add(before)
        total["after"].add(after)
        why = report.failed[0][1][:60] if report.failed else ""
        print(
            f"{deck.name:32s} {len(report.learnt):3d}/52   {before.found:4d}/{before.read:4d}/{len(before.misread):2d} of {before.expected:4d}"
            f"          {after.found:4d}/{after.read:4d}/{len(after.misread):2d}              {why}",
            flush=True,
        )
        if after.misread:
            print(f"{'':32s} taught misreads (truth -> read): {after.misread}")
    b, a = total["before"], total["after"]
    print(
        f"{'all':32s} {total['taught']:4d}/{52 * len(chosen)}  {b.found}/{b.read}/{len(b.misread)} of {b.expected}"
        f"   ->   {a.found}/{a.read}/{len(a.misread)}"
    )


if __name__ == "__main__":
    main()
