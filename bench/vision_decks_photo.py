"""Third-party decks at phone-photo resolution: no mat, several megapixels (#7).

    .venv/bin/python -m bench.vision_decks_photo --deck paris --deck nicu-white
    .venv/bin/python -m bench.vision_decks_photo --scenes 4 --size 4000x3000      # every deck

bench/vision_decks.py measures Debian's third-party card art on 720p scenes
over the mat; a phone photo of a table has no mat, several megapixels and
cards 300-600 px wide, where an index's glyphs are large and sharp and a
frame line or the card's edge a few millimetres from them is resolved as
well.  Each deck gets the same no-mat scenes (``vision.scene.render_scene``,
6-9 cards, seeds 1000..), read by a fresh pipeline per image as ``companion
vision read`` does.  Printed per deck: cards found, read right, cards not
found but reported unknown at their index, CPU ms per image, misreads;
then totals.  Single thread."""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import decks as decklib  # noqa: E402
from vision.evaluate import Score, score  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402


def photo_scene(seed: int, seed0: int, size: tuple[int, int], faces=None, background: str | None = None):
    """The scene of ``seed`` in a run from ``seed0``: ``size``, no mat, 6-9
    cards (bench.vision_misses and bench.reader_patches draw the same with ``--size``).
    ``background``: every scene on this table instead of one drawn at random."""
    return render_scene(size[0], size[1], 6 + (seed - seed0) % 4, seed=seed, mat=False, faces=faces, background=background)


def measure(
    deck: decklib.Deck | None, n_scenes: int, seed0: int, size: tuple[int, int], background: str | None = None
) -> tuple[Score, list[float]]:
    """Score and CPU ms per image on ``n_scenes`` no-mat scenes of ``size`` drawn with ``deck``'s faces."""
    total, ms = Score(), []
    for i in range(n_scenes):
        img, truth = photo_scene(seed0 + i, seed0, size, deck, background)
        t0 = time.thread_time()
        result = VisionPipeline().process(img)
        ms.append(1000 * (time.thread_time() - t0))
        total.add(score(result, truth))
    return total, ms


def _line(name: str, s: Score, ms: list[float]) -> str:
    found = 100 * s.found / max(s.expected, 1)
    read = 100 * s.read / max(s.found, 1)
    return (f"{name:32s} found {found:6.2f} % ({s.found:4d}/{s.expected:4d})  read {read:6.2f} % ({s.read:4d}/{s.found:4d})"
            f"  unknown {s.reported_unknown:3d}  CPU {np.median(ms) if ms else float('nan'):5.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=6, help="scenes per deck")
    ap.add_argument("--seed0", type=int, default=1000)
    ap.add_argument("--size", default="4000x3000", help="image width x height")
    ap.add_argument("--deck", action="append", default=[], help="only decks whose name contains this (repeatable)")
    ap.add_argument("--background", default=None, help="every scene on this table: wood, felt, light, plaid, white, bright or black (a white cloth, a white table nearly as bright as the cards, a black cloth: never drawn at random)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    w, h = (int(t) for t in args.size.lower().split("x"))
    table = f", all on {args.background}" if args.background else ""
    print(f"OpenCV {cv2.__version__}, load average {os.getloadavg()[0]:.1f}; {args.size}, no mat{table}, seeds {args.seed0}..")
    if decklib.renderer() is None or not decklib.all_sources():
        print("no third-party decks (apt-get install " + " ".join(decklib.APT_PACKAGES) + ")")
        return
    chosen = [d for d in decklib.decks() if not args.deck or any(k in d.name for k in args.deck)]
    both, all_ms = Score(), []
    for deck in chosen:
        try:
            deck.render_all()
        except RuntimeError as e:
            print(f"{deck.name:32s} could not be rendered: {e}")
            continue
        s, ms = measure(deck, args.scenes, args.seed0, (w, h), args.background)
        both.add(s)
        all_ms += ms
        print(_line(deck.name, s, ms), flush=True)
        if s.misread:
            print(f"{'':33s}misreads (truth -> read): {s.misread[:4]}")
    print(_line("all", both, all_ms))


if __name__ == "__main__":
    main()
