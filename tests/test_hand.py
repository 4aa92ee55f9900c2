"""The hand state machine: every phase's legal actions under every preset, replay, info sets."""

from __future__ import annotations

import random

import pytest

from gintutor.engine.cards import CardSet, parse_cards
from gintutor.engine.hand import (
    NO_CARD,
    Action,
    Deal,
    GameState,
    HandResult,
    HandState,
    Kind,
    Phase,
    log_text,
    parse_log,
    replay,
)
from gintutor.engine.melds import Meld
from gintutor.engine.rules import PRESETS, preset
from gintutor.engine.scoring import Outcome
from gintutor.errors import CardError, GinError, IllegalError


def make_deal(
    non_dealer: str, dealer_hand: str, upcard: str, stock: str = "", dealer: int = 0
) -> Deal:
    """A deal with these hands, upcard and stock top cards (the rest of the stock follows)."""
    first = [c.index for c in CardSet.parse(non_dealer)]
    second = [c.index for c in CardSet.parse(dealer_hand)]
    up = CardSet.parse(upcard).mask.bit_length() - 1
    top = [c.index for c in parse_cards(stock)]
    used = set(first) | set(second) | {up} | set(top)
    rest = [i for i in range(52) if i not in used]
    order = [card for pair in zip(first, second, strict=True) for card in pair]
    return Deal(dealer, (*order, up, *top, *rest))


def act(state: HandState, *texts: str) -> None:
    for text in texts:
        state.do(Action.parse(text))


def codes(state: HandState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


ND = "2C 3C 4C 9D TD JD 5H 5S 5D KS"
DL = "AH 2H 3H 7C 8C 9C QS QD QH 6S"


def test_first_upcard_offer_goes_non_dealer_then_dealer_then_stock() -> None:
    state = HandState(make_deal(ND, DL, "KD", dealer=0), preset("standard"))
    assert (state.phase, state.to_move) == (Phase.OFFER, 1)
    act(state, "pass")
    assert (state.phase, state.to_move) == (Phase.OFFER, 0)
    act(state, "pass")
    assert (state.phase, state.to_move) == (Phase.DRAW, 1)
    assert codes(state) == ["draw"]
    with pytest.raises(IllegalError, match="both players passed"):
        state.verify(Action(Kind.TAKE))


def test_dealer_may_take_the_upcard_the_non_dealer_passed() -> None:
    state = HandState(make_deal(ND, DL, "KD", dealer=0), preset("standard"))
    act(state, "pass", "take")
    assert (state.phase, state.to_move) == (Phase.DISCARD, 0)
    assert state.infoset(1).opponent_known == CardSet.parse("KD").mask
    assert state.infoset(0).opponent_passed == CardSet.parse("KD").mask


def test_the_card_taken_from_the_pile_may_not_be_discarded() -> None:
    state = HandState(make_deal(ND, DL, "KD", dealer=0), preset("standard"))
    act(state, "take")
    assert not state.can(Action.parse("discard KD"))
    with pytest.raises(IllegalError, match="just taken from the discard pile"):
        state.verify(Action.parse("discard KD"))
    assert "discard KD" not in codes(state)
    act(state, "discard KS")
    assert state.phase is Phase.DRAW and state.to_move == 0
    assert codes(state) == ["draw", "take"]


def test_a_card_drawn_from_the_stock_may_be_discarded() -> None:
    state = HandState(make_deal(ND, DL, "KD", "8H", dealer=0), preset("standard"))
    act(state, "pass", "pass", "draw")
    assert state.can(Action.parse("discard 8H"))


def test_knock_within_limit_and_spread_verified() -> None:
    # 2C3C4C 9DTDJD 5H5S5D + KS, draws 8H: discard KS, deadwood 8.
    state = HandState(make_deal(ND, DL, "KD", "8H", dealer=0), preset("standard"))
    act(state, "pass", "pass", "draw")
    knock = Action.parse("knock KS: 2C 3C 4C | 9D TD JD | 5D 5H 5S")
    assert state.can(knock)
    assert knock in state.legal_actions()
    assert not state.can(Action.parse("knock KS: 2C 3C 4C | 9D TD JD"))  # 23 left
    with pytest.raises(IllegalError, match="not in the hand"):
        state.verify(Action.parse("knock KS: 2C 3C 4C | 9D TD JD | 5D 5H 5S | QS QD QH"))
    act(state, str(knock))
    assert state.phase is Phase.DEFEND and state.to_move == 0
    state.infoset()
    assert state.can(Action.parse("lay-off: -"))
    assert not state.can(Action.parse("lay-off: QS"))


def test_defender_lays_off_and_the_hand_is_scored() -> None:
    # The dealer holds 6S... and nothing to lay off but the knocker's set 5D5H5S takes 5C.
    state = HandState(
        make_deal(ND, "AH 2H 3H 7C 8C 9C QS QD QH 5C", "KD", "8H"), preset("standard")
    )
    act(state, "pass", "pass", "draw", "knock KS: 2C 3C 4C | 9D TD JD | 5D 5H 5S")
    assert [str(a) for a in state.legal_actions()] == [
        "lay-off: -",
        "lay-off: 5C",
        "lay-off: QD",
        "lay-off: 5C QD",
    ]
    event = state.do(Action.parse("lay-off: 5C"))
    result = event.result
    assert result is not None and state.over
    assert (result.knocker, result.outcome) == (1, Outcome.UNDERCUT)
    # Knocker 8 (8H) vs defender 0 after laying off 5C: undercut, 8 + 25.
    assert result.winner == 0 and result.points == 33


def test_gin_scores_at_once_without_layoffs() -> None:
    state = HandState(
        make_deal("2C 3C 4C 9D TD JD 5H 5S 5D KS", DL, "KD", "5C"), preset("standard")
    )
    act(state, "pass", "pass", "draw", "knock KS: 2C 3C 4C | 9D TD JD | 5C 5D 5H 5S")
    assert state.over and state.result is not None
    assert state.result.outcome is Outcome.GIN and state.result.winner == 1


@pytest.mark.parametrize("name", ["standard", "oklahoma", "hollywood"])
def test_big_gin_where_recognised(name: str) -> None:
    state = HandState(make_deal("2C 3C 4C 9D TD JD 5H 5S 5D 5C", DL, "KD", "8D"), preset(name))
    act(state, "pass", "pass", "draw")
    big = Action.parse("big-gin: 2C 3C 4C | 8D 9D TD JD | 5C 5D 5H 5S")
    assert state.can(big) and big in state.legal_actions()
    state.do(big)
    assert state.result is not None and state.result.outcome is Outcome.BIG_GIN


@pytest.mark.parametrize("name", ["classic", "eaai"])
def test_no_big_gin_where_not_recognised(name: str) -> None:
    state = HandState(make_deal("2C 3C 4C 9D TD JD 5H 5S 5D 5C", DL, "KD", "8D"), preset(name))
    act(state, "pass", "pass", "draw")
    assert not state.can(Action.parse("big-gin: 2C 3C 4C | 8D 9D TD JD | 5C 5D 5H 5S"))
    assert state.can(Action.parse("knock 8D: 2C 3C 4C | 9D TD JD | 5C 5D 5H 5S"))


def test_straight_gin_allows_only_gin() -> None:
    state = HandState(make_deal(ND, DL, "KD", "8H"), preset("straight"))
    act(state, "pass", "pass", "draw")
    assert not state.can(Action.parse("knock KS: 2C 3C 4C | 9D TD JD | 5D 5H 5S"))
    assert not any(a.kind is Kind.KNOCK for a in state.legal_actions())


@pytest.mark.parametrize(
    ("upcard", "limit", "can_knock_8"),
    [("3D", 3, False), ("9H", 9, True), ("AD", 0, False), ("KH", 10, True)],
)
def test_oklahoma_knock_limit_from_the_first_upcard(
    upcard: str, limit: int, can_knock_8: bool
) -> None:
    state = HandState(make_deal(ND, DL, upcard, "8H"), preset("oklahoma"))
    assert state.knock_limit == limit
    act(state, "pass", "pass", "draw")
    assert state.can(Action.parse("knock KS: 2C 3C 4C | 9D TD JD | 5D 5H 5S")) == can_knock_8


def test_oklahoma_spade_upcard_doubles_the_hand() -> None:
    deal = make_deal(ND, "AH 2H 3H 7C 8C 9C QS QD QH 6D", "6S", "5C")
    state = HandState(deal, preset("oklahoma"))
    assert state.multiplier == 2


def _play_to_stock(state: HandState, stock_left: int) -> None:
    while len(state.stock) > stock_left or state.phase is not Phase.DRAW:
        if state.phase is Phase.OFFER:
            act(state, "pass")
        elif state.phase is Phase.DRAW:
            act(state, "draw")
        else:
            drawn = state.seen[state.to_move][-1].card
            state.do(Action.discard(drawn))


@pytest.mark.parametrize("name", list(PRESETS))
def test_void_when_the_stock_is_down_to_two_cards(name: str) -> None:
    state = HandState(Deal.shuffled(random.Random(3)), preset(name))
    _play_to_stock(state, 3)
    act(state, "draw")
    assert len(state.stock) == 2
    drawn = state.seen[state.to_move][-1].card
    event = state.do(Action.discard(drawn))
    assert event.result == HandResult(void=True)
    assert state.over and state.legal_actions() == []


def test_not_void_before_the_last_two_and_a_knock_on_the_third_last_card_counts() -> None:
    state = HandState(Deal.shuffled(random.Random(3)), preset("standard"))
    _play_to_stock(state, 4)
    act(state, "draw")
    drawn = state.seen[state.to_move][-1].card
    state.do(Action.discard(drawn))
    assert not state.over and len(state.stock) == 3


def _random_hand(rules_name: str, seed: int) -> HandState:
    rng = random.Random(seed)
    state = HandState(Deal.shuffled(rng, seed % 2), preset(rules_name))
    while not state.over:
        actions = state.legal_actions()
        assert actions and all(state.can(a) for a in actions)
        ends = [a for a in actions if a.kind in (Kind.KNOCK, Kind.BIG_GIN)]
        state.do(rng.choice(ends) if ends and rng.random() < 0.7 else rng.choice(actions))
    return state


@pytest.mark.parametrize("name", list(PRESETS))
def test_replay_of_a_logged_hand_reproduces_it_exactly(name: str) -> None:
    for seed in range(8):
        state = _random_hand(name, seed)
        again = parse_log(log_text(state), preset(name))
        assert again.result == state.result
        assert again.log == state.log and again.hands == state.hands
        assert replay(state.deal, preset(name), state.log).pile == state.pile


def test_replay_names_the_illegal_action() -> None:
    deal = make_deal(ND, DL, "KD")
    with pytest.raises(IllegalError, match=r"action 3 \(discard KD\)"):
        replay(deal, preset("standard"), ["pass", "take", "discard KD"])


def test_action_and_deal_text_round_trip() -> None:
    for text in [
        "pass",
        "take",
        "draw",
        "discard TD",
        "knock 7C: 2C 3C 4C | 9D TD JD",
        "big-gin: 4C 4D 4H | AS 2S 3S",
        "lay-off: -",
        "lay-off: 4H 8H",
    ]:
        assert str(Action.parse(text)) == text
    deal = Deal.shuffled(random.Random(1), 1)
    assert Deal.parse(deal.text()) == deal
    with pytest.raises(CardError):
        Action.parse("discard")
    with pytest.raises(CardError):
        Action.parse("shout 7C")


def test_the_info_set_hides_the_opponents_stock_draws() -> None:
    state = HandState(make_deal(ND, DL, "KD", "8H 7D", dealer=0), preset("standard"))
    act(state, "pass", "pass", "draw")
    mine, theirs = state.infoset(1), state.infoset(0)
    assert mine.events[-1].card == CardSet.parse("8H").mask.bit_length() - 1
    assert theirs.events[-1].card == NO_CARD
    assert theirs.opponent_passed == CardSet.parse("KD").mask
    assert mine.stock_size == theirs.stock_size == 30


def test_info_sets_are_equal_when_only_hidden_cards_differ() -> None:
    # Swap the dealer's hand with the stock's tail: the non-dealer cannot tell.
    one = make_deal(ND, DL, "KD", "8H")
    other_hand = "AD 2D 3D 7H 8S 9S JC JS JH 6D"
    two = make_deal(ND, other_hand, "KD", "8H")
    states = [HandState(d, preset("standard")) for d in (one, two)]
    for state in states:
        act(state, "pass", "pass", "draw", "discard KS")
    assert states[0].infoset(1) == states[1].infoset(1)
    assert states[0].infoset(0) != states[1].infoset(0)


def test_game_alternates_the_dealer_and_a_void_hand_is_redealt() -> None:
    game = GameState(preset("standard"), first_dealer=0)
    game.record(HandResult(void=True))
    assert game.dealer == 0
    state = HandState(
        make_deal("2C 3C 4C 9D TD JD 5H 5S 5D KS", DL, "KD", "5C"), preset("standard")
    )
    act(state, "pass", "pass", "draw", "knock KS: 2C 3C 4C | 9D TD JD | 5C 5D 5H 5S")
    assert state.result is not None
    game.record(state.result)
    assert game.dealer == 1 and game.sheet.totals[1] > 0 and not game.over


def test_meld_check_in_a_spread() -> None:
    state = HandState(make_deal(ND, DL, "KD", "8H"), preset("standard"))
    act(state, "pass", "pass", "draw")
    bad = Action(
        Kind.KNOCK,
        CardSet.parse("KS").mask.bit_length() - 1,
        (Meld.parse("2C 3C 4C").mask, CardSet.parse("9D TD").mask),
    )
    with pytest.raises(IllegalError, match="is not a meld"):
        state.verify(bad)


def test_a_hollywood_game_goes_on_until_all_three_games_close() -> None:
    """Under Hollywood scoring the game is a match: over when every game reached the target,
    won on the three games' total points (RULES.md §3)."""
    from gintutor.engine.game import score_match
    from gintutor.engine.hand import GameState, HandResult
    from gintutor.engine.scoring import score_hand

    rules = preset("hollywood")
    game = GameState(rules)
    won = HandResult(False, 0, (), 5, None, score_hand(5, 40, rules))
    hands = 0
    while not game.over:
        game.record(won)
        hands += 1
        assert hands < 20
    match = score_match([won.record()] * hands, rules)
    assert match.finished and not score_match([won.record()] * (hands - 1), rules).finished
    assert all(sheet.finished for sheet in game.match.games)
    assert game.totals == match.final_totals and game.winner == 0
    assert game.sheet == match.games[0]
    with pytest.raises(GinError):
        game.record(won)
    with pytest.raises(GinError):
        _ = GameState(preset("standard")).match
