"""Start-up: each command imports and reads only what it uses (issue 8, section 2), with the
same results as the full, careful way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from loaded import modules_after

from gintutor.content import yamlread
from gintutor.content.problems import Problem
from gintutor.content.yamlread import compose
from gintutor.errors import GinError

ROOT = Path(__file__).resolve().parent.parent

HOSTILE = {
    "plain": "a: 1\nb: [x, y]\nc: {d: e}\n",
    "empty": "",
    "comment only": "# nothing\n",
    "tag": "a: 1\nb: !!python/name:os.system x\n",
    "local tag": "a: !local 3\n",
    "binary": "a: !!binary AAAA\n",
    "timestamp tag": "a: !!timestamp 2001-01-01\n",
    "timestamp value": "a: 2001-01-01\n",
    "merge key": "a: &a {x: 1}\nb:\n  <<: *a\n",
    "bad int": "a: !!int abc\n",
    "alias": "a: &a [1, 2]\nb: *a\n",
    "many aliases": "a: &a [1]\n" + "".join(f"k{n}: *a\n" for n in range(60)),
    "recursive alias": "a: &a [1, *a]\n",
    "undefined alias": "a: *nope\n",
    "syntax": "a: 1\nb: c: d\n",
    "tag then syntax": "a: !!binary AAAA\nb: [\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "deep flow": "[" * 2_000 + "]" * 2_000,
    "deep block": "".join("  " * n + "a:\n" for n in range(150)),
    "just deep enough": "[" * 100 + "]" * 100,
    "one too deep": "[" * 101 + "]" * 101,
}


def _problems(result: tuple[yaml.Node | None, list[Problem]]) -> object:
    node, problems = result
    return (node is None, [str(problem) for problem in problems])


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_one_pass_reading_finds_what_the_careful_reading_finds(name: str) -> None:
    """libyaml's one pass (build, then one walk) gives exactly the problems, lines and tree of
    the event-stream check that runs first for unusual documents."""
    text = HOSTILE[name]
    fast = compose("f.yaml", text)
    careful = yamlread._checked_first("f.yaml", text)
    assert _problems(fast) == _problems(careful)
    if fast[0] is not None and careful[0] is not None:
        assert yaml.serialize(fast[0]) == yaml.serialize(careful[0])


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_pure_loader_reads_as_libyaml_does(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without libyaml every document still gets the same problems (a syntax error in the pure
    parser's words in both; an undefined alias is worded by each composer its own way)."""
    if name.startswith("deep") or name == "undefined alias":
        pytest.skip("the pure scanner is quadratic in the nesting depth; composers' own words")
    expected = _problems(compose("f.yaml", HOSTILE[name]))
    monkeypatch.setattr(yamlread, "_Loader", yaml.SafeLoader)
    assert _problems(compose("f.yaml", HOSTILE[name])) == expected


def test_shipped_content_takes_the_one_pass() -> None:
    """Every shipped lesson and puzzle file is plain YAML: read in one pass of libyaml."""
    files = [*ROOT.glob("lessons/*.yaml"), *ROOT.glob("puzzles/**/*.yaml")]
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert len(text) <= yamlread.ONE_PASS_CHARS, path
        root = yaml.compose(text, Loader=yamlread._Loader)
        assert root is not None and yamlread._plain(root), path


def test_a_reason_about_no_card_names_the_engine_s_no_card() -> None:
    """engine.judgement spells the hand's NO_CARD as -1 (so reading verdicts needs no hand)."""
    from gintutor.engine.hand import NO_CARD
    from gintutor.engine.judgement import Reason, ReasonKind

    assert Reason(ReasonKind.GIN).other == NO_CARD


@pytest.mark.slow  # every puzzle of the pack, ~2 s CPU
def test_one_puzzle_is_read_from_its_entry_as_the_full_read_reads_it() -> None:
    """``load_puzzle`` parses only the entry of the puzzle asked for: the same puzzle (every
    field, its line) as reading the whole file, for every shipped puzzle."""
    from gintutor.content.packtext import entry_only
    from gintutor.content.puzzles import load_puzzle, load_puzzles, pack_index

    index = pack_index()
    full = load_puzzles()
    assert sorted(index) == [p.id for p in full]
    for puzzle in full:
        text = (ROOT / puzzle.path).read_text(encoding="utf-8")
        assert entry_only(text, puzzle.id) is not None, puzzle.id
        assert load_puzzle(puzzle.id, index) == puzzle


QUOTED = "puzzles:\n  - id: 'a'  # c\n    t: |\n      x\n\n      y\n  # note\nz: 1\n"


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("puzzles:\n- id: a\n  t: 1\n- id: b\n", "puzzles:\n- id: a\n  t: 1\n"),
        (QUOTED, QUOTED.removesuffix("z: 1\n")),
        ("puzzles:\n  - id: a\n  - id: a\n", None),
        ("- id: a\n", None),
    ],
    ids=["flush", "quoted", "twice", "first-line"],
)
def test_an_entry_ends_at_the_next_line_as_shallow_as_its_dash(
    text: str, entry: str | None
) -> None:
    from gintutor.content.packtext import entry_only

    assert entry_only(text, "a") == entry


def test_the_pack_cache_gives_the_puzzles_and_verdicts_of_a_full_read(tmp_path: Path) -> None:
    """The first start reads the whole pack and stores it; the next takes every puzzle (and its
    stored verdict) from the cache, equal to what reading the YAML gives."""
    from gintutor.content import puzzlepack
    from gintutor.content.puzzles import load_puzzles
    from gintutor.content.verdicts import load_verdicts, stored_verdict

    cache = tmp_path / "cache" / "puzzles.json"
    first = puzzlepack.shipped_pack(cache)
    assert first._lines is None and cache.is_file()
    second = puzzlepack.shipped_pack(cache)
    assert second._lines is not None
    full = load_puzzles()
    table = load_verdicts()
    assert second.index == first.index
    assert second.puzzles() == full
    for puzzle in full:
        assert stored_verdict(puzzle, second.verdicts(puzzle)) == stored_verdict(puzzle, table)


def test_a_stale_or_damaged_pack_cache_is_passed_by(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gintutor.content import puzzlepack
    from gintutor.content.puzzles import load_puzzle

    cache = tmp_path / "puzzles.json"
    puzzlepack.shipped_pack(cache)
    text = cache.read_text(encoding="utf-8")
    head, rest = text.split("\n", 1)
    cache.write_text(head + "\n" + rest.replace('{"id": "outs-049",', '{"id": "outs-049",,'))
    pack = puzzlepack.shipped_pack(cache)
    assert pack._lines is not None
    assert pack.puzzle("outs-049") == load_puzzle("outs-049")  # the bad line: read from YAML
    with pytest.raises(GinError, match="no puzzle 'nope'"):
        pack.puzzle("nope")
    monkeypatch.setattr(puzzlepack, "_key", lambda: "another key")
    assert puzzlepack.shipped_pack(cache)._lines is None  # stale: read again and stored
    assert puzzlepack.shipped_pack(cache)._lines is not None
    cache.write_bytes(b"\xff\xfe not json")
    assert puzzlepack.shipped_pack(cache)._lines is None


def test_no_pack_is_read_whole_for_a_cache_that_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gintutor.content import cachefile, puzzlepack, puzzles

    def unread(*args: object, **kwargs: object) -> None:
        raise AssertionError("the whole pack was read")

    monkeypatch.setattr(puzzlepack, "can_store", lambda path: False)
    monkeypatch.setattr(puzzles, "check_puzzles", unread)
    pack = puzzlepack.shipped_pack(tmp_path / "puzzles.json")
    assert pack.puzzle("outs-049").id == "outs-049"
    monkeypatch.undo()
    assert cachefile.can_store(tmp_path / "new" / "folders" / "puzzles.json")
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    assert not cachefile.can_store(tmp_path / "a-file" / "puzzles.json")


@pytest.mark.slow  # every puzzle of the pack, ~2 s CPU
def test_puzzle_json_is_the_same_from_the_cache(tmp_path: Path) -> None:
    outputs = [
        modules_after("puzzle", "--id", puzzle_id, "--json", home=tmp_path)[1]
        for puzzle_id in ("knock-or-play-001", "deadwood-001", "knock-or-play-001")
    ]
    assert (tmp_path / "cache" / "puzzles.json").is_file()
    assert outputs[0] == outputs[2] and json.loads(outputs[1])["id"] == "deadwood-001"


def test_a_lesson_read_once_is_kept_and_equals_the_yaml_reading(tmp_path: Path) -> None:
    """A lesson run is read in full once, then taken from the data folder (no YAML); every
    shipped lesson comes back equal to its reading."""
    from gintutor.content.lessons import load_lessons, load_outlines

    cache = tmp_path / "cache" / "lesson-outlines.json"
    read = load_lessons()
    first = [outline.lesson() for outline in load_outlines(cache=cache)]
    assert first == read
    assert len(list((tmp_path / "cache" / "lessons").glob("*.pickle"))) == len(read)
    again = [outline.lesson() for outline in load_outlines(cache=cache)]
    assert again == read and [a.number for a in again] == [r.number for r in read]
    _, out = modules_after("learn", "1", home=tmp_path)  # the lessons are kept already
    assert "Lesson 1" in out


def test_a_kept_lesson_is_used_only_for_its_text_and_only_if_it_is_gintutor_s(
    tmp_path: Path,
) -> None:
    import pickle

    from gintutor.content import lessons

    text = (ROOT / "lessons" / "01-cards.yaml").read_text(encoding="utf-8")
    store = tmp_path / "lessons"
    kept = store / "01-cards.pickle"
    lesson = lessons._load_one(text, "lessons/01-cards.yaml", 1, store)
    assert kept.is_file()
    assert lessons._load_one(text, "lessons/01-cards.yaml", 1, store) == lesson
    changed = text.replace("title:", "title: Changed", 1)
    other = lessons._load_one(changed, "lessons/01-cards.yaml", 1, store)
    assert other.title.startswith("Changed")  # another text: read again (and kept)
    key = lessons._lesson_key(text, "lessons/01-cards.yaml")
    kept.write_bytes(pickle.dumps((key, print)))  # a builtin: never unpickled
    assert lessons._kept_lesson(kept, key) is None
    from gintutor.content import cachefile

    for foreign in (cachefile.keep, GinError("x")):  # a function; a class but no record
        kept.write_bytes(pickle.dumps((key, foreign)))
        assert lessons._kept_lesson(kept, key) is None
    kept.write_bytes(b"not a pickle")
    assert lessons._kept_lesson(kept, key) is None
    assert lessons._load_one(text, "lessons/01-cards.yaml", 1, store) == lesson


def test_one_carousel_puzzle_is_read_from_its_entry_as_the_full_read_reads_it() -> None:
    from gintutor.cli.carouselpuzzlepick import carousel_puzzle
    from gintutor.content.carouselpuzzles import carousel_pack_files, load_carousel_puzzles
    from gintutor.content.packtext import ID_LINE

    full = load_carousel_puzzles()
    ids = [m.group(1) for _, text in carousel_pack_files() for m in ID_LINE.finditer(text)]
    assert sorted(ids) == sorted(p.id for p in full)
    for puzzle in full:
        assert carousel_puzzle(puzzle.id) == puzzle
    with pytest.raises(GinError, match="no Carousel puzzle 'nope'"):
        carousel_puzzle("nope")


def test_the_carousel_pack_kept_gives_the_puzzles_of_a_full_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Carousel pack read cleanly once is kept (pickled: only gintutor's classes are ever
    unpickled); every puzzle taken from it equals the full read's, errors are the reader's."""
    from gintutor.cli import carouselpuzzlepick as pick
    from gintutor.content import carouselpuzzles

    full = carouselpuzzles.load_carousel_puzzles()
    cache = tmp_path / "carousel-puzzles.pickle"
    assert pick.carousel_puzzle(full[0].id, cache) == full[0]
    assert cache.is_file()

    def unread(*args: object, **kwargs: object) -> None:
        raise AssertionError("the pack was read again")

    monkeypatch.setattr(pick, "check_carousel_puzzles", unread)
    for puzzle in full:
        assert pick.carousel_puzzle(puzzle.id, cache) == puzzle
    with pytest.raises(GinError, match="no Carousel puzzle 'nope'"):
        pick.carousel_puzzle("nope", cache)
    monkeypatch.undo()
    cache.write_bytes(b"damaged")
    assert pick.carousel_puzzle(full[-1].id, cache) == full[-1]


JOKER_TABLE = (
    "AC 2C 3C 4C | 5D 6D 7D 8D | 9H TH JH QH | KS KD KH KC | 2S 3S 4S 5S | 7C 7D 7H | "
    "TC JC QC KC | 9S 9D JK=9C"
)


BIG_TABLE = (
    "AC AD AS | AC AH AS | 5C 5H 5S | 6C 6H 6S | 7C 7D 7H | 8C 8D 8H | 9C 9H 9S | QC QD QH | "
    "KC KD KH KS | 8C 9C TC JC QC | 4D 5D 6D 7D | 8D 9D TD | JD QD KD | AH 2H 3H | 3H 4H 5H 6H | "
    "2S 3S 4S | 6S 7S JK=8S | TS JS QS KS"
)


def test_carousel_analyze_loads_highs_only_past_the_budget_and_never_numpy(
    tmp_path: Path,
) -> None:
    """Issue 22: a 30-card table with a joker is solved by the dynamic programme within its
    budget (no HiGHS); a 60-card table by HiGHS, whose bindings are loaded without numpy (the
    reason for ``highs._bindings``: numpy is half the minimal app's start)."""
    argv = ("carousel", "analyze", "--table", JOKER_TABLE, "--hand", "6C 8C 6H 5S 9C")
    modules, out = modules_after(*argv, home=tmp_path)
    assert "JK" in out or "joker" in out.lower()
    assert {"highspy", "highspy._core", "numpy"}.isdisjoint(modules)
    hand = "4C 5C 7C AD 4D JD TH QH 3S 8S TS"
    big = ("carousel", "analyze", "--table", BIG_TABLE, "--hand", hand)
    modules, out = modules_after(*big, home=tmp_path)
    assert "69" in out
    assert "highspy._core" in modules and "numpy" not in modules


def test_puzzle_stats_before_any_puzzle(tmp_path: Path) -> None:
    _, out = modules_after("puzzle", "--stats", home=tmp_path)
    assert "No puzzle played yet" in out


@pytest.mark.parametrize(
    ("argv", "absent"),
    [
        # The app declares every command; none of their work is loaded to list them.
        (("--help",), ("gintutor.engine", "gintutor.content.lessons", "rich", "yaml")),
        # Rich is loaded by shared.terminal(), when a command prints text (measured there).
        (("analyze", "7C 7D 7H 5H 6H 8H AS 2S 3S KD", "--json"), ("rich",)),
        # prompt-toolkit only on an interactive terminal; the coach not before the first prompt.
        (("play", "--seed", "1"), ("prompt_toolkit", "gintutor.engine.coach")),
        # A lesson's shown hand and its question kinds' engine, not at its first prompt.
        (("learn", "1"), ("prompt_toolkit", "gintutor.engine.analysis", "yaml")),
    ],
    ids=["help", "analyze-json", "play", "learn"],
)
def test_a_command_loads_only_what_it_runs(
    argv: tuple[str, ...], absent: tuple[str, ...], tmp_path: Path
) -> None:
    """The lazy boundaries kept for a measured reason (issue 24) hold: each command's start
    leaves these modules unloaded (standard input is not a terminal here)."""
    modules_after(*argv, home=tmp_path)  # the first start fills the data folder's caches
    modules, _ = modules_after(*argv, home=tmp_path)
    assert set(absent).isdisjoint(modules)
