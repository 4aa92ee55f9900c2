"""The Carousel puzzle pack: it checks clean, broken puzzles are reported with file:line, plays
are graded by the points they place against the exact solver's best."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from clirun import run

from gintutor.content.carouselpuzzles import (
    MAX_TABLE,
    carousel_pack_files,
    check_carousel_puzzles,
    load_carousel_puzzles,
)
from gintutor.errors import GinError
from gintutor.tutor.carouselpuzzles import (
    CarouselPuzzle,
    Grade,
    fill_explanation,
    grade,
    grade_for,
    position_of,
    solve_puzzle,
)
from gintutor.tutor.questions.base import AnswerError

PUZZLES = load_carousel_puzzles()


@pytest.fixture
def home(warm_home: Path) -> Path:
    """The data folder of a learner's second run (conftest.py's ``warm_home``): these tests are
    about the puzzle commands, not about building their caches (test_startup.py's are)."""
    return warm_home


def puzzle(table: str, hand: str, answers: tuple[str, ...] = (), **more: object) -> CarouselPuzzle:
    players = more.pop("players", 3)
    first = more.pop("first_meld", False)
    position = position_of(table, hand, players, first)  # type: ignore[arg-type]
    return CarouselPuzzle("t-1", "T", 2, position, "Play the most you can.", answers)


# --- the pack --------------------------------------------------------------------------------


def test_the_pack_has_sixty_varied_puzzles() -> None:
    assert len(PUZZLES) >= 60
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)
    assert {p.position.players for p in PUZZLES} >= {2, 3, 4, 5}
    assert {p.position.decks for p in PUZZLES} == {1, 2}
    assert any(p.position.first_meld for p in PUZZLES)
    assert any("JK" in p.position.table.text() for p in PUZZLES)
    assert all(p.position.table.card_count <= MAX_TABLE for p in PUZZLES)
    assert all(len(p.hints) == 2 and p.explanation for p in PUZZLES)
    assert len({p.difficulty for p in PUZZLES}) >= 3


def test_a_sample_of_the_pack_solves_to_its_answers() -> None:
    for found in PUZZLES[::12]:
        solution = solve_puzzle(found)
        for answer in found.answers:
            assert grade(solution, answer).grade is Grade.BEST, found.id
        assert "{" not in fill_explanation(found.explanation, solution)


@pytest.mark.slow
def test_the_whole_pack_checks_clean() -> None:
    puzzles, problems = check_carousel_puzzles(carousel_pack_files())
    assert [str(p) for p in problems] == []
    assert len(puzzles) >= 60


# --- checking --------------------------------------------------------------------------------

BROKEN = """\
puzzles:
  - id: c-1
    title: "Fine"
    theme: carousel
    difficulty: 2
    position:
      table: "7H 8H 9H TH"
      hand: "7C 7D 2S"
    question: "Play."
    answers: ["7C 7D 7H | 8H 9H TH"]
    explanation: "{best.points} points, {best.moves} moved."
  - id: c-1
    title: "Same id, weaker answer"
    theme: carousel
    difficulty: 2
    position:
      table: "5S 6S 7S 8S"
      hand: "4S 9S"
    question: "Play."
    answers: ["4S 5S 6S 7S 8S"]
  - id: c-3
    title: "Bad card"
    theme: carousel
    difficulty: 2
    position:
      table: "5S 6S 7S"
      hand: "4S 1S"
    question: "Play."
    answers: ["4S 5S 6S 7S"]
  - id: c-4
    title: "Unknown placeholder"
    theme: gin
    difficulty: 9
    position:
      table: "5S 6S 7S"
      hand: "4S"
      players: 2
    question: "Play."
    answers: ["4S 5S 6S 7S"]
  - id: c-5
    title: "Placeholder"
    theme: carousel
    difficulty: 1
    position:
      table: "5S 6S 7S"
      hand: "4S"
      players: 2
    question: "Play."
    answers: ["4S 5S 6S 7S"]
    explanation: "{best.score}"
  - id: c-6
    title: "Illegal answer"
    theme: carousel
    difficulty: 1
    position:
      table: "5S 6S 7S"
      hand: "4S 4S"
      players: 2
    question: "Play."
    answers: ["4S 5S 6S 7S"]
"""


def test_broken_puzzles_are_reported_with_file_and_line() -> None:
    _, problems = check_carousel_puzzles([("bad.yaml", BROKEN)])
    messages = [str(p) for p in problems]
    assert messages[:4] == [
        "bad.yaml:27: hand: '1S': unknown rank '1' (use A, 2-9, T or 10, J, Q, K)",
        "bad.yaml:32: theme: a Carousel puzzle's theme is carousel",
        "bad.yaml:33: difficulty: expected 1 to 5",
        "bad.yaml:56: position: 4S is there 2 times; 1 deck has 1",
    ]
    assert messages[4] == "bad.yaml:12: id 'c-1' is also used at bad.yaml:2"
    assert messages[5].startswith(
        "bad.yaml:12: c-1: answer '4S 5S 6S 7S 8S' is inaccuracy (you place 4♠: 4 points, 9 fewer "
        "than the best play); the engine's best places 13 points: 4S 5S 6S 7S 8S 9S"
    )
    assert messages[6].startswith("bad.yaml:40: c-5: {best.score}: unknown placeholder")
    assert len(messages) == 7


def test_a_too_big_table_and_an_opening_on_a_laid_table_are_refused() -> None:
    big = " | ".join(f"{r}C {r}D {r}H {r}S" for r in "23456789TJQ")
    text = textwrap.dedent(f"""\
        puzzles:
          - id: big
            title: "Big"
            theme: carousel
            difficulty: 1
            position:
              table: "{big}"
              hand: "KS"
            question: "Play."
            answers: ["x"]
          - id: open
            title: "Open"
            theme: carousel
            difficulty: 1
            position:
              table: "5S 6S 7S"
              hand: "4S"
              first_meld: true
            question: "Play."
            answers: ["x"]
        """)
    _, problems = check_carousel_puzzles([("p.yaml", text)], solve=False)
    assert [str(p) for p in problems] == [
        f"p.yaml:7: position: 44 table cards; keep puzzles to {MAX_TABLE} so the pack checks "
        "quickly",
        "p.yaml:16: position: first_meld: the first meld of the round is made on an empty table",
    ]


# --- grading ---------------------------------------------------------------------------------


def test_grades_by_points_short_of_the_best() -> None:
    assert [grade_for(short) for short in (0, 1, 5, 6, 10, 11, 20, 21)] == [
        Grade.BEST,
        Grade.GOOD,
        Grade.GOOD,
        Grade.INACCURACY,
        Grade.INACCURACY,
        Grade.MISTAKE,
        Grade.MISTAKE,
        Grade.BLUNDER,
    ]


def test_any_best_play_is_best_and_illegal_plays_say_why() -> None:
    solution = solve_puzzle(puzzle("3C 4C 5C 6C 7C 8C 9C", "6D 6H KS"))
    assert grade(solution, "3C 4C 5C | 6C 6D 6H | 7C 8C 9C").grade is Grade.BEST
    one = grade(solution, "3C 4C 5C 6C 7C 8C 9C | 6D 6H JK=6S")
    assert one.grade is Grade.ILLEGAL and "does not hold JK" in one.reason
    taken = grade(solution, "6C 6D 6H | 7C 8C 9C")
    assert taken.grade is Grade.ILLEGAL and "left the table" in taken.reason
    nothing = grade(solution, "none")
    assert (nothing.grade, nothing.short) == (Grade.MISTAKE, 12)
    with pytest.raises(AnswerError):
        grade(solution, "6C 6D")


def test_a_first_meld_puzzle_leaves_the_table_alone() -> None:
    solution = solve_puzzle(puzzle("", "7C 8C 9C KD KS KH 2H", first_meld=True))
    assert grade(solution, "KD KH KS | 7C 8C 9C").grade is Grade.BEST
    assert grade(solution, "7C 8C 9C").grade is Grade.BLUNDER  # 30 points short


def test_a_position_with_no_play_is_not_a_puzzle() -> None:
    with pytest.raises(GinError, match="not a puzzle"):
        solve_puzzle(puzzle("2D 3D 4D", "9H"))


# --- the command -----------------------------------------------------------------------------


def test_carousel_puzzle_json(home: Path) -> None:
    first = PUZZLES[0]
    code, out, err = run("carousel", "puzzle", "--id", first.id, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["id"] == first.id and data["theme"] == "carousel"
    assert data["best_points"] > 0 and data["play"]["placed"]
    assert data["table"] == [meld.text().split() for meld in first.position.table]
    assert "{" not in data["explanation"]


def test_carousel_puzzle_played_with_a_hint_then_the_best_answer(home: Path) -> None:
    first = PUZZLES[0]
    code, out, err = run(
        "carousel", "puzzle", "--id", first.id, stdin=f"hint\n{first.answers[0]}\n"
    )
    assert (code, err) == (0, "")
    assert first.title in out and "Hint: " in out
    assert "✓ Best: you place" in out
    assert "Best play" in out


def test_carousel_puzzle_unknown_id(home: Path) -> None:
    code, _, err = run("carousel", "puzzle", "--id", "nope")
    assert code == 2 and "no Carousel puzzle 'nope'" in err


def test_puzzles_check_hands_a_carousel_file_to_the_carousel_checker(tmp_path: Path) -> None:
    """`gintutor puzzles check FILE` reads a Carousel pack with the Carousel reader."""
    from clirun import run

    bad = tmp_path / "carousel.yaml"
    bad.write_text(
        "puzzles:\n  - id: carousel-001\n    title: x\n    theme: carousel\n    difficulty: 2\n",
        encoding="utf-8",
    )
    code, out, err = run("puzzles", "check", str(bad))
    assert code == 1 and f"{bad}:2: a puzzle needs position" in out + err
