"""Saved games (content/games.py): the writer's lines, the reader's replay and validation, a
truncated last line, resuming a file cut anywhere, ids, the newest game."""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from pathlib import Path

import pytest

from gintutor.content.gamefile import GameFileError, find_game, latest_game, list_games
from gintutor.content.games import CoachNote, GameWriter, SavedGame, games_dir, load_game
from gintutor.engine.bots import make_bot
from gintutor.engine.hand import Action, Deal, HandState
from gintutor.engine.rules import preset

RULES = preset("standard")
NOW = dt.datetime(2026, 12, 1, 5, 40, 0)


def _write_game(folder: Path, hands: int = 2, *, end: bool = True) -> Path:
    """A bot-vs-bot game of ``hands`` hands written as play writes it."""
    writer, _ = GameWriter.create(
        folder,
        rules=RULES,
        rules_spec="standard",
        bot="novice",
        coach="on",
        seed=5,
        you=0,
        first_dealer=1,
        now=NOW,
    )
    bots = [make_bot("simple"), make_bot("novice")]
    rng = random.Random(1)
    dealer = 1
    with writer:
        for number in range(1, hands + 1):
            deal = Deal.shuffled(random.Random(f"{number}"), dealer)
            writer.hand(number, deal)
            state = HandState(deal, RULES)
            while not state.over:
                player = state.to_move
                action = bots[player].act(state.infoset(), rng)
                state.do(action)
                note = CoachNote(flagged=False, best=str(action), loss=0.0) if player == 0 else None
                writer.action(number, player, action, note)
            dealer = 1 - dealer
        if end:
            writer.end("finished")
    return writer.path


def test_a_written_game_reads_back_and_replays(tmp_path: Path) -> None:
    path = _write_game(tmp_path)
    assert path.name == "20261201-054000.jsonl"
    game = load_game(path)
    assert game.id == "20261201-054000" and game.finished and game.problems == ()
    assert game.header.bot == "novice" and game.header.seed == 5 and game.rules == RULES
    assert len(game.hands) == 2 and all(state.over for state in game.states)
    assert game.hands[1].replay(RULES).result == game.states[1].result
    first = json.loads(path.read_text().splitlines()[0])
    assert first["type"] == "game" and first["version"] == 1 and first["rules"] == "standard"
    mine = [a for a in game.hands[0].actions if a.player == 0]
    assert mine and all(a.coach is not None and a.coach.best for a in mine)


def test_a_truncated_last_line_is_ignored_and_reported(tmp_path: Path) -> None:
    path = _write_game(tmp_path, end=False)
    data = path.read_bytes()
    path.write_bytes(data[:-7])
    game = load_game(path)
    assert len(game.problems) == 1 and "cut short" in game.problems[0]
    assert game.complete_bytes == data[:-7].rfind(b"\n") + 1
    assert not game.finished and game.end is None


def test_cut_after_every_line_and_inside_every_line_still_reads(tmp_path: Path) -> None:
    path = _write_game(tmp_path, hands=1)
    data = path.read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    cut = tmp_path / "cut"
    cut.mkdir()
    target = cut / "20261201-054000.jsonl"
    previous = 0
    for end in ends:
        for size in (end, (previous + end) // 2):
            target.write_bytes(data[:size])
            if size < ends[0]:
                with pytest.raises(GameFileError, match="no game header"):
                    load_game(target)
                continue
            game = load_game(target)
            assert game.complete_bytes <= size
            actions = sum(len(h.actions) for h in game.hands)
            assert actions <= len(ends)
        previous = end


def test_resume_cuts_the_partial_line_then_appends_whole_lines(tmp_path: Path) -> None:
    path = _write_game(tmp_path, end=False)
    data = path.read_bytes()
    path.write_bytes(data + b'{"type": "end", "rea')
    game = load_game(path)
    assert game.problems
    with GameWriter.resume(game) as writer:
        writer.end("resigned")
    again = load_game(path)
    assert again.problems == () and again.end == "resigned" and not again.finished
    assert path.read_bytes() == data + b'{"type": "end", "reason": "resigned"}\n'


def damaged(path: Path, pattern: str) -> SavedGame:
    """The game at ``path`` read up to a damaged line whose report matches ``pattern``."""
    game = load_game(path)
    assert game.damage is not None and re.search(pattern, game.damage), game.damage
    assert game.problems[0].startswith(game.damage)
    return game


def test_a_broken_line_in_the_middle_is_reported_naming_the_line(tmp_path: Path) -> None:
    path = _write_game(tmp_path)
    lines = path.read_text().splitlines(keepends=True)
    lines[3] = "not json\n"
    path.write_text("".join(lines))
    damaged(path, r":4: ")


def test_a_line_of_other_bytes_is_named_as_not_utf8(tmp_path: Path) -> None:
    path = _write_game(tmp_path)
    raw = path.read_bytes().splitlines(keepends=True)
    raw[2] = b'{"type": "\xff"}\n'
    path.write_bytes(b"".join(raw))
    damaged(path, r":3: not UTF-8 text \(byte 0xff at column 11\)")


def test_an_illegal_action_is_an_error(tmp_path: Path) -> None:
    path = _write_game(tmp_path)
    lines = path.read_text().splitlines(keepends=True)
    record = json.loads(lines[2])
    record["action"] = "knock 2C: -"
    lines[2] = json.dumps(record) + "\n"
    path.write_text("".join(lines))
    damaged(path, ":3: ")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"type": "hand", "hand": 3, "deal": "dealer 0: 2C"}, "hand 3 where hand 2"),
        ({"type": "action", "hand": 1, "player": 7, "action": "draw"}, "player is 7"),
        ({"type": "whatever"}, "unknown line type"),
    ],
)
def test_lines_out_of_order_are_errors(
    tmp_path: Path, line: dict[str, object], message: str
) -> None:
    path = _write_game(tmp_path, hands=1, end=False)
    with path.open("a") as stream:
        stream.write(json.dumps(line) + "\n")
    damaged(path, message)


def test_no_header_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "20261201-054000.jsonl"
    path.write_text("")
    with pytest.raises(GameFileError, match="no game header"):
        load_game(path)
    path.write_text('{"type": "game", "version": 9}\n')
    with pytest.raises(GameFileError, match="version 9"):
        load_game(path)


def test_ids_on_a_clash_and_the_newest_game(tmp_path: Path) -> None:
    folder = games_dir(tmp_path)
    first = _write_game(folder, hands=1)
    second = _write_game(folder, hands=1, end=False)
    third = _write_game(folder, hands=1)
    assert [p.name for p in list_games(folder)] == [
        "20261201-054000.jsonl",
        "20261201-054000-2.jsonl",
        "20261201-054000-3.jsonl",
    ]
    assert latest_game(folder) == third
    assert latest_game(folder, unfinished=True) == second
    assert find_game(folder, "20261201-054000") == first
    assert find_game(folder, str(second)) == second
    with pytest.raises(GameFileError, match="no saved game"):
        find_game(folder, "nope")
    assert latest_game(tmp_path / "missing") is None


def test_house_rules_are_saved_as_their_text(tmp_path: Path) -> None:
    from gintutor.content.games import house_rules

    text = "base: classic\nbox_bonus: 0\ntarget: 250\n"
    rules = house_rules("mine.yaml", text)
    writer, _ = GameWriter.create(
        tmp_path,
        rules=rules,
        rules_spec={"name": "mine.yaml", "house": text},
        bot="simple",
        coach="off",
        seed=1,
        you=0,
        first_dealer=0,
        now=NOW,
    )
    writer.close()
    game = load_game(writer.path)
    assert game.rules.target == 250 and game.rules.box_bonus == 0
    assert game.header.rules_spec == {"name": "mine.yaml", "house": text}


def test_deal_and_action_notation_round_trip() -> None:
    deal = Deal.shuffled(random.Random(3), 1)
    assert Deal.parse(deal.text()) == deal
    assert str(Action.parse("knock 7c: 2C 3C 4C")) == "knock 7C: 2C 3C 4C"


def test_lines_are_in_the_file_at_once_and_on_disk_at_each_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every line is written whole at once (a kill loses nothing written); the lines are
    fsynced together, with the new file's folder, when the learner is to be asked (``sync``)
    and on closing, not one by one."""
    import os

    synced: list[int] = []
    real_fsync = os.fsync

    def counted(descriptor: int) -> None:
        synced.append(descriptor)
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", counted)
    writer, _ = GameWriter.create(
        tmp_path, rules=RULES, rules_spec="standard", bot="simple", coach="on", seed=5, you=0,
        first_dealer=1, now=NOW,
    )  # fmt: skip
    deal = Deal.shuffled(random.Random(1), 1)
    writer.hand(1, deal)
    writer.action(1, 0, Action.parse("pass"))
    lines = writer.path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["game", "hand", "action"]
    assert synced == []
    writer.sync()
    assert len(synced) == 2  # the file, then its folder (a new name)
    writer.sync()
    assert len(synced) == 2  # nothing new
    writer.end("resigned")
    writer.close()
    assert len(synced) == 3  # the last line, on closing
    assert load_game(writer.path).end == "resigned"


def test_the_coach_note_records_hints_and_reads_old_lines_as_none() -> None:
    note = CoachNote(False, "pass", 0.5, ("take",), 2)
    data = note.to_json()
    assert data == {
        "flagged": False,
        "best": "pass",
        "loss": 0.5,
        "taken_back": ["take"],
        "hints": 2,
    }
    assert CoachNote.from_json(data) == note
    # A line written before hints were recorded: none.
    assert CoachNote.from_json({"flagged": True}).hints == 0
    assert "hints" not in CoachNote(True).to_json()
    for bad in (-1, 1.5, "2", True):
        with pytest.raises(ValueError, match="hints"):
            CoachNote.from_json({"flagged": False, "hints": bad})


def test_a_verdict_given_during_play_round_trips_and_a_strange_one_is_left_out() -> None:
    from gintutor.content.games import StoredVerdict
    from gintutor.engine.hand import Action, Phase
    from gintutor.engine.judgement import Grade, Judged, Reason, ReasonKind, Verdict

    rows = (
        Judged(Action.parse("take"), 1.5, 0.25, 0.0, 0.0, 0.52, 0.0, Grade.BEST, False, (), 40),
        Judged(
            Action.parse("pass"),
            -2.125,
            0.5,
            3.625,
            0.75,
            0.48,
            0.04,
            Grade.MISTAKE,
            False,
            (Reason(ReasonKind.DEADWOOD_AFTER, 5, 12, -1),),
            40,
        ),
    )
    verdict = Verdict(0, Phase.OFFER, rows, 40, 0.375, "simple")
    stored = StoredVerdict("2", verdict, (256, 0.4))
    data = json.loads(json.dumps(stored.to_json()))
    again = StoredVerdict.from_json(data, 0)
    assert again == stored
    note = CoachNote(False, "take", 3.625, (), 0, stored)
    read = CoachNote.from_json(json.loads(json.dumps(note.to_json())))
    assert read.verdict == stored
    # Another gintutor's verdict (a reason kind this one does not know): left out, no damage.
    data["judged"][1][10] = [["new-kind", 0, 0, -1]]
    assert StoredVerdict.from_json(data, 0) is None
    assert CoachNote.from_json({"flagged": False, "verdict": data}).verdict is None
