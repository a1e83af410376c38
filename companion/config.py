"""One configuration object for a server (Flask's "configuration from one object").

Everything ``companion serve`` and the tests can set lives here, with the
defaults a Raspberry Pi on a table wants: port 8080, the database in the user
data directory, no camera and no boards unless found or asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines.core import Game

DEFAULT_PORT = 8080


def default_db_path() -> Path:
    """``~/.local/share/table-companion/companion.sqlite3`` on Linux (platformdirs)."""
    from platformdirs import user_data_path

    return user_data_path("table-companion", appauthor=False, ensure_exists=True) / "companion.sqlite3"


@dataclass
class TableSpec:
    """A table to open at start: ``companion serve --game G --variant V --seats N``."""

    game: str
    variant: str | None = None
    seats: int | None = None
    deal: int | str | None = None
    """An integer seed, ``"physical"``, or None for a fresh random seed."""
    options: dict[str, Any] = field(default_factory=dict)
    demo: bool = False


@dataclass
class Config:
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    db: Path | str | None = None
    """SQLite file; None means :func:`default_db_path`, ``":memory:"`` keeps nothing."""
    public_url: str | None = None
    """What phones type or scan, e.g. ``http://table.local:8080``; None: the host's LAN address."""
    message_queue: str | None = None
    """``redis://host:port/0`` to share emits between server processes."""
    pin: str | None = None
    """The host PIN; None: a random 6-digit PIN printed once at start."""
    camera: str = "none"
    """``none``, ``sim``, a device path or index, a video file (see companion.camera)."""
    serial: str = "none"
    """``none``, ``auto``, ``sim`` or a port path (see companion.devices_link)."""
    tables: list[TableSpec] = field(default_factory=list)
    extra_games: Mapping[str, Game] = field(default_factory=dict)
    """Games beyond engines.registry (tests register the toy game here)."""
    rate: float = 20.0
    """Messages per second a socket may send on average ..."""
    burst: int = 60
    """... and at once."""
    secret_key: str | None = None
    language: str = "en"
    demo: bool = False
    restore: bool = True
    """Reopen the unfinished tables found in the database."""
    quiet: bool = False

    def origins(self) -> list[str]:
        """The origins a browser may open a socket from: this server only (never ``*``)."""
        from companion.qr import lan_address

        out = []
        if self.public_url:
            out.append(self.public_url.rstrip("/"))
        hosts = {"127.0.0.1", "localhost", lan_address()}
        try:
            import socket

            name = socket.gethostname()
            hosts.update({name, f"{name}.local"})
        except OSError:
            pass
        if self.host not in ("0.0.0.0", "::", ""):
            hosts.add(self.host)
        for h in sorted(hosts):
            out.append(f"http://{h}:{self.port}")
            if self.port == 80:
                out.append(f"http://{h}")
        return out
