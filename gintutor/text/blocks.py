"""The vocabulary of every explanation: plain blocks (no Rich, no colour, no engine logic).

An explanation is a sequence of blocks (:class:`Heading`, :class:`Line`, :class:`Table`); the
presentation layer (``cli/render.py``) decides how they look. Card text comes from
:class:`Style`, so the same explanation reads ``10♦`` on a terminal and ``10D`` with ``--ascii``.
This module imports nothing from the engine at run time, so a command that only prints pays
for nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gintutor.engine.cards import Card
    from gintutor.engine.melds import Meld


@dataclass(frozen=True)
class Heading:
    """A section title."""

    text: str


@dataclass(frozen=True)
class Line:
    """A paragraph of prose; ``indent`` nests it under the line before."""

    text: str
    indent: int = 0


@dataclass(frozen=True)
class Table:
    """Rows of cells under headers; ``highlight`` marks the rows to emphasise (best choices)."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    highlight: frozenset[int] = frozenset()


Block = Heading | Line | Table


@dataclass(frozen=True)
class Style:
    """How cards are written: suit symbols (``10♦``) or ASCII letters (``10D``)."""

    ascii_only: bool = False

    def card(self, card: Card) -> str:
        """One card."""
        return card.display(ascii_only=self.ascii_only)

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards separated by spaces (``none`` for none)."""
        text = " ".join(self.card(card) for card in cards)
        return text or "none"

    def meld(self, meld: Meld) -> str:
        """A meld's cards."""
        return self.cards(meld)


_CONTROLS = {
    code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0)) if chr(code) not in "\n\t"
}


def visible(text: str) -> str:
    r"""``text`` with its control characters (but line breaks and tabs) written out: what comes
    from a file, an argument or a pipe (a house rule set's name, a typed answer) never reaches
    the terminal as an escape sequence (a cleared screen, a new window title).

    >>> visible("house\x1b[2J")
    'house\\x1b[2J'
    """
    return text.translate(_CONTROLS)


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


YOU = "You"
"""The learner's name on a sheet: the verbs agree with it ("You win", "Ann wins")."""


def agree(name: str, verb: str) -> str:
    """The present tense of ``verb`` with ``name`` as its subject.

    >>> agree("You", "win"), agree("Simple", "win")
    ('win', 'wins')
    """
    return verb if name == YOU else f"{verb}s"
