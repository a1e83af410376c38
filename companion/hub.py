"""The tables this server process hosts, their referees, and who is connected.

Sessions are keyed by socket id (it changes on every reconnect, so nothing
lasting hangs on it); rooms are keyed by what they mean (a seat, a table),
see companion.referee.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.config import Config, TableSpec
from companion.referee import Referee
from companion.store import Store
from companion.tables import Table
from engines import registry
from engines.core import JSON, Game

log = logging.getLogger(__name__)


@dataclass
class Session:
    """One connected socket: where it sits (or watches) and whether it proved the host PIN."""

    sid: str
    table: str | None = None
    seat: int | None = None
    role: str = "none"  # seat | display | spectator | remote
    hosts: set[str] = field(default_factory=set)
    language: str = "en"


class Hub:
    def __init__(self, config: Config, store: Store, emit: Callable[[str, JSON, str], None],
                 devices: Any = None):
        self.config = config
        self.store = store
        self._emit = emit
        self.devices = devices
        self.tables: dict[str, Table] = {}
        self.referees: dict[str, Referee] = {}
        self.sessions: dict[str, Session] = {}
        self.lock = threading.RLock()
        self.relay: Any = None
        """companion.relay.Relay with a Redis message queue: tables hosted by other processes."""

    # ---- games ------------------------------------------------------------
    def game(self, game_id: str) -> Game:
        extra = self.config.extra_games.get(game_id)
        return extra if extra is not None else registry.get(game_id)

    def games(self) -> list[str]:
        return [*self.config.extra_games, *registry.available()]

    # ---- tables -----------------------------------------------------------
    def emit(self, event: str, data: JSON, to: str | list[str]) -> None:
        self._emit(event, data, to)

    def _attach(self, table: Table) -> Table:
        with self.lock:
            self.tables[table.id] = table
            referee = Referee(table, self, self.devices, on_over=self.record_match)
            referee.on_reopen = self.reopen_match
            self.referees[table.id] = referee
        if self.relay is not None:
            self.relay.host(table.id)
        return table

    def create(self, spec: TableSpec, table_id: str | None = None) -> Table:
        game = self.game(spec.game)
        seats = spec.seats or min(game.players)
        table = Table.create(self.store, game, seats, spec.variant, spec.deal, spec.options,
                             demo=spec.demo or self.config.demo, table_id=table_id)
        self._attach(table)
        # A game may open with chance (a shuffle): serve it before anyone looks.
        self.referees[table.id].run(self.referees[table.id].serve_chance)
        return table

    def restore(self) -> list[Table]:
        """Reopen every unfinished table in the store by replaying its record."""
        out = []
        for row in self.store.open_tables():
            try:
                game = self.game(row["header"]["game"])
                table = Table.restore(self.store, row, game)
            except (ValueError, KeyError) as exc:
                log.error("cannot restore table %s: %s", row["id"], exc)
                continue
            if table.closed:
                continue
            out.append(self._attach(table))
            self.referees[table.id].run(self.referees[table.id].serve_chance)
        return out

    def table(self, table_id: str) -> Table | None:
        """A table this process hosts; a finished one is reopened read-only from the store on first ask."""
        table = self.tables.get(table_id)
        if table is None and self.store.status(table_id) == "finished":
            table = self._reopen_finished(table_id)
        return table

    def _reopen_finished(self, table_id: str) -> Table | None:
        """A game that ended before this server started: replayed from its record, then read-only.

        Finished tables are not all reopened at start (a server keeps every game
        it ever refereed); the first request naming one (its table page, a seat
        link, the record) brings it back, with its final score, record and
        dispute viewer, and nothing can change it.
        """
        with self.lock:
            if table_id in self.tables:
                return self.tables[table_id]
            row = self.store.table_row(table_id)
            if row is None:
                return None
            try:
                table = Table.restore(self.store, row, self.game(row["header"]["game"]))
            except (ValueError, KeyError) as exc:
                log.error("cannot reopen finished table %s: %s", table_id, exc)
                return None
            table.readonly = True
            return self._attach(table)

    def referee(self, table_id: str) -> Referee:
        return self.referees[table_id]

    def seat_by_token(self, token: str) -> tuple[Table, int] | None:
        for table in list(self.tables.values()):
            seat = table.seat_for_token(token)
            if seat is not None:
                return table, seat.index
        table_id = self.store.table_of_token(token)  # a finished table not reopened yet
        table = self.table(table_id) if table_id and table_id not in self.tables else None
        seat = table.seat_for_token(token) if table is not None else None
        return (table, seat.index) if table is not None and seat is not None else None

    def seat_by_code(self, code: str) -> tuple[Table, int] | None:
        for table in list(self.tables.values()):
            seat = table.seat_for_code(code)
            if seat is not None:
                return table, seat.index
        return None

    def record_match(self, table: Table) -> None:
        outcome = table.state.outcome
        if outcome is None:
            return
        seats = [{"seat": s.index, "name": s.name, "player_id": s.player_id} for s in table.seats]
        match_id = self.store.record_match(table.id, table.game.id, table.state.variant, outcome.to_json(), seats)
        if table.game.character_sheets:
            # A character earns its seat's score; one that lost is destroyed (the sheet stays, marked).
            for s in table.seats:
                if s.character_id is None:
                    continue
                if s.index < len(outcome.scores):
                    self.store.add_points(s.character_id, int(outcome.scores[s.index]))
                if s.index not in outcome.winners:
                    self.store.destroy_character(s.character_id, match_id)
        self.store.set_status(table.id, "finished")

    def reopen_match(self, table: Table) -> None:
        """A rollback took a finished game back into play: its match, points and fallen characters are undone
        (they are recorded again when it ends)."""
        for row in self.store.forget_match(table.id):
            seat = table.seat(row["seat"]) if row["seat"] < len(table.seats) else None
            if seat is not None and seat.character_id is not None and row["score"]:
                try:
                    self.store.add_points(seat.character_id, -int(row["score"]))
                except ValueError:
                    log.warning("table %s: character %s could not give back its points", table.id, seat.character_id)

    def sheet_points(self, table: Table) -> list[int] | None:
        """Each seat's character-sheet points (0 without a sheet), which set the fighters' hit points in
        Two Freakin' Swords (TFS-4.1); None for a game without character sheets."""
        if not table.game.character_sheets:
            return None
        return [int(self.store.character(s.character_id)["points"]) if s.character_id is not None else 0
                for s in table.seats]

    def device_event(self, event: Any) -> None:
        """A board said something (a button, a roll or toss shown): tell every table's pages and phones."""
        from engines.core import to_plain

        kind = getattr(event, "kind", "")
        payload = {"board": getattr(event, "board_id", None), "kind": getattr(kind, "value", str(kind)),
                   "data": to_plain(getattr(event, "data", {}) or {})}
        for referee in list(self.referees.values()):
            referee.call(referee.announce, "device", payload)
            if payload["kind"] == "button":
                referee.call(referee.button, payload["data"])  # a game's button (ダブルエッジ): companion.buttons

    def stop(self) -> None:
        if self.relay is not None:
            self.relay.close()
        for referee in list(self.referees.values()):
            referee.stop()
