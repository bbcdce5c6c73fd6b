"""What the Rummy table screen sends to the referee, and what it asks it.

Pure helpers (no Flet): they build the recorded actions from what was tapped,
find a finished hand's entry in the record, and ask the live referee (through
the session) for verdicts, previews and corrections.  Nothing here decides a
rule: every number and every "no" is the referee's, and a verdict is shown as
the referee gave it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.session import GameSession
from rulesets.cards import Card, parse_cards
from rulesets.protocol import Action, Verdict
from rulesets.rummy import (
    HandEnd,
    LayOff,
    Meld,
    RummyGame,
    RummyPlay,
    RummySummary,
    StartHand,
)

__all__ = [
    "cards_of",
    "corrected",
    "hand_end_action",
    "hand_end_index",
    "lay_off_action",
    "lay_off_verdict",
    "live_game",
    "meld_action",
    "meld_verdict",
    "next_deal",
    "summary_of",
    "unavailable",
]


def live_game(session: GameSession) -> RummyGame:
    """The session's live referee, as the Rummy game it is."""
    game = session.game
    if not isinstance(game, RummyGame):  # pragma: no cover - the table opens Rummy games only
        raise TypeError(f"{type(game).__name__}: not a Rummy game")
    return game


def summary_of(session: GameSession) -> RummySummary:
    """The session's typed summary (refreshed by the session after every change)."""
    summary = session.summary
    if not isinstance(summary, RummySummary):  # pragma: no cover - as above
        raise TypeError(f"{type(summary).__name__}: not a Rummy summary")
    return summary


def cards_of(texts: Iterable[str]) -> list[Card]:
    """Cards from their recorded text (``["7H", "JK"]``); jokers may repeat."""
    return list(parse_cards(list(texts), allow_duplicates=True))


def unavailable(play: RummyPlay | None) -> set[Card]:
    """Cards nobody can hold: on the table or face up on the pile (the referee's list)."""
    return set(cards_of(play.unavailable)) if play is not None else set()


def meld_action(player: str, cards: Sequence[Card]) -> Meld:
    return Meld(player=player, cards=tuple(str(c) for c in cards))


def lay_off_action(player: str, cards: Sequence[Card], meld: int) -> LayOff:
    return LayOff(player=player, cards=tuple(str(c) for c in cards), meld=meld)


def meld_verdict(session: GameSession, player: str, cards: Sequence[Card]) -> Verdict:
    """The referee's verdict on these cards as a new meld by ``player`` now."""
    return session.judge(meld_action(player, cards))


def lay_off_verdict(session: GameSession, player: str, cards: Sequence[Card], meld: int) -> Verdict:
    """The referee's verdict on laying ``cards`` off onto table meld ``meld`` now."""
    return session.judge(lay_off_action(player, cards, meld))


def hand_end_action(
    went_out: str | None,
    going_rummy: bool,
    losers: Sequence[str],
    remaining: dict[str, list[Card]],
    typed: dict[str, int],
) -> HandEnd:
    """The recorded end of a hand: cards for some losers, typed totals for others."""
    return HandEnd(
        went_out=went_out,
        going_rummy=bool(going_rummy) if went_out is not None else False,
        remaining={
            p: tuple(str(c) for c in remaining.get(p, [])) for p in losers if p not in typed
        },
        typed={p: typed[p] for p in losers if p in typed},
    )


def hand_end_index(actions: Sequence[Action], number: int) -> int | None:
    """Where hand ``number``'s (1-based) hand-end entry is in the record."""
    seen = 0
    for i, a in enumerate(actions):
        if a.type == "hand_end":
            seen += 1
            if seen == number:
                return i
    return None


def corrected(session: GameSession, index: int, new_end: HandEnd) -> list[Action]:
    """The record with the hand end at ``index`` replaced by ``new_end``; later deals
    go to whoever the referee now names (R1.2).  Raises if the referee refuses it."""
    return list(live_game(session).corrected(index, new_end))


def next_deal(summary: RummySummary) -> StartHand | None:
    """The opening of the next hand (its dealer by the rules), or None at game end."""
    if summary.finished or summary.in_hand:
        return None
    return StartHand(dealer=summary.dealer)
