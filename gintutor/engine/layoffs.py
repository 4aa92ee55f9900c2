"""Layoffs: the defender's deadwood laid off onto the knocker's melds.

A 3-card set takes its missing fourth card; a 4-card set takes nothing; a run takes cards
extending it at either end, chaining (8♥ then 9♥ onto 5♥6♥7♥). The defender chooses their own
melds and their layoffs together to leave the least deadwood (RULES.md §4 E5), so every
combination of layoffs is tried, each followed by the solver on the cards left.

>>> knocker = [Meld.parse("5H 6H 7H")]
>>> defence = best_defence(CardSet.parse("4H 8H 9H KS KD 2C 3D 9S JC QD"), knocker)
>>> [layoff.card.code for layoff in defence.layoffs], defence.deadwood
(['4H', '8H', '9H'], 54)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gintutor.engine.cards import CARDS, RANK_MASKS, SUIT_BITS, Card, CardSet, bit_index
from gintutor.engine.melds import Meld
from gintutor.engine.solver import Arrangement, arrangements_mask, min_deadwood_mask

_DECK_LOW_RANK = 0
_DECK_HIGH_RANK = SUIT_BITS - 1
DEADWOOD_CEILING = 1000
"""More than any hand's deadwood."""


@dataclass(frozen=True)
class Layoff:
    """One card laid off onto one of the knocker's melds (``onto``, as the knocker spread it).

    ``after`` is the card laid off just before it that it chains onto (8♥ after 7♥... onto
    4♥5♥6♥), or ``None`` when the card fits the meld as spread. A chained layoff always comes
    after the layoff it chains onto.
    """

    card: Card
    onto: Meld
    after: Card | None = None

    @property
    def chained(self) -> bool:
        """True when the card fits only because of an earlier layoff (RULES.md §4 E3)."""
        return self.after is not None


def layoff_chains(meld: int, cards: int) -> list[list[int]]:
    """The layoff chains onto the meld ``meld`` (a mask) from ``cards``, as lists of card masks.

    A set gives at most one chain of one card; a run gives two: going down from its low end
    and up from its high end, each in the order the cards must be laid off. The one routine
    for the exact defence and the bots' playouts (ints only: it runs inside every rollout).

    >>> run = Meld.parse("5H 6H 7H").mask
    >>> chains = layoff_chains(run, CardSet.parse("4H 8H 9H 3H").mask)
    >>> [[CardSet(m).text() for m in chain] for chain in chains]
    [['4H', '3H'], ['8H', '9H']]
    """
    low = meld & -meld
    if not meld & (meld >> 1):  # no two cards of one suit in a row: a set
        if meld.bit_count() == 4:
            return []
        missing = RANK_MASKS[bit_index(low) % SUIT_BITS] & ~meld
        return [[missing]] if cards & missing else []
    high = 1 << (meld.bit_length() - 1)
    down: list[int] = []
    bit = low
    while (bit.bit_length() - 1) % SUIT_BITS > _DECK_LOW_RANK and cards & (bit >> 1):
        bit >>= 1
        down.append(bit)
    up: list[int] = []
    bit = high
    while (bit.bit_length() - 1) % SUIT_BITS < _DECK_HIGH_RANK and cards & (bit << 1):
        bit <<= 1
        up.append(bit)
    return [chain for chain in (down, up) if chain]


def defence_deadwood(defender: int, spread: Sequence[int]) -> int:
    """The defender's least deadwood after its best layoffs onto ``spread`` (meld masks): the
    int path of :func:`best_defence`, for rollouts.

    >>> defence_deadwood(CardSet.parse("4H 8H 9H KS KD 2C 3D 9S JC QD").mask,
    ...                  [Meld.parse("5H 6H 7H").mask])
    54
    """
    options: list[list[int]] = []
    for meld in spread:
        for chain in layoff_chains(meld, defender):
            prefixes = [0]
            laid = 0
            for bit in chain:
                laid |= bit
                prefixes.append(laid)
            options.append(prefixes)
    if not options:
        return min_deadwood_mask(defender)
    best = DEADWOOD_CEILING  # the empty plan (every prefix 0) is among the combinations
    for combo in itertools.product(*options):
        laid = 0
        for part in combo:
            if laid & part:
                break
            laid |= part
        else:
            best = min(best, min_deadwood_mask(defender & ~laid))
    return best


@dataclass(frozen=True)
class Defence:
    """The defender's best answer to a knock: own melds, layoffs, and the deadwood left."""

    arrangement: Arrangement
    layoffs: tuple[Layoff, ...]

    @property
    def melds(self) -> tuple[Meld, ...]:
        """The defender's own melds."""
        return self.arrangement.melds

    @property
    def deadwood_cards(self) -> CardSet:
        """The defender's cards neither melded nor laid off."""
        return self.arrangement.deadwood_cards

    @property
    def deadwood(self) -> int:
        """The defender's deadwood count after layoffs."""
        return self.arrangement.deadwood

    @property
    def laid_off(self) -> CardSet:
        """All the cards laid off."""
        return CardSet.from_cards(layoff.card for layoff in self.layoffs)

    @property
    def laid_off_points(self) -> int:
        """The points the layoffs took out of the defender's deadwood count."""
        return self.laid_off.points


def layoff_plans(defender_mask: int, spread: Sequence[Meld]) -> Iterable[tuple[Layoff, ...]]:
    """Every legal combination of layoffs: for each chain, any prefix; no card used twice.

    Within a chain each card after the first is laid off after (and chains onto) the one
    before it.
    """
    per_chain: list[list[tuple[Layoff, ...]]] = []
    for meld in spread:
        for chain in layoff_chains(meld.mask, defender_mask):
            cards = [CARDS[bit_index(bit)] for bit in chain]
            layoffs = tuple(
                Layoff(card, meld, cards[n - 1] if n else None) for n, card in enumerate(cards)
            )
            per_chain.append([layoffs[:n] for n in range(len(layoffs) + 1)])
    for combination in itertools.product(*per_chain):
        plan = tuple(layoff for prefix in combination for layoff in prefix)
        cards = [layoff.card for layoff in plan]
        if len(set(cards)) == len(cards):
            yield plan


def best_defence(defender: CardSet, spread: Sequence[Meld]) -> Defence:
    """The defender's melds and layoffs that leave the least deadwood against ``spread``.

    Ties go to the plan with the fewest layoffs (the defender's own melds first), then to the
    canonical order, so the answer is deterministic.
    """
    best: tuple[int, int, tuple[Layoff, ...]] | None = None
    for plan in layoff_plans(defender.mask, spread):
        deadwood = min_deadwood_mask(defender.mask & ~_laid_mask(plan))
        key = (deadwood, len(plan))
        if best is None or key < best[:2]:
            best = (deadwood, len(plan), plan)
    assert best is not None  # the empty plan is always there
    return _defence(defender.mask, best[2])


def _laid_mask(plan: Iterable[Layoff]) -> int:
    laid = 0
    for layoff in plan:
        laid |= layoff.card.mask
    return laid


def _defence(defender_mask: int, plan: tuple[Layoff, ...]) -> Defence:
    """The defence that makes these layoffs and melds the rest as well as possible."""
    rest = defender_mask & ~_laid_mask(plan)
    return Defence(arrangements_mask(rest, min_deadwood_mask(rest))[0], plan)


def layoff_plan(defender: CardSet, spread: Sequence[Meld], cards: CardSet) -> Defence | None:
    """The defence that lays off exactly ``cards`` (in a legal order), or ``None`` if illegal.

    The defender's other cards are melded to leave the least deadwood.

    >>> plan = layoff_plan(CardSet.parse("4H 8H 9H 2C 5D 9S JC QD KS KD"),
    ...                    [Meld.parse("5H 6H 7H")], CardSet.parse("9H 8H"))
    >>> [layoff.card.code for layoff in plan.layoffs], plan.deadwood
    (['8H', '9H'], 60)
    >>> layoff_plan(CardSet.parse("4H 8H 9H 2C 5D 9S JC QD KS KD"),
    ...             [Meld.parse("5H 6H 7H")], CardSet.parse("9H")) is None
    True
    """
    for plan in layoff_plans(defender.mask, spread):
        if _laid_mask(plan) == cards.mask:
            return _defence(defender.mask, plan)
    return None
