"""The host game's rules as pure functions of (Table, Snap): zones, costs,
effect steps and the turn sequence (docs/rules/gun-and-gun.md, GG-1 .. GG-9).

Each function returns a new snapshot and the events it caused; none mutates.
"""

from __future__ import annotations

from engines.core import Event
from engines.gun_and_gun import events as ev
from engines.gun_and_gun.cards import CardDef
from engines.gun_and_gun.snapshot import Player, Snap, Table, evolve

Result = tuple[Snap, list[Event]]


def other(seat: int) -> int:
    return 1 - seat


def set_player(s: Snap, seat: int, player: Player) -> Snap:
    players = list(s.players)
    players[seat] = player
    return evolve(s, players=tuple(players))


def with_gun(items: tuple[tuple[str, ...], ...], gun: int, value: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(value if i == gun else x for i, x in enumerate(items))


def lose(s: Snap, loser: int, reason: str) -> Result:
    """GG-8: the game ends at once."""
    if s.loser is not None:
        return s, []
    return evolve(s, phase="over", loser=loser, reason=reason, pending=None), [ev.GameOver(loser, reason)]


# ---- drawing and loading ---------------------------------------------------

def draw(table: Table, s: Snap, seat: int, n: int) -> Result:
    """GG-8.2 / ruling GG-R3: draw from the fuller deck; nothing left to draw loses."""
    p = s.players[seat]
    hand, decks = list(p.hand), [list(d) for d in p.decks]
    drawn = 0
    for _ in range(n):
        gun = 0 if len(decks[0]) >= len(decks[1]) else 1
        if not decks[gun]:
            s = set_player(s, seat, evolve(p, hand=tuple(hand), decks=tuple(map(tuple, decks))))
            events: list[Event] = [ev.Drew(seat, drawn)] if drawn else []
            s, more = lose(s, seat, f"seat {seat + 1} had to draw with both decks empty (GG-8.2)")
            return s, events + more
        hand.append(decks[gun].pop(0))
        drawn += 1
    s = set_player(s, seat, evolve(p, hand=tuple(hand), decks=tuple(map(tuple, decks))))
    return s, [ev.Drew(seat, drawn)] if drawn else []


def can_load_from_deck(table: Table, p: Player, seat: int, gun: int) -> bool:
    return bool(p.decks[gun]) and len(p.loaded[gun]) < table.gunners[seat].guns[gun].capacity


def load_from_deck(table: Table, s: Snap, seat: int, gun: int | None) -> Result:
    """Load the top card of a deck into its gun (ruling GG-R5 picks the gun when none is named)."""
    p = s.players[seat]
    guns = [gun] if gun is not None else sorted(range(2), key=lambda g: (len(p.loaded[g]), g))
    for g in guns:
        if can_load_from_deck(table, p, seat, g):
            top, rest = p.decks[g][0], p.decks[g][1:]
            p = evolve(p, decks=with_gun(p.decks, g, rest), loaded=with_gun(p.loaded, g, p.loaded[g] + (top,)))
            return set_player(s, seat, p), [ev.Loaded(seat, g, True)]
    return s, []


# ---- costs -----------------------------------------------------------------

def loaded_count(p: Player) -> int:
    return len(p.loaded[0]) + len(p.loaded[1])


def additional_cost_payable(p: Player, card: CardDef) -> bool:
    need = sum(n for kind, n in card.additional_cost if kind == "unload")
    return loaded_count(p) >= need


def pay_cost(s: Snap, seat: int, card_id: str, cost: int) -> Result:
    """GG-5.1: the oldest ``cost`` voltage cards go to the trash."""
    if not cost:
        return s, []
    p = s.players[seat]
    p = evolve(p, voltage=p.voltage[cost:], trash=p.trash + p.voltage[:cost])
    return set_player(s, seat, p), [ev.CostPaid(seat, card_id, cost, 0)]


def pay_additional_cost(s: Snap, seat: int, card_id: str, card: CardDef) -> Result:
    """GG-5.3 / ruling GG-R6: unload from the fuller gun, last loaded card first, into the voltage area."""
    need = sum(n for kind, n in card.additional_cost if kind == "unload")
    if not need:
        return s, []
    p = s.players[seat]
    for _ in range(need):
        gun = 0 if len(p.loaded[0]) >= len(p.loaded[1]) else 1
        card_out = p.loaded[gun][-1]
        p = evolve(p, loaded=with_gun(p.loaded, gun, p.loaded[gun][:-1]), voltage=p.voltage + (card_out,))
    return set_player(s, seat, p), [ev.CostPaid(seat, card_id, 0, need)]


def to_voltage(table: Table, s: Snap, card_id: str) -> Snap:
    """A used card goes to its owner's voltage area (GG-5.5)."""
    seat = table.owner[card_id]
    p = s.players[seat]
    return set_player(s, seat, evolve(p, voltage=p.voltage + (card_id,)))


# ---- effects ---------------------------------------------------------------

def resolve_steps(table: Table, s: Snap, steps: tuple[tuple[str, int], ...], resolver: int,
                  gun: int | None = None) -> Result:
    """Resolve effect steps with ``resolver`` as "you" of the card text (GG-4.1.3)."""
    events: list[Event] = []
    for kind, n in steps:
        if s.phase == "over":
            break
        if kind == "draw":
            s, more = draw(table, s, resolver, n)
        elif kind == "load":
            more = []
            for _ in range(n):
                s, loaded = load_from_deck(table, s, resolver, gun)
                more += loaded
        elif kind == "damage":
            s, more = damage(s, other(resolver), n)
        elif kind == "heal":
            p = s.players[resolver]
            life = min(table.cards.life, p.life + n)
            s = set_player(s, resolver, evolve(p, life=life))
            more = [ev.Healed(resolver, life - p.life, life)]
        elif kind == "extra-turn":
            s = evolve(s, extra_turns=s.extra_turns + (resolver,) * n)
            more = [ev.ExtraTurnGranted(resolver) for _ in range(n)]
        else:  # cards.py refuses unknown kinds on load
            raise AssertionError(kind)
        events += more
    return s, events


def resolve_card(table: Table, s: Snap, card_id: str, resolver: int) -> Result:
    s, events = resolve_steps(table, s, table.card(card_id).effect, resolver)
    return s, [*events, ev.EffectResolved(resolver, card_id)]


def damage(s: Snap, seat: int, n: int) -> Result:
    p = s.players[seat]
    life = p.life - n
    s = set_player(s, seat, evolve(p, life=life))
    events: list[Event] = [ev.Damaged(seat, n, life)]
    if life <= 0:
        s, more = lose(s, seat, f"seat {seat + 1}'s life reached 0 (GG-8.1)")
        events += more
    return s, events


def shot_hits(table: Table, p: Player, seat: int, gun: int) -> int:
    """GG-6.1: the hits of the loaded bullets plus the gun's bonus."""
    return sum(table.card(c).hit for c in p.loaded[gun]) + table.gunners[seat].guns[gun].bonus


# ---- turn sequence ---------------------------------------------------------

def start_turn(s: Snap, seat: int, extra: bool) -> Result:
    """GG-3.1: per-turn limits reset; this card set has no start-of-turn effects (ruling GG-R2)."""
    s = evolve(s, phase="main", active=seat, turn=s.turn + 1, extra=extra, de_used=False, uses=(), shot=(),
                skill_used=False, resolved_effects=(), pending=None, played=(),
                next_regular=s.next_regular if extra else other(seat))
    return s, [ev.TurnStarted(seat, s.turn, extra)]


def end_turn(s: Snap) -> Result:
    """GG-9: queued extra turns come first, then the regular order resumes."""
    if s.extra_turns:
        seat, rest = s.extra_turns[0], s.extra_turns[1:]
        return start_turn(evolve(s, extra_turns=rest), seat, True)
    return start_turn(s, s.next_regular, False)


def down_phase(table: Table, s: Snap) -> Result:
    """GG-7.1: refill the hand to the gunner's hand size, then the function cards resolve."""
    seat = s.active
    s = evolve(s, phase="down")
    events: list[Event] = [ev.DownPhase(seat)]
    missing = table.gunners[seat].hand_size - len(s.players[seat].hand)
    if missing > 0:
        s, more = draw(table, s, seat, missing)
        events += more
    s, more = settle(s)
    return s, events + more


def settle(s: Snap) -> Result:
    """After anything resolved: end the turn once the down phase has nothing left."""
    if s.phase == "down" and s.pending is None and not s.players[s.active].functions:
        return end_turn(s)
    return s, []
