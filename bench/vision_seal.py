"""What vision.index_pairs.sealed_holes costs and finds, alone, for #7.

    .venv/bin/python -m bench.vision_seal                          # CPU ms on the profile's scenes
    .venv/bin/python -m bench.vision_seal --against b69e808        # and the same spots as then?
    .venv/bin/python -m bench.vision_seal --against b69e808 --same 60 --decks 3

The pipeline runs once on each scene with ``sealed_holes`` wrapped so that
its arguments (paper mask, plane, frame) are kept; ``sealed_holes`` is then
timed alone on them (thread CPU time, single thread, the median of
``--repeats`` calls), now and, with ``--against REV``, as the vision package
was at REV, interleaved call by call.  Timing scenes are bench/vision_profile's
(seeds 1000+, on the mat, 0/6/12 cards, 1280x720 and 1920x1080: an empty mat's
printed zones are large paper regions).  ``--same N`` adds bench/vision_same's
first N 720p scenes and ``--decks K`` that many scenes of each installed
third-party deck (bench/vision_decks' scenes), where sealed spots matter, to
the comparison of what is found: the spots (stats, centroids) and the sealed
mask, exactly."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.vision_same import load_then  # noqa: E402
from vision import index_pairs  # noqa: E402
from vision import pipeline as pl  # noqa: E402
from vision.scene import render_scene  # noqa: E402


def captured(img: np.ndarray, frames: int = 2) -> list[tuple]:
    """sealed_holes' arguments (mask, plane, frame, bg_tiles) each time the
    pipeline called it on ``img`` (its ``frames``-th pass: calibrated first)."""
    calls: list[tuple] = []
    real = index_pairs.sealed_holes

    def spy(mask, plane, frame, bg_tiles=None):
        calls.append((mask.copy(), plane, frame, bg_tiles))
        return real(mask, plane, frame, bg_tiles)

    index_pairs.sealed_holes = spy
    try:
        pipe = pl.VisionPipeline(reuse_static=False)
        for _ in range(frames):
            calls.clear()
            pipe.process(img)
    finally:
        index_pairs.sealed_holes = real
    return calls


def timing_scenes(w: int, h: int, n: int, count: int):
    for seed in range(count):
        img, _ = render_scene(w, h, n, seed=1000 + seed, mat=True, occluders=0 if n == 0 else None)
        yield img


def same_scenes(count: int, decks: int):
    for i in range(count):
        img, _ = render_scene(1280, 720, 4 + i % 9, seed=i, mat=i % 3 != 2)
        yield f"720p seed {i}", img
    if decks <= 0:
        return
    from vision import decks as decklib

    for deck in decklib.decks() if decklib.renderer() is not None else []:
        try:
            deck.render_all()
        except RuntimeError:
            continue
        for i in range(decks):
            img, _ = render_scene(1280, 720, 4 + i % 9, seed=i, mat=i % 3 != 2, faces=deck)
            yield f"{deck.name} seed {i}", img


def same_output(a, b) -> bool:
    return (
        np.array_equal(a[0][1:], b[0][1:])
        and np.allclose(a[1][1:], b[1][1:], atol=1e-9)
        and np.array_equal(a[2], b[2])
    )


def cpu_ms(fn, args, repeats: int) -> float:
    out = []
    for _ in range(repeats):
        t = time.thread_time()
        fn(*args)
        out.append(time.thread_time() - t)
    return 1000 * statistics.median(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", metavar="REV")
    ap.add_argument("--cards", default="0,6,12")
    ap.add_argument("--sizes", default="1280x720,1920x1080")
    ap.add_argument("--scenes", type=int, default=3, help="timing scenes per size and card count")
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--same", type=int, default=0, help="bench.vision_same's first N 720p scenes, compared only")
    ap.add_argument("--decks", type=int, default=0, help="scenes per third-party deck, compared only")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        then = load_then(args.against, tmp, "index_pairs") if args.against else None
        now_fn = index_pairs.sealed_holes
        differ = total = 0

        def compare(name: str, calls: list[tuple]) -> None:
            nonlocal differ, total
            if then is None:
                return
            for k, c in enumerate(calls):
                a, b = then.sealed_holes(*c[:3]), now_fn(*c)
                total += 1
                if not same_output(a, b):
                    differ += 1
                    print(f"  {name} call {k}: then {len(a[0]) - 1} spots {a[0][1:].tolist()}, now {len(b[0]) - 1} {b[0][1:].tolist()}; "
                          f"sealed masks differ in {int(np.count_nonzero(a[2] != b[2]))} px", flush=True)

        for size in args.sizes.split(","):
            w, h = (int(x) for x in size.split("x"))
            for n in (int(x) for x in args.cards.split(",")):
                t_then, t_now = [], []
                for s, img in enumerate(timing_scenes(w, h, n, args.scenes)):
                    calls = captured(img)
                    compare(f"{size} {n} cards scene {s}", calls)
                    for c in calls:
                        if then is not None:
                            t_then.append(cpu_ms(then.sealed_holes, c[:3], args.repeats))
                        t_now.append(cpu_ms(now_fn, c, args.repeats))
                line = f"{size}, {n:2d} cards: sealed_holes now {statistics.median(t_now):6.2f} ms (max {max(t_now):6.2f})"
                if then is not None:
                    line += f", then {statistics.median(t_then):6.2f} ms (max {max(t_then):6.2f})"
                print(line + f"; {len(t_now)} calls, load {os.getloadavg()[0]:.1f}", flush=True)
        for name, img in same_scenes(args.same, args.decks):
            compare(name, captured(img))
        if then is not None:
            print(f"{total} calls compared against {args.against}: {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
