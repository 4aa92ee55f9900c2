"""Shared test settings: hypothesis profiles, and the ``slow`` mark.

The plain ``pytest`` is the developer loop: it skips tests marked ``slow`` (pack-wide checks,
heavy brute forces, statistical runs). ``pytest --run-slow`` (what ``.ci/run`` does) runs them
all.
"""

from __future__ import annotations

import os
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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="also run the tests marked slow")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: pack-wide, brute-force-heavy or statistical checks")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow (as .ci/run does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
