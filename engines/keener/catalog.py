"""The Keener card database: one JSON file per set under ``cards/``, validated on load.

Why data and not code: a new set is a new file, and a typo in a figure is
caught by :func:`validate_set` with a sentence that names the file, the card
and the field, instead of surfacing as a strange game.  Validation is written
with the standard library only, because engines take no third-party imports.
"""

from __future__ import annotations

import json
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

RESOURCES = ("wood", "stone", "iron", "gold")
TYPES = ("commander", "generator", "fighter", "defense", "equipment", "single-use")
ORIGINS = ("rulebook", "house")

Cost = tuple[int, int, int, int]
"""Wood, Stone, Iron, Gold."""

ABILITIES: dict[str, dict[str, type]] = {
    # ability id -> the params it needs and their types
    "saga-draws-three": {},
    "ferra-fighters-plus-one": {},
    "generate": {"resource": str},
    "abomination-combines": {},
    "master-assassin": {},
    "bear-trap": {},
    "equip-pv": {"amount": int},
    "equip-lp": {"amount": int},
    "lullaby": {},
    "gain": {"resource": str, "amount": int},
    "strike-commander": {"amount": int},
}
"""Every ability the engine implements; a card naming any other is refused on load."""

_ABILITY_TYPES: dict[str, tuple[str, ...]] = {
    "saga-draws-three": ("commander",),
    "ferra-fighters-plus-one": ("commander",),
    "generate": ("generator",),
    "abomination-combines": ("fighter",),
    "master-assassin": ("fighter",),
    "bear-trap": ("defense",),
    "equip-pv": ("equipment",),
    "equip-lp": ("equipment",),
    "lullaby": ("single-use",),
    "gain": ("single-use",),
    "strike-commander": ("single-use",),
}

_ID = re.compile(r"^[a-z][a-z0-9-]*$")
_FIELDS = {"id", "name", "type", "origin", "cost", "pv", "lp", "ability", "params", "cloak", "text"}


@dataclass(frozen=True)
class Card:
    """One printed card (not a copy of it: copies are ids like ``1:bear-trap#2``)."""

    id: str
    name: str
    type: str
    origin: str
    set: str
    cost: Cost = (0, 0, 0, 0)
    pv: int = 0
    lp: int = 0
    ability: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    reveal_cost: Cost | None = None
    """Set for Cloak of Darkness cards: what turning the card face up costs."""
    text: str = ""

    @property
    def cloak(self) -> bool:
        return self.reveal_cost is not None


class CatalogError(ValueError):
    """A card file that does not follow the schema; the message lists every problem."""

    def __init__(self, problems: list[str]):
        super().__init__("the Keener card database is invalid:\n  " + "\n  ".join(problems))
        self.problems = problems


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _cost(value: Any, where: str, problems: list[str]) -> Cost:
    if value is None:
        return (0, 0, 0, 0)
    if not isinstance(value, Mapping):
        problems.append(f"{where}: a cost is an object like {{\"iron\": 2}}")
        return (0, 0, 0, 0)
    for key, amount in value.items():
        if key not in RESOURCES:
            problems.append(f"{where}: unknown resource {key!r}; use {', '.join(RESOURCES)}")
        elif not _whole(amount):
            problems.append(f"{where}: {key} must be a whole number of 0 or more, not {amount!r}")
    return tuple(value.get(r, 0) if _whole(value.get(r, 0)) else 0 for r in RESOURCES)  # type: ignore[return-value]


def validate_set(data: Any, source: str) -> list[Card]:
    """The cards of one set file; raises :class:`CatalogError` listing every problem."""
    problems: list[str] = []
    if not isinstance(data, Mapping):
        raise CatalogError([f"{source}: the file must hold a JSON object with 'set' and 'cards'"])
    set_id = data.get("set")
    if not isinstance(set_id, str) or not _ID.match(set_id):
        problems.append(f"{source}: 'set' must be a lower-case id such as \"core\"")
    cards_data = data.get("cards")
    if not isinstance(cards_data, list) or not cards_data:
        problems.append(f"{source}: 'cards' must be a non-empty list")
        cards_data = []
    cards: list[Card] = []
    seen: set[str] = set()
    for index, raw in enumerate(cards_data):
        where = f"{source}: cards[{index}]"
        if not isinstance(raw, Mapping):
            problems.append(f"{where}: a card must be an object")
            continue
        card_id = raw.get("id")
        if isinstance(card_id, str):
            where += f" ({card_id})"
        before = len(problems)
        for key in raw:
            if key not in _FIELDS:
                problems.append(f"{where}: unknown field {key!r}")
        if not isinstance(card_id, str) or not _ID.match(card_id):
            problems.append(f"{where}: 'id' must be lower-case letters, digits and dashes")
        elif card_id in seen:
            problems.append(f"{where}: the id {card_id!r} appears twice")
        else:
            seen.add(card_id)
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.append(f"{where}: 'name' must be non-empty text")
        kind = raw.get("type")
        if kind not in TYPES:
            problems.append(f"{where}: 'type' must be one of {', '.join(TYPES)}, not {kind!r}")
        origin = raw.get("origin")
        if origin not in ORIGINS:
            problems.append(f"{where}: 'origin' must be one of {', '.join(ORIGINS)}, not {origin!r}")
        cost = _cost(raw.get("cost"), f"{where} cost", problems)
        pv, lp = raw.get("pv"), raw.get("lp")
        if kind == "fighter" and not _whole(pv):
            problems.append(f"{where}: a fighter needs 'pv', a whole number")
        if kind != "fighter" and pv is not None:
            problems.append(f"{where}: only fighters have 'pv'")
        if kind in ("commander", "defense") and (not _whole(lp) or lp < 1):
            problems.append(f"{where}: a {kind} needs 'lp', a whole number of 1 or more")
        if kind not in ("commander", "defense") and lp is not None:
            problems.append(f"{where}: only commanders and defenses have 'lp'")
        if kind in ("commander", "generator") and raw.get("cost"):
            problems.append(f"{where}: a {kind} has no cost")
        ability = raw.get("ability")
        params = raw.get("params", {})
        if not isinstance(params, Mapping):
            problems.append(f"{where}: 'params' must be an object")
            params = {}
        if ability is not None:
            if ability not in ABILITIES:
                problems.append(f"{where}: unknown ability {ability!r}; the engine knows {', '.join(ABILITIES)}")
            else:
                if kind not in _ABILITY_TYPES[ability]:
                    problems.append(f"{where}: ability {ability!r} is for {' or '.join(_ABILITY_TYPES[ability])} cards")
                for pname, ptype in ABILITIES[ability].items():
                    pval = params.get(pname)
                    if ptype is int and not (_whole(pval) and pval > 0):
                        problems.append(f"{where}: ability {ability!r} needs params.{pname}, a whole number of 1 or more")
                    if ptype is str and pval not in RESOURCES:
                        problems.append(f"{where}: ability {ability!r} needs params.{pname}, one of {', '.join(RESOURCES)}")
                for pname in params:
                    if pname not in ABILITIES[ability]:
                        problems.append(f"{where}: ability {ability!r} takes no params.{pname}")
        elif params:
            problems.append(f"{where}: 'params' without an 'ability'")
        if kind in ("commander", "generator", "equipment", "single-use") and ability is None:
            problems.append(f"{where}: a {kind} needs an 'ability'")
        cloak = raw.get("cloak")
        reveal: Cost | None = None
        if cloak is not None:
            if not isinstance(cloak, Mapping) or set(cloak) != {"reveal_cost"}:
                problems.append(f"{where}: 'cloak' must be {{\"reveal_cost\": {{...}}}}")
            else:
                reveal = _cost(cloak["reveal_cost"], f"{where} cloak.reveal_cost", problems)
            if ability not in ("master-assassin", "bear-trap"):
                problems.append(f"{where}: Cloak of Darkness needs a face-up effect (master-assassin or bear-trap)")
        elif ability in ("master-assassin", "bear-trap"):
            problems.append(f"{where}: ability {ability!r} needs 'cloak'")
        text = raw.get("text", "")
        if not isinstance(text, str):
            problems.append(f"{where}: 'text' must be text")
        if len(problems) == before:
            cards.append(Card(card_id, name, kind, origin, set_id if isinstance(set_id, str) else "?", cost,
                              pv or 0, lp or 0, ability, dict(params), reveal, text))
    if problems:
        raise CatalogError(problems)
    return cards


def build_catalog(sets: Mapping[str, Any]) -> dict[str, Card]:
    """Card id -> Card across several sets (file name -> parsed JSON); ids must be unique."""
    problems: list[str] = []
    catalog: dict[str, Card] = {}
    for source, data in sets.items():
        try:
            cards = validate_set(data, source)
        except CatalogError as exc:
            problems.extend(exc.problems)
            continue
        for card in cards:
            if card.id in catalog:
                problems.append(f"{source}: card id {card.id!r} is already used by set {catalog[card.id].set!r}")
            catalog[card.id] = card
    if problems:
        raise CatalogError(problems)
    return catalog


def load_catalog() -> dict[str, Card]:
    """Every shipped set (``engines/keener/cards/*.json``), validated."""
    folder = resources.files(__package__).joinpath("cards")
    sets: dict[str, Any] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            source = f"cards/{entry.name}"
            try:
                sets[source] = json.loads(entry.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise CatalogError([f"{source}: not JSON ({exc.msg}, line {exc.lineno})"]) from None
    return build_catalog(sets)


CARDS: Mapping[str, Card] = types.MappingProxyType(load_catalog())
"""The shipped database, loaded once at import, read-only."""
