"""What the referee reports, read off the state: the summary, a finished hand's
model, and the words about the deal, the final turn and the result."""

from __future__ import annotations

from typing import Literal

from rulesets.protocol import Ending, Units
from rulesets.umtali.melds import HANDS_PER_GAME
from rulesets.umtali.state import (
    HandResult,
    Phase,
    State,
    must_meld_now,
    next_dealer,
    taken_this_turn,
    turn_of,
)
from rulesets.umtali.summary import (
    Said,
    UmtaliCurrent,
    UmtaliDetail,
    UmtaliHand,
    UmtaliSummary,
    meld_ledger,
)

__all__ = [
    "dealer_of",
    "hand_model",
    "hand_number",
    "in_hand",
    "next_game",
    "side_scores",
    "summarize",
    "totals",
    "winners",
]


def in_hand(s: State) -> bool:
    """Whether a hand is in play (including the opponent's final turn)."""
    return s.phase in (Phase.PLAY, Phase.FINAL)


def hand_number(s: State) -> int:
    """1-based number of the hand in play (or the last one played)."""
    return len(s.hands) + (1 if in_hand(s) else 0)


def dealer_of(s: State) -> str | None:
    """Dealer of the hand in play, of the next hand between hands (None: the cut),
    or of the last hand once the game is over."""
    if in_hand(s):
        return None if s.dealer is None else s.players[s.dealer]
    if s.phase is Phase.OVER:
        return s.players[s.hands[-1].dealer]
    nxt = next_dealer(s)
    return None if nxt is None else s.players[nxt]


def side_scores(s: State) -> dict[str, int]:
    """U9.1 points on each side right now."""
    return {s.players[i]: sum(m.points for m in s.sides[i]) for i in (0, 1)}


def totals(s: State) -> dict[str, int]:
    return {s.players[i]: sum(h.scores[i] for h in s.hands) for i in (0, 1)}


def winners(s: State) -> list[str]:
    """Empty until the game is over; both names on equal totals (a draw, A-U16)."""
    if s.phase is not Phase.OVER:
        return []
    t = totals(s)
    best = max(t.values())
    return [p for p in s.players if t[p] == best]


def _hand_label(n: int) -> str:
    """ "Hand 2 of 4", or the tie-break hand of house rule ``fifth_hand_on_tie`` (U2.4):
    a screen's heading, in players' words."""
    return f"Hand {n} of {HANDS_PER_GAME}" if n <= HANDS_PER_GAME else f"Hand {n} (tie-break)"


def summarize(s: State) -> UmtaliSummary:
    """Where the game stands, typed (its ``to_json()`` is the replay JSON)."""
    won = tuple(winners(s))
    turn = turn_of(s)
    return UmtaliSummary(
        game="umtali",
        players=s.players,
        phase=s.phase,
        finished=s.phase is Phase.OVER,
        winners=won,
        totals=dict(s.totals) if s.totals else dict.fromkeys(s.players, 0),
        units=Units.POINTS,
        higher_is_better=True,
        dealer=dealer_of(s),
        turn=None if turn is None else s.players[turn],
        hand=hand_number(s),
        hands=s.hand_models,
        ledger=s.ledger,
        detail=UmtaliDetail(
            current=_current(s),
            draw=len(won) > 1,
            rules=s.rules.changed(),
            hands_in_game=max(HANDS_PER_GAME, len(s.hands) + (s.phase is not Phase.OVER)),
            hand_label=_hand_label(hand_number(s) if in_hand(s) else len(s.hands) + 1),
            next_deal=_next_deal_words(s),
            result=_result_words(s),
        ),
        ending=next_game(s),
    )


def _current(s: State) -> UmtaliCurrent | None:
    if not in_hand(s):
        return None
    turn = turn_of(s)
    final: Said | None = None
    if s.phase is Phase.FINAL and s.went_out is not None:
        out, opp = s.players[s.went_out], s.players[1 - s.went_out]
        if s.face_down:
            final = Said(
                text=f"{out} went out with a face-down discard: {opp} must draw from the "
                "stock, then plays one final turn",
                rule="U8.2",
            )
        else:
            final = Said(
                text=f"{out} went out: {opp} draws as usual and plays one final turn",
                rule="U8.3",
            )
    return UmtaliCurrent(
        number=hand_number(s),
        phase=s.phase.value,
        dealer=None if s.dealer is None else s.players[s.dealer],
        turn=None if turn is None else s.players[turn],
        went_out=None if s.went_out is None else s.players[s.went_out],
        face_down=s.face_down,
        final_discarded=s.final_discarded,
        scores=side_scores(s),
        sides={s.players[i]: tuple(m.to_model(s.players) for m in s.sides[i]) for i in (0, 1)},
        stock_left=s.stock_left,
        must_meld=() if turn is None else tuple(must_meld_now(s, turn)),
        taken=() if turn is None else tuple(sorted(taken_this_turn(s, turn))),
        on_table=tuple(sorted(s.used)),
        final_turn=final,
        first_action=s.hand_start,
        discard_top=s.pile[-1] if s.pile else None,
        discard_pile=_pile_is(s),
    )


def _pile_is(s: State) -> Literal["card", "empty", "face_down", "unknown"]:
    """What the record shows of the discard pile's top (see ``UmtaliCurrent``)."""
    if s.pile:
        return "card"
    if s.pile_face_down:
        return "face_down"
    return "empty" if s.pile_whole else "unknown"


def _deal_after(s: State) -> tuple[int, str, str]:
    """Who deals after the last hand (seat), why in a few words, and the rule: the deal
    alternates (U2.3), or the higher scorer of the last hand deals (A-U18)."""
    last = s.hands[-1]
    nxt = next_dealer(s)
    seat = 1 - last.dealer if nxt is None else nxt
    if not s.rules.winner_deals:
        return seat, "the deal alternates", "U2.3"
    if last.winner is None:
        return seat, f"equal scores in hand {last.number}: the deal alternates", "A-U18"
    return seat, f"{s.players[seat]} scored more in hand {last.number}", "A-U18"


def _next_deal_words(s: State) -> Said | None:
    """Who deals the next hand and why: "Bob deals (the deal alternates)"."""
    if s.phase is not Phase.IDLE:
        return None
    if not s.hands:
        return Said(text="The players cut: the lower card deals", rule="U2.2")
    seat, why, rule = _deal_after(s)
    return Said(text=f"{s.players[seat]} deals ({why})", rule=rule)


def next_game(s: State) -> Ending | None:
    """A finished game's result, and who deals the first hand of a new game of the same
    two players: the deal goes on as between hands (U2.3; A-U18 with "winner deals"),
    so over a 4-hand game and the next each player deals every other hand."""
    result = _result_words(s)
    if s.phase is not Phase.OVER or result is None or not s.hands:
        return None
    seat, why, rule = _deal_after(s)
    name = s.players[seat]
    return Ending(
        text=result.text,
        rule=result.rule,
        next_dealer=name,
        next_deal=f"{name} deals first ({why})",
        next_rule=rule,
    )


def _result_words(s: State) -> Said | None:
    won = winners(s)
    if not won:
        return None
    t = totals(s)
    if len(won) == 1:
        w = won[0]
        other = s.players[1 - s.players.index(w)]
        return Said(text=f"{w} wins, {t[w]} to {t[other]}.", rule="U2.1")
    return Said(text=f"A draw: {' and '.join(won)} on {t[won[0]]}.", rule="A-U16")


def hand_model(s: State, h: HandResult) -> UmtaliHand:
    """The typed, named view of a finished hand, with its ledger."""
    players = s.players
    sides = {players[i]: tuple(m.to_model(players) for m in h.sides[i]) for i in (0, 1)}
    return UmtaliHand(
        number=h.number,
        dealer=players[h.dealer],
        scores={players[i]: h.scores[i] for i in (0, 1)},
        ledger=meld_ledger(players, sides, h.number),
        went_out=None if h.went_out is None else players[h.went_out],
        both_out=h.both_out,
        ended=h.ended,
        sides=sides,
        winner=None if h.winner is None else players[h.winner],
        outcome=_outcome_words(s, h),
        actions=(h.first_action, h.last_action),
    )


def _outcome_words(s: State, h: HandResult) -> Said:
    if h.went_out is None:
        return Said(
            text="The stock ran out: each side scores itself; cards in hand score nothing.",
            rule="U4.6",
        )
    out, other = s.players[h.went_out], s.players[1 - h.went_out]
    if h.both_out:
        return Said(text=f"{out} went out, then {other} went out too: nothing moved.", rule="U8.5")
    return Said(
        text=f"{out} went out; {other}'s leftovers moved to {out}'s side as singles.",
        rule="U8.4",
    )
