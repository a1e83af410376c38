"""Assertions shared by the table-adapter tests of the games read by the camera."""

from __future__ import annotations

from typing import Any

from engines.core import TableAdapter, TableSnapshot


def assert_refused_and_unchanged(adapter: TableAdapter, game: Any, new: TableSnapshot, result: Any, rule: str) -> None:
    """The adapter refused what the camera saw under ``rule``, with a sentence and a fix, left the engine's
    state as it was (``game.before``), and the table still differs from the state until it is put right."""
    assert result.moves == () and result.mismatch is not None, result
    assert result.mismatch.rule == rule, result.mismatch
    assert result.mismatch.message and result.mismatch.fix
    assert game.state.to_json() == game.before  # interpret never touches the state
    assert not adapter.restored(game.state, new)
    assert adapter.differences(game.state, new)
