"""Hostile input to the command line: bytes on standard input, terminals without ♣, options
that point nowhere, numbers that are too big. All end in ``error: ...`` with exit 1 or 2 in
bounded time, never a traceback; a crash is an internal error (exit 70), never 1."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import invoke, run
from sweep import first_fast

from gintutor.cli.guard import INTERNAL_ERROR, run_guarded
from gintutor.cli.inputs import stdin_lines
from gintutor.content.textfile import FileError

HAND = "7C 7D 7S 4H 5H 6H TD JD QD KC"


def run_bytes(*args: str, stdin: bytes) -> tuple[int, str, str]:
    result = invoke(args, stdin=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def gintutor(
    *args: str, env: dict[str, str] | None = None, stdin: bytes = b"", timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    """The real entry point in a child process (locale, argv and stream encodings are real)."""
    return subprocess.run(
        [sys.executable, "-c", "from gintutor.cli.app import main; main()", *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
        check=False,
    )


# --- standard input ---------------------------------------------------------------------------


def test_analyze_stdin_that_is_not_utf8_is_an_error_naming_the_line() -> None:
    code, out, err = run_bytes("analyze", "-", stdin=HAND.encode() + b"\n7C \xff\xfe 7S\n")
    assert code == 2
    assert "Best melds" in out  # the first line was analysed
    assert err == (
        "error: standard input is not UTF-8 text (byte 0xff at line 2, column 4): "
        "save it as UTF-8\n"
    )


def test_analyze_stdin_with_a_bom_and_crlf_is_read() -> None:
    code, out, _ = run_bytes("analyze", "-", stdin=b"\xef\xbb\xbf" + HAND.encode() + b"\r\n")
    assert code == 0 and "Best melds" in out


def test_an_endless_line_is_refused_in_bounded_memory() -> None:
    import io

    with pytest.raises(FileError, match="line 2 is longer than 65536 bytes"):
        list(stdin_lines(io.BytesIO(b"7C\n" + b"7C" * 100_000)))


@pytest.mark.slow
def test_an_endless_line_on_stdin_is_refused_by_the_command() -> None:
    result = gintutor("analyze", "-", stdin=b"7C" * 100_000)
    assert result.returncode == 2
    assert result.stderr.decode() == ("error: standard input: line 1 is longer than 65536 bytes\n")


def test_stdin_lines_numbers_lines_and_refuses_nul() -> None:
    import io

    assert list(stdin_lines(io.BytesIO(b"a\nb\r\n"))) == [(1, "a"), (2, "b")]
    with pytest.raises(FileError, match="a NUL byte at line 2"):
        list(stdin_lines(io.BytesIO(b"a\nb\x00\n")))


def test_stdin_honours_a_byte_order_mark_only_where_a_stream_starts() -> None:
    """UTF-8's mark is dropped from line 1; UTF-16 or UTF-32 input is named and refused (its
    lines are not split by the byte 0x0a); the mark's bytes later on are not UTF-8."""
    import io

    assert list(stdin_lines(io.BytesIO(b"\xef\xbb\xbf7C\n8C\n"))) == [(1, "7C"), (2, "8C")]
    with pytest.raises(FileError, match=r"standard input is UTF-16 .* give it as UTF-8"):
        list(stdin_lines(io.BytesIO("7C\n8C\n".encode("utf-16"))))
    with pytest.raises(FileError, match="standard input is UTF-32"):
        list(stdin_lines(io.BytesIO("7C\n".encode("utf-32"))))
    with pytest.raises(FileError, match="not UTF-8 text \\(byte 0xff at line 2, column 1\\)"):
        list(stdin_lines(io.BytesIO(b"7C\n\xff\xfe 7C\n")))


@pytest.mark.slow
def test_learn_with_non_utf8_answers_in_a_strict_utf8_locale(tmp_path: Path) -> None:
    result = gintutor(
        "learn",
        "2",
        stdin=b"\xff\xfe\n" + b"skip\n" * 20,
        env={"GINTUTOR_HOME": str(tmp_path), "LC_ALL": "C.UTF-8", "PYTHONUTF8": "0"},
    )
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr


# --- terminals that cannot show the suits ----------------------------------------------------


@pytest.mark.parametrize("encoding", ["ascii", pytest.param("latin-1", marks=pytest.mark.slow)])
def test_a_terminal_without_suit_symbols_gets_ascii_suits(encoding: str) -> None:
    result = gintutor(
        "analyze",
        HAND,
        "--opponent",
        "2C 3C 4D 8D 9C JS KD 2H 3H 9H",
        env={"PYTHONIOENCODING": encoding},
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode(encoding)
    assert "set  7C 7D 7S" in out and "♣" not in out
    assert not re.search(r"[0-9AJQK]\?", out)  # no suit became a "?"


def test_lang_c_with_suit_symbols_in_the_arguments() -> None:
    result = gintutor(
        "analyze",
        HAND.replace("7C", "7♣"),
        env={
            "LANG": "C",
            "LC_ALL": "C",
            "PYTHONUTF8": "0",
            "PYTHONCOERCECLOCALE": "0",
            "PYTHONIOENCODING": "",
        },
    )
    assert result.returncode == 0, result.stderr
    assert b"set  7C 7D 7S" in result.stdout


@pytest.mark.slow
def test_rules_table_on_an_ascii_terminal() -> None:
    result = gintutor("rules", env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0 and result.stderr == b""


# --- options that point nowhere ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("{tmp}", "it is a folder; give a file name"),
        ("{tmp}/missing/puzzles.yaml", "the folder {tmp}/missing does not exist"),
        ("/dev/null", "it is not a regular file; give a file name"),
        ("{tmp}/" + "x" * 5000, "the path is too long"),
    ],
    ids=["folder", "missing-folder", "device", "too-long"],
)
def test_generate_out_is_checked_before_any_work(tmp_path: Path, out: str, message: str) -> None:
    target = out.format(tmp=tmp_path)
    code, stdout, err = run("puzzles", "generate", "--count", "1000", "--out", target)
    assert (code, stdout) == (2, "")
    assert err.startswith("error: ") and message.format(tmp=tmp_path) in err, err
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


@pytest.mark.parametrize("count", ["99999999999999999999", "0", "-3"])
def test_generate_count_out_of_range_is_refused_at_once(count: str) -> None:
    code, _, err = run("puzzles", "generate", "--count", count)
    assert code == 2 and "--count" in err and "Traceback" not in err


# --- numbers in answers and scores ----------------------------------------------------------------


@pytest.mark.parametrize("points", ["³⁴", "①", "9" * 5000])
def test_score_points_that_are_not_ascii_digits(points: str) -> None:
    code, _, err = run("score", f"A knock {points}")
    assert code == 2 and err.startswith("error: hand 1: ")


@pytest.mark.parametrize("key", first_fast("²", "①", "9" * 5000))
def test_a_lesson_number_that_is_not_ascii_digits(key: str, tmp_path: Path) -> None:
    """Found by the long fuzz run: ``'²'.isdigit()`` is true but ``int('²')`` fails."""
    done = gintutor("learn", key, env={"GINTUTOR_HOME": str(tmp_path)})
    err = done.stderr.decode()
    assert done.returncode == 2 and err.startswith("error: no lesson "), err


@pytest.mark.parametrize("value", first_fast("²", "①", "9" * 5000, "-3"))
def test_odd_columns_and_lines_are_passed_by(value: str) -> None:
    """Rich reads ``COLUMNS``/``LINES`` with ``int()`` after ``isdigit()``: a value that is not
    a plain number is unset, and the terminal's size (or no wrapping, piped) stands in."""
    done = gintutor("analyze", HAND, env={"COLUMNS": value, "LINES": value})
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("Hand: ")


# --- crashes ----------------------------------------------------------------------------------


def test_a_crash_is_an_internal_error_not_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    def broken() -> None:
        raise KeyError("oops")

    with pytest.raises(SystemExit) as ended:
        run_guarded(broken)
    assert ended.value.code == INTERNAL_ERROR != 1
    err = capsys.readouterr().err
    assert err.startswith("error: internal error (a bug in gintutor") and "KeyError" in err
    assert "Traceback" not in err


def test_a_crash_is_reported_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    from gintutor.text import i18n

    def broken() -> None:
        raise KeyError("oops")

    i18n.use("pt_BR")
    try:
        with pytest.raises(SystemExit) as ended:
            run_guarded(broken)
    finally:
        i18n.use(i18n.ENGLISH)
    assert ended.value.code == INTERNAL_ERROR
    err = capsys.readouterr().err
    assert err == (
        "erro: erro interno (um bug do gintutor; por favor, informe-o junto com o comando que "
        "você rodou): KeyError: 'oops'\n"
    )


# --- standard output that cannot be written ---------------------------------------------------

ENTRY = [sys.executable, "-c", "from gintutor.cli.app import main; main()"]


FULL_DISK = {
    (): "error: cannot write the output: No space left on device\n",
    ("--lang", "nb"): "feil: kan ikke skrive utdataene: Ingen plass igjen på enheten\n",
}


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    ("args", "lang"),
    [
        *first_fast((("rules",), ()), (("analyze", HAND), ()), (("learn", "--list"), ())),
        (("rules",), ("--lang", "nb")),
    ],
    ids=lambda a: " ".join(a) or "en",
)
def test_an_output_without_room_is_one_error_line_and_exit_1(
    args: tuple[str, ...], lang: tuple[str, ...], tmp_path: Path
) -> None:
    """``> /dev/full`` (a full disk): the write fails, and that is the user's to mend (told
    in the reader's language)."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*ENTRY, *lang, *args],
            stdout=full,
            stderr=subprocess.PIPE,
            env={**os.environ, "GINTUTOR_HOME": str(tmp_path)},
            timeout=60,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr.decode() == FULL_DISK[lang]


def test_a_closed_output_is_written_to_nowhere(tmp_path: Path) -> None:
    """``gintutor rules >&-``: nothing to write to, nothing wrong."""
    done = subprocess.run(
        [*ENTRY, "rules"],
        stdout=None,
        stderr=subprocess.PIPE,
        close_fds=True,
        preexec_fn=lambda: os.close(1),
        env={**os.environ, "GINTUTOR_HOME": str(tmp_path)},
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
