"""Number cards read from their pips (vision.pips): what the stage tried and
what it decided, on bench/vision.py's scenes.

    .venv/bin/python -m bench.vision_pips --scenes 60 --save /tmp/pips.pkl    # gather, list
    .venv/bin/python -m bench.vision_pips --load /tmp/pips.pkl --set suit=0.95  # score a rule
    .venv/bin/python -m bench.vision_pips --scenes 10 --deck paris             # a third-party deck

Every card the pipeline tried (its declined index corners, its face lying on
their paper region) is recorded with the generated card it belongs to (None:
no card there), its visible share, the index's evidence (the glyph networks'
two likeliest ranks, the share of each suit of the ink's colour), the pips
(count, colour, pooled suit, why no count) and the verdict.  Totals: cards
read right that were otherwise lost (``new_right``), read wrong
(``new_wrong``: misreads), faces with a count but declined, and why."""

from __future__ import annotations

import argparse
import collections
import dataclasses
import os
import pickle
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from vision import decks as deck_art  # noqa: E402
from vision import pips  # noqa: E402
from vision.evaluate import _index_spots  # noqa: E402
from vision.glyph_model import RANK_CLASSES  # noqa: E402
from vision.glyphs import RED_SUITS, SUITS  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402
from vision.suit_decision import likeliest_suit, suit_share  # noqa: E402


class _Recorder(VisionPipeline):
    """The pipeline without the pip stage, keeping every face it would try."""

    def __init__(self) -> None:
        super().__init__()
        self.tried: list = []

    def _pip_faces(self, frame, plane, declined, blobs, found):
        out = super()._pip_faces(frame, plane, declined, blobs, found)
        for looks, face, evs in out:
            anchors = plane.to_frame(np.array([c.point + 5 * u + 8 * v for c, u, v in looks]))
            self.tried.append((anchors, face, evs))
        return []


def gather(n_scenes: int, seed0: int, deck=None) -> list[dict]:
    out = []
    t0 = time.time()
    for i in range(n_scenes):
        seed = seed0 + i
        k = seed - seed0
        img, truth = render_scene(1280, 720, 4 + (k % 9), seed=seed, mat=k % 3 != 2, faces=deck)
        pipe = _Recorder()
        result = pipe.process(img)
        ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
        tol = 9 * ppm
        faces = [c for c in truth.cards if c.kind == "face"]
        for anchors, face, evs in pipe.tried:
            card, best = None, tol
            for c in faces:
                d = float(np.min(np.linalg.norm(_index_spots(c, truth.homography)[None, :, :] - anchors[:, None, :], axis=2)))
                if d < best:
                    card, best = c, d
            found = card is not None and any(
                s.kind == "card" and min(np.linalg.norm(np.array(a) - sp) for a in s.anchors_px for sp in _index_spots(card, truth.homography)) < tol
                for s in result.sightings
            )
            label = None if card is None else (card.rank, card.suit)
            vis = None if card is None else card.visible_fraction
            out.append({"seed": seed, "truth": label, "visible": vis, "found": found, "face": face, "evs": evs})
        if (i + 1) % 20 == 0:
            print(f"  {i + 1} scenes, {len(out)} faces tried ({time.time() - t0:.0f} s)", flush=True)
    return out


def _index_text(face: pips.PipFace, evs) -> str:
    pr = pips.index_rank_probs(evs)
    if pr is None:
        return "index: no glyphs"
    top = np.argsort(-pr)[:2]
    ranks = " ".join(f"{RANK_CLASSES[i]}:{pr[i]:.2f}" for i in top)
    ps = pips.index_suit_probs(evs)
    red = face.red if face.red is not None else next((e.glyphs.red for e in evs if e.glyphs.red is not None), None)
    if ps is None or red is None:
        return f"index {ranks}"
    suits = " ".join(f"{s[0]}:{suit_share(ps, red, i):.2f}" for i, s in enumerate(SUITS) if (s in RED_SUITS) == red)
    return f"index {ranks} | {suits}"


def _pip_text(face: pips.PipFace) -> str:
    if face.why:
        return f"pips: {face.why}"
    colour = {True: "red", False: "black", None: "colour?"}[face.red]
    text = f"{face.count} pips {colour}"
    if face.red is not None and face.suit_p is not None:
        si, share = likeliest_suit(face.suit_p, face.red)
        text += f" {SUITS[si]} {share:.2f}"
    if face.others:
        text += f", {face.others} other"
    if not pips.layout_ok(face.pips):
        text += ", layout no"
    return text


def evaluate(records: list[dict], t: pips.PipThresholds, show: bool = True) -> dict[str, int]:
    n = collections.Counter(tried=len(records))
    for rec in records:
        face, evs = rec["face"], rec["evs"]
        r = pips.decide(face, evs, t)
        got = None if r is None else (r.rank, r.suit)
        truth = rec["truth"]
        if rec["found"]:
            verdict = "found otherwise" + ("" if got is None else (", same" if got == truth else f", CONFLICT {got}"))
            n["conflicts"] += got is not None and got != truth
        elif got is None:
            verdict = "declined"
            if not face.why and evs:
                n["counted_declined"] += 1
            n["why " + (face.why or ("others" if face.others else "layout" if not pips.layout_ok(face.pips) else "rule"))] += 1
        elif got == truth:
            verdict = f"READ {got[0]} {got[1]} right"
            n["new_right"] += 1
        else:
            verdict = f"MISREAD as {got[0]} {got[1]}"
            n["new_wrong"] += 1
        if show:
            vis = "" if rec["visible"] is None else f" vis {rec['visible']:.2f}"
            label = "no card" if truth is None else f"{truth[0]} {truth[1]}"
            print(f"  seed {rec['seed']:4d} {label:14s}{vis} | {_index_text(face, evs)} | {_pip_text(face)} | {verdict}")
    return dict(n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", type=int, default=60)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--deck", action="append", default=[], help="a third-party deck (name contains this; repeatable)")
    ap.add_argument("--save", help="gather and save the records here")
    ap.add_argument("--load", help="score the records saved here")
    ap.add_argument("--set", action="append", default=[], help="field=value of PipThresholds (repeatable)")
    ap.add_argument("--quiet", action="store_true", help="totals only")
    a = ap.parse_args()
    if a.load:
        with open(a.load, "rb") as fh:
            records = pickle.load(fh)
    else:
        records = []
        for deck in deck_art.chosen(a.deck):
            if deck is not None:
                print(deck.name, flush=True)
            records += gather(a.scenes, a.seed0, deck)
        if a.save:
            with open(a.save, "wb") as fh:
                pickle.dump(records, fh)
    t = dataclasses.replace(pips.PIPS, **{k: float(v) for k, v in (s.split("=", 1) for s in a.set)})
    print(t)
    print(evaluate(records, t, not a.quiet))


if __name__ == "__main__":
    main()
