"""Helpers for the Double-Edge tests: rule markers, table builders, rejection checks."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engines.core import IllegalMove, Move
from engines.double_edge import GAME
from engines.double_edge.snapshot import Snap, snap_to_json
from engines.double_edge.state import DoubleEdgeState


def rules(*ids: str) -> Callable:
    """Mark a test as pinning rule ids of docs/rules/double-edge.md (read by test_double_edge_rules_doc)."""

    def mark(fn: Callable) -> Callable:
        fn.de_rules = tuple(getattr(fn, "de_rules", ())) + ids  # type: ignore[attr-defined]
        return fn

    return mark


def table(variant: str = "standard", deal: int | str = 0, options: dict | None = None, **fields: Any) -> DoubleEdgeState:
    """A state at any moment of a game, built from snapshot fields (turn phase of round 1 by default)."""
    defaults: dict[str, Any] = {"phase": "turn", "round": 1, "first": 0, "stage": 1,
                                "bases": (("2C", "4C", "6C"), ("3H", "5H", "7H"))}
    defaults.update(fields)
    if defaults["phase"] == "indicate" and "had_striker" not in fields:
        defaults["had_striker"] = tuple(x is not None for x in defaults.get("strikers", (None, None)))
    for key in ("hands", "bases", "sealed_bases", "middles", "discards", "known"):
        if key in defaults:
            defaults[key] = tuple(tuple(x) for x in defaults[key])
    for key in ("deck", "claim_cards"):
        if key in defaults:
            defaults[key] = tuple(defaults[key])
    for key in ("strikers", "supports", "support_up", "indicators", "hand_unknown", "had_striker", "winners"):
        if key in defaults:
            defaults[key] = tuple(defaults[key])
    snap = Snap(**defaults)
    state = GAME.new(2, variant, deal, options)
    data = state.to_json()
    data["snapshot"] = snap_to_json(snap)
    loaded = GAME.load(json.loads(json.dumps(data)))
    assert isinstance(loaded, DoubleEdgeState)
    return loaded


def rejects(state: DoubleEdgeState, move: Move | dict, rule: str) -> str:
    """Assert ``move`` is refused under ``rule`` by check and apply, and changes nothing; returns the message."""
    before = state.to_json()
    verdict = state.check(move)
    assert not verdict.ok, f"{move} was accepted"
    assert verdict.rule == rule, f"{move}: expected {rule}, got {verdict.rule}: {verdict.message}"
    with pytest.raises(IllegalMove) as exc:
        state.apply(move)
    assert exc.value.verdict == verdict
    assert state.to_json() == before
    return verdict.message


def play(state: DoubleEdgeState, *moves: Move) -> list:
    """Apply moves in order (each must be accepted); returns all events."""
    events: list = []
    for move in moves:
        verdict = state.check(move)
        assert verdict.ok, f"{move} refused: {verdict}"
        events += state.apply(move)
    return events


def types(events: list) -> list[str]:
    return [e.type for e in events]
