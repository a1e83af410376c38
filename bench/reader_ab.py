"""Run a vision benchmark with the corner-index reader of an older commit and
everything else as it is in the working tree, so that a reader change is
measured alone while others change the pipeline (#7).

    .venv/bin/python -m bench.reader_ab --rev 0e134c8 vision_misses --scenes 60
    .venv/bin/python -m bench.reader_ab --rev 0e134c8 vision --skip-teach --skip-timing --scenes 300

Without ``--rev`` the working tree's reader runs (the same command line for
both halves of a comparison).  The older reader (corner_index.py,
glyph_model.py and its weights) is loaded from git as bench.reader_speed does,
and put in place of ``read_patch`` wherever the pipeline imported it."""

from __future__ import annotations

import argparse
import os
import runpy
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.reader_speed import old_reader  # noqa: E402

BENCHES = {"vision_misses": "bench.vision_misses", "vision": "bench.vision", "vision_decks": "bench.vision_decks"}


def swap_reader(rev: str, tmp: Path) -> None:
    """Every module that imported read_patch (or the built-in references) gets
    the one at ``rev``."""
    import vision.corner_index
    import vision.index_pairs
    import vision.pipeline
    import vision.teach

    old = old_reader(rev, tmp)
    for mod in (vision.corner_index, vision.pipeline, vision.index_pairs, vision.teach):
        for name in ("read_patch", "extract_glyphs", "builtin_references", "References"):
            if hasattr(mod, name) and hasattr(old, name):
                setattr(mod, name, getattr(old, name))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", help="commit whose reader runs (default: the working tree's)")
    ap.add_argument("--set", action="append", default=[], help="a reader threshold field=value (the working tree's reader only; repeat for more)")
    ap.add_argument("bench", choices=sorted(BENCHES))
    args, rest = ap.parse_known_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.rev:
            swap_reader(args.rev, Path(tmp))
            print(f"reader from {args.rev}", flush=True)
        else:
            import dataclasses

            import vision.corner_index as ci

            if args.set:
                ci.THRESHOLDS = dataclasses.replace(ci.THRESHOLDS, **{k: float(v) for k, v in (x.split("=") for x in args.set)})
            print(f"reader from the working tree, {ci.THRESHOLDS}", flush=True)
        sys.argv = [args.bench, *rest]
        # run as a fresh module: its `from vision.corner_index import
        # read_patch` then finds the swapped reader
        runpy.run_module(BENCHES[args.bench], run_name="__main__", alter_sys=True)

if __name__ == "__main__":
    main()
