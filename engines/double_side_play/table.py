"""Double Side Play on the printed mat: what the camera sees becomes ``Play`` moves.

The table adapter (docs/tables.md, ids ``DSP-Tn``).  Dice, janken and the
trump colour come from the LED dice and the phones; the only thing the camera
decides is which card each seat played.  A seat plays by laying its card face
up in its own "played" zone; when the trick is won, the winner gathers the
cards face down onto its "tricks" pile.

Why the snapshot, not the change list, finds the plays: a batch with a
mismatch applies nothing, so a legal card laid in the same moment as an
illegal one must still be found once the illegal one is put back, and by then
no change mentions it.  The change list only decides whether a known card
lying in the wrong place was *just* put there (a mismatch) or is the table
still catching up with the engine (left to :func:`differences`).

Pure: no I/O, no memory between calls; every answer follows from the state,
the changes and the snapshot handed in.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core import (
    FACE_DOWN,
    UNKNOWN,
    AdapterResult,
    FunctionAdapter,
    IllegalMove,
    Move,
    Question,
    Sighting,
    State,
    TableSnapshot,
    Verdict,
    ZoneChange,
    ZoneExpectation,
)
from engines.double_side_play import mat, printed
from engines.double_side_play.cards import Deck
from engines.double_side_play.moves import JANKEN_HANDS, ChooseTrump, Janken, Play
from engines.double_side_play.snapshot import JANKEN, PLAY, TRUMP
from engines.double_side_play.state import DoubleSidePlayState

CONFIDENT = 0.6
"""A card read below this confidence is asked about, never played."""


def _deck(state: State) -> Deck:
    deck = getattr(state, "deck", None)
    return deck if isinstance(deck, Deck) else Deck()


def card_of(sighting_card: str, deck: Deck) -> str | None:
    """The card id a sighting names: ``"R7"`` or a printed card's ``"printed:6"``; None for a back or unreadable."""
    if deck.is_card(sighting_card):
        return sighting_card
    return printed.from_sighting(sighting_card, deck)


def _seat_of(zone: str | None) -> tuple[int, str] | None:
    """``"s2.played"`` -> (2, "played")."""
    if not zone or not zone.startswith("s") or "." not in zone:
        return None
    head, key = zone.split(".", 1)
    return (int(head[1:]), key) if head[1:].isdigit() else None


def _label(zone: str) -> str:
    if zone == "trick":
        return "the trick in the middle"
    where = _seat_of(zone)
    if where is None:
        return zone
    seat, key = where
    return f"seat {seat + 1}'s {'played card' if key == 'played' else 'tricks pile'}"


def _last_trick(state: DoubleSidePlayState):
    s = state.snapshot
    return s.tricks[-1] if s.tricks and not s.plays else None


# ---------------------------------------------------------------------------
# What the table should show


def expected(state: DoubleSidePlayState) -> dict[str, ZoneExpectation]:
    """Per zone, what the camera should see now: the trick in progress in the played zones,
    each seat's won tricks face down on its pile; the last won trick may still lie where it was played."""
    s = state.snapshot
    out: dict[str, ZoneExpectation] = {}
    playing = s.phase == PLAY
    last = _last_trick(state) if playing else None
    current = dict(s.plays) if playing else {}
    last_cards = dict(last.plays) if last else {}
    out["trick"] = ZoneExpectation("trick", _label("trick"), may_show=tuple(last_cards.values()))
    for seat in range(state.seats):
        played = f"s{seat}.played"
        out[played] = ZoneExpectation(played, _label(played),
                                      face_up=(current[seat],) if seat in current else (),
                                      may_show=(last_cards[seat],) if seat in last_cards else ())
        won = s.tricks_won[seat] if playing else 0
        before_last = won - (1 if last is not None and last.winner == seat else 0)
        pile = f"s{seat}.tricks"
        # The winner turns the last trick face down as it gathers it: its cards may show for a moment.
        out[pile] = ZoneExpectation(pile, _label(pile), face_down=(1 if before_last else 0, 4 * won),
                                    may_show=tuple(last_cards.values()) if last and last.winner == seat else ())
    return out


def differences(state: DoubleSidePlayState, table: TableSnapshot) -> tuple[str, ...]:
    """What to move for the table to match the engine (empty: the table is restored).

    Like an electronic chess board after an illegal move: the server holds the
    last legal position and shows these sentences until the list is empty.
    Cards outside every zone (hands at the table's edge) are ignored.
    """
    deck = _deck(state)
    out: list[str] = []
    for zone, exp in expected(state).items():
        seen = table.in_zone(zone)
        up = [c for c in (card_of(s.card, deck) for s in seen) if c]
        down = sum(1 for s in seen if s.card == FACE_DOWN)
        unread = sum(1 for s in seen if s.card != FACE_DOWN and card_of(s.card, deck) is None)
        for card in exp.face_up:
            if card not in up:
                out.append(f"put {card} ({deck.describe(card)}) face up on {exp.label}")
        for card in up:
            if card not in exp.face_up and card not in exp.may_show:
                out.append(f"take {card} ({deck.describe(card)}) off {exp.label}")
        low, high = exp.face_down
        if down < low:
            out.append(f"{exp.label} should hold its won tricks face down")
        elif down > high:
            out.append(f"take the face-down card{'s' if down - high > 1 else ''} off {exp.label}"
                       if high == 0 else f"{exp.label} holds more cards than its tricks")
        if unread:
            out.append(f"the camera cannot read a card on {exp.label}: straighten it or call the referee")
    return tuple(out)



# ---------------------------------------------------------------------------
# Turning the table into moves



def _just_placed(changes: Sequence[ZoneChange], deck: Deck) -> set[tuple[str, str | None]]:
    return {(c, ch.zone) for ch in changes if ch.kind in ("placed", "moved", "flipped")
            for c in [card_of(ch.card, deck)] if c}


def interpret(state: DoubleSidePlayState, changes: Sequence[ZoneChange], table: TableSnapshot) -> AdapterResult:
    """The plays the table shows that the engine has not taken yet, in turn order, or what to put back."""
    deck = _deck(state)
    s = state.snapshot
    fresh = _just_placed(changes, deck)
    played = {c for t in s.tricks for _, c in t.plays} | {c for _, c in s.plays}
    last = _last_trick(state)
    last_cards = {c for _, c in last.plays} if last else set()
    current = dict(s.plays)
    candidates: dict[int, list[Sighting]] = {}
    questions: list[Question] = []
    for sight in table.sightings:
        where = _seat_of(sight.zone)
        card = card_of(sight.card, deck)
        if sight.card == FACE_DOWN:
            if (where and where[1] == "played" and s.phase == PLAY and where[0] == s.turn
                    and where[0] not in current and (FACE_DOWN, sight.zone) in {(ch.card, ch.zone) for ch in changes}):
                return AdapterResult.refused("DSP-T4", f"seat {where[0] + 1}'s card lies face down",
                                 "turn your card face up in your played zone")
            continue
        if card is None:
            if sight.card == UNKNOWN and where and where[1] == "played" and s.phase == PLAY and where[0] == s.turn:
                questions.append(Question(where[0], "The camera cannot read the card you played: which is it?",
                                          tuple(state.playable(where[0]) or ())))
            continue
        if card in played:
            # A known card in a wrong place matters only if someone just put it there.
            if (card, sight.zone) in fresh and not _allowed(card, sight.zone, current, last, last_cards):
                owner = next((p for p, c in s.plays if c == card), None)
                home = f"seat {owner + 1}'s played zone" if owner is not None else "the winner's tricks pile"
                return AdapterResult.refused("DSP-T3", f"{card} was already played this round and belongs on {home}",
                                 f"put {card} back on {home}")
            continue
        if sight.zone is None:
            continue  # in a hand at the table's edge
        if where is None or where[1] != "played":
            if (card, sight.zone) in fresh or sight.zone == "trick":
                return AdapterResult.refused("DSP-T2", f"{card} was laid on {_label(sight.zone)}; a card is played on the "
                                 "player's own played zone", f"move {card} to your own played zone")
            continue
        if not s.tricks and not s.plays and (card, sight.zone) not in fresh:
            continue  # before a round's first card, cards lying since the last round are not plays
        candidates.setdefault(where[0], []).append(sight)
    return _plays(state, candidates, questions)


def _allowed(card: str, zone: str | None, current: dict[int, str], last, last_cards: set[str]) -> bool:
    if zone is None:
        return True
    for seat, c in current.items():
        if c == card:
            return zone in (f"s{seat}.played", "trick")
    if card in last_cards:
        seat = next(p for p, c in last.plays if c == card)
        return zone in (f"s{seat}.played", "trick", f"s{last.winner}.tricks")
    return False


def _plays(state: DoubleSidePlayState, candidates: dict[int, list[Sighting]],
           questions: list[Question]) -> AdapterResult:
    """Take the seats' new cards in turn order on a scratch copy; the first that does not fit is the mismatch."""
    deck = _deck(state)
    twin = state.copy()
    moves: list[Move] = []
    pending = dict(candidates)
    while pending:
        snap = twin.snapshot
        if snap.phase != PLAY:
            seat, sights = next(iter(pending.items()))
            card = card_of(sights[0].card, deck)
            return AdapterResult.refused("DSP-T1", f"no card is played now ({_waiting(twin)}); seat {seat + 1} laid {card}",
                             f"take {card} back to seat {seat + 1}'s hand")
        seat = snap.turn
        if seat not in pending:
            other, sights = next(iter(pending.items()))
            card = card_of(sights[0].card, deck)
            return AdapterResult.refused("DSP-T1", f"seat {other + 1} laid {card} out of turn: seat {seat + 1} plays now",
                             f"take {card} back to seat {other + 1}'s hand")
        sights = pending.pop(seat)
        if len(sights) > 1:
            cards = ", ".join(str(card_of(x.card, deck)) for x in sights)
            return AdapterResult.refused("DSP-T5", f"seat {seat + 1} laid {len(sights)} new cards ({cards}); one card per trick",
                             "take back all but the card you mean to play")
        sight = sights[0]
        card = card_of(sight.card, deck)
        assert card is not None
        if sight.confidence < CONFIDENT:
            choices = tuple(dict.fromkeys([card, *(twin.playable(seat) or ())]))
            questions.append(Question(seat, f"Is the card you played {card} ({deck.describe(card)})?", choices))
            break
        move = Play(seat, card)
        try:
            twin.apply(move)
        except IllegalMove as exc:
            v = exc.verdict
            fix = f"take {card} back to seat {seat + 1}'s hand" + (f", then {v.fix}" if v.fix else "")
            return AdapterResult(mismatch=Verdict.reject(v.rule or "DSP-7.2", v.message, fix),
                                 questions=tuple(questions))
        moves.append(move)
    return AdapterResult(moves=tuple(moves), questions=tuple(questions))


def _waiting(state: State) -> str:
    s = state.snapshot
    if s.phase == JANKEN:
        return "rock-paper-scissors decides first"
    if s.phase == TRUMP:
        return "the trump colour is chosen first"
    if state.outcome is not None:
        return "the game is over"
    return "the dice are rolled first"


def manual_moves(state: DoubleSidePlayState, seat: int) -> list[Move]:
    """What a person may enter by hand for ``seat`` now (no camera): the legal moves, and in a
    physical deal, where hands are unknown, every card not yet played this round (DSP-9.1)."""
    if seat not in state.to_act():
        return []
    moves = state.legal_moves(seat)
    if moves is not None:
        return list(moves)
    s = state.snapshot
    if s.phase == JANKEN:
        return [Janken(seat, h) for h in JANKEN_HANDS]
    if s.phase == TRUMP:
        return [ChooseTrump(seat, c) for c in _deck(state).colours]
    played = {c for t in s.tricks for _, c in t.plays} | {c for _, c in s.plays}
    return [Play(seat, c) for c in _deck(state).ids if c not in played]


ADAPTER = FunctionAdapter(
    DoubleSidePlayState,
    layout=mat.layout,
    interpret=interpret,
    expected=expected,
    differences=differences,
    manual_moves=manual_moves,
)
"""The adapter the registry hands companion (``engines.registry.adapter("double-side-play")``)."""
