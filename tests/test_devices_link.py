"""The host link against the real firmware core over real ptys: handshake, every command,
every event, every error code, and each fault of the line."""

import functools
import threading
import time

import pytest
from cobs import cobs

from devices.firmware import boardcore as fw
from devices.ledstate import LedState
from devices.link import BoardRefused, Link, LinkClosed, LinkTimeout, Timing
from devices.protocol import ErrorCode, Frame, Msg, decode, parse_hello
from devices.simulator import VirtualBoard
from tests.support import waiting

FAST = Timing(ack_timeout=0.15, retries=3, heartbeat=0.3)


wait_for = functools.partial(waiting.wait_for, timeout=5.0)


class Inbox:
    """Frames the link hands up (events, announces, heartbeats), thread-safe."""

    def __init__(self):
        self.frames = []
        self.lock = threading.Lock()

    def __call__(self, link, frame):
        with self.lock:
            self.frames.append(frame)

    def of(self, kind):
        with self.lock:
            return [f for f in self.frames if f.kind == kind]


@pytest.fixture
def board():
    b = VirtualBoard("pty-board", [(fw.CAP_COINS, 0, 8), (fw.CAP_DICE, 0, 4), (fw.CAP_TOSS, 0, 2)],
                     [(fw.CAP_DICE, 0), (fw.CAP_TOSS, fw.SHARED_SEAT)], roll_ms=60, toss_ms=60, heartbeat_ms=200)
    b.plug()
    yield b
    b.close()


@pytest.fixture
def link(board):
    inbox = Inbox()
    lk = Link(board.path, FAST, on_frame=inbox)
    lk.inbox = inbox
    lk.open()
    yield lk
    lk.close()


def test_handshake_names_the_board_and_its_capabilities(link):
    hello = link.handshake()
    assert hello.board_id == "pty-board" and hello.firmware == fw.FIRMWARE_VERSION and hello.protocol == 1
    assert [str(c) for c in hello.capabilities] == ["coins for seats 1-8", "dice for seats 1-4",
                                                   "coin-toss for seats 1-2", "2 button(s)"]
    # The ANNOUNCE the board sent when it booted, before we opened the port, arrives too.
    assert wait_for(lambda: link.inbox.of(Msg.ANNOUNCE))
    assert parse_hello(link.inbox.of(Msg.ANNOUNCE)[0].payload).boot_id == hello.boot_id


def test_the_port_is_opened_exclusively(board, link):
    other = Link(board.path, FAST)
    with pytest.raises(LinkClosed):
        other.open()


def test_every_command(board, link):
    link.handshake()
    assert len(link.request(Msg.PING).payload) == 8
    link.request(Msg.SET_COINS, (0b0110).to_bytes(2, "big"))
    link.request(Msg.SHOW_DICE, bytes([2, 1, 6, 0]))
    link.request(Msg.SHOW_TOSS, bytes([1, 1, 0]))
    state = LedState.decode(link.request(Msg.GET_STATE).payload)
    assert state == LedState(coins=0b0110, dice={2: (1, 6)}, toss={1: 1})
    wanted = LedState(coins=0x8001, dice={0: (4, 4), 3: (2, 5)}, toss={0: 2})
    link.request(Msg.SET_STATE, wanted.encode())
    assert LedState.decode(board.state()) == wanted
    link.request(Msg.CLEAR)
    assert LedState.decode(link.request(Msg.GET_STATE).payload) == LedState()
    assert link.round_trip is not None and link.round_trip > 0


def test_every_event_arrives_once_and_is_acknowledged(board, link):
    link.handshake()
    link.request(Msg.SHOW_DICE, bytes([3, 2, 2, 1]))  # animated: the event follows the roll
    link.request(Msg.SHOW_TOSS, bytes([0, 2, 1]))
    board.press(0)
    board.press(1)
    assert wait_for(lambda: len(link.inbox.of(Msg.EV_ROLL_SHOWN)) and len(link.inbox.of(Msg.EV_COIN_SHOWN))
                    and len(link.inbox.of(Msg.EV_BUTTON)) == 2)
    assert link.inbox.of(Msg.EV_ROLL_SHOWN)[0].payload == bytes([3, 2, 2])
    assert link.inbox.of(Msg.EV_COIN_SHOWN)[0].payload == bytes([0, 2])
    assert sorted(f.payload for f in link.inbox.of(Msg.EV_BUTTON)) == [bytes([0, 0, fw.CAP_DICE]),
                                                                         bytes([1, fw.SHARED_SEAT, fw.CAP_TOSS])]
    assert wait_for(lambda: not board.core.pending)  # every event acknowledged: the board stops resending
    assert wait_for(lambda: link.inbox.of(Msg.HEARTBEAT))


@pytest.mark.parametrize("kind, payload, code", [
    (0x7E, b"", ErrorCode.UNKNOWN_TYPE),
    (Msg.SHOW_DICE, bytes([0, 7, 1, 0]), ErrorCode.BAD_ARGS),
    (Msg.SHOW_DICE, bytes([6, 1, 1, 0]), ErrorCode.NOT_CAPABLE),  # this board has dice for seats 1-4 only
    (Msg.SHOW_TOSS, bytes([0, 3, 0]), ErrorCode.BAD_ARGS),
    (Msg.SET_STATE, bytes(fw.STATE_SIZE - 1), ErrorCode.BAD_ARGS),
    (Msg.CLEAR, b"x", ErrorCode.BAD_ARGS),
    (Msg.HELLO, b"\x00", ErrorCode.VERSION),
])
def test_refusals_come_with_a_code_and_change_nothing(board, link, kind, payload, code):
    link.handshake()
    link.request(Msg.SHOW_DICE, bytes([0, 3, 4, 0]))
    before = board.state()
    with pytest.raises(BoardRefused) as exc:
        link.request(kind, payload)
    assert exc.value.code == code and exc.value.text
    assert board.state() == before
    link.request(Msg.PING)  # and the line still works


def test_garbage_towards_the_board_is_answered_never_ignored(board, link):
    link.handshake()
    errors_before = board.core.counters["errors"]
    link.write(b"\x13\x37garbage\x00")  # not COBS: a block runs past the end
    link.write(cobs.encode(b"\x10\x00") + b"\x00")  # truncated: shorter than any frame
    link.write(b"\x05" * 200 + b"\x00")  # far too long
    # The board's ERR answers match no command of ours: the link counts them and carries on.
    assert wait_for(lambda: link.counters["stray_answers"] >= 3)
    assert board.core.counters["errors"] - errors_before == 3
    link.request(Msg.PING)


def test_error_answers_carry_the_code(board):
    """Read the board's answers to bad frames byte for byte from the pty."""
    import os
    import select

    import serial

    port = serial.Serial(board.path, exclusive=True, timeout=0)
    try:
        port.write(b"\x00\x13\x37garbage\x00" + cobs.encode(b"\x10\x00") + b"\x00" + b"\x05" * 200 + b"\x00"
                   + Frame(0x7E, 9).encode())
        data = b""

        def errors():
            frames = [decode(p) for p in data.split(b"\x00")[:-1] if p]
            return [(f.seq, f.payload[0]) for f in frames if f.kind == Msg.ERR]

        while len(errors()) < 4:  # (an ANNOUNCE and heartbeats come too)
            assert select.select([port.fileno()], [], [], 5)[0]
            data += os.read(port.fileno(), 4096)
    finally:
        port.close()
    errors = errors()
    assert errors == [(0, ErrorCode.MALFORMED), (0, ErrorCode.MALFORMED), (0, ErrorCode.TOO_LONG),
                      (9, ErrorCode.UNKNOWN_TYPE)]


def test_bad_crc_towards_the_board_is_retried(board, link):
    link.handshake()
    board.faults.corrupt_incoming = 2
    link.request(Msg.SHOW_DICE, bytes([1, 5, 5, 0]))
    assert board.faults.sent_corrupted == 2 and link.counters["retries"] == 2
    assert board.core.counters["errors"] >= 2
    assert LedState.decode(board.state()).dice == {1: (5, 5)}


def test_garbage_damaged_and_unknown_frames_from_the_board_are_survived(board, link):
    link.handshake()
    good = Frame(Msg.HEARTBEAT, 0, bytes(8)).encode()
    bad_crc = bytearray(good)
    bad_crc[3] ^= 0x40
    board.inject(b"\xff\xfe\x01\x02")  # noise, no delimiter yet
    board.inject(b"\x00")
    board.inject(bytes(bad_crc))
    board.inject(good[: len(good) // 2] + b"\x00")  # truncated
    board.inject(b"\x07" * 1000)  # a long run with no delimiter at all
    board.inject(b"\x00")
    board.inject(Frame(0xA5, 77, b"?").encode())  # a message type we do not know
    link.request(Msg.PING)
    assert wait_for(lambda: link.counters["unknown"] == 1)
    assert link.counters["bad_frames"] >= 3
    assert not link.closed
    link.request(Msg.SET_COINS, b"\x00\x03")
    assert LedState.decode(board.state()).coins == 3


def test_a_truncated_frame_that_swallows_an_answer_costs_one_retry(board, link):
    link.handshake()
    board.inject(Frame(Msg.HEARTBEAT, 0, bytes(8)).encode()[:4])  # no delimiter: the next frame joins it
    link.request(Msg.SHOW_DICE, bytes([0, 1, 2, 0]))
    assert link.counters["retries"] >= 1 and link.counters["bad_frames"] >= 1
    assert LedState.decode(board.state()).dice == {0: (1, 2)}


def test_late_answers_are_taken_and_their_copies_dropped(board, link):
    link.handshake()
    board.faults.delay_answers = FAST.ack_timeout * 1.6
    link.request(Msg.SHOW_DICE, bytes([2, 4, 1, 0]))  # answered after the first retry went out
    board.faults.delay_answers = 0
    assert link.counters["retries"] >= 1
    assert wait_for(lambda: link.counters["stray_answers"] >= 1)  # the answer to the retry
    assert board.core.counters["duplicates"] >= 1  # the board did not show the dice twice
    link.request(Msg.PING)


def test_double_answers_and_double_events_are_dropped(board, link):
    link.handshake()
    board.faults.duplicate_answers = True
    for i in range(5):
        link.request(Msg.SHOW_DICE, bytes([0, i + 1, 1, 0]))
    assert wait_for(lambda: link.counters["stray_answers"] >= 5)
    assert wait_for(lambda: len(link.inbox.of(Msg.EV_ROLL_SHOWN)) == 5)
    time.sleep(0.1)
    assert len(link.inbox.of(Msg.EV_ROLL_SHOWN)) == 5 and link.counters["duplicate_events"] >= 5


def test_a_hung_board_times_out(board, link):
    link.handshake()
    board.faults.mute = True
    with pytest.raises(LinkTimeout):
        link.request(Msg.PING)
    assert link.counters["timeouts"] == FAST.retries + 1


def test_unplugging_closes_the_link_and_wakes_a_waiting_request(board, link):
    link.handshake()
    lost = threading.Event()
    link.on_lost = lambda lk: lost.set()
    board.faults.mute = True
    errors = []

    def ask():
        try:
            link.request(Msg.PING, timeout=5, retries=0)
        except (LinkClosed, LinkTimeout) as exc:
            errors.append(exc)

    asker = threading.Thread(target=ask)
    asker.start()
    time.sleep(0.05)
    board.unplug()
    asker.join(5)
    assert lost.wait(5) and link.closed
    assert len(errors) == 1 and isinstance(errors[0], LinkClosed)
    with pytest.raises(LinkClosed):
        link.request(Msg.PING)


def test_a_reset_board_announces_itself(board, link):
    first = link.handshake()
    link.request(Msg.SET_COINS, b"\x00\x01")
    board.reset()
    assert wait_for(lambda: len(link.inbox.of(Msg.ANNOUNCE)) >= 2)
    after = parse_hello(link.inbox.of(Msg.ANNOUNCE)[-1].payload)
    assert after.boot_id != first.boot_id
    assert LedState.decode(link.request(Msg.GET_STATE).payload) == LedState()  # dark after a reset
