"""``simple``: the AAAI/EAAI challenge's ``SimpleGinRummyPlayer``.

Takes the face-up card only if it would be in a meld with the hand; discards uniformly at
random among the cards leaving the least deadwood, never the card just taken from the pile;
knocks at the first chance, spreading a least-deadwood arrangement.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gintutor.engine.bots.common import (
    best_layoffs,
    big_gin,
    discards,
    knock,
    least_deadwood,
    melds_with,
)
from gintutor.engine.hand import NO_CARD, Action, InfoSet, Kind, Phase


@dataclass(frozen=True)
class SimpleBot:
    """The EAAI challenge's simple player."""

    name: str = "simple"

    def act(self, info: InfoSet, rng: random.Random) -> Action:
        """Take a melding upcard, discard a random least-deadwood card, knock when allowed."""
        if info.phase is Phase.DEFEND:
            return best_layoffs(info)
        if info.phase in (Phase.OFFER, Phase.DRAW):
            legal = info.legal_actions()
            take = Action(Kind.TAKE)
            if take in legal and info.top != NO_CARD and melds_with(info.hand, info.top):
                return take
            return legal[0]  # pass in the offer, draw from the stock otherwise
        big = big_gin(info)
        if big is not None:
            return big
        deadwood, best = least_deadwood(discards(info))
        card = rng.choice(best)
        if deadwood <= info.knock_limit:
            return knock(info.hand, card)
        return Action.discard(card)
