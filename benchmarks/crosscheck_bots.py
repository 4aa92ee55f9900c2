"""Cross-check two bots of the ladder against the published agents they copy.

* ``openspiel`` against OpenSpiel's ``SimpleGinRummyBot`` (C++ through ``pyspiel``): games
  are played by the real bot on both seats (seeded deals); at every decision the same position is
  handed to our bot as an information set, and the two choices are compared.
* ``novice`` against RLCard's ``GinRummyNoviceRuleAgent``: games are played by RLCard's agent
  on both seats; at every decision both agents are asked ``--samples`` times and the *sets* of
  choices they make (their supports: both choose uniformly among them) are compared.

A choice that differs only in how a tie is broken (a card of the same rank leaving the same
deadwood, another least-deadwood meld group) is counted as a ``tie``, one the rules forbid us
(RLCard lets a knock throw the card just taken from the pile) under ``rules``, apart from a real
disagreement; real disagreements are printed with the position. Run in an environment with
the ``bench`` extra::

    pip install -e '.[bench]'
    python benchmarks/crosscheck_bots.py --games 200 --seed 1

Only what a bot may know reaches our bots: the hand, the pile, the stock count, the card just
taken (it may not be discarded), and, for the opening, whether both players passed.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from gintutor.engine.bots.novice import NoviceBot
from gintutor.engine.bots.openspiel import OpenSpielBot
from gintutor.engine.cards import Card, CardSet
from gintutor.engine.hand import NO_CARD, Action, InfoSet, Kind, Phase, Seen
from gintutor.engine.rules import preset
from gintutor.engine.solver import min_deadwood_mask

RULES = preset("eaai")


def optional_module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def infoset(
    *,
    phase: Phase,
    hand: int,
    pile: list[int],
    stock: int,
    taken: int = NO_CARD,
    both_passed: bool = False,
    upcard: int = NO_CARD,
) -> InfoSet:
    """An information set for a decision of player 0 (the dealer is player 1)."""
    events = (Seen(0, Kind.PASS), Seen(1, Kind.PASS)) if both_passed else ()
    return InfoSet(
        player=0,
        rules=RULES,
        dealer=1,
        knock_limit=RULES.knock_limit,
        multiplier=1,
        upcard=upcard if upcard != NO_CARD else (pile[0] if pile else 0),
        phase=phase,
        hand=hand,
        pile=tuple(pile),
        stock_size=stock,
        taken=taken,
        opponent_known=0,
        opponent_passed=0,
        opponent_discards=0,
        events=events,
    )


def text(mask: int) -> str:
    return CardSet(mask).text()


@dataclass
class Tally:
    """Decisions compared, by phase: agreed, tie-broken differently, disagreed."""

    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def add(self, phase: str, verdict: str, example: str = "") -> None:
        self.counts[phase, verdict] += 1
        if verdict == "disagree" and len(self.examples) < 10:
            self.examples.append(example)

    def report(self, title: str) -> None:
        print(title)
        phases = sorted({phase for phase, _ in self.counts})
        heads = ("compared", "agree", "tie", "rules", "disagree")
        print(f"  {'decision':12} " + " ".join(f"{h:>8}" for h in heads))
        for phase in phases:
            agree, tie, rules, disagree = (
                self.counts[phase, v] for v in ("agree", "tie", "rules", "disagree")
            )
            total = agree + tie + rules + disagree
            print(
                f"  {phase:12} " + " ".join(f"{n:8}" for n in (total, agree, tie, rules, disagree))
            )
        for example in self.examples:
            print("  disagreement:", example)


# -- OpenSpiel -----------------------------------------------------------------------------


def openspiel_check(pyspiel: Any, games: int, seed: int) -> Tally:
    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    gin = pyspiel.gin_rummy
    utils = gin.GinRummyUtils(13, 4, 10)
    ours_of = [Card.parse(utils.card_string(i)).index for i in range(52)]
    ours = OpenSpielBot()
    tally = Tally()
    rng = random.Random(seed)
    for _ in range(games):
        bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in range(2)]
        state = game.new_initial_state()
        taken = NO_CARD
        passes = 0
        pending: Action | None = None  # our knock, to compare with the card and melds that follow
        melds: list[int] = []
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice([a for a, _ in state.chance_outcomes()])
                for bot in bots:
                    bot.inform_action(state, pyspiel.PlayerId.CHANCE, action)
                state.apply_action(action)
                continue
            player = state.current_player()
            phase = state.current_phase()
            action = bots[player].step(state)
            hand = mask_of(ours_of[c] for c in state.hands()[player])
            pile = [ours_of[c] for c in state.discard_pile()]
            upcard = state.upcard()
            if upcard is not None:
                pile.append(ours_of[upcard])
            stock = state.stock_size()
            where = f"hand {text(hand)}, pile top {text(1 << pile[-1]) if pile else '-'}"
            if phase in (gin.FIRST_UPCARD, gin.DRAW) and stock > 2:
                # OpenSpiel's first-upcard phase ends with the non-dealer's forced stock
                # draw after both passed; ours calls that the first draw.
                offer = phase == gin.FIRST_UPCARD and passes < 2
                info = infoset(
                    phase=Phase.OFFER if offer else Phase.DRAW,
                    hand=hand,
                    pile=pile,
                    stock=stock,
                    both_passed=not offer and passes == 2,
                )
                mine = ours.act(info, random.Random(0)).kind
                theirs = {
                    gin.DRAW_UPCARD_ACTION: Kind.TAKE,
                    gin.DRAW_STOCK_ACTION: Kind.DRAW,
                    gin.PASS_ACTION: Kind.PASS,
                }[action]
                name = "offer" if offer else "draw"
                verdict = "agree" if mine is theirs else "disagree"
                tally.add(
                    name, verdict, f"{name}: ours {mine.value}, theirs {theirs.value}; {where}"
                )
                passes = passes + 1 if offer and action == gin.PASS_ACTION else 3
                taken = ours_of[upcard] if action == gin.DRAW_UPCARD_ACTION else NO_CARD
            elif phase == gin.DISCARD:
                info = infoset(phase=Phase.DISCARD, hand=hand, pile=pile, stock=stock, taken=taken)
                mine_action = ours.act(info, random.Random(0))
                if action == gin.KNOCK_ACTION:
                    pending = mine_action
                    melds = []
                    if mine_action.kind is not Kind.KNOCK:
                        tally.add(
                            "knock?", "disagree", f"ours {mine_action}, theirs knock; {where}"
                        )
                    else:
                        tally.add("knock?", "agree")
                else:
                    card = ours_of[action]
                    if mine_action.kind is not Kind.DISCARD:
                        tally.add(
                            "discard",
                            "disagree",
                            f"ours {mine_action}, theirs {text(1 << card)}; {where}",
                        )
                    else:
                        tally.add(
                            "discard",
                            _discard_verdict(hand, mine_action.card, card),
                            f"ours {mine_action}, theirs discard {text(1 << card)}; {where}",
                        )
                taken = NO_CARD
            elif phase == gin.KNOCK and pending is not None:
                if 0 <= action < 52:
                    card = ours_of[action]
                    verdict = (
                        _discard_verdict(hand, pending.card, card)
                        if pending.kind is Kind.KNOCK
                        else "disagree"
                    )
                    tally.add(
                        "knock card",
                        verdict,
                        f"ours {pending}, theirs knock {text(1 << card)}; {where}",
                    )
                elif action == gin.PASS_ACTION:
                    spread = tuple(sorted(melds))
                    if pending.kind is Kind.KNOCK:
                        same = spread == pending.spread
                        left = hand & ~mask_of_melds(spread)
                        mine_left = (
                            (hand | 1 << pending.card) & ~pending.spread_mask & ~(1 << pending.card)
                        )
                        tie = min_deadwood_mask(left) == min_deadwood_mask(mine_left)
                        verdict = "agree" if same else ("tie" if tie else "disagree")
                        tally.add(
                            "spread",
                            verdict,
                            f"ours {pending}, theirs {' | '.join(text(m) for m in spread)}",
                        )
                    pending = None
                else:
                    melds.append(
                        mask_of(
                            ours_of[c]
                            for c in _meld_cards(utils, state.action_to_string(player, action))
                        )
                    )
            elif phase == gin.LAYOFF and action < 52 and action >= 0:
                tally.add("lay off", "disagree", f"theirs lays off {text(1 << ours_of[action])}")
            bots[1 - player].inform_action(state, player, action)
            state.apply_action(action)
    return tally


def mask_of_melds(melds: Iterable[int]) -> int:
    total = 0
    for meld in melds:
        total |= meld
    return total


def _meld_cards(utils: Any, words: str) -> list[int]:
    """The OpenSpiel card numbers of a meld action's text (``"Player: 1 Action: As2s3s"``)."""
    codes = words.rsplit(" ", 1)[-1]
    return [utils.card_int(codes[i : i + 2]) for i in range(0, len(codes), 2)]


def _discard_verdict(hand: int, mine: int, theirs: int) -> str:
    """Agree, a tie (same rank, same deadwood after), or disagree."""
    if mine == theirs:
        return "agree"
    same_rank = mine % 13 == theirs % 13
    same_deadwood = min_deadwood_mask(hand & ~(1 << mine)) == min_deadwood_mask(
        hand & ~(1 << theirs)
    )
    return "tie" if same_rank and same_deadwood else "disagree"


# -- RLCard --------------------------------------------------------------------------------


def rlcard_check(rlcard: Any, games: int, seed: int, samples: int) -> Tally:
    import numpy as np

    events = importlib.import_module("rlcard.games.gin_rummy.utils.action_event")
    rules_agent = importlib.import_module("rlcard.models.gin_rummy_rule_models")
    card_utils = importlib.import_module("rlcard.games.gin_rummy.utils.utils")
    agent = rules_agent.GinRummyNoviceRuleAgent()
    ours = NoviceBot()
    ours_of = [Card.parse(str(card_utils.get_card(i))).index for i in range(52)]
    tally = Tally()
    np.random.seed(seed)
    for number in range(games):
        env = rlcard.make("gin-rummy", config={"seed": seed + number})
        state, _ = env.reset()
        taken = NO_CARD
        while not env.is_over():
            legal = [events.ActionEvent.decode_action(a) for a in state["legal_actions"]]
            obs = state["obs"]
            hand = mask_of(ours_of[i] for i in range(52) if obs[0][i])
            top = [ours_of[i] for i in range(52) if obs[1][i]]
            dead = [ours_of[i] for i in range(52) if obs[2][i]]
            # Scoring steps, and the end of the stock (RLCard declares a dead hand where ours
            # is void at two cards): not decisions to compare.
            names = {type(e).__name__ for e in legal}
            if not any(n.startswith(("Score", "DeclareDead")) for n in names):
                theirs = {
                    _rl_choice(events.ActionEvent.decode_action(agent.step(state)), ours_of)
                    for _ in range(samples)
                }
                drawing = any(
                    isinstance(e, (events.DrawCardAction, events.PickUpDiscardAction))
                    for e in legal
                )
                info = infoset(
                    phase=Phase.DRAW if drawing else Phase.DISCARD,
                    hand=hand,
                    pile=dead + top,
                    stock=10,
                    taken=NO_CARD if drawing else taken,
                )
                mine = {_our_choice(ours.act(info, random.Random(k)), hand) for k in range(samples)}
                if mine != theirs:  # a choice missing from a sample by chance: look harder
                    more = 10 * samples
                    theirs |= {
                        _rl_choice(events.ActionEvent.decode_action(agent.step(state)), ours_of)
                        for _ in range(more)
                    }
                    mine |= {
                        _our_choice(ours.act(info, random.Random(samples + k)), hand)
                        for k in range(more)
                    }
                name = "draw" if drawing else "discard"
                if mine == theirs:
                    tally.add(name, "agree")
                elif taken != NO_CARD and ("knock", taken) in theirs:
                    # RLCard lets a knock throw the card just taken from the pile; RULES.md
                    # does not, so the two agents cannot agree there.
                    tally.add(name, "rules")
                else:
                    shown = "-" if taken == NO_CARD else text(1 << taken)
                    tally.add(
                        name,
                        "disagree",
                        f"{name}: ours {sorted(mine)}, theirs {sorted(theirs)}; "
                        f"hand {text(hand)}, taken {shown}",
                    )
            action = agent.step(state)
            event = events.ActionEvent.decode_action(action)
            taken = top[0] if isinstance(event, events.PickUpDiscardAction) and top else NO_CARD
            state, _ = env.step(action)
    return tally


def _rl_choice(event: Any, ours_of: list[int]) -> tuple[str, int]:
    name = type(event).__name__
    if name == "DrawCardAction":
        return ("draw", NO_CARD)
    if name == "PickUpDiscardAction":
        return ("take", NO_CARD)
    if name == "GinAction":
        return ("gin", NO_CARD)
    card = Card.parse(str(event.card)).index
    return ("knock" if name == "KnockAction" else "discard", card)


def _our_choice(action: Action, hand: int) -> tuple[str, int]:
    if action.kind is Kind.KNOCK and not (hand & ~(1 << action.card) & ~action.spread_mask):
        return ("gin", NO_CARD)
    if action.kind in (Kind.DRAW, Kind.TAKE):
        return (action.kind.value, NO_CARD)
    return (action.kind.value, action.card)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--samples", type=int, default=40, help="draws of each random agent per decision"
    )
    args = parser.parse_args()
    pyspiel = optional_module("pyspiel")
    rlcard = optional_module("rlcard")
    if pyspiel is None and rlcard is None:
        print("neither pyspiel nor rlcard is installed: pip install -e '.[bench]'")
        sys.exit(0)
    if pyspiel is not None:
        openspiel_check(pyspiel, args.games, args.seed).report(
            f"openspiel vs OpenSpiel's SimpleGinRummyBot: {args.games} games, seed {args.seed}"
        )
    else:
        print("pyspiel is not installed: OpenSpiel cross-check skipped")
    if rlcard is not None:
        rlcard_check(rlcard, args.games, args.seed, args.samples).report(
            f"novice vs RLCard's GinRummyNoviceRuleAgent: {args.games} games, seed {args.seed}, "
            f"{args.samples} samples per decision"
        )
    else:
        print("rlcard is not installed: RLCard cross-check skipped")


if __name__ == "__main__":
    main()
