"""Shared test settings: hypothesis profiles, and the ``slow`` mark.

The plain ``pytest`` is the developer loop: it leaves out (deselects) the tests marked ``slow``
(pack-wide checks, heavy brute forces, statistical runs). ``pytest --run-slow`` (what ``.ci/run``
does) runs them all.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

# Piped output is unwrapped unless COLUMNS sets a width (cli/render.py): the snapshots are the
# unwrapped output, whatever the shell or CI exports.
os.environ.pop("COLUMNS", None)
# The tests speak English whatever the shell's locale or a saved language (tests of choosing
# the language unset this).
os.environ["GINTUTOR_LANG"] = "en"

settings.register_profile("dev", max_examples=100, deadline=None)  # the CI profile runs 400
settings.register_profile(
    "ci",
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def marked_nb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Norwegian catalogs that mark every message «so», compiled once per test process
    (compiling them was ~0.3 s in each of the 20 tests that use them)."""
    from test_i18n import _marked_catalogs

    return _marked_catalogs(tmp_path_factory.mktemp("marked") / "locale", "nb")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data directory for progress files (GINTUTOR_HOME)."""
    monkeypatch.setenv("GINTUTOR_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture(scope="session")
def built_caches(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``cache`` folder a learner's first commands leave in the data folder (the lesson
    outlines and lessons, the puzzle pack, the Carousel puzzles), built once per test process.

    Building the puzzle pack's cache is ~0.45 s CPU of the first ``puzzle`` in a fresh data
    folder, and ~25 tests of the puzzle commands paid it. Building it, and a cache that is
    missing, stale or damaged, have their own tests (test_startup.py, test_hostile_sweep.py).
    """
    from clirun import run

    from gintutor.content.lessons import load_outlines
    from gintutor.content.puzzlepack import shipped_pack
    from gintutor.content.store import (
        CACHE,
        CAROUSEL_PUZZLES,
        LESSON_OUTLINES,
        LESSON_RECORDS,
        PUZZLE_PACK,
        cache_file,
    )

    folder = tmp_path_factory.mktemp("built")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GINTUTOR_HOME", str(folder))
        for outline in load_outlines(cache=cache_file(LESSON_OUTLINES)):
            outline.lesson()
        shipped_pack(cache=cache_file(PUZZLE_PACK))
        code, _, err = run("carousel", "puzzle", stdin="")  # the command keeps the pack
        assert code == 0, err
    built = folder / CACHE
    assert sorted(p.name for p in built.iterdir()) == sorted(
        [CAROUSEL_PUZZLES, LESSON_OUTLINES, LESSON_RECORDS, PUZZLE_PACK]
    )
    return built


@pytest.fixture
def warm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, built_caches: Path) -> Path:
    """A fresh data directory (GINTUTOR_HOME) holding the caches a learner's first commands
    leave (see :func:`built_caches`): a second run's, for tests of what the commands do."""
    shutil.copytree(built_caches, tmp_path / built_caches.name)
    monkeypatch.setenv("GINTUTOR_HOME", str(tmp_path))
    return tmp_path


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="also run the tests marked slow")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: pack-wide, brute-force-heavy or statistical checks")


# Deselected, not skipped: a skipped test still costs its worker a run and the controller its
# reports (~5 ms of CPU each, ~500 tests). Last, so that syrupy has seen them collected and
# keeps the snapshots of tests not selected.
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    slow = [item for item in items if "slow" in item.keywords]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if "slow" not in item.keywords]
