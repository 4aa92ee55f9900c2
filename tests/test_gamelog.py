"""The game log reader: a hand-written game, completed consistently and replayed by the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from gintutor.content.gamelog import EXAMPLE, THEM, YOU, LogError, parse_game_log, read_game_log
from gintutor.engine.hand import HandState, InfoSet, Kind, replay
from gintutor.engine.scoring import Outcome

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
