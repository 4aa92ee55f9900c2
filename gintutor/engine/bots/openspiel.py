"""``openspiel``: OpenSpiel's ``simple_gin_rummy_bot``.

Takes the upcard if it then can knock or the card lands in a least-deadwood meld group of the
11 cards; discards the highest-ranked deadwood card of that group; knocks as soon as it may,
spreading a least-deadwood group; as the defender, never lays off.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gintutor.engine.bots.common import big_gin, discards, knock, least_deadwood
from gintutor.engine.hand import NO_CARD, Action, InfoSet, Kind, Phase
from gintutor.engine.solver import arrangements_mask, best_discard_deadwood_mask, min_deadwood_mask

_RANKS = 13


def best_group_deadwood(hand: int) -> int:
    """The unmelded cards of the first least-deadwood meld group of all of ``hand``."""
    arrangement = arrangements_mask(hand, min_deadwood_mask(hand))[0]
    return arrangement.deadwood_cards.mask


def highest_rank(mask: int) -> int:
    """The card of ``mask`` with the highest rank (then the highest suit), or ``NO_CARD``."""
    best, key = NO_CARD, (-1, -1)
    while mask:
        low = mask & -mask
        mask ^= low
        card = low.bit_length() - 1
        if (card % _RANKS, card // _RANKS) > key:
            best, key = card, (card % _RANKS, card // _RANKS)
    return best


@dataclass(frozen=True)
class OpenSpielBot:
    """OpenSpiel's simple gin rummy bot."""

    name: str = "openspiel"

    def act(self, info: InfoSet, rng: random.Random) -> Action:
        """Upcard if it knocks or melds; highest deadwood card out; knock at once; no layoffs."""
        if info.phase is Phase.DEFEND:
            return Action(Kind.LAY_OFF)
        if info.phase in (Phase.OFFER, Phase.DRAW):
            legal = info.legal_actions()
            take = Action(Kind.TAKE)
            top = info.top
            if take in legal and top != NO_CARD:
                eleven = info.hand | 1 << top
                if (
                    best_discard_deadwood_mask(eleven) <= info.knock_limit
                    or not best_group_deadwood(eleven) >> top & 1
                ):
                    return take
            return legal[0]
        big = big_gin(info)
        if big is not None:
            return big
        options = discards(info)
        legal_cards = {card for card, _ in options}
        deadwood_cards = best_group_deadwood(info.hand)
        card = highest_rank(deadwood_cards & sum(1 << c for c in legal_cards))
        best, cards = least_deadwood(options)
        if card == NO_CARD:
            card = cards[0]
        if best <= info.knock_limit:
            after = dict(options)[card]
            return knock(info.hand, card if after <= info.knock_limit else cards[0])
        return Action.discard(card)
