"""Random legal Umtali games, played out with real (simulated) hands.

Used by the conformance test and the property tests: every action is pushed
with the private hand, so the referee checks U4-U8 in full while recording
only what a table sees.  Draws and discards are recorded only some of the
time, exactly as at a real table.

>>> rec = random_record(7)
>>> rec.game, len(rec.players), rec.actions[0]["type"]
('umtali', 2, 'start_hand')
"""

from __future__ import annotations

import random

from rulesets.cards import DECK, Card
from rulesets.protocol import GameRecord
from rulesets.umtali.actions import (
    Discard,
    Draw,
    EndHandEmptyStock,
    Extend,
    GoOut,
    Leftovers,
    Meld,
    StartHand,
    TakeDiscards,
)
from rulesets.umtali.game import UmtaliGame
from rulesets.umtali.house_rules import UmtaliRules
from rulesets.umtali.suggest import PlanAction

__all__ = ["random_game", "random_record"]


def _played(action: Meld | Extend | GoOut) -> set[Card]:
    if isinstance(action, Meld):
        return set(action.cards)
    if isinstance(action, Extend):
        return {action.card}
    out = set(action.pair)
    if action.discard is not None:
        out.add(action.discard)
    return out


def _two_discard_meld(
    game: UmtaliGame, player: int, hand: set[Card], pile: list[Card]
) -> Meld | None:
    """A basic meld using both top discards and the hand, if there is one (U4.2)."""
    if len(pile) < 2:
        return None
    d1, d2 = pile[-1], pile[-2]
    if d1 in hand or d2 in hand:
        return None
    sug = game.suggest(player, hand | {d1, d2})
    for play in sug.plays:
        if isinstance(play.action, Meld) and {d1, d2} <= set(play.cards):
            return play.action
    return None


class _Hand:
    """One hand dealt for real: both players' cards, the stock and the discard pile."""

    def __init__(self, game: UmtaliGame, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.rules = game.rules
        players = game.players
        dealer = players.index(game.dealer or players[0])
        deck = list(DECK)
        rng.shuffle(deck)
        self.hands: list[set[Card]] = [set(), set()]
        self.pile: list[Card] = []
        self.starter = 1 - dealer
        eleven = self.rules.deal_eleven_ten
        self.hands[self.starter] = set(deck[:11] if eleven else deck[:10])
        deck = deck[len(self.hands[self.starter]) :]
        self.hands[dealer] = set(deck[:10])
        deck = deck[10:]
        if not eleven:
            self.pile.append(deck.pop())
        self.stock = deck

    def play(self) -> None:
        """Turns until someone goes out (then the final turn) or the stock runs out."""
        cur = self.starter
        first_turn = True
        while True:
            ended = self.turn(cur, first_turn)
            first_turn = False
            if ended == "empty":
                return
            if ended == "out":
                self.final_turn(1 - cur)
                return
            cur = 1 - cur

    def draw(self, cur: int, h: set[Card]) -> tuple[Card | None, bool]:
        """The turn's draw: (the card taken from the pile if any, whether the hand ends)."""
        game, rng, pile, stock = self.game, self.rng, self.pile, self.stock
        if not stock and self.rules.empty_stock_reshuffle and len(pile) > 1:
            top = pile.pop()  # U4.6 option: the pile but its top card is the new stock
            stock[:] = pile
            rng.shuffle(stock)
            pile[:] = [top]
        both = _two_discard_meld(game, cur, h, pile) if stock else None
        if both is not None and rng.random() < 0.7:
            d1, d2 = pile.pop(), pile.pop()
            game.push(TakeDiscards(player=game.players[cur], cards=(d1, d2)), hand=h)
            h |= {d1, d2}
            game.push(both, hand=h)  # D1 and D2 melded at once (U4.2)
            h -= _played(both)
            return d1, False
        # a single taken card must be kept under compulsory melding and may not be
        # discarded (U4.3): a line could end with nothing to discard, so none is taken
        single = pile and not self.rules.compulsory_melding
        if single and rng.random() < 0.25 and len(stock) > 0:
            top = pile.pop()
            game.push(TakeDiscards(player=game.players[cur], cards=(top,)), hand=h)
            h.add(top)
            return top, False
        if stock:
            if rng.random() < 0.6:
                game.push(Draw(player=game.players[cur]))
            h.add(stock.pop())
            return None, False
        game.push(EndHandEmptyStock())
        return None, True

    def turn(self, cur: int, first_turn: bool) -> str:
        """One turn of ``cur``: "out", "empty" (the stock ran out) or "" (play on)."""
        game, rng, h = self.game, self.rng, self.hands[cur]
        opening = first_turn and self.rules.deal_eleven_ten
        took: Card | None = None
        if not opening:
            took, empty = self.draw(cur, h)
            if empty:
                return "empty"
        sug = game.suggest(cur, h)
        if sug.go_out is not None:
            self.go_out(cur, sug.go_out)
            return "out"
        plan = [a for a in sug.best if not isinstance(a, GoOut)]
        k = len(plan)
        if rng.random() >= 0.8 and not self.rules.compulsory_melding:
            k = rng.randrange(len(plan) + 1)
        while k > 0 and not (h - set().union(*map(_played, plan[:k]))) - {took}:
            k -= 1  # keep a card that may be discarded (U4.3)
        for act in plan[:k]:
            game.push(act, hand=h)
            h -= _played(act)
        card = rng.choice(sorted(c for c in h if c != took))
        # a take, and the no-draw opening turn of the 11-10 deal, are followed by a
        # recorded discard so that the app knows where that turn ends
        if took is not None or opening or rng.random() < 0.7:
            game.push(Discard(player=game.players[cur], card=card), hand=h)
        h.discard(card)
        self.pile.append(card)
        return ""

    def go_out(self, cur: int, line: tuple[PlanAction, ...]) -> None:
        h = self.hands[cur]
        for act in line:
            if isinstance(act, GoOut) and act.discard is not None:
                face_down = self.rng.random() < 0.3
                act = act.model_copy(update={"face_down": face_down})
            self.game.push(act, hand=h)
            h -= _played(act)
            if isinstance(act, GoOut) and act.discard is not None and not act.face_down:
                self.pile.append(act.discard)

    def final_turn(self, opp: int) -> None:
        """U8.3-U8.4: the opponent's last turn, then the leftovers."""
        game, rng, h = self.game, self.rng, self.hands[opp]
        took: Card | None = None
        face_up = game.summary().detail.current
        if self.pile and face_up is not None and not face_up.face_down and rng.random() < 0.2:
            took = self.pile.pop()  # the going-out discard, face up: draw as usual (U8.2)
            game.push(TakeDiscards(player=game.players[opp], cards=(took,)), hand=h)
            h.add(took)
        elif self.stock:
            if rng.random() < 0.6:
                game.push(Draw(player=game.players[opp]))
            h.add(self.stock.pop())
        sug = game.suggest(opp, h)
        if sug.go_out is not None:
            for act in sug.go_out:
                game.push(act, hand=h)
                h -= _played(act)
            return
        for act in sug.best:
            game.push(act, hand=h)
            h -= _played(act)
        keep = {took} if took is not None and self.rules.no_rediscard else set()
        if h - keep and rng.random() < 0.5:
            card = rng.choice(sorted(h - keep))  # not a card just taken (U4.3)
            game.push(Discard(player=game.players[opp], card=card), hand=h)
            h.discard(card)
        game.push(Leftovers(player=game.players[opp], cards=tuple(sorted(h))), hand=h)


def random_game(
    seed: int,
    *,
    rules: UmtaliRules | None = None,
    players: tuple[str, str] = ("North", "South"),
) -> UmtaliGame:
    """Play a whole random game (4 hands, or 5 on a tie with ``fifth_hand_on_tie``)."""
    rng = random.Random(seed)
    game = UmtaliGame(players, rules)
    first = rng.randrange(2)
    while not game.finished:
        game.push(StartHand(dealer=game.players[first] if not game.hands else None))
        _Hand(game, rng).play()
    return game


def random_record(
    seed: int,
    *,
    rules: UmtaliRules | None = None,
    players: tuple[str, str] = ("North", "South"),
) -> GameRecord:
    """A random legal complete game as a :class:`GameRecord` (public information only)."""
    return random_game(seed, rules=rules, players=players).to_record()
