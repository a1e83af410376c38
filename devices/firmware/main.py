# main.py - MicroPython firmware for a Table Companion board (Raspberry Pi Pico / RP2040).
#
# Copy this file, boardcore.py and (optionally) config.py to the board; see README.md.
# Everything about the protocol lives in boardcore.py, which the host's simulator and
# tests also run; this file only connects it to USB serial, WS2812 LEDs and buttons.

import binascii
import os
import select
import sys
import time

import boardcore as core
import machine
import micropython
import neopixel

# ---- configuration (override any of these in config.py) ------------------------------
KIND = "dice"  # "coins" | "dice" | "toss"
LED_PIN = 0  # GP0 -> DIN of the first WS2812
BUTTON_PINS = None  # None: the preset's pins below
BRIGHTNESS = 0.25  # 0..1; keeps the current within a 5 V 2 A supply
LEDS_PER_ARM = 3
SEATS = None  # None: the preset's seat count
FIRST_SEAT = 0
BOARD_ID = None  # None: "pico-" + the flash chip's unique id
SAFE_PIN = 22  # GP22 held to GND at power-up: do not start (keeps the REPL for mpremote)

PRESETS = {
    "coins": {"cap": core.CAP_COINS, "seats": 8, "buttons": [], "pins": []},
    "dice": {"cap": core.CAP_DICE, "seats": 8, "buttons": "per-seat", "pins": [2, 3, 4, 5, 6, 7, 8, 9]},
    "toss": {"cap": core.CAP_TOSS, "seats": 2, "buttons": [(core.CAP_TOSS, core.SHARED_SEAT)], "pins": [2]},
}

try:
    from config import *  # noqa: F401,F403 - the builder's overrides
except ImportError:
    pass


def build_board(now):
    preset = PRESETS[KIND]
    seats = SEATS if SEATS is not None else preset["seats"]
    caps = [(preset["cap"], FIRST_SEAT, seats)]
    if preset["buttons"] == "per-seat":
        buttons = [(core.CAP_DICE, FIRST_SEAT + i) for i in range(seats)]
    else:
        buttons = list(preset["buttons"])
    pins = BUTTON_PINS if BUTTON_PINS is not None else preset["pins"][:len(buttons)]
    buttons = buttons[:len(pins)]
    board_id = BOARD_ID or "pico-" + binascii.hexlify(machine.unique_id()).decode()
    boot_id = int.from_bytes(os.urandom(4), "big")
    board = core.BoardCore(board_id, caps, buttons, now=now, boot_id=boot_id, leds_per_arm=LEDS_PER_ARM)
    button_pins = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in pins]
    return board, button_pins


def scale(colour):
    return (int(colour[0] * BRIGHTNESS), int(colour[1] * BRIGHTNESS), int(colour[2] * BRIGHTNESS))


def main():
    if machine.Pin(SAFE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        print("safe mode: GP" + str(SAFE_PIN) + " is held low, the firmware does not start")
        return
    # Frames may contain 0x03: it must not interrupt the program as Ctrl-C would.
    micropython.kbd_intr(-1)
    clock = 0
    last_ticks = time.ticks_ms()
    board, buttons = build_board(clock)
    pixels = neopixel.NeoPixel(machine.Pin(LED_PIN), max(1, board.led_count()))
    status = machine.Pin("LED", machine.Pin.OUT)
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    last_render = -1000
    while True:
        ticks = time.ticks_ms()
        clock += time.ticks_diff(ticks, last_ticks)  # a plain increasing millisecond count
        last_ticks = ticks
        data = bytearray()
        while poll.poll(0) and len(data) < 256:
            data += stdin.read(1)
        if data:
            board.receive(data, clock)
        for i, pin in enumerate(buttons):
            board.button_level(i, pin.value(), clock)
        board.tick(clock)
        out = board.take_output()
        if out:
            stdout.write(out)
        if (board.dirty or board.animating()) and clock - last_render >= 20:
            for i, colour in enumerate(board.render(clock)):
                pixels[i] = scale(colour)
            pixels.write()
            board.dirty = False
            last_render = clock
        # Steady light: the host is talking to us.  Blinking: no word from the host for 3 s.
        status.value(1 if board.host_alive else (clock // 250) % 2)
        time.sleep_ms(1)


main()
