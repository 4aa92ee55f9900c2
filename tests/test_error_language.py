"""Error messages in the reader's language: the engine raises a template with named values
(``str(error)`` stays English), the command line translates it where it prints ``error: ...``
(``feil: ...`` in Norwegian); ``--json`` output never changes with the language."""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from clirun import invoke

from gintutor.engine.cards import Card, parse_hand
from gintutor.errors import CardError, GinError
from gintutor.text import i18n
from gintutor.text.i18n import error_text

pytest.importorskip("babel")

PREFIX = {"en": "error: ", "id": "galat: ", "pt_BR": "erro: ", "nb": "feil: "}
"""What an error line starts with in each language (``warning:`` has its own)."""

UNKNOWN_SUIT = {
    "en": "error: 'ZZ': unknown suit 'Z' (use C, D, H, S or ♣ ♦ ♥ ♠)",
    "id": "galat: 'ZZ': jenis 'Z' tidak dikenal (pakai C, D, H, S atau ♣ ♦ ♥ ♠)",
    "pt_BR": "erro: 'ZZ': naipe 'Z' desconhecido (use C, D, H, S ou ♣ ♦ ♥ ♠)",
    "nb": "feil: 'ZZ': ukjent farge 'Z' (bruk C, D, H, S eller ♣ ♦ ♥ ♠)",
}

BAD_OPPONENT = {
    "en": "error: --opponent: a hand here has 10 cards, got 3",
    "id": "galat: --opponent: tangan di sini berisi 10 kartu, yang diberikan 3",
    "pt_BR": "erro: --opponent: aqui uma mão tem 10 cartas, vieram 3",
    "nb": "feil: --opponent: en hånd her har 10 kort, fikk 3",
}

BAD_SCORE = {
    "en": "error: hand 1: 'A knock x': points 'x' are not a whole number",
    "id": "galat: putaran 1: 'A knock x': poin 'x' bukan bilangan bulat",
    "pt_BR": "erro: mão 1: 'A knock x': os pontos 'x' não são um número inteiro",
    "nb": "feil: runde 1: 'A knock x': poengene 'x' er ikke et heltall",
}


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use(i18n.ENGLISH)


def test_an_error_keeps_its_template_and_values_and_its_english_message() -> None:
    with pytest.raises(CardError) as caught:
        Card.parse("ZZ")
    error = caught.value
    assert str(error) == "'ZZ': unknown suit 'Z' (use C, D, H, S or ♣ ♦ ♥ ♠)"
    assert error.template == "{token!r}: unknown suit {suit!r} (use C, D, H, S or ♣ ♦ ♥ ♠)"
    assert error.params == {"token": "ZZ", "suit": "Z"}
    copy = pickle.loads(pickle.dumps(error))  # a worker's error crosses processes whole
    assert (str(copy), copy.template, copy.params) == (str(error), error.template, error.params)


def test_a_plain_message_is_its_own_template() -> None:
    error = GinError("the game is over {not a placeholder}")
    assert str(error) == error.template == "the game is over {not a placeholder}"
    assert error.params == {}


@pytest.mark.parametrize("language", sorted(UNKNOWN_SUIT))
def test_a_nested_error_is_translated_inside_its_frame(language: str) -> None:
    i18n.use(language)
    with pytest.raises(CardError) as caught:
        parse_hand("7C 7D 7S", sizes=(10,))
    nested = GinError("{option}: {error}", option="--opponent", error=caught.value)
    assert PREFIX[language] + error_text(nested) == BAD_OPPONENT[language]


def test_a_translation_whose_placeholders_do_not_fit_shows_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    i18n.use("nb")
    catalog = i18n._catalog("gintutor")
    monkeypatch.setattr(catalog, "gettext", lambda message: "{nothing} galt")
    assert error_text(CardError("{card} appears twice", card="7C")) == "7C appears twice"


@pytest.mark.parametrize("language", sorted(UNKNOWN_SUIT))
def test_a_card_error_prints_in_the_language(language: str) -> None:
    result = invoke(["--lang", language, "analyze", "7C 7D ZZ"])
    assert result.exit_code == 2
    assert result.stderr.strip() == UNKNOWN_SUIT[language]


@pytest.mark.parametrize("language", sorted(UNKNOWN_SUIT))
def test_an_option_error_prints_in_the_language_with_its_inner_message(language: str) -> None:
    hand = "AS 2S 3S 4H 5H 6H 7D 8D 9D KC"
    result = invoke(["--lang", language, "analyze", hand, "--opponent", "7C 7D 7S"])
    assert result.exit_code == 2
    assert result.stderr.strip() == BAD_OPPONENT[language]


@pytest.mark.parametrize("language", sorted(BAD_SCORE))
def test_a_score_sheet_error_prints_in_the_language(language: str) -> None:
    result = invoke(["--lang", language, "score", "A knock x"])
    assert result.exit_code == 2
    assert result.stderr.strip() == BAD_SCORE[language]


def test_json_output_is_the_same_in_every_language() -> None:
    hand = "AS 2S 3S 4H 5H 6H 7D 8D 9D KC"
    outputs = {
        language: invoke(["--lang", language, "analyze", hand, "--json"]).stdout
        for language in UNKNOWN_SUIT
    }
    assert len(set(outputs.values())) == 1
    json.loads(outputs["en"])


NO_HEADER = {
    "en": "no game header (an empty or cut-short file)",
    "id": "tidak ada header permainan (file kosong atau terpotong)",
    "pt_BR": "sem cabeçalho de partida (um arquivo vazio ou cortado)",
    "nb": "ingen spillhode (en tom eller avkuttet fil)",
}

MISSING_RULES = {
    "en": "cannot read the house rules: No such file or directory",
    "id": "tidak bisa membaca aturan rumah: file atau folder tidak ada",
    "pt_BR": "não foi possível ler as regras da casa: arquivo ou pasta inexistente",
    "nb": "kan ikke lese husreglene: ingen slik fil eller mappe",
}


@pytest.mark.parametrize("language", sorted(NO_HEADER))
def test_a_damaged_saved_game_is_named_in_the_language(language: str, tmp_path: Path) -> None:
    game = tmp_path / "bad.jsonl"
    game.write_text("")
    result = invoke(["--lang", language, "review", str(game)])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"{PREFIX[language]}{game}: {NO_HEADER[language]}"


@pytest.mark.parametrize("language", sorted(MISSING_RULES))
def test_a_missing_file_and_its_reason_are_named_in_the_language(
    language: str, tmp_path: Path
) -> None:
    rules = tmp_path / "house.yaml"
    hand = "AS 2S 3S 4H 5H 6H 7D 8D 9D KC"
    result = invoke(["--lang", language, "analyze", "--rules", str(rules), hand])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{PREFIX[language]}{rules}: {MISSING_RULES[language]}"


def test_a_rule_the_play_breaks_is_named_in_the_language() -> None:
    from gintutor.errors import IllegalError

    error = IllegalError(
        "action {number} ({action}): {error}",
        number=3,
        action="knock 7C",
        error=IllegalError(
            "the spread leaves {deadwood} deadwood, above the knock limit of {limit}",
            deadwood=14,
            limit=10,
        ),
    )
    assert (
        str(error)
        == "action 3 (knock 7C): the spread leaves 14 deadwood, above the knock limit of 10"
    )
    i18n.use("pt_BR")
    assert error_text(error) == (
        "jogada 3 (knock 7C): as cartas baixadas deixam 14 de resto, acima do limite para "
        "bater de 10"
    )


def test_an_impossible_house_rule_is_named_in_the_language(tmp_path: Path) -> None:
    rules = tmp_path / "house.yaml"
    rules.write_text("base: classic\ngin_bonus: -5\n")
    hand = "AS 2S 3S 4H 5H 6H 7D 8D 9D KC"
    english = invoke(["analyze", "--rules", str(rules), hand])
    assert english.stderr.strip() == (
        f"error: {rules}:2: gin_bonus: -5 is impossible: a bonus cannot be negative"
    )
    norwegian = invoke(["--lang", "nb", "analyze", "--rules", str(rules), hand])
    assert norwegian.stderr.strip() == (
        f"feil: {rules}:2: gin_bonus: -5 er umulig: en bonus kan ikke være negativ"
    )


LOG_HEAD = "hand\ndealer: them\ndealt: 7C 7D 7H 5H 6H 8H AS 2S 3S KD\nupcard: 9S\n"

WRONG_TURN = {
    "en": "it is your turn (take or pass the upcard), not theirs",
    "id": "ini giliran Anda (ambil atau lewati kartu terbuka), bukan giliran lawan",
    "pt_BR": "é a sua vez (pegar ou passar a carta virada), não a do adversário",
    "nb": "det er din tur (ta eller stå over det snudde kortet), ikke deres",
}


@pytest.mark.parametrize("language", sorted(WRONG_TURN))
def test_a_game_logs_mistake_is_named_in_the_language(language: str, tmp_path: Path) -> None:
    log = tmp_path / "game.txt"
    log.write_text(LOG_HEAD + "them pass\n", encoding="utf-8")
    result = invoke(["--lang", language, "review", str(log)])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"{PREFIX[language]}{log}:5: {WRONG_TURN[language]}"


def test_a_card_placed_twice_in_a_game_log_is_named_in_the_language(tmp_path: Path) -> None:
    log = tmp_path / "game.txt"
    log.write_text(
        LOG_HEAD + "you pass\nthem pass\nyou draw 4H\nyou discard KD\nthem draw\nthem discard 4H\n",
        encoding="utf-8",
    )
    english = invoke(["review", str(log)])
    assert english.stderr.strip() == (
        f"error: {log}:10: 4H cannot be discarded by them: it was drawn from the stock (line 7)"
    )
    norwegian = invoke(["--lang", "nb", "review", str(log)])
    assert norwegian.stderr.strip() == (
        f"feil: {log}:10: 4H kan ikke være kastet av dem: det var trukket fra bunken (linje 7)"
    )
    portuguese = invoke(["--lang", "pt_BR", "review", str(log)])
    assert portuguese.stderr.strip() == (
        f"erro: {log}:10: 4H não pode ser descartada pelo adversário: já foi comprada do monte "
        "(linha 7)"
    )


def test_a_saved_games_bad_line_is_named_in_the_language() -> None:
    from gintutor.content.games import json_int

    with pytest.raises(GinError) as caught:
        json_int({"player": 2}, "player", range(2))
    nested = GinError("{path}:{number}: {error}", path="g.jsonl", number=3, error=caught.value)
    assert str(nested) == "g.jsonl:3: player is 2, not a number from 0 to 1"
    i18n.use("pt_BR")
    assert error_text(nested) == "g.jsonl:3: player é 2, não um número de 0 a 1"


NOT_A_MELD = {
    "en": "meld 1: '7H 8H 7S': not a group or a sequence (an ace is high or low)",
    "id": "kombinasi 1: '7H 8H 7S': bukan set atau seri (As boleh tinggi atau rendah)",
    "pt_BR": "combinação 1: '7H 8H 7S': não é trinca nem sequência (o ás vale alto ou baixo)",
    "nb": "kombinasjon 1: '7H 8H 7S': verken en gruppe eller en rekke (ess er høyt eller lavt)",
}


@pytest.mark.parametrize("language", sorted(NOT_A_MELD))
def test_a_carousel_tables_bad_meld_is_named_in_the_language(language: str) -> None:
    result = invoke(
        ["--lang", language, "carousel", "analyze", "--table", "7H 8H 7S", "--hand", "7C"]
    )
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{PREFIX[language]}{NOT_A_MELD[language]}"


def test_a_carousel_play_that_is_not_a_meld_yet_is_named_in_the_language() -> None:
    from gintutor.engine.carousel.cards import Hand, Table, parse_hand_cards
    from gintutor.engine.carousel.edits import Draft
    from gintutor.errors import IllegalError

    draft = Draft.begin(Table(), parse_hand_cards("7H 8H 2S")).new(["7H", "8H"])
    with pytest.raises(IllegalError) as caught:
        draft.table()
    assert str(caught.value) == "meld 1 (7H 8H) is not a meld yet: a meld has at least 3 cards"
    i18n.use("nb")
    assert error_text(caught.value) == (
        "kombinasjon 1 (7H 8H) er ikke en kombinasjon ennå: en kombinasjon har minst 3 kort"
    )
    assert isinstance(draft.hand, Hand)


IN_BOTH_HANDS = {
    "en": "error: AS is in both hands",
    "id": "galat: AS ada di kedua tangan",
    "pt_BR": "erro: AS está nas duas mãos",
    "nb": "feil: AS er på begge hendene",
}


@pytest.mark.parametrize("language", sorted(IN_BOTH_HANDS))
def test_a_card_in_both_hands_is_named_in_the_language(language: str) -> None:
    hand, opponent = "AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "AS 2C 3C 4C 5C 6C 7C 8C 9C TC"
    result = invoke(["--lang", language, "analyze", hand, "--opponent", opponent])
    assert result.exit_code == 2
    assert result.stderr.strip() == IN_BOTH_HANDS[language]


def test_a_knock_above_the_limit_is_named_in_the_language() -> None:
    from gintutor.engine.cards import CardSet
    from gintutor.engine.knocking import verify_knock
    from gintutor.engine.rules import preset
    from gintutor.errors import IllegalError

    with pytest.raises(IllegalError) as caught:
        verify_knock(CardSet.parse("AS 2S 3S 4H 5H 6H 7D 8D 9C KC QC"), preset("standard"))
    assert str(caught.value) == (
        "34 deadwood is above the knock limit of 10: shed 24 more points to knock"
    )
    i18n.use("pt_BR")
    assert error_text(caught.value) == (
        "34 de resto passa do limite para bater de 10: livre-se de mais 24 pontos para bater"
    )


NO_PUZZLE = {
    "en": "error: no puzzle 'bogus' (ids look like outs-049; 'gintutor puzzle --random' picks one)",
    "id": (
        "galat: tidak ada teka-teki 'bogus' (id-nya seperti outs-049; 'gintutor puzzle --random' "
        "memilihkan satu)"
    ),
    "pt_BR": (
        "erro: nenhum quebra-cabeça 'bogus' (os ids são como outs-049; 'gintutor puzzle "
        "--random' escolhe um)"
    ),
    "nb": "feil: ingen oppgave 'bogus' (id-er ser ut som outs-049; 'gintutor puzzle --random' "
    "velger en)",
}


@pytest.mark.parametrize("language", sorted(NO_PUZZLE))
def test_an_unknown_puzzle_is_named_in_the_language(language: str) -> None:
    result = invoke(["--lang", language, "puzzle", "--id", "bogus"])
    assert result.exit_code == 2
    assert result.stderr.strip() == NO_PUZZLE[language]


def test_an_unknown_bot_for_a_match_is_named_in_the_language() -> None:
    english = invoke(["match", "foo", "simple"])
    assert english.stderr.strip().startswith("error: unknown bot 'foo': choose one of novice, ")
    norwegian = invoke(["--lang", "nb", "match", "foo", "simple"])
    assert norwegian.stderr.strip().startswith("feil: ukjent bot 'foo': velg en av novice, ")


def test_a_lessons_bad_placeholder_is_named_in_the_language() -> None:
    from gintutor.engine.rules import preset
    from gintutor.tutor.lessons import fill_rules

    with pytest.raises(GinError) as caught:
        fill_rules("{bogus.gin_bonus}", preset("standard"))
    assert str(caught.value) == "{bogus.gin_bonus}: no rule set called 'bogus'"
    i18n.use("id")
    assert error_text(caught.value) == ("{bogus.gin_bonus}: tidak ada set aturan bernama 'bogus'")


def test_a_progress_file_set_aside_is_reported_in_the_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GINTUTOR_HOME", str(tmp_path))
    progress = tmp_path / "progress.json"
    progress.write_bytes(b"\x00\xff\xfe garbage")
    result = invoke(["--lang", "nb", "learn", "--list"])
    assert result.exit_code == 0
    (aside,) = tmp_path.glob("progress.json.corrupt-*")
    assert result.stderr.splitlines()[0] == (
        f"advarsel: {progress} var ikke gyldig fremdrift (ikke UTF-8-tekst); den ble flyttet "
        f"til {aside}, og fremdriften begynner på nytt"
    )


DAMAGED_PROGRESS = {
    "schema": b'{"version": 1, "lessons": {"cards": {"status": "new", "step": -1, "steps": {}}}}',
    "record": b'{"version": 1, "lessons": {"cards": 5}}',
    "missing key": b'{"version": 1, "puzzles": {"solved": {"outs-001": {"grade": "A"}}}}',
    "date": b'{"version": 1, "puzzles": {"daily": {"someday": {}}}}',
    "mappings": b'{"version": 1, "lessons": []}',
    "version": b'{"version": "one"}',
    "cut short": b'{"version": 1, "lessons": {"cards": ',
    "no colon": b'{"version" 1}',
    "trailing text": b'{"version": 1} and more',
    "not UTF-8": b"\x00\xff\xfe garbage",
    "nested": b"[" * 100_000,
}
"""Progress files gintutor sets aside, one for each thing that can be wrong with one."""


def _english_words(text: str) -> set[str]:
    """The words of ``text`` but quoted input (``'first_try'``) and the program's name."""
    text = re.sub(r"'[^']*'", " ", text)
    return {word.lower() for word in re.findall(r"[A-Za-z]{3,}", text)} - {"gintutor"}


# Each damage in one language in the developer loop, the two languages taking turns (~0.25 s
# CPU a case: two runs of learn --list); --run-slow reads every damage in both.
@pytest.mark.parametrize(
    ("damage", "language"),
    [
        pytest.param(
            damage,
            language,
            marks=() if (turn + side) % 2 == 0 else pytest.mark.slow,
            id=f"{damage}-{language}",
        )
        for turn, damage in enumerate(sorted(DAMAGED_PROGRESS))
        for side, language in enumerate(("id", "nb"))
    ],
)
def test_a_damaged_progress_files_reason_is_in_the_language_with_no_english_left(
    language: str, damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The warning, the reason inside it (the schema's complaint, the JSON decoder's) and all:
    no word of the English message is left but the file's keys and JSON itself."""
    monkeypatch.setenv("GINTUTOR_HOME", str(tmp_path))
    warnings = {}
    for lang in ("en", language):
        (tmp_path / "progress.json").write_bytes(DAMAGED_PROGRESS[damage])
        result = invoke(["--lang", lang, "learn", "--list"])
        assert result.exit_code == 0, result.output
        warnings[lang] = re.sub(r"\S*progress\.json\S*", "FILE", result.stderr.splitlines()[0])
    english = _english_words(warnings["en"]) - {"file", "json", "utf"}
    english -= {"lessons", "puzzles", "cards", "step", "daily", "solved", "outs", "someday"}
    left = english & _english_words(warnings[language])
    assert not left, (warnings[language], left)
    assert warnings[language] != warnings["en"]


def test_a_saved_games_damage_is_noted_in_the_language(tmp_path: Path) -> None:
    from gintutor.content.games import load_game

    header = {
        "type": "game",
        "version": 1,
        "id": "g",
        "rules": "standard",
        "bot": "novice",
        "seed": 5,
        "you": 0,
        "first_dealer": 1,
    }
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(header) + '\n{"type": "bogus"}\n', encoding="utf-8")
    (problem,) = load_game(path).problems
    assert problem == (
        f"{path}:2: unknown line type 'bogus': the game is read up to the line before it; "
        "the file is kept as it is"
    )
    i18n.use("pt_BR")
    assert error_text(problem) == (
        f"{path}:2: tipo de linha 'bogus' desconhecido: a partida é lida até a linha anterior; "
        "o arquivo fica como está"
    )


BAD_YAML_VALUE = {
    "en": "gin_bonus: 'abc' is not a valid int",
    "id": "gin_bonus: 'abc' bukan int yang sah",
    "pt_BR": "gin_bonus: 'abc' não é um int válido",
    "nb": "gin_bonus: 'abc' er ikke en gyldig int",
}


@pytest.mark.parametrize("language", sorted(BAD_YAML_VALUE))
def test_a_house_rules_bad_yaml_value_is_named_in_the_language(
    language: str, tmp_path: Path
) -> None:
    rules = tmp_path / "house.yaml"
    rules.write_text("base: classic\ngin_bonus: !!int abc\n")
    hand = "AS 2S 3S 4H 5H 6H 7D 8D 9D KC"
    result = invoke(["--lang", language, "analyze", "--rules", str(rules), hand])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{PREFIX[language]}{rules}:2: {BAD_YAML_VALUE[language]}"


def test_a_puzzle_files_problems_are_named_in_the_language(tmp_path: Path) -> None:
    pack = tmp_path / "p.yaml"
    pack.write_text("puzzles:\n  - id: x\n    bogus: 1\n", encoding="utf-8")
    english = invoke(["puzzles", "check", str(pack)])
    assert english.stdout.splitlines()[:2] == [
        f"{pack}:2: a puzzle needs title:",
        f"{pack}:3: unknown key 'bogus' in a puzzle (known: answers, difficulty, explanation, "
        "hints, id, kind, position, question, theme, title)",
    ]
    portuguese = invoke(["--lang", "pt_BR", "puzzles", "check", str(pack)])
    assert portuguese.stdout.splitlines()[:2] == [
        f"{pack}:2: um quebra-cabeça precisa de title:",
        f"{pack}:3: chave 'bogus' desconhecida em um quebra-cabeça (conhecidas: answers, "
        "difficulty, explanation, hints, id, kind, position, question, theme, title)",
    ]


def test_a_lesson_files_problems_are_named_in_the_language(tmp_path: Path) -> None:
    lesson = tmp_path / "l.yaml"
    lesson.write_text("id: Bad_Id\ntitle: x\nlevel: expert\nsteps:\n  - prose: hi\n")
    english = invoke(["lessons", "check", str(lesson)])
    assert english.stdout.splitlines()[:2] == [
        f"{lesson}:1: id: 'Bad_Id': use lowercase letters, digits and -",
        f"{lesson}:3: level: use beginner, intermediate or advanced",
    ]
    indonesian = invoke(["--lang", "id", "lessons", "check", str(lesson)])
    assert indonesian.stdout.splitlines()[:2] == [
        f"{lesson}:1: id: 'Bad_Id': pakai huruf kecil, angka dan -",
        f"{lesson}:3: level: pakai beginner, intermediate atau advanced",
    ]


def test_a_puzzles_position_problems_are_named_in_the_language(tmp_path: Path) -> None:
    pack = tmp_path / "q.yaml"
    pack.write_text(
        "puzzles:\n  - id: x\n    title: t\n    question: q\n    theme: deadwood\n"
        "    difficulty: 1\n    answers: [AS]\n    position:\n      hand: AS 2S\n"
        "      stock_size: -1\n",
        encoding="utf-8",
    )
    english = invoke(["puzzles", "check", str(pack)])
    assert english.stdout.splitlines()[:2] == [
        f"{pack}:9: position: the hand has 2 cards: expected 11",
        f"{pack}:10: stock_size: expected a whole number >= 0",
    ]
    portuguese = invoke(["--lang", "pt_BR", "puzzles", "check", str(pack)])
    assert portuguese.stdout.splitlines()[:2] == [
        f"{pack}:9: position: a mão tem 2 cartas: esperava 11",
        f"{pack}:10: stock_size: esperava um número inteiro >= 0",
    ]


def test_a_list_of_content_problems_raised_as_one_error_is_translated_line_by_line() -> None:
    from gintutor.content.lessons import read_lesson
    from gintutor.content.problems import problems_error
    from gintutor.tutor.lessons import LessonError

    text = "id: Bad_Id\ntitle: x\nlevel: expert\nsteps:\n  - prose: hi\n"
    _lesson, problems = read_lesson(text, "l.yaml", engine=False)
    error = problems_error(problems, LessonError)
    assert isinstance(error, LessonError)
    assert str(error) == "\n".join(str(problem) for problem in problems)
    assert str(error).splitlines()[:2] == [
        "l.yaml:1: id: 'Bad_Id': use lowercase letters, digits and -",
        "l.yaml:3: level: use beginner, intermediate or advanced",
    ]
    i18n.use("id")
    assert error_text(error).splitlines()[:2] == [
        "l.yaml:1: id: 'Bad_Id': pakai huruf kecil, angka dan -",
        "l.yaml:3: level: pakai beginner, intermediate atau advanced",
    ]


def _one_puzzle_with_a_claim(tmp_path: Path) -> tuple[Path, int]:
    """The pack's first deadwood puzzle, its explanation stating a number in words."""
    source = Path("puzzles/deadwood.yaml").read_text(encoding="utf-8")
    entry = source[: source.index("\n  - id:", source.index("- id:") + 1)] + "\n"
    broken = entry.replace('explanation: "', 'explanation: "It leaves 7 deadwood. ', 1)
    path = tmp_path / "one.yaml"
    path.write_text(broken, encoding="utf-8")
    return path, broken[: broken.index("explanation:")].count("\n") + 1


FACT_CLAIM = {
    "en": "the explanation states '7' in words, not from the engine: write it with a "
    "placeholder such as",
    "nb": "forklaringen påstår '7' med ord, ikke fra motoren: skriv det med en plassholder som",
    "pt_BR": "a explicação afirma '7' com palavras, não a partir do motor: escreva com um "
    "marcador como",
}


@pytest.mark.parametrize("language", sorted(FACT_CLAIM))
def test_a_puzzle_rule_violation_is_named_in_the_language(language: str, tmp_path: Path) -> None:
    path, line = _one_puzzle_with_a_claim(tmp_path)
    result = invoke(["--lang", language, "puzzles", "check", str(path)])
    reported = [text for text in result.stdout.splitlines() if "[facts]" in text]
    assert len(reported) == 1, result.stdout
    assert reported[0].startswith(f"{path}:{line}: deadwood-")
    assert f"[facts] {FACT_CLAIM[language]} " in reported[0]


def test_a_puzzle_history_violation_is_named_in_the_language() -> None:
    """The rule read directly: ``puzzles check FILE`` would judge the position at the puzzle
    budget first (~19 s of CPU) and frames every rule's message alike (the puzzle rules'
    tests above run it in the author's language)."""
    from gintutor.content.puzzlerules import history_violations
    from gintutor.content.puzzles import read_puzzles

    text = (
        "puzzles:\n  - id: upcard-x\n    title: t\n    theme: upcard\n    difficulty: 1\n"
        "    position:\n      hand: 3C 4C 6C 7C 5D 3H 6H AS 2S 5S\n      upcard: KC\n"
        "      opponent_known: JS JH\n      stock_size: 31\n"
        "    question: Take or draw?\n    answers: [draw]\n    hints: [One., Two.]\n"
        "    explanation: Why.\n"
    )
    (puzzle,), problems = read_puzzles(text, "u.yaml")
    assert problems == []
    (violation,) = history_violations(puzzle)
    assert violation.message.startswith("the upcard is the hand's first (stock 31, ")
    i18n.use("pt_BR")
    assert error_text(violation.message) == (
        "a carta virada é a primeira da mão (monte 31, nenhum descarte ainda): ninguém "
        "comprou, então o adversário não pode ter pegado, jogado fora ou recusado nada (2 "
        "pegas, 0 jogadas fora, 0 recusadas)."
    )


def test_a_daily_puzzles_margin_is_written_with_the_languages_decimal_sign() -> None:
    from gintutor.content.puzzlerules import idea_violations
    from gintutor.engine.cards import CardSet
    from gintutor.engine.evaluate import Position
    from gintutor.engine.rules import preset
    from gintutor.tutor.puzzles import Grade, Puzzle, Row, Solution, Theme

    hand = CardSet.parse("2C 3C 4C 7D 8D 9D 5H 5S QC KD KH")
    position = Position(hand, preset("standard"), stock_size=20)
    puzzle = Puzzle("t", "t", Theme.KNOCK_OR_PLAY, 1, position, "?", (), (), "")
    rows = (
        Row("knock", 0.0, 0.0, Grade.BEST),
        Row("play-on", -1.5, 1.5, Grade.MISTAKE),
    )
    (violation,) = idea_violations(puzzle, Solution(puzzle, rows, None, None))
    english = (
        "the best beats play-on by only 1.5 expected points (at least 2 makes a daily puzzle): "
        "label it kind: close-call, or drop it."
    )
    assert violation.message == english
    assert error_text(violation.message) == english
    i18n.use("nb")
    assert error_text(violation.message) == (
        "det beste slår play-on med bare 1,5 forventede poeng (en daglig oppgave krever minst "
        "2): merk den kind: close-call, eller fjern den."
    )
    i18n.use("id")
    assert error_text(violation.message) == (
        "yang terbaik hanya unggul 1,5 poin harapan atas play-on (teka-teki harian butuh "
        "selisih minimal 2): tandai kind: close-call, atau hapus saja."
    )


SHARE_LINES = {
    "en": (
        "gintutor daily 2026-12-10: first try, no hints",
        "gintutor daily 2026-12-10: mistake, 2 hints",
    ),
    "id": (
        "gintutor daily 2026-12-10: langsung benar, tanpa petunjuk",
        "gintutor daily 2026-12-10: kesalahan, 2 petunjuk",
    ),
    "pt_BR": (
        "gintutor daily 2026-12-10: de primeira, sem dicas",
        "gintutor daily 2026-12-10: erro, 2 dicas",
    ),
    "nb": (
        "gintutor daily 2026-12-10: på første forsøk, ingen hint",
        "gintutor daily 2026-12-10: feil, 2 hint",
    ),
}


@pytest.mark.parametrize("language", sorted(SHARE_LINES))
def test_the_daily_share_line_is_in_the_language(language: str) -> None:
    import datetime as dt

    from gintutor.cli.puzzletraining import share_line
    from gintutor.tutor.puzzleterms import Grade

    i18n.use(language)
    day = dt.date(2026, 12, 10)
    assert (share_line(day, Grade.BEST, 0), share_line(day, Grade.MISTAKE, 2)) == (
        SHARE_LINES[language]
    )


def test_carousel_plays_help_and_table_are_in_the_language() -> None:
    result = invoke(
        ["--lang", "nb", "carousel", "play", "--seed", "5", "--ascii"], stdin="help\nhint\n"
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Bordet\n" in out and "(tomt bord)" in out and "Spillere: Du " in out
    assert (
        "en endring av bordet, eller done, draw, knock (banke), best, hint, undo eller help:"
        in (out)
    )
    assert "Dette kan du skrive" in out
    assert (
        "add 4S to 3: legg kort fra hånden din i kombinasjon 3 (en joker: add JK=4S to 3)." in out
    )
    assert "table (bordet), sheet (poenglisten), help, quit (avslutt)." in out
    assert "(hint igjen: hvilke kort)" in out
    assert "What you can type" not in out and "(empty table)" not in out


def test_a_command_line_errors_pointer_to_help_is_in_the_language() -> None:
    english = invoke(["no-such-command"])
    assert english.exit_code == 2
    assert english.stderr.rstrip().endswith(" --help')") and "(see '" in english.stderr
    norwegian = invoke(["--lang", "nb", "no-such-command"])
    assert norwegian.exit_code == 2
    assert "(se '" in norwegian.stderr and "(see '" not in norwegian.stderr


POINTERS = [
    (["play", "--seed"], "gintutor play --help"),
    (["carousel", "play", "--seed"], "gintutor carousel play --help"),
    (["rules", "--diff"], "gintutor rules --help"),
    (["match", "--games", "x"], "gintutor match --help"),
    (["lessons", "check", "--bogus"], "gintutor lessons check --help"),
    (["carousel", "--bogus"], "gintutor carousel --help"),
    (["--lang"], "gintutor --help"),
]


@pytest.mark.parametrize("language", ["en", "id", "pt_BR", "nb"])
def test_a_usage_error_names_the_help_of_the_command_it_was_found_in(language: str) -> None:
    """As Click's own ``Try 'gintutor play --help' for help.`` does; a missing option value,
    which Click's parser raises without its command, too."""
    for args, command in POINTERS:
        lang = [] if args == ["--lang"] else ["--lang", language]
        result = invoke([*lang, *args])
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.rstrip().endswith(f" '{command}')"), (args, result.stderr)


def test_a_carousel_score_sheet_is_in_the_language() -> None:
    rounds = ["A knock 3, B 3, C 3, D 20", "A out, B 12, C 140, D 9"]
    result = invoke(["--lang", "pt_BR", "carousel", "score", *rounds])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["rodada", "final"]
    assert "Fim da partida: A 286 (bônus 100), B 52 (bônus 25), C 52 (bônus 25), D 0 (bônus 0)" in (
        lines
    )
    assert "Vencedor: A" in lines


def test_a_carousel_lesson_questions_facts_are_in_the_language() -> None:
    from gintutor.engine.carousel.cards import parse_slots
    from gintutor.engine.rules import PRESETS
    from gintutor.tutor.questions.carousel import CarouselMeldQuestion

    question = CarouselMeldQuestion(
        prompt="?", rules=PRESETS["standard"], cards=parse_slots("KS AS 2S")
    )
    english = question.facts()[0]
    assert getattr(english, "text", None) == "Cards: K♠ A♠ 2♠"
    i18n.use("id")
    assert getattr(question.facts()[0], "text", None) == "Kartu: K♠ A♠ 2♠"


def test_a_carousel_lesson_questions_feedback_is_in_the_language() -> None:
    from gintutor.engine.carousel.cards import parse_slots
    from gintutor.engine.rules import PRESETS
    from gintutor.tutor.questions.carousel import CarouselMeldQuestion

    rules = PRESETS["standard"]
    valid = CarouselMeldQuestion(prompt="?", rules=rules, cards=parse_slots("7S 8S 9S"))
    corner = CarouselMeldQuestion(prompt="?", rules=rules, cards=parse_slots("KS AS 2S"))
    assert valid.judge("valid").message == "Right: a valid meld."
    i18n.use("pt_BR")
    assert valid.judge("valid").message == "Certo: uma combinação válida."
    assert corner.judge("valid").message == (
        "Não é válida: uma das regras de combinação foi quebrada. Qual?"
    )


def test_a_carousel_score_questions_words_are_in_the_language() -> None:
    from gintutor.engine.rules import PRESETS
    from gintutor.tutor.questions.carousel import CarouselScoreQuestion, ScoreAsk

    question = CarouselScoreQuestion(
        prompt="?",
        rules=PRESETS["standard"],
        rounds=("A knock 3, B 12, C 20",),
        player="A",
        want=ScoreAsk.TOTAL,
    )
    assert getattr(question.facts()[-1], "text", None) == "Asked: the total of A."
    assert question.judge("999").message == "Not 999: add the player's scores round by round."
    i18n.use("nb")
    assert getattr(question.facts()[-1], "text", None) == "Spørsmål: totalen til A."
    assert question.judge("999").message == (
        "Ikke 999: legg sammen spillerens poeng runde for runde."
    )


USAGE_ERRORS = [
    ["no-such-command"],
    ["anlyze"],
    ["analyze"],
    ["analyze", "--bogus"],
    ["play", "--level", "zz"],
    ["puzzle", "--difficulty", "9"],
    ["puzzle", "--difficulty", "0"],
    ["puzzle", "--difficulty", "x"],
    ["learn", "1", "2"],
    ["play", "--seed"],
    ["rules", "--diff"],
]
"""Command lines that Typer itself refuses, one for each kind of usage error gintutor meets."""


def _usage_error(language: str, args: list[str]) -> str:
    result = invoke(["--lang", language, *args])
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and result.stderr.startswith(PREFIX[language])
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr.removeprefix(PREFIX[language]).rsplit(" (", 1)[0]


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=" ".join)
def test_each_usage_error_typer_writes_is_one_the_catalog_holds(args: list[str]) -> None:
    from gintutor.cli.language import click_message

    message = _usage_error("en", args)
    found = click_message(message)
    assert found is not None, f"Typer's words changed: add {message!r} to CLICK_MESSAGES"
    _template, values = found
    if "reason" in values:
        assert click_message(values["reason"]) is not None, values["reason"]


# Words of Click's and pydantic's English messages that none of the translations uses.
CLICK_ENGLISH = ("No such", "Missing", "Invalid value", "unexpected", "requires", "Input should")


@pytest.mark.parametrize("language", ["id", "pt_BR", "nb"])
def test_usage_errors_are_in_the_language_with_exit_2(language: str) -> None:
    for args in USAGE_ERRORS:
        message = _usage_error(language, args)
        assert not any(word in message for word in CLICK_ENGLISH), (args, message)


def test_a_group_without_its_command_shows_its_help_alone() -> None:
    result = invoke(["--lang", "nb", "carousel"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Bruk: ") and "error" not in result.stderr
    assert "(se '" not in result.stderr


SHEET_KNOCK = {"pt_BR": "A bateu 12", "nb": "A banket 12"}


@pytest.mark.parametrize("language", sorted(SHEET_KNOCK))
def test_a_score_sheets_hand_results_are_in_the_language(language: str) -> None:
    result = invoke(["--lang", language, "score", "A knock 12", "B gin 41"])
    assert result.exit_code == 0, result.output
    assert SHEET_KNOCK[language] in result.stdout and "A knock 12" not in result.stdout


@pytest.mark.parametrize("language", ["id", "pt_BR", "nb"])
def test_a_move_out_of_turn_in_play_says_what_may_be_done_in_the_language(
    home: object, language: str
) -> None:
    result = invoke(
        ["--lang", language, "play", "--seed", "3", "--coach", "off", "--ascii"],
        stdin="draw\nquit\n",
    )
    assert result.exit_code == 0, result.output
    refused = [line for line in result.stdout.splitlines() if line.startswith("  (draw ")]
    assert len(refused) == 1, result.stdout
    assert (
        "not allowed" not in refused[0]
        and "phase" not in refused[0]
        and "offer" not in (refused[0])
    )


def test_carousel_plays_coach_question_is_in_the_language(home: object) -> None:
    result = invoke(
        ["--lang", "nb", "carousel", "play", "--seed", "5", "--ascii"],
        stdin="draw\npass\nmaybe\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "Fortsette likevel? y, n (angre) eller show (det bedre trekket):" in result.stdout
    assert "(skriv y for å fortsette, n for å angre, eller show)" in result.stdout
    assert "Go ahead" not in result.stdout and "type y" not in result.stdout


def test_a_bad_line_of_hands_on_standard_input_is_named_in_the_language() -> None:
    lines = "7C 7D 7S 4H 5H 6H TD JD QD KC\nAS 2S\n"
    result = invoke(["--lang", "nb", "analyze", "-"], stdin=lines)
    assert result.exit_code == 1
    assert result.stderr == "feil: linje 2: en hånd her har 10 eller 11 kort, fikk 2\n"


def test_a_score_sheet_on_standard_input_names_it_in_the_language() -> None:
    result = invoke(["--lang", "pt_BR", "score", "-f", "-"], stdin="A knock 12\nB gin x\n")
    assert result.exit_code == 2
    assert result.stderr.startswith("erro: entrada padrão:2: 'B gin x': os pontos 'x' não")


YAML_SYNTAX = {
    "gin_bonus: [1\n": "YAML-syntaks: ventet ',' eller ']', men fant '<stream end>'",
    "gin_bonus: 1\n  x: 2\n": "YAML-syntaks: 'nøkkel: verdi' er ikke tillatt her",
    'gin_bonus: "1\n': "YAML-syntaks: teksten slutter inne i en verdi i anførselstegn",
    "gin_bonus: 1\n\tx: 2\n": "YAML-syntaks: tegnet '\\t' kan ikke begynne en verdi",
}


@pytest.mark.parametrize("text", sorted(YAML_SYNTAX))
def test_a_house_rules_yaml_syntax_error_is_named_in_the_language(
    text: str, tmp_path: Path
) -> None:
    """The YAML parser's complaint too, its token names ('<stream end>') aside."""
    rules = tmp_path / "house.yaml"
    rules.write_text("base: classic\n" + text, encoding="utf-8")
    hand = "AS 2S 3S 4H 5H 6H 7D 8D 9D KC"
    result = invoke(["--lang", "nb", "analyze", "--rules", str(rules), hand])
    assert result.exit_code == 2
    assert YAML_SYNTAX[text] in result.stderr, result.stderr
