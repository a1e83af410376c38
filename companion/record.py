"""Game records: JSON Lines with a header and a SHA-256 hash chain (docs/record.md).

The same code writes the record while a game is refereed, verifies it, and
replays it (``companion replay``; restoring a table after a crash).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal

from engines import registry
from engines.core import JSON, Game, IllegalMove, State, Verdict

FORMAT = "table-companion-record"
VERSION = 1
Source = Literal["camera", "phone", "device", "referee", "simulator", "host"]
SOURCES = ("camera", "phone", "device", "referee", "simulator", "host")
KINDS = ("move", "rollback", "reveal", "note", "options")


def canonical(data: Any) -> str:
    """The one text form that is hashed: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class RecordError(ValueError):
    """A record that cannot be trusted or read; says which line and why."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line


def make_header(game: str, variant: str, seats: int, deal: int | str, *, options: Mapping[str, Any] | None = None,
                seed_commitment: str | None = None, started: str | None = None, **extra: Any) -> JSON:
    header: JSON = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "variant": variant,
        "seats": seats,
        "deal": deal,
        "options": dict(options or {}),
        "started": started or datetime.now(UTC).isoformat(timespec="seconds"),
        "seed_commitment": seed_commitment,
    }
    header.update(extra)
    return header


@dataclass
class Chain:
    """Builds hash-chained entries after a header, whatever stores them."""

    header: JSON
    entries: list[JSON] = field(default_factory=list)

    @property
    def last_hash(self) -> str:
        return self.entries[-1]["hash"] if self.entries else digest(canonical(self.header))

    def append(self, *, seat: int | None, source: str, move: JSON | None = None, verdict: Verdict | None = None,
               kind: str = "move", data: JSON | None = None, evidence: str | None = None, t: float | None = None) -> JSON:
        if source not in SOURCES:
            raise ValueError(f"unknown source {source!r}")
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}")
        entry: JSON = {
            "seq": len(self.entries) + 1,
            "t": round(time.time() if t is None else t, 3),
            "kind": kind,
            "seat": seat,
            "source": source,
            "move": move,
            "verdict": verdict.to_json() if verdict else None,
        }
        if data is not None:
            entry["data"] = data
        if evidence is not None:
            entry["evidence"] = evidence
        entry["prev_hash"] = self.last_hash
        entry["hash"] = digest(canonical(entry))
        self.entries.append(entry)
        return entry


class RecordWriter:
    """Appends a record to a JSON Lines file, flushing each line (a crash loses nothing written)."""

    def __init__(self, path: str | Path, header: JSON):
        self.chain = Chain(header)
        self._file: IO[str] = open(path, "w", encoding="utf-8")
        self._write(header)

    def _write(self, line: JSON) -> None:
        self._file.write(canonical(line) + "\n")
        self._file.flush()

    def append(self, **kwargs: Any) -> JSON:
        entry = self.chain.append(**kwargs)
        self._write(entry)
        return entry

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class Record:
    header: JSON
    entries: list[JSON]

    def lines(self) -> Iterator[str]:
        yield canonical(self.header)
        for entry in self.entries:
            yield canonical(entry)


def parse_record(lines: Iterable[str]) -> Record:
    """Read and verify a record: format, version, sequence numbers and the hash chain."""
    header: JSON | None = None
    entries: list[JSON] = []
    prev = ""
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RecordError(number, f"not JSON ({exc.msg})") from None
        if not isinstance(line, dict):
            raise RecordError(number, "a line must be a JSON object")
        if header is None:
            if line.get("format") != FORMAT:
                raise RecordError(number, f"not a {FORMAT} header")
            if line.get("version") != VERSION:
                raise RecordError(number, f"record version {line.get('version')!r}; this program reads {VERSION}")
            for key in ("game", "variant", "seats", "deal"):
                if key not in line:
                    raise RecordError(number, f"header lacks {key!r}")
            header = line
            prev = digest(canonical(header))
            continue
        if line.get("seq") != len(entries) + 1:
            raise RecordError(number, f"expected seq {len(entries) + 1}, found {line.get('seq')!r}")
        if line.get("prev_hash") != prev:
            raise RecordError(number, f"seq {line['seq']}: the chain is broken (prev_hash does not match)")
        body = {k: v for k, v in line.items() if k != "hash"}
        if digest(canonical(body)) != line.get("hash"):
            raise RecordError(number, f"seq {line['seq']}: the line was altered (hash does not match)")
        prev = line["hash"]
        entries.append(line)
    if header is None:
        raise RecordError(0, "empty record")
    return Record(header, entries)


def read_record(path: str | Path) -> Record:
    with open(path, encoding="utf-8") as fh:
        return parse_record(fh)


@dataclass(frozen=True)
class ReplayStep:
    entry: JSON
    verdict: Verdict
    agrees: bool
    """Whether the verdict computed now equals the one recorded."""


def new_state(header: Mapping[str, Any], game: Game | None = None) -> State:
    game = game or registry.get(header["game"])
    return game.new(header["seats"], header["variant"], header["deal"], header.get("options") or {})


def with_options(header: Mapping[str, Any], options: Mapping[str, Any], moves: list[JSON],
                 game: Game | None = None) -> State:
    """The game of ``header`` started again under ``options`` (an ``options`` entry), ``moves`` played again."""
    state = new_state({**header, "options": dict(options)}, game)
    for move in moves:
        state.apply(move)
    return state


@dataclass
class Applied:
    """A move applied to a position, to undo back to a seq (rollback, amend) or play again (options)."""

    seq: int
    seat: int | None
    move: JSON


class Position:
    """A game's state and the moves applied to reach it.

    The one place that knows how record entries change a game: a ``rollback``
    undoes back to the seq it names, an ``options`` entry starts the game again
    under new options and plays the moves so far again, an accepted ``move`` is
    applied.  :func:`replay`, the server's restore after a crash
    (companion.tables) and the fairness check (companion.fairness) all walk a
    record with it, so the three can never disagree on what a record means.
    """

    def __init__(self, header: Mapping[str, Any], game: Game | None = None, state: State | None = None) -> None:
        self.header = header
        self.game = game or registry.get(header["game"])
        self.state = state if state is not None else new_state(header, self.game)
        self.applied: list[Applied] = []

    def push(self, seq: int, seat: int | None, move: JSON) -> list[Any]:
        """Apply ``move`` (raises IllegalMove and changes nothing if the engine refuses it)."""
        events = self.state.apply(move)
        self.applied.append(Applied(seq, seat, move))
        return events

    def undo_to(self, seq: int) -> int:
        """Undo every move applied after entry ``seq``; how many were undone."""
        undone = 0
        while self.applied and self.applied[-1].seq > seq:
            self.applied.pop()
            self.state.undo()
            undone += 1
        return undone

    def restart_with(self, options: Mapping[str, Any]) -> None:
        self.state = with_options(self.header, options, [a.move for a in self.applied], self.game)

    def follow(self, entry: Mapping[str, Any]) -> bool:
        """Change the position as ``entry`` did when it was recorded; False when it changes no state
        (a rejected move, a note, a reveal).  An accepted move the engine now refuses raises IllegalMove;
        a rollback that names no entry raises RecordError (never a silent return to the start)."""
        kind = entry["kind"]
        data = entry.get("data") or {}
        if kind == "rollback":
            to = data.get("to")
            if not isinstance(to, int) or isinstance(to, bool):
                raise RecordError(entry["seq"] + 1, f"seq {entry['seq']}: a rollback must name the entry to return to "
                                                    f"(data.to, a whole number), not {to!r}")
            self.undo_to(to)
        elif kind == "options":
            self.restart_with(data.get("options") or {})
        elif kind == "move" and (entry.get("verdict") or {"ok": True}).get("ok"):
            self.push(entry["seq"], entry.get("seat"), entry["move"])
        else:
            return False
        return True


def replay(record: Record, at: int | None = None, game: Game | None = None) -> tuple[State, list[ReplayStep]]:
    """Rebuild the state after entry ``at`` (all entries when None).

    Accepted moves are applied again and rejected ones checked again, so every
    recorded verdict is confirmed or contradicted; a ``rollback`` entry returns
    to the state after the seq it names, exactly as the server did.
    """
    position = Position(record.header, game)
    steps: list[ReplayStep] = []
    for entry in record.entries:
        if at is not None and entry["seq"] > at:
            break
        if entry["kind"] != "move":
            position.follow(entry)
            steps.append(ReplayStep(entry, Verdict.accept(), True))
            continue
        recorded = Verdict.from_json(entry["verdict"]) if entry.get("verdict") else Verdict.accept()
        try:
            verdict = Verdict.accept() if position.follow(entry) else position.state.check(entry["move"])
        except IllegalMove as exc:
            verdict = exc.verdict
        steps.append(ReplayStep(entry, verdict, verdict.ok == recorded.ok and verdict.rule == recorded.rule))
    return position.state, steps
