"""What one corner-index read costs, now and at an older commit, measured in
one process with the two interleaved (the machine's load hits both alike), #7.

    .venv/bin/python -m bench.reader_speed PATCHES.npz [--rev b31144a]

PATCHES.npz comes from bench.reader_patches.  The older reader (its
corner_index.py, glyph_model.py and weights, glyph_mlp.npz too where it
exists) is taken from git at ``--rev``."""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision  # noqa: E402
from vision import corner_index, glyph_model  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def old_reader(rev: str, tmp: Path):
    """corner_index as it was at ``rev``, with that commit's network and weights."""
    for f in ("corner_index.py", "glyph_model.py", "glyph_model.npz", "glyph_mlp.npz"):
        shown = subprocess.run(["git", "show", f"{rev}:vision/{f}"], cwd=ROOT, capture_output=True)
        if shown.returncode == 0:  # glyph_mlp.npz exists from 656dd4c on
            (tmp / f).write_bytes(shown.stdout)
    gm = _load("vision.glyph_model_old", tmp / "glyph_model.py")
    gm.MODEL_PATH = tmp / "glyph_model.npz"
    gm.MLP_PATH = tmp / "glyph_mlp.npz"
    # its `from . import glyph_model` must find the old network while it loads
    sys.modules["vision.glyph_model"], vision.glyph_model = gm, gm
    try:
        return _load("vision.corner_index_old", tmp / "corner_index.py")
    finally:
        sys.modules["vision.glyph_model"], vision.glyph_model = glyph_model, glyph_model


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("patches")
    ap.add_argument("--rev", default="b31144a")
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    patches = list(np.load(args.patches)["patches"][: args.n])
    with tempfile.TemporaryDirectory() as tmp:
        old = old_reader(args.rev, Path(tmp))
        readers = {args.rev: (old, old.builtin_references()), "now": (corner_index, corner_index.builtin_references())}
        best = dict.fromkeys(readers, 1e9)
        for mod, refs in readers.values():
            mod.read_patch(patches[0], refs)
        for _ in range(args.rounds):
            for name, (mod, refs) in readers.items():
                t = time.perf_counter()
                for p in patches:
                    mod.read_patch(p, refs)
                best[name] = min(best[name], (time.perf_counter() - t) / len(patches))
    print(f"read_patch per call, best of {args.rounds} interleaved rounds over {len(patches)} corner patches:")
    for name, t in best.items():
        print(f"  {name:>8s}: {t * 1e6:6.0f} us")


if __name__ == "__main__":
    main()
