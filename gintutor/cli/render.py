"""The one owner of the Rich console: explanation blocks to the terminal, in colour or plain.

Colour only on a terminal and never with ``NO_COLOR`` or ``--no-color``; red for ♥ and ♦.
Tests render at a fixed width with no colour through :func:`render_text`. A stream that
cannot encode the suit symbols (``LANG=C``) gets ASCII suits (C D H S) and ASCII tables.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO, cast

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

from gintutor.text.blocks import Block, Heading, Line, Table, visible

if TYPE_CHECKING:
    from rich.table import Table as RichTable

_RED_SUITS = r"[♥♦]"
_BLACK_SUITS = r"[♣♠]"

# What a terminal that cannot encode the suit symbols (LANG=C, Latin-1) is sent instead.
_ASCII = str.maketrans(
    {
        "♣": "C",
        "♦": "D",
        "♥": "H",
        "♠": "S",
        "≤": "<=",
        "≥": ">=",
        "≠": "!=",
        "\u2013": "-",
        "—": "-",
        "·": "-",
        "…": "...",
        "→": "->",
        "←": "<-",
        "\u00d7": "x",
        "±": "+/-",
        "✓": "ok",
        "✗": "x",
        "•": "*",
        "\u2018": "'",
        "\u2019": "'",
        "“": '"',
        "”": '"',
    }
)


def can_show_suits(stream: TextIO) -> bool:
    """Whether ``stream``'s encoding has the suit symbols ♣ ♦ ♥ ♠."""
    try:
        "♣♦♥♠".encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


TABLE_WIDTH = 80
"""Tables are laid out within this width (or the terminal's, if narrower)."""

UNWRAPPED = 10_000
"""The width of piped output: lines are not wrapped (the reader's pager or editor wraps)."""


def _size_variable(name: str) -> int | None:
    """``COLUMNS`` or ``LINES`` as a number, or None when unset or not a plain number."""
    text = os.environ.get(name, "")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 7 else None


def _drop_odd_size_variables() -> None:
    """Unset ``COLUMNS``/``LINES`` that are not plain numbers (``²``, 5,000 digits): Rich reads
    them with ``int()`` after ``isdigit()`` and would crash; the terminal's size stands in."""
    for name in ("COLUMNS", "LINES"):
        if name in os.environ and _size_variable(name) is None:
            del os.environ[name]


def _piped_width() -> int:
    """``COLUMNS`` when it is set to a width, else no wrapping at all."""
    columns = _size_variable("COLUMNS")
    return columns if columns is not None and 20 <= columns <= UNWRAPPED else UNWRAPPED


class AsciiStream:
    """A text stream that writes suits as C D H S and any other unencodable character as ?."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.encoding = getattr(stream, "encoding", None) or "ascii"

    def write(self, text: str) -> int:
        plain = text.translate(_ASCII)
        try:
            plain.encode(self.encoding)
        except (UnicodeEncodeError, LookupError):
            plain = plain.encode("ascii", "replace").decode("ascii")
        return self.stream.write(plain)

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


@dataclass
class Terminal:
    """Where output goes and how it looks: colour or not, width, ASCII box drawing or not."""

    console: Console
    ascii_only: bool = False

    @classmethod
    def for_stream(
        cls,
        stream: TextIO | None = None,
        *,
        color: bool = True,
        ascii_only: bool = False,
        width: int | None = None,
    ) -> Terminal:
        """A terminal on ``stream`` (stdout); colour only if wanted, allowed and a tty."""
        stream = stream or sys.stdout
        if ascii_only or not can_show_suits(stream):
            # --ascii means plain ASCII throughout: suits, and signs such as ≤ and ±.
            stream = cast(TextIO, AsciiStream(stream))
            ascii_only = True
        is_tty = stream.isatty()
        _drop_odd_size_variables()
        use_color = color and is_tty and "NO_COLOR" not in os.environ
        console = Console(
            file=stream,
            width=width or (None if is_tty else _piped_width()),
            color_system="auto" if use_color else None,
            force_terminal=use_color,
            no_color=not use_color,
            highlight=False,
            emoji=False,
            soft_wrap=False,
            legacy_windows=False,
        )
        return cls(console, ascii_only)

    def _text(self, text: str, style: str = "") -> Text:
        text = visible(text)
        if self.ascii_only:
            # Before layout: "<=" is wider than "≤", and a table's columns must know it.
            text = text.translate(_ASCII)
        out = Text(text, style=style)
        if self.console.color_system is not None:
            out.highlight_regex(r"\S*" + _RED_SUITS, "bold red")
            out.highlight_regex(r"\S*" + _BLACK_SUITS, "bold")
        return out

    def show(self, blocks: Iterable[Block]) -> None:
        """Print explanation blocks (plain output has no trailing spaces)."""
        if self.console.color_system is not None:
            self._print(blocks)
            return
        with self.console.capture() as captured:
            self._print(blocks)
        self._write_plain(captured.get())

    def _write_plain(self, text: str) -> None:
        self.console.file.write("\n".join(line.rstrip() for line in text.split("\n")))
        self.console.file.flush()

    def _print(self, blocks: Iterable[Block]) -> None:
        first = True
        for block in blocks:
            if isinstance(block, Heading):
                if not first:
                    self.console.print()
                self.console.print(self._text(block.text, "bold underline"))
            elif isinstance(block, Line):
                text = self._text(block.text)
                if block.indent:
                    self.console.print(Padding(text, (0, 0, 0, 2 * block.indent), expand=False))
                else:
                    self.console.print(text)
            else:
                # Tables fit 80 columns: the widest text column wraps, headers included.
                self.console.print(self._table(block), width=min(self.console.width, TABLE_WIDTH))
            first = False

    def markdown(self, text: str) -> None:
        """Print short Markdown prose (lessons)."""
        # Only for a lesson's prose: rich.markdown (with markdown-it) costs ~120-300 ms of CPU
        # to import (python -X importtime, load ~5 on 2 cores), more than the bare Typer + Rich
        # app's whole start.
        from rich.markdown import Markdown

        self.show_renderable(Markdown(text, hyperlinks=False))

    def say(self, text: str, style: str = "") -> None:
        """Print one line of text, suits coloured on a terminal."""
        self.show_renderable(self._text(text, style if self.console.color_system else ""))

    def show_renderable(self, renderable: object) -> None:
        """Print any Rich renderable (plain output has no trailing spaces)."""
        if self.console.color_system is not None:
            self.console.print(renderable)
            return
        with self.console.capture() as captured:
            self.console.print(renderable)
        self._write_plain(captured.get())

    def _table(self, block: Table) -> RichTable:
        # Only for a command that shows a table: rich.table costs ~25-30 ms of CPU to import
        # (python -X importtime, load ~5 on 2 cores), ~7% of the bare Typer + Rich app's start.
        from rich import box
        from rich.table import Table as RichTable

        table = RichTable(
            box=box.ASCII if self.ascii_only else box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            header_style="bold" if self.console.color_system else "",
        )
        for header in block.headers:
            # As Text, never read as Rich markup: a header may be a house rule set's name.
            table.add_column(self._text(header), overflow="fold")
        for row, cells in enumerate(block.rows):
            style = "bold green" if row in block.highlight and self.console.color_system else ""
            table.add_row(*(self._text(cell) for cell in cells), style=style)
        return table


def render_text(blocks: Iterable[Block], *, width: int = 100, ascii_only: bool = False) -> str:
    """Blocks as plain text at a fixed width, no colour (for snapshots and pipes)."""
    buffer = io.StringIO()
    terminal = Terminal.for_stream(buffer, color=False, ascii_only=ascii_only, width=width)
    terminal.show(blocks)
    return buffer.getvalue()
