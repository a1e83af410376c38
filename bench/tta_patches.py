"""What the corner-index reader's networks and templates say of index patches
re-sampled with the corner placed a little differently (#7: test-time
augmentation of borderline patches), saved so that rules for combining the
looks can be scored without running the pipeline again.

    .venv/bin/python -m bench.tta_patches --scenes 300 --seed0 0 --out /tmp/tta_0.pkl
    .venv/bin/python -m bench.tta_patches --load /tmp/tta_0.pkl


Scenes and labels are bench.reader_patches' (every corner found, both edge
assignments; "card" at an uncovered index corner with the edge assignment
that turns it upright, "wrong" the other assignment there, "neg" more than
10 mm from every card corner).  Each patch whose glyphs are cut is read as
the pipeline reads it and, for every jitter of ``JITTERS``, its evidence is
kept (network probabilities, template matches).  ``--load`` scores, on the
saved patches, the rule of vision.jitter_read with each jitter subset (right
reads, misreads at index corners, reads elsewhere), lower suit thresholds
for comparison, and how many misreads every jittered look agrees with."""

from __future__ import annotations

import argparse
import os
import pickle
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dataclasses import replace  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.reader_patches import corner_looks  # noqa: E402
from vision import glyph_model  # noqa: E402
from vision.cards import sample_patch  # noqa: E402
from vision.corner_index import (  # noqa: E402
    SUITS,
    THRESHOLDS,
    Evidence,
    Glyphs,
    builtin_references,
    decide,
    evidence,
    extract_glyphs,
    likeliest_suit,
    read_patch,
)
from vision.jitter_read import near_miss, placement  # noqa: E402

#: (shift along u mm, shift along v mm, turn degrees, scale)
JITTERS = [
    (0.35, 0.35, 0, 1),
    (-0.35, -0.35, 0, 1),
    (0.35, -0.35, 0, 1),
    (-0.35, 0.35, 0, 1),
    (0, 0, 2.5, 1),
    (0, 0, -2.5, 1),
    (0, 0, 0, 1.04),
    (0, 0, 0, 0.96),
]


def _ev(patch, refs):
    gl = extract_glyphs(patch)
    if gl is None:
        return None
    ev = evidence(gl, refs, full=True)
    return {
        "red": gl.red,
        "rank_p": ev.rank_p,
        "suit_p": ev.suit_p,
        "t_rank": ev.template_rank,
        "rank_score": ev.rank_score,
        "t_suit": ev.template_suit,
        "suit_score": ev.suit_score,
        "split": ev.suit_split,
    }


def collect(n_scenes: int, seed0: int) -> list[dict]:
    refs = builtin_references()
    rows = []
    for x in corner_looks(n_scenes, seed0):
        k = x.kind if x.kind != "card" else ("card" if x.orient else "wrong")
        patch = sample_patch(x.image, x.plane, x.point, x.u, x.v)
        base = _ev(patch, refs)
        if base is None or base["red"] is None:
            continue
        r = read_patch(patch, refs)
        jit = [_ev(sample_patch(x.image, x.plane, *placement(x.point, x.u, x.v, j)), refs) for j in JITTERS]
        rows.append(
            {
                "seed": x.seed,
                "label": x.label,
                "kind": k,
                "ppm": x.ppm,
                "read": None if r is None else (r.rank, r.suit, r.confidence),
                "base": base,
                "jit": jit,
            }
        )
    return rows


def _evidence(d: dict, rank_p=None, suit_p=None) -> Evidence:
    gl = Glyphs(np.zeros((2, 2), np.float32), np.zeros((2, 2), np.float32), d["red"], (0, 0, 1, 1), (0, 0, 1, 1))
    rank_p = d["rank_p"] if rank_p is None else rank_p
    suit_p = d["suit_p"] if suit_p is None else suit_p
    return Evidence(gl, rank_p, suit_p, d["t_rank"], d["rank_score"], d["t_suit"], d["suit_score"], d["split"], complete=True)


def _top(d: dict) -> tuple[str, str]:
    return glyph_model.RANK_CLASSES[int(np.argmax(d["rank_p"]))], SUITS[likeliest_suit(d["suit_p"], d["red"])[0]]


def _label(r) -> str | None:
    return None if r is None else f"{r[0]} {r[1]}"


def tta(row: dict, js: list[int]) -> str | None:
    """vision.jitter_read's rule for a declined near miss (the base reading otherwise)."""
    if row["read"] is not None:
        return _label(row["read"])
    b = row["base"]
    if b["rank_p"] is None or b["suit_p"] is None or not near_miss(_evidence(b)):
        return None
    looks = [row["jit"][j] for j in js]
    if any(x is None or x["red"] is not b["red"] for x in looks):
        return None
    ev = _evidence(b, np.mean([b["rank_p"], *(x["rank_p"] for x in looks)], 0), np.mean([b["suit_p"], *(x["suit_p"] for x in looks)], 0))
    r = decide(ev, THRESHOLDS)
    if r is None or any(_top(x) != (r.rank, r.suit) for x in [b, *looks]):
        return None
    return f"{r.rank} {r.suit}"


def lowered(row: dict, net_suit: float) -> str | None:
    if row["read"] is not None:
        return _label(row["read"])
    b = row["base"]
    if b["rank_p"] is None or b["suit_p"] is None:
        return None
    r = decide(_evidence(b), replace(THRESHOLDS, net_suit=net_suit))
    return None if r is None else f"{r.rank} {r.suit}"


def tally(rows: list[dict], rule) -> tuple[int, int, int]:
    right = wrong = elsewhere = 0
    for row in rows:
        out = rule(row)
        if out is None:
            continue
        if row["kind"] != "card":
            elsewhere += 1
        elif out == row["label"]:
            right += 1
        else:
            wrong += 1
    return right, wrong, elsewhere


def report(rows: list[dict]) -> None:
    print(f"{len(rows)} patches with glyphs cut, {sum(r['kind'] == 'card' for r in rows)} upright at an index corner")
    print("rule                      right  misread  read elsewhere")
    print(f"{'base':24s} {tally(rows, lambda r: _label(r['read']))}")
    for name, js in (("shift x4", [0, 1, 2, 3]), ("turn x2", [4, 5]), ("scale x2", [6, 7]), ("scale+shift x4", [6, 7, 0, 1]), ("all 8", list(range(8)))):
        print(f"{'TTA ' + name:24s} {tally(rows, lambda r, js=js: tta(r, js))}")
    for ns in (0.93, 0.9, 0.85):
        print(f"{'net_suit ' + str(ns):24s} {tally(rows, lambda r, ns=ns: lowered(r, ns))}")
    mis = [r for r in rows if r["kind"] == "card" and r["read"] is not None and _label(r["read"]) != r["label"]]
    agree = [r for r in mis if all(x is not None and _top(x) == tuple(r["read"][:2]) for x in r["jit"])]
    black = [r for r in mis if r["read"][1] in ("spades", "clubs")]
    print(f"misreads {len(mis)}: every jittered look agrees with {len(agree)}; black-suit misreads {len(black)}, all looks agree with {sum(r in agree for r in black)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--out")
    ap.add_argument("--load")
    args = ap.parse_args()
    if args.load:
        with open(args.load, "rb") as f:
            report(pickle.load(f))
        return
    if not args.out:
        ap.error("--out or --load")
    cv2.setNumThreads(1)
    rows = collect(args.scenes, args.seed0)
    with open(args.out, "wb") as f:
        pickle.dump(rows, f)
    print(f"{len(rows)} patches -> {args.out}")


if __name__ == "__main__":
    main()
