"""Fuzzing every command with hostile arguments, files, standard input and progress files.

The promise (README): no traceback and no hang on any input; the exit status is 0, 1 (a content
check found problems) or 2 (``error: ...``). The default run is short; ``--run-slow`` runs many
more examples. Commands that would do long work when given valid input (``puzzles generate``,
``match``) get only an invalid part (an ``--out`` that cannot be written, a bot that does not
exist), so that every example ends quickly.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clirun import invoke
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HAND = "7C 7D 7S 4H 5H 6H TD JD QD KC"
VALID_FILES = {
    "rules": "base: classic\nknock_limit: 8\ntarget: 250\n",
    "score": "- A knock 12\n- B gin 41\n- void\n",
    "lesson": "id: fuzz\ntitle: Fuzz\nlevel: beginner\nsteps:\n  - prose: Hello\n"
    '  - question: deadwood\n    prompt: How much?\n    hand: "7C 7D 7S 4H 5H 6H TD JD'
    ' QD KC"\n',
    "puzzle": "puzzles:\n  - id: fuzz-001\n    title: x\n    theme: deadwood\n    difficulty: 2\n",
    "log": "rules: standard\nhand 1\ndealer: them\ndealt: KC 3D 5D JD 2H 3H 8H JH 2S 3S\n"
    "upcard: 4S\nyou pass\nthem pass\nyou draw TD\nyou discard KC\nthem draw\n",
}
HOSTILE_FILES = [
    b"",
    b"\x00\x01\x02",
    b"\xff\xfe\x00",
    "r\u00e8gles: 1\n".encode("latin-1"),
    "base: classic\n".encode("utf-16"),
    b"\xef\xbb\xbfbase: classic\n",
    b"base: !!python/object:os.system x\n",
    b"knock_limit: !!int abc\n",
    b"knock_limit: " + b"9" * 5000 + b"\n",
    b"a: &a [1, *a]\n",
    b"[" * 5000,
    b"- " * 3000,
    b'a: &a ["x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\n'
    b"c: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n",
    b"base: [classic\n",
    b"{{{{",
    b"? [a]\n: b\n",
    b"base: classic\n---\nbase: standard\n",
    b'A,knock,"' + b"1" * 200_000 + b'"\n',
]

hostile_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
ascii_noise = st.text(st.sampled_from("0123456789ACDHSJQKT♣♦♥♠-,|=~ \t\n"), max_size=40)
any_text = st.one_of(hostile_text, ascii_noise, st.sampled_from(["", "-", "--", "0", HAND]))


@st.composite
def file_bytes(draw: st.DrawFn, kind: str) -> bytes:
    """A valid file of ``kind`` mutated, a known hostile file, or random bytes."""
    choice = draw(st.integers(0, 2))
    if choice == 0:
        return draw(st.sampled_from(HOSTILE_FILES))
    if choice == 1:
        return draw(st.binary(max_size=200))
    text = VALID_FILES[kind].encode()
    at = draw(st.integers(0, len(text)))
    cut = draw(st.integers(0, 10))
    return text[:at] + draw(st.binary(max_size=12)) + text[at + cut :]


@st.composite
def path_to(draw: st.DrawFn, kind: str, suffix: str = ".yaml") -> Callable[[Path], str]:
    """A function making, in a fresh folder, a hostile file or a path that is not a file."""
    special = draw(
        st.sampled_from(
            [
                "file",
                "file",
                "file",
                "folder",
                "missing",
                "dangling",
                "loop",
                "dev-zero",
                "fifo",
                "too-long",
            ]
        )
    )
    data = draw(file_bytes(kind))
    name = "01-fuzz" + draw(st.sampled_from([suffix, suffix, ".yml", ".csv", ".txt", ""]))

    def make(folder: Path) -> str:
        path = folder / name
        if special == "file":
            path.write_bytes(data)
        elif special == "folder":
            path.mkdir()
        elif special == "dangling":
            path.symlink_to(folder / "nowhere")
        elif special == "loop":
            path.symlink_to(folder / "loop")
            (folder / "loop").symlink_to(path)
        elif special == "dev-zero":
            path.symlink_to("/dev/zero")
        elif special == "fifo":
            os.mkfifo(path)
        elif special == "too-long":
            return str(folder / ("x" * 5000))
        return str(path)

    return make


def progress_bytes() -> st.SearchStrategy[bytes]:
    shapes = st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8)),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=8,
    )
    wrapped = st.fixed_dictionaries(
        {
            "version": st.sampled_from([1, 1, 2, "1"]),
            "lessons": shapes,
            "puzzles": shapes,
            "current": shapes,
        }
    ).map(lambda data: json.dumps(data).encode())
    return st.one_of(wrapped, st.binary(max_size=100), st.just(b"[" * 100_000))


@st.composite
def invocation(draw: st.DrawFn, command: str) -> tuple[list[Any], bytes | None, bytes | None]:
    """(arguments, with file makers in place of paths; standard input; a progress file)."""
    stdin: bytes | None = None
    progress: bytes | None = None
    if command == "analyze":
        args: list[Any] = ["analyze", draw(any_text)]
        if draw(st.booleans()):
            args += ["--rules", draw(st.one_of(path_to("rules"), any_text))]
        for option in ("--opponent", "--upcard", "--drew-from-discard"):
            if draw(st.integers(0, 3)) == 0:
                args += [option, draw(any_text)]
        args += draw(st.sampled_from([[], ["--json"], ["--ascii"]]))
    elif command == "analyze-stdin":
        args = ["analyze", "-", *draw(st.sampled_from([[], ["--json"]]))]
        stdin = draw(
            st.one_of(
                st.binary(max_size=120),
                st.lists(st.sampled_from([HAND, "#", "", "7C 7D"]), max_size=3).map(
                    lambda ls: "\n".join(ls).encode()
                ),
            )
        )
    elif command == "rules":
        args = ["rules", draw(st.one_of(path_to("rules"), any_text))]
        if draw(st.booleans()):
            args = [
                "rules",
                "--diff",
                draw(st.one_of(path_to("rules"), any_text)),
                draw(st.sampled_from(["standard", "x"])),
            ]
    elif command == "score":
        if draw(st.booleans()):
            args = ["score", *draw(st.lists(any_text, min_size=1, max_size=3))]
        else:
            args = ["score", "--file", draw(path_to("score"))]
        if draw(st.booleans()):
            args += [draw(st.sampled_from(["--players", "--rules"])), draw(any_text)]
    elif command == "lessons-check":
        args = ["lessons", "check", draw(path_to("lesson"))]
    elif command == "puzzles-check":
        args = ["puzzles", "check", draw(path_to("puzzle")), "--jobs", "1"]
    elif command == "learn":
        args = [
            "learn",
            *draw(
                st.sampled_from(
                    [["1"], ["2"], ["9"], [], ["--list"], ["--list", "--json"], ["--reset"]]
                )
            ),
        ]
        if draw(st.booleans()):
            args = ["learn", draw(any_text)]
        stdin = draw(st.binary(max_size=80)) + b"\nskip\n" * 3 + b"q\n"
        progress = draw(st.one_of(st.none(), progress_bytes()))
    elif command == "puzzle":
        args = ["puzzle"]
        for option in ("--id", "--date", "--theme", "--difficulty"):
            if draw(st.integers(0, 2)) == 0:
                args += [option, draw(st.one_of(any_text, st.sampled_from(["outs-049"])))]
        args += draw(st.sampled_from([[], ["--stats"], ["--json"], ["--random"]]))
        stdin = draw(st.binary(max_size=40)) + b"\n" + draw(st.sampled_from([b"3H", b"skip"]))
        progress = draw(st.one_of(st.none(), progress_bytes()))
    elif command == "generate":
        args = [
            "puzzles",
            "generate",
            "--count",
            draw(st.one_of(any_text, st.sampled_from(["1", "0", "99999999999999999999"]))),
            "--out",
            draw(st.sampled_from(["{dir}", "{dir}/no/such/x.yaml", "/dev/null"])),
        ]
        if draw(st.booleans()):
            args += ["--rules", draw(path_to("rules"))]
    elif command == "match":
        args = [
            "match",
            draw(any_text),
            draw(st.sampled_from(["novice", "x"])),
            "--games",
            draw(st.one_of(any_text, st.just("0"))),
            "--jobs",
            "1",
        ]
    elif command == "carousel":
        which = draw(st.sampled_from(["analyze", "score", "rules"]))
        args = ["carousel", which]
        if which == "analyze":
            args += [
                "--hand",
                draw(any_text),
                "--table",
                draw(any_text),
                "--players",
                draw(st.sampled_from(["3", "0", "99999999999999999999", "x"])),
            ]
        elif which == "score":
            args += draw(st.lists(any_text, min_size=1, max_size=3))
    elif command == "play":
        args = ["play", "--bot", draw(st.sampled_from(["novice", "simple", "x", ""]))]
        args += ["--coach", draw(st.sampled_from(["off", "off", "loud", ""]))]
        if draw(st.booleans()):
            args += ["--rules", draw(st.one_of(path_to("rules"), any_text))]
        if draw(st.booleans()):
            args += ["--seed", draw(st.one_of(any_text, st.just("99999999999999999999")))]
        if draw(st.integers(0, 3)) == 0:
            args += ["--resume", draw(st.one_of(any_text, st.just("last")))]
        words = st.sampled_from([b"pass", b"take", b"draw", b"knock", b"hint", b"sheet", b"7d"])
        stdin = b"\n".join(draw(st.lists(st.one_of(words, st.binary(max_size=12)), max_size=6)))
        stdin += b"\nquit\n"
    elif command == "review":
        which = st.one_of(path_to("log", ".txt"), any_text, st.sampled_from(["last", "-"]))
        args = ["review", draw(which), "--worlds", draw(st.sampled_from(["8", "0", "x"]))]
        args += ["--jobs", "1", *draw(st.sampled_from([[], ["--json"], ["--ascii"]]))]
    else:
        raise AssertionError(command)
    return args, stdin, progress


COMMANDS = [
    "analyze",
    "analyze-stdin",
    "rules",
    "score",
    "lessons-check",
    "puzzles-check",
    "learn",
    "puzzle",
    "generate",
    "match",
    "carousel",
    "play",
    "review",
]


def check(case: tuple[list[Any], bytes | None, bytes | None]) -> None:
    args, stdin, progress = case
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        home.mkdir()
        if progress is not None:
            (home / "progress.json").write_bytes(progress)
        argv = [
            part(Path(folder))
            if callable(part)
            else str(part).format(dir=folder)
            if part in ("{dir}", "{dir}/no/such/x.yaml")
            else part
            for part in args
        ]
        if stdin is not None and args[0] in ("learn", "puzzle"):
            # What the real entry point does (cli/guard.py): answers never fail to decode.
            stdin = stdin.decode("utf-8", "replace").encode("utf-8")
        result = invoke(
            argv, stdin=stdin if stdin is not None else b"", env={"GINTUTOR_HOME": str(home)}
        )
    output = result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        argv,
        repr(result.exception),
    )
    assert result.exit_code in (0, 1, 2), (argv, result.exit_code, output[-500:])
    assert "Traceback" not in output, (argv, output[-2000:])


def _fuzz(examples: int) -> Callable[..., Any]:
    def test(command: str) -> None:
        @settings(
            max_examples=examples,
            deadline=None,
            derandomize=examples < 50,
            suppress_health_check=list(HealthCheck),
        )
        @given(invocation(command))
        def one(case: tuple[list[Any], bytes | None, bytes | None]) -> None:
            check(case)

        one()

    return test


# Commands that load every lesson or a puzzle and run it cost more per example.
SHORT_RUN = {"learn": 1, "puzzle": 2}


@pytest.mark.parametrize("command", COMMANDS)
def test_no_command_tracebacks_on_hostile_input(command: str) -> None:
    _fuzz(SHORT_RUN.get(command, 4))(command)


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_no_command_tracebacks_on_hostile_input_long_run(command: str) -> None:
    _fuzz(150)(command)
