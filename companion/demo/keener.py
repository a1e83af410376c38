"""Keener on the printed mat, for the demo: a scripted six-turn game of Saga against Ferra.

The decks are shuffled and dealt by hand (deal ``physical``): the server knows
each decklist, never the hands.  The players know their own hands, and so does
this script, which stacks each deck so the story below happens:

1. Saga plays a Lumberjack and a Wooden Fence (first laid wrongly in the
   Fighters zone: KN-T2).
2. Ferra plays a Merchant and a Common Mercenary.
3. Saga plays a Stonecutter, a Watchtower, Loose Change and Ore Cart (single-use
   cards, to the discard pile) and a Bear Trap face down, sealed on the phone.
4. Ferra plays a Forester and a Fighting Monk and attacks with both; Saga turns
   the Bear Trap up (the seal opened on the phone) and it takes the Mercenary;
   Saga confirms no blocks on the phone; Ferra assigns the Monk's damage on the
   phone.
5. Saga plays a Merchant, a Village Guard, Loose Change, a Common Mercenary,
   Shore-up on the Watchtower (equipment) and a second Bear Trap face down
   (a Stone Golem it cannot afford is refused first: KN-6.1).
6. Ferra plays an Iron Miner and a Pikeman and attacks with the Monk and the
   Pikeman (Saga's Guard walks into the middle too early: KN-4.2).  Saga turns
   up a Master Assassin where it sealed a Bear Trap: the seal does not open
   (KN-8.2), the card goes back face down.  Saga blocks both attackers, confirms
   on the phone, and Saga (1 LP) falls: Ferra wins.

What the camera sees is made on the mat (generators, cards played, equipment on
its host, single-use cards on the discard pile, attackers moved into the middle
turned sideways, blockers put facing them, a face-down card laid or turned up);
what the phones do is sent by the phones (passing, confirming blocks, assigning
damage, sealing and opening a Cloak of Darkness).  Every step the mat is tidied
to the engine's position (dead Fighters on the discard pile, survivors home).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.demo.render import Placed
from companion.demo.script import Illegal, Script
from engines.core import FACE_DOWN, JSON, PHYSICAL, Move, State
from engines.keener import mat, printed
from engines.keener.cloak import commit
from engines.keener.decks import resolve_deck
from engines.keener.ids import card_id, slot_id
from engines.keener.moves import AssignDamage, Attack, Block, Cloak, Deploy, Kill, Pass, PlayGenerator, Uncloak
from engines.keener.snapshot import Piece, Snap

DECKS = ("saga-sample", "ferra-sample")
DECK_BACK = "deck"
"""A deck's top card: a plain back (a cloaked card shows the marked back, see :func:`art`)."""
BACK_MARKER = 6
"""The back marker of printed Keener cards (vision's reserved back range 6-99)."""
CARD_W = 63.0
GEAR_SHIFT = 50.0
"""Equipment lies on its host shifted sideways, so the host's centre marker still shows."""
GAP = 8.0
MIDDLE_Y = 210.0
PAIR_STEP = 200.0
"""Attackers in the middle lie sideways, 200 mm apart; a blocker lies beside its attacker, facing it."""

STACKED: tuple[tuple[str, ...], tuple[str, ...]] = (
    ("lumberjack", "wooden-fence", "stonecutter", "watchtower", "loose-change", "ore-cart", "bear-trap",
     "stone-golem", "master-assassin", "merchant", "village-guard", "common-mercenary", "shore-up",
     "loose-change", "bear-trap", "pikeman"),
    ("merchant", "common-mercenary", "forester", "fighting-monk", "iron-miner", "pikeman", "stone-wall",
     "lullaby", "the-abomination", "hill-giant", "wooden-fence"),
)
"""The top of each hand-shuffled deck (seat 1 draws 10 + 3 a turn with Saga, seat 2 10 + 1)."""


@dataclass(frozen=True)
class Turn:
    gen: str = ""
    spend: tuple[str, ...] = ()
    """Card ids to play in order; ``"shore-up>watchtower"`` is Equipment on that card."""
    cloak: str = ""
    attack: tuple[str, ...] = ()
    trap: str = ""
    """The defender turns its face-down Bear Trap up on this attacker (card id)."""
    blocks: tuple[tuple[str, str], ...] = ()
    assign: tuple[str, ...] = ()


PLAN: dict[int, Turn] = {
    1: Turn(gen="lumberjack", spend=("wooden-fence",)),
    2: Turn(gen="merchant", spend=("common-mercenary",)),
    3: Turn(gen="stonecutter", spend=("watchtower", "loose-change", "ore-cart"), cloak="bear-trap"),
    4: Turn(gen="forester", spend=("fighting-monk",), attack=("common-mercenary", "fighting-monk"),
            trap="common-mercenary", assign=("wooden-fence",)),
    5: Turn(gen="merchant", spend=("village-guard", "loose-change", "common-mercenary", "shore-up>watchtower"),
            cloak="bear-trap"),
    6: Turn(gen="iron-miner", spend=("pikeman",), attack=("fighting-monk", "pikeman"),
            blocks=(("common-mercenary", "fighting-monk"), ("village-guard", "pikeman"))),
}


@dataclass
class KeenerScript(Script):
    """The Keener demo's script; what it adds to :class:`Script` the driver reads with ``getattr``."""

    deal: Any = PHYSICAL
    """The table's deal: the decks are shuffled by hand."""
    sealed: tuple[str, ...] = ("cloak", "uncloak")
    """Moves the camera sees but the phone completes (the seal of a Cloak of Darkness)."""
    full_marker_scan: bool = True
    """Look for markers in the whole frame: a marked back has no white paper around it."""


@dataclass(frozen=True)
class SealedIllegal(Illegal):
    """An illegal move the camera sees and the phone completes: ``phone`` is (seat, move JSON)."""

    phone: tuple[int, JSON] | None = None


@dataclass
class Players:
    """What the players know and the server does not: the order of their decks and their seals."""

    orders: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    seals: dict[str, tuple[str, str]] = field(default_factory=dict)
    """slot -> (card id, salt) of every card sealed face down."""
    cursor: Counter[tuple[int, int, str]] = field(default_factory=Counter)
    done: set[str] = field(default_factory=set)
    """Scripted illegal moves already made."""
    state: Any = None
    places: Places = field(default_factory=lambda: Places())


def _orders(rng: random.Random) -> tuple[tuple[str, ...], tuple[str, ...]]:
    out = []
    for seat, name in enumerate(DECKS):
        rest = Counter(resolve_deck(name).cards) - Counter(STACKED[seat])
        tail = list(rest.elements())
        rng.shuffle(tail)
        out.append((*STACKED[seat], *tail))
    return out[0], out[1]


# ---------------------------------------------------------------------------
# The cards as printed


def art(card: str) -> dict:
    """A copy id as the scene generator draws its printed card (seat 1 plays set A, seat 2 set B)."""
    if card == FACE_DOWN:
        return {"kind": "back", "marker_id": BACK_MARKER}
    if card == DECK_BACK:
        return {"kind": "back"}
    from vision.markers import MARKER_RANGES

    first = next(r.first for r in MARKER_RANGES if r.name == "keener")
    seat = int(card.partition(":")[0]) - 1
    copy = int(card.partition("#")[2] or 1)
    return {"kind": "printed", "marker_id": first + printed.index_of(card_id(card), copy + 2 * seat)}


# ---------------------------------------------------------------------------
# The mat as the engine's position lies

_LAYOUT = mat.layout(2, "standard")


def _spot(zone_id: str, slot: int, shift: float = 0.0) -> tuple[float, float, float]:
    """Centre and angle of a zone's ``slot`` as its seat sees it, left to right (``shift``: Equipment)."""
    zone = _LAYOUT.zone(zone_id)
    sign, start = (1.0, zone.x + 4) if (zone.seat or 0) == 0 else (-1.0, zone.x + zone.w - 4)
    x = start + sign * (slot * (CARD_W + GAP) + CARD_W / 2 + shift)
    return x, zone.y + zone.h / 2, 0.0 if (zone.seat or 0) == 0 else 180.0


def _row(zone_id: str, items: list[list[str]], slots: list[int] | None = None) -> list[Placed]:
    """Cards laid in a zone's slots; each item a host and its Equipment (shifted sideways on top of it)."""
    out: list[Placed] = []
    for i, item in enumerate(items):
        slot = slots[i] if slots is not None else i
        for k, card in enumerate(item):
            x, y, angle = _spot(zone_id, slot, k * GEAR_SHIFT)
            out.append(Placed(card, zone_id, k, x=x, y=y, angle=angle))
    return out


def _attached(piece: Piece) -> list[str]:
    return [piece.id, *piece.gear, *(c for m in piece.merged for c in _attached(m))]


class Places:
    """Where each card lies in its zone.  A card keeps its slot while it is in play (also while it
    fights in the middle), and a new card takes the lowest free slot: cards are not shuffled along a
    row, so a card that leaves leaves bare table (vision's stability filter holds a card whose place
    another card covers)."""

    def __init__(self) -> None:
        self.slots: dict[str, dict[str, int]] = {}

    def __call__(self, zone_id: str, keys: list[str], keep: set[str]) -> list[int]:
        taken = self.slots.setdefault(zone_id, {})
        for key in [k for k in taken if k not in keep]:
            del taken[key]
        out = []
        for key in keys:
            if key not in taken:
                taken[key] = min(set(range(len(taken) + 1)) - set(taken.values()))
            out.append(taken[key])
        return out


def table_of(state: State, places: Places | None = None) -> list[Placed]:
    """The mat tidied to the engine's position (KN-T7)."""
    places = places or Places()
    s: Snap = state.snapshot
    out: list[Placed] = []
    if s.phase in ("shuffle-1", "shuffle-2", "coin"):
        return out
    fighting = set(s.combat.attackers) | {b for b, _ in s.combat.blocks} \
        if s.phase in ("declare", "block", "assign", "kill") else set()
    for seat, side in enumerate(s.sides):
        z = f"s{seat}."
        out.append(Placed(side.commander, z + "commander"))
        if side.deck:
            out.append(Placed(DECK_BACK, z + "deck"))
        if side.discard:
            out.append(Placed(side.discard[-1], z + "discard"))
        gens = list(side.generators)
        out += _row(z + "generators", [[g] for g in gens], places(z + "generators", gens, set(gens)))
        front = [f.id for f in side.fighters] + [f.slot for f in side.face_down]
        home = [f for f in side.fighters if f.id not in fighting]
        keys = [f.id for f in home] + [f.slot for f in side.face_down]
        items = [_attached(f) for f in home] + [[FACE_DOWN] for _ in side.face_down]
        out += _row(z + "fighters", items, places(z + "fighters", keys, set(front)))
        guards = [d.id for d in side.defenses]
        out += _row(z + "defenses", [_attached(d) for d in side.defenses], places(z + "defenses", guards, set(guards)))
    attacker_side = s.sides[s.active]
    for k, a in enumerate(a for a in s.combat.attackers if any(f.id == a for f in attacker_side.fighters)):
        x = 75 + 44 + k * PAIR_STEP
        out.append(Placed(a, "attack", 0, x=x, y=MIDDLE_Y, angle=90.0 if s.active == 0 else 270.0))
        for j, b in enumerate(b for b, t in s.combat.blocks if t == a):
            out.append(Placed(b, "attack", 0, x=x + 92 * (j + 1), y=MIDDLE_Y,
                              angle=270.0 if s.active == 0 else 90.0))
    return out


def _free_spot(zone: str, places: Places) -> tuple[float, float, float]:
    used = set(places.slots.get(zone, {}).values())
    return _spot(zone, min(set(range(len(used) + 1)) - used))


def _turned_up(state: State, seat: int, card: str, places: Places) -> list[Placed]:
    """The tidy mat with the seat's face-down card turned face up and laid in the next free place of its
    zone (a card turned over lands beside where it lay, so vision sees the back go)."""
    side = state.snapshot.sides[seat]
    copies = [c for c in side.unseen if card_id(c) == card_id(card)]
    shown = copies[0] if copies else f"{seat + 1}:{card_id(card)}#1"
    zone = f"s{seat}.fighters"
    out = table_of(state, places)
    back = next(p for p in out if p.card == FACE_DOWN and p.zone == zone)
    x, y, angle = _free_spot(zone, places)
    return [p for p in out if p is not back] + [Placed(shown, zone, 0, x=x, y=y, angle=angle)]


class Game:
    """One game's players: what they hold, what they sealed, and the plan they follow."""

    def __init__(self, seed: int = 7):
        self.seed = seed
        self.players = Players()

    def _know(self, state: State) -> Players:
        if self.players.state is not state:  # a new game (companion demo plays one after another)
            if not state.snapshot.physical:
                raise ValueError("the Keener demo's decks are shuffled by hand: open its table with "
                                 "deal='physical' (script.deal), or the players cannot know their hands")
            self.players = Players(_orders(random.Random(self.seed)), state=state)
        return self.players

    def hand(self, state: State, seat: int) -> list[str]:
        """The copy ids the seat holds (the engine sees only their number)."""
        p = self._know(state)
        side = state.snapshot.sides[seat]
        deck = resolve_deck(DECKS[seat]).cards
        drawn = Counter(p.orders[seat][:len(deck) - len(side.deck)])
        seen = Counter(deck) - Counter(card_id(c) for c in side.unseen)
        sealed = Counter(p.seals[f.slot][0] for f in side.face_down if f.slot in p.seals)
        held = drawn - seen - sealed
        out: list[str] = []
        for c in side.unseen:
            if held[card_id(c)] > 0:
                held[card_id(c)] -= 1
                out.append(c)
        return out

    def _next(self, state: State, seat: int, key: str) -> int:
        p = self._know(state)
        k = (state.snapshot.turn, seat, key)
        p.cursor[k] += 1
        return p.cursor[k] - 1

    def table_of(self, state: State) -> list[Placed]:
        return table_of(state, self._know(state).places)

    def camera(self, state: State, move: Move, table: list[Placed]) -> list[Placed] | None:
        """The mat after a player makes ``move`` by hand (None: a phone move)."""
        places = self._know(state).places
        if isinstance(move, Uncloak):
            return _turned_up(state, move.seat, move.card, places)
        if not isinstance(move, PlayGenerator | Deploy | Attack | Block | Cloak):
            return None
        after = state.copy()
        after.apply(move)
        return table_of(after, places)

    def choose(self, state: State, rng: random.Random) -> Move:
        s: Snap = state.snapshot
        seat = min(state.to_act())
        plan = PLAN.get(s.turn, Turn())
        side, other = s.sides[seat], s.sides[1 - seat]
        hand = self.hand(state, seat)

        def held(cid: str) -> str | None:
            return next((c for c in hand if card_id(c) == cid), None)

        def fighter(sd, cid: str) -> str | None:
            return next((f.id for f in sd.fighters if card_id(f.id) == cid), None)

        if s.phase == "economy":
            copy = held(plan.gen) if plan.gen else None
            return PlayGenerator(seat, copy) if copy else Pass(seat)
        if s.phase == "spending":
            i = self._next(state, seat, "spend")
            steps = [*plan.spend, *((f"cloak:{plan.cloak}",) if plan.cloak else ())]
            if i >= len(steps):
                return Pass(seat)
            step = steps[i]
            if step.startswith("cloak:"):
                cid = step.partition(":")[2]
                salt = f"{self.seed}-{s.turn}-{seat}"
                slot = slot_id(seat, side.cloaks_played + 1)
                self.players.seals[slot] = (cid, salt)
                return Cloak(seat, "", commit(cid, salt))
            cid, _, host = step.partition(">")
            copy = held(cid)
            if copy is None:
                return self.choose(state, rng)
            target = next((p.id for p in (*side.fighters, *side.defenses) if card_id(p.id) == host), "") \
                if host else ""
            return Deploy(seat, copy, target)
        if s.phase == "declare":
            i = self._next(state, seat, "attack")
            if i < len(plan.attack):
                fid = fighter(side, plan.attack[i])
                if fid is not None:
                    return Attack(seat, fid)
            return Pass(seat)
        if s.phase == "block":
            i = self._next(state, seat, "block")
            steps: list[Move] = []
            if plan.trap and side.face_down:
                slot = side.face_down[0].slot
                cid, salt = self.players.seals[slot]
                target = fighter(other, plan.trap) or ""
                steps.append(Uncloak(seat, slot, target, cid, salt))
            for blocker, attacker in plan.blocks:
                b, a = fighter(side, blocker), fighter(other, attacker)
                if b and a in s.combat.attackers:
                    steps.append(Block(seat, b, a))
            return steps[i] if i < len(steps) else Pass(seat)
        if s.phase == "assign":
            i = self._next(state, seat, "assign")
            wanted = plan.assign[i] if i < len(plan.assign) else ""
            target = next((d.id for d in other.defenses if card_id(d.id) == wanted), other.defenses[0].id)
            return AssignDamage(seat, target)
        if s.phase == "kill":
            from engines.keener.combat import kill_candidates

            return Kill(seat, kill_candidates(s)[0])
        return Pass(seat)

    # ---- scripted illegal moves ------------------------------------------------
    def illegal(self, state: State, table: list[Placed], rng: random.Random) -> Illegal | None:
        s: Snap = state.snapshot
        p = self._know(state)
        seat = min(state.to_act()) if state.to_act() else None

        def once(name: str) -> bool:
            if name in p.done:
                return False
            p.done.add(name)
            return True

        if s.turn == 1 and s.phase == "spending" and seat == 0 and not s.sides[0].defenses and once("KN-T2"):
            fence = next(c for c in self.hand(state, 0) if card_id(c) == "wooden-fence")
            x, y, angle = _free_spot("s0.fighters", p.places)
            wrong = [*table, Placed(fence, "s0.fighters", 0, x=x, y=y, angle=angle)]
            return Illegal(tuple(wrong), ("KN-T2",), "seat 1 lays its Wooden Fence on the Fighters zone")
        if s.turn == 5 and s.phase == "spending" and seat == 0 and not s.sides[0].fighters and once("KN-6.1"):
            golem = next(c for c in self.hand(state, 0) if card_id(c) == "stone-golem")
            x, y, angle = _free_spot("s0.fighters", p.places)
            wrong = [*table, Placed(golem, "s0.fighters", 0, x=x, y=y, angle=angle)]
            return Illegal(tuple(wrong), ("KN-6.1",), "seat 1 lays a Stone Golem (3 Stone) its bank cannot pay")
        if s.turn == 6 and s.phase == "declare" and s.combat.attackers and once("KN-4.2"):
            guard = next(f.id for f in s.sides[0].fighters if card_id(f.id) == "village-guard")
            wrong = [x for x in table if x.card != guard] + [Placed(guard, "attack", 0, x=75 + 44 + 92, y=MIDDLE_Y,
                                                                           angle=270.0)]
            return Illegal(tuple(wrong), ("KN-4.2",), "seat 1 moves its Village Guard into the middle before "
                                                      "seat 2 has declared its attackers")
        if s.turn == 6 and s.phase == "block" and s.sides[0].face_down and once("KN-8.2"):
            slot = s.sides[0].face_down[0].slot
            _, salt = p.seals[slot]
            lie = Uncloak(0, slot, "", "master-assassin", salt)
            return SealedIllegal(tuple(_turned_up(state, 0, "master-assassin", p.places)), ("KN-8.2",),
                                 "seat 1 turns up a Master Assassin where it sealed a Bear Trap",
                                 phone=(0, lie.to_json()))
        return None


def script(seats: int = 2, variant: str = "standard", seed: int = 7) -> KeenerScript:
    """The scripted Keener game (2 seats, hand-shuffled decks; ``seed`` orders the unstacked cards)."""
    if seats != 2:
        raise ValueError("Keener is for exactly 2 players")
    game = Game(seed)
    return KeenerScript("keener", variant, 2, {"decks": list(DECKS)}, art, game.table_of, game.camera, game.choose,
                        game.illegal, width=640, height=360, pile_shown=1, effects=False, max_tilt=6.0)
