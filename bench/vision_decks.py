"""Vision on decks it was not built around: Debian's third-party card art.

    .venv/bin/python bench/vision_decks.py                      # every installed deck, 30 scenes each, + teach
    .venv/bin/python bench/vision_decks.py --scenes 60 --deck anglo --deck kde/standard
    .venv/bin/python bench/vision_decks.py --skip-teach         # out of the box only

Needs ``apt-get install gnome-cards-data kdegames-card-data-kf5 librsvg2-bin``
(see vision/decks.py); the first run rasterizes each deck's 52 faces into the
user cache (about 30 s a deck).  Each deck gets the same scenes as
bench/vision.py's accuracy run (1280x720, 4-12 cards, 2/3 on the mat, 0-2
hands, the same seeds) with only that deck's faces.  Printed per deck: cards
found %, found cards read right %, the first misreads; then the deck is taught
from one rendered phone-style photo per card (vision.teach, as ``companion vision
teach`` does) and measured again on the same scenes.  Decks whose court/ace
indices are not J/Q/K/A (German B/D, Cyrillic, Italian) are marked ``loc``: no
untaught reader can know those letters, so they are totalled apart.
Single thread (cv2.setNumThreads(1))."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402

from vision import decks as decklib  # noqa: E402
from vision.evaluate import Score, score  # noqa: E402
from vision.glyphs import RANKS, SUITS, card_code  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402
from vision.teach import load_deck, teach  # noqa: E402


def pct(a: int, b: int) -> float:
    return 100.0 * a / b if b else float("nan")


def measure(deck: decklib.Deck | None, n_scenes: int, seed0: int = 0, references=None) -> Score:
    """Score on ``n_scenes`` generated scenes drawn with ``deck``'s faces (None:
    the generator's own deck styles, for comparison)."""
    total = Score()
    for i in range(n_scenes):
        mat = i % 3 != 2
        n = 4 + (i % 9)
        img, truth = render_scene(1280, 720, n, seed=seed0 + i, mat=mat, faces=deck)
        total.add(score(VisionPipeline(references=references).process(img), truth))
    return total


def teach_deck(deck: decklib.Deck, root: Path, seed: int = 0):
    """Teach ``deck`` from one rendered photo per card; returns (references, report)."""
    photos = root / "photos"
    photos.mkdir(parents=True, exist_ok=True)
    paths = []
    for k, (r, s) in enumerate((r, s) for s in SUITS for r in RANKS):
        p = photos / f"{card_code(r, s)}.jpg"
        cv2.imwrite(str(p), decklib.single_card_photo(deck(r, s), seed=seed + k))
        paths.append(p)
    report = teach(paths, deck.source.slug, root=root / "taught")
    return load_deck(deck.source.slug, root=root / "taught"), report


def _line(name: str, tag: str, s: Score) -> str:
    return f"{name:32s} {tag:4s} found {pct(s.found, s.expected):6.2f} % ({s.found:4d}/{s.expected:4d})  read {pct(s.read, s.found):6.2f} % ({s.read:4d}/{s.found:4d})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=30, help="scenes per deck")
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--deck", action="append", default=[], help="only decks whose name contains this (repeatable)")
    ap.add_argument("--skip-teach", action="store_true")
    ap.add_argument("--skip-baseline", action="store_true", help="do not measure the generator's own decks on the same scenes")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    print(f"OpenCV {cv2.__version__}, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    found = decklib.all_sources()
    if decklib.renderer() is None or not found:
        print("no third-party decks (apt-get install " + " ".join(decklib.APT_PACKAGES) + ")")
        return
    for src in found:
        if src.name in decklib.SKIPPED:
            print(f"skipped {src.name}: {decklib.SKIPPED[src.name]}")
    chosen = [d for d in decklib.decks() if not args.deck or any(k in d.name for k in args.deck)]
    before_en, before_loc, after_en, after_loc = Score(), Score(), Score(), Score()
    t0 = time.time()
    print(f"\n{len(chosen)} decks, {args.scenes} scenes each (1280x720, 4-12 cards, 2/3 on the mat, 0-2 hands), seeds {args.seed0}..")
    if not args.skip_baseline:
        print(_line("generator's own decks (cardart)", "", measure(None, args.scenes, args.seed0)), flush=True)
    for deck in chosen:
        try:
            deck.render_all()
        except RuntimeError as e:
            print(f"{deck.name:32s} could not be rendered: {e}")
            continue
        tag = "" if deck.english else "loc"
        s = measure(deck, args.scenes, args.seed0)
        (before_en if deck.english else before_loc).add(s)
        print(_line(deck.name, tag, s), flush=True)
        note = decklib.LOCALIZED.get(deck.name) or decklib.NOTES.get(deck.name)
        if note:
            print(f"{'':37s} ({note}; index box {tuple(round(v, 1) for v in deck.index_box)} mm, four-index {deck.four_index})")
        if s.misread:
            print(f"{'':37s} misreads (truth -> read): {s.misread[:4]}")
        if args.skip_teach:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            refs, report = teach_deck(deck, Path(tmp))
            st = measure(deck, args.scenes, args.seed0, references=refs)
        (after_en if deck.english else after_loc).add(st)
        print(_line("  after teach", tag, st) + f"  (taught {len(report.learnt)}/52)", flush=True)
        if st.misread:
            print(f"{'':37s} misreads after teach: {st.misread[:4]}")
    print(f"\noverall ({time.time() - t0:.0f} s):")
    _totals("out of the box", before_en, before_loc)
    if not args.skip_teach:
        _totals("taught", after_en, after_loc)


def _totals(when: str, english: Score, localized: Score) -> None:
    both = Score()
    both.add(english)
    both.add(localized)
    print(_line(f"J/Q/K/A decks, {when}", "", english))
    print(_line(f"localized decks, {when}", "loc", localized))
    print(_line(f"all decks, {when}", "", both))

if __name__ == "__main__":
    main()
