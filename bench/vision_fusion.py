"""Cards read from several declined index corners together (vision.fusion): what
the rule would add, right and wrong, on bench/vision.py's scenes.

    .venv/bin/python -m bench.vision_fusion --scenes 300 --save /tmp/fusion.pkl   # gather
    .venv/bin/python -m bench.vision_fusion --load /tmp/fusion.pkl --set rank=0.8  # score a rule

Every group of declined corners of one paper region whose card outlines
coincide (the groups the pipeline would fuse) is recorded with each look's
evidence, the generated card its corners belong to (None: no card there) and
whether the pipeline found that card some other way.  A rule is then scored
offline on the records: groups it reads right on cards otherwise lost
(``new_right``), read wrong (``new_wrong``: misreads), and groups on cards
found anyway that it reads differently (``conflicts``)."""

from __future__ import annotations

import argparse
import dataclasses
import os
import pickle
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from vision.evaluate import _index_spots  # noqa: E402
from vision.fusion import FUSION, FusionThresholds, fuse  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402


class _Recorder(VisionPipeline):
    """The pipeline without fusion, keeping every group it would fuse."""

    def __init__(self) -> None:
        super().__init__()
        self.groups: list = []

    def _fused(self, frame, plane, declined, blobs, reads):
        for _bi, looks, evs in self._fusion_groups(frame, plane, declined, blobs, reads):
            anchors = plane.to_frame(np.array([x.point + 5 * x.u + 8 * x.v for x in looks]))
            self.groups.append((anchors, evs))
        return []


def gather(n_scenes: int, seed0: int) -> list[dict]:
    out = []
    t0 = time.time()
    for i in range(n_scenes):
        seed = seed0 + i
        k = seed - seed0
        img, truth = render_scene(1280, 720, 4 + (k % 9), seed=seed, mat=k % 3 != 2)
        pipe = _Recorder()
        result = pipe.process(img)
        ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
        tol = 9 * ppm
        faces = [c for c in truth.cards if c.kind == "face"]
        for anchors, evs in pipe.groups:
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
            out.append({"seed": seed, "truth": label, "found": found, "readable": card is not None and card.readable, "evs": evs})
        if (i + 1) % 50 == 0:
            print(f"  {i + 1} scenes, {len(out)} groups ({time.time() - t0:.0f} s)", flush=True)
    return out


def evaluate(records: list[dict], t: FusionThresholds, show: bool = False) -> dict[str, int]:
    n = {"groups": len(records), "new_right": 0, "new_wrong": 0, "conflicts": 0, "agrees_found": 0, "declined_lost": 0}
    for rec in records:
        r = fuse(rec["evs"], t)
        got = None if r is None else (r.rank, r.suit)
        if rec["found"]:
            if got is not None:
                n["agrees_found" if got == rec["truth"] else "conflicts"] += 1
            continue
        if got is None:
            n["declined_lost"] += rec["readable"]
        elif got == rec["truth"]:
            n["new_right"] += 1
        else:
            n["new_wrong"] += 1
            if show:
                print(f"    seed {rec['seed']}: {rec['truth']} read as {got}")
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", type=int, default=300)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--save", help="gather and save the records here")
    ap.add_argument("--load", help="score the records saved here")
    ap.add_argument("--set", action="append", default=[], help="field=value of FusionThresholds (repeatable)")
    ap.add_argument("--show", action="store_true", help="list the wrong readings")
    a = ap.parse_args()
    if a.load:
        with open(a.load, "rb") as fh:
            records = pickle.load(fh)
    else:
        records = gather(a.scenes, a.seed0)
        if a.save:
            with open(a.save, "wb") as fh:
                pickle.dump(records, fh)
    t = dataclasses.replace(FUSION, **{k: float(v) for k, v in (s.split("=", 1) for s in a.set)})
    print(t)
    print(evaluate(records, t, a.show))


if __name__ == "__main__":
    main()
