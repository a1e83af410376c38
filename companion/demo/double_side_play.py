"""Double Side Play on the printed mat, for the demo: printed cards on each seat's played zone.

Each seat lays its card face up on its own played zone; the winner gathers the
trick face down onto its tricks pile when the next lead is laid.  Janken and
the trump colour are phone moves; the dice are the server's (shown on the boards).
Now and then a player lays a card of the wrong colour (DSP-7.3) or out of turn
(DSP-T1): the referee names the rule, the card goes back, the game goes on.
"""

from __future__ import annotations

import random

from companion.demo.render import Placed, printed_art
from companion.demo.script import Illegal, Script
from engines.core import FACE_DOWN, Move, State
from engines.double_side_play import Play, printed
from engines.double_side_play.snapshot import PLAY


def table_of(state: State) -> list[Placed]:
    """The trick in progress on its seats' played zones (the last trick until the next lead), backs on piles."""
    s = state.snapshot
    out: list[Placed] = []
    if s.phase != PLAY:
        return out
    shown = s.plays if s.plays else (s.tricks[-1].plays if s.tricks else ())
    for seat, card in shown:
        out.append(Placed(card, f"s{seat}.played"))
    for seat, won in enumerate(s.tricks_won):
        pending = not s.plays and s.tricks and s.tricks[-1].winner == seat and won == 1
        if won and not pending:
            out.append(Placed(FACE_DOWN, f"s{seat}.tricks"))
    return out


def _gathered(state: State) -> list[Placed]:
    s = state.snapshot
    return [Placed(FACE_DOWN, f"s{seat}.tricks") for seat, won in enumerate(s.tricks_won) if won] + [
        Placed(card, f"s{seat}.played") for seat, card in s.plays]


def camera(state: State, move: Move, table: list[Placed]) -> list[Placed] | None:
    if not isinstance(move, Play):
        return None
    return [*_gathered(state), Placed(move.card, f"s{move.seat}.played")]


def choose(state: State, rng: random.Random) -> Move:
    seat = min(state.to_act())
    moves = state.legal_moves(seat) or []
    return rng.choice(moves)


def illegal(state: State, table: list[Placed], rng: random.Random) -> Illegal | None:
    s = state.snapshot
    if s.phase != PLAY:
        return None
    seat = s.turn
    wrong = [c for c in s.hands[seat] if c not in state.playable(seat)]
    base = _gathered(state)
    if wrong and rng.random() < 0.25:
        return Illegal((*base, Placed(wrong[0], f"s{seat}.played")), ("DSP-7.3",),
                       f"seat {seat + 1} lays {wrong[0]}, not following the colour led")
    if rng.random() < 0.04:
        other = (seat + 1 + rng.randrange(state.seats - 1)) % state.seats
        if s.hands[other] and all(p != other for p, _ in s.plays):
            return Illegal((*base, Placed(s.hands[other][0], f"s{other}.played")), ("DSP-T1",),
                           f"seat {other + 1} lays a card out of turn")
    return None


def script(seats: int = 4, variant: str = "standard") -> Script:
    return Script("double-side-play", variant, seats, {}, printed_art("double-side-play", printed.index_of),
                  table_of, camera, choose, illegal)
