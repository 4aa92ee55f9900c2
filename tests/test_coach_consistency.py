"""The coach agrees with itself and judges against the player at the table.

A take or a stock draw is worth what the coach's own best follow-up is worth (one ply deeper,
on the same sampled worlds); against ``simple`` (which knocks at its first chance) an early
knock with a low count is not a mistake.
"""

from __future__ import annotations

import random
import statistics
from math import sqrt

import pytest

from gintutor.engine.bots import make_bot
from gintutor.engine.bots.estimate import sample_opponent_hands
from gintutor.engine.cards import CardSet
from gintutor.engine.coach import after, judge, opponent_model
from gintutor.engine.hand import Action, Deal, HandState, InfoSet, Kind, Phase
from gintutor.engine.judgement import DRAWBACKS, Grade, ReasonKind
from gintutor.engine.rules import preset
from gintutor.engine.solver import discard_deadwoods
from gintutor.errors import IllegalError

STANDARD = preset("standard")
TAKE = Action(Kind.TAKE)
DRAW = Action(Kind.DRAW)


def _offers(count: int, seed: int = 1) -> list[HandState]:
    """Decisions where the pile's top card may be taken, in seeded heuristic-vs-heuristic
    hands (a copy of each state: the tests play on from it)."""
    bot = make_bot("heuristic")
    out: list[HandState] = []
    hand = 0
    while len(out) < count:
        state = HandState(Deal.shuffled(random.Random(f"consistency:{seed}:{hand}")), STANDARD)
        rng = random.Random(hand)
        while not state.over and len(out) < count:
            if state.phase is Phase.DRAW and TAKE in state.legal_actions():
                out.append(_replay(state))
            state.do(bot.act(state.infoset(), rng))
        hand += 1
    return out


def _replay(state: HandState) -> HandState:
    copy = HandState(state.deal, state.rules)
    for action in state.log:
        copy.do(action)
    return copy


def test_after_is_the_hand_state_machines_next_information_set() -> None:
    for state in _offers(6):
        info = state.infoset()
        taken = _replay(state)
        taken.do(TAKE)
        assert after(info, TAKE) == taken.infoset()
        drawn = _replay(state)
        card = drawn.stock[-1]
        drawn.do(DRAW)
        assert after(info, DRAW, card) == drawn.infoset()
    with pytest.raises(IllegalError):
        after(info, Action.discard(0))


def _held_out_best(child: InfoSet, worlds: int, seed: int) -> tuple[float, float]:
    """The best action at ``child`` chosen by one verdict and valued by another on independent
    worlds: a verdict's own best value is a maximum of noisy means, itself flattered (the
    benchmark's ``--held-out`` reference)."""
    chosen = judge(child, worlds=worlds, seconds=1e9, seed=seed).best.action
    judged = judge(child, worlds=worlds, seconds=1e9, seed=seed + 104729).of(chosen)
    return judged.mean, judged.stderr


def _take_gap(info: InfoSet, worlds: int, seed: int) -> tuple[float, float]:
    take = judge(info, worlds=worlds, seconds=1e9, seed=seed).of(TAKE)
    mean, se = _held_out_best(after(info, TAKE), worlds, seed + 7919)
    return take.mean - mean, sqrt(take.stderr**2 + se**2)


def _draw_gap(info: InfoSet, worlds: int, seed: int, draws: int) -> tuple[float, float]:
    draw = judge(info, worlds=worlds, seconds=1e9, seed=seed).of(DRAW)
    rng = random.Random(f"draws:{seed}")
    bests = []
    model = opponent_model(None)
    for index, (hand, _) in enumerate(
        sample_opponent_hands(info, draws, rng, built=True, no_knock=model.no_knock)
    ):
        card = rng.choice([c for c in range(52) if (info.unseen & ~hand) >> c & 1])
        bests.append(_held_out_best(after(info, DRAW, card), worlds, seed * 31 + index)[0])
    spread = statistics.stdev(bests) / sqrt(draws)
    return draw.mean - statistics.fmean(bests), sqrt(draw.stderr**2 + spread**2)


@pytest.mark.slow  # its 20/40-position siblings run with the slow tests; ~4 s CPU each
def test_a_take_is_worth_the_best_follow_up() -> None:
    for seed, state in enumerate(_offers(2)):
        gap, se = _take_gap(state.infoset(), 48, seed)
        assert abs(gap) <= 2 * se + 1e-9, (seed, gap, se)


@pytest.mark.slow  # its 20/40-position siblings run with the slow tests; ~4 s CPU each
def test_a_draw_is_worth_the_mean_best_follow_up_over_the_drawn_card() -> None:
    state = _offers(2)[1]
    gap, se = _draw_gap(state.infoset(), 48, 1, 4)
    assert abs(gap) <= 2 * se + 1e-9, (gap, se)


def _summary(gaps: list[tuple[float, float]]) -> tuple[float, float, float]:
    values = [g for g, _ in gaps]
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / sqrt(len(values))
    outside = sum(1 for g, se in gaps if abs(g) > 2 * se) / len(gaps)
    return mean, half, outside


@pytest.mark.slow
def test_take_values_agree_with_the_next_decision_over_40_positions() -> None:
    """Against the held-out best after the take (~2.7 s CPU a position; cross-fitted follow-ups:
    2 of 40 outside 2 SE). Larger samples: benchmarks/bench_coach_consistency.py --held-out
    --positions 200."""
    gaps = [_take_gap(s.infoset(), 96, i) for i, s in enumerate(_offers(40, seed=2))]
    mean, half, outside = _summary(gaps)
    assert abs(mean) <= max(half, 0.5), (mean, half)
    assert outside <= 0.12, outside


@pytest.mark.slow
def test_draw_values_agree_with_the_next_decision_over_20_positions() -> None:
    """The follow-ups cross-fitted; before, choosing each drawn card's best
    follow-up on its own few worlds flattered the draw (mean gap +2.54, half-width 1.81)."""
    gaps = [_draw_gap(s.infoset(), 64, i, 4) for i, s in enumerate(_offers(20, seed=3))]
    mean, half, outside = _summary(gaps)
    assert abs(mean) <= max(half, 0.5), (mean, half)
    assert outside <= 0.12, outside


def _early_knocks(count: int) -> list[InfoSet]:
    """Discard decisions of a heuristic player against ``simple`` where a knock with 7 or
    less is open, the stock is still long (15 cards or more) and the opponent holds no card it
    took from the pile: the first of each hand.

    Not where it took cards: ``simple`` takes only to meld, and from version 5 the coach
    samples its hand so (``estimate.TAKEN_MELDS``). Then a low count may be worth more held:
    2C 9C AD 9D AH 2H 4H 5H AS 2S 9S, stock 18, the opponent holding the 7C and 7S it took:
    knock with 4 +3.2 ± 1.5 (undercut in 18% of the deals), play on (5 live outs to gin, and
    simple's own knock at up to 10 is an undercut waiting) +13.4 ± 1.8. Playing on with a low
    count against a first-chance knocker is what the tuned heuristic found worth +3.7 points a
    hand over knocking at once (docs/bots.md)."""
    simple, learner = make_bot("simple"), make_bot("heuristic")
    out: list[InfoSet] = []
    for seed in range(400):
        state = HandState(Deal.shuffled(random.Random(f"k{seed}")), STANDARD)
        rng = random.Random(seed)
        while not state.over:
            info = state.infoset()
            if (
                state.to_move == 0
                and info.phase is Phase.DISCARD
                and info.stock_size >= 15
                and not info.opponent_known
            ):
                forbidden = 0 if info.taken < 0 else 1 << info.taken
                least = min(d for _, d in discard_deadwoods(info.hand, forbidden))
                if 0 < least <= 7:
                    out.append(info)
                    break
            state.do((simple if state.to_move == 1 else learner).act(info, rng))
        if len(out) >= count:
            return out
    return out


def _no_early_knock_is_a_mistake(count: int) -> None:
    infos = _early_knocks(count)
    assert len(infos) == count
    for index, info in enumerate(infos):
        verdict = judge(info, worlds=192, seconds=1e9, seed=index, opponent="simple")
        assert verdict.opponent == "simple"
        best_knock = next(j for j in verdict.judged if j.action.kind is Kind.KNOCK)
        assert best_knock.grade not in (Grade.MISTAKE, Grade.BLUNDER), (index, best_knock)


def test_against_simple_an_early_knock_with_7_or_less_is_not_a_mistake() -> None:
    """The first two positions: in both the knock's mean is ~1.4 below the best action's, the
    nearest the four come to a knock graded a mistake (~2.2 s CPU; the other two ~0.9 s)."""
    _no_early_knock_is_a_mistake(2)


@pytest.mark.slow
def test_against_simple_an_early_knock_with_7_or_less_is_not_a_mistake_in_four_positions() -> None:
    _no_early_knock_is_a_mistake(4)


def test_a_verdict_says_whom_it_assumes() -> None:
    info = _offers(1)[0].infoset()
    assert judge(info, worlds=8, seconds=1e9).opponent == "expert"
    assert judge(info, worlds=8, seconds=1e9, opponent="simple").opponent == "simple"
    with pytest.raises(IllegalError):
        judge(info, worlds=8, seconds=1e9, opponent="nobody")


def _repro() -> HandState:
    """``gintutor play --seed 611068`` hand 3 (the learner deals), played to the decision the
    issue reports: 4C 4H 4S JC JD JH in hand and the JS on the pile (the learner's earlier
    turns as ``simple`` would play them)."""
    deal = Deal.shuffled(random.Random("deal:611068:3"), 0)
    state = HandState(deal, STANDARD)
    bot = make_bot("simple")
    want = CardSet.parse("4C 4H 4S JC JD JH").mask
    js = CardSet.parse("JS").mask.bit_length() - 1
    rng = random.Random(3)
    while True:
        info = state.infoset()
        if state.to_move == 0 and info.hand & want == want and info.top == js:
            return state
        seat = random.Random(f"bot:611068:3:{len(state.log)}") if state.to_move == 1 else rng
        state.do(bot.act(info, seat))


def test_the_issue_repro_take_is_worth_its_best_follow_up() -> None:
    info = _repro().infoset(0)
    assert info.phase is Phase.DRAW
    budget = {"worlds": 160, "seconds": 1e9, "opponent": "simple"}
    hint = judge(info, seed=1, **budget)
    take = hint.of(TAKE)
    follow = judge(after(info, TAKE), seed=2, **budget).best
    assert abs(take.mean - follow.mean) <= 2 * sqrt(take.stderr**2 + follow.stderr**2)
    assert hint.opponent == "simple"
    # The reason on the take row is a benefit of taking: the jack lets the hand knock.
    assert any(r.kind is ReasonKind.CAN_KNOCK for r in take.reasons)
    assert all(r.kind not in DRAWBACKS for r in hint.of(DRAW).reasons)
