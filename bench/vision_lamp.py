"""Cards found and read under coloured and dim lamps, with and without the frame's balance (vision.white_balance), for #7.

    .venv/bin/python -m bench.vision_lamp --scenes 100
    .venv/bin/python -m bench.vision_lamp --scenes 60 --seed0 500 --lamps warm,tungsten --size 4000x3000

A card table in the evening is lit by a warm lamp, and a webcam or phone
does not always take all of it out: white paper comes out cream or orange,
and paper is found as *unsaturated*; in a dim room it comes out grey.  The scenes are bench/vision.py's own
(same seeds, 4-12 cards, two thirds on the mat), each rendered under every
lamp (gains on blue, green, red, applied before the camera's noise and
JPEG: ``render_scene(lamp=...)``), and read by a pipeline with the balance
on and one with it off.  Prints found / read right / misread per lamp."""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402

from vision.evaluate import score  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402

#: gains on (blue, green, red): what a camera left of the lamp
LAMPS = {
    "neutral": (1.0, 1.0, 1.0),
    "warm": (0.75, 0.9, 1.0),  # a warm-white LED, partly corrected
    "tungsten": (0.6, 0.82, 1.0),  # an incandescent bulb, uncorrected
    "candle": (0.45, 0.72, 1.0),  # a very warm lamp
    "cool": (1.0, 0.95, 0.8),  # a cold-white LED or shade
    "green": (0.9, 1.0, 0.85),  # an old fluorescent tube
    "dim": (0.45, 0.45, 0.45),  # an evening room, a webcam's exposure too short
    "dim-warm": (0.3, 0.4, 0.48),  # both
}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--lamps", default=",".join(LAMPS), help="comma-separated, of: " + ", ".join(LAMPS))
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--without", action="store_true", help="also read every scene with the balance off")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    w, h = (int(v) for v in args.size.split("x"))
    modes = (True, False) if args.without else (True,)
    print(f"{args.scenes} scenes from seed {args.seed0} at {w}x{h}: found / read right / misread (of cards with an uncovered index)")
    for name in args.lamps.split(","):
        lamp = LAMPS[name]
        totals = {m: [0, 0, 0, 0] for m in modes}
        for i in range(args.seed0, args.seed0 + args.scenes):
            img, truth = render_scene(w, h, 4 + (i % 9), seed=i, mat=i % 3 != 2, lamp=lamp)
            for m in modes:
                s = score(VisionPipeline(balance=m).process(img), truth)
                t = totals[m]
                t[0] += s.expected
                t[1] += s.found
                t[2] += s.read
                t[3] += len(s.misread)
        for m in modes:
            e, f, r, x = totals[m]
            print(f"  {name:9s} {str(lamp):18s} balance {'on ' if m else 'off'}: {f}/{e} found ({100 * f / max(e, 1):.1f} %), {r} right, {x} misread", flush=True)


if __name__ == "__main__":
    main()
