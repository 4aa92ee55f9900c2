"""``gintutor rules``'s work: the rule sets side by side, one in prose, or what two differ in
(the command is declared in :mod:`gintutor.cli.app`; Carousel's rules are
:mod:`gintutor.cli.carouseltools`)."""

from __future__ import annotations

from gintutor.cli.shared import UsageError, terminal
from gintutor.content.houserules import load_rules
from gintutor.engine.rules import PRESETS, SETTING_NAMES, SOURCE_TEXTS
from gintutor.text.blocks import Line
from gintutor.text.i18n import _
from gintutor.text.rules import explain_rules, rules_table


def run_rules(
    name: str | None, diff: tuple[str, str] | None, no_color: bool, ascii_only: bool
) -> None:
    """Show the rule set ``name`` (a preset or a house-rules file), every preset when it is
    None, or the settings where ``diff``'s two differ."""
    screen = terminal(no_color, ascii_only)
    if diff is not None:
        if name is not None:
            raise UsageError(_("give either a rule set or --diff A B, not both"))
        first, second = load_rules(diff[0]), load_rules(diff[1])
        keys = [k for k in SETTING_NAMES if getattr(first, k) != getattr(second, k)]
        if not keys:
            same = _("{a} and {b} have the same settings.", a=first.name, b=second.name)
            screen.show([Line(same)])
            return
        screen.show([rules_table([first, second], keys)])
        return
    if name is None:
        others = ", ".join(SOURCE_TEXTS)
        screen.show(
            [
                rules_table(list(PRESETS.values()), SETTING_NAMES),
                Line(
                    _(
                        "The source texts' rule sets, by name: {names} (gintutor rules NAME). "
                        "Carousel, a game of its own: gintutor rules carousel.",
                        names=others,
                    )
                ),
            ]
        )
        return
    screen.show(explain_rules(load_rules(name)))
