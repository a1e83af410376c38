"""Helpers shared by the Double Side Play tests: chosen deals, chosen dice, scripted tricks.

No tests live here.  A deal is made by inverting the engine's Fisher-Yates
shuffle, so a test can say exactly which seat holds which cards and still
enter the game through the real chance move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engines.core import ChanceMove, apply_shuffle
from engines.double_side_play import GAME, Deck, Play
from engines.double_side_play.state import DoubleSidePlayState

DECK = Deck()
COLOURS = DECK.colours


def colour_cards(initial: str, numbers: Iterable[int]) -> list[str]:
    return [f"{initial}{n}" for n in numbers]


def shuffle_values(initial: Sequence[str], target: Sequence[str]) -> tuple[int, ...]:
    """The chance values that make :func:`apply_shuffle` turn ``initial`` into ``target``."""
    cur = list(initial)
    values = []
    for i in range(len(cur) - 1, 0, -1):
        j = cur.index(target[i])
        values.append(j)
        cur[i], cur[j] = cur[j], cur[i]
    assert tuple(cur) == tuple(target)
    assert apply_shuffle(initial, values) == tuple(target)
    return tuple(values)


def deal_move(hands: Sequence[Sequence[str]], deck: Deck = DECK) -> ChanceMove:
    """The shuffle that deals ``hands`` (12 each); leftover cards go out of the round."""
    dealt = [c for hand in hands for c in hand]
    assert all(len(h) == 12 for h in hands) and len(set(dealt)) == len(dealt)
    rest = [c for c in deck.ids if c not in set(dealt)]
    return ChanceMove(shuffle_values(deck.ids, dealt + rest))


def roll(a: int, b: int) -> ChanceMove:
    return ChanceMove((a - 1, b - 1))


def by_colour() -> list[list[str]]:
    """Seat k holds all twelve cards of colour k (R, B, G, Y)."""
    return [colour_cards(i, range(1, 13)) for i in "RBGY"]


def split_deal() -> list[list[str]]:
    """Seat 1: red and blue 1-6; seat 2: red and blue 7-12; seat 3 green; seat 4 yellow."""
    return [colour_cards("R", range(1, 7)) + colour_cards("B", range(1, 7)),
            colour_cards("R", range(7, 13)) + colour_cards("B", range(7, 13)),
            colour_cards("G", range(1, 13)), colour_cards("Y", range(1, 13))]


def start(seats: int = 4, variant: str = "standard", hands: Sequence[Sequence[str]] | None = None,
          dice: Sequence[tuple[int, int]] = (), deal: Any = 1, options: dict | None = None) -> DoubleSidePlayState:
    """A game after the deal (seeded: ``hands``) and the given dice, in seat order."""
    state = GAME.new(seats, variant, deal=deal, options=options)
    if hands is not None:
        state.apply(deal_move(hands, state.deck))
    for a, b in dice:
        state.apply(roll(a, b))
    return state


def next_round(state: DoubleSidePlayState, hands: Sequence[Sequence[str]] | None,
               dice: Sequence[tuple[int, int]]) -> list:
    events = []
    if hands is not None:
        events += state.apply(deal_move(hands, state.deck))
    for a, b in dice:
        events += state.apply(roll(a, b))
    return events


def play(state: DoubleSidePlayState, *cards: str) -> list:
    """The seats on turn play ``cards`` one after another; returns all events."""
    events = []
    for card in cards:
        (seat,) = state.to_act()
        events += state.apply(Play(seat, card))
    return events


def play_first_legal(state: DoubleSidePlayState, tricks: int = 12) -> list:
    """Seeded deal: every seat plays its first legal card until ``tricks`` tricks are done."""
    events = []
    target = state.snapshot.round, state.snapshot.trick + tricks
    while state.outcome is None and (state.snapshot.round, state.snapshot.trick) < target \
            and state.snapshot.phase == "play":
        (seat,) = state.to_act()
        events += state.apply(state.legal_moves(seat)[0])
    return events


def of_type(events: Iterable, kind: str) -> list:
    return [e for e in events if e.type == kind]
