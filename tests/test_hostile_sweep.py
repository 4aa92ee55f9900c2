"""A sweep of hostile input over the command line and the data folder: whatever sits in
``GINTUTOR_HOME`` (a FIFO, a device, a folder, deep JSON where a cache or a saved game belongs)
and whatever a house-rules file asks for ends in ``error: ...`` (or is passed by, for a cache)
in bounded time and memory: never a hang, a traceback or an internal error (exit 70)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from clirun import run
from sweep import first_fast

from gintutor.content.cachefile import kept
from gintutor.content.gamefile import GameFileError, latest_game
from gintutor.content.games import load_game

GAME_ID = "20261201-120000"


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A folder with a short path, so that messages naming a file in it are not shortened
    (a word over 100 characters is shown by its two ends; pytest's own folders are long)."""
    folder = Path(tempfile.mkdtemp(prefix="gs-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def short_home(short_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``GINTUTOR_HOME`` in a folder with a short path (see :func:`short_tmp`)."""
    monkeypatch.setenv("GINTUTOR_HOME", str(short_tmp))
    return short_tmp


def finishes(work: Callable[[], object], fifo: Path | None = None, seconds: float = 10) -> None:
    """Run ``work`` in a thread and fail if it has not returned within ``seconds`` (a reader
    stuck on ``fifo`` is let go afterwards by opening and closing the FIFO's other end)."""
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(seconds)
    stuck = thread.is_alive()
    if stuck and fifo is not None:
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(seconds)
    assert not stuck, f"{work} did not return in {seconds} s"


def limited(*args: str, home: Path, limit: int = 1 << 30) -> subprocess.CompletedProcess[str]:
    """``gintutor ARGS`` in a child limited to ``limit`` bytes of memory and 60 s."""
    code = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n"
        "from gintutor.cli.app import main\n"
        f"sys.argv = ['gintutor', *{list(args)!r}]\n"
        "main()\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "NO_COLOR": "1", "GINTUTOR_HOME": str(home)},
        stdin=subprocess.DEVNULL,
    )


# --- caches in the data folder ---------------------------------------------------------------


@pytest.mark.parametrize("cache", ["lesson-outlines.json", "puzzles.json", "carousel.pickle"])
def test_a_cache_that_is_a_fifo_is_passed_by_not_waited_on(tmp_path: Path, cache: str) -> None:
    """The lesson outlines, the puzzle pack and the Carousel pack caches were read with
    ``read_text``/``read_bytes``: a FIFO in their place hung ``learn``, ``puzzle`` and
    ``carousel puzzle`` for ever."""
    from gintutor.content.lessons import load_outlines
    from gintutor.content.puzzlepack import shipped_pack

    fifo = tmp_path / cache
    os.mkfifo(fifo)
    found: list[object] = []
    read = {
        "lesson-outlines.json": lambda: len(load_outlines(cache=fifo)) > 0,
        "puzzles.json": lambda: len(shipped_pack(cache=fifo).index) > 0,
        "carousel.pickle": lambda: kept(fifo, "key") is None,
    }[cache]
    finishes(lambda: found.append(read()), fifo)
    assert found == [True]


@pytest.mark.parametrize("kind", ["dev-zero", "folder", "deep-json"])
def test_a_cache_that_cannot_be_read_is_a_missed_saving(home: Path, kind: str) -> None:
    cache = home / "cache" / "lesson-outlines.json"
    cache.parent.mkdir()
    if kind == "dev-zero":
        cache.symlink_to("/dev/zero")
    elif kind == "folder":
        cache.mkdir()
    else:
        cache.write_text("[" * 200_000, encoding="utf-8")
    code, out, err = run("learn", "--list")
    assert code == 0 and "Cards and their values" in out, err


@pytest.mark.parametrize(
    ("cache", "args"),
    first_fast(
        ("lesson-outlines.json", ["learn", "--list"]),
        ("puzzles.json", ["puzzle", "--id", "outs-049", "--json"]),
    ),
)
def test_a_cache_on_dev_zero_in_a_small_process(
    tmp_path: Path, cache: str, args: list[str]
) -> None:
    """Before: ``MemoryError``, 'internal error', exit 70 (the cache was read without end)."""
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / cache).symlink_to("/dev/zero")
    done = limited(*args, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


# --- saved games --------------------------------------------------------------------------


def test_a_saved_game_that_is_a_fifo_is_named_not_waited_on(tmp_path: Path) -> None:
    """``play --resume`` and ``review`` looked at the newest game's tail with ``open``: a FIFO
    there hung them."""
    folder = tmp_path / "games"
    folder.mkdir()
    fifo = folder / f"{GAME_ID}.jsonl"
    os.mkfifo(fifo)
    found: list[object] = []

    def resume() -> None:
        path = latest_game(folder, unfinished=True)
        assert path == fifo
        try:
            load_game(path)
        except GameFileError as error:
            found.append(str(error))

    finishes(resume, fifo)
    assert found == [f"{fifo}: cannot read the saved game: a pipe (FIFO), not a regular file"]


@pytest.mark.parametrize(
    ("kind", "words"),
    [("dev-zero", "a device, not a regular file"), ("folder", "a folder, not a file")],
)
@pytest.mark.parametrize("command", [["play", "--resume"], ["review"]])
def test_a_saved_game_that_is_not_a_file(
    short_home: Path, kind: str, words: str, command: list[str]
) -> None:
    path = short_home / "games" / f"{GAME_ID}.jsonl"
    path.parent.mkdir()
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    code, out, err = run(*command)
    assert code in (1, 2) and out == ""
    assert err == f"error: {path}: cannot read the saved game: {words}\n"


def test_a_saved_game_with_deeply_nested_json_is_a_line_error(short_home: Path) -> None:
    """Before: ``RecursionError`` from ``json.loads``, 'internal error', exit 70."""
    path = short_home / "games" / f"{GAME_ID}.jsonl"
    path.parent.mkdir()
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    for command in (["play", "--resume"], ["review"]):
        code, _, err = run(*command)
        assert code in (1, 2)
        assert err == f"error: {path}:1: JSON nested too deeply\n"


# --- puzzles generate -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "house",
    ["base: standard\n", "base: classic\nname: classic\nknock_limit: 7\n"],
    ids=["house-file", "house-named-as-a-preset"],
)
def test_generate_refuses_house_rules_at_once(tmp_path: Path, house: str) -> None:
    """A puzzle names a preset (``rules: classic``): under house rules every draft failed to
    read back, and ``puzzles generate --rules house.yaml`` dealt 200,000 hands (hours) for
    nothing, without a word."""
    from gintutor.content.houserules import load_rules
    from gintutor.content.puzzlegen import generate
    from gintutor.errors import GinError
    from gintutor.tutor.puzzles import Theme

    path = tmp_path / "house.yaml"
    path.write_text(house, encoding="utf-8")
    with pytest.raises(GinError, match=r"house rules \(.*\) cannot be written into a puzzle"):
        generate({Theme.DEADWOOD: 1}, load_rules(str(path)), max_hands=3)
    code, out, err = run("puzzles", "generate", "--count", "1", "--rules", str(path))
    assert (code, out) == (2, "")
    assert err.startswith("error: --rules: house rules (") and err.count("\n") == 1, err


def test_generate_takes_a_house_file_that_is_a_preset(tmp_path: Path) -> None:
    from gintutor.content.houserules import load_rules
    from gintutor.content.puzzlegen import verify_rules

    path = tmp_path / "classic.yaml"
    path.write_text("base: classic\nname: classic\n", encoding="utf-8")
    verify_rules(load_rules(str(path)))


# --- house rules: numbers the coach cannot compute with ---------------------------------------


@pytest.mark.parametrize("target", ["1001", "100000", "9" * 26])
def test_a_house_target_over_the_limit_is_a_line_error(tmp_path: Path, target: str) -> None:
    """The coach's game-win chance is a table of target² entries: a review or a coached game
    under ``target: 100000`` was a MemoryError (exit 70), under 10^26 an OverflowError (exit 70),
    and under 5000 over two minutes of CPU."""
    from gintutor.content.houserules import load_rules
    from gintutor.errors import RulesError

    path = tmp_path / "house.yaml"
    path.write_text(f"base: standard\ntarget: {target}\n", encoding="utf-8")
    with pytest.raises(RulesError, match=f"house.yaml:2: target: {target} is too high"):
        load_rules(str(path))
    path.write_text("base: standard\ntarget: 1000\n", encoding="utf-8")
    assert load_rules(str(path)).target == 1000


def test_review_of_a_log_under_a_huge_target_in_a_small_process(
    tmp_path: Path, short_tmp: Path
) -> None:
    house = short_tmp / "house.yaml"
    house.write_text("base: standard\ntarget: 100000\n", encoding="utf-8")
    example = Path(__file__).parents[1] / "examples" / "game.txt"
    log = tmp_path / "game.txt"
    log.write_text(
        example.read_text(encoding="utf-8").replace("rules: standard", f"rules: {house}"),
        encoding="utf-8",
    )
    done = limited("review", str(log), "--worlds", "4", "--jobs", "1", home=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.endswith(
        f"{house}:2: target: 100000 is too high: gintutor plays to at most 1000 points\n"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("base: classic\nknock_limit: 8\nknock_limit: 9\n", ":3: knock_limit is set twice"),
        ("base: classic\nbase: standard\n", ":2: base is set twice (first at line 1)"),
        ("{base: classic, gin_bonus: 20, gin_bonus: 0}\n", ":1: gin_bonus is set twice"),
    ],
    ids=["setting", "base", "flow"],
)
def test_a_house_setting_given_twice_is_a_line_error(
    short_tmp: Path, text: str, message: str
) -> None:
    """YAML keeps the last of two equal keys: ``knock_limit: 8`` then ``knock_limit: 9`` was
    read as 9, and a second ``base:`` replaced the first, without a word."""
    path = short_tmp / "house.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("rules", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {path}{message}") and err.count("\n") == 1, err


# --- --jobs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["puzzles", "check"],
        ["puzzles", "generate", "--count", "1"],
        ["match", "novice", "simple", "--games", "4"],
        ["review"],
    ],
    ids=["check", "generate", "match", "review"],
)
@pytest.mark.parametrize("jobs", ["65", "9" * 29])
def test_jobs_over_the_limit_are_refused_before_any_process_starts(
    home: Path, command: list[str], jobs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each job is a forked process: ``puzzles generate --jobs 99999`` started 909 of them in
    6 s (``multiprocessing.Pool(jobs)``), as ``match`` would with enough games."""
    import multiprocessing
    import multiprocessing.context

    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError("a process pool was started")

    monkeypatch.setattr(multiprocessing, "Pool", no_pool)
    monkeypatch.setattr(multiprocessing.context.ForkContext, "Pool", no_pool)
    code, out, err = run(*command, "--jobs", jobs)
    assert (code, out) == (2, "")
    assert err.startswith(
        "error: Invalid value for '--jobs' / '-j': Input should be less than or equal to 64"
    ), err


# --- --out --------------------------------------------------------------------------------------


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_generate_out_in_a_folder_that_takes_no_file_is_refused_before_the_work() -> None:
    """``/proc`` passes the permission check for root but takes no new file: the puzzles were
    generated (hours for --count 1000), then lost on writing."""
    code, out, err = run(
        "puzzles", "generate", "--count", "1", "--theme", "deadwood", "--out", "/proc/x.yaml"
    )
    assert (code, out) == (2, "")
    assert err.startswith("error: --out /proc/x.yaml: cannot write in /proc ("), err


# --- carousel analyze --------------------------------------------------------------------------


def test_carousel_analyze_refuses_a_hand_too_big_to_solve(tmp_path: Path) -> None:
    """65 cards and 2 jokers of two decks: the relaxed bound's memo passed 1 GB (MemoryError,
    'internal error', exit 70, after 5 s of CPU); now one line at once."""
    import random

    deck = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
    hand = [*random.Random(3).sample(deck * 2, 65), "JK", "JK"]
    done = limited("carousel", "analyze", "--players", "5", "--hand", " ".join(hand), home=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "error: --hand: 67 cards: gintutor analyses a hand of at most 40 cards (a round deals 10)\n"
    )
    code, _, err = run("carousel", "analyze", "--hand", " ".join(deck[:40]), "--players", "2")
    assert code == 0 and "error" not in err, err


# --- text that looks like Rich markup -----------------------------------------------------------


def test_a_rule_set_name_like_rich_markup_is_shown_as_written(tmp_path: Path) -> None:
    """A table's headers were read as Rich markup: a house rule set named ``[/oops]`` made
    ``rules --diff`` a MarkupError ('internal error', exit 70)."""
    path = tmp_path / "house.yaml"
    path.write_text('base: classic\nname: "[/oops] [bold]x"\n', encoding="utf-8")
    code, out, err = run("rules", "--diff", str(path), "standard")
    assert (code, err) == (0, ""), err
    assert out.splitlines()[0].split() == ["setting", "[/oops]", "[bold]x", "standard"]


def test_player_names_like_rich_markup_are_shown_as_written() -> None:
    code, out, err = run("score", "A knock 12", "--players", "[/x],[b]B")
    assert (code, err) == (0, ""), err
    assert out.splitlines()[1].split() == ["hand", "result", "[/x]", "[b]B"]
    code, out, err = run("carousel", "score", "[/x] knock 3, B 12, C 20")
    assert (code, err) == (0, ""), err
    assert "[/x]" in out.splitlines()[0]


@pytest.mark.parametrize(
    "args",
    [["score", "A knock 12", "--players", "\x1b[2J,B"], ["rules", "{house}"]],
    ids=["player", "rule-set-name"],
)
def test_escape_sequences_from_input_are_shown_not_sent(tmp_path: Path, args: list[str]) -> None:
    """A player's or a rule set's name reached the terminal raw: ESC [2J cleared the screen,
    ESC ] 0; set the window's title."""
    house = tmp_path / "house.yaml"
    house.write_text('base: classic\nname: "a\\x1b]0;title\\x07b\\x1b[2J"\n', encoding="utf-8")
    code, out, err = run(*(arg.format(house=house) for arg in args))
    assert (code, err) == (0, ""), err
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b[2J" in out


def test_a_piped_answer_is_echoed_without_its_control_characters() -> None:
    """Piped answers are echoed for the transcript: the bytes ESC [2J went to the terminal."""
    import io

    from gintutor.cli.prompts import PlainAsker, Prompt

    out = io.StringIO()
    asker = PlainAsker(io.StringIO("\x1b[2Jdraw\r\n"), out)
    assert asker.ask(Prompt("Draw?")) == "\x1b[2Jdraw\r"  # the reader strips it, as before
    assert out.getvalue() == "Draw? \\x1b[2Jdraw\n"


@pytest.mark.parametrize("force", [False, True], ids=["refused", "forced"])
def test_generate_out_refuses_an_existing_file_unless_forced(tmp_path: Path, force: bool) -> None:
    """``--out puzzles/outs.yaml`` once replaced the shipped pack with 19 lines, exit 0: an
    existing file is refused before the work, kept byte for byte, unless ``--force``."""
    target = tmp_path / "outs.yaml"
    target.write_text("puzzles: []  # the author's pack\n", encoding="utf-8")
    args = ["puzzles", "generate", "--count", "1", "--theme", "deadwood", "--out", str(target)]
    code, out, err = run(*args, *(["--force"] if force else []))
    if force:
        assert code == 0, err
        assert "id: deadwood-" in target.read_text(encoding="utf-8")
    else:
        assert (code, out) == (2, "")
        assert err.startswith("error: --out ") and "exists" in err and "--force" in err, err
        assert target.read_text(encoding="utf-8") == "puzzles: []  # the author's pack\n"


@pytest.mark.parametrize(
    "args",
    [["play", "--resume"], ["review"], ["carousel", "puzzle"], ["learn", "--list"], ["puzzle"]],
    ids=["resume", "review", "carousel-puzzle", "learn", "puzzle"],
)
def test_a_data_folder_name_over_255_bytes_is_an_error_not_a_bug(
    short_tmp: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    """``GINTUTOR_HOME`` with a name the system cannot hold was exit 70 (``OSError: File name
    too long``) on ``play --resume``, ``review`` and ``carousel puzzle``."""
    monkeypatch.setenv("GINTUTOR_HOME", str(short_tmp / ("x" * 300)))
    code, _, err = run(*args, stdin="")
    assert code == 2, (code, err)
    assert err.startswith("error: GINTUTOR_HOME: a name in it is longer than 255 bytes"), err


# --- lessons check on hands of every size ------------------------------------------------------

_ORDER = [rank + suit for rank in "A23456789TJQK" for suit in "CDHS"]


def _question(kind: str, cards: int) -> str:
    hand = " ".join((_ORDER * 2)[:cards])
    body = {
        "deadwood": f'    hand: "{hand}"\n    expect: 1\n',
        "melds": f'    hand: "{hand}"\n    expect: "-"\n',
        "discard": f'    hand: "{hand}"\n    expect: AC\n',
        "choice": f'    options: ["{hand}", "AC"]\n    predicate: least-deadwood\n    expect: b\n',
        "carousel-play": f'    hand: "{hand}"\n    players: 5\n    expect: "-"\n',
    }[kind]
    game = "game: carousel\n" if kind.startswith("carousel") else ""
    return (
        f"id: big\ntitle: Big\nlevel: beginner\n{game}summary: x\nconcepts: [x]\nsteps:\n"
        f"  - question: {kind}\n    prompt: How much?\n{body}"
    )


@pytest.mark.parametrize(
    ("kind", "cards", "most"),
    first_fast(
        ("deadwood", 44, "1 to 11"),
        ("deadwood", 52, "1 to 11"),
        ("melds", 48, "1 to 11"),
        ("melds", 12, "1 to 11"),
        ("discard", 10, "11"),
        ("choice", 44, "1 to 11"),
        ("carousel-play", 80, "1 to 40"),
    ),
)
def test_lessons_check_bounds_every_hand_size(
    short_tmp: Path, kind: str, cards: int, most: str
) -> None:
    """A ``deadwood`` question of 44 cards took 25 s and 1.9 GB, 48 to 52 cards were a
    MemoryError (exit 70), a ``discard`` question of 10 cards an IndexError (exit 70), a
    Carousel hand of 80 cards ran for minutes: each is now a line error, in a small process."""
    text = _question(kind, cards)
    (short_tmp / "01-big.yaml").write_text(text, encoding="utf-8")
    done = limited("lessons", "check", str(short_tmp), home=short_tmp)
    assert done.returncode == 1, done.stderr
    key = "options" if kind == "choice" else "hand"
    line = 1 + [row.strip().split(":")[0] for row in text.splitlines()].index(key)
    assert f"01-big.yaml:{line}: {key}: {cards} cards: " in done.stderr + done.stdout
    assert f"has {most} cards" in done.stderr + done.stdout


@pytest.mark.parametrize("command", ["lessons", "puzzles"])
def test_a_check_of_a_folder_with_nothing_in_it_is_not_all_good(
    short_tmp: Path, command: str
) -> None:
    (short_tmp / "notes.txt").write_text("nothing here\n", encoding="utf-8")
    code, out, err = run(command, "check", str(short_tmp))
    assert (code, out) == (1, ""), (code, out)
    assert err.startswith(f"error: {short_tmp}: no ") and "nothing was checked" in err


def test_a_match_stopped_by_a_game_without_a_winner_reports_the_games_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under extreme (legal) house rules a game can go on past the cap: the match printed
    nothing but the error; now the pairs played before it are reported, then the error."""
    from gintutor.engine import match

    monkeypatch.setattr(match, "MAX_HANDS", 2)
    house = tmp_path / "house.yaml"
    house.write_text("base: standard\ntarget: 25\n", encoding="utf-8")
    args = ["match", "novice", "novice", "--games", "10", "--seed", "1", "--rules", str(house)]
    code, out, err = run(*args, "--jobs", "1")
    assert code == 1
    assert "novice points per hand" in out
    assert err == (
        "error: the match stopped early (game 1:2: no winner after 2 hands): the report "
        "covers the 4 games played before it\n"
    )
    code, out, err = run(*args, "--jobs", "1", "--json")
    assert code == 1 and json.loads(out)["stopped"] == "game 1:2: no winner after 2 hands"
    assert json.loads(out)["games"] == 4
