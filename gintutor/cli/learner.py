"""Where a learner works, shared by the lesson and puzzle runners (each imports only this)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gintutor.text.blocks import Style

if TYPE_CHECKING:
    from gintutor.cli.progress import Progress
    from gintutor.cli.prompts import Asker
    from gintutor.cli.render import Terminal


class Runner:
    """What a lesson or puzzle runner works with: the terminal, the asker, the saved progress,
    the card style (the base of :class:`~gintutor.cli.learn.LessonRunner` and
    :class:`~gintutor.cli.puzzlerun.PuzzleRunner`)."""

    def __init__(
        self, terminal: Terminal, asker: Asker, progress: Progress, style: Style | None = None
    ) -> None:
        self.terminal = terminal
        self.asker = asker
        self.progress = progress
        self.style = style or Style(ascii_only=terminal.ascii_only)
