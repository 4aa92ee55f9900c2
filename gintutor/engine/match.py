"""Bots against each other on duplicate deals, with honest statistics.

Every deal sequence is played twice with the seats swapped (a *pair*): what one bot was dealt
in the first game, the other is dealt in the second, so the luck of the cards cancels out. A
game runs to the rule set's target; the first hand's dealer is seat 0, then the dealer
alternates (a void hand is dealt again by the same dealer). Deals and each bot's random choices
come from generators seeded by ``(seed, pair, hand)``, so a match is reproducible whatever the
number of worker processes.

Statistics: games won with a 95% Wilson interval, and mean points per hand with a confidence
interval from the pairs (a ratio estimator: the pair is the unit, so the interval accounts for
the pairing).

>>> low, high = wilson(7, 10)
>>> round(low, 4), round(high, 4)
(0.3968, 0.8922)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from math import sqrt

from gintutor.engine.bots import Bot, make_bot
from gintutor.engine.hand import Deal, GameState, HandState
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import Outcome
from gintutor.engine.workers import Workers
from gintutor.errors import GinError

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""
MAX_HANDS = 200
MAX_ACTIONS = 400
"""A hand between bots still open after this many actions is abandoned as void: two bots
can take and throw the same cards from the pile for ever (a real hand has about 30-60)."""
"""A game longer than this many hands is a bug (void hands score nothing, but deals vary)."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); ``(0, 1)`` with no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class RatioEstimate:
    """A mean per unit (points per hand) from clusters (pairs), with its standard error."""

    mean: float
    stderr: float
    clusters: int

    @property
    def low(self) -> float:
        """Lower end of the 95% interval."""
        return self.mean - Z95 * self.stderr

    @property
    def high(self) -> float:
        """Upper end of the 95% interval."""
        return self.mean + Z95 * self.stderr


def ratio_estimate(totals: Sequence[float], counts: Sequence[int]) -> RatioEstimate:
    """Σtotals / Σcounts with the cluster (delta-method) standard error.

    Each cluster ``i`` contributed ``totals[i]`` points over ``counts[i]`` hands; the standard
    error is ``sqrt(Σ(t_i - R·c_i)² / (n(n-1))) / mean(c)``.

    >>> estimate = ratio_estimate([10, -2, 6], [2, 2, 2])
    >>> estimate.mean, round(estimate.stderr, 4)
    (2.3333, 1.7638)
    """
    n = len(totals)
    hands = sum(counts)
    if n == 0 or hands == 0:
        return RatioEstimate(0.0, 0.0, n)
    ratio = sum(totals) / hands
    if n < 2:
        return RatioEstimate(round(ratio, 4), 0.0, n)
    spread = sum((t - ratio * c) ** 2 for t, c in zip(totals, counts, strict=True))
    stderr = sqrt(spread / (n * (n - 1))) / (hands / n)
    return RatioEstimate(round(ratio, 4), stderr, n)


@dataclass(frozen=True)
class HandLine:
    """One hand of a game from the seats' side: the winner seat (``None`` void), how, points."""

    winner: int | None
    outcome: Outcome | None
    points: int
    knocker: int | None


@dataclass(frozen=True)
class GameRecord:
    """One game: which bot sat where, the winner seat, the hands, and each seat's decisions and
    seconds spent deciding."""

    seats: tuple[str, str]
    winner: int | None
    """The winner seat; ``None`` only for a Hollywood match tied on points."""
    totals: tuple[int, int]
    """Final points, bonuses included (Hollywood: over the three games)."""
    hands: tuple[HandLine, ...]
    decisions: tuple[int, int]
    seconds: tuple[float, float]


def play_hand(
    bots: Sequence[Bot],
    deal: Deal,
    rules: RuleSet,
    rngs: Sequence[random.Random],
    clock: list[list[float]] | None = None,
    max_actions: int = MAX_ACTIONS,
) -> HandState:
    """Play one hand between two bots; ``clock[seat]`` collects each decision's CPU seconds
    (process time: on a shared machine wall-clock time measures the neighbours). A hand still
    open after ``max_actions`` actions is abandoned as void."""
    state = HandState(deal, rules)
    while not state.over:
        if len(state.log) >= max_actions:
            state.abandon()
            break
        seat = state.to_move
        info = state.infoset(seat)
        start = time.process_time()
        action = bots[seat].act(info, rngs[seat])
        if clock is not None:
            clock[seat].append(time.process_time() - start)
        state.do(action)
    return state


def play_game(
    bots: Sequence[Bot], rules: RuleSet, seed: int | str, bot_seed: int | str | None = None
) -> GameRecord:
    """A game to the target; hand ``k``'s deal comes from ``(seed, k)``, the bots' choices from
    ``(bot_seed, seat)``."""
    game = GameState(rules, first_dealer=0)
    rngs = [
        random.Random(f"bot:{seed if bot_seed is None else bot_seed}:{seat}") for seat in (0, 1)
    ]
    clock: list[list[float]] = [[], []]
    lines: list[HandLine] = []
    while not game.over:
        if len(lines) >= MAX_HANDS:
            raise GinError("game {seed}: no winner after {most} hands", seed=seed, most=MAX_HANDS)
        deal = Deal.shuffled(random.Random(f"deal:{seed}:{len(lines)}"), game.dealer)
        state = play_hand(bots, deal, rules, rngs, clock)
        result = state.result
        assert result is not None
        game.record(result)
        lines.append(HandLine(result.winner, result.outcome, result.points, result.knocker))
    return GameRecord(
        seats=(bots[0].name, bots[1].name),
        winner=game.winner,
        totals=game.totals,
        hands=tuple(lines),
        decisions=(len(clock[0]), len(clock[1])),
        seconds=(sum(clock[0]), sum(clock[1])),
    )


@dataclass(frozen=True)
class MatchSpec:
    """What to play: two bot names, the rules, the number of pairs, the seed, bot options."""

    bots: tuple[str, str]
    rules: RuleSet
    pairs: int
    seed: int = 1
    worlds: int | None = None
    seconds: float | None = None

    def make(self, name: str) -> Bot:
        """The bot called ``name`` with this match's options."""
        return make_bot(name, worlds=self.worlds, seconds=self.seconds)


def play_pair(spec: MatchSpec, pair: int) -> tuple[GameRecord, GameRecord]:
    """Pair ``pair``: the same deals twice, bot A in seat 0 and then in seat 1."""
    a, b = spec.make(spec.bots[0]), spec.make(spec.bots[1])
    seed = f"{spec.seed}:{pair}"
    first = play_game([a, b], spec.rules, seed, bot_seed=f"{seed}:0")
    second = play_game([b, a], spec.rules, seed, bot_seed=f"{seed}:1")
    return first, second


def _play_pair_job(
    job: tuple[MatchSpec, int],
) -> tuple[int, tuple[GameRecord, GameRecord] | GinError]:
    """A pair's games, or why they could not be played to the end (a game with no winner;
    the error itself, so its template crosses to the parent process to be translated)."""
    spec, pair = job
    try:
        return pair, play_pair(spec, pair)
    except GinError as error:
        return pair, error


@dataclass
class _Side:
    """Running counts for one bot."""

    games_won: int = 0
    hands_won: int = 0
    gin: int = 0
    big_gin: int = 0
    knock: int = 0
    undercut: int = 0
    undercut_against: int = 0
    knocks_made: int = 0
    decisions: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class BotFigures:
    """One bot's figures over the match (rates per hand played)."""

    name: str
    games_won: int
    win_rate: float
    win_low: float
    win_high: float
    hands_won: int
    gin_rate: float
    knock_rate: float
    undercut_rate: float
    undercut_against_rate: float
    seconds_per_decision: float
    decisions: int


@dataclass(frozen=True)
class MatchReport:
    """The whole match: games and hands played, each bot's figures, points per hand for A."""

    bots: tuple[str, str]
    rules: str
    seed: int
    games: int
    hands: int
    void_hands: int
    figures: tuple[BotFigures, BotFigures]
    points_per_hand: RatioEstimate
    options: dict[str, object] = field(default_factory=dict)
    stopped: str | None = None
    """Why the match stopped before its last pair (a game with no winner after
    :data:`MAX_HANDS` hands): the report covers the pairs played before it."""

    def to_dict(self) -> dict[str, object]:
        """Plain values for ``--json`` (``stopped`` only when the match stopped early)."""
        extra: dict[str, object] = {} if self.stopped is None else {"stopped": self.stopped}
        return {
            **extra,
            "bots": list(self.bots),
            "rules": self.rules,
            "seed": self.seed,
            "games": self.games,
            "hands": self.hands,
            "void_hands": self.void_hands,
            "options": self.options,
            "points_per_hand": {
                "bot": self.bots[0],
                "mean": self.points_per_hand.mean,
                "low": round(self.points_per_hand.low, 4),
                "high": round(self.points_per_hand.high, 4),
                "stderr": round(self.points_per_hand.stderr, 4),
                "pairs": self.points_per_hand.clusters,
            },
            "figures": [
                {
                    key: (round(value, 6) if isinstance(value, float) else value)
                    for key, value in vars(figure).items()
                }
                for figure in self.figures
            ],
        }


def summarize(spec: MatchSpec, pairs: Sequence[tuple[GameRecord, GameRecord]]) -> MatchReport:
    """The match figures from its pairs of games (bot A is ``spec.bots[0]``)."""
    sides = (_Side(), _Side())
    totals: list[float] = []
    counts: list[int] = []
    hands = void = games = 0
    for pair in pairs:
        net = 0
        count = 0
        for index, record in enumerate(pair):
            games += 1
            a_seat = index  # game 0: A sits in seat 0; game 1: A sits in seat 1
            seat_side = {a_seat: sides[0], 1 - a_seat: sides[1]}
            if record.winner is not None:
                seat_side[record.winner].games_won += 1
            for seat in (0, 1):
                seat_side[seat].decisions += record.decisions[seat]
                seat_side[seat].seconds += record.seconds[seat]
            for line in record.hands:
                hands += 1
                count += 1
                if line.winner is None:
                    void += 1
                    continue
                winner = seat_side[line.winner]
                winner.hands_won += 1
                if line.knocker is not None:
                    seat_side[line.knocker].knocks_made += 1
                if line.outcome is Outcome.GIN:
                    winner.gin += 1
                elif line.outcome is Outcome.BIG_GIN:
                    winner.big_gin += 1
                elif line.outcome is Outcome.KNOCK:
                    winner.knock += 1
                elif line.outcome is Outcome.UNDERCUT:
                    winner.undercut += 1
                    seat_side[1 - line.winner].undercut_against += 1
                net += line.points if line.winner == a_seat else -line.points
        totals.append(net)
        counts.append(count)
    figures = tuple(
        _figures(name, side, games, hands) for name, side in zip(spec.bots, sides, strict=True)
    )
    return MatchReport(
        bots=spec.bots,
        rules=spec.rules.name,
        seed=spec.seed,
        games=games,
        hands=hands,
        void_hands=void,
        figures=(figures[0], figures[1]),
        points_per_hand=ratio_estimate(totals, counts),
        options={"worlds": spec.worlds, "seconds": spec.seconds},
    )


def _figures(name: str, side: _Side, games: int, hands: int) -> BotFigures:
    low, high = wilson(side.games_won, games)
    per_hand = 1 / hands if hands else 0.0
    return BotFigures(
        name=name,
        games_won=side.games_won,
        win_rate=side.games_won / games if games else 0.0,
        win_low=low,
        win_high=high,
        hands_won=side.hands_won,
        gin_rate=(side.gin + side.big_gin) * per_hand,
        knock_rate=side.knocks_made * per_hand,
        undercut_rate=side.undercut * per_hand,
        undercut_against_rate=side.undercut_against * per_hand,
        seconds_per_decision=side.seconds / side.decisions if side.decisions else 0.0,
        decisions=side.decisions,
    )


def run_match(
    spec: MatchSpec, jobs: int = 1, progress: Callable[[int, int], None] | None = None
) -> MatchReport:
    """Play ``spec.pairs`` duplicate pairs on ``jobs`` processes; ``progress(done, total)``."""
    for name in spec.bots:
        spec.make(name)  # an unknown name fails here, before any worker starts
    results: dict[int, tuple[GameRecord, GameRecord]] = {}
    stopped: list[GinError] = []
    work = [(spec, pair) for pair in range(spec.pairs)]

    def take(pair: int, games: tuple[GameRecord, GameRecord] | GinError) -> bool:
        """Keep a pair's games; False once a pair could not be played (the match stops)."""
        if isinstance(games, GinError):
            stopped.append(games)
            return False
        results[pair] = games
        if progress is not None:
            progress(len(results), spec.pairs)
        return True

    if jobs <= 1 or spec.pairs <= 1:
        for job in work:
            if not take(*_play_pair_job(job)):
                break
    else:
        with Workers(min(jobs, len(work))) as workers:
            for pair, games in workers.imap_unordered(_play_pair_job, work):
                if not take(pair, games):
                    break  # leaving the block stops the other workers
    if stopped and not results:
        raise GinError(stopped[0].template, **stopped[0].params)
    report = summarize(spec, [results[pair] for pair in sorted(results)])
    return replace(report, stopped=str(stopped[0])) if stopped else report
