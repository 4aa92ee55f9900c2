"""``gintutor play``: a scripted whole game through piped input (screens snapshotted), a hand
with the coach on, the coach's warning and take-back, resume after an interruption anywhere,
bad input at the prompt, bad options."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clirun import run
from syrupy.assertion import SnapshotAssertion

from gintutor.cli import playrun
from gintutor.content import gamefile
from gintutor.content.gamefile import latest_game
from gintutor.content.games import CoachNote, GameWriter, games_dir, load_game
from gintutor.engine.bots.common import best_layoffs, best_spread
from gintutor.engine.bots.heuristic import BASELINE, HeuristicBot
from gintutor.engine.cards import CARDS
from gintutor.engine.hand import Action, Deal, InfoSet, Kind
from gintutor.engine.judgement import Grade, Judged, Reason, ReasonKind, Verdict, grade_of
from gintutor.engine.rules import preset
from gintutor.engine.solver import min_deadwood_mask
from gintutor.tutor import session as session_module
from gintutor.tutor.session import PONDER_LIMIT, Budget, CoachedGame, CoachMode, Judge, Note

SEED = 11
BOT = "novice"
RULES = preset("standard")
NOW = dt.datetime(2026, 12, 1, 5, 40, 0)
GAME = "20261201-054000"


class _Lines:
    """A recorder keeping what a game file would hold, as tuples."""

    def __init__(self) -> None:
        self.lines: list[tuple[Any, ...]] = []
        self.notes: list[Note | None] = []

    def hand(self, number: int, deal: Deal) -> None:
        self.lines.append(("hand", number, deal.text()))

    def action(self, hand: int, player: int, action: Action, coach: Note | None = None) -> None:
        self.lines.append(("action", hand, player, str(action)))
        self.notes.append(coach)


def typed(action: Action, info: InfoSet) -> str:
    """How a learner types ``action``: short words where they mean the same."""
    if action.kind is Kind.DISCARD:
        return CARDS[action.card].code.lower()
    if action.kind is Kind.KNOCK and action.spread == best_spread(info.hand ^ 1 << action.card):
        return f"knock {CARDS[action.card].code.lower()}"
    if action.kind is Kind.LAY_OFF and action == best_layoffs(info):
        return "lay off"
    return str(action)


LEARNER = HeuristicBot(BASELINE)
"""The scripted learner: the coach's frozen weights, so the scripted games (and their
snapshots) do not move when the bots are tuned."""


def learner_plays(session: CoachedGame, hands: int | None = None, flags: bool = False) -> list[str]:
    """Play the learner's seat with the heuristic bot (seeded per decision), the whole game or
    ``hands`` hands; what it typed.

    ``flags``: answer the coach's warnings ("y", keep it) as the runner would ask them.
    """
    inputs: list[str] = []
    while not session.game_over:
        if not session.in_hand:
            session.deal()
        while session.in_hand:
            if not session.your_turn:
                session.bot_turn()
                continue
            state = session.state
            assert state is not None
            info = state.infoset(session.you)
            rng = random.Random(f"learner:{session.hand_number}:{len(state.log)}")
            action = LEARNER.act(info, rng)
            inputs.append(typed(action, info))
            flagged = flags and session.check(action) is not None
            if flagged:
                inputs.append("y")
            session.play(action, flagged=flagged)
        session.end_hand()
        if hands is not None and len(session.results) >= hands:
            return inputs
    return inputs


@functools.cache
def scripted(seed: int = SEED, bot: str = BOT, coach: CoachMode = CoachMode.OFF) -> list[str]:
    """What the learner types in a whole game (computed once per session)."""
    recorder = _Lines()
    first = random.Random(f"first-dealer:{seed}").randrange(2)
    session = CoachedGame(RULES, bot, coach, seed, recorder, first_dealer=first)
    return list(learner_plays(session, flags=coach is CoachMode.ON))


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of lines written: durability is not what these tests check (an fsync per
    line costs ~7 ms here; tests/test_games_file.py writes with it)."""
    monkeypatch.setattr(gamefile, "SYNC", False)


@pytest.fixture
def fixed_time(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(playrun, "now", lambda: NOW)
    yield


def play(*args: str, stdin: str) -> tuple[int, str, str]:
    return run("play", *args, stdin=stdin)


def test_a_whole_game_scripted_through_piped_input(
    home: Path, fixed_time: None, snapshot: SnapshotAssertion
) -> None:
    inputs = scripted()
    code, out, err = play(
        "--bot", BOT, "--coach", "off", "--seed", str(SEED), stdin="\n".join(inputs) + "\n"
    )
    assert code == 0, err
    assert err == ""
    assert "Game over. Saved as 20261201-054000." in out
    game = load_game(games_dir(home) / f"{GAME}.jsonl")
    assert game.finished and game.problems == ()
    mine = [a for h in game.hands for a in h.actions if a.player == 0]
    assert len(mine) == len(inputs)
    assert "You reached 100 and win the game." in out
    assert "box bonus" in out and "Final:" in out
    assert out == snapshot


# -- the coach ------------------------------------------------------------------------------


def fake_judge(info: InfoSet, **options: Any) -> Verdict:
    """A deterministic coach: every action valued by the least deadwood it leaves (against
    the opponent the session names)."""
    judged = []
    values = {}
    for action in info.legal_actions():
        if action.kind in (Kind.DISCARD, Kind.KNOCK):
            after = min_deadwood_mask(info.hand ^ 1 << action.card)
            value = -float(after) + (5.0 if action.kind is Kind.KNOCK else 0.0)
        elif action.kind is Kind.TAKE:
            value = -float(min_deadwood_mask(info.hand | 1 << info.top)) / 2
        else:
            value = -float(min_deadwood_mask(info.hand)) / 2
        values[action] = value
    best = max(values.values())
    for action, value in sorted(values.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        loss = best - value
        reasons: tuple[Reason, ...] = ()
        if action.kind is Kind.DISCARD:
            after = min_deadwood_mask(info.hand ^ 1 << action.card)
            reasons = (Reason(ReasonKind.DEADWOOD_AFTER, 1 << action.card, after),)
            if info.opponent_known:
                other = (info.opponent_known & -info.opponent_known).bit_length() - 1
                reasons += (Reason(ReasonKind.FEEDS_OPPONENT, 0, 0, other),)
        judged.append(
            Judged(action, value, 0.1, loss, 0.1, None, None, grade_of(loss), False, reasons)
        )
    return Verdict(
        info.player, info.phase, tuple(judged), 16, 0.0, options.get("opponent", "expert")
    )


def test_one_hand_with_the_fake_coach_on(
    home: Path, fixed_time: None, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion
) -> None:
    monkeypatch.setattr(session_module, "judge", fake_judge)
    recorder = _Lines()
    first = random.Random(f"first-dealer:{SEED}").randrange(2)
    session = CoachedGame(RULES, BOT, CoachMode.ON, SEED, recorder, first_dealer=first)
    inputs = learner_plays(session, hands=1, flags=True)
    inputs.insert(2, "hint")
    code, out, err = play("--bot", BOT, "--seed", str(SEED), stdin="\n".join(inputs) + "\n")
    assert code == 0, err
    assert "Coach: the best choices" in out and "End of hand 1" in out
    assert "Game saved (20261201-054000)" in out
    assert out == snapshot


def test_the_real_coach_hints_and_notes_the_choice(
    home: Path, fixed_time: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session_module, "COACH_BUDGET", Budget(worlds=12, seconds=0.2))
    code, out, err = play("--bot", BOT, "--seed", str(SEED), stdin="hint\npass\n")
    assert code == 0, err
    assert "Coach: the best choices" in out and "sampled deals" in out
    assert "Game saved (20261201-054000)" in out
    game = load_game(games_dir(home) / f"{GAME}.jsonl")
    mine = [a for a in game.hands[0].actions if a.player == 0]
    if mine:  # unless the coach flagged the pass and the end of input took it back
        assert mine[0].coach is not None and mine[0].coach.best in ("pass", "take")


def _first_discard_position(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], str, str]:
    """Inputs up to the learner's first discard, a discard the fake coach calls a blunder and
    its best discard."""
    monkeypatch.setattr(session_module, "judge", fake_judge)
    recorder = _Lines()
    first = random.Random(f"first-dealer:{SEED}").randrange(2)
    session = CoachedGame(RULES, BOT, CoachMode.ON, SEED, recorder, first_dealer=first)
    session.deal()
    inputs: list[str] = []
    while True:
        if not session.your_turn:
            session.bot_turn()
            continue
        state = session.state
        assert state is not None
        info = state.infoset(0)
        if info.phase.value == "discard":
            break
        action = LEARNER.act(info, random.Random(0))
        inputs.append(typed(action, info))
        session.play(action)
    verdict = fake_judge(info)
    worst = next(j for j in reversed(verdict.judged) if j.action.kind is Kind.DISCARD)
    assert worst.grade in (Grade.MISTAKE, Grade.BLUNDER)
    return inputs, CARDS[worst.action.card].code, CARDS[verdict.best.action.card].code


def test_a_flagged_discard_can_be_taken_back(
    home: Path, fixed_time: None, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion
) -> None:
    inputs, bad, good = _first_discard_position(monkeypatch)
    stdin = "\n".join([*inputs, bad, "n", good, ""])
    code, out, _ = play("--bot", BOT, "--seed", str(SEED), stdin=stdin)
    assert code == 0
    assert "Coach: you are about to throw the" in out and "Keep it anyway? [y/N]" in out
    assert "Taken back: choose again." in out
    assert out == snapshot
    game = load_game(games_dir(home) / f"{GAME}.jsonl")
    last = [a for a in game.hands[0].actions if a.player == 0][-1]
    assert str(last.action) == f"discard {good}"
    assert last.coach == CoachNote(False, f"discard {good}", 0.0, (f"discard {bad}",))


def test_a_flagged_discard_can_be_kept(
    home: Path, fixed_time: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs, bad, _ = _first_discard_position(monkeypatch)
    code, out, _ = play("--bot", BOT, "--seed", str(SEED), stdin="\n".join([*inputs, bad, "y"]))
    assert code == 0 and "Taken back" not in out
    game = load_game(games_dir(home) / f"{GAME}.jsonl")
    last = [a for a in game.hands[0].actions if a.player == 0][-1]
    assert str(last.action) == f"discard {bad}" and last.coach is not None
    assert last.coach.flagged and last.coach.loss is not None and last.coach.loss > 2.5


def test_end_of_input_at_the_warning_takes_it_back_and_saves(
    home: Path, fixed_time: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs, bad, _ = _first_discard_position(monkeypatch)
    code, out, _ = play("--bot", BOT, "--seed", str(SEED), stdin="\n".join([*inputs, bad]))
    assert code == 0 and "Game saved" in out
    game = load_game(games_dir(home) / f"{GAME}.jsonl")
    assert [a for a in game.hands[0].actions if a.player == 0][-1].action.kind is not Kind.DISCARD


# -- resume ---------------------------------------------------------------------------------


def _write_full_game(folder: Path, seed: int = SEED) -> Path:
    first = random.Random(f"first-dealer:{seed}").randrange(2)
    writer, _ = GameWriter.create(
        folder,
        rules=RULES,
        rules_spec="standard",
        bot=BOT,
        coach="off",
        seed=seed,
        you=0,
        first_dealer=first,
        now=NOW,
    )
    session = CoachedGame(
        RULES, BOT, CoachMode.OFF, seed, playrun._Saver(writer), first_dealer=first
    )
    learner_plays(session)
    writer.end("finished")
    writer.close()
    return writer.path


def _continue(path: Path) -> None:
    game = load_game(path)
    writer = GameWriter.resume(game)
    header = game.header
    session = CoachedGame(
        game.rules,
        header.bot,
        CoachMode.OFF,
        header.seed,
        playrun._Saver(writer),
        first_dealer=header.first_dealer,
    )
    session.resume([(h.deal, [a.action for a in h.actions]) for h in game.hands])
    learner_plays(session)
    writer.end("finished")
    writer.close()


def test_resume_after_a_cut_anywhere_continues_the_same_game(
    tmp_path: Path, no_fsync: None
) -> None:
    full = _write_full_game(tmp_path / "full")
    data = full.read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    cuts = [
        *ends[:3],
        *ends[3:-1:29],
        *((a + b) // 2 for a, b in zip(ends[5::37], ends[6::37], strict=False)),
    ]
    for number, cut in enumerate(cuts):
        folder = tmp_path / f"cut{number}"
        folder.mkdir()
        path = folder / full.name
        path.write_bytes(data[:cut])
        _continue(path)
        assert path.read_bytes() == data, f"cut at byte {cut}"


@pytest.mark.slow
def test_resume_after_a_cut_after_every_line(tmp_path: Path, no_fsync: None) -> None:
    full = _write_full_game(tmp_path / "full", seed=5)
    data = full.read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    for number, cut in enumerate(ends[:-1]):
        for size in (cut, cut + 5):
            folder = tmp_path / f"cut{number}-{size}"
            folder.mkdir()
            path = folder / full.name
            path.write_bytes(data[:size])
            _continue(path)
            assert path.read_bytes() == data


def test_quit_then_resume_through_the_command(home: Path, fixed_time: None) -> None:
    inputs = scripted()
    code, out, _ = play(
        "--bot", BOT, "--coach", "off", "--seed", str(SEED), stdin="\n".join(inputs[:9])
    )
    assert code == 0 and "Go on with: gintutor play --resume" in out
    middle = len(inputs) // 2
    code, out, _ = play("--resume", stdin="\n".join([*inputs[9:middle], "quit"]))
    assert code == 0 and f"Resuming game {GAME}" in out
    path = games_dir(home) / f"{GAME}.jsonl"
    # A kill while a line was being written: the cut-short line is ignored and cut off.
    with path.open("ab") as stream:
        stream.write(b'{"type": "action", "hand": 1, "pla')
    code, out, _ = play("--resume", GAME, stdin="\n".join(inputs[middle:]))
    assert code == 0 and "the last line is cut short (ignored)" in out
    assert "Game over." in out
    game = load_game(path)
    assert game.finished and game.problems == ()
    mine = [str(a.action) for h in game.hands for a in h.actions if a.player == 0]
    assert len(mine) == len(inputs)
    code, _, err = play("--resume", stdin="")
    assert code == 2 and "no unfinished game" in err
    code, _, err = play("--resume", GAME, stdin="")
    assert code == 2 and "is over (finished)" in err
    assert latest_game(games_dir(home)) == path


def test_resume_refuses_options_the_saved_game_fixes(home: Path) -> None:
    code, _, err = play("--bot", "expert", "--resume", stdin="")
    assert code == 2 and err.startswith("error: --resume continues the saved game")


# -- input and options ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ("9z", "(or help)"),
        ("knock", "take the upcard or pass"),
        ("7x 8y", "(or help)"),
        ("discard", "take the upcard or pass"),
        ("\u00e9\u00e9", "(or help)"),
    ],
)
def test_bad_input_gives_a_message_and_asks_again(
    home: Path, fixed_time: None, reply: str, message: str
) -> None:
    inputs = scripted()
    code, out, err = play(
        "--bot", BOT, "--coach", "off", "--seed", str(SEED), stdin=f"{reply}\n{inputs[0]}\n"
    )
    assert code == 0 and "Traceback" not in out + err
    assert message in out
    game = load_game(games_dir(home) / f"{GAME}.jsonl")
    assert [str(a.action) for a in game.hands[0].actions if a.player == 0][:1] == [
        str(Action.parse(inputs[0])) if inputs[0] in ("pass", "take") else inputs[0]
    ]


def test_words_at_the_prompt(home: Path, fixed_time: None) -> None:
    code, out, _ = play(
        "--bot",
        BOT,
        "--coach",
        "off",
        "--seed",
        str(SEED),
        stdin="help\nsheet\ntable\nhint\nskip\n",
    )
    assert code == 0
    assert "knock with the melds you choose" in out
    assert "Game in progress" in out
    assert "the coach is off in this game" in out
    assert "nothing to skip" in out


def test_resign_ends_the_game(home: Path, fixed_time: None) -> None:
    code, out, _ = play("--bot", BOT, "--coach", "off", "--seed", "3", stdin="resign\ny\n")
    assert code == 0 and "You resigned" in out
    assert load_game(games_dir(home) / f"{GAME}.jsonl").end == "resigned"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bot", "grandmaster"), "unknown bot"),
        (("--rules", "nonsense"), "unknown rule set"),
        (("--coach", "loud"), "use off, quiet or on"),
        (("--resume", "19990101-000000"), "no saved game"),
    ],
)
def test_bad_options_are_errors(home: Path, args: tuple[str, ...], message: str) -> None:
    code, _, err = play(*args, stdin="")
    assert code == 2 and err.startswith("error: ") and message in err
    assert not any(games_dir(home).glob("*.jsonl")) if games_dir(home).exists() else True


def test_oklahoma_shows_the_knock_limit_from_the_upcard(home: Path, fixed_time: None) -> None:
    code, out, _ = play("--rules", "oklahoma", "--coach", "off", "--seed", "2", stdin="")
    assert code == 0 and "(from the first upcard" in out


def test_hollywood_plays_three_games(tmp_path: Path) -> None:
    rules = preset("hollywood")
    session = CoachedGame(rules, BOT, CoachMode.OFF, 4, _Lines())
    learner_plays(session)
    sheet = session.sheet
    assert session.game_over and len(sheet.games) == 3  # type: ignore[union-attr]


def test_hints_are_recorded_on_the_decision_they_were_asked_at(
    home: Path, fixed_time: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session_module, "judge", fake_judge)
    recorder = _Lines()
    first = random.Random(f"first-dealer:{SEED}").randrange(2)
    session = CoachedGame(RULES, BOT, CoachMode.ON, SEED, recorder, first_dealer=first)
    inputs = learner_plays(session, hands=1, flags=True)
    inputs[1:1] = ["hint", "?"]  # two hints at the learner's second decision
    code, _, err = play("--bot", BOT, "--seed", str(SEED), stdin="\n".join(inputs) + "\n")
    assert code == 0, err
    game = load_game(games_dir(home) / f"{GAME}.jsonl")
    mine = [a for a in game.hands[0].actions if a.player == 0]
    assert [a.coach.hints if a.coach else 0 for a in mine[:3]] == [0, 2, 0]
    from gintutor.cli.reviewrun import played_of

    played = played_of(game)
    helped = [h for hand in played.hands for h in hand.help if h.hints]
    assert [h.hints for h in helped] == [2]


def _at_first_decision(session: CoachedGame) -> None:
    session.deal()
    while not session.your_turn:
        session.bot_turn()


def _deal_by_deal(passed: list[int], asked: list[Budget]) -> Judge:
    """A coach that judges one deal every 2 ms until ``stop`` answers True or the budget's
    worlds are done; its verdict names the deals it judged."""

    def judge(info: InfoSet, **options: Any) -> Verdict:
        asked.append(Budget(options["worlds"], options["seconds"]))
        stop = options["stop"]
        done = 0
        while done < options["worlds"]:
            done += 1
            if done >= 8 and stop(done):
                break
            time.sleep(0.002)
        passed.append(done)
        return dataclasses.replace(fake_judge(info, **options), worlds=done)

    return judge


def test_the_coach_thinks_while_the_learner_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal the decision is judged in the background, deal after deal, until the
    learner acts: a hint, a warning and the saved note use the verdict on every deal so far
    (more than the table's budget when the learner took their time), with the budget asked."""
    passed: list[int] = []
    asked: list[Budget] = []
    monkeypatch.setattr(session_module, "judge", _deal_by_deal(passed, asked))
    recorder = _Lines()
    table = Budget(worlds=10, seconds=10.0)
    session = CoachedGame(RULES, BOT, CoachMode.ON, SEED, recorder, budget=table, think_ahead=True)
    _at_first_decision(session)
    session.ponder()
    session.ponder()  # once a decision
    time.sleep(0.2)  # the learner thinks: ~100 deals at 2 ms
    verdict = session.hint()
    assert table.worlds < verdict.worlds < table.worlds * PONDER_LIMIT
    assert passed == [verdict.worlds]  # stopped when asked, one judgement a decision
    assert session.verdict() is verdict
    session.play(verdict.best.action)
    note = recorder.notes[-1]
    limit = Budget(table.worlds * PONDER_LIMIT, table.seconds * PONDER_LIMIT)
    assert note is not None and note.verdict is verdict and note.budget == limit
    assert asked == [limit]


def test_a_learner_who_acts_at_once_gets_the_table_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Asked before the table's budget is spent, the thinking coach goes on to it (a hint never
    rests on fewer deals than without thinking ahead); a learner who plays without asking does
    not wait for it, and the verdict then stays out of the note."""
    passed: list[int] = []
    monkeypatch.setattr(session_module, "judge", _deal_by_deal(passed, []))
    table = Budget(worlds=40, seconds=10.0)
    session = CoachedGame(
        RULES, BOT, CoachMode.QUIET, SEED, _Lines(), budget=table, think_ahead=True
    )
    _at_first_decision(session)
    session.ponder()
    assert session.hint().worlds == table.worlds
    recorder = _Lines()
    session = CoachedGame(
        RULES, BOT, CoachMode.QUIET, SEED, recorder, budget=table, think_ahead=True
    )
    _at_first_decision(session)
    session.ponder()
    assert session.state is not None
    session.play(session.state.legal_actions()[0])
    assert recorder.notes[-1] is None


def test_without_a_terminal_the_coach_judges_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int] = []

    def counting_judge(info: InfoSet, **options: Any) -> Verdict:
        asked.append(options["worlds"])
        return fake_judge(info, **options)

    monkeypatch.setattr(session_module, "judge", counting_judge)
    session = CoachedGame(
        RULES, BOT, CoachMode.ON, SEED, _Lines(), budget=Budget(worlds=10, seconds=0.1)
    )
    _at_first_decision(session)
    session.ponder()
    assert asked == []
    session.hint()
    assert asked == [10]
