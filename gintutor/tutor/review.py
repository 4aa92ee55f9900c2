"""The review of a played game: every decision of one player judged by the coach.

(Being built: the game records reviewed come first.)
"""

from __future__ import annotations

from dataclasses import dataclass

from gintutor.engine.hand import Action, Deal
from gintutor.engine.rules import RuleSet


@dataclass(frozen=True)
class PlayedHand:
    """One hand as it was played: the deal (hidden cards completed, for a logged game) and
    every action of both players in order."""

    deal: Deal
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class PlayedGame:
    """A game to review: the rules, the seat reviewed, the hands in order, the score by seat
    before the first hand, and where it came from (a saved game's id, a log file)."""

    rules: RuleSet
    player: int
    hands: tuple[PlayedHand, ...]
    scores: tuple[int, int] = (0, 0)
    source: str = ""
