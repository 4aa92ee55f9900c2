"""The expert's parts: opponent-hand sampling, the public record, the fast defence, rollouts."""

from __future__ import annotations

import random

import pytest
from worlds import world_of

from gintutor.engine.bots import make_bot
from gintutor.engine.bots.estimate import (
    card_chances,
    choice_likelihood,
    public_record,
    sample_opponent_hands,
    stock_draws,
)
from gintutor.engine.bots.expert import ExpertBot, action_values
from gintutor.engine.bots.heuristic import PARTNERS
from gintutor.engine.bots.playout import World
from gintutor.engine.cards import CardSet
from gintutor.engine.hand import Deal, HandState, Kind, Phase
from gintutor.engine.layoffs import best_defence, defence_deadwood
from gintutor.engine.melds import MELD_MASKS, Meld
from gintutor.engine.rules import preset
from gintutor.engine.solver import discard_deadwoods, min_deadwood_mask


def test_fast_defence_equals_the_engines_best_defence() -> None:
    rng = random.Random(11)
    checked = 0
    while checked < 150:
        cards = rng.sample(range(52), 20)
        knocker = sum(1 << c for c in cards[:10])
        melds = [m for m in MELD_MASKS if m & knocker == m]
        spread: list[int] = []
        for meld in rng.sample(melds, len(melds)):
            if not any(meld & s for s in spread):
                spread.append(meld)
        defender = sum(1 << c for c in cards[10:])
        expected = best_defence(CardSet(defender), [Meld(m) for m in spread]).deadwood
        assert defence_deadwood(defender, tuple(spread)) == expected
        checked += 1


def _mid_hand(seed: int, turns: int = 12) -> HandState:
    state = HandState(Deal.shuffled(random.Random(seed)), preset("eaai"))
    bot = make_bot("simple")
    rng = random.Random(seed)
    for _ in range(turns):
        if state.over:
            break
        state.do(bot.act(state.infoset(), rng))
    return state


def test_sampled_hands_respect_everything_seen() -> None:
    for seed in range(6):
        state = _mid_hand(seed)
        if state.over:
            continue
        info = state.infoset()
        samples = sample_opponent_hands(info, 30, random.Random(seed))
        assert abs(sum(w for _, w in samples) - 1) < 1e-9
        for hand, _ in samples:
            assert hand.bit_count() == 10
            assert hand & info.opponent_known == info.opponent_known
            assert not hand & (info.hand | info.pile_mask)
        chances = card_chances(samples)
        for card in CardSet(info.opponent_known):
            assert abs(chances[card.index] - 1) < 1e-9


def test_built_hands_respect_everything_seen_and_are_made_hands() -> None:
    """Hands built up by the opponent's stock draws keep the same constraints as the uniform
    sample and, late in a hand, hold far less deadwood (the real opponent's hand is a made
    hand; benchmarks/bench_estimate.py measures how close)."""
    uniform_total = built_total = 0.0
    for seed in range(6):
        state = _mid_hand(seed, turns=24)
        if state.over:
            continue
        info = state.infoset()
        assert stock_draws(info) > 0
        samples = sample_opponent_hands(info, 30, random.Random(seed), built=True)
        assert abs(sum(w for _, w in samples) - 1) < 1e-9
        for hand, _ in samples:
            assert hand.bit_count() == 10
            assert hand & info.opponent_known == info.opponent_known
            assert not hand & (info.hand | info.pile_mask)
        uniform = sample_opponent_hands(info, 30, random.Random(seed))
        built_total += sum(w * min_deadwood_mask(h) for h, w in samples)
        uniform_total += sum(w * min_deadwood_mask(h) for h, w in uniform)
    assert built_total < 0.7 * uniform_total


def _melds_with(card: int, hand: int) -> bool:
    return any(others & hand == others for others in PARTNERS[card])


def test_a_card_the_opponent_took_is_sampled_with_cards_it_melds_with() -> None:
    """A player takes the pile's card to meld it: in the built estimate the cards the opponent
    took and holds meld with its other cards in most sampled hands, in the uniform one seldom."""
    built_share = uniform_share = 0.0
    positions = 0
    for seed in range(40):
        state = _mid_hand(seed, turns=14)
        if state.over:
            continue
        info = state.infoset()
        taken = [card.index for card in CardSet(info.opponent_known)]
        if not taken:
            continue
        positions += 1
        for built in (True, False):
            samples = sample_opponent_hands(info, 30, random.Random(seed), built=built)
            share = sum(w * all(_melds_with(card, hand) for card in taken) for hand, w in samples)
            if built:
                built_share += share
            else:
                uniform_share += share
    assert positions >= 5
    assert built_share / positions > 0.8
    assert uniform_share / positions < 0.5


@pytest.mark.slow  # 20 hands of the expert against itself, ~70 s CPU
def test_the_built_estimate_matches_the_opponents_real_deadwood() -> None:
    """Where the player could knock, the built estimate's opponent (the coach's model of the
    expert, who may play on with a hand that could knock) holds about the deadwood the real
    opponent holds, and is within 10 points about as often (a knock's value rests on it;
    benchmarks/bench_estimate.py prints the table by stock size)."""
    sampled: list[float] = []
    near: list[float] = []
    real: list[int] = []
    for k in range(20):
        state = HandState(Deal.shuffled(random.Random(k), k % 2), preset("eaai"))
        bots, rng = ExpertBot(), random.Random(k)
        while not state.over:
            info = state.infoset()
            if info.phase is Phase.DISCARD and info.stock_size < 24:
                least = min(deadwood for _, deadwood in discard_deadwoods(info.hand, 0))
                if least <= info.knock_limit:
                    samples = sample_opponent_hands(
                        info, 20, random.Random(k), built=True, no_knock=1.0
                    )
                    deadwoods = [min_deadwood_mask(hand) for hand, _ in samples]
                    sampled.append(sum(deadwoods) / len(deadwoods))
                    near.append(sum(d <= 10 for d in deadwoods) / len(deadwoods))
                    real.append(min_deadwood_mask(state.hands[1 - info.player]))
            state.do(bots.act(info, rng))
    n = len(real)
    assert n >= 100
    mean_real = sum(real) / n
    assert abs(sum(sampled) / n - mean_real) < 3.0, (sum(sampled) / n, mean_real)
    assert abs(sum(near) / n - sum(r <= 10 for r in real) / n) < 0.15


def test_a_hand_that_melds_with_a_passed_card_is_less_likely() -> None:
    passed = CardSet.parse("7H").mask
    melding = CardSet.parse("7C 7D 2S 3S 9D JC QC KD 4H 5C").mask
    other = CardSet.parse("8C 7D 2S 3S 9D JC QC KD 4H 5C").mask
    assert choice_likelihood(melding, passed) < choice_likelihood(other, passed)


def test_public_record_is_what_the_opponent_saw() -> None:
    for seed in range(8):
        state = _mid_hand(seed, turns=20)
        player = state.to_move
        held, avoided = public_record(state.infoset(player))
        assert held == state.known[player]
        assert avoided & state.discards[player] == state.discards[player]
        assert avoided & state.passed[player] == state.passed[player]


def test_a_rollout_plays_the_hand_to_its_end() -> None:
    state = _mid_hand(3, turns=6)
    bot, rng = make_bot("simple"), random.Random(1)
    while state.phase is not Phase.DRAW:
        state.do(bot.act(state.infoset(), rng))
    hands = list(state.hands)
    world = World(
        hands, list(state.stock), list(state.pile), [0, 0], [0, 0], state.rules, state.knock_limit
    )
    value = world.play(state.to_move, 0)
    assert isinstance(value, float) and -200 < value < 200


def test_action_values_judge_every_candidate_in_the_same_worlds() -> None:
    state = _mid_hand(4, turns=3)
    bot, rng = make_bot("simple"), random.Random(1)
    while state.phase is not Phase.DISCARD:
        state.do(bot.act(state.infoset(), rng))
    info = state.infoset()
    discards = [a for a in info.legal_actions() if a.kind is Kind.DISCARD][:3]
    values = action_values(info, discards, 12, random.Random(3))
    assert [v.action for v in values] == discards
    assert all(v.worlds == 12 and v.stderr >= 0 and -150 < v.mean < 150 for v in values)
    again = action_values(info, discards, 12, random.Random(3))
    assert again == values  # seeded: reproducible


def test_an_opponent_who_discarded_without_knocking_holds_no_knocking_hand() -> None:
    for seed in range(4):
        state = _mid_hand(seed, turns=8)
        if state.over:
            continue
        info = state.infoset()
        samples = sample_opponent_hands(info, 20, random.Random(seed), no_knock=0.0)
        assert all(min_deadwood_mask(hand) > info.knock_limit for hand, _ in samples)


def test_a_rollout_plays_each_side_by_its_own_policy() -> None:
    from gintutor.engine.bots.heuristic import GREEDY
    from gintutor.engine.bots.playout import FAST

    differ = 0
    for seed in range(12):
        state = _mid_hand(seed, turns=4)
        if state.over:
            continue
        bot, rng = make_bot("simple"), random.Random(1)
        while state.phase is not Phase.DRAW and not state.over:
            state.do(bot.act(state.infoset(), rng))
        if state.over:
            continue

        me = state.to_move
        same = world_of(state).play(me, me, FAST)
        assert world_of(state).play(me, me, FAST, FAST) == same  # the other side defaults to ours
        assert world_of(state).play(me, me, GREEDY, GREEDY) == world_of(state).play(me, me, GREEDY)
        differ += world_of(state).play(me, me, FAST, GREEDY) != same
    assert differ  # the opponent's policy is the one played for it


def test_the_expert_with_an_opponent_model_plays_a_legal_hand() -> None:
    import dataclasses

    from gintutor.engine.bots.expert import ExpertBot
    from gintutor.engine.bots.heuristic import GREEDY

    expert = dataclasses.replace(ExpertBot(worlds=4), opponent=GREEDY)
    simple = make_bot("simple")
    state = HandState(Deal.shuffled(random.Random(8), 0), preset("eaai"))
    rngs = [random.Random(1), random.Random(2)]
    while not state.over:
        bot = expert if state.to_move == 0 else simple
        action = bot.act(state.infoset(), rngs[state.to_move])
        state.verify(action)
        state.do(action)
    assert state.result is not None


def test_the_expert_differs_from_the_heuristic_only_where_it_searches() -> None:
    """With every search off the expert is the heuristic with its own WEIGHTS (the knock spread
    aside, chosen from the samples); by default it searches only take-or-draw, so every discard
    and knock decision is that heuristic's."""
    import dataclasses

    from gintutor.engine.bots.expert import WEIGHTS, ExpertBot
    from gintutor.engine.bots.heuristic import HeuristicBot

    heuristic = HeuristicBot(WEIGHTS)
    searched = ExpertBot(worlds=8, seconds=100)
    still = dataclasses.replace(searched, search_draw=False)
    compared = draws = 0
    for seed in range(12):
        state = HandState(Deal.shuffled(random.Random(seed)), preset("eaai"))
        players = [heuristic, make_bot("simple")]
        rng = random.Random(seed)
        while not state.over:
            info = state.infoset()
            action = players[info.player].act(info, rng)
            if info.player == 0 and info.phase is not Phase.DEFEND:
                for bot in (still, searched):
                    if bot is searched and info.phase is not Phase.DISCARD:
                        continue
                    chosen = bot.act(info, random.Random(seed))
                    if action.kind is Kind.KNOCK:
                        assert (chosen.kind, chosen.card) == (Kind.KNOCK, action.card)
                    else:
                        assert chosen == action
                compared += 1
                draws += info.phase is not Phase.DISCARD
            state.do(action)
    assert compared > 100 and draws > 30


def test_the_pruned_least_deadwood_discard_is_the_first_minimum_of_every_discard() -> None:
    """``build_hand``'s discard (cards tried from the highest, stopping early) against
    ``discard_deadwoods`` over all of them, on random 11-card hands with known cards kept."""
    import random as _random

    from gintutor.engine.bots.estimate import _least_deadwood_discard
    from gintutor.engine.solver import discard_deadwoods

    rng = _random.Random(7)
    for _ in range(3000):
        cards = rng.sample(range(52), 11)
        hand = sum(1 << c for c in cards)
        known = sum(1 << c for c in rng.sample(cards, rng.randint(0, 3)))
        best, _ = min(discard_deadwoods(hand, known), key=lambda option: option[1])
        assert _least_deadwood_discard(hand, hand & ~known) == best
