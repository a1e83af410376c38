"""The application factory: ``create_app(config)`` builds one server.

Flask serves the pages, Flask-SocketIO (threading async mode; simple-websocket
gives real WebSockets) carries every message, the Hub holds the tables.  No
module-level app: tests build as many servers as they like, each with its own
database, port and games.
"""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask
from flask_socketio import SocketIO

from companion import qr
from companion.config import Config, TableSpec
from companion.hub import Hub
from companion.ratelimit import RateLimiter
from companion.store import Store

log = logging.getLogger(__name__)


def templates_dir() -> Path:
    """templates/ in a checkout, companion/templates in a wheel (see setup.py)."""
    try:
        import companion.templates as pkg

        return Path(next(iter(pkg.__path__)))
    except (ImportError, StopIteration):
        return Path(__file__).resolve().parent.parent / "templates"


@dataclass
class Server:
    """What a running server holds; ``app.extensions["companion"]``."""

    config: Config
    socketio: SocketIO
    hub: Hub
    store: Store
    limiter: RateLimiter
    pin: str
    base_url: str | None
    devices: Any = None
    camera: Any = None
    cameras: dict[str, Any] = field(default_factory=dict)
    """Table id -> the camera watching it (a FrameReader or CameraLink): the table page's live view."""

    watching: str | None = None
    """The table the camera watches (one camera looks at one mat)."""

    def create_table(self, spec: TableSpec, table_id: str | None = None):
        table = self.hub.create(spec, table_id)
        self.watch(table)
        return table

    def watch(self, table: Any) -> None:
        """Point the camera at ``table``: the first table, or a new one once the watched game is over.

        Tables opened later (the index page, ``POST /api/tables``) get the camera too; a game in progress
        keeps it.  No camera asked for or found: the table runs in manual-entry mode.
        """
        wanted = self.config.camera
        if not wanted or wanted == "none" or table.demo or self.config.demo:
            return  # a demo table brings its own rendered camera (companion.demo)
        if self.camera is not None:
            watched = self.hub.tables.get(self.watching or "")
            if watched is not None and not watched.over:
                return
            self.camera.close()
            self.cameras.pop(self.watching or "", None)
            self.camera, self.watching = None, None
        from companion.camera import CameraLink
        from engines import registry

        referee = self.hub.referee(table.id)
        try:
            layout = registry.adapter(table.game.id).layout(len(table.seats), table.state.variant)
        except ValueError as exc:
            log.warning("%s; the camera sees cards but not zones", exc)
            layout = None
        self.camera = CameraLink.open(
            wanted, lambda changes, snap, ev: referee.call(referee.physical, changes, snap, ev), self.store,
            layout, game_id=table.game.id)
        if self.camera is not None:
            self.cameras[table.id] = self.camera
            self.watching = table.id

    def close(self) -> None:
        self.hub.stop()
        if self.camera is not None:
            self.camera.close()
        if self.devices is not None:
            self.devices.close()
        self.store.close()


def create_app(config: Config | None = None) -> Flask:
    """A ready server: tables restored from the store, the tables of ``config.tables`` opened."""
    from companion import pages, sockets
    from companion.config import default_db_path
    from companion.devices_link import DeviceLink

    config = config or Config()
    folder = templates_dir()
    app = Flask("companion", template_folder=str(folder), static_folder=str(folder / "static"),
                static_url_path="/static")
    app.config["SECRET_KEY"] = config.secret_key or secrets.token_hex(32)
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    from companion.i18n import gettext

    app.jinja_env.globals["_"] = gettext  # every sentence on a page goes through the catalog too
    socketio = SocketIO(
        app,
        async_mode="threading",
        cors_allowed_origins=config.origins(),
        message_queue=config.message_queue,
        max_http_buffer_size=64 * 1024,  # a phone never sends more; a bigger message is refused at the socket
        ping_interval=10,
        ping_timeout=10,
        logger=False,
        engineio_logger=False,
        serializer=sockets.TextPacket,  # JSON text only; the referee's views go out encoded once
    )
    app.wsgi_app = _no_delay(app.wsgi_app)  # type: ignore[method-assign]
    store = Store(config.db if config.db is not None else default_db_path())
    pin = config.pin or f"{secrets.randbelow(10**6):06d}"
    hub_ref: list[Hub] = []
    devices = DeviceLink.open(config.serial, on_event=lambda event: hub_ref and hub_ref[0].device_event(event))

    def emit(event: str, data: dict | str, to: str | list[str]) -> None:
        if config.message_queue and isinstance(data, str):
            # The Redis queue carries JSON: an already encoded view would arrive as a plain string.
            data = json.loads(data)
        socketio.emit(event, data, to=to)

    hub = Hub(config, store, emit, devices)
    hub_ref.append(hub)
    limiter = RateLimiter(config.rate, config.burst)
    base_url = qr.base_url(config.public_url, config.port) if config.public_url else None
    server = Server(config, socketio, hub, store, limiter, pin, base_url, devices)
    app.extensions["companion"] = server
    app.register_blueprint(pages.bp)
    sockets.register(socketio, hub, limiter, pin)

    if config.restore:
        for table in hub.restore():
            log.info("restored table %s (%s) at entry %d", table.id, table.game.id, table.seq)
    for spec in config.tables:
        server.create_table(spec)
    if server.camera is None and hub.tables:  # no table opened now: the camera watches a restored one
        server.watch(next(iter(hub.tables.values())))
    return app


def _no_delay(wsgi_app: Any) -> Any:
    """Per connection: turn off Nagle's algorithm, and end a finished WebSocket's connection.

    A referee answer is often two small WebSocket frames in a row (a view, then
    the acknowledgement); with Nagle on, the second waits for the peer's
    delayed ACK, about 40 ms on Linux, which is most of a move's latency.

    In threading mode the WebSocket lives inside this call.  When it returns,
    werkzeug would keep the connection and read the client's closing frames as
    a new HTTP request (logging a "Bad request syntax" error, and leaving the
    client waiting seconds for a close); shutting the socket down ends it.
    """
    import socket as _socket

    def app(environ: dict, start_response: Any) -> Any:
        sock = environ.get("werkzeug.socket") or environ.get("gunicorn.socket")
        if sock is not None:
            try:
                sock.setsockopt(_socket.IPPROTO_TCP, _socket.TCP_NODELAY, 1)
            except OSError:
                pass
        websocket = environ.get("HTTP_UPGRADE", "").lower() == "websocket"
        try:
            return wsgi_app(environ, start_response)
        finally:
            if websocket and sock is not None and "werkzeug.socket" in environ:
                try:
                    sock.shutdown(_socket.SHUT_RDWR)
                except OSError:
                    pass

    return app


def server_of(app: Flask) -> Server:
    return app.extensions["companion"]


def http_server(app: Flask) -> Any:
    """The werkzeug threaded server for ``app`` (what Flask-SocketIO's threading mode runs), without
    the development banner: a table server runs headless and its terminal shows the join links."""
    from werkzeug.serving import make_server

    cfg = server_of(app).config
    return make_server(cfg.host, cfg.port, app, threaded=True)


def settle() -> None:
    """Once the server is built and its tables open: keep the garbage collector off what lives for good.

    Everything alive now (modules, the app, the tables and their records)
    stays for the whole run, yet every full collection walked it again: with
    hundreds of sockets that was a pause of up to 0.4 s on the bench machine,
    the worst delay a view could meet.  ``gc.freeze`` moves it out of the
    collector's generations; what is made later is collected as before.
    """
    import gc

    gc.collect()
    gc.freeze()


def run(app: Flask) -> None:
    """Serve until interrupted (threads, one per connection: fine for a room of tables)."""
    server = server_of(app)
    http = http_server(app)
    settle()
    try:
        http.serve_forever()
    finally:
        http.server_close()
        server.close()
