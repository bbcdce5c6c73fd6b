"""What the Umtali referee reports: the typed summary, its hands, and the ledger.

:class:`UmtaliSummary` is what :meth:`UmtaliGame.summary` returns and every
screen reads; :meth:`UmtaliSummary.to_json` is the public JSON of
``companion replay --json`` (a stable shape, pinned by the golden files).

Ledger kinds (:class:`~rulesets.protocol.LedgerEntry` ``kind``): when a hand
ends, one entry per meld on each side, to the side's owner, worth the meld's
points, with the meld's kind as its kind -- ``set``, ``sequence``,
``marriage`` (U9.2), ``jack``, ``single`` (an extension), ``pair`` or
``leftover`` (U8.4) -- and ``empty_side``, worth 0, for a side with no melds (so
every hand has its row in the history).

>>> from rulesets.umtali.game import UmtaliGame
>>> from rulesets.umtali.actions import EndHandEmptyStock, Meld, StartHand
>>> g = UmtaliGame(("Ann", "Bob"), actions=[StartHand(dealer="Ann")])
>>> _ = g.push(Meld(player="Bob", cards=("KH", "QH")))
>>> _ = g.push(EndHandEmptyStock())
>>> s = g.summary()
>>> s.totals, [(e.player, e.kind, e.amount, e.rule) for e in s.ledger]
({'Ann': 0, 'Bob': 20}, [('Ann', 'empty_side', 0, 'U9.1'), ('Bob', 'marriage', 20, 'U9.2')])
>>> [(r.title, r.amounts) for r in s.rows()]
[('Hand 1', {'Ann': 0, 'Bob': 20})]
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from rulesets.cards import format_cards
from rulesets.protocol import Cards, HandSummary, LedgerEntry, OneCard, Summary, SummaryDetail
from rulesets.umtali.melds import MeldKind

__all__ = [
    "Said",
    "UmtaliCurrent",
    "UmtaliDetail",
    "UmtaliHand",
    "UmtaliMeld",
    "UmtaliSummary",
    "meld_ledger",
]

_KIND_WORDS = {
    MeldKind.SET: "Set",
    MeldKind.SEQUENCE: "Sequence",
    MeldKind.MARRIAGE: "Marriage",
    MeldKind.JACK: "Jack",
    MeldKind.SINGLE: "Single",
    MeldKind.PAIR: "Pair",
    MeldKind.LEFTOVER: "Leftover",
}


class Said(BaseModel):
    """Words the referee says about the game, with the rule that makes it so."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    text: str
    rule: str


class UmtaliMeld(BaseModel):
    """One meld on a side: its kind, cards, points, who put it down and, for an
    extension, its anchor (side player, meld index).  For leftovers ``by`` is the
    player whose hand they came from (U8.4)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    kind: MeldKind
    cards: Cards
    points: int
    by: str
    anchor: tuple[str, int] | None = None

    @property
    def words(self) -> str:
        """ "Set 7♣ 7♦ 7♥": the kind and the cards, as a person reads them."""
        return f"{_KIND_WORDS[self.kind]} {format_cards(self.cards, symbols=True)}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "cards": [str(c) for c in self.cards],
            "points": self.points,
            "by": self.by,
            "anchor": None if self.anchor is None else list(self.anchor),
        }


def _sides_json(sides: dict[str, tuple[UmtaliMeld, ...]]) -> dict[str, list[dict[str, Any]]]:
    return {p: [m.to_json() for m in melds] for p, melds in sides.items()}


def meld_ledger(
    players: tuple[str, ...], sides: dict[str, tuple[UmtaliMeld, ...]], hand: int
) -> tuple[LedgerEntry, ...]:
    """The ledger of an ended hand: one entry per meld on each side (U9.1, U9.2)."""
    out: list[LedgerEntry] = []
    for p in players:
        melds = sides.get(p, ())
        if not melds:
            out.append(
                LedgerEntry(
                    player=p,
                    amount=0,
                    kind="empty_side",
                    rule="U9.1",
                    hand=hand,
                    label="nothing on the side",
                )
            )
        for m in melds:
            if m.anchor is not None:
                detail = f"off {m.anchor[0]}'s meld #{m.anchor[1] + 1}"
            elif m.kind is MeldKind.LEFTOVER:
                detail = f"from {m.by}'s hand"
            else:
                detail = ""
            out.append(
                LedgerEntry(
                    player=p,
                    amount=m.points,
                    kind=m.kind.value,
                    rule="U9.2" if m.kind is MeldKind.MARRIAGE else "U9.1",
                    cards=tuple(str(c) for c in m.cards),  # a ledger's cards are text
                    hand=hand,
                    label=m.words,
                    detail=detail,
                )
            )
    return tuple(out)


class UmtaliHand(HandSummary):
    """A finished hand: both sides, who went out, how it ended, and the ledger.

    ``ended`` is ``"out"`` or ``"empty_stock"``; ``winner`` the player whose side
    scored more (None on equal scores, A-U18); ``outcome`` says how it ended;
    ``actions`` the indexes (first, last) of its recorded actions.
    """

    went_out: str | None = None
    both_out: bool = False
    ended: str = "out"
    sides: dict[str, tuple[UmtaliMeld, ...]] = {}
    winner: str | None = None
    outcome: Said | None = None
    actions: tuple[int, int] = (0, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "scores": dict(self.scores),
            "dealer": self.dealer,
            "went_out": self.went_out,
            "both_out": self.both_out,
            "ended": self.ended,
            "sides": _sides_json(self.sides),
        }


class UmtaliCurrent(BaseModel):
    """The hand in play, as far as the table reported it.

    ``turn`` is whose turn it is; ``must_meld`` the cards the player on turn took
    from the discard pile and must still meld, in order (U4.2); ``taken`` every
    card taken from the discard pile this turn (U4.3); ``stock_left`` the stock
    if every draw was recorded (None after a reshuffle); ``on_table`` every card
    on either side; ``final_turn`` what the opponent's final turn allows (U8.2).

    ``discard_top`` is the top card of the discard pile when the record shows it
    (the last face-up discard recorded, less the cards taken since, U4.1-U4.5);
    ``discard_pile`` says which of four the pile is: ``"card"`` (``discard_top``
    is its top), ``"empty"`` (the 11-10 deal starts with no pile), ``"face_down"``
    (a going-out discard lies face down on top, U8.2) or ``"unknown"`` -- the
    deal's upcard is not recorded, and a turn whose discard went unrecorded
    hides what went on top.  The referee never guesses it.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    number: int
    phase: str
    dealer: str | None
    turn: str | None
    went_out: str | None
    face_down: bool = False
    final_discarded: bool = False
    scores: dict[str, int]
    sides: dict[str, tuple[UmtaliMeld, ...]]
    stock_left: int | None = None
    must_meld: Cards = ()
    taken: Cards = ()
    on_table: Cards = ()
    final_turn: Said | None = None
    first_action: int = 0
    discard_top: OneCard | None = None
    discard_pile: Literal["card", "empty", "face_down", "unknown"] = "unknown"

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "phase": self.phase,
            "turn": self.turn,
            "went_out": self.went_out,
            "scores": dict(self.scores),
            "sides": _sides_json(self.sides),
        }


class UmtaliDetail(SummaryDetail):
    """Umtali's part of the summary: the hand in play and the words for the screens.

    ``hand_label`` names the hand in play or the next one ("Hand 2 of 4");
    ``next_deal`` (between hands) who deals next and why; ``result`` (game over)
    who won or that it is a draw; ``draw`` equal totals at the end (A-U16).
    """

    current: UmtaliCurrent | None = None
    draw: bool = False
    rules: dict[str, Any] = {}
    hands_in_game: int = 4
    hand_label: str = ""
    next_deal: Said | None = None
    result: Said | None = None


class UmtaliSummary(Summary):
    """Where an Umtali game stands (see :class:`rulesets.protocol.Summary`)."""

    hands: tuple[UmtaliHand, ...] = ()
    detail: UmtaliDetail = UmtaliDetail()

    HAND_WORD: ClassVar[str] = "Hand"

    @property
    def current(self) -> UmtaliCurrent | None:
        return self.detail.current

    def to_json(self) -> dict[str, Any]:
        """The JSON ``companion replay --json`` prints (a stable public shape)."""
        current = self.detail.current
        hands = [h.to_json() for h in self.hands]
        if current is not None:
            sides: dict[str, Any] = _sides_json(current.sides)
        else:
            sides = hands[-1]["sides"] if hands else {}
        return {
            "game": self.game,
            "players": list(self.players),
            "finished": self.finished,
            "winners": list(self.winners),
            "draw": self.detail.draw,
            "totals": dict(self.totals),
            "hands": hands,
            "dealer": self.dealer,
            "phase": str(self.phase),
            "current": None if current is None else current.to_json(),
            "sides": sides,
            "rules": dict(self.detail.rules),
            "units": str(self.units.value),
            "higher_is_better": self.higher_is_better,
        }
