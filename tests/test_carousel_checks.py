"""``gintutor carousel``: the positions that once broke the solver, and ``score`` refusing
results the rules make impossible."""

from __future__ import annotations

import json

import pytest
from clirun import run

HEARTS_2_K = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
CLUBS_A_K = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"


@pytest.mark.parametrize(
    ("table", "hand", "players", "left"),
    [
        (HEARTS_2_K, "AH AH", 3, 0),
        (HEARTS_2_K, "AH JK", 3, 0),
        (HEARTS_2_K, "JK JK", 3, 0),
        (CLUBS_A_K, "AC", 3, 0),
        (CLUBS_A_K.removesuffix(" KC"), "KC JK", 3, 0),
        ("", f"{CLUBS_A_K} JK", 5, 0),
    ],
)
def test_analyze_two_aces_of_a_suit_at_both_ends(
    table: str, hand: str, players: int, left: int
) -> None:
    """A suit's whole run and its second ace (or a joker) is two sequences, not an error."""
    code, out, err = run(
        "carousel", "analyze", "--table", table, "--hand", hand, "--players", str(players), "--json"
    )
    assert (code, err) == (0, "")
    play = json.loads(out)["play"]
    assert play["points_after"] == left
    for meld in play["table"]:  # (a group of aces has at most 4 cards)
        assert not (len(meld) > 4 and meld[0][-2] == "A" == meld[-1][-2]), meld
