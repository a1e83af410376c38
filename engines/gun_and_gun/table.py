"""ガンナガン with ダブルエッジ on the mat: what the camera sees becomes engine moves.

The table adapter (docs/tables-keener-gun-and-gun.md, ids ``GG-Tn``).  The
players use their own commercial cards, taught to vision once by feature
matching: a seen card is ``Sighting.card = "taught:<name>"`` with the name it
was registered under (``"taught:計略"``).  Several physical copies share a
name, so the adapter picks the copy id from the engine's state: the one in
that seat's hand for a play, in its function area for a resolution, among its
set responses for a response.

The companion referees the ダブルエッジ rule, not the whole game, so the
camera reads only what touches it, and what a glance can tell:

* an action card (行動) put face up in the action zone is played (GG-T1);
* a function card (機能) put face up in the function area is played, and in
  the down phase moved from there to the voltage area is resolved (GG-T1);
* a card put face down on a gun is loaded, one put face down in the response
  zone is set, a set response turned face up answers a shot (GG-T3);
* where ダブルエッジ could be declared on the play, the adapter asks the seat
  (GG-T6): the phone, or the coin-toss board's button, answers, and the
  answer is the move (:func:`answer`).  The toss itself is a chance move from
  the coin-toss board.

Shooting, skills, ending the main phase and declining a response are phone
moves.  Why the changes decide and not the whole snapshot: cards used earlier
lie in the action zone until someone moves them to the voltage area, so only a
card *just put* somewhere is a move.

Pure: no I/O, no memory between calls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

from engines.core import (
    FACE_DOWN,
    UNKNOWN,
    AdapterResult,
    FunctionAdapter,
    Move,
    Question,
    Reject,
    State,
    TableSnapshot,
    Verdict,
    ZoneChange,
)
from engines.gun_and_gun import mat, rules
from engines.gun_and_gun.cards import CARD_SET, CardDef
from engines.gun_and_gun.moves import (
    Activate,
    EndMain,
    Load,
    NoResponse,
    PlayAction,
    PlayFunction,
    ResolveFunction,
    Respond,
    Reveal,
    SetResponse,
    Shoot,
    UseSkill,
)
from engines.gun_and_gun.snapshot import UNKNOWN as UNKNOWN_CARD
from engines.gun_and_gun.state import GunAndGunState

PREFIX = "taught:"
"""``Sighting.card`` of a card vision learned in teach mode: ``"taught:<registered name>"``."""
GUNS = (0, 1)
TYPE_WORDS = {"action": "行動 (action)", "function": "機能 (function)", "bullet": "銃弾 (bullet)",
              "response": "対応 (response)"}
HOME = {"action": "action zone, face up", "function": "function area, face up",
        "bullet": "gun, face down (loaded)", "response": "response zone, face down"}
DECLARE, DECLINE = "declare", "decline"
RULE_OF_CORE = {"CORE-6": "GG-T4"}

_BY_NAME: dict[str, CardDef] = {}
for _card in CARD_SET.cards.values():
    _BY_NAME.setdefault(_card.name, _card)
    _BY_NAME.setdefault(_card.name_en, _card)


@dataclass(frozen=True)
class ZoneExpectation:
    """What the camera should see in one zone when the table matches the engine.

    ``face_up``: copy ids that must lie here face up (compared by name: copies
    look alike).  ``face_down``: how many backs may be seen (min, max; a gun or
    a deck shows one back for many cards).  ``may_show``: face-up cards that
    may lie here but need not (a used card not yet moved to the voltage area,
    the trash under its top card).
    """

    zone: str
    label: str
    face_up: tuple[str, ...] = ()
    face_down: tuple[int, int] = (0, 0)
    may_show: tuple[str, ...] = ()


# ---------------------------------------------------------------------------
# Names


def card_named(sighting_card: str) -> CardDef | None:
    """The card a ``"taught:<name>"`` sighting shows (Japanese or English name); None otherwise."""
    if not sighting_card.startswith(PREFIX):
        return None
    return _BY_NAME.get(sighting_card[len(PREFIX):])


def sighting_of(state: GunAndGunState, copy_id: str) -> str:
    """The ``Sighting.card`` the camera reports for a copy (its registered Japanese name)."""
    return PREFIX + state.table.card(copy_id).name


def _zone_seat(zone: str | None) -> tuple[int, str] | None:
    if not zone or not zone.startswith("s") or "." not in zone:
        return None
    head, key = zone.split(".", 1)
    return (int(head[1:]), key) if head[1:].isdigit() else None


def _label(zone: str) -> str:
    where = _zone_seat(zone)
    if where is None:
        return zone
    seat, key = where
    words = {"action": "action zone", "function": "function area", "response": "response zone", "trash": "trash",
             "voltage": "voltage area", "deck0": "gun 0 deck", "deck1": "gun 1 deck", "loaded0": "gun 0",
             "loaded1": "gun 1"}
    return f"seat {seat + 1}'s {words.get(key, key)}"


# ---------------------------------------------------------------------------
# What the table should show


def expected(state: GunAndGunState) -> dict[str, ZoneExpectation]:
    """Per zone, what the camera should see now (GG-T7)."""
    s = state.snapshot
    out: dict[str, ZoneExpectation] = {}
    pending = s.pending
    for seat, p in enumerate(s.players):
        def zid(key: str, seat: int = seat) -> str:
            return f"s{seat}.{key}"

        acting: tuple[str, ...] = ()
        resolving: tuple[str, ...] = ()
        if pending is not None and pending.seat == seat and pending.card:
            if pending.kind == "coin" and pending.source == "function":
                resolving = (pending.card,)
            elif pending.kind in ("coin", "activate"):
                acting = (pending.card,)  # waiting for the toss, or revealed by ブレインハック
        used = p.voltage
        out[zid("action")] = ZoneExpectation(zid("action"), _label(zid("action")), acting, may_show=used)
        out[zid("function")] = ZoneExpectation(zid("function"), _label(zid("function")), p.functions + resolving,
                                               may_show=used)
        n = len(p.responses)
        out[zid("response")] = ZoneExpectation(zid("response"), _label(zid("response")), face_down=(n, n))
        out[zid("voltage")] = ZoneExpectation(zid("voltage"), _label(zid("voltage")), p.voltage)
        out[zid("trash")] = ZoneExpectation(zid("trash"), _label(zid("trash")), may_show=p.trash)
        for gun in GUNS:
            for key, cards in ((f"loaded{gun}", p.loaded[gun]), (f"deck{gun}", p.decks[gun])):
                out[zid(key)] = ZoneExpectation(zid(key), _label(zid(key)), face_down=(1 if cards else 0, len(cards)))
    return out


def _names(state: GunAndGunState, cards: Sequence[str]) -> Counter[str]:
    return Counter(state.table.card(c).name for c in cards)


def _seen_names(table: TableSnapshot, zone: str) -> Counter[str]:
    return Counter(card.name for card in (card_named(x.card) for x in table.in_zone(zone)) if card)


def _lacking(state: GunAndGunState, table: TableSnapshot, seat: int, zone: str) -> Counter[str]:
    """Used cards of the seat not yet seen in its voltage area that may still lie in ``zone`` (its action
    zone or function area) where they were played: only cards played this turn (the table is tidied
    between turns), only action cards in the action zone, function cards in the function area."""
    kind = "function" if zone.endswith(".function") else "action"
    s = state.snapshot
    played = [c for c in s.players[seat].voltage if c in s.played and state.table.card(c).type == kind]
    return _names(state, played) - _seen_names(table, f"s{seat}.voltage")


def differences(state: GunAndGunState, table: TableSnapshot) -> tuple[str, ...]:
    """What to move for the table to match the engine; empty when the table is restored (GG-T7)."""
    out: list[str] = []
    for zone, e in expected(state).items():
        seen = _seen_names(table, zone)
        want = _names(state, e.face_up)
        if zone.endswith((".action", ".function")):
            allowed = want + _lacking(state, table, int(zone[1]), zone)
        else:
            allowed = want + _names(state, e.may_show)
        for name, n in want.items():
            if seen[name] < n:
                out.append(f"put {name} face up on {e.label}")
        for name, n in seen.items():
            if n > allowed[name]:
                out.append(f"take {name} off {e.label}")
        sights = table.in_zone(zone)
        down = sum(1 for x in sights if x.card == FACE_DOWN)
        low, high = e.face_down
        if down < low:
            out.append(f"{e.label} should hold {low if low == high else 'its'} face-down card(s)")
        elif down > high:
            out.append(f"take {down - high} face-down card(s) off {e.label}")
        if any(x.card == UNKNOWN or (x.card != FACE_DOWN and card_named(x.card) is None) for x in sights):
            out.append(f"the camera cannot read a card on {e.label}: straighten it or teach it")
    return tuple(out)



# ---------------------------------------------------------------------------
# Turning the table into moves



def _rule(state: GunAndGunState, verdict: Verdict) -> str:
    rule = verdict.rule or "GG-T1"
    if rule == "CORE-4":
        return "GG-DE-3" if state.snapshot.pending is not None and state.snapshot.pending.kind == "coin" else "GG-2.1"
    return RULE_OF_CORE.get(rule, rule)


def _try(twin: GunAndGunState, move: Move, fix: str) -> AdapterResult:
    verdict = twin.check(move)
    if not verdict.ok:
        return AdapterResult.refused(_rule(twin, verdict), verdict.message, fix + (f", then {verdict.fix}" if verdict.fix else ""))
    return AdapterResult(moves=(move,))


def _copy_named(state: GunAndGunState, cards: Sequence[str], name: str) -> str | None:
    return next((c for c in cards if state.table.card(c).name == name), None)


def _hand(state: GunAndGunState, seat: int) -> tuple[str, ...]:
    """The copies the seat may take from its hand: its hand, or in a physical deal (GG-P1) every copy of
    its decks not yet seen while it holds a card (the camera names the card; card conservation)."""
    p = state.snapshot.players[seat]
    if not state.snapshot.physical:
        return p.hand
    return p.unseen if UNKNOWN_CARD in p.hand else ()


def _declarable(twin: GunAndGunState, move: PlayAction | ResolveFunction) -> bool:
    """Could ダブルエッジ be declared on this play now (the variant offers it and the engine would take it)?"""
    if not twin.offers_double_edge:
        return False
    flagged = type(move)(move.seat, move.card, True)
    return twin.check(flagged).ok


def _ask_or_play(twin: GunAndGunState, move: PlayAction | ResolveFunction, fix: str) -> AdapterResult:
    """The play itself, or, where ダブルエッジ could be declared on it, the question to the seat (GG-T6)."""
    plain = twin.check(move)
    if _declarable(twin, move):
        name = twin.table.card(move.card).name
        return AdapterResult(questions=(Question(
            move.seat, f"ダブルエッジを宣言しますか？ Declare ダブルエッジ on {name}? Answer here or press the "
                       "coin-toss board's button.", (f"{DECLARE}:{move.type}:{move.card}",
                                                      f"{DECLINE}:{move.type}:{move.card}")),))
    if not plain.ok:
        return AdapterResult.refused(_rule(twin, plain), plain.message, fix + (f", then {plain.fix}" if plain.fix else ""))
    return AdapterResult(moves=(move,))


def interpret(state: GunAndGunState, changes: Sequence[ZoneChange], table: TableSnapshot) -> AdapterResult:
    """The moves the just-made changes stand for, in order, or the first mismatch (nothing applies then)."""
    twin = state.copy()
    moves: list[Move] = []
    questions: list[Question] = []
    for ch in changes:
        if ch.kind == "removed" or twin.outcome is not None:
            continue
        where = _zone_seat(ch.zone)
        if where is None:
            continue  # a hand at the table's edge
        if ch.card == FACE_DOWN:
            result = _face_down(twin, ch, table, *where)
        elif ch.card == UNKNOWN:
            result = AdapterResult(questions=(Question(where[0], f"The camera cannot read the card on "
                                                                 f"{_label(ch.zone or '')}: straighten it."),))
        elif card_named(ch.card) is None:
            result = AdapterResult.refused("GG-T5", f"the camera does not know the card {ch.card[len(PREFIX):]!r} on "
                               f"{_label(ch.zone or '')}", "teach it with `companion vision teach`, or take it off")
        else:
            result = _face_up(twin, ch, table, *where)
        if result.mismatch is not None:
            return AdapterResult(mismatch=result.mismatch)
        questions.extend(result.questions)
        for move in result.moves:
            twin.apply(move)
            moves.append(move)
        if result.questions:
            break  # the answer decides what follows
    return AdapterResult(tuple(moves), None, tuple(questions))


def _face_down(twin: GunAndGunState, ch: ZoneChange, table: TableSnapshot, seat: int, key: str) -> AdapterResult:
    """A card put face down: loaded on a gun or set as a response (GG-T3); elsewhere a mismatch."""
    assert ch.zone is not None
    p = twin.snapshot.players[seat]
    down = sum(1 for x in table.in_zone(ch.zone) if x.card == FACE_DOWN)
    if key in ("loaded0", "loaded1"):
        gun = int(key[-1])
        if down <= len(p.loaded[gun]):
            return AdapterResult()  # the table catching up (a load from the deck)
        kind, make = "bullet", (lambda c: Load(seat, gun, c))
        ask = f"Which bullet did you load into gun {gun}?"
    elif key == "response":
        if down <= len(p.responses):
            return AdapterResult()
        kind, make = "response", (lambda c: SetResponse(seat, c))
        ask = "Which response card did you set?"
    elif key in ("action", "function", "voltage"):
        return AdapterResult.refused("GG-T2", f"cards on {_label(ch.zone)} lie face up", f"turn the card on {_label(ch.zone)} "
                         "face up, or take it back")
    else:
        return AdapterResult()  # decks and the trash
    held = [c for c in _hand(twin, seat) if twin.table.card(c).type == kind]
    by_name: dict[str, str] = {}
    for c in held:
        by_name.setdefault(twin.table.card(c).name, c)  # the first copy of each name
    if not held:
        return AdapterResult.refused("GG-T3", f"seat {seat + 1} holds no {TYPE_WORDS[kind]} card to put on {_label(ch.zone)}",
                         f"take the face-down card off {_label(ch.zone)}")
    if len(by_name) == 1:
        return _try(twin, make(held[0]), f"take the face-down card off {_label(ch.zone)}")
    verb = "load" if kind == "bullet" else "set"
    gun_part = f"{key[-1]}:" if kind == "bullet" else ""
    return AdapterResult(questions=(Question(seat, f"{ask} {' / '.join(by_name)}",
                                             tuple(f"{verb}:{gun_part}{c}" for c in by_name.values())),))


def _face_up(twin: GunAndGunState, ch: ZoneChange, table: TableSnapshot, seat: int, key: str) -> AdapterResult:
    assert ch.zone is not None
    card = card_named(ch.card)
    assert card is not None
    s = twin.snapshot
    p = s.players[seat]
    e = expected(twin)[ch.zone]
    if (key == "voltage" and ch.kind == "moved" and ch.from_zone == f"s{seat}.function" and s.phase == "down"
            and _seen_names(table, ch.from_zone)[card.name] < _names(twin, p.functions)[card.name]):
        resolving = _copy_named(twin, p.functions, card.name)
        if resolving is not None:
            # The function area now shows fewer of them than the engine holds: one left it, so it resolves,
            # however many cards of that name the voltage area shows (a pile shows only its top).
            return _ask_or_play(twin, ResolveFunction(seat, resolving), f"put {card.name} back on your function area")
    accounted = _names(twin, e.face_up)[card.name]
    if key in ("action", "function"):
        accounted += _lacking(twin, table, seat, ch.zone)[card.name]  # a used card not yet moved to the voltage area
    else:
        accounted += _names(twin, e.may_show)[card.name]
    if _seen_names(table, ch.zone)[card.name] <= accounted:
        return AdapterResult()  # the engine already has it there: the table catching up
    back = f"take {card.name} back into your hand"
    if key == "voltage":
        resolving = _copy_named(twin, p.functions, card.name)
        if resolving is not None and s.phase == "down":
            return _ask_or_play(twin, ResolveFunction(seat, resolving), f"put {card.name} back on your function area")
        if _copy_named(twin, _hand(twin, seat), card.name) is not None:
            return AdapterResult.refused("GG-T2", f"{card.name} went from the hand straight to the voltage area; cards reach it "
                             "only by being used", back)
        return AdapterResult()  # fired or spent cards ahead of the phone's move: the restore check covers it
    if key == "response":
        answering = _copy_named(twin, p.responses, card.name)
        if answering is not None:
            return _try(twin, Respond(seat, answering), f"turn {card.name} face down again")
    held = _copy_named(twin, _hand(twin, seat), card.name)
    if key == "response" and card.type == "response":
        return AdapterResult.refused("GG-T2", f"{card.name} is set face down: the opponent must not see it",
                         f"turn {card.name} face down in your response zone")
    if held is None:
        return AdapterResult.refused("GG-T3", f"{card.name} is not in seat {seat + 1}'s hand, so it cannot be put on "
                         f"{_label(ch.zone)}", f"take {card.name} off {_label(ch.zone)}")
    if key == "action" and card.type == "action":
        return _ask_or_play(twin, PlayAction(seat, held), back)
    if key == "function" and card.type == "function":
        return _try(twin, PlayFunction(seat, held), back)
    return AdapterResult.refused("GG-T2", f"{card.name} is a {TYPE_WORDS[card.type]} card: it goes on your {HOME[card.type]}, "
                     f"not on {_label(ch.zone)}", f"move {card.name} to your {HOME[card.type]}")


def answer(state: GunAndGunState, seat: int, choice: str) -> Move | None:
    """The move a seat's answer to one of this adapter's questions stands for, or None for a choice it never offered.

    ``declare:play-action:<copy>`` / ``decline:...`` (GG-T6), ``load:<gun>:<copy>``, ``set:<copy>`` (GG-T3).
    The server applies it like any phone move, so the engine checks it.
    """
    head, _, rest = choice.partition(":")
    hand = _hand(state, seat) if 0 <= seat < len(state.snapshot.players) else ()
    if head in (DECLARE, DECLINE):
        kind, _, card = rest.partition(":")
        flag = head == DECLARE
        if kind == PlayAction.type:
            return PlayAction(seat, card, flag)
        if kind == ResolveFunction.type:
            return ResolveFunction(seat, card, flag)
        return None
    if head == "load":
        gun, _, card = rest.partition(":")
        return Load(seat, int(gun), card) if gun in ("0", "1") and card in hand else None
    if head == "set":
        return SetResponse(seat, rest) if rest in hand else None
    return None


def _waiting(state: GunAndGunState, table: TableSnapshot | None, seat: int) -> Move | None:
    """The declaration on the card ``seat`` just put down and the table still waits on (GG-T9): an
    action card in its action zone the engine has not played, or in the down phase a function card
    moved to its voltage area the engine has not resolved; a card revealed by ブレインハック."""
    s = state.snapshot
    p = s.players[seat]
    if s.pending is not None and s.pending.kind == "activate" and s.pending.seat == seat:
        return Activate(seat, True)
    if table is None:
        return None
    if s.phase == "main":
        zone = f"s{seat}.action"
        e = expected(state)[zone]
        extra = _seen_names(table, zone) - _names(state, e.face_up) - _lacking(state, table, seat, zone)
        for name in extra:
            held = _copy_named(state, _hand(state, seat), name)
            if held is not None and state.table.card(held).type == "action":
                return PlayAction(seat, held, True)
    if s.phase == "down":
        extra = _seen_names(table, f"s{seat}.voltage") - _names(state, p.voltage)
        for name in extra:
            resolving = _copy_named(state, p.functions, name)
            if resolving is not None:
                return ResolveFunction(seat, resolving, True)
    return None


def _refusal(rule: str, message: str, fix: str | None = None) -> Verdict:
    return Reject(rule, message, fix).verdict  # written as a Reject so scripts/engine_messages.py extracts it


def button(state: GunAndGunState, seat: int | None, purpose: str, table: TableSnapshot | None = None) -> Move | Verdict | None:
    """The coin-toss board's button (GG-T9): the ダブルエッジ declaration of ``seat`` on the card it just
    put down, as the move to apply (the engine checks it); a refusal naming its rule when there is
    nothing to declare on; None for a button that is not this game's (``purpose`` other than
    ``"coin-toss"``).  ``seat`` None is the board's shared button: the seat whose turn it is.
    ``table``: the camera's last table (which card was just put down)."""
    if purpose != "coin-toss":
        return None
    s = state.snapshot
    if not state.offers_double_edge:
        return _refusal("GG-DE-1", "ダブルエッジ is not part of the standard rules",
                      "start the table with the double-edge variant")
    if s.phase not in ("main", "down") or state.outcome is not None:
        return _refusal("GG-T9", "there is no turn to declare ダブルエッジ in now")
    if seat is None:
        seat = s.active
    if not 0 <= seat < len(s.players):
        return _refusal("GG-T9", f"there is no seat {seat + 1} at this table")
    if seat != s.active:
        return _refusal("GG-DE-2", "only the player whose turn it is may declare ダブルエッジ", "wait for your turn")
    if s.pending is not None and s.pending.kind == "coin":
        return _refusal("GG-DE-3", "ダブルエッジ was just declared: the coin is being tossed")
    move = _waiting(state, table, seat)
    if move is not None:
        return move
    if s.de_used:
        return _refusal("GG-DE-2", "ダブルエッジ was already declared this turn (once per turn, however many cards "
                      "you play)", "play the card without declaring")
    return _refusal("GG-T9", "no action or function card is waiting for a declaration",
                  "put the action card on your action zone (in the down phase, move the function card to your "
                  "voltage area), then press the button while the phone asks")


PHONE_CAP = 60
"""At most this many moves are offered a phone in a physical deal (the moves naming no card come first)."""


def manual_moves(state: GunAndGunState, seat: int) -> list[Move] | None:
    """What a person may enter by hand for ``seat`` now (GG-T8).

    Seeded deal: the engine's legal moves.  Physical deal (GG-P1), where the
    hands are unknown: the moves naming no hidden card, every one the engine
    accepts now (ending the main phase, shooting, the skill, no response,
    resolving a function card or activating a revealed action with or
    without ダブルエッジ, answering a shot with a set response), then the
    moves naming a card: a play from the hand of one copy per name the seat's
    decks still hide (with and without the declaration), and for a ``reveal``
    (GG-P3, GG-P4) the names the turned-up cards may have.  At most
    :data:`PHONE_CAP`; [] when the seat is not to act.
    """
    moves = state.legal_moves(seat)
    if moves is not None:
        return list(moves)
    if state.outcome is not None or seat not in state.to_act():
        return []
    s = state.snapshot
    pending = s.pending
    flags = (False, True) if state.offers_double_edge else (False,)
    if pending is not None and pending.kind == "reveal":
        candidates = _reveals(state, seat)
    elif pending is not None and pending.kind == "activate":
        candidates = [Activate(seat, f) for f in flags]
    elif pending is not None and pending.kind == "response":
        candidates = [NoResponse(seat), *(Respond(seat, c) for c in s.players[seat].responses)]
    elif s.phase == "down":
        candidates = [ResolveFunction(seat, c, f) for c in s.players[seat].functions for f in flags]
    else:
        candidates = [EndMain(seat), *(Shoot(seat, g) for g in GUNS), *(UseSkill(seat, g) for g in GUNS),
                      *_hand_plays(state, seat, flags)]
    out: list[Move] = []
    for move in candidates:
        if len(out) >= PHONE_CAP:
            break
        if state.check(move).ok:
            out.append(move)
    return out


def _by_name(state: GunAndGunState, cards: Sequence[str]) -> dict[str, str]:
    """The first copy of each name among ``cards``, in their order."""
    out: dict[str, str] = {}
    for c in cards:
        out.setdefault(state.table.card(c).name, c)
    return out


def _hand_plays(state: GunAndGunState, seat: int, flags: tuple[bool, ...]) -> list[Move]:
    """Physical deal: the plays from the hand, one copy per name the seat's decks still hide (GG-P2).
    Only the seat's own cards: what it could hold."""
    out: list[Move] = []
    for card in _by_name(state, _hand(state, seat)).values():
        kind = state.table.card(card).type
        if kind == "action":
            out += [PlayAction(seat, card, f) for f in flags]
        elif kind == "function":
            out.append(PlayFunction(seat, card))
        elif kind == "response":
            out.append(SetResponse(seat, card))
        else:
            out += [Load(seat, g, card) for g in GUNS]
    return out


def _reveals(state: GunAndGunState, seat: int) -> list[Move]:
    """The ``reveal`` moves the phone offers (GG-P3, GG-P4): the names the turned-up cards may have.

    A shot (GG-P3): the seat's own gun's unknown cards came from that gun's deck, so ordered choices
    of its copies still unseen, one per sequence of names.  ブレインハック (GG-P4): one card of the
    opponent's revealed deck, one per name not seen face up (voltage area, trash, function area), so
    the names listed do not tell which cards the opponent holds face down.  The copy named is the last
    such copy of its name: copies put face down are taken first-first (:func:`_by_name`), so it is one
    the engine still counts unseen and its id does not tell how many of the name lie face down (only
    when that copy was named otherwise does another unseen copy stand in)."""
    s = state.snapshot
    pending = s.pending
    assert pending is not None
    if pending.source == "skill":
        owner = rules.other(seat)
        o = s.players[owner]
        public = set(o.voltage) | set(o.trash) | set(o.functions)
        deck = [c for c in state.table.decks[owner][pending.gun] if c not in public]
        copies = [c for d in state.table.decks[owner] for c in d if c not in public]
        out: list[Move] = []
        for name in dict.fromkeys(state.table.card(c).name for c in deck):
            mine = [c for c in copies if state.table.card(c).name == name]
            last = mine[-1]
            if last not in o.unseen:
                last = next((c for c in reversed(mine) if c in o.unseen), last)
            out.append(Reveal(seat, (last,)))
        return out
    p = s.players[seat]
    n = p.loaded[pending.gun].count(UNKNOWN_CARD)
    pool = [c for c in state.table.decks[seat][pending.gun] if c in p.unseen]
    seen: set[tuple[str, ...]] = set()
    out: list[Move] = []
    for cards in permutations(pool, n):
        key = tuple(state.table.card(c).name for c in cards)
        if key in seen:
            continue
        seen.add(key)
        out.append(Reveal(seat, cards))
        if len(out) >= PHONE_CAP:
            break
    return out


class GunAndGunAdapter(FunctionAdapter):
    """The module's functions as one adapter, plus the coin-toss board's button (:func:`button`)."""

    def button(self, state: State, seat: int | None, purpose: str,
               table: TableSnapshot | None = None) -> Move | Verdict | None:
        return button(self._own(state), seat, purpose, table)  # type: ignore[arg-type]


ADAPTER = GunAndGunAdapter(
    GunAndGunState,
    layout=mat.layout,
    interpret=interpret,
    expected=expected,
    differences=differences,
    manual_moves=manual_moves,
    answer=answer,
)
"""The adapter the registry hands companion (``engines.registry.adapter("gun-and-gun")``)."""
