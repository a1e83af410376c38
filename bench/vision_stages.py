"""Which pipeline stage made each card read, and how often each stage reads right: a diagnostic for #7.

    .venv/bin/python -m bench.vision_stages --scenes 1000              # bench/vision.py's 720p scenes
    .venv/bin/python -m bench.vision_stages --scenes 200 --bench-size 1920x1080 --list

A stage is the place in ``vision/pipeline.py`` where the card's sighting was
made (a corner read, a pair the edge-free finder read, a sibling index of a
stack, a card read from its pips ...), named by its function and source line.
For each: card sightings matched to a face card (``vision.evaluate.score``'s
matching), how many read it wrong, and how many right and wrong readings lie
under each confidence, so a stage whose misreads a confidence floor would
cut shows itself.  The scenes are bench/vision.py's accuracy scenes (the same
seeds, 2/3 on the mat).  Single thread (cv2.setNumThreads(1)).

The stage is found by wrapping the pipeline's internal ``_Found`` record (each
is tagged with the line that made it): a diagnostic, not an API."""

from __future__ import annotations

import argparse
import collections
import linecache
import os
import sys
import traceback

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision.pipeline as vp  # noqa: E402
from vision.evaluate import score  # noqa: E402
from vision.scene import render_scene  # noqa: E402

#: confidences at which the table says what a floor there would drop
FLOORS = (0.6, 0.62, 0.65, 0.7, 0.8)
_PIPELINE = os.path.abspath(vp.__file__)


class _Tagged(vp._Found):
    """A _Found that remembers the pipeline line that made it (the innermost
    frame in vision/pipeline.py outside dataclasses.replace)."""

    def __init__(self, *a, **k) -> None:
        super().__init__(*a, **k)
        here = [f for f in traceback.extract_stack()[:-1] if os.path.abspath(f.filename) == _PIPELINE]
        f = here[-1] if here else None
        self.stage = f"{f.name}:{f.lineno} {linecache.getline(f.filename, f.lineno).strip()[:60]}" if f else "?"


def stages(n_scenes: int, seed0: int, size: tuple[int, int]) -> tuple[dict[str, list[tuple[bool, float]]], list[str]]:
    """Per stage, (read right, confidence) of each matched card sighting; and each misread, described."""
    plain = vp._Found
    vp._Found = _Tagged
    made: dict[tuple, str] = {}
    finish = vp.VisionPipeline._finish

    def tagged_finish(self, found, *a, **k):
        out = finish(self, found, *a, **k)
        for x, sg in zip(found, out, strict=True):
            made[(sg.rank, sg.suit, sg.anchors_px)] = getattr(x, "stage", "?")
        return out

    vp.VisionPipeline._finish = tagged_finish
    per: dict[str, list[tuple[bool, float]]] = collections.defaultdict(list)
    wrong: list[str] = []
    try:
        for seed in range(seed0, seed0 + n_scenes):
            made.clear()
            img, truth = render_scene(size[0], size[1], 4 + (seed % 9), seed=seed, mat=seed % 3 != 2)
            res = vp.VisionPipeline().process(img)
            by_id = {sg.id: sg for sg in res.sightings}
            for sid, ok in score(res, truth).sightings_right.items():
                sg = by_id[sid]
                stage = made.get((sg.rank, sg.suit, sg.anchors_px), "?")
                per[stage].append((ok, sg.confidence))
                if not ok:
                    wrong.append(f"seed {seed}: read {sg.rank} {sg.suit} at {sg.confidence:.2f} by {stage}")
    finally:
        vp._Found = plain
        vp.VisionPipeline._finish = finish
    return per, wrong


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=200)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--bench-size", default="1280x720", help="WxH: bench/vision.py's scenes at this size (its --size)")
    ap.add_argument("--list", action="store_true", help="print every misread with its stage")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    size = tuple(int(x) for x in args.bench_size.lower().split("x"))
    per, wrong = stages(args.scenes, args.seed0, size)
    total = sum(len(v) for v in per.values())
    print(f"{args.scenes} scenes from seed {args.seed0} at {size[0]}x{size[1]}: {total} cards read, {len(wrong)} wrong")
    for stage, rows in sorted(per.items(), key=lambda kv: -len(kv[1])):
        ok = np.array([r[0] for r in rows])
        conf = np.array([r[1] for r in rows])
        bad = int((~ok).sum())
        print(f"  {len(rows):5d} read, {bad:3d} wrong ({100 * bad / len(rows):4.1f} %)  {stage}")
        print("        under " + ", ".join(f"{t}: {int(((conf < t) & ok).sum())} right / {int(((conf < t) & ~ok).sum())} wrong" for t in FLOORS))
    if args.list:
        print("\n".join(wrong))


if __name__ == "__main__":
    main()
