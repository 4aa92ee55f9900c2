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
