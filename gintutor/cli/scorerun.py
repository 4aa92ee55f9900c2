"""``gintutor score``'s work: a game's score sheet from hand results given as arguments or read
from a file (the command is declared in :mod:`gintutor.cli.app`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gintutor.cli.inputs import stdin_lines
from gintutor.cli.shared import UsageError, terminal
from gintutor.content.houserules import load_rules
from gintutor.content.scorefile import entries_from_text, guess_kind, read_entries
from gintutor.engine.game import score_game, score_match
from gintutor.errors import Phrase
from gintutor.text.i18n import _
from gintutor.text.sheets import explain_match, explain_sheet
from gintutor.tutor.scoresheet import parse_entries


def run_score(
    hands: list[str] | None,
    file: Path | None,
    players: str,
    rules: str,
    no_color: bool,
    ascii_only: bool,
) -> None:
    """Score the hands (or ``file``'s, ``-`` for standard input) and show the sheet."""
    rule_set = load_rules(rules)
    names = [name.strip() for name in players.split(",")]
    if len(names) != 2 or not all(names) or names[0].lower() == names[1].lower():
        raise UsageError(
            _("--players: {players!r}: give two different names, e.g. Ann,Bob", players=players)
        )
    entries: Sequence[tuple[str | Phrase, str]] = [
        (Phrase("hand {number}", number=n), text) for n, text in enumerate(hands or [], start=1)
    ]
    if file is not None:
        if entries:
            raise UsageError(_("give the hands as arguments or with --file, not both"))
        if str(file) == "-":
            text = "\n".join(line for _number, line in stdin_lines())
            entries = entries_from_text(_("standard input"), text, guess_kind(text))
        else:
            entries = read_entries(file)
    if not entries:
        raise UsageError(_("no hands given: e.g. gintutor score 'A knock 12' 'B gin 41'"))
    records = parse_entries(entries, names, rule_set)
    screen = terminal(no_color, ascii_only)
    if rule_set.hollywood:
        screen.show(explain_match(score_match(records, rule_set), names, rule_set))
    else:
        screen.show(explain_sheet(score_game(records, rule_set), names, rule_set))
