"""``gintutor match``'s work: two bots play each other on duplicate deals; the report with
honest statistics (the command is declared in :mod:`gintutor.cli.match`)."""

from __future__ import annotations

import json

import typer

from gintutor.cli.shared import ContentError, UsageError, progress_bar, terminal, workers
from gintutor.content.houserules import load_rules
from gintutor.engine.bots import BOT_NAMES
from gintutor.engine.match import MatchReport, MatchSpec, run_match
from gintutor.text.blocks import Block, Heading, Line, Table
from gintutor.text.i18n import _, ngettext, number, percent, pgettext

MAX_SECONDS = 3600.0
"""The longest time cap for one decision."""


def run_match_command(
    bot_a: str,
    bot_b: str,
    games: int,
    rules: str,
    seed: int,
    jobs: int,
    worlds: int | None,
    seconds: float | None,
    as_json: bool,
    no_color: bool,
    ascii_only: bool,
) -> None:
    """Play the match and show its report (JSON or a table)."""
    for name in (bot_a, bot_b):
        if name.strip().lower() not in BOT_NAMES:
            raise UsageError(
                "unknown bot {name!r}: choose one of {names}",
                name=name,
                names=", ".join(BOT_NAMES),
            )
    # By hand: the interval is open at 0, and nan is neither inside nor outside a range.
    if seconds is not None and not 0 < seconds <= MAX_SECONDS:
        raise UsageError(
            "--seconds: {seconds}: give more than 0, at most {most}",
            seconds=seconds,
            most=MAX_SECONDS,
        )
    processes = workers(jobs)
    rule_set = load_rules(rules)
    spec = MatchSpec(
        (bot_a.strip().lower(), bot_b.strip().lower()),
        rule_set,
        pairs=(games + 1) // 2,
        seed=seed,
        worlds=worlds,
        seconds=seconds,
    )
    with progress_bar(_("pairs")) as advance:
        advance(0, spec.pairs)
        report = run_match(spec, processes, advance)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
    else:
        terminal(no_color, ascii_only).show(report_blocks(report))
    if report.stopped is not None:
        # The games played are reported above; the match as asked for was not played.
        raise ContentError(
            "the match stopped early ({why}): the report covers the {games} games played before it",
            why=report.stopped,
            games=report.games,
        )


def _percent(value: float) -> str:
    return percent(value, 1)


def report_blocks(report: MatchReport) -> list[Block]:
    """The match report as explanation blocks: a table of each bot's figures and the points.

    The table has a row per figure and a column per bot, so that each figure is named in
    words, not a header abbreviated to fit (``ms/dec``): it fits 80 columns in every language
    with room to spare (a test renders it so).
    """
    a, b = report.bots
    pairs = report.points_per_hand.clusters
    blocks: list[Block] = [
        Heading(
            ngettext(
                "{a} vs {b}: {games} game ({pairs}), {rules} rules, seed {seed}",
                "{a} vs {b}: {games} games ({pairs}), {rules} rules, seed {seed}",
                report.games,
                a=a,
                b=b,
                games=report.games,
                pairs=ngettext(
                    "{count} duplicate pair", "{count} duplicate pairs", pairs, count=pairs
                ),
                rules=report.rules,
                seed=report.seed,
            )
        ),
    ]
    figures = report.figures
    rows = [
        (pgettext("match table", "games won"), *(str(f.games_won) for f in figures)),
        (pgettext("match table", "win rate"), *(_percent(f.win_rate) for f in figures)),
        (
            pgettext("match table", "win rate, 95% CI (Wilson interval)"),
            *(f"{number(100 * f.win_low, 1)}-{_percent(f.win_high)}" for f in figures),
        ),
        (pgettext("match table", "hands won"), *(str(f.hands_won) for f in figures)),
        (
            pgettext("match table", "went gin (share of hands)"),
            *(_percent(f.gin_rate) for f in figures),
        ),
        (
            pgettext("match table", "knocked (share of hands)"),
            *(_percent(f.knock_rate) for f in figures),
        ),
        (
            pgettext("match table", "undercut (share of hands)"),
            *(_percent(f.undercut_rate) for f in figures),
        ),
        (
            pgettext("match table", "CPU ms per decision"),
            *(number(1000 * f.seconds_per_decision, 2) for f in figures),
        ),
    ]
    blocks.append(Table(("", *(f.name for f in figures)), tuple(rows)))
    points = report.points_per_hand
    blocks.append(
        Line(
            _(
                "{a} points per hand: {mean} (95% paired interval {low} to {high}) over {hands} "
                "hands, {void} void",
                a=a,
                mean=number(points.mean, 2, signed=True),
                low=number(points.low, 2, signed=True),
                high=number(points.high, 2, signed=True),
                hands=report.hands,
                void=report.void_hands,
            )
        )
    )
    options = {k: v for k, v in report.options.items() if v is not None}
    if options:
        # As typed (--worlds 64, --seconds 0.5): words and numbers the reader can type back.
        budget = ", ".join(f"--{k} {v}" for k, v in options.items())
        blocks.append(Line(_("expert budget: {budget}", budget=budget)))
    return blocks
