"""What every part of the Rummy referee asks of the table: who plays, in which
seat order, and where the game and the stock stand (the base of :class:`Referee`).
"""

from __future__ import annotations

from rulesets import seats
from rulesets.errors import IllegalActionError, RecordError
from rulesets.rummy.house_rules import RummyRules, house_rule
from rulesets.rummy.melds import (
    deal_size,
)
from rulesets.rummy.state import Hand, State, higher_is_better, refuse


class Table:
    """The players and house rules of one game, and the facts read off a state."""

    def __init__(self, players: tuple[str, ...], rules: RummyRules) -> None:
        self._players = players
        self._rules = rules

    def _player(self, name: str) -> str:
        if name not in self._players:
            raise RecordError(f"{name!r}: not a player in this game ({', '.join(self._players)})")
        return name

    def _left_of(self, name: str) -> str:
        return seats.left_of(self._players, name)

    def finished(self, st: State) -> bool:
        if st.hand is not None or not st.results:
            return False
        r = self._rules
        if r.fixed_rounds is not None:
            return len(st.results) >= r.fixed_rounds
        return any(t >= r.target for t in st.totals.values())

    def winners(self, st: State) -> tuple[str, ...]:
        """Lowest penalty total (R6.3), or highest points / balance (R7, A-R13, A-R16);
        ties share the win (A-R11)."""
        if not self.finished(st):
            return ()
        vals = st.totals.values()
        best = max(vals) if higher_is_better(self._rules) else min(vals)
        return tuple(p for p in self._players if st.totals[p] == best)

    def _most_held(self, hand: Hand, player: str) -> int:
        """A-R14: the most cards ``player`` can hold at a hand end."""
        return deal_size(len(self._players)) - hand.spent[player]

    def _stock_refusal(self, hand: Hand, player: str) -> IllegalActionError | None:
        """Why the stock cannot be drawn from now (when it is empty), or None."""
        if hand.stock > 0:
            return None
        r = self._rules
        if r.block_rummy:
            return refuse(
                f"draw by {player}: the stock is empty; with {house_rule('block_rummy')} the"
                " hand ends and everyone scores",
                "R5.2",
            )
        if r.max_reshuffles is not None and hand.reshuffles >= r.max_reshuffles:
            return refuse(
                f"draw by {player}: the stock is empty and the pile was reused"
                f" {hand.reshuffles} time(s) ({house_rule('max_reshuffles')}:"
                f" {r.max_reshuffles}); the hand ends",
                "R5.2",
            )
        if len(hand.pile) < (1 if r.no_shuffle else 2):
            return refuse(f"draw by {player}: stock and pile are both empty; the hand ends", "R5.1")
        return None

    def _stock_dead(self, hand: Hand) -> bool:
        return hand.stock == 0 and self._stock_refusal(hand, "?") is not None

    def _may_end_without_winner(self, hand: Hand) -> bool:
        r = self._rules
        allowed = r.block_rummy or r.max_reshuffles is not None
        return allowed and (not hand.turns or self._stock_dead(hand))

    def _need_hand(self, st: State, what: str) -> Hand:
        if st.hand is None:
            if self.finished(st):
                raise refuse(f"{what}: the game is over", "R6.3")
            raise refuse(f"{what}: no hand is in progress (start a hand first)", "R1.3")
        return st.hand
