"""Hand scores under each setting: knock, undercut, ties, gin, big gin, spade doubling."""

from __future__ import annotations

import pytest

from gintutor.engine.rules import from_mapping, preset
from gintutor.engine.scoring import ItemKind, Outcome, Side, score_hand
from gintutor.errors import IllegalError

STANDARD = preset("standard")
CLASSIC = preset("classic")


def test_knock_scores_the_difference() -> None:
    score = score_hand(4, 30, STANDARD)
    assert (score.outcome, score.winner, score.points) == (Outcome.KNOCK, Side.KNOCKER, 26)
    assert [(i.kind, i.points) for i in score.items] == [(ItemKind.DEADWOOD_DIFFERENCE, 26)]


@pytest.mark.parametrize(("name", "bonus"), [("standard", 25), ("classic", 10)])
def test_undercut_bonus_setting(name: str, bonus: int) -> None:
    score = score_hand(9, 3, preset(name))
    assert (score.outcome, score.winner) == (Outcome.UNDERCUT, Side.DEFENDER)
    assert score.points == 6 + bonus
    assert score.items[-1].setting == "undercut_bonus"
    assert score.knocker_net == -(6 + bonus)


def test_tie_is_undercut_false_gives_the_knocker_nothing() -> None:
    rules = from_mapping({"base": "standard", "tie_is_undercut": False})
    score = score_hand(7, 7, rules)
    assert (score.outcome, score.winner, score.points) == (Outcome.KNOCK, Side.KNOCKER, 0)


@pytest.mark.parametrize(("name", "bonus"), [("standard", 25), ("classic", 20)])
def test_gin_bonus_setting_plus_defender_deadwood_never_undercut(name: str, bonus: int) -> None:
    score = score_hand(0, 0, preset(name))
    assert (score.outcome, score.winner, score.points) == (Outcome.GIN, Side.KNOCKER, bonus)
    assert score_hand(0, 33, preset(name)).points == bonus + 33


def test_big_gin_bonus_setting() -> None:
    score = score_hand(0, 12, STANDARD, big_gin=True)
    assert (score.outcome, score.points) == (Outcome.BIG_GIN, 43)
    assert score.items[0].setting == "big_gin_bonus"
    with pytest.raises(IllegalError, match="do not recognise big gin"):
        score_hand(0, 12, CLASSIC, big_gin=True)


def test_straight_gin_has_no_knock() -> None:
    with pytest.raises(IllegalError, match="allow only gin"):
        score_hand(3, 20, preset("straight"))
    assert score_hand(0, 20, preset("straight")).points == 45


def test_spade_doubling_is_an_item_of_its_own() -> None:
    score = score_hand(2, 9, preset("oklahoma"), multiplier=2)
    assert score.points == 14
    assert score.items[-1].kind is ItemKind.SPADE_DOUBLING and score.items[-1].points == 7
    undercut = score_hand(5, 2, preset("oklahoma"), multiplier=2)
    assert undercut.points == (3 + 25) * 2
