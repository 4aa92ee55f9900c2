"""Everything the tutor says about one hand, computed once: melds, knock, discards, showdown.

:func:`analyze` gathers the engine's answers into one frozen record that the explanation, the
JSON output, the lessons and the puzzles all read, so nothing is computed twice or differently.

>>> from gintutor.engine.rules import preset
>>> result = analyze(CardSet.parse("7C 7D 7S 4H 5H 6H TD JD QD KC"), preset("standard"))
>>> result.deadwood, result.verdict.can_knock, [m.text() for m in result.solution.best.melds]
(10, True, ['7C 7D 7S', 'TD JD QD', '4H 5H 6H'])
"""

from __future__ import annotations

from dataclasses import dataclass

from gintutor.engine.cards import Card, CardSet
from gintutor.engine.knocking import KnockReason, KnockVerdict, knock_verdict
from gintutor.engine.melds import MELDS_THROUGH, Meld, MeldKind
from gintutor.engine.rules import RuleSet
from gintutor.engine.showdown import Showdown, showdown, verify_hands
from gintutor.engine.solver import Solution, min_deadwood_mask, solve
from gintutor.errors import CardError


@dataclass(frozen=True)
class MeldChoice:
    """The best a hand can do when one card goes into a given kind of meld."""

    kind: MeldKind
    meld: Meld
    deadwood: int


@dataclass(frozen=True)
class Overlap:
    """A card that fits both a set and a run: the best deadwood with each use of it."""

    card: Card
    as_set: MeldChoice
    as_run: MeldChoice

    @property
    def better(self) -> MeldKind | None:
        """The kind of meld that leaves less deadwood, or ``None`` when both tie."""
        if self.as_set.deadwood == self.as_run.deadwood:
            return None
        return MeldKind.SET if self.as_set.deadwood < self.as_run.deadwood else MeldKind.RUN


def _best_with(hand_mask: int, card: Card, kind: MeldKind) -> MeldChoice | None:
    best: MeldChoice | None = None
    for mask in MELDS_THROUGH[card.index]:
        if mask & hand_mask != mask:
            continue
        meld = Meld(mask)
        if meld.kind is not kind:
            continue
        deadwood = min_deadwood_mask(hand_mask & ~mask)
        if best is None or (deadwood, len(meld)) < (best.deadwood, len(best.meld)):
            best = MeldChoice(kind, meld, deadwood)
    return best


def overlaps(hand: CardSet) -> tuple[Overlap, ...]:
    """The cards of ``hand`` that fit both a set and a run, with the best deadwood either way.

    >>> [(o.card.code, o.as_set.deadwood, o.as_run.deadwood)
    ...  for o in overlaps(CardSet.parse("7C 7D 7H 5H 6H 8H AS 2S 3S KD"))]
    [('7H', 29, 24)]
    """
    found = []
    for card in hand:
        as_set = _best_with(hand.mask, card, MeldKind.SET)
        as_run = _best_with(hand.mask, card, MeldKind.RUN)
        if as_set is not None and as_run is not None:
            found.append(Overlap(card, as_set, as_run))
    return tuple(found)


@dataclass(frozen=True)
class Analysis:
    """The tutor's answers for one hand under one rule set.

    For 11 cards (just drawn) ``kept`` is the hand after the first best discard (all 11 cards
    for big gin) and ``solution`` describes it; for 10 cards ``kept`` is the hand itself.
    """

    hand: CardSet
    rules: RuleSet
    upcard: Card | None
    taken_from_discard: Card | None
    verdict: KnockVerdict
    kept: CardSet
    solution: Solution
    overlaps: tuple[Overlap, ...]
    showdown: Showdown | None
    all_melded: bool
    """True when every card of the hand is melded (for 11 cards: big gin where recognised)."""
    opponent: CardSet | None = None
    """The defender's hand when one was given (the showdown is ``None`` when the hand cannot
    knock: see :attr:`no_showdown`)."""

    @property
    def no_showdown(self) -> KnockReason | None:
        """Why an opponent was given but there is no showdown (the hand may not knock: over the
        limit, or gin only), else ``None``."""
        if self.opponent is None or self.showdown is not None:
            return None
        return self.verdict.reason

    @property
    def deadwood(self) -> int:
        """Least deadwood (11 cards: after the best discard; 0 for big gin)."""
        return self.verdict.deadwood

    @property
    def knock_limit(self) -> int:
        """The knock limit of this hand under the rules (and upcard)."""
        return self.verdict.knock_limit

    @property
    def drawn(self) -> bool:
        """True for an 11-card hand: the player has drawn and must discard (or has big gin)."""
        return len(self.hand) == 11


def analyze(
    hand: CardSet,
    rules: RuleSet,
    *,
    upcard: Card | None = None,
    taken_from_discard: Card | None = None,
    opponent: CardSet | None = None,
) -> Analysis:
    """Analyse a 10- or 11-card hand; with ``opponent`` (10 cards) play out the knock too.

    A hand that may not knock has no showdown, and :attr:`Analysis.no_showdown` says why.

    >>> from gintutor.engine.rules import preset
    >>> result = analyze(CardSet.parse("7C 7D 7S 4H 5H 6H TD JD 2D KC"), preset("standard"),
    ...                  opponent=CardSet.parse("AC 2C 3D 4D 5D 6D 8D 9D KD QH"))
    >>> result.showdown is None, result.no_showdown.value, result.deadwood
    (True, 'over-limit', 32)
    """
    if len(hand) not in (10, 11):
        raise CardError("a hand here has 10 or 11 cards, got {count}", count=len(hand))
    if opponent is not None:
        verify_hands(hand, opponent)
    verdict = knock_verdict(hand, rules, upcard, taken_from_discard)
    if verdict.big_gin or not verdict.discards:
        kept = hand
    else:
        kept = hand - CardSet(verdict.discards[0].card.mask)
    solution = solve(kept)
    result = None
    if opponent is not None and verdict.can_knock:
        result = showdown(hand, opponent, rules, upcard, taken_from_discard)
    return Analysis(
        hand=hand,
        rules=rules,
        upcard=upcard,
        taken_from_discard=taken_from_discard,
        verdict=verdict,
        kept=kept,
        solution=solution,
        overlaps=overlaps(kept),
        showdown=result,
        all_melded=min_deadwood_mask(hand.mask) == 0,
        opponent=opponent,
    )
