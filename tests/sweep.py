"""Breadth sweeps whose every case costs a child process: the developer loop runs the first case,
``--run-slow`` (CI) runs them all."""

from __future__ import annotations

from typing import Any

import pytest


def first_fast(*cases: Any) -> list[Any]:
    """``cases`` as parameters, all but the first marked ``slow``.

    >>> [len(p.marks) for p in first_fast("a", "b", "c")]
    [0, 1, 1]
    """
    return [
        pytest.param(
            *(case if isinstance(case, tuple) else (case,)),
            marks=() if i == 0 else pytest.mark.slow,
        )
        for i, case in enumerate(cases)
    ]


def in_turns(cases: list[Any], turn: int, ids: list[str]) -> list[Any]:
    """``cases`` as parameters where the developer loop runs every other case, starting at
    ``turn`` (0 or 1), and ``--run-slow`` runs them all: two sweeps over the same cases with
    opposite turns still reach every case in the developer loop.

    >>> [len(p.marks) for p in in_turns(["a", "b", "c"], 1, ["a", "b", "c"])]
    [1, 0, 1]
    """
    return [
        pytest.param(case, marks=() if i % 2 == turn else pytest.mark.slow, id=name)
        for i, (case, name) in enumerate(zip(cases, ids, strict=True))
    ]
