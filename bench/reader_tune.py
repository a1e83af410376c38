"""The corner-index reader's thresholds tried on saved corner patches (see
bench.reader_patches): the network's and templates' evidence is gathered
once per patch, then every threshold set is scored at once (#7).

    .venv/bin/python -m bench.reader_tune /tmp/patches_0.npz /tmp/patches_500.npz [--set net_suit=0.9 ...]

Prints, per file and threshold set, as bench.reader_eval does: index corners
read right, misread and declined (both edge assignments, the more confident
reading kept), the right-way-round patches alone, and negatives read.  Tune
on one set of seeds, check on another: a gain must hold on both."""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.reader_eval import tally_readings  # noqa: E402
from vision.corner_index import THRESHOLDS, Thresholds, builtin_references, decide, evidence, extract_glyphs  # noqa: E402


def gather(d) -> list:
    refs = builtin_references()
    out = []
    for p in d["patches"]:
        gl = extract_glyphs(p)
        out.append(None if gl is None else evidence(gl, refs, full=True))
    return out


def score(d, evs, t: Thresholds, wrong: list | None = None) -> dict[str, int]:
    """Tallies as bench.reader_eval's; the right-way-round misreads are added to ``wrong``."""
    return tally_readings(d, [None if ev is None else decide(ev, t) for ev in evs], proper_wrong=wrong)


def line(tally: dict[str, int]) -> str:
    n, p = max(tally["corners"], 1), max(tally["proper"], 1)
    return (
        f"corners {tally['corners']}: ok {100 * tally['ok'] / n:5.1f} %  misread {tally['misread']:2d}  declined {100 * tally['declined'] / n:5.1f} %"
        f"  | right-way {tally['proper']}: ok {100 * tally['proper_ok'] / p:5.1f} %  misread {tally['proper_misread']:2d}"
        f"  | negatives read {tally['neg_read']}/{tally['neg']}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--set", nargs="*", default=[], help="field=v1,v2,... (every combination is scored)")
    ap.add_argument("--confusions", action="store_true", help="list the right-way-round misreads")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    grid = {}
    for item in args.set:
        k, vs = item.split("=")
        grid[k] = [float(v) for v in vs.split(",")]
    sets = [dataclasses.replace(THRESHOLDS, **dict(zip(grid, combo, strict=True))) for combo in itertools.product(*grid.values())]
    for path in args.data:
        d = np.load(path)
        evs = gather(d)
        print(path)
        for t in sets or [THRESHOLDS]:
            changed = {f.name: getattr(t, f.name) for f in dataclasses.fields(t) if getattr(t, f.name) != getattr(THRESHOLDS, f.name)}
            wrong: list[str] = []
            print(f"  {line(score(d, evs, t, wrong))}  {changed or 'defaults'}")
            if args.confusions and wrong:
                print("     " + "; ".join(wrong))


if __name__ == "__main__":
    main()
