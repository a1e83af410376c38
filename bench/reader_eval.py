"""The corner-index reader on saved corner patches (see bench.reader_patches):
how many index corners it reads right, misreads or declines, how many
negatives it reads at all, and what one call costs (#7).

    .venv/bin/python -m bench.reader_eval /tmp/patches_0.npz [--confusions]

Per index corner (both edge assignments tried, the more confident reading
kept, as the pipeline does): ``ok``, ``misread`` or ``declined``; then the
same for the patch sampled the right way round alone."""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.corner_index import builtin_references, read_patch  # noqa: E402


def tally_readings(d, results, wrong: collections.Counter | None = None, proper_wrong: list[str] | None = None) -> collections.Counter:
    """Per index corner (a pair of patches): ``ok``/``misread``/``declined``
    from the more confident of its readings, ``proper*`` for the patch sampled
    the right way round alone (the reader's own figure: the other assignment
    may show another card's index, rightly read), ``neg``/``neg_read`` for
    negatives.  Misreads are counted in ``wrong`` by (truth, got, right way
    round); right-way-round misreads are listed in ``proper_wrong``."""
    tally: collections.Counter = collections.Counter()
    wrong = collections.Counter() if wrong is None else wrong
    pairs = d["pairs"]
    for pid in np.unique(pairs):
        idx = np.nonzero(pairs == pid)[0]
        kind = d["kinds"][idx[0]]
        right = [i for i in idx if d["orient"][i]]
        if kind == "card" and right:
            r = results[right[0]]
            tally["proper"] += 1
            tally["proper_ok"] += r is not None and f"{r.rank} {r.suit}" == d["labels"][right[0]]
            if r is not None and f"{r.rank} {r.suit}" != d["labels"][right[0]]:
                tally["proper_misread"] += 1
                if proper_wrong is not None:
                    proper_wrong.append(f"{d['labels'][right[0]]} -> {r.rank} {r.suit} (seed {d['seeds'][right[0]]})")
        reads = [(results[i], i) for i in idx if results[i] is not None]
        if kind == "neg":
            tally["neg"] += 1
            tally["neg_read"] += bool(reads)
            continue
        tally["corners"] += 1
        if not reads:
            tally["declined"] += 1
            continue
        r, i = max(reads, key=lambda x: x[0].confidence)
        got = f"{r.rank} {r.suit}"
        if got == d["labels"][i]:
            tally["ok"] += 1
        else:
            tally["misread"] += 1
            wrong[(d["labels"][i], got, bool(d["orient"][i]))] += 1
    return tally


def evaluate(d, read=read_patch, confusions: bool = False) -> dict[str, float]:
    refs = builtin_references()
    read(d["patches"][0], refs)  # warm the caches
    wrong: collections.Counter = collections.Counter()
    t0 = time.perf_counter()
    results = [read(p, refs) for p in d["patches"]]
    per_call = (time.perf_counter() - t0) / max(len(results), 1)
    tally = tally_readings(d, results, wrong)
    n = max(tally["corners"], 1)
    out = {k: 100 * tally[k] / n for k in ("ok", "misread", "declined")}
    out["neg_read"] = 100 * tally["neg_read"] / max(tally["neg"], 1)
    out["us_per_call"] = per_call * 1e6
    print(
        f"{tally['corners']} index corners: ok {out['ok']:.1f} %  misread {out['misread']:.2f} % ({tally['misread']})  "
        f"declined {out['declined']:.1f} %  | negatives read {out['neg_read']:.2f} % of {tally['neg']}  | {out['us_per_call']:.0f} us/call"
    )
    p = max(tally["proper"], 1)
    print(
        f"   right-way-round patches of {tally['proper']} corners: ok {100 * tally['proper_ok'] / p:.1f} %  "
        f"misread {100 * tally['proper_misread'] / p:.2f} % ({tally['proper_misread']})"
    )
    if confusions:
        for (truth, got, orient), k in wrong.most_common():
            print(f"   {truth:>12s} -> {got:12s} {'' if orient else '(transposed patch)'} x{k}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--confusions", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    for path in args.data:
        print(path)
        evaluate(np.load(path), confusions=args.confusions)


if __name__ == "__main__":
    main()
