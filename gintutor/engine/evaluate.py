"""Exact evaluation of every legal discard of a position, under a stated model of hidden cards.

Model: the unseen cards U are all cards but mine, the dead cards (discard pile and any seen out
of play) and those the opponent is known to hold; the opponent's hidden cards are a uniformly
random subset of U, and the stock is the rest of U in random order. So the next card I draw
from the stock is uniform over U, and my second draw uniform over U less my first.

For each legal discard the evaluator gives, exactly under that model: the deadwood now and
whether a knock is legal; the outs for the next draw (what each does); the expected deadwood
after one draw (with the best re-discard); the chance to be able to knock after the next draw
and within two draws (drawing from the stock, discarding to minimise deadwood, ties broken by
the better chance on the next draw); the chance the opponent can meld the discard now; and the
live and dead cards for my pairs.

>>> from gintutor.engine.rules import preset
>>> position = Position(CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 5D 8S KS"), preset("standard"))
>>> best = evaluate(position).best("deadwood")
>>> [option.card.code for option in best], best[0].deadwood
(['KS'], 8)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from gintutor.engine.cards import (
    CARD_POINTS,
    CARDS,
    DECK_MASK,
    SUIT_BITS,
    SUIT_MASK,
    Card,
    CardSet,
    iter_bits,
)
from gintutor.engine.melds import MELD_MASKS, Meld
from gintutor.engine.rules import RuleSet
from gintutor.engine.solver import best_discard_deadwood_mask, min_deadwood_mask, solve
from gintutor.errors import CardError

if TYPE_CHECKING:
    from gintutor.engine.solver import Arrangement

HAND_SIZE = 10
SUIT_SHIFTS = range(0, 4 * SUIT_BITS, SUIT_BITS)
"""Where each suit's 13 bits start in a hand mask (clubs, diamonds, hearts, spades)."""


@dataclass(frozen=True)
class Position:
    """A decision point: my hand after drawing (11 cards) and what I know of the rest.

    ``first_upcard`` is the hand's first upcard (Oklahoma's knock limit), ``took_from_discard``
    the card just taken from the discard pile (it may not be discarded), ``dead`` the cards out
    of play (the discard pile and any seen), ``opponent_known`` the cards the opponent is known
    to hold (picked up and not discarded), ``stock_size`` the cards left in the stock.
    """

    hand: CardSet
    rules: RuleSet
    took_from_discard: Card | None = None
    dead: CardSet = field(default_factory=lambda: CardSet(0))
    opponent_known: CardSet = field(default_factory=lambda: CardSet(0))
    stock_size: int | None = None
    first_upcard: Card | None = None
    upcard: Card | None = None
    """For an upcard decision (10-card hand): the card offered on the discard pile."""

    @property
    def unseen(self) -> CardSet:
        """U: the cards not mine, not dead, not the upcard offered, not known in the other hand."""
        seen = self.hand.mask | self.dead.mask | self.opponent_known.mask
        if self.upcard is not None:
            seen |= self.upcard.mask
        return CardSet(DECK_MASK & ~seen)

    @property
    def hidden_count(self) -> int:
        """How many of the opponent's 10 cards are unknown."""
        return HAND_SIZE - len(self.opponent_known)

    @property
    def knock_limit(self) -> int:
        """The knock limit of this hand."""
        return self.rules.knock_limit_for(self.first_upcard)


def verify_position(position: Position) -> None:
    """Raise :class:`CardError` unless the position could occur: no card twice, counts add up."""
    groups = [
        ("hand", position.hand),
        ("dead", position.dead),
        ("opponent_known", position.opponent_known),
    ]
    if position.upcard is not None:
        groups.append(("upcard", CardSet(position.upcard.mask)))
    seen = 0
    for name, cards in groups:
        clash = seen & cards.mask
        if clash:
            card = next(iter(CardSet(clash)))
            raise CardError("{card} appears twice (again in {name})", card=card.code, name=name)
        seen |= cards.mask
    expected = 10 if position.upcard is not None else 11
    if len(position.hand) != expected:
        raise CardError(
            "the hand has {count} cards: expected {expected}",
            count=len(position.hand),
            expected=expected,
        )
    if len(position.opponent_known) > HAND_SIZE:
        raise CardError(
            "the opponent holds 10 cards, not {count} known", count=len(position.opponent_known)
        )
    if position.took_from_discard is not None and position.took_from_discard not in position.hand:
        raise CardError(
            "{card} was taken from the discard pile but is not in the hand",
            card=position.took_from_discard.code,
        )
    if position.stock_size is not None:
        total = seen.bit_count() + position.hidden_count + position.stock_size
        if total != 52:
            raise CardError(
                "the cards do not add up to 52: {placed} placed + {hidden} hidden in the "
                "opponent's hand + stock {stock} = {total}",
                placed=seen.bit_count(),
                hidden=position.hidden_count,
                stock=position.stock_size,
                total=total,
            )
    if position.stock_size is not None and position.stock_size < 0:
        raise CardError("the stock cannot hold fewer than 0 cards")


class OutKind(Enum):
    """What drawing a card does for the hand."""

    GIN = "gin"
    KNOCK = "knock"
    MELD = "meld"


@dataclass(frozen=True)
class Out:
    """A card whose draw melds and lowers my deadwood: the new meld and the re-discard."""

    card: Card
    deadwood: int
    """Deadwood after drawing it and making the best discard."""
    meld: Meld
    """The meld the card joins in the best arrangement after the draw."""
    extends: bool
    """True when the meld grows one I already had (a run extended, a set made four)."""
    then_discard: Card
    kind: OutKind


@dataclass(frozen=True)
class Pair:
    """Two unmelded cards of mine waiting for a third, and which completing cards are still live."""

    cards: tuple[Card, Card]
    needs: tuple[Card, ...]
    live: tuple[Card, ...]
    """Needed cards that are unseen: they could still come."""
    mine: tuple[Card, ...] = ()
    """Needed cards already in my hand, in another meld (a rearrangement could use them)."""
    dead: tuple[Card, ...] = ()
    """Needed cards in the discard pile or known to be in the opponent's hand."""


@dataclass(frozen=True)
class DiscardEval:
    """Everything exact about one legal discard."""

    card: Card
    deadwood: int
    can_knock: bool
    outs: tuple[Out, ...]
    knock_outs: tuple[Card, ...]
    gin_outs: tuple[Card, ...]
    expected_deadwood_next: float
    p_knock_next: float
    p_knock_within_2: float
    p_opponent_melds: float
    pairs: tuple[Pair, ...]

    def measure(self, theme: str) -> float:
        """The number a theme ranks discards by (lower is better).

        ``deadwood``: deadwood now; ``outs``: minus the chance to knock within two draws;
        ``safety``: the chance the opponent can meld the discard; ``improvement``: the
        expected deadwood after the next draw.
        """
        if theme == "deadwood":
            return float(self.deadwood)
        if theme == "outs":
            return -self.p_knock_within_2
        if theme == "safety":
            return self.p_opponent_melds
        if theme == "improvement":
            return self.expected_deadwood_next
        raise ValueError(f"no exact measure for theme {theme!r}")


@dataclass(frozen=True)
class Evaluation:
    """The evaluation of every legal discard of a position, in card order."""

    position: Position
    unseen: CardSet
    options: tuple[DiscardEval, ...]

    def ranked(self, theme: str) -> tuple[DiscardEval, ...]:
        """The options best first by the theme's measure (ties: lower deadwood, card order)."""
        return tuple(
            sorted(
                self.options, key=lambda e: (round(e.measure(theme), 9), e.deadwood, e.card.index)
            )
        )

    def best(self, theme: str, tolerance: float = 0.0) -> tuple[DiscardEval, ...]:
        """The options within ``tolerance`` of the best measure for the theme."""
        ranked = self.ranked(theme)
        top = ranked[0].measure(theme)
        return tuple(e for e in ranked if e.measure(theme) <= top + tolerance + 1e-9)

    def option(self, card: Card) -> DiscardEval:
        """The evaluation of discarding ``card``."""
        for option in self.options:
            if option.card == card:
                return option
        raise CardError("{card} is not a legal discard here", card=card.code)


def reach_mask(mask: int) -> int:
    """The cards that make a 3-card meld with two cards of ``mask``.

    A card drawn outside it melds in no arrangement of the hand with it (any longer meld through
    it holds a 3-card one), so it stays deadwood whatever is discarded.

    >>> CardSet(reach_mask(CardSet.parse("5H 6H 9C 9D").mask)).text()
    '4H 7H 9H 9S'
    """
    suits = [mask >> shift & SUIT_MASK for shift in SUIT_SHIFTS]
    pairs = seen = 0  # the ranks held twice or more
    for suit in suits:
        pairs |= seen & suit
        seen |= suit
    reach = 0
    for shift, suit in zip(SUIT_SHIFTS, suits, strict=True):
        up = suit << 1  # the rank below is held
        down = suit >> 1  # the rank above is held
        reach |= (pairs | (up & suit << 2 | up & down | down & suit >> 2) & SUIT_MASK) << shift
    return reach & ~mask


class _Cache:
    """Memoised solver calls on masks (the evaluation makes tens of thousands).

    A 10-card hand's draws mostly add a card that melds with nothing in it (outside
    :func:`reach_mask`); that card is deadwood in every arrangement, so the least deadwood
    after the draw and the best discard is min(D, points + B), D the hand's least deadwood and
    B its least after discarding one card: no solver call per such draw.
    """

    def __init__(self) -> None:
        self._least = min_deadwood_mask
        self._least_after_discard = best_discard_deadwood_mask
        self.ten: dict[int, int] = {}
        self.eleven: dict[int, int] = {}
        self.hands: dict[int, tuple[int, int, int]] = {}

    def deadwood(self, mask: int) -> int:
        found = self.ten.get(mask)
        if found is None:
            found = self.ten[mask] = self._least(mask)
        return found

    def best_after_draw(self, mask: int) -> int:
        """Least deadwood of an 11-card mask after the best discard (any card)."""
        found = self.eleven.get(mask)
        if found is None:
            found = self.eleven[mask] = self._least_after_discard(mask)
        return found

    def hand(self, hand10: int) -> tuple[int, int, int]:
        """``(D, B, reach)`` of a 10-card hand: see the class docstring."""
        found = self.hands.get(hand10)
        if found is None:
            found = self.hands[hand10] = (
                self.deadwood(hand10),
                self._least_after_discard(hand10),
                reach_mask(hand10),
            )
        return found

    def after_draw(self, hand10: int, card: int) -> int:
        """Least deadwood of ``hand10`` plus ``card`` after the best discard (any card)."""
        now, least, reach = self.hand(hand10)
        if card & reach:
            return self.best_after_draw(hand10 | card)
        drawn = CARD_POINTS[card.bit_length() - 1] + least
        return now if now < drawn else drawn


def _p_knock_next(cache: _Cache, hand10: int, unseen: list[int], limit: int, skip: int = 0) -> int:
    """How many unseen cards (other than ``skip``) let ``hand10`` knock after drawing them."""
    now, least, reach = cache.hand(hand10)
    if now <= limit:
        return sum(1 for card in unseen if card != skip)
    # A card outside the reach lets the hand knock when its points plus B are within the limit.
    room = limit - least
    count = 0
    for card in unseen:
        if card == skip:
            continue
        if card & reach:
            if cache.best_after_draw(hand10 | card) <= limit:
                count += 1
        elif CARD_POINTS[card.bit_length() - 1] <= room:
            count += 1
    return count


def _two_draws(cache: _Cache, hand10: int, unseen: list[int], limit: int) -> float:
    """P(able to knock within two stock draws), discarding to minimise deadwood each time."""
    if len(unseen) < 2:
        return float(_p_knock_next(cache, hand10, unseen, limit) / max(len(unseen), 1))
    now, _, reach = cache.hand(hand10)
    # After a first card outside the reach, discarding another card x leaves that card's
    # points plus the least deadwood of hand10 without x (computed once, not per first card).
    without = {x: cache.deadwood(hand10 ^ x) for x in iter_bits(hand10)}
    total = 0.0
    for first in unseen:
        eleven = hand10 | first
        if first & reach:
            after = {x: cache.deadwood(eleven ^ x) for x in iter_bits(eleven)}
        else:
            points = CARD_POINTS[first.bit_length() - 1]
            after = {x: points + value for x, value in without.items()}
            after[first] = now
        least = min(after.values())
        if least <= limit:
            total += 1.0
            continue
        best_count = max(
            _p_knock_next(cache, eleven ^ x, unseen, limit, skip=first)
            for x, value in after.items()
            if value == least
        )
        total += best_count / (len(unseen) - 1)
    return total / len(unseen)


def _partner_pairs(card: int) -> list[int]:
    """Masks of the two-card groups that make a 3-card meld with ``card``."""
    return [meld ^ card for meld in MELD_MASKS if meld & card and meld.bit_count() == 3]


def p_opponent_melds(card: Card, position: Position, my_hand: int) -> float:
    """P(the opponent holds two cards that make a meld with ``card``), exact by inclusion-exclusion.

    Known cards in the opponent's hand count as held; cards that are mine or dead cannot be.
    """
    known = position.opponent_known.mask
    blocked = (my_hand | position.dead.mask) & ~known
    unseen_count = len(position.unseen)
    hidden = position.hidden_count
    needs = []
    for pair in _partner_pairs(card.mask):
        if pair & blocked:
            continue
        unknown = pair & ~known
        if not unknown:
            return 1.0
        needs.append(unknown)
    if not needs or hidden == 0:
        return 0.0

    def p_all(mask: int) -> float:
        size = mask.bit_count()
        if size > hidden:
            return 0.0
        return comb(unseen_count - size, hidden - size) / comb(unseen_count, hidden)

    total = 0.0
    for size in range(1, len(needs) + 1):
        for group in combinations(needs, size):
            union = 0
            for mask in group:
                union |= mask
            total += (-1) ** (size + 1) * p_all(union)
    return total


def _pairs(hand10: int, arrangement: Arrangement, unseen_mask: int) -> tuple[Pair, ...]:
    """My unmelded cards that pair up (same rank, or a run gap of one or two), with live cards."""
    loose = [card for card in arrangement.deadwood_cards]
    found = []
    for a, b in combinations(loose, 2):
        needs: list[Card] = []
        if a.rank is b.rank:
            needs = [c for c in CARDS if c.rank is a.rank and c not in (a, b)]
        elif a.suit is b.suit and abs(a.rank.number - b.rank.number) in (1, 2):
            low, high = sorted((a.rank.number, b.rank.number))
            wanted = [low + 1] if high - low == 2 else [low - 1, high + 1]
            needs = [CARDS[a.suit.index * SUIT_BITS + r - 1] for r in wanted if 1 <= r <= SUIT_BITS]
        if needs:
            live = tuple(c for c in needs if unseen_mask & c.mask)
            mine = tuple(c for c in needs if hand10 & c.mask)
            dead = tuple(c for c in needs if c not in live and c not in mine)
            found.append(Pair((a, b), tuple(needs), live, mine, dead))
    return tuple(found)


def _outs(
    cache: _Cache, hand10: int, before: Arrangement, unseen: list[int], limit: int, now: int
) -> tuple[tuple[Out, ...], tuple[Card, ...], tuple[Card, ...]]:
    outs: list[Out] = []
    knock_outs: list[Card] = []
    gin_outs: list[Card] = []
    reach = cache.hand(hand10)[2]
    for card_bit in unseen:
        eleven = hand10 | card_bit
        after = cache.after_draw(hand10, card_bit)
        if after >= now:
            continue
        card = CARDS[card_bit.bit_length() - 1]
        if after <= limit:
            knock_outs.append(card)
        if after == 0:
            gin_outs.append(card)
        if not card_bit & reach:
            continue  # it joins no meld (an Out needs one): only a lower card thrown instead
        # The re-discard: the highest card among those leaving the least deadwood.
        candidates = [
            x for x in iter_bits(eleven) if x != card_bit and cache.deadwood(eleven ^ x) == after
        ]
        if not candidates:
            continue
        throw = max(candidates, key=lambda x: (CARDS[x.bit_length() - 1].points, x))
        kept = eleven ^ throw
        meld = next(
            (m for a in solve(CardSet(kept)).arrangements for m in a.melds if m.mask & card_bit),
            None,
        )
        if meld is None:
            continue
        extends = any(m.mask & meld.mask == m.mask for m in before.melds)
        kind = OutKind.GIN if after == 0 else OutKind.KNOCK if after <= limit else OutKind.MELD
        outs.append(Out(card, after, meld, extends, CARDS[throw.bit_length() - 1], kind))
    return tuple(outs), tuple(knock_outs), tuple(gin_outs)


def evaluate_discard(position: Position, card: Card, cache: _Cache | None = None) -> DiscardEval:
    """The exact evaluation of discarding ``card`` from the position's 11-card hand."""
    cache = cache or _Cache()
    limit = position.knock_limit
    hand10 = position.hand.mask & ~card.mask
    unseen_mask = position.unseen.mask
    unseen = list(iter_bits(unseen_mask))
    now = cache.deadwood(hand10)
    before = solve(CardSet(hand10)).best
    outs, knock_outs, gin_outs = _outs(cache, hand10, before, unseen, limit, now)
    draws = [cache.after_draw(hand10, c) for c in unseen]
    count = max(len(unseen), 1)
    return DiscardEval(
        card=card,
        deadwood=now,
        can_knock=now <= limit,
        outs=outs,
        knock_outs=knock_outs,
        gin_outs=gin_outs,
        expected_deadwood_next=sum(draws) / count,
        p_knock_next=sum(1 for d in draws if d <= limit) / count,
        p_knock_within_2=_two_draws(cache, hand10, unseen, limit),
        p_opponent_melds=p_opponent_melds(card, position, hand10),
        pairs=_pairs(hand10, before, unseen_mask),
    )


def evaluate(position: Position) -> Evaluation:
    """Evaluate every legal discard of an 11-card position (card order)."""
    verify_position(position)
    if len(position.hand) != 11:
        raise CardError("a discard question needs 11 cards, got {count}", count=len(position.hand))
    cache = _Cache()
    options = tuple(
        evaluate_discard(position, card, cache)
        for card in position.hand
        if card != position.took_from_discard
    )
    return Evaluation(position, position.unseen, options)
