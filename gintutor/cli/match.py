"""``gintutor match``: bots play each other on duplicate deals (filled in by the bots work)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the ``match`` command to ``app`` (engine imports stay inside the command)."""
