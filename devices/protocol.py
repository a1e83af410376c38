"""The host's side of the wire format (docs/protocol.md): frames, message types, payloads.

A frame is ``type u8 | seq u16 | payload | crc16 u16`` (big-endian; CRC-16/CCITT-FALSE
over everything before it), COBS-encoded and ended by one 0x00 byte.  This module is
an independent implementation from the firmware's (devices/firmware/boardcore.py):
the tests check that each decodes what the other encodes.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass
from enum import IntEnum

from cobs import cobs

PROTOCOL_VERSION = 1
MAX_SEATS = 8
MAX_FRAME = 64
MAX_ENCODED = MAX_FRAME + 2
STATE_SIZE = 2 + 2 * MAX_SEATS + MAX_SEATS


class Msg(IntEnum):
    # host -> board
    HELLO = 0x01
    PING = 0x02
    ACK_EVENT = 0x03
    SET_COINS = 0x10
    SHOW_DICE = 0x11
    SHOW_TOSS = 0x12
    CLEAR = 0x13
    SET_STATE = 0x14
    GET_STATE = 0x15
    # board -> host
    ACK = 0x80
    ERR = 0x81
    ANNOUNCE = 0x82
    HEARTBEAT = 0x83
    EV_BUTTON = 0x90
    EV_ROLL_SHOWN = 0x91
    EV_COIN_SHOWN = 0x92


EVENT_TYPES = frozenset({Msg.EV_BUTTON, Msg.EV_ROLL_SHOWN, Msg.EV_COIN_SHOWN})


class ErrorCode(IntEnum):
    BAD_CRC = 1
    MALFORMED = 2
    UNKNOWN_TYPE = 3
    BAD_ARGS = 4
    NOT_CAPABLE = 5
    VERSION = 6
    TOO_LONG = 7


RETRYABLE = frozenset({ErrorCode.BAD_CRC, ErrorCode.MALFORMED, ErrorCode.TOO_LONG})
"""Errors that mean the line garbled our frame: send the same frame again."""


class Cap(IntEnum):
    COINS = 1
    DICE = 2
    TOSS = 3
    BUTTONS = 4


CAP_NAMES = {Cap.COINS: "coins", Cap.DICE: "dice", Cap.TOSS: "coin-toss", Cap.BUTTONS: "buttons"}
TOSS_FACES = {"player": 1, "opponent": 2}
SHARED_SEAT = 0xFF


class FrameError(ValueError):
    """A frame that cannot be trusted; ``seq`` is the best guess at its sequence number."""

    def __init__(self, code: ErrorCode, message: str, seq: int = 0, kind: int = 0):
        super().__init__(message)
        self.code = code
        self.seq = seq
        self.kind = kind


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: binascii's crc_hqx with initial value 0xFFFF."""
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True)
class Frame:
    kind: int
    seq: int
    payload: bytes = b""

    def encode(self) -> bytes:
        body = struct.pack(">BH", self.kind, self.seq) + self.payload
        return cobs.encode(body + struct.pack(">H", crc16(body))) + b"\x00"

    @property
    def name(self) -> str:
        try:
            return Msg(self.kind).name
        except ValueError:
            return f"0x{self.kind:02x}"


def decode(encoded: bytes) -> Frame:
    """One frame without its 0x00 delimiter; raises FrameError saying what is wrong."""
    if len(encoded) > MAX_ENCODED:
        raise FrameError(ErrorCode.TOO_LONG, f"frame of {len(encoded)} bytes; at most {MAX_ENCODED}")
    try:
        raw = cobs.decode(encoded)
    except cobs.DecodeError as exc:
        raise FrameError(ErrorCode.MALFORMED, f"bad COBS encoding ({exc})") from None
    if len(raw) < 5:
        seq = raw[1] << 8 | raw[2] if len(raw) >= 3 else 0
        raise FrameError(ErrorCode.MALFORMED, f"frame of {len(raw)} bytes; at least 5", seq, raw[0] if raw else 0)
    kind, seq = struct.unpack(">BH", raw[:3])
    if crc16(raw[:-2]) != struct.unpack(">H", raw[-2:])[0]:
        raise FrameError(ErrorCode.BAD_CRC, "CRC mismatch", seq, kind)
    return Frame(kind, seq, bytes(raw[3:-2]))


# --------------------------------------------------------------------------
# Payloads


@dataclass(frozen=True)
class Capability:
    kind: Cap
    first_seat: int
    count: int

    @property
    def name(self) -> str:
        return CAP_NAMES[self.kind]

    def covers(self, seat: int) -> bool:
        return self.first_seat <= seat < self.first_seat + self.count

    def __str__(self) -> str:
        if self.kind == Cap.BUTTONS:
            return f"{self.count} button(s)"
        last = self.first_seat + self.count
        return f"{self.name} for seat{'s' if self.count > 1 else ''} {self.first_seat + 1}" + (
            f"-{last}" if self.count > 1 else "")


@dataclass(frozen=True)
class Hello:
    """What a board says about itself (answer to HELLO, and ANNOUNCE after a boot)."""

    protocol: int
    boot_id: int
    board_id: str
    firmware: str
    capabilities: tuple[Capability, ...]


def parse_hello(p: bytes) -> Hello:
    """Raises FrameError(MALFORMED) when the payload does not parse."""
    try:
        protocol, boot_id = struct.unpack_from(">BI", p, 0)
        i = 5
        n = p[i]
        board_id = p[i + 1:i + 1 + n].decode("utf-8", "replace")
        i += 1 + n
        n = p[i]
        firmware = p[i + 1:i + 1 + n].decode("utf-8", "replace")
        i += 1 + n
        count = p[i]
        i += 1
        caps = []
        for _ in range(count):
            kind, first, num = p[i], p[i + 1], p[i + 2]
            i += 3
            try:
                caps.append(Capability(Cap(kind), first, num))
            except ValueError:
                continue  # a capability of a newer protocol: ignore it
        if i > len(p):
            raise IndexError
    except (IndexError, struct.error):
        raise FrameError(ErrorCode.MALFORMED, "hello payload does not parse") from None
    return Hello(protocol, boot_id, board_id, firmware, tuple(caps))


def pack_hello(hello: Hello) -> bytes:
    bid, fw = hello.board_id.encode()[:32], hello.firmware.encode()[:32]
    out = struct.pack(">BI", hello.protocol, hello.boot_id) + bytes([len(bid)]) + bid + bytes([len(fw)]) + fw
    out += bytes([len(hello.capabilities)])
    for cap in hello.capabilities:
        out += bytes([cap.kind, cap.first_seat, cap.count])
    return out


def parse_error(p: bytes) -> tuple[int, int, str]:
    """(code, offending type, text) of an ERR payload."""
    code = p[0] if p else 0
    kind = p[1] if len(p) > 1 else 0
    return code, kind, p[2:].decode("ascii", "replace")


def error_name(code: int) -> str:
    try:
        return ErrorCode(code).name
    except ValueError:
        return f"error {code}"
