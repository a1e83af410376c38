"""Join links and their QR codes: SVG for the table page, text for the terminal.

The URL in a QR must be one the phones can reach, so by default it carries the
host's LAN address (the address the kernel would use to reach the outside,
found without sending a packet); ``--public-url`` overrides it, e.g.
``http://table.local:8080`` when the Pi answers to its mDNS name.
"""

from __future__ import annotations

import io
import socket

import qrcode
import qrcode.image.svg


def lan_address() -> str:
    """This host's address on the LAN, or 127.0.0.1 when it has no network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # UDP connect sends nothing; it only picks a route
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def base_url(public_url: str | None, port: int, host: str = "0.0.0.0") -> str:
    """``--public-url``, else the address the server listens on, else (all addresses) the LAN address."""
    if public_url:
        return public_url.rstrip("/")
    if host and host not in ("0.0.0.0", "::"):
        return f"http://{host}:{port}"
    return f"http://{lan_address()}:{port}"


def join_url(base: str, token: str) -> str:
    return f"{base}/j/{token}"


def table_url(base: str, table_id: str, key: str) -> str:
    return f"{base}/t/{table_id}?key={key}"


def watch_url(base: str, table_id: str) -> str:
    return f"{base}/t/{table_id}/watch"


def svg(text: str) -> bytes:
    """A QR code as a standalone SVG (scales to any screen without blur)."""
    img = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    buf = io.BytesIO()
    img.save(buf)
    return buf.getvalue()


def text(data: str) -> str:
    """A QR code drawn with half-block characters, for the terminal at start."""
    code = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    code.make(fit=True)
    buf = io.StringIO()
    code.print_ascii(out=buf, invert=True)
    return buf.getvalue()
