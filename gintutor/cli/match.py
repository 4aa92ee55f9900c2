"""``gintutor match``: two bots play each other on duplicate deals, with honest statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from gintutor.cli.shared import (
    MAX_WORLDS,
    Builder,
    ContentError,
    JobsOption,
    JsonOption,
    NoColorOption,
    UsageError,
    progress_bar,
    subcommand,
    terminal,
    workers,
)
from gintutor.text.i18n import _, ngettext, number, percent, pgettext

if TYPE_CHECKING:  # annotations only: the command imports the engine inside itself
    from gintutor.engine.match import MatchReport
    from gintutor.text.blocks import Block

MAX_GAMES = 1_000_000
"""The most games a match plays (about a day of the expert's play on two cores)."""
MAX_SECONDS = 3600.0
"""The longest time cap for one decision."""


def _percent(value: float) -> str:
    return percent(value, 1)


def report_blocks(report: MatchReport) -> list[Block]:
    """The match report as explanation blocks: a table of each bot's figures and the points.

    The table has a row per figure and a column per bot, so that each figure is named in
    words, not a header abbreviated to fit (``ms/dec``): it fits 80 columns in every language
    with room to spare (a test renders it so).
    """
    from gintutor.text.blocks import Heading, Line, Table

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


def register(builders: dict[str, Builder]) -> None:
    """Add the ``match`` command to the app's ``builders`` (engine imports stay inside the
    command)."""

    @subcommand(builders, "match")
    def match(
        bot_a: Annotated[
            str,
            typer.Argument(
                metavar="BOT_A", help="novice, simple, openspiel, heuristic, expert or coach."
            ),
        ],
        bot_b: Annotated[str, typer.Argument(metavar="BOT_B", help="The opponent.")],
        games: Annotated[
            int,
            typer.Option(
                "--games",
                "-n",
                metavar="N",
                min=1,
                max=MAX_GAMES,
                help="Games to play (rounded up to whole duplicate pairs).",
            ),
        ] = 200,
        rules: Annotated[
            str,
            typer.Option(
                "--rules",
                "-r",
                metavar="NAME|FILE",
                help="Rule set: a preset (eaai, standard, ...) or a house-rules YAML.",
            ),
        ] = "eaai",
        seed: Annotated[
            int, typer.Option(metavar="N", help="Deal seed: the same seed, the same match.")
        ] = 1,
        jobs: JobsOption = 0,
        worlds: Annotated[
            int | None,
            typer.Option(
                metavar="N", min=1, max=MAX_WORLDS, help="Expert: sampled worlds per decision."
            ),
        ] = None,
        seconds: Annotated[
            float | None,
            typer.Option(
                metavar="NUMBER",
                help="Expert: time cap per decision in seconds (not reproducible when it binds).",
            ),
        ] = None,
        as_json: JsonOption = False,
        no_color: NoColorOption = False,
        ascii_only: Annotated[bool, typer.Option("--ascii", help="ASCII table lines.")] = False,
    ) -> None:
        """Play BOT_A against BOT_B on duplicate deals; games won, points per hand, rates."""
        from gintutor.content.houserules import load_rules
        from gintutor.engine.bots import BOT_NAMES
        from gintutor.engine.match import MatchSpec, run_match

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
            import json

            typer.echo(json.dumps(report.to_dict(), indent=2))
        else:
            terminal(no_color, ascii_only).show(report_blocks(report))
        if report.stopped is not None:
            # The games played are reported above; the match as asked for was not played.
            raise ContentError(
                "the match stopped early ({why}): the report covers the {games} games played "
                "before it",
                why=report.stopped,
                games=report.games,
            )
