"""The verdict layer: expected points of a decision by playing the hand out many times.

Each *world* deals the opponent's hidden cards and the stock order at random from the unseen
cards (the evaluator's model). Every candidate is played in the **same** worlds (common random
numbers), so their difference is measured far more precisely than their values. Both sides
then follow the baseline policy:

- **draw**: take the discard-pile card when, with the best discard after it, it lowers the
  deadwood; otherwise draw from the stock;
- **discard**: the card leaving the least deadwood; ties: the highest card, then the highest in
  card order; never the card just taken from the discard pile;
- **knock**: as soon as the deadwood after the discard is within the knock limit (big gin
  when all 11 cards meld and the rules recognise it);
- **spread**: the knocker commits to a spread *before* seeing the defender's hand (RULES.md
  §1: the knocker spreads first), from what it knows: the least deadwood plus the points the
  defender is expected to lay off on it (:func:`choose_spread`); the defender then melds and
  lays off as well as possible;
- the hand is void when the stock is down to ``void_at_stock`` cards;
- on the first turn (stock of 31, empty pile) passing the upcard lets the dealer take it.

Results are from my side: positive when I win points, negative when the opponent does. A
candidate within two standard errors (of its paired difference) of the best is equally good.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from math import sqrt

from gintutor.engine.cards import (
    CARD_POINTS,
    DECK_MASK,
    RANK_MASKS,
    SUIT_BITS,
    SUIT_MASK,
    Card,
    CardSet,
    bit_index,
    mask_points,
)
from gintutor.engine.evaluate import Position, verify_position
from gintutor.engine.layoffs import best_defence
from gintutor.engine.melds import Meld
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import Side, score_hand
from gintutor.engine.solver import best_discard_deadwood_mask, packings
from gintutor.engine.solver import min_deadwood_mask as _solve_deadwood
from gintutor.errors import CardError

DEFAULT_WORLDS = 400
FIRST_TURN_STOCK = 31
"""Cards in the stock on the first turn: 52 less two hands of 10 and the upcard."""


class Action(Enum):
    """The decisions the verdict layer compares."""

    KNOCK = "knock"
    """Knock now."""
    PLAY_ON = "play-on"
    """Discard without knocking and play on."""
    TAKE = "take"
    """Take the offered upcard."""
    DRAW = "draw"
    """Pass the upcard and draw from the stock."""


@dataclass(frozen=True)
class Candidate:
    """An action, with the discard to make (``None``: the baseline policy's discard)."""

    action: Action
    card: Card | None = None

    @property
    def code(self) -> str:
        """How an answer names it: the discard's code when a card is given, else the action."""
        return self.card.code if self.card is not None else self.action.value


@dataclass(frozen=True)
class CandidateResult:
    """Expected points of one candidate, with its standard error and that of its gap to the best."""

    candidate: Candidate
    mean: float
    stderr: float
    gap: float
    gap_stderr: float

    @property
    def equally_good(self) -> bool:
        """True when within two standard errors of the best candidate."""
        return self.gap <= 2 * self.gap_stderr + 1e-9


@dataclass(frozen=True)
class Verdict:
    """The candidates, best first, from ``worlds`` shared worlds with a given seed."""

    results: tuple[CandidateResult, ...]
    worlds: int
    seed: int

    @property
    def best(self) -> tuple[Candidate, ...]:
        """Every candidate as good as the best within two standard errors."""
        return tuple(result.candidate for result in self.results if result.equally_good)


_DEADWOOD: dict[int, int] = {}
_DEADWOOD_LIMIT = 1 << 20
"""Rollouts solve the same hands over and over (one player's hand in every world, the same
discards tried each turn): a bounded memo of the least deadwood by hand mask."""


_SPREADS: dict[tuple[int, int], list[tuple[tuple[int, ...], int]]] = {}


def _spreads(hand: int, limit: int) -> list[tuple[tuple[int, ...], int]]:
    """Every spread of ``hand`` within ``limit`` as ``(meld masks, deadwood)``, remembered."""
    key = (hand, limit)
    found = _SPREADS.get(key)
    if found is None:
        if len(_SPREADS) >= _DEADWOOD_LIMIT // 16:
            _SPREADS.clear()
        found = _SPREADS[key] = [
            (melds, mask_points(dead)) for melds, dead in packings(hand, limit)
        ]
    return found


def min_deadwood_mask(hand: int) -> int:
    """:func:`gintutor.engine.solver.min_deadwood_mask`, remembered for the rollouts."""
    found = _DEADWOOD.get(hand)
    if found is None:
        if len(_DEADWOOD) >= _DEADWOOD_LIMIT:
            _DEADWOOD.clear()
        found = _DEADWOOD[hand] = _solve_deadwood(hand)
    return found


def _card_chance(bit: int, known: int, unknown: int, chance: float) -> float:
    """The chance the defender holds the card at ``bit``, as the knocker sees it."""
    card = 1 << bit
    if known & card:
        return 1.0
    return chance if unknown & card else 0.0


def layoff_exposure(meld_masks: tuple[int, ...], known: int, unknown: int, hidden: int) -> float:
    """The points the defender is expected to lay off on these melds, from the knocker's view.

    ``known``: cards the knocker knows the defender holds (taken from the pile); ``unknown``:
    the cards the knocker has not seen, of which the defender holds ``hidden``, each equally
    likely. A 3-card set takes its fourth card; a run takes the cards beyond either end, each
    further card only with every card between (chaining). Cards are counted as independent.

    >>> run = CardSet.parse("5H 6H 7H").mask
    >>> layoff_exposure((run,), known=CardSet.parse("8H").mask, unknown=0, hidden=0)
    8.0
    """
    chance = hidden / unknown.bit_count() if unknown else 0.0
    expected = 0.0
    for meld in meld_masks:
        low = (meld & -meld).bit_length() - 1
        suit, rank = divmod(low, SUIT_BITS)
        if meld >> (suit * SUIT_BITS) >= 1 << SUIT_BITS:  # cards of several suits: a set
            if meld.bit_count() == 3:
                missing = bit_index(RANK_MASKS[rank] & ~meld)
                expected += _card_chance(missing, known, unknown, chance) * CARD_POINTS[missing]
            continue
        high = meld.bit_length() - 1 - suit * SUIT_BITS
        for ranks in (range(rank - 1, -1, -1), range(high + 1, SUIT_BITS)):
            reach = 1.0
            for r in ranks:
                bit = suit * SUIT_BITS + r
                reach *= _card_chance(bit, known, unknown, chance)
                if not reach:
                    break
                expected += reach * CARD_POINTS[bit]
    return expected


def _best_spread(
    hand: int, limit: int, known: int, unknown: int, hidden: int
) -> tuple[float, int, tuple[int, ...]] | None:
    best: tuple[float, int, tuple[int, ...]] | None = None
    for melds, deadwood in _spreads(hand, limit):
        exposure = layoff_exposure(melds, known, unknown, hidden) if deadwood else 0.0
        key = (deadwood + exposure, deadwood, melds)
        if best is None or key < best:
            best = key
    return best


def choose_spread(
    hand: int, limit: int, known: int, unknown: int, hidden: int
) -> tuple[tuple[int, ...], int]:
    """The spread a knocker commits to without seeing the defender's hand.

    Among the arrangements within the knock limit (holding melds back included), the least
    deadwood plus :func:`layoff_exposure`; ties to the least deadwood, then canonical order.
    Gin (no deadwood) takes no layoffs. Returns ``(meld masks, deadwood points)``.
    """
    least = min_deadwood_mask(hand)
    if least > limit:
        raise CardError("this hand cannot knock")
    # Exposure is never negative, so only spreads with less deadwood than the best found
    # among the least-deadwood ones can beat it: search that far and no further.
    best = _best_spread(hand, least, known, unknown, hidden)
    assert best is not None
    reach = min(limit, int(best[0] - 1e-9))
    if reach > least:
        best = min(best, _best_spread(hand, reach, known, unknown, hidden) or best)
    return best[2], best[1]


def layoff_targets(meld_masks: Iterable[int]) -> int:
    """Every card that could be laid off directly on these melds (not by chaining).

    A defender holding none of them lays nothing off, whatever its hand.
    """
    targets = 0
    for meld in meld_masks:
        low = (meld & -meld).bit_length() - 1
        suit, rank = divmod(low, SUIT_BITS)
        if meld >> (suit * SUIT_BITS) >= 1 << SUIT_BITS:
            if meld.bit_count() == 3:
                targets |= RANK_MASKS[rank] & ~meld
            continue
        suit_mask = SUIT_MASK << (suit * SUIT_BITS)
        targets |= ((meld >> 1) | (meld << 1)) & suit_mask & ~meld
    return targets


_DISCARD_ORDER = tuple(
    1 << index for index in sorted(range(52), key=lambda i: (-CARD_POINTS[i], -i))
)
"""Every card as a mask in the baseline's tie-break order: the highest card, then the highest
index."""


def choose_discard(hand11: int, forbidden: int = 0) -> tuple[int, int]:
    """The baseline discard: least deadwood, then the highest card, then the highest index.

    Returns ``(card mask, deadwood after)``. The least deadwood over every discard comes from
    one call of the solver; the cards are then tried in tie-break order until one reaches it
    (when the forbidden card was the only one, every other card is compared).
    """
    target = best_discard_deadwood_mask(hand11)
    allowed = hand11 & ~forbidden
    best: tuple[int, int] | None = None
    for card in _DISCARD_ORDER:
        if allowed & card:
            deadwood = min_deadwood_mask(hand11 ^ card)
            if deadwood == target:
                return card, deadwood
            if best is None or deadwood < best[1]:
                best = (card, deadwood)
    assert best is not None
    return best


def takes_discard(hand10: int, card: int) -> bool:
    """The baseline draw: take the card when, discarding after it, the deadwood drops."""
    _, after = choose_discard(hand10 | card, forbidden=card)
    return after < min_deadwood_mask(hand10)


@dataclass
class _Hand:
    """A hand being played out: hands, stock, discard pile, and what each player has seen.

    ``pile``: every card in the discard pile (public); ``picked[p]``: the cards player ``p``
    took from the pile, which the other player knows about.
    """

    hands: list[int]
    stock: list[int]
    top: int
    rules: RuleSet
    limit: int
    first_upcard: Card | None
    pile: int = 0
    picked: list[int] = field(default_factory=lambda: [0, 0])

    def finish(self, knocker: int, knocker_hand: int) -> float:
        """Points from player 0's side after ``knocker`` knocks holding ``knocker_hand``.

        The knocker spreads from what it knows (:func:`choose_spread`), the defender answers
        with its best melds and layoffs (:func:`best_defence`).
        """
        defender = self.hands[1 - knocker]
        rules = self.rules
        multiplier = rules.multiplier_for(self.first_upcard)
        if knocker_hand.bit_count() == 11:  # big gin: every card melded, no discard
            score = score_hand(
                0, min_deadwood_mask(defender), rules, big_gin=True, multiplier=multiplier
            )
        else:
            known = self.picked[1 - knocker] & defender
            unknown = DECK_MASK & ~(knocker_hand | self.pile | known)
            melds, deadwood = choose_spread(
                knocker_hand, self.limit, known, unknown, 10 - known.bit_count()
            )
            if deadwood and defender & layoff_targets(melds):
                spread = [Meld(mask) for mask in melds]
                defended = best_defence(CardSet(defender), spread).deadwood
            else:
                defended = min_deadwood_mask(defender)
            score = score_hand(deadwood, defended, rules, multiplier=multiplier)
        won = (score.winner is Side.KNOCKER) == (knocker == 0)
        return float(score.points if won else -score.points)

    def turn(self, player: int) -> float | None:
        """One turn of the baseline policy; the score if the hand ends, else ``None``."""
        hand = self.hands[player]
        taken = 0
        if self.top and takes_discard(hand, self.top):
            taken = self.top
            hand |= taken
            self.pile &= ~taken
            self.picked[player] |= taken
        else:
            if len(self.stock) <= self.rules.void_at_stock:
                return 0.0
            hand |= self.stock.pop()
        ended = self.discard(player, hand, taken)
        if ended is None and len(self.stock) <= self.rules.void_at_stock:
            return 0.0
        return ended

    def discard(self, player: int, hand: int, taken: int = 0) -> float | None:
        """The rest of a turn after drawing into ``hand`` (11 cards): big gin, or the baseline
        discard and a knock when it is allowed; the score if the hand ends."""
        if self.rules.big_gin and min_deadwood_mask(hand) == 0:
            return self.finish(player, hand)
        card, deadwood = choose_discard(hand, forbidden=taken)
        hand ^= card
        self.hands[player] = hand
        self.top = card
        self.pile |= card
        if deadwood <= self.limit:
            return self.finish(player, hand)
        return None

    def play(self, to_move: int) -> float:
        player = to_move
        while True:
            result = self.turn(player)
            if result is not None:
                return result
            player = 1 - player


def _world(position: Position, rng: random.Random) -> tuple[int, list[int]]:
    unseen = [card.mask for card in position.unseen]
    rng.shuffle(unseen)
    hidden = position.hidden_count
    opponent = position.opponent_known.mask
    for card in unseen[:hidden]:
        opponent |= card
    stock = unseen[hidden:]
    if position.stock_size is not None:
        stock = stock[: position.stock_size]
    return opponent, stock


def _play(position: Position, choice: Candidate, opponent: int, stock: list[int]) -> float:
    rules = position.rules
    hand = position.hand.mask
    taken = position.took_from_discard.mask if position.took_from_discard else 0
    game = _Hand(
        [hand, opponent],
        list(stock),
        0,
        rules,
        position.knock_limit,
        position.first_upcard,
        pile=position.dead.mask,
        picked=[taken, position.opponent_known.mask],
    )
    limit = game.limit
    candidate = choice.action
    if candidate in (Action.KNOCK, Action.PLAY_ON):
        forbidden = position.took_from_discard.mask if position.took_from_discard else 0
        if choice.card is not None:
            card = choice.card.mask
            deadwood = min_deadwood_mask(hand ^ card)
        else:
            card, deadwood = choose_discard(hand, forbidden)
        if candidate is Action.KNOCK:
            if choice.card is None and rules.big_gin and min_deadwood_mask(hand) == 0:
                return game.finish(0, hand)
            if deadwood > limit:
                raise CardError("this hand cannot knock")
            return game.finish(0, hand ^ card)
        game.hands[0] = hand ^ card
        game.top = card
        game.pile |= card
        return game.play(1)
    assert position.upcard is not None
    upcard = position.upcard.mask
    game.pile |= upcard
    if candidate is Action.TAKE:
        game.pile &= ~upcard
        game.picked[0] |= upcard
        ended = game.discard(0, hand | upcard, upcard)
        return ended if ended is not None else game.play(1)
    first_turn = position.stock_size == FIRST_TURN_STOCK and not position.dead
    # On the first turn (RULES.md §1), when the non-dealer passes, the dealer may take the
    # upcard; if the dealer passes too, the non-dealer draws from the stock.
    if first_turn and takes_discard(game.hands[1], upcard):
        game.pile &= ~upcard
        game.picked[1] |= upcard
        ended = game.discard(1, game.hands[1] | upcard, upcard)
        if ended is not None:
            return ended
    # Passing the upcard: it stays on the pile and I draw from the stock.
    return game.play(0)


def verdict(
    position: Position,
    candidates: tuple[Candidate, ...],
    worlds: int = DEFAULT_WORLDS,
    seed: int = 1,
) -> Verdict:
    """Expected points of each candidate over the same ``worlds`` sampled worlds."""
    verify_position(position)
    rng = random.Random(seed)
    scores: dict[Candidate, list[float]] = {candidate: [] for candidate in candidates}
    for _ in range(worlds):
        opponent, stock = _world(position, rng)
        for candidate in candidates:
            scores[candidate].append(_play(position, candidate, opponent, stock))
    means = {c: sum(v) / worlds for c, v in scores.items()}
    top = max(candidates, key=lambda c: (means[c], -candidates.index(c)))
    results = []
    for candidate in candidates:
        values = scores[candidate]
        diffs = [a - b for a, b in zip(scores[top], values, strict=True)]
        results.append(
            CandidateResult(
                candidate, means[candidate], _stderr(values), sum(diffs) / worlds, _stderr(diffs)
            )
        )
    results.sort(key=lambda r: (-r.mean, candidates.index(r.candidate)))
    return Verdict(tuple(results), worlds, seed)


def _stderr(values: list[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
