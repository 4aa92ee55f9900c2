"""The game log reader: a hand-written game, completed consistently and replayed by the engine."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from gintutor.content.gamelog import (
    EXAMPLE,
    THEM,
    YOU,
    LogError,
    log_text,
    parse_game_log,
    read_game_log,
)
from gintutor.engine.bots import make_bot
from gintutor.engine.game import HandRecord
from gintutor.engine.hand import Action, Deal, HandResult, HandState, InfoSet, Kind, replay
from gintutor.engine.judgement import Grade, Judged, Verdict
from gintutor.engine.match import play_hand
from gintutor.engine.rules import RULE_SETS, preset
from gintutor.engine.scoring import Outcome
from gintutor.tutor.review import PlayedGame, PlayedHand, review_game

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "examples" / "game.txt"


def _infosets(text: str, completion: int) -> list[InfoSet]:
    """Your information set at each of your decisions, hand after hand."""
    game = parse_game_log(text, completion=completion)
    found = []
    for hand in game.hands:
        state = HandState(hand.deal, game.rules)
        for action in hand.actions:
            if state.to_move == YOU:
                found.append(state.infoset(YOU))
            state.do(action)
    return found


def test_the_example_replays_to_your_knock() -> None:
    game = parse_game_log(EXAMPLE)
    state = replay(game.hands[0].deal, game.rules, game.hands[0].actions)
    assert state.result is not None and state.result.knocker == YOU
    assert state.result.outcome is Outcome.KNOCK and state.result.points == 23


@pytest.mark.parametrize(
    "text", [EXAMPLE, SHIPPED.read_text(encoding="utf-8")], ids=["doc", "file"]
)
def test_two_completions_give_the_same_infosets(text: str) -> None:
    first = parse_game_log(text, completion=0)
    second = parse_game_log(text, completion=7)
    assert [h.deal for h in first.hands] != [h.deal for h in second.hands]
    assert _infosets(text, 0) == _infosets(text, 7)
    assert _infosets(text, 0) == _infosets(text, 12345)


def test_completion_is_consistent_with_what_they_showed() -> None:
    game = parse_game_log(SHIPPED.read_text(encoding="utf-8"), completion=3)
    for hand in game.hands:
        state = replay(hand.deal, game.rules, hand.actions)
        assert state.over
    # Their discards were in their hand: the engine accepted every action above.


def test_the_shipped_example_reads() -> None:
    game = read_game_log(SHIPPED)
    assert len(game.hands) == 3
    last = game.hands[-1]
    kinds = [a.kind for a in last.actions]
    assert Kind.KNOCK in kinds


def _error(text: str) -> str:
    with pytest.raises(LogError) as caught:
        parse_game_log(text, "g.txt")
    return str(caught.value)


HEAD = "hand\ndealer: them\ndealt: 7C 7D 7H 5H 6H 8H AS 2S 3S KD\nupcard: 9S\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bogus\n", "g.txt:1: 'bogus': a log starts with"),
        ("rules: nonsense\nhand\n", "g.txt:1: unknown rule set 'nonsense'"),
        ("score: 1\n", "g.txt:1: score: '1': give your score and theirs"),
        ("hand\ndealer: nobody\n", "g.txt:2: dealer: 'nobody'"),
        ("hand\ndealt: 7C 7D\n", "g.txt:2: dealt: your 10 cards, got 2"),
        ("hand\nyou pass\n", "g.txt:2: a hand's 'dealer:', 'dealt:' and 'upcard:'"),
        (HEAD + "you fly\n", "g.txt:5: 'you fly': unknown action 'fly'"),
        (HEAD + "you draw\n", "g.txt:5: you draw CARD"),
        (HEAD + "them pass\n", "g.txt:5: it is your turn (take or pass the upcard), not theirs"),
        (HEAD + "you pass\nthem pass\nyou draw 7C\n", "g.txt:7: 7C cannot be drawn from the stock"),
        (HEAD + "you pass\nthem pass\nyou draw 4H\nyou discard QS\n", "g.txt:8: you don't hold QS"),
        (
            HEAD + "you pass\nthem pass\nyou draw 4H\nyou discard KD\nthem draw\nthem discard 4H\n",
            "g.txt:10: 4H cannot be discarded by them: it was drawn from the stock (line 7)",
        ),
        (
            HEAD + "you pass\nthem take\nthem discard 9S\n",
            "g.txt:7: 9S was just taken from the discard pile",
        ),
        (
            HEAD + "you pass\nthem pass\nyou draw 4H\nyou knock KD: 4H 5H 6H\n",
            "g.txt:8: the spread leaves",
        ),
        (HEAD + "you pass\nthem pass\nyou draw 4H\nyou discard KD\nhand\n", "g.txt:1: this hand"),
        (
            HEAD + "you pass\nthem pass\nyou draw 4H\nyou discard KD\nthem draw\n"
            "them knock: 2C 3C 4C\n",
            "g.txt:10: their knock shows 3 of their 11 cards",
        ),
        (HEAD + "them hand: 2C 3C 4C 9D TD JD QS JS 5D 6D\n", "g.txt:5: 'them hand:' shows"),
        ("", "g.txt: no 'hand' line"),
    ],
)
def test_errors_name_the_line(text: str, message: str) -> None:
    assert _error(text).startswith(message), _error(text)


def test_a_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(Exception) as caught:
        read_game_log(tmp_path)
    assert "folder" in str(caught.value)


def test_their_knock_is_replayed_with_a_face_down_card_nobody_saw() -> None:
    text = (
        HEAD + "you pass\nthem pass\nyou draw 4H\nyou discard KD\nthem draw\n"
        "them knock: 2C 3C 4C | 9D TD JD | QC QH QD; deadwood AC\nyou lay-off: -\n"
    )
    game = parse_game_log(text)
    state = replay(game.hands[0].deal, game.rules, game.hands[0].actions)
    assert state.result is not None and state.result.knocker == THEM
    assert state.result.knocker_deadwood == 1


def test_a_bot_game_written_as_a_log_reads_back_with_the_same_infosets() -> None:
    import random

    from gintutor.content.gamelog import log_text
    from gintutor.engine.bots import make_bot
    from gintutor.engine.hand import Deal
    from gintutor.engine.match import play_hand
    from gintutor.engine.rules import preset
    from gintutor.tutor.review import PlayedGame, PlayedHand

    rules = preset("standard")
    bots = [make_bot("heuristic"), make_bot("simple")]
    rngs = [random.Random(1), random.Random(2)]
    hands = []
    for k in range(4):
        state = play_hand(bots, Deal.shuffled(random.Random(f"rt:{k}"), k % 2), rules, rngs)
        hands.append(PlayedHand(state.deal, tuple(state.log)))
    for seat in (0, 1):
        original = PlayedGame(rules, seat, tuple(hands))
        text = log_text(original)
        wanted = []
        for hand in hands:
            state = HandState(hand.deal, rules)
            for action in hand.actions:
                if state.to_move == seat:
                    info = state.infoset(seat)
                    wanted.append((info.hand, info.pile, info.events, info.phase, info.taken))
                state.do(action)
        got = [(i.hand, i.pile, i.events, i.phase, i.taken) for i in _infosets(text, 5)]
        # Seats differ (you are seat 0 in a log): compare what the player saw.
        if seat == 0:
            assert got == wanted
        else:
            assert [g[:2] + g[3:] for g in got] == [w[:2] + w[3:] for w in wanted]


# A knock's face-down card is one the log does not show (issue 25). They hold 11 cards when
# they knock and show 10: a card they took from the pile earlier and kept, that the knock does
# not show, is the face-down discard; the card taken this turn may not be thrown.
NINE_S, KING_D = 12 * 0 + 3 * 13 + 8, 1 * 13 + 12
"""9S and KD as card indices (suit x 13 + rank - 1, suits C D H S)."""


SET_CARD_TAKEN_EARLIER = HEAD + (
    "you pass\nthem take\nthem discard QC\nyou draw 4H\nyou discard KD\nthem draw\n"
    "them knock: 9C 9D 9H | 2C 3C 4C | TD JD QD; deadwood AC\nyou lay-off: -\n"
)


def _their_knock(text: str) -> tuple[Action, HandResult]:
    game = parse_game_log(text, completion=3)
    hand = game.hands[0]
    state = replay(hand.deal, game.rules, hand.actions)
    (knock,) = [a for a in hand.actions if a.kind is Kind.KNOCK]
    assert state.result is not None and state.result.knocker == THEM
    return knock, state.result


def test_a_set_card_taken_earlier_is_their_face_down_discard() -> None:
    # They take the upcard, 9S (a fourth nine), discard QC; you draw 4H and discard KD; they
    # draw and knock without the 9S: it went face down.
    knock, result = _their_knock(SET_CARD_TAKEN_EARLIER)
    assert knock.card == NINE_S
    assert result.knocker_deadwood == 1


def test_a_run_card_taken_earlier_is_the_face_down_discard_of_a_gin_knock() -> None:
    text = HEAD + (
        "you pass\n"
        "them pass\n"
        "you draw 4H\n"
        "you discard KD\n"
        "them take\n"  # KD: it extends their diamonds
        "them discard QC\n"
        "you draw 9C\n"
        "you discard 9C\n"
        "them draw\n"
        "them knock: 2C 3C 4C | 9D TD JD QD | 5C 5D 5S\n"  # gin, the KD face down
    )
    knock, result = _their_knock(text)
    assert knock.card == KING_D
    assert result.knocker_deadwood == 0 and result.outcome is Outcome.GIN


def test_their_knock_must_show_the_card_taken_this_turn() -> None:
    text = HEAD + (
        "you pass\n"
        "them pass\n"
        "you draw 4H\n"
        "you discard KD\n"
        "them take\n"
        "them knock: 2C 3C 4C | 9D TD JD | QC QH QS; deadwood AC\n"
    )
    assert _error(text) == (
        "g.txt:10: their knock does not show KD, the card they took from the pile this turn "
        "(line 9): it cannot be the card they discard, so it is among their melds or deadwood"
    )


def test_two_known_cards_missing_from_their_knock_are_named() -> None:
    text = HEAD + (
        "you pass\n"
        "them take\n"  # 9S, line 6
        "them discard QC\n"
        "you draw 4H\n"
        "you discard KD\n"
        "them take\n"  # KD, line 10
        "them discard JC\n"
        "you draw 9C\n"
        "you discard 9C\n"
        "them draw\n"
        "them knock: 2C 3C 4C | 9D TD JD | QH QS QD; deadwood AC\n"
    )
    assert _error(text) == (
        "g.txt:15: their knock does not show KD (they took it, line 10) and 9S (they took it, "
        "line 6): they still held them and only one card goes face down; list the others "
        "among the melds or the deadwood"
    )


def test_their_big_gin_must_show_every_card_they_took() -> None:
    text = HEAD + (
        "you pass\n"
        "them take\n"  # 9S, line 6
        "them discard QC\n"
        "you draw 4H\n"
        "you discard KD\n"
        "them draw\n"
        "them big-gin: 2C 3C 4C | 9D TD JD QD | 5C 5D 5H 5S\n"
    )
    assert _error(text) == (
        "g.txt:11: their big gin does not show 9S (they took it, line 6): a big gin melds all "
        "11 they hold"
    )


def test_their_hand_after_your_knock_must_show_what_they_took() -> None:
    text = HEAD + (
        "you pass\n"
        "them take\n"  # 9S
        "them discard QC\n"
        "you draw 4H\n"
        "you knock KD: 4H 5H 6H | 7C 7D 7H | AS 2S 3S\n"
        "them hand: 2C 3C 4C 9D TD JD QD 5C 5D 5S\n"
    )
    assert _error(text).startswith(
        "g.txt:10: 'them hand:' does not show 9S (they took it, line 6)"
    ), _error(text)


def test_a_card_listed_twice_in_their_knock_is_named() -> None:
    text = HEAD + (
        "you pass\nthem pass\nyou draw 4H\nyou discard KD\nthem draw\n"
        "them knock: 2C 3C 4C | 4C 5C 6C | 9D TD JD; deadwood AC\n"
    )
    assert _error(text) == "g.txt:10: 4C: listed twice in their knock"


# Logs written from bot games (your side only, as the format asks) read back and review.
FAST_BOTS = ("novice", "simple", "heuristic")


def _bot_game(seed: int, rules_name: str, hands: int) -> PlayedGame:
    """``hands`` hands between two bots drawn from a seeded generator, dealt from seeded decks."""
    rng = random.Random(f"gamelog-property:{seed}")
    rules = preset(rules_name)
    bots = [make_bot(rng.choice(FAST_BOTS)), make_bot(rng.choice(FAST_BOTS))]
    rngs = [random.Random(rng.random()), random.Random(rng.random())]
    played = []
    for k in range(hands):
        deal = Deal.shuffled(random.Random(rng.random()), (seed + k) % 2)
        state = play_hand(bots, deal, rules, rngs)
        played.append(PlayedHand(state.deal, tuple(state.log)))
    scores = (rng.randrange(0, 60), rng.randrange(0, 60)) if rng.random() < 0.5 else (0, 0)
    return PlayedGame(rules, rng.randrange(2), tuple(played), scores)


def _seen(game: PlayedGame, seat: int) -> list[tuple[object, ...]]:
    """What ``seat`` saw at each of its decisions, and each hand's result."""
    seen: list[tuple[object, ...]] = []
    for hand in game.hands:
        state = HandState(hand.deal, game.rules)
        for action in hand.actions:
            if state.to_move == seat:
                info = state.infoset(seat)
                seen.append((info.hand, info.pile, info.phase, info.taken, info.stock_size))
            state.do(action)
        result = state.result
        seen.append(("result", None if result is None else result.record()))
    return seen


def _flip(seen: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """The same, with the seats swapped in each result (you are seat 0 in a log)."""
    out: list[tuple[object, ...]] = []
    for item in seen:
        if item[0] == "result" and item[1] is not None:
            record = item[1]
            assert isinstance(record, HandRecord)
            winner = None if record.winner is None else 1 - record.winner
            item = ("result", dataclasses.replace(record, winner=winner))
        out.append(item)
    return out


def _written_and_read_back(game: PlayedGame) -> PlayedGame:
    text = log_text(game)
    try:
        again = parse_game_log(text, "bot.txt", completion=1)
    except LogError as error:
        pytest.fail(f"{error}\n--- the log ---\n{text}")
    wanted = _seen(game, game.player)
    got = _seen(again, YOU)
    assert got == (wanted if game.player == YOU else _flip(wanted))
    return again


def _same_judge(
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
    """A stand-in coach that values every legal action alike (the review's path, not its
    verdicts, is under test here)."""
    judged = tuple(
        Judged(a, 0.0, 0.0, 0.0, 0.0, None, None, Grade.BEST, False, ())
        for a in info.legal_actions()
    )
    return Verdict(info.player, info.phase, judged, worlds, 0.0)


@pytest.mark.parametrize("seed", range(12))
def test_bot_games_written_as_logs_read_back_and_review(seed: int) -> None:
    again = _written_and_read_back(_bot_game(seed, "standard", 3))
    review = review_game(again, judge_with=_same_judge)
    assert len(review.hands) == 3


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", sorted(RULE_SETS))
def test_many_bot_games_written_as_logs_read_back(rules_name: str) -> None:
    for seed in range(20):
        game = _bot_game(seed, rules_name, 3)
        again = _written_and_read_back(game)
        review_game(again, judge_with=_same_judge)


def test_cli_reviews_a_log_whose_face_down_card_was_taken_earlier(tmp_path: Path) -> None:
    from clirun import run

    log = tmp_path / "game.txt"
    log.write_text(SET_CARD_TAKEN_EARLIER, encoding="utf-8")
    code, out, err = run("review", str(log), "--json", "--worlds", "4", "--jobs", "1")
    assert code == 0, err
    assert len(json.loads(out)["hands"]) == 1


def test_cli_names_the_card_taken_this_turn_missing_from_their_knock(tmp_path: Path) -> None:
    from clirun import run

    log = tmp_path / "game.txt"
    log.write_text(
        HEAD + "you pass\nthem pass\nyou draw 4H\nyou discard KD\nthem take\n"
        "them knock: 2C 3C 4C | 9D TD JD | QC QH QS; deadwood AC\n",
        encoding="utf-8",
    )
    code, out, err = run("review", str(log))
    assert code == 1 and out == ""
    assert err.startswith(f"error: {log}:10: their knock does not show KD, the card they took")
