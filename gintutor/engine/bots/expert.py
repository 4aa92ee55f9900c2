"""``expert``: determinized Monte Carlo over estimated opponent hands, heuristic rollouts.

At a decision it searches, the expert lists the candidate actions (the heuristic's own choice
first), draws opponent hands from the Bayesian estimate (:mod:`.estimate`), deals the stock at
random from the rest, and plays each candidate out in the **same** worlds (common random
numbers) with the fast heuristic (:mod:`.playout`). Another candidate replaces the heuristic's
choice only when its weighted mean of hand points is higher by more than ``SWITCH`` standard
errors of the paired difference, so a small, noisy budget does not throw good moves away by
luck. The knocker's spread is the one that scores best against the sampled hands, never
against the real one.

What it searches is measured, not assumed (``benchmarks/tune_bots.py``, 400 paired deals of
seed 5, 32 worlds, rollouts as below, 2026-12-01), in points a hand::

    searched                     against simple,            against the heuristic
                                 minus the heuristic
    take or draw only            +0.54 ± 0.62               +1.20 [+0.25, +2.15]
    discards only                -0.12 ± 0.73
    discards, take or draw                                  -1.41 ± 1.51 below take-or-draw only
    knock or play on only        -1.63 ± 0.85

so by default it searches the take-or-draw decision (``search_draw``) and leaves the discard and
the knock to the heuristic's rules with its own :data:`WEIGHTS` (``search_discard``,
``search_knock`` turn them on): the tuned weights, but no knock short of gin while the stock
lasts, which measured equal against first-chance knockers and better against players who play
on for gin. The knock search loses by more than its noise (with :data:`WEIGHTS`: 4.0 ± 1.4
points a hand against the heuristic). The main cause, measured by ``benchmarks/bench_estimate.py``:
the uniformly sampled opponent hands are far weaker than real ones (43-48 points of deadwood
with 8-23 stock cards left, against 6-14 in the opponent's real hand), so a knock looks safer
than it is. Hands built up by the opponent's draws (``built_estimate``) come closer (17-26) and
bring the knock search to -0.73 ± 1.28 against the heuristic and +0.06 ± 0.69 against
``simple`` (400 deals, seed 5, 32 worlds, minus the default expert): no longer a clear loss, not
a gain.

The rollouts play the expert by ``rollout`` (its own weights without lookahead) and the
opponent by ``opponent`` (the coach's ``FAST``: a player who knocks at the first chance). The
functions the coach calls (``after_discard``, ``after_take``, ``after_pass``) default to
``FAST`` for both sides, so the coach's valuations do not move when the expert's policies do.

The budget is ``worlds`` sampled worlds per decision, cut short before a world that would
likely end past ``seconds`` (wall clock: under load the cap binds and fewer worlds are played).
Decision times and the strength table: ``docs/bots.md``.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from gintutor.engine.bots.common import best_layoffs, big_gin
from gintutor.engine.bots.estimate import public_record, sample_opponent_hands
from gintutor.engine.bots.heuristic import (
    NEIGHBOURS,
    TUNED,
    Params,
    View,
    knock_discard,
    ranked_discards,
    should_knock,
    takes,
)
from gintutor.engine.bots.playout import FAST, World
from gintutor.engine.cards import DECK_MASK, mask_points
from gintutor.engine.hand import NO_CARD, Action, InfoSet, Kind, Phase
from gintutor.engine.layoffs import defence_deadwood
from gintutor.engine.scoring import Side, score_hand
from gintutor.engine.solver import min_deadwood_mask, packings
from gintutor.errors import IllegalError

MARGIN = 4.0
"""Discards whose heuristic cost is within this of the best are candidates."""
MAX_DISCARDS = 3
MIN_WORLDS = 8
MAX_SPREADS = 8
SWITCH = 2.0
"""Standard errors by which a candidate must beat the heuristic's choice to replace it."""

WEIGHTS = dataclasses.replace(TUNED, gin_hunt_stock=2)
"""The expert's own weights: the tuned heuristic's, except that it plays on for gin with any
knocking count while the stock lasts (``gin_hunt_stock`` 2: under a void at two stock cards it
knocks only with gin). Measured on the ladder (``benchmarks/tune_bots.py``, 3,000 paired deals
of seed 7, points a hand minus :data:`~.heuristic.TUNED`'s): against ``simple`` +0.03 ± 0.03,
against ``openspiel`` -0.03 ± 0.02 (their knocks end the hand before the stock runs low), against
the heuristic +1.69 ± 0.21: a late knock at 5-8 points against a player who still holds a low
count for gin is undercut too often, and a void costs nothing."""
WEIGHTS_FAST = dataclasses.replace(WEIGHTS, lookahead=0)
"""The expert's weights without the lookahead: how it plays itself in its rollouts."""

Play = Callable[[World], float]


def world_of(
    info: InfoSet, opponent: int, rng: random.Random, record: tuple[int, int] | None = None
) -> World:
    """The world where the opponent holds ``opponent`` and the stock is dealt from the rest
    (``record``: :func:`~.estimate.public_record` of ``info``, when the caller has it)."""
    me = info.player
    stock_cards = [i for i in range(52) if (info.unseen & ~opponent) >> i & 1]
    rng.shuffle(stock_cards)
    held, avoided = public_record(info) if record is None else record
    hands = [0, 0]
    hands[me], hands[1 - me] = info.hand, opponent
    known = [0, 0]
    known[me], known[1 - me] = info.opponent_known, held
    avoid = [0, 0]
    avoid[me], avoid[1 - me] = info.opponent_discards | info.opponent_passed, avoided
    return World(
        hands,
        stock_cards,
        list(info.pile),
        known,
        avoid,
        info.rules,
        info.knock_limit,
        info.multiplier,
    )


def after_discard(me: int, card: int, mine: Params = FAST, theirs: Params | None = None) -> Play:
    def play(world: World) -> float:
        bit = 1 << card
        world.hands[me] ^= bit
        world.pile.append(card)
        world.known[1 - me] &= ~bit
        world.avoid[1 - me] |= bit
        if len(world.stock) <= world.rules.void_at_stock:
            return 0.0
        return world.play(1 - me, me, mine, theirs)

    return play


def _after_knock(me: int, card: int, deadwood: int) -> Play:
    def play(world: World) -> float:
        return world.knock(me, world.hands[me] ^ 1 << card, deadwood)

    return play


def after_take(me: int, top: int, mine: Params = FAST, theirs: Params | None = None) -> Play:
    def play(world: World) -> float:
        world.pile.pop()
        world.known[1 - me] |= 1 << top
        ended = world.finish_turn(me, world.hands[me] | 1 << top, top, mine)
        return ended if ended is not None else world.play(1 - me, me, mine, theirs)

    return play


def after_pass(
    me: int,
    top: int,
    offer: bool,
    dealer: bool,
    mine: Params = FAST,
    theirs: Params | None = None,
) -> Play:
    """Draw from the stock (or pass the upcard and let the offer go on); the rest of the hand
    played by ``mine`` for this player and ``theirs`` (default the same) for the opponent."""
    other = mine if theirs is None else theirs

    def play(world: World) -> float:
        opponent = 1 - me
        if top != NO_CARD:
            world.avoid[opponent] |= 1 << top
        if offer and not dealer:
            # The dealer may take the upcard we passed; if not, we draw from the stock.
            if takes(world.view(opponent, world.hands[opponent]), top, other):
                world.pile.pop()
                world.known[me] |= 1 << top
                ended = world.finish_turn(opponent, world.hands[opponent] | 1 << top, top, other)
                if ended is not None:
                    return -ended
                return world.play(me, me, mine, theirs)
            world.avoid[me] |= 1 << top
        elif offer and dealer:
            # Both passed: the non-dealer draws from the stock.
            ended = world.finish_turn(
                opponent, world.hands[opponent] | 1 << world.stock.pop(), NO_CARD, other
            )
            if ended is not None:
                return -ended
            return world.play(me, me, mine, theirs)
        ended = world.finish_turn(me, world.hands[me] | 1 << world.stock.pop(), NO_CARD, mine)
        return ended if ended is not None else world.play(1 - me, me, mine, theirs)

    return play


@dataclass(frozen=True)
class ActionValue:
    """An action's expected hand points (the player's side) over sampled worlds, with the
    standard error of that mean (importance weights included)."""

    action: Action
    mean: float
    stderr: float
    worlds: int


def rollouts(
    info: InfoSet,
    plays: dict[Action, Play],
    worlds: int,
    rng: random.Random,
    seconds: float,
    built: bool = False,
) -> tuple[dict[Action, list[float]], list[float]]:
    """Each candidate's points world by world (the same worlds for all), and the weights
    (normalised to sum 1): the raw material of :func:`play_out` and of the coach. ``built``:
    the opponent's hands sampled as built up by its draws (:func:`.estimate.build_hand`)."""
    start = time.perf_counter()
    results: dict[Action, list[float]] = {action: [] for action in plays}
    weights: list[float] = []
    record = public_record(info)
    samples = sample_opponent_hands(info, worlds, rng, built=built)
    for count, (opponent, weight) in enumerate(samples):
        if count >= MIN_WORLDS:
            elapsed = time.perf_counter() - start
            if elapsed * (count + 1) / count > seconds:
                break  # the next world would likely end past the cap
        seed = rng.getrandbits(32)
        for action, play in plays.items():
            results[action].append(play(world_of(info, opponent, random.Random(seed), record)))
        weights.append(weight)
    total = sum(weights) or 1.0
    return results, [w / total for w in weights]


def weighted(values: list[float], weights: list[float]) -> tuple[float, float]:
    """Weighted mean and its standard error (normalised importance weights)."""
    mean = sum(w * v for w, v in zip(weights, values, strict=True))
    variance = sum(w * w * (v - mean) ** 2 for w, v in zip(weights, values, strict=True))
    return mean, variance**0.5


def play_out(
    info: InfoSet,
    plays: dict[Action, Play],
    worlds: int,
    rng: random.Random,
    seconds: float = float("inf"),
) -> list[ActionValue]:
    """Each candidate played out in the same sampled worlds (common random numbers)."""
    results, weights = rollouts(info, plays, worlds, rng, seconds)
    return [
        ActionValue(action, *weighted(values, weights), len(values))
        for action, values in results.items()
    ]


def action_values(
    info: InfoSet,
    actions: list[Action],
    worlds: int,
    rng: random.Random,
    seconds: float = float("inf"),
) -> list[ActionValue]:
    """The expected hand points of each given legal action at ``info`` (the coach's judge).

    A knock is valued with its discard (the spread's layoffs are judged by :class:`ExpertBot`);
    taking, drawing and passing as the procedure of RULES.md §1 continues after them.
    """
    me = info.player
    plays: dict[Action, Play] = {}
    for action in actions:
        if action.kind is Kind.DISCARD:
            plays[action] = after_discard(me, action.card)
        elif action.kind is Kind.KNOCK:
            rest = info.hand ^ 1 << action.card
            plays[action] = _after_knock(
                me,
                action.card,
                mask_points(rest & ~action.spread_mask)
                if action.spread
                else min_deadwood_mask(rest),
            )
        elif action.kind is Kind.TAKE:
            plays[action] = after_take(me, info.top)
        elif action.kind in (Kind.DRAW, Kind.PASS):
            plays[action] = after_pass(me, info.top, info.phase is Phase.OFFER, info.dealer == me)
        else:
            raise IllegalError("{action} is not valued by rollouts", action=action)
    return play_out(info, plays, worlds, rng, seconds)


@dataclass(frozen=True)
class ExpertBot:
    """Monte Carlo over sampled opponent hands with heuristic rollouts."""

    worlds: int = 128
    """Sampled worlds per decision: about 0.05 s of CPU a decision on average here, 0.23 s at
    most (``bench_bots.py --decision-time``; decisions it does not search included)."""
    seconds: float = 1.0
    params: Params = WEIGHTS
    """The weights of the expert's own heuristic choices (its candidates and its default)."""
    rollout: Params = WEIGHTS_FAST
    """The policy the expert plays itself by in its rollouts (its own, without lookahead)."""
    opponent: Params | None = FAST
    """The policy of the opponent in the rollouts (None: ``rollout``): a player who knocks
    at the first chance, as most players do."""
    name: str = "expert"
    switch: float = SWITCH
    """Standard errors by which a candidate must beat the heuristic's choice to replace it."""
    search_knock: bool = False
    """Search knock against play on (else the heuristic's knock rule decides): off, since it
    cost 4.0 points a hand against the heuristic (see the module docstring for why)."""
    search_discard: bool = False
    """Search among the cheapest discards (else the heuristic's discard): off, measured no
    better at 32 worlds."""
    search_draw: bool = True
    """Search take against draw (else the heuristic's draw)."""
    built_estimate: bool = False
    """Sample the opponent's hands built up by its draws (:func:`.estimate.build_hand`) rather
    than uniformly: far closer to real hands (``benchmarks/bench_estimate.py``); with it the
    knock search is within noise of the default (-0.73 ± 1.28 points a hand against the
    heuristic, was -4.0 ± 1.4), not better (``docs/bots.md``), so it is off."""

    def act(self, info: InfoSet, rng: random.Random) -> Action:
        """The candidate with the best mean hand points over the sampled worlds."""
        if info.phase is Phase.DEFEND:
            return best_layoffs(info)
        if info.phase is Phase.DISCARD:
            return self._discard(info, rng)
        legal = info.legal_actions()
        take = Action(Kind.TAKE)
        if take not in legal:
            return legal[0]
        view = View.of(info)
        top = info.top
        if not self.search_draw:
            return take if takes(view, top, self.params) else legal[0]
        if not takes(view, top, self.params) and not _near(view, top):
            return legal[0]
        me = info.player
        choices = [
            (take, after_take(me, top, self.rollout, self.opponent)),
            (
                legal[0],
                after_pass(
                    me,
                    top,
                    info.phase is Phase.OFFER,
                    info.dealer == me,
                    self.rollout,
                    self.opponent,
                ),
            ),
        ]
        if not takes(view, top, self.params):
            choices.reverse()
        return self._best(info, dict(choices), rng)

    def _discard(self, info: InfoSet, rng: random.Random) -> Action:
        big = big_gin(info)
        if big is not None:
            return big
        view = View.of(info)
        costs = ranked_discards(view, info.hand, info.taken, self.params)
        knock_card, deadwood = knock_discard(costs)
        if deadwood == 0:
            return self._knock(info, knock_card, rng)
        me = info.player
        plays: dict[Action, Play] = {}
        knock = Action(Kind.KNOCK, knock_card)
        if should_knock(deadwood, view, self.params):
            if not self.search_knock:
                return self._knock(info, knock_card, rng)
            plays[knock] = _after_knock(me, knock_card, deadwood)
        best_cost = costs[0][0]
        for cost, card, _ in costs[: MAX_DISCARDS if self.search_discard else 1]:
            if cost <= best_cost + MARGIN:
                plays[Action.discard(card)] = after_discard(me, card, self.rollout, self.opponent)
        if self.search_knock and deadwood <= info.knock_limit and knock not in plays:
            plays[knock] = _after_knock(me, knock_card, deadwood)
        choice = next(iter(plays)) if len(plays) == 1 else self._best(info, plays, rng)
        if choice.kind is Kind.KNOCK:
            return self._knock(info, choice.card, rng)
        return choice

    def _best(self, info: InfoSet, plays: dict[Action, Play], rng: random.Random) -> Action:
        """The best candidate; the first (the heuristic's own choice) unless another beats it
        by more than ``SWITCH`` standard errors of the paired difference."""
        results, weights = rollouts(
            info, plays, self.worlds, rng, self.seconds, self.built_estimate
        )
        default = next(iter(plays))
        base = results[default]
        best, best_margin = default, 0.0
        for action, values in results.items():
            diffs = [v - b for v, b in zip(values, base, strict=True)]
            mean, stderr = weighted(diffs, weights)
            margin = mean - self.switch * stderr
            if action != default and mean > 0 and margin > best_margin:
                best, best_margin = action, margin
        return best

    def _knock(self, info: InfoSet, card: int, rng: random.Random) -> Action:
        """Knock discarding ``card`` with the spread that scores best against sampled hands."""
        hand = info.hand ^ 1 << card
        spreads = sorted(packings(hand, info.knock_limit), key=lambda p: mask_points(p[1]))[
            :MAX_SPREADS
        ]
        if len(spreads) == 1 or not mask_points(spreads[0][1]):
            return Action.knock(card, spreads[0][0])
        samples = sample_opponent_hands(
            info, max(MIN_WORLDS, self.worlds // 2), rng, built=self.built_estimate
        )

        def value(melds: tuple[int, ...], dead: int) -> float:
            deadwood = mask_points(dead)
            total = 0.0
            for opponent, weight in samples:
                defender = defence_deadwood(opponent, melds)
                score = score_hand(deadwood, defender, info.rules)
                total += weight * (score.points if score.winner is Side.KNOCKER else -score.points)
            return total

        melds, _ = max(spreads, key=lambda p: value(p[0], p[1]))
        return Action.knock(card, melds)


def _near(view: View, top: int) -> bool:
    """True when the pile card is worth a closer look: a partner of it is in the hand."""
    return bool(NEIGHBOURS[top] & view.hand & DECK_MASK)
