"""The text layer only narrates the engine's records (issue 8) and explains every spread that
differs from the least-deadwood one (issue 12)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from gintutor.content.lessons import load_lessons
from gintutor.engine.analysis import analyze
from gintutor.engine.cards import CardSet
from gintutor.engine.layoffs import best_defence
from gintutor.engine.melds import Meld
from gintutor.engine.rules import preset
from gintutor.engine.showdown import showdown
from gintutor.text.blocks import Line, Style, Table
from gintutor.text.explain import discard_table, explain_analysis
from gintutor.tutor.lessons import Ask
from gintutor.tutor.questions import PointsQuestion

STANDARD = preset("standard")
TEXT = Path(__file__).parent.parent / "gintutor" / "text"


def lines(blocks: object) -> list[str]:
    assert isinstance(blocks, tuple | list)
    return [block.text for block in blocks if isinstance(block, Line)]


def test_text_layer_imports_only_engine_records_and_types() -> None:
    """No game logic in gintutor/text: from the engine it takes classes and constants (a
    record's vocabulary), never functions."""
    for path in sorted(TEXT.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "gintutor.engine"
            ):
                module = importlib.import_module(node.module or "")
                for alias in node.names:
                    taken = getattr(module, alias.name)
                    assert isinstance(taken, type) or not callable(taken), (
                        f"{path.name} imports {node.module}.{alias.name}, which is not a record"
                    )


def test_chained_layoff_is_narrated_from_the_record() -> None:
    result = showdown(
        CardSet.parse("5H 6H 7H 2C 2D 2S 9C TC JC AD"),
        CardSet.parse("4H 8H 9H 3C 5D 9S JD QD KS KD"),
        STANDARD,
    )
    chained = [lay for lay in result.defence.layoffs if lay.after is not None]
    assert [(lay.card.code, lay.after.code if lay.after else "") for lay in chained] == [
        ("9H", "8H")
    ]
    text = lines(
        explain_analysis(
            analyze(result.knocker_hand, STANDARD, opponent=result.defender_hand), Style()
        )
    )
    assert "lays off 9♥ onto 5♥ 6♥ 7♥ (chained after 8♥)" in text
    assert "lays off 8♥ onto 5♥ 6♥ 7♥" in text


def test_no_why_line_when_nothing_is_rejected() -> None:
    analysis = analyze(
        CardSet.parse("TH JH QH KC KD KS 2C 3C 4C AS"),
        STANDARD,
        opponent=CardSet.parse("7H 8H 9H 7C 7D 5C 8S 9D KH 2D"),
    )
    assert analysis.showdown is not None and not analysis.showdown.rejected
    assert not any(text.startswith("Why") for text in lines(explain_analysis(analysis, Style())))


@pytest.mark.parametrize(
    ("hand", "opponent", "why"),
    [
        (
            "4H 5H 6H 7H 9S TS JS QS KS 5D",
            "3H 2H 9H 2C 3C 4D 8D 9C JD KD",
            "Why this spread: you hold 4♥ back (9 deadwood, not the least 5)",
        ),
        (
            "2H 3H 4H 5H 9C 9D 9S AC AD 2S",
            "6H 7H KC KD QC QS JD JH TC 8S",
            "Why this spread: you hold 5♥ back (9 deadwood, not the least 4)",
        ),
        (
            "2C 8C 9C TC JC QC 2D 3D 5D AS 2S",
            "6C 7C KC 6D 9D 7H 8H 9H JH QH",
            "Why discard 8♣, not 5♦: you keep more deadwood (9 deadwood, not the least 4)",
        ),
    ],
)
def test_every_rejected_spread_is_narrated_with_its_numbers(
    hand: str, opponent: str, why: str
) -> None:
    analysis = analyze(CardSet.parse(hand), STANDARD, opponent=CardSet.parse(opponent))
    assert analysis.showdown is not None
    [rejected] = analysis.showdown.rejected
    [line] = [text for text in lines(explain_analysis(analysis, Style())) if text.startswith("Why")]
    assert line.startswith(why)
    chosen = analysis.showdown.score.points
    assert line.endswith(f"you would score {rejected.score.points} instead of {chosen}.")
    assert f"({rejected.defence.laid_off_points} points;" in line


def test_discard_table_reads_each_discards_verdict() -> None:
    analysis = analyze(CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 5D 8S KS"), STANDARD)
    table = discard_table(analysis, Style(ascii_only=True))
    assert isinstance(table, Table)
    by_card = {row[0]: row[2] for row in table.rows}
    for option in analysis.verdict.discards:
        allows = by_card[option.card.display(ascii_only=True)]
        if option.gin:
            assert allows == "gin"
        elif option.can_knock:
            assert allows == "knock"
        else:
            assert allows == f"no (shed {option.points_to_shed})"


def test_layoffs_lesson_teaches_holding_a_meld_card_back() -> None:
    [lesson] = [lesson for lesson in load_lessons() if lesson.id == "layoffs"]
    ask = lesson.steps[-1]
    assert isinstance(ask, Ask) and isinstance(ask.question, PointsQuestion)
    question = ask.question
    result = question.showdown()
    assert result.rejected and result.rejected[0].held_back == CardSet.parse("4H")
    solved = question.solve()
    assert solved.answer == ask.expect == "51"
    assert any(
        text.startswith("Why this spread: the knocker holds 4♥ back")
        for text in lines(solved.explanation)
    )


def test_best_defence_record_is_what_the_text_shows() -> None:
    defence = best_defence(CardSet.parse("4H 8H 9H KS KD 2C 3D 9S JC QD"), [Meld.parse("5H 6H 7H")])
    assert [lay.chained for lay in defence.layoffs] == [False, False, True]
