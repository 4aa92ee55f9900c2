"""CLI conventions: -h, one-line usage errors, help pages that list choices and give examples."""

from __future__ import annotations

import re

import pytest
from clirun import run

from gintutor.cli.app import THEMES
from gintutor.engine.rules import RULE_SETS
from gintutor.tutor.puzzles import Theme

COMMANDS = [
    ["analyze"],
    ["rules"],
    ["score"],
    ["learn"],
    ["puzzle"],
    ["lessons", "check"],
    ["puzzles", "check"],
    ["puzzles", "generate"],
    ["play"],
    ["review"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_dash_h_is_help_with_an_example_and_no_type_names(command: list[str]) -> None:
    code, out, err = run(*command, "-h")
    assert code == 0 and err == ""
    assert out == run(*command, "--help")[1]
    assert "Example" in out
    assert re.search(r"<[a-z]", out) is None, out  # <int>, <list[str]>; [1<=x<=5] is a range


@pytest.mark.parametrize(
    "command",
    [
        ["match"],
        ["puzzles", "report"],
        ["settings", "lang"],
        ["carousel", "analyze"],
        ["carousel", "score"],
        ["carousel", "puzzle"],
        ["carousel", "play"],
    ],
    ids=" ".join,
)
def test_every_help_page_names_values_in_words(command: list[str]) -> None:
    """``--players N``, ``ROUND...``: not Typer's ``<int>`` or ``ROUND... <list[str]>``."""
    code, out, err = run(*command, "--help")
    assert code == 0 and err == ""
    assert re.search(r"<[a-z]", out) is None, out


def test_help_lists_the_themes_and_the_rule_sets() -> None:
    assert ", ".join(theme.value for theme in Theme) == THEMES
    _, out, _ = run("puzzle", "--help")
    flat = re.sub(r"-\s+", "-", out)
    assert all(theme.value in flat for theme in Theme)
    _, out, _ = run("analyze", "--help")
    flat = " ".join(out.split())
    assert all(name in flat for name in RULE_SETS)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["puzzle", "--difficulty", "6"],
            # The bound's wording is Typer's own and differs between versions (0.26: "6 is not
            # in the range 1<=x<=5"; 0.29: "Input should be less than or equal to 5").
            "error: Invalid value for '--difficulty': ",
        ),
        (["puzzle", "--difficulty", "x"], "error: Invalid value for '--difficulty'"),
        (["--bogus"], "error: No such option: --bogus"),
        (["bogus"], "error: No such command 'bogus'."),
        (["analyze"], "error: Missing argument 'HAND'."),
    ],
)
def test_usage_errors_are_one_error_line_with_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1, err
    assert "Usage:" not in err


@pytest.mark.parametrize(
    "args",
    [
        ["puzzle", "--id", "outs-049", "--random"],
        ["puzzle", "--id", "outs-049", "--date", "2026-12-01"],
        ["puzzle", "--random", "--date", "2026-12-01"],
    ],
)
def test_contradictory_puzzle_options_are_refused(args: list[str]) -> None:
    code, _, err = run(*args)
    assert code == 2 and err.startswith("error: ")


def test_a_theme_with_no_puzzles_says_only_what_was_asked(warm_home: object) -> None:
    code, _, err = run("puzzle", "--theme", "bogus")
    assert code == 2
    assert "theme 'bogus'" in err and "difficulty" not in err.split("(")[0]


def test_shell_completion_is_offered() -> None:
    _, out, _ = run("--help")
    assert "--install-completion" in out and "--show-completion" in out


def test_ascii_prints_no_symbols() -> None:
    code, out, _ = run("analyze", "7C 7D 7S 4H 5H 6H TD JD QD 2C", "--ascii")
    assert code == 0 and out.isascii() and "<=" in out


def test_an_option_that_does_not_apply_says_so() -> None:
    code, out, err = run("analyze", "7C 7D 7H 5H 6H 8H AS 2S 3S KD", "--upcard", "3D")
    assert code == 0 and out
    assert "--upcard does not apply under standard rules" in err


def test_counts_are_plural_only_above_one(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    one = folder / "one.yaml"
    text = Path("puzzles/outs.yaml").read_text(encoding="utf-8")
    first = text.split("\n  - id: ")[1]
    one.write_text("puzzles:\n  - id: " + first.rstrip() + "\n", encoding="utf-8")
    code, out, _ = run("puzzles", "check", str(one))
    assert code == 0 and out == "1 puzzle: all good\n", out


@pytest.mark.parametrize(
    ("argv", "kept"),
    [
        (["analyze", "7C"], ["analyze"]),
        (["rules", "classic"], ["rules"]),
        (["puzzles", "check", "--help"], ["puzzles"]),
        (["carousel", "rules"], ["carousel"]),
        (["--help"], None),
        (["no-such-command"], []),
    ],
)
def test_only_the_invoked_command_is_built(
    argv: list[str], kept: list[str] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start-up builds only the command named on the line; the help page builds them all, an
    unknown word none (its "Did you mean" needs only the names)."""
    from gintutor.cli.app import COMMANDS

    every = list(COMMANDS)
    assert {"analyze", "rules", "score", "learn", "puzzle", "match", "carousel"} <= set(every)
    built: list[str] = []
    for name, build in dict(COMMANDS).items():
        monkeypatch.setitem(COMMANDS, name, lambda n=name, b=build: built.append(n) or b())
    run(*argv)
    assert built == (every if kept is None else kept)


def test_a_command_runs_with_only_itself_built() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "gintutor", "rules", "classic"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("classic rules")


RUNAWAY = "Z" * 3000


@pytest.mark.parametrize(
    "args",
    [
        ("analyze", RUNAWAY),
        ("rules", RUNAWAY),
        ("learn", RUNAWAY),
        ("score", RUNAWAY),
        ("play", "--bot", RUNAWAY),
        ("review", RUNAWAY),
        ("carousel", "puzzle", "--id", RUNAWAY),
        ("--" + RUNAWAY,),
    ],
    ids=lambda args: " ".join(a[:12] for a in args),
)
def test_a_runaway_argument_is_named_not_echoed(args: tuple[str, ...]) -> None:
    """An error names a 3000-character argument by its two ends, on one short line."""
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Z" * 28 + "…" in err and "Z" * 31 not in err
    assert len(err) < 400
