"""Carousel scoring (every clause, multi-player ties) and the round state machine."""

from __future__ import annotations

import pytest

from gintutor.engine.carousel.cards import Hand, Table, parse_hand_cards, parse_table
from gintutor.engine.carousel.game import (
    Ending,
    ItemKind,
    Phase,
    Round,
    RoundResult,
    score_game,
    score_round,
)
from gintutor.engine.carousel.rules import CarouselRules, FirstMeld, LowTie
from gintutor.errors import CardError, IllegalError


def scores(
    points: tuple[int, ...], ending: Ending, player: int | None, rules: CarouselRules | None = None
) -> tuple[int, ...]:
    return score_round(RoundResult(points, ending, player), rules or CarouselRules()).scores


def test_knocker_lowest_scores_the_differences_summed() -> None:
    assert scores((3, 12, 20), Ending.KNOCK, 0) == (26, 0, 0)


def test_two_players_score_the_one_difference() -> None:
    assert scores((4, 30), Ending.KNOCK, 0) == (26, 0)


def test_lower_non_knocker_wins_with_undercut_bonus() -> None:
    assert scores((5, 2, 20), Ending.KNOCK, 0) == (0, 3 + 18 + 10, 0)


def test_tie_with_the_knocker_goes_to_the_other_with_bonus() -> None:
    assert scores((3, 3, 20), Ending.KNOCK, 0) == (0, 17 + 10, 0)


def test_tie_knocker_and_two_others_both_others_win() -> None:
    result = score_round(RoundResult((3, 3, 3, 20), Ending.KNOCK, 0))
    assert result.winners == (1, 2)
    assert result.scores == (0, 17 + 10, 17 + 10, 0)


def test_going_out_bonus() -> None:
    result = score_round(RoundResult((0, 12, 20), Ending.OUT, 0))
    assert result.scores == (32 + 25, 0, 0)
    assert [item.kind for item in result.items] == [
        ItemKind.DIFFERENCE,
        ItemKind.DIFFERENCE,
        ItemKind.GOING_OUT,
    ]


def test_stock_out_lowest_wins_without_bonus() -> None:
    assert scores((8, 12, 20), Ending.STOCK, None) == (0 + 4 + 12, 0, 0)


def test_tie_between_non_knockers_is_a_setting() -> None:
    assert scores((8, 8, 20), Ending.STOCK, None) == (12, 12, 0)
    void = CarouselRules(low_tie=LowTie.VOID)
    assert scores((8, 8, 20), Ending.STOCK, None, void) == (0, 0, 0)
    # Knocker not among the tied lowest: each tied winner gets the undercut bonus.
    assert scores((5, 2, 2), Ending.KNOCK, 0) == (0, 13, 13)


def test_game_to_150_bonuses() -> None:
    rounds = [
        RoundResult((3, 40, 60), Ending.KNOCK, 0),
        RoundResult((30, 0, 50), Ending.OUT, 1),
        RoundResult((0, 60, 70), Ending.OUT, 0),
    ]
    sheet = score_game(rounds)
    assert sheet.over
    assert sheet.running[-1] == (94 + 155, 105, 0)
    assert sheet.game_bonus == (100, 0, 0)
    assert sheet.round_bonus == (0, 25, 0)
    assert sheet.finals == (349, 130, 0)
    assert sheet.winners == (0,)


def test_rounds_after_the_game_ended_are_an_error() -> None:
    with pytest.raises(IllegalError, match="ended"):
        score_game([RoundResult((0, 200), Ending.OUT, 0), RoundResult((0, 5), Ending.OUT, 0)])


def test_bad_results() -> None:
    with pytest.raises(IllegalError, match="2 to 5"):
        RoundResult((1, 2, 3, 4, 5, 6), Ending.STOCK)
    with pytest.raises(IllegalError, match="player 1: out with points"):
        score_round(RoundResult((3, 4), Ending.OUT, 0))
    with pytest.raises(CardError, match="2 to 5"):
        Round.deal(6, 1)


def test_deal_is_seeded() -> None:
    a, b = Round.deal(3, 7), Round.deal(3, 7)
    assert [h.text() for h in a.hands] == [h.text() for h in b.hands]
    assert [len(h) for h in a.hands] == [10, 10, 10]
    assert len(a.stock) == 106 - 30
    assert len(Round.deal(2, 7).stock) == 53 - 20


def _round(hand: str, table: str = "", stock: int = 20) -> Round:
    hands = [parse_hand_cards(hand), parse_hand_cards("KC KD QS QH 9C 9D 8S 8H 2C 2D")]
    filler = parse_hand_cards("3C 4C 5C 6C 7C 8C 9C TC JC QC 3D 4D 5D 6D 7D 8D 9D TD JD QD")
    return Round(CarouselRules(), 2, hands, list(filler.cards[:stock]), parse_table(table))


def test_three_draws_then_no_meld() -> None:
    r = _round("2S 5H 9S")
    for _ in range(2):
        r.draw()
        assert r.can_play()
        r.pass_turn()
    r.draw()
    assert r.phase is Phase.TURN_OVER and not r.can_play()
    with pytest.raises(IllegalError, match="may not play"):
        r.verify_play(r.table)


def test_play_ends_the_draws_and_knock_needs_five_or_less() -> None:
    r = _round("7S 7H 2S", "7C 8C 9C TC")
    r.draw()  # QD
    r.play(parse_table("7C 7H 7S | 8C 9C TC"))
    assert r.phase is Phase.TURN_OVER
    assert r.hand.text() == "QD 2S"
    assert not r.can_knock()
    with pytest.raises(IllegalError, match="at most 5"):
        r.knock()


def test_knock_ends_the_round() -> None:
    r = _round("7S 7H 2S", "7C 8C 9C TC")
    r.stock.append(parse_hand_cards("AS").cards[0])
    r.draw()
    r.play(parse_table("7C 7H 7S | 8C 9C TC"))
    assert r.can_knock()
    result = r.knock()
    assert result.ending is Ending.KNOCK and result.points[0] == 3


def test_going_out_ends_the_round() -> None:
    r = _round("5S 6S", "7S 8S 9S")
    r.stock.append(parse_hand_cards("4S").cards[0])
    r.draw()
    r.play(parse_table("4S 5S 6S 7S 8S 9S"))
    assert r.phase is Phase.ROUND_OVER
    assert r.result == RoundResult((0, r.hands[1].points), Ending.OUT, 0)


def test_first_meld_of_each_player_setting() -> None:
    r = _round("9C 2S", "6C 7C 8C")
    r.rules = CarouselRules(first_meld=FirstMeld.EACH_PLAYER)
    r.draw()
    with pytest.raises(IllegalError, match="first meld"):
        r.play(parse_table("6C 7C 8C 9C"))


def test_stock_runs_out_then_one_more_turn_each() -> None:
    r = _round("2S 5H 9S", stock=1)
    r.draw()
    assert r.final_turns == 3
    r.pass_turn()
    r.end_turn()
    for _ in range(2):
        assert not r.can_draw() and r.can_play()
        r.pass_turn()
        r.end_turn()
    assert r.phase is Phase.ROUND_OVER and r.result is not None
    assert r.result.ending is Ending.STOCK


def test_hand_type_is_used() -> None:
    assert isinstance(Table(), Table) and Hand().points == 0
