"""The engine contract every game implements.

Modelled on OpenSpiel's state API (chance nodes, simultaneous moves, per-seat
observations) and python-chess's Board (legal moves, apply/undo, a record).

Seats are integers ``0 .. n-1``.  A state never raises on :meth:`State.check`;
:meth:`State.apply` raises :class:`IllegalMove` and leaves the state exactly as
it was.  Randomness enters only through :class:`ChanceMove`, so a record of
moves replays to the same state bit for bit.

Why a snapshot design: each state keeps an immutable snapshot and a stack of
earlier snapshots.  ``apply`` builds a new snapshot with pure functions and
swaps it in only when every rule passed, which gives "unchanged on error" and a
cheap exact ``undo`` (the dispute viewer's roll-back) for free.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar

JSON = dict[str, Any]
Deal = int | Literal["physical"]
"""``int``: the engine shuffles (by a chance move) and knows every card.
``"physical"``: a real deck was shuffled by hand; hidden cards are unknown."""

PHYSICAL: Literal["physical"] = "physical"


# --------------------------------------------------------------------------
# Plain values with a stable JSON form


def to_plain(value: Any) -> Any:
    """JSON-ready form of dataclasses, tuples, frozensets, enums and mappings."""
    if isinstance(value, Plain):
        return value.to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((to_plain(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if hasattr(value, "value") and hasattr(type(value), "__members__"):  # Enum
        return value.value
    return value


def from_plain(hint: Any, value: Any) -> Any:
    """Rebuild a value of type ``hint`` from its JSON form (inverse of :func:`to_plain`)."""
    if value is None:
        return None
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        non_none = [a for a in args if a is not type(None)]
        for candidate in non_none:
            try:
                return from_plain(candidate, value)
            except (TypeError, ValueError, KeyError):
                continue
        raise ValueError(f"{value!r} does not fit {hint}")
    if origin is Literal:
        if value not in args:
            raise ValueError(f"{value!r} is not one of {args}")
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise TypeError(f"expected a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_plain(args[0], v) for v in value)
        if args and len(args) != len(value):
            raise ValueError(f"expected {len(args)} items, got {len(value)}")
        return tuple(from_plain(a, v) for a, v in zip(args, value, strict=False)) if args else tuple(value)
    if origin in (frozenset, set):
        return frozenset(from_plain(args[0] if args else Any, v) for v in value)
    if origin in (dict, Mapping) or hint is dict:
        kt, vt = args if args else (Any, Any)
        return {from_plain(kt, k): from_plain(vt, v) for k, v in value.items()}
    if isinstance(hint, type) and issubclass(hint, Plain):
        return hint.from_json(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _build_dataclass(hint, value)
    if isinstance(hint, type) and hasattr(hint, "__members__"):  # Enum
        return hint(value)
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"expected an integer, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"expected a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise TypeError(f"expected text, got {value!r}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise TypeError(f"expected true or false, got {value!r}")
        return value
    return value


@functools.cache
def _init_fields(cls: type) -> tuple[tuple[dataclasses.Field, Any], ...]:
    """(field, resolved type hint) of a dataclass's init fields; resolving hints is slow, so once per class."""
    hints = typing.get_type_hints(cls)
    return tuple((f, hints[f.name]) for f in dataclasses.fields(cls) if f.init)


def _build_dataclass(cls: type, data: Any) -> Any:
    if not isinstance(data, Mapping):
        raise TypeError(f"expected an object for {cls.__name__}, got {data!r}")
    kwargs = {}
    for f, hint in _init_fields(cls):
        if f.name in data:
            kwargs[f.name] = from_plain(hint, data[f.name])
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise KeyError(f"{cls.__name__} needs '{f.name}'")
    return cls(**kwargs)


class Plain:
    """Base of moves and events: a frozen dataclass with ``{"type": ..., ...}`` JSON.

    Subclasses set ``type`` as a ClassVar (``"play-striker"``) and are frozen
    dataclasses; tuple fields come back as tuples, nested dataclasses as
    themselves.
    """

    type: ClassVar[str]

    def to_json(self) -> JSON:
        data: JSON = {"type": self.type}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            data[f.name] = to_plain(getattr(self, f.name))
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]):
        if not isinstance(data, Mapping):
            raise TypeError(f"expected an object, got {data!r}")
        if data.get("type") != cls.type:
            raise ValueError(f"expected type {cls.type!r}, got {data.get('type')!r}")
        return _build_dataclass(cls, {k: v for k, v in data.items() if k != "type"})


class Move(Plain):
    """An input to the engine.  Player moves carry a ``seat: int`` field."""

    @property
    def actor(self) -> int | None:
        """The seat making this move, or None for chance."""
        return getattr(self, "seat", None)


class Event(Plain):
    """Something that happened, as the whole table may learn it.

    Events are public by construction: an engine never puts a card that is
    hidden from some seat into an event (it says "seat 1 drew a card"); the
    card itself reaches its owner through :meth:`State.view`.
    """


@dataclass(frozen=True)
class ChanceMove(Move):
    """The outcome of a pending chance request: one integer per range.

    ``values[i]`` lies in ``[0, request.ranges[i])``.  A die face is value+1; a
    coin is 0/1; a shuffle of n cards is Fisher-Yates with ranges (n, n-1, ... 2).
    """

    type: ClassVar[str] = "chance"
    values: tuple[int, ...]


@dataclass(frozen=True)
class ChanceRequest:
    """What the game waits for from chance, and how the table should show it.

    ``kind`` is ``"die"``, ``"dice"``, ``"coin"``, ``"shuffle"`` or a game's
    own word; ``seat`` is who the roll or toss belongs to (for the LED dice /
    coin board), ``label`` a sentence for the table.
    """

    kind: str
    ranges: tuple[int, ...]
    seat: int | None = None
    label: str = ""

    def accepts(self, move: ChanceMove) -> bool:
        return len(move.values) == len(self.ranges) and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < r
            for v, r in zip(move.values, self.ranges, strict=False)
        )


def shuffle_ranges(n: int) -> tuple[int, ...]:
    """Ranges of a Fisher-Yates shuffle of ``n`` items (see :func:`apply_shuffle`)."""
    return tuple(range(n, 1, -1))


T = TypeVar("T")


def apply_shuffle(items: Sequence[T], values: Sequence[int]) -> tuple[T, ...]:
    """Fisher-Yates: for i = n-1 .. 1 swap item i with item values[n-1-i]."""
    out = list(items)
    n = len(out)
    for k, i in enumerate(range(n - 1, 0, -1)):
        j = values[k]
        out[i], out[j] = out[j], out[i]
    return tuple(out)


class Codec:
    """Turns ``{"type": ...}`` JSON into the right Move or Event class of one game."""

    def __init__(self, classes: Iterable[type[Plain]]):
        self._by_type: dict[str, type[Plain]] = {}
        for cls in classes:
            if cls.type in self._by_type:
                raise ValueError(f"two classes share the type {cls.type!r}")
            self._by_type[cls.type] = cls

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(self._by_type)

    def decode(self, data: Any) -> Plain:
        """Raises ValueError with a plain sentence when ``data`` is not a known move."""
        if not isinstance(data, Mapping):
            raise ValueError("a move must be a JSON object")
        kind = data.get("type")
        cls = self._by_type.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise ValueError(f"unknown move type {kind!r}; known: {', '.join(self._by_type)}")
        try:
            return cls.from_json(data)
        except (TypeError, ValueError, KeyError) as exc:
            raise ValueError(f"bad {kind!r} move: {exc}") from None


# --------------------------------------------------------------------------
# Verdicts


@dataclass(frozen=True)
class Verdict:
    """The answer to a move.  A rejection names its rule id (``"DE-7.3"``),
    a sentence a player understands and, where there is one, what to do."""

    ok: bool
    rule: str | None = None
    message: str = ""
    fix: str | None = None

    @staticmethod
    def accept() -> Verdict:
        return _ACCEPT

    @staticmethod
    def reject(rule: str, message: str, fix: str | None = None) -> Verdict:
        return Verdict(False, rule, message, fix)

    def to_json(self) -> JSON:
        data: JSON = {"ok": self.ok}
        if not self.ok:
            data.update(rule=self.rule, message=self.message)
            if self.fix:
                data["fix"] = self.fix
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Verdict:
        return cls(bool(data["ok"]), data.get("rule"), data.get("message", ""), data.get("fix"))


_ACCEPT = Verdict(True)


class IllegalMove(Exception):
    """Raised by :meth:`State.apply`; carries the rejecting :class:`Verdict`."""

    def __init__(self, verdict: Verdict):
        super().__init__(f"[{verdict.rule}] {verdict.message}")
        self.verdict = verdict

    @property
    def rule(self) -> str | None:
        return self.verdict.rule


class Reject(Exception):
    """Raised inside an engine's pure rule functions; :class:`State` turns it into a Verdict.

    Lets deep rule code say ``raise Reject("DE-7.3", "...")`` without threading
    verdicts through every return value.
    """

    def __init__(self, rule: str, message: str, fix: str | None = None):
        super().__init__(f"[{rule}] {message}")
        self.verdict = Verdict.reject(rule, message, fix)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.  ``winners`` empty with ``tie`` False means
    nobody won (e.g. a length cap); ``scores`` is per seat."""

    winners: tuple[int, ...]
    scores: tuple[float, ...] = ()
    tie: bool = False
    reason: str = ""

    def to_json(self) -> JSON:
        return to_plain(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return _build_dataclass(cls, data)


# --------------------------------------------------------------------------
# State

S = TypeVar("S")


class State(ABC, Generic[S]):
    """One game in progress.  Subclasses implement the pure rule hooks on an
    immutable snapshot ``S``; this class supplies apply/undo/check plumbing.

    Hooks to implement:

    * ``_to_act(s)`` -> frozenset of seats that may move now (several in a
      simultaneous phase; empty when chance is pending or the game is over);
    * ``_pending_chance(s)`` -> ChanceRequest | None;
    * ``_step(s, move)`` -> (new snapshot, events), raising :class:`Reject`;
    * ``_legal_moves(s, seat)`` -> list of moves, or None where not enumerable
      (physical deal: hidden cards are unknown);
    * ``_view(s, seat)`` -> JSON-ready dict (seat None: what the table sees);
    * ``_hidden_from(s, seat)`` -> strings (card ids) that must never appear in
      ``view(seat)``: the conformance test and the server check every message;
    * ``_outcome(s)`` -> Outcome | None;
    * ``snapshot_to_json`` / ``snapshot_from_json``.
    """

    def __init__(self, game: Game, seats: int, variant: str, deal: Deal, snapshot: S,
                 options: Mapping[str, Any] | None = None):
        self.game = game
        self.seats = seats
        self.variant = variant
        self.deal = deal
        self.options: dict[str, Any] = dict(options or {})
        self._s = snapshot
        self._history: list[S] = []

    # ---- hooks ----------------------------------------------------------
    @abstractmethod
    def _to_act(self, s: S) -> frozenset[int]: ...

    @abstractmethod
    def _pending_chance(self, s: S) -> ChanceRequest | None: ...

    @abstractmethod
    def _step(self, s: S, move: Move) -> tuple[S, list[Event]]: ...

    @abstractmethod
    def _legal_moves(self, s: S, seat: int) -> list[Move] | None: ...

    @abstractmethod
    def _view(self, s: S, seat: int | None) -> JSON: ...

    @abstractmethod
    def _hidden_from(self, s: S, seat: int | None) -> frozenset[str]: ...

    @abstractmethod
    def _outcome(self, s: S) -> Outcome | None: ...

    @abstractmethod
    def snapshot_to_json(self, s: S) -> JSON: ...

    @abstractmethod
    def snapshot_from_json(self, data: JSON) -> S: ...

    # ---- the contract ---------------------------------------------------
    @property
    def snapshot(self) -> S:
        return self._s

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.outcome is not None else self._to_act(self._s)

    def pending_chance(self) -> ChanceRequest | None:
        return None if self.outcome is not None else self._pending_chance(self._s)

    def legal_moves(self, seat: int) -> list[Move] | None:
        """Every legal move of ``seat`` now ([] when it may not act), or None
        when the moves cannot be listed (hidden cards in physical deal)."""
        if seat not in self.to_act():
            return []
        return self._legal_moves(self._s, seat)

    def check(self, move: Any) -> Verdict:
        """Would ``move`` be accepted?  Never raises, whatever ``move`` is."""
        try:
            self._next(move)
        except Reject as rej:
            return rej.verdict
        return Verdict.accept()

    def apply(self, move: Any) -> list[Event]:
        """Apply ``move``; raises IllegalMove and changes nothing when it is not legal."""
        try:
            new, events = self._next(move)
        except Reject as rej:
            raise IllegalMove(rej.verdict) from None
        self._history.append(self._s)
        self._s = new
        return events

    def copy(self) -> State[S]:
        """The same position with an empty undo stack; applying moves to it never touches ``self``
        (snapshots are immutable), so adapters and bots can try moves on it."""
        twin = copy.copy(self)
        twin.options = dict(self.options)
        twin._history = []
        return twin

    def undo(self) -> None:
        """Take back the last applied move (python-chess's ``pop``)."""
        if not self._history:
            raise IndexError("nothing to undo")
        self._s = self._history.pop()

    @property
    def ply(self) -> int:
        """How many moves were applied since this object was created or loaded."""
        return len(self._history)

    def view(self, seat: int | None) -> JSON:
        """JSON-ready view: None = the public table, an int = that seat's private view."""
        data = self._view(self._s, seat)
        data.setdefault("game", self.game.id)
        data.setdefault("variant", self.variant)
        data.setdefault("to_act", sorted(self.to_act()))
        chance = self.pending_chance()
        data.setdefault("chance", to_plain(chance) if chance else None)
        outcome = self.outcome
        data.setdefault("outcome", outcome.to_json() if outcome else None)
        return data

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        return self._hidden_from(self._s, seat)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome(self._s)

    def to_json(self) -> JSON:
        return {
            "game": self.game.id,
            "seats": self.seats,
            "variant": self.variant,
            "deal": self.deal,
            "options": to_plain(self.options),
            "snapshot": self.snapshot_to_json(self._s),
        }

    # ---- plumbing -------------------------------------------------------
    def _next(self, move: Any) -> tuple[S, list[Event]]:
        if isinstance(move, Mapping):
            try:
                move = self.game.codec.decode(move)
            except ValueError as exc:
                raise Reject("CORE-1", str(exc), "send a move of a known type") from None
        if not isinstance(move, Move):
            raise Reject("CORE-1", f"{move!r} is not a move", "send a move of a known type")
        if self.outcome is not None:
            raise Reject("CORE-2", "the game is over", None)
        chance = self._pending_chance(self._s)
        if isinstance(move, ChanceMove):
            if chance is None:
                raise Reject("CORE-3", "no die, coin or shuffle is awaited now")
            if not chance.accepts(move):
                raise Reject(
                    "CORE-3",
                    f"{chance.kind} needs {len(chance.ranges)} value(s) within {list(chance.ranges)}",
                )
        else:
            seat = move.actor
            if chance is not None:
                raise Reject("CORE-4", f"waiting for chance first: {chance.label or chance.kind}")
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.seats:
                raise Reject("CORE-5", f"there is no seat {seat!r} at this table")
            if seat not in self._to_act(self._s):
                raise Reject("CORE-6", f"seat {seat + 1} may not act now", "wait for your turn")
        try:
            return self._step(self._s, move)
        except Reject:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            # A malformed field the type hints let through must never corrupt the
            # state or crash the server: it is a rejection like any other.
            raise Reject("CORE-1", f"malformed {move.type!r} move: {exc}") from None


# --------------------------------------------------------------------------
# Game


class Game(ABC):
    """A game's metadata and factory (OpenSpiel's Game, separate from State)."""

    id: ClassVar[str]
    title: ClassVar[str]
    players: ClassVar[tuple[int, ...]]
    variants: ClassVar[tuple[str, ...]]
    move_types: ClassVar[tuple[type[Move], ...]]
    rules_doc: ClassVar[str]  # path of docs/rules/<game>.md relative to the repo root
    character_sheets: ClassVar[bool] = False
    """Whether seats bring a character sheet whose points are the ``sheets`` option (hit points), which
    earns the seat's score and is destroyed when it loses: the server keeps the sheets, the game says it uses them."""

    @property
    def codec(self) -> Codec:
        codec = self.__dict__.get("_codec")
        if codec is None:
            codec = Codec((ChanceMove, *self.move_types))
            self.__dict__["_codec"] = codec
        return codec

    def validate_setup(self, seats: int, variant: str, deal: Any) -> None:
        """Raise ValueError with a plain sentence for a table this game cannot have."""
        if seats not in self.players:
            raise ValueError(f"{self.title} is for {_counts(self.players)} players, not {seats}")
        if variant not in self.variants:
            raise ValueError(f"{self.title} has no variant {variant!r}; choose from {', '.join(self.variants)}")
        if not (deal == PHYSICAL or (isinstance(deal, int) and not isinstance(deal, bool))):
            raise ValueError("deal must be an integer seed or 'physical'")

    @abstractmethod
    def new(self, seats: int, variant: str | None = None, deal: Deal = 0, options: Mapping[str, Any] | None = None) -> State:
        """A new game.  ``variant`` None means the first (standard) variant."""

    def load(self, data: JSON) -> State:
        """Inverse of :meth:`State.to_json` (the undo history is not kept)."""
        state = self.new(data["seats"], data["variant"], data["deal"], data.get("options") or {})
        state._s = state.snapshot_from_json(data["snapshot"])
        state._history.clear()
        return state

    def setups(self) -> list[tuple[int, str, dict[str, Any]]]:
        """(seats, variant, options) tables the conformance test plays; override to add formats."""
        return [(n, v, {}) for n in self.players for v in self.variants]

    def decode_move(self, data: Any) -> Move:
        move = self.codec.decode(data)
        assert isinstance(move, Move)
        return move


def _counts(players: Sequence[int]) -> str:
    ps = sorted(players)
    if ps == list(range(ps[0], ps[-1] + 1)) and len(ps) > 1:
        return f"{ps[0]}–{ps[-1]}"
    return " or ".join(map(str, ps))


# --------------------------------------------------------------------------
# What a table adapter (engines/<game>/table.py) receives from the camera.
# companion fills these from vision; adapters never import vision or companion.

FACE_DOWN = "face-down"
"""``Sighting.card`` of a card seen from its back."""
UNKNOWN = "unknown"
"""``Sighting.card`` of something card-shaped that could not be read."""


@dataclass(frozen=True)
class Zone:
    """A labelled area of the printed mat, in millimetres from the mat's top-left."""

    id: str
    label: str
    seat: int | None
    x: float
    y: float
    w: float
    h: float
    kind: Literal["single", "stack", "spread", "pile"] = "spread"

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h


@dataclass(frozen=True)
class MatLayout:
    """All zones of one game's mat for a number of seats."""

    width_mm: float
    height_mm: float
    zones: tuple[Zone, ...]

    def zone_at(self, x: float, y: float) -> Zone | None:
        for zone in self.zones:
            if zone.contains(x, y):
                return zone
        return None

    def zone(self, zone_id: str) -> Zone:
        for zone in self.zones:
            if zone.id == zone_id:
                return zone
        raise KeyError(zone_id)


@dataclass(frozen=True)
class Sighting:
    """One card seen on the table.

    ``card`` is a standard card id (``"QH"``, ``"10S"``, ``"AC"``), a printed
    card's index in its game's marker range
    (``"printed:17"``, docs/printing.md), a card taught to vision by its name
    (``"taught:計略"``, docs/vision-teach.md), :data:`FACE_DOWN` or :data:`UNKNOWN`.
    ``back`` is what a card back says when face down (``"striking"``), never
    which card it is.  ``layer`` orders a stack (0 = bottom).
    """

    card: str
    zone: str | None
    x: float
    y: float
    angle: float = 0.0
    confidence: float = 1.0
    layer: int = 0
    back: str | None = None


@dataclass(frozen=True)
class TableSnapshot:
    """Every stable sighting at one moment, grouped by zone."""

    sightings: tuple[Sighting, ...]

    def in_zone(self, zone_id: str) -> tuple[Sighting, ...]:
        return tuple(s for s in self.sightings if s.zone == zone_id)


@dataclass(frozen=True)
class ZoneChange:
    """A stable physical change between two snapshots."""

    kind: Literal["placed", "removed", "flipped", "moved"]
    card: str
    zone: str | None
    from_zone: str | None = None
    back: str | None = None


@dataclass(frozen=True)
class ZoneExpectation:
    """What the camera should see in one zone when the table matches the engine.

    ``face_up``: cards that must lie here face up (in stack order, top first, when
    ``ordered``).  ``face_down``: how many backs may be seen (min, max; a pile may
    show one back for many cards).  ``may_show``: face-up cards that may lie here
    too (the covered cards of a discard pile, a won trick not gathered yet).
    """

    zone: str
    label: str
    face_up: tuple[str, ...] = ()
    face_down: tuple[int, int] = (0, 0)
    may_show: tuple[str, ...] = ()
    ordered: bool = False


@dataclass(frozen=True)
class Question:
    """What an adapter asks a person when the camera cannot decide."""

    seat: int | None
    prompt: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class AdapterResult:
    """What a table adapter makes of physical changes.

    ``moves``: engine moves to apply in order.  ``mismatch``: the table differs
    from the engine's state; the verdict says what to put back where.
    ``questions``: what to ask whom.
    """

    moves: tuple[Move, ...] = ()
    mismatch: Verdict | None = None
    questions: tuple[Question, ...] = ()

    @classmethod
    def refused(cls, rule: str, message: str, fix: str, questions: Sequence[Question] = ()) -> AdapterResult:
        """The table differs from the engine: ``rule``, a sentence and what to put back (and what to ask)."""
        return cls(mismatch=Verdict.reject(rule, message, fix), questions=tuple(questions))


class TableAdapter(ABC):
    """Per game, pure: the mat's zones and how zone changes become moves."""

    @abstractmethod
    def layout(self, seats: int, variant: str) -> MatLayout: ...

    @abstractmethod
    def interpret(self, state: State, changes: Sequence[ZoneChange], table: TableSnapshot) -> AdapterResult: ...

    def expected(self, state: State) -> Mapping[str, ZoneExpectation]:
        """Per zone id, what the camera should see now (for the "table restored" check)."""
        return {}

    def differences(self, state: State, table: TableSnapshot) -> tuple[str, ...]:
        """Sentences saying what to move until the table matches the engine; empty = restored."""
        return ()

    def restored(self, state: State, table: TableSnapshot) -> bool:
        """Does the table match the engine again (after an illegal move was announced)?"""
        return not self.differences(state, table)

    def manual_moves(self, state: State, seat: int) -> list[Move] | None:
        """What a person may enter by hand for ``seat`` when there is no camera (None: not listable)."""
        return state.legal_moves(seat)

    def answer(self, state: State, seat: int, choice: str) -> Move | None:
        """The move a seat's answer to one of this adapter's questions stands for (None: nothing to do)."""
        return None

    def free_pick(self, state: State, seat: int) -> Mapping[str, Any] | None:
        """A move the phone builds by picking cards when the moves cannot be listed (a physical deal).

        ``{"type": move type, "seat": seat, "field": the move's card-list field, "count": how many cards,
        in order, "from": the card ids to pick from}``; None when there is nothing to pick.  The engine
        checks the move built, like any other.
        """
        return None

    def coin_lights(self, state: State) -> Mapping[tuple[int, str], bool] | None:
        """What an LED coin board should show now: ``{(seat, "left"|"right"): lit}`` (coins not named are dark).

        None for a game without aggression coins.  The referee pushes it to the board after every change,
        so the lights on the table always match the engine's position.
        """
        return None


class FunctionAdapter(TableAdapter):
    """A table adapter made of a game's module-level pure functions.

    Each game's ``table.py`` keeps its logic in plain functions (easy to test one
    by one) and exposes them as one ``ADAPTER``; this class checks that the
    state is the game's own before calling them.
    """

    def __init__(self, state_type: type[State], *, layout: Callable[[int, str], MatLayout],
                 interpret: Callable[..., AdapterResult],
                 expected: Callable[..., Mapping[str, ZoneExpectation]] | None = None,
                 differences: Callable[..., tuple[str, ...]] | None = None,
                 manual_moves: Callable[..., list[Move] | None] | None = None,
                 answer: Callable[..., Move | None] | None = None,
                 coin_lights: Callable[..., Mapping[tuple[int, str], bool]] | None = None,
                 free_pick: Callable[..., Mapping[str, Any] | None] | None = None):
        self._state_type = state_type
        self._coin_lights = coin_lights
        self._free_pick = free_pick
        self._layout = layout
        self._interpret = interpret
        self._expected = expected
        self._differences = differences
        self._manual_moves = manual_moves
        self._answer = answer

    def _own(self, state: State) -> State:
        if not isinstance(state, self._state_type):
            raise TypeError(f"this adapter reads {self._state_type.__name__}, not {type(state).__name__}")
        return state

    def layout(self, seats: int, variant: str) -> MatLayout:
        return self._layout(seats, variant)

    def interpret(self, state: State, changes: Sequence[ZoneChange], table: TableSnapshot) -> AdapterResult:
        return self._interpret(self._own(state), changes, table)

    def expected(self, state: State) -> Mapping[str, ZoneExpectation]:
        return self._expected(self._own(state)) if self._expected else {}

    def differences(self, state: State, table: TableSnapshot) -> tuple[str, ...]:
        return self._differences(self._own(state), table) if self._differences else ()

    def manual_moves(self, state: State, seat: int) -> list[Move] | None:
        return self._manual_moves(self._own(state), seat) if self._manual_moves else state.legal_moves(seat)

    def answer(self, state: State, seat: int, choice: str) -> Move | None:
        return self._answer(self._own(state), seat, choice) if self._answer else None

    def coin_lights(self, state: State) -> Mapping[tuple[int, str], bool] | None:
        return self._coin_lights(self._own(state)) if self._coin_lights else None

    def free_pick(self, state: State, seat: int) -> Mapping[str, Any] | None:
        return self._free_pick(self._own(state), seat) if self._free_pick else None
