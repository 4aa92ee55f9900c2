"""``gintutor analyze``'s work: one hand (or one a line from standard input) analysed and shown
as text or JSON (the command is declared in :mod:`gintutor.cli.app`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import typer

from gintutor.cli.guard import shortened
from gintutor.cli.inputs import stdin_lines
from gintutor.cli.shared import UsageError, terminal
from gintutor.content.houserules import load_rules
from gintutor.engine.analysis import Analysis
from gintutor.engine.analysis import analyze as analyze_hand
from gintutor.engine.cards import Card, CardSet, parse_hand
from gintutor.errors import GinError
from gintutor.text.blocks import Style
from gintutor.text.explain import explain_analysis
from gintutor.text.export import analysis_data
from gintutor.text.i18n import _, error_text


def run_analyze(
    hand: list[str],
    rules: str,
    opponent: str | None,
    upcard: str | None,
    drew_from_discard: str | None,
    as_json: bool,
    no_color: bool,
    ascii_only: bool,
) -> None:
    """Analyse ``hand`` (``["-"]``: every line of standard input) and show each result."""
    rule_set = load_rules(rules)
    up = _card_option(upcard, "--upcard")
    taken = _card_option(drew_from_discard, "--drew-from-discard")
    if rule_set.needs_upcard and up is None:
        raise UsageError(
            _(
                "{rules} rules take the knock limit and doubling from the first upcard: add "
                "--upcard CARD",
                rules=rule_set.name,
            )
        )
    if up is not None and not rule_set.needs_upcard:
        typer.echo(
            _(
                "note: --upcard does not apply under {rules} rules (the first upcard sets no "
                "knock limit and doubles nothing); it is ignored",
                rules=rule_set.name,
            ),
            err=True,
        )
    defender = None
    if opponent is not None:
        try:
            defender = parse_hand(opponent, sizes=(10,))
        except GinError as error:
            raise UsageError("{option}: {error}", option="--opponent", error=error) from None

    def one(text: str) -> Analysis:
        cards: CardSet = parse_hand(text)
        if taken is not None and len(cards) != 11:
            raise UsageError(_("--drew-from-discard needs the 11-card hand you hold after drawing"))
        return analyze_hand(cards, rule_set, upcard=up, taken_from_discard=taken, opponent=defender)

    show = _json_printer() if as_json else _text_printer(no_color, ascii_only)
    if hand == ["-"]:
        failed = 0
        for number, text in _stdin_hands():
            try:
                show(one(text))
            except GinError as error:
                failed += 1
                message = _("line {number}: {error}", number=number, error=error_text(error))
                typer.echo(_("error: {message}", message=shortened(message)), err=True)
        if failed:
            raise typer.Exit(1)
        return
    show(one(" ".join(hand)))


def _card_option(text: str | None, option: str) -> Card | None:
    if text is None:
        return None
    try:
        return Card.parse(text)
    except GinError as error:
        raise UsageError("{option}: {error}", option=option, error=error) from None


def _stdin_hands() -> Iterator[tuple[int, str]]:
    for number, line in stdin_lines():
        text = line.split("#", 1)[0].strip()
        if text:
            yield number, text


def _json_printer() -> Callable[[Analysis], None]:
    def show(result: Analysis) -> None:
        typer.echo(json.dumps(analysis_data(result), ensure_ascii=False))

    return show


def _text_printer(no_color: bool, ascii_only: bool) -> Callable[[Analysis], None]:
    screen = terminal(no_color, ascii_only)
    style = Style(ascii_only=ascii_only)
    shown = 0

    def show(result: Analysis) -> None:
        nonlocal shown
        if shown:
            screen.console.print()
            screen.console.print("-" * 40)
        screen.show(explain_analysis(result, style))
        shown += 1

    return show
