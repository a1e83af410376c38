"""A table: one game in progress, its seats, its hash-chained record.

The table owns the only copy of the engine state on this server and changes it
in one way: an input is checked by the engine, appended to the record and
committed to the store, and only then is anything told to anyone (the referee
emits after these methods return).  Every method here runs on the table's
referee thread (companion.referee), so none of them locks.

Restoring after a crash walks the stored record with the same
:class:`companion.record.Position` that :func:`companion.record.replay` uses,
so the server and ``companion replay`` always agree.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.record import Applied, Chain, Position, Record, make_header, replay
from companion.seats import Seat, new_code, new_token
from companion.store import Store
from engines.core import JSON, PHYSICAL, ChanceMove, Game, IllegalMove, State, Verdict, to_plain


def new_table_id() -> str:
    """Short enough to read in a URL, long enough not to be guessed for a spectator link."""
    return secrets.token_urlsafe(9)


@dataclass
class Result:
    """What one input did: the entries appended (in order) and whether the views changed."""

    verdict: Verdict
    entries: list[JSON] = field(default_factory=list)
    events: list[JSON] = field(default_factory=list)
    changed: bool = False

    @property
    def ok(self) -> bool:
        return self.verdict.ok


class Table:
    def __init__(self, table_id: str, game: Game, state: State, chain: Chain, seats: list[Seat], store: Store,
                 display_key: str, fair: Any, demo: bool = False):
        self.id = table_id
        self.game = game
        self.position = Position(chain.header, game, state)
        """The live state and the moves applied to it (the same walk as companion.record.replay)."""
        self.chain = chain
        self.seats = seats
        self.store = store
        self.display_key = display_key
        self.fair = fair
        self.demo = demo
        self.paused: JSON | None = None
        """``{"by": seat|None, "reason": str, "seq": int}`` while a dispute holds the table."""
        self.closed = False
        self.readonly = False
        """A finished game reopened after a restart: viewable (score, record, dispute viewer), never changed."""

    # ---- creating and restoring ------------------------------------------
    @classmethod
    def create(cls, store: Store, game: Game, seats: int, variant: str | None = None, deal: int | str | None = None,
               options: Mapping[str, Any] | None = None, demo: bool = False, table_id: str | None = None) -> Table:
        from companion.fairness import FairRandom

        variant = variant or game.variants[0]
        if deal is None:
            deal = secrets.randbits(31)
        game.validate_setup(seats, variant, deal)
        state = game.new(seats, variant, deal, dict(options or {}))
        table_id = table_id or new_table_id()
        fair = FairRandom(table_id=table_id)
        header = make_header(game.id, variant, seats, deal, options=options, seed_commitment=fair.commitment,
                             table_id=table_id, demo=demo)
        seat_list = [Seat(i, new_token(), new_code()) for i in range(seats)]
        display_key = new_token()
        store.create_table(table_id, header, fair.seed.hex(), display_key,
                           [(s.index, s.token, s.code) for s in seat_list])
        return cls(table_id, game, state, Chain(header), seat_list, store, display_key, fair, demo)

    @classmethod
    def restore(cls, store: Store, row: Mapping[str, Any], game: Game) -> Table:
        """Rebuild an open table from its stored record: same state, same seats, same fairness nonce."""
        from companion.fairness import FairRandom
        from companion.record import new_state

        header = row["header"]
        entries = store.entries(row["id"])
        chain = Chain(header)
        for entry in entries:  # re-chain to prove nothing was altered in the file
            expected_prev = chain.last_hash
            if entry.get("prev_hash") != expected_prev or entry["seq"] != len(chain.entries) + 1:
                raise ValueError(f"table {row['id']}: the stored record is broken at seq {entry.get('seq')}")
            chain.entries.append(entry)
        state = new_state(header, game)
        nonce = 0
        for entry in entries:
            data = entry.get("data") or {}
            if isinstance(data.get("nonce"), int):
                nonce = max(nonce, data["nonce"] + 1)
        fair = FairRandom(bytes.fromhex(row["fair_seed"]), row["id"], nonce) if row.get("fair_seed") else None
        seats = [Seat(s["seat"], s["token"], s["code"], s["name"], s["player_id"], s.get("character_id"))
                 for s in store.seats(row["id"])]
        table = cls(row["id"], game, state, chain, seats, store, row["display_key"], fair, bool(header.get("demo")))
        table._replay_into_state(entries)
        return table

    def _replay_into_state(self, entries: list[JSON]) -> None:
        """Walk the stored record as companion.record.replay does, keeping what the live table needs (paused, closed)."""
        for entry in entries:
            if self.position.follow(entry) or entry["kind"] != "note":
                continue
            data = entry.get("data") or {}
            if data.get("event") == "pause":
                self.paused = {"by": entry.get("seat"), "reason": data.get("reason", ""), "seq": entry["seq"]}
            elif data.get("event") == "resume":
                self.paused = None
            elif data.get("event") == "closed":
                self.closed = True

    # ---- reading ----------------------------------------------------------
    @property
    def state(self) -> State:
        return self.position.state

    @property
    def applied(self) -> list[Applied]:
        return self.position.applied

    @property
    def seq(self) -> int:
        return len(self.chain.entries)

    @property
    def over(self) -> bool:
        return self.state.outcome is not None

    @property
    def revealed(self) -> bool:
        """Whether the seed now in use was disclosed (a rollback after a reveal commits to a new one)."""
        for entry in reversed(self.chain.entries):
            if entry["kind"] == "reveal":
                return True
            if entry["kind"] == "rollback" and "seed_commitment" in (entry.get("data") or {}):
                return False
        return False

    @property
    def commitment(self) -> str | None:
        """The SHA-256 of the seed now in use: the header's, or the latest rollback's that replaced it."""
        for entry in reversed(self.chain.entries):
            if entry["kind"] == "rollback" and "seed_commitment" in (entry.get("data") or {}):
                return entry["data"]["seed_commitment"]
        return self.chain.header.get("seed_commitment")

    def seat(self, index: int) -> Seat:
        return self.seats[index]

    def seat_for_token(self, token: str) -> Seat | None:
        for seat in self.seats:
            if seat.matches(token):
                return seat
        return None

    def seat_for_code(self, code: str) -> Seat | None:
        for seat in self.seats:
            if seat.matches_code(code):
                return seat
        return None

    def info(self) -> JSON:
        """What anyone at the table may know about the table itself (never a token)."""
        return {
            "table": self.id, "game": self.game.id, "title": self.game.title, "variant": self.state.variant,
            "seats": [s.public() for s in self.seats], "seq": self.seq, "paused": self.paused,
            "demo": self.demo, "over": self.over, "seed_commitment": self.commitment,
            "readonly": self.readonly,
        }

    def record(self, upto: int | None = None) -> Record:
        entries = self.chain.entries if upto is None else self.chain.entries[:upto]
        return Record(self.chain.header, list(entries))

    def state_at(self, seq: int) -> State:
        """The state after entry ``seq``, rebuilt by companion.record.replay (the dispute viewer)."""
        state, _ = replay(self.record(), at=seq, game=self.game)
        return state

    # ---- changing ---------------------------------------------------------
    def _append(self, fair_seed: str | None = None, **kwargs: Any) -> JSON:
        """Chain and commit one entry; if the store refuses, the chain forgets it too."""
        entry = self.chain.append(**kwargs)
        try:
            self.store.append(self.id, entry, fair_seed)
        except Exception:
            self.chain.entries.pop()
            raise
        return entry

    def submit(self, seat: int | None, source: str, move: JSON, evidence: str | None = None,
               data: JSON | None = None) -> Result:
        """Check ``move`` with the engine, record it (accepted or rejected), apply it if legal."""
        if self.closed:
            return Result(Verdict.reject("TC-CLOSED", "this table is closed"))
        if self.readonly:
            return Result(READONLY)
        try:
            events = self.state.apply(move)
        except IllegalMove as exc:
            entry = self._append(seat=seat, source=source, move=to_plain(move), verdict=exc.verdict,
                                 evidence=evidence, data=data)
            return Result(exc.verdict, [entry])
        try:
            entry = self._append(seat=seat, source=source, move=to_plain(move), verdict=Verdict.accept(),
                                 evidence=evidence, data=data)
        except Exception:
            self.state.undo()  # not recorded means not played
            raise
        self.applied.append(Applied(entry["seq"], seat, entry["move"]))
        return Result(Verdict.accept(), [entry], [e.to_json() for e in events], changed=True)

    def draw_chance(self, source: str = "referee", client_seed: str = "") -> tuple[Result, Any] | None:
        """Serve a pending die, coin or shuffle from the provably fair generator."""
        request = self.state.pending_chance()
        if request is None or self.fair is None:
            return None
        values, proof = self.fair.draw(request.ranges, client_seed)
        result = self.submit(None, source, ChanceMove(tuple(values)).to_json(), data=proof)
        return result, request

    def reveal(self) -> JSON | None:
        """When the game is over: disclose the fairness seed, once."""
        if not self.over or self.revealed or self.fair is None:
            return None
        return self._append(seat=None, source="referee", kind="reveal", data={"seed": self.fair.reveal()})

    def note(self, source: str, seat: int | None, **data: Any) -> JSON:
        return self._append(seat=seat, source=source, kind="note", data=data)

    def rollback(self, to: int, source: str = "host", seat: int | None = None, **data: Any) -> Result:
        """Return to the state after entry ``to``; the rollback is itself an entry."""
        if self.readonly:
            return Result(READONLY)
        if not 0 <= to <= self.seq:
            return Result(Verdict.reject("TC-ROLLBACK", f"there is no entry {to} to return to",
                                         f"choose a number from 0 to {self.seq}"))
        if to < self.options_seq:
            return Result(Verdict.reject("TC-ROLLBACK", f"entry {to} is before the fighters' sheets were set",
                                         f"choose a number from {self.options_seq} to {self.seq}"))
        fresh = None
        if self.revealed and self.fair is not None:
            # The seed behind every die is public now: playing on with it would make the dice foreseeable.
            # Commit to a fresh secret seed in this very entry (docs/fairness.md, "Rollback after the
            # reveal"); nonces go on counting, so no proof in the record is ever drawn twice.
            from companion.fairness import FairRandom

            fresh = FairRandom(table_id=self.fair.table_id, nonce=self.fair.nonce)
            data = {**data, "seed_commitment": fresh.commitment}
        entry = self._append(seat=seat, source=source, kind="rollback", data={"to": to, **data},
                             fair_seed=fresh.seed.hex() if fresh is not None else None)
        if fresh is not None:
            self.fair = fresh
        self.position.undo_to(to)
        return Result(Verdict.accept(), [entry], changed=True)

    # ---- options set before play begins --------------------------------------
    @property
    def options(self) -> JSON:
        """The options the game runs under: the header's, or those of the latest ``options`` entry."""
        for entry in reversed(self.chain.entries):
            if entry["kind"] == "options":
                return dict(entry["data"]["options"])
        return dict(self.chain.header.get("options") or {})

    @property
    def options_seq(self) -> int:
        """The seq of the latest ``options`` entry (0: none); nothing may be rolled back before it."""
        return next((e["seq"] for e in reversed(self.chain.entries) if e["kind"] == "options"), 0)

    def started(self) -> bool:
        """Whether any seat has played (chance alone, such as the opening shuffle, is no start)."""
        return any(a.seat is not None for a in self.applied)

    def set_options(self, options: JSON, source: str = "referee", **data: Any) -> Result:
        """Start the game again under ``options`` before any seat has played (a fighter's character sheet
        sets their hit points, TFS-4.1); the change is an ``options`` entry, replayed like the rest."""
        if self.readonly:
            return Result(READONLY)
        if self.started():
            return Result(Verdict.reject("TC-OPTIONS", "the game has begun: its options can no longer change"))
        try:
            self.game.new(len(self.seats), self.state.variant, self.chain.header["deal"], dict(options))
        except ValueError as exc:
            return Result(Verdict.reject("TC-OPTIONS", str(exc)))
        entry = self._append(seat=None, source=source, kind="options", data={**data, "options": dict(options)})
        self.position.restart_with(options)
        return Result(Verdict.accept(), [entry], changed=True)

    def amend(self, seat: int, move: JSON) -> Result:
        """Change this seat's latest sealed commitment (a mis-tapped card) while it is still sealed.

        Still sealed means: nothing anyone else sees depends on it.  The
        replacement and every later move are tried in its place; if the public
        view or any other seat's view would differ, it was already revealed and
        the change is refused.  An accepted change is recorded the way replay
        understands: a rollback to just before the commitment, the new move,
        and the later moves again.
        """
        if self.readonly:
            return Result(READONLY)
        mtype = move.get("type")
        index = next((i for i in range(len(self.applied) - 1, -1, -1)
                      if self.applied[i].seat == seat and self.applied[i].move.get("type") == mtype), None)
        if index is None:
            return Result(Verdict.reject("TC-AMEND", f"you have no {mtype!r} move to change",
                                         "make the move instead"))
        target, tail = self.applied[index], self.applied[index + 1:]
        if any(later.seat is None for later in tail):
            # A die or shuffle came after it: the game moved on, and a chance draw is never redrawn.
            return Result(Verdict.reject("TC-SEALED", "the game has moved on since that choice, so it can no longer change"))
        others = [None, *(s.index for s in self.seats if s.index != seat)]
        before = {s: self.state.view(s) for s in others}
        self.position.undo_to(target.seq - 1)
        tried = 0
        verdict = Verdict.accept()
        try:
            self.state.apply(move)
            tried = 1
            for later in tail:
                self.state.apply(later.move)
                tried += 1
        except IllegalMove as exc:
            verdict = exc.verdict
        if verdict.ok and any(self.state.view(s) != before[s] for s in others):
            verdict = Verdict.reject("TC-SEALED", "that choice was already revealed, so it can no longer change")
        if not verdict.ok or to_plain(move) == target.move:
            for _ in range(tried):
                self.state.undo()
            for original in (target, *tail):
                self.state.apply(original.move)
            self.applied[index:] = [target, *tail]
            if verdict.ok:
                verdict = Verdict.reject("TC-AMEND", "that is the choice you already made")
            return Result(verdict)
        # Record: rollback, the new move, the later moves again (replay applies exactly these).
        for _ in range(tried):
            self.state.undo()
        entries = [self._append(seat=seat, source="phone", kind="rollback",
                                data={"to": target.seq - 1, "reason": "amend", "replaces": target.seq})]
        del self.applied[index:]
        result = self.submit(seat, "phone", move)
        entries += result.entries
        for later in tail:
            redo = self.submit(later.seat, "referee", later.move, data={"reapplied": later.seq})
            entries += redo.entries
        return Result(Verdict.accept(), entries, result.events, changed=True)

    def close(self) -> None:
        self.closed = True
        self.store.set_status(self.id, "closed")


READONLY = Verdict.reject("TC-FINISHED", "this game ended before the server restarted; its record can be read "
                         "but nothing changes it", "open a new table to play again")


def describe_deal(deal: int | str) -> str:
    return "physical deck" if deal == PHYSICAL else "engine deal"
