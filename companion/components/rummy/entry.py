"""What the Rummy table screen sends to the referee, and what it asks it.

Pure helpers (no Flet): they build the recorded actions from what was tapped,
find a finished hand's entry in the record, and ask the live referee (through
the session) for verdicts, previews and corrections.  Nothing here decides a
rule: every number and every "no" is the referee's, and a verdict is shown as
the referee gave it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.session import GameSession
from rulesets import RulesetError, seats, timeline
from rulesets.cards import Card
from rulesets.protocol import Action, Verdict
from rulesets.rummy import (
    RULESET,
    HandEnd,
    LayOff,
    Meld,
    RummyGame,
    RummyPlay,
    RummySummary,
    StartHand,
)

__all__ = [
    "HandOverAnswer",
    "ask_hand_over",
    "cards_expected",
    "cards_known",
    "corrected",
    "hand_end_action",
    "hand_end_index",
    "lay_off_action",
    "lay_off_verdict",
    "live_game",
    "losers_in_order",
    "meld_action",
    "meld_verdict",
    "next_deal",
    "replayed_change",
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


def unavailable(play: RummyPlay | None) -> set[Card]:
    """Cards nobody can hold: on the table or face up on the pile (the referee's list)."""
    return set(play.unavailable) if play is not None else set()


def meld_action(player: str, cards: Sequence[Card]) -> Meld:
    """A new meld from the cards picked: the referee takes their values, unread again."""
    return Meld(player=player, cards=tuple(cards))


def lay_off_action(player: str, cards: Sequence[Card], meld: int) -> LayOff:
    return LayOff(player=player, cards=tuple(cards), meld=meld)


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
        remaining={p: tuple(remaining.get(p, [])) for p in losers if p not in typed},
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
    with session.live.lock:  # looking back pops and pushes the shared live game
        return timeline.corrected(live_game(session), index, new_end)


def next_deal(summary: RummySummary) -> StartHand | None:
    """The opening of the next hand (its dealer by the rules), or None at game end."""
    if summary.finished or summary.in_hand:
        return None
    return StartHand(dealer=summary.dealer)


# --------------------------------------------------------------------------- the hand over


def replayed_change(
    shown: Sequence[Card], picked: Sequence[Card], now: Sequence[Card]
) -> list[Card]:
    """A picker's change (``shown`` -> ``picked``) made again on what is entered ``now``.

    A picker hands back the whole new list, worked out from the cards it showed; two
    quick taps can both start from the same ``shown`` (the screen had not caught up).
    One card added or taken away is replayed on ``now``, so neither tap is lost;
    anything else (typed cards) replaces the list.

    >>> from rulesets.cards import parse_cards
    >>> a, b, c = parse_cards("7H 8H 9H")
    >>> def show(cards): return " ".join(map(str, cards))
    >>> show(replayed_change([a], [a, b], [a, c]))  # 8H tapped while 9H was on its way
    '7H 9H 8H'
    >>> show(replayed_change([a, b], [b], [a, b, c]))  # 7H tapped off
    '8H 9H'
    >>> show(replayed_change([a], [b, c], [a]))  # typed: the new cards
    '8H 9H'
    """
    shown, picked, now = list(shown), list(picked), list(now)
    if len(picked) == len(shown) + 1 and picked[:-1] == shown:
        card = picked[-1]
        return now if card in now and not card.is_joker else [*now, card]
    if len(picked) == len(shown) - 1:
        gone = [c for c in shown if c not in picked or shown.count(c) > picked.count(c)]
        if len(set(gone)) == 1:
            out = list(now)
            if gone[0] in out:
                out.remove(gone[0])
            return out
    return picked


def losers_in_order(players: Sequence[str], went_out: str | None, dealer: str | None) -> list[str]:
    """Everyone who did not go out, round the table clockwise from the left of the player
    who went out (from the dealer's left when nobody did): the order cards are shown in.

    >>> losers_in_order(["Ann", "Bob", "Cy", "Dee"], "Cy", "Ann")
    ['Dee', 'Ann', 'Bob']
    >>> losers_in_order(["Ann", "Bob", "Cy"], None, "Bob")
    ['Cy', 'Ann', 'Bob']
    """
    start = went_out if went_out is not None else dealer
    return [p for p in seats.after(players, start) if p != went_out]


def cards_expected(play: RummyPlay | None, player: str) -> int | None:
    """How many cards the referee says ``player`` holds at the hand end: exactly when
    turns are logged, else the most they can hold (A-R14) -- exact when every meld and
    lay-off of the hand was logged.  None when the referee cannot say."""
    if play is None:
        return None
    return play.held.get(player) if play.turns else play.most_held.get(player)


def cards_known(play: RummyPlay | None, player: str) -> int | None:
    """How many cards ``player`` holds at the hand end when the referee knows it exactly
    (every turn logged); None when it can give only the most they can hold, or nothing.

    The hand over moves on to the next player by itself once a player's known count is
    entered; without one, only the player can say they are done (Next)."""
    if play is None or not play.turns:
        return None
    return play.held.get(player)


@dataclass(frozen=True)
class HandOverAnswer:
    """What the referee says about a hand end as entered so far.

    ``action`` is the hand end with every loser not yet entered showing no cards;
    ``missing`` the losers with neither cards nor a typed total; ``verdict`` and
    ``preview`` the referee's answer on ``action`` once nobody is missing (the
    preview is None when it is refused); ``penalties`` each entered loser's
    penalty as the referee counts it.
    """

    action: HandEnd | None = None
    missing: tuple[str, ...] = ()
    verdict: Verdict | None = None
    preview: RummySummary | None = None
    penalties: Mapping[str, int] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        """Complete and accepted: Confirm may record it."""
        return self.action is not None and not self.missing and self.preview is not None


def _ask_preview(game: RummyGame, index: int | None, action: HandEnd) -> RummySummary | None:
    try:
        return timeline.preview(game, action, at=index)
    except RulesetError:
        return None


def _penalties(
    game: RummyGame,
    preview: RummySummary | None,
    number: int,
    remaining: Mapping[str, Sequence[Card]],
    typed: Mapping[str, int],
) -> dict[str, int]:
    """Each entered loser's penalty: the referee's scoring of the whole hand when it
    accepts it as entered so far, else the ruleset's value of each player's cards."""
    if preview is not None and len(preview.hands) >= number:
        hand = preview.hands[number - 1]
        return {p: v for p, v in hand.penalties.items() if remaining.get(p) or p in typed}
    out = dict(typed)
    for p, cards in remaining.items():
        if cards and p not in typed:
            try:
                out[p] = RULESET.score(list(cards), rules=game.rules).points
            except RulesetError:
                continue
    return out


def ask_hand_over(
    game: RummyGame,
    index: int | None,
    number: int,
    *,
    went_out: str | None,
    claim_rummy: bool,
    losers: Sequence[str],
    remaining: Mapping[str, Sequence[Card]],
    typed: Mapping[str, int],
) -> HandOverAnswer:
    """Ask the referee about hand ``number``'s end as entered so far (in place of entry
    ``index`` when a finished hand is corrected).  Nothing changes."""
    action = hand_end_action(
        went_out, claim_rummy, losers, {p: list(c) for p, c in remaining.items()}, dict(typed)
    )
    missing = tuple(p for p in losers if not remaining.get(p) and p not in typed)
    preview = _ask_preview(game, index, action)
    verdict = None
    if not missing:
        verdict = game.judge(action) if index is None else timeline.judge_at(game, index, action)
    return HandOverAnswer(
        action=action,
        missing=missing,
        verdict=verdict,
        preview=preview if not missing else None,
        penalties=_penalties(game, preview, number, remaining, typed),
    )
