"""The review: decisions rebuilt from the player's information sets, graded and summarised.

The arithmetic is checked against hand-computed figures with a fake judge (exact values); the
real coach runs at a cheap budget where the whole path is exercised (saved games, logs, CLI).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from clirun import run
from syrupy.extensions.json import JSONSnapshotExtension

from gintutor.cli.render import render_text
from gintutor.content.gamelog import EXAMPLE, parse_game_log, read_game_log
from gintutor.engine.game import HandRecord
from gintutor.engine.hand import Action, Deal, InfoSet, Kind, Phase, replay
from gintutor.engine.judgement import Grade, Judged, Reason, ReasonKind, Verdict, grade_of
from gintutor.engine.rules import preset
from gintutor.text.blocks import Line, Style
from gintutor.text.review import (
    explain_review,
    rating_text,
    review_data,
    summary_data,
    summary_lines,
)
from gintutor.tutor.review import (
    BAND_LIMITS,
    CALIBRATION,
    Band,
    Decision,
    PlayedGame,
    PlayedHand,
    band_limits,
    band_of,
    fitted_rates,
    review_game,
)

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "examples" / "game.txt"

LOSSES = {
    "pass": 0.0,
    "take": 2.0,
    "discard KD": 3.0,
    "discard 8H": 0.0,
    "draw": 0.0,
    "knock 9C: 4H 5H 6H | 7C 7D 7H | AS 2S 3S": 0.8,
    "discard 9C": 0.0,
}
"""The fake judge's loss for an action (by its log text); any other action loses 9."""
STDERR = 0.5


def fake_judge(
    info: InfoSet,
    *,
    worlds: int,
    seconds: float,
    seed: int,
    scores: tuple[int, int] | None,
    rollouts: int | None,
    opponent: str | None = None,
    keep: Action | None = None,
) -> Verdict:
    """Exact stand-in for the coach: the best action is worth the stock size in points, the
    others that minus their loss (LOSSES, relative to the least); close within 2 STDERR."""
    legal = info.legal_actions()
    raw = {a: LOSSES.get(str(a), 9.0) for a in legal}
    least = min(raw.values())
    judged = []
    for action in sorted(legal, key=lambda a: (raw[a], str(a))):
        loss = raw[action] - least
        judged.append(
            Judged(
                action=action,
                mean=float(info.stock_size) - loss,
                stderr=STDERR,
                loss=loss,
                loss_stderr=0.0 if loss == 0 else STDERR,
                win_chance=None,
                win_loss=None,
                grade=grade_of(loss),
                close=0 < loss < 2 * STDERR,
                reasons=(Reason(ReasonKind.DEADWOOD_AFTER, 0, info.stock_size),),
            )
        )
    return Verdict(info.player, info.phase, tuple(judged), worlds, 0.0)


def test_summary_arithmetic_against_hand_computed_figures() -> None:
    game = parse_game_log(EXAMPLE)
    review = review_game(game, judge_with=fake_judge, seat_value=(1.0, 2.0))
    (hand,) = review.hands
    played = [(str(d.action), d.forced, d.loss, d.grade, d.is_error) for d in hand.decisions]
    assert played == [
        ("pass", False, 0.0, Grade.BEST, False),
        ("draw", True, 0.0, Grade.BEST, False),
        ("discard KD", False, 3.0, Grade.MISTAKE, True),
        ("draw", False, 0.0, Grade.BEST, False),
        ("knock 9C: 4H 5H 6H | 7C 7D 7H | AS 2S 3S", False, 0.8, Grade.GOOD, False),
    ]
    assert [d.turn for d in hand.decisions] == [1, 2, 2, 3, 3]
    summary = review.summary
    assert summary.decisions == 4
    assert dict(summary.grades) == {
        Grade.BEST: 2,
        Grade.GOOD: 1,
        Grade.INACCURACY: 0,
        Grade.MISTAKE: 1,
        Grade.BLUNDER: 0,
    }
    assert summary.errors == 1 and summary.error_rate == 0.25
    assert summary.mean_loss == pytest.approx((0 + 3.0 + 0 + 0.8) / 4)
    assert [str(d.action) for d in summary.worst] == [
        "discard KD",
        "knock 9C: 4H 5H 6H | 7C 7D 7H | AS 2S 3S",
    ]
    # Four decisions are too few to rate (MIN_RATED): no band, no interval.
    assert summary.rating is None and summary.interval is None and not summary.assisted
    # Each stock draw: the best value at the discard after it (stock - 1) minus the draw's
    # value (the stock before it): -1 each, two draws (the forced one counts for luck).
    assert [d.luck for d in hand.decisions] == [None, -1.0, None, -1.0, None]
    assert summary.luck == -2.0 and summary.draws == 2
    # The deal: the first decision's best value (31 cards in the stock) minus the
    # non-dealer's mean value (1.0).
    assert hand.deal_luck == 30.0 and summary.deal_luck == 30.0 and summary.total_luck == 28.0
    assert hand.net == 23 and hand.result is not None


def test_a_close_call_is_not_an_error() -> None:
    from gintutor.tutor.review import Decision, summarize

    def one(loss: float, grade: Grade, close: bool) -> Decision:
        return Decision(
            1,
            1,
            Phase.DISCARD,
            _discard("KD"),
            _discard("8H"),
            0.0,
            loss,
            loss,
            0.5,
            None,
            grade,
            close,
            (),
            (),
        )

    summary = summarize(
        [
            one(3.0, Grade.MISTAKE, False),
            one(1.5, Grade.INACCURACY, True),
            one(0.0, Grade.BEST, True),
        ]
    )
    assert summary.errors == 1 and summary.error_rate == pytest.approx(1 / 3)
    assert dict(summary.error_grades) == {Grade.INACCURACY: 0, Grade.MISTAKE: 1, Grade.BLUNDER: 0}


def _decision(error: bool, hints: int = 0, taken_back: tuple[Action, ...] = ()) -> Decision:
    grade = Grade.MISTAKE if error else Grade.BEST
    return Decision(
        1,
        1,
        Phase.DISCARD,
        Action.parse("discard KD"),
        Action.parse("discard 8H"),
        0.0,
        0.0,
        3.0 if error else 0.0,
        0.5,
        None,
        grade,
        False,
        (),
        (),
        hints=hints,
        taken_back=taken_back,
    )


def test_too_few_decisions_are_not_rated() -> None:
    from gintutor.tutor.review import MIN_RATED, summarize

    few = summarize([_decision(i % 4 == 0) for i in range(MIN_RATED - 1)])
    assert few.rating is None and few.interval is None and few.bands is None
    text = render_text([Line(rating_text(few))], ascii_only=True)
    assert "too few decisions to rate (19; a rating needs 20)" in text
    data = summary_data(few)
    assert data["rating"] is None and data["rating_interval"] is None
    assert data["rating_min_decisions"] == MIN_RATED


def test_the_rating_interval_is_a_seeded_bootstrap_over_decisions() -> None:
    from gintutor.tutor.review import band_of, rate_interval, summarize

    decisions = [_decision(i % 5 == 0) for i in range(60)]  # 12 errors: rate 0.2
    one = summarize(decisions, seed=4)
    assert one == summarize(decisions, seed=4)
    assert one.rating is band_of(0.2) and one.interval is not None and one.bands is not None
    low, high = one.interval
    assert low < 0.2 < high and 0.05 < high - low < 0.3
    assert one.bands == (band_of(low), band_of(high))
    # The bootstrap of an error rate: close to the normal interval p ± 1.96 sqrt(p(1-p)/n).
    half = 1.96 * (0.2 * 0.8 / 60) ** 0.5
    assert low == pytest.approx(0.2 - half, abs=0.03) and high == pytest.approx(
        0.2 + half, abs=0.03
    )
    assert rate_interval([d.is_error for d in decisions], 4) == (low, high)
    text = render_text([Line(rating_text(one))], ascii_only=True)
    assert text.startswith(f"Rating: {band_of(0.2).value}, by the error rate (95% interval")
    assert "assisted" not in text


def test_a_game_with_hints_or_take_backs_is_rated_as_assisted() -> None:
    from gintutor.tutor.review import summarize

    decisions = [_decision(False) for _ in range(30)]
    decisions[3] = _decision(False, hints=2)
    decisions[7] = _decision(False, taken_back=(Action.parse("discard QS"),))
    summary = summarize(decisions)
    assert summary.assisted and summary.hints == 2 and summary.taken_back == 1
    assert summary.rating is Band.WORLD_CLASS
    blocks = summary_lines(summary, Style(ascii_only=True), "game")
    text = render_text(blocks, ascii_only=True)
    assert "Rating: World class, assisted (played with the coach's help)" in text
    assert "Help: 2 hints asked and 1 warned action taken back." in text
    data = summary_data(summary)
    assert data["assisted"] is True and data["hints"] == 2 and data["taken_back"] == 1
    unaided = summarize([_decision(False) for _ in range(30)])
    assert not unaided.assisted and summary_data(unaided)["assisted"] is False


def _discard(code: str) -> object:
    from gintutor.engine.cards import Card
    from gintutor.engine.hand import Action

    return Action.discard(Card.parse(code).index)


def test_the_rating_bands_are_monotone_and_follow_the_ladder() -> None:
    limits = [limit for _, limit in BAND_LIMITS]
    assert limits == sorted(limits) and limits[0] > 0 and limits[-1] == 1.0
    assert [band for band, _ in BAND_LIMITS] == list(reversed(Band))
    rates = fitted_rates(CALIBRATION)
    assert rates == sorted(rates, reverse=True)
    # The levels the fit did not pool earn their own band; the ends of the ladder always do.
    own = [Band.BEGINNER, Band.CASUAL, Band.INTERMEDIATE, Band.ADVANCED, Band.EXPERT]
    for rate, band in zip(rates, own, strict=True):
        if rates.count(rate) == 1:
            assert band_of(rate) is band, (rate, band)
    assert band_of(rates[0]) is Band.BEGINNER
    assert band_of(rates[-1]) is Band.EXPERT
    previous = None
    for rate in [x / 1000 for x in range(1001)]:
        band = band_of(rate)
        if previous is not None:
            assert list(Band).index(band) <= list(Band).index(previous)
        previous = band


def test_bands_from_a_table_in_ladder_order_give_each_level_its_band() -> None:
    table = {
        "novice": (0.40, 4.0, 100),
        "simple": (0.30, 2.5, 100),
        "openspiel": (0.25, 2.0, 100),
        "heuristic": (0.15, 1.0, 100),
        "expert": (0.10, 0.6, 100),
    }
    limits = dict(band_limits(table))
    assert limits == {
        Band.WORLD_CLASS: 0.05,
        Band.EXPERT: 0.125,
        Band.ADVANCED: 0.2,
        Band.INTERMEDIATE: 0.275,
        Band.CASUAL: 0.35,
        Band.BEGINNER: 1.0,
    }


def test_review_is_the_same_with_one_or_two_processes() -> None:
    game = read_game_log(SHIPPED)
    one = review_game(game, judge_with=fake_judge, jobs=1)
    two = review_game(game, judge_with=fake_judge, jobs=2)
    assert one == two


def test_text_and_json_of_the_shipped_log(snapshot: object) -> None:
    game = parse_game_log(SHIPPED.read_text(encoding="utf-8"), "examples/game.txt")
    review = review_game(game, judge_with=fake_judge, seat_value=(1.0, 2.0))
    text = render_text(explain_review(review, Style(ascii_only=True)), ascii_only=True)
    assert text == snapshot
    data = review_data(review)
    assert data == snapshot.use_extension(JSONSnapshotExtension)
    decision = data["hands"][0]["decisions"][0]
    assert set(decision) >= {
        "hand",
        "turn",
        "phase",
        "action",
        "best",
        "loss",
        "loss_stderr",
        "grade",
        "reasons",
        "close",
    }
    assert set(data["summary"]) >= {
        "decisions",
        "errors",
        "error_rate",
        "mean_loss",
        "worst",
        "rating",
        "luck",
    }


def _saved_game(home: Path, hands: int = 2) -> str:
    """A short game saved by content/games.py: ``hands`` hands of bots, you in seat 1."""
    from gintutor.cli.progress import data_dir
    from gintutor.content.games import GameWriter, games_dir
    from gintutor.engine.bots import make_bot
    from gintutor.engine.match import play_hand

    rules = preset("standard")
    writer, header = GameWriter.create(
        games_dir(data_dir()),
        rules=rules,
        rules_spec="standard",
        bot="heuristic",
        coach="off",
        seed=5,
        you=1,
        first_dealer=0,
    )
    bots = [make_bot("heuristic"), make_bot("simple")]
    rngs = [random.Random(1), random.Random(2)]
    with writer:
        for number in range(1, hands + 1):
            deal = Deal.shuffled(random.Random(f"saved:{number}"), number % 2)
            state = play_hand(bots, deal, rules, rngs)
            writer.hand(number, deal)
            for player, action in _players(deal, rules, state.log):
                writer.action(number, player, action)
    return header.id


def _players(deal: Deal, rules: object, log: list[object]) -> list[tuple[int, object]]:
    from gintutor.engine.hand import HandState

    state = HandState(deal, rules)
    out = []
    for action in log:
        out.append((state.to_move, action))
        state.do(action)
    return out


def test_review_of_a_saved_game(home: Path) -> None:
    from gintutor.cli.reviewrun import load_played

    game_id = _saved_game(home)
    game = load_played("last")
    assert game.player == 1 and len(game.hands) == 2
    assert load_played(game_id) == game
    review = review_game(game, judge_with=fake_judge)
    assert review.source == f"saved game {game_id}"
    assert all(d.hand in (1, 2) for h in review.hands for d in h.decisions)
    assert review.summary.decisions == sum(h.summary.decisions for h in review.hands) > 0
    # Seat 1's decisions only: the information sets are the player's.
    assert review.hands[1].scores is not None


def _needs_the_win_table() -> None:
    """The coach's game-win chance reads a table shipped with it (the coach's own work)."""
    pytest.importorskip("gintutor.engine.wintables")


def test_cli_review_of_a_saved_game_with_the_coach(home: Path) -> None:
    _needs_the_win_table()
    _saved_game(home, hands=1)
    code, out, err = run("review", "--json", "--worlds", "12", "--jobs", "1")
    assert code == 0, err
    data = json.loads(out)
    assert data["player"] == 1 and len(data["hands"]) == 1
    assert data["summary"]["rating"] in [band.value for band in Band] + [None]


def test_cli_review_of_the_shipped_log_as_text() -> None:
    _needs_the_win_table()
    code, out, err = run("review", str(SHIPPED), "--worlds", "4", "--jobs", "1", "--ascii")
    assert code == 0, err
    assert "Review of" in out and "Hand 3" in out and "Rating:" in out


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["review"], 1, "error: no saved games yet"),
        (["review", "20990101-000000"], 2, "error: no saved game '20990101-000000'"),
        (["review", "nonsense-id"], 2, "error: no saved game 'nonsense-id'"),
        (["review", "."], 2, "error: .: a folder"),
        (["review", "--worlds", "0"], 2, "error: Invalid value for '--worlds'"),
    ],
)
def test_cli_errors(home: Path, args: list[str], status: int, message: str) -> None:
    code, out, err = run(*args)
    assert code == status and out == ""
    assert err.startswith(message) and err.count("\n") == 1, err


def test_cli_a_bad_log_line_names_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("hand\ndealer: them\ndealt: 7C 7D\n", encoding="utf-8")
    code, out, err = run("review", str(bad))
    assert code == 1 and out == ""
    assert err == f"error: {bad}:3: dealt: your 10 cards, got 2\n"


def test_the_example_review_is_reproducible() -> None:
    _needs_the_win_table()
    game = parse_game_log(EXAMPLE)
    first = review_game(game, worlds=12, seed=3)
    second = review_game(game, worlds=12, seed=3)
    assert first == second
    kinds = {d.action.kind for h in first.hands for d in h.decisions}
    assert Kind.KNOCK in kinds


@pytest.mark.parametrize("kind", list(ReasonKind))
def test_every_reason_kind_is_narrated(kind: ReasonKind) -> None:
    from gintutor.text.review import reason_text

    text = reason_text(Reason(kind, 0b111, 3, 5), Style(ascii_only=True))
    assert (text and text != kind.value.replace("-", " ")) or kind is ReasonKind.BIG_GIN


@pytest.mark.slow
def test_the_coach_review_is_the_same_on_one_or_two_processes() -> None:
    game = read_game_log(SHIPPED)
    one = review_game(game, worlds=48, seed=2, jobs=1)
    two = review_game(game, worlds=48, seed=2, jobs=2)
    assert one == two
    assert one.summary.decisions == 15


def _long_game(hands: int) -> PlayedGame:
    """``hands`` bot hands under a 1000-point target (the game stays open)."""
    import dataclasses

    from gintutor.engine.bots import make_bot
    from gintutor.engine.match import play_hand

    rules = dataclasses.replace(preset("standard"), target=1000)
    bots = [make_bot("simple"), make_bot("novice")]
    rngs = [random.Random(3), random.Random(4)]
    played = []
    for k in range(hands):
        state = play_hand(bots, Deal.shuffled(random.Random(f"long:{k}"), k % 2), rules, rngs)
        played.append(PlayedHand(state.deal, tuple(state.log)))
    return PlayedGame(rules, 1, tuple(played), scores=(7, 11))


def test_the_score_before_each_hand_is_kept_not_recomputed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 24: the review re-scored the whole sheet before every hand (quadratic: 10,000
    hands took over 300 s). Each finished hand's record is now read once."""
    from gintutor.engine.game import score_game
    from gintutor.engine.hand import HandResult

    game = _long_game(30)
    records = [replay(h.deal, game.rules, h.actions).result for h in game.hands]
    assert all(r is not None for r in records)
    lines = [r.record() for r in records if r is not None]
    assert not score_game(lines, game.rules).finished  # the game is open all along
    calls = 0
    original = HandResult.record

    def counted(self: HandResult) -> HandRecord:
        nonlocal calls
        calls += 1
        return original(self)

    monkeypatch.setattr(HandResult, "record", counted)
    replayed: list[tuple[int, int]] = []
    review = review_game(
        game, judge_with=fake_judge, replaying=lambda done, total: replayed.append((done, total))
    )
    assert calls <= len(game.hands)  # 435 calls for 30 hands when it re-scored every time
    assert replayed == [(n, 30) for n in range(1, 31)]
    # The scores each hand was judged at, against the sheet of the hands before it.
    for number, hand in enumerate(review.hands):
        totals = score_game(lines[:number], game.rules).totals
        assert hand.scores == (totals[1] + 11, totals[0] + 7)


def test_the_help_recorded_reaches_each_decision_and_the_text() -> None:
    import dataclasses

    from gintutor.tutor.review import Help

    game = parse_game_log(EXAMPLE)
    (hand,) = game.hands
    helps = [Help()] * len(hand.actions)
    helps[0] = Help(hints=1)  # the first action, your pass
    helps[-2] = Help(taken_back=(Action.parse("discard KD"),))
    game = dataclasses.replace(game, hands=(dataclasses.replace(hand, help=tuple(helps)),))
    review = review_game(game, judge_with=fake_judge)
    decisions = review.hands[0].decisions
    assert decisions[0].hints == 1 and decisions[0].taken_back == ()
    assert review.summary.hints == 1 and review.summary.assisted
    text = render_text(explain_review(review, Style(ascii_only=True)), ascii_only=True)
    assert "Turn 1, pass 9S: 1 hint asked first." in text
    data = review_data(review)
    assert data["summary"]["assisted"] is True
    assert data["hands"][0]["decisions"][0]["hints"] == 1


def _judged_against(game: PlayedGame, **options: object) -> set[object]:
    seen: set[object] = set()

    def spy(info: InfoSet, **kwargs: object) -> Verdict:
        seen.add(kwargs.get("opponent"))
        return fake_judge(info, **kwargs)  # type: ignore[arg-type]

    review_game(game, judge_with=spy, **options)  # type: ignore[arg-type]
    return seen


def test_the_review_judges_against_the_bot_at_the_table_or_a_strong_player() -> None:
    import dataclasses

    from gintutor.tutor.review import OpponentSource, opponent_for

    logged = parse_game_log(EXAMPLE)
    assert opponent_for(logged) == ("expert", OpponentSource.STRONG)
    assert _judged_against(logged) == {"expert"}
    at_table = dataclasses.replace(logged, bot="simple")
    assert opponent_for(at_table) == ("simple", OpponentSource.TABLE)
    assert _judged_against(at_table) == {"simple"}
    assert _judged_against(at_table, opponent="heuristic") == {"heuristic"}
    review = review_game(at_table, judge_with=fake_judge, opponent="novice")
    assert (review.opponent, review.opponent_source) == ("novice", OpponentSource.CHOSEN)
    assert review_data(review)["opponent"] == {"model": "novice", "source": "chosen"}
    text = render_text(explain_review(review, Style(ascii_only=True)), ascii_only=True)
    assert "plays like novice (chosen with --opponent-model)" in text
    table = review_game(at_table, judge_with=fake_judge)
    text = render_text(explain_review(table, Style(ascii_only=True)), ascii_only=True)
    assert "plays like simple, the bot at the table" in text


def test_cli_opponent_model(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gintutor.tutor import review as review_module

    _saved_game(home, hands=1)  # played against the heuristic
    monkeypatch.setattr(review_module, "judge", fake_judge)
    code, out, err = run("review", "--json", "--jobs", "1")
    assert code == 0, err
    assert json.loads(out)["opponent"] == {"model": "heuristic", "source": "table"}
    code, out, err = run("review", "--json", "--jobs", "1", "--opponent-model", "Simple")
    assert code == 0, err
    assert json.loads(out)["opponent"] == {"model": "simple", "source": "chosen"}
    code, out, err = run("review", "--opponent-model", "grandmaster")
    assert code == 2 and out == ""
    assert err.startswith("error: --opponent-model 'grandmaster': unknown bot; choose one of")


def _with_stored(game: PlayedGame, make: object) -> PlayedGame:
    """``game`` with a verdict 'given during play' on every decision of the player with a
    choice: ``make(info)`` builds it (a Stored or None)."""
    import dataclasses

    from gintutor.engine.hand import HandState

    hands = []
    for hand in game.hands:
        state = HandState(hand.deal, game.rules)
        stored = []
        for action in hand.actions:
            mine = state.to_move == game.player
            info = state.infoset(state.to_move)
            choice = mine and len(info.legal_actions()) > 1
            stored.append(make(info) if choice else None)  # type: ignore[operator]
            state.do(action)
        hands.append(dataclasses.replace(hand, stored=tuple(stored)))
    return dataclasses.replace(game, hands=tuple(hands))


def _counting() -> tuple[list[Phase], object]:
    calls: list[Phase] = []

    def judge(info: InfoSet, **kwargs: object) -> Verdict:
        calls.append(info.phase)
        return fake_judge(info, **kwargs)  # type: ignore[arg-type]

    return calls, judge


def _stored_by(version: str, worlds: int, opponent: str = "expert") -> object:
    import dataclasses

    from gintutor.tutor.review import Stored

    def make(info: InfoSet) -> Stored:
        verdict = fake_judge(info, worlds=worlds, seconds=0.4, seed=0, scores=None, rollouts=None)
        return Stored(version, dataclasses.replace(verdict, opponent=opponent))

    return make


def test_the_review_reuses_the_verdicts_given_during_play() -> None:
    from gintutor.engine.judgement import VERSION
    from gintutor.tutor.review import REUSE_WORLDS

    plain = parse_game_log(EXAMPLE)
    calls, judge = _counting()
    fresh = review_game(plain, judge_with=judge)  # type: ignore[arg-type]
    assert len(calls) == 5 and fresh.reused == 0
    game = _with_stored(plain, _stored_by(VERSION, REUSE_WORLDS))
    calls, judge = _counting()
    review = review_game(game, judge_with=judge)  # type: ignore[arg-type]
    assert calls == [Phase.DRAW]  # the forced draw only: the coach gave no verdict on it
    assert review.reused == 4 == sum(d.reused for d in review.hands[0].decisions)
    figures = ("decisions", "errors", "error_rate", "mean_loss", "luck", "deal_luck", "rating")
    # The same verdicts, the same figures.
    assert [getattr(review.summary, f) for f in figures] == [
        getattr(fresh.summary, f) for f in figures
    ]
    data = review_data(review)
    assert data["reused"] == 4 and [d["reused"] for d in data["hands"][0]["decisions"]] == [
        True,
        False,
        True,
        True,
        True,
    ]
    text = render_text(explain_review(review, Style(ascii_only=True)), ascii_only=True)
    assert "4 of 5 verdicts were given during the game" in text
    # Judged again: everything, when asked to.
    calls, judge = _counting()
    review_game(game, judge_with=judge, reuse_worlds=None)  # type: ignore[arg-type]
    assert len(calls) == 5


def test_an_exact_verdict_is_reused_whatever_the_deals_asked() -> None:
    from gintutor.engine.judgement import VERSION

    game = _with_stored(parse_game_log(EXAMPLE), _stored_by(VERSION, 0))
    calls, judge = _counting()
    review = review_game(game, judge_with=judge, reuse_worlds=768)  # type: ignore[arg-type]
    assert len(calls) == 1 and review.reused == 4


@pytest.mark.parametrize(
    ("version", "worlds", "opponent", "why"),
    [
        ("0", 256, "expert", "another coach version"),
        (None, 4, "expert", "under-sampled"),
        (None, 256, "simple", "another opponent model"),
    ],
)
def test_stale_or_under_sampled_verdicts_are_judged_again(
    version: str | None, worlds: int, opponent: str, why: str
) -> None:
    from gintutor.engine.judgement import VERSION

    game = _with_stored(parse_game_log(EXAMPLE), _stored_by(version or VERSION, worlds, opponent))
    calls, judge = _counting()
    review = review_game(game, judge_with=judge)  # type: ignore[arg-type]
    assert len(calls) == 5 and review.reused == 0, why


def test_a_coached_game_is_reviewed_from_its_own_verdicts(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the files: play saves the coach's verdicts, review reuses them."""
    from gintutor.cli.playrun import _Saver
    from gintutor.cli.progress import data_dir
    from gintutor.cli.reviewrun import played_of
    from gintutor.content.games import GameWriter, games_dir, load_game
    from gintutor.tutor.session import Budget, CoachedGame, CoachMode

    def coach(info: InfoSet, **options: object) -> Verdict:
        verdict = fake_judge(info, worlds=64, seconds=0.4, seed=0, scores=None, rollouts=None)
        return Verdict(info.player, info.phase, verdict.judged, 64, 0.1, str(options["opponent"]))

    writer, _ = GameWriter.create(
        games_dir(data_dir()),
        rules=preset("standard"),
        rules_spec="standard",
        bot="simple",
        coach="on",
        seed=3,
        you=0,
        first_dealer=1,
    )
    session = CoachedGame(
        preset("standard"),
        "simple",
        CoachMode.ON,
        3,
        _Saver(writer),
        judge_with=coach,
        budget=Budget(64, 0.4),
    )
    from gintutor.engine.bots import make_bot

    me = make_bot("simple")
    session.deal()
    while session.in_hand:
        if not session.your_turn:
            session.bot_turn()
            continue
        assert session.state is not None
        action = me.act(session.state.infoset(0), random.Random(1))
        flag = session.check(action)
        session.play(action, flagged=flag is not None)
    writer.close()
    saved = load_game(writer.path)
    notes = [a.coach for a in saved.hands[0].actions if a.player == 0 and a.coach]
    assert notes and all(n.verdict is not None and n.verdict.budget == (64, 0.4) for n in notes)
    calls, judge = _counting()
    review = review_game(played_of(saved), judge_with=judge)  # type: ignore[arg-type]
    assert review.opponent == "simple" and review.reused == len(notes)
    assert len(calls) == sum(len(h.decisions) for h in review.hands) - len(notes)


def _step(monkeypatch: pytest.MonkeyPatch, stdin: str, *args: str) -> tuple[int, str, str]:
    from gintutor.tutor import review as review_module

    monkeypatch.setattr(review_module, "judge", fake_judge)
    return run("review", str(SHIPPED), "--step", "--jobs", "1", "--ascii", *args, stdin=stdin)


def test_step_walks_decision_by_decision_reading_commands_from_a_pipe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, err = _step(monkeypatch, "n\ne\np\n15\nn\nbogus\nq\n")
    assert code == 0, err
    boards = [line for line in out.splitlines() if line.startswith("Decision ")]
    # 1, n -> 2, e -> the next error after 2, p -> back one, 15, n at the end stays.
    assert boards[:2] == ["Decision 1 of 15: hand 1, turn 1", "Decision 2 of 15: hand 1, turn 2"]
    assert boards[-1] == "Decision 15 of 15: hand 3, turn 3" and len(boards) == 5
    assert "Your hand: " in out and "Pile top: 4S" in out and "Stock: 31 cards." in out
    assert "They took nothing; they passed nothing." in out
    assert "That was the last decision." in out
    assert "Type n, p, e, a number from 1 to 15, or q." in out
    assert "choice" in out and "why" in out and "leaves 31 deadwood" in out


def test_step_ends_at_the_end_of_piped_input_and_refuses_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, err = _step(monkeypatch, "")  # nothing piped: the first board, then the end
    assert code == 0, err
    assert out.count("Decision 1 of 15") == 1 and "Decision 2" not in out
    code, out, err = _step(monkeypatch, "", "--json")
    assert code == 2 and out == ""
    assert err == "error: --step walks through the review on screen: leave out --json\n"


def test_plain_review_output_is_not_changed_by_the_step_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gintutor.tutor import review as review_module

    monkeypatch.setattr(review_module, "judge", fake_judge)
    code, out, _ = run("review", str(SHIPPED), "--jobs", "1", "--ascii", stdin="n\nq\n")
    assert code == 0 and "Decision 1 of" not in out and "Hand 3" in out
