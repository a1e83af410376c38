"""Double-Edge: two players, a 52-card deck, Bases in patterns, Strikers and Supports.

Rules: docs/rules/double-edge.md (rule ids ``DE-n.m``, rulings ``DE-Rn``).
``GAME`` is the engine's entry point; the variants are ``standard``,
``azbar`` and ``extra-turn``; deals are a seed or ``"physical"``.
"""

from engines.double_edge.game import DoubleEdgeGame

GAME = DoubleEdgeGame()

__all__ = ["GAME", "DoubleEdgeGame"]
