"""The showdown after a knock: the knocker's spread, the defender's melds and layoffs, the score.

Every legal spread of the knocker (every discard of an 11-card hand, every arrangement with
deadwood within the knock limit, big gin where recognised) is played against this defender's
best defence, and the knocker takes the one that scores best for them; ties go to the lower
knocker deadwood, then to the canonical order (RULES.md §4 E2). When a least-deadwood spread
scores less than the one chosen (the knocker holds a meld card back, or melds it elsewhere, to
block layoffs), the showdown keeps it as a :class:`RejectedSpread` with the numbers why.

>>> from gintutor.engine.rules import preset
>>> result = showdown(
...     CardSet.parse("4H 5H 6H 5C 5D 9S TS JS QS KS"),
...     CardSet.parse("3H 7H 8H 2C 3C 4D 8D 9C JD KD"),
...     preset("standard"),
... )
>>> [meld.text() for meld in result.spread.melds], result.outcome.value, result.points
(['5C 5D 5H', '9S TS JS QS KS'], 'knock', 54)
>>> rejected = result.rejected[0]
>>> [m.text() for m in rejected.spread.melds], rejected.laid_off.text(), rejected.points_lost
(['4H 5H 6H', '9S TS JS QS KS'], '3H 7H 8H', 18)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from gintutor.engine.cards import Card, CardSet
from gintutor.engine.layoffs import Defence, best_defence
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import HandScore, Outcome, Side, score_hand
from gintutor.engine.solver import Arrangement, arrangements_mask, min_deadwood_mask
from gintutor.errors import CardError, IllegalError


@dataclass(frozen=True)
class SpreadOutcome:
    """One legal way for the knocker to end the hand, and what it scores against this defender.

    ``discard`` is the card discarded from an 11-card hand (``None`` for a 10-card hand or big
    gin).
    """

    discard: Card | None
    spread: Arrangement
    defence: Defence
    score: HandScore

    def sort_key(self) -> tuple[object, ...]:
        """Best for the knocker first: net points, then lower knocker deadwood, then canonical."""
        return (
            -self.score.knocker_net,
            self.spread.deadwood,
            -1 if self.discard is None else self.discard.index,
            self.spread.sort_key(),
        )


class RejectReason(Enum):
    """Why the knocker turns down a spread that leaves the least deadwood."""

    LAYOFFS = "layoffs"
    """Against it the defender keeps less deadwood (by laying off more), so the knocker
    scores less."""
    UNDERCUT = "undercut"
    """Against it the defender's layoffs turn the knock into an undercut."""


@dataclass(frozen=True)
class RejectedSpread:
    """A least-deadwood spread (and discard) the knocker does not make, with the numbers why.

    ``outcome`` is what it would score against this defender; ``points_lost`` how much less
    than the chosen spread it is worth to the knocker (always more than 0); ``held_back`` the
    cards it melds that the chosen spread leaves unmelded (the cards held back to block
    layoffs); ``extra_deadwood`` how much more deadwood the chosen spread keeps than it.
    """

    outcome: SpreadOutcome
    reason: RejectReason
    points_lost: int
    held_back: CardSet
    extra_deadwood: int

    @property
    def discard(self) -> Card | None:
        """The discard it goes with (11-card hands), else ``None``."""
        return self.outcome.discard

    @property
    def spread(self) -> Arrangement:
        """Its melds and deadwood."""
        return self.outcome.spread

    @property
    def defence(self) -> Defence:
        """The defender's best answer to it."""
        return self.outcome.defence

    @property
    def laid_off(self) -> CardSet:
        """The cards the defender would lay off on it."""
        return self.outcome.defence.laid_off

    @property
    def score(self) -> HandScore:
        """What it would score."""
        return self.outcome.score


def _rejected(chosen: SpreadOutcome, outcomes: list[SpreadOutcome]) -> tuple[RejectedSpread, ...]:
    """The least-deadwood spreads that score less than ``chosen``, in the order an analysis
    lists them (discard by card order, then arrangement); none when ``chosen`` is big gin."""
    if chosen.score.outcome is Outcome.BIG_GIN:
        return ()
    plain = [o for o in outcomes if o.score.outcome is not Outcome.BIG_GIN]
    least = min(o.spread.deadwood for o in plain)
    net = chosen.score.knocker_net
    found = []
    for other in plain:
        if other.spread.deadwood != least or other.score.knocker_net >= net:
            continue
        undercut = other.score.outcome is Outcome.UNDERCUT
        reason = (
            RejectReason.UNDERCUT
            if undercut and chosen.score.outcome is not Outcome.UNDERCUT
            else RejectReason.LAYOFFS
        )
        held_back = chosen.spread.deadwood_cards & other.spread.melded
        extra = chosen.spread.deadwood - least
        found.append(RejectedSpread(other, reason, net - other.score.knocker_net, held_back, extra))
    found.sort(key=lambda r: (-1 if r.discard is None else r.discard.index, r.spread.sort_key()))
    return tuple(found)


@dataclass(frozen=True)
class Showdown:
    """The whole end of a hand after a knock; ``chosen`` is the knocker's best spread.

    ``outcomes`` holds every legal spread considered, best for the knocker first, so a teacher
    can show what another spread would have let the defender lay off. ``rejected`` holds the
    spreads leaving the least deadwood (:attr:`least_deadwood`) that score less than the one
    chosen, with the reasons; it is empty when the plain least-deadwood spread is best.
    """

    knocker_hand: CardSet
    defender_hand: CardSet
    rules: RuleSet
    knock_limit: int
    multiplier: int
    outcomes: tuple[SpreadOutcome, ...]
    rejected: tuple[RejectedSpread, ...] = ()

    @property
    def chosen(self) -> SpreadOutcome:
        """The spread the knocker should make."""
        return self.outcomes[0]

    @property
    def discard(self) -> Card | None:
        """The knocker's discard (11-card hands), ``None`` otherwise or for big gin."""
        return self.chosen.discard

    @property
    def spread(self) -> Arrangement:
        """The knocker's melds and deadwood as spread."""
        return self.chosen.spread

    @property
    def defence(self) -> Defence:
        """The defender's melds, layoffs and deadwood."""
        return self.chosen.defence

    @property
    def score(self) -> HandScore:
        """The hand's score, item by item."""
        return self.chosen.score

    @property
    def outcome(self) -> Outcome:
        """Knock, undercut, gin or big gin."""
        return self.score.outcome

    @property
    def winner(self) -> Side:
        """Who scores the hand."""
        return self.score.winner

    @property
    def points(self) -> int:
        """The winner's points."""
        return self.score.points

    @property
    def least_deadwood(self) -> int:
        """The least deadwood the knocker can spread (after the best discard; 0 for big gin)."""
        return min(outcome.spread.deadwood for outcome in self.outcomes)


def _outcome(
    discard: Card | None,
    spread: Arrangement,
    defender: CardSet,
    rules: RuleSet,
    multiplier: int,
    big_gin: bool,
    no_layoffs: Defence,
) -> SpreadOutcome:
    # No one lays off after gin or big gin (RULES.md §1).
    defence = no_layoffs if spread.deadwood == 0 else best_defence(defender, spread.melds)
    score = score_hand(
        spread.deadwood, defence.deadwood, rules, big_gin=big_gin, multiplier=multiplier
    )
    return SpreadOutcome(discard, spread, defence, score)


def verify_hands(knocker: CardSet, defender: CardSet) -> None:
    """Raise :class:`CardError` unless knocker (10 or 11 cards) and defender (10) are disjoint."""
    if len(knocker) not in (10, 11):
        raise CardError("the knocker's hand has 10 or 11 cards, got {count}", count=len(knocker))
    if len(defender) != 10:
        raise CardError("the defender's hand has 10 cards, got {count}", count=len(defender))
    shared = knocker & defender
    if shared:
        first = next(iter(shared))
        raise CardError("{card} is in both hands", card=first.code)


def showdown(
    knocker: CardSet,
    defender: CardSet,
    rules: RuleSet,
    upcard: Card | None = None,
    taken_from_discard: Card | None = None,
) -> Showdown:
    """Play out a knock: the knocker's best spread against the defender's best defence.

    ``knocker`` has 10 cards (discard made) or 11 (the engine chooses the discard, or big gin);
    ``taken_from_discard`` may not be discarded. :class:`IllegalError` if the knocker may not
    knock at all.
    """
    verify_hands(knocker, defender)
    if taken_from_discard is not None and taken_from_discard not in knocker:
        raise CardError(
            "{card} was taken from the discard pile but is not in the hand",
            card=taken_from_discard.code,
        )
    limit = rules.knock_limit_for(upcard)
    multiplier = rules.multiplier_for(upcard)
    no_layoffs = best_defence(defender, ())
    outcomes: list[SpreadOutcome] = []
    hands: list[tuple[Card | None, CardSet]]
    if len(knocker) == 11:
        if rules.big_gin and min_deadwood_mask(knocker.mask) == 0:
            for spread in arrangements_mask(knocker.mask, 0):
                outcomes.append(
                    _outcome(None, spread, defender, rules, multiplier, True, no_layoffs)
                )
        hands = [
            (card, knocker - CardSet(card.mask)) for card in knocker if card != taken_from_discard
        ]
    else:
        hands = [(None, knocker)]
    best_deadwood = min(min_deadwood_mask(hand.mask) for _, hand in hands)
    if best_deadwood > limit and not outcomes:
        if limit == 0:
            raise IllegalError(
                "{rules} rules allow only gin here and the best is {deadwood} deadwood",
                rules=rules.name,
                deadwood=best_deadwood,
            )
        raise IllegalError(
            "{deadwood} deadwood is above the knock limit of {limit}: this hand cannot knock",
            deadwood=best_deadwood,
            limit=limit,
        )
    for discard, hand in hands:
        for spread in arrangements_mask(hand.mask, limit):
            outcomes.append(
                _outcome(discard, spread, defender, rules, multiplier, False, no_layoffs)
            )
    outcomes.sort(key=SpreadOutcome.sort_key)
    rejected = _rejected(outcomes[0], outcomes)
    return Showdown(knocker, defender, rules, limit, multiplier, tuple(outcomes), rejected)
