"""The corner-index reader's thresholds tried on saved corner patches (see
bench.reader_patches): the network's and templates' evidence is gathered
once per patch, then every threshold set is scored at once (#7).

    .venv/bin/python -m bench.reader_tune /tmp/patches_0.npz /tmp/patches_500.npz [--set net_suit=0.9 ...]

Prints, per file and threshold set, as bench.reader_eval does: index corners
read right, misread and declined (both edge assignments, the more confident
reading kept), the right-way-round patches alone, and negatives read.  Tune
on one set of seeds, check on another: a gain must hold on both.  The
whole-patch network (vision.patch_model) runs on all patches at once;
``--only glyphs`` scores the glyph reader without its reading alone."""

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
from vision import patch_model  # noqa: E402
from vision.corner_index import (  # noqa: E402
    THRESHOLDS,
    Thresholds,
    builtin_references,
    decide,
    decide_patch,
    evidence,
    extract_glyphs,
)


def gather(d) -> list:
    """Per patch: (patch, glyphs, evidence, the whole-patch network's rank and suit probabilities)."""
    refs = builtin_references()
    pr, ps = patch_model.patch_probs(d["patches"]) if patch_model.available() else (None, None)
    out = []
    for i, p in enumerate(d["patches"]):
        gl = extract_glyphs(p)
        whole = None if pr is None else (pr[i], ps[i])
        ev = None if gl is None else evidence(gl, refs, full=True, whole=whole)
        out.append((p, gl, ev, whole))
    return out


def _read(item, t: Thresholds, glyphs: bool, whole: bool):
    p, gl, ev, probs = item
    if probs is not None and probs[0][-1] >= t.patch_skip:
        return None
    r = decide(ev, t) if glyphs and ev is not None else None
    if r is None and whole and probs is not None:
        r = decide_patch(p, gl, *probs, t, None if ev is None else (ev.rank_p, ev.suit_p))
    return r


def score(d, evs, t: Thresholds, wrong: list | None = None, glyphs: bool = True, whole: bool = True) -> dict[str, int]:
    """Tallies as bench.reader_eval's; the right-way-round misreads are added
    to ``wrong``.  ``glyphs``/``whole``: whether the glyph reader and the
    whole-patch network's reading alone may read."""
    return tally_readings(d, [_read(item, t, glyphs, whole) for item in evs], proper_wrong=wrong)


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
    ap.add_argument("--only", choices=("glyphs", "whole"), help="one reader alone: the glyph reader, or the whole-patch network")
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
            print(f"  {line(score(d, evs, t, wrong, args.only != 'whole', args.only != 'glyphs'))}  {changed or 'defaults'}")
            if args.confusions and wrong:
                print("     " + "; ".join(wrong))


if __name__ == "__main__":
    main()
