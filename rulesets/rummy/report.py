"""The referee's words for a Rummy state: the summary (phase, totals, the hand in
play) and the verdict on an action it accepted.
"""

from __future__ import annotations

from typing import Any

from rulesets.protocol import Ending as GameEnding
from rulesets.protocol import Verdict
from rulesets.rummy.actions import (
    Discard,
    Draw,
    LayOff,
    Meld,
    RummyAction,
    StartHand,
    SwapJoker,
)
from rulesets.rummy.house_rules import RummyRules, house_rule
from rulesets.rummy.melds import (
    deal_size,
    hand_value,
    layoff_reason,
    meld_reason,
)
from rulesets.rummy.state import Hand, State, TableMeld, higher_is_better, scoring, units
from rulesets.rummy.summary import (
    Phase,
    RummyDetail,
    RummyHand,
    RummyPlay,
    RummySummary,
)
from rulesets.rummy.table import Table
from rulesets.words import card_words, names_and


class Report(Table):
    """The summary and verdicts read off a state."""

    def _phase(self, st: State) -> Phase:
        hand = st.hand
        if hand is None:
            return Phase.OVER if self.finished(st) else Phase.DEAL
        if hand.out is not None or (hand.turns and self._stock_dead(hand) and not hand.drawn):
            return Phase.SCORING
        return Phase.PLAY

    def _play(self, hand: Hand) -> RummyPlay:
        players = self._players
        if hand.out is not None:
            may_win: tuple[str, ...] = (hand.out,)
        else:
            may_win = () if hand.turns else players
        rummy: tuple[str, ...]
        if hand.turns:
            rummy = (hand.out,) if hand.out is not None and hand.rummy else ()
        else:
            rummy = tuple(p for p in may_win if p not in hand.earlier)
        unavailable = set(hand.seen)
        if hand.turns:
            unavailable |= {c for c in hand.pile if c is not None and not c.is_joker}
        return RummyPlay(
            number=hand.number,
            dealer=hand.dealer,
            turns=hand.turns,
            turn=hand.turn if hand.turns else None,
            drawn=hand.drawn,
            stock=hand.stock if hand.turns else None,
            pile=len(hand.pile) if hand.turns else None,
            top=hand.top,
            held=dict(hand.counts),
            went_out=hand.out,
            deal_size=deal_size(len(players)),
            most_held={p: self._most_held(hand, p) for p in players},
            may_win=may_win,
            may_go_rummy=rummy,
            may_end_without_winner=self._may_end_without_winner(hand),
            unavailable=tuple(sorted(unavailable)),
        )

    def _detail(self, st: State) -> RummyDetail:
        r = self._rules
        mode = scoring(r)
        rule = self._detail_rule()
        return RummyDetail(
            rules=r.changed(),
            scoring=mode,
            target=None if r.fixed_rounds is not None else r.target,
            fixed_rounds=r.fixed_rounds,
            hands_left=(
                max(r.fixed_rounds - len(st.results), 0) if r.fixed_rounds is not None else None
            ),
            rule_of_end=rule,
            doubles_going_rummy=r.going_rummy_double,
            table=tuple(m.to_model() for m in st.hand.melds) if st.hand else (),
            play=self._play(st.hand) if st.hand else None,
            penalty_totals=dict(st.penalties),
            settlement=dict(st.totals) if r.cash else None,
            cite={**_CITE, "end": rule},
            explain=_explain(r),
        )

    def summary_of(self, st: State) -> RummySummary:
        r = self._rules
        hand = st.hand
        return RummySummary(
            game="rummy",
            players=self._players,
            phase=self._phase(st),
            finished=self.finished(st),
            winners=self.winners(st),
            totals=dict(st.totals),
            units=units(r),
            higher_is_better=higher_is_better(r),
            dealer=hand.dealer if hand else st.next_dealer,
            turn=hand.turn if hand and hand.turns else None,
            hand=len(st.results) + (1 if hand else 0),
            hands=st.results,
            ledger=st.ledger,
            detail=self._detail(st),
            ending=self._ending(st),
        )

    def _ending(self, st: State) -> GameEnding | None:
        """The result (R6.3, or R7 / A-R13 / A-R16; a tie shares the win, A-R11), and who
        deals the first hand of a new game of the same players: whoever would have dealt
        the next hand -- the deal passes clockwise, or the winner of the last hand deals
        with "Winner deals" (R1.2)."""
        won = self.winners(st)
        dealer = st.next_dealer
        if not won or dealer is None:
            return None
        r = self._rules
        each = units(r).of(st.totals[won[0]])
        if len(won) == 1:
            text, rule = f"{won[0]} wins with {each}.", self._detail_rule()
        else:
            text, rule = f"Shared win: {names_and(won)}, {each} each.", "A-R11"
        last = st.results[-1]
        if r.winner_deals and last.went_out is not None:
            why = f"{last.went_out} won the last hand"
        else:
            why = "the deal passes clockwise"
        return GameEnding(
            text=text,
            rule=rule,
            next_dealer=dealer,
            next_deal=f"{dealer} deals first ({why})",
            next_rule="R1.2",
        )

    def _detail_rule(self) -> str:
        """The rule that ends the game and names the winner (see ``RummyDetail.rule_of_end``)."""
        r = self._rules
        if r.fixed_rounds is not None:
            return "A-R13" if r.cash else "A-R16" if r.winner_takes_all else "R7"
        return "R7" if r.winner_takes_all else "R6.3"

    def verdict(self, st: State, act: RummyAction, out: Any) -> Verdict:
        if isinstance(out, TableMeld):
            return self._meld_verdict(st, act, out)
        if isinstance(out, RummyHand):
            return _end_verdict(out)
        if isinstance(act, StartHand):
            dealer = out.dealer if isinstance(out, StartHand) else act.dealer
            return Verdict(
                legal=True,
                kind="start_hand",
                rule="R1.2",
                reason=f"{dealer} deals hand {len(st.results) + 1}",
            )
        if isinstance(act, Draw):
            named = f" ({act.card})" if act.card else ""
            pile = "discard pile" if act.source == "discard" else "stock"
            return Verdict(
                legal=True,
                kind="draw",
                rule="R3.1",
                reason=f"{act.player} draws from the {pile}{named}",
            )
        assert isinstance(act, Discard)
        named = f" {act.card}" if act.card else " a card"
        return Verdict(
            legal=True, kind="discard", rule="R3.4", reason=f"{act.player} discards{named}"
        )

    def _meld_verdict(self, st: State, act: RummyAction, out: TableMeld) -> Verdict:
        notes = out.shape.stands_for()
        if isinstance(act, SwapJoker):
            return Verdict(
                legal=True,
                kind=out.kind,
                rule="R7",
                reason=f"{card_words(act.card)} takes the place of the joker: "
                f"{card_words(out.cards)}",
                cards=tuple(str(c) for c in out.cards),
                notes=notes,
            )
        cards = act.cards if isinstance(act, Meld | LayOff) else ()
        if isinstance(act, LayOff) and st.hand is not None:
            reason = layoff_reason(cards, st.hand.melds[act.meld].shape, out.shape)
            rule = "R3.3"
        else:
            reason = meld_reason(out.shape)
            rule = "R2.1" if out.kind == "set" else "R2.2"
        return Verdict(
            legal=True,
            kind=out.kind,
            points=hand_value(cards, self._rules),
            rule=rule,
            reason=reason,
            cards=tuple(str(c) for c in out.cards),
            notes=notes,
        )


def _explain(r: RummyRules) -> dict[str, str]:
    out = {"going_rummy": "went out in one turn, having put no card down before in this hand"}
    if r.going_rummy_double:
        switch = house_rule("going_rummy_double")
        out["doubling"] = f"Going rummy doubles this hand's score ({switch})."
    return out


def _end_verdict(hand: RummyHand) -> Verdict:
    parts = ", ".join(f"{p} {v}" for p, v in hand.scores.items())
    who = f"{hand.went_out} went out" if hand.went_out else "nobody went out"
    rummy = (
        " (going rummy, doubled)" if hand.doubled else " (going rummy)" if hand.going_rummy else ""
    )
    # the headline's figure is what the hand scores: doubled when going rummy doubles
    points = sum(hand.penalties.values()) * (2 if hand.doubled else 1)
    return Verdict(
        legal=True,
        kind="hand_end",
        points=points,
        rule="R5.2" if hand.block else "R6.2",
        reason=f"hand {hand.number}: {who}{rummy}; this hand scores {parts}",
    )


#: the rule each topic of the Rummy screens cites (see RummyDetail.cite).
_CITE = {
    "deal": "R1.2",
    "order": "R1.4",
    "going_rummy": "R4.2",
    "values": "R6.1",
    "penalty": "R6.2",
    "block": "R5.2",
    "doubling": "R7",
    "shared_win": "A-R11",
    "cards_held": "A-R14",
}
