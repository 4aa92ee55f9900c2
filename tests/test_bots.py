"""The bot ladder: legal play under every preset, each bot sees only its information set."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest
from test_hand import DL, ND, act, make_deal

from gintutor.engine.bots import BOT_NAMES, Bot, make_bot
from gintutor.engine.bots.coachplayer import TABLE_ROLLOUTS, TIEBREAK, advised
from gintutor.engine.bots.heuristic import (
    PARTNERS,
    Params,
    View,
    cheapest_discard,
    danger_value,
    knock_spread,
    layoff_exposure,
    outs_value,
    takes,
)
from gintutor.engine.cards import CardSet
from gintutor.engine.coach import judge
from gintutor.engine.hand import NO_CARD, Action, Deal, HandState, Kind, Phase
from gintutor.engine.rules import PRESETS, preset
from gintutor.engine.solver import arrangements_mask, min_deadwood_mask
from gintutor.errors import GinError

SEARCHING = ("expert", "coach")
"""The bots that play out sampled worlds at each decision (tested on few worlds and hands)."""
CHEAP = [name for name in BOT_NAMES if name not in SEARCHING]


def _bot(name: str) -> Bot:
    return make_bot(name, worlds=4) if name in SEARCHING else make_bot(name)


def play(names: tuple[str, str], deal: Deal, rules_name: str, seed: int = 1) -> HandState:
    bots = [make_bot(n, worlds=4) for n in names]
    rngs = [random.Random(seed), random.Random(seed + 1)]
    state = HandState(deal, preset(rules_name))
    while not state.over:
        action = bots[state.to_move].act(state.infoset(), rngs[state.to_move])
        state.verify(action)
        state.do(action)
    return state


@pytest.mark.parametrize("rules_name", list(PRESETS))
@pytest.mark.parametrize("name", CHEAP)
def test_every_bot_plays_legal_hands_under_every_preset(name: str, rules_name: str) -> None:
    for seed in range(3):
        state = play((name, "simple"), Deal.shuffled(random.Random(seed), seed % 2), rules_name)
        assert state.result is not None


def test_the_expert_plays_a_legal_hand() -> None:
    state = play(("expert", "heuristic"), Deal.shuffled(random.Random(5)), "eaai")
    assert state.result is not None


def _hidden_swapped(state: HandState, player: int, rng: random.Random) -> HandState:
    """The same state with the opponent's unknown cards exchanged with stock cards."""
    other = copy.deepcopy(state)
    opponent = 1 - player
    hidden = [c.index for c in CardSet(other.hands[opponent] & ~other.known[opponent])]
    stock = list(other.stock)
    swaps = min(len(hidden), len(stock), 4)
    out = rng.sample(hidden, swaps)
    into = rng.sample(range(len(stock)), swaps)
    for card, slot in zip(out, into, strict=True):
        other.hands[opponent] ^= 1 << card | 1 << stock[slot]
        stock[slot] = card
    rng.shuffle(stock)
    other.stock = stock
    return other


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_bot_decides_from_its_information_set_only(name: str) -> None:
    bot = _bot(name)
    shuffler = random.Random(9)
    checked = 0
    for seed in range(1 if name in SEARCHING else 6):
        state = HandState(Deal.shuffled(random.Random(100 + seed)), preset("eaai"))
        driver = make_bot("simple")
        drive = random.Random(seed)
        while not state.over:
            player = state.to_move
            check = name not in SEARCHING or checked < 8
            if check and state.phase is not Phase.DEFEND and len(state.stock) > 4:
                other = _hidden_swapped(state, player, shuffler)
                assert other.hands[1 - player] != state.hands[1 - player] or not len(other.stock)
                assert other.infoset(player) == state.infoset(player)
                mine = bot.act(state.infoset(player), random.Random(seed))
                theirs = bot.act(other.infoset(player), random.Random(seed))
                assert mine == theirs
                checked += 1
            state.do(driver.act(state.infoset(), drive))
    assert checked >= 8


def test_the_coach_player_plays_a_legal_hand_and_the_coachs_recommended_action() -> None:
    state = play(("coach", "simple"), Deal.shuffled(random.Random(3)), "standard")
    assert state.result is not None
    seen = set()
    for seed in range(4, 12):
        state = HandState(Deal.shuffled(random.Random(seed)), preset("standard"))
        state.do(Action(Kind.PASS))
        state.do(Action(Kind.PASS))
        state.do(Action(Kind.DRAW))
        info = state.infoset()
        rng = random.Random(7)
        verdict = judge(
            info, worlds=4, seconds=float("inf"), seed=rng.getrandbits(32), rollouts=TABLE_ROLLOUTS
        )
        rule = TIEBREAK.act(info, rng)
        played = make_bot("coach", worlds=4).act(info, random.Random(7))
        close = rule == verdict.best.action or verdict.of(rule).close
        assert played == (rule if close else verdict.best.action)
        seen.add(close)
    assert seen == {True, False}  # both ways taken on these positions


def test_the_coach_player_takes_the_rules_choice_only_among_close_calls() -> None:
    from gintutor.engine.judgement import Grade, Judged, Verdict

    def row(card: str, loss: float, close: bool) -> Judged:
        action = Action.parse(f"discard {card}")
        return Judged(action, -loss, 1.0, loss, 1.0, None, None, Grade.BEST, close, ())

    best, near, far = row("KS", 0.0, True), row("QS", 1.0, True), row("2C", 9.0, False)
    verdict = Verdict(0, Phase.DISCARD, (best, near, far), 32, 0.1)
    assert advised(verdict, near.action) == near.action
    assert advised(verdict, far.action) == best.action
    assert advised(verdict, best.action) == best.action
    assert advised(verdict, Action.parse("discard 3C")) == best.action


def test_unknown_bot_is_an_error() -> None:
    with pytest.raises(GinError, match="unknown bot"):
        make_bot("grandmaster")


def _first_draw(upcard: str, stock: str = "8H") -> HandState:
    state = HandState(make_deal(ND, DL, upcard, stock), preset("eaai"))
    return state


def test_simple_takes_the_upcard_only_when_it_melds() -> None:
    bot = make_bot("simple")
    rng = random.Random(1)
    assert bot.act(_first_draw("5C").infoset(), rng) == Action(Kind.TAKE)  # 5C5H5S5D
    assert bot.act(_first_draw("KD").infoset(), rng) == Action(Kind.PASS)


def test_simple_and_novice_knock_at_the_first_chance() -> None:
    for name in ("simple", "novice", "openspiel"):
        state = _first_draw("KD")
        act(state, "pass", "pass", "draw")  # draws 8H: discarding KS leaves 8
        action = make_bot(name).act(state.infoset(), random.Random(2))
        assert action.kind is Kind.KNOCK, name
        assert state.can(action)


def test_openspiel_discards_the_highest_deadwood_card_and_never_lays_off() -> None:
    state = HandState(make_deal("2C 3C 4C 9D TD JD 5H 7S 6D KS", DL, "KD", "AS"), preset("eaai"))
    act(state, "pass", "pass", "draw")
    assert make_bot("openspiel").act(state.infoset(), random.Random(1)) == Action.parse(
        "discard KS"
    )
    state = _first_draw("KD")
    act(state, "pass", "pass", "draw", "knock KS: 2C 3C 4C | 9D TD JD | 5D 5H 5S")
    assert make_bot("openspiel").act(state.infoset(), random.Random(1)) == Action.parse(
        "lay-off: -"
    )


def test_heuristic_takes_a_melding_card_and_goes_gin() -> None:
    state = _first_draw("5C")
    assert takes(View.of(state.infoset()), state.infoset().top)
    state = _first_draw("KD", "5C")
    act(state, "pass", "pass", "draw")
    action = make_bot("heuristic").act(state.infoset(), random.Random(1))
    assert action == Action.parse("knock KS: 2C 3C 4C | 9D TD JD | 5C 5D 5H 5S")


def test_heuristic_danger_is_highest_next_to_the_opponents_pickups() -> None:
    hand = CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 5D KS").mask
    known = CardSet.parse("QH JH").mask
    view = View(hand, 0xFFFFFFFFFFFFF & ~(hand | known), known, 0, 20, 10, 8)
    kh = CardSet.parse("KH").mask.bit_length() - 1
    kc = CardSet.parse("KC").mask.bit_length() - 1
    assert danger_value(kh, view, hand) > danger_value(kc, view, hand)
    assert all(len(p) <= 6 for p in PARTNERS)


def test_the_fast_discard_is_the_cheapest_by_the_full_cost() -> None:
    rng = random.Random(3)
    params = Params()
    for _ in range(400):
        cards = rng.sample(range(52), 16)
        hand = sum(1 << c for c in cards[:11])
        known = sum(1 << c for c in cards[11:13])
        avoid = sum(1 << c for c in cards[13:16])
        live = 0xFFFFFFFFFFFFF & ~(hand | known | avoid)
        view = View(hand, live, known, avoid, rng.randint(3, 30), 10, 8)
        taken = cards[rng.randint(0, 10)] if rng.random() < 0.3 else NO_CARD
        danger = params.danger if view.stock > params.late_stock else params.danger_late
        full = []
        for card in cards[:11]:
            if card == taken:
                continue
            rest = hand ^ 1 << card
            deadwood = min_deadwood_mask(rest)
            cost = (
                deadwood
                + params.outs * outs_value(card, rest, live, params.far)
                + danger * danger_value(card, view, rest)
            )
            full.append((cost, card, deadwood))
        cheapest = min(full)
        least = min(d for _, _, d in full)
        knock = min((c, card) for c, card, d in full if d == least)
        assert cheapest_discard(view, hand, taken, params) == (
            cheapest[1],
            cheapest[2],
            knock[1],
            least,
        )


def test_the_coachs_playout_weights_are_frozen() -> None:
    # The puzzles' stored verdicts and the win-chance tables were computed with these weights.
    from gintutor.engine.bots.heuristic import BASELINE, DEFAULT
    from gintutor.engine.bots.playout import FAST

    frozen = Params(
        outs=1.5,
        far=0.2,
        danger=4.0,
        danger_late=8.0,
        take_drop=7,
        late_stock=8,
        late_knock=6,
        gin_hunt=0,
        gin_hunt_stock=25,
        lookahead=4,
        now=0.5,
        knock_weight=0.0,
        take_ahead=-1.0,
        outs_late=-1.0,
    )
    assert BASELINE == DEFAULT == frozen
    assert dataclasses.replace(frozen, lookahead=0) == FAST


def test_the_greedy_model_discards_for_least_deadwood() -> None:
    from gintutor.engine.bots.heuristic import GREEDY, discard_costs, knock_discard

    rng = random.Random(5)
    for _ in range(300):
        cards = rng.sample(range(52), 21)
        hand = sum(1 << c for c in cards[:11])
        live = sum(1 << c for c in cards[11:])
        taken = cards[0] if rng.random() < 0.3 else NO_CARD
        view = View(hand, live, 0, 0, rng.randint(3, 30), 10)
        costs = discard_costs(view, hand, taken, GREEDY)
        _, card, deadwood = min(costs)
        assert deadwood == min(d for _, _, d in costs)
        assert cheapest_discard(view, hand, taken, GREEDY) == (
            card,
            deadwood,
            *knock_discard(costs),
        )


def _stock_view(stock: int) -> View:
    """What the knock rule reads: only the stock and the knock limit (10) matter to it."""
    return View(hand=0, live=0, opponent_known=0, avoid=0, stock=stock, limit=10)


def test_the_tuned_heuristic_plays_on_for_gin_while_the_stock_lasts() -> None:
    """TUNED (the search's result, docs/bots.md): gin always; with any knocking count it plays
    on while the stock holds 4 cards or more, then knocks with at most ``late_knock``; the
    coach's BASELINE knocks at the first chance."""
    from gintutor.engine.bots.heuristic import BASELINE, TUNED, should_knock

    assert should_knock(0, _stock_view(30), TUNED)
    assert not any(
        should_knock(d, _stock_view(s), TUNED) for d in range(1, 11) for s in range(4, 32)
    )
    assert [d for d in range(12) if should_knock(d, _stock_view(3), TUNED)] == list(range(9))
    assert all(should_knock(d, _stock_view(30), BASELINE) for d in range(11))
    assert not should_knock(11, _stock_view(30), BASELINE)


def test_the_expert_knocks_only_with_gin_while_the_stock_lasts() -> None:
    """The expert's WEIGHTS: the tuned heuristic's, but no knock short of gin down to the last
    two stock cards (under a void at two cards, never); below them it knocks with at most
    ``late_knock``."""
    from gintutor.engine.bots.expert import WEIGHTS
    from gintutor.engine.bots.heuristic import should_knock

    assert all(should_knock(0, _stock_view(s), WEIGHTS) for s in range(32))
    assert not any(
        should_knock(d, _stock_view(s), WEIGHTS) for d in range(1, 11) for s in range(2, 32)
    )
    assert [d for d in range(12) if should_knock(d, _stock_view(1), WEIGHTS)] == list(range(9))


def test_the_knock_spread_is_the_canonical_first_of_the_fewest_layoff_cards() -> None:
    """knock_spread (masks first, arrangement objects only for a tie) chooses as the plain
    definition does: of every least-deadwood arrangement in canonical order, the first with
    the fewest live layoff cards; hands rich in melds, so ties and several spreads occur."""
    rng = random.Random(5)
    tied = 0
    for _ in range(300):
        hand = 0
        while hand.bit_count() < 10:
            rank, suit = rng.randrange(13), rng.randrange(4)
            run = rng.random() < 0.5
            for step in range(rng.choice((1, 3, 4))):
                card = suit * 13 + min(12, rank + step) if run else (suit + step) % 4 * 13 + rank
                if hand.bit_count() < 10:
                    hand |= 1 << card
        live = 0
        for card in rng.sample(range(52), 30):
            live |= 1 << card
        live &= ~hand
        arrangements = arrangements_mask(hand, min_deadwood_mask(hand))
        exposures = [layoff_exposure(tuple(m.mask for m in a.melds), live) for a in arrangements]
        first = arrangements[exposures.index(min(exposures))]
        tied += exposures.count(min(exposures)) > 1
        assert knock_spread(hand, live) == tuple(sorted(m.mask for m in first.melds))
    assert tied >= 5  # the tie-break was exercised
