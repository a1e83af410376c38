"""ガンナガン (GUN AND GUN) with the ダブルエッジ coin-toss house rule.

Variants: ``standard`` (the host game as modelled, no house rule) and
``double-edge``.  Rules: docs/rules/gun-and-gun.md.
"""

from engines.gun_and_gun.game import GAME, GunAndGunGame

__all__ = ["GAME", "GunAndGunGame"]
