"""The immutable snapshot of a Double-Edge game and a mutable working copy.

``Snap`` is what the State keeps and serialises.  Rule code edits a ``Table``
(plain lists) and freezes it back, so a rejected move simply drops the copy:
the snapshot it came from was never touched.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from engines.core import JSON, from_plain, to_plain

Pair = tuple  # per seat, index = seat


@dataclass(frozen=True)
class Snap:
    """Every fact of the game.  Per-seat fields are pairs indexed by seat.

    Stacks are listed top first (Bases, Gambit middles); discard piles bottom
    first, so the top of a pile is its last card.  In a seeded deal ``deck`` is
    the shared deck, top first; in a physical deal it is empty and
    ``deck_unknown`` counts the unseen cards (likewise ``hand_unknown``).
    """

    phase: str  # shuffle | build | reveal | coin | turn | indicate | claim | over
    round: int = 0
    first: int = -1  # seat that goes first this round
    stage: int = 0  # 1: first player's turn, 2: second player's, 3: extra turn
    first_acted: bool = False
    deck: tuple[str, ...] = ()
    deck_unknown: int = 0
    hands: tuple[tuple[str, ...], ...] = ((), ())
    hand_unknown: tuple[int, ...] = (0, 0)
    bases: tuple[tuple[str, ...], ...] = ((), ())
    sealed_bases: tuple[tuple[str, ...], ...] = ((), ())
    strikers: tuple[str | None, ...] = (None, None)
    middles: tuple[tuple[str, ...], ...] = ((), ())
    supports: tuple[str | None, ...] = (None, None)
    support_up: tuple[bool, ...] = (False, False)
    indicators: tuple[str | None, ...] = (None, None)
    indicators_up: bool = False
    discards: tuple[tuple[str, ...], ...] = ((), ())
    pending: tuple[tuple[int, str], ...] = ()  # physical deal: (seat, "base"|"indicator"|"support") to reveal
    had_striker: tuple[bool, ...] = (False, False)  # at the start of this action turn
    claim_seat: int = -1
    claim_cards: tuple[str, ...] = ()
    winners: tuple[int, ...] = ()
    tie: bool = False
    reason: str = ""
    known: tuple[tuple[str, ...], ...] = ((), ())
    """Cards each seat took into its hand face up (from a discard pile or its Base):
    the whole table saw them, so they are public while they stay in that hand (DE-R19)."""


_FIELDS = tuple(f.name for f in fields(Snap))


def snap_to_json(s: Snap) -> JSON:
    return {name: to_plain(getattr(s, name)) for name in _FIELDS}


def snap_from_json(data: JSON) -> Snap:
    snap = from_plain(Snap, data)
    assert isinstance(snap, Snap)
    return snap


class Table:
    """A mutable working copy of a :class:`Snap` (lists instead of tuples)."""

    def __init__(self, s: Snap):
        self.phase = s.phase
        self.round = s.round
        self.first = s.first
        self.stage = s.stage
        self.first_acted = s.first_acted
        self.deck = list(s.deck)
        self.deck_unknown = s.deck_unknown
        self.hands = [list(s.hands[0]), list(s.hands[1])]
        self.hand_unknown = list(s.hand_unknown)
        self.bases = [list(s.bases[0]), list(s.bases[1])]
        self.sealed_bases = [list(s.sealed_bases[0]), list(s.sealed_bases[1])]
        self.strikers = list(s.strikers)
        self.middles = [list(s.middles[0]), list(s.middles[1])]
        self.supports = list(s.supports)
        self.support_up = list(s.support_up)
        self.indicators = list(s.indicators)
        self.indicators_up = s.indicators_up
        self.discards = [list(s.discards[0]), list(s.discards[1])]
        self.pending = list(s.pending)
        self.had_striker = list(s.had_striker)
        self.claim_seat = s.claim_seat
        self.claim_cards = list(s.claim_cards)
        self.winners = s.winners
        self.tie = s.tie
        self.reason = s.reason
        self.known = [list(s.known[0]), list(s.known[1])]

    def freeze(self) -> Snap:
        # Positional and spelled out per seat: this runs once per accepted move, so it is kept cheap.
        h, b, sb, mi, d = self.hands, self.bases, self.sealed_bases, self.middles, self.discards
        return Snap(
            self.phase, self.round, self.first, self.stage, self.first_acted,
            tuple(self.deck), self.deck_unknown,
            (tuple(h[0]), tuple(h[1])), tuple(self.hand_unknown),
            (tuple(b[0]), tuple(b[1])), (tuple(sb[0]), tuple(sb[1])),
            tuple(self.strikers), (tuple(mi[0]), tuple(mi[1])),
            tuple(self.supports), tuple(self.support_up),
            tuple(self.indicators), self.indicators_up,
            (tuple(d[0]), tuple(d[1])), tuple(self.pending),
            tuple(self.had_striker), self.claim_seat, tuple(self.claim_cards),
            self.winners, self.tie, self.reason,
            (tuple(self.known[0]), tuple(self.known[1])),
        )

    # ---- small facts the rules read -------------------------------------
    def took_face_up(self, seat: int, card: str) -> None:
        """``card`` entered ``seat``'s hand in view of the table (DE-R19)."""
        self.known[seat] = [c for c in self.known[seat] if c in self.hands[seat] and c != card] + [card]

    def hand_size(self, seat: int) -> int:
        return len(self.hands[seat]) + self.hand_unknown[seat]

    def deck_size(self) -> int:
        return len(self.deck) + self.deck_unknown

    def turn_seat(self) -> int:
        return self.first if self.stage in (1, 3) else 1 - self.first
