"""Provably fair dice, coins and shuffles (docs/fairness.md).

Before a game the server picks a secret seed and writes only its SHA-256 (the
*commitment*) into the record header.  Every chance move is then

    HMAC-SHA256(seed, f"{table_id}:{client_seed}:{nonce}:{counter}")

cut into big-endian uint32 words, each range filled by rejection sampling (a
word at or above the largest multiple of the range is thrown away, so no value
is more likely than another).  ``nonce`` counts the chance moves drawn so far;
``counter`` counts HMAC blocks within one draw.  When the game ends the seed is
revealed, and anyone can recompute every die and coin from the record alone
(:func:`verify_record`, ``companion verify``).

Why HMAC and a nonce rather than a seeded RNG: the server cannot choose a
convenient seed after seeing the phones' client seeds, and each value can be
checked on its own, in any order, without replaying a generator.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.core import ChanceRequest, Game, IllegalMove

WORD_BYTES = 4
WORD_SPAN = 1 << 32


def _words(seed: bytes, table_id: str, client_seed: str, nonce: int) -> Iterator[int]:
    """The endless stream of uint32 words behind one draw."""
    counter = 0
    while True:
        message = f"{table_id}:{client_seed}:{nonce}:{counter}".encode()
        block = hmac.new(seed, message, hashlib.sha256).digest()
        for i in range(0, len(block), WORD_BYTES):
            yield int.from_bytes(block[i:i + WORD_BYTES], "big")
        counter += 1


def _check_ranges(ranges: Sequence[int]) -> tuple[int, ...]:
    out = tuple(ranges)
    for r in out:
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= WORD_SPAN:
            raise ValueError(f"a chance range must be an integer from 1 to 2**32, got {r!r}")
    return out


def values_for(seed: bytes, table_id: str, client_seed: str, nonce: int, ranges: Sequence[int]) -> tuple[int, ...]:
    """The values of draw number ``nonce``: ``values[i]`` uniform in ``[0, ranges[i])``."""
    ranges = _check_ranges(ranges)
    words = _words(seed, table_id, client_seed, nonce)
    values = []
    for r in ranges:
        limit = WORD_SPAN - WORD_SPAN % r  # largest multiple of r that fits: no modulo bias
        for word in words:
            if word < limit:
                values.append(word % r)
                break
    return tuple(values)


def commitment_of(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


class FairRandom:
    """HMAC-SHA256(seed, f"{table_id}:{client_seed}:{nonce}:{counter}") -> uint32 chunks, rejection sampling.

    Persist ``seed`` (secret), ``table_id`` and ``nonce`` to continue the same
    commitment after a restart: ``FairRandom(seed, table_id, nonce)``.
    """

    def __init__(self, seed: bytes | None = None, table_id: str = "", nonce: int = 0):
        if seed is None:
            seed = secrets.token_bytes(32)
        if not isinstance(seed, bytes | bytearray) or not seed:
            raise ValueError("the seed must be non-empty bytes")
        if isinstance(nonce, bool) or not isinstance(nonce, int) or nonce < 0:
            raise ValueError(f"nonce must be a non-negative integer, got {nonce!r}")
        self.seed: bytes = bytes(seed)
        self.table_id: str = str(table_id)
        self.nonce: int = nonce

    @property
    def commitment(self) -> str:
        """sha256(seed) in hex: the record header's ``seed_commitment``."""
        return commitment_of(self.seed)

    def draw(self, ranges: tuple[int, ...], client_seed: str = "") -> tuple[tuple[int, ...], dict]:
        """Values for one ChanceRequest and the proof ``{"nonce", "client_seed"}`` for the entry's ``data``."""
        if not isinstance(client_seed, str):
            raise ValueError("client_seed must be text")
        values = values_for(self.seed, self.table_id, client_seed, self.nonce, ranges)
        proof = {"nonce": self.nonce, "client_seed": client_seed}
        self.nonce += 1
        return values, proof

    def reveal(self) -> str:
        """The seed in hex, for the final ``reveal`` entry (``data: {"seed": hex}``)."""
        return self.seed.hex()

    def to_json(self) -> dict:
        """What a server stores (secretly) to resume the same commitment after a restart."""
        return {"seed": self.seed.hex(), "table_id": self.table_id, "nonce": self.nonce}

    @classmethod
    def from_json(cls, data: dict) -> FairRandom:
        return cls(bytes.fromhex(data["seed"]), data.get("table_id", ""), int(data.get("nonce", 0)))

    def __repr__(self) -> str:  # never print the secret
        return f"FairRandom(commitment={self.commitment[:12]}…, table_id={self.table_id!r}, nonce={self.nonce})"


# --------------------------------------------------------------------------
# Verifying a record


@dataclass(frozen=True)
class Mismatch:
    """Something in a record that does not prove fair: ``seq`` None for the record as a whole."""

    seq: int | None
    message: str

    def __str__(self) -> str:
        return self.message if self.seq is None else f"seq {self.seq}: {self.message}"


@dataclass(frozen=True)
class ChanceCheck:
    """One die, coin or shuffle of the record, recomputed."""

    seq: int
    kind: str
    seat: int | None
    label: str
    ranges: tuple[int, ...] | None
    recorded: tuple[int, ...]
    expected: tuple[int, ...] | None
    nonce: int | None
    client_seed: str | None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def describe(self) -> str:
        who = "" if self.seat is None else f" for seat {self.seat + 1}"
        if self.kind in ("die", "dice"):
            shown = " ".join(str(v + 1) for v in self.recorded)  # a die shows value + 1
        elif self.kind == "shuffle":
            shown = f"{len(self.recorded) + 1} cards"
        else:
            shown = str(list(self.recorded))
        return f"{self.kind}{who}: {shown} (nonce {self.nonce})"


@dataclass
class FairnessReport:
    commitment: str | None
    revealed: str | None
    checks: list[ChanceCheck] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    game_error: str | None = None
    """Why the game could not be rebuilt (then no range, hence no value, can be checked)."""

    @property
    def ok(self) -> bool:
        return not self.mismatches


@dataclass
class Epoch:
    """One seed commitment and the entries it governs.

    The header's commitment governs from the start.  A rollback after the seed
    was revealed would make every later draw foreseeable, so the server commits
    to a fresh seed in that rollback entry (``data.seed_commitment``); it
    governs every chance entry after it and is revealed when the game ends again.
    """

    start: int
    """The seq of the entry that committed (0: the header)."""
    commitment: str | None
    seed: bytes | None = None
    revealed_at: int | None = None


def _epochs(entries: list[dict], header_commitment: str | None, report: FairnessReport) -> dict[int, Epoch]:
    """The epoch governing each entry (by seq); checks every reveal against its own commitment."""
    epochs = [Epoch(0, header_commitment)]
    governs: dict[int, Epoch] = {}
    for entry in entries:
        seq = entry.get("seq")
        data = entry.get("data") if isinstance(entry.get("data"), dict) else {}
        kind = entry.get("kind")
        current = epochs[-1]
        if kind == "rollback" and "seed_commitment" in data:
            commitment = data.get("seed_commitment")
            if current.revealed_at is None:
                report.mismatches.append(Mismatch(seq, "a new seed commitment before the previous seed was revealed"))
            epochs.append(Epoch(seq, commitment if isinstance(commitment, str) else None))
            report.notes.append(f"seq {seq}: a rollback after the seed was revealed committed to a new seed "
                                f"{str(commitment)[:16]}…; the draws after it follow that seed")
        elif kind == "reveal":
            if current.revealed_at is not None:
                report.mismatches.append(Mismatch(seq, "a second reveal entry"))
            else:
                current.seed = _check_reveal(entry, current, report)
                current.revealed_at = seq
        if isinstance(seq, int):
            governs[seq] = epochs[-1]
    first = epochs[0]
    report.revealed = None
    if first.revealed_at is not None:
        seed_hex = next(((e.get("data") or {}).get("seed") for e in entries if e.get("seq") == first.revealed_at), None)
        report.revealed = seed_hex if isinstance(seed_hex, str) else None
    for epoch in epochs:
        if epoch.revealed_at is None:
            report.mismatches.append(Mismatch(None, "the record has no reveal entry: the seed was never disclosed")
                                     if epoch.start == 0 else
                                     Mismatch(epoch.start, "the seed committed here was never revealed"))
    return governs


def _check_reveal(entry: dict, epoch: Epoch, report: FairnessReport) -> bytes | None:
    seed_hex = (entry.get("data") or {}).get("seed")
    try:
        seed = bytes.fromhex(seed_hex)
    except (TypeError, ValueError):
        report.mismatches.append(Mismatch(entry["seq"], f"the revealed seed {seed_hex!r} is not hex"))
        return None
    if not seed:
        report.mismatches.append(Mismatch(entry["seq"], "the revealed seed is empty"))
        return None
    if epoch.commitment is None:
        report.mismatches.append(Mismatch(None if epoch.start == 0 else epoch.start,
                                          "the header has no seed_commitment: nothing was promised"
                                          if epoch.start == 0 else "this rollback's seed_commitment is not text"))
        return None
    if commitment_of(seed) != epoch.commitment:
        whose = "the header's seed_commitment" if epoch.start == 0 else f"the seed_commitment of seq {epoch.start}"
        report.mismatches.append(Mismatch(entry["seq"], f"the revealed seed does not match {whose}"))
        return None
    return seed


def _requests(record: Any, game: Game | None, report: FairnessReport) -> dict[int, ChanceRequest]:
    """What the game asked of chance before each chance entry, by replaying the record."""
    from companion.record import Position  # noqa: PLC0415 - keep the module cheap to import

    try:
        position = Position(record.header, game)
    except (ValueError, KeyError, TypeError) as exc:
        report.game_error = str(exc)
        return {}
    out: dict[int, ChanceRequest] = {}
    for entry in record.entries:
        move = entry.get("move")
        if entry.get("kind") == "move" and isinstance(move, dict) and move.get("type") == "chance":
            request = position.state.pending_chance()
            if request is not None:
                out[entry["seq"]] = request
        try:
            position.follow(entry)
        except (IllegalMove, ValueError, KeyError, TypeError) as exc:
            what = "this recorded move" if entry.get("kind") == "move" else f"the {entry.get('kind')} entry"
            report.notes.append(f"seq {entry.get('seq')}: replay rejects {what} ({exc})")
    return out


def check_record(record: Any, game: Game | None = None) -> FairnessReport:
    """Recompute every chance entry of ``record`` (a companion.record.Record); see docs/fairness.md."""
    header = record.header
    commitment = header.get("seed_commitment")
    report = FairnessReport(commitment if isinstance(commitment, str) else None, None)
    governs = _epochs(record.entries, report.commitment, report)
    table_id = header.get("table_id", "")
    if not isinstance(table_id, str):
        report.mismatches.append(Mismatch(None, f"the header's table_id {table_id!r} is not text"))
        table_id = str(table_id)
    requests = _requests(record, game, report)
    seen_nonces: dict[int, int] = {}
    for entry in record.entries:
        move = entry.get("move")
        if entry.get("kind") != "move" or not isinstance(move, dict) or move.get("type") != "chance":
            continue
        seq = entry["seq"]
        if not (entry.get("verdict") or {"ok": True}).get("ok"):
            report.notes.append(f"seq {seq}: a rejected chance move (it changed nothing), not checked")
            continue
        raw = move.get("values")
        recorded = tuple(raw) if isinstance(raw, list) else ()
        request = requests.get(seq)
        data = entry.get("data") if isinstance(entry.get("data"), dict) else {}
        nonce = data.get("nonce")
        client_seed = data.get("client_seed", "")
        check = dict(seq=seq, kind=request.kind if request else "chance", seat=request.seat if request else None,
                     label=request.label if request else "", ranges=request.ranges if request else None,
                     recorded=recorded, expected=None,
                     nonce=nonce if isinstance(nonce, int) else None,
                     client_seed=client_seed if isinstance(client_seed, str) else None)
        problem = None
        if isinstance(nonce, bool) or not isinstance(nonce, int) or nonce < 0 or not isinstance(client_seed, str):
            problem = "no proof (data needs an integer nonce and a client_seed text)"
        elif report.game_error is not None:
            problem = f"cannot check: the game could not be rebuilt ({report.game_error})"
        elif request is None:
            problem = "the game awaited no chance here, so its ranges are unknown"
        elif (seed := governs[seq].seed if seq in governs else None) is not None:
            expected = values_for(seed, table_id, client_seed, nonce, request.ranges)
            check["expected"] = expected
            if expected != recorded:
                problem = f"recorded {list(recorded)}, the seed gives {list(expected)}"
        if problem is None and isinstance(nonce, int):
            if nonce in seen_nonces:
                problem = f"nonce {nonce} was already used at seq {seen_nonces[nonce]}"
            seen_nonces.setdefault(nonce, seq)
        result = ChanceCheck(**check, problem=problem)
        report.checks.append(result)
        if problem:
            report.mismatches.append(Mismatch(seq, f"{result.describe()}: {problem}"))
    if seen_nonces:
        missing = sorted(set(range(max(seen_nonces) + 1)) - set(seen_nonces))
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (" …" if len(missing) > 10 else "")
            report.notes.append(f"nonces drawn but not recorded: {shown} (a crash between drawing and "
                                "recording, or a draw thrown away; ask the host)")
    return report


def verify_record(record: Any, game: Game | None = None) -> list[Mismatch]:
    """Every reason ``record`` does not prove fair: commitment vs revealed seed and every chance entry."""
    return check_record(record, game).mismatches
