"""What the face-down finder (vision.backs.find_backs) costs, alone, and
whether a change to it finds the same backs: a bench for #7.

    .venv/bin/python -m bench.vision_backs_speed --against ed2a83f
    .venv/bin/python -m bench.vision_backs_speed --against ed2a83f --sets profile --repeats 5

The pipeline is run once per scene (calibrated first, as a camera would be)
with ``find_backs`` replaced by a recorder of its arguments; then
``find_backs`` of the working tree and, with ``--against REV``, that of the
``vision`` package at git revision REV are run on exactly those arguments,
interleaved call by call (a busy machine's load hits both alike), timed in
the thread's CPU time (single thread).  Printed per scene set: the median and
p90 CPU ms per call of each, and how many calls return different backs (and
how many backs each found in all).  Sets: ``profile`` (bench.vision_profile's
1280x720 scenes with 0, 6 and 12 cards on the mat, seeds 1000+), ``backs``
(bench.vision_backs' back-heavy scenes) and ``bench``
(bench/vision.py's accuracy scenes), seeds ``--seed0`` on.  ``--cprofile`` prints the
top functions of the working tree's finder over all calls instead;
``--whole`` times whole frames of the working tree's pipeline with the
finder now and then instead (frame by frame, the sightings compared);
``--same N`` runs bench/vision.py's first N accuracy scenes (from
``--seed0``) with each and compares sightings and scores."""

from __future__ import annotations

import argparse
import cProfile
import importlib
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision.backs as backs  # noqa: E402
import vision.pipeline as vp  # noqa: E402
from bench.vision_backs import back_scene  # noqa: E402
from vision.scene import render_scene  # noqa: E402


def scene_sets(names: list[str], n: int, seed0: int = 0) -> list[tuple[str, np.ndarray]]:
    """(set label, image) of each scene asked for."""
    out = []
    for name in names:
        if name == "profile":
            for cards in (0, 6, 12):
                for seed in range(n):
                    img, _ = render_scene(1280, 720, cards, seed=1000 + seed, mat=True, occluders=0 if cards == 0 else None)
                    out.append((f"profile {cards:2d} cards", img))
        elif name == "backs":
            for seed in range(seed0, seed0 + n):
                out.append(("backs", back_scene(seed)[0]))
        elif name == "bench":
            for seed in range(seed0, seed0 + n):
                out.append(("bench", render_scene(1280, 720, 4 + seed % 9, seed=seed, mat=seed % 3 != 2)[0]))
        else:
            raise SystemExit(f"no scene set {name!r}")
    return out


def recorded_calls(scenes: list[tuple[str, np.ndarray]]) -> list[tuple[str, tuple]]:
    """(set label, find_backs' positional arguments) of each scene's second frame."""
    calls: list[tuple[str, tuple]] = []
    real = vp.find_backs
    for label, img in scenes:
        got: list[tuple] = []

        def record(*a, _got=got, **_k):
            _got.append(a)
            return real(*a)

        pipe = vp.VisionPipeline(reuse_static=False)
        vp.find_backs = real
        pipe.process(img)  # calibrated once
        vp.find_backs = record
        try:
            pipe.process(img)
        finally:
            vp.find_backs = real
        calls += [(label, a) for a in got]
    return calls


def _key(found) -> list:
    return [np.round(np.asarray(c.outline), 2).tolist() for c in found]


def _same(a, b, tol: float) -> bool:
    """The same backs, outlines within ``tol`` mm corner by corner."""
    if len(a) != len(b):
        return False
    oa = sorted(np.asarray(c.outline).mean(0).round(0).tolist() for c in a)
    ob = sorted(np.asarray(c.outline).mean(0).round(0).tolist() for c in b)
    if tol == 0:
        return _key(a) == _key(b)
    return all(np.hypot(p[0] - q[0], p[1] - q[1]) <= tol for p, q in zip(oa, ob, strict=True))


def _then_module(rev: str, tmp: str):
    root = Path(__file__).resolve().parent.parent
    tar = subprocess.run(["git", "archive", rev, "vision"], cwd=root, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
    os.rename(os.path.join(tmp, "vision"), os.path.join(tmp, "vision_then"))
    sys.path.insert(0, tmp)
    return importlib.import_module("vision_then.backs")


def compare(calls, then, repeats: int) -> None:
    labels = list(dict.fromkeys(label for label, _ in calls))
    for label in labels:
        t_now, t_then, differ, moved, n_now, n_then = [], [], 0, 0, 0, 0
        for lab, a in calls:
            if lab != label:
                continue
            tn, tt = [], []
            for _ in range(repeats):
                c = time.thread_time()
                now = backs.find_backs(*a)
                tn.append(time.thread_time() - c)
                if then is not None:
                    c = time.thread_time()
                    old = then.find_backs(*a)
                    tt.append(time.thread_time() - c)
            t_now.append(min(tn))
            n_now += len(now)
            if then is not None:
                t_then.append(min(tt))
                n_then += len(old)
                differ += not _same(now, old, 0)
                moved += not _same(now, old, 3.0)
        line = f"{label:18s} {len(t_now):3d} calls: now {1000 * statistics.median(t_now):6.2f} ms (p90 {1000 * _p90(t_now):6.2f}), {n_now} backs"
        if then is not None:
            line += (f"; then {1000 * statistics.median(t_then):6.2f} ms (p90 {1000 * _p90(t_then):6.2f}), {n_then} backs; "
                     f"calls differing {differ} (beyond 3 mm or in number {moved})")
        print(line + f"; load {os.getloadavg()[0]:.1f}", flush=True)


def whole_frames(scenes: list[tuple[str, np.ndarray]], then, repeats: int) -> None:
    """CPU ms of whole frames (VisionPipeline.process of the working tree)
    with find_backs now and then, interleaved frame by frame, and whether
    the sightings are the same: the pipeline's other work is the same code
    either way, so the difference is the finder's (bench.vision_profile
    --against compares the whole vision package, other changes with it)."""
    labels = list(dict.fromkeys(label for label, _ in scenes))
    real = vp.find_backs
    for label in labels:
        t_now, t_then, differ, n = [], [], 0, 0
        for lab, img in scenes:
            if lab != label:
                continue
            n += 1
            pipes = {}
            for name, fn in (("now", backs.find_backs), ("then", then.find_backs)):
                vp.find_backs = fn
                pipes[name] = vp.VisionPipeline(reuse_static=False)
                pipes[name].process(img)  # calibrated once each
            got = {}
            try:
                for _ in range(repeats):
                    for name, fn, out in (("now", backs.find_backs, t_now), ("then", then.find_backs, t_then)):
                        vp.find_backs = fn
                        c = time.thread_time()
                        got[name] = pipes[name].process(img)
                        out.append(time.thread_time() - c)
            finally:
                vp.find_backs = real
            differ += _sightings(got["now"]) != _sightings(got["then"])
        print(f"{label:18s} whole frames: now {1000 * statistics.median(t_now):6.1f} ms (p90 {1000 * _p90(t_now):6.1f}), "
              f"then {1000 * statistics.median(t_then):6.1f} ms (p90 {1000 * _p90(t_then):6.1f}); "
              f"sightings differ in {differ} of {n} scenes; load {os.getloadavg()[0]:.1f}", flush=True)


def same_sightings(n_scenes: int, seed0: int, then) -> None:
    """bench/vision.py's accuracy scenes (its seeds, card counts and mats),
    each processed by the working tree's pipeline with the finder now and
    then in one process (one snapshot of the other code, which others may
    be changing): how many scenes' sightings differ, and both scores."""
    from vision.evaluate import Score, score

    real = vp.find_backs
    totals = {"now": Score(), "then": Score()}
    differ = []
    try:
        for i in range(n_scenes):
            seed = seed0 + i
            img, truth = render_scene(1280, 720, 4 + (i % 9), seed=seed, mat=i % 3 != 2)
            got = {}
            for name, fn in (("now", backs.find_backs), ("then", then.find_backs)):
                vp.find_backs = fn
                got[name] = vp.VisionPipeline().process(img)
                totals[name].add(score(got[name], truth))
            if _sightings(got["now"]) != _sightings(got["then"]):
                differ.append(seed)
    finally:
        vp.find_backs = real
    print(f"{n_scenes} bench/vision.py scenes from seed {seed0}: sightings differ in {len(differ)} {differ[:20]}")
    for name, t in totals.items():
        print(f"  {name:4s}: found {t.found}/{t.expected}, read right {t.read}/{t.found}, backs {t.backs_found}/{t.backs_expected}, "
              f"printed {t.printed_found}/{t.printed_expected}, false cards {t.false_cards}", flush=True)


def _sightings(result) -> list:
    return [(s.kind, s.rank, s.suit, s.marker_id, s.back, s.anchors_px, s.outline_px, s.above) for s in result.sightings]


def _p90(vals: list[float]) -> float:
    s = sorted(vals)
    return s[int(len(s) * 0.9)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="profile,backs", help="comma-separated: profile, backs, bench")
    ap.add_argument("--scenes", type=int, default=4, help="scenes per set (profile: per card count)")
    ap.add_argument("--backs-scenes", type=int, default=60, help="scenes of the backs and bench sets")
    ap.add_argument("--seed0", type=int, default=0, help="first seed of the backs and bench sets")
    ap.add_argument("--repeats", type=int, default=3, help="runs per call; the least CPU time counts")
    ap.add_argument("--against", metavar="REV", help="compare with vision.backs at this git revision")
    ap.add_argument("--cprofile", action="store_true")
    ap.add_argument("--whole", action="store_true", help="time whole frames with the finder now and then (needs --against)")
    ap.add_argument("--same", type=int, metavar="N", help="N bench/vision.py scenes: sightings and scores, finder now and then (needs --against)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    names = args.sets.split(",")
    scenes = []
    for name in names if not args.same else []:
        scenes += scene_sets([name], args.scenes if name == "profile" else args.backs_scenes, args.seed0)
    if args.same:
        with tempfile.TemporaryDirectory() as tmp:
            same_sightings(args.same, args.seed0, _then_module(args.against, tmp))
        return
    if args.whole:
        with tempfile.TemporaryDirectory() as tmp:
            then = _then_module(args.against, tmp)
            print(f"OpenCV {cv2.__version__}, threads {cv2.getNumThreads()}; whole frames, find_backs now against {args.against}")
            whole_frames(scenes, then, args.repeats)
        return
    calls = recorded_calls(scenes)
    if args.cprofile:
        prof = cProfile.Profile(time.thread_time)
        prof.enable()
        for _ in range(args.repeats):
            for _, a in calls:
                backs.find_backs(*a)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        return
    with tempfile.TemporaryDirectory() as tmp:
        then = _then_module(args.against, tmp) if args.against else None
        print(f"OpenCV {cv2.__version__}, threads {cv2.getNumThreads()}; find_backs now" + (f" against {args.against}" if then else ""))
        compare(calls, then, args.repeats)


if __name__ == "__main__":
    main()
