"""Virtual boards: the real firmware core (devices/firmware/boardcore.py) behind a pty pair.

The host opens the pty's slave path exactly as it opens /dev/ttyACM0, so every
byte crosses a real kernel tty.  A virtual board can also misbehave on purpose
(garbage, damaged or late answers, answering twice, resetting, being unplugged and
plugged in again at a new path), which is how the tests exercise the driver's faults.

``python -m devices.simulator`` (or ``companion devices simulate``) runs the
standard set of boards until interrupted and prints their paths.
"""

from __future__ import annotations

import os
import random
import select
import sys
import threading
import time
import tty
from collections.abc import Iterable
from dataclasses import dataclass, field

from devices.firmware import boardcore as fw


def now_ms() -> int:
    return int(time.monotonic() * 1000)


@dataclass
class Faults:
    """Misbehaviour switches; each can be flipped while the board runs."""

    delay_answers: float = 0.0
    """Seconds to hold every outgoing byte (a slow or busy board)."""
    duplicate_answers: bool = False
    """Send every outgoing chunk twice (a board that answers twice)."""
    corrupt_incoming: int = 0
    """Flip a bit in this many incoming frames (line noise towards the board)."""
    mute: bool = False
    """Read but never answer (a hung board)."""
    sent_corrupted: int = field(default=0, init=False)


class VirtualBoard:
    """One simulated board.  ``plug()`` creates a pty and starts the board thread."""

    def __init__(self, board_id: str, caps: Iterable[tuple[int, int, int]], buttons: Iterable[tuple[int, int]] = (),
                 **core_options):
        self.board_id = board_id
        self.caps = list(caps)
        self.buttons = list(buttons)
        self.core_options = core_options
        self.faults = Faults()
        self.path: str | None = None
        self.core: fw.BoardCore | None = None
        self.boots = 0
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None
        self._running = False
        self._delayed: list[tuple[float, bytes]] = []
        self._presses: dict[int, list] = {}  # button index -> [phase "down"|"up", earliest release (ms), more]

    # ---- power and cable ---------------------------------------------------
    def plug(self) -> str:
        """Plug the board in: a new pty (a new path), a fresh boot.  Returns the path."""
        with self._lock:
            if self._running:
                return self.path  # type: ignore[return-value]
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line editing, no signals: bytes pass unchanged
            self._master, self._slave = master, slave
            self.path = os.ttyname(slave)
            self._boot()
            self._running = True
            self._thread = threading.Thread(target=self._run, name=f"sim-{self.board_id}", daemon=True)
            self._thread.start()
            return self.path

    def unplug(self) -> None:
        """Pull the cable: the pty disappears, the host's next read or write fails."""
        with self._lock:
            if not self._running:
                return
            self._running = False
            self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2)
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self._master = self._slave = None
            self.path = None
            self._delayed.clear()

    def replug(self) -> str:
        self.unplug()
        return self.plug()

    def reset(self) -> None:
        """Reset the board without touching the cable (a watchdog or a soft reboot):
        LEDs go dark, caches are lost, an ANNOUNCE goes out."""
        with self._lock:
            self._boot()
            self._wake()

    def close(self) -> None:
        self.unplug()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def _boot(self) -> None:
        self.boots += 1
        options = dict(self.core_options)  # the firmware's own timings unless a test asks otherwise
        boot_id = random.getrandbits(32)
        if self.core is None:
            self.core = fw.BoardCore(self.board_id, self.caps, self.buttons, now=now_ms(), boot_id=boot_id, **options)
        else:
            self.core.boot(now_ms(), boot_id)
        self.core.event_seq = boot_id & 0xFFFF  # events of a new boot do not look like old ones
        self._presses.clear()

    # ---- things a person does --------------------------------------------------
    def press(self, index: int, hold_ms: int = 40) -> None:
        """Press button ``index`` for at least ``hold_ms``, and on until the firmware's debouncer
        has taken the press (a busy machine may not run the board thread for a while); then
        release it.  Presses of a button still held are done one after the other."""
        with self._lock:
            if not 0 <= index < len(self.buttons):
                raise ValueError(f"{self.board_id} has {len(self.buttons)} button(s), not #{index}")
            pending = self._presses.get(index)
            if pending is not None:
                pending[2] += 1
            else:
                self._presses[index] = ["down", now_ms() + hold_ms, 0, hold_ms]
            self._wake()

    def inject(self, data: bytes) -> None:
        """Write raw bytes towards the host, as a noisy line or a buggy firmware would."""
        with self._lock:
            if self._master is not None:
                os.write(self._master, data)

    def state(self) -> bytes:
        """What the board shows, as a GET_STATE payload."""
        with self._lock:
            return self.core.state_bytes() if self.core else bytes(fw.STATE_SIZE)

    def pixels(self) -> list[tuple[int, int, int]]:
        with self._lock:
            return self.core.render(now_ms()) if self.core else []

    # ---- the board's loop -------------------------------------------------------
    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def _run(self) -> None:
        master = self._master
        while True:
            with self._lock:
                if not self._running:
                    return
                now = now_ms()
                timeout = max(0.0, (self.core.next_deadline(now) - now) / 1000) if self.core else 0.05
                if self._presses:
                    timeout = min(timeout, 0.005)
                if self._delayed:
                    timeout = min(timeout, max(0.0, self._delayed[0][0] - time.monotonic()))
            try:
                readable, _, _ = select.select([master, self._wake_r], [], [], timeout)
            except (OSError, ValueError):
                return
            data = b""
            if self._wake_r in readable:
                try:
                    os.read(self._wake_r, 512)
                except OSError:
                    pass
            if master in readable:
                try:
                    data = os.read(master, 4096)
                except OSError:
                    # EIO: nobody holds the slave open right now; not an error for a board.
                    time.sleep(0.01)
            with self._lock:
                if not self._running:
                    return
                self._step(data)

    def _step(self, data: bytes) -> None:
        core = self.core
        assert core is not None
        now = now_ms()
        if data:
            if self.faults.corrupt_incoming:
                data = self._corrupt(data)
            core.receive(data, now)
        for index, press in list(self._presses.items()):
            debouncer = core.debouncers[index]
            if press[0] == "down":
                core.button_level(index, 0, now)
                if debouncer.stable == 0 and now >= press[1]:
                    press[0] = "up"
            else:
                core.button_level(index, 1, now)
                if debouncer.stable == 1:  # released long enough for the debouncer to see it
                    if press[2]:
                        self._presses[index] = ["down", now + press[3], press[2] - 1, press[3]]
                    else:
                        del self._presses[index]
        core.tick(now)
        out = core.take_output()
        if self.faults.mute:
            out = b""
        if out and self.faults.duplicate_answers:
            out = out + out
        if out and self.faults.delay_answers > 0:
            self._delayed.append((time.monotonic() + self.faults.delay_answers, out))
            out = b""
        while self._delayed and self._delayed[0][0] <= time.monotonic():
            out += self._delayed.pop(0)[1]
        if out and self._master is not None:
            try:
                os.write(self._master, out)
            except OSError:
                pass

    def _corrupt(self, data: bytes) -> bytes:
        """Flip one bit inside the first frame of ``data`` (never making a 0x00)."""
        buf = bytearray(data)
        for i in range(1, len(buf)):
            if buf[i] != 0 and i + 1 < len(buf) and buf[i + 1] != 0:
                buf[i] ^= 0x10 if buf[i] ^ 0x10 else 0x20
                self.faults.corrupt_incoming -= 1
                self.faults.sent_corrupted += 1
                break
        return bytes(buf)


# --------------------------------------------------------------------------
# The standard table


def standard_boards(**core_options) -> list[VirtualBoard]:
    """A coins board (8 seats), a dice board (8 seats, a roll button each), a coin-toss board."""
    return [
        VirtualBoard("sim-coins", [(fw.CAP_COINS, 0, 8)], **core_options),
        VirtualBoard("sim-dice", [(fw.CAP_DICE, 0, 8)], [(fw.CAP_DICE, s) for s in range(8)], **core_options),
        VirtualBoard("sim-toss", [(fw.CAP_TOSS, 0, 2)], [(fw.CAP_TOSS, fw.SHARED_SEAT)], **core_options),
    ]


class Simulator:
    """A set of virtual boards, plugged in together."""

    def __init__(self, boards: list[VirtualBoard] | None = None):
        self.boards = boards if boards is not None else standard_boards()

    def start(self) -> list[str]:
        return [board.plug() for board in self.boards]

    def ports(self) -> list[str]:
        """The current path of every plugged-in board (a replugged board has a new one)."""
        return [b.path for b in self.boards if b.path]

    def board(self, board_id: str) -> VirtualBoard:
        for b in self.boards:
            if b.board_id == board_id:
                return b
        raise KeyError(f"no virtual board {board_id!r}; there are {', '.join(b.board_id for b in self.boards)}")

    def close(self) -> None:
        for b in self.boards:
            b.close()

    def __enter__(self) -> Simulator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


HELP = """commands: press BOARD INDEX | reset BOARD | replug BOARD | unplug BOARD | state | quit"""


def interact(sim: Simulator, lines: Iterable[str], out=sys.stdout) -> bool:
    """Drive the boards from text commands (stdin of ``companion devices simulate``); True on ``quit``."""
    for line in lines:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "quit":
                return True
            if words[0] == "state":
                for b in sim.boards:
                    print(f"{b.board_id} {b.path or 'unplugged'} state {b.state().hex()}", file=out)
            elif words[0] == "press" and len(words) == 3:
                sim.board(words[1]).press(int(words[2]))
            elif words[0] in ("reset", "replug", "unplug") and len(words) == 2:
                board = sim.board(words[1])
                getattr(board, words[0])()
                print(f"{board.board_id} {board.path or 'unplugged'}", file=out)
            else:
                print(HELP, file=out)
        except (KeyError, ValueError) as exc:
            print(f"error: {exc}", file=out)
        out.flush()
    return False


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m devices.simulator", description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="run only this board (sim-coins, sim-dice, sim-toss)")
    args = parser.parse_args(argv)
    sim = Simulator()
    if args.only:
        sim.boards = [b for b in sim.boards if b.board_id in args.only]
    paths = sim.start()
    try:
        for board in sim.boards:
            caps = ", ".join(f"{k}:{f}+{n}" for k, f, n in board.caps)
            print(f"{board.board_id} {board.path} caps {caps} buttons {len(board.buttons)}")
        print(f"--serial {','.join(paths)}", flush=True)
        if not interact(sim, sys.stdin):
            threading.Event().wait()  # stdin closed (run in the background): serve until interrupted
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
