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
  when all 11 cards meld and the rules recognise it); the showdown is the engine's;
- the hand is void when the stock is down to ``void_at_stock`` cards;
- on the first turn (stock of 31, empty pile) passing the upcard lets the dealer take it.

Results are from my side: positive when I win points, negative when the opponent does. A
candidate within two standard errors (of its paired difference) of the best is equally good.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from math import sqrt

from gintutor.engine.cards import CARDS, Card, CardSet
from gintutor.engine.evaluate import Position, verify_position
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import Side
from gintutor.engine.showdown import showdown
from gintutor.engine.solver import min_deadwood_mask
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


def _points(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += CARDS[low.bit_length() - 1].points
        mask ^= low
    return total


def choose_discard(hand11: int, forbidden: int = 0) -> tuple[int, int]:
    """The baseline discard: least deadwood, then the highest card, then the highest index.

    Returns ``(card mask, deadwood after)``.
    """
    best: tuple[int, int, int] | None = None
    rest = hand11 & ~forbidden
    while rest:
        low = rest & -rest
        rest ^= low
        deadwood = min_deadwood_mask(hand11 ^ low)
        key = (deadwood, -CARDS[low.bit_length() - 1].points, -low)
        if best is None or key < best:
            best = key
    assert best is not None
    return -best[2], best[0]


def takes_discard(hand10: int, card: int) -> bool:
    """The baseline draw: take the card when, discarding after it, the deadwood drops."""
    _, after = choose_discard(hand10 | card, forbidden=card)
    return after < min_deadwood_mask(hand10)


@dataclass
class _Hand:
    """A hand being played out: hands, stock, discard pile top, whose turn."""

    hands: list[int]
    stock: list[int]
    top: int
    rules: RuleSet
    limit: int
    first_upcard: Card | None

    def finish(self, knocker: int, knocker_hand: int) -> float:
        """Points from player 0's side after ``knocker`` knocks holding ``knocker_hand``."""
        result = showdown(CardSet(knocker_hand), CardSet(self.hands[1 - knocker]), self.rules,
                          self.first_upcard)
        won = (result.winner is Side.KNOCKER) == (knocker == 0)
        return float(result.points if won else -result.points)

    def turn(self, player: int) -> float | None:
        """One turn of the baseline policy; the score if the hand ends, else ``None``."""
        hand = self.hands[player]
        taken = 0
        if self.top and takes_discard(hand, self.top):
            taken = self.top
            hand |= taken
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
    game = _Hand([hand, opponent], list(stock), 0, rules, position.knock_limit,
                 position.first_upcard)
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
        return game.play(1)
    assert position.upcard is not None
    upcard = position.upcard.mask
    if candidate is Action.TAKE:
        ended = game.discard(0, hand | upcard, upcard)
        return ended if ended is not None else game.play(1)
    first_turn = position.stock_size == FIRST_TURN_STOCK and not position.dead
    # On the first turn (RULES.md §1), when the non-dealer passes, the dealer may take the
    # upcard; if the dealer passes too, the non-dealer draws from the stock.
    if first_turn and takes_discard(game.hands[1], upcard):
        ended = game.discard(1, game.hands[1] | upcard, upcard)
        if ended is not None:
            return ended
    # Passing the upcard: it stays on the pile and I draw from the stock.
    return game.play(0)


def verdict(position: Position, candidates: tuple[Candidate, ...], worlds: int = DEFAULT_WORLDS,
            seed: int = 1) -> Verdict:
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
        results.append(CandidateResult(candidate, means[candidate], _stderr(values),
                                       sum(diffs) / worlds, _stderr(diffs)))
    results.sort(key=lambda r: (-r.mean, candidates.index(r.candidate)))
    return Verdict(tuple(results), worlds, seed)


def _stderr(values: list[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
