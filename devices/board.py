"""One board as the host knows it, across cables and resets: its queue and its writer.

A :class:`Board` outlives its :class:`~devices.link.Link`.  Commands wait in the
board's queue while it is offline, so none is lost; after a reconnect or a reset
the board first gets the whole LED state (one SET_STATE frame) and then whatever
is still queued.  Its single writer thread is the only sender of commands.
"""

from __future__ import annotations

import collections
import struct
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from devices.events import BoardStatus, DeviceEvent
from devices.ledstate import TOSS_NAMES
from devices.link import BoardRefused, Link, LinkClosed, LinkTimeout, Timing
from devices.protocol import CAP_NAMES, SHARED_SEAT, Cap, Frame, FrameError, Hello, Msg, parse_hello

_ERROR_COUNTERS = ("errors", "bad_frames", "garbage", "unknown", "handler_errors")


@dataclass(frozen=True)
class Command:
    """A queued command.  A newer command with the same ``key`` replaces a queued older one
    (only the latest coins or dice of a seat matter); ``key`` None never coalesces."""

    kind: int
    payload: bytes = b""
    key: Hashable | None = None

    @property
    def name(self) -> str:
        return Frame(self.kind, 0).name


class Board:
    def __init__(self, hello: Hello, *, timing: Timing, state_payload: Callable[[], bytes],
                 emit: Callable[[DeviceEvent], None], on_offline: Callable[[Board], None] | None = None):
        self.board_id = hello.board_id
        self.hello = hello
        self.timing = timing
        self._state_payload = state_payload
        self._emit = emit
        self._on_offline = on_offline
        self.link: Link | None = None
        self.resets = 0
        self.reconnects = -1  # the first attach is a connect, not a reconnect
        self.errors = 0
        self.last_error = ""
        self.last_heard: float | None = None
        self.round_trip: float | None = None
        self.acked: collections.Counter[str] = collections.Counter()
        self._queue: collections.deque[Command] = collections.deque()
        self._cond = threading.Condition()
        self._closing = False
        self._in_flight = False
        self._awaiting: dict[Hashable, Command] = {}  # shows sent whose "shown" event has not come yet
        self._last_sent = time.monotonic()
        self._writer = threading.Thread(target=self._write_loop, name=f"board-{self.board_id}", daemon=True)
        self._writer.start()

    # ---- what the board can do ------------------------------------------------
    def serves(self, cap: Cap, seat: int | None = None) -> bool:
        for c in self.hello.capabilities:
            if c.kind == cap and (seat is None or c.covers(seat)):
                return True
        return False

    @property
    def online(self) -> bool:
        link = self.link
        return link is not None and not link.closed

    # ---- link lifecycle --------------------------------------------------------
    def attach(self, link: Link, hello: Hello) -> None:
        """A (re)connected port: bring the board to the whole LED state before anything queued."""
        link.on_frame = self._on_frame
        link.on_lost = self._on_lost
        with self._cond:
            old = self.link
            if old is not None and old is not link:
                self.errors += sum(old.counters.get(k, 0) for k in _ERROR_COUNTERS)
            self.link = link
            self.hello = hello
            self.reconnects += 1
            self.last_heard = link.last_heard
            self._restore()
            self._cond.notify_all()
        if old is not None and old is not link:
            old.close()

    def _on_lost(self, link: Link) -> None:
        with self._cond:
            if link is not self.link:
                return
            self.last_error = link.last_error or "port lost"
            self._cond.notify_all()
        if self._on_offline:
            self._on_offline(self)

    def detach(self, reason: str) -> None:
        """Give up on the current link (the board stopped answering)."""
        with self._cond:
            link = self.link
            self.last_error = reason
        if link is not None:
            link.close()
        if self._on_offline:
            self._on_offline(self)

    def close(self) -> None:
        with self._cond:
            self._closing = True
            link = self.link
            self._cond.notify_all()
        if link is not None:
            link.close()
        self._writer.join(2)

    # ---- the queue -----------------------------------------------------------
    def enqueue(self, command: Command) -> None:
        """Never blocks: the writer thread sends it when the board is online."""
        with self._cond:
            if command.kind == Msg.CLEAR:
                self._queue.clear()  # everything before a clear is moot
            elif command.key is not None:
                self._queue = collections.deque(c for c in self._queue if c.key != command.key)
            self._queue.append(command)
            self._cond.notify_all()

    def _push_front(self, command: Command) -> None:
        self._queue = collections.deque(c for c in self._queue if c.key != command.key)
        self._queue.appendleft(command)

    def resync(self) -> None:
        """Send the whole LED state before anything else (after a reset of the board)."""
        with self._cond:
            self._restore()
            self._cond.notify_all()

    def _restore(self) -> None:
        """(Holding the lock.)  SET_STATE first; then, for every dice or toss shown whose
        "shown" event never came (the board reset or the cable went mid-animation), the
        same show again without animation, which answers with the event at once."""
        for key, command in self._awaiting.items():
            again = Command(command.kind, command.payload[:-1] + b"\x00", key)
            queued = [c for c in self._queue if c.key == key]
            if not queued:
                self._queue.appendleft(again)
            elif queued[0] is command:
                # Sent once already and put back when the link died: the board may have been
                # rolling it when it went; no second animation, just the value and its event.
                self._queue = collections.deque(again if c is command else c for c in self._queue)
        self._push_front(Command(Msg.SET_STATE, self._state_payload(), key="state"))

    @property
    def queued(self) -> int:
        with self._cond:
            return len(self._queue)

    def _next(self) -> tuple[Link, Command] | None:
        """Wait for something to send on a live link: a queued command or a heartbeat."""
        with self._cond:
            while not self._closing:
                link = self.link
                if link is not None and not link.closed:
                    if self._queue:
                        self._in_flight = True
                        return link, self._queue.popleft()
                    idle = time.monotonic() - self._last_sent
                    if idle >= self.timing.heartbeat:
                        return link, Command(Msg.PING)
                    self._cond.wait(self.timing.heartbeat - idle)
                else:
                    self._cond.wait()
            return None

    @property
    def idle(self) -> bool:
        """Nothing queued and no command waiting for its answer."""
        with self._cond:
            return not self._queue and not self._in_flight

    def _write_loop(self) -> None:
        while True:
            job = self._next()
            if job is None:
                return
            try:
                self._send(*job)
            finally:
                with self._cond:
                    self._in_flight = False

    def _send(self, link: Link, command: Command) -> None:
        self._last_sent = time.monotonic()
        with self._cond:
            if command.kind in (Msg.SHOW_DICE, Msg.SHOW_TOSS):
                # Before sending: the event may overtake the ACK on its way to us.
                self._awaiting[command.key] = command
            elif command.kind == Msg.CLEAR:
                self._awaiting.clear()
        try:
            answer = link.request(command.kind, command.payload)
        except BoardRefused as exc:
            # Retrying cannot help (the command itself is wrong for this board): drop it, say why.
            with self._cond:
                if self._awaiting.get(command.key) is command:
                    del self._awaiting[command.key]
            self.errors += 1
            self.last_error = f"{command.name} refused: {exc}"
            return
        except (LinkTimeout, LinkClosed) as exc:
            self._requeue(command)
            if not link.closed:
                self.detach(f"{command.name}: {exc}")
            return
        except Exception as exc:  # noqa: BLE001 - a bug must not kill the only writer
            self._requeue(command)
            self.errors += 1
            self.last_error = f"{command.name} failed: {exc!r}"
            time.sleep(self.timing.ack_timeout)
            return
        self.round_trip = link.round_trip
        self.last_heard = link.last_heard
        self.acked[command.name] += 1
        if command.kind == Msg.PING and len(answer.payload) >= 4:
            self._check_boot(struct.unpack(">I", answer.payload[:4])[0])

    def _requeue(self, command: Command) -> None:
        if command.kind == Msg.PING:
            return
        with self._cond:
            if command.key is None or all(c.key != command.key for c in self._queue):
                self._queue.appendleft(command)  # not superseded meanwhile: it goes first again

    # ---- frames from the board -----------------------------------------------
    def _check_boot(self, boot_id: int) -> None:
        if boot_id != self.hello.boot_id:
            self._reset_seen(boot_id)

    def _reset_seen(self, boot_id: int, hello: Hello | None = None) -> None:
        """The board restarted behind our back: its LEDs are dark, so give it everything again."""
        with self._cond:
            if boot_id == self.hello.boot_id:
                return  # the ANNOUNCE and a heartbeat both told us
            self.resets += 1
            self.hello = hello or Hello(self.hello.protocol, boot_id, self.hello.board_id, self.hello.firmware,
                                        self.hello.capabilities)
        if self.link is not None:
            self.link.forget_events()
        self.resync()

    def _on_frame(self, link: Link, frame: Frame) -> None:
        if link is not self.link:
            return
        self.last_heard = link.last_heard
        if frame.kind == Msg.ANNOUNCE:
            try:
                hello = parse_hello(frame.payload)
            except FrameError:
                self.errors += 1
                return
            if hello.boot_id != self.hello.boot_id:
                self._reset_seen(hello.boot_id, hello)
            return
        if frame.kind == Msg.HEARTBEAT:
            if len(frame.payload) >= 4:
                self._check_boot(struct.unpack(">I", frame.payload[:4])[0])
            return
        p = frame.payload
        event: DeviceEvent | None = None
        if frame.kind == Msg.EV_BUTTON and len(p) >= 3:
            purpose = CAP_NAMES[Cap.TOSS] if p[2] == Cap.TOSS else CAP_NAMES[Cap.DICE]
            event = DeviceEvent(self.board_id, "button",
                                {"button": p[0], "seat": None if p[1] == SHARED_SEAT else p[1], "for": purpose})
        elif frame.kind == Msg.EV_ROLL_SHOWN and len(p) >= 3:
            event = DeviceEvent(self.board_id, "roll_shown", {"seat": p[0], "values": (p[1], p[2])})
        elif frame.kind == Msg.EV_COIN_SHOWN and len(p) >= 2 and p[1] in TOSS_NAMES:
            event = DeviceEvent(self.board_id, "coin_shown", {"seat": p[0], "face": TOSS_NAMES[p[1]]})
        if event is None:
            self.errors += 1
            self.last_error = f"malformed {frame.name} payload {p.hex()}"
            return
        if event.kind != "button":
            self._shown(frame.kind, p)
        self._emit(event)

    def _shown(self, kind: int, p: bytes) -> None:
        """The board showed a roll or toss: stop waiting for it (when it is the latest one asked)."""
        key = ("dice", p[0]) if kind == Msg.EV_ROLL_SHOWN else ("toss", p[0] // 2)
        with self._cond:
            command = self._awaiting.get(key)
            if command is not None and command.payload[:len(p)] == p:
                del self._awaiting[key]

    # ---- status ----------------------------------------------------------------
    def status(self) -> BoardStatus:
        link = self.link
        counters = link.counters if link else {}
        errors = self.errors + sum(counters.get(k, 0) for k in _ERROR_COUNTERS)
        rtt = self.round_trip
        return BoardStatus(
            board_id=self.board_id,
            port=link.port if link else None,
            online=self.online,
            last_heard=max((t for t in (self.last_heard, link.last_heard if link else None) if t), default=None),
            firmware=self.hello.firmware,
            round_trip_ms=None if rtt is None else round(rtt * 1000, 3),
            capabilities=tuple(str(c) for c in self.hello.capabilities),
            capability_names=frozenset(c.name for c in self.hello.capabilities),
            resets=self.resets,
            reconnects=max(self.reconnects, 0),
            errors=errors,
            queued=self.queued,
            last_error=self.last_error or (link.last_error if link else ""),
        )
