"""The learner's puzzle statistics (``puzzle --stats``): from the progress file alone, no
puzzle read, no engine imported."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from gintutor.text.blocks import Line, Table, plural
from gintutor.tutor.puzzleterms import Grade

if TYPE_CHECKING:
    from gintutor.cli.progress import Progress
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


def puzzle_stats(progress: Progress, today: dt.date | None = None) -> dict[str, Any]:
    """The learner's puzzle figures (the ``puzzle --stats --json`` object).

    ``attempted``: puzzles played; ``solved``: answered Best (hints allowed); ``first_try``:
    Best with no hint at the first attempt; streaks count days whose daily was a first try.
    """
    today = today or dt.date.today()
    store = progress.data.get("puzzles", {})
    attempts: dict[str, dict[str, Any]] = store.get("solved", {})
    daily: dict[str, dict[str, Any]] = store.get("daily", {})
    current, best = streaks(
        [dt.date.fromisoformat(day) for day, entry in daily.items() if entry.get("first_try")],
        today,
    )
    themes: dict[str, dict[str, int]] = {}
    for entry in attempts.values():
        row = themes.setdefault(
            str(entry.get("theme", "?")), {"attempted": 0, "solved": 0, "first_try": 0}
        )
        row["attempted"] += 1
        row["solved"] += entry.get("grade") == Grade.BEST.value
        row["first_try"] += bool(entry.get("first_try"))
    return {
        "attempted": len(attempts),
        "solved": sum(1 for e in attempts.values() if e.get("grade") == Grade.BEST.value),
        "first_try": sum(1 for e in attempts.values() if e.get("first_try")),
        "streak": current,
        "best_streak": best,
        "themes": dict(sorted(themes.items())),
    }


def show_stats(terminal: Terminal, progress: Progress, today: dt.date | None = None) -> None:
    """Puzzles attempted, solved and solved first try, daily streaks, by theme."""
    stats = puzzle_stats(progress, today)
    if not stats["attempted"]:
        terminal.show([Line("No puzzle played yet: try gintutor puzzle")])
        return
    rows = tuple(
        (
            theme,
            str(row["attempted"]),
            str(row["solved"]),
            f"{100 * row['first_try'] / row['attempted']:.0f}%",
        )
        for theme, row in stats["themes"].items()
    )
    attempted = stats["attempted"]
    terminal.show(
        [
            Line(
                f"{plural(attempted, 'puzzle')} played · solved: {stats['solved']} · "
                f"first try: {100 * stats['first_try'] / attempted:.0f}%"
            ),
            Line(
                f"Daily streak: {plural(stats['streak'], 'day')} (best "
                f"{plural(stats['best_streak'], 'day')}); a day counts when its puzzle is solved "
                "on the first try."
            ),
            Table(("theme", "played", "solved", "first try"), rows),
        ]
    )
