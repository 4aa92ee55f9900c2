"""`gintutor analyze`: explanations (snapshots at width 100, no colour), JSON, errors, batch."""

from __future__ import annotations

import json
from pathlib import Path

import clirun
import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

# Every case of RULES.md §4 and every preset, with and without an opponent.
CASES: dict[str, list[str]] = {
    "main-example": ["7C 7D 7S 4H 5H 6H TD JD QD KC"],
    "e1-set-or-run": ["7C 7D 7H 5H 6H 8H AS 2S 3S KD"],
    "e1-fourth-seven-gin": ["7C 7D 7H 7S 5H 6H 8H AS 2S 3S"],
    "e2-two-arrangements-tie": ["4H 5H 6H 5C 5D 9S TS JS QS KS"],
    "e2-spread-blocks-layoffs": [
        "4H 5H 6H 5C 5D 9S TS JS QS KS",
        "--opponent",
        "3H 7H 8H 2C 3C 4D 8D 9C JD KD",
    ],
    "e3-chained-layoffs": [
        "5H 6H 7H 2C 2D 2S 9C TC JC AD",
        "--opponent",
        "4H 8H 9H 3C 5D 9S JD QD KS KD",
    ],
    "e4-four-card-set-takes-nothing": [
        "7C 7D 7H 7S 2C 3C 4C AS 2S 5D",
        "--opponent",
        "8C 6D 8D 9D KH QH JS TS 3H 4H",
    ],
    "e4-three-card-set-takes-one": [
        "7C 7D 7H 2C 3C 4C 9D TD JD 3S",
        "--opponent",
        "7S 6H 5S 8S KH QH JS TS 3H 4H",
    ],
    "e5-joint-defence": [
        "TH JH QH KC KD KS 2C 3C 4C AS",
        "--opponent",
        "7H 8H 9H 7C 7D 5C 8S 9D KH 2D",
    ],
    "e6-tie-is-undercut": [
        "2C 3C 4C 5D 6D 7D 9S TS JS 7H",
        "--opponent",
        "AH 2H 3H 8C 8D 8S QH KH JH 7S",
    ],
    "e7-gin-no-layoffs": [
        "7C 7D 7H 7S 5H 6H 8H AS 2S 3S",
        "--opponent",
        "4H 9H 8C 8D 8S 4S 5S TC JC QC",
    ],
    "e8-big-gin-standard": [
        "AS 2S 3S 4S 5S 7C 7D 7H JD QD KD",
        "--opponent",
        "2C 3D 9S JC QC KS KH 4C 5D 6H",
    ],
    "e8-classic-no-big-gin": ["AS 2S 3S 4S 5S 7C 7D 7H JD QD KD", "--rules", "classic"],
    "e8-classic-no-big-gin-showdown": [
        "AS 2S 3S 4S 5S 7C 7D 7H JD QD KD",
        "--rules",
        "classic",
        "--opponent",
        "2C 3D 9S JC QC KS KH 4C 5D 6H",
    ],
    "e10-drew-from-discard": ["2C 3C 4C 9D TD JD 5H 5S 5D 8S KS", "--drew-from-discard", "KS"],
    "e10-exactly-ten-knocks": ["2C 3C 4C 9D TD JD QD 2S 3H 5S"],
    "e10-eleven-cannot-knock": ["2C 3C 4C 9D TD JD QD 2S 4H 5S"],
    "e11-oklahoma-three-upcard": [
        "2C 3C 4C 9D TD JD 5H 5S 5D 4S",
        "--rules",
        "oklahoma",
        "--upcard",
        "3D",
    ],
    "e11-oklahoma-ace-gin-only": [
        "2C 3C 4C 9D TD JD 5H 5S 5D AS",
        "--rules",
        "oklahoma",
        "--upcard",
        "AH",
    ],
    "e11-oklahoma-spade-doubles": [
        "7C 7D 7H 7S 5H 6H 8H AS 2S 3S",
        "--rules",
        "oklahoma",
        "--upcard",
        "6S",
        "--opponent",
        "2C 3D 4H JC QD KD 9C 4D 6D 5C",
    ],
    "e11-oklahoma-king-upcard-knock": [
        "2C 3C 4C 9D TD JD 5H 5S 5D 8S",
        "--rules",
        "oklahoma",
        "--upcard",
        "KH",
        "--opponent",
        "AH 2H 3H 8C 8D 9S QH KS JH 7S",
    ],
    "openspiel-estimate-hand": ["5D 6S 3D 5S 4S 6C 6D 2H 4D 2S 5H"],
    "straight-gin-only": ["7C 7D 7S 4H 5H 6H TD JD QD KC", "--rules", "straight"],
    "straight-gin-showdown": [
        "7C 7D 7H 7S 5H 6H 8H AS 2S 3S",
        "--rules",
        "straight",
        "--opponent",
        "4H 9H 8C 8D 8S 4S 5S TC JC QC",
    ],
    "hollywood-knock": [
        "2C 3C 4C 9D TD JD 5H 5S 5D 8S",
        "--rules",
        "hollywood",
        "--opponent",
        "AH 2H 3H 8C 8D 9S QH KS JH 7S",
    ],
    "classic-undercut-ten": [
        "2C 3C 4C 9D TD JD 5H 5S 5D 9S",
        "--rules",
        "classic",
        "--opponent",
        "AH 2H 3H 8C 8D 8S QH KH JH 2S",
    ],
    "standard-undercut": [
        "2C 3C 4C 9D TD JD 5H 5S 5D 9S",
        "--opponent",
        "AH 2H 3H 8C 8D 8S QH KH JH 2S",
    ],
    "no-melds-at-all": ["AC 3D 5H 7S 9C JD KH 2S 4C 6D"],
    "four-sevens-lend-one-to-a-run": ["7C 7D 7H 7S 5H 6H 8H 9H KD QD"],
    "long-run-is-one-meld": ["3H 4H 5H 6H 7H 8H 2C 2D 2S KC"],
    "ascii-suits": ["7C 7D 7S 4H 5H 6H TD JD QD KC", "--ascii"],
    "eleven-cards-engine-picks-discard-and-spread": [
        "7C 7D 7S 4H 5H 6H TD JD QD KC AS",
        "--opponent",
        "8C 9C TC 3H 7H 8H 9S KD KS 2D",
    ],
    "two-runs-one-suit-layoffs-both-ways": [
        "3H 4H 5H 9H TH JH 2C 2D 2S AC",
        "--opponent",
        "6H 7H 8H QS KS 3D 4D 9C 9D 4S",
    ],
    "symbols-and-commas-input": ["7♣, 7♦️, 7♠, 4♥, 5♥, 6♥, 10♦, J♦, Q♦, K♣"],
    # Issue 12: the showdown spreads more deadwood than the least, and says why.
    "hold-back-4h-blocks-layoffs": [
        "4H 5H 6H 7H 9S TS JS QS KS 5D",
        "--opponent",
        "3H 2H 9H 2C 3C 4D 8D 9C JD KD",
    ],
    "hold-back-avoids-an-undercut": [
        "4H 5H 6H 7H 9S TS JS QS KS 5D",
        "--opponent",
        "3H 2H 5C 8D 9D TD JD QC QD QH",
    ],
    "hold-back-5h-blocks-layoffs": [
        "2H 3H 4H 5H 9C 9D 9S AC AD 2S",
        "--opponent",
        "6H 7H KC KD QC QS JD JH TC 8S",
    ],
    "eleven-cards-discard-blocks-layoffs": [
        "2C 8C 9C TC JC QC 2D 3D 5D AS 2S",
        "--opponent",
        "6C 7C KC 6D 9D 7H 8H 9H JH QH",
    ],
    "eleven-cards-two-discards-rejected": [
        "6C 7C 8C JC AD 2D 3D 6D JD JH 6S",
        "--opponent",
        "2C 5C 9C TC KC 5H 7H KH 5S 7S",
    ],
    # Issue 12: an opponent given, but the hand may not knock: the analysis and why no showdown.
    "opponent-but-cannot-knock": [
        "7C 7D 7S 4H 5H 6H TD JD 2D KC",
        "-o",
        "AC 2C 3D 4D 5D 6D 8D 9D KD QH",
    ],
    "opponent-but-gin-only": [
        "7C 7D 7S 4H 5H 6H TD JD QD KC",
        "--rules",
        "straight",
        "-o",
        "AC 2C 3D 4D 5D 6D 8D 9D KD QH",
    ],
}


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = clirun.invoke(["analyze", *args], stdin=stdin, env={"COLUMNS": "100"})
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("case", sorted(CASES))
def test_analyze_text(case: str, snapshot: SnapshotAssertion) -> None:
    code, out, err = invoke(*CASES[case])
    assert (code, err) == (0, "")
    assert out == snapshot


JSON_CASES = [
    "main-example",
    "e1-set-or-run",
    "e2-two-arrangements-tie",
    "e2-spread-blocks-layoffs",
    "e5-joint-defence",
    "e6-tie-is-undercut",
    "e8-big-gin-standard",
    "e8-classic-no-big-gin",
    "e10-drew-from-discard",
    "e11-oklahoma-spade-doubles",
    "eleven-cards-engine-picks-discard-and-spread",
    "hold-back-4h-blocks-layoffs",
    "eleven-cards-discard-blocks-layoffs",
    "opponent-but-cannot-knock",
]


@pytest.mark.parametrize("case", JSON_CASES)
def test_analyze_json(case: str, snapshot: SnapshotAssertion) -> None:
    code, out, err = invoke(*CASES[case], "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == snapshot.use_extension(JSONSnapshotExtension)


def test_json_contract_fields() -> None:
    _, out, _ = invoke(*CASES["e2-spread-blocks-layoffs"], "--json")
    data = json.loads(out)
    for key in (
        "hand",
        "rules",
        "knock_limit",
        "deadwood",
        "melds",
        "deadwood_cards",
        "arrangements",
        "can_knock",
        "gin",
        "showdown",
    ):
        assert key in data
    showdown = data["showdown"]
    for key in (
        "knocker_melds",
        "knocker_deadwood",
        "defender_melds",
        "layoffs",
        "defender_deadwood",
        "result",
        "winner",
        "points",
    ):
        assert key in showdown
    assert (showdown["result"], showdown["winner"], showdown["points"]) == ("knock", "knocker", 54)
    _, out, _ = invoke(*CASES["e10-drew-from-discard"], "--json")
    data = json.loads(out)
    assert "KS" not in [d["card"] for d in data["discards"]]
    assert data["best_discards"] == ["8S"] and data["big_gin"] is False
    assert data["deadwood"] == 10 and data["can_knock"] is True


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["7C 7D 7S 4H 5H 6H TD JD QD 1X"], "error: '1X': unknown suit 'X'"),
        (["7C 7D 7S 4H 5H 6H TD JD QD ZC"], "error: 'ZC': unknown rank 'Z'"),
        (["7C 7D 7S 4H 5H 6H TD JD QD 7c"], "error: 7C appears twice"),
        (["7C 7D 7S 4H 5H 6H TD JD QD"], "error: a hand here has 10 or 11 cards, got 9"),
        (["7C 7D 7S 4H 5H 6H TD JD QD KC AS 2S"], "error: a hand here has 10 or 11 cards, got 12"),
        (
            ["7C 7D 7S 4H 5H 6H TD JD QD KC", "-o", "7C 2D 3D 4D 5D 6D 8D 9D KD QH"],
            "error: 7C is in both hands",
        ),
        (
            ["7C 7D 7S 4H 5H 6H TD JD QD KC", "-o", "2D 3D 4D"],
            "error: --opponent: a hand here has 10 cards, got 3",
        ),
        (
            ["7C 7D 7S 4H 5H 6H TD JD QD KC", "--rules", "gin500"],
            "error: unknown rule set 'gin500'",
        ),
        (
            ["7C 7D 7S 4H 5H 6H TD JD QD KC", "--rules", "oklahoma"],
            "error: oklahoma rules take the knock limit and doubling from the first upcard: "
            "add --upcard CARD",
        ),
        (
            ["7C 7D 7S 4H 5H 6H TD JD QD KC", "-r", "oklahoma", "--upcard", "XX"],
            "error: --upcard: 'XX': unknown suit 'X'",
        ),
        (
            ["7C 7D 7S 4H 5H 6H TD JD QD KC", "--drew-from-discard", "KC"],
            "error: --drew-from-discard needs the 11-card hand",
        ),
        (
            ["7C 7D 7S 4H 5H 6H TD JD QD KC AS", "--drew-from-discard", "2C"],
            "error: 2C was taken from the discard pile but is not in the hand",
        ),
    ],
)
def test_bad_input_is_a_clear_error_with_status_2(args: list[str], message: str) -> None:
    code, out, err = invoke(*args)
    assert code == 2
    assert out == ""
    assert err.startswith(message), err
    assert "Traceback" not in err


def test_bad_house_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("base: classic\nknock_limit: 12\n", encoding="utf-8")
    code, _, err = invoke("7C 7D 7S 4H 5H 6H TD JD QD KC", "--rules", str(path))
    assert code == 2
    assert err == f"error: {path}:2: knock_limit: 12 is impossible: it must be 0 to 10\n"


def test_house_rules_file_scores_the_hand(tmp_path: Path) -> None:
    path = tmp_path / "portuguese.yaml"
    path.write_text("base: classic\nbox_bonus: 0\ngame_bonus: 0\ntarget: 250\n", encoding="utf-8")
    code, out, _ = invoke(*CASES["e7-gin-no-layoffs"], "--rules", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == str(path)
    assert data["showdown"]["points"] == 20 + data["showdown"]["defender_deadwood"]


def test_batch_mode_reports_bad_lines_and_goes_on() -> None:
    stdin = (
        "# my hands\n"
        "7C 7D 7S 4H 5H 6H TD JD QD KC\n"
        "\n"
        "7C 7D 7S 4H 5H 6H TD JD QD 1X\n"
        "5D 6S 3D 5S 4S 6C 6D 2H 4D 2S 5H  # the OpenSpiel hand\n"
    )
    code, out, err = invoke("--json", "-", stdin=stdin)
    assert code == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["deadwood"] for line in lines] == [10, 9]
    assert err == "error: line 4: '1X': unknown suit 'X' (use C, D, H, S or ♣ ♦ ♥ ♠)\n"


def test_batch_mode_all_good_is_status_0_and_text_separates_hands() -> None:
    stdin = "7C 7D 7S 4H 5H 6H TD JD QD KC\nAC 3D 5H 7S 9C JD KH 2S 4C 6D\n"
    code, out, err = invoke("-", stdin=stdin)
    assert (code, err) == (0, "")
    assert out.count("Hand: ") == 2


def test_hand_may_be_given_as_separate_arguments() -> None:
    code, out, _ = invoke(*["7C", "7D", "7S", "4H", "5H", "6H", "TD", "JD", "QD", "KC"])
    assert code == 0 and "10 ≤ 10: you can knock." in out


@pytest.mark.parametrize(
    ("case", "why"),
    [
        (
            "hold-back-4h-blocks-layoffs",
            "Why this spread: you hold 4♥ back (9 deadwood, not the least 5): spreading 4♥ 5♥ 6♥ 7♥, "
            "9♠ 10♠ J♠ Q♠ K♠ would let the defender lay off 3♥ 2♥ (5 points; 55 deadwood left "
            "instead of 60), and you would score 50 instead of 51.",
        ),
        (
            "hold-back-5h-blocks-layoffs",
            "Why this spread: you hold 5♥ back (9 deadwood, not the least 4): spreading 9♣ 9♦ 9♠, "
            "2♥ 3♥ 4♥ 5♥ would let the defender lay off 6♥ 7♥ (13 points; 78 deadwood left instead "
            "of 91), and you would score 74 instead of 82.",
        ),
        (
            "hold-back-avoids-an-undercut",
            "spreading 4♥ 5♥ 6♥ 7♥, 9♠ 10♠ J♠ Q♠ K♠ would let the defender lay off 3♥ 2♥ (5 points; "
            "5 deadwood left instead of 10), and the defender would undercut you: you would lose 25 "
            "instead of scoring 1.",
        ),
        (
            "eleven-cards-discard-blocks-layoffs",
            "Why discard 8♣, not 5♦: you keep more deadwood (9 deadwood, not the least 4): "
            "discarding 5♦ and spreading 2♣ 2♦ 2♠, 8♣ 9♣ 10♣ J♣ Q♣ would let the defender lay off "
            "7♣ 6♣ K♣ (23 points; 35 deadwood left instead of 48), and you would score 31 instead "
            "of 39.",
        ),
    ],
)
def test_a_spread_other_than_the_least_deadwood_is_explained(case: str, why: str) -> None:
    code, out, _ = invoke(*CASES[case])
    assert code == 0
    assert why in " ".join(out.split())  # the text as read, line wrapping aside


def test_json_names_the_rejected_spread_with_its_numbers() -> None:
    _, out, _ = invoke(*CASES["hold-back-4h-blocks-layoffs"], "--json")
    showdown = json.loads(out)["showdown"]
    assert (showdown["knocker_deadwood"], showdown["least_deadwood"], showdown["points"]) == (
        9,
        5,
        51,
    )
    [rejected] = showdown["rejected_spreads"]
    assert rejected["knocker_melds"] == [["4H", "5H", "6H", "7H"], ["9S", "TS", "JS", "QS", "KS"]]
    assert rejected["layoffs"] == [
        {"card": "3H", "onto": ["4H", "5H", "6H", "7H"], "after": None},
        {"card": "2H", "onto": ["4H", "5H", "6H", "7H"], "after": "3H"},
    ]
    assert (rejected["laid_off_points"], rejected["defender_deadwood"], rejected["points"]) == (
        5,
        55,
        50,
    )
    assert (rejected["reason"], rejected["points_lost"], rejected["held_back"]) == (
        "layoffs",
        1,
        ["4H"],
    )
    _, out, _ = invoke(*CASES["eleven-cards-discard-blocks-layoffs"], "--json")
    data = json.loads(out)
    assert data["best_discards"] == ["5D"] and data["showdown"]["discard"] == "8C"
    assert [r["discard"] for r in data["showdown"]["rejected_spreads"]] == ["5D"]


def test_opponent_with_a_hand_that_cannot_knock_shows_the_analysis_and_why() -> None:
    code, out, err = invoke(*CASES["opponent-but-cannot-knock"])
    assert (code, err) == (0, "")
    assert "Best melds" in out and "32 > 10: you cannot knock" in out
    assert "No showdown: with 32 deadwood (above the knock limit of 10) you cannot knock" in out
    code, out, err = invoke(*CASES["opponent-but-cannot-knock"], "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["can_knock"] is False and data["deadwood"] == 32
    assert data["showdown"] is None and data["no_showdown"] == "over-limit"
