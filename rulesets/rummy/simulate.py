"""Random legal Rummy games (for the conformance test and property tests).

>>> from rulesets.rummy.game import RummyGame
>>> RummyGame.from_record(random_record(3)).finished
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from rulesets.cards import JOKER, Card
from rulesets.errors import RulesetError
from rulesets.protocol import GameRecord
from rulesets.rummy.actions import Discard, Draw, HandEnd, LayOff, Meld, StartHand, SwapJoker
from rulesets.rummy.game import RummyGame
from rulesets.rummy.house_rules import RummyRules
from rulesets.rummy.melds import (
    DECK_PLAIN,
    DECK_WITH_JOKERS,
    card_value,
    deal_size,
    hand_value,
)
from rulesets.rummy.suggest import suggest

__all__ = ["random_record"]

_RANDOM_RULES: Final[tuple[dict[str, Any], ...]] = (
    {},
    {"going_rummy_double": True},
    {"multi_meld": True, "ace_high_or_low": True},
    {"jokers": True, "joker_swap": True},
    {"winner_takes_all": True, "target": 150},
    {"fixed_rounds": 3, "cash": True},
    {"block_rummy": True, "winner_deals": True},
    {"ace_high_or_low": True, "round_the_corner": True, "meld_before_layoff": True},
    {"target": 60, "must_discard_to_go_out": True},
    {"no_shuffle": True, "target": 60},
    {"winner_takes_all": True, "fixed_rounds": 2, "going_rummy_double": True},
    {"cash": True, "fixed_rounds": 2, "going_rummy_double": True, "max_reshuffles": 1},
)


def random_record(seed: int) -> GameRecord:
    """A random legal complete game: random deals, real melds and lay-offs, hand ends."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    players = [f"P{i + 1}" for i in range(n)]
    rules = RummyRules.model_validate(rng.choice(_RANDOM_RULES))
    game = RummyGame(players, rules)
    dealer: str | None = rng.choice(players)
    hands = 0
    while not game.finished and hands < 60:
        hands += 1
        if rng.random() < 0.5 and _play_logged_hand(game, rng, dealer):
            dealer = None
            continue
        _play_table_hand(game, rng, dealer)
        dealer = None
    return game.to_record()


def _deal(game: RummyGame, rng: random.Random) -> tuple[dict[str, list[Card]], list[Card]]:
    pack = list(DECK_WITH_JOKERS if game.rules.jokers else DECK_PLAIN)
    rng.shuffle(pack)
    size = deal_size(len(game.players))
    held = {p: pack[i * size : (i + 1) * size] for i, p in enumerate(game.players)}
    return held, pack[len(game.players) * size :]


def _play_table_hand(game: RummyGame, rng: random.Random, dealer: str | None) -> None:
    """A hand logged at the table only: melds and lay-offs, then the hand end."""
    rules = game.rules
    game.push(StartHand(dealer=dealer))
    held, _ = _deal(game, rng)
    winner = rng.choice(game.players)
    order = [*game.players]
    rng.shuffle(order)
    for p in order:
        if rules.joker_swap:
            _swap_jokers(game, p, held[p])
        for m in suggest(held[p], rules).melds[: 2 if rules.multi_meld else 1]:
            try:
                game.push(Meld(player=p, cards=tuple(m.cards)))
            except RulesetError:
                continue
            for c in m.cards:
                held[p].remove(c)
        for c in list(held[p]):
            for tm in game.table:
                if game.can(LayOff(player=p, cards=(c,), meld=tm.index)):
                    game.push(LayOff(player=p, cards=(c,), meld=tm.index))
                    held[p].remove(c)
                    break
    block = rules.block_rummy and rng.random() < 0.2
    remaining: dict[str, Sequence[Card]] = {}
    typed: dict[str, int] = {}
    for p in game.players:
        if p == winner and not block:
            continue
        if rng.random() < 0.15:
            typed[p] = hand_value(held[p], rules)
        else:
            remaining[p] = list(held[p])
    play = game.summary().detail.play
    may = play.may_go_rummy if play is not None else ()
    going_rummy = not block and winner in may and rng.random() < 0.3
    game.push(
        HandEnd(
            went_out=None if block else winner,
            going_rummy=going_rummy,
            remaining={q: tuple(cards) for q, cards in remaining.items()},
            typed=typed,
        )
    )


class _Table:
    """The cards of a logged hand as the simulation knows them."""

    def __init__(self, game: RummyGame, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.held, rest = _deal(game, rng)
        self.pile = [rest.pop()]
        self.stock = rest  # stock.pop() is the top card

    def draw_stock(self, p: str) -> bool:
        game, rules = self.game, self.game.rules
        if not self.stock:
            if not game.can(Draw(player=p)):
                return False  # block rummy / reshuffles used up / nothing left
            if rules.no_shuffle:  # A-R15: turned over as it lies, no new upcard
                self.stock = self.pile[::-1]
                self.pile = []
            else:
                self.stock = self.pile[:]
                self.rng.shuffle(self.stock)
                self.pile = [self.stock.pop()]
        card = self.stock.pop()
        game.push(Draw(player=p, card=card if self.rng.random() < 0.5 else None))
        self.held[p].append(card)
        return True


def _keeps(cards: Sequence[Card], mine: list[Card], taken: Card | None, rules: RummyRules) -> bool:
    """Whether putting ``cards`` down leaves a hand the turn can still end with."""
    after = [c for c in mine if c not in cards] if cards else mine
    if not after:
        return not rules.must_discard_to_go_out
    return any(c != taken for c in after)


def _swap_jokers(game: RummyGame, p: str, mine: list[Card]) -> None:
    """Take back every melded joker a held card stands for (R7, "Joker swap")."""
    for c in [c for c in mine if not c.is_joker]:
        for tm in game.table:
            if game.can(SwapJoker(player=p, meld=tm.index, card=c)):
                game.push(SwapJoker(player=p, meld=tm.index, card=c))
                mine.remove(c)
                mine.append(JOKER)
                break


def _put_down(game: RummyGame, p: str, mine: list[Card], taken: Card | None) -> None:
    rules = game.rules
    if rules.joker_swap:
        _swap_jokers(game, p, mine)
    for m in suggest(mine, rules).melds[: None if rules.multi_meld else 1]:
        if _keeps(m.cards, mine, taken, rules) and game.can(Meld(player=p, cards=tuple(m.cards))):
            game.push(Meld(player=p, cards=tuple(m.cards)))
            for c in m.cards:
                mine.remove(c)
    for c in list(mine):
        for tm in game.table:
            if _keeps([c], mine, taken, rules) and game.can(
                LayOff(player=p, cards=(c,), meld=tm.index)
            ):
                game.push(LayOff(player=p, cards=(c,), meld=tm.index))
                mine.remove(c)
                break


def _turn(t: _Table, p: str) -> bool | None:
    """One turn of ``p``: True if they went out, None if the stock is dead."""
    game, rules = t.game, t.game.rules
    mine = t.held[p]
    taken: Card | None = None
    if t.pile and len(mine) >= 2 and t.rng.random() < 0.3:
        taken = t.pile.pop()
        game.push(Draw(player=p, source="discard", card=taken))
        mine.append(taken)
    elif not t.draw_stock(p):
        return None
    _put_down(game, p, mine, taken)
    if not mine:
        return True
    dead = [c for c in suggest(mine, rules).deadwood if c != taken] or [
        c for c in mine if c != taken
    ]
    out = max(dead, key=lambda c: card_value(c, rules))
    game.push(Discard(player=p, card=out))
    mine.remove(out)
    t.pile.append(out)
    return not mine


def _play_logged_hand(game: RummyGame, rng: random.Random, dealer: str | None) -> bool:
    """Play one hand turn by turn (``turns=True``): draw, meld, lay off, discard.

    Returns False (and leaves the game as it was) if nobody could finish the hand.
    """
    mark = len(game.actions)
    t = _Table(game, rng)
    game.push(StartHand(dealer=dealer, turns=True, upcard=t.pile[-1]))
    winner: str | None = None
    for _ in range(100):
        p = game.turn
        if p is None:  # pragma: no cover - turns are logged
            break
        went = _turn(t, p)
        if went is None:
            break
        if went:
            winner = p
            break
    if winner is None and not game.can(
        HandEnd(went_out=None, typed=dict.fromkeys(game.players, 0))
    ):
        while len(game.actions) > mark:
            game.pop()
        return False
    others = [p for p in game.players if p != winner]
    remaining: dict[str, Sequence[Card]] = {
        p: list(t.held[p]) for p in others if rng.random() < 0.85
    }
    typed = {p: hand_value(t.held[p], rules=game.rules) for p in others if p not in remaining}
    game.push(
        HandEnd(
            went_out=winner,
            remaining={q: tuple(cards) for q, cards in remaining.items()},
            typed=typed,
        )
    )
    return True
