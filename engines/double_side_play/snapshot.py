"""The immutable snapshot of a Double Side Play game (one value per moment).

Everything the rules need is here and nothing else: the state object swaps
whole snapshots, which gives exact undo and "unchanged on error" (engines/core.py).
Seats are ``0 .. n-1`` clockwise.  Only the current round keeps card ids;
finished rounds are summarised without them, so a new deal never finds an old
trick naming a card that is now hidden in someone's hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core import JSON

# Phases
DEAL = "deal"        # seeded: waiting for the shuffle (chance)
DICE = "dice"        # waiting for a seat's two dice (chance)
JANKEN = "janken"    # tied seats choose rock/paper/scissors in secret
TRUMP = "trump"      # the trump chooser names a colour (variant trump)
PLAY = "play"        # tricks
OVER = "over"


@dataclass(frozen=True)
class TrickRecord:
    trick: int
    leader: int
    plays: tuple[tuple[int, str], ...]
    winner: int


@dataclass(frozen=True)
class VoidClaim:
    """Seat ``seat`` did not follow ``colour`` in ``trick`` (lead ``led``), playing ``card`` (DSP-9.2)."""

    seat: int
    colour: str
    trick: int
    led: str
    card: str


@dataclass(frozen=True)
class Revoke:
    """The evidence of a revoke: the void claim and the card that disproves it (DSP-9.3)."""

    seat: int
    colour: str
    claimed_trick: int
    led_card: str
    claimed_card: str
    trick: int
    card: str


@dataclass(frozen=True)
class RoundSummary:
    round: int
    dice: tuple[tuple[int, ...], ...]
    tricks_won: tuple[int, ...]
    scored: tuple[int, ...]
    forfeited: tuple[int, ...]
    revokes: tuple[int, ...]
    voided: bool


@dataclass(frozen=True)
class Snap:
    phase: str
    round: int
    hands: tuple[tuple[str, ...], ...]
    """Seeded deal: each seat's cards.  Physical deal: empty tuples (unknown)."""
    out: tuple[str, ...]
    """Seeded deal with 3 seats: the 12 cards out of the round (DSP-2.2)."""
    hand_counts: tuple[int, ...]
    dice: tuple[tuple[int, ...], ...]
    """Per seat, ``()`` until its two different dice are kept."""
    rerolls: int
    """Doubles re-rolled so far by the seat rolling now."""
    janken_for: str
    """``"lead"`` or ``"trump"`` during a janken, else ``""``."""
    janken_seats: tuple[int, ...]
    janken_hands: tuple[str, ...]
    """Aligned with ``janken_seats``; ``""`` until that seat chose."""
    janken_replays: int
    lead: int
    """The round's first lead player, -1 until known."""
    trump_chooser: int
    trump: str
    """The trump colour, ``""`` when none (standard variant, or not chosen yet)."""
    trick: int
    leader: int
    plays: tuple[tuple[int, str], ...]
    tricks: tuple[TrickRecord, ...]
    tricks_won: tuple[int, ...]
    voids: tuple[VoidClaim, ...]
    revokes: tuple[Revoke, ...]
    points: tuple[int, ...]
    rounds: tuple[RoundSummary, ...]
    winners: tuple[int, ...]

    @property
    def half(self) -> int:
        """0 = astronaut numbers (tricks 1-6), 1 = alien numbers (tricks 7-12), DSP-7.1."""
        return 0 if self.trick <= 6 else 1

    @property
    def rolling(self) -> int:
        """The seat whose dice are awaited (the first without kept dice)."""
        for seat, dice in enumerate(self.dice):
            if not dice:
                return seat
        return -1

    @property
    def turn(self) -> int:
        return (self.leader + len(self.plays)) % len(self.hand_counts)


_FIELDS = frozenset(Snap.__dataclass_fields__)


def evolve(snap: Snap, **changes: Any) -> Snap:
    """``dataclasses.replace`` without its per-call field inspection.

    Snap has no ``__post_init__`` and no init-only fields, so copying the
    instance dict is exact; it was the largest cost of a simulated move.
    """
    unknown = changes.keys() - _FIELDS
    if unknown:
        raise TypeError(f"Snap has no field {sorted(unknown)}")
    new = object.__new__(Snap)
    new.__dict__.update(snap.__dict__)
    new.__dict__.update(changes)
    return new


def new_round(snap: Snap | None, seats: int, round_no: int, points: tuple[int, ...],
              rounds: tuple[RoundSummary, ...], phase: str) -> Snap:
    """A round before the deal (or, in a physical deal, before the dice)."""
    return Snap(
        phase=phase, round=round_no, hands=((),) * seats, out=(), hand_counts=(0,) * seats,
        dice=((),) * seats, rerolls=0, janken_for="", janken_seats=(), janken_hands=(), janken_replays=0,
        lead=-1, trump_chooser=-1, trump="", trick=1, leader=-1, plays=(), tricks=(),
        tricks_won=(0,) * seats, voids=(), revokes=(), points=points, rounds=rounds, winners=(),
    )


def snap_to_json(snap: Snap) -> JSON:
    """Hand-written rather than :func:`engines.core.to_plain`: the generic walk
    was most of the conformance test's time, and this form is also shorter."""
    return {
        "phase": snap.phase, "round": snap.round,
        "hands": [list(h) for h in snap.hands], "out": list(snap.out), "hand_counts": list(snap.hand_counts),
        "dice": [list(d) for d in snap.dice], "rerolls": snap.rerolls,
        "janken_for": snap.janken_for, "janken_seats": list(snap.janken_seats),
        "janken_hands": list(snap.janken_hands), "janken_replays": snap.janken_replays,
        "lead": snap.lead, "trump_chooser": snap.trump_chooser, "trump": snap.trump,
        "trick": snap.trick, "leader": snap.leader, "plays": [list(p) for p in snap.plays],
        "tricks": [[t.trick, t.leader, [list(p) for p in t.plays], t.winner] for t in snap.tricks],
        "tricks_won": list(snap.tricks_won),
        "voids": [[v.seat, v.colour, v.trick, v.led, v.card] for v in snap.voids],
        "revokes": [[r.seat, r.colour, r.claimed_trick, r.led_card, r.claimed_card, r.trick, r.card]
                    for r in snap.revokes],
        "points": list(snap.points),
        "rounds": [[r.round, [list(d) for d in r.dice], list(r.tricks_won), list(r.scored), list(r.forfeited),
                    list(r.revokes), r.voided] for r in snap.rounds],
        "winners": list(snap.winners),
    }


def _ints(value: Any) -> tuple[int, ...]:
    out = tuple(value)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in out):
        raise ValueError(f"expected integers, got {value!r}")
    return out


def _strs(value: Any) -> tuple[str, ...]:
    out = tuple(value)
    if not all(isinstance(v, str) for v in out):
        raise ValueError(f"expected texts, got {value!r}")
    return out


def _plays(value: Any) -> tuple[tuple[int, str], ...]:
    return tuple((int(seat), str(card)) for seat, card in value)


def snap_from_json(data: JSON) -> Snap:
    """Inverse of :func:`snap_to_json`; ValueError/KeyError/TypeError on a malformed snapshot."""
    return Snap(
        phase=str(data["phase"]), round=int(data["round"]),
        hands=tuple(_strs(h) for h in data["hands"]), out=_strs(data["out"]),
        hand_counts=_ints(data["hand_counts"]), dice=tuple(_ints(d) for d in data["dice"]),
        rerolls=int(data["rerolls"]), janken_for=str(data["janken_for"]),
        janken_seats=_ints(data["janken_seats"]), janken_hands=_strs(data["janken_hands"]),
        janken_replays=int(data["janken_replays"]), lead=int(data["lead"]),
        trump_chooser=int(data["trump_chooser"]), trump=str(data["trump"]), trick=int(data["trick"]),
        leader=int(data["leader"]), plays=_plays(data["plays"]),
        tricks=tuple(TrickRecord(int(t), int(lead), _plays(plays), int(w)) for t, lead, plays, w in data["tricks"]),
        tricks_won=_ints(data["tricks_won"]),
        voids=tuple(VoidClaim(int(s), str(c), int(t), str(led), str(card)) for s, c, t, led, card in data["voids"]),
        revokes=tuple(Revoke(int(s), str(c), int(ct), str(lc), str(cc), int(t), str(card))
                      for s, c, ct, lc, cc, t, card in data["revokes"]),
        points=_ints(data["points"]),
        rounds=tuple(RoundSummary(int(r), tuple(_ints(d) for d in dice), _ints(won), _ints(scored), _ints(forf),
                                  _ints(rev), bool(voided)) for r, dice, won, scored, forf, rev, voided in data["rounds"]),
        winners=_ints(data["winners"]),
    )
