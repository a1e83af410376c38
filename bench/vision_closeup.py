"""Close-up photos without a mat: a few cards filling the frame, as a phone takes them.

    .venv/bin/python -m bench.vision_closeup --scenes 24

Each scene is a no-mat 4000x3000 scene of 2-4 cards (vision.scene), cropped to
its cards with a 150 px margin and scaled 0.5, 1 and 2 times, so a card is
about 170 to 800 px wide and often no card lies whole (the pipeline's
pseudo-millimetres then have no card to be measured from).  A fresh pipeline
reads each image, as ``companion vision read`` does.  Printed: readable faces,
how many were read, labels read that are on no card of the scene, and the CPU
ms per image."""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402

ZOOMS = (0.5, 1.0, 2.0)


def close_ups(seed: int):
    """(zoom, image, truth) for one scene's crop at every zoom."""
    img, truth = render_scene(4000, 3000, 2 + seed % 3, seed=seed, mat=False, occluders=0)
    pts = np.vstack([c.corners_px for c in truth.cards])
    x0, y0 = np.maximum(pts.min(0) - 150, 0).astype(int)
    x1, y1 = np.minimum(pts.max(0) + 150, [4000, 3000]).astype(int)
    crop = img[y0:y1, x0:x1]
    for zoom in ZOOMS:
        inter = cv2.INTER_AREA if zoom < 1 else cv2.INTER_CUBIC
        yield zoom, cv2.resize(crop, None, fx=zoom, fy=zoom, interpolation=inter), truth


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=24)
    ap.add_argument("--seed0", type=int, default=400)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    expected = read = foreign = 0
    ms: list[float] = []
    by_zoom = {z: [0, 0] for z in ZOOMS}
    for seed in range(args.seed0, args.seed0 + args.scenes):
        for zoom, image, truth in close_ups(seed):
            want = {(c.rank, c.suit) for c in truth.cards if c.kind == "face" and c.readable}
            on_table = {(c.rank, c.suit) for c in truth.cards}
            t0 = time.thread_time()
            result = VisionPipeline().process(image)
            ms.append(1000 * (time.thread_time() - t0))
            got = {(s.rank, s.suit) for s in result.sightings if s.kind == "card"}
            expected += len(want)
            read += len(want & got)
            foreign += len(got - on_table)
            by_zoom[zoom][0] += len(want)
            by_zoom[zoom][1] += len(want & got)
    print(f"OpenCV {cv2.__version__}, load average {os.getloadavg()[0]:.1f}")
    print(f"{args.scenes} close-up scenes (seeds {args.seed0}..), zooms {ZOOMS}: readable faces {expected}, read {read} "
          f"({100 * read / max(expected, 1):.1f} %), labels on no card of the scene {foreign}")
    for zoom, (e, r) in by_zoom.items():
        print(f"  zoom {zoom}: {r}/{e}")
    print(f"CPU ms per image: median {np.median(ms):.0f}, p90 {np.percentile(ms, 90):.0f}, max {max(ms):.0f}")


if __name__ == "__main__":
    main()
