"""Seats and their join tokens.

A seat's token is the only thing that proves a phone belongs to that seat: 192
random bits from :mod:`secrets` (the issue asks for at least 128), sent in the
join URL and kept in a cookie so a phone that slept or reloaded rejoins the
same seat.  The typed fallback code is shorter, for a phone whose camera will
not read the QR; it is only good together with the table id and guessing is
throttled by the rate limiter.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field

TOKEN_BYTES = 24
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read aloud and typed on a phone
CODE_LENGTH = 8


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """What a person typed, as stored: upper case, no spaces or dashes, O read as 0 is not possible."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def format_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


@dataclass
class Seat:
    index: int
    token: str
    code: str
    name: str | None = None
    player_id: int | None = None
    character_id: int | None = None
    """Two Freakin' Swords: the character sheet this seat plays."""
    sids: set[str] = field(default_factory=set)
    """Socket ids bound to this seat now (one phone may have several tabs)."""

    def matches(self, token: str) -> bool:
        return hmac.compare_digest(self.token.encode(), token.encode())

    def matches_code(self, code: str) -> bool:
        return hmac.compare_digest(self.code.encode(), normalise_code(code).encode())

    def reissue(self) -> None:
        """A new token and code: the old ones, and any phone holding them, are refused from now."""
        self.token = new_token()
        self.code = new_code()

    def public(self) -> dict:
        return {"seat": self.index, "name": self.name, "connected": bool(self.sids)}
