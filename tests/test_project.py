"""Project-level checks: the engine's layering, lint and types, the console entry points."""

from __future__ import annotations

import ast
import functools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gintutor"

# Each layer may import only the layers before it (and itself); third-party packages per layer.
LAYERS = ["errors", "engine", "text", "tutor", "content", "cli"]
THIRD_PARTY = {
    "errors": set(),
    "engine": set(),
    "text": set(),
    "tutor": set(),
    "content": {"yaml", "platformdirs"},  # platformdirs: the data folder (content/store.py)
    "cli": {"yaml", "typer", "click", "rich", "prompt_toolkit", "platformdirs"},
}
PRESENTATION = {"rich", "typer", "yaml", "prompt_toolkit", "click", "platformdirs"}


def _layer_of(module: str) -> str | None:
    """The layer of a ``gintutor`` module name (``gintutor.engine.cards`` -> ``engine``)."""
    parts = module.split(".")
    if parts[0] != "gintutor" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in LAYERS else None


@functools.cache
def _tree(path: Path) -> ast.Module:
    """A source file's syntax tree (parsed once for all the tests that read it)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _imports(path: Path) -> set[str]:
    """Every module a source file imports, at the top or inside functions."""
    tree = _tree(path)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _sources() -> list[tuple[str, Path]]:
    sources = [("errors", PACKAGE / "errors.py")]
    for layer in LAYERS[1:]:
        sources += [(layer, path) for path in sorted((PACKAGE / layer).rglob("*.py"))]
    return sources


def test_every_module_lives_in_a_layer() -> None:
    loose = {p.name for p in PACKAGE.glob("*.py")} - {"__init__.py", "__main__.py", "errors.py"}
    assert loose == set()


@pytest.mark.parametrize("layer", LAYERS)
def test_layers_import_one_way(layer: str) -> None:
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    wrong = []
    for source_layer, path in _sources():
        if source_layer != layer:
            continue
        for module in _imports(path):
            top = module.split(".")[0]
            target = _layer_of(module)
            if top == "gintutor" and module != "gintutor" and target not in allowed:
                wrong.append(f"{path.relative_to(ROOT)} imports {module}")
            if top in PRESENTATION and top not in THIRD_PARTY[layer]:
                wrong.append(f"{path.relative_to(ROOT)} imports {module}")
    assert wrong == []


def test_engine_imports_no_presentation_or_yaml() -> None:
    engine = sorted(
        "gintutor.engine." + ".".join(p.relative_to(PACKAGE / "engine").with_suffix("").parts)
        for p in (PACKAGE / "engine").rglob("*.py")
        if p.name != "__init__.py"
    )
    code = (
        "import json, sys\n"
        + "".join(f"import {name}\n" for name in engine)
        + "print(json.dumps(sorted(sys.modules)))"
    )
    modules = json.loads(run_python(code))
    heavy = [m for m in modules if m.split(".")[0] in PRESENTATION]
    assert heavy == []
    outside = {
        m for m in modules if m.startswith("gintutor.") and _layer_of(m) not in {"engine", "errors"}
    }
    assert outside == set()


ENGINE_THIRD_PARTY = {"gintutor/engine/carousel/highs.py": {"highspy"}}
"""The engine's one third-party import: the Carousel solver's HiGHS backend (an integer
programme, 5-50x quicker than the pure dynamic programme on big tables). ``highspy`` is a
required dependency (pyproject.toml); ``best_play`` imports it only for a big table, so nothing
else loads it (or numpy)."""


def test_engine_imports_only_stdlib_but_the_highs_backend() -> None:
    wrong = []
    for layer, path in _sources():
        if layer not in ("errors", "engine"):
            continue
        name = path.relative_to(ROOT).as_posix()
        for module in _imports(path):
            top = module.split(".")[0]
            if top == "gintutor" or top in sys.stdlib_module_names:
                continue
            if top not in ENGINE_THIRD_PARTY.get(name, set()):
                wrong.append(f"{name} imports {module}")
    assert wrong == []
    code = (
        "import json, sys\n"
        "import gintutor.engine.carousel.solver, gintutor.engine.carousel.game\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    loaded = set(json.loads(run_python(code)))
    assert {"highspy", "numpy", "gintutor.engine.carousel.highs"} & loaded == set()


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return done.stdout


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
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            *[p for p in ("gintutor", "tests", "benchmarks") if (ROOT / p).is_dir()],
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow  # 4-15 s of the developer loop (mypy's cache warm or cold); CI runs it
def test_mypy_strict_clean() -> None:
    pytest.importorskip("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "gintutor"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_package_is_in_the_wheel() -> None:
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {".".join(path.parent.relative_to(ROOT).parts) for path in PACKAGE.rglob("__init__.py")}
    assert found <= listed, found - listed


def test_ruff_format_applied() -> None:
    pytest.importorskip("ruff")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "format",
            "--check",
            *[p for p in ("gintutor", "tests", "benchmarks") if (ROOT / p).is_dir()],
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


DEAD_KINDS = {"function", "method", "property", "class", "import"}
"""What vulture reports that the check holds at zero (unused variables and attributes are
left to ruff and review: vulture guesses them at 60% and gets records' fields wrong)."""


@pytest.mark.slow  # vulture over the tree, ~4 s CPU: a lint CI runs
def test_no_dead_code() -> None:
    """Nothing in the package is defined and never used by the package, its tests or the
    benchmarks (engine/rollout.py, 461 lines, was imported by nothing; nine functions were never
    called). Public API and callbacks called by name are listed in tests/vulture_whitelist.py."""
    vulture = pytest.importorskip("vulture")
    scan = vulture.Vulture(verbose=False)
    scan.scavenge(
        [str(ROOT / "gintutor"), str(ROOT / "tests"), str(ROOT / "benchmarks")],
        exclude=["*/__main__.py"],
    )
    package = str(ROOT / "gintutor")
    dead = [
        f"{Path(item.filename).relative_to(ROOT)}:{item.first_lineno}: {item.typ} {item.name}"
        for item in scan.get_unused_code(min_confidence=60)
        if item.typ in DEAD_KINDS
        and str(item.filename).startswith(package)
        and item.name not in ("__getattr__", "__dir__")  # a module's lazy names (PEP 562)
    ]
    assert dead == []


def test_the_package_docstring_names_modules_that_exist() -> None:
    import gintutor

    named = set(re.findall(r"``(\w+)``", gintutor.__doc__ or ""))
    missing = [
        name
        for name in named
        if not any(
            (folder / name).is_dir() or (folder / f"{name}.py").is_file()
            for folder in (ROOT / "gintutor", ROOT / "gintutor" / "engine")
        )
        and name not in ("highspy",)
    ]
    assert named and missing == []


def _from_imports(path: Path) -> list[tuple[str, str]]:
    """``(module, name)`` of every ``from gintutor... import name`` in a source file."""
    tree = _tree(path)
    return [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("gintutor")
        for alias in node.names
    ]


def test_engine_modules_import_no_private_names_of_each_other() -> None:
    """What one engine module needs of another is public there (the coach once took the
    expert's ``_after_discard``, the hand state machine ``_layoff_plans``)."""
    wrong = [
        f"{path.relative_to(ROOT)} imports {name} from {module}"
        for layer, path in _sources()
        if layer == "engine"
        for module, name in _from_imports(path)
        if name.startswith("_")
    ]
    assert wrong == []


def test_a_judgement_name_has_one_import_path() -> None:
    """Grades, verdicts and thresholds are imported from engine/judgement.py, never through
    engine/coach.py (which once re-exported ten of them)."""
    from gintutor.engine import judgement

    defined = {name for name in vars(judgement) if not name.startswith("_")}
    defined -= {"annotations", "dataclass", "Enum", "IntEnum", "field"}
    files = [path for _, path in _sources()]
    files += sorted((ROOT / "tests").glob("*.py")) + sorted((ROOT / "benchmarks").glob("*.py"))
    # Only a file that names the coach module can import from it (parsing every test file
    # was most of this test's 1.5 s).
    files = [path for path in files if "gintutor.engine.coach" in path.read_text(encoding="utf-8")]
    wrong = [
        f"{path.relative_to(ROOT)} imports {name} from gintutor.engine.coach"
        for path in files
        for module, name in _from_imports(path)
        if module == "gintutor.engine.coach" and name in defined
    ]
    assert wrong == []


def _module_name(path: Path) -> str:
    """``gintutor/engine/cards.py`` -> ``gintutor.engine.cards`` (a package by its folder)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _run_imports(path: Path, modules: set[str]) -> set[str]:
    """The package's modules a source file imports when it runs, at the top or inside a
    function (``if TYPE_CHECKING:`` blocks aside): ``from gintutor.engine.carousel import
    highs`` names the module ``highs``."""
    tree = _tree(path)
    unrun = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in unrun:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                inner_module = f"{node.module}.{alias.name}"
                found.add(inner_module if inner_module in modules else node.module)
    return found & modules


def test_no_import_cycle() -> None:
    """The package's modules import each other one way, function-local imports included: a
    local import never hides a cycle (issue 24: the app and its command groups once imported
    each other)."""
    paths = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph = {name: _run_imports(path, set(paths)) for name, path in paths.items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(name: str, trail: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                cycles.append([*trail[trail.index(other) :], other])
            elif other not in state:
                walk(other, [*trail, other])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name, [name])
    assert cycles == []
