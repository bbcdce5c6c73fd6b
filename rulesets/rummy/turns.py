"""One handler per action within a hand: the deal, draws, melds, lay-offs, joker
swaps and discards (R1-R5, R7).  :class:`Turns` is part of the referee.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rulesets.cards import Card
from rulesets.rummy.actions import (
    Discard,
    Draw,
    LayOff,
    Meld,
    StartHand,
    SwapJoker,
)
from rulesets.rummy.house_rules import house_rule
from rulesets.rummy.melds import (
    JOKERS_IN_PACK,
    MeldShape,
    analyse_meld,
    card_of,
    cards_of,
    deal_size,
    extend_meld,
)
from rulesets.rummy.state import Hand, State, TableMeld, refuse
from rulesets.rummy.table import Table
from rulesets.words import card_words as quote


class Turns(Table):
    """The handlers of the actions inside a hand."""

    def _start(self, st: State, act: StartHand) -> StartHand:
        if st.hand is not None:
            raise refuse(f"new hand: hand {st.hand.number} has not ended", "R4.1")
        if self.finished(st):
            raise refuse("new hand: the game is over", "R6.3")
        expected = st.next_dealer
        dealer = act.dealer if act.dealer is not None else expected
        if dealer is None:
            raise refuse("new hand: name the first dealer (chosen at random at the table)", "R1.2")
        self._player(dealer)
        if expected is not None and dealer != expected:
            how = "the winner deals" if self._rules.winner_deals else "the deal passes clockwise"
            raise refuse(
                f"new hand dealt by {dealer}: {expected} deals hand {len(st.results) + 1} ({how})",
                "R1.2",
            )
        n = len(self._players)
        size = deal_size(n)
        hand = Hand(number=len(st.results) + 1, dealer=dealer, turns=act.turns)
        hand.placed = dict.fromkeys(self._players, 0)
        hand.spent = dict.fromkeys(self._players, 0)
        upcard = card_of(act.upcard, self._rules) if act.upcard is not None else None
        hand.pile = [upcard]
        if act.turns:
            pack = 52 + (JOKERS_IN_PACK if self._rules.jokers else 0)
            hand.counts = dict.fromkeys(self._players, size)
            hand.stock = pack - n * size - 1
            hand.turn = self._left_of(dealer)
        st.hand = hand
        return act.model_copy(update={"dealer": dealer})

    def _check_turn(self, hand: Hand, player: str, what: str) -> None:
        if not hand.turns:
            return
        if player != hand.turn:
            raise refuse(f"{what} by {player}: it is {hand.turn}'s turn", "R1.4")
        if not hand.drawn:
            raise refuse(f"{what} by {player}: draw a card first", "R3.1")

    def _draw(self, hand: Hand, player: str, act: Draw, entered: tuple[Card, ...] | None) -> Draw:
        card = card_of(act.card, self._rules) if act.card is not None else None
        if card is not None and entered is not None and card in entered and not card.is_joker:
            raise refuse(
                f"draw {card.symbol} by {player}: {card.symbol} is already in your hand", "R1.1"
            )
        if not hand.turns:
            return act  # draws are only refereed when turns are logged
        if player != hand.turn:
            raise refuse(f"draw by {player}: it is {hand.turn}'s turn", "R1.4")
        if hand.drawn:
            raise refuse(f"draw by {player}: one draw per turn", "R3.1")
        if act.source == "discard":
            self._draw_discard(hand, player, card)
        else:
            self._draw_stock(hand, player, card)
        hand.drawn = True
        hand.counts[player] += 1
        hand.melds_this_turn = 0
        hand.placed_before_turn = hand.placed[player] > 0
        return act

    def _draw_discard(self, hand: Hand, player: str, card: Card | None) -> None:
        if not hand.pile:
            raise refuse(f"draw by {player}: the discard pile is empty", "R3.1")
        top = hand.top
        if card is not None and top is not None and card != top:
            raise refuse(
                f"draw {card.symbol} by {player}: the top of the discard pile is {top.symbol}",
                "R3.1",
            )
        taken = card if card is not None else top
        hand.pile.pop()
        hand.drawn_discard = taken
        if taken is not None and not taken.is_joker:
            hand.held.add(taken)

    def _turn_over(self, hand: Hand) -> None:
        """The empty stock is replaced by the discard pile (R5.1, A-R15)."""
        if self._rules.no_shuffle:
            # A-R15: turned face down as it lies: the bottom card is the new top of the stock
            hand.stock_known = list(hand.pile)
            hand.stock = len(hand.pile)
            hand.pile = []
        else:
            # R5.1: shuffled; its top card starts a new pile (which card, nobody has said)
            hand.stock = len(hand.pile) - 1
            hand.stock_known = []
            hand.pile = [None]
        hand.reshuffles += 1

    def _draw_stock(self, hand: Hand, player: str, card: Card | None) -> None:
        refusal = self._stock_refusal(hand, player)
        if refusal is not None:
            raise refusal
        if hand.stock == 0:
            self._turn_over(hand)
        self._check_stock_card(hand, player, card)
        hand.stock -= 1
        known = hand.stock_known.pop(0) if hand.stock_known else None
        taken = card if card is not None else known
        if taken is not None and not taken.is_joker:
            hand.held.add(taken)
        hand.drawn_discard = None

    def _check_stock_card(self, hand: Hand, player: str, card: Card | None) -> None:
        """A-R15: a stock draw may not name a card the table knows is elsewhere."""
        if card is None or card.is_joker:
            return
        what = f"draw {card.symbol} from the stock by {player}"
        expected = hand.stock_known[0] if hand.stock_known else None
        if expected is not None and card != expected:
            raise refuse(
                f"{what}: the pile was turned over as it lay ({house_rule('no_shuffle')}),"
                f" so the next card of the stock is {expected.symbol}",
                "A-R15",
            )
        if card in hand.pile:
            where = "is face up on the discard pile"
        elif card in hand.seen:
            where = "is on the table"
        elif card in hand.held:
            where = "was drawn earlier in this hand"
        else:
            return
        raise refuse(f"{what}: {card.symbol} {where}, so it is not in the stock", "A-R15")

    def _going_out_check(
        self, hand: Hand, player: str, n: int, what: str, entered: tuple[Card, ...] | None
    ) -> None:
        if hand.turns:
            held: int | None = hand.counts[player]
        else:
            held = len(entered) if entered is not None else None
        if held is None:
            return
        left = held - n
        if left < 0:
            raise refuse(f"{what}: {player} holds only {held} card(s)", "R3.3")
        if left == 0 and self._rules.must_discard_to_go_out:
            raise refuse(
                f"{what}: the last card must be discarded ({house_rule('must_discard_to_go_out')})",
                "R7",
            )

    @staticmethod
    def _check_holds(
        entered: tuple[Card, ...] | None, cards: Sequence[Card], what: str, rule: str
    ) -> None:
        if entered is None:
            return
        missing = Counter(cards) - Counter(entered)
        if missing:
            card = next(iter(missing))
            raise refuse(
                f"{what}: {card.symbol} is not in the hand entered ({quote(entered)})", rule
            )

    def _place(self, hand: Hand, player: str, cards: Sequence[Card], *, spent: bool) -> None:
        for c in cards:
            if c.is_joker:
                hand.jokers_out += 1
            else:
                hand.seen.add(c)
                hand.held.discard(c)
        if hand.jokers_out > JOKERS_IN_PACK:
            raise refuse(f"{quote(cards)}: the pack has only {JOKERS_IN_PACK} jokers", "R7")
        # in the order of the log, whoever put cards down before this player did so on an
        # earlier turn (the hand ends the moment someone goes out, R4.1)
        hand.earlier |= {q for q, n in hand.placed.items() if n and q != player}
        hand.placed[player] += len(cards)
        if not spent:
            return
        hand.spent[player] += len(cards)
        if hand.turns:
            hand.counts[player] -= len(cards)
            if hand.counts[player] == 0:
                self._went_out(hand, player)

    @staticmethod
    def _went_out(hand: Hand, player: str) -> None:
        hand.out = player
        hand.rummy = not hand.placed_before_turn

    @staticmethod
    def _check_fresh(hand: Hand, cards: Sequence[Card], what: str) -> None:
        again = [c for c in cards if not c.is_joker and c in hand.seen]
        if again:
            raise refuse(f"{what}: {again[0]} is already on the table", "R2.3")

    def _meld(
        self, hand: Hand, player: str, act: Meld, entered: tuple[Card, ...] | None
    ) -> TableMeld:
        cards = cards_of(act.cards, self._rules)
        what = f"meld {quote(cards)} by {player}"
        shape = analyse_meld(cards, self._rules, kind=act.kind)
        self._check_fresh(hand, cards, what)
        self._check_holds(entered, cards, what, "R3.2")
        if hand.turns and hand.melds_this_turn >= 1 and not self._rules.multi_meld:
            raise refuse(
                f"{what}: one meld per turn ({house_rule('multi_meld')} allows more)", "R3.2"
            )
        self._going_out_check(hand, player, len(cards), what, entered)
        meld = TableMeld(len(hand.melds), player, shape)
        hand.melds.append(meld)
        hand.melds_this_turn += 1
        hand.melded.add(player)
        self._place(hand, player, cards, spent=True)
        return meld

    def _target(self, hand: Hand, index: int, what: str) -> TableMeld:
        if not 0 <= index < len(hand.melds):
            raise refuse(
                f"{what}: there is no meld {index + 1} on the table ({len(hand.melds)} melds)",
                "R3.3",
            )
        return hand.melds[index]

    def _layoff(
        self, hand: Hand, player: str, act: LayOff, entered: tuple[Card, ...] | None
    ) -> TableMeld:
        cards = cards_of(act.cards, self._rules)
        what = f"lay off {quote(cards)} by {player}"
        target = self._target(hand, act.meld, what)
        if self._rules.meld_before_layoff and player not in hand.melded:
            raise refuse(
                f"{what}: put down a meld of your own first ({house_rule('meld_before_layoff')})",
                "R7",
            )
        self._check_fresh(hand, cards, what)
        self._check_holds(entered, cards, what, "R3.3")
        shape = extend_meld(target.shape, cards, self._rules)
        self._going_out_check(hand, player, len(cards), what, entered)
        new = TableMeld(target.index, target.owner, shape)
        hand.melds[target.index] = new
        self._place(hand, player, cards, spent=True)
        return new

    def _swap(
        self, hand: Hand, player: str, act: SwapJoker, entered: tuple[Card, ...] | None
    ) -> TableMeld:
        card = card_of(act.card, self._rules)
        what = f"swap {card.symbol} for a joker by {player}"
        if not self._rules.joker_swap:
            raise refuse(f"{what}: jokers stay put ({house_rule('joker_swap')} allows it)", "R7")
        target = self._target(hand, act.meld, what)
        self._check_fresh(hand, [card], what)
        self._check_holds(entered, [card], what, "R7")
        shape = target.shape
        index = _joker_for(shape, card)
        if index is None:
            raise refuse(f"{what}: no joker in {quote(shape.cards)} stands for {card.symbol}", "R7")
        new = TableMeld(target.index, target.owner, shape.with_card(index, card))
        hand.melds[target.index] = new
        # the card goes down and the joker comes back: the hand keeps its size
        self._place(hand, player, [card], spent=False)
        hand.jokers_out -= 1
        return new

    def _discard(
        self, hand: Hand, player: str, act: Discard, entered: tuple[Card, ...] | None
    ) -> Discard:
        card = card_of(act.card, self._rules) if act.card is not None else None
        what = f"discard {card.symbol if card else 'a card'} by {player}"
        if card is not None:
            self._check_holds(entered, [card], what, "R3.4")
        if not hand.turns:
            return act
        if card is not None and hand.drawn_discard is not None and card == hand.drawn_discard:
            raise refuse(
                f"{what}: you may not discard the card taken from the discard pile this turn",
                "R3.4",
            )
        if card is not None and not card.is_joker and card in hand.seen:
            raise refuse(f"{what}: {card.symbol} is on the table", "R2.3")
        hand.counts[player] -= 1
        hand.pile.append(card)
        if card is not None:
            hand.held.discard(card)
        if hand.counts[player] == 0:
            self._went_out(hand, player)
        else:
            hand.turn = self._left_of(player)
            hand.drawn = False
            hand.drawn_discard = None
            hand.melds_this_turn = 0
        return act


def _joker_for(shape: MeldShape, card: Card) -> int | None:
    """Which joker of ``shape`` stands for ``card`` (R7), if any."""
    for i, c in enumerate(shape.cards):
        if not c.is_joker:
            continue
        if shape.kind == "run" and card == Card(shape.natural_for(i), shape.suit):
            return i
        if (
            shape.kind == "set"
            and card.rank is shape.rank
            and card.suit not in {x.suit for x in shape.cards}
        ):
            return i
    return None
