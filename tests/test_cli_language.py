"""The command line's language: --lang, GINTUTOR_LANG, the saved setting, the locale; help
pages translated; ``--json`` the same in every language."""

from __future__ import annotations

import inspect
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clirun import invoke
from typer.main import get_command

from gintutor.cli.app import COMMANDS, app
from gintutor.cli.language import help_text
from gintutor.text import i18n

babel = pytest.importorskip("babel")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use(i18n.ENGLISH)


@pytest.fixture
def marked(marked_nb: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Norwegian catalogs that mark every message «so»."""
    monkeypatch.setattr(i18n, "LOCALE_DIR", marked_nb)
    return marked_nb


def run(*args: str, env: dict[str, str | None] | None = None) -> tuple[int, str, str]:
    result = invoke(args, env=env)
    return result.exit_code, result.stdout, result.stderr


def _helps(command: Any) -> Iterator[str]:
    for name in ("help", "short_help", "epilog"):
        if getattr(command, name, None):
            yield help_text(getattr(command, name))
    for param in command.params:
        if getattr(param, "help", None):
            yield help_text(param.help)
    for sub in getattr(command, "commands", {}).values():
        yield from _helps(sub)


def test_every_help_text_is_in_the_interface_catalog() -> None:
    from babel.messages.pofile import read_po

    with (i18n.LOCALE_DIR / "gintutor.pot").open("rb") as file:
        known = {message.id for message in read_po(file)}
    helps = set(_helps(get_command(app)))
    assert len(helps) > 80
    assert sorted(helps - known) == []


def test_help_pages_speak_the_language(marked: Path) -> None:
    code, out, _ = run("--lang", "nb", "--help")
    assert code == 0
    assert "«A Gin Rummy rules tutor and hand analyzer.»" in out
    assert "«Show the version.»" in out
    code, out, _ = run("--lang", "no", "analyze", "--help")
    assert code == 0 and "«Show this message and exit.»" in out


def test_the_rules_speak_the_language_the_environment_asks_for(marked: Path) -> None:
    code, out, _ = run("rules", "indonesian", env={"GINTUTOR_LANG": None, "LANG": "nb_NO.UTF-8"})
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "«indonesian rules»"
    assert all(line.startswith("«") for line in lines if line), out


def test_an_unknown_language_warns_once_and_speaks_english() -> None:
    code, out, err = run("--lang", "tlh", "rules", "standard")
    assert code == 0
    assert out.startswith("standard rules\n")
    assert err.count("\n") == 1 and err.startswith("warning: gintutor does not speak 'tlh'")


def test_the_saved_language_is_used_and_lang_overrides_it(
    home: Path, marked: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GINTUTOR_LANG")
    assert run("settings", "lang", "no")[0] == 0
    assert json.loads((home / "settings.json").read_text()) == {"lang": "nb"}
    assert run("rules", "standard")[1].startswith("«standard rules»")
    assert run("--lang", "en", "rules", "standard")[1].startswith("standard rules")
    assert run("settings", "lang", "auto")[0] == 0
    assert json.loads((home / "settings.json").read_text()) == {}
    assert run("rules", "standard", env={"LANG": "C.UTF-8"})[1].startswith("standard rules")


def test_an_unknown_language_is_not_saved(home: Path) -> None:
    code, _, err = run("settings", "lang", "klingon")
    assert code == 2 and err.startswith("error: 'klingon'")
    assert not (home / "settings.json").exists()


JSON_COMMANDS = [
    ("analyze", "7C 7D 7H 5H 6H 8H AS 2S 3S KD", "--json"),
    ("analyze", "7C 7D 7H 5H 6H 8H AS 2S 3S KD QC", "--json"),
    (
        "analyze",
        "4H 5H 6H 5C 5D 9S TS JS QS KS",
        "--opponent",
        "3H 7H 8H 2C 3C 4D 8D 9C JD KD",
        "--json",
    ),
    ("puzzle", "--id", "deadwood-001", "--json"),
    ("puzzle", "--id", "knock-or-play-001", "--json"),
    ("carousel", "puzzle", "--id", "carousel-002", "--json"),
    ("learn", "--list", "--json"),
    ("carousel", "analyze", "--table", "7H 8H 9H | JK=7C 7D 7S", "--hand", "TH 2C 5S", "--json"),
]


@pytest.mark.parametrize("args", JSON_COMMANDS, ids=lambda args: " ".join(args[:2]))
def test_json_output_is_the_same_in_every_language(
    args: tuple[str, ...], warm_home: Path, marked: Path
) -> None:
    english = run(*args)
    assert english[0] == 0, english
    assert run("--lang", "nb", *args) == english


def test_only_the_command_run_is_built_after_lang(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--lang`` before the command: only the command run is built (none for the listing)."""
    built: list[str] = []
    for name, build in dict(COMMANDS).items():
        monkeypatch.setitem(COMMANDS, name, lambda n=name, b=build: built.append(n) or b())
    assert invoke(["--lang", "id", "analyze", "7C 7D 7H 5H 6H 8H AS 2S 3S KD"]).exit_code == 0
    assert built == ["analyze"]
    assert list(get_command(app).commands) == list(COMMANDS)


def test_help_texts_are_keyed_as_click_shows_them() -> None:
    assert help_text("  One.\n\n    Two.\n") == inspect.cleandoc("One.\n\n    Two.")


@pytest.mark.parametrize(
    ("args", "typed", "texts"),
    [
        (
            ("puzzle", "--id", "knock-or-play-001"),
            "hint\nhint\nknock\nn\n",
            ["Three queens and a heap of aces", "Knock now or play on", "After the 6♥", "Throw"],
        ),
        (
            ("carousel", "puzzle", "--id", "carousel-002"),
            "hint\nhint\nnone\nn\nn\n",
            ["Borrow from a group", "Play the most points", "A group of four", "The best play"],
        ),
    ],
    ids=["gin", "carousel"],
)
def test_a_puzzle_speaks_the_language(
    args: tuple[str, ...], typed: str, texts: list[str], warm_home: Path, marked: Path
) -> None:
    """The title, question, hints and explanation come from the puzzles catalog (marked «so»
    here), their placeholders filled by the engine."""
    result = invoke(["--lang", "nb", *args], stdin=typed)
    assert result.exit_code == 0, result.stderr
    for text in texts:
        assert f"«{text}" in result.stdout, text
    assert "{" not in result.stdout


def test_a_saved_games_review_is_titled_in_the_language(home: Path) -> None:
    """The title names the saved game in the language; ``--json`` keeps its English source."""
    played = invoke(["play", "--seed", "3"], stdin="quit\n")
    assert played.exit_code == 0, played.output
    (saved,) = [path.stem for path in (home / "games").iterdir()]
    code, out, _ = run("--lang", "pt_BR", "review", "--jobs", "1")
    assert code == 0 and out.splitlines()[0] == f"Revisão de partida salva {saved}"
    code, out, _ = run("--lang", "pt_BR", "review", "--jobs", "1", "--json")
    assert json.loads(out)["source"] == f"saved game {saved}"
