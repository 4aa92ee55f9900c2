"""``gintutor carousel``: analyse, play and score Carousel (filled in by the Carousel work)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the ``carousel`` command group to ``app`` (engine imports stay inside commands)."""
