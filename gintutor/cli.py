"""The ``gintutor`` command line: parse the arguments, make one engine call, format the result.

Engine errors (:class:`~gintutor.errors.GinError`) become ``error: ...`` on stderr with exit
status 2 in one place, :class:`_Commands`. Rich is imported only by commands that print text.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from gintutor import __version__
from gintutor.errors import GinError


class UsageError(GinError):
    """Bad command-line usage that the engine cannot see (a missing option)."""


class _Commands(TyperGroup):
    """Turns every engine error into ``error: ...`` on stderr and exit status 2."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except GinError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None


app = typer.Typer(
    name="gintutor",
    cls=_Commands,
    help="A Gin Rummy rules tutor and hand analyzer.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gintutor {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """A Gin Rummy rules tutor and hand analyzer."""


RulesOption = Annotated[
    str,
    typer.Option(
        "--rules", "-r", metavar="NAME|FILE",
        help="Rule set: standard, classic, oklahoma, hollywood, straight, or a house-rules YAML.",
    ),
]
NoColorOption = Annotated[bool, typer.Option("--no-color", help="No colour (NO_COLOR works too).")]
AsciiOption = Annotated[bool, typer.Option("--ascii", help="Write suits as C D H S, not symbols.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


def _terminal(no_color: bool, ascii_only: bool) -> Any:
    from gintutor.render import Terminal

    return Terminal.for_stream(color=not no_color, ascii_only=ascii_only)


def _card_option(text: str | None, option: str) -> Any:
    from gintutor.cards import Card

    if text is None:
        return None
    try:
        return Card.parse(text)
    except GinError as error:
        raise UsageError(f"{option}: {error}") from None


def _stdin_hands() -> Iterator[tuple[int, str]]:
    for number, line in enumerate(sys.stdin, start=1):
        text = line.split("#", 1)[0].strip()
        if text:
            yield number, text


@app.command()
def analyze(
    hand: Annotated[
        list[str],
        typer.Argument(
            metavar="HAND",
            help='10 or 11 cards, e.g. "7C 7D 7S 4H 5H 6H TD JD QD KC"; - reads one hand per '
            "line from standard input.",
            show_default=False,
        ),
    ],
    rules: RulesOption = "standard",
    opponent: Annotated[
        str | None,
        typer.Option(
            "--opponent", "-o", metavar="HAND",
            help="The defender's 10 cards: play out the knock, layoffs and score.",
        ),
    ] = None,
    upcard: Annotated[
        str | None,
        typer.Option(metavar="CARD", help="The hand's first upcard (Oklahoma needs it)."),
    ] = None,
    drew_from_discard: Annotated[
        str | None,
        typer.Option(
            "--drew-from-discard", metavar="CARD",
            help="The card just taken from the discard pile: it may not be discarded.",
        ),
    ] = None,
    as_json: JsonOption = False,
    no_color: NoColorOption = False,
    ascii_only: AsciiOption = False,
) -> None:
    """Best melds, deadwood, knock or gin, the best discard, and with --opponent the score."""
    from gintutor.analysis import analyze as analyze_hand
    from gintutor.cards import CardSet, parse_hand
    from gintutor.houserules import load_rules

    rule_set = load_rules(rules)
    up = _card_option(upcard, "--upcard")
    taken = _card_option(drew_from_discard, "--drew-from-discard")
    if rule_set.needs_upcard and up is None:
        raise UsageError(
            f"{rule_set.name} rules take the knock limit and doubling from the first upcard: "
            "add --upcard CARD"
        )
    defender = None
    if opponent is not None:
        try:
            defender = parse_hand(opponent, sizes=(10,))
        except GinError as error:
            raise UsageError(f"--opponent: {error}") from None

    def one(text: str) -> Any:
        cards: CardSet = parse_hand(text)
        if taken is not None and len(cards) != 11:
            raise UsageError("--drew-from-discard needs the 11-card hand you hold after drawing")
        return analyze_hand(cards, rule_set, upcard=up, taken_from_discard=taken, opponent=defender)

    show = _json_printer() if as_json else _text_printer(no_color, ascii_only)
    if hand == ["-"]:
        failed = 0
        for number, text in _stdin_hands():
            try:
                show(one(text))
            except GinError as error:
                failed += 1
                typer.echo(f"error: line {number}: {error}", err=True)
        if failed:
            raise typer.Exit(1)
        return
    show(one(" ".join(hand)))


def _json_printer() -> Callable[[Any], None]:
    from gintutor.export import analysis_data

    def show(result: Any) -> None:
        typer.echo(json.dumps(analysis_data(result), ensure_ascii=False))

    return show


def _text_printer(no_color: bool, ascii_only: bool) -> Callable[[Any], None]:
    from gintutor.explain import Style, explain_analysis

    terminal = _terminal(no_color, ascii_only)
    style = Style(ascii_only=ascii_only)
    shown = 0

    def show(result: Any) -> None:
        nonlocal shown
        if shown:
            terminal.console.print()
            terminal.console.print("-" * 40)
        terminal.show(explain_analysis(result, style))
        shown += 1

    return show


def main() -> None:
    """Run the command line."""
    app()
