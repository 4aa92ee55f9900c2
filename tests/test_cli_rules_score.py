"""`gintutor rules` and `gintutor score`: tables and prose from the rule-set data, score sheets."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import run
from syrupy.assertion import SnapshotAssertion

from gintutor.engine.rules import RULE_SETS


def test_rules_table_side_by_side(snapshot: SnapshotAssertion) -> None:
    code, out, _ = run("rules")
    assert code == 0
    assert out == snapshot


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_rules_prose(name: str, snapshot: SnapshotAssertion) -> None:
    code, out, _ = run("rules", name)
    assert code == 0
    assert out == snapshot


def test_rules_prose_numbers_come_from_the_data(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("base: standard\ngin_bonus: 37\nknock_limit: 7\ntarget: 250\n")
    code, out, _ = run("rules", str(path))
    assert code == 0
    assert "at most 7 deadwood" in out
    assert "Gin: 37 bonus" in out
    assert "reach 250 points" in out


def test_rules_diff_shows_only_differences(snapshot: SnapshotAssertion) -> None:
    code, out, _ = run("rules", "--diff", "standard", "classic")
    assert code == 0
    assert out == snapshot
    assert "knock_limit" not in out


def test_rules_diff_of_equal_sets() -> None:
    code, out, _ = run("rules", "--diff", "standard", "STANDARD")
    assert code == 0 and "have the same settings" in out


def test_rules_unknown_name_is_status_2() -> None:
    code, _, err = run("rules", "gin500")
    assert code == 2 and err.startswith("error: unknown rule set 'gin500'")


SCORE_CASES = {
    "open-game": ["A knock 20", "void", "B undercut 30", "A gin 45"],
    "standard-win-with-boxes": ["A knock 60", "B gin 40", "A knock 45"],
    "standard-shutout-double": ["--players", "Ann,Bob", "Bob gin 70", "2 knock 40"],
    "classic-shutout-bonus-200": ["-r", "classic", "A gin 70", "A knock 40"],
    "hollywood-three-games": [
        "-r",
        "hollywood",
        "--players",
        "Ann,Bob",
        "Ann knock 40",
        "Bob knock 10",
        "Ann gin 40",
        "Ann knock 40",
        "Ann knock 30",
        "Bob undercut 35",
        "Ann knock 50",
    ],
    "oklahoma-target-150": ["-r", "oklahoma", "A gin 90", "B knock 20", "A knock 70"],
}


@pytest.mark.parametrize("case", sorted(SCORE_CASES))
def test_score_sheets(case: str, snapshot: SnapshotAssertion) -> None:
    code, out, err = run("score", *SCORE_CASES[case])
    assert (code, err) == (0, "")
    assert out == snapshot


def test_score_numbers() -> None:
    _, out, _ = run("score", *SCORE_CASES["standard-win-with-boxes"])
    # A: 105 + 100 game + 2 boxes x 25; B: 40 + 1 box.
    assert "Final: A 255, B 65: A wins by 190." in out
    _, out, _ = run("score", *SCORE_CASES["classic-shutout-bonus-200"])
    assert "Final: A 350, B 0: A wins by 350." in out


@pytest.mark.parametrize(
    ("text", "suffix"),
    [
        ("- A knock 20\n- B gin 41\n- void\n", ".yaml"),
        ("hands:\n  - [A, knock, 20]\n  - B gin 41\n  - void\n", ".yml"),
        ("A,knock,20\nB,gin,41\nvoid\n", ".csv"),
        ("# a game\nA knock 20\nB gin 41  # nice\nvoid\n", ".txt"),
    ],
)
def test_score_from_a_file(tmp_path: Path, text: str, suffix: str) -> None:
    path = tmp_path / f"game{suffix}"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("score", "--file", str(path))
    assert (code, err) == (0, "")
    assert "Game in progress: A 20, B 41" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["C knock 4"], "error: hand 1: unknown player 'C' (use A or B, or 1 or 2)"),
        (
            ["A gin 5"],
            "error: hand 1: 'A gin 5': a winning gin scores at least 25 under standard rules",
        ),
        # A winning knock needs strictly less deadwood: 0 points is a tie, i.e. an undercut.
        (
            ["A knock 0", "A knock 100"],
            "error: hand 1: 'A knock 0': a winning knock scores at least 1 under standard rules",
        ),
        (
            ["-r", "classic", "B undercut 9"],
            "error: hand 1: 'B undercut 9': a winning undercut scores at least 10 under classic",
        ),
        (["A knock"], "error: hand 1: 'A knock': a hand is 'PLAYER RESULT POINTS'"),
        (["A knocks twelve"], "error: hand 1: 'A knocks twelve': points 'twelve' are not"),
        (["A knock 10000000"], "error: hand 1: 'A knock 10000000': 10000000 points: a hand scores"),
        (["A fold 3"], "error: hand 1: 'A fold 3': unknown result 'fold'"),
        (
            ["A knock 60", "A knock 50", "B gin 30"],
            "error: hand 3: the game was already over after hand 2",
        ),
        ([], "error: no hands given"),
        (["-r", "straight", "A knock 10"], "error: hand 1: 'A knock 10': straight rules allow"),
        (["-r", "classic", "A big_gin 40"], "error: hand 1: 'A big_gin 40': classic rules do not"),
        (["--players", "Ann", "A knock 3"], "error: --players: 'Ann': give two different names"),
    ],
)
def test_score_errors(args: list[str], message: str) -> None:
    code, out, err = run("score", *args)
    assert code == 2 and out == ""
    assert err.startswith(message), err


def test_score_file_errors_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("- A knock 20\n- B gin 4\n", encoding="utf-8")
    code, _, err = run("score", "--file", str(path))
    assert code == 2
    assert err.startswith(
        f"error: {path}:2: 'B gin 4': a winning gin scores at least 25 under standard rules"
    )
    bad = tmp_path / "bad.yaml"
    bad.write_text("- A knock 20\n- [B, gin\n", encoding="utf-8")
    code, _, err = run("score", "--file", str(bad))
    assert code == 2 and err.startswith(f"error: {bad}:3: not valid YAML")


def test_rules_carousel_explains_the_other_game() -> None:
    code, out, _ = run("rules", "carousel")
    assert code == 0
    flat = " ".join(out.split())
    assert "150" in flat and "joker" in flat.lower()


def test_score_reads_standard_input_in_any_of_the_file_formats() -> None:
    for text in ("A knock 12\nB gin 41\n", "- A knock 12\n- B gin 41\n", "A,knock,12\nB,gin,41\n"):
        code, out, _ = run("score", "--file", "-", stdin=text)
        assert code == 0 and "A 12, B 41" in out, text
    code, _, err = run("score", "-f", "-", stdin="- A knock 12\n- B gin 3\n")
    assert code == 2 and err.startswith("error: standard input:2: 'B gin 3'")


def test_a_csv_header_row_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "game.csv"
    path.write_text("player,result,points\nA,knock,12\nB,gin,41\n", encoding="utf-8")
    code, out, _ = run("score", "--file", str(path))
    assert code == 0 and "A 12, B 41" in out
