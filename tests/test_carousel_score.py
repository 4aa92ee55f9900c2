"""``carousel score`` refuses the round results the rules make impossible, naming the entry.

Rule clauses (RULES.md §5): knock with at most 5 points in hand; a player who plays all their
cards goes out (no cards, 0 points); everyone else holds at least one card, and the lowest card
(an ace) counts 1; the hands hold at most the cards and jokers in play.
"""

from __future__ import annotations

import itertools

import pytest
from clirun import run

from gintutor.engine.carousel.game import (
    Ending,
    Impossible,
    RoundResult,
    deck_points,
    impossible_entries,
    score_round,
)
from gintutor.engine.carousel.rules import CarouselRules
from gintutor.errors import IllegalError


def reasons(
    points: tuple[int, ...], ending: Ending, player: int | None
) -> list[tuple[str, int | None]]:
    found = impossible_entries(RoundResult(points, ending, player))
    return [(entry.reason.name, entry.player) for entry in found]


def test_knock_over_the_knock_limit_is_impossible() -> None:
    assert reasons((6, 12), Ending.KNOCK, 0) == [("KNOCK_OVER_LIMIT", 0)]
    assert reasons((5, 12), Ending.KNOCK, 0) == []
    # A house knock limit moves the bound.
    wide = impossible_entries(RoundResult((9, 12), Ending.KNOCK, 0), CarouselRules(knock_limit=10))
    assert wide == ()


def test_a_hand_with_cards_never_holds_0_points() -> None:
    assert reasons((0, 0, 4), Ending.OUT, 0) == [("EMPTY_NOT_OUT", 1)]
    assert reasons((0, 7), Ending.STOCK, None) == [("EMPTY_NOT_OUT", 0)]
    # A knocker holds a card too (with none they went out).
    assert reasons((0, 7), Ending.KNOCK, 0) == [("EMPTY_NOT_OUT", 0)]
    assert reasons((1, 7), Ending.KNOCK, 0) == []


def test_going_out_leaves_no_points() -> None:
    assert reasons((3, 5), Ending.OUT, 0) == [("OUT_WITH_POINTS", 0)]
    assert reasons((0, 5), Ending.OUT, 0) == []


def test_the_hands_hold_at_most_the_cards_in_play() -> None:
    # One deck and a joker for two players (4 x 85 + 25); two of each for three to five.
    assert deck_points(2) == 365 and deck_points(5) == 730
    assert reasons((200, 165), Ending.STOCK, None) == []
    assert reasons((200, 166), Ending.STOCK, None) == [("MORE_THAN_THE_CARDS", None)]


def test_a_named_winner_is_below_every_other_hand() -> None:
    """The only winner a result names is the player who went out: a result that passes the
    checks never gives that winner more points than (or as many as) another player."""
    for points in itertools.product(range(4), repeat=3):
        for player in range(3):
            result = RoundResult(points, Ending.OUT, player)
            if not impossible_entries(result):
                assert all(points[player] < p for i, p in enumerate(points) if i != player)


def test_score_round_refuses_an_impossible_result() -> None:
    with pytest.raises(IllegalError, match="player 1: knock over the limit"):
        score_round(RoundResult((6, 12), Ending.KNOCK, 0))
    for reason in Impossible:
        assert reason.value  # every reason has words for the engine's message


@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        (
            ["A knock 6, B 12"],
            "round 1: 'A knock 6': a knock holds at most 5 points (the knock limit)",
        ),
        (
            ["A out, B 0, C 4"],
            "round 1: 'B 0': only the player who went out holds 0 points",
        ),
        (
            ["A knock 3, B 12", "A 9, B 0"],
            "round 2: 'B 0': only the player who went out holds 0 points",
        ),
        (["A out 3, B 5"], "round 1: 'A out 3': a player who went out holds no cards"),
        (["A knock 0, B 7"], "round 1: 'A knock 0': only the player who went out holds 0"),
        (
            ["A 400, B 400, C 1"],
            "round 1: 'A 400, B 400, C 1': the hands hold more points than the cards of a "
            "3-player game (730 in all",
        ),
    ],
)
def test_cli_names_the_impossible_entry(rounds: list[str], message: str) -> None:
    code, out, err = run("carousel", "score", *rounds)
    # The same status as gin's score for a result its rules make impossible.
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err


def test_gin_score_uses_the_same_status_for_an_impossible_hand() -> None:
    code, _, err = run("score", "A gin 3")
    assert code == 2 and err.startswith("error: hand 1: 'A gin 3'")


def test_possible_results_still_score() -> None:
    code, out, err = run("carousel", "score", "A knock 5, B 3", "A 1, B 2", "A out, B 9")
    assert code == 0 and err == ""
    assert "3       out      34 (35)   0 (12)" in out
