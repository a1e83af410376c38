"""Finding boards: RP2040 USB ids first, then any USB serial port that answers HELLO.

``serial.tools.list_ports`` lists the ports; a port is a board once it answers
HELLO (devices.link.Link.handshake), whatever its USB ids.  Ports with an RP2040
id are tried again and again (a board may be busy booting); other USB serial
ports are asked once per appearance, so a GPS or a modem is not pestered.  Built-in
UARTs (no USB ids) are never probed.
"""

from __future__ import annotations

from dataclasses import dataclass

from serial.tools import list_ports

RP2040_VID = 0x2E8A
"""Raspberry Pi's USB vendor id (Pico, Pico W, Pico 2 and other RP2040/RP2350 boards)."""
RP2040_PIDS = {
    0x0005: "MicroPython",
    0x000A: "Pico SDK stdio",
    0x000B: "CircuitPython",
    0x000F: "RP2350 MicroPython",
}


@dataclass(frozen=True)
class Candidate:
    port: str
    description: str
    rp2040: bool
    """Retry it until it answers (an RP2040 id, a simulator pty or a port the user named)."""


def is_rp2040(vid: int | None, pid: int | None) -> bool:
    return vid == RP2040_VID


def scan() -> list[Candidate]:
    """Serial ports worth a HELLO, RP2040 boards first."""
    found = []
    for info in list_ports.comports():
        if info.vid is None:
            continue  # a built-in UART or a legacy ttyS: never write to it uninvited
        rp = is_rp2040(info.vid, info.pid)
        kind = RP2040_PIDS.get(info.pid or 0, "RP2040") if rp else "USB serial"
        desc = f"{kind} {info.vid:04x}:{(info.pid or 0):04x} {info.serial_number or ''} {info.description or ''}"
        found.append(Candidate(info.device, " ".join(desc.split()), rp))
    found.sort(key=lambda c: (not c.rp2040, c.port))
    return found
