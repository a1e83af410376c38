"""Cards found and read when a real camera's faults are added to bench/vision.py's scenes, for #7.

    .venv/bin/python -m bench.vision_camera --scenes 60
    .venv/bin/python -m bench.vision_camera --scenes 60 --faults shadow,noise --seed0 500
    .venv/bin/python -m bench.vision_camera --scenes 60 --faults none --background white

The generator's camera is a tidy one (its blur, noise, JPEG and light are
drawn within limits).  Real ones add faults of their own; each fault here is
applied to the finished frame (after the generator's JPEG), and the same
scenes are read as they are and with it, so that what a fault costs is
measured, not guessed.  A fault that costs much is a place where the
reader or finder is fragile in a way the generator does not show.  Lamps
(a colour or a dim exposure) are bench.vision_lamp's."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.evaluate import score  # noqa: E402
from vision.pipeline import VisionPipeline  # noqa: E402
from vision.scene import render_scene  # noqa: E402


def _jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def _u8(img: np.ndarray) -> np.ndarray:
    return np.clip(img, 0, 255).astype(np.uint8)


def _shadow(rng: np.random.Generator, img: np.ndarray, depth: float, soft: float) -> np.ndarray:
    """A straight shadow edge across the frame (an arm's, a lamp's), light at ``depth`` beyond it."""
    h, w = img.shape[:2]
    a = rng.uniform(0, np.pi)
    cx, cy = rng.uniform(0.3, 0.7, 2) * (w, h)
    yy, xx = np.mgrid[:h, :w]
    d = (xx - cx) * np.cos(a) + (yy - cy) * np.sin(a)
    m = 1 - (1 - depth) * np.clip(0.5 + d / soft, 0, 1)
    return _u8(img * m[..., None])


#: fault name -> (what it is, the change: (rng, frame) -> frame)
FAULTS: dict[str, tuple[str, Callable[[np.random.Generator, np.ndarray], np.ndarray]]] = {
    "none": ("the scene as drawn", lambda rng, im: im),
    "shadow": ("a soft shadow edge, light at 0.5 beyond it", lambda rng, im: _shadow(rng, im, 0.5, 12)),
    "hard-shadow": ("a sharp shadow edge, light at 0.45", lambda rng, im: _shadow(rng, im, 0.45, 3)),
    "noise": ("sensor noise, sigma 10 levels", lambda rng, im: _u8(im + rng.normal(0, 10, im.shape))),
    "washed-out": ("lifted blacks: 0.6 x + 70", lambda rng, im: _u8(im.astype(np.float32) * 0.6 + 70)),
    "over": ("over-exposed: 1.35 x, clipped", lambda rng, im: _u8(im.astype(np.float32) * 1.35)),
    "gamma": ("a darker tone curve (gamma 1.8)", lambda rng, im: _u8(255 * (im / 255.0) ** 1.8)),
    "blur": ("one more pixel of blur (sigma 1.3)", lambda rng, im: cv2.GaussianBlur(im, (0, 0), 1.3)),
    "motion": ("5 px of sideways motion blur", lambda rng, im: cv2.filter2D(im, -1, np.ones((1, 5), np.float32) / 5)),
    "jpeg30": ("JPEG at quality 30", lambda rng, im: _jpeg(im, 30)),
    "half": ("half the resolution, scaled back up", lambda rng, im: cv2.resize(cv2.resize(im, (im.shape[1] // 2, im.shape[0] // 2), interpolation=cv2.INTER_AREA), (im.shape[1], im.shape[0]))),
    "sharpened": ("a camera's sharpening (unsharp mask 0.8)", lambda rng, im: cv2.addWeighted(im, 1.8, cv2.GaussianBlur(im, (0, 0), 2), -0.8, 0)),
}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=60)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--faults", default=",".join(FAULTS), help="comma-separated, of: " + ", ".join(FAULTS))
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--background", default=None, help="every scene on this table (wood, felt, light, plaid, white, bright or black: a white cloth, a white table nearly as bright as the cards and a black cloth, which the generator never draws at random)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    w, h = (int(v) for v in args.size.split("x"))
    table = f", all on {args.background}" if args.background else ""
    print(f"{args.scenes} scenes from seed {args.seed0} at {w}x{h}{table}: found / read right / misread (of cards with an uncovered index)")
    for name in args.faults.split(","):
        what, fault = FAULTS[name]
        rng = np.random.default_rng(args.seed0)  # the same faults for the same scenes, run after run
        e = f = r = x = 0
        for seed in range(args.seed0, args.seed0 + args.scenes):
            img, truth = render_scene(w, h, 4 + seed % 9, seed=seed, mat=seed % 3 != 2, background=args.background)
            s = score(VisionPipeline().process(fault(rng, img)), truth)
            e, f, r, x = e + s.expected, f + s.found, r + s.read, x + len(s.misread)
        print(f"  {name:11s} {f:4d}/{e} found ({100 * f / max(e, 1):5.1f} %), {r:4d} right, {x:3d} misread   {what}", flush=True)


if __name__ == "__main__":
    main()
