"""The referee's words for a legal action: what it does, the rule, the chips it moves.

``legal_verdict(before, after, action)`` compares the state before and after
an action the referee accepted and says what happened, with the rule that
governs it ("Bob may lay 10♠", M5.2) and, as notes, the chips it moves
("Bob +4 (10♠ pot)") -- so the table screen knows no rule itself.
"""

from __future__ import annotations

from rulesets.protocol import LedgerEntry, Verdict
from rulesets.rummoli.actions import (
    Adjust,
    Bet,
    Claim,
    Deal,
    End,
    FinalPoker,
    Fold,
    Impasse,
    Lay,
    Out,
    Poker,
    RummoliAction,
    Start,
    Widow,
)
from rulesets.rummoli.board import POT_LABELS
from rulesets.rummoli.lay import next_card_after
from rulesets.rummoli.state import Phase, State, seat_of

__all__ = ["legal_verdict"]


def legal_verdict(before: State, after: State, act: RummoliAction) -> Verdict:
    """``moves`` are exactly the ledger entries the push will record (antes and a short
    stack's 0-chip entries too); ``notes`` and ``points`` word the chips that change
    hands beyond the ante."""
    made = tuple(after.ledger[len(before.ledger) :])
    moved = [e for e in made if e.amount and e.kind != "ante"]
    rule, what = _words(before, after, act)
    return Verdict(
        legal=True,
        kind=act.type,
        points=sum(e.amount for e in moved if e.player == _actor(after, act)) or None,
        rule=rule,
        reason=what,
        cards=_cards(act),
        notes=tuple(_move(e) for e in moved),
        moves=made,
    )


def _move(e: LedgerEntry) -> str:
    return f"{e.player} {e.amount:+d} ({e.label or e.kind})"


def _actor(s: State, act: RummoliAction) -> str | None:
    who = getattr(act, "player", None)
    return None if who is None else s.name(seat_of(s, who, act.type))


def _cards(act: RummoliAction) -> tuple[str, ...]:
    if isinstance(act, Lay):
        return (str(act.card),)
    return ()


def _words(before: State, after: State, act: RummoliAction) -> tuple[str, str]:
    """The rule and the plain words for what ``act`` did."""
    who = _actor(after, act) or ""
    match act:
        case Start():
            return "M1.1", f"the game starts; {after.name(after.dealer)} deals first"
        case Adjust():
            return "M1.1", f"{who} {'adds' if act.chips >= 0 else 'takes out'} {abs(act.chips)}"
        case Deal():
            log = after.rounds[-1]
            return "M1.3", f"round {log.number}: {after.name(log.dealer)} deals, everyone antes"
        case Widow():
            return _widow_words(after, who)
        case Bet():
            return "M4.2", f"{who} bets {act.chips}"
        case Fold():
            return "M4.2", f"{who} folds"
        case Poker():
            return _poker_words(after)
        case Lay():
            return _lay_words(before, after, act, who)
        case Claim():
            pot = next(iter(set(after.rounds[-1].won) - set(before.rounds[-1].won)), act.pot)
            return "M5.6", f"{who} collects the {POT_LABELS.get(pot, pot)} pot"
        case Out():
            return "M6.1", f"{who} went out first"
        case Impasse():
            return "M5.7", "impasse: every card held pays 1 chip into the Rummoli pot"
        case End():
            if after.phase is Phase.OVER:
                return "M7.3", "the game ends with an empty board"
            return "M7.2", "the game ends; the final poker follows"
        case FinalPoker():
            done = after.final_log[-1]
            verb = "wins" if len(done.winners) == 1 else "split"
            return "M7.2", f"{', '.join(done.winners)} {verb} {done.label}"
    return "", ""  # pragma: no cover - every action type is matched above


def _widow_words(after: State, who: str) -> tuple[str, str]:
    w = after.rounds[-1].widow
    if w is None or w.taken_by is None:
        return "M2.3", "nobody takes the widow: it stays dead"
    if w.taken_by == w.dealer:
        return "M2.2", f"{who} swaps blind with the widow"
    return "M2.3", f"{who} takes the widow for {w.bid}"


def _poker_words(after: State) -> tuple[str, str]:
    result = after.rounds[-1].poker
    assert result is not None
    return result.rule, f"{', '.join(result.winners)} won the poker; {result.starter} starts"


def _lay_words(before: State, after: State, act: Lay, who: str) -> tuple[str, str]:
    card = act.card
    r = before.round
    assert r is not None
    if r.last is None:
        rule = "M5.1"
    elif next_card_after(r.last[1]) == card:
        rule = "M5.2"
    else:
        rule = "M5.4" if next_card_after(r.last[1]) is None else "M5.3"
    what = f"{who} may lay {card.symbol}"
    if after.phase is Phase.IDLE:
        log = after.rounds[-1]
        rule = "M6.1"
        what += " and goes out" if log.out is not None else ""
    return rule, what
