"""The decision evaluator: exact where it can be, checked against enumeration where it samples,
honest about what it cannot know."""

from __future__ import annotations

import itertools
import random
import statistics
from math import comb

import pytest

from gintutor.engine.bots import make_bot
from gintutor.engine.bots.estimate import choice_likelihood, public_record, stock_draws
from gintutor.engine.bots.expert import after_discard
from gintutor.engine.bots.playout import World
from gintutor.engine.cards import CARD_POINTS, DECK_MASK, CardSet, mask_points
from gintutor.engine.coach import judge
from gintutor.engine.hand import NO_CARD, Action, Deal, HandState, InfoSet, Kind, Phase
from gintutor.engine.judgement import Grade, ReasonKind, Verdict, grade_of
from gintutor.engine.rules import preset
from gintutor.engine.scoring import score_hand
from gintutor.engine.solver import min_deadwood_mask
from gintutor.errors import IllegalError

STANDARD = preset("standard")


def _mask(text: str) -> int:
    return CardSet.parse(text).mask


def _card(code: str) -> int:
    return _mask(code).bit_length() - 1


def _first(phase: Phase, seed: int = 5) -> HandState:
    """The first decision of ``phase`` with a choice in a heuristic-vs-heuristic hand."""
    bot = make_bot("heuristic")
    for s in range(seed, seed + 40):
        state = HandState(Deal.shuffled(random.Random(s)), STANDARD)
        rng = random.Random(s)
        while not state.over:
            if state.phase is phase and len(state.legal_actions()) > 1:
                return state
            state.do(bot.act(state.infoset(), rng))
    raise AssertionError(f"no {phase} decision found")


def _check(verdict: Verdict, info: InfoSet) -> None:
    legal = info.legal_actions()
    assert sorted(map(str, (j.action for j in verdict.judged))) == sorted(map(str, legal))
    assert verdict.best.loss == 0.0
    for judged in verdict.judged:
        assert judged.loss >= 0.0 and judged.loss_stderr >= 0.0 and judged.stderr >= 0.0
        assert abs(verdict.best.mean - judged.mean - judged.loss) < 1e-9
        assert verdict.of(judged.action) is judged
    assert verdict.top(2) == verdict.judged[:2]


@pytest.mark.parametrize("phase", [Phase.OFFER, Phase.DRAW, Phase.DISCARD, Phase.DEFEND])
def test_every_legal_action_is_judged_in_every_phase(phase: Phase) -> None:
    info = _first(phase).infoset()
    verdict = judge(info, worlds=24, seconds=5.0)
    assert verdict.phase is phase and verdict.player == info.player
    _check(verdict, info)
    with pytest.raises(IllegalError):
        verdict.of(Action(Kind.LAY_OFF, layoffs=DECK_MASK))


def test_a_verdict_is_reproducible_for_a_seed_and_changes_with_it() -> None:
    info = _first(Phase.DISCARD).infoset()
    one = judge(info, worlds=8, seconds=60.0, seed=3)
    two = judge(info, worlds=8, seconds=60.0, seed=3)
    other = judge(info, worlds=8, seconds=60.0, seed=4)
    assert [(j.action, j.mean, j.stderr) for j in one.judged] == [
        (j.action, j.mean, j.stderr) for j in two.judged
    ]
    assert [j.mean for j in one.judged] != [j.mean for j in other.judged]


def test_a_rollout_cap_makes_the_verdict_independent_of_the_clock() -> None:
    info = _first(Phase.DISCARD).infoset()
    legal = sum(1 for a in info.legal_actions() if a.kind is Kind.DISCARD)
    one = judge(info, worlds=512, seconds=1e9, rollouts=120, seed=2)
    two = judge(info, worlds=512, seconds=1e9, rollouts=120, seed=2)
    assert [(j.action, j.mean, j.worlds) for j in one.judged] == [
        (j.action, j.mean, j.worlds) for j in two.judged
    ]
    played = sum(j.worlds for j in one.judged if j.action.kind is Kind.DISCARD)
    assert max(120, 8 * legal) <= played + legal and played <= max(120, 8 * legal) + legal


@pytest.mark.parametrize("phase", [Phase.DRAW, Phase.DISCARD])
def test_a_verdict_stopped_when_asked_is_the_smaller_budgets(phase: Phase) -> None:
    """The coach thinking while the learner does stops at the world it is asked to: its verdict
    is the one a budget of exactly those worlds gives (nothing judged twice or lost)."""
    info = _first(phase).infoset()
    asked: list[int] = []

    def stop(done: int) -> bool:
        asked.append(done)
        return done >= 32

    stopped = judge(info, worlds=512, seconds=1e9, seed=7, stop=stop)
    budget = judge(info, worlds=32, seconds=1e9, seed=7)
    assert stopped.worlds == budget.worlds == 32 and asked[0] == 8 and asked[-1] == 32
    assert stopped.judged == budget.judged


def test_the_opponents_hidden_cards_never_change_the_verdict() -> None:
    state = _first(Phase.DISCARD)
    me = state.to_move
    before = judge(state.infoset(), worlds=8, seconds=60.0)
    opponent = 1 - me
    hidden = state.hands[opponent] & ~state.known[opponent]
    swap_out = hidden & -hidden
    swap_in = 1 << state.stock[0]
    state.hands[opponent] ^= swap_out | swap_in
    state.stock[0] = swap_out.bit_length() - 1
    after = judge(state.infoset(), worlds=8, seconds=60.0)
    assert [(j.action, j.mean) for j in before.judged] == [(j.action, j.mean) for j in after.judged]


def test_gin_is_best_and_breaking_a_meld_instead_is_a_blunder() -> None:
    hand = _mask("2C 3C 4C 7D 7H 7S 9H TH JH QH KS")
    info = _position(hand, stock=25, opponent_known=0)
    verdict = judge(info, worlds=64, seconds=10.0)
    best = verdict.best
    assert best.action.kind is Kind.KNOCK and best.action.card == _card("KS")
    assert best.grade is Grade.BEST
    assert any(r.kind is ReasonKind.GIN for r in best.reasons)
    broken = verdict.of(Action.discard(_card("3C")))
    assert broken.grade is Grade.BLUNDER
    assert any(r.kind is ReasonKind.BREAKS_MELD for r in broken.reasons)
    assert verdict.of(Action.discard(_card("KS"))).grade in (Grade.MISTAKE, Grade.BLUNDER)


def test_grades_follow_the_thresholds() -> None:
    assert grade_of(0.0) is Grade.BEST
    assert grade_of(1.0) is Grade.GOOD
    assert grade_of(2.5) is Grade.INACCURACY
    assert grade_of(6.0) is Grade.MISTAKE
    assert grade_of(6.1) is Grade.BLUNDER
    assert grade_of(0.0, 0.2) is Grade.BLUNDER
    assert grade_of(3.0, 0.0) is Grade.MISTAKE


# ---------------------------------------------------------------------------------------------
# Against exact enumeration


def _position(
    hand: int,
    *,
    stock: int,
    opponent_known: int,
    pile: tuple[int, ...] | None = None,
    passed: int = 0,
    discards: int = 0,
    rules_name: str = "standard",
    phase: Phase = Phase.DISCARD,
    spread: tuple[int, ...] = (),
) -> InfoSet:
    """A puzzle-like information set; the pile holds every card not otherwise placed unless
    given."""
    rules = preset(rules_name)
    if pile is None:
        rest = [c for c in range(52) if not (hand | opponent_known) >> c & 1]
        hidden = 10 - opponent_known.bit_count()
        pile = tuple(rest[: len(rest) - stock - hidden])
    return InfoSet(
        player=0,
        rules=rules,
        dealer=1,
        knock_limit=rules.knock_limit,
        multiplier=1,
        upcard=pile[0] if pile else 0,
        phase=phase,
        hand=hand,
        pile=pile,
        stock_size=stock,
        taken=NO_CARD,
        opponent_known=opponent_known,
        opponent_passed=passed,
        opponent_discards=discards,
        events=(),
        spread=spread,
    )


def _late_position() -> InfoSet:
    """Stock 3, the opponent's hand all known but three cards: at most two more draws before
    the hand is void."""
    hand = _mask("2C 3C 4C 9D TD 5H 5S 5D KS 8C 6H")
    known = _mask("7S 8S 9S JC QC 2H 3H")
    unseen = _mask("AD 4H KD JH QS 6C")
    placed = hand | known | unseen
    pile = tuple(c for c in range(52) if not placed >> c & 1)
    discards = _mask("KC 2D 6S")
    return _position(hand, stock=3, opponent_known=known, pile=pile, discards=discards)


def _uniform_prior(info: InfoSet) -> dict[int, float]:
    """Every set of the opponent's hidden cards, equally likely (the unbuilt prior)."""
    pool = [c for c in range(52) if info.unseen >> c & 1]
    sets = list(itertools.combinations(pool, info.opponent_hidden))
    return {sum(1 << c for c in cards): 1 / len(sets) for cards in sets}


def _built_prior(info: InfoSet) -> dict[int, float]:
    """The built prior exactly: the uniform one carried through each of the opponent's stock
    draws as a Markov chain (each unseen card it does not hold comes in with equal chance; the
    lowest card, not a known one, whose loss leaves the least deadwood goes out)."""
    pool = [c for c in range(52) if info.unseen >> c & 1]
    known = info.opponent_known
    prior = _uniform_prior(info)
    for _ in range(stock_draws(info)):
        after: dict[int, float] = {}
        for hidden, chance in prior.items():
            free = [c for c in pool if not hidden >> c & 1]
            for card in free:
                eleven = known | hidden | 1 << card
                _, out = min(
                    (min_deadwood_mask(eleven ^ 1 << d), d)
                    for d in range(52)
                    if (eleven & ~known) >> d & 1
                )
                kept = (hidden | 1 << card) & ~(1 << out)
                after[kept] = after.get(kept, 0.0) + chance / len(free)
        prior = after
    return prior


def _exact_discard_values(info: InfoSet, prior: dict[int, float]) -> dict[Action, float]:
    """Every opponent hand (``prior`` times the estimate's weight for its choices) and every
    order of the stock, played out by the same policy: the exact expectation."""
    me = info.player
    held, avoided = public_record(info)
    pool = [c for c in range(52) if info.unseen >> c & 1]
    out: dict[Action, float] = {}
    legal = [a for a in info.legal_actions() if a.kind is Kind.DISCARD]
    for action in legal:
        total = 0.0
        weights = 0.0
        for hidden, chance in prior.items():
            cards = [c for c in pool if hidden >> c & 1]
            opponent = info.opponent_known | hidden
            avoid = info.opponent_discards | info.opponent_passed
            weight = chance * choice_likelihood(opponent, avoid & ~opponent)
            stock = [c for c in pool if c not in cards]
            orders = list(itertools.permutations(stock))
            for order in orders:
                world = World(
                    [info.hand, opponent],
                    list(order),
                    list(info.pile),
                    [info.opponent_known, held],
                    [avoid, avoided],
                    info.rules,
                    info.knock_limit,
                    info.multiplier,
                )
                total += weight / len(orders) * after_discard(me, action.card)(world)
            weights += weight
        out[action] = total / weights
    return out


@pytest.mark.parametrize("built", [False, True], ids=["uniform", "built"])
def test_late_hand_discards_agree_with_exact_enumeration(built: bool) -> None:
    """The coach's sampled values against every opponent hand and stock order, weighted by the
    prior it samples (uniform, or built up by 14 stock draws) and the opponent's choices."""
    info = _late_position()
    assert comb(info.unseen.bit_count(), info.opponent_hidden) == 20
    prior = _built_prior(info) if built else _uniform_prior(info)
    exact = _exact_discard_values(info, prior)
    verdict = judge(info, worlds=200, seconds=60.0, seed=1, built=built)
    for action, value in exact.items():
        judged = verdict.of(action)
        assert abs(judged.mean - value) <= 4 * judged.stderr + 0.25, (str(action), value)


def test_the_built_prior_is_not_the_uniform_one_here() -> None:
    """So the built case above tests the building: 14 draws move the late position's prior."""
    info = _late_position()
    assert stock_draws(info) == 14
    uniform, built = _uniform_prior(info), _built_prior(info)
    assert sum(abs(built.get(h, 0.0) - p) for h, p in uniform.items()) > 0.5


def _knock_position() -> InfoSet:
    """Stock 4, 11 cards that knock several ways, the opponent's hand all known but three of
    seven unseen cards; it threw the 4D."""
    hand = _mask("2C 3C 4C 9D TD JD 5H 5S 5D 3S KS")
    known = _mask("7S 8S 9S JC QC 2H 3H")
    unseen = _mask("AD 4H KD JH QS 6C 7C")
    placed = hand | known | unseen
    pile = tuple(c for c in range(52) if not placed >> c & 1)
    info = _position(hand, stock=4, opponent_known=known, pile=pile, discards=_mask("4D"))
    return info


@pytest.mark.parametrize("built", [False, True], ids=["uniform", "built"])
def test_knock_values_agree_with_exact_enumeration_of_the_defender(built: bool) -> None:
    info = _knock_position()
    hand, known = info.hand, info.opponent_known
    prior = _built_prior(info) if built else _uniform_prior(info)
    verdict = judge(info, worlds=400, seconds=60.0, seed=2, built=built)
    knocks = [j for j in verdict.judged if j.action.kind is Kind.KNOCK]
    assert knocks
    for judged in knocks:
        action = judged.action
        deadwood = mask_points(hand & ~(1 << action.card) & ~action.spread_mask)
        total = weights = 0.0
        for hidden, chance in prior.items():
            opponent = known | hidden
            weight = chance * choice_likelihood(opponent, _mask("4D") & ~opponent)
            from gintutor.engine.layoffs import best_defence
            from gintutor.engine.melds import Meld

            against = best_defence(CardSet(opponent), [Meld(m) for m in action.spread]).deadwood
            total += weight * score_hand(deadwood, against, info.rules).knocker_net
            weights += weight
        assert abs(judged.mean - total / weights) <= 4 * judged.stderr + 0.25, str(action)


def test_lay_offs_are_valued_exactly_over_every_knocker_deadwood() -> None:
    spread = (_mask("TH JH QH"), _mask("KC KD KS"), _mask("2C 3C 4C"))
    hand = _mask("7H 8H 9H 7C 7D 5C 8S 9D KH 2D")
    spread_mask = _mask("TH JH QH KC KD KS 2C 3C 4C")
    pile = tuple(c for c in range(52) if not (hand | spread_mask) >> c & 1)[:20]
    info = _position(hand, stock=10, opponent_known=0, pile=pile, phase=Phase.DEFEND, spread=spread)
    verdict = judge(info)
    assert verdict.worlds == 0
    _check(verdict, info)
    # Brute force: the knocker's one hidden deadwood card is any unseen card worth <= 10 that
    # is not in the spread, each equally likely.
    candidates = [c for c in range(52) if (info.unseen & ~spread_mask) >> c & 1]
    for judged in verdict.judged:
        left = min_deadwood_mask(hand & ~judged.action.layoffs)
        values = [-score_hand(CARD_POINTS[c], left, STANDARD).knocker_net for c in candidates]
        assert abs(judged.mean - statistics.fmean(values)) < 1e-9
        assert judged.stderr == 0.0
    best = verdict.best
    assert min_deadwood_mask(hand & ~best.action.layoffs) == 19
    assert best.grade is Grade.BEST


# ---------------------------------------------------------------------------------------------
# Standard errors


@pytest.mark.slow
def test_standard_errors_match_the_spread_of_repeated_runs() -> None:
    info = _close_draw()
    runs = [judge(info, worlds=48, seconds=60.0, seed=s) for s in range(20)]
    take = Action(Kind.TAKE)
    full = [run.of(take) for run in runs if run.of(take).worlds == 48]
    assert len(full) >= 10
    reported = statistics.fmean(j.stderr for j in full)
    spread = statistics.stdev(j.mean for j in full)
    assert 0.5 * reported <= spread <= 2.0 * reported, (spread, reported)


def _close_draw() -> InfoSet:
    """A draw decision close enough that both actions are played out on every world."""
    bot = make_bot("heuristic")
    for s in range(40):
        state = HandState(Deal.shuffled(random.Random(s)), STANDARD)
        rng = random.Random(s)
        while not state.over:
            info = state.infoset()
            two = state.phase is Phase.DRAW and len(info.legal_actions()) == 2
            if two and all(j.worlds == 48 for j in judge(info, worlds=48, seconds=60.0).judged):
                return info
            state.do(bot.act(info, rng))
    raise AssertionError("no close draw decision")


@pytest.mark.slow
def test_throwing_the_card_that_completes_their_pickup_is_graded_down() -> None:
    # They took 8D and 8C from the pile; our 8H would give them the set.
    hand = _mask("2C 3C 4C 9H TH JH 5S 5D 8H KC QD")
    known = _mask("8D 8C")
    info = _position(hand, stock=20, opponent_known=known, passed=_mask("QS"))
    verdict = judge(info, worlds=600, seconds=60.0, seed=1)
    feed = verdict.of(Action.discard(_card("8H")))
    assert any(
        r.kind is ReasonKind.FEEDS_OPPONENT and r.other in (_card("8D"), _card("8C"))
        for r in feed.reasons
    )
    assert feed.loss > 2.0 and feed.grade in (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)
    assert verdict.best.action.card in (_card("KC"), _card("QD"))


def test_with_a_game_score_the_win_chance_is_the_table_after_each_result() -> None:
    from gintutor.engine.winchance import game_win_chance

    spread = (_mask("TH JH QH"), _mask("KC KD KS"), _mask("2C 3C 4C"))
    hand = _mask("7H 8H 9H 7C 7D 5C 8S 9D KH 2D")
    spread_mask = _mask("TH JH QH KC KD KS 2C 3C 4C")
    pile = tuple(c for c in range(52) if not (hand | spread_mask) >> c & 1)[:20]
    info = _position(hand, stock=10, opponent_known=0, pile=pile, phase=Phase.DEFEND, spread=spread)
    scores = (70, 80)
    verdict = judge(info, scores=scores)
    candidates = [c for c in range(52) if (info.unseen & ~spread_mask) >> c & 1]
    for judged in verdict.judged:
        left = min_deadwood_mask(hand & ~judged.action.layoffs)
        chances = []
        for c in candidates:
            net = -score_hand(CARD_POINTS[c], left, STANDARD).knocker_net
            # Player 0 is not the dealer (dealer=1): after a scored hand player 0 deals.
            mine, theirs = (70 + net, 80) if net > 0 else (70, 80 - net)
            chances.append(game_win_chance(mine, theirs, STANDARD, my_deal=True))
        assert judged.win_chance is not None and judged.win_loss is not None
        assert abs(judged.win_chance - statistics.fmean(chances)) < 1e-9
    assert verdict.best.win_loss == 0.0
    sampled = judge(_first(Phase.DISCARD).infoset(), worlds=16, seconds=60.0, scores=(10, 95))
    assert all(0.0 <= j.win_chance <= 1.0 for j in sampled.judged if j.win_chance is not None)
    assert min(j.win_loss for j in sampled.judged if j.win_loss is not None) == 0.0


def test_a_verdict_of_some_kinds_judges_only_those_and_values_them_alike() -> None:
    """``kinds``: the knocks alone, each within sampling error of the whole verdict's value."""
    info = _knock_position()
    whole = judge(info, worlds=256, seconds=60.0, seed=3)
    knocks = judge(info, worlds=256, seconds=60.0, seed=3, kinds={Kind.KNOCK})
    assert {j.action.kind for j in knocks.judged} == {Kind.KNOCK}
    assert len(knocks.judged) == sum(1 for j in whole.judged if j.action.kind is Kind.KNOCK)
    for judged in knocks.judged:
        other = whole.of(judged.action)
        spread = 4 * (judged.stderr**2 + other.stderr**2) ** 0.5 + 0.25
        assert abs(judged.mean - other.mean) <= spread, str(judged.action)


def test_a_kept_action_is_played_out_on_every_world() -> None:
    """``keep`` (a review's action played): never dropped as weak, so its loss rests on every
    world the verdict sampled, paired with the best's."""
    info = _first(Phase.DISCARD).infoset()
    plain = judge(info, worlds=96, seconds=60.0, seed=3)
    weak = next(j for j in reversed(plain.judged) if j.worlds < plain.worlds)
    kept = judge(info, worlds=96, seconds=60.0, seed=3, keep=weak.action)
    assert kept.of(weak.action).worlds == kept.worlds == plain.worlds
    assert kept.best.worlds == kept.worlds
