"""``novice``: RLCard's ``GinRummyNoviceRuleAgent``.

Gin whenever it can; otherwise knock whenever it can (a random card among those whose discard
leaves the knock limit or less); otherwise discard at random among the least-deadwood cards.
Every draw choice (take or pass the upcard, stock or pile) is a coin toss.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gintutor.engine.bots.common import best_layoffs, big_gin, discards, knock, least_deadwood
from gintutor.engine.hand import Action, InfoSet, Phase


@dataclass(frozen=True)
class NoviceBot:
    """RLCard's novice rule agent."""

    name: str = "novice"

    def act(self, info: InfoSet, rng: random.Random) -> Action:
        """Gin, else any knock, else a least-deadwood discard; draws at random."""
        if info.phase is Phase.DEFEND:
            return best_layoffs(info)
        if info.phase is not Phase.DISCARD:
            return rng.choice(info.legal_actions())
        big = big_gin(info)
        if big is not None:
            return big
        options = discards(info)
        gins = [card for card, deadwood in options if deadwood == 0]
        if gins:
            return knock(info.hand, gins[0])
        knocks = [card for card, deadwood in options if deadwood <= info.knock_limit]
        if knocks:
            return knock(info.hand, rng.choice(knocks))
        _, best = least_deadwood(options)
        return Action.discard(rng.choice(best))
