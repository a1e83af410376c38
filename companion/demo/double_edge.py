"""Double-Edge on the printed mat, for the demo: a standard deck on the two seats' zones.

Two ways to deal.  In a seeded deal the engine knows every card and turns the
Bases and indicators over itself; the camera takes the Strikers, the discards
and the cards taken from the piles.  In a physical deal (``deal="physical"``,
DE-15) the engine knows no hidden card, as at a real table: the players (this
script) hold a real shuffled deck of their own (:class:`Players`, a seeded game
the engine never sees), and the camera carries everything a camera can see:
the Bases turned face up after they were sealed (``Reveal``, checked against the
seal), Strikers laid, a card discarded with the Support laid on it, the
indicators turned over (aces included), an attacked Support turned over, the
cards taken from the discard piles, a claimed Support laid under the Base.
The phones carry only what is hidden or a confirmation: the sealed Base,
Support and indicator, the draw from the face-down deck, the end of a turn, a
declined claim.  After each move the players tidy the mat to the engine's
position (combat results).  Now and then a player breaks a rule on the mat
(``illegal``): the referee names it, the card goes back, the game goes on.
"""

from __future__ import annotations

import random
import weakref

from companion.demo.render import Placed, standard_art
from companion.demo.script import Illegal, Script
from engines.core import FACE_DOWN, ChanceMove, Move, State
from engines.double_edge import GAME
from engines.double_edge import moves as m
from engines.playout import sample_chance

ACTIONS = ("play-striker", "play-support", "discard-support", "play-gambit")


def _shown_up(s, seat: int, what: str) -> bool:
    """Physical deal: ``seat``'s sealed ``what`` was turned over and checked while the other's still waits."""
    return s.phase == "reveal" and (seat, what) not in s.pending and any(w == what for _, w in s.pending)


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
        sealed = s.sealed_bases[seat]
        up = _shown_up(s, seat, "base")
        for i, card in enumerate(sealed):
            out.append(Placed(card if up else FACE_DOWN, z + "base", len(sealed) - 1 - i))
        if s.strikers[seat]:
            stack = [s.strikers[seat], *s.middles[seat]] + ([s.supports[seat]] if s.middles[seat] else [])
            for i, card in enumerate(stack):
                out.append(Placed(card, z + "striker", len(stack) - 1 - i))
        if s.supports[seat] and not s.middles[seat]:
            out.append(Placed(s.supports[seat] if s.support_up[seat] else FACE_DOWN, z + "support"))
        if s.indicators[seat]:
            up = s.indicators_up or _shown_up(s, seat, "indicator")
            out.append(Placed(s.indicators[seat] if up else FACE_DOWN, z + "indicator"))
        for i, card in enumerate(s.discards[seat]):
            out.append(Placed(card, z + "discard", i))
    return out


def _top(table: list[Placed], zone: str) -> int:
    return max((p.layer for p in table if p.zone == zone), default=-1)


def _turned_over(state: State, what: str, table: list[Placed]) -> list[Placed]:
    """Every sealed ``what`` still waiting (both Bases, both indicators: together) turned face up in place."""
    s = state.snapshot
    seats = [seat for seat, w in s.pending if w == what]
    out = [p for p in table if not (p.card == FACE_DOWN and any(p.zone == f"s{x}.{what}" for x in seats))]
    for seat in seats:
        z = f"s{seat}.{what}"
        if what == "base":
            cards = s.sealed_bases[seat]
            out += [Placed(c, z, len(cards) - 1 - i) for i, c in enumerate(cards)]
        else:
            out.append(Placed((s.indicators if what == "indicator" else s.supports)[seat], z))
    return out


def camera(state: State, move: Move, table: list[Placed]) -> list[Placed] | None:
    """The mat after a player makes ``move`` by hand, for the moves a camera sees; None: a phone move."""
    s = state.snapshot
    seat = getattr(move, "seat", None)
    z = f"s{seat}."
    if isinstance(move, m.Reveal):
        return _turned_over(state, move.what, table)
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
    if isinstance(move, m.Claim) and move.take:
        # The claimed Support slides under the Base: the new bottom card, farthest from its owner.
        cards = list(s.claim_cards)
        rest = [p for p in table if p.card not in cards]
        base = [*s.bases[seat], *cards]
        rest = [p for p in rest if p.zone != z + "base"]
        return rest + [Placed(c, z + "base", len(base) - 1 - i) for i, c in enumerate(base)]
    return None


class Players:
    """The two players' own knowledge of the game: what is really in each hand.

    In a seeded deal the engine knows it (the table's own state is used).  In a
    physical deal it does not (DE-15.1), so the players keep a real deck of their
    own: a seeded game the table never sees, played move for move alongside it
    (the coin is read from the table; the table's reveals are the players turning
    their own sealed cards over).
    """

    def __init__(self, seed: int = 1):
        self.seed = seed
        self._table: weakref.ref | None = None
        self.truth: State | None = None

    def knows(self, state: State) -> State:
        """The state whose hands are the real hands (a new table starts a new game of the players')."""
        if not getattr(state, "physical", False):
            return state
        if self._table is None or self._table() is not state:
            self._table = weakref.ref(state)
            truth = GAME.new(2, state.variant, self.seed, dict(state.options))
            truth.apply(sample_chance(truth.pending_chance(), random.Random(self.seed)))
            self.truth = truth
        truth = self.truth
        assert truth is not None
        if truth.snapshot.phase == "coin" and state.snapshot.first >= 0:
            truth.apply(ChanceMove((state.snapshot.first,)))
        return truth

    def hand(self, state: State, seat: int) -> tuple[str, ...]:
        return tuple(self.knows(state).snapshot.hands[seat])

    def choose(self, state: State, rng: random.Random) -> Move:
        s = state.snapshot
        seat = min(state.to_act())
        if s.phase == "reveal":
            what = next(w for p, w in s.pending if p == seat)
            cards = {"base": tuple(s.sealed_bases[seat]), "indicator": (s.indicators[seat],),
                     "support": (s.supports[seat],)}[what]
            return m.Reveal(seat, what, cards)
        truth = self.knows(state)
        move = _pick(truth, seat, rng)
        if truth is not state:
            truth.apply(move)
        return move


def _pick(state: State, seat: int, rng: random.Random) -> Move:
    """A plausible player: builds, attacks often (so a Base falls within a few rounds), claims."""
    s = state.snapshot
    moves = state.legal_moves(seat) or []
    if s.phase == "turn":
        moves = [mv for mv in moves if mv.type != "play-gambit"] or moves
        actions = [mv for mv in moves if mv.type in ACTIONS]
        strikers = [mv for mv in actions if mv.type == "play-striker"]
        if strikers:
            return rng.choice(strikers)
        if actions and rng.random() < 0.5:
            mv = rng.choice(actions)
            if isinstance(mv, m.DiscardSupport):
                # The Support as the camera sees it land (DE-15.4): named while it was still face down.
                return m.DiscardSupport(seat, mv.card, None if s.support_up[seat] else s.supports[seat])
            return mv
        ends = [mv for mv in moves if mv.type not in ACTIONS]
        takes = [mv for mv in ends if mv.type in ("take-discard", "take-discards")]
        return rng.choice(takes) if takes and rng.random() < 0.5 else rng.choice(ends)
    if s.phase == "indicate":
        from engines.double_edge.cards import ACES

        red, black = ACES[seat]
        roll = rng.random()
        if roll < 0.45:
            return m.Indicate(seat, black)
        if roll < 0.75 and s.strikers[1 - seat]:
            return m.Indicate(seat, red)
        return rng.choice(moves)
    if s.phase == "claim":
        return m.Claim(seat, rng.random() < 0.8)
    return rng.choice(moves)


def _illegal(players: Players):
    def illegal(state: State, table: list[Placed], rng: random.Random) -> Illegal | None:
        s = state.snapshot
        if s.phase != "turn" or not state.to_act():
            return None
        seat = min(state.to_act())
        other = 1 - seat
        mine, theirs = players.hand(state, seat), players.hand(state, other)
        roll = rng.random()
        if theirs and not s.strikers[other] and roll < 0.15:
            return Illegal((*table, Placed(theirs[0], f"s{other}.striker")), ("DE-T1",),
                           f"seat {other + 1} lays a Striker when it is not its turn")
        if s.strikers[seat] and mine and roll < 0.3:
            on_top = _top(table, f"s{seat}.striker") + 1
            return Illegal((*table, Placed(mine[0], f"s{seat}.striker", on_top)), ("DE-6.2", "DE-14.2"),
                           f"seat {seat + 1} lays a second Striker")
        if s.strikers[seat] and s.supports[seat] is None and mine and roll < 0.45:
            return Illegal((*table, Placed(mine[0], f"s{seat}.support")), ("DE-T4",),
                           f"seat {seat + 1} lays its Support face up")
        if s.supports[seat] is None and mine and roll < 0.6:
            n = _top(table, f"s{seat}.discard")
            return Illegal((*table, Placed(mine[0], f"s{seat}.discard", n + 1)), ("DE-6.3",),
                           f"seat {seat + 1} discards a card with no Support to remove")
        return None

    return illegal


def script(max_rounds: int = 100, variant: str = "standard", seed: int = 1) -> Script:
    """The Double-Edge demo script; ``seed``: the players' own shuffle in a physical deal."""
    players = Players(seed)
    return Script("double-edge", variant, 2, {"max_rounds": max_rounds}, standard_art, table_of, camera,
                  players.choose, _illegal(players), width=1920, height=1080, pile_shown=1, effects=False,
                  max_tilt=4.0, deal="physical")
