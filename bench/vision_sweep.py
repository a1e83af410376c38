"""A hand sweeping over generated tables: what a frame costs while play goes
on, and whether keeping readings where the table did not change
(vision.read_memory, ``VisionPipeline(reuse_static=True)``) reads as well
as reading every frame in full (#7).

    .venv/bin/python -m bench.vision_sweep --seeds 0 50 --frames 10
    .venv/bin/python -m bench.vision_sweep --seeds 50 100 --frames 10

Each seed is bench/vision.py's scene (4-12 cards, 2/3 on the mat) with one
hand whose tip crosses the frame in ``--frames`` steps, every frame with its
own sensor noise.  Both pipelines see every frame; the first frame of each
sweep is not timed (nothing is kept yet).  Prints CPU ms per frame (mean,
single thread) and found / read right / misread summed over the frames
(vision.evaluate.score against each frame's truth), and how many frames
gave the two pipelines different cards."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.evaluate import Score, score  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import SceneTruth, render_scene  # noqa: E402


def sweep_frames(seed: int, frames: int, size: tuple[int, int] = (1280, 720), n_cards: int | None = None, mat: bool | None = None) -> Iterator[tuple[np.ndarray, SceneTruth]]:
    """``frames + 1`` frames of one table (bench/vision.py's scene ``seed``
    unless ``n_cards``/``mat`` are given) with a hand whose tip crosses it
    from left to right, each with its own sensor noise (sigma 2)."""
    w, h = size
    rng = np.random.default_rng(seed)
    n = 4 + seed % 9 if n_cards is None else n_cards
    on_mat = seed % 3 != 2 if mat is None else mat
    for k in range(frames + 1):
        tip = (w * (0.08 + 0.84 * k / max(frames, 1)), h * (0.4 + 0.15 * np.sin(k / 2 + seed)))
        img, truth = render_scene(w, h, n, seed=seed, mat=on_mat, hands=[(*tip, seed % 4)])
        yield np.clip(img + rng.normal(0, 2, img.shape), 0, 255).astype(np.uint8), truth


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs=2, default=(0, 50), metavar=("FIRST", "END"))
    ap.add_argument("--frames", type=int, default=10, help="steps of the hand per sweep")
    ap.add_argument("--size", default="1280x720")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    size = tuple(int(x) for x in args.size.split("x"))
    totals = {"full": Score(), "kept": Score()}
    cpu = {"full": 0.0, "kept": 0.0}
    timed = differ = 0
    for seed in range(*args.seeds):
        pipes = {"full": VisionPipeline(reuse_static=False), "kept": VisionPipeline()}
        for k, (frame, truth) in enumerate(sweep_frames(seed, args.frames, size)):
            cards = {}
            for name, pipe in pipes.items():
                t = time.thread_time()
                result = pipe.process(frame)
                if k:
                    cpu[name] += time.thread_time() - t
                    totals[name].add(score(result, truth))
                cards[name] = Counter(s.label for s in result.sightings)
            if k:
                timed += 1
                differ += cards["full"] != cards["kept"]
    print(f"{timed} frames ({args.seeds[0]}-{args.seeds[1] - 1}, {args.frames} steps each, {size[0]}x{size[1]}):")
    for name, label in (("full", "every frame read in full"), ("kept", "readings kept where nothing changed")):
        s = totals[name]
        print(f"  {label:36s} cpu {1000 * cpu[name] / timed:6.1f} ms a frame; found {s.found} / read right {s.read} / misread {len(s.misread)} of {s.expected}")
    print(f"  frames whose cards differ: {differ}")


if __name__ == "__main__":
    main()
