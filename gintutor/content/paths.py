"""Where the shipped lessons and puzzles live, in a checkout and in an installed wheel."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]

VERDICTS_FILE = "verdicts.json"
"""The coach's stored verdicts, in the puzzles folder (read and written by
:mod:`gintutor.content.verdicts`; lessons' coached questions are answered from them too)."""


def content_dir(kind: str) -> Traversable:
    """The folder of shipped ``lessons`` or ``puzzles`` YAML files.

    A source checkout (or editable install) reads the top-level folder itself; an installed
    wheel carries the same files as the package ``gintutor.data.<kind>``.
    """
    if kind not in ("lessons", "puzzles"):
        raise ValueError(f"unknown content kind {kind!r}")
    checkout = _CHECKOUT / kind
    if (_CHECKOUT / "pyproject.toml").is_file() and checkout.is_dir():
        return checkout
    return files(f"gintutor.data.{kind}")
