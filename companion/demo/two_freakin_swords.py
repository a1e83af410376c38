"""Two Freakin' Swords on the printed mat, for the demo: printed cards on the fighters' arm spots.

What the phones do: opening hands, announcements (lunges, a 1v2 coin pass),
and the seal of every placed card (``Place``, with the counters of an arm under
a lunge).  What the camera sees: each card laid face down on its arm spot, its
back showing its side (a marked back), whereupon the referee asks the seat to
seal it and the phone does (the driver's ``sealed`` moves), and the card
turned face up (``Reveal``, aggressors before defenders).  After each move the fighters tidy
the mat to the engine's position (a finished turn's cards go to the discard
pile).  Now and then a fighter breaks a rule at the table: a defender lays a
card before the aggressors are down (TFS-7.3), a card laid face up (TFS-T3), a card turned
up early (TFS-7.4) or out of order (TFS-7.5), or the wrong card turned up
(TFS-7.6).  The referee names the rule, the card goes back, the fight goes on.

Deal ``"physical"`` (the default for the demo table): the server never knows
the hands.  The script then holds the table's real cards itself
(:class:`Physical`): each fighter's shuffled printed deck, the opening hand
they pick, what they draw when the engine says they draw, and which printed
card they lay; the phone seals the card by its printed id.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.demo.render import Placed, printed_art
from companion.demo.script import Illegal, Script
from engines.core import PHYSICAL, Move, State
from engines.two_freakin_swords import printed
from engines.two_freakin_swords.cards import kind_of, side_of
from engines.two_freakin_swords.moves import Announce, Place, Reveal
from engines.two_freakin_swords.rules import PLACE_PHASES, REVEAL_PHASES
from engines.two_freakin_swords.seating import seat_of
from engines.two_freakin_swords.table import zone_of

GAME = "two-freakin-swords"
LUNGE = 0.7
"""How often a fighter who may lunge does (so lunges happen in a short demo)."""
PASS = 0.7
"""How often a 1v2 teammate holding the third coin passes it."""


def _back(card: str) -> str:
    return f"back:{side_of(card)}"


def table_of(state: State) -> list[Placed]:
    """This round's cards on their arm spots: sealed ones face down (side showing), turned ones face up."""
    out: list[Placed] = []
    for p in state.snapshot.placements:
        if p.card is None:
            continue
        out.append(Placed(p.card if p.revealed else _back(p.card), zone_of(p.arm)))
    return out


def camera(state: State, move: Move, table: list[Placed]) -> list[Placed] | None:
    """A card laid face down on its arm spot (the camera sees its side and asks the seat to seal it; the
    phone's seal completes the move), or a card turned up where its back lay; the rest is on the phones."""
    if isinstance(move, Place) and move.card is not None:
        zone = zone_of(f"{move.seat}{move.arm}")
        return [p for p in table if p.zone != zone] + [Placed(_back(move.card), zone)]
    if not isinstance(move, Reveal):
        return None
    arm = f"{move.seat}{move.arm}"
    sealed = state.snapshot.placement(arm).card  # type: ignore[union-attr]
    zone = zone_of(arm)
    return [p for p in table if p.zone != zone] + [Placed(sealed, zone)]


@dataclass
class Physical:
    """The real cards at a physical-deal table, which the server never sees: decks, hands, piles.

    Seat ``p``'s own deck is printed deck ``p + 1``; the community deck is
    printed decks 1 and 2.  Decks are shuffled at the start.  The engine says
    how many cards a hand holds; when a hand here holds fewer, the fighter
    draws the difference from the top of their pile, reshuffling its discard
    pile into it when it is empty, as the players would (and as the engine
    counts, TFS-14.1).  Cards the engine no longer has in play go to their
    discard pile after the draws, as the engine does at the start of a turn.
    """

    seats: int
    community: bool
    rng: random.Random
    decks: list[list[str]] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    discards: list[list[str]] = field(default_factory=list)
    played: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        sizes = [80] if self.community else [40] * self.seats
        for pile, size in enumerate(sizes):
            cards = [printed.card_of(pile * 40 + i) for i in range(size)]
            self.rng.shuffle(cards)
            self.decks.append(cards)
            self.discards.append([])
        self.hands = [[] for _ in range(self.seats)]

    def pile(self, seat: int) -> int:
        return 0 if self.community else seat

    def sync(self, state: State) -> None:
        """Bring the real hands in line with the engine's counts (draws), then clear played cards away."""
        s = state.snapshot
        for seat in range(self.seats):
            if seat in s.eliminated and self.hands[seat]:
                # ruling TFS-R13: a community hand goes to the discard pile, an own deck's leaves with them
                if self.community:
                    self.discards[0] += self.hands[seat]
                self.hands[seat] = []
            while len(self.hands[seat]) < len(s.hands[seat]):
                pile = self.pile(seat)
                if not self.decks[pile]:
                    self.decks[pile], self.discards[pile] = self.discards[pile], []
                    self.rng.shuffle(self.decks[pile])
                self.hands[seat].append(self.decks[pile].pop())
        on_table = {p.card for p in s.placements if p.card} | set(s.in_play)
        for card in sorted(self.played - on_table):
            self.played.discard(card)
            self.discards[0 if self.community else printed.index_of(card) // 40].append(card)

    def lay(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.played.add(card)


class Fighters:
    """The script's choices: the engine's legal moves (seeded deal) or the real hands (physical deal).

    The real cards are kept per table (a new :class:`Physical` for each new game state)."""

    def __init__(self, seed: int):
        self.seed = seed
        self.physical: Physical | None = None
        self._state: State | None = None
        """The state the real cards belong to, held rather than its ``id()``: a new game's state may get a
        freed one's address."""

    def real(self, state: State) -> Physical | None:
        if state.deal != PHYSICAL:
            return None
        if self._state is not state or self.physical is None:
            f = state.fight  # type: ignore[attr-defined]
            self.physical = Physical(f.seats, f.community, random.Random(self.seed))
            self._state = state
        self.physical.sync(state)
        return self.physical

    def choose(self, state: State, rng: random.Random) -> Move:
        s = state.snapshot
        seat = min(state.to_act())
        real = self.real(state)
        if s.phase == "opening":
            return rng.choice(state.legal_moves(seat) or [])
        if s.phase == "announce":
            moves = [m for m in state.legal_moves(seat) or [] if isinstance(m, Announce)]
            lunges = [m for m in moves if m.lunge_at and not m.pass_arm]
            passes = [m for m in moves if m.pass_arm and not m.lunge_at]
            if passes and rng.random() < PASS:
                return rng.choice(passes)
            if lunges and rng.random() < LUNGE:
                return rng.choice(lunges)
            return next(m for m in moves if not m.lunge_at and not m.pass_arm)
        if s.phase in PLACE_PHASES:
            arm = next(a for a in s.waiting if seat_of(a) == seat)
            targeted = any(t == arm for _, t in s.lunges)
            hand = real.hands[seat] if real is not None else list(s.hands[seat])
            if not hand:
                return Place(seat, arm[-1], None)  # type: ignore[arg-type]  # ruling TFS-R10
            card = rng.choice(hand)
            if real is not None:
                real.lay(seat, card)
            counters = rng.choice(("R", "L")) if targeted else None
            return Place(seat, arm[-1], card, counters)  # type: ignore[arg-type]
        if s.phase in REVEAL_PHASES:
            arm = next(a for a in s.waiting if seat_of(a) == seat)
            return Reveal(seat, arm[-1], s.placement(arm).card)  # type: ignore[arg-type, union-attr]
        raise AssertionError(f"nobody acts in phase {s.phase}")


def _hand(state: State, seat: int, real: Physical | None) -> list[str]:
    return list(real.hands[seat]) if real is not None else list(state.snapshot.hands[seat])


def make_illegal(fighters: Fighters, chance: float):
    def illegal(state: State, table: list[Placed], rng: random.Random) -> Illegal | None:
        """One of the table's mistakes, fitting the moment, now and then."""
        if rng.random() >= chance:
            return None
        s = state.snapshot
        base = table_of(state)
        real = fighters.real(state)
        options: list[Illegal] = []
        if s.phase == "place-1":
            for arm in s.round2:
                if s.placement(arm) is None and _hand(state, seat_of(arm), real):
                    card = _hand(state, seat_of(arm), real)[0]
                    options.append(Illegal((*base, Placed(_back(card), zone_of(arm))), ("TFS-7.3",),
                                           f"seat {seat_of(arm) + 1} lays a defending card before the aggressors"))
                    break
        if s.phase in PLACE_PHASES:
            for arm in s.waiting:
                hand = _hand(state, seat_of(arm), real)
                if s.placement(arm) is None and hand:
                    options.append(Illegal((*base, Placed(hand[0], zone_of(arm))), ("TFS-T3",),
                                           f"seat {seat_of(arm) + 1} lays {hand[0]} face up"))
                    break
        # (A sealed card swapped in place for one of the other side, TFS-1.1, is not scripted: vision's
        # stability filter keeps the first back where a second one is laid in the same place at once.)
        sealed = [p for p in s.placements if p.card and not p.revealed]
        if s.phase == "place-2":
            for p in sealed:
                if p.arm in s.round1:
                    rest = [x for x in base if x.zone != zone_of(p.arm)]
                    options.append(Illegal((*rest, Placed(p.card, zone_of(p.arm))), ("TFS-7.4",),  # type: ignore[arg-type]
                                           f"seat {seat_of(p.arm) + 1} turns its card up before every arm is down"))
                    break
        if s.phase == "reveal-1":
            for p in sealed:
                if p.arm in s.round2:
                    rest = [x for x in base if x.zone != zone_of(p.arm)]
                    options.append(Illegal((*rest, Placed(p.card, zone_of(p.arm))), ("TFS-7.5",),  # type: ignore[arg-type]
                                           f"seat {seat_of(p.arm) + 1} (defending) turns its card up before "
                                           "the aggressors"))
                    break
        if s.phase in REVEAL_PHASES:
            for arm in s.waiting:
                p = s.placement(arm)
                wrong = [c for c in _hand(state, seat_of(arm), real) if kind_of(c) != kind_of(p.card)]  # type: ignore[union-attr, arg-type]
                if wrong:
                    rest = [x for x in base if x.zone != zone_of(arm)]
                    options.append(Illegal((*rest, Placed(wrong[0], zone_of(arm))), ("TFS-7.6",),
                                           f"seat {seat_of(arm) + 1} turns up {kind_of(wrong[0])} from its hand "
                                           "instead of the sealed card"))
                    break
        return rng.choice(options) if options else None

    return illegal


def script(seats: int = 2, variant: str = "duel", options: dict | None = None, seed: int = 1,
           illegal_chance: float = 0.12) -> Script:
    """The demo's fight (a seeded or a physical deal: the table says which)."""
    fighters = Fighters(seed)
    out = Script(GAME, variant, seats, dict(options or {}), printed_art(GAME, printed.index_of), table_of, camera,
                 fighters.choose, make_illegal(fighters, illegal_chance))
    out.sealed = ("place",)  # type: ignore[attr-defined]  # the driver: a card laid is sealed on the phone
    return out
