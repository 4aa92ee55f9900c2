"""Game scoring: totals, target, game bonus, boxes, both shutout rules, voids, Hollywood."""

from __future__ import annotations

import pytest

from gintutor.engine.game import BonusKind, HandRecord, score_game, score_match
from gintutor.engine.rules import from_mapping, preset
from gintutor.engine.scoring import Outcome
from gintutor.errors import GinError

STANDARD = preset("standard")
CLASSIC = preset("classic")


def won(player: int, points: int, outcome: Outcome = Outcome.KNOCK) -> HandRecord:
    return HandRecord.won(player, outcome, points)


def test_running_totals_and_an_open_game() -> None:
    sheet = score_game([won(0, 20), HandRecord.void(), won(1, 35, Outcome.UNDERCUT)], STANDARD)
    assert [line.totals for line in sheet.lines] == [(20, 0), (20, 0), (20, 35)]
    assert not sheet.finished and sheet.bonuses == () and sheet.margin == 0
    assert sheet.hands_won == (1, 1)


def test_game_bonus_and_boxes_do_not_count_toward_target() -> None:
    sheet = score_game([won(0, 60), won(1, 30), won(0, 45)], STANDARD)
    assert sheet.finished and sheet.winner == 0 and not sheet.shutout
    kinds = {(b.player, b.kind): b.points for b in sheet.bonuses}
    assert kinds == {(0, BonusKind.GAME): 100, (0, BonusKind.BOX): 50, (1, BonusKind.BOX): 25}
    assert sheet.final_totals == (105 + 100 + 50, 30 + 25)
    assert sheet.margin == 255 - 55


def test_shutout_double_doubles_hand_points_before_boxes() -> None:
    sheet = score_game([won(1, 70), won(1, 40)], STANDARD)
    assert sheet.shutout and sheet.winner == 1
    assert sheet.final_totals == (0, 110 * 2 + 100 + 2 * 25)


def test_shutout_bonus_200_replaces_the_game_bonus() -> None:
    sheet = score_game([won(0, 70), won(0, 40)], CLASSIC)
    assert sheet.final_totals == (110 + 200 + 2 * 20, 0)
    assert [b.setting for b in sheet.bonuses if b.kind is BonusKind.GAME] == ["shutout"]


def test_portuguese_house_rules_no_box_no_game_bonus() -> None:
    rules = from_mapping({"base": "classic", "box_bonus": 0, "game_bonus": 0, "target": 250})
    sheet = score_game([won(0, 200), won(1, 10), won(0, 60)], rules)
    assert sheet.finished and sheet.final_totals == (260, 10)


def test_portuguese_text_pays_no_shutout_bonus() -> None:
    # RULES.md §2: "A gin 120", "A gin 140" ends 260 under the Portuguese text, not 460.
    sheet = score_game([won(0, 120, Outcome.GIN), won(0, 140, Outcome.GIN)], preset("portuguese"))
    assert sheet.finished and sheet.shutout
    assert sheet.final_totals == (260, 0) and sheet.bonuses == ()


def test_without_shutout_none_classic_house_rules_inherit_the_200_bonus() -> None:
    rules = from_mapping({"base": "classic", "box_bonus": 0, "game_bonus": 0, "target": 250})
    sheet = score_game([won(0, 120, Outcome.GIN), won(0, 140, Outcome.GIN)], rules)
    assert sheet.final_totals == (460, 0)


def test_indonesian_text_pays_boxes_only_to_the_game_winner() -> None:
    sheet = score_game([won(0, 60), won(1, 30), won(0, 45)], preset("indonesian"))
    kinds = {(b.player, b.kind): b.points for b in sheet.bonuses}
    assert kinds == {(0, BonusKind.GAME): 100, (0, BonusKind.BOX): 50}
    assert sheet.final_totals == (105 + 100 + 50, 30)


def test_void_hands_score_nothing_and_win_no_box() -> None:
    sheet = score_game([HandRecord.void(), won(0, 100)], STANDARD)
    assert sheet.hands_won == (1, 0) and sheet.shutout


def test_oklahoma_target_and_spade_doubling_from_counts() -> None:
    oklahoma = preset("oklahoma")
    record = HandRecord.from_deadwood(1, 0, 20, oklahoma, multiplier=2)
    assert (record.winner, record.outcome, record.points) == (1, Outcome.GIN, 90)
    assert not score_game([record], oklahoma).finished  # 90 < 150
    undercut = HandRecord.from_deadwood(0, 8, 3, oklahoma)
    assert (undercut.winner, undercut.points) == (1, 30)


def test_no_hand_after_the_game_is_over() -> None:
    with pytest.raises(GinError, match="hand 3: the game was already over after hand 2"):
        score_game([won(0, 50), won(0, 50), won(1, 10)], STANDARD)


def test_bad_records_are_refused() -> None:
    with pytest.raises(GinError):
        HandRecord(2, Outcome.KNOCK, 10)
    with pytest.raises(GinError):
        HandRecord(0, Outcome.KNOCK, -1)


def test_hollywood_entries_first_win_game_one_then_more_columns() -> None:
    hollywood = preset("hollywood")
    match = score_match([won(0, 10), won(1, 5), won(0, 20), won(0, 30)], hollywood)
    assert [game.totals for game in match.games] == [(60, 5), (50, 0), (30, 0)]
    assert [game.hands_won for game in match.games] == [(3, 1), (2, 0), (1, 0)]


def test_hollywood_closed_game_takes_no_more_entries_and_settles_alone() -> None:
    hollywood = preset("hollywood")
    records = [won(0, 40), won(1, 10), won(0, 40), won(0, 40), won(0, 30)]
    match = score_match(records, hollywood)
    first, second, third = match.games
    assert first.finished and first.totals == (120, 10) and not first.shutout
    assert first.final_totals == (120 + 100 + 3 * 25, 10 + 25)
    # Game 2 got player 0's wins 2 to 4 (hand 5 closed it), game 3 wins 3 and 4; player 1's
    # only win belongs to game 1.
    assert second.totals == (110, 0) and second.finished and second.shutout
    assert second.final_totals == (110 * 2 + 100 + 3 * 25, 0)
    assert third.totals == (70, 0) and not third.finished
    assert not match.finished


def test_hollywood_match_ends_when_all_three_close() -> None:
    hollywood = preset("hollywood")
    records = [won(0, 100)] * 3
    match = score_match(records, hollywood)
    assert match.finished
    with pytest.raises(GinError, match="the match was already over"):
        score_match([*records, won(1, 5)], hollywood)


def test_hollywood_a_first_win_after_game_one_closed_enters_no_game() -> None:
    # RULES.md §3 read literally: a first win goes to game 1 only, and a closed game takes no
    # more entries.
    match = score_match([won(0, 100), won(1, 30)], preset("hollywood"))
    assert [game.totals for game in match.games] == [(100, 0), (0, 0), (0, 0)]
    assert [line.hand for line in match.unentered] == [2]
