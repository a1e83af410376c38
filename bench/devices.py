"""Command round trip over a pty: host link <-> firmware core, p50/p99 and commands per second.

    .venv/bin/python bench/devices.py [--count 2000]

The virtual board runs in its own process (as a real board is its own computer),
so the figures include two kernel tty hops, COBS, CRC on both sides, and Python
thread wake-ups; a second run puts the board in this process for comparison.
Target (issue 8): p99 under 5 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from devices.link import Link, Timing  # noqa: E402
from devices.protocol import Msg  # noqa: E402
from devices.simulator import Simulator, standard_boards  # noqa: E402


def percentile(sorted_values: list[float], q: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def measure(path: str, count: int) -> dict[str, list[float]]:
    link = Link(path, Timing(ack_timeout=0.5, retries=3))
    link.open()
    try:
        link.handshake()
        for _ in range(50):  # warm up
            link.request(Msg.PING)
        commands = {
            "ping": (Msg.PING, lambda i: b""),
            "show-dice": (Msg.SHOW_DICE, lambda i: bytes([i % 8, i % 6 + 1, (i + 3) % 6 + 1, 0])),
            "set-state": (Msg.SET_STATE, lambda i: bytes(26)),
            "get-state": (Msg.GET_STATE, lambda i: b""),
        }
        results: dict[str, list[float]] = {}
        for name, (kind, payload) in commands.items():
            times = []
            cpu = time.process_time()
            for i in range(count):
                started = time.perf_counter()
                link.request(kind, payload(i))
                times.append((time.perf_counter() - started) * 1000)
            results[name] = times
            results[name + " cpu"] = [(time.process_time() - cpu) * 1000 / count]
        results["retries"] = [float(link.counters["retries"])]
        return results
    finally:
        link.close()


def report(title: str, results: dict[str, list[float]]) -> None:
    print(title)
    retries = results.pop("retries")[0]
    for name, times in results.items():
        if name.endswith(" cpu"):
            continue
        times.sort()
        total_s = sum(times) / 1000
        print(f"  {name:10s} n={len(times):5d}  p50 {percentile(times, 0.5):6.3f} ms  p99 {percentile(times, 0.99):6.3f} ms"
              f"  max {times[-1]:7.3f} ms  mean {statistics.fmean(times):6.3f} ms  {len(times) / total_s:8,.0f} commands/s"
              f"  (host CPU {results[name + ' cpu'][0]:.3f} ms/command)")
    print(f"  retries: {retries:.0f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="round trips per command kind")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPU(s), load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    proc = subprocess.Popen([sys.executable, "-m", "devices.simulator", "--only", "sim-dice"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        path = line.split()[1]
        report(f"board in its own process ({path}):", measure(path, args.count))
    finally:
        proc.stdin.close()
        proc.terminate()
        proc.wait(5)

    sim = Simulator(standard_boards()[1:2])
    sim.start()
    try:
        report(f"board in this process ({sim.ports()[0]}):", measure(sim.ports()[0], args.count))
    finally:
        sim.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
