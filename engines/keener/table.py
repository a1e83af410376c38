"""Keener on the printed mat: what the camera sees becomes engine moves.

The table adapter (docs/tables-keener-gun-and-gun.md, ids ``KN-Tn``).  Printed
Keener cards carry a marker; companion reports one as ``"printed:<index>"``
and :mod:`engines.keener.printed` names the card.  Which seat's copy it is
follows from the zone it lies in (the printed sets A and B are not tied to a
seat), and in the shared middle zone from whose Fighter it is.

What the camera decides: a card put from the hand into its zone is played
(a Generator in the Economy phase, anything else paid for in the Spending
phase: cost and bank are the engine's business); a Fighter moved into the
middle attacks (its owner's Attack phase) or blocks the attacker it is put
facing (the defender, while blocks are chosen); a face-down card turned up
where a Cloak of Darkness card lies is turned up (KN-8.3).  Everything else
-- passing, confirming blocks, assigning damage, picking kills, sealing a
face-down card -- is a phone move the server applies directly.

Why the changes, not the whole snapshot, decide: after combat the middle
still holds last turn's survivors until someone tidies up, so a card lying
somewhere is not a move; a card *just put* somewhere is.  A card put where
the engine already has it (the table catching up: dead Fighters to the
discard pile, survivors back home) is no move and no mismatch.

Pure: no I/O, no memory between calls.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engines.core import (
    FACE_DOWN,
    UNKNOWN,
    AdapterResult,
    FunctionAdapter,
    Move,
    Question,
    Sighting,
    TableSnapshot,
    Verdict,
    ZoneChange,
)
from engines.keener import mat, printed
from engines.keener.catalog import CARDS
from engines.keener.cloak import trap_targets
from engines.keener.hand import UNKNOWN as HAND_UNKNOWN
from engines.keener.ids import card_id
from engines.keener.legal import legal_moves
from engines.keener.moves import Attack, Block, Cloak, Deploy, PlayGenerator, Uncloak
from engines.keener.snapshot import Piece, Side, Snap
from engines.keener.state import KeenerState

ATTACK = "attack"
COMBAT_PHASES = ("declare", "block", "assign", "kill")
HOME = {"generator": "generators", "fighter": "fighters", "defense": "defenses", "single-use": "discard"}
"""Where a card of each type is put to play it (Equipment: on its host, KN-T2)."""
PLAYED_ZONES = ("generators", "fighters", "defenses", "discard")
COVERED = ("s{}.fighters", "s{}.defenses")
"""Face-down (cloaked) cards may lie in either front-row zone of their owner."""
RULE_OF_CORE = {"CORE-4": "KN-3.1", "CORE-6": "KN-4.2"}
"""The engine's generic refusals, named by the Keener rule a player reads."""


@dataclass(frozen=True)
class ZoneExpectation:
    """What the camera should see in one zone when the table matches the engine.

    ``face_up``: copy ids that must lie here face up (compared by card, not
    copy: two printed Bear Traps look alike to the rules).  ``face_down``: how
    many backs may be seen (min, max).  ``may_show``: face-up cards that may
    lie here but need not (a pile shows only its top card).
    """

    zone: str
    label: str
    face_up: tuple[str, ...] = ()
    face_down: tuple[int, int] = (0, 0)
    may_show: tuple[str, ...] = ()


# ---------------------------------------------------------------------------
# Names


def read(sighting_card: str) -> tuple[str, int] | None:
    """(card id, printed index) of a ``"printed:<index>"`` sighting; None for a back, unreadable or foreign card."""
    found = printed.from_sighting(sighting_card)
    if found is None:
        return None
    return found[0], int(sighting_card[len(printed.PREFIX):])


def _zone_seat(zone: str | None) -> tuple[int, str] | None:
    """``"s1.fighters"`` -> (1, "fighters")."""
    if not zone or not zone.startswith("s") or "." not in zone:
        return None
    head, key = zone.split(".", 1)
    return (int(head[1:]), key) if head[1:].isdigit() else None


def _name(card: str) -> str:
    cid = card_id(card)
    return CARDS[cid].name if cid in CARDS else card


def _label(zone: str) -> str:
    if zone == ATTACK:
        return "the middle (attack zone)"
    where = _zone_seat(zone)
    if where is None:
        return zone
    seat, key = where
    words = {"fighters": "Fighters zone", "defenses": "Defenses zone", "generators": "Resource Generators zone",
             "commander": "Commander zone", "deck": "deck", "discard": "discard pile"}
    return f"seat {seat + 1}'s {words.get(key, key)}"


# ---------------------------------------------------------------------------
# What the table should show


def _with_attached(piece: Piece) -> list[str]:
    """A piece, its Equipment and every Fighter merged into it: they lie together."""
    out = [piece.id, *piece.gear]
    for m in piece.merged:
        out.extend(_with_attached(m))
    return out


def _in_combat(s: Snap) -> set[str]:
    if s.phase not in COMBAT_PHASES:
        return set()
    return set(s.combat.attackers) | {b for b, _ in s.combat.blocks}


def expected(state: KeenerState) -> dict[str, ZoneExpectation]:
    """Per zone, what the camera should see now (KN-T7): each Commander, Generator, Fighter and
    Defense with its Equipment in its zone, attackers and blockers in the middle while the Attack
    phase lasts, the face-down cards in their owner's front row, decks face down."""
    s = state.snapshot
    fighting = _in_combat(s)
    out: dict[str, ZoneExpectation] = {}
    middle: list[str] = []
    for seat, side in enumerate(s.sides):
        def zid(key: str, seat: int = seat) -> str:
            return f"s{seat}.{key}"

        home: list[str] = []
        for f in side.fighters:
            (middle if f.id in fighting else home).extend(_with_attached(f))
        guards = [c for d in side.defenses for c in _with_attached(d)]
        down = len(side.face_down)
        out[zid("commander")] = ZoneExpectation(zid("commander"), _label(zid("commander")), (side.commander,))
        out[zid("generators")] = ZoneExpectation(zid("generators"), _label(zid("generators")), side.generators)
        out[zid("fighters")] = ZoneExpectation(zid("fighters"), _label(zid("fighters")), tuple(home), (0, down))
        out[zid("defenses")] = ZoneExpectation(zid("defenses"), _label(zid("defenses")), tuple(guards), (0, down))
        out[zid("deck")] = ZoneExpectation(zid("deck"), _label(zid("deck")),
                                           face_down=(1 if side.deck else 0, len(side.deck)))
        out[zid("discard")] = ZoneExpectation(zid("discard"), _label(zid("discard")), may_show=side.discard)
    out[ATTACK] = ZoneExpectation(ATTACK, _label(ATTACK), tuple(middle))
    return out


def _seen_ids(sightings: Sequence[Sighting]) -> Counter[str]:
    return Counter(r[0] for r in (read(x.card) for x in sightings) if r)


def differences(state: KeenerState, table: TableSnapshot) -> tuple[str, ...]:
    """What to move for the table to match the engine; empty when the table is restored (KN-T7).

    Cards outside every zone (hands at the table's edge, removed cards) are ignored.
    """
    out: list[str] = []
    exp = expected(state)
    for zone, e in exp.items():
        seen = table.in_zone(zone)
        up = _seen_ids(seen)
        want = Counter(card_id(c) for c in e.face_up)
        allowed = want + Counter(card_id(c) for c in e.may_show)
        for cid, n in want.items():
            if up[cid] < n:
                out.append(f"put {CARDS[cid].name} face up on {e.label}")
        for cid, n in up.items():
            if n > allowed[cid]:
                out.append(f"take {CARDS[cid].name if cid in CARDS else cid} off {e.label}")
        down = sum(1 for x in seen if x.card == FACE_DOWN)
        low, high = e.face_down
        if down < low:
            out.append(f"{e.label} should be there, face down")
        elif down > high and not zone.endswith(("fighters", "defenses")):
            out.append(f"take the face-down card{'s' if down - high > 1 else ''} off {e.label}")
        if any(x.card == UNKNOWN for x in seen):
            out.append(f"the camera cannot read a card on {e.label}: straighten it")
    for seat, side in enumerate(state.snapshot.sides):
        down = sum(1 for z in COVERED for x in table.in_zone(z.format(seat)) if x.card == FACE_DOWN)
        if down != len(side.face_down):
            out.append(f"seat {seat + 1} should have {len(side.face_down)} face-down card(s) in its front row, "
                       f"not {down}")
    return tuple(out)



# ---------------------------------------------------------------------------
# Turning the table into moves



def _refusal(verdict: Verdict, fix: str) -> AdapterResult:
    rule = RULE_OF_CORE.get(verdict.rule or "", verdict.rule or "KN-T1")
    return AdapterResult.refused(rule, verdict.message, fix + (f", then {verdict.fix}" if verdict.fix else ""))


def _in_hand(side: Side, cid: str, instance: str, physical: bool) -> str | None:
    """The copy of ``cid`` this seat plays from its hand, or None when it holds none."""
    if physical:
        if HAND_UNKNOWN not in side.hand:
            return None
        if instance in side.unseen:
            return instance
        return next((c for c in side.unseen if card_id(c) == cid), None)
    if instance in side.hand:
        return instance
    return next((c for c in side.hand if card_id(c) == cid), None)


def _fighter(side: Side, cid: str, instance: str, busy: set[str]) -> str | None:
    """The seat's face-up Fighter this card is: the exact copy first, then a free one of the same card."""
    ids = [f.id for f in side.fighters]
    if instance in ids:
        return instance
    free = [f for f in ids if card_id(f) == cid and f not in busy]
    return free[0] if free else next((f for f in ids if card_id(f) == cid), None)


def _host(side: Side, instance: str) -> str | None:
    """The face-up Fighter this copy is attached to (its Equipment, or a Fighter merged into it), if any."""
    for f in side.fighters:
        if instance in _with_attached(f)[1:]:
            return f.id
    return None


def _set_of(index: int) -> str:
    """Printed set A (copies 1-2) or B (copies 3-4) of a printed index."""
    return "A" if index % printed.COPIES < 2 else "B"


def _set_seats(table: TableSnapshot) -> dict[str, int]:
    """Which seat plays which printed set, learned from the cards in each seat's own zones.

    A set is a seat's when only that seat's zones show it; two boxes of the
    same set at one table leave it undecided."""
    seen: dict[str, set[int]] = {"A": set(), "B": set()}
    for x in table.sightings:
        where = _zone_seat(x.zone)
        found = read(x.card)
        if where is not None and found is not None:
            seen[_set_of(found[1])].add(where[0])
    return {name: next(iter(seats)) for name, seats in seen.items() if len(seats) == 1}


def _seen_as(s: Snap, table: TableSnapshot, sight: Sighting, seat: int) -> str | None:
    """The face-up Fighter of ``seat`` a sighting in the middle shows, or None (another seat's card,
    an attachment, unreadable).  The printed set, where known, keeps two seats' copies of a card apart."""
    found = read(sight.card)
    if found is None:
        return None
    cid, index = found
    owner = _set_seats(table).get(_set_of(index))
    if owner is not None and owner != seat:
        return None
    other = s.sides[1 - seat]
    exact = printed.instance_of(index, seat)
    if owner is None and exact not in {f.id for f in s.sides[seat].fighters} and \
            printed.instance_of(index, 1 - seat) in {f.id for f in other.fighters}:
        return None
    return _fighter(s.sides[seat], cid, exact, set())


def _nearest(sight: Sighting, others: Sequence[tuple[Sighting, str]]) -> str | None:
    best = min(others, key=lambda o: math.hypot(o[0].x - sight.x, o[0].y - sight.y), default=None)
    return best[1] if best else None


def _where_sighting(table: TableSnapshot, zone: str, card: str) -> Sighting | None:
    return next((x for x in table.in_zone(zone) if x.card == card), None)


def _already_there(state: KeenerState, zone: str, instance: str, table: TableSnapshot) -> bool:
    """Does the engine have this copy (or, for another copy's marker, as many of its card) in ``zone``?"""
    e = expected(state).get(zone)
    if e is None:
        return False
    listed = (*e.face_up, *e.may_show)
    if instance in listed:
        return True
    cid = card_id(instance)
    allowed = Counter(card_id(c) for c in listed)[cid]
    return 0 < _seen_ids(table.in_zone(zone))[cid] <= allowed


def interpret(state: KeenerState, changes: Sequence[ZoneChange], table: TableSnapshot) -> AdapterResult:
    """The moves the just-made changes stand for, in order, or the first mismatch (nothing is applied then)."""
    twin = state.copy()
    moves: list[Move] = []
    questions: list[Question] = []
    for ch in changes:
        if ch.kind == "removed" or ch.zone is None or twin.outcome is not None:
            continue
        unreadable = ch.card == UNKNOWN
        if ch.card == FACE_DOWN:
            result = _face_down(twin, ch, table)
        elif ch.card == UNKNOWN:
            where = _zone_seat(ch.zone)
            result = AdapterResult(questions=(Question(where[0] if where else None,
                                                      f"The camera cannot read the card on {_label(ch.zone)}: "
                                                      "straighten it, or enter the move on your phone."),))
        elif read(ch.card) is None:
            result = AdapterResult.refused("KN-T5", f"{ch.card} on {_label(ch.zone)} is not a Keener card",
                               f"take it off {_label(ch.zone)}")
        elif ch.kind == "flipped":
            result = _turned_up(twin, ch, table)
        elif ch.zone == ATTACK:
            result = _to_middle(twin, ch, table)
        else:
            result = _to_zone(twin, ch, table)
        if result.mismatch is not None:
            return AdapterResult(mismatch=result.mismatch)
        questions.extend(result.questions)
        for move in result.moves:
            twin.apply(move)  # checked by the helper that built it
            moves.append(move)
        if result.questions and not unreadable:
            break  # what follows may depend on the answer (an unreadable card's question does not hold it up)
    return AdapterResult(tuple(moves), None, tuple(questions))


def _try(twin: KeenerState, move: Move, fix: str) -> AdapterResult:
    verdict = twin.check(move)
    if not verdict.ok:
        return _refusal(verdict, fix)
    return AdapterResult(moves=(move,))


def _face_down(twin: KeenerState, ch: ZoneChange, table: TableSnapshot) -> AdapterResult:
    """A card put face down in a front row is a Cloak of Darkness play, sealed on the phone (KN-T4)."""
    where = _zone_seat(ch.zone)
    if where is None or where[1] not in ("fighters", "defenses"):
        return AdapterResult()  # decks and piles lie face down
    seat = where[0]
    s = twin.snapshot
    side = s.sides[seat]
    down = sum(1 for z in COVERED for x in table.in_zone(z.format(seat)) if x.card == FACE_DOWN)
    if down <= len(side.face_down):
        return AdapterResult()  # the table catching up with a card already sealed
    if s.phase != "spending" or s.active != seat:
        return AdapterResult.refused("KN-8.1", "cards are played face down only in your own Spending phase",
                         f"take the face-down card off {_label(ch.zone)} and back into your hand")
    choices = () if s.physical else tuple(dict.fromkeys(
        card_id(c) for c in side.hand if card_id(c) in CARDS and CARDS[card_id(c)].cloak))
    if not s.physical and not choices:
        return AdapterResult.refused("KN-8.1", "you hold no card with Cloak of Darkness, so nothing can be played face down",
                         f"take the face-down card off {_label(ch.zone)} and back into your hand")
    return AdapterResult(questions=(Question(seat, "Seal the card you put face down on your phone "
                                                   "(Cloak of Darkness, 1 Gold).", choices),))


def _turned_up(twin: KeenerState, ch: ZoneChange, table: TableSnapshot) -> AdapterResult:
    """A face-down card turned face up is turned up for its reveal cost (KN-8.3, KN-T4)."""
    where = _zone_seat(ch.zone)
    found = read(ch.card)
    assert found is not None
    cid, index = found
    if where is None or where[1] not in ("fighters", "defenses"):
        return _to_zone(twin, ch, table) if ch.zone != ATTACK else _to_middle(twin, ch, table)
    seat = where[0]
    s = twin.snapshot
    side = s.sides[seat]
    if not side.face_down:
        return _to_zone(twin, ch, table)  # not a cloaked card: it was simply put there
    exact = printed.instance_of(index, seat)
    slot = next((f for f in side.face_down if f.card == exact), None) or next(
        (f for f in side.face_down if f.card and card_id(f.card) == cid), None)
    if slot is None and s.physical:
        slot = next((f for f in side.face_down if not f.card), None)
    if slot is None:
        return AdapterResult.refused("KN-8.2", f"the card turned up is a {CARDS[cid].name}, which is not the card sealed face "
                         "down", "turn it face down again")
    if slot.commitment:
        return AdapterResult(questions=(Question(seat, f"Open the seal of {slot.slot} on your phone to turn the "
                                                       f"{CARDS[cid].name} up."),))
    target = ""
    if CARDS[cid].ability == "bear-trap":
        targets = trap_targets(s, seat)
        if len(targets) > 1:
            return AdapterResult(questions=(Question(seat, "Which attacker does your Bear Trap take?",
                                                     tuple(targets)),))
        target = targets[0] if targets else ""
    return _try(twin, Uncloak(seat, slot.slot, target, slot.card or cid), "turn it face down again")


def _middle_seats(s: Snap, ch: ZoneChange, table: TableSnapshot, index: int) -> tuple[int, ...]:
    """Whose card a card put in the middle may be, most likely first (KN-T1).

    Where it came from decides; else which printed set the seat plays
    (learned from its own zones); else the phase: the attacker's cards while
    attackers are declared, the defender's while blocks are chosen."""
    came = _zone_seat(ch.from_zone)
    if came is not None:
        return (came[0],)
    by_set = _set_seats(table).get(_set_of(index))
    if by_set is not None:
        return (by_set,)
    return (1 - s.active, s.active) if s.phase == "block" else (s.active, 1 - s.active)


def _to_middle(twin: KeenerState, ch: ZoneChange, table: TableSnapshot) -> AdapterResult:
    """A Fighter moved into the middle attacks, or blocks the attacker it faces (KN-T3)."""
    found = read(ch.card)
    assert found is not None
    cid, index = found
    s = twin.snapshot
    busy = _in_combat(s)
    seats = _middle_seats(s, ch, table, index)
    for seat in seats:
        host = _host(s.sides[seat], printed.instance_of(index, seat))
        if host is not None:  # Equipment or a merged Fighter goes where its host goes
            if host in busy or any(_seen_as(s, table, x, seat) == host for x in table.in_zone(ATTACK)):
                return AdapterResult()
            return AdapterResult.refused("KN-T3", f"{CARDS[cid].name} is attached to {_name(host)}: it moves with it",
                             f"put {CARDS[cid].name} back with {_name(host)}")
    for seat in seats:
        fid = _fighter(s.sides[seat], cid, printed.instance_of(index, seat), busy)
        if fid is None:
            continue
        if fid in busy:
            return AdapterResult()  # already fighting: the table catching up
        if seat == s.active:
            return _try(twin, Attack(seat, fid), f"move {CARDS[cid].name} back to your Fighters zone")
        if s.phase != "block":
            return AdapterResult.refused("KN-4.2", f"it is seat {s.active + 1}'s turn: blockers go to the middle only once "
                             "attackers are declared", f"move {CARDS[cid].name} back to your Fighters zone")
        sight = _where_sighting(table, ATTACK, ch.card)
        attackers = [(x, a) for x in table.in_zone(ATTACK) if x.card != ch.card
                     for a in [_seen_as(s, table, x, s.active)] if a in s.combat.attackers]
        target = _nearest(sight, attackers) if sight is not None else None
        if target is None:
            target = s.combat.attackers[0] if len(s.combat.attackers) == 1 else ""
        if not target:
            return AdapterResult.refused("KN-T3", f"{CARDS[cid].name} was put in the middle facing no attacker",
                             f"put {CARDS[cid].name} facing the attacker it blocks")
        return _try(twin, Block(seat, fid, target), f"move {CARDS[cid].name} back to your Fighters zone")
    return AdapterResult.refused("KN-T3", f"{CARDS[cid].name} is not a Fighter in play, so it cannot go to the middle",
                     f"take {CARDS[cid].name} out of the middle")


def _to_zone(twin: KeenerState, ch: ZoneChange, table: TableSnapshot) -> AdapterResult:
    """A card put in one of a seat's zones: the table catching up, a card played from the hand, or a mismatch."""
    assert ch.zone is not None
    found = read(ch.card)
    assert found is not None
    cid, index = found
    card = CARDS[cid]
    where = _zone_seat(ch.zone)
    if where is None:
        return AdapterResult.refused("KN-T5", f"{card.name} lies outside the mat's zones", "put it in a zone or off the mat")
    seat, key = where
    s = twin.snapshot
    side = s.sides[seat]
    instance = printed.instance_of(index, seat)
    copy_id = _in_hand(side, cid, instance, s.physical)
    if copy_id != instance and _already_there(twin, ch.zone, instance, table):
        return AdapterResult()  # the table catching up with the engine
    if card.cloak and key in ("fighters", "defenses") and side.face_down and ch.kind != "flipped" \
            and not (s.phase == "spending" and s.active == seat):
        # A Cloak of Darkness card showing up in a front row that holds a face-down card, when it cannot be
        # played: that card turned up, though the camera did not see its back go (KN-T4).
        return _turned_up(twin, replace(ch, kind="flipped"), table)
    if copy_id is None or key not in PLAYED_ZONES:
        home = _home_of(twin, seat, cid)
        if home:
            return AdapterResult.refused("KN-T6", f"{card.name} belongs on {_label(home)}, not {_label(ch.zone)}",
                             f"put {card.name} back on {_label(home)}")
        return AdapterResult.refused("KN-T6", f"{card.name} is not in seat {seat + 1}'s hand, so it cannot be put on "
                         f"{_label(ch.zone)}", f"take {card.name} off {_label(ch.zone)}")
    back = f"take {card.name} back into your hand"
    if card.type == "equipment":
        right = "fighters" if card.ability == "equip-pv" else "defenses"
        if key != right:
            return AdapterResult.refused("KN-T2", f"{card.name} goes on one of your {right.capitalize()}",
                             f"put {card.name} on the card it equips in your {right.capitalize()} zone")
        sight = _where_sighting(table, ch.zone, ch.card)
        pieces = side.fighters if right == "fighters" else side.defenses
        hosts = [(x, p.id) for x in table.in_zone(ch.zone) if x is not sight for r in [read(x.card)] if r
                 and CARDS[r[0]].type != "equipment"
                 for p in pieces if p.id == printed.instance_of(r[1], seat) or card_id(p.id) == r[0]]
        target = _nearest(sight, hosts) if sight is not None else None
        if target is None:
            return AdapterResult.refused("KN-6.3", f"{card.name} lies on none of your {right}", back)
        return _try(twin, Deploy(seat, copy_id, target), back)
    home = HOME.get(card.type)
    if home != key:
        where_to = _label(f"s{seat}.{home}") if home else "no zone"
        return AdapterResult.refused("KN-T2", f"{card.name} is a {card.type.replace('-', ' ')} card: it is played on {where_to}",
                         f"move {card.name} to {where_to}")
    if card.type == "generator":
        return _try(twin, PlayGenerator(seat, copy_id), back)
    return _try(twin, Deploy(seat, copy_id), back)


def _home_of(state: KeenerState, seat: int, cid: str) -> str | None:
    """The zone where the engine has one of the seat's copies of ``cid`` on the mat, if any."""
    for zone, e in expected(state).items():
        if zone != ATTACK and not zone.startswith(f"s{seat}."):
            continue
        if any(card_id(c) == cid for c in (*e.face_up, *e.may_show)):
            return zone
    return None


# ---------------------------------------------------------------------------
# Manual entry


MANUAL_CAP = 60
"""At most this many moves are offered on a phone in a hand-shuffled deal (a button each)."""


def _names_card(move: Move) -> bool:
    """Does the move name a card from the hand (a play the camera normally sees)?"""
    return isinstance(move, PlayGenerator | Deploy | Cloak)


def _one_of_each(side: Side) -> tuple[str, ...]:
    """One unseen copy of each card of the decklist (the first), standing for any copy of it.

    A card played by hand is named by card; which printed copy it was does not
    matter to the rules (KN-12.2), so listing every copy would only repeat buttons."""
    first: dict[str, str] = {}
    for copy in side.unseen:
        first.setdefault(card_id(copy), copy)
    return tuple(first.values())


def manual_moves(state: KeenerState, seat: int) -> list[Move]:
    """What a person may enter by hand for ``seat`` now (KN-T8).

    Seeded deal: the legal moves.  Hand-shuffled deal, where the hand is
    unknown: first every move that names no card from the hand -- passing
    (no Generator, end of Spending, no more attackers, blocks confirmed),
    attacking with a Fighter, blocking an attacker, assigning a point of
    damage, picking a kill -- then, for a table without a camera, the cards
    the seat may still hold (one copy of each card of its decklist not yet
    seen, only those it could pay for now), up to :data:`MANUAL_CAP` moves in
    all.  Face-down plays and turning them up need the phone's seal (KN-8.2),
    so they are left to the seal question.  Nothing names another seat's hidden
    card: the only cards named are the seat's own unseen copies and cards in play."""
    moves = state.legal_moves(seat)
    if moves is not None:
        return list(moves)
    if seat not in state.to_act():
        return []
    s = state.snapshot
    side = s.sides[seat]
    known = _one_of_each(side) if HAND_UNKNOWN in side.hand else ()
    sides = list(s.sides)
    sides[seat] = replace(side, hand=known, face_down=())
    listed = [m for m in legal_moves(replace(s, sides=tuple(sides)), seat) if not isinstance(m, Cloak | Uncloak)]
    phone = [m for m in listed if not _names_card(m)]
    cards = [m for m in listed if _names_card(m)]
    return phone + cards[:max(0, MANUAL_CAP - len(phone))]


ADAPTER = FunctionAdapter(
    KeenerState,
    layout=mat.layout,
    interpret=interpret,
    expected=expected,
    differences=differences,
    manual_moves=manual_moves,
)
"""The adapter the registry hands companion (``engines.registry.adapter("keener")``)."""

