"""One open serial port to one board: a reader thread and one request at a time.

The reader is pyserial's ``serial.threaded.ReaderThread`` with a COBS packetizer.
Every frame goes out through ``ReaderThread.write`` (one lock), so a command, an
event acknowledgement and a heartbeat never interleave on the wire; commands are
sent one at a time (``request`` holds a lock until the answer, a timeout or the
last retry), which is what makes sequence numbers unambiguous.

Faults the link absorbs (docs/protocol.md, "Faults"): garbage and damaged frames
are counted and dropped; a late answer to an earlier attempt of the same command
is taken; an answer to no pending command (late or double) is counted and
dropped; an error the line may have caused is retried; a dead port closes the
link and wakes the caller at once.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial
import serial.threaded

from devices.protocol import (
    EVENT_TYPES,
    MAX_ENCODED,
    PROTOCOL_VERSION,
    RETRYABLE,
    ErrorCode,
    Frame,
    FrameError,
    Hello,
    Msg,
    decode,
    error_name,
    parse_error,
    parse_hello,
)


@dataclass(frozen=True)
class Timing:
    """How patient the host is.  A command gives up after ``ack_timeout * (retries + 1)``."""

    ack_timeout: float = 0.25
    retries: int = 3
    heartbeat: float = 1.0
    """Idle time after which the host pings the board."""
    write_timeout: float = 1.0


class LinkClosed(Exception):
    """The port is gone (cable pulled, board reset its USB, closed by us)."""


class LinkTimeout(Exception):
    """No answer after every retry."""


class BoardRefused(Exception):
    """The board answered ERR with a code that retrying cannot fix (unknown command, bad arguments...)."""

    def __init__(self, code: int, kind: int, text: str):
        super().__init__(f"{error_name(code)} for 0x{kind:02x}: {text}")
        self.code = code
        self.kind = kind
        self.text = text


class _Packets(serial.threaded.Packetizer):
    """Splits the byte stream at 0x00 and hands each frame to the link; never raises
    (an exception here would end pyserial's reader thread)."""

    TERMINATOR = b"\x00"

    def __init__(self, link: Link):
        super().__init__()
        self.link = link

    def data_received(self, data: bytes) -> None:
        self.buffer.extend(data)
        while True:
            end = self.buffer.find(self.TERMINATOR)
            if end < 0:
                break
            packet = bytes(self.buffer[:end])
            del self.buffer[:end + 1]
            self.handle_packet(packet)
        if len(self.buffer) > 4 * MAX_ENCODED:
            # Garbage without a delimiter: drop it, the next 0x00 resynchronises.
            self.buffer.clear()
            self.link.counters["garbage"] += 1

    def handle_packet(self, packet: bytes) -> None:
        try:
            self.link._on_packet(packet)
        except Exception as exc:  # noqa: BLE001 - the reader thread must survive any bug downstream
            self.link.counters["handler_errors"] += 1
            self.link.last_error = f"handler failed: {exc!r}"

    def connection_lost(self, exc: BaseException | None) -> None:
        super().connection_lost(None)
        self.link._on_lost(exc)


class _Reader(serial.threaded.ReaderThread):
    """pyserial's reader loop, also ending cleanly on OSError: a pty whose master closed (and
    some USB adapters when pulled) fail in the ``in_waiting`` ioctl rather than in ``read``."""

    def run(self) -> None:
        if not hasattr(self.serial, "cancel_read"):
            self.serial.timeout = 1
        self.protocol = self.protocol_factory()
        self.protocol.connection_made(self)
        self._connection_made.set()
        error: BaseException | None = None
        while self.alive and self.serial.is_open:
            try:
                data = self.serial.read(self.serial.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                # TypeError/AttributeError: the port was closed under us (fd None).
                error = exc if self.alive else None
                break
            if data:
                self.protocol.data_received(data)
        self.alive = False
        self.protocol.connection_lost(error)


class Link:
    """A board behind ``port``.  ``on_frame(link, frame)`` gets every new event, ANNOUNCE and
    HEARTBEAT (from the reader thread); ``on_lost(link)`` once when the port dies."""

    def __init__(self, port: str, timing: Timing = Timing(), *,
                 on_frame: Callable[[Link, Frame], None] | None = None,
                 on_lost: Callable[[Link], None] | None = None):
        self.port = port
        self.timing = timing
        self.on_frame = on_frame
        self.on_lost = on_lost
        self.hello: Hello | None = None
        self.closed = False
        self.last_heard: float | None = None
        self.round_trip: float | None = None
        self.last_error = ""
        self.counters: collections.Counter[str] = collections.Counter()
        self._serial: serial.Serial | None = None
        self._reader: _Reader | None = None
        self._request_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._seq = 0
        self._waiting_seq: int | None = None
        self._answer: Frame | None = None
        self._answered = threading.Event()
        self._seen_events: collections.deque[int] = collections.deque(maxlen=64)

    # ---- open / close ----------------------------------------------------
    def open(self) -> None:
        """Open the port exclusively and start reading; raises LinkClosed when it cannot."""
        try:
            self._serial = serial.Serial(self.port, 115200, timeout=None, write_timeout=self.timing.write_timeout,
                                         exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise LinkClosed(f"{self.port}: {exc}") from None
        self._reader = _Reader(self._serial, lambda: _Packets(self))
        self._reader.start()
        self._reader.connect()
        # A lone delimiter ends whatever half frame the board may hold from before.
        self.write(b"\x00")

    def handshake(self, retries: int | None = None) -> Hello:
        """HELLO -> the board's identity and capabilities (raises LinkTimeout / LinkClosed / BoardRefused)."""
        answer = self.request(Msg.HELLO, bytes([PROTOCOL_VERSION]), retries=retries)
        try:
            self.hello = parse_hello(answer.payload)
        except FrameError as exc:
            raise BoardRefused(ErrorCode.MALFORMED, Msg.HELLO, str(exc)) from None
        self.forget_events()
        return self.hello

    def close(self) -> None:
        """Close the port; safe from any thread, any number of times."""
        self._mark_closed()
        reader = self._reader
        if reader is None:
            return
        if threading.current_thread() is reader:
            reader.alive = False  # cannot join ourselves: the loop ends after this callback
            self._close_serial()
            return
        try:
            reader.close()
        except (serial.SerialException, OSError, RuntimeError):
            self._close_serial()

    def _close_serial(self) -> None:
        try:
            if self._serial is not None:
                self._serial.close()
        except (serial.SerialException, OSError):
            pass

    def _mark_closed(self) -> bool:
        with self._state_lock:
            if self.closed:
                return False
            self.closed = True
        self._answered.set()
        return True

    def _on_lost(self, exc: BaseException | None) -> None:
        if exc is not None:
            self.last_error = f"port lost: {exc}"
        if self._mark_closed() and self.on_lost:
            self.on_lost(self)

    # ---- writing -----------------------------------------------------------
    def write(self, data: bytes) -> None:
        if self.closed or self._reader is None:
            raise LinkClosed(self.port)
        try:
            self._reader.write(data)
        except (serial.SerialException, OSError) as exc:
            self.last_error = f"write failed: {exc}"
            first = self._mark_closed()
            self.close()
            if first and self.on_lost:
                self.on_lost(self)
            raise LinkClosed(f"{self.port}: {exc}") from None

    def next_seq(self) -> int:
        self._seq = self._seq % 0xFFFF + 1  # 1 .. 65535; 0 is for frames that answer nothing
        return self._seq

    def request(self, kind: int, payload: bytes = b"", *, timeout: float | None = None,
                retries: int | None = None) -> Frame:
        """Send one command and wait for its ACK; the same frame (same seq) is resent on timeout
        or on an error the line may have caused.  Returns the ACK frame."""
        timeout = self.timing.ack_timeout if timeout is None else timeout
        retries = self.timing.retries if retries is None else retries
        with self._request_lock:
            seq = self.next_seq()
            frame = Frame(kind, seq, payload).encode()
            with self._state_lock:
                self._waiting_seq = seq
            try:
                for attempt in range(retries + 1):
                    if attempt:
                        self.counters["retries"] += 1
                    self._answered.clear()
                    with self._state_lock:
                        self._answer = None
                    if self.closed:
                        raise LinkClosed(self.port)
                    sent = time.perf_counter()
                    self.write(frame)
                    self._answered.wait(timeout)
                    with self._state_lock:
                        answer = self._answer
                    if answer is None:
                        if self.closed:
                            raise LinkClosed(self.port)
                        self.counters["timeouts"] += 1
                        continue
                    if answer.kind == Msg.ACK:
                        self.round_trip = time.perf_counter() - sent
                        return answer
                    code, bad_kind, text = parse_error(answer.payload)
                    self.counters["errors"] += 1
                    self.last_error = f"{error_name(code)}: {text}"
                    if code not in RETRYABLE:
                        raise BoardRefused(code, bad_kind, text)
                raise LinkTimeout(f"{self.port}: no good answer to {Frame(kind, seq).name} after {retries + 1} tries"
                                  + (f" (last: {self.last_error})" if self.last_error else ""))
            finally:
                with self._state_lock:
                    self._waiting_seq = None

    # ---- reading -----------------------------------------------------------
    def forget_events(self) -> None:
        """The board restarted: its event numbers start again."""
        self._seen_events.clear()

    def _on_packet(self, packet: bytes) -> None:
        if not packet:
            return  # an empty frame is a resynchronising delimiter
        try:
            frame = decode(packet)
        except FrameError as exc:
            self.counters["bad_frames"] += 1
            self.last_error = f"damaged frame from the board: {exc}"
            return
        self.last_heard = time.time()
        if frame.kind in (Msg.ACK, Msg.ERR):
            with self._state_lock:
                if self._waiting_seq == frame.seq and self._answer is None:
                    self._answer = frame
                    self._answered.set()
                    return
            # An answer nobody waits for: a late one after we gave up, or a second copy.
            self.counters["stray_answers"] += 1
            return
        if frame.kind in EVENT_TYPES:
            try:
                self.write(Frame(Msg.ACK_EVENT, frame.seq).encode())
            except LinkClosed:
                return
            if frame.seq in self._seen_events:
                self.counters["duplicate_events"] += 1
                return
            self._seen_events.append(frame.seq)
        elif frame.kind not in (Msg.ANNOUNCE, Msg.HEARTBEAT):
            # Never silence: tell the board we do not know this message.
            self.counters["unknown"] += 1
            try:
                self.write(Frame(Msg.ERR, frame.seq, bytes([ErrorCode.UNKNOWN_TYPE, frame.kind])).encode())
            except LinkClosed:
                pass
            return
        if self.on_frame:
            self.on_frame(self, frame)
