"""Rummy's typed results: the summary of a game, its hands, and the ledger of a hand.

Ledger kinds (``LedgerEntry.kind``) -- every score is one of these:

* ``penalty`` -- a loser's cards held at the hand end (R6.2; R5.2 when nobody
  went out); ``cards`` are the cards held.
* ``typed`` -- a loser's total typed in instead of cards (R6.2).
* ``going_rummy`` -- the doubling of a going-rummy hand (R7, A-R6), one entry
  per loser, next to the entry it doubles.
* ``collect`` -- winner takes all: the winner's entry per loser (``other`` is
  the loser, ``cards`` the loser's cards) (R7).
* ``cash`` -- a cash hand settled on its own: each loser pays the winner their
  penalty (a pair of entries, ``other`` the counterpart) (A-R13).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from rulesets.cards import Card
from rulesets.protocol import Cards, HandSummary, LedgerEntry, OneCard, Summary, SummaryDetail

__all__ = [
    "HandLine",
    "Phase",
    "RummyDetail",
    "RummyHand",
    "RummyMeld",
    "RummyPlay",
    "RummySummary",
    "hand_ledger",
]


class Phase(StrEnum):
    """Where a Rummy game stands."""

    #: waiting for a hand to be dealt (the first, or the next one).
    DEAL = "deal"
    #: a hand is being played.
    PLAY = "play"
    #: a logged hand is over (someone emptied their hand, or the stock is dead): enter the end.
    SCORING = "scoring"
    #: the game is over (R6.3).
    OVER = "over"


class RummyMeld(BaseModel):
    """A meld on the table: its number (0-based), who put it down, its cards, and
    for each joker what it stands for (``"JK=7H"``, words rather than a card)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    index: int
    owner: str
    kind: str
    cards: Cards
    jokers: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "owner": self.owner,
            "kind": self.kind,
            "cards": [str(c) for c in self.cards],
            "jokers": list(self.jokers),
        }


class RummyPlay(BaseModel):
    """The hand in progress, as the table screen and the hand-over form need it.

    * ``turns`` -- draws and discards are logged (the referee knows whose turn it is).
    * ``held`` -- cards each player holds (logged turns only).
    * ``most_held`` -- the most cards each player can hold at the hand end
      (the deal size less the cards they put down, A-R14).
    * ``may_win`` -- who may be named as the player who went out (R4.1).
    * ``may_go_rummy`` -- who may still claim going rummy (R4.2, A-R5).
    * ``may_end_without_winner`` -- the hand may end with nobody out (R5.2).
    * ``unavailable`` -- cards that lie on the table or face up on the pile:
      nobody holds them.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    number: int
    dealer: str
    turns: bool
    turn: str | None = None
    drawn: bool = False
    stock: int | None = None
    pile: int | None = None
    top: OneCard | None = None
    held: dict[str, int] = {}
    went_out: str | None = None
    deal_size: int
    most_held: dict[str, int] = {}
    may_win: tuple[str, ...] = ()
    may_go_rummy: tuple[str, ...] = ()
    may_end_without_winner: bool = False
    unavailable: Cards = ()


class HandLine(BaseModel):
    """One player's line of a finished hand: what they held or typed and what it scored."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    player: str
    went_out: bool = False
    typed: bool = False
    cards: Cards | None = None
    penalty: int | None = None
    score: int = 0


class RummyHand(HandSummary):
    """A finished hand.  ``scores`` are the sums of its ``ledger`` per player;
    ``totals`` the running totals after it."""

    went_out: str | None = None
    going_rummy: bool = False
    block: bool = False
    doubled: bool = False
    penalties: dict[str, int] = {}
    totals: dict[str, int] = {}
    typed: tuple[str, ...] = ()
    remaining: dict[str, Cards] = {}

    def lines(self, players: Sequence[str]) -> list[HandLine]:
        """One :class:`HandLine` per player, in seat order."""
        return [
            HandLine(
                player=p,
                went_out=p == self.went_out,
                typed=p in self.typed,
                cards=self.remaining.get(p),
                penalty=self.penalties.get(p),
                score=self.scores.get(p, 0),
            )
            for p in players
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "went_out": self.went_out,
            "going_rummy": self.going_rummy,
            "block": self.block,
            "doubled": self.doubled,
            "penalties": dict(self.penalties),
            "scores": dict(self.scores),
            "totals": dict(self.totals),
            "typed": list(self.typed),
            "remaining": {p: [str(c) for c in cards] for p, cards in self.remaining.items()},
        }


class RummyDetail(SummaryDetail):
    """What only Rummy has: scoring mode, goal, the table, the hand in play, cash.

    * ``scoring`` -- ``"penalty"``, ``"winner_takes_all"`` or ``"cash"``.
    * ``target`` -- the total that ends the game (None with a fixed number of hands).
    * ``fixed_rounds`` / ``hands_left`` -- with a fixed number of hands.
    * ``rule_of_end`` -- the rule that ends the game and names the winner.
    * ``penalty_totals`` -- each player's penalties summed (whatever the scoring).
    * ``settlement`` -- cash balances (A-R13), None without ``cash``.
    * ``cite`` -- the rule ID a screen cites for each topic: ``deal`` (R1.2),
      ``order`` (R1.4), ``going_rummy`` (R4.2), ``values`` (R6.1), ``penalty``
      (R6.2), ``block`` (R5.2), ``doubling`` (R7), ``end`` (what ends the game and
      names the winner), ``shared_win`` (A-R11), ``cards_held`` (A-R14).
    * ``explain`` -- the referee's words for ``going_rummy`` and, with the
      switch on, ``doubling``.
    """

    rules: dict[str, Any] = {}
    scoring: str = "penalty"
    target: int | None = 100
    fixed_rounds: int | None = None
    hands_left: int | None = None
    rule_of_end: str = "R6.3"
    doubles_going_rummy: bool = False
    table: tuple[RummyMeld, ...] = ()
    play: RummyPlay | None = None
    penalty_totals: dict[str, int] = {}
    settlement: dict[str, int] | None = None
    cite: dict[str, str] = {}
    explain: dict[str, str] = {}


class RummySummary(Summary):
    """Where a Rummy game stands (``to_json`` is ``companion replay --json``)."""

    phase: Phase
    hands: tuple[RummyHand, ...] = ()
    detail: RummyDetail = RummyDetail()

    HAND_WORD: ClassVar[str] = "Hand"

    @property
    def in_hand(self) -> bool:
        return self.detail.play is not None

    def to_json(self) -> dict[str, Any]:
        d = self.detail
        out: dict[str, Any] = {
            "game": "rummy",
            "players": list(self.players),
            "rules": dict(d.rules),
            "scoring": "winner_takes_all" if d.rules.get("winner_takes_all") else "penalty",
            "finished": self.finished,
            "winners": list(self.winners),
            "totals": dict(self.totals),
            "hands": [h.to_json() for h in self.hands],
            "dealer": self.dealer,
            "hand_in_progress": d.play is not None,
            "table": [m.to_json() for m in d.table],
            "turn": self.turn,
            "typed": [{"hand": h.number, "player": p} for h in self.hands for p in h.typed],
            "phase": str(self.phase),
            "units": str(self.units),
            "higher_is_better": self.higher_is_better,
            "penalty_totals": dict(d.penalty_totals),
        }
        if d.settlement is not None:
            out["cash"] = True
            out["settlement"] = dict(d.settlement)
        return out


# --------------------------------------------------------------------------- the ledger of a hand


def _entry(player: str, amount: int, kind: str, rule: str, number: int, **kw: Any) -> LedgerEntry:
    return LedgerEntry(player=player, amount=amount, kind=kind, rule=rule, hand=number, **kw)


_DOUBLING = "going rummy ×2"


def _penalty_entries(
    p: str, v: int, cards: tuple[str, ...] | None, number: int, *, block: bool, doubled: bool
) -> list[LedgerEntry]:
    rule = "R5.2" if block else "R6.2"
    if cards is None:
        first = _entry(p, v, "typed", rule, number, label="typed total")
    else:
        first = _entry(p, v, "penalty", rule, number, cards=cards, label="cards held")
    if not doubled:
        return [first]
    return [
        first,
        _entry(p, v, "going_rummy", "R7", number, label=_DOUBLING, detail=f"doubles {p}"),
    ]


def _collect_entries(
    winner: str, p: str, v: int, cards: tuple[str, ...] | None, number: int, *, doubled: bool
) -> list[LedgerEntry]:
    typed = "typed" if cards is None else ""
    out = [
        _entry(
            winner,
            v,
            "collect",
            "R7",
            number,
            other=p,
            cards=cards or (),
            label=f"{p}'s cards",
            detail=typed,
        )
    ]
    if doubled:
        out.append(_entry(winner, v, "going_rummy", "R7", number, other=p, label=_DOUBLING))
    return out


def _cash_entries(
    winner: str, p: str, v: int, cards: tuple[str, ...] | None, number: int, *, doubled: bool
) -> list[LedgerEntry]:
    typed = "typed" if cards is None else ""
    kinds = [("cash", "A-R13", f"pays {winner}", f"from {p}")]
    if doubled:
        kinds.append(("going_rummy", "R7", _DOUBLING, _DOUBLING))
    out: list[LedgerEntry] = []
    for kind, rule, paid, got in kinds:
        out.append(
            _entry(
                p, -v, kind, rule, number, other=winner, cards=cards or (), label=paid, detail=typed
            )
        )
        out.append(
            _entry(
                winner, v, kind, rule, number, other=p, cards=cards or (), label=got, detail=typed
            )
        )
    return out


def hand_ledger(
    *,
    number: int,
    scoring: str,
    winner: str | None,
    penalties: dict[str, int],
    remaining: dict[str, tuple[Card, ...]],
    doubled: bool,
) -> tuple[LedgerEntry, ...]:
    """Every score of one hand as ledger entries (see the module doc for the kinds).

    ``penalties`` are the losers' values (cards counted or typed); ``remaining``
    the cards of those who showed them.  ``winner`` is None when nobody went
    out: then penalty scoring charges everyone (R5.2) and the other scorings
    move nothing.

    >>> from rulesets.cards import parse_cards
    >>> [e.line() for e in hand_ledger(number=1, scoring="penalty", winner="Ann",
    ...     penalties={"Bob": 7}, remaining={"Bob": parse_cards("7S")}, doubled=True)]
    ['cards held +7 [R6.2]', 'going rummy ×2 +7 (doubles Bob) [R7]']
    >>> [e.line() for e in hand_ledger(number=1, scoring="cash", winner="Ann",
    ...     penalties={"Bob": 7}, remaining={}, doubled=False)]
    ['pays Ann -7 (typed) [A-R13]', 'from Bob +7 (typed) [A-R13]']
    """
    out: list[LedgerEntry] = []
    for p, v in penalties.items():
        held = remaining.get(p)
        cards = None if held is None else tuple(str(c) for c in held)  # a ledger's cards are text
        if scoring == "penalty":
            out += _penalty_entries(p, v, cards, number, block=winner is None, doubled=doubled)
        elif winner is None:
            continue
        elif scoring == "winner_takes_all":
            out += _collect_entries(winner, p, v, cards, number, doubled=doubled)
        else:
            out += _cash_entries(winner, p, v, cards, number, doubled=doubled)
    return tuple(out)
