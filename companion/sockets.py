"""Socket.IO handlers: the edge where phones and pages talk to the referee.

Every handler: rate-limit the socket, validate the payload with its pydantic
schema (companion.messages), check the socket may do this (its seat, the
display key, the host PIN), then hand a typed request to the table's referee.
Anything refused is answered to that socket only (an ``error`` event and the
acknowledgement) and changes nothing.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from functools import wraps
from typing import Any

from flask import request
from flask_socketio import SocketIO, join_room, leave_room
from socketio import packet as sio_packet

from companion import messages as m
from companion.hub import Hub, Session
from companion.i18n import DEFAULT, set_language
from companion.i18n import gettext as _
from companion.ratelimit import RateLimiter
from companion.referee import room_display, room_host, room_public, room_seat
from companion.relay import NoHost

log = logging.getLogger(__name__)
COOKIE_PREFIX = "tc_seat_"
FORWARDED = ("join", "watch", "play", "answer", "amend", "challenge", "record")
"""Messages a socket may send about a table another process hosts (companion.relay)."""


class Refused(Exception):
    """An inbound message answered with an error and no change."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class TextPacket(sio_packet.Packet):
    """Socket.IO packets of JSON text only, splicing in messages the referee already encoded.

    The default packet walks every outgoing message looking for bytes to send
    as binary attachments; nothing here is ever binary, and for a view that
    walk cost as much as encoding it.  A :class:`companion.messages.Encoded`
    argument is the message's JSON text already (made once per room, and
    already searched for hidden strings): it goes into the frame as is.
    """

    uses_binary_events = False

    def encode(self) -> Any:
        data = self.data
        if not isinstance(data, list) or not any(type(d) is m.Encoded for d in data):
            return super().encode()
        head = str(self.packet_type)
        if self.namespace is not None and self.namespace != "/":
            head += self.namespace + ","
        if self.id is not None:
            head += str(self.id)
        parts = [d if type(d) is m.Encoded else self.json.dumps(d, separators=(",", ":")) for d in data]
        return head + "[" + ",".join(parts) + "]"


def cookie_name(table_id: str) -> str:
    return COOKIE_PREFIX + table_id


def register(socketio: SocketIO, hub: Hub, limiter: RateLimiter, pin: str) -> None:
    """Attach every handler to ``socketio`` (the default namespace)."""

    def handler(event: str, schema: type[m.Message] | None = None) -> Callable:
        def wrap(fn: Callable[[Session, Any], dict]) -> Callable:
            @wraps(fn)
            def on_message(*args: Any) -> dict:
                sid = request.sid  # type: ignore[attr-defined]
                session = hub.sessions.get(sid) or hub.sessions.setdefault(sid, Session(sid))
                set_language(session.language)
                try:
                    if not limiter.allow(sid):
                        raise Refused("rate-limited", _("Too many messages; slow down."))
                    if len(args) != 1:
                        raise Refused("invalid", _("Send exactly one object with this message."))
                    data = m.parse(schema, args[0]) if schema else args[0]
                    if event in FORWARDED and hub.relay is not None and hub.table(data.table) is None:
                        answer = forward(session, event, data)  # another process hosts it (companion.relay)
                    else:
                        answer = fn(session, data)
                except Refused as exc:
                    return _error(socketio, sid, event, exc.code, exc.message)
                except ValueError as exc:
                    return _error(socketio, sid, event, "invalid", str(exc))
                except TimeoutError:
                    return _error(socketio, sid, event, "busy", _("The table did not answer in time; try again."))
                return answer

            socketio.on_event(event, on_message)
            return on_message

        return wrap

    def table_of(session: Session, table_id: str):
        table = hub.table(table_id)
        if table is None:
            raise Refused("unknown-table", _("There is no table {table} here.", table=table_id))
        return table

    def seated(session: Session, table_id: str) -> int:
        if session.table != table_id or session.role != "seat" or session.seat is None:
            raise Refused("unauthorised", _("Join a seat at this table first."))
        return session.seat

    def hosting(session: Session, table_id: str) -> None:
        if table_id not in session.hosts:
            raise Refused("unauthorised", _("Only the host may do that; enter the host PIN first."))

    def leave(session: Session, tell: bool = True) -> None:
        """A socket joins one table at a time: leave the old rooms on a new join.

        ``tell=False``: the hosting process already moved the socket (a remote rejoin at the same table).
        """
        if session.table is None:
            return
        table = hub.table(session.table)
        if session.role == "seat" and session.seat is not None:
            if table is not None:
                table.seat(session.seat).sids.discard(session.sid)
            elif hub.relay is not None and tell:
                hub.relay.tell(session.table, "leave", sock=hub.relay.key(session.sid))
            leave_room(room_seat(session.table, session.seat))
        for room in (room_public(session.table), room_display(session.table)):
            leave_room(room)
        session.table, session.seat, session.role = None, None, "none"

    # ---- tables hosted by another process on the same Redis (companion.relay) ----------
    def forward(session: Session, event: str, msg: Any) -> dict:
        """This process's side of a socket whose table another process hosts: ask that process."""
        relay = hub.relay
        assert relay is not None
        sock = relay.key(session.sid)
        try:
            if event == "join":
                token = msg.token or request.cookies.get(cookie_name(msg.table))
                if msg.code and not limiter.allow_guess(request.remote_addr or session.sid):
                    raise Refused("rate-limited", _("Too many codes tried; wait a minute."))
                answer = relay.request(msg.table, "join", sock=sock, token=None if msg.code else token,
                                       code=msg.code, name=msg.name, lang=msg.lang or session.language)
                if not answer.get("ok"):
                    raise Refused(answer.get("code", "refused"), answer.get("message", ""))
                leave(session, tell=session.table != msg.table)  # the host moved it between its own seats
                if msg.lang:
                    session.language = msg.lang
                session.table, session.seat, session.role = msg.table, answer["seat"], "seat"
                join_room(room_seat(msg.table, answer["seat"]))  # before the view: no emit falls between
                view = relay.request(msg.table, "view", sock=sock, lang=session.language)
                return {"ok": True, "role": "seat", "seat": answer["seat"], "token": answer["token"], **view}
            if event == "watch":
                leave(session)
                if msg.lang:
                    session.language = msg.lang
                session.table, session.role = msg.table, "remote"
                join_room(room_public(msg.table))
                view = relay.request(msg.table, "view", sock=None, lang=session.language)
                return {"ok": True, "role": "remote", **view}
            if session.table != msg.table or session.role not in ("seat", "remote") or (
                    event != "record" and session.role != "seat"):
                raise Refused("unauthorised", _("Join a seat at this table first."))
            args: dict[str, Any] = {
                "play": lambda: {"move": dict(msg.move)}, "amend": lambda: {"move": dict(msg.move)},
                "answer": lambda: {"choice": msg.choice}, "challenge": lambda: {"reason": msg.reason},
                "record": lambda: {"seq": msg.seq}}[event]()
            if event == "play" and args["move"].get("type") == "chance":
                raise Refused("unauthorised", _("Dice, coins and shuffles come from the referee, not from a phone."))
            answer = relay.request(msg.table, event, sock=sock if session.role == "seat" else None,
                                   lang=session.language, **args)
        except NoHost:
            raise Refused("unknown-table", _("There is no table {table} here.", table=msg.table)) from None
        except FutureTimeout:
            raise TimeoutError from None
        if not answer.get("ok") and "code" in answer:
            raise Refused(answer["code"], answer.get("message", ""))
        if not answer.get("ok") and event in ("play", "answer", "amend"):
            socketio.emit("rejected", {"table": msg.table, **answer}, to=session.sid)
        return answer

    def serve(table_id: str, op: str, args: dict) -> dict:
        """The hosting process's side: a request forwarded by another process (runs on a relay thread)."""
        set_language(str(args.get("lang") or DEFAULT))
        table = hub.table(table_id)
        if table is None:
            return _refused("unknown-table", _("There is no table {table} here.", table=table_id))
        referee = hub.referee(table.id)
        sock = args.get("sock")
        seat = next((s for s in table.seats if sock is not None and sock in s.sids), None)
        try:
            if op == "join":
                found = table.seat_for_code(args["code"]) if args.get("code") else (
                    table.seat_for_token(args["token"]) if args.get("token") else None)
                if found is None or not isinstance(sock, str):
                    return _refused("refused", _("This seat link is not valid (it may have been reissued); "
                                                 "scan the seat's QR code again."))
                for other in table.seats:
                    other.sids.discard(sock)
                found.sids.add(sock)
                if args.get("name"):
                    found.name = str(args["name"])
                    hub.store.set_seat_name(table.id, found.index, found.name, found.player_id, found.character_id)
                referee.call(referee.announce, "seats", {"info": table.info()})
                return {"ok": True, "seat": found.index, "token": found.token}
            if op == "leave":
                if seat is not None:
                    seat.sids.discard(sock)
                    referee.call(referee.announce, "seats", {"info": table.info()})
                return {"ok": True}
            if op == "view":
                return referee.run(referee.send_view, str(sock), seat.index if seat is not None else None)
            if op == "record":
                return referee.run(referee.record_at, int(args["seq"]), seat.index if seat is not None else None)
            if seat is None:  # never seated here, or kicked since
                return _refused("unauthorised", _("Join a seat at this table first."))
            if op in ("play", "amend"):
                move = dict(args["move"])
                if "seat" in move and move["seat"] != seat.index:
                    return _refused("unauthorised", _("You may only move for your own seat."))
                move["seat"] = seat.index
                if op == "play":
                    return referee.run(referee.play, seat.index, "phone", move)
                return referee.run(referee.amend, seat.index, move)
            if op == "answer":
                return referee.run(referee.answer, seat.index, str(args["choice"]))
            if op == "challenge":
                return referee.run(referee.challenge, seat.index, str(args["reason"]))
        except TimeoutError:
            return _refused("busy", _("The table did not answer in time; try again."))
        return _refused("invalid", _("Unknown request."))

    def drop(sid: str) -> None:
        """The hosting process kicked this process's socket ``sid`` from its seat."""
        session = hub.sessions.get(sid)
        if session is None or session.role != "seat" or session.table is None or session.seat is None:
            return
        table_id, seat_index = session.table, session.seat
        socketio.server.leave_room(sid, room_seat(table_id, seat_index), namespace="/")
        session.table, session.seat, session.role = None, None, "none"
        socketio.emit("kicked", {"table": table_id, "seat": seat_index}, to=sid)
        socketio.server.disconnect(sid, namespace="/")

    if hub.config.message_queue and hub.config.message_queue.startswith(("redis://", "rediss://", "unix://")):
        from companion.relay import Relay

        hub.relay = Relay(hub.config.message_queue, serve, drop)

    @socketio.on("connect")
    def on_connect(auth: Any = None) -> bool:
        hub.sessions[request.sid] = Session(request.sid)  # type: ignore[attr-defined]
        return True

    @socketio.on("disconnect")
    def on_disconnect(*_args: Any) -> None:
        sid = request.sid  # type: ignore[attr-defined]
        session = hub.sessions.pop(sid, None)
        limiter.forget(sid)
        if session and session.role == "seat" and session.table:
            table = hub.table(session.table)
            if table is not None and session.seat is not None:
                table.seat(session.seat).sids.discard(sid)
                referee = hub.referee(table.id)
                referee.call(referee.announce, "seats", {"info": table.info()})
            elif table is None and hub.relay is not None:
                hub.relay.tell(session.table, "leave", sock=hub.relay.key(sid))

    @handler("join", m.Join)
    def on_join(session: Session, msg: m.Join) -> dict:
        table = table_of(session, msg.table)
        token = msg.token or request.cookies.get(cookie_name(msg.table))
        seat = None
        if msg.code:
            if not limiter.allow_guess(request.remote_addr or session.sid):
                raise Refused("rate-limited", _("Too many codes tried; wait a minute."))
            seat = table.seat_for_code(msg.code)
        elif token:
            seat = table.seat_for_token(token)
        if seat is None:
            raise Refused("refused", _("This seat link is not valid (it may have been reissued); "
                                       "scan the seat's QR code again."))
        leave(session)
        if msg.lang:
            session.language = msg.lang
            set_language(msg.lang)  # this very answer (the view it joins with) is said in it too
        session.table, session.seat, session.role = table.id, seat.index, "seat"
        join_room(room_seat(table.id, seat.index))
        seat.sids.add(session.sid)
        referee = hub.referee(table.id)
        if msg.name:
            seat.name = msg.name
            hub.store.set_seat_name(table.id, seat.index, msg.name, seat.player_id, seat.character_id)
        referee.call(referee.announce, "seats", {"info": table.info()})
        answer = referee.run(referee.send_view, session.sid, seat.index)
        return {"ok": True, "role": "seat", "seat": seat.index, "token": seat.token, **answer}

    @handler("watch", m.Watch)
    def on_watch(session: Session, msg: m.Watch) -> dict:
        table = hub.table(msg.table)
        if table is None:
            raise Refused("unknown-table", _("There is no table {table} here.", table=msg.table))
        leave(session)
        if msg.lang:
            session.language = msg.lang
            set_language(msg.lang)  # this very answer (the view it joins with) is said in it too
        display = bool(msg.key) and hmac.compare_digest(msg.key.encode(), table.display_key.encode())
        session.table, session.role = table.id, "display" if display else "spectator"
        join_room(room_public(table.id))
        if display:
            join_room(room_display(table.id))
        referee = hub.referee(table.id)
        answer = referee.run(referee.send_view, session.sid, None)
        return {"ok": True, "role": session.role, **answer}

    @handler("play", m.Play)
    def on_play(session: Session, msg: m.Play) -> dict:
        table = table_of(session, msg.table)
        move = dict(msg.move)
        if move.get("type") == "chance":
            raise Refused("unauthorised", _("Dice, coins and shuffles come from the referee, not from a phone."))
        if session.role == "display" and session.table == table.id:
            # Manual entry on the table page: the move names its seat, checked like any other.
            if msg.seat is None:
                raise Refused("invalid", _("Say which seat this move is for."))
            seat, source = msg.seat, "host"
        else:
            seat, source = seated(session, table.id), "phone"
            if msg.seat is not None and msg.seat != seat:
                raise Refused("unauthorised", _("You may only move for your own seat."))
        if "seat" in move and move["seat"] != seat:
            raise Refused("unauthorised", _("You may only move for your own seat."))
        move["seat"] = seat
        referee = hub.referee(table.id)
        answer = referee.run(referee.play, seat, source, move)
        if not answer["ok"]:
            socketio.emit("rejected", {"table": table.id, **answer}, to=session.sid)
        return answer

    @handler("answer", m.Answer)
    def on_answer(session: Session, msg: m.Answer) -> dict:
        table = table_of(session, msg.table)
        seat = seated(session, table.id)
        referee = hub.referee(table.id)
        answer = referee.run(referee.answer, seat, msg.choice)
        if not answer["ok"]:
            socketio.emit("rejected", {"table": table.id, **answer}, to=session.sid)
        return answer

    @handler("amend", m.Amend)
    def on_amend(session: Session, msg: m.Amend) -> dict:
        table = table_of(session, msg.table)
        seat = seated(session, table.id)
        move = dict(msg.move)
        if "seat" in move and move["seat"] != seat:
            raise Refused("unauthorised", _("You may only change your own choices."))
        move["seat"] = seat
        referee = hub.referee(table.id)
        answer = referee.run(referee.amend, seat, move)
        if not answer["ok"]:
            socketio.emit("rejected", {"table": table.id, **answer}, to=session.sid)
        return answer

    @handler("challenge", m.Challenge)
    def on_challenge(session: Session, msg: m.Challenge) -> dict:
        table = table_of(session, msg.table)
        seat = seated(session, table.id)
        referee = hub.referee(table.id)
        return referee.run(referee.challenge, seat, msg.reason)

    @handler("record", m.RecordAt)
    def on_record(session: Session, msg: m.RecordAt) -> dict:
        table = table_of(session, msg.table)
        if session.table != table.id or session.role not in ("seat", "display", "spectator"):
            raise Refused("unauthorised", _("Join or watch this table first."))
        referee = hub.referee(table.id)
        return referee.run(referee.record_at, msg.seq, session.seat if session.role == "seat" else None)

    @handler("host_auth", m.HostAuth)
    def on_host_auth(session: Session, msg: m.HostAuth) -> dict:
        table = table_of(session, msg.table)
        if not limiter.allow_guess(request.remote_addr or session.sid):
            raise Refused("rate-limited", _("Too many PINs tried; wait a minute."))
        if not hmac.compare_digest(msg.pin.encode(), pin.encode()):
            raise Refused("refused", _("Wrong host PIN."))
        session.hosts.add(table.id)
        join_room(room_host(table.id))
        return {"ok": True, "role": "host", "table": table.id}

    @handler("host", m.HostAction)
    def on_host(session: Session, msg: m.HostAction) -> dict:
        table = table_of(session, msg.table)
        hosting(session, table.id)
        referee = hub.referee(table.id)
        if msg.action in ("kick", "reissue"):
            if table.readonly:
                raise Refused("finished", _("This game ended before the server restarted; its seats cannot change."))
            if msg.seat is None or not 0 <= msg.seat < len(table.seats):
                raise Refused("invalid", _("Say which seat."))
            return referee.run(_reissue, hub, socketio, table, msg.seat, msg.action == "kick")
        return referee.run(referee.host, msg.action, msg.seat, msg.to, msg.reason)

    @handler("profile", m.Profile)
    def on_profile(session: Session, msg: m.Profile) -> dict:
        table = table_of(session, msg.table)
        seat_index = seated(session, table.id)
        if table.readonly:
            raise Refused("finished", _("This game ended before the server restarted; its seats cannot change."))
        if not limiter.allow_guess(request.remote_addr or session.sid) and msg.pin:
            raise Refused("rate-limited", _("Too many PINs tried; wait a minute."))
        player = hub.store.player(msg.name, msg.pin)
        seat = table.seat(seat_index)
        seat.name, seat.player_id = player["name"], player["id"]
        out = {"ok": True, "player": player}
        if msg.character:
            # A returning fighter picks their sheet up again by its name (with their PIN); a new name is a new sheet.
            character = hub.store.character_named(player["id"], msg.character)
            seat.character_id = character["id"]
            out["character"] = character
        hub.store.set_seat_name(table.id, seat_index, seat.name, seat.player_id, seat.character_id)
        referee = hub.referee(table.id)
        points = hub.sheet_points(table)
        if points is not None:
            out["sheets"] = referee.run(referee.sheets, points)
        referee.call(referee.announce, "seats", {"info": table.info()})
        return out

    @socketio.on_error_default
    def on_error(exc: BaseException) -> dict:
        log.exception("socket handler failed")
        sid = getattr(request, "sid", None)
        return _error(socketio, sid, "unknown", "server", _("Something went wrong on the server; try again."))


def _reissue(hub: Hub, socketio: SocketIO, table, seat_index: int, kick: bool) -> dict:
    """New token and code for a seat (runs on the referee thread); a kick also drops its phones."""
    seat = table.seat(seat_index)
    seat.reissue()
    hub.store.set_token(table.id, seat.index, seat.token, seat.code)
    table.note("host", None, event="kick" if kick else "reissue", target=seat_index)
    if kick:
        for sid in list(seat.sids):
            seat.sids.discard(sid)
            if ":" in sid and hub.relay is not None:  # a socket of another process (companion.relay)
                hub.relay.drop(sid)
                continue
            session = hub.sessions.get(sid)
            if session is not None:
                session.table, session.seat, session.role = None, None, "none"
            socketio.emit("kicked", {"table": table.id, "seat": seat_index}, to=sid)
            socketio.server.disconnect(sid, namespace="/")
    socketio.emit("seat_links", {"table": table.id}, to=room_display(table.id))
    return {"ok": True, "seat": seat_index, "seq": table.seq}


def _refused(code: str, message: str) -> dict:
    return {"ok": False, "code": code, "message": message}


def _error(socketio: SocketIO, sid: str | None, event: str, code: str, message: str) -> dict:
    payload = {"ok": False, "event": event, "code": code, "message": message}
    if sid is not None:
        socketio.emit("error", payload, to=sid)
    return payload
