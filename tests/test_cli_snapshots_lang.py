"""Each translated language's command line, as a reader sees it: help pages, analyze (10 cards,
11 cards, a knock played out against --opponent), the rules and a score sheet.

A language joins ``LANGUAGES`` when its interface catalog is complete. Read every snapshot
diff: it is the translation the user reads."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from clirun import invoke
from syrupy.assertion import SnapshotAssertion

from gintutor.text import i18n

LANGUAGES = ["id", "pt_BR", "nb"]

OWN_RULES = {"id": "indonesian", "nb": "norwegian", "pt_BR": "portuguese"}
"""The rule set of the source text written in each language (case rules-own)."""

CASES = {
    "help": ["--help"],
    "analyze-help": ["analyze", "--help"],
    "analyze-10": ["analyze", "7C 7D 7S 4H 5H 6H TD JD QD KC"],
    "analyze-11": ["analyze", "5D 6S 3D 5S 4S 6C 6D 2H 4D 2S 5H"],
    "analyze-11-taken": [
        "analyze",
        "5D 6S 3D 5S 4S 6C 6D 2H 4D 2S 5H",
        "--drew-from-discard",
        "6C",
    ],
    "analyze-opponent": [
        "analyze",
        "4H 5H 6H 5C 5D 9S TS JS QS KS",
        "--opponent",
        "3H 7H 8H 2C 3C 4D 8D 9C JD KD",
    ],
    "analyze-no-showdown": [
        "analyze",
        "7C 7D 2S 4H 5H 6H TD 9D KC QS",
        "--opponent",
        "3H 7H 8H 2C 3C 4D 8D 9C JD KD",
    ],
    "rules": ["rules"],
    "rules-own": ["rules", "OWN"],
    "score": ["score", "A knock 12", "B gin 41", "A undercut 30", "B knock 50", "A gin 35"],
    "score-hollywood": ["score", "--rules", "hollywood", "A knock 30", "B gin 41", "A knock 80"],
}


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use(i18n.ENGLISH)


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_command_line_in_each_language(
    language: str, case: str, snapshot: SnapshotAssertion
) -> None:
    args = [OWN_RULES[language] if arg == "OWN" else arg for arg in CASES[case]]
    result = invoke(["--lang", language, *args])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    english = invoke(["--lang", "en", *args])
    assert result.stdout != english.stdout
    assert result.stdout == snapshot


SESSIONS = {
    "lesson-step": (["learn", "1"], "99\nhint\nhint\nquit\n"),
    "play-turn-hint": (
        ["play", "--bot", "novice", "--seed", "11", "--coach", "on"],
        "hint\nquit\n",
    ),
    "carousel-analyze": (
        ["carousel", "analyze", "--table", "7H 8H 9H | JK=7C 7D 7S", "--hand", "TH 2C 5S"],
        "",
    ),
    "puzzle-hints-verdict": (["puzzle", "--id", "deadwood-003"], "hint\nhint\n9S\nn\nn\n"),
    "carousel-puzzle": (["carousel", "puzzle", "--id", "carousel-002"], "hint\nhint\nnone\nn\nn\n"),
}
"""Sessions a learner types into: a lesson's first question answered wrong, then its hints;
a play turn with the coach's hint (a deterministic coach); Carousel's analysis; a puzzle's two
hints, then a wrong answer and its verdict (a deadwood puzzle: exact numbers, no stored coach
verdict to drift), and a Carousel puzzle the same way."""


@pytest.mark.parametrize("case", list(SESSIONS))
@pytest.mark.parametrize("language", ["id", "pt_BR", "nb"])
def test_a_session_in_each_language(
    language: str,
    case: str,
    snapshot: SnapshotAssertion,
    warm_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from test_play import NOW, fake_judge

    from gintutor.cli import playrun
    from gintutor.tutor import session as session_module

    monkeypatch.setattr(session_module, "judge", fake_judge)
    monkeypatch.setattr(playrun, "now", lambda: NOW)
    args, typed = SESSIONS[case]
    result = invoke(["--lang", language, *args], stdin=typed)
    assert result.exit_code == 0, result.stderr
    english = invoke(["--lang", "en", *args], stdin=typed)
    assert result.stdout != english.stdout
    assert result.stdout == snapshot
