"""The learner's puzzle statistics (``puzzle --stats``): from the progress file alone, no
puzzle read, no engine imported."""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any

import typer

from gintutor.cli.progress import Progress
from gintutor.cli.shared import terminal
from gintutor.text.blocks import Line, Table
from gintutor.text.i18n import _, error_text, ngettext, percent
from gintutor.tutor.puzzleterms import Grade
from gintutor.tutor.rating import Rating

if TYPE_CHECKING:
    from gintutor.cli.render import Terminal


def streaks(dates: list[dt.date], today: dt.date) -> tuple[int, int]:
    """(current, best) runs of consecutive days; the current run may end today or yesterday.

    The days given are those whose daily puzzle was solved on the first try (Best, no hint,
    at the first attempt): a revealed or wrong daily breaks the streak.
    """
    days = sorted(set(dates))
    best = run = 0
    previous: dt.date | None = None
    for day in days:
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best = max(best, run)
        previous = day
    current = 0
    if days and (today - days[-1]).days <= 1:
        current = run
    return current, best


def count_of(value: object) -> int:
    """A count stored in the progress file (0 when it is missing or not a count)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def rating_of(record: object) -> Rating:
    """The rating stored in the progress file (a new learner's when there is none or it is
    unreadable)."""
    if not isinstance(record, dict):
        return Rating()
    try:
        rating = Rating(
            float(record["rating"]), float(record["deviation"]), float(record["volatility"])
        )
    except (KeyError, TypeError, ValueError):
        return Rating()
    values = (rating.rating, rating.deviation, rating.volatility)
    if not all(v == v and abs(v) < 1e6 for v in values) or rating.deviation <= 0:
        return Rating()  # NaN, infinite or nonsense: start again rather than fail
    return rating


def theme_ratings(progress: Progress) -> dict[str, Rating]:
    """The learner's rating in each theme rated so far."""
    records = progress.data.get("puzzles", {}).get("ratings")
    if not isinstance(records, dict):
        return {}
    return {str(name): rating_of(record) for name, record in records.items()}


def puzzle_stats(progress: Progress, today: dt.date | None = None) -> dict[str, Any]:
    """The learner's puzzle figures (the ``puzzle --stats --json`` object).

    ``attempted``: puzzles played; ``solved``: answered Best (hints allowed); ``first_try``:
    Best with no hint at the first attempt; ``practice``: attempts after the first; streaks
    count days whose daily was a first try on that very day; each theme has its rating
    (``rating``, ``deviation``, the 95% ``interval``, ``provisional``) and rated ``games``.
    """
    today = today or dt.date.today()
    store = progress.data.get("puzzles", {})
    attempts: dict[str, dict[str, Any]] = store.get("solved", {})
    daily: dict[str, dict[str, Any]] = store.get("daily", {})
    current, best = streaks(
        [
            dt.date.fromisoformat(day)
            for day, entry in daily.items()
            if entry.get("first_try") and entry.get("date", day) == day
        ],
        today,
    )
    themes: dict[str, dict[str, Any]] = {}
    for entry in attempts.values():
        row = themes.setdefault(
            str(entry.get("theme", "?")), {"attempted": 0, "solved": 0, "first_try": 0}
        )
        row["attempted"] += 1
        row["solved"] += entry.get("grade") == Grade.BEST.value
        row["first_try"] += bool(entry.get("first_try"))
    records = store.get("ratings")
    for name, record in (records if isinstance(records, dict) else {}).items():
        rating = rating_of(record)
        row = themes.setdefault(str(name), {"attempted": 0, "solved": 0, "first_try": 0})
        low, high = rating.interval()
        row["rating"] = {
            "rating": round(rating.rating, 1),
            "deviation": round(rating.deviation, 1),
            "interval": [round(low, 1), round(high, 1)],
            "provisional": rating.provisional,
            "games": count_of(record.get("games")) if isinstance(record, dict) else 0,
        }
    return {
        "attempted": len(attempts),
        "solved": sum(1 for e in attempts.values() if e.get("grade") == Grade.BEST.value),
        "first_try": sum(1 for e in attempts.values() if e.get("first_try")),
        "practice": count_of(store.get("practice")),
        "streak": current,
        "best_streak": best,
        "themes": dict(sorted(themes.items())),
    }


def show_stats(terminal: Terminal, progress: Progress, today: dt.date | None = None) -> None:
    """Puzzles attempted, solved and solved first try, daily streaks, by theme."""
    stats = puzzle_stats(progress, today)
    if not stats["attempted"]:
        terminal.show([Line(_("No puzzle played yet: try gintutor puzzle"))])
        return
    rows = tuple(
        (
            theme,
            _rating_text(row.get("rating")),
            str(row["attempted"]),
            str(row["solved"]),
            f"{row['first_try']} ({percent(row['first_try'] / max(row['attempted'], 1))})",
        )
        for theme, row in stats["themes"].items()
    )
    attempted = stats["attempted"]
    terminal.show(
        [
            Line(
                ngettext(
                    "{count} puzzle played · solved: {solved} · first try: {percent}",
                    "{count} puzzles played · solved: {solved} · first try: {percent}",
                    attempted,
                    count=attempted,
                    solved=stats["solved"],
                    percent=percent(stats["first_try"] / attempted),
                )
            ),
            Line(
                _(
                    "Daily streak: {streak} (best {best}); a day counts when its puzzle is solved "
                    "on the first try, on that day.",
                    streak=_days(stats["streak"]),
                    best=_days(stats["best_streak"]),
                )
            ),
            Table(
                (_("theme"), _("rating"), _("played"), _("solved"), _("first try")),
                rows,
            ),
            Line(
                _(
                    "Ratings are Glicko-2, ± two deviations (95%); ? while provisional. A first "
                    "attempt moves them; practice (retries, replays: {practice}) does not.",
                    practice=stats["practice"],
                )
            ),
        ]
    )


def _days(count: int) -> str:
    return ngettext("{count} day", "{count} days", count, count=count)


def _rating_text(record: object) -> str:
    """``1532 ± 196`` from the stats' rating record, ``-`` when the theme has none."""
    if not isinstance(record, dict):
        return "-"
    rating = Rating(float(record["rating"]), float(record["deviation"]))
    return rating.text()


def open_progress(read_only: bool) -> Progress:
    """The learner's progress for ``puzzle`` and ``carousel puzzle``: a newer gintutor's file is
    refused before a puzzle is shown unless it is only read (``--json``), and reported."""
    progress = Progress()
    if not read_only:
        progress.verify_writable()
    if progress.warning:
        typer.echo(_("warning: {problem}", problem=error_text(progress.warning)), err=True)
    return progress


def stats_command(as_json: bool, no_color: bool, ascii_only: bool) -> None:
    """``puzzle --stats`` and ``carousel puzzle --stats``: the figures from the progress file."""
    progress = open_progress(read_only=True)
    if as_json:
        typer.echo(json.dumps(puzzle_stats(progress), ensure_ascii=False))
    else:
        show_stats(terminal(no_color, ascii_only), progress)
