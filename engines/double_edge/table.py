"""Double-Edge on the printed mat: what the camera sees becomes engine moves.

The table adapter (docs/tables.md, ids ``DE-Tn``).  The phones seal what lies
face down (the Base, a Support, an indicator), answer the claim and end the
turn (draw or confirm); the camera decides what is played face up (a Striker,
a Gambit), what is discarded (a card and the Support on top of it), what is
taken from a discard pile, and, in a physical deal, what a sealed card turned
out to be when it is turned face up (``Reveal``, checked against the seal by
the engine, DE-15.4).

How a staggered stack is read: vision reports every readable corner as its own
sighting with ``layer`` (0 = bottom).  A Base lies top card nearest its owner,
so its top card is the sighting with the highest layer.  When layers do not
order the cards (equal or missing), the orders that form a pattern (DE-4) are
the candidates: one candidate is taken, several are asked of the owner.

Why the snapshot finds the moves and the changes only flag misplacements: a
batch with a mismatch applies nothing, so a legal card laid together with an
illegal one must be found again once the illegal one is put back, when no
change mentions it any more.  A known card lying where the engine does not
expect it is a mismatch only when it was just put there; otherwise the table
is catching up with the engine (a defeated Striker not yet discarded) and
:func:`differences` lists what to move.

Pure: no I/O and no memory between calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from engines.core import (
    FACE_DOWN,
    UNKNOWN,
    AdapterResult,
    FunctionAdapter,
    IllegalMove,
    Move,
    Question,
    Sighting,
    TableSnapshot,
    ZoneChange,
    ZoneExpectation,
)
from engines.double_edge import mat
from engines.double_edge import moves as m
from engines.double_edge.cards import ACES, DECK, is_card, owner_of_ace, value
from engines.double_edge.patterns import valid_base
from engines.double_edge.state import DoubleEdgeState

CONFIDENT = 0.6
"""A face-up card read below this confidence is asked about, never played."""

_WORDS = {"deck": "the shared deck", "base": "Base", "striker": "Striker zone", "support": "Support zone",
          "indicator": "indicator zone", "discard": "discard pile"}


def _label(zone: str) -> str:
    if "." not in zone:
        return _WORDS.get(zone, zone)
    head, key = zone.split(".", 1)
    return f"seat {int(head[1:]) + 1}'s {_WORDS.get(key, key)}"


def _zone_seat(zone: str | None) -> tuple[int, str] | None:
    if not zone or "." not in zone:
        return None
    head, key = zone.split(".", 1)
    return (int(head[1:]), key) if head[1:].isdigit() else None


def _up(table: TableSnapshot, zone: str) -> list[Sighting]:
    """Face-up readable cards in ``zone``, top first (highest layer first)."""
    return sorted((s for s in table.in_zone(zone) if is_card(s.card)), key=lambda s: -s.layer)


def _down(table: TableSnapshot, zone: str) -> int:
    return sum(1 for s in table.in_zone(zone) if s.card == FACE_DOWN)


# ---------------------------------------------------------------------------
# What the table should show


def expected(state: DoubleEdgeState) -> dict[str, ZoneExpectation]:
    """Per zone, what the camera should see now (the engine's position laid out on the mat)."""
    s = state.snapshot
    pending = set(s.pending)
    deck = len(s.deck) + s.deck_unknown
    out = {"deck": ZoneExpectation("deck", _label("deck"), face_down=(0, deck))}
    for seat in (0, 1):
        z = f"s{seat}."
        if s.bases[seat]:
            base = ZoneExpectation(z + "base", _label(z + "base"), face_up=tuple(s.bases[seat]), ordered=True)
        elif s.sealed_bases[seat] and _checked(s, seat, "base"):
            base = ZoneExpectation(z + "base", _label(z + "base"), face_up=tuple(s.sealed_bases[seat]), ordered=True)
        elif s.sealed_bases[seat]:
            shown = tuple(s.sealed_bases[seat]) if (seat, "base") in pending else ()
            base = ZoneExpectation(z + "base", _label(z + "base"), face_down=(0 if shown else 1, 3), may_show=shown)
        else:
            base = ZoneExpectation(z + "base", _label(z + "base"))
        support = s.supports[seat]
        gambit = bool(s.middles[seat])
        striker_up: tuple[str, ...] = ()
        if s.strikers[seat] is not None:
            striker_up = (s.strikers[seat], *s.middles[seat], *((support,) if gambit and support else ()))
        # A Gambit's Support lies in the Striker zone; once the middle cards are gone it may stay there.
        loose = (support,) if support and s.support_up[seat] and not gambit else ()
        striker = ZoneExpectation(z + "striker", _label(z + "striker"), face_up=striker_up, may_show=loose)
        if support is None or gambit:
            sup = ZoneExpectation(z + "support", _label(z + "support"))
        elif s.support_up[seat]:
            sup = ZoneExpectation(z + "support", _label(z + "support"), may_show=loose)
        else:
            shown = (support,) if (seat, "support") in pending else ()
            sup = ZoneExpectation(z + "support", _label(z + "support"), face_down=(0 if shown else 1, 1),
                                  may_show=shown)
        card = s.indicators[seat]
        if card is None:
            ind = ZoneExpectation(z + "indicator", _label(z + "indicator"))
        elif (s.indicators_up and (seat, "indicator") not in pending) or _checked(s, seat, "indicator"):
            ind = ZoneExpectation(z + "indicator", _label(z + "indicator"), face_up=(card,))
        else:
            shown = (card,) if (seat, "indicator") in pending else ()
            ind = ZoneExpectation(z + "indicator", _label(z + "indicator"), face_down=(0 if shown else 1, 1),
                                  may_show=shown)
        pile = s.discards[seat]
        dis = ZoneExpectation(z + "discard", _label(z + "discard"), face_up=pile[-1:], may_show=pile[:-1])
        for e in (base, striker, sup, ind, dis):
            out[e.zone] = e
    return out


def _checked(s, seat: int, what: str) -> bool:
    """Physical deal: ``seat``'s sealed ``what`` was turned over and checked; the other seat's still waits."""
    return s.phase == "reveal" and (seat, what) not in s.pending and any(w == what for _, w in s.pending)


def differences(state: DoubleEdgeState, table: TableSnapshot) -> tuple[str, ...]:
    """What to move for the table to match the engine (empty: the table is restored).

    Like an electronic chess board after an illegal move: the server holds the
    last legal position and shows these sentences until the list is empty.
    Cards outside every zone (in hands at the table's edge) are ignored; a
    Base's order is checked when every card of it is read and layers order them.
    """
    out: list[str] = []
    for zone, exp in expected(state).items():
        ups = _up(table, zone)
        up = [s.card for s in ups]
        for card in exp.face_up:
            if card not in up:
                out.append(f"put {card} face up on {exp.label}")
        for card in up:
            if card not in exp.face_up and card not in exp.may_show:
                out.append(f"take {card} off {exp.label}")
        if exp.ordered and set(exp.face_up) <= set(up) and len({s.layer for s in ups}) == len(ups):
            seen = tuple(c for c in up if c in exp.face_up)
            if seen != exp.face_up:
                out.append(f"restack {exp.label} as {'-'.join(exp.face_up)} (top first, top nearest its owner)")
        down = _down(table, zone)
        low, high = exp.face_down
        if down < low:
            out.append(f"{exp.label} should hold a face-down card")
        elif down > high:
            out.append(f"take the face-down card off {exp.label}")
        if any(s.card == UNKNOWN for s in table.in_zone(zone)):
            out.append(f"the camera cannot read a card on {exp.label}: straighten it or call the referee")
    return tuple(out)



# ---------------------------------------------------------------------------
# Turning the table into moves



def _in_hand(state: DoubleEdgeState, seat: int, card: str) -> bool:
    """May ``card`` come from ``seat``'s hand (or its aces)?  Physical deal: any card with no known place."""
    s = state.snapshot
    ace = owner_of_ace(card)
    if ace is not None:
        return ace == seat and s.indicators[seat] != card
    if card in s.hands[seat]:
        return True
    return state.physical and state.where_is(card) is None


def _homes(exp: dict[str, ZoneExpectation]) -> dict[str, set[str]]:
    homes: dict[str, set[str]] = {}
    for zone, e in exp.items():
        for card in (*e.face_up, *e.may_show):
            homes.setdefault(card, set()).add(zone)
    return homes


def _order(seat: int, sights: list[Sighting], what: str, need_pattern: bool) -> tuple[tuple[str, ...] | None, list[Question]]:
    """A stack's cards top first, or the question that settles it (ambiguous layers)."""
    cards = tuple(s.card for s in sights)
    if len({s.layer for s in sights}) == len(sights):
        return cards, []
    orders = [o for o in permutations(cards) if not need_pattern or valid_base(o)]
    if len(orders) == 1:
        return orders[0], []
    prompt = f"The camera cannot tell the order of your {what}: which is it, top card first?"
    return None, [Question(seat, prompt, tuple("-".join(o) for o in orders))]


def interpret(state: DoubleEdgeState, changes: Sequence[ZoneChange], table: TableSnapshot) -> AdapterResult:
    """The engine moves the table shows, in order, or a mismatch that says what to put back where."""
    s = state.snapshot
    if state.outcome is not None:
        return AdapterResult()
    exp = expected(state)
    homes = _homes(exp)
    if s.phase == "turn":
        # The acting seat may send its Striker area to its own discard pile: the Support after a
        # discarded card (DE-6.3), or everything to make room for a Gambit (DE-13.2).
        seat = s.first if s.stage in (1, 3) else 1 - s.first
        leaving = [s.supports[seat]] + ([s.strikers[seat], *s.middles[seat]] if state.gambits else [])
        for card in leaving:
            if card:
                homes.setdefault(card, set()).add(f"s{seat}.discard")
    # Only cards laid or moved are blamed: a card turned over in place (an indicator or an attacked
    # Support the engine has already resolved) was already there face down.
    fresh = {(ch.card, ch.zone) for ch in changes if ch.kind in ("placed", "moved")}
    questions: list[Question] = []
    claim_cards = set(s.claim_cards) if s.phase == "claim" else set()

    # 1. A known card just put somewhere it does not belong.
    for sight in table.sightings:
        card, zone = sight.card, sight.zone
        if not is_card(card) or zone is None or card in claim_cards:
            continue
        if card in homes and zone not in homes[card] and (card, zone) in fresh:
            home = " or ".join(sorted(_label(z) for z in homes[card]))
            return AdapterResult.refused("DE-T3", f"{card} belongs on {home}, not on {_label(zone)}", f"put {card} back on {home}")

    # 2. A Base stacked in another order than the engine's.  Not only when just changed: restacking in
    #    place changes no (card, zone) pair, so no change would ever name it.
    for seat in (0, 1):
        zone = f"s{seat}.base"
        base = tuple(s.bases[seat])
        ups = [x for x in _up(table, zone) if x.card in base]
        if (len(ups) == len(base) > 1 and len({x.layer for x in ups}) == len(ups)
                and tuple(x.card for x in ups) != base):
            return AdapterResult.refused("DE-T2", f"seat {seat + 1}'s Base lies as {'-'.join(x.card for x in ups)}, "
                             f"but it is {'-'.join(base)} (top first)",
                             f"restack the Base as {'-'.join(base)}, top card nearest you")

    if s.phase == "reveal":
        return _reveals(state, table)
    if s.phase == "claim":
        base = {x.card for x in _up(table, f"s{s.claim_seat}.base")}
        if claim_cards and claim_cards <= base:
            return AdapterResult(moves=(m.Claim(s.claim_seat, True),))
        return AdapterResult()

    # 3. Cards from a hand on the mat: sealed face down, played face up, or out of turn.
    acting = state.to_act()
    for sight in table.sightings:
        where = _zone_seat(sight.zone)
        if where is None:
            if is_card(sight.card) and sight.zone == "deck" and (sight.card, "deck") in fresh:
                return AdapterResult.refused("DE-T3", f"{sight.card} lies face up on the shared deck",
                                 f"take {sight.card} back to your hand")
            continue
        seat, key = where
        card = sight.card
        if card == FACE_DOWN:
            q = _face_down(state, seat, key)
            if isinstance(q, AdapterResult):
                if (FACE_DOWN, sight.zone) in fresh:
                    return q
            elif q is not None and q not in questions:
                questions.append(q)
            continue
        if not is_card(card) or card in homes:
            continue
        holder = next((p for p in (seat, 1 - seat) if _in_hand(state, p, card)), None)
        if holder is None:
            continue
        if (card, sight.zone) not in fresh:
            continue  # lying there since an earlier batch: already answered, or an ace not yet picked up
        if holder != seat:
            return AdapterResult.refused("DE-T3", f"{card} is seat {holder + 1}'s card; it lies on {_label(sight.zone)}",
                             f"take {card} back to seat {holder + 1}'s hand")
        if seat not in acting or s.phase != "turn":
            return AdapterResult.refused("DE-T1", f"seat {seat + 1} laid {card} on {_label(sight.zone)}, but {_doing(state)}",
                             f"take {card} back to seat {seat + 1}'s hand")
        if key in ("support", "indicator", "base"):
            why = {"support": "a Support is played face down (DE-6.4)",
                   "indicator": "an indicator is committed face down, in the action turn (DE-8.1)",
                   "base": "cards join a Base only by a claim after a combat (DE-11.3)"}[key]
            return AdapterResult.refused("DE-T4", f"{card} lies face up on {_label(sight.zone)}: {why}",
                             f"take {card} back to your hand")
    if s.phase != "turn":
        return AdapterResult(questions=tuple(questions))
    return _turn(state, table, questions)


def _doing(state: DoubleEdgeState) -> str:
    s = state.snapshot
    if s.phase == "turn":
        return f"it is seat {s.first + 1 if s.stage in (1, 3) else 2 - s.first}'s turn"
    return {"build": "the Bases are being built face down", "indicate": "indicators are committed face down",
            "coin": "the coin decides who goes first", "shuffle": "the deck is being shuffled"}.get(
        s.phase, f"the table is in the {s.phase} phase")


def _face_down(state: DoubleEdgeState, seat: int, key: str) -> Question | AdapterResult | None:
    """A back in one of ``seat``'s zones: fine once sealed on the phone, else asked, or out of place."""
    s = state.snapshot
    hand = tuple(s.hands[seat])
    if key == "base":
        if s.phase == "build" and not s.sealed_bases[seat] and not s.bases[seat]:
            return Question(seat, "Seal your Base on your phone: which three cards, top first?", hand)
        return None
    if key == "support":
        if s.supports[seat] is not None:
            return None
        if s.phase == "turn" and seat in state.to_act() and s.strikers[seat] is not None:
            return Question(seat, "Seal the Support you laid face down: which card is it?", hand)
        if s.strikers[seat] is None:
            return AdapterResult.refused("DE-6.4", f"a face-down card lies on {_label(f's{seat}.support')} with no Striker "
                             "above it", "take the face-down card back to your hand")
        return AdapterResult.refused("DE-T1", f"seat {seat + 1} laid a face-down card on its Support zone, but "
                         f"{_doing(state)}", "take the face-down card back to your hand")
    if key == "indicator":
        if s.indicators[seat] is not None:
            return None
        if s.phase == "indicate":
            return Question(seat, "Seal your indicator on your phone: which card (or ace) is it?",
                            (*ACES[seat], *hand))
        # Outside the action turn a back here is no fault: in a seeded deal the last seal may resolve
        # the action turn before the camera sees the card laid.  differences() asks for it to be cleared.
    return None


def _reveals(state: DoubleEdgeState, table: TableSnapshot) -> AdapterResult:
    """Physical deal (DE-15.4): sealed cards turned face up become ``Reveal`` moves."""
    s = state.snapshot
    moves: list[Move] = []
    questions: list[Question] = []
    for seat, what in s.pending:
        zone = f"s{seat}.{what}"
        ups = [x for x in _up(table, zone) if x.card not in s.bases[seat] and x.card != s.strikers[seat]]
        unread = sum(1 for x in table.in_zone(zone) if x.card == UNKNOWN)
        if _down(table, zone) or not (ups or unread):
            continue  # not turned over yet (or out of sight)
        if what == "base":
            sealed = tuple(s.sealed_bases[seat])
            # A doubtful reading of a card never sealed is no proof of a wrong Base: it counts as unread.
            doubtful = [x for x in ups if x.card not in sealed and x.confidence < CONFIDENT]
            ups = [x for x in ups if x not in doubtful]
            unread += len(doubtful)
            strange = [x.card for x in ups if x.card not in sealed]
            if strange and len(ups) >= 3:
                pass  # all three read: the engine's own check names the difference (DE-15.4)
            elif strange:
                return AdapterResult.refused("DE-15.4", f"the camera saw {', '.join(strange)} in {_label(zone)}, which is not "
                                 "a card sealed on the phone", "turn over exactly the sealed cards, or call the referee")
            elif len(ups) < 3 or unread:
                questions.append(_ask_base(seat, ups, sealed))
                continue
            order, ask = _order(seat, ups[:3], "Base", need_pattern=True)
            questions += ask
            if order is not None:
                moves.append(m.Reveal(seat, "base", order))
        elif len(ups) == 1 and not unread and ups[0].confidence >= CONFIDENT:
            moves.append(m.Reveal(seat, what, (ups[0].card,)))
        else:
            sealed_card = (s.indicators if what == "indicator" else s.supports)[seat]
            words = "indicator" if what == "indicator" else "Support"
            seen = f" (it looks like {ups[0].card})" if len(ups) == 1 else ""
            choices = tuple(dict.fromkeys([*(x.card for x in ups), sealed_card, *card_choices(state, seat)]))
            questions.append(Question(seat, f"The camera cannot read your {words} for sure{seen}: which card is it?",
                                      choices))
    return _try(state, moves, questions)


def _ask_base(seat: int, ups: list[Sighting], sealed: tuple[str, ...]) -> Question:
    """Part of a Base turned over is unreadable: the owner says its order, among the sealed cards' patterns
    that agree with what was read (read cards in their layer order, when the layers tell it)."""
    read = [x.card for x in ups] if len({x.layer for x in ups}) == len(ups) else []
    orders = [o for o in permutations(sealed) if valid_base(o)
              and [c for c in o if c in read] == read]
    prompt = "The camera cannot read every card of your Base: which is it, top card first?"
    return Question(seat, prompt, tuple("-".join(o) for o in orders) or ("-".join(sealed),))


def _turn(state: DoubleEdgeState, table: TableSnapshot, questions: list[Question]) -> AdapterResult:
    """The acting seat's turn: Gambit, Striker, a Support removed, cards taken from the discard piles."""
    s = state.snapshot
    seat = s.first if s.stage in (1, 3) else 1 - s.first
    moves: list[Move] = []
    # Cards new to each discard pile (laid on it this turn), top first.
    known_piles = {p: set(s.discards[p]) for p in (0, 1)}
    new_on_pile = {p: [x for x in _up(table, f"s{p}.discard") if x.card not in known_piles[p]
                       and x.card not in _on_table_elsewhere(s, p)] for p in (0, 1)}
    striker_new = [x for x in _up(table, f"s{seat}.striker") if _in_hand(state, seat, x.card)]
    if (not striker_new and s.strikers[seat] is None and s.stage != 3
            and any(x.card == UNKNOWN for x in table.in_zone(f"s{seat}.striker"))):
        questions.append(Question(seat, "The camera cannot read the card you laid as your Striker: which is it?",
                                  tuple(c for c in card_choices(state, seat) if owner_of_ace(c) is None)))
        return AdapterResult(questions=tuple(questions))
    for x in striker_new:
        if x.confidence < CONFIDENT:
            questions.append(Question(seat, f"Is the card you laid as your Striker {x.card}?",
                                      tuple(dict.fromkeys([x.card, *s.hands[seat]]))))
            return AdapterResult(questions=tuple(questions))
    if len(striker_new) >= 3 and state.gambits:
        order, ask = _order(seat, striker_new, "Gambit", need_pattern=False)
        if order is None:
            return AdapterResult(questions=tuple(questions + ask))
        seen = None
        if s.supports[seat] is not None and not s.support_up[seat]:
            under = [x.card for x in new_on_pile[seat] if x.card != s.strikers[seat]]
            seen = under[0] if under else None
        moves.append(m.PlayGambit(seat, order, seen))
    elif len(striker_new) >= 2:
        cards = ", ".join(x.card for x in striker_new)
        rule = "DE-13.1" if state.gambits else "DE-6.2"
        why = "a Gambit is three or more cards of one value" if state.gambits else "one card is the Striker"
        return AdapterResult.refused(rule, f"seat {seat + 1} laid {cards} on the Striker zone: {why}",
                         "take back all but your Striker", questions)
    elif striker_new:
        moves.append(m.PlayStriker(seat, striker_new[0].card))
    # A Support removed (DE-6.3): the Support zone is bare and the discard pile shows a card, then the Support.
    support = s.supports[seat]
    if support is not None and not s.middles[seat] and not moves:
        bare = not table.in_zone(f"s{seat}.support") and not any(
            x.card == support for x in table.in_zone(f"s{seat}.striker"))
        if bare:
            pile = new_on_pile[seat]
            if len(pile) >= 2:
                moves.append(m.DiscardSupport(seat, pile[1].card, pile[0].card))
            elif len(pile) == 1:
                # A squared pile shows only its top card: the one under the Support is the player's to name.
                questions.append(Question(seat, f"Which card did you discard before the Support ({pile[0].card})?",
                                          tuple(c for c in card_choices(state, seat) if owner_of_ace(c) is None)))
                return AdapterResult(questions=tuple(questions))
            else:
                return AdapterResult.refused("DE-T5", "the Support left the table without reaching the discard pile",
                                 "discard a card from your hand, then lay the Support on top of it", questions)
    elif new_on_pile[seat] and support is None and not moves:
        card = new_on_pile[seat][0].card
        if _in_hand(state, seat, card):
            return AdapterResult.refused("DE-6.3", f"{card} was discarded, but a card is discarded only to remove a Support",
                             f"take {card} back to your hand", questions)
    # Cards taken from the discard piles (DE-7.2, DE-7.3): a pile's top is gone and nothing new covers it.
    # Not while the mat shows backs the engine does not expect: an indicator or Support still lying face
    # down may be the very card the engine already put on top of a pile.
    exp = expected(state)
    stray = any(_down(table, z) > e.face_down[1] for z, e in exp.items())
    taken = [] if stray else [p for p in (0, 1)
                              if _taken(s.discards[p], table, f"s{p}.discard") and not new_on_pile[p]]
    if len(taken) == 2:
        moves.append(m.TakeDiscards(seat))
    elif taken:
        moves.append(m.TakeDiscard(seat, taken[0]))
    return _try(state, moves, questions)


def _on_table_elsewhere(s, pile: int) -> set[str]:
    """Cards the engine knows lie on the mat and cannot be new on discard pile ``pile``.

    The pile owner's own Striker area is not among them: its Support (or a
    Gambit's old Striker) landing on the pile is exactly what is looked for."""
    other = 1 - pile
    out = {c for c in s.indicators if c} | set(s.discards[other]) | set(s.middles[other])
    out |= {c for c in (s.strikers[other], s.supports[other]) if c}
    for seat in (0, 1):
        out |= set(s.bases[seat])
    return out


def _taken(pile: Sequence[str], table: TableSnapshot, zone: str) -> bool:
    if not pile:
        return False
    if any(x.card == pile[-1] for x in table.sightings if x.zone is not None):
        return False  # still on the mat: not yet laid on the pile (the table catching up), not taken
    ups = _up(table, zone)
    if any(x.card == pile[-1] for x in ups):
        return False
    if len(pile) == 1:
        return not ups and not _down(table, zone)
    return bool(ups) and ups[0].card == pile[-2]


def _try(state: DoubleEdgeState, moves: list[Move], questions: list[Question]) -> AdapterResult:
    """Apply ``moves`` on a copy; the first the engine refuses becomes the mismatch (and nothing is applied)."""
    twin = state.copy()
    for move in moves:
        try:
            twin.apply(move)
        except IllegalMove as exc:
            v = exc.verdict
            card = getattr(move, "card", None) or "-".join(getattr(move, "cards", ()) or ())
            back = {"play-striker": f"take {card} back to your hand",
                    "play-gambit": f"take {card} back to your hand",
                    "discard-support": "put the Support back under your Striker and the discarded card in your hand",
                    "reveal": "turn over exactly the sealed cards",
                    "take-discards": "put the cards back on the discard piles",
                    "take-discard": "put the card back on its discard pile"}.get(move.type, "undo the last change")
            fix = back + (f", then {v.fix}" if v.fix else "")
            return AdapterResult.refused(v.rule or "DE-6.1", v.message, fix, questions)
    return AdapterResult(moves=tuple(moves), questions=tuple(questions))


MANUAL_CAP = 60
"""At most this many moves are offered on a phone in a physical deal (buttons, not a search)."""


def manual_moves(state: DoubleEdgeState, seat: int) -> list[Move] | None:
    """What a person may enter by hand for ``seat`` now (no camera): a seeded deal's legal moves.

    A physical deal's hands are unknown (DE-15.1), so the engine lists no moves;
    the phone is offered what it enters itself: the reveal of its own sealed
    cards (DE-15.4), the claim (DE-11.3), the ways to end the turn (DE-7), and
    and nothing else: the sealed cards only the phone can name (the Base,
    DE-3.1; the indicator, DE-8.1; a Support under the Striker, DE-6.4) are
    picked from the whole deck (:func:`free_pick`), since a list of the cards
    the seat may hold would name, or leave out, another seat's sealed cards.
    Face-up plays (Striker, Gambit, a card discarded under the Support) are the
    camera's.  None while the Base is built (nothing to list).
    """
    if not state.physical:
        return state.legal_moves(seat)
    if state.outcome is not None or seat not in state.to_act():
        return []
    s = state.snapshot
    if s.phase == "build":
        return None
    if s.phase == "reveal":
        sealed = {"base": lambda: tuple(s.sealed_bases[seat]), "indicator": lambda: (s.indicators[seat],),
                  "support": lambda: (s.supports[seat],)}
        return [m.Reveal(seat, what, sealed[what]()) for who, what in s.pending if who == seat]
    if s.phase == "claim":
        return [m.Claim(seat, True), m.Claim(seat, False)]
    if s.phase == "indicate":
        return []  # the indicator is picked from the whole deck (free_pick)
    if s.phase == "turn":
        # A Support under the Striker is picked from the whole deck (free_pick).
        return list(state.end_options(s, seat))[:MANUAL_CAP]
    return []


def free_pick(state: DoubleEdgeState, seat: int) -> dict | None:
    """A sealed card (or the Base's three, top first) of a physical deal, picked on the phone (DE-15.1).

    The cards to pick from are the whole 48-card deck (``"from": "deck"``, drawn by the phone itself) plus
    the seat's own aces for an indicator: never a list computed from what the server knows, since naming
    another seat's sealed card, or leaving it out, would tell where it lies.  The engine checks the pick
    (card conservation, DE-15.2).
    """
    s = state.snapshot
    if not state.physical or state.outcome is not None or seat not in state.to_act():
        return None
    if s.phase == "build":
        return {"type": m.BuildBase.type, "seat": seat, "field": "cards", "count": 3, "list": True, "from": "deck"}
    if s.phase == "indicate":
        return {"type": m.Indicate.type, "seat": seat, "field": "card", "count": 1, "list": False, "from": "deck",
                "also": list(ACES[seat])}
    if s.phase == "turn" and s.strikers[seat] is not None and s.supports[seat] is None:
        return {"type": m.PlaySupport.type, "seat": seat, "field": "card", "count": 1, "list": False,
                "from": "deck"}
    return None


def card_choices(state: DoubleEdgeState, seat: int) -> tuple[str, ...]:
    """The card ids a manual-entry picker offers ``seat``: its hand and aces (seeded), every card (physical)."""
    s = state.snapshot
    if state.physical:
        return tuple(c for c in (*ACES[seat], *DECK) if owner_of_ace(c) in (None, seat)
                     and state.where_is(c) in (None, f"seat {seat + 1}'s aces", f"seat {seat + 1}'s hand"))
    return (*ACES[seat], *sorted(s.hands[seat], key=lambda c: (c[-1], value(c))))


def answer(state: DoubleEdgeState, seat: int, choice: str) -> Move | None:
    """The move a seat's answer to one of this adapter's questions stands for (None: not an answer now).

    Choices are card ids (``7H``) or stacks top first (``2C-JC-2S``); what they
    mean follows from the phase: a Base, indicator or Support being revealed, a
    Striker or a Gambit laid, a Support sealed, a card discarded under the Support.
    """
    s = state.snapshot
    if state.outcome is not None or not isinstance(choice, str) or seat not in state.to_act():
        return None
    cards = tuple(choice.split("-"))
    if not all(is_card(c) for c in cards):
        return None
    if s.phase == "reveal":
        what = next((w for p, w in s.pending if p == seat), None)
        return m.Reveal(seat, what, cards) if what else None
    if s.phase == "build" and len(cards) == 3:
        return m.BuildBase(seat, cards)
    if s.phase == "indicate" and len(cards) == 1:
        return m.Indicate(seat, cards[0])
    if s.phase != "turn":
        return None
    if len(cards) >= 3 and state.gambits:
        return m.PlayGambit(seat, cards)
    if len(cards) != 1:
        return None
    if s.strikers[seat] is None:
        return m.PlayStriker(seat, cards[0])
    if s.supports[seat] is None:
        return m.PlaySupport(seat, cards[0])
    if not s.middles[seat]:
        return m.DiscardSupport(seat, cards[0], None if s.support_up[seat] else s.supports[seat])
    return None


ADAPTER = FunctionAdapter(
    DoubleEdgeState,
    layout=mat.layout,
    interpret=interpret,
    expected=expected,
    differences=differences,
    manual_moves=manual_moves,
    answer=answer,
    free_pick=free_pick,
)
"""The adapter the registry hands companion (``engines.registry.adapter("double-edge")``)."""
