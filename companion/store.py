"""The server's SQLite store (WAL): tables, their records, evidence frames,
players, match history and character sheets.

Why SQLite in WAL mode: one file on the Pi's SD card, readers never block the
writer, and a committed row survives ``kill -9`` (``synchronous=NORMAL`` keeps
every commit across a process crash; only a power cut may lose the last few).
Each record entry is committed before the referee emits anything about it.

One connection guarded by a lock: the referee threads write small rows, so a
connection pool would buy nothing but races.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.record import canonical

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    header TEXT NOT NULL,
    fair_seed TEXT,
    display_key TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    token TEXT NOT NULL,
    code TEXT NOT NULL,
    name TEXT,
    player_id INTEGER,
    character_id INTEGER,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS evidence (
    hash TEXT PRIMARY KEY,
    mime TEXT NOT NULL,
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    pin_hash TEXT,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    ended REAL NOT NULL,
    tie INTEGER NOT NULL,
    reason TEXT
);
CREATE TABLE IF NOT EXISTS match_seats (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    name TEXT,
    player_id INTEGER,
    score REAL,
    won INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS characters (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    player_id INTEGER NOT NULL REFERENCES players(id),
    name TEXT NOT NULL,
    points INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    destroyed REAL,
    destroyed_in INTEGER
);
"""


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """scrypt, salted: a player's optional PIN never sits in the file in clear."""
    import os

    salt = salt or os.urandom(16)
    dk = hashlib.scrypt(pin.encode(), salt=salt, n=2**12, r=8, p=1, dklen=32)
    return salt.hex() + ":" + dk.hex()


def check_pin(pin: str, stored: str | None) -> bool:
    if not stored:
        return True
    import hmac

    salt_hex, _, _ = stored.partition(":")
    return hmac.compare_digest(hash_pin(pin, bytes.fromhex(salt_hex)), stored)


class Store:
    """All persistent state of one server.  Methods are thread-safe."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        columns = {row["name"] for row in self._db.execute("PRAGMA table_info(seats)")}
        if "character_id" not in columns:  # a database from before character sheets
            self._db.execute("ALTER TABLE seats ADD COLUMN character_id INTEGER")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _run(self, sql: str, args: Iterable[Any] = ()) -> sqlite3.Cursor:
        with self._lock:
            return self._db.execute(sql, tuple(args))

    def _tx(self, statements: list[tuple[str, tuple]]) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self._db.execute(sql, args)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # ---- tables and records ---------------------------------------------
    def create_table(self, table_id: str, header: dict, fair_seed: str | None, display_key: str,
                     seats: list[tuple[int, str, str]]) -> None:
        stmts = [("INSERT INTO tables (id, header, fair_seed, display_key, created) VALUES (?, ?, ?, ?, ?)",
                  (table_id, canonical(header), fair_seed, display_key, time.time()))]
        stmts += [("INSERT INTO seats (table_id, seat, token, code) VALUES (?, ?, ?, ?)", (table_id, s, tok, code))
                  for s, tok, code in seats]
        self._tx(stmts)

    def append(self, table_id: str, entry: dict, fair_seed: str | None = None) -> None:
        """Commit one record entry; raises when the seq already exists (a second writer).

        ``fair_seed`` replaces the table's secret seed in the same transaction (a
        rollback after the old seed was revealed commits to a new one: the entry
        naming the new commitment and the seed behind it are never apart).
        """
        line = ("INSERT INTO entries (table_id, seq, line) VALUES (?, ?, ?)", (table_id, entry["seq"], canonical(entry)))
        if fair_seed is None:
            self._run(*line)
        else:
            self._tx([line, ("UPDATE tables SET fair_seed = ? WHERE id = ?", (fair_seed, table_id))])

    def entries(self, table_id: str) -> list[dict]:
        rows = self._run("SELECT line FROM entries WHERE table_id = ? ORDER BY seq", (table_id,)).fetchall()
        return [json.loads(r["line"]) for r in rows]

    def table_row(self, table_id: str) -> dict | None:
        row = self._run("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        out = dict(row)
        out["header"] = json.loads(out["header"])
        return out

    def status(self, table_id: str) -> str | None:
        row = self._run("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()
        return row["status"] if row else None

    def table_of_token(self, token: str) -> str | None:
        """Which table a seat token belongs to (to reopen a finished table a phone asks for)."""
        row = self._run("SELECT table_id FROM seats WHERE token = ?", (token,)).fetchone()
        return row["table_id"] if row else None

    def open_tables(self) -> list[dict]:
        rows = self._run("SELECT id FROM tables WHERE status = 'open' ORDER BY created").fetchall()
        return [self.table_row(r["id"]) for r in rows]  # type: ignore[misc]

    def set_status(self, table_id: str, status: str) -> None:
        self._run("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

    def seats(self, table_id: str) -> list[dict]:
        rows = self._run("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)).fetchall()
        return [dict(r) for r in rows]

    def set_token(self, table_id: str, seat: int, token: str, code: str) -> None:
        self._run("UPDATE seats SET token = ?, code = ? WHERE table_id = ? AND seat = ?", (token, code, table_id, seat))

    def set_seat_name(self, table_id: str, seat: int, name: str | None, player_id: int | None,
                      character_id: int | None = None) -> None:
        self._run("UPDATE seats SET name = ?, player_id = ?, character_id = ? WHERE table_id = ? AND seat = ?",
                  (name, player_id, character_id, table_id, seat))

    # ---- evidence ---------------------------------------------------------
    def put_evidence(self, data: bytes, mime: str = "image/jpeg") -> str:
        """Keep a camera frame by its SHA-256 (the record entry's ``evidence``)."""
        key = hashlib.sha256(data).hexdigest()
        self._run("INSERT OR IGNORE INTO evidence (hash, mime, data) VALUES (?, ?, ?)", (key, mime, data))
        return key

    def evidence(self, key: str) -> tuple[bytes, str] | None:
        row = self._run("SELECT data, mime FROM evidence WHERE hash = ?", (key,)).fetchone()
        return (bytes(row["data"]), row["mime"]) if row else None

    # ---- players, matches, characters ------------------------------------
    def player(self, name: str, pin: str | None = None, create: bool = True) -> dict:
        """The player called ``name``; created on first use.  ValueError on a wrong PIN."""
        name = name.strip()
        if not name or len(name) > 40:
            raise ValueError("a name needs 1 to 40 characters")
        row = self._run("SELECT * FROM players WHERE name = ?", (name,)).fetchone()
        if row is None:
            if not create:
                raise ValueError(f"no player called {name!r}")
            self._run("INSERT INTO players (name, pin_hash, created) VALUES (?, ?, ?)",
                      (name, hash_pin(pin) if pin else None, time.time()))
            row = self._run("SELECT * FROM players WHERE name = ?", (name,)).fetchone()
        elif not check_pin(pin or "", row["pin_hash"]):
            raise ValueError(f"wrong PIN for {name}")
        return {"id": row["id"], "name": row["name"], "has_pin": bool(row["pin_hash"])}

    def players(self) -> list[dict]:
        rows = self._run("SELECT id, name, created FROM players ORDER BY name").fetchall()
        return [dict(r) for r in rows]

    def record_match(self, table_id: str, game: str, variant: str, outcome: dict, seats: list[dict]) -> int:
        """One finished game: per seat its name, player, score and whether it won."""
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO matches (table_id, game, variant, ended, tie, reason) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, game, variant, time.time(), int(bool(outcome.get("tie"))), outcome.get("reason", "")))
            match_id = int(cur.lastrowid or 0)
            scores = outcome.get("scores") or []
            winners = set(outcome.get("winners") or [])
            for s in seats:
                seat = s["seat"]
                self._db.execute(
                    "INSERT INTO match_seats (match_id, seat, name, player_id, score, won) VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, seat, s.get("name"), s.get("player_id"),
                     scores[seat] if seat < len(scores) else None, int(seat in winners)))
            return match_id

    def forget_match(self, table_id: str) -> list[dict]:
        """Undo :meth:`record_match` for a table whose finished game was rolled back: its match rows go,
        characters it destroyed stand again.  Returns the forgotten seats (seat, score) to take back points."""
        with self._lock:
            ids = [r["id"] for r in self._db.execute("SELECT id FROM matches WHERE table_id = ?", (table_id,))]
            seats: list[dict] = []
            for match_id in ids:
                seats += [dict(r) for r in self._db.execute(
                    "SELECT seat, score FROM match_seats WHERE match_id = ?", (match_id,))]
            statements = []
            for match_id in ids:
                statements += [("UPDATE characters SET destroyed = NULL, destroyed_in = NULL WHERE destroyed_in = ?",
                                (match_id,)),
                               ("DELETE FROM match_seats WHERE match_id = ?", (match_id,)),
                               ("DELETE FROM matches WHERE id = ?", (match_id,))]
            statements.append(("UPDATE tables SET status = 'open' WHERE id = ?", (table_id,)))
            self._tx(statements)
            return seats

    def matches(self) -> list[dict]:
        rows = self._run("""SELECT m.id, m.table_id, m.game, m.variant, m.ended, m.tie, m.reason,
                                   s.seat, s.name, s.player_id, s.score, s.won
                            FROM matches m JOIN match_seats s ON s.match_id = m.id
                            ORDER BY m.id, s.seat""").fetchall()
        return [dict(r) for r in rows]

    def standings(self) -> list[dict]:
        """Per player and game: games played, wins and total score."""
        rows = self._run("""SELECT COALESCE(p.name, s.name) AS player, m.game, COUNT(*) AS played,
                                   SUM(s.won) AS wins, SUM(COALESCE(s.score, 0)) AS points
                            FROM match_seats s JOIN matches m ON m.id = s.match_id
                            LEFT JOIN players p ON p.id = s.player_id
                            WHERE COALESCE(p.name, s.name) IS NOT NULL
                            GROUP BY 1, 2 ORDER BY 2, 4 DESC, 5 DESC""").fetchall()
        return [dict(r) for r in rows]

    def create_character(self, player_id: int, name: str) -> dict:
        cur = self._run("INSERT INTO characters (player_id, name, created) VALUES (?, ?, ?)",
                        (player_id, name, time.time()))
        return self.character(int(cur.lastrowid or 0))

    def character_named(self, player_id: int, name: str) -> dict:
        """The player's living character of this name, picked up again with its points; else a new one.

        A destroyed character stays in the history, so a fighter who lost it starts a new sheet of the
        same name from 0 points (TFS-4.3).
        """
        row = self._run("SELECT * FROM characters WHERE player_id = ? AND name = ? AND destroyed IS NULL "
                        "ORDER BY id DESC LIMIT 1", (player_id, name)).fetchone()
        return dict(row) if row is not None else self.create_character(player_id, name)

    def character(self, character_id: int) -> dict:
        row = self._run("SELECT * FROM characters WHERE id = ?", (character_id,)).fetchone()
        if row is None:
            raise ValueError(f"no character {character_id}")
        return dict(row)

    def add_points(self, character_id: int, points: int) -> dict:
        if self.character(character_id)["destroyed"]:
            raise ValueError("this character was destroyed")
        self._run("UPDATE characters SET points = points + ? WHERE id = ?", (points, character_id))
        return self.character(character_id)

    def destroy_character(self, character_id: int, match_id: int | None = None) -> dict:
        self._run("UPDATE characters SET destroyed = ?, destroyed_in = ? WHERE id = ? AND destroyed IS NULL",
                  (time.time(), match_id, character_id))
        return self.character(character_id)

    def characters(self, player_id: int | None = None) -> list[dict]:
        if player_id is None:
            rows = self._run("SELECT * FROM characters ORDER BY id").fetchall()
        else:
            rows = self._run("SELECT * FROM characters WHERE player_id = ? ORDER BY id", (player_id,)).fetchall()
        return [dict(r) for r in rows]

    # ---- export -----------------------------------------------------------
    def export(self) -> dict:
        return {"players": self.players(), "matches": self.matches(), "standings": self.standings(),
                "characters": self.characters()}

    def export_csv(self, what: str) -> str:
        rows = {"players": self.players, "matches": self.matches, "standings": self.standings,
                "characters": self.characters}[what]()
        buf = io.StringIO()
        if rows:
            writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        return buf.getvalue()
