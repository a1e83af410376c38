"""The translation layer: every sentence a person reads passes through here.

gettext catalogs compiled by Babel live in companion/translations/<lang>/
LC_MESSAGES/ (companion/translations/README.md says how to rebuild them).
English is the source language, so an absent catalog means English.

Two domains:

* ``messages``: the server's and the pages' own sentences, looked up whole.
* ``engine``: the engines' sentences (rejections and fixes, adapter questions,
  chance labels, what to put back where).  The engines build them as English
  f-strings with specifics in them (``f"{card} is not in your hand"``), so the
  catalog holds *templates* (scripts/engine_messages.py extracts them from the
  engine sources) and :func:`translate` matches a finished sentence against
  them: the literal text must match, each ``{placeholder}`` captures what the
  engine put there, and the captured parts are translated in turn (``seat 2's
  Striker zone`` inside a bigger sentence) or kept as they are (``Q♥``).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, wraps
from pathlib import Path
from typing import Any, TypeVar

from babel.messages.mofile import read_mo
from babel.support import NullTranslations, Translations

TRANSLATIONS = Path(__file__).with_name("translations")
DEFAULT = "en"
ENGINE_DOMAIN = "engine"
_local = threading.local()
F = TypeVar("F", bound=Callable[..., Any])


@lru_cache(maxsize=16)
def catalog(language: str) -> NullTranslations:
    """The compiled catalog of ``language``, or English (no translation) when there is none."""
    if language == DEFAULT:
        return NullTranslations()
    return Translations.load(str(TRANSLATIONS), [language, DEFAULT], domain="messages")


def languages() -> list[str]:
    found = {p.parent.parent.name for p in TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo")}
    return sorted({DEFAULT, *found})


def set_language(language: str) -> None:
    """The language of the current thread (a request or a socket handler)."""
    _local.language = language


def current() -> str:
    return getattr(_local, "language", DEFAULT)


def in_language(language: str, fn: F) -> F:
    """``fn`` run in ``language`` on whichever thread calls it (the referee's worker answers in the
    language of the socket that asked), the thread's own language restored afterwards."""
    @wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        before = current()
        set_language(language)
        try:
            return fn(*args, **kwargs)
        finally:
            set_language(before)
    return run  # type: ignore[return-value]


def gettext(message: str, language: str | None = None, **values: object) -> str:
    """Translate ``message`` and fill ``{name}`` fields from ``values``."""
    text = catalog(language or current()).gettext(message)
    return text.format(**values) if values else text


_ = gettext


def ngettext(singular: str, plural: str, n: int, language: str | None = None, **values: object) -> str:
    text = catalog(language or current()).ngettext(singular, plural, n)
    return text.format(n=n, **values)


# --------------------------------------------------------------------------
# Engine sentences: templates with placeholders


def template_parts(template: str) -> list[tuple[bool, str]]:
    """A template as (is_placeholder, text) parts: ``{{``/``}}`` are literal braces, and a placeholder
    runs from ``{`` to its matching ``}`` (it may hold braces of its own, as a nested f-string does)."""
    parts: list[tuple[bool, str]] = []
    literal: list[str] = []
    i, n = 0, len(template)
    while i < n:
        ch = template[i]
        if ch in "{}" and template[i:i + 2] in ("{{", "}}"):
            literal.append(ch)
            i += 2
        elif ch == "{":
            depth, j = 0, i
            while j < n:
                depth += {"{": 1, "}": -1}.get(template[j], 0)
                if depth == 0:
                    break
                j += 1
            if literal:
                parts.append((False, "".join(literal)))
                literal = []
            parts.append((True, template[i:j + 1]))
            i = j + 1
        else:
            literal.append(ch)
            i += 1
    if literal:
        parts.append((False, "".join(literal)))
    return parts


def placeholders(template: str) -> set[str]:
    return {text for is_field, text in template_parts(template) if is_field}


_WORD = re.compile(r"[A-Za-z]{2,}")
NUMBER = r"-?\d+"


@dataclass(frozen=True)
class Pattern:
    """One engine template of a language: how to recognise it and how to say it."""

    source: str
    regex: re.Pattern[str]
    groups: tuple[str, ...]
    """The placeholder each regex group captures, in group order."""
    target: tuple[tuple[bool, str], ...]
    worded: bool
    """Does the English template have words of its own (not only placeholders and punctuation)?"""
    longest: str
    """Its longest literal part: a sentence without it cannot match (a quick test before the regex)."""

    @classmethod
    def of(cls, source: str, target: str) -> Pattern:
        regex, groups, literal = [], [], []
        for is_field, text in template_parts(source):
            if not is_field:
                regex.append(re.escape(text))
                literal.append(text)
            elif text in groups:
                regex.append(f"(?P=g{groups.index(text)})")
            else:
                # "{n:d}" (a hand-written template's number) catches digits only, anything else catches text.
                regex.append(f"(?P<g{len(groups)}>{NUMBER if text.endswith(':d}') else '.*?'})")
                groups.append(text)
        return cls(source, re.compile("".join(regex), re.DOTALL), tuple(groups), tuple(template_parts(target)),
                   bool(_WORD.search("".join(literal))), max(literal, key=len, default=""))

    @property
    def weight(self) -> int:
        """How much literal text must match: the most specific template is tried first."""
        return sum(len(text) for is_field, text in template_parts(self.source) if not is_field)


@dataclass(frozen=True)
class EngineCatalog:
    exact: dict[str, str]
    patterns: tuple[Pattern, ...]


@lru_cache(maxsize=16)
def engine_catalog(language: str) -> EngineCatalog:
    """The engine templates of ``language`` with a translation (compiled ``engine.mo``); empty for English."""
    path = TRANSLATIONS / language / "LC_MESSAGES" / f"{ENGINE_DOMAIN}.mo"
    if language == DEFAULT or not path.exists():
        return EngineCatalog({}, ())
    with open(path, "rb") as fh:
        messages = [m for m in read_mo(fh) if m.id and m.string and isinstance(m.id, str)]
    exact, patterns = {}, []
    for m in messages:
        if placeholders(m.id):
            patterns.append(Pattern.of(m.id, m.string))
        else:
            exact[m.id.replace("{{", "{").replace("}}", "}")] = m.string.replace("{{", "{").replace("}}", "}")
    patterns.sort(key=lambda p: (-p.weight, p.source))
    return EngineCatalog(exact, tuple(patterns))


MAX_DEPTH = 4


def translate(text: str, language: str | None = None) -> str:
    """An engine's (or the server's) sentence in ``language``: the whole-message catalogs first, then
    the engine templates; what nothing matches is returned as it is (readable English)."""
    language = language or current()
    if language == DEFAULT or not text:
        return text
    return _reading(text, language, 0).text


@dataclass(frozen=True)
class _Reading:
    text: str
    english: int
    """Latin letters left: English not translated (and card ids, which stay)."""
    templates: int
    """Templates used to read it: the simplest reading of a sentence is the likeliest."""

    def better_than(self, other: _Reading) -> bool:
        return (self.english, self.templates) < (other.english, other.templates)


@lru_cache(maxsize=4096)
def _reading(text: str, language: str, depth: int) -> _Reading:
    found = catalog(language).gettext(text)
    if found == text:
        found = engine_catalog(language).exact.get(text, text)
    if found != text:
        return _Reading(found, _english(found), 0)
    best = _Reading(text, _english(text), 0)
    if depth >= MAX_DEPTH:
        return best
    # Several templates may match ("{who} discard pile" matches "take 4S off seat 2's discard pile" as
    # well as "take {card} off {label}" does): every reading is made, and the one that leaves the least
    # English wins, then the one made of the fewest templates, then the most literal template.
    for pattern in engine_catalog(language).patterns:
        match = pattern.longest in text and pattern.regex.fullmatch(text)
        if not match:
            continue
        values = {name: match.group(f"g{i}") for i, name in enumerate(pattern.groups)}
        said = {name: _reading(value, language, depth + 1) if _WORD.search(value) else _Reading(value, 0, 0)
                for name, value in values.items()}
        if not pattern.worded and all(said[name].text == values[name] for name in values):
            continue  # only punctuation matched: nothing was translated, let a better reading try
        words = "".join(said[part].text if is_field and part in said else part for is_field, part in pattern.target)
        reading = _Reading(words, _english(words), 1 + sum(r.templates for r in said.values()))
        if best.text == text or reading.better_than(best):
            best = reading
    return best


_LATIN = re.compile(r"[A-Za-z]")


def _english(text: str) -> int:
    return len(_LATIN.findall(text))


def translate_verdict(verdict: dict, language: str | None = None) -> dict:
    """A rejection as the reader's language has it (rule ids stay as they are)."""
    out = dict(verdict)
    for key in ("message", "fix"):
        if isinstance(out.get(key), str):
            out[key] = translate(out[key], language)
    return out


_SAID = ("label", "reason", "prompt", "message", "fix")
"""Keys whose text an engine or adapter wrote for people (a chance label, an outcome's reason, a
question's prompt, a verdict); every other string of a message is data (card ids, choices) and stays."""


def localize(data: dict, language: str | None = None) -> dict:
    """A message for one reader (a seat's room, the public room) with the engine's sentences in the
    reader's language: the verdict, a question's prompt (and ``labels`` for its choices), the view's
    chance label and outcome reason, the label or reason of each event, and ``differences`` (what to
    put back where).  Copies what it changes; ``data`` itself is left as it was."""
    language = language or current()
    if language == DEFAULT:
        return data
    out = _said(data, language)
    view = out.get("view")
    if isinstance(view, dict):
        view = dict(view)
        for key in ("chance", "outcome"):
            if isinstance(view.get(key), dict):
                view[key] = _said(view[key], language)
        out["view"] = view
    if isinstance(out.get("verdict"), dict):
        out["verdict"] = translate_verdict(out["verdict"], language)
    if isinstance(out.get("events"), list):
        out["events"] = [_said(e, language) if isinstance(e, dict) else e for e in out["events"]]
    if isinstance(out.get("differences"), list):  # what to move until the table matches (TableAdapter.differences)
        out["differences"] = [translate(d, language) if isinstance(d, str) else d for d in out["differences"]]
    if isinstance(out.get("choices"), list):
        # The choices go back to the adapter as they are; ``labels`` says each in the reader's language.
        out["labels"] = [translate(c, language) if isinstance(c, str) else c for c in out["choices"]]
    return out


def _said(data: dict, language: str) -> dict:
    out = dict(data)
    for key in _SAID:
        if isinstance(out.get(key), str):
            out[key] = translate(out[key], language)
    return out
