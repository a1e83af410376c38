"""The Keener engine: :class:`KeenerGame` (options, decks, setup) and :class:`KeenerState` (the contract hooks)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core import (
    JSON,
    PHYSICAL,
    ChanceMove,
    ChanceRequest,
    Event,
    Game,
    Move,
    Outcome,
    Reject,
    State,
    shuffle_ranges,
)
from engines.keener import combat, turn
from engines.keener.cloak import play_cloaked, uncloak
from engines.keener.decks import DEFAULT_DECKS, Deck, DeckError, resolve_deck
from engines.keener.hand import UNKNOWN
from engines.keener.ids import commander_id, copy_ids
from engines.keener.legal import legal_moves
from engines.keener.moves import MOVE_TYPES, Cloak, Deploy, Uncloak
from engines.keener.snapshot import Side, Snap, snap_from_json, snap_to_json
from engines.keener.view import hidden_from, view

FIRST_RULES = ("least-lp", "coin", "seat-1", "seat-2")
OPTIONS = ("decks", "first", "turn_limit")

_STEPS = {
    "economy": turn.economy,
    "spending": turn.spending,
    "declare": combat.declare,
    "block": combat.block,
    "assign": combat.assign,
    "kill": combat.kill,
}


class KeenerState(State[Snap]):
    def _to_act(self, s: Snap) -> frozenset[int]:
        if s.phase in _STEPS:
            return frozenset((1 - s.active,) if s.phase == "block" else (s.active,))
        return frozenset()

    def _pending_chance(self, s: Snap) -> ChanceRequest | None:
        if s.phase in ("shuffle-1", "shuffle-2"):
            seat = 0 if s.phase == "shuffle-1" else 1
            return ChanceRequest("shuffle", shuffle_ranges(len(s.sides[seat].deck)), seat,
                                 f"shuffle seat {seat + 1}'s deck")
        if s.phase == "coin":
            return ChanceRequest("coin", (2,), None, "toss a coin: heads (0) seat 1 goes first, tails (1) seat 2")
        return None

    def _step(self, s: Snap, move: Move) -> tuple[Snap, list[Event]]:
        ev: list[Event] = []
        if isinstance(move, ChanceMove):
            return turn.setup_chance(s, move, ev), ev
        if isinstance(move, Uncloak):
            return uncloak(s, move, ev), ev
        if isinstance(move, Cloak):
            if s.phase != "spending":
                raise Reject("KN-8.1", "cards are played face down only in your Spending phase",
                             "cloak it in your Spending phase")
            return play_cloaked(s, move, ev), ev
        if isinstance(move, Deploy) and s.phase != "spending":
            raise Reject("KN-6.1", "resources are spent on cards only in your Spending phase",
                         "play it in your Spending phase")
        return _STEPS[s.phase](s, move, ev), ev

    def _legal_moves(self, s: Snap, seat: int) -> list[Move] | None:
        """None with a hand-shuffled deck: the engine does not know the hand."""
        return None if s.physical else legal_moves(s, seat)

    def _view(self, s: Snap, seat: int | None) -> JSON:
        return view(s, seat)

    def _hidden_from(self, s: Snap, seat: int | None) -> frozenset[str]:
        return hidden_from(s, seat)

    def _outcome(self, s: Snap) -> Outcome | None:
        if s.phase != "over":
            return None
        if s.winner is None:
            return Outcome((), (0.0, 0.0), False, s.reason)
        scores = tuple(1.0 if i == s.winner else 0.0 for i in range(2))
        return Outcome((s.winner,), scores, False, s.reason)

    def snapshot_to_json(self, s: Snap) -> JSON:
        return snap_to_json(s)

    def snapshot_from_json(self, data: JSON) -> Snap:
        return snap_from_json(data)


def parse_options(options: Mapping[str, Any] | None) -> tuple[tuple[Deck, Deck], str, int | None]:
    """The decks, first-player rule and turn limit a table asked for; ValueError listing every problem."""
    options = dict(options or {})
    problems: list[str] = []
    for key in options:
        if key not in OPTIONS:
            problems.append(f"unknown option {key!r}; Keener takes {', '.join(OPTIONS)}")
    specs = options.get("decks", list(DEFAULT_DECKS))
    decks: list[Deck] = []
    if not isinstance(specs, list | tuple) or len(specs) != 2:
        problems.append("option 'decks' must list two decks, one per seat")
    else:
        for seat, spec in enumerate(specs):
            try:
                decks.append(resolve_deck(spec))
            except DeckError as exc:
                problems.extend(f"seat {seat + 1}'s deck: {p}" for p in exc.problems)
    first = options.get("first", "least-lp")
    if first not in FIRST_RULES:
        problems.append(f"option 'first' must be one of {', '.join(FIRST_RULES)}, not {first!r}")
    limit = options.get("turn_limit")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        problems.append(f"option 'turn_limit' must be a whole number of 1 or more, not {limit!r}")
    if problems:
        raise ValueError("Keener cannot start this table:\n  " + "\n  ".join(problems))
    return (decks[0], decks[1]), first, limit


class KeenerGame(Game):
    id = "keener"
    title = "Keener"
    players = (2,)
    variants = ("standard",)
    move_types = MOVE_TYPES
    rules_doc = "docs/rules/keener.md"

    def new(self, seats: int, variant: str | None = None, deal: Any = 0,
            options: Mapping[str, Any] | None = None) -> KeenerState:
        """Options: ``decks`` (two sample-deck ids or deck objects; default Saga vs Ferra),
        ``first`` (least-lp | coin | seat-1 | seat-2; default least-lp) and ``turn_limit``."""
        variant = variant or self.variants[0]
        self.validate_setup(seats, variant, deal)
        decks, first, limit = parse_options(options)
        if deal == PHYSICAL:
            # Shuffled and dealt by hand: the engine knows each decklist, not the order (hand.py).
            sides = tuple(Side(deck_name=d.name, commander=commander_id(seat, d.commander),
                               deck=(UNKNOWN,) * len(d.cards), unseen=copy_ids(seat, d.cards))
                          for seat, d in enumerate(decks))
            snap = Snap("shuffle-2", 0, 0, sides, first_rule=first, turn_limit=limit,  # type: ignore[arg-type]
                        physical=True)
            snap = turn.after_shuffles(snap, [])
        else:
            sides = tuple(Side(deck_name=d.name, commander=commander_id(seat, d.commander),
                               deck=copy_ids(seat, d.cards)) for seat, d in enumerate(decks))
            snap = Snap("shuffle-1", 0, 0, sides, first_rule=first, turn_limit=limit)  # type: ignore[arg-type]
        return KeenerState(self, seats, variant, deal, snap, options)

    def setups(self) -> list[tuple[int, str, dict[str, Any]]]:
        return [(2, "standard", {}), (2, "standard", {"decks": ["ferra-sample", "ferra-sample"]})]


GAME = KeenerGame()
