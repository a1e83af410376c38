"""Teach-mode benchmark: register 20 synthetic commercial-looking cards from one
photo each, then recognise rendered views of them (perspective, lamp, glare,
blur, noise, JPEG), and check that unregistered cards come back "unknown".

    python -m bench.vision_features [--views N] [--method orb|sift|akaze|both] [--scenes N]

Prints, per feature method: accuracy over 20 x N card views, the false-match
rate over unregistered cards' views, ms per match, and (with --scenes) how many
cards whole table frames yield.  Deterministic: the same seeds every run.
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from vision.feature_cards import FeatureCards
from vision.feature_scene import card_face, card_spec, card_view, registration_photo, table_scene

REGISTERED = range(20)
UNREGISTERED = range(100, 120)


def build(method: str, faces: dict[int, np.ndarray]) -> tuple[FeatureCards, float]:
    reg = FeatureCards(method)
    t0 = time.process_time()
    for s in REGISTERED:
        spec = card_spec(s)
        reg.add(spec.name, spec.type, registration_photo(faces[s], seed=5000 + s))
    return reg, (time.process_time() - t0) * 1000 / len(REGISTERED)


def run(method: str, views: int, scenes: int, faces: dict[int, np.ndarray], others: dict[int, np.ndarray]) -> None:
    reg, teach_ms = build(method, faces)
    right = wrong = unknown = 0
    times = []
    fails = []
    for s in REGISTERED:
        want = card_spec(s).name
        for v in range(views):
            img, _ = card_view(faces[s], seed=s * 1000 + v)
            t0 = time.process_time()
            m = reg.match(img)
            times.append(time.process_time() - t0)
            if m is None:
                unknown += 1
                fails.append((s, v, "unknown"))
            elif m.name == want:
                right += 1
            else:
                wrong += 1
                fails.append((s, v, m.name))
    false = 0
    n_other = 0
    for s in UNREGISTERED:
        for v in range(max(1, views // 2)):
            img, _ = card_view(others[s], seed=s * 1000 + v)
            t0 = time.process_time()
            m = reg.match(img)
            times.append(time.process_time() - t0)
            n_other += 1
            false += m is not None
    total = right + wrong + unknown
    print(f"[{method}] teach {teach_ms:.0f} ms/card; {total} views of 20 taught cards: accuracy {100 * right / total:.1f}% ({right} right, {wrong} wrong, {unknown} unknown)")
    print(f"[{method}] {n_other} views of 20 untaught cards: false matches {false} ({100 * false / n_other:.1f}%)")
    print(f"[{method}] match: {1000 * np.mean(times):.1f} ms mean, {1000 * np.percentile(times, 95):.1f} ms p95 CPU per view (480x480)")
    if fails:
        print(f"[{method}] misses (card, view, answer): {fails[:12]}")
    for overlap in (False, True):
        if not scenes:
            break
        got = placed = wrong_s = 0
        t_scene = []
        for k in range(scenes):
            pool = {s: faces[s] for s in REGISTERED} | {s: others[s] for s in list(UNREGISTERED)[:4]}
            img, cards = table_scene(pool, seed=700 + k, n=6, overlap=overlap)
            t0 = time.process_time()
            found = reg.find_all(img)
            t_scene.append(time.process_time() - t0)
            names = {card_spec(p.seed).name for p in cards if p.seed in REGISTERED}
            placed += len(names)
            got += sum(f.name in names for f in found)
            wrong_s += sum(f.name not in names for f in found)
        how = "each dropped partly over the one before" if overlap else "lying apart"
        print(f"[{method}] {scenes} table frames (1280x960, 6 cards {how}, some untaught): found {got}/{placed} taught cards, {wrong_s} wrong; {1000 * np.mean(t_scene):.0f} ms CPU per frame")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--views", type=int, default=10, help="rendered views per taught card (default 10)")
    ap.add_argument("--method", default="both", choices=("orb", "sift", "akaze", "both"))
    ap.add_argument("--scenes", type=int, default=10, help="whole table frames to search (default 10)")
    args = ap.parse_args()
    # one OpenCV thread and CPU time (not wall time): a Raspberry-Pi-like
    # single-core figure that does not depend on what else the machine runs
    cv2.setNumThreads(1)
    faces = {s: card_face(s) for s in REGISTERED}
    others = {s: card_face(s) for s in UNREGISTERED}
    for method in ("orb", "sift") if args.method == "both" else (args.method,):
        run(method, args.views, args.scenes, faces, others)


if __name__ == "__main__":
    main()
