"""The translation layer: every sentence a person reads passes through here.

gettext catalogs compiled by Babel live in companion/translations/<lang>/
LC_MESSAGES/messages.mo (``pybabel extract -F babel.cfg -o
companion/translations/messages.pot .``, then ``init``/``update``/``compile``).
English is the source language, so an absent catalog means English; Japanese
follows with the physical-play issues.

Engine rejections are English sentences built by the engines; they are looked
up as whole messages, so a catalog can translate the fixed ones and anything
without a translation stays readable English.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

from babel.support import NullTranslations, Translations

TRANSLATIONS = Path(__file__).with_name("translations")
DEFAULT = "en"
_local = threading.local()


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


def gettext(message: str, language: str | None = None, **values: object) -> str:
    """Translate ``message`` and fill ``{name}`` fields from ``values``."""
    text = catalog(language or current()).gettext(message)
    return text.format(**values) if values else text


_ = gettext


def ngettext(singular: str, plural: str, n: int, language: str | None = None, **values: object) -> str:
    text = catalog(language or current()).ngettext(singular, plural, n)
    return text.format(n=n, **values)


def translate_verdict(verdict: dict, language: str | None = None) -> dict:
    """A rejection as the reader's language has it (rule ids stay as they are)."""
    out = dict(verdict)
    for key in ("message", "fix"):
        if isinstance(out.get(key), str):
            out[key] = gettext(out[key], language)
    return out
