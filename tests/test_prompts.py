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


def test_a_byte_order_mark_where_piped_answers_start_is_not_part_of_the_answer() -> None:
    import io

    from gintutor.cli.prompts import PlainAsker

    stdin = io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf9S\n\xef\xbb\xbf9S\n"), encoding="utf-8")
    asker = PlainAsker(stdin, io.StringIO())
    assert asker.ask(Prompt(">", ("9S",), _validate)) == "9S"
    # Further on, the mark is a character typed like any other (and refused as an answer).
    assert asker.ask(Prompt(">")) == "\ufeff9S"


@pytest.mark.parametrize("buffered", [True, False])
def test_an_endless_piped_line_ends_the_input_in_bounded_memory(buffered: bool) -> None:
    """``< /dev/zero``: one read of at most LONGEST_LINE + 1 bytes, then Quit (progress kept).
    (The stand-in ends its line after 16 times that, so a reader without the bound fails here
    rather than hanging.)"""
    import io

    from gintutor.cli.prompts import LONGEST_LINE, PlainAsker, Quit

    line = b"0" * 16 * LONGEST_LINE + b"\n"
    served: list[int] = []

    class Endless(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
            start = sum(served)
            chunk = line[start : start + len(buffer)]
            buffer[: len(chunk)] = chunk
            served.append(len(chunk))
            return len(chunk)

    stdin = (
        io.TextIOWrapper(io.BufferedReader(Endless()), encoding="utf-8")
        if buffered
        else io.StringIO(line.decode())
    )
    out = io.StringIO()
    with pytest.raises(Quit):
        PlainAsker(stdin, out).ask(Prompt(">"))
    assert f"longer than {LONGEST_LINE} bytes" in out.getvalue()
    if buffered:
        assert sum(served) < 4 * LONGEST_LINE


def _ctrl_c_as_the_terminal_leaves_raw_mode(keys: object) -> None:
    """Ctrl-C typed just as a prompt closes: the terminal is back in cooked mode, so the key is
    a SIGINT signal, delivered while prompt-toolkit is still winding the prompt down."""
    import os
    import signal
    from contextlib import contextmanager
    from typing import Any

    raw_mode = keys.raw_mode  # type: ignore[attr-defined]

    @contextmanager
    def then_ctrl_c() -> Any:
        with raw_mode():
            yield
        os.kill(os.getpid(), signal.SIGINT)

    keys.raw_mode = then_ctrl_c  # type: ignore[attr-defined]


@pytest.mark.parametrize("typed", ["KS\r9S\r", "9S\r"])
def test_ctrl_c_while_the_prompt_closes_ends_the_prompt(
    typed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It printed prompt-toolkit's ``Exception: Application is not running. Application.exit()
    failed.`` and was ignored: the answer typed next counted (1 in 20 bursts of refused entries
    and Ctrl-C on a terminal)."""
    from gintutor.cli.prompts import Quit

    with create_pipe_input() as keys:
        keys.send_text(typed)
        _ctrl_c_as_the_terminal_leaves_raw_mode(keys)
        asker = TerminalAsker(input=keys, output=DummyOutput())
        with pytest.raises(Quit):
            asker.ask(Prompt(">", ("9S", "KS"), _validate))
    captured = capsys.readouterr()
    assert "Application" not in captured.out + captured.err


def test_ctrl_c_while_a_confirmation_closes_ends_it() -> None:
    from gintutor.cli.prompts import Quit

    with create_pipe_input() as keys:
        keys.send_text("y\r")
        _ctrl_c_as_the_terminal_leaves_raw_mode(keys)
        asker = TerminalAsker(input=keys, output=DummyOutput())
        with pytest.raises(Quit):
            asker.confirm("Again?")


def test_ctrl_c_while_reading_a_piped_answer_ends_the_prompt() -> None:
    import io
    from typing import TextIO, cast

    from gintutor.cli.prompts import PlainAsker, Quit

    class Interrupted:
        """Ctrl-C while the answer is read."""

        def readline(self, size: int = -1) -> str:
            raise KeyboardInterrupt

    stdin = cast(TextIO, Interrupted())
    with pytest.raises(Quit):
        PlainAsker(stdin, io.StringIO()).ask(Prompt(">", ("9S",), _validate))


def test_a_prompt_s_keys_answer_at_once_on_a_terminal() -> None:
    """``review --step``: → and ← answer n and p without Enter."""
    prompt = Prompt("step:", ("n", "p"), keys=(("right", "n"), ("left", "p")))
    for sequence, word in (("\x1b[C", "n"), ("\x1b[D", "p")):
        with create_pipe_input() as keys:
            keys.send_text(sequence)
            asker = TerminalAsker(input=keys, output=DummyOutput())
            assert asker.ask(prompt) == word
