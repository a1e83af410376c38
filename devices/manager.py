"""The server's one handle on the table's boards: discovery, hot-plug, LED state, events.

Every public method returns at once: commands go into the queue of each board that
serves the seat and its writer thread sends them; a board that is offline keeps
them (coalesced) and first receives the whole LED state when it comes back.  No
method raises because a board is dead; the server asks :meth:`DeviceManager.has`
and shows dice and coins on screen when no board can.

``spec`` says where boards are: ``"auto"`` (scan USB serial ports), ``"sim"``
(start the virtual boards of devices.simulator in this process), ``"none"``, or
one or more port paths separated by commas (``"/dev/ttyACM0,/dev/pts/7"``).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping

from devices import discovery
from devices.board import Board, Command
from devices.events import BoardStatus, DeviceEvent
from devices.ledstate import ARMS, LedState, check_seat, coin_bit
from devices.link import BoardRefused, Link, LinkClosed, LinkTimeout, Timing
from devices.protocol import CAP_NAMES, TOSS_FACES, Cap, Msg

log = logging.getLogger(__name__)

CAPABILITIES = {name: cap for cap, name in CAP_NAMES.items()}
"""Names for :meth:`DeviceManager.has`: coins, dice, coin-toss, buttons."""


class DeviceManager:
    def __init__(self, spec: str = "auto", on_event: Callable[[DeviceEvent], None] | None = None, *,
                 on_status: Callable[[BoardStatus], None] | None = None, timing: Timing | None = None,
                 scan_interval: float | None = None, simulator=None):
        spec = (spec or "none").strip()
        self.spec = spec
        self.on_event = on_event
        self.on_status = on_status
        self.timing = timing or Timing()
        self.simulator = simulator
        self._own_simulator = False
        if spec == "sim" and simulator is None:
            from devices.simulator import Simulator

            self.simulator = Simulator()
            self._own_simulator = True
        self._paths = [] if spec in ("auto", "sim", "none") else [p.strip() for p in spec.split(",") if p.strip()]
        self.scan_interval = scan_interval if scan_interval is not None else (2.0 if spec == "auto" else 0.25)
        self._leds = LedState()
        self._lock = threading.RLock()
        self._boards: dict[str, Board] = {}
        self._busy_ports: dict[str, Link] = {}
        self._next_try: dict[str, float] = {}
        self._probed: set[str] = set()
        self._events: queue.Queue[tuple[str, object] | None] = queue.Queue()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._threads: list[threading.Thread] = []
        self._started = False

    # ---- lifecycle -------------------------------------------------------------
    def start(self) -> DeviceManager:
        with self._lock:
            if self._started or self.spec == "none":
                self._started = True
                return self
            self._started = True
            if self._own_simulator:
                self.simulator.start()
            for target, name in ((self._supervise, "devices-supervisor"), (self._dispatch, "devices-events")):
                thread = threading.Thread(target=target, name=name, daemon=True)
                thread.start()
                self._threads.append(thread)
        return self

    def close(self) -> None:
        """Stop every thread and close every port (bounded: each join waits at most 2 s)."""
        self._stop.set()
        self._wake.set()
        self._events.put(None)
        for thread in self._threads:
            thread.join(2)
        with self._lock:
            boards = list(self._boards.values())
            links = list(self._busy_ports.values())
        for board in boards:
            board.close()
        for link in links:
            link.close()
        if self._own_simulator and self.simulator is not None:
            self.simulator.close()

    def __enter__(self) -> DeviceManager:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- what the server asks ----------------------------------------------------
    def status(self) -> list[BoardStatus]:
        with self._lock:
            boards = list(self._boards.values())
        return sorted((b.status() for b in boards), key=lambda s: s.board_id)

    def has(self, capability: str, seat: int | None = None) -> bool:
        """Is a board online that can show ``capability`` (for ``seat``, when given)?"""
        cap = CAPABILITIES.get(capability)
        if cap is None:
            raise ValueError(f"unknown capability {capability!r}; known: {', '.join(CAPABILITIES)}")
        with self._lock:
            boards = list(self._boards.values())
        return any(b.online and b.serves(cap, seat if cap != Cap.BUTTONS else None) for b in boards)

    @property
    def leds(self) -> LedState:
        """What the host wants the LEDs to show (a copy)."""
        with self._lock:
            return self._leds.copy()

    def show_dice(self, seat: int, values: tuple[int, int], roll_animation: bool = True) -> None:
        """Show two die faces (1..6) for ``seat``; a ``roll_shown`` event follows once they stand still."""
        check_seat(seat)
        faces = tuple(values)
        if len(faces) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6 for v in faces):
            raise ValueError(f"dice need two faces from 1 to 6, got {values!r}")
        with self._lock:
            self._leds.dice[seat] = faces  # type: ignore[assignment]
        self._send(Cap.DICE, seat, Command(Msg.SHOW_DICE, bytes([seat, *faces, int(bool(roll_animation))]),
                                           key=("dice", seat)))

    def show_coin_toss(self, seat: int, faces: str, animate: bool = True) -> None:
        """Point the arrow of ``seat`` at its player or at the opponent; a ``coin_shown`` event follows.
        One arrow serves seats 2k and 2k+1, so this clears the toss of the facing seat."""
        check_seat(seat)
        if faces not in TOSS_FACES:
            raise ValueError(f"faces must be 'player' or 'opponent', got {faces!r}")
        face = TOSS_FACES[faces]
        with self._lock:
            self._leds.toss[seat] = face
            self._leds.toss.pop(seat ^ 1, None)
        self._send(Cap.TOSS, seat, Command(Msg.SHOW_TOSS, bytes([seat, face, int(bool(animate))]),
                                           key=("toss", seat // 2)))

    def set_aggression_coins(self, coins: Mapping[tuple[int, str], bool]) -> None:
        """Set every aggression coin at once: ``{(seat, "left"|"right"): lit}``; coins not named go dark."""
        mask = 0
        for key, lit in dict(coins).items():
            if not isinstance(key, tuple) or len(key) != 2:
                raise ValueError(f"a coin is (seat, 'left'|'right'), got {key!r}")
            seat, arm = key
            check_seat(seat)
            if arm not in ARMS:
                raise ValueError(f"arm must be 'left' or 'right', got {arm!r}")
            if lit:
                mask |= coin_bit(seat, arm)
        with self._lock:
            self._leds.coins = mask
        self._send(Cap.COINS, None, Command(Msg.SET_COINS, mask.to_bytes(2, "big"), key="coins"))

    def clear(self) -> None:
        """Every LED dark (between games)."""
        with self._lock:
            self._leds = LedState()
            boards = list(self._boards.values())
        for board in boards:
            board.enqueue(Command(Msg.CLEAR, key="clear"))

    def wait_idle(self, timeout: float) -> bool:
        """True once every online board has sent everything queued (for tests and benchmarks)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                boards = list(self._boards.values())
            if all(b.idle for b in boards if b.online):
                return True
            time.sleep(0.005)
        return False

    def _send(self, cap: Cap, seat: int | None, command: Command) -> None:
        with self._lock:
            boards = [b for b in self._boards.values() if b.serves(cap, seat)]
        for board in boards:
            board.enqueue(command)

    def _state_payload(self) -> bytes:
        with self._lock:
            return self._leds.encode()

    # ---- discovery and hot-plug ------------------------------------------------------
    def _candidates(self) -> list[discovery.Candidate]:
        if self.spec == "sim":
            return [discovery.Candidate(p, "simulator", True) for p in self.simulator.ports()]
        if self.spec == "auto":
            found = discovery.scan()
            if self.simulator is not None:
                found += [discovery.Candidate(p, "simulator", True) for p in self.simulator.ports()]
            return found
        return [discovery.Candidate(p, "named", True) for p in self._paths]

    def _supervise(self) -> None:
        while not self._stop.is_set():
            try:
                self.scan_once()
            except Exception:  # noqa: BLE001 - discovery must never die
                log.exception("device scan failed")
            self._wake.wait(self.scan_interval)
            self._wake.clear()

    def scan_once(self) -> None:
        """Try every candidate port not in use; called by the supervisor thread."""
        candidates = self._candidates()
        present = {c.port for c in candidates}
        self._probed &= present  # a port that went away is probed again when it comes back
        with self._lock:
            for port, link in list(self._busy_ports.items()):
                if link.closed:
                    del self._busy_ports[port]
        now = time.monotonic()
        for candidate in candidates:
            if self._stop.is_set():
                return
            port = candidate.port
            with self._lock:
                if port in self._busy_ports:
                    continue
            if self._next_try.get(port, 0) > now or (not candidate.rp2040 and port in self._probed):
                continue
            self._connect(candidate)

    def _connect(self, candidate: discovery.Candidate) -> None:
        port = candidate.port
        if not candidate.rp2040 and not os.path.exists(port):
            return
        link = Link(port, self.timing)
        try:
            link.open()
            hello = link.handshake(retries=1)
        except (LinkClosed, LinkTimeout, BoardRefused) as exc:
            link.close()
            self._probed.add(port)
            self._next_try[port] = time.monotonic() + max(1.0, self.scan_interval * 4)
            log.debug("no board on %s: %s", port, exc)
            return
        with self._lock:
            board = self._boards.get(hello.board_id)
            if board is not None and board.online and board.link is not None and board.link.port != port:
                # Either a board replugged faster than we noticed it leave (the old link dies
                # within moments, so ask again soon), or two boards share an id (ignore the new one).
                link.close()
                board.last_error = f"a second board calls itself {hello.board_id!r} on {port}; it is ignored"
                self._next_try[port] = time.monotonic() + self.scan_interval * 2
                return
            if board is None:
                board = Board(hello, timing=self.timing, state_payload=self._state_payload, emit=self._emit,
                              on_offline=self._offline)
                self._boards[hello.board_id] = board
            self._busy_ports[port] = link
        board.attach(link, hello)
        log.info("board %s online on %s (%s)", hello.board_id, port, candidate.description)
        self._status_changed(board)

    def _offline(self, board: Board) -> None:
        log.info("board %s offline: %s", board.board_id, board.last_error)
        self._status_changed(board)
        self._wake.set()  # look for it again now

    # ---- events to the server ------------------------------------------------------
    def _emit(self, event: DeviceEvent) -> None:
        self._events.put(("event", event))

    def _status_changed(self, board: Board) -> None:
        if self.on_status is not None:
            self._events.put(("status", board))

    def _dispatch(self) -> None:
        """Calls the server's callbacks from one thread, so a slow callback never stalls a port."""
        while True:
            item = self._events.get()
            if item is None:
                return
            kind, payload = item
            try:
                if kind == "event" and self.on_event is not None:
                    self.on_event(payload)  # type: ignore[arg-type]
                elif kind == "status" and self.on_status is not None:
                    self.on_status(payload.status())  # type: ignore[union-attr]
            except Exception:  # noqa: BLE001 - the server's bug must not stop event delivery
                log.exception("device event callback failed")
