"""``gintutor review``: registered on the app here; the work is imported only when it runs."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the ``review`` command to app (not yet built: nothing is added)."""
