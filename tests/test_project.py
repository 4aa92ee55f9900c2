"""Project-level checks: the engine's layering, lint and types, the console entry points."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = [
    "gintutor.cards",
    "gintutor.errors",
    "gintutor.rules",
    "gintutor.melds",
    "gintutor.solver",
    "gintutor.knocking",
    "gintutor.layoffs",
    "gintutor.scoring",
    "gintutor.showdown",
    "gintutor.game",
    "gintutor.analysis",
    "gintutor.evaluate",
    "gintutor.rollout",
]


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return done.stdout


def test_engine_imports_no_presentation_or_yaml() -> None:
    code = (
        "import json, sys\n"
        + "".join(f"import {name}\n" for name in ENGINE)
        + "print(json.dumps(sorted(sys.modules)))"
    )
    modules = json.loads(run_python(code))
    heavy = [m for m in modules if m.split(".")[0] in {"rich", "typer", "yaml", "prompt_toolkit",
                                                        "click", "platformdirs"}]
    assert heavy == []
    gintutor_modules = {m for m in modules if m.startswith("gintutor.")}
    assert gintutor_modules <= set(ENGINE), gintutor_modules - set(ENGINE)


def test_version_through_python_dash_m() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gintutor", "--version"], capture_output=True, text=True, cwd=ROOT
    )
    from gintutor import __version__

    assert done.returncode == 0
    assert done.stdout.strip() == f"gintutor {__version__}"


def test_ruff_clean() -> None:
    pytest.importorskip("ruff")
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check",
         *[p for p in ("gintutor", "tests", "benchmarks") if (ROOT / p).is_dir()]],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_clean() -> None:
    pytest.importorskip("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "gintutor"], capture_output=True, text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
