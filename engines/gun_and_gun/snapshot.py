"""The immutable snapshot of one game of ガンナガン, and the fixed table it is played at.

A :class:`Snap` holds only what changes; a :class:`Table` holds what is fixed
for the game (which card each id is, each seat's gunner), derived from the
options, so a snapshot stays small and its JSON form stays plain.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engines.gun_and_gun.cards import CardDef, CardSet, GunnerDef


def evolve(obj, **changes):
    """``dataclasses.replace`` for these frozen snapshot classes, without re-running ``__init__``.

    Why: the engine makes a new snapshot per move and ``replace`` was a third of
    the time of a random playout.  The classes here have no ``__post_init__``,
    so copying the field dict is equivalent; an unknown field name is an error.
    """
    unknown = changes.keys() - obj.__dict__.keys()
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(unknown)}")
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


UNKNOWN = "?"
"""Physical deal (GG-P1): a card the engine has not seen, in a hand, a deck or a gun."""


@dataclass(frozen=True)
class Player:
    life: int
    hand: tuple[str, ...]
    decks: tuple[tuple[str, ...], ...]
    """Per gun, index 0 is the top card."""
    loaded: tuple[tuple[str, ...], ...]
    """Per gun, in loading order."""
    voltage: tuple[str, ...]
    """ボルテージ: used cards, oldest first; costs are paid from the oldest."""
    trash: tuple[str, ...]
    """Cards spent to pay costs (コスト)."""
    responses: tuple[str, ...]
    """対応 cards set face down."""
    functions: tuple[str, ...]
    """機能 cards played this turn, face up, waiting for the down phase."""
    unseen: tuple[str, ...] = ()
    """Physical deal (GG-P1): the copies of this seat's decks not yet seen anywhere; the hand and the
    decks then hold only :data:`UNKNOWN` placeholders."""


@dataclass(frozen=True)
class Pending:
    """What the game waits for in the middle of a turn.

    kind ``coin``: the ダブルエッジ toss of ``seat`` on ``card`` (from ``source``:
    hand | skill | function); ``activate``: ``seat`` must resolve the action card
    its skill revealed; ``response``: ``seat`` (the defender) may answer a shot of
    ``hits`` hits; ``first``: a coin decides who goes first (equal speed).
    """

    kind: str
    seat: int
    card: str = ""
    source: str = ""
    hits: int = 0
    gun: int = 0
    """kind ``reveal`` (physical deal): the gun whose unknown loaded cards are turned up, or the deck
    ブレインハック revealed from (GG-P3, GG-P4)."""


@dataclass(frozen=True)
class Toss:
    """The last ダブルエッジ toss, for the table page: who declared on which card, where the coin
    pointed (``declarer`` | ``opponent``), who resolved the effect and how many times (GG-DE-5, GG-DE-6)."""

    declarer: int
    card: str
    face: str
    resolver: int
    times: int
    turn: int


@dataclass(frozen=True)
class Snap:
    phase: str
    """setup | main | down | over"""
    players: tuple[Player, ...]
    active: int
    next_regular: int
    """Whose regular turn follows once no extra turn is queued."""
    turn: int
    extra: bool
    extra_turns: tuple[int, ...]
    de_used: bool
    uses: tuple[str, ...]
    """Card keys with 【1ターン1度】 played this turn."""
    shot: tuple[int, ...]
    skill_used: bool
    resolved_effects: tuple[str, ...]
    """Effect keys of function cards resolved this down phase (GG-DE-13)."""
    pending: Pending | None
    shuffled: int
    loser: int | None
    reason: str
    de_last: Toss | None = None
    """The last ダブルエッジ toss of the game (shown until the next one)."""
    physical: bool = False
    """The players shuffled and dealt their own decks (GG-P1)."""
    played: tuple[str, ...] = ()
    """Action and function cards played (or activated) this turn: the table adapter expects only these
    to be still lying where they were played (docs/tables-keener-gun-and-gun.md, GG-T7)."""


@dataclass(frozen=True)
class Table:
    cards: CardSet
    gunners: tuple[GunnerDef, ...]
    ids: Mapping[str, CardDef]
    owner: Mapping[str, int]
    decks: tuple[tuple[tuple[str, ...], ...], ...]
    """Per seat, per gun: the card ids of that gun's deck before the shuffle."""

    def card(self, card_id: str) -> CardDef:
        return self.ids[card_id]


def build_table(cards: CardSet, gunner_keys: tuple[str, ...]) -> Table:
    """Give every copy its own id: ``<seat><A|B>-<nn>`` (e.g. ``0A-07``)."""
    gunners = tuple(cards.gunners[k] for k in gunner_keys)
    ids: dict[str, CardDef] = {}
    owner: dict[str, int] = {}
    decks = []
    for seat, gunner in enumerate(gunners):
        per_gun = []
        for gun_index, gun in enumerate(gunner.guns):
            deck = []
            for n, key in enumerate(gun.deck, 1):
                card_id = f"{seat}{'AB'[gun_index]}-{n:02d}"
                ids[card_id] = cards.cards[key]
                owner[card_id] = seat
                deck.append(card_id)
            per_gun.append(tuple(deck))
        decks.append(tuple(per_gun))
    return Table(cards, gunners, ids, owner, tuple(decks))


def new_snap(table: Table, life: int | None = None, physical: bool = False) -> Snap:
    """The game before the shuffles; ``life``: the starting life (default the card set's, GG-1.1).
    ``physical``: the decks were shuffled by hand, so they hold placeholders and every copy is unseen."""
    players = tuple(
        Player(life or table.cards.life, (), table.decks[seat], ((), ()), (), (), (), ())
        if not physical else
        Player(life or table.cards.life, (), tuple((UNKNOWN,) * len(d) for d in table.decks[seat]), ((), ()),
               (), (), (), (), tuple(c for d in table.decks[seat] for c in d))
        for seat in range(len(table.gunners))
    )
    return Snap("setup", players, 0, 1, 0, False, (), False, (), (), False, (), None,
                2 * len(players) if physical else 0, None, "", physical=physical)


# ---- JSON form (written by hand: the generic reflection of engines.core is ten times slower,
# and the conformance test and crash recovery serialise a snapshot at every move)

def _player_json(p: Player) -> dict:
    return {"life": p.life, "hand": list(p.hand), "decks": [list(d) for d in p.decks],
            "loaded": [list(x) for x in p.loaded], "voltage": list(p.voltage), "trash": list(p.trash),
            "responses": list(p.responses), "functions": list(p.functions), "unseen": list(p.unseen)}


def _strings(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"expected a list of card ids, got {value!r}")
    return tuple(value)


def _player_from(data: dict) -> Player:
    return Player(int(data["life"]), _strings(data["hand"]), tuple(_strings(d) for d in data["decks"]),
                  tuple(_strings(x) for x in data["loaded"]), _strings(data["voltage"]), _strings(data["trash"]),
                  _strings(data["responses"]), _strings(data["functions"]), _strings(data.get("unseen", [])))


def snap_to_json(s: Snap) -> dict:
    pending = None
    if s.pending is not None:
        pending = {"kind": s.pending.kind, "seat": s.pending.seat, "card": s.pending.card,
                   "source": s.pending.source, "hits": s.pending.hits, "gun": s.pending.gun}
    return {"phase": s.phase, "players": [_player_json(p) for p in s.players], "active": s.active,
            "next_regular": s.next_regular, "turn": s.turn, "extra": s.extra, "extra_turns": list(s.extra_turns),
            "de_used": s.de_used, "uses": list(s.uses), "shot": list(s.shot), "skill_used": s.skill_used,
            "resolved_effects": list(s.resolved_effects), "pending": pending, "shuffled": s.shuffled,
            "loser": s.loser, "reason": s.reason,
            "de_last": None if s.de_last is None else {"declarer": s.de_last.declarer, "card": s.de_last.card,
                                                       "face": s.de_last.face, "resolver": s.de_last.resolver,
                                                       "times": s.de_last.times, "turn": s.de_last.turn},
            "played": list(s.played), "physical": s.physical}


def snap_from_json(data: dict) -> Snap:
    raw = data["pending"]
    pending = None if raw is None else Pending(raw["kind"], int(raw["seat"]), raw["card"], raw["source"],
                                               int(raw["hits"]), int(raw.get("gun", 0)))
    return Snap(data["phase"], tuple(_player_from(p) for p in data["players"]), int(data["active"]),
                int(data["next_regular"]), int(data["turn"]), bool(data["extra"]),
                tuple(int(x) for x in data["extra_turns"]), bool(data["de_used"]), _strings(data["uses"]),
                tuple(int(x) for x in data["shot"]), bool(data["skill_used"]), _strings(data["resolved_effects"]),
                pending, int(data["shuffled"]), None if data["loser"] is None else int(data["loser"]),
                str(data["reason"]), _toss_from(data.get("de_last")), bool(data.get("physical", False)),
                _strings(data.get("played", [])))


def _toss_from(raw: dict | None) -> Toss | None:
    if raw is None:
        return None
    return Toss(int(raw["declarer"]), str(raw["card"]), str(raw["face"]), int(raw["resolver"]), int(raw["times"]),
                int(raw["turn"]))
