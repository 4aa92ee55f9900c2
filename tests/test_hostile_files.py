"""Hostile files: every content, rules and score file is read in bounded time and memory, and
anything wrong with it is ``error: ...`` or ``file:line: ...`` with exit 1 or 2, never a traceback.
"""

from __future__ import annotations

import codecs
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from clirun import run

from gintutor.content.houserules import load_rules
from gintutor.content.scorefile import read_entries
from gintutor.content.textfile import FileError, decode, read_text
from gintutor.content.yamlread import MAX_ALIASES, compose
from gintutor.errors import GinError

HOUSE = "# r\u00e8gles maison\nbase: classic\nknock_limit: 8\n"


def alias_bomb() -> str:
    """The billion-laughs document: nine aliases per level, nine levels (10^9 values expanded)."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def doubling_bomb() -> str:
    """Few aliases (two per level) that still expand to 2^30 values."""
    lines = ["l0: &l0 [x, x]"]
    lines += [f"l{n}: &l{n} [*l{n - 1}, *l{n - 1}]" for n in range(1, 24)]
    return "\n".join(lines) + "\nbase: *l23\n"


# --- text files: encodings --------------------------------------------------------------


@pytest.mark.parametrize(
    "encoded",
    [
        HOUSE.encode("utf-8"),
        codecs.BOM_UTF8 + HOUSE.encode("utf-8"),
        HOUSE.encode("utf-16"),
        codecs.BOM_UTF16_BE + HOUSE.encode("utf-16-be"),
        HOUSE.encode("utf-32"),
    ],
    ids=["utf8", "utf8-bom", "utf16-bom", "utf16be-bom", "utf32-bom"],
)
def test_house_rules_with_a_byte_order_mark_are_read(tmp_path: Path, encoded: bytes) -> None:
    path = tmp_path / "h.yaml"
    path.write_bytes(encoded)
    assert load_rules(str(path)).knock_limit == 8


@pytest.mark.parametrize(
    ("encoded", "detail"),
    [
        (HOUSE.encode("latin-1"), "byte 0xe8 at line 1, column 4"),
        (
            HOUSE.encode("utf-16-le"),
            "a NUL byte at line 1: UTF-16 without a byte-order mark, or a binary file",
        ),
    ],
    ids=["latin1", "utf16-no-bom"],
)
def test_house_rules_not_utf8_are_refused(tmp_path: Path, encoded: bytes, detail: str) -> None:
    path = tmp_path / "h.yaml"
    path.write_bytes(encoded)
    code, out, err = run("rules", str(path))
    assert (code, out) == (2, "")
    assert err == f"error: {path} is not UTF-8 text ({detail}): save it as UTF-8\n"


def test_a_binary_file_as_rules_is_refused() -> None:
    code, _, err = run("rules", "--diff", "standard", sys.executable)
    assert code == 2 and err.startswith(f"error: {sys.executable} is not UTF-8 text (")


def test_latin1_score_and_lesson_files_are_refused(tmp_path: Path) -> None:
    score = tmp_path / "game.txt"
    score.write_bytes("A knock 12 # r\u00e8gle\n".encode("latin-1"))
    code, _, err = run("score", "--file", str(score))
    assert code == 2 and err.startswith(f"error: {score} is not UTF-8 text (byte 0xe8")
    lesson = tmp_path / "01-x.yaml"
    lesson.write_bytes("id: x\ntitle: r\u00e8gles\n".encode("latin-1"))
    code, _, err = run("lessons", "check", str(lesson))
    assert code == 2 and err.startswith(f"error: {lesson} is not UTF-8 text (byte 0xe8")


def test_decode_names_the_line_and_column() -> None:
    with pytest.raises(FileError, match=r"byte 0xff at line 3, column 2\)"):
        decode(b"a\nb\nc\xff\n", "x")


# --- YAML: tags, numbers, aliases, size ------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("knock_limit: !!int abc", ":2: knock_limit: 'abc' is not a valid int"),
        ("knock_limit: !!float x", ":2: knock_limit: 'x' is not a valid float"),
        ("knock_limit: !!timestamp 2001-01-01", ":2: unsupported tag !!timestamp"),
        ("knock_limit: !!timestamp nope", ":2: unsupported tag !!timestamp"),
        ("knock_limit: !!python/object:os.system x", ":2: unsupported tag !!python/object"),
        ("knock_limit: !local 3", ":2: unsupported tag !local"),
        ("knock_limit: !!binary AAAA", ":2: unsupported tag !!binary"),
        ("knock_limit: " + "9" * 5000, ":2: knock_limit: a number with 5000 digits is too long"),
        ("knock_limit: -" + "9" * 4400, ":2: knock_limit: a number with 4400 digits is too long"),
        ("? [a, b]\n: 1", ":2: ['a', 'b'] is not a setting name"),
        ("knock_limit: 1\n---\nknock_limit: 2", ":3: YAML syntax: "),
    ],
    ids=[
        "int-abc",
        "float-x",
        "timestamp",
        "bad-timestamp",
        "python",
        "local",
        "binary",
        "5000-digits",
        "negative-digits",
        "list-key",
        "two-documents",
    ],
)
def test_house_rules_tags_and_numbers_are_file_line_errors(
    tmp_path: Path, line: str, message: str
) -> None:
    path = tmp_path / "h.yaml"
    path.write_text(f"base: classic\n{line}\n", encoding="utf-8")
    code, out, err = run("rules", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {path}{message}"), err


def test_lesson_with_a_bad_tag_is_a_problem_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "01-x.yaml"
    path.write_text(
        "id: x\ntitle: !!int abc\nlevel: beginner\nsteps:\n  - prose: hi\n", encoding="utf-8"
    )
    code, out, _ = run("lessons", "check", str(path))
    assert code == 1
    assert out.splitlines() == [f"{path}:2: 'abc' is not a valid int"]


def test_puzzle_with_a_huge_number_is_a_problem_with_its_line(tmp_path: Path) -> None:
    shipped = Path(__file__).parents[1] / "puzzles" / "deadwood.yaml"
    first = "puzzles:\n  - id:" + shipped.read_text(encoding="utf-8").split("\n  - id:")[1]
    path = tmp_path / "p.yaml"
    path.write_text(
        first.replace("difficulty: 4", "difficulty: " + "7" * 6000) + "\n", encoding="utf-8"
    )
    code, out, _ = run("puzzles", "check", str(path))
    assert code == 1
    assert f"{path}:5: a number with 6000 digits is too long" in out.splitlines()


@pytest.mark.parametrize("bomb", [alias_bomb, doubling_bomb], ids=["billion-laughs", "doubling"])
def test_alias_bombs_are_refused_in_the_loader(bomb: Callable[[], str]) -> None:
    node, problems = compose("b.yaml", bomb())
    assert node is None
    assert "aliases" in problems[0].message


def test_aliases_within_the_limit_still_work() -> None:
    text = "a: &a [1, 2]\n" + "".join(f"k{n}: *a\n" for n in range(MAX_ALIASES))
    node, problems = compose("ok.yaml", text)
    assert node is not None and problems == []


def test_a_recursive_alias_is_refused() -> None:
    _, problems = compose("r.yaml", "a: &a [1, *a]\n")
    assert problems[0].message == "an alias refers to the value that contains it"


def test_deep_nesting_is_a_problem_not_a_crash() -> None:
    _, problems = compose("d.yaml", "[" * 100_000 + "]" * 100_000)
    assert problems[0].line == 1 and "nest" in problems[0].message  # libyaml or our limit
    _, problems = compose("d.yaml", "".join("  " * n + "a:\n" for n in range(1500)))
    assert str(problems[0]) == "d.yaml:101: values nested more than 100 deep"


@pytest.mark.parametrize(
    "where",
    [
        "rules",
        pytest.param("lessons", marks=pytest.mark.slow),
        pytest.param("score", marks=pytest.mark.slow),
    ],
)
def test_alias_bomb_in_every_reader_ends_fast_in_a_small_process(
    tmp_path: Path, where: str
) -> None:
    """Run in a child limited to 1 GB and 60 s: the unfixed reader needed 2.8 GB or hung."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    bomb = folder / "01-bomb.yaml"
    bomb.write_text(alias_bomb() + "id: bomb\n", encoding="utf-8")
    args = {
        "rules": ["rules", str(bomb)],
        "lessons": ["lessons", "check", str(folder)],
        "score": ["score", "--file", str(bomb)],
    }[where]
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "from gintutor.cli.app import main\n"
        f"sys.argv = ['gintutor', *{args!r}]\n"
        "main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode in (1, 2), result.stderr
    assert "Traceback" not in result.stderr
    assert "more than 50 aliases" in result.stdout + result.stderr


def test_a_document_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("- A knock 10\n" * 800_000, encoding="utf-8")
    with pytest.raises(GinError, match="too big"):
        read_entries(path)


# --- paths that are not regular files --------------------------------------------------------


def special_path(folder: Path, kind: str) -> tuple[Path, str]:
    """A path in ``folder`` that is not a regular file, and the words its error uses."""
    path = folder / f"{kind}.yaml"
    if kind == "fifo":
        os.mkfifo(path)
        return path, "a pipe (FIFO), not a regular file"
    if kind == "dangling":
        path.symlink_to(folder / "nowhere.yaml")
        return path, "which does not exist"
    if kind == "loop":
        path.symlink_to(folder / "loop2.yaml")
        (folder / "loop2.yaml").symlink_to(path)
        return path, "a symlink loop"
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
        return path, "a device, not a regular file"
    if kind == "folder":
        path.mkdir()
        return path, "a folder"
    assert kind == "too-long"
    return folder / ("x" * 5000 + ".yaml"), "the path is too long"


SPECIAL = ["fifo", "dangling", "loop", "dev-zero", "folder", "too-long"]


@pytest.mark.parametrize("kind", SPECIAL)
def test_read_text_refuses_special_paths_at_once(tmp_path: Path, kind: str) -> None:
    path, words = special_path(tmp_path, kind)
    with pytest.raises(FileError, match=re.escape(words)):
        read_text(path)


COMMANDS = {
    "rules": ["rules"],
    "score": ["score", "--file"],
    "lessons": ["lessons", "check"],
    "puzzles": ["puzzles", "check"],
    "analyze": ["analyze", "7C 7D 7S 4H 5H 6H TD JD QD KC", "--rules"],
}


@pytest.mark.parametrize(
    ("kind", "command"),
    [(kind, COMMANDS["rules"]) for kind in SPECIAL]
    + [
        (kind, COMMANDS[name])
        for kind in ("dangling", "dev-zero", "too-long")
        for name in ("score", "lessons", "puzzles", "analyze")
    ],
)
def test_commands_refuse_special_paths(tmp_path: Path, kind: str, command: list[str]) -> None:
    path, words = special_path(tmp_path, kind)
    if command[0] in ("lessons", "puzzles") and kind == "folder":
        pytest.skip("a folder is what the checks take")
    code, out, err = run(*command, str(path))
    assert code == 2, (out, err)
    assert err.startswith("error: ") and words in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("kind", ["fifo", "dangling", "loop", "dev-zero"])
@pytest.mark.parametrize("check", ["lessons", "puzzles"])
def test_content_folder_with_a_special_entry_is_an_error(
    tmp_path: Path, kind: str, check: str
) -> None:
    folder = tmp_path / "content"
    folder.mkdir()
    path, words = special_path(folder, kind)
    code, _, err = run(check, "check", str(folder))
    assert code == 2 and err.startswith(f"error: {path}") and words in err, err


def test_long_rule_set_name_is_unknown_not_a_crash() -> None:
    code, _, err = run("rules", "x" * 5000)
    assert code == 2 and err.startswith("error: unknown rule set")


def test_csv_with_a_giant_field_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "game.csv"
    path.write_text('A,knock,"' + "1" * 200_000 + '"\n', encoding="utf-8")
    code, _, err = run("score", "--file", str(path))
    assert code == 2 and err.startswith(f"error: {path}:1: not valid CSV"), err
