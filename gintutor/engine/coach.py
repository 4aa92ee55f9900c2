"""The decision evaluator: every legal action at an information set, valued and graded.

One judge for the coach at the table, the review of a saved game and the puzzles. From what the
player knows (an :class:`~gintutor.engine.hand.InfoSet`, never the hidden cards), the opponent's
hand is sampled by the Bayesian estimate (:mod:`.bots.estimate`) with each hand built up by the
opponent's stock draws (see :data:`NO_KNOCK` for why and how it was measured), the stock is dealt
from the rest, and each action is valued in the **same** sampled worlds (common random
numbers), the rest of the hand played out (:mod:`.bots.playout`): the player by the frozen
baseline heuristic (``FAST``), the opponent by the model of whoever sits across the table
(:data:`OPPONENTS`: in ``play`` the bot at the table, its policy and never its cards; elsewhere
a strong player, :data:`STRONG`). Every verdict names the model it assumes (``opponent``).

- OFFER / DRAW: *take* is valued by the best follow-up at the decision it leads to (its discards,
  knocks with each spread, big gin), on the same worlds, one ply deeper: in each world the
  follow-up the coach judges best on the other half of the worlds (cross-fitted, so no world's
  luck both picks and values it; successive halving among them as below).
  A *stock draw* likewise, the drawn card being each world's next stock card: the worlds are
  grouped by that card, and each group takes its own best follow-up among the
  :data:`FOLLOW_DISCARDS` least-deadwood discards, every knock and big gin. So an action's value
  is the value of the continuation the coach itself would recommend, not of the rollout
  policy's (``benchmarks/bench_coach_consistency.py``: see :data:`FOLLOW_DISCARDS`). Passing
  the first upcard, whose next decision is the opponent's, is played out;
- DISCARD: every legal discard played out; every knock (each spread) scored exactly against the
  sampled defender hands (their best melds and layoffs), as is big gin;
- DEFEND: each lay-off choice scored exactly (no sampling): the knocker's spread is face up, its
  hidden deadwood cards are enumerated (every set of unseen cards that fits the knock, equally
  likely).

Values are expected hand points from the player's side (won +, lost -), each with its standard
error; ``loss`` is the paired difference with the best (its standard error from the paired
differences world by world, which common random numbers keep small). The estimate resamples its
hands, so one opponent hand may stand in several worlds: the standard errors are cluster-robust
over the sampled hands (:func:`_mean_se`). A take's or a stock draw's standard errors (and
those of a difference with one) come from a bootstrap over the sampled hands that chooses the
follow-ups again on each resample (:func:`_resampled`), so they carry the doubt about which
follow-up is best.

**Budget: successive halving.** All actions are played out on a first batch of worlds; after
each batch from ``MIN_STOP`` worlds on, the actions more than ``KEEP`` paired standard errors
behind the leader stop, and the rest go on to twice as many worlds, up to ``worlds`` or
``seconds`` of CPU. An action
stopped early keeps an honest record: its ``loss`` and ``loss_stderr`` are the paired figures
over the worlds it saw, its ``mean`` is ``best.mean - loss`` (the paired estimate) and its
``stderr`` is ``sqrt(best.stderr² + loss_stderr²)``.

**The game score.** With ``scores`` given, each world's hand result moves the score, and the
action's ``win_chance`` is the mean over its worlds of
:func:`~gintutor.engine.winchance.game_win_chance` after that result (the next dealer as the
rules go: alternate after a scored hand, the same after a void one). ``win_loss`` is measured
from the action with the highest win chance (>= 0); ``best`` and the order stay by points.

**Grades** (:func:`grade_of`): the worse of the grade by points lost and, with a game score,
by game-win chance lost. **The noise floor:** a loss within ``CLOSE`` (2) paired standard errors
is no loss at all (grade BEST, ``close``: the text says "close call", the coach warns of
nothing); beyond it each measure is given the benefit of the doubt, graded on its loss minus
one standard error (``loss - loss_stderr``), so a small budget's noise does not call a good
move a Mistake, and a bigger budget (review, puzzles) grades sharper.
Thresholds (points lost: BEST <= 0.25 < GOOD <= 1.0 < INACCURACY <= 2.5 < MISTAKE <= 6.0 <
BLUNDER; win chance lost: 0.5 / 1.5 / 4 / 10 percentage points).
How calibrated: ``benchmarks/calibrate_grades.py`` plays seeded hands of games between each
bot level and the ``heuristic`` and judges every decision of the level with a choice, with the
game score (256 worlds, 0.8 s each). With these thresholds the ladder reads in order of errors
(standard run: ``--games 2 --hands 3``, 100-125 decisions a level; coach version 2, 110 s on
two cores):

=========  ======  =======  =======  ==================
level      errors  blunder  mistake  loss per decision
=========  ======  =======  =======  ==================
novice     24.8%   4.8%     13.6%    1.92 ± 0.34
simple     21.4%   6.8%     6.0%     1.65 ± 0.34
openspiel  14.7%   5.9%     2.9%     1.68 ± 0.45
heuristic  12.9%   2.4%     4.0%     0.73 ± 0.17
expert     12.8%   2.4%     6.4%     0.79 ± 0.18
=========  ======  =======  =======  ==================

(errors: Inaccuracy or worse). The rates carry about ±3-4 points of sampling error each at
this size (``simple`` and ``openspiel`` lose the same per decision within it), and a part of
every level's errors is the coach's own noise at 0.8 s. Under version 1, which sampled the
opponent's hidden cards uniformly (:data:`NO_KNOCK`), the errors were 31.5, 22.6, 16.2, 17.9
and 15.8%.

>>> import random
>>> from gintutor.engine.hand import Deal, HandState
>>> from gintutor.engine.rules import preset
>>> state = HandState(Deal.shuffled(random.Random(3), dealer=0), preset("standard"))
>>> verdict = judge(state.infoset(), worlds=16, seconds=5.0, seed=1)
>>> sorted(str(j.action) for j in verdict.judged)
['pass', 'take']
>>> verdict.best.loss, verdict.best.grade
(0.0, <Grade.BEST: 'best'>)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from math import sqrt
from operator import mul

from gintutor.engine.bots.estimate import NO_KNOCK as FIRST_CHANCE
from gintutor.engine.bots.estimate import sample_opponent_hands
from gintutor.engine.bots.expert import (
    WEIGHTS_FAST,
    after_discard,
    after_pass,
    world_of,
)
from gintutor.engine.bots.heuristic import (
    GREEDY,
    NEIGHBOURS,
    PARTNERS,
    Params,
    View,
    cheapest_discard,
    discard_costs,
    knock_spread,
    should_knock,
)
from gintutor.engine.bots.playout import FAST, TUNED_FAST, World
from gintutor.engine.cards import CARD_POINTS, DECK_MASK, mask_points
from gintutor.engine.hand import HAND_SIZE, NO_CARD, Action, InfoSet, Kind, Phase, Seen
from gintutor.engine.judgement import (
    CLOSE,
    Grade,
    Judged,
    Reason,
    ReasonKind,
    Verdict,
    grade_of,
)
from gintutor.engine.layoffs import defence_deadwood
from gintutor.engine.melds import MELDS_THROUGH
from gintutor.engine.scoring import score_hand
from gintutor.engine.solver import best_discard_deadwood_mask, min_deadwood_mask
from gintutor.errors import IllegalError

# VERSION, the grades, thresholds and records live in .judgement (import them from there), so
# that reading a stored verdict imports no bot: bump VERSION there when the values move.
COACH_WORLDS = 256
"""Sampled worlds at most per verdict for the coach at the table (cut by ``COACH_SECONDS``)."""
COACH_SECONDS = 0.4
"""CPU seconds of play-outs per coach verdict (the whole verdict stays within 0.5 s)."""
REVIEW_WORLDS = 768
REVIEW_SECONDS = 3.0
PUZZLE_WORLDS = 2048
PUZZLE_SECONDS = 10.0
REVIEW_ROLLOUTS = 1500
"""Play-outs about as many as ``REVIEW_SECONDS`` buys on this machine: ``judge(rollouts=...)``
with a large ``seconds`` gives the same verdict on any machine and load."""
PUZZLE_ROLLOUTS = 5000
FIRST_BATCH = 8
"""Worlds every action is played out on before any is dropped."""
KEEP = 3.0
"""An action more than this many paired standard errors behind the leader stops early."""
MIN_STOP = 32
"""No action stops before this many worlds: the paired standard errors of 8 or 16 opponent
hands are too noisy to stop on. Measured over 12 seeds at 8 take positions (64 worlds): where
actions could stop after the first 8 worlds, a fixed action's value spread 1.5 times its
standard error on average over seeds (one good discard read -29 ± 8 after being stopped at 8
worlds, +4 elsewhere); from 32 worlds on, 0.95 times."""
SWITCH = 1.0
"""A follow-up replaces the rollout policy's own choice only this many paired standard errors
ahead of it, on the worlds that choose (:meth:`_Group.chosen`)."""
SINGLE_WORLDS = 32
"""Worlds for a forced decision (one legal action): its value only."""
STOCK_LOW = 8
"""A stock this small or smaller is worth a reason (knock sooner, discard safer)."""
NO_KNOCK = 1.0
"""The estimate's factor for a sampled opponent hand that could have knocked: none. The coach
samples hands built up by the opponent's stock draws (``built``: a uniformly random hand of
unseen cards is far weaker than a hand a player has drawn and thrown for ten turns), and does
not assume that a player who could knock would have (strong players hold a low count for gin).
Measured by ``benchmarks/bench_coach_estimate.py`` (what following the coach's best action
costs, valued in worlds where the opponent holds its real hand): 3.2 ± 0.5 points a decision
less than the uniform estimate's against the ``heuristic``, 0.8 ± 0.3 against ``simple``, and
3.5 ± 0.6 against the heuristic for positions without their record of turns (as puzzles state
them: :func:`~.bots.estimate.stock_draws` counts half the stock gone); its knocks were valued
47 points too high against the heuristic, now 18. Version 2 of the coach. Version 5: the built
hands hold the cards the opponent took with cards they meld with
(:data:`~.bots.estimate.TAKEN_MELDS`); before, where the player could knock, they held twice the
real opponent's deadwood, so knocks read too good (the coach-player knocked in 60% of its hands
against the expert and was undercut in one knock in five)."""


# --------------------------------------------------------------------------------------------
# Valuing


Exact = Callable[[int], float]
"""An action valued exactly from the opponent's sampled hand alone (a knock, big gin)."""
Play = Callable[[World], float]

FOLLOW_DISCARDS = 3
"""After a stock draw, the discards valued as follow-ups of each drawn card: the this many that
leave the least deadwood (ties: the rollout policy's cost); every knock and big gin are valued
too, exactly and cheaply. After a take every discard is (one follow-up decision, successive
halving among them). Measured by ``benchmarks/bench_coach_consistency.py`` (30 positions of
seed 1, 128 worlds a verdict, 4 drawn cards a draw position): value minus the best at the next
decision, take +0.51 (95% CI -0.99 to +2.00; 6.7% of positions outside two combined standard
errors), draw +0.57 (-0.91 to +2.04; 14.3%); with cluster-robust errors, 12 positions at 96
worlds: take -0.85 (-3.57 to +1.88; 8.3%), draw +2.03 (+0.86 to +3.21; 0%). A draw's group per
drawn card holds few worlds, and its best follow-up chosen on them flatters the draw: against a
reference that is not flattered itself (``--held-out``: the best after the drawn card chosen
by one verdict and valued by another on independent worlds), 28 draw positions of seed 1 at 64
worlds, 4 drawn cards each, read +2.78 (+0.72 to +4.83; 14.3% outside two standard errors).
The choice is now cross-fitted (:meth:`_Group.chosen`: each half of the worlds is valued by
the follow-up the other half chooses): the same 28 read -0.98 (-2.55 to +0.58; 0% outside), and
a take against the held-out best, 40 positions of seed 2 at 96 worlds (the slow test), 5%
outside two standard errors. Version 3 of the coach: the puzzle pack's verdicts recomputed on it
moved 185 of its 250 judged puzzles' accepted answers and 51 best answers (nearly all
discard-phase puzzles: the strong-player opponent model, not the cross-fitting); the pack was
rebuilt on them (puzzles/README.md)."""


@dataclass(frozen=True)
class Opponent:
    """Whom the coach assumes across the table: the policy that player follows in the rollouts
    (never its cards) and how likely it was to play on with a hand that could knock."""

    name: str
    params: Params
    no_knock: float


OPPONENTS = {
    "expert": Opponent("expert", WEIGHTS_FAST, NO_KNOCK),
    "heuristic": Opponent("heuristic", TUNED_FAST, NO_KNOCK),
    "openspiel": Opponent("openspiel", GREEDY, FIRST_CHANCE),
    "simple": Opponent("simple", GREEDY, FIRST_CHANCE),
    "novice": Opponent("novice", GREEDY, FIRST_CHANCE),
}
"""The opponent models by bot name. The bots below the heuristic knock at the first chance
(:data:`~.heuristic.GREEDY` plays like them: least deadwood, takes only to meld or knock; a
sampled hand that could have knocked and did not weighs :data:`.estimate.NO_KNOCK`); the
heuristic and the expert play on for gin with a low count (their own rollout weights)."""
STRONG = "expert"
"""The opponent assumed where the table's player is not known (puzzles, games played
elsewhere): a strong player."""


def opponent_model(name: str | None) -> Opponent:
    """The model of the opponent called ``name`` (``None``: :data:`STRONG`)."""
    key = STRONG if name is None else name.strip().lower()
    found = OPPONENTS.get(key)
    if found is None:
        raise IllegalError(
            "unknown opponent {name!r}: choose one of {names}",
            name=name,
            names=", ".join(OPPONENTS),
        )
    return found


def _position_seed(info: InfoSet, seed: int) -> str:
    """The generator's seed: the caller's seed and everything the player knows."""
    return (
        f"coach:{seed}:{info.player}:{info.phase.value}:{info.hand}:{info.pile}:"
        f"{info.stock_size}:{info.taken}:{info.opponent_known}:{info.opponent_passed}:"
        f"{info.opponent_discards}:{info.spread}:{info.knock_limit}:{len(info.events)}"
    )


def after(info: InfoSet, action: Action, drawn: int = NO_CARD) -> InfoSet:
    """What the player knows right after taking the pile's top card, or drawing ``drawn`` from
    the stock: the decision that follows (the discard phase). A test holds it equal to the
    hand state machine's own information set."""
    me = info.player
    if action.kind is Kind.TAKE:
        top = info.top
        return replace(
            info,
            phase=Phase.DISCARD,
            hand=info.hand | 1 << top,
            pile=info.pile[:-1],
            taken=top,
            events=(*info.events, Seen(me, Kind.TAKE, top)),
        )
    if action.kind is Kind.DRAW and drawn != NO_CARD:
        return replace(
            info,
            phase=Phase.DISCARD,
            hand=info.hand | 1 << drawn,
            stock_size=info.stock_size - 1,
            taken=NO_CARD,
            events=(*info.events, Seen(me, Kind.DRAW, drawn)),
        )
    raise IllegalError("{action} is not followed by a decision of the same player", action=action)


def _knock_value(info: InfoSet, action: Action) -> Exact:
    """Points for the knocker against a defender hand: its best melds and layoffs."""
    rules, multiplier = info.rules, info.multiplier
    deadwood = mask_points(info.hand & ~(1 << action.card) & ~action.spread_mask)
    spread = action.spread

    def value(defender: int) -> float:
        if deadwood == 0:
            against = min_deadwood_mask(defender)
        else:
            against = defence_deadwood(defender, spread)
        score = score_hand(deadwood, against, rules, multiplier=multiplier)
        return float(score.knocker_net)

    return value


def _big_gin_value(info: InfoSet) -> Exact:
    rules, multiplier = info.rules, info.multiplier

    def value(defender: int) -> float:
        score = score_hand(
            0, min_deadwood_mask(defender), rules, big_gin=True, multiplier=multiplier
        )
        return float(score.points)

    return value


def _plays(
    info: InfoSet, legal: list[Action], opponent: Opponent
) -> tuple[dict[Action, Play], dict[Action, Exact]]:
    """The rolled-out and the exactly valued actions; a take and a stock draw are neither
    (they are valued by their follow-ups, :class:`_FollowUp`)."""
    me = info.player
    theirs = opponent.params
    plays: dict[Action, Play] = {}
    exact: dict[Action, Exact] = {}
    for action in legal:
        kind = action.kind
        if kind is Kind.DISCARD:
            plays[action] = after_discard(me, action.card, FAST, theirs)
        elif kind is Kind.KNOCK:
            exact[action] = _knock_value(info, action)
        elif kind is Kind.BIG_GIN:
            exact[action] = _big_gin_value(info)
        elif kind is Kind.TAKE or (kind is Kind.DRAW and info.phase is Phase.DRAW):
            continue
        else:
            plays[action] = after_pass(
                me, info.top, info.phase is Phase.OFFER, info.dealer == me, FAST, theirs
            )
    return plays, exact


def _follow_ups(
    child: InfoSet, opponent: Opponent, screen: bool
) -> tuple[dict[Action, Play], dict[Action, Exact]]:
    """The decision after a take or a draw: every knock and big gin (exact) and its discards
    (played out): all of them after a take, the :data:`FOLLOW_DISCARDS` that leave the least
    deadwood (ties: the rollout policy's cost) after a draw (``screen``)."""
    legal = child.legal_actions()
    if screen:
        costs = sorted(
            (deadwood, cost, card)
            for cost, card, deadwood in discard_costs(View.of(child), child.hand, child.taken, FAST)
        )
        cheap = {card for _, _, card in costs[:FOLLOW_DISCARDS]}
        legal = [a for a in legal if a.kind is not Kind.DISCARD or a.card in cheap]
    return _plays(child, legal, opponent)


@dataclass
class _Group:
    """The follow-up decision after one take or one drawn card: each follow-up's points in the
    worlds that lead to it (``worlds`` of them, ``clusters`` their sampled opponent hands);
    follow-ups more than ``KEEP`` paired standard errors behind the group's leader stop being
    played out (successive halving, as at the top). ``default``: the rollout policy's own
    choice there (see :meth:`chosen`)."""

    plays: dict[Action, Play]
    exact: dict[Action, Exact]
    values: dict[Action, list[float]]
    default: Action
    worlds: int = 0
    active: list[Action] = field(default_factory=list)
    clusters: list[int] = field(default_factory=list)

    def best(self) -> Action:
        """The follow-up with the highest mean: what the coach would recommend there."""
        n = self.worlds
        full = [a for a in self.values if len(self.values[a]) == n]
        return max(full, key=lambda a: sum(self.values[a]))

    def prune(self) -> None:
        if self.active and self.worlds >= FIRST_BATCH:
            self.active = _contenders(self.active, self.values, self.exact) or [
                a for a in self.active if a == self.best()
            ]

    def chosen(self) -> list[float]:
        """Points per world of the follow-up chosen for it **on the other half of the worlds**
        (cross-fitted): the worlds are split in two by their sampled opponent hand, and each
        half is valued by the follow-up the other half chooses, so a world's own luck never
        picks the follow-up it then values (a maximum of noisy means chosen and valued on the
        same worlds flatters the take or draw: the winner's curse). The choice is the rollout
        policy's own (``default``) unless another follow-up beats it on the choosing half by
        more than ``SWITCH`` paired standard errors: a draw's group per drawn card holds few
        worlds, and a choice among near-equal follow-ups on them is mostly noise. (Leaving out
        one opponent hand at a time instead chose on more worlds, but its choices, each made
        without the world it values, read the few-world groups of the first batches far too
        low, and a take was stopped early on that.)"""
        return self.resampler()([1] * self.worlds)

    def resampler(self) -> Callable[[Sequence[int]], list[float]]:
        """:meth:`chosen` with each world counted ``weights`` times (a bootstrap resample,
        :func:`_resampled`: the choices are made again on it, so the spread of the resamples
        carries the uncertainty of choosing)."""
        n = self.worlds
        full = [a for a in self.values if len(self.values[a]) == n]
        default = self.default if self.default in full else self.best()
        base = self.values[default]
        halves = [_half(cluster) for cluster in self.clusters[:n]]
        rows = [[i for i, h in enumerate(halves) if h == half] for half in (0, 1)]
        # Per half, per rival follow-up: its values and paired differences with the default.
        rivals = [
            [
                (
                    self.values[action],
                    diffs := [self.values[action][i] - base[i] for i in rows[half]],
                    [d * d for d in diffs],
                )
                for action in full
                if action != default
            ]
            for half in (0, 1)
        ]

        def choose(weights: Sequence[int]) -> list[float]:
            picks = []
            for half in (0, 1):
                # The worlds of one half are valued by the choice the other half makes.
                other = 1 - half
                counts = [weights[i] for i in rows[other]]
                picks.append(_choice(base, rivals[other], counts))
            return [picks[half][i] for i, half in enumerate(halves)]

        return choose


def _choice(
    base: list[float],
    rivals: list[tuple[list[float], list[float], list[float]]],
    counts: Sequence[int],
) -> list[float]:
    """The values of the follow-up the choosing worlds pick: the default (``base``) unless a
    rival's paired differences there put it more than ``SWITCH`` standard errors ahead (the
    rival furthest ahead). ``rivals``: each rival's values, its differences with the default and
    their squares, world by world of the choosing half, each world counted ``counts`` times."""
    m = sum(counts)
    choice, lead = base, 0.0
    if m < 2:
        return choice
    for values, diffs, squares in rivals:
        mean = sum(map(mul, diffs, counts)) / m
        variance = max(0.0, sum(map(mul, squares, counts)) - m * mean * mean) / (m - 1)
        if mean > SWITCH * sqrt(variance / m) and mean > lead:
            choice, lead = values, mean
    return choice


def _half(cluster: int) -> int:
    """Which half of the worlds an opponent hand's worlds fall in: a fixed bit of a
    multiplicative hash of the hand (the same hand always in the same half)."""
    return (cluster * 0x9E3779B97F4A7C15) >> 61 & 1


@dataclass
class _FollowUp:
    """A take or a stock draw valued by the best follow-up, world by world: a take has one
    follow-up decision; a draw one per drawn card (each world's next stock card)."""

    info: InfoSet
    action: Action
    opponent: Opponent
    groups: dict[int, _Group] = field(default_factory=dict)
    order: list[tuple[int, int]] = field(default_factory=list)
    """Per parent world: (group key, index within the group)."""

    def play(self, base: World, defender: int) -> int:
        """Value the follow-ups in one more world (``base`` is not changed); the play-outs."""
        me = self.info.player
        world = _clone(base)
        top = self.info.top
        opp = 1 - me
        if self.action.kind is Kind.TAKE:
            world.pile.pop()
            world.known[opp] |= 1 << top
            card = top
            key = NO_CARD
        else:
            if top != NO_CARD:
                world.avoid[opp] |= 1 << top
            card = world.stock.pop()
            key = card
        world.hands[me] |= 1 << card
        group = self.groups.get(key)
        if group is None:
            child = after(self.info, self.action, NO_CARD if key == NO_CARD else card)
            plays, exact = _follow_ups(child, self.opponent, key != NO_CARD)
            values: dict[Action, list[float]] = {a: [] for a in [*plays, *exact]}
            default = _policy_choice(child, values)
            group = _Group(plays, exact, values, default, 0, list(plays))
            self.groups[key] = group
        for action, value in group.exact.items():
            group.values[action].append(value(defender))
        for action in group.active:
            group.values[action].append(group.plays[action](_clone(world)))
        self.order.append((key, group.worlds))
        group.clusters.append(defender)
        group.worlds += 1
        return len(group.active)

    def prune(self) -> None:
        for group in self.groups.values():
            group.prune()

    def values(self, optimistic: bool = False) -> list[float]:
        """Points per parent world: in each, the follow-up its group chooses for it on the
        other worlds (:meth:`_Group.chosen`); ``optimistic``: its group's best on all of them
        (flattered by the winner's curse: a take or a draw is stopped early only when even
        these are far behind, :func:`_contenders`)."""
        if optimistic:
            chosen = {key: group.values[group.best()] for key, group in self.groups.items()}
        else:
            chosen = {key: group.chosen() for key, group in self.groups.items()}
        return [chosen[key][index] for key, index in self.order]

    def resampler(self) -> Callable[[Sequence[int]], float]:
        """The cross-fitted mean over the parent worlds counted ``weights`` times each, every
        group's choice made again on them: one bootstrap resample (:func:`_resampled`). The
        paired differences each choice compares are worked out once, here."""
        order = self.order
        groups = {key: group.resampler() for key, group in self.groups.items()}

        def mean(weights: Sequence[int]) -> float:
            per_group = {key: [0] * g.worlds for key, g in self.groups.items()}
            for (key, index), weight in zip(order, weights, strict=False):
                per_group[key][index] = weight
            chosen = {key: choose(per_group[key]) for key, choose in groups.items()}
            total = sum(weights[: len(order)])
            points = sum(
                chosen[key][index] * weight
                for (key, index), weight in zip(order, weights, strict=False)
            )
            return points / total if total else 0.0

        return mean


def _policy_choice(child: InfoSet, options: Collection[Action]) -> Action:
    """What the rollout policy (``FAST``) would do at ``child`` among ``options``: big gin, its
    knock (the least-deadwood spread with the fewest live layoff cards), else its cheapest
    discard; the first option if that one is not among them."""
    for action in options:
        if action.kind is Kind.BIG_GIN:
            return action
    view = View.of(child)
    card, _, knock_card, deadwood = cheapest_discard(view, child.hand, child.taken, FAST)
    if should_knock(deadwood, view, FAST):
        rest = child.hand & ~(1 << knock_card)
        choice = Action.knock(knock_card, knock_spread(rest, view.live))
    else:
        choice = Action.discard(card)
    return choice if choice in options else next(iter(options))


def _clone(world: World) -> World:
    return World(
        list(world.hands),
        list(world.stock),
        list(world.pile),
        list(world.known),
        list(world.avoid),
        world.rules,
        world.limit,
        world.multiplier,
    )


def _mean_se(values: Sequence[float], clusters: Sequence[int] = ()) -> tuple[float, float]:
    """Mean and standard error; with ``clusters`` (the sampled opponent hand of each world),
    the cluster-robust standard error: the estimate's resampling draws the same hand into
    several worlds, which are then not independent (measured on the issue's repro position:
    the spread of a verdict's value over seeds was 1.75 times the plain standard error)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    if not clusters:
        variance = sum((v - mean) ** 2 for v in values) / (n - 1)
        return mean, sqrt(variance / n)
    sums: dict[int, float] = {}
    for value, cluster in zip(values, clusters, strict=False):
        sums[cluster] = sums.get(cluster, 0.0) + value - mean
    groups = len(sums)
    if groups < 2:
        return mean, 0.0
    variance = groups / (groups - 1) * sum(x * x for x in sums.values()) / (n * n)
    return mean, sqrt(variance)


def _paired(
    a: Sequence[float], b: Sequence[float], clusters: Sequence[int] = ()
) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` over their common prefix of worlds."""
    n = min(len(a), len(b))
    return _mean_se([a[i] - b[i] for i in range(n)], clusters[:n])


def _sampled(
    info: InfoSet,
    legal: list[Action],
    worlds: int,
    seconds: float,
    rng: random.Random,
    start: float,
    rollouts: int | None = None,
    built: bool = True,
    opponent: Opponent | None = None,
    stop: Callable[[int], bool] | None = None,
    keep: Action | None = None,
) -> tuple[dict[Action, list[float]], list[int], dict[Action, _FollowUp]]:
    """Each action's points world by world (a prefix of the same worlds for all), each
    world's sampled opponent hand (for the standard errors, :func:`_mean_se`), and the takes'
    and stock draws' follow-ups (for theirs, :func:`_resampled`): successive
    halving over the rolled-out actions, the exact ones valued in every world, a take or a
    stock draw by its best follow-up in the same worlds. ``built``: opponent hands built up by
    its stock draws (the coach's estimate, :data:`NO_KNOCK`), else uniformly random hands of
    unseen cards weighted by the opponent's choices."""
    model = opponent or opponent_model(None)
    plays, exact = _plays(info, legal, model)
    follows = {a: _FollowUp(info, a, model) for a in legal if a not in plays and a not in exact}
    if len(legal) == 1:
        worlds = min(worlds, SINGLE_WORLDS)
    values: dict[Action, list[float]] = {action: [] for action in legal}
    clusters: list[int] = []
    active: list[Action] = [*plays, *follows]
    done = 0
    played = 0
    cap = rollouts if rollouts is not None else 1 << 62

    def spent() -> bool:
        return done >= FIRST_BATCH and (
            played >= cap
            or time.process_time() - start > seconds
            or (stop is not None and stop(done))
        )

    def gather() -> None:
        for action, follow in follows.items():
            values[action] = follow.values()

    batch = min(FIRST_BATCH, worlds)
    while done < worlds:
        # Opponent hands are sampled batch by batch: a verdict cut short samples no more.
        sample = sample_opponent_hands(info, batch, rng, built=built, no_knock=model.no_knock)
        hands = [hand for hand, _ in sample]
        seeds = [rng.getrandbits(32) for _ in hands]
        for action, value in exact.items():
            values[action] += [value(hand) for hand in hands]
        for hand, world_seed in zip(hands, seeds, strict=True):
            clusters.append(hand)
            if active:
                base = world_of(info, hand, random.Random(world_seed))
                for action in active:
                    follow = follows.get(action)
                    if follow is None:
                        values[action].append(plays[action](_clone(base)))
                        played += 1
                    else:
                        played += follow.play(base, hand)
            done += 1
            if spent():
                break
        if spent():
            break
        if active:
            for follow in follows.values():
                follow.prune()
            gather()
            flattered = {
                action: follow.values(optimistic=True) for action, follow in follows.items()
            }
            active = _contenders(active, values, exact, follows, clusters, flattered, keep)
        if not active and not exact:
            break
        batch = min(done, worlds - done) if active else worlds - done
    gather()
    for action in exact:
        del values[action][done:]
    return values, clusters[:done], follows


BOOTSTRAP = 100
"""Resamples of the opponent hands for a take's or a stock draw's standard error."""


def _resampled(
    actions: Sequence[Action],
    values: dict[Action, list[float]],
    follows: dict[Action, _FollowUp],
    clusters: Sequence[int],
    rng: random.Random,
) -> dict[Action, list[float]]:
    """Each action's mean in each of :data:`BOOTSTRAP` resamples of the worlds (the sampled
    opponent hands drawn again with replacement, each world counted as often as its hand is
    drawn), a take's or a stock draw's follow-ups chosen again on each resample.

    A per-world standard error misses the uncertainty of *which* follow-up the worlds choose:
    measured over 12 seeds at 8 take positions (64 worlds), a take's value spread 1.2-1.5
    times its per-world standard error where the choice was in doubt. The resamples carry it.
    """
    hands = sorted(set(clusters))
    where = {hand: k for k, hand in enumerate(hands)}
    of = [where[hand] for hand in clusters]
    draws = len(hands)
    means = {
        action: follows[action].resampler() if action in follows else None for action in actions
    }
    out: dict[Action, list[float]] = {action: [] for action in actions}
    for _ in range(BOOTSTRAP):
        drawn = [0] * draws
        for _ in range(draws):
            drawn[rng.randrange(draws)] += 1
        weights = [drawn[k] for k in of]
        total = sum(weights)
        for action, mean in means.items():
            if mean is not None:
                out[action].append(mean(weights))
            else:
                out[action].append(sum(map(mul, values[action], weights)) / total)
    return out


def _spread(samples: Sequence[float]) -> float:
    """The standard deviation of bootstrap means: the standard error they estimate."""
    n = len(samples)
    if n < 2:
        return 0.0
    mean = sum(samples) / n
    return sqrt(sum((x - mean) ** 2 for x in samples) / (n - 1))


def _contenders(
    active: list[Action],
    values: dict[Action, list[float]],
    exact: dict[Action, Exact],
    follows: Collection[Action] = (),
    clusters: Sequence[int] = (),
    flattered: dict[Action, list[float]] | None = None,
    keep: Action | None = None,
) -> list[Action]:
    """The rolled-out actions within ``KEEP`` paired standard errors of the leader (none left
    when the leader alone remains, unless it is valued by its follow-ups, whose value and
    choice want every world of the budget). ``flattered``: a take's or a draw's values with
    each group's best on all its worlds; it stops only when even those are behind (its
    cross-fitted values, on the few worlds of a first batch, can read far too low). ``keep``
    (the action a review grades) stays in with the leader, its loss paired world by world."""
    if len(active) <= 1 and not exact:
        return active
    count = len(values[active[0]])
    if count < MIN_STOP:
        return active
    leader = max([*active, *exact], key=lambda a: sum(values[a][:count]) / count if count else 0.0)
    kept = []
    for action in active:
        if action in (leader, keep):
            kept.append(action)
            continue
        own = flattered.get(action, values[action]) if flattered else values[action]
        diff, se = _paired(values[leader], own, clusters)
        if diff <= KEEP * se:
            kept.append(action)
    if len(kept) == 1 and kept[0] == leader and not exact and leader not in follows:
        return []
    return kept


def _exact_defence(info: InfoSet, legal: list[Action]) -> dict[Action, list[tuple[float, float]]]:
    """Each lay-off choice's points as ``(probability, points)`` over the knocker's possible
    deadwood counts (its hidden deadwood cards: every fitting set of unseen cards, equally
    likely)."""
    spread_mask = 0
    for meld in info.spread:
        spread_mask |= meld
    known_dead = info.opponent_known & ~spread_mask
    hidden = HAND_SIZE - spread_mask.bit_count() - known_dead.bit_count()
    base = mask_points(known_dead)
    limit = max(info.knock_limit, 1)
    pool = info.unseen & ~spread_mask & ~info.opponent_known
    counts = _subset_point_counts(pool, max(hidden, 0), limit - base)
    total = sum(counts)
    dist = [(n / total, base + points) for points, n in enumerate(counts) if n and base + points]
    if not dist:
        dist = [(1.0, max(1, min(base, limit)))]
    out: dict[Action, list[tuple[float, float]]] = {}
    for action in legal:
        against = min_deadwood_mask(info.hand & ~action.layoffs)
        out[action] = [
            (
                p,
                -float(
                    score_hand(knocker, against, info.rules, multiplier=info.multiplier).knocker_net
                ),
            )
            for p, knocker in dist
        ]
    return out


def _subset_point_counts(pool: int, size: int, most: int) -> list[int]:
    """``counts[s]``: how many ``size``-card subsets of ``pool`` have ``s`` points (s <= most)."""
    if most < 0:
        return []
    # ways[k][s]: subsets of k cards with s points among the cards seen so far.
    ways = [[0] * (most + 1) for _ in range(size + 1)]
    ways[0][0] = 1
    cards = pool
    while cards:
        low = cards & -cards
        cards ^= low
        points = CARD_POINTS[low.bit_length() - 1]
        for k in range(size, 0, -1):
            row, below = ways[k], ways[k - 1]
            for s in range(most, points - 1, -1):
                if below[s - points]:
                    row[s] += below[s - points]
    return ways[size]


# --------------------------------------------------------------------------------------------
# Reasons


def _reasons(info: InfoSet, action: Action, results: Sequence[float]) -> tuple[Reason, ...]:
    kind = action.kind
    out: list[Reason] = []
    hand = info.hand
    if kind in (Kind.DISCARD, Kind.KNOCK):
        card = action.card
        rest = hand ^ 1 << card
        deadwood = min_deadwood_mask(rest)
        out.append(Reason(ReasonKind.DEADWOOD_AFTER, 1 << card, deadwood))
        if kind is Kind.DISCARD:
            out += _discard_reasons(info, card, rest, deadwood)
            least = min(min_deadwood_mask(hand ^ low) for low in _bits(hand & ~_taken_bit(info)))
            if least <= info.knock_limit:
                out.append(Reason(ReasonKind.NO_KNOCK, 0, least))
        else:
            dead = rest & ~action.spread_mask
            points = mask_points(dead)
            if points == 0:
                out.append(Reason(ReasonKind.GIN, action.spread_mask))
            else:
                out.append(Reason(ReasonKind.KNOCK, dead, points))
                if results:
                    undercut = sum(1 for v in results if v < 0) / len(results)
                    out.append(Reason(ReasonKind.UNDERCUT_RISK, dead, round(100 * undercut)))
    elif kind is Kind.BIG_GIN:
        out.append(Reason(ReasonKind.BIG_GIN, hand))
    elif kind is Kind.TAKE:
        top = info.top
        eleven = hand | 1 << top
        after = min(min_deadwood_mask(eleven ^ low) for low in _bits(hand))
        meld = _meld_of(eleven, top)
        if meld:
            out.append(Reason(ReasonKind.MELDS, meld, 0, top))
        out.append(Reason(ReasonKind.DEADWOOD_AFTER, 1 << top, after))
        if after <= info.knock_limit:
            out.append(Reason(ReasonKind.CAN_KNOCK, 0, after))
    elif kind in (Kind.DRAW, Kind.PASS):
        outs = _draw_outs(hand, info.unseen)
        out.append(Reason(ReasonKind.DRAW_OUTS, outs, outs.bit_count()))
    elif kind is Kind.LAY_OFF:
        left = min_deadwood_mask(hand & ~action.layoffs)
        out.append(Reason(ReasonKind.LAYS_OFF, action.layoffs, left))
    if info.stock_size <= STOCK_LOW and kind is not Kind.LAY_OFF:
        out.append(Reason(ReasonKind.STOCK_LOW, 0, info.stock_size))
    return tuple(out)


def _draw_outs(hand: int, unseen: int) -> int:
    """The unseen cards that, drawn into ``hand`` (10 cards), lower its least deadwood."""
    now = min_deadwood_mask(hand)
    outs = 0
    for low in _bits(unseen):
        if best_discard_deadwood_mask(hand | low) < now:
            outs |= low
    return outs


def _taken_bit(info: InfoSet) -> int:
    return 0 if info.taken == NO_CARD else 1 << info.taken


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low)
    return out


def _meld_of(hand: int, card: int) -> int:
    """The meld ``card`` is in when ``hand`` is arranged for the least deadwood (0: none)."""
    alone = min_deadwood_mask(hand ^ 1 << card) + CARD_POINTS[card]
    best, best_meld = alone, 0
    for meld in MELDS_THROUGH[card]:
        if meld & hand == meld:
            left = min_deadwood_mask(hand & ~meld)
            if left < best:
                best, best_meld = left, meld
    return best_meld


def _discard_reasons(info: InfoSet, card: int, rest: int, deadwood: int) -> list[Reason]:
    out: list[Reason] = []
    hand = info.hand
    meld = _meld_of(hand, card)
    if meld:
        out.append(Reason(ReasonKind.BREAKS_MELD, meld, 0, card))
    known = info.opponent_known
    possible = info.unseen | known
    for others in PARTNERS[card]:
        if others & known and not others & ~possible:
            other = (others & known & -(others & known)).bit_length() - 1
            out.append(Reason(ReasonKind.FEEDS_OPPONENT, others, 0, other))
            break
    near = NEIGHBOURS[card]
    if near & info.opponent_passed:
        out.append(Reason(ReasonKind.THEY_PASSED, near & info.opponent_passed))
    if near & info.opponent_discards:
        out.append(Reason(ReasonKind.THEY_DISCARDED, near & info.opponent_discards))
    outs = _outs(rest, info.unseen)
    out.append(Reason(ReasonKind.LIVE_OUTS, outs, outs.bit_count()))
    return out


def _outs(hand: int, live: int) -> int:
    """The live cards that would make a meld with two cards of ``hand`` not already melded."""
    outs = 0
    cards = live
    while cards:
        low = cards & -cards
        cards ^= low
        for others in PARTNERS[low.bit_length() - 1]:
            if others & hand == others:
                outs |= low
                break
    return outs & DECK_MASK


# --------------------------------------------------------------------------------------------
# The verdict


def judge(
    info: InfoSet,
    *,
    worlds: int = COACH_WORLDS,
    seconds: float = COACH_SECONDS,
    seed: int = 0,
    scores: tuple[int, int] | None = None,
    rollouts: int | None = None,
    built: bool = True,
    kinds: Collection[Kind] | None = None,
    opponent: str | None = None,
    stop: Callable[[int], bool] | None = None,
    keep: Action | None = None,
) -> Verdict:
    """Every legal action at ``info`` valued, graded and explained, best first.

    Determinized rollouts over opponent hands sampled by the built estimate (only what the
    player knows), common random numbers, heuristic play for both sides; knocks, big gin and
    lay-offs scored exactly. ``scores``: (player's, opponent's) game score before this hand,
    for the game-win chance. Reproducible for a given seed and position as long as
    ``seconds`` (CPU time) does not cut the work short; ``rollouts`` caps the play-outs by
    count instead, the same on any machine and load (give it with a large ``seconds`` for
    bit-for-bit repeats, e.g. a review on several processes). ``built=False`` samples the
    opponent's hidden cards uniformly (weighted by its passes and discards only): a prior whose
    values an exact enumeration can check, far weaker than real hands (:data:`NO_KNOCK`).
    ``kinds``: judge only the legal actions of these kinds (a screen that needs the knocks
    alone, which then costs no play-out). ``opponent``: the bot across the table (its policy
    in the rollouts and its knocking habit in the estimate, :data:`OPPONENTS`; never its cards),
    ``None`` for a strong player (:data:`STRONG`); the verdict names it. ``stop``: asked with
    the worlds done after each world (from the first batch's end); once it answers True the
    sampling ends there, as
    when ``seconds`` run out (the coach thinking while the learner does, asked for its verdict
    when they act): the verdict is the one ``seconds`` running out at that world gives.
    ``keep``: an action played out on every world with the leader, never dropped as weak (a
    review grades the action played: its loss then rests on every world, not on the first
    few that made it look weak).
    """
    start = time.process_time()
    legal = info.legal_actions()
    if kinds is not None:
        legal = [action for action in legal if action.kind in kinds]
    if not legal:
        raise IllegalError("no decision to judge in the {phase} phase", phase=info.phase.value)
    model = opponent_model(opponent)
    rng = random.Random(_position_seed(info, seed))
    win_of = _win_function(info, scores)
    if info.phase is Phase.DEFEND:
        judged = _judge_exact(info, legal, win_of)
        used = 0
    else:
        values, clusters, follows = _sampled(
            info, legal, worlds, seconds, rng, start, rollouts, built, model, stop, keep
        )
        full = max(len(v) for v in values.values())
        finished = [a for a in legal if len(values[a]) == full]
        spread = _resampled(finished, values, follows, clusters, rng) if follows else None
        judged = _judge_sampled(info, legal, values, win_of, clusters, spread)
        used = max(len(v) for v in values.values())
    return Verdict(info.player, info.phase, judged, used, time.process_time() - start, model.name)


def _win_function(info: InfoSet, scores: tuple[int, int] | None) -> Callable[[float], float] | None:
    """The game-win chance after a hand result (the player's net points), or ``None``."""
    if scores is None:
        return None
    from gintutor.engine.winchance import game_win_chance

    mine, theirs = scores
    rules = info.rules
    dealt = info.dealer == info.player
    cache: dict[int, float] = {}

    def win(points: float) -> float:
        net = round(points)
        found = cache.get(net)
        if found is None:
            if net > 0:
                found = game_win_chance(mine + net, theirs, rules, my_deal=not dealt)
            elif net < 0:
                found = game_win_chance(mine, theirs - net, rules, my_deal=not dealt)
            else:
                found = game_win_chance(mine, theirs, rules, my_deal=dealt)
            cache[net] = found
        return found

    return win


def _judge_exact(
    info: InfoSet, legal: list[Action], win_of: Callable[[float], float] | None
) -> tuple[Judged, ...]:
    dists = _exact_defence(info, legal)
    means = {a: sum(p * v for p, v in d) for a, d in dists.items()}
    wins = (
        {a: sum(p * win_of(v) for p, v in d) for a, d in dists.items()}
        if win_of is not None
        else None
    )
    best_mean = max(means.values())
    top_win = max(wins.values()) if wins is not None else None
    order = sorted(legal, key=lambda a: (-means[a], a.layoffs.bit_count()))
    out = []
    for rank, action in enumerate(order):
        loss = best_mean - means[action]
        win = wins[action] if wins is not None else None
        win_loss = top_win - win if top_win is not None and win is not None else None
        close = loss <= 1e-9 if rank else len(order) > 1 and means[order[1]] >= best_mean - 1e-9
        out.append(
            Judged(
                action,
                means[action],
                0.0,
                loss,
                0.0,
                win,
                win_loss,
                grade_of(loss, win_loss),
                close,
                _reasons(info, action, ()),
            )
        )
    return tuple(out)


def _judge_sampled(
    info: InfoSet,
    legal: list[Action],
    values: dict[Action, list[float]],
    win_of: Callable[[float], float] | None,
    clusters: Sequence[int] = (),
    resampled: dict[Action, list[float]] | None = None,
) -> tuple[Judged, ...]:
    """The records, best first. ``resampled``: the finished actions' means in bootstrap
    resamples (:func:`_resampled`), whose spread is the standard error of a take or a draw
    (and of a difference with one)."""
    full = max(len(v) for v in values.values())
    finished = [a for a in legal if len(values[a]) == full]
    boot = resampled or {}
    stats = {}
    for action in finished:
        mean, se = _mean_se(values[action], clusters)
        stats[action] = (mean, _spread(boot[action]) if action in boot else se)
    best = max(finished, key=lambda a: (stats[a][0], -legal.index(a)))
    best_mean, best_se = stats[best]
    records: dict[Action, tuple[float, float, float, float]] = {}
    for action in legal:
        vals = values[action]
        if action == best:
            records[action] = (best_mean, best_se, 0.0, 0.0)
            continue
        diff, loss_se = _paired(values[best], vals, clusters)
        if action in boot and best in boot:
            loss_se = _spread([b - a for b, a in zip(boot[best], boot[action], strict=True)])
        if len(vals) == full:
            mean, se = stats[action]
            records[action] = (mean, se, max(0.0, best_mean - mean), loss_se)
        else:
            loss = max(0.0, diff)
            records[action] = (best_mean - loss, sqrt(best_se**2 + loss_se**2), loss, loss_se)
    wins = _win_records(legal, values, win_of, best, full, clusters)
    ordered = sorted(legal, key=lambda a: (records[a][2], legal.index(a)))
    out: dict[Action, Judged] = {}
    close: dict[Action, bool] = {}
    grades: dict[Action, Grade] = {}
    for action in ordered:
        _, _, loss, loss_se = records[action]
        _, win_loss, win_se = wins.get(action, (None, None, 0.0))
        near_points = action == best or loss <= CLOSE * loss_se
        near_win = win_loss is None or win_loss <= CLOSE * win_se
        close[action] = near_points and near_win
        # No grade from a difference within CLOSE standard errors (the noise floor): only
        # what is beyond it, each measure given one standard error's benefit of the doubt.
        grades[action] = grade_of(
            0.0 if near_points else max(0.0, loss - loss_se),
            None if near_win or win_loss is None else max(0.0, win_loss - win_se),
        )
    runner_close = len(ordered) > 1 and close[ordered[1]]
    for action in ordered:
        mean, se, loss, loss_se = records[action]
        win, win_loss, _ = wins.get(action, (None, None, 0.0))
        out[action] = Judged(
            action,
            mean,
            se,
            loss,
            loss_se,
            win,
            win_loss,
            grades[action],
            runner_close if action == best else close[action],
            _reasons(info, action, values[action]),
            len(values[action]),
            wins[action][2] if action in wins else None,
        )
    return tuple(out[action] for action in ordered)


def _win_records(
    legal: list[Action],
    values: dict[Action, list[float]],
    win_of: Callable[[float], float] | None,
    best: Action,
    full: int,
    clusters: Sequence[int] = (),
) -> dict[Action, tuple[float, float, float]]:
    """``(win chance, win chance lost to the safest action, its paired standard error)``."""
    if win_of is None:
        return {}
    wins_of = {a: [win_of(v) for v in values[a]] for a in legal}
    best_win = _mean_se(wins_of[best])[0]
    chance: dict[Action, float] = {}
    for action in legal:
        if len(values[action]) == full:
            win = _mean_se(wins_of[action])[0]
        else:
            win = best_win - _paired(wins_of[best], wins_of[action])[0]
        chance[action] = min(1.0, max(0.0, win))
    safest = max(legal, key=lambda a: (chance[a], len(values[a])))
    out = {}
    for action in legal:
        win_se = 0.0 if action == safest else _paired(wins_of[safest], wins_of[action], clusters)[1]
        out[action] = (chance[action], max(0.0, chance[safest] - chance[action]), win_se)
    return out
