"""The board's protocol core: plain Python that runs under MicroPython on the RP2040
and under CPython in the simulator and the tests (docs/protocol.md).

It knows nothing of pins, USB or clocks.  The caller (main.py on the Pico, or
devices.simulator on a pty) feeds it received bytes, button levels and the
time in milliseconds (a plain increasing integer), takes the bytes it wants to
send, and asks it for the colour of every LED.  Keeping it pure is what lets the
host tests talk to the real firmware logic.

MicroPython compatibility: no dataclasses, no typing, no f-string tricks, no
``bytes.hex``; only ``struct`` from the standard library.
"""

import struct

PROTOCOL_VERSION = 1
FIRMWARE_VERSION = "1.0.0"
MAX_SEATS = 8
MAX_FRAME = 64  # bytes of a decoded frame (type + seq + payload + crc)
MAX_ENCODED = MAX_FRAME + 2  # COBS adds at most one byte per 254, plus one

# Host -> board
HELLO = 0x01
PING = 0x02
ACK_EVENT = 0x03
SET_COINS = 0x10
SHOW_DICE = 0x11
SHOW_TOSS = 0x12
CLEAR = 0x13
SET_STATE = 0x14
GET_STATE = 0x15
# Board -> host
ACK = 0x80
ERR = 0x81
ANNOUNCE = 0x82
HEARTBEAT = 0x83
EV_BUTTON = 0x90
EV_ROLL_SHOWN = 0x91
EV_COIN_SHOWN = 0x92

# Error codes (ERR payload byte 0)
E_BAD_CRC = 1
E_MALFORMED = 2
E_UNKNOWN_TYPE = 3
E_BAD_ARGS = 4
E_NOT_CAPABLE = 5
E_VERSION = 6
E_TOO_LONG = 7

# Capability kinds (hello)
CAP_COINS = 1
CAP_DICE = 2
CAP_TOSS = 3
CAP_BUTTONS = 4

TOSS_OFF = 0
TOSS_PLAYER = 1
TOSS_OPPONENT = 2
SHARED_SEAT = 0xFF

STATE_SIZE = 2 + 2 * MAX_SEATS + MAX_SEATS

# Pip LEDs of one die, in chain order: 0 top-left, 1 top-right, 2 middle-left,
# 3 centre, 4 middle-right, 5 bottom-left, 6 bottom-right.
PIPS = ((), (3,), (0, 6), (0, 3, 6), (0, 1, 5, 6), (0, 1, 3, 5, 6), (0, 1, 2, 4, 5, 6))
LEDS_PER_DIE = 7
LEDS_PER_HEAD = 3
LEDS_PER_SHAFT = 3
SEAT_COLOURS = ((255, 40, 0), (0, 90, 255), (0, 200, 40), (200, 0, 200),
                (255, 170, 0), (0, 200, 200), (255, 255, 255), (160, 255, 0))
PIP_COLOUR = (255, 255, 255)
SHAFT_COLOUR = (60, 60, 60)
OFF = (0, 0, 0)


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xor-out)."""
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def cobs_encode(data):
    out = bytearray()
    block = bytearray()
    for b in data:
        if b == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data):
    """Raises ValueError on a malformed encoding."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise ValueError("COBS block runs past the end")
        block = data[i + 1:end]
        for b in block:
            if b == 0:
                raise ValueError("zero byte inside a COBS frame")
        out.extend(block)
        i = end
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


def pack_frame(kind, seq, payload=b""):
    """type u8, seq u16 BE, payload, crc16 u16 BE over all before it; COBS; 0x00."""
    body = bytes([kind, (seq >> 8) & 0xFF, seq & 0xFF]) + bytes(payload)
    body += struct.pack(">H", crc16(body))
    return cobs_encode(body) + b"\x00"


def hello_payload(board_id, boot_id, caps):
    bid = board_id.encode()[:32]
    fw = FIRMWARE_VERSION.encode()
    out = bytearray([PROTOCOL_VERSION])
    out += struct.pack(">I", boot_id & 0xFFFFFFFF)
    out.append(len(bid))
    out += bid
    out.append(len(fw))
    out += fw
    out.append(len(caps))
    for kind, first, count in caps:
        out += bytes([kind, first, count])
    return bytes(out)


class Debouncer:
    """A button is pressed when its pin reads low for ``ms`` without a bounce."""

    def __init__(self, ms=30):
        self.ms = ms
        self.level = 1
        self.since = 0
        self.stable = 1

    def update(self, level, now):
        """Feed the pin level; True exactly once per press (stable high -> low)."""
        if level != self.level:
            self.level = level
            self.since = now
            return False
        if level != self.stable and now - self.since >= self.ms:
            self.stable = level
            return level == 0
        return False


class BoardCore:
    """One board: capabilities, LED state, protocol state machine.

    ``caps``: list of (kind, first_seat, count) for CAP_COINS, CAP_DICE and
    CAP_TOSS, in LED chain order.  ``buttons``: list of (purpose, seat) with
    purpose CAP_DICE (a roll button) or CAP_TOSS, seat SHARED_SEAT when shared.
    """

    def __init__(self, board_id, caps, buttons=(), now=0, boot_id=0, leds_per_arm=3, roll_ms=700,
                 toss_ms=900, heartbeat_ms=1000, event_retry_ms=250, event_tries=4, host_lost_ms=3000,
                 debounce_ms=30):
        self.board_id = board_id
        self.caps = [tuple(c) for c in caps]
        self.buttons = [tuple(b) for b in buttons]
        self.leds_per_arm = leds_per_arm
        self.roll_ms = roll_ms
        self.toss_ms = toss_ms
        self.heartbeat_ms = heartbeat_ms
        self.event_retry_ms = event_retry_ms
        self.event_tries = event_tries
        self.host_lost_ms = host_lost_ms
        self.debouncers = [Debouncer(debounce_ms) for _ in self.buttons]
        self.boot(now, boot_id)

    # ---- lifecycle -----------------------------------------------------
    def boot(self, now, boot_id):
        """Power-on state: everything dark, caches empty, an ANNOUNCE queued."""
        self.boot_id = boot_id & 0xFFFFFFFF
        self.started = now
        self._now = now
        self.coins = 0
        self.dice = [[0, 0] for _ in range(MAX_SEATS)]
        self.toss = [TOSS_OFF] * MAX_SEATS
        self.dice_anim = {}  # seat -> (start, end)
        self.toss_anim = {}
        self.rx = bytearray()
        self.rx_overflow = False
        self.out = bytearray()
        self.cache = []  # [(raw frame, response bytes)], newest last
        self.pending = []  # [[seq, frame, due, tries_left]]
        self.event_seq = 0
        self.last_rx = now
        self.last_tx = now
        self.dirty = True
        self.counters = {"frames": 0, "errors": 0, "duplicates": 0}
        self._send(pack_frame(ANNOUNCE, 0, self.hello()), now)

    def hello(self):
        caps = list(self.caps)
        if self.buttons:
            caps.append((CAP_BUTTONS, 0, len(self.buttons)))
        return hello_payload(self.board_id, self.boot_id, caps)

    @property
    def host_alive(self):
        """False once the host has been silent for host_lost_ms (main.py blinks the status LED)."""
        return self._now - self.last_rx < self.host_lost_ms

    # ---- bytes in / out --------------------------------------------------
    def take_output(self):
        out = bytes(self.out)
        self.out = bytearray()
        return out

    def _send(self, frame, now):
        self.out += frame
        self.last_tx = now

    def receive(self, data, now):
        """Feed bytes read from the serial port."""
        self._now = now
        for b in data:
            if b == 0:
                if self.rx_overflow:
                    self._error(0, 0, E_TOO_LONG, "frame longer than " + str(MAX_ENCODED) + " bytes", now)
                elif self.rx:
                    self._frame(bytes(self.rx), now)
                self.rx = bytearray()
                self.rx_overflow = False
            elif len(self.rx) >= MAX_ENCODED:
                self.rx_overflow = True
            else:
                self.rx.append(b)

    def _error(self, seq, kind, code, text, now):
        self.counters["errors"] += 1
        frame = pack_frame(ERR, seq, bytes([code, kind]) + text.encode()[:40])
        self._send(frame, now)
        return frame

    def _frame(self, encoded, now):
        try:
            raw = cobs_decode(encoded)
        except ValueError:
            self._error(0, 0, E_MALFORMED, "bad COBS encoding", now)
            return
        if len(raw) < 5:
            seq = (raw[1] << 8 | raw[2]) if len(raw) >= 3 else 0
            self._error(seq, raw[0] if raw else 0, E_MALFORMED, "frame shorter than 5 bytes", now)
            return
        kind = raw[0]
        seq = raw[1] << 8 | raw[2]
        if crc16(raw[:-2]) != (raw[-2] << 8 | raw[-1]):
            self._error(seq, kind, E_BAD_CRC, "CRC mismatch", now)
            return
        self.last_rx = now
        self.counters["frames"] += 1
        payload = raw[3:-2]
        if kind == ACK_EVENT or kind == ERR:
            # The host took (or refused) one of our events: stop resending it.
            self.pending = [p for p in self.pending if p[0] != seq]
            return
        if kind == HELLO:
            self.cache = []
            self.pending = []
        elif kind != PING:
            for old_raw, response in self.cache:
                if old_raw == raw:
                    # A retry of a command already done: answer again, do not redo it.
                    self.counters["duplicates"] += 1
                    self._send(response, now)
                    return
        response = self._command(kind, seq, payload, now)
        if kind != PING:
            self.cache.append((raw, response))
            if len(self.cache) > 8:
                self.cache.pop(0)

    # ---- commands ----------------------------------------------------------
    def _cap(self, kind, seat):
        for k, first, count in self.caps:
            if k == kind and first <= seat < first + count:
                return True
        return False

    def _has(self, kind):
        for k, _, _ in self.caps:
            if k == kind:
                return True
        return False

    def _command(self, kind, seq, p, now):
        n = len(p)
        if kind == HELLO:
            if n < 1:
                return self._error(seq, kind, E_BAD_ARGS, "hello needs the host's protocol version", now)
            if p[0] < 1:
                return self._error(seq, kind, E_VERSION, "protocol " + str(p[0]) + " is not supported", now)
            return self._ack(seq, self.hello(), now)
        if kind == PING:
            return self._ack(seq, struct.pack(">II", self.boot_id, (now - self.started) & 0xFFFFFFFF), now)
        if kind == SET_COINS:
            if n != 2:
                return self._error(seq, kind, E_BAD_ARGS, "set-coins needs 2 bytes", now)
            if not self._has(CAP_COINS):
                return self._error(seq, kind, E_NOT_CAPABLE, "this board has no coins", now)
            self.coins = p[0] << 8 | p[1]
            self.dirty = True
            return self._ack(seq, b"", now)
        if kind == SHOW_DICE:
            if n != 4:
                return self._error(seq, kind, E_BAD_ARGS, "show-dice needs 4 bytes", now)
            seat, d1, d2, flags = p[0], p[1], p[2], p[3]
            if not self._cap(CAP_DICE, seat):
                return self._error(seq, kind, E_NOT_CAPABLE, "no dice for seat " + str(seat) + " here", now)
            if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                return self._error(seq, kind, E_BAD_ARGS, "die faces must be 1 to 6", now)
            self.dice[seat] = [d1, d2]
            self.dirty = True
            response = self._ack(seq, b"", now)
            if flags & 1 and self.roll_ms > 0:
                self.dice_anim[seat] = (now, now + self.roll_ms)
            else:
                self.dice_anim.pop(seat, None)
                self._event(EV_ROLL_SHOWN, bytes([seat, d1, d2]), now)
            return response
        if kind == SHOW_TOSS:
            if n != 3:
                return self._error(seq, kind, E_BAD_ARGS, "show-toss needs 3 bytes", now)
            seat, face, flags = p[0], p[1], p[2]
            if not self._cap(CAP_TOSS, seat):
                return self._error(seq, kind, E_NOT_CAPABLE, "no coin-toss arrow for seat " + str(seat) + " here", now)
            if face not in (TOSS_PLAYER, TOSS_OPPONENT):
                return self._error(seq, kind, E_BAD_ARGS, "face must be 1 (player) or 2 (opponent)", now)
            self.toss[seat] = face
            self.dirty = True
            response = self._ack(seq, b"", now)
            if flags & 1 and self.toss_ms > 0:
                self.toss_anim[seat] = (now, now + self.toss_ms)
            else:
                self.toss_anim.pop(seat, None)
                self._event(EV_COIN_SHOWN, bytes([seat, face]), now)
            return response
        if kind == CLEAR:
            if n != 0:
                return self._error(seq, kind, E_BAD_ARGS, "clear takes no payload", now)
            self._set_state(bytes(STATE_SIZE))
            return self._ack(seq, b"", now)
        if kind == SET_STATE:
            if n != STATE_SIZE:
                return self._error(seq, kind, E_BAD_ARGS, "set-state needs " + str(STATE_SIZE) + " bytes", now)
            for i in range(2, 2 + 2 * MAX_SEATS):
                if p[i] > 6:
                    return self._error(seq, kind, E_BAD_ARGS, "die faces must be 0 (off) to 6", now)
            for i in range(2 + 2 * MAX_SEATS, STATE_SIZE):
                if p[i] > TOSS_OPPONENT:
                    return self._error(seq, kind, E_BAD_ARGS, "toss must be 0, 1 or 2", now)
            self._set_state(p)
            return self._ack(seq, b"", now)
        if kind == GET_STATE:
            return self._ack(seq, self.state_bytes(), now)
        return self._error(seq, kind, E_UNKNOWN_TYPE, "unknown message type " + hex(kind), now)

    def _ack(self, seq, payload, now):
        frame = pack_frame(ACK, seq, payload)
        self._send(frame, now)
        return frame

    def _set_state(self, p):
        """Take the absolute state; seats this board does not serve stay dark."""
        self.dice_anim = {}
        self.toss_anim = {}
        self.coins = (p[0] << 8 | p[1]) if self._has(CAP_COINS) else 0
        for seat in range(MAX_SEATS):
            d = [p[2 + 2 * seat], p[3 + 2 * seat]]
            self.dice[seat] = d if self._cap(CAP_DICE, seat) and 0 not in d else [0, 0]
            t = p[2 + 2 * MAX_SEATS + seat]
            self.toss[seat] = t if self._cap(CAP_TOSS, seat) else TOSS_OFF
        self.dirty = True

    def state_bytes(self):
        out = bytearray(struct.pack(">H", self.coins))
        for d1, d2 in self.dice:
            out += bytes([d1, d2])
        out += bytes(self.toss)
        return bytes(out)

    # ---- events --------------------------------------------------------------
    def _event(self, kind, payload, now):
        self.event_seq = (self.event_seq + 1) & 0xFFFF or 1
        frame = pack_frame(kind, self.event_seq, payload)
        self._send(frame, now)
        self.pending.append([self.event_seq, frame, now + self.event_retry_ms, self.event_tries - 1])
        if len(self.pending) > 16:
            self.pending.pop(0)

    def button_level(self, index, level, now):
        """Feed the level (1 released, 0 pressed) of button ``index``; debounced here."""
        if self.debouncers[index].update(level, now):
            purpose, seat = self.buttons[index]
            self._event(EV_BUTTON, bytes([index, seat, purpose]), now)

    def tick(self, now):
        """Finish animations, resend unacknowledged events, send a heartbeat when idle."""
        self._now = now
        for seat in list(self.dice_anim):
            if now >= self.dice_anim[seat][1]:
                del self.dice_anim[seat]
                self.dirty = True
                self._event(EV_ROLL_SHOWN, bytes([seat] + self.dice[seat]), now)
        for seat in list(self.toss_anim):
            if now >= self.toss_anim[seat][1]:
                del self.toss_anim[seat]
                self.dirty = True
                self._event(EV_COIN_SHOWN, bytes([seat, self.toss[seat]]), now)
        keep = []
        for p in self.pending:
            if now >= p[2]:
                if p[3] <= 0:
                    continue
                self._send(p[1], now)
                p[2] = now + self.event_retry_ms
                p[3] -= 1
            keep.append(p)
        self.pending = keep
        if now - self.last_tx >= self.heartbeat_ms:
            self._send(pack_frame(HEARTBEAT, 0, struct.pack(">II", self.boot_id, (now - self.started) & 0xFFFFFFFF)),
                       now)

    def next_deadline(self, now):
        """The latest time tick() must run again (ms)."""
        due = self.last_tx + self.heartbeat_ms
        for p in self.pending:
            due = min(due, p[2])
        for _, end in self.dice_anim.values():
            due = min(due, now + 40, end)
        for _, end in self.toss_anim.values():
            due = min(due, now + 40, end)
        return due

    # ---- LEDs ----------------------------------------------------------------
    def led_count(self):
        n = 0
        for kind, _, count in self.caps:
            if kind == CAP_COINS:
                n += count * 2 * self.leds_per_arm
            elif kind == CAP_DICE:
                n += count * 2 * LEDS_PER_DIE
            elif kind == CAP_TOSS:
                n += ((count + 1) // 2) * (2 * LEDS_PER_HEAD + LEDS_PER_SHAFT)
        return n

    def animating(self):
        return bool(self.dice_anim or self.toss_anim)

    def render(self, now):
        """Colour of every LED in chain order (docs: devices/firmware/README.md)."""
        px = []
        for kind, first, count in self.caps:
            for seat in range(first, first + count) if kind != CAP_TOSS else range(first, first + count, 2):
                colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
                if kind == CAP_COINS:
                    for arm in (0, 1):
                        lit = self.coins >> (2 * seat + arm) & 1
                        px.extend([colour if lit else OFF] * self.leds_per_arm)
                elif kind == CAP_DICE:
                    faces = self.dice[seat]
                    if seat in self.dice_anim:
                        step = (now - self.dice_anim[seat][0]) // 80
                        faces = [(step * 5 + seat * 3 + i * 2) % 6 + 1 for i in (0, 1)]
                    for face in faces:
                        on = PIPS[face]
                        px.extend([PIP_COLOUR if i in on else OFF for i in range(LEDS_PER_DIE)])
                else:
                    px.extend(self._arrow(seat, first + count, now))
        return px

    def _arrow(self, seat, end, now):
        """An arrow between seat and seat+1 (facing players): head A points at ``seat``."""
        target = None
        for s in (seat, seat + 1):
            if s >= end:
                continue
            face = self.toss[s]
            if s in self.toss_anim:
                face = TOSS_PLAYER if ((now - self.toss_anim[s][0]) // 90) % 2 == 0 else TOSS_OPPONENT
            if face != TOSS_OFF:
                points_at_self = face == TOSS_PLAYER
                target = s if points_at_self else (s + 1 if s == seat else seat)
        if target is None:
            return [OFF] * (2 * LEDS_PER_HEAD + LEDS_PER_SHAFT)
        colour = SEAT_COLOURS[target % len(SEAT_COLOURS)]
        head_a = [colour if target == seat else OFF] * LEDS_PER_HEAD
        head_b = [colour if target != seat else OFF] * LEDS_PER_HEAD
        return head_a + [SHAFT_COLOUR] * LEDS_PER_SHAFT + head_b
