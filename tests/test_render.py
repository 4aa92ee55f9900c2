"""The presentation layer: colour only where wanted, red hearts and diamonds, plain when piped."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from gintutor.cli.render import Terminal, render_text
from gintutor.text.blocks import Heading, Line, Table

BLOCKS = [Heading("Best melds"), Line("run  5♥ 6♥ 7♥", 1), Table(("discard",), (("K♣",),))]


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_text_has_no_escape_codes_and_no_trailing_spaces() -> None:
    text = render_text(BLOCKS)
    assert "\x1b[" not in text
    assert all(line == line.rstrip() for line in text.splitlines())
    assert "  run  5♥ 6♥ 7♥" in text


def test_a_terminal_gets_red_hearts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    stream = FakeTty()
    terminal = Terminal.for_stream(stream, width=80)
    terminal.console = Console(file=stream, width=80, force_terminal=True, color_system="standard")
    terminal.show(BLOCKS)
    out = stream.getvalue()
    assert "\x1b[" in out
    assert "31m5♥" in out or "\x1b[1;31m5♥" in out


@pytest.mark.parametrize(("no_color_env", "flag"), [(True, True), (True, False), (False, False)])
def test_no_color_env_and_flag_and_pipes(
    monkeypatch: pytest.MonkeyPatch, no_color_env: bool, flag: bool
) -> None:
    if no_color_env:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    stream: io.StringIO = FakeTty() if no_color_env else io.StringIO()
    terminal = Terminal.for_stream(stream, color=not flag)
    assert terminal.console.color_system is None
    terminal.show(BLOCKS)
    assert "\x1b[" not in stream.getvalue()


def test_the_flag_turns_colour_off_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert Terminal.for_stream(FakeTty(), color=False).console.color_system is None
    assert Terminal.for_stream(FakeTty(), color=True).console.color_system is not None


def test_ascii_tables_use_no_box_drawing_characters() -> None:
    text = render_text([Table(("a", "b"), (("1", "2"),))], ascii_only=True)
    assert "|" in text and "-" in text
    assert not any(ord(char) > 127 for char in text)


def test_ascii_signs_are_replaced_before_a_table_is_laid_out() -> None:
    """``±`` becomes ``+/-`` (three characters) before the columns are measured."""
    from gintutor.text.blocks import Table

    text = render_text(
        [Table(("value", "word"), (("1 ± 2", "x"), ("12.5 ≤ 3", "y")))], ascii_only=True
    )
    rows = text.splitlines()
    assert "1 +/- 2" in text and "12.5 <= 3" in text
    assert len({row.index("|") for row in rows if "|" in row}) == 1
