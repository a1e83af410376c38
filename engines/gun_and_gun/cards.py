"""The card set as data (cards.json), read and validated once on import.

Why data: the rule under test (ダブルエッジ) is about card *effects*, so the
engine only needs to know each card's type, costs and effect steps; adding a
card is an edit to cards.json, not to the rules code.  A malformed file fails
loudly on import with the name of the bad entry (never a half-loaded set).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

CARD_TYPES = ("bullet", "action", "function", "response")
"""銃弾, 行動, 機能, 対応."""

EFFECT_KINDS = ("draw", "extra-turn", "load", "damage", "heal")
"""Effect steps a card or skill may list, each with a positive amount."""

COST_KINDS = ("unload",)
"""Additional costs (追加コスト): ``unload n`` sends n loaded cards to the voltage area."""

SKILL_KINDS = ("activate-opponent-action", "effect")

Step = tuple[str, int]


@dataclass(frozen=True)
class CardDef:
    key: str
    name: str
    name_en: str
    type: str
    cost: int = 0
    voltage: int = 0
    once_per_turn: bool = False
    effect: tuple[Step, ...] = ()
    additional_cost: tuple[Step, ...] = ()
    hit: int = 0
    prevent: int = 0

    @property
    def effect_key(self) -> str:
        """Equal for cards with the same effect (GG-DE-11 compares effects, not names)."""
        return ",".join(f"{kind}:{n}" for kind, n in self.effect)


@dataclass(frozen=True)
class GunDef:
    key: str
    name: str
    name_en: str
    capacity: int
    bonus: int
    deck: tuple[str, ...]
    """Card keys of this gun's deck, one per copy, in list order."""


@dataclass(frozen=True)
class SkillDef:
    key: str
    name: str
    name_en: str
    kind: str
    effect: tuple[Step, ...] = ()


@dataclass(frozen=True)
class GunnerDef:
    key: str
    name: str
    name_en: str
    speed: int
    hand_size: int
    skill: SkillDef
    guns: tuple[GunDef, GunDef]


@dataclass(frozen=True)
class CardSet:
    cards: Mapping[str, CardDef]
    gunners: Mapping[str, GunnerDef]
    life: int
    response_slots: int


class CardSetError(ValueError):
    """cards.json does not describe a playable card set; the message names the entry."""


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise CardSetError(f"cards.json {where}: {what}")


def _int(data: Mapping[str, Any], key: str, where: str, default: int | None = None, low: int = 0) -> int:
    value = data.get(key, default)
    _need(isinstance(value, int) and not isinstance(value, bool) and value >= low, where,
          f"'{key}' must be a whole number >= {low}, got {value!r}")
    return value  # type: ignore[return-value]


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    _need(isinstance(value, str) and value != "", where, f"'{key}' must be non-empty text")
    return value  # type: ignore[return-value]


def _steps(raw: Any, kinds: tuple[str, ...], where: str) -> tuple[Step, ...]:
    _need(isinstance(raw, list), where, "must be a list of [kind, amount] pairs")
    out = []
    for item in raw:
        _need(isinstance(item, list) and len(item) == 2, where, f"{item!r} is not a [kind, amount] pair")
        kind, amount = item
        _need(kind in kinds, where, f"unknown kind {kind!r}; known: {', '.join(kinds)}")
        _need(isinstance(amount, int) and not isinstance(amount, bool) and amount > 0, where,
              f"amount of {kind!r} must be a positive whole number")
        out.append((kind, amount))
    return tuple(out)


def _card(key: str, data: Any) -> CardDef:
    where = f"card {key!r}"
    _need(isinstance(data, Mapping), where, "must be an object")
    kind = data.get("type")
    _need(kind in CARD_TYPES, where, f"type must be one of {', '.join(CARD_TYPES)}, got {kind!r}")
    card = CardDef(
        key=key, name=_text(data, "name", where), name_en=_text(data, "name_en", where), type=kind,
        cost=_int(data, "cost", where, 0), voltage=_int(data, "voltage", where, 0),
        once_per_turn=bool(data.get("once_per_turn", False)),
        effect=_steps(data.get("effect", []), EFFECT_KINDS, where + " effect"),
        additional_cost=_steps(data.get("additional_cost", []), COST_KINDS, where + " additional_cost"),
        hit=_int(data, "hit", where, 0), prevent=_int(data, "prevent", where, 0),
    )
    if kind == "bullet":
        _need(card.hit > 0 and not card.effect, where, "a bullet needs a 'hit' and no effect")
    if kind in ("action", "function"):
        _need(bool(card.effect), where, f"an {kind} card needs an effect")
    if kind == "response":
        _need(card.prevent > 0 and not card.effect, where, "a response needs 'prevent' and no effect")
    return card


def parse_card_set(raw: Any) -> CardSet:
    """Validate the JSON form of a card set; raises CardSetError naming the bad entry."""
    _need(isinstance(raw, Mapping), "top level", "must be an object")
    for section in ("cards", "guns", "skills", "gunners", "decks"):
        _need(isinstance(raw.get(section), Mapping) and raw[section], section, "must be a non-empty object")
    cards = {key: _card(key, data) for key, data in raw["cards"].items()}
    decks: dict[str, tuple[str, ...]] = {}
    for key, entries in raw["decks"].items():
        where = f"deck {key!r}"
        _need(isinstance(entries, list) and entries, where, "must be a non-empty list of [card, copies]")
        deck: list[str] = []
        for entry in entries:
            _need(isinstance(entry, list) and len(entry) == 2, where, f"{entry!r} is not [card, copies]")
            card_key, copies = entry
            _need(card_key in cards, where, f"unknown card {card_key!r}")
            _need(isinstance(copies, int) and not isinstance(copies, bool) and copies > 0, where,
                  f"copies of {card_key!r} must be a positive whole number")
            deck.extend([card_key] * copies)
        _need(len(deck) <= 99, where, "holds more than 99 cards")
        decks[key] = tuple(deck)
    guns = {}
    for key, data in raw["guns"].items():
        where = f"gun {key!r}"
        _need(isinstance(data, Mapping), where, "must be an object")
        deck_key = data.get("deck")
        _need(deck_key in decks, where, f"unknown deck {deck_key!r}")
        guns[key] = GunDef(key, _text(data, "name", where), _text(data, "name_en", where),
                           _int(data, "capacity", where, low=1), _int(data, "bonus", where, 0), decks[deck_key])
    skills = {}
    for key, data in raw["skills"].items():
        where = f"skill {key!r}"
        _need(isinstance(data, Mapping), where, "must be an object")
        kind = data.get("kind")
        _need(kind in SKILL_KINDS, where, f"kind must be one of {', '.join(SKILL_KINDS)}")
        effect = _steps(data.get("effect", []), EFFECT_KINDS, where + " effect")
        _need(bool(effect) == (kind == "effect"), where, "an 'effect' skill needs an effect, others none")
        skills[key] = SkillDef(key, _text(data, "name", where), _text(data, "name_en", where), kind, effect)
    gunners = {}
    for key, data in raw["gunners"].items():
        where = f"gunner {key!r}"
        _need(isinstance(data, Mapping), where, "must be an object")
        _need(data.get("skill") in skills, where, f"unknown skill {data.get('skill')!r}")
        gun_keys = data.get("guns")
        _need(isinstance(gun_keys, list) and len(gun_keys) == 2 and all(g in guns for g in gun_keys), where,
              "'guns' must name exactly two known guns")
        gunners[key] = GunnerDef(key, _text(data, "name", where), _text(data, "name_en", where),
                                 _int(data, "speed", where, low=1), _int(data, "hand_size", where, low=1),
                                 skills[data["skill"]], (guns[gun_keys[0]], guns[gun_keys[1]]))
    return CardSet(cards, gunners, _int(raw, "life", "top level", low=1),
                   _int(raw, "response_slots", "top level", low=0))


def load_card_set() -> CardSet:
    text = resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8")
    return parse_card_set(json.loads(text))


CARD_SET = load_card_set()
