"""Double Side Play: a trick-taking game for 3 or 4 players (docs/rules/double-side-play.md).

Public API: :data:`GAME` (``engines.registry.get("double-side-play")``), the
moves :class:`Play`, :class:`Janken` and :class:`ChooseTrump`, and
:class:`Deck` for card ids ("R7": colour initial + astronaut number).
"""

from engines.double_side_play.cards import DEFAULT_COLOURS, Deck, alien_of
from engines.double_side_play.game import GAME, DoubleSidePlay
from engines.double_side_play.moves import ChooseTrump, Janken, Play
from engines.double_side_play.state import REVOKE_RULINGS, DoubleSidePlayState

__all__ = ["GAME", "DEFAULT_COLOURS", "REVOKE_RULINGS", "ChooseTrump", "Deck", "DoubleSidePlay",
           "DoubleSidePlayState", "Janken", "Play", "alien_of"]
