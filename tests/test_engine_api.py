"""The engine's front door: ``from gintutor import engine`` and the few names a library user needs."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from gintutor import engine

FRONT_DOOR = Path(engine.__file__)


def _type_checking_names() -> set[str]:
    """The names the ``if TYPE_CHECKING:`` block imports (what type checkers and editors see)."""
    tree = ast.parse(FRONT_DOOR.read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If))
    return {
        alias.name
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_the_typed_names_are_the_exported_names() -> None:
    assert _type_checking_names() == set(engine.__all__)


@pytest.mark.parametrize("name", engine.__all__)
def test_each_name_comes_from_its_module(name: str) -> None:
    value = getattr(engine, name)
    home = engine._HOME[name]
    assert value is getattr(sys.modules[f"gintutor.engine.{home}"], name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'solver_of'"):
        _ = engine.solver_of  # type: ignore[attr-defined]


def test_importing_the_cards_loads_neither_bots_nor_coach() -> None:
    code = (
        "import sys, gintutor.engine.cards; "
        "print(sorted(m for m in sys.modules if m.endswith(('.coach', '.bots', '.hand'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
