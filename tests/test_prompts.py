"""The terminal prompt: refused entries are explained and cleared; 10 completes like T."""

from __future__ import annotations

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from gintutor.cli.prompts import Command, Prompt, TerminalAsker, completions_for


def _validate(text: str) -> str | None:
    return None if text.strip().upper() == "9S" else f"you don't hold {text.strip()}"


def test_a_refused_entry_is_explained_and_the_next_line_starts_empty(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with create_pipe_input() as keys:
        keys.send_text("KS\r9S\r")
        asker = TerminalAsker(input=keys, output=DummyOutput())
        reply = asker.ask(Prompt(">", ("9S", "KS"), _validate))
    assert reply == "9S"
    assert "(you don't hold KS)" in capsys.readouterr().out


def test_commands_pass_the_validator() -> None:
    with create_pipe_input() as keys:
        keys.send_text("hint\r")
        asker = TerminalAsker(input=keys, output=DummyOutput())
        assert asker.ask(Prompt(">", ("9S",), _validate)) is Command.HINT


def test_ten_completes_like_t_and_case_does_not_matter() -> None:
    words = ["TC", "TD", "9C", "skip"]
    assert completions_for(words, "10") == ["TC", "TD"]
    assert completions_for(words, "10c") == ["TC"]
    assert completions_for(words, "t") == ["TC", "TD"]
    assert completions_for(words, "S") == ["skip"]


def test_a_piped_line_that_is_not_utf8_is_asked_again() -> None:
    import io

    from gintutor.cli.prompts import PlainAsker

    stdin = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\n9S\n"), encoding="utf-8")
    out = io.StringIO()
    asker = PlainAsker(stdin, out)
    assert asker.ask(Prompt(">", ("9S",), _validate)) == "9S"
    assert "not UTF-8" in out.getvalue()
