"""What every bot needs: legal discards with their deadwood, a spread to knock with, layoffs.

All on int masks (bit = card index) for speed; the bots build :class:`Action` records from them.
"""

from __future__ import annotations

from collections.abc import Sequence

from gintutor.engine.cards import CardSet
from gintutor.engine.hand import NO_CARD, Action, InfoSet, Kind
from gintutor.engine.layoffs import best_defence
from gintutor.engine.melds import MELDS_THROUGH, Meld
from gintutor.engine.solver import arrangements_mask, discard_deadwoods, min_deadwood_mask, packings


def discards(info: InfoSet) -> tuple[tuple[int, int], ...]:
    """``(card, deadwood after discarding it)`` for every legal discard of the 11-card hand."""
    forbidden = 0 if info.taken == NO_CARD else 1 << info.taken
    return discard_deadwoods(info.hand, forbidden)


def least_deadwood(options: Sequence[tuple[int, int]]) -> tuple[int, list[int]]:
    """The least deadwood among ``options`` and every card that reaches it."""
    best = min(deadwood for _, deadwood in options)
    return best, [card for card, deadwood in options if deadwood == best]


def best_spread(hand: int) -> tuple[int, ...]:
    """The melds of the first least-deadwood arrangement of ``hand`` (canonical order)."""
    arrangement = arrangements_mask(hand, min_deadwood_mask(hand))[0]
    return tuple(meld.mask for meld in arrangement.melds)


def knock(hand: int, card: int) -> Action:
    """Knock discarding ``card`` with the least-deadwood spread of the rest."""
    return Action.knock(card, best_spread(hand ^ 1 << card))


def big_gin(info: InfoSet) -> Action | None:
    """Big gin when the rules recognise it and all 11 cards meld, else ``None``."""
    if not info.rules.big_gin or min_deadwood_mask(info.hand):
        return None
    melds, _ = packings(info.hand, 0)[0]
    return Action(Kind.BIG_GIN, NO_CARD, tuple(sorted(melds)))


def best_layoffs(info: InfoSet) -> Action:
    """The defence that leaves the least deadwood (own melds and layoffs chosen together)."""
    defence = best_defence(CardSet(info.hand), [Meld(m) for m in info.spread])
    return Action(Kind.LAY_OFF, layoffs=defence.laid_off.mask)


def melds_with(hand: int, card: int) -> bool:
    """True when ``card`` would be in some meld with cards of ``hand``."""
    held = hand | 1 << card
    return any(meld & held == meld for meld in MELDS_THROUGH[card])
