"""The per-table worker: the one thread that changes a table and tells everyone.

Phones, table pages, the camera and the boards put inputs on the table's
queue; the worker takes them one at a time, asks the engine (through
companion.tables, which records before anything is said), serves pending
chance from the provably fair generator (shown on the LED boards when there
are any, on screen always), and emits: each seat's room gets ``view(seat)``,
the public room ``view(None)``.  A rejection goes to the socket that sent the
move; an illegal *physical* move is announced to the whole table with its rule,
sentence and fix, and the game waits until the table is put back.

Callers get a :class:`concurrent.futures.Future` for each input, so a socket
handler can answer its client with the verdict (an acknowledgement) while the
order of changes stays the worker's alone.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol

from companion.i18n import DEFAULT, current, in_language, localize, translate_verdict
from companion.i18n import gettext as _
from companion.messages import Encoded, encode
from companion.tables import Result, Table
from engines.core import JSON, Verdict

log = logging.getLogger(__name__)
MAX_LISTED = 300
"""Legal moves sent to a phone at most (a picker beyond that is useless anyway)."""
SHOWN_CHANCE = ("die", "dice", "coin")
"""Chance whose values are public; a shuffle's values would tell where every card is."""


class Emitter(Protocol):
    def emit(self, event: str, data: JSON, to: str | list[str]) -> None: ...


def room_seat(table_id: str, seat: int) -> str:
    return f"{table_id}/seat/{seat}"


def room_public(table_id: str) -> str:
    return f"{table_id}/public"


def room_display(table_id: str) -> str:
    """Table pages opened with the display key (they may show the seat QR codes)."""
    return f"{table_id}/display"


def room_host(table_id: str) -> str:
    return f"{table_id}/host"


class Referee:
    def __init__(self, table: Table, emitter: Emitter, devices: Any = None,
                 on_over: Callable[[Table], None] | None = None):
        self.table = table
        self.emitter = emitter
        self.devices = devices
        self.on_over = on_over
        self.on_reopen: Callable[[Table], None] | None = None
        """Called when a rollback takes a finished game back into play (the hub forgets its match)."""
        self._moves_json: dict[Any, JSON] = {}
        """Move -> its JSON, for :meth:`moves_of` (moves are frozen dataclasses; equal moves, equal JSON)."""
        self.redactions = 0
        """How many messages needed :meth:`guarded` (an engine leaking into a view or an event)."""
        self.languages: dict[int | None, str] = {}
        """The language each seat's phone (None: the table page) last joined in; its messages are said in it."""
        self.questions: dict[int | None, tuple[int, JSON]] = {}
        """Each seat's open question (None: the whole table's) and the entry it was asked at: a phone that
        reloads or reconnects is asked again (send_view) until it answers or the game moves on."""
        from engines import registry

        try:
            self.adapter: Any = registry.adapter(table.game.id)
            """The game's table adapter (engines/<game>/table.py), found once: every publish asks it."""
            self.no_adapter = ""
        except ValueError as exc:  # a game that cannot be played on a mat: manual entry only
            self.adapter, self.no_adapter = None, str(exc)
        self._queue: queue.Queue[tuple[Callable[..., Any], tuple, dict, Future] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name=f"referee-{table.id}", daemon=True)
        self._thread.start()

    # ---- the queue ----------------------------------------------------------
    def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
        """Run ``fn(*args, **kwargs)`` on the worker; its return value resolves the future."""
        fut: Future = Future()
        # In the caller's language: a socket's answer (a rejection) comes back in the language it asked in.
        self._queue.put((in_language(current(), fn), args, kwargs, fut))
        return fut

    def run(self, fn: Callable[..., Any], *args: Any, timeout: float = 15.0, **kwargs: Any) -> Any:
        return self.call(fn, *args, **kwargs).result(timeout)

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join(5)

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            fn, args, kwargs, fut = job
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                fut.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # the worker must outlive any one bad input
                log.exception("table %s: input failed", self.table.id)
                fut.set_exception(exc)

    # ---- emitting -----------------------------------------------------------
    def emit(self, event: str, data: JSON, to: str | list[str]) -> None:
        self.emitter.emit(event, data, to)

    def guarded(self, seat: int | None, data: Any) -> Any:
        """``data`` without any string the engine says ``seat`` must not know (a last line of defence).

        Views and events come from the engine and should never need this; when
        they do, the engine has a bug, so it is logged, counted, and the reader
        gets ``"hidden"`` instead of the secret.
        """
        hidden = self.table.state.hidden_from(seat)
        if not hidden or not _mentions(data, hidden):
            return data
        self.redactions += 1
        leaked = sorted(hidden & _strings(data))
        (log.warning if self.redactions == 1 else log.debug)(
            "table %s (%s): redacted %s, hidden from %s, from a view or event (the engine's bug; "
            "further redactions at this table are logged at debug level)", self.table.id, self.table.game.id,
            ", ".join(leaked), "the public" if seat is None else f"seat {seat + 1}")
        return _redact(data, hidden)

    def encoded(self, seat: int | None, head: JSON, body: JSON) -> Encoded:
        """``{**head, **body}`` said in ``seat``'s language as JSON text, encoded once: searched for
        ``seat``'s hidden strings and sent as is.

        The fast path looks for a hidden string among the pieces of the whole
        text (head included: the table's info may name a card only by chance);
        only a hit walks ``body`` exactly, as :meth:`guarded` does.
        """
        text = encode(self.said({**head, **body}, seat))
        hidden = self.table.state.hidden_from(seat)
        if not hidden or (not _ESCAPED.search("".join(hidden)) and hidden.isdisjoint(text.split('"'))):
            return text
        safe = self.guarded(seat, body)
        return text if safe is body else encode(self.said({**head, **safe}, seat))

    def publish(self, events: list[JSON] | None = None, applied_at: float | None = None) -> None:
        """Every seat its own view, the public room the table's view."""
        t = self.table
        stamp = applied_at if applied_at is not None else time.time()
        info = t.info()
        base = {"table": t.id, "seq": t.seq, "t": stamp, "info": info}
        events = events or []
        # Every payload first, then the emits in one burst: an emit wakes its clients' writer threads,
        # and computing the next view while they wait for the GIL would hand it to them mid-publish
        # (each handover costs up to the interpreter's switch interval), delaying the last seat most.
        out = []
        for seat in t.seats:
            body = {"events": events, "view": t.state.view(seat.index), "moves": self.moves_of(seat.index)}
            pick = self.pick_of(seat.index)
            if pick is not None:
                body["pick"] = pick
            out.append((self.encoded(seat.index, {**base, "seat": seat.index}, body), room_seat(t.id, seat.index)))
        body = {"events": events, "view": t.state.view(None)}
        out.append((self.encoded(None, {**base, "seat": None}, body), room_public(t.id)))
        for payload, room in out:
            self.emit("view", payload, room)
        self.show_board()

    def show_board(self) -> None:
        """Boards that mirror the position (Two Freakin' Swords' LED coins) show it after every change."""
        if self.devices is None or self.adapter is None:
            return
        lights = self.adapter.coin_lights(self.table.state)
        if lights is not None:
            self.devices.show_coins(lights)

    def announce(self, event: str, data: JSON) -> None:
        """To everyone at the table: every seat and the public room."""
        t = self.table
        payload = {"table": t.id, "seq": t.seq, **data}
        # One emit to every room of a language: the message is encoded once per language, and a socket in
        # two rooms of one language gets it once.
        rooms: dict[str, list[str]] = {}
        for seat, room in [*((s.index, room_seat(t.id, s.index)) for s in t.seats), (None, room_public(t.id))]:
            rooms.setdefault(self.languages.get(seat, DEFAULT), []).append(room)
        for language, group in rooms.items():
            self.emit(event, localize(payload, language), group)

    def said(self, payload: JSON, seat: int | None) -> JSON:
        """``payload`` with the engine's sentences in the language ``seat`` (None: the table page) reads."""
        return localize(payload, self.languages.get(seat, DEFAULT))

    def moves_of(self, seat: int) -> list[JSON] | None:
        """The seat's legal moves now, for a phone's picker: [] when it may not act, None when they
        cannot be listed (hidden cards of a physical deal), at most MAX_LISTED."""
        state = self.table.state
        if self.table.paused is not None or seat not in state.to_act():
            return []
        moves = state.legal_moves(seat)
        if moves is None:
            # A physical deal: the hands are unknown, so the engine cannot list every move; the game's table
            # adapter lists what a phone enters (draw, end the turn, pass, confirm ...), the camera the rest.
            moves = self.adapter.manual_moves(state, seat) if self.adapter is not None else None
        return None if moves is None else [self._move_json(m) for m in moves[:MAX_LISTED]]

    def pick_of(self, seat: int) -> JSON | None:
        """A move the phone builds by picking cards (a physical deal's sealed cards: they cannot be listed
        without naming, or leaving out, another seat's), from the game's table adapter (``free_pick``)."""
        if self.table.paused is not None or self.adapter is None:
            return None
        pick = self.adapter.free_pick(self.table.state, seat)
        return dict(pick) if pick is not None else None

    def _move_json(self, move: Any) -> JSON:
        """``move.to_json()``, remembered: a seat is offered mostly the same moves publish after publish,
        and turning hundreds of them into JSON each time was the largest cost of a publish."""
        try:
            return self._moves_json[move]
        except KeyError:
            pass
        except TypeError:  # an unhashable move: nothing to remember it by
            return move.to_json()
        if len(self._moves_json) >= 4 * MAX_LISTED * max(1, len(self.table.seats)):
            self._moves_json.clear()
        out = self._moves_json[move] = move.to_json()
        return out

    def send_view(self, sid: str, seat: int | None) -> JSON:
        """One socket's full view now (a join or rejoin), as the answer to it."""
        t = self.table
        self.languages[seat] = current()  # the joining socket's language (see call)
        body: JSON = {"view": t.state.view(seat)}
        if seat is not None:
            body["moves"] = self.moves_of(seat)
            pick = self.pick_of(seat)
            if pick is not None:
                body["pick"] = pick
        asked = self.questions.get(seat)
        if asked is not None and t.paused is None and self._still_open(asked[0]):
            body["question"] = {"table": t.id, **asked[1]}
        return localize({"table": t.id, "seq": t.seq, "t": time.time(), "seat": seat, "events": [],
                         "info": t.info(), **self.guarded(seat, body)})

    def _still_open(self, asked_at: int) -> bool:
        """Has the game stayed where a question was asked (entry ``asked_at``)?  Notes (a pause) and
        refused moves (a wrong answer) do not move it on; any other entry does."""
        return all(e.get("kind") == "note" or (e.get("kind") == "move" and not (e.get("verdict") or {}).get("ok"))
                   for e in self.table.chain.entries[asked_at:])

    # ---- inputs (each runs on the worker thread via call/run) ---------------
    def play(self, seat: int | None, source: str, move: JSON, evidence: str | None = None) -> JSON:
        """A move from a phone, a table page (manual entry), the camera or a script."""
        t = self.table
        if t.paused is not None:
            return _refusal("TC-PAUSED", _("The table is paused for a dispute; wait for the host."))
        result = t.submit(seat, source, move, evidence=evidence)
        self.after(result, source)
        return _answer(result)

    def amend(self, seat: int, move: JSON) -> JSON:
        t = self.table
        if t.paused is not None:
            return _refusal("TC-PAUSED", _("The table is paused for a dispute; wait for the host."))
        result = t.amend(seat, move)
        if result.ok:
            self.publish(result.events)
            self.serve_chance()
        return _answer(result)

    def after(self, result: Result, source: str) -> None:
        if not result.ok:
            if source == "camera":
                # Like an electronic chess board: say what to put back, wait for it.
                self.announce("illegal", {"seq": result.entries[-1]["seq"] if result.entries else None,
                                          "verdict": result.verdict.to_json()})
            return
        self.publish(result.events, applied_at=result.entries[-1]["t"] if result.entries else None)
        self.serve_chance()

    def serve_chance(self) -> None:
        """Draw every pending die, coin or shuffle (unless the table is paused), then finish if over."""
        t = self.table
        while t.paused is None and not t.closed and t.state.pending_chance() is not None:
            request = t.state.pending_chance()
            shown = False
            values = None
            if self.devices is not None and request is not None:
                # Draw first, then show: the board displays the server's fair values.
                drawn = t.draw_chance("device")
                if drawn is None:
                    break
                result, request = drawn
                values = result.entries[-1]["move"]["values"]
                shown = self.devices.show(request, values)
            else:
                drawn = t.draw_chance("referee")
                if drawn is None:
                    break
                result, request = drawn
                values = result.entries[-1]["move"]["values"]
            if not result.ok:  # an engine that refuses its own request: say so, do not loop
                log.error("table %s: chance refused: %s", t.id, result.verdict)
                break
            events = list(result.events)
            if request.kind in SHOWN_CHANCE:
                events.insert(0, {"type": "chance-shown", "kind": request.kind, "seat": request.seat,
                                  "label": request.label, "values": list(values), "on_board": shown})
            self.publish(events, applied_at=result.entries[-1]["t"])
        self.finish_if_over()

    def finish_if_over(self) -> None:
        t = self.table
        if not t.over or t.revealed:
            return
        t.reveal()
        if self.on_over is not None:
            self.on_over(t)
        self.announce("over", {"seq": t.seq, "outcome": t.state.outcome.to_json() if t.state.outcome else None,
                               "seed_commitment": t.commitment})

    def challenge(self, seat: int | None, reason: str) -> JSON:
        """Any seat may challenge: the table pauses and everyone may step through the record."""
        t = self.table
        if t.readonly:
            return _readonly()
        if t.paused is not None:
            return self._refused(seat, "challenge", _refusal("TC-PAUSED", _("A dispute is already open.")), reason=reason)
        entry = t.note("phone", seat, event="pause", reason=reason, challenge=True)
        t.paused = {"by": seat, "reason": reason, "seq": entry["seq"]}
        self.announce("paused", {"paused": t.paused, "seq": t.seq})
        self.publish()
        return {"ok": True, "seq": t.seq}

    def host(self, action: str, seat: int | None = None, to: int | None = None, reason: str = "") -> JSON:
        """The host's controls: pause, resume, uphold (close a dispute as played), roll back, kick, reissue."""
        t = self.table
        if t.readonly:
            return _readonly()
        if action == "pause":
            if t.paused is not None:
                return _refusal("TC-PAUSED", _("The table is already paused."))
            entry = t.note("host", None, event="pause", reason=reason)
            t.paused = {"by": None, "reason": reason, "seq": entry["seq"]}
            self.announce("paused", {"paused": t.paused, "seq": t.seq})
        elif action in ("resume", "uphold"):
            if t.paused is None:
                return _refusal("TC-HOST", _("The table is not paused."))
            t.note("host", None, event="resume", ruling=action, reason=reason)
            t.paused = None
            self.announce("resumed", {"ruling": action, "seq": t.seq})
        elif action == "rollback":
            if to is None:
                return _refusal("TC-HOST", _("Say which entry to return to."))
            was_over = t.over
            result = t.rollback(to, reason=reason)
            if not result.ok:
                return _answer(result)
            if was_over and not t.over and self.on_reopen is not None:
                self.on_reopen(t)  # the finished game plays on: its match result no longer stands
            if t.paused is not None:
                t.note("host", None, event="resume", ruling="rollback", reason=reason)
                t.paused = None
            self.announce("resumed", {"ruling": "rollback", "to": to, "seq": t.seq})
        elif action == "close":
            t.note("host", None, event="closed", reason=reason)
            t.close()
        else:
            return _refusal("TC-HOST", _("Unknown host action."))
        self.publish()
        if t.paused is None:
            self.serve_chance()
        return {"ok": True, "seq": t.seq}

    def record_at(self, seq: int, seat: int | None) -> JSON:
        """The dispute viewer: the state after entry ``seq`` as this reader may see it, and the entry."""
        t = self.table
        if seq > t.seq:
            return _refusal("TC-RECORD", _("There is no entry {seq} yet.", seq=seq))
        state = t.state_at(seq)
        entry = t.chain.entries[seq - 1] if seq >= 1 else None
        shown = None
        if entry is not None:
            shown = {k: entry.get(k) for k in ("seq", "t", "kind", "seat", "source", "verdict", "evidence")}
            move = entry.get("move") or {}
            # The move itself may name a hidden card: only its maker sees it in full.
            # Chance values stay hidden until the game is over (a shuffle's would place every card).
            own = seat is not None and entry.get("seat") == seat
            shown["move"] = move if own or (t.over and t.revealed) else (
                {"type": move.get("type"), "seat": move.get("seat")} if move else None)
        view = state.view(seat)
        hidden = state.hidden_from(seat)
        if _mentions(view, hidden):
            self.redactions += 1
            view = _redact(view, hidden)
        return {"ok": True, "table": t.id, "seq": seq, "last": t.seq, "entry": shown, "view": view}

    def sheets(self, points: list[int]) -> JSON:
        """The fighters' character sheets set their hit points (TFS-4.1): the game starts again under the
        sheets' points while no seat has played; afterwards the points wait for the next fight."""
        t = self.table
        if list(t.options.get("points") or [0] * len(t.seats)) == list(points):
            return {"ok": True}
        result = t.set_options({**t.options, "points": list(points)}, reason="character sheets")
        if result.ok:
            self.publish()
        return _answer(result)

    def _refused(self, seat: int | None, what: str, refusal: JSON, **data: Any) -> JSON:
        """A refused input that is no engine move is recorded too (as a note), before the refusal is sent:
        every input, accepted or rejected, is in the record that settles disputes."""
        if not self.table.readonly and not self.table.closed:
            self.table.note("phone", seat, event="refused", input=what, verdict=refusal["verdict"], **data)
        return refusal

    def answer(self, seat: int, choice: str) -> JSON:
        """A seat's answer to a question the table adapter asked (which card was sealed, whether to
        declare): the adapter says which move it stands for, and that move is played like any other."""
        t = self.table
        if self.adapter is None:
            return self._refused(seat, "answer", _refusal("TC-ANSWER", _("This table asks no questions.")),
                                 choice=choice)
        move = self.adapter.answer(t.state, seat, choice)
        if move is None:
            return self._refused(seat, "answer", _refusal("TC-ANSWER", _("That answer is not one of the choices offered.")),
                                 choice=choice)
        out = self.play(seat, "phone", move.to_json())
        if out["ok"]:
            self.questions.pop(seat, None)
        return out

    def button(self, data: JSON) -> JSON | None:
        """A board's button (companion.buttons): its move played like a phone's, or the refusal (rule id,
        sentence) sent to the seat as ``rejected``; None when the press means nothing at this table."""
        from companion.buttons import press

        pressed = press(self.table, data, getattr(self, "seen", None))
        if pressed is None:
            return None
        answer = (self.play(pressed.seat, "device", pressed.move.to_json()) if pressed.move is not None
                  else {"ok": False, "verdict": translate_verdict(pressed.refusal.to_json())})
        if not answer["ok"] and pressed.seat is not None:
            self.emit("rejected", self.said({"table": self.table.id, "seat": pressed.seat, "by": "button", **answer},
                                            pressed.seat), room_seat(self.table.id, pressed.seat))
        return answer

    def physical(self, changes: list, snapshot: Any, evidence: str | None) -> JSON:
        """Zone changes the camera saw (companion.camera) -> the game's adapter -> engine moves."""
        t = self.table
        if self.adapter is None:
            return _refusal("TC-CAMERA", self.no_adapter)
        adapter = self.adapter
        self.seen = snapshot  # the camera's last table (a board's button asks which card was just put down)
        outcome = adapter.interpret(t.state, changes, snapshot)
        if outcome.mismatch is not None:
            t.note("camera", None, event="mismatch", verdict=outcome.mismatch.to_json(), evidence=evidence)
            self.announce("illegal", {"seq": t.seq, "verdict": outcome.mismatch.to_json()})
            return _answer(Result(outcome.mismatch))
        asked: dict[int | None, JSON] = {}
        for question in outcome.questions:
            payload = {"prompt": question.prompt, "choices": list(question.choices), "seat": question.seat}
            asked[question.seat] = payload
        answers = []
        for move in outcome.moves:
            answers.append(self.play(getattr(move, "seat", None), "camera", move.to_json(), evidence))
            if not answers[-1]["ok"]:
                break
        # Asked after the moves' views, at the entry it stays open at: a phone drops it at a later view, and
        # one that reloads or reconnects is asked again (send_view) until it answers or the game moves on.
        for seat, payload in asked.items():
            payload["seq"] = t.seq
            self.questions[seat] = (t.seq, payload)
            if seat is None:
                self.announce("question", payload)
            else:
                self.emit("question", self.said({"table": t.id, **payload}, seat), room_seat(t.id, seat))
        return answers[-1] if answers else {"ok": True, "seq": t.seq}


def _strings(data: Any) -> set[str]:
    """Every string in a JSON value, keys included (iterative: views are walked on every emit)."""
    out: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            out.add(item)
        elif kind is dict:
            out.update(k for k in item if type(k) is str)
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            stack.extend(item)
    return out


_ESCAPED = re.compile(r'["\\\x00-\x1f]')


def _mentions(data: Any, hidden: frozenset[str]) -> bool:
    """Does any string of ``data`` (a key or a value) equal one of ``hidden``?

    Fast path in C: split the JSON text at its quotes.  Every string without a
    quote, backslash or control character is then one of the pieces, so no
    common piece means no leak; a common piece (or an id JSON would escape) is
    confirmed by walking the data.
    """
    if not _ESCAPED.search("".join(hidden)) and hidden.isdisjoint(
            json.dumps(data, ensure_ascii=False).split('"')):
        return False
    return not hidden.isdisjoint(_strings(data))


def _redact(data: Any, hidden: frozenset[str]) -> Any:
    if isinstance(data, str):
        return "hidden" if data in hidden else data
    if isinstance(data, dict):
        return {("hidden" if k in hidden else k): _redact(v, hidden) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_redact(v, hidden) for v in data]
    return data


def _answer(result: Result) -> JSON:
    out: JSON = {"ok": result.ok, "verdict": translate_verdict(result.verdict.to_json())}
    if result.entries:
        out["seq"] = result.entries[-1]["seq"]
    return out


def _readonly() -> JSON:
    return _refusal("TC-FINISHED", _("This game ended before the server restarted: its record can be read, "
                                     "but nothing changes it. Open a new table to play again."))


def _refusal(rule: str, message: str) -> JSON:
    return {"ok": False, "verdict": Verdict.reject(rule, message).to_json()}
