"""The Carousel solver: rule clauses, and the optimum against independent oracles.

Both exact algorithms, the integer programme solved by HiGHS (``Method.HIGHS``, what
``best_play`` uses when ``highspy`` is installed) and the pure dynamic programme
(``Method.DP``), are checked against

* a brute force (every sub-multiset of the hand, every partition of the table into melds with
  every joker declaration, every one-to-one continuation) on small positions: points, cards
  and the fewest cards moved;
* an integer programme (every meld template of 3 to 5 cards a variable, jokers per position)
  solved by SciPy's HiGHS on two-deck positions of real size: points and cards; and a plain
  one with the labels (every meld of any length, jokers per place): points, cards and moves,
  itself checked against the dynamic programme, on tables of up to 90 cards;
* each other on positions of every size: points, cards and moves (the dynamic programme is the
  oracle of the HiGHS model's labels, freed jokers and fewest moves on tables too big for the
  brute force).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gintutor.engine.cards import CARDS, Card
from gintutor.engine.carousel import solver
from gintutor.engine.carousel.cards import (
    Hand,
    Meld,
    MeldKind,
    Slot,
    Table,
    make_meld,
    parse_hand_cards,
    parse_table,
)
from gintutor.engine.carousel.rules import CarouselRules, Objective
from gintutor.engine.carousel.solver import Method, MoveKind, Play, best_play, verify_play
from gintutor.errors import CardError, IllegalError

try:
    import highspy  # noqa: F401

    HAVE_HIGHS = True
except ImportError:  # the dynamic programme alone is then tested
    HAVE_HIGHS = False

METHODS = [
    Method.DP,
    pytest.param(
        Method.HIGHS, marks=pytest.mark.skipif(not HAVE_HIGHS, reason="highspy not installed")
    ),
]


EXACT: tuple[Method, ...] = (Method.DP, Method.HIGHS) if HAVE_HIGHS else (Method.DP,)
"""The exact algorithms, for the tests that compare them all with one costly oracle's answer
(computed once for both: the brute force of ``seed`` 5 alone is ~1.2 s CPU)."""


@pytest.fixture(params=METHODS, ids=lambda m: m.value)
def method(request: pytest.FixtureRequest) -> Method:
    """Each exact algorithm in turn."""
    value: Method = request.param
    return value


def solve(
    table: str, hand: str, decks: int = 2, method: Method = Method.AUTO, **kw: object
) -> Play | None:
    return best_play(parse_table(table), parse_hand_cards(hand), decks, method=method, **kw)  # type: ignore[arg-type]


def summary(play: Play | None) -> tuple[int, int, int] | None:
    if play is None:
        return None
    return (play.points_placed, play.cards_placed, len(play.moves))


# --- rule clauses ---------------------------------------------------------------------------


def test_empty_table_plays_own_melds(method: Method) -> None:
    play = solve("", "7C 7D 7S 2H 3H 4H KC", method=method)
    assert play is not None
    assert play.table.text() == "7C 7D 7S | 2H 3H 4H"
    assert play.hand_after.text() == "KC"
    assert play.points_after == 10


def test_no_play_when_nothing_fits(method: Method) -> None:
    assert solve("7H 8H 9H", "2C 5D KS", method=method) is None


def test_sequence_ace_high_or_low_never_round_the_corner(method: Method) -> None:
    assert solve("", "QS KS AS", method=method).table.text() == "QS KS AS"  # type: ignore[union-attr]
    assert solve("", "AS 2S 3S", method=method).table.text() == "AS 2S 3S"  # type: ignore[union-attr]
    assert solve("", "KS AS 2S", method=method) is None
    with pytest.raises(CardError, match="not a group or a sequence"):
        parse_table("KS AS 2S")


def test_group_never_holds_two_identical_cards(method: Method) -> None:
    assert solve("", "8S 8S 8H", decks=2, method=method) is None
    play = solve("", "8S 8S 8H 8H 8D 8C", decks=2, method=method)
    assert play is not None and play.table.text() == "8C 8H 8S | 8D 8H 8S"
    with pytest.raises(CardError, match="same suit"):
        parse_table("8S 8S 8H")


def test_rearranging_moves_a_card_to_a_new_meld(method: Method) -> None:
    play = solve("7H 8H 9H 10H", "7C 7D", method=method)
    assert play is not None
    assert play.table.text() == "7C 7D 7H | 8H 9H TH"
    (move,) = play.moves
    assert move.kind is MoveKind.MOVED and move.slot.code == "7H"
    assert move.from_meld.text() == "7H 8H 9H TH" and move.to_meld.text() == "7C 7D 7H"


def test_fewest_moves_among_equal_plays(method: Method) -> None:
    # 5H fits at the end of 2H-4H: no table card needs to move.
    play = solve("2H 3H 4H | 6H 7H 8H", "5H", method=method)
    assert play is not None and len(play.moves) == 0
    assert play.table.text() in ("2H 3H 4H 5H | 6H 7H 8H", "2H 3H 4H | 5H 6H 7H 8H")


def test_split_counts_the_smaller_piece_as_moved(method: Method) -> None:
    play = solve("3H 4H 5H 6H 7H 8H", "5H", method=method)
    assert play is not None
    assert play.table.text() == "3H 4H 5H | 5H 6H 7H 8H"
    assert len(play.moves) == 2


def test_first_meld_uses_only_own_cards(method: Method) -> None:
    # With the table usable, 9H extends the sequence; as a first meld it cannot.
    assert summary(solve("6H 7H 8H", "9H 2C 2D 2S", method=method)) == (15, 4, 0)
    play = solve("6H 7H 8H", "9H 2C 2D 2S", first_meld=True, method=method)
    assert play is not None
    assert play.table.text() == "2C 2D 2S | 6H 7H 8H" and play.hand_after.text() == "9H"
    assert solve("6H 7H 8H", "9H", first_meld=True, method=method) is None


def test_joker_keeps_its_card_unless_the_real_card_replaces_it(method: Method) -> None:
    # Without the real 7C the joker stays 7C: 2H-3H cannot use it.
    play = solve("JK=7C 7D 7S", "2H 3H", method=method)
    assert play is None
    # With the real 7C, the joker is freed and must be used again: as 4H or AH.
    play = solve("JK=7C 7D 7S", "7C 2H 3H", method=method)
    assert play is not None
    assert play.cards_placed == 3
    (move,) = play.moves
    assert move.kind is MoveKind.FREED and move.before.code == "JK=7C"
    assert move.slot.card.code in ("AH", "4H")


def test_freed_joker_must_find_a_new_meld(method: Method) -> None:
    # 7C would free the joker, but the group is full and the joker has nowhere to go.
    assert solve("JK=7C 7D 7S 7H", "7C", decks=1, method=method) is None
    assert solve("JK=7C 7D 7S 7H", "7C", decks=2, method=method) is None
    # In a group of three the freed joker stays as the fourth card, standing for 7H.
    play = solve("JK=7C 7D 7S", "7C", decks=1, method=method)
    assert play is not None and play.table.text() == "7C 7D JK=7H 7S"


def test_joker_may_move_keeping_its_card(method: Method) -> None:
    # JK=9H moves from the group of nines to 7H 8H, still standing for 9H.
    play = solve("9C 9D JK=9H 9S", "7H 8H", decks=2, method=method)
    assert play is not None and play.cards_placed == 2
    assert "7H 8H JK=9H" in play.table.text()


def test_hand_joker_stands_for_any_card(method: Method) -> None:
    play = solve("", "JK 5H 6H 2C", method=method)
    assert play is not None
    assert play.points_placed == 25 + 11 and play.hand_after.text() == "2C"


def test_objective_setting_is_read(method: Method) -> None:
    cards = CarouselRules(objective=Objective.CARDS_THEN_POINTS)
    for table, hand in (("", "JS QS KS 2C 3C 4C 5C"), ("2C 3C 4C", "AC 5C KH KD")):
        assert summary(solve(table, hand, method=method)) == summary(
            solve(table, hand, rules=cards, method=method)
        )


def test_verify_play_rejects_illegal_results() -> None:
    table = parse_table("JK=7C 7D 7S")
    hand = parse_hand_cards("7C 2H 3H")
    with pytest.raises(IllegalError, match="changed without"):
        verify_play(table, parse_hand_cards("2H 3H 7H"), parse_table("JK=4H 2H 3H | 7D 7S 7H"), 2)
    with pytest.raises(IllegalError, match="left the table"):
        verify_play(table, hand, parse_table("7C JK=7H 7S"), 2)
    with pytest.raises(IllegalError, match="at least one card"):
        verify_play(table, hand, table, 2)
    placed = verify_play(table, hand, parse_table("7C 7D 7S | 2H 3H JK=4H"), 2)
    assert placed.text() == "7C 2H 3H"


def test_notation_errors_name_the_token() -> None:
    with pytest.raises(CardError, match="'1X'"):
        parse_table("7H 8H 1X")
    with pytest.raises(CardError, match="JK=7H"):
        parse_table("7H 8H JK")
    with pytest.raises(CardError, match="meld 2"):
        parse_table("7H 8H 9H | 2C 2D")
    assert parse_table("7♥, 8h 10♥ 9H").text() == "7H 8H 9H TH"


def test_card_held_three_times_is_an_error() -> None:
    with pytest.raises(CardError, match="7H is there 3 times"):
        best_play(parse_table("7H 8H 9H | 7H 7C 7D"), parse_hand_cards("7H"), 2)


# --- random positions -----------------------------------------------------------------------


def random_melds(
    rng: random.Random,
    decks: int,
    count: int,
    joker_rate: float = 0.15,
) -> tuple[list[Meld], Counter[Card], int]:
    """A random table of valid melds from the decks, and what is left (cards, jokers)."""
    left: Counter[Card] = Counter({card: decks for card in CARDS})
    jokers = decks
    melds: list[Meld] = []
    for _ in range(count * 5):
        if len(melds) >= count:
            break
        if rng.random() < 0.5:
            rank = rng.randint(1, 13)
            suits = rng.sample(range(4), rng.choice((3, 3, 4)))
            cards = [Card.from_index(s * 13 + rank - 1) for s in suits]
        else:
            suit = rng.randrange(4)
            length = rng.choice((3, 3, 4, 5))
            start = rng.randint(1, 15 - length)
            cards = [
                Card.from_index(suit * 13 + (p if p <= 13 else 1) - 1)
                for p in range(start, start + length)
            ]
        if any(left[c] == 0 for c in cards):
            continue
        slots = [Slot(c) for c in cards]
        if jokers and rng.random() < joker_rate:
            # The joker's card counts as shown: it is taken out of what is left.
            i = rng.randrange(len(slots))
            slots[i] = Slot(cards[i], joker=True)
            jokers -= 1
        for c in cards:
            left[c] -= 1
        melds.append(make_meld(slots))
    return melds, left, jokers


def random_position(
    rng: random.Random, decks: int, melds: int, hand_size: int, joker_rate: float = 0.15
) -> tuple[Table, Hand]:
    """A random table and a hand drawn partly from cards that fit it."""
    table_melds, left, jokers = random_melds(rng, decks, melds, joker_rate)
    table = Table.of(table_melds)
    pool = list(left.elements())
    near = [
        c
        for c in pool
        if any(
            (s.card.suit is c.suit and abs(s.card.rank.number - c.rank.number) <= 2)
            or s.card.rank is c.rank
            for s in table.slots()
        )
    ]
    cards: list[Card] = []
    for _ in range(hand_size):
        source = near if near and rng.random() < 0.6 else pool
        card = rng.choice(source)
        if cards.count(card) + 1 > left[card]:
            continue
        cards.append(card)
    hand_jokers = 1 if jokers and rng.random() < joker_rate else 0
    return table, Hand.of(cards, hand_jokers)


# --- brute force ----------------------------------------------------------------------------

Item = tuple[Card, str, int]  # (card, kind: 'real' | 'kept', origin or -1)


def _templates(card: Card, decks: int, limit: int) -> Iterator[list[Card]]:
    """Every meld (as its cards) containing ``card``, up to ``limit`` cards."""
    others = [s for s in range(4) if s != card.suit.index]
    rank = card.rank.number
    for size in (2, 3):
        if size + 1 > limit:
            continue
        for chosen in _combos(others, size):
            yield [card] + [Card.from_index(s * 13 + rank - 1) for s in chosen]
    positions = [rank] + ([14] if rank == 1 else [])
    for p in positions:
        for length in range(3, min(limit, 14) + 1):
            for start in range(max(1, p - length + 1), min(p, 15 - length) + 1):
                if length == 14:
                    continue  # A...K-A would hold the ace at both ends: never round the corner
                yield [
                    Card.from_index(card.suit.index * 13 + (q if q <= 13 else 1) - 1)
                    for q in range(start, start + length)
                ]


def _combos(values: list[int], k: int) -> Iterator[tuple[int, ...]]:
    from itertools import combinations

    return combinations(values, k)


def _partitions(items: list[Item], wild: int) -> Iterator[list[list[tuple[Card, Item | None]]]]:
    """Every split of the items (and exactly ``wild`` jokers) into valid melds."""
    if not items:
        if wild == 0:
            yield []
        return
    items = sorted(items, key=lambda it: (it[0].index, it[1], it[2]))
    first = items[0]
    rest = items[1:]
    for cards in _templates(first[0], 2, len(items) + wild):
        # cards[0] is first's card only for groups; find first's place.
        need = list(cards)
        need.remove(first[0])
        yield from _fill(need, rest, wild, [(first[0], first)], cards)


def _fill(
    need: list[Card],
    rest: list[Item],
    wild: int,
    chosen: list[tuple[Card, Item | None]],
    cards: list[Card],
) -> Iterator[list[list[tuple[Card, Item | None]]]]:
    if not need:
        for tail in _partitions(rest, wild):
            yield [list(chosen), *tail]
        return
    card = need[0]
    seen = set()
    for i, item in enumerate(rest):
        if item[0] == card and (item[1], item[2]) not in seen:
            seen.add((item[1], item[2]))
            chosen.append((card, item))
            yield from _fill(need[1:], rest[:i] + rest[i + 1 :], wild, chosen, cards)
            chosen.pop()
    if wild:
        chosen.append((card, None))
        yield from _fill(need[1:], rest, wild - 1, chosen, cards)
        chosen.pop()


def _kept(parts: list[list[tuple[Card, Item | None]]], kinds: list[MeldKind]) -> int:
    """Most table cards kept in place over one-to-one continuations (kind to kind)."""
    options = []
    for part in parts:
        kind = make_meld(Slot(c) for c, _ in part).kind
        counts = Counter(
            item[2]
            for _, item in part
            if item is not None and item[2] >= 0 and kinds[item[2]] is kind
        )
        options.append(counts)
    best = 0

    def rec(i: int, used: set[int], total: int) -> None:
        nonlocal best
        if i == len(options):
            best = max(best, total)
            return
        rec(i + 1, used, total)
        for label, n in options[i].items():
            if label not in used:
                used.add(label)
                rec(i + 1, used, total + n)
                used.discard(label)

    rec(0, set(), 0)
    return best


def brute(table: Table, hand: Hand, decks: int) -> tuple[int, int, int] | None:
    """(points, cards, fewest moved) of the best play, by exhaustive search."""
    from itertools import product

    table_items: list[Item] = []
    jokers: list[tuple[Card, int]] = []
    kinds = [meld.kind for meld in table.melds]
    for origin, meld in enumerate(table.melds):
        for slot in meld:
            if slot.joker:
                jokers.append((slot.card, origin))
            else:
                table_items.append((slot.card, "real", origin))
    hand_counts = Counter(hand.cards)
    distinct = sorted(hand_counts)
    best: tuple[int, int, int] | None = None
    table_cards = table.card_count
    choices = []
    for counts in product(*[range(hand_counts[c] + 1) for c in distinct]):
        for hand_jokers in range(hand.jokers + 1):
            placed = [c for c, n in zip(distinct, counts, strict=True) for _ in range(n)]
            if placed or hand_jokers:
                points = sum(c.points for c in placed) + 25 * hand_jokers
                choices.append((points, len(placed) + hand_jokers, placed, hand_jokers))
    # Best (points, cards) first: stop after the first level with a legal play.
    choices.sort(key=lambda choice: choice[:2], reverse=True)
    for points, cards, placed, hand_jokers in choices:
        if best is not None and (points, cards) < best[:2]:
            break
        real = table_items + [(c, "hand", -1) for c in placed]
        real_count = Counter(item[0] for item in real)
        for freed_mask in range(1 << len(jokers)):
            freed = [jokers[i] for i in range(len(jokers)) if freed_mask >> i & 1]
            freed_count = Counter(card for card, _ in freed)
            if any(real_count[c] < n for c, n in freed_count.items()):
                continue
            kept: list[Item] = [
                (card, "kept", o) for i, (card, o) in enumerate(jokers) if not freed_mask >> i & 1
            ]
            wild = len(freed) + hand_jokers
            for parts in _partitions(real + kept, wild):
                shown = Counter(c for part in parts for c, _ in part)
                if any(n > decks for n in shown.values()):
                    continue
                moved = table_cards - _kept(parts, kinds)
                if best is None or (points, cards, -moved) > (best[0], best[1], -best[2]):
                    best = (points, cards, moved)
    return best


def test_brute_force_agrees_on_a_known_position(method: Method) -> None:
    table, hand = parse_table("JK=7C 7D 7S | QH KH AH"), parse_hand_cards("7C 2H 3H 5D")
    assert brute(table, hand, 2) == summary(best_play(table, hand, 2, method=method)) == (12, 3, 1)


def _compare_brute(seed: int, decks: int) -> None:
    rng = random.Random(seed)
    table, hand = random_position(rng, decks, rng.randint(1, 3), rng.randint(2, 4))
    expected = brute(table, hand, decks)
    for method in EXACT:
        play = best_play(table, hand, decks, method=method)
        assert summary(play) == expected, (method, table.text(), hand.text())
        if play is not None:
            assert verify_play(table, hand, play.table, decks) == play.placed


@pytest.mark.parametrize("seed", range(10))
def test_solver_equals_brute_force(seed: int) -> None:
    _compare_brute(seed, 1 + seed % 2)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 315))
def test_solver_equals_brute_force_many(seed: int) -> None:
    _compare_brute(seed, 1 + seed % 2)


# --- integer programme (SciPy HiGHS) --------------------------------------------------------


def milp_best(table: Table, hand: Hand, decks: int) -> tuple[int, int] | None:
    """(points, cards) of the best play by an integer programme over meld templates."""
    np = pytest.importorskip("numpy")
    optimize = pytest.importorskip("scipy.optimize")
    sparse = pytest.importorskip("scipy.sparse")
    templates: list[list[int]] = []
    for rank in range(1, 14):
        for size in (3, 4):
            for suits in _combos(list(range(4)), size):
                templates.append([s * 13 + rank - 1 for s in suits])
    for suit in range(4):
        for length in (3, 4, 5):
            for start in range(1, 15 - length + 1):
                templates.append(
                    [suit * 13 + (p if p <= 13 else 1) - 1 for p in range(start, start + length)]
                )
    real = Counter(s.card.index for s in table.slots() if not s.joker)
    declared = Counter(s.card.index for s in table.slots() if s.joker)
    held = Counter(c.index for c in hand.cards)
    names: list[tuple[str, int, int]] = []
    for t in range(len(templates)):
        names.append(("x", t, -1))
    for t, cells in enumerate(templates):
        for c in cells:
            names.append(("j", t, c))
    for c in range(52):
        names += [("h", c, -1), ("f", c, -1), ("w", c, -1)]
    names.append(("hj", -1, -1))
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    lower = np.zeros(n)
    upper = np.full(n, float(decks))
    for c in range(52):
        upper[index[("h", c, -1)]] = held[c]
        upper[index[("f", c, -1)]] = declared[c]
    upper[index[("hj", -1, -1)]] = hand.jokers
    rows: list[dict[int, float]] = []
    lo: list[float] = []
    hi: list[float] = []

    def add(row: dict[int, float], low: float, high: float) -> None:
        rows.append(row)
        lo.append(low)
        hi.append(high)

    for t, cells in enumerate(templates):
        for c in cells:  # jokers in a template's place at most its copies
            add({index[("j", t, c)]: 1, index[("x", t, -1)]: -1}, -np.inf, 0)
    for c in range(52):
        real_row: dict[int, float] = {index[("h", c, -1)]: -1}
        joker_row: dict[int, float] = {index[("w", c, -1)]: -1, index[("f", c, -1)]: 1}
        capacity: dict[int, float] = {}
        for t, cells in enumerate(templates):
            if c in cells:
                real_row[index[("x", t, -1)]] = real_row.get(index[("x", t, -1)], 0) + 1
                real_row[index[("j", t, c)]] = -1
                joker_row[index[("j", t, c)]] = 1
                capacity[index[("x", t, -1)]] = 1
        add(real_row, real[c], real[c])
        add(joker_row, declared[c], declared[c])
        add(capacity, -np.inf, decks)
        add({index[("f", c, -1)]: 1, index[("h", c, -1)]: -1}, -np.inf, real[c])
    balance: dict[int, float] = {index[("hj", -1, -1)]: -1}
    for c in range(52):
        balance[index[("w", c, -1)]] = 1
        balance[index[("f", c, -1)]] = -1
    add(balance, 0, 0)
    matrix = sparse.lil_matrix((len(rows), n))
    for r, row in enumerate(rows):
        for col, value in row.items():
            matrix[r, col] = value
    weight = np.zeros(n)
    for c in range(52):
        weight[index[("h", c, -1)]] = -(Card.from_index(c).points * 64 + 1)
    weight[index[("hj", -1, -1)]] = -(25 * 64 + 1)
    result = optimize.milp(
        weight,
        integrality=np.ones(n),
        bounds=optimize.Bounds(lower, upper),
        constraints=optimize.LinearConstraint(matrix.tocsr(), lo, hi),
    )
    assert result.status == 0, result.message
    value = round(-result.fun)
    if value == 0:
        return None
    return value // 64, value % 64


def _compare_milp(seed: int, joker_rate: float) -> None:
    rng = random.Random(seed)
    table, hand = random_position(rng, 2, rng.randint(2, 5), 8, joker_rate)
    best, moves = milp_best(table, hand, 2), milp_moves(table, hand, 2)
    for method in EXACT:
        play = best_play(table, hand, 2, method=method)
        found = None if play is None else (play.points_placed, play.cards_placed)
        assert found == best, (method, table.text(), hand.text())
        assert summary(play) == moves, (method, table.text(), hand.text())


@pytest.mark.parametrize("seed", range(3))
def test_solver_equals_integer_programme(seed: int) -> None:
    _compare_milp(1000 + seed, joker_rate=0.0)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 40))
def test_solver_equals_integer_programme_many(seed: int) -> None:
    _compare_milp(1000 + seed, joker_rate=0.15)


# --- property tests: random positions, the passes of the exact search ----------------------


@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_property_solver_equals_brute_force(seed: int) -> None:
    _compare_brute(seed, 1 + seed % 2)


@pytest.mark.slow
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_property_solver_equals_brute_force_many(seed: int) -> None:
    _compare_brute(seed, 1 + seed % 2)


def _compare_passes(seed: int) -> None:
    """The exact pass with its prunings (cards-moved limit from the quick pass, dominated
    labellings dropped) finds as many table cards kept as the pass without them, and never
    fewer than the quick pass."""
    rng = random.Random(seed)
    table, hand = random_position(rng, 2, rng.randint(3, 8), rng.randint(5, 10), 0.2)
    problem = solver._problem(table, hand, 2, Objective.POINTS_THEN_CARDS)
    relaxed = solver._relaxed(problem)
    target = relaxed.suffix(0, relaxed.start())
    if target < solver.FIELD:  # no card can be placed
        assert best_play(table, hand, 2, method=Method.DP) is None
        return
    quick = solver._solve_dp(problem, relaxed, target, quick=True, limit=solver.FIELD)
    assert quick is not None and quick[0] >> 9 == target >> 9  # same points and cards
    found = solver._solve(problem)
    assert found is not None
    try:
        solver._DOMINANCE = False
        plain = solver._solve_dp(problem, relaxed, target, quick=False, limit=solver.FIELD)
    finally:
        solver._DOMINANCE = True
    assert plain is not None
    assert found[0] == plain[0] >= quick[0], (table.text(), hand.text())
    play = best_play(table, hand, 2, method=Method.DP)
    assert play is not None
    assert len(play.moves) <= table.card_count - found[0] % solver.FIELD
    assert verify_play(table, hand, play.table, 2) == play.placed


@settings(max_examples=10, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_property_prunings_keep_the_fewest_moves(seed: int) -> None:
    _compare_passes(seed)


@pytest.mark.slow
@settings(max_examples=70, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_property_prunings_keep_the_fewest_moves_many(seed: int) -> None:
    _compare_passes(seed)


# --- the two exact algorithms against each other --------------------------------------------

needs_highs = pytest.mark.skipif(not HAVE_HIGHS, reason="highspy not installed")


def _compare_methods(
    seed: int, melds: tuple[int, int], hand_size: tuple[int, int], joker_rate: float = 0.2
) -> None:
    """The HiGHS model and the dynamic programme agree on points, cards and moves, for the
    whole table, the first meld and the bounded search, either objective; the model's play
    is legal and its moves are the table cards not in the meld continuing their old meld."""
    rng = random.Random(seed)
    decks = 2 if seed % 4 else 1
    table, hand = random_position(
        rng, decks, rng.randint(*melds), rng.randint(*hand_size), joker_rate
    )
    rules = CarouselRules(
        objective=Objective.CARDS_THEN_POINTS if seed % 3 == 0 else Objective.POINTS_THEN_CARDS
    )
    cases: list[dict[str, object]] = [{}, {"first_meld": True}]
    if len(table.melds) > 3:
        cases.append({"only": solver.nearby_melds(table, hand)})
    for kw in cases:
        dp = best_play(table, hand, decks, rules, method=Method.DP, **kw)  # type: ignore[arg-type]
        ip = best_play(table, hand, decks, rules, method=Method.HIGHS, **kw)  # type: ignore[arg-type]
        assert summary(ip) == summary(dp), (table.text(), hand.text(), kw)
        if ip is None:
            continue
        assert verify_play(table, hand, ip.table, decks) == ip.placed
        assert ip.hand_after == hand - ip.placed
        for meld, label in zip(ip.table.melds, ip.continued, strict=True):
            if label is not None:
                assert table.melds[label].kind is meld.kind
        labels = [label for label in ip.continued if label is not None]
        assert len(labels) == len(set(labels))  # an old meld is continued at most once
        moved = sum(1 for move in ip.moves if move.kind is MoveKind.MOVED)
        freed = sum(1 for move in ip.moves if move.kind is MoveKind.FREED)
        assert freed <= sum(meld.jokers for meld in table.melds)
        assert moved + freed == len(ip.moves)
        if kw.get("first_meld"):
            assert ip.moves == () and all(meld in ip.table.melds for meld in table.melds)


@needs_highs
@pytest.mark.parametrize("seed", range(12))
def test_highs_equals_dynamic_programme(seed: int) -> None:
    _compare_methods(seed, (3, 8), (5, 10))


@needs_highs
@settings(max_examples=15, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_property_highs_equals_dynamic_programme(seed: int) -> None:
    _compare_methods(seed, (2, 8), (3, 10))


@pytest.mark.slow
@needs_highs
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_property_highs_equals_dynamic_programme_many(seed: int) -> None:
    _compare_methods(seed, (2, 14), (3, 11), joker_rate=0.3)


@needs_highs
def test_highs_equals_dynamic_programme_with_every_joker_rule() -> None:
    # A table joker freed by a hand card (7C), with a hand joker (two decks) or alone (one).
    for table_text, hand_text, decks in (
        ("JK=7C 7D 7S | 5D 6D 7D | 2H 3H 4H 5H | 9S TS JS", "7C 7H QS 6H AH JK 8D", 2),
        ("JK=7C 7D 7S | 2H 3H 4H 5H | 9S TS JS", "7C QS 6H AH 8D", 1),
    ):
        table, hand = parse_table(table_text), parse_hand_cards(hand_text)
        dp = best_play(table, hand, decks, method=Method.DP)
        ip = best_play(table, hand, decks, method=Method.HIGHS)
        assert summary(ip) == summary(dp)
        assert ip is not None and verify_play(table, hand, ip.table, decks) == ip.placed
        if decks == 1:  # the real 7C and the joker standing for it never lie there together
            assert any(move.kind is MoveKind.FREED for move in ip.moves)


def test_closing_aces_are_a_range() -> None:
    from gintutor.engine.carousel.relaxed import CLOSE_RANGE, CLOSES

    for row, closing in zip(CLOSES, CLOSE_RANGE, strict=True):
        assert [u for u in range(5) if row[u]] == (
            list(range(closing[0], closing[1] + 1)) if closing else []
        )


def _joker_tables(seed: int, count: int) -> Iterator[tuple[Table, Hand, CarouselRules]]:
    """Random two-deck tables of 20-39 cards (the dynamic programme's share of ``AUTO``),
    each with a joker on the table or in the hand; every fifth counts cards first."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        table, hand = random_position(rng, 2, rng.randint(5, 12), rng.randint(5, 11), 0.4)
        jokers = sum(meld.jokers for meld in table.melds) + hand.jokers
        if not 20 <= table.card_count < solver.DP_FIRST_UNDER or not jokers:
            continue
        objective = Objective.CARDS_THEN_POINTS if made % 5 == 4 else Objective.POINTS_THEN_CARDS
        made += 1
        yield table, hand, CarouselRules(objective=objective)


def _compare_joker_tables(seed: int, count: int) -> None:
    """The dynamic programme (unbounded and within ``AUTO``'s budget) finds the points, cards
    and moves of the HiGHS model on joker tables of 20-39 cards."""
    for table, hand, rules in _joker_tables(seed, count):
        ip = summary(best_play(table, hand, 2, rules, method=Method.HIGHS))
        assert summary(best_play(table, hand, 2, rules, method=Method.DP)) == ip, (
            table.text(),
            hand.text(),
        )
        assert summary(best_play(table, hand, 2, rules)) == ip, (table.text(), hand.text())


@needs_highs
def test_highs_equals_dynamic_programme_on_joker_tables() -> None:
    _compare_joker_tables(7, 6)


@pytest.mark.slow
@needs_highs
def test_highs_equals_dynamic_programme_on_joker_tables_many() -> None:
    _compare_joker_tables(12345, 200)  # ~18 s CPU: the worst tables take the programme 0.4 s


def milp_moves(table: Table, hand: Hand, decks: int) -> tuple[int, int, int] | None:
    """(points, cards, fewest moved) of the best play by SciPy's HiGHS on a plain programme:
    every group and every sequence of any length, unlabelled or continuing each old meld of
    its kind that shares a card, with the jokers in the labelled melds' places per place, no
    pruning of melds (the model in ``highs.py`` prunes them and counts kept cards per meld)."""
    np = pytest.importorskip("numpy")
    optimize = pytest.importorskip("scipy.optimize")
    sparse = pytest.importorskip("scipy.sparse")
    groups = [
        [s * 13 + rank for s in suits]
        for rank in range(13)
        for size in (3, 4)
        for suits in _combos(list(range(4)), size)
    ]
    sequences = [
        [suit * 13 + (p if p <= 13 else 1) - 1 for p in range(start, end + 1)]
        for suit in range(4)
        for start in range(1, 13)
        for end in range(start + 2, 15)
        if (start, end) != (1, 14)
    ]
    real = Counter(s.card.index for s in table.slots() if not s.joker)
    declared = Counter(s.card.index for s in table.slots() if s.joker)
    held = Counter(c.index for c in hand.cards)
    cols: list[tuple[float, float, float]] = []  # (cost, lower, upper)
    entries: list[tuple[int, int, float]] = []  # (row, col, value)
    lo: list[float] = []
    hi: list[float] = []

    def col(cost: float, upper: float) -> int:
        cols.append((cost, 0.0, upper))
        return len(cols) - 1

    def row(low: float, high: float) -> int:
        lo.append(low)
        hi.append(high)
        return len(lo) - 1

    real_row = {c: row(real[c], real[c]) for c in range(52)}
    joker_row = {c: row(declared[c], declared[c]) for c in range(52)}
    cap_row = {c: row(-np.inf, decks) for c in range(52)}
    kept_real: dict[tuple[int, int], list[tuple[int, int]]] = {}  # (L, c) -> (z, jz or -1)
    kept_joker: dict[tuple[int, int], list[int]] = {}  # (L, c) -> jz columns
    for cards in groups + sequences:
        x = col(0.0, decks)
        for c in cards:
            entries += [(real_row[c], x, 1), (cap_row[c], x, 1)]
            j = col(0.0, decks)  # jokers in this meld's place of c
            entries += [(real_row[c], j, -1), (joker_row[c], j, 1)]
            limit = row(-np.inf, 0)
            entries += [(limit, j, 1), (limit, x, -1)]
    for label, meld in enumerate(table.melds):
        own = {slot.card.index: slot.joker for slot in meld}
        pool = groups if meld.kind is MeldKind.GROUP else sequences
        label_row = row(-np.inf, 1)
        for cards in pool:
            if own.keys().isdisjoint(cards):
                continue
            z = col(0.0, 1)
            entries.append((label_row, z, 1))
            for c in cards:
                entries += [(real_row[c], z, 1), (cap_row[c], z, 1)]
                j = col(0.0, 1)
                entries += [(real_row[c], j, -1), (joker_row[c], j, 1)]
                limit = row(-np.inf, 0)
                entries += [(limit, j, 1), (limit, z, -1)]
                if c in own:
                    kept_real.setdefault((label, c), []).append((z, j))
                    kept_joker.setdefault((label, c), []).append(j)
    table_cards = table.card_count
    cards_weight = table_cards + 1
    points_weight = cards_weight * (len(hand) + 1)
    freed: dict[int, int] = {}
    wild_row = row(0, 0)
    hand_cols: dict[int, int] = {}
    for c in range(52):
        if held[c]:
            h = hand_cols[c] = col(
                Card.from_index(c).points * points_weight + cards_weight, held[c]
            )
            entries.append((real_row[c], h, -1))
        w = col(0.0, decks)
        entries += [(joker_row[c], w, -1), (wild_row, w, 1)]
        if declared[c]:
            f = freed[c] = col(0.0, declared[c])
            entries += [(joker_row[c], f, 1), (wild_row, f, -1)]
            only_real = row(-np.inf, real[c])
            entries.append((only_real, f, 1))
            if c in hand_cols:
                entries.append((only_real, hand_cols[c], -1))
    hand_jokers = col(25 * points_weight + cards_weight, hand.jokers)
    entries.append((wild_row, hand_jokers, -1))
    kept_jokers_of: dict[int, list[int]] = {}
    for (label, c), places in kept_real.items():
        k = col(1.0, 1)
        limit = row(-np.inf, 0)
        entries.append((limit, k, 1))
        if table.melds[label].slots and any(
            slot.joker and slot.card.index == c for slot in table.melds[label]
        ):
            for j in kept_joker[(label, c)]:
                entries.append((limit, j, -1))
            kept_jokers_of.setdefault(c, []).append(k)
        else:
            for z, j in places:
                entries += [(limit, z, -1), (limit, j, 1)]
    for c, ks in kept_jokers_of.items():
        # Jokers kept in place are among those not freed.
        limit = row(-np.inf, declared[c])
        entries += [(limit, k, 1) for k in ks]
        if c in freed:
            entries.append((limit, freed[c], 1))
    matrix = sparse.coo_matrix(
        ([v for _, _, v in entries], ([r for r, _, _ in entries], [k for _, k, _ in entries])),
        shape=(len(lo), len(cols)),
    ).tocsr()
    result = optimize.milp(
        -np.array([cost for cost, _, _ in cols]),
        integrality=np.ones(len(cols)),
        bounds=optimize.Bounds([c[1] for c in cols], [c[2] for c in cols]),
        constraints=optimize.LinearConstraint(matrix, lo, hi),
        options={"mip_rel_gap": 0.0},
    )
    assert result.status == 0, result.message
    value = round(-result.fun)
    if value < cards_weight:
        return None
    return (
        value // points_weight,
        value % points_weight // cards_weight,
        table_cards - value % cards_weight,
    )


def _compare_big(seed: int) -> None:
    """On tables of 60 cards or more (beyond the dynamic programme's reach in a test), the
    HiGHS model finds the points, cards and moves of SciPy's plain programme (the points and
    cards of the first one too) with a legal play."""
    rng = random.Random(seed)
    table, hand = Table(), Hand()
    while table.card_count < 60:
        table, hand = random_position(rng, 2, rng.randint(16, 26), 10, joker_rate=0.4)
    play = best_play(table, hand, 2, method=Method.HIGHS)
    found = summary(play)
    assert found == milp_moves(table, hand, 2), (table.text(), hand.text())
    assert (found and found[:2]) == milp_best(table, hand, 2), (table.text(), hand.text())
    if play is not None:
        assert verify_play(table, hand, play.table, 2) == play.placed


@pytest.mark.slow
@needs_highs
@pytest.mark.parametrize("seed", range(25))  # SciPy's plain programme: ~8 s CPU a table
def test_highs_equals_integer_programme_on_big_tables(seed: int) -> None:
    _compare_big(2000 + seed)


BIG = "2C 3C 4C | 5D 6D 7D 8D | 9H TH JH | AS 2S 3S | 7C 7H 7S | QC QD QH QS | KC KD KS"


@pytest.fixture
def highs_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry for every time ``best_play`` asks for the HiGHS backend."""
    calls: list[int] = []
    real_highs = solver._highs

    def counted() -> object:
        calls.append(1)
        return real_highs()

    monkeypatch.setattr(solver, "_highs", counted)
    return calls


def test_auto_uses_highs_from_twenty_table_cards(highs_calls: list[int]) -> None:
    calls = highs_calls
    assert parse_table(BIG).card_count >= solver.HIGHS_FROM > parse_table("7H 8H 9H").card_count
    small = solve("7H 8H 9H", "TH")
    first = solve(BIG, "TH 5S 6S 7S", first_meld=True)
    assert calls == []
    more = " | 4H 5H 6H 7H 8H | TS JS QS KS | 9D TD JD | 2D 3D 4D | 9C TC JC"
    big = solve(BIG + more, "QH 5S")  # 41 cards: straight to HiGHS
    assert calls == [1]
    assert summary(small) == (10, 1, 0) and summary(big) == (15, 2, 12)
    assert first is not None and first.placed.text() == "5S 6S 7S"


@pytest.mark.parametrize(("hand", "expected"), [("QH 5S", (10, 1, 0)), ("QH 5S JK", (40, 3, 0))])
def test_auto_tries_the_dynamic_programme_first_under_forty_cards(
    monkeypatch: pytest.MonkeyPatch,
    highs_calls: list[int],
    hand: str,
    expected: tuple[int, int, int],
) -> None:
    """With or without a joker (here JK=4S 5S), a table of 20-39 cards is solved by the
    dynamic programme within its budget, and by HiGHS beyond it."""
    calls = highs_calls
    assert solver.HIGHS_FROM <= parse_table(BIG).card_count < solver.DP_FIRST_UNDER
    within = solve(BIG, hand)
    assert calls == []  # solved within the budget: no highspy
    monkeypatch.setattr(solver, "DP_BUDGET", 1)
    beyond = solve(BIG, hand)
    assert calls == [1]  # over the budget: handed to HiGHS
    assert summary(within) == summary(beyond) == expected


def test_auto_falls_back_to_the_dynamic_programme(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "highspy", None)  # import highspy raises ImportError
    monkeypatch.delitem(sys.modules, "gintutor.engine.carousel.highs", raising=False)
    monkeypatch.delattr("gintutor.engine.carousel.highs", raising=False)
    assert solver._highs() is None
    assert not solver._highs_installed()
    for hand in ("7D 7C", "7D 7C JK"):  # without a backend, the programme runs unbounded
        play = solve(BIG, hand)
        assert play is not None
        assert summary(play) == summary(solve(BIG, hand, method=Method.DP))


# --- the ace at both ends: a sequence never turns the corner (two decks) ----------------------

HEARTS_2_K = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
CLUBS_A_Q = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"
TWO_ACES = [
    # (table, hand, (points, cards, moved)): the brute force's figures (checked in the slow
    # test below). With two decks both aces of a suit can lie at the two ends of one suit's
    # cards; the answer is then two sequences, never one A...K-A.
    (HEARTS_2_K, "AH AH", (2, 2, 2)),  # A-J and Q-K-A: Q, K move
    (HEARTS_2_K, "AH JK", (26, 2, 1)),  # A 2 JK=3 and 3-K: 2H moves
    (HEARTS_2_K, "JK JK", (50, 2, 1)),
    ("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", "AH AH KH", (12, 3, 1)),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", "AH KH", (11, 2, 1)),
    (CLUBS_A_Q + " KC", "AC", (1, 1, 2)),  # A-2-3 and 4-K-A... 2C, 3C move
    (CLUBS_A_Q, "KC JK", (35, 2, 1)),
    ("", CLUBS_A_Q + " KC JK", (110, 14, 0)),  # A-J and Q K JK=A
    (HEARTS_2_K + " | AS AD AC", "AH JK", (26, 2, 0)),
]


@pytest.mark.parametrize(("table", "hand", "expected"), TWO_ACES)
def test_sequence_never_holds_the_ace_at_both_ends(
    table: str, hand: str, expected: tuple[int, int, int], method: Method
) -> None:
    play = solve(table, hand, decks=2, method=method)
    assert summary(play) == expected
    assert play is not None
    assert verify_play(parse_table(table), parse_hand_cards(hand), play.table, 2) == play.placed
    for meld in play.table.melds:
        if meld.kind is MeldKind.SEQUENCE:
            assert len(meld) <= 13 and not (meld.slots[0].card.rank.number == 1 and meld.high_ace)


def test_one_deck_ace_low_or_high(method: Method) -> None:
    # One deck: the one ace of a suit goes to one end (here the low one, no card moves).
    play = solve(HEARTS_2_K, "AH", decks=1, method=method)
    assert summary(play) == (1, 1, 0) and play is not None and len(play.table.melds) == 1


@pytest.mark.slow
@pytest.mark.parametrize(("table", "hand", "expected"), TWO_ACES[:-1])
def test_two_aces_figures_equal_brute_force(
    table: str, hand: str, expected: tuple[int, int, int]
) -> None:
    assert brute(parse_table(table), parse_hand_cards(hand), 2) == expected


def long_run_position(rng: random.Random) -> tuple[Table, Hand]:
    """A two-deck position with long sequences reaching an ace (A-x or x-A) in one or two
    suits, duplicate aces and Q/K/2/3 of those suits in the hand, and jokers (0-2)."""
    left: Counter[Card] = Counter({card: 2 for card in CARDS})
    jokers = 2
    suits = rng.sample(range(4), rng.choice((1, 1, 2)))
    melds: list[Meld] = []

    def take(cards: list[Card]) -> bool:
        if any(left[c] < cards.count(c) for c in cards):
            return False
        for c in cards:
            left[c] -= 1
        return True

    for suit in suits:
        for _ in range(rng.choice((1, 1, 2))):
            length = rng.randint(5, 13)
            start = rng.choice((1, 2, 15 - length, rng.randint(1, 15 - length)))
            cards = [
                Card.from_index(suit * 13 + (p if p <= 13 else 1) - 1)
                for p in range(start, start + length)
            ]
            if not take(cards):
                continue
            slots = [Slot(c) for c in cards]
            if jokers and rng.random() < 0.3:
                i = rng.randrange(len(slots))
                slots[i] = Slot(cards[i], joker=True)
                jokers -= 1
            melds.append(make_meld(slots))
    if rng.random() < 0.5:  # a group of aces, or of another rank
        rank = rng.choice((1, 1, 2, 12, 13))
        cards = [Card.from_index(s * 13 + rank - 1) for s in rng.sample(range(4), 3)]
        if take(cards):
            melds.append(make_meld(Slot(c) for c in cards))
    more, _, _ = random_melds(rng, 1, rng.randint(0, 3), joker_rate=0.0)
    for meld in more:
        if take([slot.card for slot in meld]):
            melds.append(meld)
    wanted = [Card.from_index(s * 13 + rank - 1) for s in suits for rank in (1, 1, 1, 2, 3, 12, 13)]
    cards: list[Card] = []
    for _ in range(rng.randint(1, 6)):
        card = rng.choice(wanted if rng.random() < 0.7 else CARDS)
        if take([card]):
            cards.append(card)
    hand_jokers = rng.randint(0, jokers)
    return Table.of(melds), Hand.of(cards, hand_jokers)


def _compare_long_runs(seed: int, count: int, most_cards: int = 99) -> None:
    """The dynamic programme finds the HiGHS model's points, cards and moves, and both plays
    are legal (no meld with the ace at both ends: ``make_meld`` refuses one), on ``count``
    positions of at most ``most_cards`` table cards."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        table, hand = long_run_position(rng)
        if table.card_count > most_cards:
            continue
        made += 1
        dp = best_play(table, hand, 2, method=Method.DP)
        ip = best_play(table, hand, 2, method=Method.HIGHS)
        assert summary(dp) == summary(ip), (table.text(), hand.text())
        for play in (dp, ip):
            if play is not None:
                assert verify_play(table, hand, play.table, 2) == play.placed


@needs_highs
def test_dynamic_programme_equals_highs_on_long_runs_and_two_aces() -> None:
    _compare_long_runs(1, 15, most_cards=20)  # ~0.2 s a position; 2,000 in the slow test


@pytest.mark.slow
@needs_highs
@pytest.mark.parametrize("seed", range(2, 12))
def test_dynamic_programme_equals_highs_on_long_runs_and_two_aces_many(seed: int) -> None:
    # 10 x 200 = 2,000 positions of up to 32 table cards (~0.09 s CPU a position): the DP's
    # domain (best_play tries it first under DP_FIRST_UNDER cards); uncapped, a 60-card table
    # takes the DP seconds and the test took over 15 minutes. Bigger tables: the HiGHS oracles.
    _compare_long_runs(seed, 200, most_cards=32)


BOT_TABLES = (
    (HEARTS_2_K, "AH AH"),
    (HEARTS_2_K, "AH JK"),
    (HEARTS_2_K, "JK JK"),
    (f"{CLUBS_A_Q} KC", "AC"),
    (CLUBS_A_Q, "KC JK"),
    (f"{HEARTS_2_K} | {CLUBS_A_Q}", "AH AH KC"),
)


@pytest.mark.parametrize(("seed", "position"), list(enumerate(BOT_TABLES)))
def test_bot_rounds_over_a_long_run_and_two_aces_finish(
    seed: int, position: tuple[str, str]
) -> None:
    """Bots (their quick search rearranges the melds near the hand, with the same programme)
    finish seeded rounds whose table holds a suit's 2-K or A-Q and whose first player holds
    the other aces or jokers of it: no play turns the corner."""
    from gintutor.engine.carousel.game import BotLevel, Phase, Round, bot_turn
    from gintutor.engine.carousel.rules import STANDARD

    rng = random.Random(seed)
    table, first = parse_table(position[0]), parse_hand_cards(position[1])
    deck: Counter[Card] = Counter({card: 2 for card in CARDS})
    deck.subtract(slot.card for slot in table.slots())
    deck.subtract(first.cards)
    rest = list(deck.elements())
    rng.shuffle(rest)
    hands = [first, Hand.of(rest[:8]), Hand.of(rest[8:16])]
    round_ = Round(STANDARD, 2, hands, rest[16:50], table, has_melded={0, 1, 2})
    levels = [BotLevel.GREEDY, BotLevel.CAREFUL, BotLevel.GREEDY]
    for _ in range(200):
        if round_.phase is Phase.ROUND_OVER:
            break
        bot_turn(round_, levels[round_.player])
    assert round_.phase is Phase.ROUND_OVER and round_.result is not None
    assert round_.log[1].action.value == "play"  # the first player played at once
