"""The review of a played game: every decision of one player judged by the coach.

For each of the player's decisions, the player's information set is rebuilt by replaying the
hand (only what the player knew), and :func:`~gintutor.engine.coach.judge` values every legal
action. The record keeps the action played, the best, the expected points lost (with its
standard error), the grade and the coach's reasons for both; nothing is recomputed later.

Definitions (the summary of a hand or a game):

- **decisions**: the player's decisions with a choice (a forced action, such as the draw after
  both players passed the upcard or a defence with nothing to lay off, is judged for the luck
  but not counted).
- **error**: a decision graded Inaccuracy, Mistake or Blunder *and not a close call* (the
  coach could not tell it from the best within two standard errors: no error is charged on
  noise). **error rate** = errors / decisions; **mean loss** = the expected points lost per
  decision.
- **rating**: a band by error rate, calibrated on the bot ladder (:data:`BAND_LIMITS`), with
  the 95% bootstrap interval of the error rate (:data:`BOOTSTRAP` resamples of the decisions,
  seeded: the same review, the same interval) and the bands at its ends; none under
  :data:`MIN_RATED` decisions. A game with a hint asked or a warned action taken back is
  **assisted**, and its rating says so.
- **luck** (points): for each of the player's stock draws, the value of the position after the
  draw (the best action's value at the discard that follows) minus the value of drawing at the
  draw decision — the value the card that came brought, good or bad; summed. **deal luck**: the
  value of the player's first decision of a hand minus the mean value of that decision for the
  seat (:data:`SEAT_VALUE`, dealer or not): what the deal brought.

Every decision is independent of the others, so a whole game is judged on every core
(``jobs``); each verdict is seeded by ``seed`` and its position, so a review is reproducible
whatever the number of processes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import pairwise

from gintutor.engine.coach import (
    OPPONENTS,
    REVIEW_ROLLOUTS,
    REVIEW_WORLDS,
    STRONG,
    judge,
    opponent_model,
)
from gintutor.engine.game import RunningGame
from gintutor.engine.hand import NO_CARD, Action, Deal, HandResult, HandState, InfoSet, Kind, Phase
from gintutor.engine.judgement import VERSION, Grade, Judged, Reason, Verdict
from gintutor.engine.rules import RuleSet
from gintutor.engine.workers import Workers


@dataclass(frozen=True)
class Help:
    """The coach's help the player had at one decision, as a saved game records it."""

    hints: int = 0
    """Hints asked before the action was played."""
    taken_back: tuple[Action, ...] = ()
    """Actions proposed, warned about and taken back before it."""


NO_HELP = Help()


@dataclass(frozen=True)
class Stored:
    """A verdict the coach gave on a decision during play, with the coach's valuation version
    then (the review reuses it: :func:`reusable`)."""

    version: str
    verdict: Verdict


REUSE_WORLDS = 16
"""A stored verdict resting on fewer sampled deals than this is judged again (under-sampled);
``review --worlds N`` asks for at least N. The table's budget (0.4 s) gives 16-86 deals a
verdict on this machine; its standard errors are larger than the review's, and a difference
within two of them is a close call, never an error (so a reused verdict charges no error on
noise: it finds fewer, ``docs/review.md``)."""


@dataclass(frozen=True)
class PlayedHand:
    """One hand as it was played: the deal (hidden cards completed, for a logged game) and
    every action of both players in order; ``help`` the help recorded for each action (by
    position; empty or shorter: none recorded)."""

    deal: Deal
    actions: tuple[Action, ...]
    help: tuple[Help, ...] = ()
    stored: tuple[Stored | None, ...] = ()
    """The coach's verdicts given during play, by position (``None``: none)."""


@dataclass(frozen=True)
class PlayedGame:
    """A game to review: the rules, the seat reviewed, the hands in order, the score by seat
    before the first hand, and where it came from (a saved game's id, a log file)."""

    rules: RuleSet
    player: int
    hands: tuple[PlayedHand, ...]
    scores: tuple[int, int] = (0, 0)
    source: str = ""
    bot: str | None = None
    """The bot at the table, for a game played in gintutor (``None``: played elsewhere)."""


ERROR_GRADES = (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)
"""The grades that count as errors (unless a close call)."""
WORST = 3
"""How many of the costliest decisions a summary lists."""


class OpponentSource(Enum):
    """Why the review judges against the model it does; the value is the JSON word."""

    CHOSEN = "chosen"
    """Asked for (``review --opponent-model``)."""
    TABLE = "table"
    """The bot the game was played against in gintutor (its policy, never its cards)."""
    STRONG = "strong"
    """A strong player (:data:`~gintutor.engine.coach.STRONG`): the table's player is unknown."""


def opponent_for(game: PlayedGame, chosen: str | None = None) -> tuple[str, OpponentSource]:
    """The opponent model a review judges ``game`` against, and why: ``chosen`` if given (an
    unknown name is an :class:`~gintutor.errors.IllegalError`), else the bot recorded at the
    table, else a strong player."""
    if chosen is not None:
        return opponent_model(chosen).name, OpponentSource.CHOSEN
    if game.bot is not None and game.bot in OPPONENTS:
        return game.bot, OpponentSource.TABLE
    return STRONG, OpponentSource.STRONG


class Band(Enum):
    """A rating band (after GNU Backgammon's), from the error rate; the value is the word."""

    BEGINNER = "Beginner"
    CASUAL = "Casual player"
    INTERMEDIATE = "Intermediate"
    ADVANCED = "Advanced"
    EXPERT = "Expert"
    WORLD_CLASS = "World class"


LADDER = ("novice", "simple", "openspiel", "heuristic", "expert")
"""The bot levels, weakest first (by their match results: ``benchmarks/bench_bots.py``)."""

CALIBRATION: dict[str, tuple[float, float, int]] = {
    "novice": (0.244, 1.67, 386),
    "simple": (0.146, 1.24, 437),
    "openspiel": (0.126, 1.12, 430),
    "heuristic": (0.103, 0.93, 418),
    "expert": (0.103, 0.93, 429),
}
"""Error rate, mean loss (points per decision) and decisions reviewed of each bot level, three
seeded games each against the ``heuristic`` at the review budget with the game score, coach
version 2::

    nice -n 10 python benchmarks/calibrate_review.py --games 3 --jobs 2

(standard errors of the rates 0.015-0.022: ``heuristic`` and ``expert`` cannot be told apart,
and the bands pool them)."""

SEAT_VALUE = (-1.68, 2.54)
"""Mean value of the first decision of a hand for the non-dealer and the dealer (points), from
the same calibration games (53 and 52 hands): the baseline of the deal luck."""


def fitted_rates(table: dict[str, tuple[float, float, int]]) -> list[float]:
    """The error rates along :data:`LADDER`, made non-increasing by pooling adjacent levels that
    break the ladder's order (weighted by decisions: the pool-adjacent-violators fit), so a
    stronger bot never has a worse band because of sampling noise.

    >>> fitted_rates({"novice": (0.3, 0, 10), "simple": (0.1, 0, 10), "openspiel": (0.2, 0, 30),
    ...               "heuristic": (0.05, 0, 10), "expert": (0.01, 0, 10)})
    [0.3, 0.175, 0.175, 0.05, 0.01]
    """
    blocks: list[tuple[float, int, int]] = []  # (rate, weight, levels pooled)
    for name in LADDER:
        rate, _, weight = table[name]
        blocks.append((rate, weight, 1))
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            (r1, w1, n1), (r2, w2, n2) = blocks[-2], blocks[-1]
            blocks[-2:] = [((r1 * w1 + r2 * w2) / (w1 + w2), w1 + w2, n1 + n2)]
    return [round(rate, 4) for rate, _, count in blocks for _ in range(count)]


def band_limits(table: dict[str, tuple[float, float, int]]) -> tuple[tuple[Band, float], ...]:
    """Each band's upper error rate: midway between the fitted rates of adjacent bot levels
    (novice is Beginner, simple Casual, openspiel Intermediate, heuristic Advanced, expert
    Expert); World class at or below half the expert's rate. Levels pooled by the fit share a
    limit (the band between them is empty)."""
    rates = fitted_rates(table)
    mids = [round((a + b) / 2, 4) for a, b in pairwise(rates)]
    return (
        (Band.WORLD_CLASS, round(rates[-1] / 2, 4)),
        (Band.EXPERT, mids[3]),
        (Band.ADVANCED, mids[2]),
        (Band.INTERMEDIATE, mids[1]),
        (Band.CASUAL, mids[0]),
        (Band.BEGINNER, 1.0),
    )


BAND_LIMITS = band_limits(CALIBRATION)
"""``(band, highest error rate)`` from the best band down: a rate at or below a limit earns
that band (the first that fits)."""


MIN_RATED = 20
"""Fewer decisions than this are too few to rate: one error moves the rate by more than 0.05,
wider than every band but Beginner, and the 95% interval spans most of the ladder."""
BOOTSTRAP = 2000
"""Resamples of the decisions for the rating's interval (its ends move by under 0.01 between
seeds at 100 decisions)."""


def rate_interval(errors: Sequence[bool], seed: int = 0) -> tuple[float, float]:
    """The 95% bootstrap interval of the error rate of these decisions (True: an error),
    :data:`BOOTSTRAP` resamples seeded by ``seed``.

    >>> rate_interval([False] * 30)
    (0.0, 0.0)
    >>> low, high = rate_interval([True] * 5 + [False] * 45, seed=1)
    >>> low < 0.1 < high
    True
    """
    n = len(errors)
    if not n:
        return 0.0, 0.0
    flags = [1 if e else 0 for e in errors]
    rng = random.Random(f"rating:{seed}")
    rates = sorted(sum(rng.choices(flags, k=n)) / n for _ in range(BOOTSTRAP))
    return rates[int(0.025 * BOOTSTRAP)], rates[int(0.975 * BOOTSTRAP) - 1]


def band_of(error_rate: float) -> Band:
    """The rating band of an error rate.

    >>> band_of(0.0), band_of(1.0)
    (<Band.WORLD_CLASS: 'World class'>, <Band.BEGINNER: 'Beginner'>)
    """
    for band, limit in BAND_LIMITS:
        if error_rate <= limit:
            return band
    return Band.BEGINNER


@dataclass(frozen=True)
class Decision:
    """One of the player's decisions, judged: what was played, the best, the loss and why.

    ``loss`` (expected hand points, >= 0) and ``loss_stderr`` are the coach's paired figures;
    ``win_loss`` the game-win chance lost (with a game score). ``luck`` is set on a stock draw:
    the value after the draw minus the value of drawing (see the module docstring).
    """

    hand: int
    turn: int
    phase: Phase
    action: Action
    best: Action
    value: float
    """Expected points of the action played."""
    best_value: float
    loss: float
    loss_stderr: float
    win_loss: float | None
    grade: Grade
    close: bool
    reasons: tuple[Reason, ...]
    """The coach's reasons for the action played."""
    best_reasons: tuple[Reason, ...]
    forced: bool = False
    top: int = NO_CARD
    """The top card of the discard pile when deciding (offered, or there to take)."""
    drawn: int = NO_CARD
    """The card drawn from the stock by this action."""
    luck: float | None = None
    hints: int = 0
    """Hints the player asked at this decision (as the game recorded them)."""
    taken_back: tuple[Action, ...] = ()
    """Actions the player took back after a warning at this decision."""
    reused: bool = False
    """The verdict is the one the coach gave during play (not judged again)."""
    worlds: int = 0
    """Sampled deals the verdict rests on (0: exact)."""
    table: tuple[Judged, ...] = ()
    """Every legal action, valued, best first (the verdict's rows)."""
    info: InfoSet | None = field(default=None, compare=False, repr=False)
    """What the player knew at the decision (the position ``review --step`` shows)."""

    @property
    def is_error(self) -> bool:
        """Graded Inaccuracy or worse, not forced and not a close call."""
        return not self.forced and not self.close and self.grade in ERROR_GRADES


@dataclass(frozen=True)
class Summary:
    """Decisions, errors by grade, error rate, mean loss, the worst decisions, rating, luck."""

    decisions: int
    grades: tuple[tuple[Grade, int], ...]
    """Decisions per grade (every grade, best first)."""
    errors: int
    error_grades: tuple[tuple[Grade, int], ...]
    """Errors per grade (Inaccuracy, Mistake, Blunder; close calls are not errors)."""
    error_rate: float
    mean_loss: float
    worst: tuple[Decision, ...]
    rating: Band | None
    """``None`` with fewer than :data:`MIN_RATED` decisions (too few to rate)."""
    luck: float
    """Stock-draw luck (points)."""
    draws: int
    deal_luck: float
    hints: int = 0
    """Hints asked over these decisions."""
    taken_back: int = 0
    """Actions taken back after a warning over these decisions."""
    interval: tuple[float, float] | None = None
    """The error rate's 95% bootstrap interval (``None`` when not rated)."""
    bands: tuple[Band, Band] | None = None
    """The bands at the interval's ends: the better, then the worse (``None`` when not rated)."""

    @property
    def assisted(self) -> bool:
        """True when the player had help: a hint asked or a warned action taken back."""
        return self.hints > 0 or self.taken_back > 0

    @property
    def rated_from(self) -> int:
        """The fewest decisions rated (:data:`MIN_RATED`)."""
        return MIN_RATED

    @property
    def total_luck(self) -> float:
        """Draw luck plus deal luck."""
        return self.luck + self.deal_luck


@dataclass(frozen=True)
class HandReview:
    """One hand: its decisions, how it ended (from the player's side) and its summary."""

    number: int
    dealer: int
    decisions: tuple[Decision, ...]
    result: HandResult | None
    """``None`` for a hand the game stopped in."""
    net: int
    """Points the hand gave the player (+) or the opponent (-)."""
    deal_luck: float
    scores: tuple[int, int] | None
    """(player's, opponent's) game score before the hand, as given to the coach."""
    summary: Summary


@dataclass(frozen=True)
class GameReview:
    """The whole review: each hand, the game's summary, and how it was judged."""

    source: str
    rules: str
    player: int
    hands: tuple[HandReview, ...]
    summary: Summary
    worlds: int
    seed: int
    opponent: str = STRONG
    """The opponent model the coach judged against (a bot's name)."""
    opponent_source: OpponentSource = OpponentSource.STRONG
    reused: int = 0
    """Decisions whose verdict given during play was reused."""
    reuse_worlds: int | None = REUSE_WORLDS
    """The fewest sampled deals a reused verdict rests on (``None``: none reused)."""


def summarize(decisions: Sequence[Decision], deal_luck: float = 0.0, seed: int = 0) -> Summary:
    """The summary of some decisions (forced ones count only for luck); ``seed`` seeds the
    rating's bootstrap interval.

    >>> summarize([]).rating is None
    True
    """
    counted = [d for d in decisions if not d.forced]
    grades = tuple((g, sum(1 for d in counted if d.grade is g)) for g in Grade)
    errors = sum(1 for d in counted if d.is_error)
    n = len(counted)
    rate = errors / n if n else 0.0
    mean_loss = sum(d.loss for d in counted) / n if n else 0.0
    worst = sorted((d for d in counted if d.loss > 0), key=lambda d: (-d.loss, d.hand, d.turn))
    lucky = [d.luck for d in decisions if d.luck is not None]
    rated = n >= MIN_RATED
    interval = rate_interval([d.is_error for d in counted], seed) if rated else None
    return Summary(
        decisions=n,
        grades=grades,
        errors=errors,
        error_grades=tuple(
            (g, sum(1 for d in counted if d.is_error and d.grade is g)) for g in ERROR_GRADES
        ),
        error_rate=rate,
        mean_loss=mean_loss,
        worst=tuple(worst[:WORST]),
        rating=band_of(rate) if rated else None,
        luck=sum(lucky),
        draws=len(lucky),
        deal_luck=deal_luck,
        hints=sum(d.hints for d in decisions),
        taken_back=sum(len(d.taken_back) for d in decisions),
        interval=interval,
        bands=None if interval is None else (band_of(interval[0]), band_of(interval[1])),
    )


JudgeFunction = Callable[..., Verdict]
"""``judge(info, *, worlds, seconds, seed, scores, rollouts, opponent, keep)``:
:func:`~gintutor.engine.coach.judge` or a stand-in with the same signature (tests)."""
Progress = Callable[[int, int], None]
SECONDS_CAP = 600.0
"""The coach's CPU-time cap per verdict in a review: a safety net only; the work is capped by
``worlds`` and ``rollouts`` (counts), so a review is the same on any machine and load."""


@dataclass(frozen=True)
class _Spot:
    """A decision to judge: where it is, what the player knew, what was played."""

    hand: int
    turn: int
    info: InfoSet
    action: Action
    drawn: int
    scores: tuple[int, int] | None
    forced: bool
    help: Help = NO_HELP
    stored: Stored | None = None


def _spots(
    game: PlayedGame, progress: Progress | None = None
) -> tuple[list[list[_Spot]], list[HandState]]:
    """Every decision of the player, hand by hand, and each hand's final state; linear in the
    number of hands (``progress(hands done, hands)`` after each)."""
    spots: list[list[_Spot]] = []
    states: list[HandState] = []
    sheet = RunningGame()
    ended: HandResult | None = None
    me = game.player
    for number, played in enumerate(game.hands, start=1):
        if ended is not None and not game.rules.hollywood:
            sheet.add(ended.record(), game.rules)
        scores = _scores_before(game, sheet)
        state = HandState(played.deal, game.rules)
        found: list[_Spot] = []
        turn = 0
        for index, action in enumerate(played.actions):
            mover = state.to_move
            info = state.infoset(mover) if mover == me else None
            if info is not None and state.phase in (Phase.OFFER, Phase.DRAW, Phase.DEFEND):
                turn += 1
            forced = info is not None and len(info.legal_actions()) == 1
            event = state.do(action)
            if info is not None:
                helped = played.help[index] if index < len(played.help) else NO_HELP
                kept = played.stored[index] if index < len(played.stored) else None
                found.append(
                    _Spot(
                        number,
                        max(turn, 1),
                        info,
                        action,
                        event.drawn,
                        scores,
                        forced,
                        helped,
                        kept,
                    )
                )
        spots.append(found)
        states.append(state)
        ended = state.result
        if progress is not None:
            progress(number, len(game.hands))
    return spots, states


def _scores_before(game: PlayedGame, sheet: RunningGame) -> tuple[int, int] | None:
    """The (player's, opponent's) game score before the next hand, from the hands entered in
    ``sheet``; ``None`` under Hollywood scoring or once a game is over (the game-win chance
    has no meaning there)."""
    rules = game.rules
    if rules.hollywood or sheet.is_over(rules):
        return None
    totals = (sheet.totals[0] + game.scores[0], sheet.totals[1] + game.scores[1])
    me = game.player
    return totals[me], totals[1 - me]


def _judge_job(
    job: tuple[JudgeFunction, int, int | None, int, int, _Spot, str],
) -> tuple[int, Verdict]:
    function, worlds, rollouts, seed, index, spot, opponent = job
    verdict = function(
        spot.info,
        worlds=worlds,
        seconds=SECONDS_CAP,
        seed=seed,
        scores=spot.scores,
        rollouts=rollouts,
        opponent=opponent,
        keep=spot.action,
    )
    return index, verdict


def reusable(stored: Stored | None, info: InfoSet, opponent: str, least: int) -> bool:
    """True when a verdict given during play can stand in the review: the same coach version
    (:data:`~gintutor.engine.judgement.VERSION`), the same opponent model, the same decision
    (its phase and every legal action judged) and at least ``least`` sampled deals (or
    exact, as a defence's verdict is)."""
    if stored is None:
        return False
    verdict = stored.verdict
    return (
        stored.version == VERSION
        and verdict.opponent == opponent
        and verdict.phase is info.phase
        and (verdict.worlds >= least or verdict.worlds == 0)  # 0: exact (a defence)
        and {j.action for j in verdict.judged} == set(info.legal_actions())
    )


def review_game(
    game: PlayedGame,
    *,
    worlds: int = REVIEW_WORLDS,
    rollouts: int | None = REVIEW_ROLLOUTS,
    seed: int = 0,
    jobs: int = 1,
    judge_with: JudgeFunction | None = None,
    progress: Progress | None = None,
    seat_value: tuple[float, float] = SEAT_VALUE,
    replaying: Progress | None = None,
    opponent: str | None = None,
    reuse_worlds: int | None = REUSE_WORLDS,
) -> GameReview:
    """Judge every decision of ``game.player`` and summarise hand by hand and for the game.
    ``replaying(hands, of)`` reports the replay that finds the decisions, ``progress(verdicts,
    of)`` the judging. ``opponent``: the model to judge against (:func:`opponent_for`: by
    default the bot at the table, or a strong player for a game played elsewhere).
    ``reuse_worlds``: a verdict given during play on at least this many sampled deals is
    reused (:func:`reusable`), the rest judged now; ``None`` judges every decision again.

    Each verdict is seeded by ``seed`` (and its position, inside the coach) and its work capped
    by counts (``worlds`` sampled deals, ``rollouts`` play-outs), so the review is the same for
    any ``jobs``, machine and load.
    """
    judge_with = judge if judge_with is None else judge_with  # read here: tests replace it
    model, source = opponent_for(game, opponent)
    per_hand, states = _spots(game, replaying)
    flat = [spot for spots in per_hand for spot in spots]
    verdicts: dict[int, Verdict] = {}
    for i, spot in enumerate(flat):
        if reuse_worlds is not None and reusable(spot.stored, spot.info, model, reuse_worlds):
            assert spot.stored is not None
            verdicts[i] = spot.stored.verdict
    reused = frozenset(verdicts)
    work = [
        (judge_with, worlds, rollouts, seed, i, spot, model)
        for i, spot in enumerate(flat)
        if i not in reused
    ]
    if jobs <= 1 or len(work) <= 1:
        for job in work:
            index, verdict = _judge_job(job)
            verdicts[index] = verdict
            if progress is not None:
                progress(len(verdicts), len(work))
    else:
        with Workers(min(jobs, len(work))) as workers:
            for index, verdict in workers.imap_unordered(_judge_job, work):
                verdicts[index] = verdict
                if progress is not None:
                    progress(len(verdicts), len(work))
    hands: list[HandReview] = []
    everything: list[Decision] = []
    deal_total = 0.0
    start = 0
    for number, (spots, state) in enumerate(zip(per_hand, states, strict=True), start=1):
        judged = [verdicts[start + i] for i in range(len(spots))]
        kept = [start + i in reused for i in range(len(spots))]
        start += len(spots)
        decisions = _decisions(spots, judged, kept)
        deal_luck = 0.0
        if judged:
            first = spots[0].info
            deal_luck = judged[0].best.mean - seat_value[int(first.dealer == first.player)]
        deal_total += deal_luck
        result = state.result
        hands.append(
            HandReview(
                number=number,
                dealer=state.deal.dealer,
                decisions=tuple(decisions),
                result=result,
                net=0 if result is None else result.net(game.player),
                deal_luck=deal_luck,
                scores=spots[0].scores if spots else None,
                summary=summarize(decisions, deal_luck, seed),
            )
        )
        everything += decisions
    return GameReview(
        source=game.source,
        rules=game.rules.name,
        player=game.player,
        hands=tuple(hands),
        summary=summarize(everything, deal_total, seed),
        worlds=worlds,
        seed=seed,
        opponent=model,
        opponent_source=source,
        reused=len(reused),
        reuse_worlds=reuse_worlds,
    )


def _decisions(
    spots: Sequence[_Spot], verdicts: Sequence[Verdict], reused: Sequence[bool]
) -> list[Decision]:
    """The decision records of one hand; a stock draw's luck from the verdict that follows."""
    out: list[Decision] = []
    for i, (spot, verdict, kept) in enumerate(zip(spots, verdicts, reused, strict=True)):
        played = verdict.of(spot.action)
        best = verdict.best
        luck = None
        if spot.action.kind is Kind.DRAW and i + 1 < len(spots):
            after = verdicts[i + 1]
            if spots[i + 1].info.phase is Phase.DISCARD:
                luck = after.best.mean - played.mean
        out.append(
            Decision(
                hand=spot.hand,
                turn=spot.turn,
                phase=spot.info.phase,
                action=spot.action,
                best=best.action,
                value=played.mean,
                best_value=best.mean,
                loss=played.loss,
                loss_stderr=played.loss_stderr,
                win_loss=played.win_loss,
                grade=played.grade,
                close=played.close,
                reasons=played.reasons,
                best_reasons=best.reasons,
                forced=spot.forced,
                top=spot.info.top,
                drawn=spot.drawn,
                luck=luck,
                hints=spot.help.hints,
                taken_back=spot.help.taken_back,
                reused=kept,
                worlds=verdict.worlds,
                table=verdict.judged,
                info=spot.info,
            )
        )
    return out
