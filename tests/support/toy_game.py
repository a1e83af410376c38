"""A tiny game that exercises every part of the engine contract.

It is the reference for how a game plugs into engines.core: a shuffle as a
chance move, hidden hands, a simultaneous secret choice, a die, rejections with
rule ids.  Rules ("TOY-n"):

TOY-1  12 cards "1".."12" are shuffled; each seat is dealt 3.
TOY-2  Every seat picks one card from its hand in secret, all at once.
TOY-3  When all have picked, one die is rolled; the highest pick scores the die.
TOY-4  After 3 rounds the highest score wins; equal highest scores tie.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

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
    apply_shuffle,
    shuffle_ranges,
)


@dataclass(frozen=True)
class Pick(Move):
    type: ClassVar[str] = "pick"
    seat: int
    card: str


@dataclass(frozen=True)
class Picked(Event):
    type: ClassVar[str] = "picked"
    seat: int


@dataclass(frozen=True)
class RoundWon(Event):
    type: ClassVar[str] = "round-won"
    seat: int
    cards: tuple[str, ...]
    die: int


@dataclass(frozen=True)
class Snap:
    phase: str  # shuffle | pick | roll | over
    hands: tuple[tuple[str, ...], ...]
    picks: tuple[str | None, ...]
    scores: tuple[int, ...]
    round: int


class ToyState(State[Snap]):
    def _to_act(self, s: Snap) -> frozenset[int]:
        if s.phase != "pick":
            return frozenset()
        return frozenset(i for i, p in enumerate(s.picks) if p is None)

    def _pending_chance(self, s: Snap) -> ChanceRequest | None:
        if s.phase == "shuffle":
            return ChanceRequest("shuffle", shuffle_ranges(12), label="shuffle the deck")
        if s.phase == "roll":
            return ChanceRequest("die", (6,), label="roll the die")
        return None

    def _step(self, s: Snap, move: Move) -> tuple[Snap, list[Event]]:
        if isinstance(move, ChanceMove):
            if s.phase == "shuffle":
                deck = apply_shuffle([str(n) for n in range(1, 13)], move.values)
                hands = tuple(tuple(deck[3 * i:3 * i + 3]) for i in range(self.seats))
                return replace(s, phase="pick", hands=hands), []
            die = move.values[0] + 1
            picks = [int(p) for p in s.picks]  # type: ignore[arg-type]
            best = max(picks)
            winner = picks.index(best)
            scores = tuple(sc + (die if i == winner else 0) for i, sc in enumerate(s.scores))
            over = s.round == 3
            nxt = replace(s, phase="over" if over else "pick", scores=scores, round=s.round + 1,
                          picks=(None,) * self.seats)
            return nxt, [RoundWon(winner, tuple(p for p in s.picks if p), die)]
        if not isinstance(move, Pick):
            raise Reject("TOY-2", f"{move.type} is not a move of this game")
        hand = s.hands[move.seat]
        if move.card not in hand:
            raise Reject("TOY-2", f"{move.card} is not in your hand", "pick a card you hold")
        hands = tuple(tuple(c for c in h if c != move.card) if i == move.seat else h for i, h in enumerate(s.hands))
        picks = tuple(move.card if i == move.seat else p for i, p in enumerate(s.picks))
        phase = "roll" if all(p is not None for p in picks) else "pick"
        return replace(s, hands=hands, picks=picks, phase=phase), [Picked(move.seat)]

    def _legal_moves(self, s: Snap, seat: int) -> list[Move]:
        return [Pick(seat, c) for c in s.hands[seat]]

    def _view(self, s: Snap, seat: int | None) -> JSON:
        view: JSON = {"round": s.round, "scores": list(s.scores), "hand_counts": [len(h) for h in s.hands],
                      "picked": [p is not None for p in s.picks]}
        if seat is not None:
            view["hand"] = list(s.hands[seat])
            view["my_pick"] = s.picks[seat]
        return view

    def _hidden_from(self, s: Snap, seat: int | None) -> frozenset[str]:
        secret = set()
        for i, hand in enumerate(s.hands):
            if i != seat:
                secret.update(hand)
                if s.picks[i]:
                    secret.add(s.picks[i])  # type: ignore[arg-type]
        return frozenset(secret)

    def _outcome(self, s: Snap) -> Outcome | None:
        if s.phase != "over":
            return None
        best = max(s.scores)
        winners = tuple(i for i, sc in enumerate(s.scores) if sc == best)
        return Outcome(winners, tuple(float(x) for x in s.scores), tie=len(winners) > 1, reason="three rounds played")

    def snapshot_to_json(self, s: Snap) -> JSON:
        return {"phase": s.phase, "hands": [list(h) for h in s.hands], "picks": list(s.picks),
                "scores": list(s.scores), "round": s.round}

    def snapshot_from_json(self, data: JSON) -> Snap:
        return Snap(data["phase"], tuple(tuple(h) for h in data["hands"]), tuple(data["picks"]),
                    tuple(data["scores"]), data["round"])


class ToyGame(Game):
    id = "toy"
    title = "Toy"
    players = (2, 3, 4)
    variants = ("standard",)
    move_types = (Pick,)
    rules_doc = "tests/support/toy_game.py"

    def new(self, seats, variant=None, deal=0, options=None) -> ToyState:
        variant = variant or self.variants[0]
        self.validate_setup(seats, variant, deal)
        if deal == PHYSICAL:
            raise ValueError("the toy game has no physical deal")
        snap = Snap("shuffle", ((),) * seats, (None,) * seats, (0,) * seats, 1)
        return ToyState(self, seats, variant, deal, snap, options)



GAME = ToyGame()
