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

from rulesets.cards import DECK, Card, parse_card, parse_cards
from rulesets.protocol import GameRecord
from rulesets.umtali.actions import Extend, GoOut, Meld
from rulesets.umtali.game import UmtaliGame
from rulesets.umtali.melds import UmtaliRules

__all__ = ["random_game", "random_record"]


def _played(action: Meld | Extend | GoOut) -> set[Card]:
    if isinstance(action, Meld):
        return set(parse_cards(action.cards))
    if isinstance(action, Extend):
        return {parse_card(action.card)}
    out = set(parse_cards(action.pair))
    if action.discard is not None:
        out.add(parse_card(action.discard))
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


def random_game(
    seed: int,
    *,
    rules: UmtaliRules | None = None,
    players: tuple[str, str] = ("North", "South"),
) -> UmtaliGame:
    """Play a whole random game (4 hands, or 5 on a tie with ``fifth_hand_on_tie``)."""
    rng = random.Random(seed)
    game = UmtaliGame(players, rules)
    rules = game.rules
    first = rng.randrange(2)
    while not game.finished:
        game.start_hand(first if not game.hands else None)
        dealer = players.index(game.dealer or players[0])
        deck = list(DECK)
        rng.shuffle(deck)
        hands: list[set[Card]] = [set(), set()]
        pile: list[Card] = []
        starter = 1 - dealer
        hands[starter] = set(deck[:11] if rules.deal_eleven_ten else deck[:10])
        deck = deck[len(hands[starter]) :]
        hands[dealer] = set(deck[:10])
        deck = deck[10:]
        if not rules.deal_eleven_ten:
            pile.append(deck.pop())
        stock = deck
        cur = starter
        first_turn = True
        out: int | None = None
        face_down = False
        while True:
            h = hands[cur]
            took: Card | None = None
            both = _two_discard_meld(game, cur, h, pile) if stock else None
            if not (first_turn and rules.deal_eleven_ten):
                if both is not None and rng.random() < 0.7:
                    d1, d2 = pile.pop(), pile.pop()
                    game.take_discards(cur, [d1, d2], hand=h)
                    h |= {d1, d2}
                    game.push(both, hand=h)  # D1 and D2 melded at once (U4.2)
                    h -= _played(both)
                    took = d1
                elif pile and rng.random() < 0.25 and len(stock) > 0:
                    top = pile.pop()
                    game.take_discards(cur, [top], hand=h)
                    took = top
                    h.add(top)
                elif stock:
                    if rng.random() < 0.6:
                        game.draw(cur)
                    h.add(stock.pop())
                else:
                    game.end_hand_empty_stock()
                    break
            opening = first_turn and rules.deal_eleven_ten
            first_turn = False
            sug = game.suggest(cur, h)
            if sug.go_out is not None:
                for act in sug.go_out:
                    if isinstance(act, GoOut) and act.discard is not None:
                        face_down = rng.random() < 0.3
                        act = act.model_copy(update={"face_down": face_down})
                    game.push(act, hand=h)
                    h -= _played(act)
                    if isinstance(act, GoOut) and act.discard is not None and not face_down:
                        pile.append(parse_card(act.discard))
                out = cur
                break
            plan = [a for a in sug.best if not isinstance(a, GoOut)]
            k = len(plan) if rng.random() < 0.8 else rng.randrange(len(plan) + 1)
            while k > 0 and not (h - set().union(*map(_played, plan[:k]))) - {took}:
                k -= 1  # keep a card that may be discarded (U4.3)
            for act in plan[:k]:
                game.push(act, hand=h)
                h -= _played(act)
            choices = sorted(c for c in h if c != took)
            card = rng.choice(choices)
            # a take, and the no-draw opening turn of the 11-10 deal, are followed by a
            # recorded discard so that the app knows where that turn ends
            if took is not None or opening or rng.random() < 0.7:
                game.discard(cur, card, hand=h)
            h.discard(card)
            pile.append(card)
            cur = 1 - cur
        if out is None:
            continue
        opp = 1 - out
        h = hands[opp]
        if stock:
            if rng.random() < 0.6:
                game.draw(opp)
            h.add(stock.pop())
        sug = game.suggest(opp, h)
        if sug.go_out is not None:
            for act in sug.go_out:
                game.push(act, hand=h)
                h -= _played(act)
            continue
        for act in sug.best:
            game.push(act, hand=h)
            h -= _played(act)
        if h and rng.random() < 0.5:
            card = rng.choice(sorted(h))
            game.discard(opp, card, hand=h)
            h.discard(card)
        game.leftovers(opp, sorted(h), hand=h)
    return game


def random_record(
    seed: int,
    *,
    rules: UmtaliRules | None = None,
    players: tuple[str, str] = ("North", "South"),
) -> GameRecord:
    """A random legal complete game as a :class:`GameRecord` (public information only)."""
    return random_game(seed, rules=rules, players=players).to_record()
