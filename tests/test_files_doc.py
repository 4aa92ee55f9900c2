"""``docs/files.md`` says what the code writes: its examples are read back with gintutor's own
readers, and every name the files hold is in it (issue 24: the saved-game format was referenced
at a path outside the repository)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gintutor.cli import progress
from gintutor.content import store
from gintutor.content.carouselgames import load_carousel_game
from gintutor.content.games import CoachNote, GameHeader, load_game
from gintutor.engine.rules import RULE_SETS

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "files.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_every_docs_page_the_code_names_exists() -> None:
    named = {
        match
        for path in (ROOT / "gintutor").rglob("*.py")
        for match in re.findall(r"docs/[\w-]+\.md", path.read_text(encoding="utf-8"))
    }
    assert "docs/files.md" in named
    assert [name for name in sorted(named) if not (ROOT / name).is_file()] == []


def test_the_saved_game_example_reads_and_replays(tmp_path: Path) -> None:
    gin, carousel = _blocks("jsonl")
    path = tmp_path / "20261202-140356.jsonl"
    path.write_text(gin, encoding="utf-8")
    game = load_game(path)
    assert (game.problems, game.end, len(game.hands)) == ((), "resigned", 1)
    assert game.hands[0].replay(game.rules).over
    assert game.hands[0].actions[0].coach == CoachNote(False, "take", 1.53, hints=1)

    path = tmp_path / "20261202-140421.jsonl"
    path.write_text(carousel, encoding="utf-8")
    saved = load_carousel_game(path)
    assert saved.problems == ()


def test_every_header_field_and_line_type_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    header = GameHeader("x", "", RULE_SETS["standard"], "standard", "simple", "on", 1, 0, 0)
    fields = [*header.to_json(), "hand", "deal", "player", "action", "coach", "reason"]
    notes = CoachNote(True, "take", 1.0, ("pass",)).to_json()
    assert [name for name in [*fields, *notes] if f"`{name}`" not in text] == []
    for kind in ("game", "hand", "action", "end", "carousel", "round"):
        assert f"**`{kind}`**" in text


def test_the_progress_example_is_valid_progress_and_every_key_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    example = json.loads(_blocks("json")[0])
    assert progress.schema_problem(example) is None
    keys = {*progress._TYPES, "current", "lessons", "puzzles", "solved", "daily", "ratings"}
    assert [key for key in sorted(keys) if key not in text] == []


@pytest.mark.parametrize(
    "name",
    [
        store.PROGRESS,
        store.SETTINGS,
        store.GAMES,
        store.CACHE,
        store.LESSON_OUTLINES,
        store.PUZZLE_PACK,
        store.CAROUSEL_PUZZLES,
    ],
)
def test_every_file_of_the_data_folder_is_documented(name: str) -> None:
    assert f"{name}" in DOC.read_text(encoding="utf-8")


def test_the_settings_example_is_what_settings_lang_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gintutor.cli.language import save_language

    monkeypatch.setenv("GINTUTOR_HOME", str(tmp_path))
    save_language("id")
    assert (tmp_path / store.SETTINGS).read_text(encoding="utf-8") == _blocks("json")[1]


def test_the_data_folder_s_names_are_spelled_only_in_the_store() -> None:
    """A path built from a literal name of the data folder (``cache / "lessons"``,
    ``FOLDER = "carousel"``) outside ``content/store.py``: the store owns every path."""
    import ast

    names = {
        value for name, value in vars(store).items() if name.isupper() and isinstance(value, str)
    }
    found = []
    for path in (ROOT / "gintutor").rglob("*.py"):
        if path.name == "store.py" and path.parent.name == "content":
            continue
        text = path.read_text(encoding="utf-8")
        if not any(f'"{name}"' in text for name in names):
            continue  # only files that spell a name are parsed
        for node in ast.walk(ast.parse(text)):
            pieces: list[ast.expr] = []
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
                pieces = [node.right]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr in {"with_name", "joinpath"}:
                    pieces = list(node.args)
            elif isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "FOLDER" for target in node.targets
            ):
                pieces = [node.value]
            for piece in pieces:
                if isinstance(piece, ast.Constant) and piece.value in names:
                    found.append(f"{path.relative_to(ROOT)}:{piece.lineno}: {piece.value!r}")
    assert found == []
