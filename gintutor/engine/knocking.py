"""May this hand knock? Knock limit, gin, big gin and the discard that gets there.

A 10-card hand is judged as it is (the discard already made); an 11-card hand (just drawn)
by its best legal discard (RULES.md §4 E10), or as big gin when all 11 cards are melded and
the rule set recognises big gin.

>>> from gintutor.engine.rules import preset
>>> verdict = knock_verdict(CardSet.parse("7C 7D 7S 4H 5H 6H TD JD QD KC"), preset("standard"))
>>> verdict.deadwood, verdict.can_knock, verdict.reason
(10, True, <KnockReason.WITHIN_LIMIT: 'within-limit'>)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from gintutor.engine.cards import Card, CardSet
from gintutor.engine.rules import RuleSet
from gintutor.engine.solver import DiscardOption, best_discards, discard_options, min_deadwood_mask
from gintutor.errors import CardError, IllegalError


class KnockReason(Enum):
    """Why a hand may or may not knock."""

    BIG_GIN = "big-gin"
    """All 11 cards melded after drawing, under rules that recognise big gin."""
    GIN = "gin"
    """No deadwood after the discard."""
    WITHIN_LIMIT = "within-limit"
    """Deadwood at most the knock limit."""
    OVER_LIMIT = "over-limit"
    """Deadwood above the knock limit."""
    GIN_ONLY = "gin-only"
    """The knock limit is 0 (straight gin, an Oklahoma ace): only gin ends the hand."""


def knock_reason(deadwood: int, limit: int, big_gin: bool = False) -> KnockReason:
    """Why a hand with ``deadwood`` (after its discard) may or may not knock under ``limit``.

    >>> knock_reason(0, 10).value, knock_reason(4, 0).value, knock_reason(11, 10).value
    ('gin', 'gin-only', 'over-limit')
    """
    if big_gin:
        return KnockReason.BIG_GIN
    if deadwood == 0:
        return KnockReason.GIN
    if limit == 0:
        return KnockReason.GIN_ONLY
    if deadwood <= limit:
        return KnockReason.WITHIN_LIMIT
    return KnockReason.OVER_LIMIT


@dataclass(frozen=True)
class DiscardVerdict(DiscardOption):
    """One legal discard of an 11-card hand: the least deadwood after it and the knock it allows.

    >>> from gintutor.engine.rules import preset
    >>> verdict = knock_verdict(CardSet.parse("2C 3C 4C 9D TD JD QD 2S 4H 5S 8H"),
    ...                         preset("standard"))
    >>> [(o.card.code, o.deadwood, o.reason.value, o.points_to_shed) for o in verdict.discards[:2]]
    [('8H', 11, 'over-limit', 1), ('5S', 14, 'over-limit', 4)]
    """

    knock_limit: int
    reason: KnockReason

    @property
    def can_knock(self) -> bool:
        """True when this discard leaves a hand that may knock (gin included)."""
        return self.deadwood <= self.knock_limit

    @property
    def gin(self) -> bool:
        """True when this discard leaves no deadwood."""
        return self.deadwood == 0

    @property
    def points_to_shed(self) -> int:
        """Deadwood points above the knock limit after this discard (0 when it may knock)."""
        return max(0, self.deadwood - self.knock_limit)


@dataclass(frozen=True)
class KnockVerdict:
    """Whether a hand may knock, with the numbers behind the answer.

    For 11 cards, ``deadwood`` is after the best legal discard and ``discards`` lists every
    legal discard with the deadwood it leaves and the knock it allows (best first); for 10
    cards ``discards`` is empty.
    """

    deadwood: int
    knock_limit: int
    can_knock: bool
    gin: bool
    big_gin: bool
    reason: KnockReason
    discards: tuple[DiscardVerdict, ...] = ()

    @property
    def best_discards(self) -> tuple[Card, ...]:
        """The discards that leave the least deadwood (none for a 10-card hand or big gin)."""
        return best_discards(self.discards) if self.discards else ()

    @property
    def points_to_shed(self) -> int:
        """How many deadwood points stand between the hand and a knock (0 when it may knock)."""
        return max(0, self.deadwood - self.knock_limit)


def _verdict(
    deadwood: int, limit: int, discards: tuple[DiscardVerdict, ...], big_gin: bool
) -> KnockVerdict:
    return KnockVerdict(
        deadwood=deadwood,
        knock_limit=limit,
        can_knock=deadwood <= limit,
        gin=deadwood == 0,
        big_gin=big_gin,
        reason=knock_reason(deadwood, limit, big_gin),
        discards=discards,
    )


def knock_verdict(
    hand: CardSet,
    rules: RuleSet,
    upcard: Card | None = None,
    taken_from_discard: Card | None = None,
) -> KnockVerdict:
    """Whether ``hand`` (10 cards, or 11 just after drawing) may knock under ``rules``.

    ``upcard`` is the hand's first upcard (Oklahoma's knock limit); ``taken_from_discard`` the
    card just taken from the discard pile, which an 11-card hand may not discard.

    >>> from gintutor.engine.rules import preset
    >>> knock_verdict(CardSet.parse("AS 2S 3S 4S 5S 7C 7D 7H JD QD KD"), preset("standard")).big_gin
    True
    >>> eleven = CardSet.parse("AS 2S 3S 4S 5S 7C 7D 7H JD QD KD")
    >>> classic = knock_verdict(eleven, preset("classic"))
    >>> classic.big_gin, classic.gin, [card.code for card in classic.best_discards]
    (False, True, ['AS', '5S'])
    """
    limit = rules.knock_limit_for(upcard)
    if len(hand) == 10:
        if taken_from_discard is not None and taken_from_discard not in hand:
            raise CardError(
                "{card} was taken from the discard pile but is not in the hand",
                card=taken_from_discard.code,
            )
        return _verdict(min_deadwood_mask(hand.mask), limit, (), False)
    if len(hand) != 11:
        raise CardError("a hand here has 10 or 11 cards, got {count}", count=len(hand))
    options = tuple(
        DiscardVerdict(option.card, option.deadwood, limit, knock_reason(option.deadwood, limit))
        for option in discard_options(hand, taken_from_discard)
    )
    big_gin = rules.big_gin and min_deadwood_mask(hand.mask) == 0
    return _verdict(0 if big_gin else options[0].deadwood, limit, options, big_gin)


def verify_knock(
    hand: CardSet,
    rules: RuleSet,
    upcard: Card | None = None,
    taken_from_discard: Card | None = None,
) -> KnockVerdict:
    """The verdict for a hand that may knock; :class:`IllegalError` saying why it may not."""
    verdict = knock_verdict(hand, rules, upcard, taken_from_discard)
    if not verdict.can_knock:
        if verdict.knock_limit == 0:
            raise IllegalError(
                "these rules allow only gin and the hand has {deadwood} deadwood",
                deadwood=verdict.deadwood,
            )
        raise IllegalError(
            "{deadwood} deadwood is above the knock limit of {limit}: "
            "shed {shed} more points to knock",
            deadwood=verdict.deadwood,
            limit=verdict.knock_limit,
            shed=verdict.points_to_shed,
        )
    return verdict
