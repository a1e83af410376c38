"""``companion devices simulate`` in its own process, used by a DeviceManager in this one;
``companion devices list``; the firmware core stays MicroPython-friendly."""

import ast
import functools
import pathlib
import subprocess
import sys

from companion.cli import main
from devices.link import Timing
from devices.manager import DeviceManager
from tests.support import waiting

FIRMWARE = pathlib.Path(__file__).resolve().parents[1] / "devices" / "firmware"


wait_for = functools.partial(waiting.wait_for, timeout=10.0, interval=0.01)


def test_simulate_prints_paths_that_the_server_can_use():
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "devices", "simulate"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=FIRMWARE.parents[1])
    try:
        lines = []
        while not lines or not lines[-1].startswith("start the server with"):
            line = proc.stdout.readline()
            assert line, "the simulator ended early"
            lines.append(line.strip())
        spec = lines[-1].split("--serial ")[1]
        assert [line.split()[0] for line in lines[:3]] == ["sim-coins", "sim-dice", "sim-toss"]
        events = []
        with DeviceManager(spec, on_event=events.append, timing=Timing(ack_timeout=0.2), scan_interval=0.05) as m:
            assert wait_for(lambda: sum(s.online for s in m.status()) == 3)
            m.show_dice(0, (6, 6), roll_animation=False)
            proc.stdin.write("press sim-dice 3\n")
            proc.stdin.flush()
            assert wait_for(lambda: {e.kind for e in events} == {"roll_shown", "button"})
            assert [e.data["seat"] for e in events if e.kind == "button"] == [3]
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_list_shows_each_board_and_lights_every_led(capsys):
    from devices.simulator import Simulator

    with Simulator() as sim:
        assert main(["devices", "list", "--serial", ",".join(sim.ports()), "--wait", "0.5", "--test", "--step", "0"]) == 0
        assert all(b.state() == bytes(26) for b in sim.boards)  # cleared at the end
        assert sim.board("sim-dice").core.counters["frames"] >= 6 + 1  # six faces, a clear
    out = capsys.readouterr().out
    assert "sim-dice" in out and "dice for seats 1-8" in out and "online" in out and "test done" in out


def test_list_says_when_there_is_nothing(capsys):
    assert main(["devices", "list", "--serial", "none", "--wait", "0"]) == 1
    assert "no boards found" in capsys.readouterr().out


def test_the_firmware_core_stays_micropython_friendly():
    """No dataclasses, typing, f-strings or annotations: MicroPython must load boardcore.py as is."""
    tree = ast.parse((FIRMWARE / "boardcore.py").read_text())
    imports = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imports |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imports == {"struct"}
    for node in ast.walk(tree):
        assert not isinstance(node, ast.JoinedStr | ast.AnnAssign | ast.NamedExpr | ast.Match), ast.dump(node)
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None and all(a.annotation is None for a in node.args.args)
        if isinstance(node, ast.Attribute):
            assert node.attr not in ("hex", "fromhex"), "bytes.hex is missing on older MicroPython"
    compile((FIRMWARE / "main.py").read_text(), "main.py", "exec")
