"""HTTP routes: the pages, join links, QR codes, records, evidence and exports.

Seat tokens travel in the join link once and then live in an HttpOnly cookie,
so the phone page itself never shows a token and a reload rejoins the seat.
The table page's seat QR codes and the record (which names every hidden
card) need the table's display key; spectators get the public pages only.
"""

from __future__ import annotations

import hmac
import json

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request, url_for

from companion import qr
from companion.hub import Hub
from companion.i18n import gettext as _
from companion.seats import format_code
from companion.sockets import cookie_name

bp = Blueprint("pages", __name__)
COOKIE_AGE = 7 * 24 * 3600


def hub() -> Hub:
    return current_app.extensions["companion"].hub


def base() -> str:
    server = current_app.extensions["companion"]
    return server.base_url or request.host_url.rstrip("/")


def _table(table_id: str):
    table = hub().table(table_id)
    if table is None:
        abort(404, _("There is no table {table} here.", table=table_id))
    return table


def _has_key(table) -> bool:
    key = request.args.get("key", "")
    return bool(key) and hmac.compare_digest(key.encode(), table.display_key.encode())


@bp.get("/")
def index():
    tables = [t.info() for t in hub().tables.values()]
    return render_template("index.html", tables=tables, games=hub().games())


@bp.get("/healthz")
def healthz():
    return {"ok": True, "tables": len(hub().tables)}


@bp.get("/j/<token>")
def join(token: str):
    found = hub().seat_by_token(token)
    if found is None:
        return render_template("refused.html", message=_(
            "This seat link is not valid any more (the host may have reissued it). Scan the seat's QR code again.")), 403
    table, seat = found
    resp = make_response(redirect(url_for("pages.phone", table_id=table.id)))
    resp.set_cookie(cookie_name(table.id), token, max_age=COOKIE_AGE, httponly=True, samesite="Lax", path="/")
    return resp


@bp.route("/join", methods=["GET", "POST"])
def join_by_code():
    message = None
    if request.method == "POST":
        limiter = current_app.extensions["companion"].limiter
        if not limiter.allow_guess(request.remote_addr or "?"):
            message = _("Too many codes tried; wait a minute.")
        else:
            found = hub().seat_by_code(request.form.get("code", ""))
            if found is not None:
                table, seat = found
                return redirect(url_for("pages.join", token=table.seat(seat).token))
            message = _("That code is not valid.")
    return render_template("join.html", message=message)


@bp.get("/t/<table_id>/phone")
def phone(table_id: str):
    table = _table(table_id)
    return render_template("phone.html", table=table.info(), demo=table.demo)


@bp.get("/t/<table_id>")
def table_page(table_id: str):
    table = _table(table_id)
    key = request.args.get("key", "") if _has_key(table) else ""
    seats = []
    if key:
        for s in table.seats:
            seats.append({"seat": s.index, "name": s.name, "connected": bool(s.sids),
                          "url": qr.join_url(base(), s.token), "code": format_code(s.code),
                          "qr": url_for("pages.seat_qr", table_id=table.id, seat=s.index, key=key)})
    return render_template("table.html", table=table.info(), key=key, seats=seats, demo=table.demo)


@bp.get("/t/<table_id>/watch")
def watch(table_id: str):
    table = _table(table_id)
    return render_template("table.html", table=table.info(), key="", seats=[], demo=table.demo)


@bp.get("/t/<table_id>/seats.json")
def seat_links(table_id: str):
    table = _table(table_id)
    if not _has_key(table):
        abort(403)
    return {"seats": [{"seat": s.index, "url": qr.join_url(base(), s.token), "code": format_code(s.code),
                       "connected": bool(s.sids), "name": s.name} for s in table.seats]}


@bp.get("/t/<table_id>/qr/<int:seat>.svg")
def seat_qr(table_id: str, seat: int):
    table = _table(table_id)
    if not _has_key(table) or not 0 <= seat < len(table.seats):
        abort(403)
    return Response(qr.svg(qr.join_url(base(), table.seat(seat).token)), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@bp.get("/t/<table_id>/record.jsonl")
def record(table_id: str):
    """The full record names every hidden card: the display key, or the game must be over."""
    table = _table(table_id)
    if not (_has_key(table) or (table.over and table.revealed)):
        abort(403)
    text = "\n".join(table.record().lines()) + "\n"
    return Response(text, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f"attachment; filename=table-{table.id}.jsonl"})


@bp.get("/t/<table_id>/evidence/<digest>")
def evidence(table_id: str, digest: str):
    _table(table_id)
    found = hub().store.evidence(digest)
    if found is None:
        abort(404)
    data, mime = found
    return Response(data, mimetype=mime, headers={"Cache-Control": "max-age=31536000, immutable"})


@bp.get("/api/tables")
def tables():
    return {"tables": [t.info() for t in hub().tables.values()], "games": hub().games()}


@bp.post("/api/tables")
def create_table():
    """Open another table: ``{"pin", "game", "variant"?, "seats"?, "deal"?}`` -> its links."""
    from companion import messages
    from companion.config import TableSpec

    server = current_app.extensions["companion"]
    if not server.limiter.allow_guess(request.remote_addr or "?"):
        return {"ok": False, "message": _("Too many PINs tried; wait a minute.")}, 429
    try:
        msg = messages.parse(messages.CreateTable, request.get_json(silent=True))
    except ValueError as exc:
        return {"ok": False, "message": str(exc)}, 400
    if not hmac.compare_digest(msg.pin.encode(), server.pin.encode()):
        return {"ok": False, "message": _("Wrong host PIN.")}, 403
    try:
        table = server.create_table(TableSpec(msg.game, msg.variant, msg.seats, msg.deal))
    except ValueError as exc:
        return {"ok": False, "message": str(exc)}, 400
    return {"ok": True, "table": table.id, "page": qr.table_url(base(), table.id, table.display_key),
            "watch": qr.watch_url(base(), table.id),
            "seats": [{"seat": s.index, "url": qr.join_url(base(), s.token), "code": format_code(s.code)}
                      for s in table.seats]}, 201


@bp.get("/api/export.json")
def export_json():
    return Response(json.dumps(hub().store.export(), ensure_ascii=False, indent=1), mimetype="application/json")


@bp.get("/api/export/<what>.csv")
def export_csv(what: str):
    if what not in ("players", "matches", "standings", "characters"):
        abort(404)
    return Response(hub().store.export_csv(what), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename={what}.csv"})
