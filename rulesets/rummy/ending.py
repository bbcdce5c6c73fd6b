"""The end of a hand: who went out, what each loser held, going rummy and the
scores (R4, R6).  :class:`Ending` is part of the referee.
"""

from __future__ import annotations

from rulesets.cards import Card
from rulesets.errors import RecordError
from rulesets.rummy.actions import (
    HandEnd,
)
from rulesets.rummy.house_rules import house_rule
from rulesets.rummy.melds import (
    JOKERS_IN_PACK,
    cards_of,
    deal_size,
    hand_value,
)
from rulesets.rummy.state import Hand, Loss, State, refuse, scoring
from rulesets.rummy.summary import (
    RummyHand,
    hand_ledger,
)
from rulesets.rummy.table import Table
from rulesets.words import card_words as quote


class Ending(Table):
    """The hand-end handler and its scoring."""

    def _check_no_winner(self, hand: Hand, act: HandEnd) -> None:
        what = "hand end"
        r = self._rules
        if not (r.block_rummy or r.max_reshuffles is not None):
            only = (
                f" only {house_rule('block_rummy')} or {house_rule('max_reshuffles')} end a"
                " hand without a winner"
            )
            reshuffled = f"{what}: nobody went out, but the stock is reshuffled"
            raise refuse(f"{reshuffled} (R5.1);{only}", "R5.2", words=f"{reshuffled};{only}")
        if act.going_rummy:
            raise refuse(f"{what}: nobody went out, so nobody went rummy", "R4.2")
        if hand.turns and not self._stock_dead(hand):
            raise refuse(
                f"{what}: nobody went out, but the stock can still be drawn from"
                f" ({hand.stock} left, pile {len(hand.pile)})",
                "R5.2",
            )

    def _check_winner(self, hand: Hand, act: HandEnd, winner: str) -> None:
        what = "hand end"
        if hand.out is not None and hand.out != winner:
            raise refuse(f"{what}: {hand.out} emptied their hand, not {winner}", "R4.1")
        if winner in act.remaining or winner in act.typed:
            raise refuse(f"{what}: {winner} went out and holds no cards", "R6.2")
        if hand.turns and hand.out is None:
            raise refuse(f"{what}: {winner} still holds {hand.counts[winner]} card(s)", "R4.1")

    def _going_rummy(self, hand: Hand, act: HandEnd, winner: str) -> bool:
        """Whether the winner went rummy (R4.2, A-R5): nothing placed on an earlier turn."""
        what = "hand end"
        if hand.turns:
            if act.going_rummy and not hand.rummy:
                raise refuse(
                    f"{what}: {winner} placed cards before the last turn, so this is"
                    " not going rummy",
                    "R4.2",
                )
            return hand.rummy if act.going_rummy is None else act.going_rummy
        if act.going_rummy and winner in hand.earlier:
            raise refuse(
                f"{what}: {winner} put cards down on an earlier turn (someone else put cards"
                " down after them), so this is not going rummy",
                "R4.2",
            )
        return bool(act.going_rummy)

    def _loss(self, hand: Hand, act: HandEnd, p: str, seen: set[Card], jokers: list[int]) -> Loss:
        """One loser's penalty, from a typed total or from the cards shown."""
        what = "hand end"
        if p in act.typed:
            value = act.typed[p]
            if value < 0:
                raise refuse(
                    f"{what}: a typed total of {value} for {p}: a penalty is a sum of card"
                    " values, never negative",
                    "R6.2",
                )
            return Loss(value, None)
        texts = act.remaining[p]
        cards = cards_of(texts, self._rules) if texts else ()
        shown = quote(cards)
        most = self._most_held(hand, p)
        if len(cards) > most:
            put = hand.spent[p]
            down = f", less the {put} put down" if put else ""
            raise refuse(
                f"{what}: {p} cannot hold {len(cards)} cards ({shown}): at most {most}"
                f" ({deal_size(len(self._players))} dealt{down}; every turn draws one and"
                " discards one)",
                "A-R14",
            )
        for c in cards:
            if c.is_joker:
                jokers[0] += 1
                if jokers[0] > JOKERS_IN_PACK:
                    raise refuse(f"{what}: more than {JOKERS_IN_PACK} jokers in play", "R7")
            elif c in seen:
                raise refuse(
                    f"{what}: {c.symbol} in {p}'s cards {shown} is already on the table, on the"
                    " discard pile or in another hand",
                    "R2.3",
                )
            seen.add(c)
        if hand.turns and len(cards) != hand.counts[p]:
            raise refuse(
                f"{what}: {p} holds {hand.counts[p]} cards, not {len(cards)} ({shown})", "R6.2"
            )
        return Loss(hand_value(cards, self._rules), cards)

    def _end(self, st: State, act: HandEnd) -> RummyHand:
        hand = self._need_hand(st, "hand end")
        for name in [*act.remaining, *act.typed]:
            self._player(name)
        both = set(act.remaining) & set(act.typed)
        if both:
            raise RecordError(f"hand end: {sorted(both)[0]} has both cards and a typed total")
        winner = self._player(act.went_out) if act.went_out is not None else None
        if winner is None:
            self._check_no_winner(hand, act)
        else:
            self._check_winner(hand, act, winner)
        losers = [p for p in self._players if p != winner]
        missing = [p for p in losers if p not in act.remaining and p not in act.typed]
        if missing:
            raise RecordError(
                f"hand end: give the remaining cards or a typed total for {', '.join(missing)}"
            )
        going_rummy = self._going_rummy(hand, act, winner) if winner is not None else False
        seen = set(hand.seen)
        if hand.turns:  # the pile is known only when draws and discards are logged
            seen |= {c for c in hand.pile if c is not None and not c.is_joker}
        jokers = [hand.jokers_out]
        losses = {p: self._loss(hand, act, p, seen, jokers) for p in losers}
        return self._score(st, hand, winner, going_rummy, losses, act)

    def _score(
        self,
        st: State,
        hand: Hand,
        winner: str | None,
        going_rummy: bool,
        losses: dict[str, Loss],
        act: HandEnd,
    ) -> RummyHand:
        r = self._rules
        doubled = going_rummy and r.going_rummy_double and winner is not None
        penalties = {p: loss.penalty for p, loss in losses.items()}
        remaining = {p: loss.cards for p, loss in losses.items() if loss.cards is not None}
        ledger = hand_ledger(
            number=hand.number,
            scoring=scoring(r),
            winner=winner,
            penalties=penalties,
            remaining=remaining,
            doubled=doubled,
        )
        scores = dict.fromkeys(self._players, 0)
        for e in ledger:
            scores[e.player] += e.amount
        for p, v in scores.items():
            st.totals[p] += v
        result = RummyHand(
            number=hand.number,
            dealer=hand.dealer,
            scores=scores,
            ledger=ledger,
            went_out=winner,
            going_rummy=going_rummy,
            block=winner is None,
            doubled=doubled,
            penalties=penalties,
            totals=dict(st.totals),
            typed=tuple(p for p in self._players if p in act.typed),
            remaining=remaining,
        )
        st.results = (*st.results, result)
        st.ledger = st.ledger + ledger
        for p, v in penalties.items():
            st.penalties[p] += v
        st.hand = None
        if r.winner_deals and winner is not None:
            st.next_dealer = winner
        else:
            st.next_dealer = self._left_of(hand.dealer)
        return result
