"""A sheet of print beside the cards (a page of rules, a score pad): what it costs, for #7.

    .venv/bin/python -m bench.vision_print                     # 60 scenes at 1280x720 and 1920x1080
    .venv/bin/python -m bench.vision_print --scenes 150 --size 1280x720

Every card table has one: the rules lie open beside the cards, someone keeps
the score.  Each letter and digit is an ink spot on white paper, and a digit
over a digit is laid out as a rank over a suit, so the edge-free index finder
(vision.index_pairs) has hundreds of candidates there where a table of cards
has dozens.  The same scenes as bench/vision.py's accuracy run (seeds from
``--seed0``, 4-12 cards, two in three on the mat) are read three ways: as
they are, with an A4 page of rules, and with an A5 score pad laid where it
covers the fewest cards (``render_scene(sheet=...)``: the sheet has its own
random stream, so every card, hand and light is the same).  Printed per
size and sheet: cards found / read right / misread of those expected, the
cards found without the sheet and lost with it, false sightings (anything
reported where no card lies: an ``unknown`` on the sheet), frames with one,
and the median CPU ms a frame (single thread; each frame read once, cold)."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402

from vision.evaluate import score  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402
from vision.sheet_art import SHEETS  # noqa: E402


def measure(size: tuple[int, int], seeds: range) -> None:
    rows = {}
    found_without: dict[int, set[int]] = {}
    for sheet in (None, *SHEETS):
        expected = found = right = false = frames_false = lost = 0
        ms = []
        for seed in seeds:
            img, truth = render_scene(size[0], size[1], 4 + seed % 9, seed=seed, mat=seed % 3 != 2, sheet=sheet)
            pipe = VisionPipeline(reuse_static=False)
            c = time.thread_time()
            result = pipe.process(img)
            ms.append((time.thread_time() - c) * 1000)
            s = score(result, truth)
            expected += s.expected
            found += s.found
            right += s.read
            false += s.false_cards
            frames_false += s.false_cards > 0
            got = {k for k, (_scale, was_found, _right) in enumerate(s.outcomes) if was_found}
            if sheet is None:
                found_without[seed] = got
            else:
                lost += len(found_without[seed] - got)
        rows[sheet] = (expected, found, right, false, frames_false, lost, statistics.median(ms))
    print(f"{size[0]}x{size[1]}, seeds {seeds.start}-{seeds.stop - 1}:")
    print(
        f"  {'sheet':6} {'cards':>5} {'found':>6} {'right':>6} {'misread':>7} {'lost':>5} {'false':>6} {'frames':>6} {'cpu ms':>7}"
    )
    for sheet, (expected, found, right, false, frames_false, lost, ms) in rows.items():
        print(
            f"  {sheet or 'none':6} {expected:5} {found:6} {right:6} {found - right:7} {lost if sheet else '':>5} "
            f"{false:6} {frames_false:6} {ms:7.1f}",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=int, default=60)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--size", action="append", help="WxH (default: 1280x720 and 1920x1080)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    for size in args.size or ["1280x720", "1920x1080"]:
        w, h = (int(x) for x in size.split("x"))
        measure((w, h), range(args.seed0, args.seed0 + args.scenes))


if __name__ == "__main__":
    main()
