"""Double-Edge on the printed mat, for the demo: a standard deck on the two seats' zones.

What the camera sees is made on the mat: Strikers laid face up, a card
discarded with the Support laid on it, the tops of discard piles taken.  What
the phones do is sent by the phones: the Base and Supports sealed, indicators,
draws, ends of turn, the claim.  After each move the players tidy the mat to
the engine's position (combat results, reveals).  Now and then a player lays a
card out of turn (DE-T1) or a second Striker (DE-6.2): the referee names the
rule, the card goes back, the game goes on.
"""

from __future__ import annotations

import random

from companion.demo.render import Placed, standard_art
from companion.demo.script import Illegal, Script
from engines.core import FACE_DOWN, Move, State
from engines.double_edge import moves as m

ACTIONS = ("play-striker", "play-support", "discard-support", "play-gambit")


def table_of(state: State) -> list[Placed]:
    """The mat as the engine's position lies (a Base top card nearest its owner = highest layer)."""
    s = state.snapshot
    out: list[Placed] = []
    if len(s.deck) + s.deck_unknown:
        out.append(Placed(FACE_DOWN, "deck"))
    for seat in (0, 1):
        z = f"s{seat}."
        for i, card in enumerate(s.bases[seat]):
            out.append(Placed(card, z + "base", len(s.bases[seat]) - 1 - i))
        for i, _ in enumerate(s.sealed_bases[seat]):
            out.append(Placed(FACE_DOWN, z + "base", i))
        if s.strikers[seat]:
            stack = [s.strikers[seat], *s.middles[seat]] + ([s.supports[seat]] if s.middles[seat] else [])
            for i, card in enumerate(stack):
                out.append(Placed(card, z + "striker", len(stack) - 1 - i))
        if s.supports[seat] and not s.middles[seat]:
            out.append(Placed(s.supports[seat] if s.support_up[seat] else FACE_DOWN, z + "support"))
        if s.indicators[seat]:
            out.append(Placed(s.indicators[seat] if s.indicators_up else FACE_DOWN, z + "indicator"))
        for i, card in enumerate(s.discards[seat]):
            out.append(Placed(card, z + "discard", i))
    return out


def _top(table: list[Placed], zone: str) -> int:
    return max((p.layer for p in table if p.zone == zone), default=-1)


def camera(state: State, move: Move, table: list[Placed]) -> list[Placed] | None:
    s = state.snapshot
    seat = getattr(move, "seat", None)
    z = f"s{seat}."
    if isinstance(move, m.PlayStriker):
        return [*table, Placed(move.card, z + "striker")]
    if isinstance(move, m.DiscardSupport):
        n = _top(table, z + "discard")
        rest = [p for p in table if p.zone != z + "support"]
        return [*rest, Placed(move.card, z + "discard", n + 1), Placed(s.supports[seat], z + "discard", n + 2)]
    if isinstance(move, m.TakeDiscard | m.TakeDiscards):
        piles = (move.pile,) if isinstance(move, m.TakeDiscard) else (seat, 1 - seat)
        out = list(table)
        for p in piles:
            out = [x for x in out if not (x.zone == f"s{p}.discard" and x.card == s.discards[p][-1])]
        return out
    return None


def choose(state: State, rng: random.Random) -> Move:
    s = state.snapshot
    seat = min(state.to_act())
    moves = state.legal_moves(seat) or []
    if s.phase == "turn":
        # Prefer actions over ending the turn, so Strikers and Supports come and go.
        actions = [mv for mv in moves if mv.type in ACTIONS and mv.type != "play-gambit"]
        if actions and rng.random() < 0.6:
            return rng.choice(actions)
        moves = [mv for mv in moves if mv.type != "play-gambit"] or moves
    return rng.choice(moves)


def illegal(state: State, table: list[Placed], rng: random.Random) -> Illegal | None:
    s = state.snapshot
    if s.phase != "turn" or not state.to_act():
        return None
    seat = min(state.to_act())
    other = 1 - seat
    if s.hands[other] and rng.random() < 0.3:
        return Illegal((*table, Placed(s.hands[other][0], f"s{other}.striker")), ("DE-T1",),
                       f"seat {other + 1} lays a Striker when it is not its turn")
    if s.strikers[seat] and s.hands[seat] and rng.random() < 0.4:
        return Illegal((*table, Placed(s.hands[seat][0], f"s{seat}.striker")), ("DE-6.2", "DE-14.2"),
                       f"seat {seat + 1} lays a second Striker")
    return None


def script(max_rounds: int = 2, variant: str = "standard") -> Script:
    return Script("double-edge", variant, 2, {"max_rounds": max_rounds}, standard_art, table_of, camera, choose,
                  illegal, width=1280, height=720, pile_shown=1, effects=False, max_tilt=4.0)
