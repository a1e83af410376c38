"""Two Freakin' Swords on the printed mat: what the camera sees becomes engine moves.

The table adapter (docs/tables-two-freakin-swords.md, ids ``TFS-Tn``).  Each
fighter has a right-arm and a left-arm spot (``s<n>.right``, ``s<n>.left``,
:mod:`engines.two_freakin_swords.mat`).  A printed card carries a marker on
its face and one on its back: companion reports a face as
``"printed:<index>"`` (named by :mod:`engines.two_freakin_swords.printed`)
and a back as :data:`~engines.core.FACE_DOWN` with ``back`` = "striking" or
"defending", so a card laid side up tells its side before it is turned.

What the phones do, not the camera: opening hands, announcements (lunges and
1v2 coin passes), and the seal of every placed card (``Place``, with the
counters of an arm under a lunge).  What the camera does: it checks each
face-down card against the seals (the right arm, the right moment, the side
its back shows, one card per arm) and asks a seat to seal a card it sees laid
but not yet sealed; and it turns a card turned face up into ``Reveal``, which
the engine checks against the seal (TFS-7.6) and against the order, aggressors
before defenders (TFS-7.5).

Why the snapshot finds the reveals and the changes only decide blame: a batch
with a mismatch applies nothing, so a legal flip seen together with an illegal
one must be found again once the illegal one is undone, when no change names
it any more.  Cards left face up from an earlier round or turn are the table
catching up (there is no discard zone on the mat), never a fault.

Pure: no I/O and no memory between calls.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core import (
    FACE_DOWN,
    AdapterResult,
    FunctionAdapter,
    IllegalMove,
    MatLayout,
    Move,
    Question,
    Sighting,
    TableSnapshot,
    Verdict,
    ZoneChange,
    ZoneExpectation,
)
from engines.two_freakin_swords import mat, physical, printed
from engines.two_freakin_swords.cards import KINDS, is_card, kind_of, side_of
from engines.two_freakin_swords.moves import Place, Reveal
from engines.two_freakin_swords.rules import PLACE_PHASES, REVEAL_PHASES, describe
from engines.two_freakin_swords.seating import seat_of
from engines.two_freakin_swords.state import TFSState

CONFIDENT = 0.6
"""A face read below this confidence is asked about, never revealed."""

_ARM_WORD = {"R": "right", "L": "left"}


# ---------------------------------------------------------------------------
# Names


def card_of(sighting_card: str) -> str | None:
    """The card id a sighting names (``"printed:10"`` -> ``"fake#11"``, or an id as is); None for a back."""
    if is_card(sighting_card):
        return sighting_card
    return printed.from_sighting(sighting_card)


def zone_of(arm: str) -> str:
    """``"1L"`` -> ``"s1.left"``."""
    return f"s{seat_of(arm)}.{_ARM_WORD[arm[-1]]}"


def arm_of(zone: str | None) -> str | None:
    """``"s1.left"`` -> ``"1L"``; None for anything that is not an arm spot."""
    if not zone or not zone.startswith("s") or "." not in zone:
        return None
    head, word = zone.split(".", 1)
    if not head[1:].isdigit() or word not in ("right", "left"):
        return None
    return f"{int(head[1:])}{word[0].upper()}"


def _label(arm: str) -> str:
    return f"seat {seat_of(arm) + 1}'s {_ARM_WORD[arm[-1]]} arm"


def _your(arm: str) -> str:
    return f"your {_ARM_WORD[arm[-1]]} arm"


def _article(kind: str) -> str:
    return f"a {kind}"


def _arms(state: TFSState) -> list[str]:
    return [f"{p}{a}" for p in range(state.seats) for a in ("R", "L")]


class _Spot:
    """What the camera sees on one arm spot: backs, readable faces, unreadable cards."""

    def __init__(self, sightings: Sequence[Sighting]):
        self.backs = [x for x in sightings if x.card == FACE_DOWN]
        self.faces = [x for x in sightings if card_of(x.card) is not None]
        self.unread = [x for x in sightings if x.card != FACE_DOWN and card_of(x.card) is None]


def _spots(state: TFSState, table: TableSnapshot) -> dict[str, _Spot]:
    return {arm: _Spot(table.in_zone(zone_of(arm))) for arm in _arms(state)}


def _holder(state: TFSState, card: str, arm: str | None = None) -> int | None:
    """The seat whose hand holds ``card`` (exact id), if any.

    Physical deal (TFS-14): hands are unseen, so a card known nowhere on the
    table or the discard piles is taken to come from a hand: its deck's owner
    (own decks) or, from the community deck, the fighter at ``arm``.
    """
    f, s = state.fight, state.snapshot
    if f.physical:
        if physical.locate(f, s, card) is not None:
            return None
        for pile, pool in enumerate(f.pools):
            if card in pool:
                return (seat_of(arm) if arm else None) if f.community else pile
        return None
    for seat, hand in enumerate(s.hands):
        if card in hand:
            return seat
    return None


def _earlier(state: TFSState, arm: str) -> set[str]:
    """Card ids that may lie face up on a spot as left-overs: played earlier this turn (a replayed
    round) or in an earlier turn (the discard piles), other than ``arm``'s card now."""
    s = state.snapshot
    current = {p.card for p in s.placements if p.card}
    out = {c for c in s.in_play if c not in current}
    for pile in s.discards:
        out.update(pile)
    p = s.placement(arm)
    if p is not None and p.card and p.revealed:
        out.discard(p.card)
    return out


# ---------------------------------------------------------------------------
# What the table should show


def expected(state: TFSState) -> dict[str, ZoneExpectation]:
    """Per arm spot, what the camera should see now.

    A sealed card lies face down until it is turned, then face up; an arm that
    may still place this round may show a back not yet sealed; cards played
    earlier (this turn or before) may still lie face up anywhere on the spots.
    """
    s = state.snapshot
    current = {p.card for p in s.placements if p.card}
    leftovers = tuple(sorted({c for c in s.in_play if c not in current} | {c for pile in s.discards for c in pile}))
    out: dict[str, ZoneExpectation] = {}
    for arm in _arms(state):
        zone = zone_of(arm)
        p = s.placement(arm)
        may_show = leftovers
        if p is not None and p.card and p.revealed:
            out[zone] = ZoneExpectation(zone, _label(arm), face_up=(p.card,), may_show=may_show)
        elif p is not None and p.card:
            out[zone] = ZoneExpectation(zone, _label(arm), face_down=(1, 1), may_show=may_show)
        elif p is None and s.phase in PLACE_PHASES and arm in s.waiting:
            out[zone] = ZoneExpectation(zone, _label(arm), face_down=(0, 1), may_show=may_show)
        else:
            out[zone] = ZoneExpectation(zone, _label(arm), may_show=may_show)
    return out


def differences(state: TFSState, table: TableSnapshot) -> tuple[str, ...]:
    """What to move for the table to match the engine (empty: the table is restored).

    Like an electronic chess board after an illegal move: the server holds the
    last legal position and shows these sentences until the list is empty.
    A turned-up card is matched by its kind (ruling TFS-R14: printed copies of
    one kind are interchangeable).  Cards outside the arm spots are ignored.
    """
    s = state.snapshot
    out: list[str] = []
    exp = expected(state)
    for arm, spot in _spots(state, table).items():
        e = exp[zone_of(arm)]
        p = s.placement(arm)
        low, high = e.face_down
        if p is not None and p.card and p.revealed:
            if not any(kind_of(card_of(x.card) or "") == kind_of(p.card) for x in spot.faces):
                out.append(f"turn the {kind_of(p.card)} at {e.label} face up")
        if len(spot.backs) < low:
            out.append(f"lay the card sealed at {e.label} face down there")
        elif len(spot.backs) > high:
            n = len(spot.backs) - high
            out.append(f"take {'the face-down card' if n == 1 else f'{n} face-down cards'} off {e.label}")
        if p is not None and p.card and not p.revealed:
            if any(x.back is not None and x.back != side_of(p.card) for x in spot.backs):
                out.append(f"the card at {e.label} shows the wrong side: lay the {side_of(p.card)} card sealed "
                           "there face down instead")
        for x in spot.faces:
            card = card_of(x.card)
            assert card is not None
            holder = _holder(state, card, arm)
            if holder is not None:
                out.append(f"take the {kind_of(card)} off {e.label} back to seat {holder + 1}'s hand")
        if spot.unread:
            out.append(f"the camera cannot read a card on {e.label}: straighten it or call the referee")
    return tuple(out)



# ---------------------------------------------------------------------------
# Turning the table into moves



def _fresh(changes: Sequence[ZoneChange]) -> set[tuple[str, str]]:
    """(card id or FACE_DOWN, arm) pairs just put on an arm spot (placed, moved there or turned over)."""
    out: set[tuple[str, str]] = set()
    for ch in changes:
        arm = arm_of(ch.zone)
        if arm is None or ch.kind not in ("placed", "moved", "flipped"):
            continue
        card = FACE_DOWN if ch.card == FACE_DOWN else card_of(ch.card)
        if card is not None:
            out.add((card, arm))
    return out


def _laid(state: TFSState, arm: str, what: str) -> AdapterResult | None:
    """A new card (``what``: "a face-down card" or "a strike") at ``arm``: is a card placed there now?"""
    s = state.snapshot
    seat = seat_of(arm)
    back = f"take the card at {_your(arm)} back to your hand"
    if state.outcome is not None or s.phase in ("opening", "shuffle", "draw", "over"):
        return AdapterResult.refused("TFS-T1", f"seat {seat + 1} laid {what} at {_label(arm)}, but no card is placed now "
                         f"({describe(s)})", back)
    if s.phase == "announce":
        return AdapterResult.refused("TFS-7.1", f"seat {seat + 1} laid {what} at {_label(arm)} before every lunge and coin "
                         "pass was announced", f"{back}: cards go down after the announcements")
    p = s.placement(arm)
    if s.phase in PLACE_PHASES and arm in s.waiting:
        return None
    if p is not None and p.card and not p.revealed:
        return None  # the sealed card itself (put back, or laid again after being lifted)
    if s.phase == "place-1" and arm in s.round2:
        return AdapterResult.refused("TFS-7.3", f"{_label(arm)} defends: it places its card after every aggressor card is "
                         "down", f"{back}: defenders place after the aggressors")
    mine = [a for a in s.waiting if seat_of(a) == seat and s.phase in PLACE_PHASES and s.placement(a) is None]
    where = f"; place at {' and '.join(_your(a) for a in mine)}" if mine else ""
    return AdapterResult.refused("TFS-T2", f"seat {seat + 1} laid {what} at {_label(arm)}, which places no card now",
                     back + where)


def interpret(state: TFSState, changes: Sequence[ZoneChange], table: TableSnapshot) -> AdapterResult:
    """The reveals the table shows that the engine has not taken yet, questions, or what to put back."""
    s = state.snapshot
    fresh = _fresh(changes)
    removed = {arm_of(ch.zone) for ch in changes if ch.kind == "removed"} | {
        arm_of(ch.from_zone) for ch in changes if ch.kind == "moved"}
    spots = _spots(state, table)
    questions: list[Question] = []

    for arm, spot in spots.items():
        seat = seat_of(arm)
        p = s.placement(arm)
        sealed = p.card if p is not None and not p.revealed else None
        # 1. One card per arm (TFS-7.2).
        if len(spot.backs) > 1 and (FACE_DOWN, arm) in fresh:
            return AdapterResult.refused("TFS-T4", f"{len(spot.backs)} face-down cards lie at {_label(arm)}; an arm places "
                             "one card", f"take back all but the card sealed at {_your(arm)}")
        # 2. A back must be the side of the sealed card (TFS-1.1), whenever it was laid: the seal may come later.
        if sealed:
            for x in spot.backs:
                if x.back is not None and x.back != side_of(sealed):
                    return AdapterResult.refused("TFS-1.1", f"the card at {_label(arm)} shows a {x.back} back, but the card "
                                     f"sealed there is {side_of(sealed)}",
                                     f"lay the {side_of(sealed)} card you sealed face down at {_your(arm)}")
        # 3. New cards laid: at the right time and arm, face down.
        if (FACE_DOWN, arm) in fresh and spot.backs:
            bad = _laid(state, arm, "a face-down card")
            if bad is not None:
                return bad
        for x in spot.faces:
            card = card_of(x.card)
            assert card is not None
            if (card, arm) not in fresh or _holder(state, card, arm) is None:
                continue  # a left-over, the table catching up, or a sealed card turned (step 4)
            bad = _laid(state, arm, f"{_article(kind_of(card))}")
            if bad is not None:
                return bad
            if sealed and not spot.backs:
                continue  # turned in place: another printed copy of the sealed card's kind is judged in step 4
            if sealed:
                return AdapterResult.refused("TFS-T2", f"seat {seat + 1} laid {_article(kind_of(card))} at {_label(arm)}, which "
                                 "already holds its sealed card", f"take the {kind_of(card)} back to your hand")
            return AdapterResult.refused("TFS-T3", f"seat {seat + 1} laid {_article(kind_of(card))} face up at {_label(arm)}; "
                             "a card is placed face down, only its side showing",
                             f"take the {kind_of(card)} back to your hand, lay your card face down and seal it "
                             "on your phone")
        # 4. A sealed card gone before it was turned.
        if sealed and arm in removed and not spot.backs and not _turned(state, arm, spot):
            return AdapterResult.refused("TFS-T5", f"the card sealed at {_label(arm)} left the table before it was turned up",
                             f"put it back face down at {_your(arm)}")

    reveals, asked = _reveals(state, spots, fresh)
    if isinstance(reveals, AdapterResult):
        return reveals
    questions += asked
    questions += _seal_questions(state, spots)
    return _try(state, reveals, questions)


def _turned(state: TFSState, arm: str, spot: _Spot) -> list[Sighting]:
    """Face-up cards on ``arm``'s spot that may be its sealed card turned up (not known left-overs)."""
    old = _earlier(state, arm)
    return [x for x in spot.faces if card_of(x.card) not in old] + spot.unread


def _reveals(state: TFSState, spots: dict[str, _Spot],
             fresh: set[tuple[str, str]]) -> tuple[list[Move] | AdapterResult, list[Question]]:
    """Sealed cards seen turned up, as ``Reveal`` moves: aggressors first, then defenders (TFS-7.4, TFS-7.5)."""
    s = state.snapshot
    moves: list[Move] = []
    questions: list[Question] = []
    order = list(dict.fromkeys((*s.waiting, *s.round1, *s.round2)))
    for arm in order:
        p = s.placement(arm)
        if p is None or not p.card or p.revealed:
            continue
        spot = spots[arm]
        if spot.backs:
            continue
        seen = _turned(state, arm, spot)
        if not seen:
            continue
        seat, sealed = seat_of(arm), p.card
        just = any((card_of(x.card), arm) in fresh for x in seen if card_of(x.card))
        if s.phase not in REVEAL_PHASES:
            if just:
                return AdapterResult.refused("TFS-7.4", f"the card at {_label(arm)} was turned up before every arm had a card "
                                 "down", f"turn the card at {_your(arm)} face down again: cards are turned up "
                                 "once every arm has a card down"), []
            continue
        readable = [x for x in seen if card_of(x.card)]
        picked = [x for x in readable if (card_of(x.card), arm) in fresh] or readable
        side_kinds = tuple(k for k in KINDS if side_of(k) == side_of(sealed))
        if not picked:
            questions.append(Question(seat, f"The camera cannot read the card you turned up at {_your(arm)}: "
                                      "which is it?", side_kinds))
            continue
        exact = [x for x in picked if card_of(x.card) == sealed]
        kinds = {kind_of(card_of(x.card) or "") for x in picked}
        if not exact and len(kinds) > 1:
            questions.append(Question(seat, f"Which card did you turn up at {_your(arm)}?", tuple(sorted(kinds))))
            continue
        sight = exact[0] if exact else picked[0]
        card = card_of(sight.card)
        assert card is not None
        if sight.confidence < CONFIDENT:
            choices = tuple(dict.fromkeys([kind_of(card), *side_kinds]))
            questions.append(Question(seat, f"Is the card you turned up at {_your(arm)} {_article(kind_of(card))}?",
                                      choices))
            continue
        # Ruling TFS-R14: the camera reads the kind; a printed copy of the sealed card's kind is that card.
        # A physical deal takes the printed id itself: it is checked for card conservation (TFS-14.4).
        named = card if card == sealed or state.fight.physical else kind_of(card)
        moves.append(Reveal(seat, arm[-1], named))  # type: ignore[arg-type]
    return moves, questions


def _seal_questions(state: TFSState, spots: dict[str, _Spot]) -> list[Question]:
    """A back at an arm that places now but has sealed nothing: ask the seat to seal it on the phone."""
    s = state.snapshot
    out: list[Question] = []
    if s.phase not in PLACE_PHASES:
        return out
    lunged = {t for _, t in s.lunges}
    for arm in s.waiting:
        spot = spots[arm]
        if len(spot.backs) != 1 or s.placement(arm) is not None:
            continue
        seat = seat_of(arm)
        side = spot.backs[0].back
        hand = s.hands[seat]
        if state.fight.physical:  # TFS-14.2: the hand is unseen; the phone seals a kind (or a printed id)
            hand = tuple(physical.possible_kinds(state.fight, s, seat))
        choices = tuple(c for c in hand if side is None or side_of(c) == side) or tuple(hand)
        extra = ", and which of the lunger's arms it counters" if arm in lunged else ""
        out.append(Question(seat, f"Seal the card you laid at {_your(arm)} on your phone: which card is it{extra}?",
                            choices))
    return out


def _try(state: TFSState, moves: list[Move], questions: list[Question]) -> AdapterResult:
    """Apply ``moves`` on a copy; the first the engine refuses becomes the mismatch (and nothing is applied)."""
    twin = state.copy()
    for move in moves:
        try:
            twin.apply(move)
        except IllegalMove as exc:
            v = exc.verdict
            arm = f"{move.seat}{move.arm}"  # type: ignore[attr-defined]
            if v.rule == "CORE-6":  # the seat has no arm to reveal now: say which rule waits
                snap = twin.snapshot
                if snap.phase == "reveal-1" and arm in snap.round2:
                    v = Verdict.reject("TFS-7.5", "defenders reveal after every aggressor has revealed")
                else:
                    v = Verdict.reject("TFS-7.4", "this arm has nothing to reveal now")
            down = f"turn the card at {_your(arm)} face down again"
            if v.rule == "TFS-7.5":
                fix = f"{down}: defenders reveal after the aggressors"
            elif v.fix:
                fix = f"{down}, then {v.fix}"
            else:
                fix = down
            return AdapterResult(mismatch=Verdict.reject(v.rule or "TFS-7.6", f"{_label(arm)}: {v.message}", fix),
                                 questions=tuple(questions))
    return AdapterResult(moves=tuple(moves), questions=tuple(questions))


def manual_moves(state: TFSState, seat: int) -> list[Move]:
    """What a person may enter by hand for ``seat`` now (no camera): the engine's legal moves.

    A seeded deal lists the hand's cards; a physical deal (TFS-14.5) lists the
    kinds the unseen hand may hold, and a printed id is accepted too.
    """
    return list(state.legal_moves(seat) or [])


def answer(state: TFSState, seat: int, choice: str) -> Move | None:
    """A seat's answer to one of the adapter's questions, as the move it stands for (None: not a choice).

    Placing now: the card sealed at the seat's first arm that places (an arm
    under a lunge is asked for its counters on the phone's own form, so it is
    not answered here).  Revealing now: the kind turned up at the seat's first
    arm that reveals.
    """
    s = state.snapshot
    mine = [a for a in s.waiting if seat_of(a) == seat]
    if not mine or not isinstance(choice, str):
        return None
    arm = mine[0]
    if s.phase in PLACE_PHASES:
        if any(t == arm for _, t in s.lunges):
            return None
        move: Move = Place(seat, arm[-1], choice)  # type: ignore[arg-type]
    elif s.phase in REVEAL_PHASES:
        move = Reveal(seat, arm[-1], choice)  # type: ignore[arg-type]
    else:
        return None
    return move  # the engine judges it like any move (a wrong card is refused with its rule)


def coin_lights(state: TFSState) -> dict[tuple[int, str], bool]:
    """Where every aggression coin lies, as the LED coin board names its lights:
    ``{(seat, "right"|"left"): True}`` (TFS-6.1; coins not named are dark)."""
    return {(seat_of(arm), _ARM_WORD[arm[-1]]): True for arm in state.snapshot.coins}


ADAPTER = FunctionAdapter(
    TFSState,
    layout=mat.layout,
    interpret=interpret,
    expected=expected,
    differences=differences,
    manual_moves=manual_moves,
    answer=answer,
    coin_lights=coin_lights,
)
"""The adapter the registry hands companion (``engines.registry.adapter("two-freakin-swords")``)."""


def layout(seats: int, variant: str) -> MatLayout:
    """The mat's zones: :func:`engines.two_freakin_swords.mat.layout` unchanged."""
    return mat.layout(seats, variant)

