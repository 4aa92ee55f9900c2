"""A game against a bot with a coach: the score sheet, the hand, the bot, the seeds, the coach.

The session decides everything and returns records; the terminal runner only shows them and
asks. Reproducible: hand ``k`` is dealt from ``(seed, k)`` and the bot's decision at ply ``p``
of hand ``k`` draws from ``(seed, k, p)``, so a game resumed from its saved actions goes on
exactly as it would have (the same deals, the same bot choices for the same learner choices).
Every action is handed to a :class:`Recorder` (the saved-game writer) the moment it is played.

The coach (:func:`~gintutor.engine.coach.judge`) sees only the learner's information set and
judges against the bot actually at the table (its policy, never its cards). With
the coach ``on``, a choice graded Mistake or worse is returned as a :class:`Flag` before it is
committed, so the learner may take it back; ``quiet`` answers ``hint`` only; ``off`` never
judges. On a terminal the coach thinks while the learner does (:meth:`CoachedGame.ponder`): the
verdict then rests on as many sampled deals as the learner's thinking time bought.
"""

from __future__ import annotations

import importlib.util
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from gintutor.engine.bots import Bot, make_bot
from gintutor.engine.bots.common import best_layoffs, best_spread
from gintutor.engine.cards import CARDS, Card, CardSet, mask_points
from gintutor.engine.game import GameSheet, Match, score_game, score_match
from gintutor.engine.hand import NO_CARD, Action, Deal, HandResult, HandState, InfoSet, Kind, Phase
from gintutor.engine.judgement import warns
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import Outcome
from gintutor.engine.showdown import Showdown, SpreadOutcome, showdown
from gintutor.engine.solver import Arrangement, discard_deadwoods, min_deadwood_mask, solve
from gintutor.errors import GinError, IllegalError
from gintutor.text.i18n import _
from gintutor.text.play import Flag, HandEnd, HandStart, Move, TableView

if TYPE_CHECKING:  # the coach's vocabulary comes with its first verdict: a game starts without it
    from gintutor.engine.judgement import Verdict

MAX_HANDS = 200
"""A game ends long before this many hands; a guard against a loop of void hands."""


class CoachMode(Enum):
    """How much the coach says: nothing, hints on request, or hints and warnings."""

    OFF = "off"
    QUIET = "quiet"
    ON = "on"


@dataclass(frozen=True)
class Budget:
    """Sampled worlds and CPU seconds per coach verdict."""

    worlds: int
    seconds: float


PONDER_LIMIT = 16
"""While the learner thinks, the coach judges the decision on one sampled deal after another, up
to this multiple of the table's budget (worlds and CPU seconds: 6.4 s at the coach's own); when
the learner acts it stops at the next deal, though never before the table's budget is spent, and
the verdict rests on every deal judged so far (nothing is judged twice or thrown away)."""

COACH_BUDGET: Budget | None = None
"""The budget at the table: ``None`` is the coach's own (``COACH_WORLDS``, ``COACH_SECONDS``),
read when the coach is first asked; tests make it cheap."""

Judge = Callable[..., "Verdict"]
"""``judge(info, *, worlds, seconds, seed, scores, opponent, stop) -> Verdict`` (the coach's
signature; ``opponent``: the bot at the table, whose policy the coach assumes; ``stop``: asked
with the worlds done, ends the sampling when it answers True)."""


def judge(info: InfoSet, **options: Any) -> Verdict:
    """The coach's verdict (:func:`gintutor.engine.coach.judge`).

    The coach loads every bot, so it is imported at the first verdict: a game starts without it.
    With the coach (and the explanation of a hand's end, in ``text/play.py``) at the top, ``play``
    started at 1.30x the bare Typer + Rich app's least CPU, against 1.06x (bench_startup.py,
    3 rounds, load ~7-9).
    """
    from gintutor.engine.coach import judge as coach_judge

    return coach_judge(info, **options)


class Word(Enum):
    """What the learner may type besides an action."""

    HINT = "hint"
    HELP = "help"
    SHEET = "sheet"
    TABLE = "table"
    QUIT = "quit"
    RESIGN = "resign"


WORDS = {
    "hint": Word.HINT,
    "?": Word.HINT,
    "help": Word.HELP,
    "sheet": Word.SHEET,
    "score": Word.SHEET,
    "table": Word.TABLE,
    "quit": Word.QUIT,
    "resign": Word.RESIGN,
}


class Recorder(Protocol):
    """Where every deal and action goes as it is played (the saved-game writer)."""

    def hand(self, number: int, deal: Deal) -> None: ...

    def action(self, hand: int, player: int, action: Action, coach: Note | None = None) -> None: ...


@dataclass(frozen=True)
class Note:
    """The coach's note on a committed action of the learner (a saved game's ``coach``)."""

    flagged: bool = False
    best: str | None = None
    loss: float | None = None
    taken_back: tuple[str, ...] = ()
    hints: int = 0
    """How many times the learner asked for a hint at this decision."""
    verdict: Verdict | None = None
    """The coach's verdict on the decision, when it judged one (kept for the review)."""
    budget: Budget | None = None
    """The budget the verdict was asked for."""


class _Pondering:
    """The coach judging one decision in a background thread while the learner thinks, until
    asked for its verdict (never before ``table``'s budget is spent) or ``limit``'s."""

    def __init__(
        self,
        key: tuple[int, int],
        compute: Callable[[Budget, Callable[[int], bool] | None], Verdict],
        table: Budget,
        limit: Budget,
    ) -> None:
        self.key = key
        self.budget = limit
        self._verdict: Verdict | None = None
        self._failed = False
        self._enough = threading.Event()
        """Set once the table's budget is spent: a verdict is then at most one deal away."""
        self._settled = threading.Event()
        self._stop = threading.Event()
        thread = threading.Thread(
            target=self._run, args=(compute, table), name="coach", daemon=True
        )
        thread.start()

    def _run(
        self, compute: Callable[[Budget, Callable[[int], bool] | None], Verdict], table: Budget
    ) -> None:
        start = time.thread_time()

        def stop(done: int) -> bool:
            if done >= table.worlds or time.thread_time() - start >= table.seconds:
                self._enough.set()
            return self._enough.is_set() and self._stop.is_set()

        try:
            self._verdict = compute(self.budget, stop)
        except Exception:  # judged again in the learner's thread, where an error is shown
            self._failed = True
        finally:
            self._enough.set()
            self._settled.set()

    def take(self, wait: bool) -> tuple[Verdict, Budget] | None:
        """The verdict on every deal judged so far, the thinking stopped (``wait``: even if the
        table's budget is not spent yet, else only if it is); ``None`` if there is none (or the
        coach failed: the caller judges and reports)."""
        self._stop.set()
        if wait or self._enough.is_set():
            self._settled.wait()
        if self._failed or self._verdict is None:
            return None
        return self._verdict, self.budget


def _card(index: int) -> Card | None:
    return None if index == NO_CARD else CARDS[index]


def _has_win_chance() -> bool:
    """True once the game-win chance table is shipped (the coach then weighs the score)."""
    return all(
        importlib.util.find_spec(f"gintutor.engine.{name}") is not None
        for name in ("winchance", "wintables")
    )


class CoachedGame:
    """A game between the learner (seat ``you``) and a bot, to the rule set's end."""

    def __init__(
        self,
        rules: RuleSet,
        bot: str,
        coach: CoachMode,
        seed: int,
        recorder: Recorder,
        *,
        you: int = 0,
        first_dealer: int = 1,
        judge_with: Judge | None = None,
        budget: Budget | None = None,
        think_ahead: bool = False,
    ) -> None:
        self.rules = rules
        self.bot_name = bot
        self.bot: Bot = make_bot(bot)
        self.coach = coach
        self.seed = seed
        self.recorder = recorder
        self.you = you
        self.dealer = first_dealer
        self.results: list[HandResult] = []
        self.state: HandState | None = None
        self.judge = judge_with if judge_with is not None else judge
        self.budget = budget or COACH_BUDGET
        self.think_ahead = think_ahead
        """Judge each decision in the background while the learner thinks (:meth:`ponder`)."""
        self._verdicts: dict[tuple[int, int], tuple[Verdict, Budget]] = {}
        self._pondering: _Pondering | None = None
        self._taken_back: list[str] = []
        self._hints = 0
        self._ended = False

    # -- the game ------------------------------------------------------------------------

    @property
    def hand_number(self) -> int:
        """The number of the hand being played (or the next to be dealt), from 1."""
        return len(self.results) + 1

    @property
    def sheet(self) -> GameSheet | Match:
        """The score sheet so far (Hollywood: its three games)."""
        records = [result.record() for result in self.results]
        if self.rules.hollywood:
            return score_match(records, self.rules)
        return score_game(records, self.rules)

    @property
    def game_over(self) -> bool:
        """True when the game (Hollywood: all three games) is over."""
        return self.sheet.finished

    def scores(self) -> tuple[int, int]:
        """The learner's and the bot's running totals (Hollywood: over the open games)."""
        sheet = self.sheet
        if isinstance(sheet, Match):
            open_games = [game for game in sheet.games if not game.finished] or list(sheet.games)
            totals = open_games[0].totals
        else:
            totals = sheet.totals
        return totals[self.you], totals[1 - self.you]

    def deal(self) -> HandStart:
        """Deal the next hand from the seed (the caller checks the game is not over)."""
        if self.game_over:
            raise GinError("the game is over")
        if len(self.results) >= MAX_HANDS:
            raise GinError("no winner after {most} hands", most=MAX_HANDS)
        number = len(self.results) + 1
        deal = Deal.shuffled(random.Random(f"deal:{self.seed}:{number}"), self.dealer)
        self.state = HandState(deal, self.rules)
        self.recorder.hand(number, deal)
        return self.hand_start()

    def hand_start(self) -> HandStart:
        """The record of the current hand's deal."""
        state = self._current()
        upcard = CARDS[state.deal.upcard]
        return HandStart(
            len(self.results) + 1,
            state.deal.dealer,
            upcard,
            state.knock_limit,
            self.rules.oklahoma,
            state.multiplier,
        )

    def resume(self, hands: Sequence[tuple[Deal, Sequence[Action]]]) -> None:
        """Replay saved hands (the last may be unfinished) without recording them again."""
        for number, (deal, actions) in enumerate(hands, start=1):
            if self.game_over:
                raise GinError("hand {number} was played after the game was over", number=number)
            if deal.dealer != self.dealer:
                raise GinError(
                    "hand {number}: dealt by player {dealer}, due {due}",
                    number=number,
                    dealer=deal.dealer,
                    due=self.dealer,
                )
            state = HandState(deal, self.rules)
            for action in actions:
                state.do(action)
            self.state = state
            if state.over:
                self._finish(state)

    def _finish(self, state: HandState) -> None:
        assert state.result is not None
        self.results.append(state.result)
        if not state.result.void:
            self.dealer = 1 - self.dealer

    def _current(self) -> HandState:
        if self.state is None:
            raise GinError("no hand is being played")
        return self.state

    @property
    def in_hand(self) -> bool:
        """True while a hand is being played."""
        return self.state is not None and not self.state.over

    @property
    def your_turn(self) -> bool:
        """True when the learner is to act in the current hand."""
        return self.in_hand and self._current().to_move == self.you

    # -- the bot ---------------------------------------------------------------------------

    def bot_turn(self) -> list[Move]:
        """The bot plays until it is the learner's turn or the hand is over; what was seen."""
        state = self._current()
        moves: list[Move] = []
        while not state.over and state.to_move != self.you:
            player = state.to_move
            rng = random.Random(f"bot:{self.seed}:{len(self.results) + 1}:{len(state.log)}")
            top = state.top
            action = self.bot.act(state.infoset(player), rng)
            state.do(action)
            self.recorder.action(len(self.results) + 1, player, action)
            shown: Card | None = None
            if action.kind in (Kind.TAKE, Kind.PASS):
                shown = _card(top)
            elif action.kind is Kind.DISCARD:
                shown = CARDS[action.card]
            moves.append(Move(player, action.kind, shown))
        return moves

    # -- the learner ---------------------------------------------------------------------

    def table(self) -> TableView:
        """What the learner sees now."""
        state = self._current()
        info = state.infoset(self.you)
        hand = CardSet(info.hand)
        drawn = NO_CARD
        if info.phase is Phase.DISCARD and info.taken == NO_CARD and info.events:
            last = info.events[-1]
            if last.player == self.you and last.kind is Kind.DRAW:
                drawn = last.card
        can_knock = False
        if info.phase is Phase.DISCARD:
            forbidden = 0 if info.taken == NO_CARD else 1 << info.taken
            after = min(d for _card, d in discard_deadwoods(info.hand, forbidden))
            can_knock = after <= info.knock_limit and (info.knock_limit > 0 or after == 0)
        spread: tuple[Arrangement, ...] = ()
        if info.phase is Phase.DEFEND:
            spread = (Arrangement.from_masks(info.spread, 0),)
        return TableView(
            hand_number=len(self.results) + 1,
            phase=info.phase,
            you_deal=state.deal.dealer == self.you,
            hand=hand,
            arrangement=solve(hand).best,
            drawn=_card(drawn),
            taken=_card(info.taken),
            can_knock=can_knock,
            pile=tuple(CARDS[c] for c in info.pile),
            stock_size=info.stock_size,
            opponent_took=CardSet(info.opponent_known),
            opponent_passed=CardSet(info.opponent_passed),
            opponent_discards=CardSet(info.opponent_discards),
            knock_limit=info.knock_limit,
            limit_from_upcard=CARDS[info.upcard] if self.rules.oklahoma else None,
            multiplier=info.multiplier,
            scores=self.scores(),
            spread=spread,
            knocker_deadwood=state.knocker_deadwood,
            legal=tuple(info.legal_actions()),
        )

    def completions(self) -> list[str]:
        """Words that make sense at the prompt now (for completion)."""
        state = self._current()
        phase = state.phase
        words: list[str] = []
        if phase is Phase.OFFER:
            words = ["take", "pass"]
        elif phase is Phase.DRAW:
            words = [str(a) for a in state.legal_actions()]
        elif phase is Phase.DISCARD:
            hand = state.hands[state.to_move]
            legal = state.legal_actions()
            words = [CARDS[a.card].code for a in legal if a.kind is Kind.DISCARD]
            knocks = sorted({CARDS[a.card].code for a in legal if a.kind is Kind.KNOCK})
            words += [f"knock {code}" for code in knocks]
            if any(a.kind is Kind.BIG_GIN for a in legal) or any(
                a.kind is Kind.KNOCK and not mask_points(hand & ~a.spread_mask & ~(1 << a.card))
                for a in legal
            ):
                words.append("gin")
        elif phase is Phase.DEFEND:
            words = ["lay off", "lay off none"]
        return [*words, *(w for w in WORDS if w != "?")]

    def read(self, text: str) -> Action | Word:
        """The action (or word) a reply names; :class:`GinError` saying why it is not legal.

        ``draw`` (``stock``), ``take`` (``pile``), ``pass``, a card (``7d``: discard it),
        ``discard 7d``, ``knock 7d`` (the least-deadwood spread), ``knock 7d: 7C 7H 7S | ...``,
        ``knock`` (the least-deadwood discard), ``gin``, ``lay off`` (the best layoffs), ``lay
        off 4h 8h``, ``lay off none``; any action in saved-game notation.
        """
        words = text.strip().lower().split()
        if not words:
            raise GinError(_("type an action, or help"))
        if text.strip().lower() in WORDS:
            return WORDS[text.strip().lower()]
        state = self._current()
        if state.to_move != self.you or state.over:
            raise GinError(_("it is not your turn"))
        action = self._action(text.strip(), words, state)
        state.verify(action)
        return action

    def _action(self, text: str, words: list[str], state: HandState) -> Action:
        head = words[0]
        phase = state.phase
        hand = state.hands[self.you]
        if head in ("stock", "draw") and len(words) == 1:
            return Action(Kind.DRAW)
        if head in ("pile", "take") and len(words) == 1:
            if phase is Phase.DISCARD:
                raise IllegalError(_("you have drawn already: discard, knock or gin"))
            return Action(Kind.TAKE)
        if head == "pass" and len(words) == 1:
            if phase is Phase.DRAW:
                raise IllegalError(_("the upcard is no longer offered: draw or take"))
            return Action(Kind.PASS)
        if head in ("lay", "layoff", "layoffs", "lay-off", "none") and phase is Phase.DEFEND:
            rest = " ".join(w for w in words[1:] if w not in ("off", "off:"))
            rest = rest.lstrip(":").strip()
            if head == "none" or rest in ("none", "-", "nothing"):
                return Action(Kind.LAY_OFF)
            if not rest:
                return best_layoffs(state.infoset(self.you))
            return Action(Kind.LAY_OFF, layoffs=CardSet.parse(rest).mask)
        if phase is Phase.DISCARD and head == "gin" and len(words) == 1:
            return self._gin(state)
        if phase is Phase.DISCARD and head == "knock" and ":" not in text:
            if len(words) == 1:
                card = self._least_deadwood_discard(state)
            elif len(words) == 2:
                card = Card.parse(words[1]).index
            else:
                raise GinError(_("{text!r}: knock CARD, or knock CARD: MELD | MELD", text=text))
            self._verify_holds(state, card)
            return Action.knock(card, best_spread(hand ^ 1 << card))
        if phase is Phase.DISCARD and head in ("discard", "throw") and len(words) == 2:
            return Action.discard(Card.parse(words[1]).index)
        if phase is Phase.DISCARD and len(words) == 1 and head not in (k.value for k in Kind):
            try:
                return Action.discard(Card.parse(words[0]).index)
            except GinError:
                pass
        try:
            return Action.parse(text)
        except GinError:
            pass
        raise GinError(self._expected(phase, text))

    @staticmethod
    def _expected(phase: Phase, text: str) -> str:
        if phase is Phase.OFFER:
            return _("{text!r}: take the upcard or pass (or help)", text=text)
        if phase is Phase.DRAW:
            return _(
                "{text!r}: draw from the stock or take the pile's top card (or help)", text=text
            )
        if phase is Phase.DISCARD:
            return _("{text!r}: type a card to discard (7d), knock 7d, or gin (or help)", text=text)
        if phase is Phase.DEFEND:
            return _(
                "{text!r}: lay off (your best layoffs), lay off 4h 8h, or lay off none (or help)",
                text=text,
            )
        return _("{text!r}: nothing to do (or help)", text=text)

    def _verify_holds(self, state: HandState, card: int) -> None:
        rest = state.hands[self.you] ^ 1 << card
        state.verify(Action.discard(card))
        deadwood = min_deadwood_mask(rest)
        if deadwood > state.knock_limit:
            values = {"card": CARDS[card].code, "deadwood": deadwood, "limit": state.knock_limit}
            if state.knock_limit == 0:
                raise IllegalError(
                    _(
                        "discarding {card} leaves {deadwood} deadwood: you cannot knock (only gin "
                        "may knock)",
                        **values,
                    )
                )
            raise IllegalError(
                _(
                    "discarding {card} leaves {deadwood} deadwood: you cannot knock (the limit is "
                    "{limit})",
                    **values,
                )
            )

    def _least_deadwood_discard(self, state: HandState) -> int:
        forbidden = 0 if state.taken == NO_CARD else 1 << state.taken
        options = discard_deadwoods(state.hands[self.you], forbidden)
        return min(options, key=lambda option: (option[1], -CARDS[option[0]].points))[0]

    def _gin(self, state: HandState) -> Action:
        legal = state.legal_actions()
        big = [a for a in legal if a.kind is Kind.BIG_GIN]
        if big:
            return big[0]
        hand = state.hands[self.you]
        for action in legal:
            if action.kind is Kind.KNOCK and not mask_points(
                hand & ~action.spread_mask & ~(1 << action.card)
            ):
                return Action.knock(action.card, best_spread(hand ^ 1 << action.card))
        best = min(d for _card, d in discard_deadwoods(hand))
        raise IllegalError(_("no gin: your best discard leaves {best} deadwood", best=best))

    # -- the coach -----------------------------------------------------------------------

    def _key(self) -> tuple[int, int]:
        """The decision now: (hand number, actions so far in the hand)."""
        return len(self.results) + 1, len(self._current().log)

    def _judging(self) -> Callable[[Budget, Callable[[int], bool] | None], Verdict]:
        """The coach's verdict on the decision now, at a budget (seeded by the decision): the
        position is taken now, so the background thread never reads the game as it moves on."""
        info = self._current().infoset(self.you)
        scores = None if self.rules.hollywood or not _has_win_chance() else self.scores()
        seed = hash_seed(self.seed, *self._key())
        judge, opponent = self.judge, self.bot_name

        def judged(budget: Budget, stop: Callable[[int], bool] | None = None) -> Verdict:
            return judge(
                info,
                worlds=budget.worlds,
                seconds=budget.seconds,
                seed=seed,
                scores=scores,
                opponent=opponent,
                stop=stop,
            )

        return judged

    def ponder(self) -> None:
        """Start judging the learner's decision now in the background, while they think (with
        ``think_ahead``, the coach not off, and a choice to make): the verdict a hint, a warning
        or the saved game then uses rests on every deal judged until then (:data:`PONDER_LIMIT`),
        at least the table's budget."""
        if not self.think_ahead or self.coach is CoachMode.OFF or not self.your_turn:
            return
        key = self._key()
        if key in self._verdicts or (self._pondering is not None and self._pondering.key == key):
            return
        if len(self._current().legal_actions()) < 2:
            return
        self._stop_pondering()
        table = self._budget()
        limit = Budget(table.worlds * PONDER_LIMIT, table.seconds * PONDER_LIMIT)
        self._pondering = _Pondering(key, self._judging(), table, limit)

    def _stop_pondering(self, wait: bool = False) -> tuple[Verdict, Budget] | None:
        """Stop the background thinking; its latest verdict for the decision now, if any."""
        pondering, self._pondering = self._pondering, None
        if pondering is None:
            return None
        found = pondering.take(wait)
        return found if pondering.key == self._key() else None

    def verdict(self) -> Verdict:
        """The coach's verdict on the learner's decision now (computed once per decision: what
        the background thinking finished, else judged now at the table's budget)."""
        key = self._key()
        found = self._verdicts.get(key)
        if found is None:
            found = self._stop_pondering(wait=True)
            if found is None:
                budget = self._budget()
                found = (self._judging()(budget, None), budget)
            self._verdicts = {key: found}
        return found[0]

    def _budget(self) -> Budget:
        """The budget per verdict (the coach's own unless one was given)."""
        if self.budget is None:
            from gintutor.engine.coach import COACH_SECONDS, COACH_WORLDS

            self.budget = Budget(COACH_WORLDS, COACH_SECONDS)
        return self.budget

    def hint(self) -> Verdict:
        """The verdict for ``hint`` (any coach setting but ``off``)."""
        if self.coach is CoachMode.OFF:
            raise GinError(_("the coach is off in this game (gintutor play --coach quiet or on)"))
        found = self.verdict()
        self._hints += 1
        return found

    def check(self, action: Action) -> Flag | None:
        """With the coach on: a warning if ``action`` is a Mistake or worse beyond two standard
        errors (:func:`~gintutor.engine.judgement.warns`), else ``None``."""
        if self.coach is not CoachMode.ON or len(self._current().legal_actions()) < 2:
            return None

        verdict = self.verdict()
        judged = verdict.of(action)
        if not warns(judged):
            return None
        return Flag(action, judged, verdict.best, verdict)

    def take_back(self, flag: Flag) -> None:
        """The learner took a flagged choice back: noted on the action finally played."""
        self._taken_back.append(str(flag.action))

    def play(self, action: Action, *, flagged: bool = False) -> None:
        """Commit the learner's action, recorded with the coach's note (``flagged``: kept
        after a warning; a verdict the background thinking finished is kept for the review
        even when the learner never asked)."""
        state = self._current()
        if state.to_move != self.you:
            raise GinError(_("it is not your turn"))
        key = self._key()
        note: Note | None = None
        found = self._verdicts.get(key) or self._stop_pondering()
        verdict, budget = found if found is not None else (None, None)
        if verdict is not None or self._taken_back or self._hints:
            best = verdict.best if verdict is not None else None
            loss = verdict.of(action).loss if verdict is not None else None
            note = Note(
                flagged,
                None if best is None else str(best.action),
                loss,
                tuple(self._taken_back),
                self._hints,
                verdict,
                budget,
            )
        state.do(action)
        self._taken_back = []
        self._hints = 0
        self.recorder.action(len(self.results) + 1, self.you, action, note)

    # -- the end of a hand ---------------------------------------------------------------

    def end_hand(self) -> HandEnd:
        """Score the finished hand: both hands face up, the knock as a showdown, the sheet."""
        state = self._current()
        if not state.over or state.result is None:
            raise GinError("the hand is not over")
        result = state.result
        number = len(self.results) + 1
        self._finish(state)
        hands = (CardSet(state.hands[0]), CardSet(state.hands[1]))
        played: Showdown | None = None
        better: SpreadOutcome | None = None
        if not result.void and result.knocker is not None and result.defence is not None:
            knocker = result.knocker
            last = state.log[-1] if state.log[-1].kind is not Kind.LAY_OFF else state.log[-2]
            discard = CARDS[last.card] if last.kind is Kind.KNOCK else None
            held = hands[knocker]
            spread_mask = 0
            for meld in result.spread:
                spread_mask |= meld
            arrangement = Arrangement.from_masks(result.spread, held.mask & ~spread_mask)
            assert result.score is not None
            chosen = SpreadOutcome(discard, arrangement, result.defence, result.score)
            played = Showdown(
                held,
                hands[1 - knocker],
                self.rules,
                state.knock_limit,
                state.multiplier,
                (chosen,),
            )
            if result.outcome not in (Outcome.GIN, Outcome.BIG_GIN):
                engine = showdown(held, hands[1 - knocker], self.rules, CARDS[state.deal.upcard])
                if engine.chosen.score.knocker_net > chosen.score.knocker_net:
                    better = engine.chosen
        return HandEnd(
            number,
            self.you,
            result,
            hands,
            played,
            better,
            self.sheet,
            self.game_over,
        )


def hash_seed(seed: int, hand: int, ply: int) -> int:
    """A verdict's seed from the game's seed and the decision's place (stable across runs)."""
    return (seed * 1_000_003 + hand * 1009 + ply) % (2**31)
