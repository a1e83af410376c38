"""numpy's BLAS threads while vision works: as installed against one (#7).

    .venv/bin/python -m bench.vision_blas                 # idle, then with one core kept busy
    .venv/bin/python -m bench.vision_blas --busy 0 --size 1920x1080

The networks' matrix products are small, and OpenBLAS (numpy's wheels) splits
them over every core it finds; its threads spin while they wait, so on a
machine whose other cores are busy (the server, the frame grabber, JPEG
encoding of the table page's view) a frame takes far longer.  VisionPipeline
runs each frame with one BLAS thread (``blas_threads=1``); this bench times
``blas_threads=None`` (BLAS as installed) and 1, alternating frame by frame on
the same scenes, idle and with ``--busy`` processes spinning (one per core to
keep busy).  OpenCV's own threads are left as installed, as the server
leaves them; the figures are wall ms and the process's CPU ms per frame
(medians), so they count the BLAS threads' spinning too."""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from threadpoolctl import ThreadpoolController  # noqa: E402

from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402

MODES = {"as installed": None, "one thread": 1}


def _spin(stop) -> None:
    """A busy core: the rest of a server's work, in its simplest form."""
    x = 0
    while not stop.is_set():
        x += 1


def measure(scenes: list[np.ndarray], repeats: int) -> dict[str, tuple[list[float], list[float]]]:
    """Wall and process-CPU ms per frame by mode; each scene is processed once to
    settle the pipeline's scale and mat, then timed (a fresh pipeline per look,
    ``reuse_static`` off so every frame is processed in full)."""
    out: dict[str, tuple[list[float], list[float]]] = {m: ([], []) for m in MODES}
    for _ in range(repeats):
        for img in scenes:
            for mode, threads in MODES.items():
                pipe = VisionPipeline(reuse_static=False, blas_threads=threads)
                pipe.process(img)
                t0, c0 = time.perf_counter(), time.process_time()
                pipe.process(img)
                out[mode][0].append(1000 * (time.perf_counter() - t0))
                out[mode][1].append(1000 * (time.process_time() - c0))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--cards", type=int, default=12)
    ap.add_argument("--scenes", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--busy", type=int, default=1, help="also time with this many spinning processes (0: idle only)")
    args = ap.parse_args()
    w, h = (int(t) for t in args.size.lower().split("x"))
    blas = [i for i in ThreadpoolController().info() if i["user_api"] == "blas"]
    print(f"cores {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}; BLAS as installed: "
          + ", ".join(f"{i['internal_api']} {i['version']}, {i['num_threads']} threads" for i in blas))
    scenes = [render_scene(w, h, args.cards, seed=s)[0] for s in range(args.scenes)]
    for busy in sorted({0, args.busy}):
        stop = multiprocessing.Event()
        spinners = [multiprocessing.Process(target=_spin, args=(stop,), daemon=True) for _ in range(busy)]
        for p in spinners:
            p.start()
        try:
            got = measure(scenes, args.repeats)
        finally:
            stop.set()
            for p in spinners:
                p.join()
        for mode, (wall, cpu) in got.items():
            print(f"{args.size}, {args.cards} cards, {busy} busy process(es), BLAS {mode:12s}: "
                  f"wall {statistics.median(wall):6.1f} ms, CPU {statistics.median(cpu):6.1f} ms a frame "
                  f"(median of {len(wall)})")


if __name__ == "__main__":
    main()
