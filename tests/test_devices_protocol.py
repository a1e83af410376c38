"""The wire format: host and firmware implementations agree, and the firmware core in isolation."""

import struct

import pytest
from cobs import cobs
from hypothesis import given, settings
from hypothesis import strategies as st

from devices import protocol
from devices.firmware import boardcore as fw
from devices.ledstate import LedState
from devices.protocol import Cap, ErrorCode, Frame, FrameError, Msg, decode, parse_hello


@given(st.binary(max_size=300))
@settings(max_examples=200, deadline=None)
def test_firmware_cobs_matches_the_cobs_package(data):
    assert fw.cobs_encode(data) == cobs.encode(data)
    assert fw.cobs_decode(cobs.encode(data)) == data


@given(st.binary(max_size=100))
@settings(max_examples=200, deadline=None)
def test_firmware_crc_matches_binascii(data):
    assert fw.crc16(data) == protocol.crc16(data)


def test_crc_is_ccitt_false():
    assert protocol.crc16(b"123456789") == 0x29B1 == fw.crc16(b"123456789")


@given(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=59))
@settings(max_examples=200, deadline=None)
def test_frames_cross_both_implementations(kind, seq, payload):
    encoded = Frame(kind, seq, payload).encode()
    assert encoded == fw.pack_frame(kind, seq, payload)
    assert encoded.count(0) == 1 and encoded.endswith(b"\x00")
    assert decode(encoded[:-1]) == Frame(kind, seq, payload)


def test_message_numbers_agree():
    for msg in Msg:
        assert getattr(fw, msg.name) == msg.value, msg
    for code in ErrorCode:
        assert getattr(fw, "E_" + code.name) == code.value
    for cap in Cap:
        assert getattr(fw, "CAP_" + cap.name) == cap.value
    assert fw.STATE_SIZE == protocol.STATE_SIZE and fw.MAX_SEATS == protocol.MAX_SEATS
    assert fw.PROTOCOL_VERSION == protocol.PROTOCOL_VERSION


@pytest.mark.parametrize("bad, code", [
    (b"\x05\x01\x02", ErrorCode.MALFORMED),  # COBS block runs past the end
    (cobs.encode(b"\x01\x00"), ErrorCode.MALFORMED),  # too short
    (Frame(Msg.PING, 7).encode()[:-2], ErrorCode.MALFORMED),  # truncated: the last byte lost
    (b"\x01" * 80, ErrorCode.TOO_LONG),
])
def test_damaged_frames_say_why(bad, code):
    with pytest.raises(FrameError) as exc:
        decode(bad)
    assert exc.value.code == code


def test_bad_crc_keeps_the_seq_for_the_answer():
    raw = bytearray(cobs.decode(Frame(Msg.SHOW_DICE, 0x1234, b"\x00\x01\x02\x01").encode()[:-1]))
    raw[4] ^= 0x04
    with pytest.raises(FrameError) as exc:
        decode(cobs.encode(bytes(raw)))
    assert exc.value.code == ErrorCode.BAD_CRC and exc.value.seq == 0x1234


def test_hello_round_trip_and_unknown_capabilities_are_skipped():
    payload = fw.hello_payload("pico-1", 0xDEADBEEF, [(fw.CAP_DICE, 2, 4), (99, 0, 1), (fw.CAP_BUTTONS, 0, 4)])
    hello = parse_hello(payload)
    assert (hello.protocol, hello.boot_id, hello.board_id, hello.firmware) == (1, 0xDEADBEEF, "pico-1", fw.FIRMWARE_VERSION)
    assert [str(c) for c in hello.capabilities] == ["dice for seats 3-6", "4 button(s)"]
    assert protocol.pack_hello(hello).startswith(payload[:5])
    with pytest.raises(FrameError):
        parse_hello(payload[:8])


def test_led_state_encoding_matches_the_firmware():
    state = LedState(coins=0b1001, dice={0: (1, 6), 7: (3, 3)}, toss={1: 2})
    core = fw.BoardCore("b", [(fw.CAP_COINS, 0, 8), (fw.CAP_DICE, 0, 8), (fw.CAP_TOSS, 0, 2)])
    core._set_state(state.encode())
    assert core.state_bytes() == state.encode()
    assert LedState.decode(core.state_bytes()) == state
    assert "1L 2R" in state.describe()


# ---- the firmware core without any port --------------------------------------------------


def _answers(core, frame: bytes, now=0):
    core.take_output()
    core.receive(frame, now)
    out = core.take_output()
    return [decode(part) for part in out.split(b"\x00") if part]


def _core(**kw):
    return fw.BoardCore("t", [(fw.CAP_DICE, 0, 2), (fw.CAP_TOSS, 0, 2)], [(fw.CAP_DICE, 0)], roll_ms=100, **kw)


def test_core_boots_with_an_announce_and_answers_hello():
    core = _core(boot_id=42)
    announce = decode(core.take_output()[:-1])
    assert announce.kind == Msg.ANNOUNCE and parse_hello(announce.payload).boot_id == 42
    [ack] = _answers(core, Frame(Msg.HELLO, 1, b"\x01").encode())
    assert ack.kind == Msg.ACK and ack.seq == 1 and parse_hello(ack.payload).board_id == "t"
    [err] = _answers(core, Frame(Msg.HELLO, 2, b"\x00").encode())
    assert err.kind == Msg.ERR and err.payload[0] == ErrorCode.VERSION


def test_core_answers_a_retry_from_its_cache_without_redoing_it():
    core = _core()
    show = Frame(Msg.SHOW_DICE, 5, bytes([0, 2, 3, 0])).encode()
    first = _answers(core, show)
    assert [f.kind for f in first] == [Msg.ACK, Msg.EV_ROLL_SHOWN]
    again = _answers(core, show)
    assert [f.kind for f in again] == [Msg.ACK] and core.counters["duplicates"] == 1


def test_core_animation_ends_in_one_event_and_unacked_events_are_resent():
    core = _core(event_retry_ms=50, event_tries=3)
    _answers(core, Frame(Msg.SHOW_DICE, 1, bytes([1, 6, 6, 1])).encode(), now=0)
    core.tick(50)
    assert all(f.kind != Msg.EV_ROLL_SHOWN for f in _frames(core))
    core.tick(100)
    [event] = [f for f in _frames(core) if f.kind == Msg.EV_ROLL_SHOWN]
    assert event.payload == bytes([1, 6, 6])
    core.tick(150)
    assert [f.seq for f in _frames(core) if f.kind == Msg.EV_ROLL_SHOWN] == [event.seq]
    core.receive(Frame(Msg.ACK_EVENT, event.seq).encode(), 160)
    core.tick(400)
    assert not [f for f in _frames(core) if f.kind == Msg.EV_ROLL_SHOWN]


def _frames(core):
    return [decode(p) for p in core.take_output().split(b"\x00") if p]


def test_core_heartbeat_when_idle():
    core = _core(heartbeat_ms=100)
    core.take_output()
    core.tick(99)
    assert not core.take_output()
    core.tick(100)
    [beat] = _frames(core)
    assert beat.kind == Msg.HEARTBEAT and struct.unpack(">II", beat.payload)[1] == 100


def test_debounce_ignores_bounces_and_reports_one_press():
    core = _core(debounce_ms=30)
    core.take_output()
    for t, level in [(0, 0), (5, 1), (8, 0), (12, 1), (15, 0), (30, 0), (44, 0), (45, 0), (60, 0), (61, 1), (100, 1)]:
        core.button_level(0, level, t)
    presses = [f for f in _frames(core) if f.kind == Msg.EV_BUTTON]
    assert [p.payload for p in presses] == [bytes([0, 0, fw.CAP_DICE])]


def test_core_renders_pips_and_arrows():
    core = fw.BoardCore("r", [(fw.CAP_DICE, 0, 1), (fw.CAP_TOSS, 0, 2), (fw.CAP_COINS, 0, 1)], leds_per_arm=2)
    assert core.led_count() == 14 + 9 + 4 == len(core.render(0))
    core._set_state(LedState(coins=0b10, dice={0: (5, 1)}, toss={1: 1}).encode())
    px = core.render(0)
    assert [i for i in range(7) if px[i] != fw.OFF] == [0, 1, 3, 5, 6]  # five
    assert [i for i in range(7, 14) if px[i] != fw.OFF] == [10]  # one: the centre
    arrow = px[14:23]
    assert arrow[:3] == [fw.OFF] * 3 and arrow[6:] == [fw.SEAT_COLOURS[1]] * 3  # points at seat 2
    assert px[23:] == [fw.OFF, fw.OFF, fw.SEAT_COLOURS[0], fw.SEAT_COLOURS[0]]  # right arm of seat 1


@given(st.lists(st.binary(min_size=1, max_size=90), min_size=1, max_size=8))
@settings(max_examples=150, deadline=None)
def test_the_firmware_answers_any_garbage_and_never_raises(chunks):
    core = _core()
    core.take_output()
    for chunk in chunks:
        chunk = chunk.replace(b"\x00", b"\x01")
        core.receive(chunk + b"\x00", 0)
        answers = [decode(p) for p in core.take_output().split(b"\x00") if p]
        try:
            frame = decode(chunk)
        except FrameError:
            frame = None
        if frame is not None and frame.kind in (Msg.ACK_EVENT, Msg.ERR):
            continue  # the only frames a board takes in silence
        assert answers and answers[0].kind in (Msg.ACK, Msg.ERR), chunk


def test_devices_never_import_engines_or_companion():
    import ast
    import pathlib

    root = pathlib.Path(fw.__file__).resolve().parents[1]
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.split(".")[0] not in ("engines", "companion", "vision"), f"{path}: imports {name}"
