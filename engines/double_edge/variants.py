"""The two variants as subclasses that override the standard game's hooks (DE-13, DE-14)."""

from __future__ import annotations

from engines.double_edge.snapshot import Table
from engines.double_edge.state import DoubleEdgeState


class AzbarState(DoubleEdgeState):
    """DE-13: Gambits, and spades that cancel a matching Support; never an extra turn (DE-13.8)."""

    gambits = True
    azbar_spades = True


class ExtraTurnState(DoubleEdgeState):
    """DE-14: the first player may take a Support-only extra turn if they acted in their first turn."""

    def extra_turn_due(self, t: Table) -> bool:
        return t.first_acted
