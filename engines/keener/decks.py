"""Decks: the building rules (KN-2) and the sample decks shipped as data under ``decks/``.

A deck is written as ``{"cards": {"<card id>": copies, ...}}`` (the Commander
among them) or as a plain list of card ids.  :func:`deck_problems` lists every
reason a deck is not legal, so a player fixes all of them in one go.
"""

from __future__ import annotations

import json
import types
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engines.keener.catalog import CARDS

DECK_SIZE = 50
MAX_COPIES = 2


@dataclass(frozen=True)
class Deck:
    """A legal deck: its Commander and the 49 other cards (card ids, repeated per copy)."""

    id: str
    name: str
    commander: str
    cards: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        counts = Counter(self.cards)
        return {"id": self.id, "name": self.name, "cards": {self.commander: 1, **dict(sorted(counts.items()))}}


class DeckError(ValueError):
    """A deck that breaks the building rules; ``problems`` holds one sentence per reason."""

    def __init__(self, problems: list[str], name: str = "the deck"):
        super().__init__(f"{name} is not a legal Keener deck:\n  " + "\n  ".join(problems))
        self.problems = problems


def _counts(cards: Any) -> tuple[Counter[str], list[str]]:
    problems: list[str] = []
    counts: Counter[str] = Counter()
    if isinstance(cards, Mapping):
        for card_id, n in cards.items():
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                problems.append(f"KN-2.4: the count of {card_id!r} must be a whole number of 1 or more, not {n!r}")
            else:
                counts[str(card_id)] += n
    elif isinstance(cards, list | tuple):
        for card_id in cards:
            if not isinstance(card_id, str):
                problems.append(f"KN-2.4: {card_id!r} is not a card id")
            else:
                counts[card_id] += 1
    else:
        problems.append("KN-2.4: a deck's cards are an object {card id: copies} or a list of card ids")
    return counts, problems


def deck_problems(cards: Any) -> list[str]:
    """Every reason the deck is not legal (empty when it is).  Each starts with its rule id."""
    counts, problems = _counts(cards)
    unknown = sorted(c for c in counts if c not in CARDS)
    for card_id in unknown:
        problems.append(f"KN-2.4: there is no card {card_id!r} in the card database")
    total = sum(counts.values())
    if total != DECK_SIZE:
        problems.append(f"KN-2.1: the deck has {total} cards; a deck has exactly {DECK_SIZE} "
                        f"({'remove' if total > DECK_SIZE else 'add'} {abs(total - DECK_SIZE)})")
    commanders = {c: n for c, n in counts.items() if c in CARDS and CARDS[c].type == "commander"}
    n_commanders = sum(commanders.values())
    if n_commanders != 1:
        names = ", ".join(f"{CARDS[c].name}" + (f" x{n}" if n > 1 else "") for c, n in sorted(commanders.items()))
        problems.append(f"KN-2.2: the deck has {n_commanders} Commanders{' (' + names + ')' if names else ''}; "
                        "a deck has exactly one")
    for card_id, n in sorted(counts.items()):
        if card_id in CARDS and CARDS[card_id].type != "commander" and n > MAX_COPIES:
            problems.append(f"KN-2.3: the deck has {n} copies of {CARDS[card_id].name}; "
                            f"at most {MAX_COPIES} copies of any card but the Commander")
    return problems


def make_deck(data: Any, default_id: str = "custom") -> Deck:
    """A :class:`Deck` from its JSON form; raises :class:`DeckError` with every problem."""
    if isinstance(data, Mapping):
        cards = data.get("cards")
        deck_id = str(data.get("id", default_id))
        name = str(data.get("name", deck_id))
    else:
        cards, deck_id, name = data, default_id, default_id
    problems = deck_problems(cards)
    if problems:
        raise DeckError(problems, name)
    counts, _ = _counts(cards)
    commander = next(c for c in counts if CARDS[c].type == "commander")
    others = tuple(sorted(c for c, n in counts.items() if c != commander for _ in range(n)))
    return Deck(deck_id, name, commander, others)


def _load_samples() -> dict[str, Deck]:
    folder = resources.files(__package__).joinpath("decks")
    decks = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            deck = make_deck(json.loads(entry.read_text(encoding="utf-8")), entry.name[:-5])
            decks[deck.id] = deck
    return decks


SAMPLE_DECKS: Mapping[str, Deck] = types.MappingProxyType(_load_samples())
"""The shipped sample decks by id ("saga-sample", "ferra-sample")."""
DEFAULT_DECKS = ("saga-sample", "ferra-sample")
"""Seat 1 plays Saga, seat 2 Ferra, unless the ``decks`` option says otherwise."""


def resolve_deck(spec: Any) -> Deck:
    """A deck from an option value: a sample deck id, ``{"cards": ...}`` or a list of card ids."""
    if isinstance(spec, str):
        if spec not in SAMPLE_DECKS:
            raise DeckError([f"KN-2.4: there is no sample deck {spec!r}; known: {', '.join(SAMPLE_DECKS)}"], spec)
        return SAMPLE_DECKS[spec]
    return make_deck(spec)
