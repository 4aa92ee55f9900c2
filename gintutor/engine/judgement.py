"""What a coach verdict says: every legal action valued and graded, as frozen records.

The vocabulary of :mod:`gintutor.engine.coach` (which judges) for those who only read verdicts:
the grades and their thresholds, the reasons, :class:`Judged` and :class:`Verdict`, and the
coach's valuation version that keys stored verdicts. It imports none of the bots (nor, at run
time, the hand state machine), so reading a stored verdict costs no more than these records;
:mod:`gintutor.engine.coach` re-exports every name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from gintutor.errors import IllegalError

if TYPE_CHECKING:  # the records name them; reading one needs no hand state machine
    from gintutor.engine.hand import Action, Phase

VERSION = "5"
"""The coach's valuation version, part of every stored verdict's key (puzzles/verdicts.json):
bump it whenever a change moves the values it gives, so stored verdicts go stale loudly."""


class Grade(Enum):
    """How good an action is, by what it loses against the best; the value is the word shown."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


GRADES = tuple(Grade)
ERRORS = frozenset({Grade.MISTAKE, Grade.BLUNDER})
"""The grades the coach at the table warns about (:func:`warns`)."""
POINT_THRESHOLDS = (0.25, 1.0, 2.5, 6.0)
"""Upper bounds of expected hand points lost for BEST, GOOD, INACCURACY, MISTAKE."""
WIN_THRESHOLDS = (0.005, 0.015, 0.04, 0.10)
"""Upper bounds of game-win chance lost for BEST, GOOD, INACCURACY, MISTAKE."""
CLOSE = 2.0
"""Within this many standard errors of the best: a close call (no grade, no warning)."""


class ReasonKind(Enum):
    """The kinds of fact a verdict gives for an action (the text layer narrates them)."""

    DEADWOOD_AFTER = "deadwood-after"
    """``value``: the least deadwood of the hand after the action (10 cards)."""
    MELDS = "melds"
    """The card taken makes a meld: ``cards`` the meld, ``other`` the card."""
    BREAKS_MELD = "breaks-meld"
    """The discard comes out of a meld of every best arrangement: ``cards`` that meld."""
    FEEDS_OPPONENT = "feeds-opponent"
    """The discard would meld with a card the opponent took: ``other`` that card, ``cards``
    the other cards of that meld."""
    THEY_PASSED = "they-passed"
    """The opponent passed cards of the discard's rank or suit-neighbours (``cards``): safer."""
    THEY_DISCARDED = "they-discarded"
    """The opponent threw cards of the discard's rank or suit-neighbours (``cards``): safer."""
    LIVE_OUTS = "live-outs"
    """``value`` unseen cards (``cards``) would make a new meld with the hand after the action."""
    KNOCK = "knock"
    """A knock with ``value`` deadwood: ``cards`` the deadwood cards."""
    GIN = "gin"
    """A knock with nothing unmelded."""
    BIG_GIN = "big-gin"
    """All 11 cards melded."""
    UNDERCUT_RISK = "undercut-risk"
    """``value`` percent of the sampled defender hands undercut this knock."""
    LAYS_OFF = "lays-off"
    """The cards laid off (``cards``), ``value`` the defender's deadwood left."""
    STOCK_LOW = "stock-low"
    """Only ``value`` cards left in the stock."""
    NO_KNOCK = "no-knock"
    """Playing on although a knock with ``value`` deadwood was open."""
    DRAW_OUTS = "draw-outs"
    """Drawing from the stock: ``value`` unseen cards (``cards``) would lower the deadwood (with
    the best discard after them)."""
    CAN_KNOCK = "can-knock"
    """After taking the card the hand can knock with ``value`` deadwood (0: gin)."""


DRAWBACKS = frozenset(
    {
        ReasonKind.BREAKS_MELD,
        ReasonKind.FEEDS_OPPONENT,
        ReasonKind.UNDERCUT_RISK,
        ReasonKind.NO_KNOCK,
    }
)
"""The reasons that speak against the action they stand on (the others are for it or neutral
facts): the text layer words them as drawbacks, never as why a row is good."""


@dataclass(frozen=True)
class Reason:
    """A fact about an action that the text layer narrates (never prose)."""

    kind: ReasonKind
    cards: int = 0
    """Mask of the cards the fact is about."""
    value: int = 0
    """A number the fact is about (deadwood, outs, percent)."""
    other: int = -1
    """A related card (the opponent's pickup a discard connects with, ...); ``NO_CARD`` (-1)
    when none (a test holds the two equal)."""


@dataclass(frozen=True)
class Judged:
    """One legal action, valued: expected hand points, the loss against the best, the grade."""

    action: Action
    mean: float
    """Expected hand points from the player's side (+ won, - lost)."""
    stderr: float
    loss: float
    """``best.mean - mean`` (>= 0), paired over common worlds."""
    loss_stderr: float
    """Standard error of that paired difference."""
    win_chance: float | None
    """Expected game-win chance after the action (``None`` without a game score)."""
    win_loss: float | None
    """The highest win chance of any action minus this one's (>= 0)."""
    grade: Grade
    close: bool
    """Within ``CLOSE`` standard errors of the best (for the best: the runner-up is)."""
    reasons: tuple[Reason, ...]
    worlds: int = 0
    """Sampled worlds this action was played out on (0: valued exactly)."""
    win_loss_stderr: float | None = None
    """Standard error of ``win_loss`` (``None`` without a game score, or read from a store,
    which keeps none)."""


@dataclass(frozen=True)
class Verdict:
    """Every legal action at a decision, best first."""

    player: int
    phase: Phase
    judged: tuple[Judged, ...]
    """By value, best first (each knock's spread a row of its own)."""
    worlds: int
    """Sampled worlds used (0 for an exact verdict)."""
    seconds: float
    """CPU seconds spent."""
    opponent: str = "expert"
    """Whom the verdict assumes across the table (a bot's name: its policy, never its cards)."""

    @property
    def best(self) -> Judged:
        """The action with the highest expected points."""
        return self.judged[0]

    @property
    def close_call(self) -> bool:
        """True when the second-best action is within ``CLOSE`` standard errors of the best."""
        return len(self.judged) > 1 and self.judged[1].close

    def of(self, action: Action) -> Judged:
        """The entry for ``action``; :class:`IllegalError` if it is not legal here."""
        for judged in self.judged:
            if judged.action == action:
                return judged
        raise IllegalError("{action} is not a legal action here", action=action)

    def top(self, n: int = 3) -> tuple[Judged, ...]:
        """The ``n`` best actions."""
        return self.judged[:n]


def warns(judged: Judged) -> bool:
    """True when the coach at the table warns about ``judged`` before it is committed: graded
    Mistake or Blunder, and a Mistake or worse even with its loss lowered by :data:`CLOSE`
    standard errors (advice below two standard errors is not advice). The grade gives one
    standard error's benefit of the doubt; a warning, which interrupts the learner, two.

    >>> from gintutor.engine.hand import Action
    >>> def row(loss, stderr):
    ...     return Judged(Action.parse("draw"), 0.0, 0.0, loss, stderr, None, None,
    ...                   grade_of(loss - stderr), False, ())
    >>> warns(row(6.0, 1.0)), warns(row(6.0, 2.0)), warns(row(2.0, 0.1))
    (True, False, False)
    """
    if judged.grade not in ERRORS or judged.close:
        return False
    points = max(0.0, judged.loss - CLOSE * judged.loss_stderr)
    win: float | None = None
    if judged.win_loss is not None and judged.win_loss_stderr is not None:
        win = max(0.0, judged.win_loss - CLOSE * judged.win_loss_stderr)
    return grade_of(points, win) in ERRORS


def grade_of(loss: float, win_loss: float | None = None) -> Grade:
    """The grade of an action losing ``loss`` expected points (and ``win_loss`` game-win chance):
    the worse of the two grades by :data:`POINT_THRESHOLDS` and :data:`WIN_THRESHOLDS`.

    >>> grade_of(0.0), grade_of(0.8), grade_of(2.0), grade_of(4.0), grade_of(9.0)
    (<Grade.BEST: 'best'>, <Grade.GOOD: 'good'>, <Grade.INACCURACY: 'inaccuracy'>, \
<Grade.MISTAKE: 'mistake'>, <Grade.BLUNDER: 'blunder'>)
    >>> grade_of(0.5, 0.2)
    <Grade.BLUNDER: 'blunder'>
    """
    level = _level(loss, POINT_THRESHOLDS)
    if win_loss is not None:
        level = max(level, _level(win_loss, WIN_THRESHOLDS))
    return GRADES[level]


def _level(loss: float, thresholds: Sequence[float]) -> int:
    for level, bound in enumerate(thresholds):
        if loss <= bound:
            return level
    return len(thresholds)
