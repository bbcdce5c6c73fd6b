"""The Umtali table: refereeing each recorded action, scoring hands.

:class:`UmtaliGame` implements :class:`rulesets.protocol.Game`: a stack of
recorded actions and the table they built.  ``verify`` / ``can`` / ``judge``
ask about an action, ``push`` applies it, ``pop`` restores the state before the
last push (a stack of snapshots: nothing is replayed), ``summary`` reports.
Every action also has the python-chess / pokerkit triad built on those:
``verify_x`` raises an :class:`~rulesets.errors.IllegalActionError` with a
reason and a rule ID, ``can_x`` returns a bool, ``x`` applies it and returns
the frozen action; ``check_x`` returns a :class:`~rulesets.protocol.Verdict`.

>>> g = UmtaliGame(("Ann", "Bob"))
>>> _ = g.start_hand("Ann")          # Ann deals, Bob plays first (U3.3)
>>> g.turn
'Bob'
>>> _ = g.meld("Bob", "5H 6H 7H")
>>> g.check_extend("Ann", "8H", ("Bob", 0)).points
1
>>> _ = g.extend("Ann", "8H", ("Bob", 0))
>>> _ = g.extend("Ann", "9H", ("Ann", 0))   # chain off the 8H single (U6.3)
>>> g.side_scores
{'Ann': 2, 'Bob': 3}
>>> g.can_extend("Ann", "4S", ("Bob", 0))
False
>>> g.pop().card
'9H'
>>> g.side_scores
{'Ann': 1, 'Bob': 3}
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from pydantic import ValidationError

from rulesets.cards import Card, format_cards, parse_card, parse_cards
from rulesets.errors import CardParseError, IllegalActionError, RecordError, RulesetError
from rulesets.protocol import Action, GameRecord, LedgerEntry, Units, Verdict
from rulesets.umtali.actions import (
    Discard,
    Draw,
    EndHandEmptyStock,
    Extend,
    GoOut,
    Leftovers,
    Meld,
    StartHand,
    TakeDiscards,
    UmtaliAction,
    parse_action,
)
from rulesets.umtali.melds import (
    HANDS_PER_GAME,
    STOCK_AFTER_DEAL,
    U7_UNCHECKED,
    MeldKind,
    UmtaliRules,
    accepted_cards,
    card_points,
    check_anchor,
    classify_meld,
    classify_pair,
    compulsory_discard,
    extension_rule,
    meld_points,
    meld_rule,
    no_breaking,
    play_words,
    playable,
)
from rulesets.umtali.summary import (
    Said,
    UmtaliCurrent,
    UmtaliDetail,
    UmtaliHand,
    UmtaliMeld,
    UmtaliSummary,
    meld_ledger,
)

if TYPE_CHECKING:
    from rulesets.umtali.suggest import Suggestion

__all__ = ["U7_UNCHECKED", "HandResult", "Phase", "TableMeld", "UmtaliGame"]

#: the note a discard carries under ``compulsory_melding`` when no hand was entered.
COMPULSORY_UNCHECKED: Final = (
    "compulsory melding could be checked only against the discarded card: no hand was entered"
)

CardsIn = str | Card | Iterable[str | Card]
PlayerIn = str | int


class Phase(StrEnum):
    """Where the game stands: between hands, in play, in the final turn (U8.3), over."""

    IDLE = "idle"
    PLAY = "play"
    FINAL = "final"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class TableMeld:
    """One meld on a side.  ``player`` put it down (for leftovers: whose hand they came
    from); ``anchor`` is (side player index, meld index) for an extension."""

    kind: MeldKind
    cards: tuple[Card, ...]
    player: int
    anchor: tuple[int, int] | None = None

    @property
    def points(self) -> int:
        return meld_points(self.kind, self.cards)

    def to_model(self, players: Sequence[str]) -> UmtaliMeld:
        return _meld_model(self, tuple(players))

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        return self.to_model(players).to_json()


@functools.lru_cache(maxsize=8192)
def _meld_model(meld: TableMeld, players: tuple[str, ...]) -> UmtaliMeld:
    """A meld as the summary shows it (melds are frozen: each is converted once)."""
    return UmtaliMeld(
        kind=meld.kind,
        cards=tuple(str(c) for c in meld.cards),
        points=meld.points,
        by=players[meld.player],
        anchor=None if meld.anchor is None else (players[meld.anchor[0]], meld.anchor[1]),
    )


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand: its scores per player index, who went out, and both sides."""

    number: int
    dealer: int
    scores: tuple[int, int]
    went_out: int | None
    both_out: bool
    ended: str
    sides: tuple[tuple[TableMeld, ...], tuple[TableMeld, ...]]
    first_action: int = 0
    last_action: int = 0

    @property
    def winner(self) -> int | None:
        """The player whose side scored more in this hand; None on equal scores (A-U18)."""
        a, b = self.scores
        return None if a == b else (0 if a > b else 1)


@dataclass(slots=True)
class _State:
    phase: Phase = Phase.IDLE
    hands: tuple[HandResult, ...] = ()
    dealer: int | None = None
    sides: tuple[tuple[TableMeld, ...], tuple[TableMeld, ...]] = ((), ())
    used: frozenset[Card] = frozenset()
    turn: int | None = None
    turn_open: bool = False
    turn_acted: bool = False
    turn_no: int = 0
    first_player: int = 0
    drew: bool = False
    taken: frozenset[Card] = frozenset()
    pending: frozenset[Card] = frozenset()
    pending_order: tuple[Card, ...] = ()
    went_out: int | None = None
    face_down: bool = False
    final_discarded: bool = False
    stock_left: int | None = STOCK_AFTER_DEAL
    #: U4.2 taken one card at a time: the single card taken this turn (D1), while the
    #: top card (D2) may still be taken -- before D1 is melded, or right after
    d1: Card | None = None
    d1_melded: bool = False
    final_card: Card | None = None
    hand_start: int = 0
    hand_models: tuple[UmtaliHand, ...] = ()
    #: every finished hand's ledger entries, and their sums per player (kept as hands end)
    ledger: tuple[LedgerEntry, ...] = ()
    totals: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class _Outcome:
    kind: str
    points: int
    rule: str
    reason: str
    cards: tuple[Card, ...] = ()
    notes: tuple[str, ...] = ()


def _q(cards: Iterable[Card]) -> str:
    return f'"{format_cards(cards)}"'


#: each action in the words of a message ("Drawing by Ann: ...").
_DOING: Final = {
    "start_hand": "Dealing a hand",
    "draw": "Drawing",
    "take_discards": "Taking from the discard pile",
    "meld": "Melding",
    "extend": "Extending",
    "discard": "Discarding",
    "go_out": "Going out",
    "leftovers": "Moving the leftovers",
    "end_hand_empty_stock": "Ending the hand on an empty stock",
}


def _doing(what: str) -> str:
    return _DOING.get(what, what)


def _count(n: int, noun: str) -> str:
    """ "1 leftover card", "3 leftover cards"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _hand_label(n: int) -> str:
    """ "Hand 2 of 4", or the tie-break hand of house rule ``fifth_hand_on_tie`` (U2.4)."""
    return f"Hand {n} of {HANDS_PER_GAME}" if n <= HANDS_PER_GAME else f"Hand {n} (tie-break, U2.4)"


class UmtaliGame:
    """A two-player Umtali game rebuilt from recorded actions (see the module doc)."""

    def __init__(
        self,
        players: Sequence[str] = ("Player 1", "Player 2"),
        rules: UmtaliRules | None = None,
        actions: Iterable[Action | dict[str, Any]] = (),
    ) -> None:
        names = tuple(str(p) for p in players)
        if len(names) != 2 or names[0] == names[1] or not all(names):
            raise RecordError(f"{list(names)!r}: Umtali needs two differently named players (U1.1)")
        self.players: tuple[str, str] = (names[0], names[1])
        self.rules: UmtaliRules = rules if rules is not None else UmtaliRules()
        self._actions: list[UmtaliAction] = []
        # the state before each pushed action: pop() restores it (no replay)
        self._history: list[_State] = []
        self._state = _State()
        self._summary: tuple[_State, UmtaliSummary] | None = None
        for action in actions:
            self.push(action)

    # ------------------------------------------------------------------ records
    @classmethod
    def from_record(cls, record: GameRecord) -> UmtaliGame:
        """Replay a :class:`GameRecord` (raises :class:`RecordError` on a bad record)."""
        if record.game.strip().lower() != "umtali":
            raise RecordError(f"{record.game!r}: not an Umtali record")
        try:
            rules = UmtaliRules.model_validate(record.rules)
        except ValidationError as exc:
            raise RecordError(f"{record.rules!r}: bad Umtali house rules: {exc}"[:300]) from None
        game = cls(record.players, rules)
        for i, data in enumerate(record.actions):
            try:
                action = parse_action(data)
            except RecordError as exc:
                raise RecordError(f"action {i + 1}: {exc.reason}"[:300]) from None
            try:
                game.push(action)
            except RecordError:
                raise
            except RulesetError as exc:
                raise IllegalActionError(
                    f"action {i + 1} {action.to_json()}: {exc.reason}", rule=exc.rule or "U"
                ) from None
        return game

    def to_record(self) -> GameRecord:
        """The game as a JSON-able :class:`GameRecord` (only non-default house rules)."""
        return GameRecord(
            game="umtali",
            players=list(self.players),
            rules=self.rules.model_dump(exclude_defaults=True),
            actions=[a.to_json() for a in self._actions],
        )

    @property
    def actions(self) -> tuple[UmtaliAction, ...]:
        return tuple(self._actions)

    def push(self, action: Action | dict[str, Any], *, hand: CardsIn | None = None) -> UmtaliAction:
        """Verify and apply one action; the state is unchanged if it is illegal."""
        act = parse_action(action)
        new, _ = self._apply(act, hand)
        self._history.append(self._state)
        self._state = new
        self._actions.append(act)
        return act

    def pop(self) -> UmtaliAction:
        """Take back the last action: the exact inverse of :meth:`push` (a saved snapshot,
        nothing replayed).  Raises :class:`RecordError` on an empty game."""
        if not self._actions:
            raise RecordError("nothing to take back: no action was recorded")
        self._state = self._history.pop()
        return self._actions.pop()

    def verify(self, action: Action | dict[str, Any], *, hand: CardsIn | None = None) -> None:
        """Raise from the :class:`RulesetError` family unless ``action`` is legal now."""
        self._apply(parse_action(action), hand)

    def can(self, action: Action | dict[str, Any], *, hand: CardsIn | None = None) -> bool:
        try:
            self.verify(action, hand=hand)
        except RulesetError:
            return False
        return True

    def judge(self, action: Action | dict[str, Any], *, hand: CardsIn | None = None) -> Verdict:
        """A :class:`Verdict` on one action (never raises for an illegal action)."""
        act: UmtaliAction | None = None
        try:
            act = parse_action(action)
            _, out = self._apply(act, hand)
        except RulesetError as exc:
            return Verdict(legal=False, rule=exc.rule or "U", reason=exc.reason)
        return Verdict(
            legal=True,
            kind=out.kind,
            points=out.points,
            rule=out.rule,
            reason=out.reason,
            cards=tuple(str(c) for c in out.cards),
            notes=out.notes,
        )

    # ------------------------------------------------------------------ state
    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def hand_number(self) -> int:
        """1-based number of the hand in play (or the last one played)."""
        return len(self._state.hands) + (1 if self._state.phase in (Phase.PLAY, Phase.FINAL) else 0)

    @property
    def turn(self) -> str | None:
        """Whose turn it is (as far as the table reported), or None between hands."""
        s = self._state
        if s.phase not in (Phase.PLAY, Phase.FINAL) or s.turn is None:
            return None
        if not s.turn_open:
            return self.players[1 - s.turn]
        return self.players[s.turn]

    @property
    def dealer(self) -> str | None:
        """Dealer of the hand in play, of the next hand between hands (None: the cut),
        or of the last hand once the game is over."""
        s = self._state
        if s.phase in (Phase.PLAY, Phase.FINAL):
            return None if s.dealer is None else self.players[s.dealer]
        if s.phase is Phase.OVER:
            return self.players[s.hands[-1].dealer]
        nxt = self._next_dealer(s)
        return None if nxt is None else self.players[nxt]

    @property
    def went_out(self) -> str | None:
        s = self._state
        return None if s.went_out is None else self.players[s.went_out]

    @property
    def sides(self) -> dict[str, tuple[TableMeld, ...]]:
        """The melds on each player's side in the current hand."""
        s = self._state
        return {self.players[0]: s.sides[0], self.players[1]: s.sides[1]}

    @property
    def side_scores(self) -> dict[str, int]:
        """U9.1 points on each side right now."""
        s = self._state
        return {self.players[i]: sum(m.points for m in s.sides[i]) for i in (0, 1)}

    @property
    def table_cards(self) -> frozenset[Card]:
        return self._state.used

    @property
    def hands(self) -> tuple[HandResult, ...]:
        return self._state.hands

    @property
    def totals(self) -> dict[str, int]:
        return {self.players[i]: sum(h.scores[i] for h in self._state.hands) for i in (0, 1)}

    @property
    def finished(self) -> bool:
        return self._state.phase is Phase.OVER

    @property
    def winners(self) -> list[str]:
        """Empty until the game is over; both names on equal totals (a draw, A-U16)."""
        if not self.finished:
            return []
        t = self.totals
        best = max(t.values())
        return [p for p in self.players if t[p] == best]

    @property
    def stock_left(self) -> int | None:
        """Cards left in the stock if every draw was recorded (an upper bound otherwise)."""
        return self._state.stock_left

    def taken_this_turn(self, player: PlayerIn) -> frozenset[Card]:
        """Cards ``player`` took from the discard pile in the turn now open (U4.3)."""
        s = self._state
        p = self.players.index(self._name(player))
        return s.taken if s.turn == p and s.turn_open else frozenset()

    def must_meld_now(self, player: PlayerIn) -> tuple[Card, ...]:
        """Cards ``player`` took from the discard pile and must still meld this turn,
        in the order they must go down (U4.2: D1, then D2; or the dug card)."""
        s = self._state
        p = self.players.index(self._name(player))
        if not (s.turn == p and s.turn_open and s.pending):
            return ()
        rest = tuple(c for c in sorted(s.pending) if c not in s.pending_order)
        return s.pending_order + rest

    def anchors(self) -> list[tuple[tuple[str, int], TableMeld]]:
        """Every meld on the table as ((side player, index), meld)."""
        s = self._state
        return [((self.players[i], k), m) for i in (0, 1) for k, m in enumerate(s.sides[i])]

    # ------------------------------------------------------------------ triads
    def _name(self, player: PlayerIn) -> str:
        if isinstance(player, int) and not isinstance(player, bool):
            if player in (0, 1):
                return self.players[player]
        elif isinstance(player, str) and player in self.players:
            return player
        raise RecordError(f"{player!r}: not a player of this game ({', '.join(self.players)})")

    @staticmethod
    def _cards(cards: CardsIn) -> tuple[str, ...]:
        try:
            return tuple(str(c) for c in parse_cards(cards))
        except TypeError:
            raise CardParseError(f'{cards!r}: not cards (write e.g. "5H 6H 7H")') from None

    @staticmethod
    def _card(card: str | Card) -> str:
        if not isinstance(card, str | Card):
            raise CardParseError(f"{card!r}: not a card (write rank then suit, e.g. 10H)")
        return str(parse_card(card))

    def _anchor(self, anchor: tuple[PlayerIn, int] | Sequence[Any]) -> tuple[str, int]:
        try:
            side, index = anchor
        except (TypeError, ValueError):
            raise RecordError(f"{anchor!r}: an anchor is (side player, meld index)") from None
        if not isinstance(index, int) or isinstance(index, bool):
            raise RecordError(f"{anchor!r}: the meld index must be a whole number")
        return (self._name(side), index)

    def start_hand_action(self, dealer: PlayerIn | None = None) -> StartHand:
        return StartHand(dealer=None if dealer is None else self._name(dealer))

    def verify_start_hand(self, dealer: PlayerIn | None = None) -> None:
        self.verify(self.start_hand_action(dealer))

    def can_start_hand(self, dealer: PlayerIn | None = None) -> bool:
        return self._can(lambda: self.verify_start_hand(dealer))

    def start_hand(self, dealer: PlayerIn | None = None) -> StartHand:
        """Deal a new hand (U2, U3); the dealer alternates unless ``winner_deals``."""
        act = self.start_hand_action(dealer)
        self.push(act)
        return act

    def verify_draw(self, player: PlayerIn) -> None:
        self.verify(Draw(player=self._name(player)))

    def can_draw(self, player: PlayerIn) -> bool:
        return self._can(lambda: self.verify_draw(player))

    def draw(self, player: PlayerIn) -> Draw:
        """Optional record: ``player`` drew from the stock (U4.1)."""
        act = Draw(player=self._name(player))
        self.push(act)
        return act

    def take_discards_action(self, player: PlayerIn, cards: CardsIn) -> TakeDiscards:
        return TakeDiscards(player=self._name(player), cards=self._cards(cards))

    def verify_take_discards(
        self, player: PlayerIn, cards: CardsIn, *, hand: CardsIn | None = None
    ) -> None:
        self.verify(self.take_discards_action(player, cards), hand=hand)

    def can_take_discards(
        self, player: PlayerIn, cards: CardsIn, *, hand: CardsIn | None = None
    ) -> bool:
        return self._can(lambda: self.verify_take_discards(player, cards, hand=hand))

    def take_discards(
        self, player: PlayerIn, cards: CardsIn, *, hand: CardsIn | None = None
    ) -> TakeDiscards:
        """Optional record: top discard(s) taken, top first; two must both be melded (U4.2)."""
        act = self.take_discards_action(player, cards)
        self.push(act, hand=hand)
        return act

    def meld_action(self, player: PlayerIn, cards: CardsIn) -> Meld:
        return Meld(player=self._name(player), cards=self._cards(cards))

    def verify_meld(self, player: PlayerIn, cards: CardsIn, *, hand: CardsIn | None = None) -> None:
        """Raise unless ``cards`` are a legal set, sequence, marriage or jack now (U5).

        >>> g = UmtaliGame(("Ann", "Bob")); _ = g.start_hand("Ann")
        >>> g.verify_meld("Bob", "QH KH JH")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rulesets.errors.IllegalActionError: "QH KH JH": sequences use only A..10 ... (U5.2)
        >>> g.can_meld("Bob", "QH KH"), g.meld("Bob", "QH KH").to_json()["cards"]
        (True, ['QH', 'KH'])
        """
        self.verify(self.meld_action(player, cards), hand=hand)

    def can_meld(self, player: PlayerIn, cards: CardsIn, *, hand: CardsIn | None = None) -> bool:
        return self._can(lambda: self.verify_meld(player, cards, hand=hand))

    def check_meld(
        self, player: PlayerIn, cards: CardsIn, *, hand: CardsIn | None = None
    ) -> Verdict:
        return self._check(lambda: self.meld_action(player, cards), hand)

    def meld(self, player: PlayerIn, cards: CardsIn, *, hand: CardsIn | None = None) -> Meld:
        """Put a basic meld or a jack on ``player``'s side (U5)."""
        act = self.meld_action(player, cards)
        self.push(act, hand=hand)
        return act

    def extend_action(
        self, player: PlayerIn, card: str | Card, anchor: tuple[PlayerIn, int]
    ) -> Extend:
        return Extend(player=self._name(player), card=self._card(card), anchor=self._anchor(anchor))

    def verify_extend(
        self,
        player: PlayerIn,
        card: str | Card,
        anchor: tuple[PlayerIn, int],
        *,
        hand: CardsIn | None = None,
    ) -> None:
        """Raise unless ``card`` may extend the meld ``anchor`` now (U6, U7)."""
        self.verify(self.extend_action(player, card, anchor), hand=hand)

    def can_extend(
        self,
        player: PlayerIn,
        card: str | Card,
        anchor: tuple[PlayerIn, int],
        *,
        hand: CardsIn | None = None,
    ) -> bool:
        return self._can(lambda: self.verify_extend(player, card, anchor, hand=hand))

    def check_extend(
        self,
        player: PlayerIn,
        card: str | Card,
        anchor: tuple[PlayerIn, int],
        *,
        hand: CardsIn | None = None,
    ) -> Verdict:
        return self._check(lambda: self.extend_action(player, card, anchor), hand)

    def extend(
        self,
        player: PlayerIn,
        card: str | Card,
        anchor: tuple[PlayerIn, int],
        *,
        hand: CardsIn | None = None,
    ) -> Extend:
        """Play ``card`` against ``anchor``; it becomes a single on ``player``'s side (U6.1)."""
        act = self.extend_action(player, card, anchor)
        self.push(act, hand=hand)
        return act

    def discard_action(self, player: PlayerIn, card: str | Card) -> Discard:
        return Discard(player=self._name(player), card=self._card(card))

    def verify_discard(
        self, player: PlayerIn, card: str | Card, *, hand: CardsIn | None = None
    ) -> None:
        self.verify(self.discard_action(player, card), hand=hand)

    def can_discard(
        self, player: PlayerIn, card: str | Card, *, hand: CardsIn | None = None
    ) -> bool:
        return self._can(lambda: self.verify_discard(player, card, hand=hand))

    def discard(
        self, player: PlayerIn, card: str | Card, *, hand: CardsIn | None = None
    ) -> Discard:
        """Optional record: a face-up discard ending the turn (U4.5), or the final one (U8.4)."""
        act = self.discard_action(player, card)
        self.push(act, hand=hand)
        return act

    def go_out_action(
        self,
        player: PlayerIn,
        *,
        pair: CardsIn = (),
        discard: str | Card | None = None,
        face_down: bool = False,
    ) -> GoOut:
        return GoOut(
            player=self._name(player),
            pair=self._cards(pair),
            discard=None if discard is None else self._card(discard),
            face_down=face_down,
        )

    def verify_go_out(
        self,
        player: PlayerIn,
        *,
        pair: CardsIn = (),
        discard: str | Card | None = None,
        face_down: bool = False,
        hand: CardsIn | None = None,
    ) -> None:
        """Raise unless ``player`` may go out now with this pair and discard (U8.1, U5.5)."""
        act = self.go_out_action(player, pair=pair, discard=discard, face_down=face_down)
        self.verify(act, hand=hand)

    def can_go_out(
        self,
        player: PlayerIn,
        *,
        pair: CardsIn = (),
        discard: str | Card | None = None,
        face_down: bool = False,
        hand: CardsIn | None = None,
    ) -> bool:
        return self._can(
            lambda: self.verify_go_out(
                player, pair=pair, discard=discard, face_down=face_down, hand=hand
            )
        )

    def check_go_out(
        self,
        player: PlayerIn,
        *,
        pair: CardsIn = (),
        discard: str | Card | None = None,
        face_down: bool = False,
        hand: CardsIn | None = None,
    ) -> Verdict:
        return self._check(
            lambda: self.go_out_action(player, pair=pair, discard=discard, face_down=face_down),
            hand,
        )

    def go_out(
        self,
        player: PlayerIn,
        *,
        pair: CardsIn = (),
        discard: str | Card | None = None,
        face_down: bool = False,
        hand: CardsIn | None = None,
    ) -> GoOut:
        """``player`` goes out (U8.1); the opponent then plays one final turn (U8.3).

        >>> g = UmtaliGame(("Ann", "Bob")); _ = g.start_hand("Ann")
        >>> _ = g.go_out("Bob", pair="9S 9D", discard="2C", face_down=True)
        >>> g.phase.value, g.turn
        ('final', 'Ann')
        >>> g.can_take_discards("Ann", "2C")   # face down: Ann must draw from the stock
        False
        """
        act = self.go_out_action(player, pair=pair, discard=discard, face_down=face_down)
        self.push(act, hand=hand)
        return act

    def leftovers_action(self, player: PlayerIn, cards: CardsIn = ()) -> Leftovers:
        return Leftovers(player=self._name(player), cards=self._cards(cards))

    def verify_leftovers(
        self, player: PlayerIn, cards: CardsIn = (), *, hand: CardsIn | None = None
    ) -> None:
        self.verify(self.leftovers_action(player, cards), hand=hand)

    def can_leftovers(
        self, player: PlayerIn, cards: CardsIn = (), *, hand: CardsIn | None = None
    ) -> bool:
        return self._can(lambda: self.verify_leftovers(player, cards, hand=hand))

    def leftovers(
        self, player: PlayerIn, cards: CardsIn = (), *, hand: CardsIn | None = None
    ) -> Leftovers:
        """End the final turn: ``cards`` go to the going-out side as singles (U8.4).

        >>> g = UmtaliGame(("Ann", "Bob")); _ = g.start_hand("Ann")
        >>> _ = g.go_out("Bob")
        >>> _ = g.leftovers("Ann", "KS QS 3D")
        >>> g.hands[-1].scores   # 5 + 5 + 1 on Bob's side; KS QS are no marriage (U9.2)
        (0, 11)
        """
        act = self.leftovers_action(player, cards)
        self.push(act, hand=hand)
        return act

    def verify_end_hand_empty_stock(self) -> None:
        self.verify(EndHandEmptyStock())

    def can_end_hand_empty_stock(self) -> bool:
        return self.can(EndHandEmptyStock())

    def end_hand_empty_stock(self) -> EndHandEmptyStock:
        """The stock ran out: the hand ends, each side scores itself (U4.6)."""
        act = EndHandEmptyStock()
        self.push(act)
        return act

    def suggest(self, player: PlayerIn, hand: CardsIn, *, must_meld: CardsIn = ()) -> Suggestion:
        """Every legal play for ``hand`` and the melding worth most this turn (exact)."""
        from rulesets.umtali.suggest import suggest

        return suggest(self, self._name(player), hand, must_meld=must_meld)

    def summary(self) -> UmtaliSummary:
        """Where the game stands, typed (its ``to_json()`` is the replay JSON)."""
        cached = self._summary
        if cached is not None and cached[0] is self._state:
            return cached[1]
        s = self._state
        hands = s.hand_models
        ledger = s.ledger
        totals = dict(s.totals) if s.totals else dict.fromkeys(self.players, 0)
        winners = tuple(self.winners)
        summary = UmtaliSummary(
            game="umtali",
            players=self.players,
            phase=s.phase,
            finished=self.finished,
            winners=winners,
            totals=totals,
            units=Units.POINTS,
            higher_is_better=True,
            dealer=self.dealer,
            turn=self.turn,
            hand=self.hand_number,
            hands=hands,
            ledger=ledger,
            detail=UmtaliDetail(
                current=self._current(),
                draw=len(winners) > 1,
                rules=self.rules.changed(),
                hands_in_game=max(HANDS_PER_GAME, len(s.hands) + (s.phase is not Phase.OVER)),
                hand_label=_hand_label(self.hand_number if self.in_hand else len(s.hands) + 1),
                next_deal=self._next_deal_words(),
                result=self._result_words(),
            ),
        )
        self._summary = (s, summary)
        return summary

    @property
    def in_hand(self) -> bool:
        """Whether a hand is in play (including the opponent's final turn)."""
        return self._state.phase in (Phase.PLAY, Phase.FINAL)

    def _current(self) -> UmtaliCurrent | None:
        s = self._state
        if not self.in_hand:
            return None
        turn = self.turn
        final: Said | None = None
        if s.phase is Phase.FINAL and s.went_out is not None:
            out, opp = self.players[s.went_out], self.players[1 - s.went_out]
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
            number=self.hand_number,
            phase=s.phase.value,
            dealer=None if s.dealer is None else self.players[s.dealer],
            turn=turn,
            went_out=self.went_out,
            face_down=s.face_down,
            final_discarded=s.final_discarded,
            scores=self.side_scores,
            sides={
                self.players[i]: tuple(m.to_model(self.players) for m in s.sides[i]) for i in (0, 1)
            },
            stock_left=s.stock_left,
            must_meld=tuple(str(c) for c in self.must_meld_now(turn)) if turn else (),
            taken=tuple(str(c) for c in sorted(self.taken_this_turn(turn))) if turn else (),
            on_table=tuple(str(c) for c in sorted(s.used)),
            final_turn=final,
            first_action=s.hand_start,
        )

    def _next_deal_words(self) -> Said | None:
        """Who deals the next hand and why: "Bob deals (the deal alternates)"."""
        s = self._state
        if s.phase is not Phase.IDLE:
            return None
        if not s.hands:
            return Said(text="The players cut: the lower card deals", rule="U2.2")
        last = s.hands[-1]
        nxt = self.players[1 - last.dealer]
        if not self.rules.winner_deals:
            return Said(text=f"{nxt} deals (the deal alternates)", rule="U2.3")
        winner = last.winner
        if winner is None:
            return Said(
                text=f"{nxt} deals (equal scores in hand {last.number}: the deal alternates)",
                rule="A-U18",
            )
        who = self.players[winner]
        return Said(text=f"{who} deals ({who} scored more in hand {last.number})", rule="A-U18")

    def _result_words(self) -> Said | None:
        if not self.finished:
            return None
        totals = {self.players[i]: sum(h.scores[i] for h in self._state.hands) for i in (0, 1)}
        winners = self.winners
        if len(winners) == 1:
            w = winners[0]
            other = self.players[1 - self.players.index(w)]
            return Said(text=f"{w} wins, {totals[w]} to {totals[other]}.", rule="U2.1")
        return Said(text=f"A draw: {' and '.join(winners)} on {totals[winners[0]]}.", rule="A-U16")

    def _can(self, fn: Any) -> bool:
        try:
            fn()
        except RulesetError:
            return False
        return True

    def _check(self, build: Any, hand: CardsIn | None) -> Verdict:
        try:
            act = build()
        except RulesetError as exc:
            return Verdict(legal=False, rule=exc.rule or "U1.1", reason=exc.reason)
        return self.judge(act, hand=hand)

    # ------------------------------------------------------------------ engine
    def _next_dealer(self, s: _State) -> int | None:
        if not s.hands:
            return None
        last = s.hands[-1]
        if self.rules.winner_deals and last.winner is not None:
            return last.winner  # A-U18: the higher scorer, not who went out
        return 1 - last.dealer

    def _apply(self, a: UmtaliAction, hand_in: CardsIn | None) -> tuple[_State, _Outcome]:
        hand = None if hand_in is None else frozenset(parse_cards(self._cards(hand_in)))
        s = copy.copy(self._state)
        if isinstance(a, StartHand):
            return s, self._start(s, a)
        if s.phase is Phase.OVER:
            raise IllegalActionError(
                f"{_doing(a.type)}: the game is over after {len(s.hands)} hands", rule="U2.1"
            )
        if s.phase is Phase.IDLE:
            raise IllegalActionError(
                f"{_doing(a.type)}: no hand in progress; deal a hand first", rule="U2.1"
            )
        if isinstance(a, EndHandEmptyStock):
            return s, self._empty_stock(s)
        p = self.players.index(self._name(a.player))
        if isinstance(a, Leftovers):
            return s, self._leftovers(s, p, a, hand)
        expected = s.turn if s.turn_open else (None if s.turn is None else 1 - s.turn)
        # the turn now open is ``p``'s own (a new draw by ``p`` then skips a whole turn)
        own_open = s.turn == p and s.turn_open
        # the player whose turn it is has done nothing recorded in it yet
        idle = not s.turn_open or not s.turn_acted
        turn_no = s.turn_no
        self._enter_turn(s, p, a.type)
        out = self._play(s, p, a, hand)
        if s.turn == p:  # going out hands the (fresh) final turn to the other player
            s.turn_acted = True
        # The app hears only what the table reports: an unrecorded turn of the other
        # player is assumed, but the verdict says so.  A turn with something recorded
        # in it but no discard simply ended (recording the discard is optional, U4.5).
        other = self.players[1 - p]
        if expected is not None and expected != p and idle:
            note = f"the app expected {other} to play; this assumes {other}'s turn went unrecorded"
            out = dataclasses.replace(out, notes=(*out.notes, note))
        elif s.turn_no != turn_no and own_open and s.phase is Phase.PLAY:
            note = (
                f"a second draw by {self.players[p]} starts a new turn; this assumes "
                f"{other}'s turn in between went unrecorded"
            )
            out = dataclasses.replace(out, notes=(*out.notes, note))
        return s, out

    def _play(
        self,
        s: _State,
        p: int,
        a: Draw | TakeDiscards | Meld | Extend | Discard | GoOut,
        hand: frozenset[Card] | None,
    ) -> _Outcome:
        if isinstance(a, Draw):
            return self._draw(s, p)
        if isinstance(a, TakeDiscards):
            return self._take(s, p, a, hand)
        if isinstance(a, Meld):
            return self._meld(s, p, a, hand)
        if isinstance(a, Extend):
            return self._extend(s, p, a, hand)
        if isinstance(a, Discard):
            return self._discard(s, p, a, hand)
        return self._go_out(s, p, a, hand)

    def _start(self, s: _State, a: StartHand) -> _Outcome:
        if s.phase is Phase.OVER:
            raise IllegalActionError(
                f"Dealing a hand: the game is over after {len(s.hands)} hands", rule="U2.1"
            )
        if s.phase is not Phase.IDLE:
            raise IllegalActionError(
                f"Dealing a hand: hand {len(s.hands) + 1} is still in progress; record how it "
                "ended (going out and the leftovers, or the empty stock)",
                rule="U2.1",
            )
        expected = self._next_dealer(s)
        dealer = expected if a.dealer is None else self.players.index(self._name(a.dealer))
        if dealer is None:
            dealer = 0
        if expected is not None and dealer != expected:
            how = "the winner deals" if self.rules.winner_deals else "the deal alternates"
            raise IllegalActionError(
                f"{self.players[dealer]} to deal: {how}, so "
                f"{self.players[expected]} deals hand {len(s.hands) + 1}",
                rule="U2.3",
            )
        s.phase = Phase.PLAY
        s.dealer = dealer
        s.sides = ((), ())
        s.used = frozenset()
        s.first_player = 1 - dealer
        s.turn = 1 - dealer
        s.turn_open = True
        s.turn_acted = False
        s.turn_no = 1
        s.drew = False
        s.taken = frozenset()
        s.pending = frozenset()
        s.pending_order = ()
        s.went_out = None
        s.face_down = False
        s.final_discarded = False
        s.stock_left = STOCK_AFTER_DEAL
        s.d1 = None
        s.hand_start = len(self._actions)
        return _Outcome(
            "start_hand",
            0,
            "U3.3",
            f"hand {len(s.hands) + 1}: {self.players[dealer]} deals, "
            f"{self.players[1 - dealer]} plays first",
        )

    def _enter_turn(self, s: _State, p: int, what: str) -> None:
        second_take = what == "take_discards" and s.d1 is not None and s.turn == p
        if s.phase is Phase.FINAL:
            if s.drew and what in ("draw", "take_discards") and not second_take:
                raise IllegalActionError(
                    f"{_doing(what)} by {self.players[p]}: the final turn has one draw",
                    rule="U8.3",
                )
            if p == s.went_out:
                raise IllegalActionError(
                    f"{_doing(what)} by {self.players[p]}: {self.players[p]} went out; only "
                    f"{self.players[1 - p]} plays the final turn",
                    rule="U8.3",
                )
            if s.final_discarded and what != "go_out":
                raise IllegalActionError(
                    f"{_doing(what)} by {self.players[p]}: the final turn ended with the discard; "
                    "record the leftovers",
                    rule="U8.4",
                )
            return
        new_draw = s.drew and what in ("draw", "take_discards") and not second_take
        if s.turn == p and s.turn_open and not new_draw:
            return
        # A new turn.  A second draw by the same player means the opponent's turn in
        # between went unrecorded (the app hears only what the table reports).
        self._close_turn(s)
        s.turn = p
        s.turn_open = True
        s.turn_no += 1
        s.drew = False
        s.taken = frozenset()
        s.pending = frozenset()
        s.pending_order = ()
        s.d1 = None

    def _close_turn(self, s: _State) -> None:
        if s.pending and s.turn is not None:
            raise IllegalActionError(
                f"{_q(sorted(s.pending))}: {self.players[s.turn]} took these from the discard "
                "pile and must meld them that same turn",
                rule="U4.2",
            )
        s.d1 = None

    def _draw(self, s: _State, p: int) -> _Outcome:
        who = self.players[p]
        if s.drew:
            raise IllegalActionError(f"Drawing by {who}: one draw per turn", rule="U4.1")
        self._no_first_draw(s, p, "draw")
        if s.stock_left == 0:
            if self.rules.empty_stock_reshuffle:
                s.stock_left = None
            else:
                raise IllegalActionError(
                    f"Drawing by {who}: the stock is empty; take the discard (U4.2) or end "
                    "the hand",
                    rule="U4.6",
                )
        if s.stock_left is not None:
            s.stock_left -= 1
        s.drew = True
        return _Outcome("draw", 0, "U4.1", f"{who} drew from the stock")

    def _no_first_draw(self, s: _State, p: int, what: str) -> None:
        if self.rules.deal_eleven_ten and s.turn_no == 1 and p == s.first_player:
            raise IllegalActionError(
                f"{_doing(what)} by {self.players[p]}: with the 11-10 deal the 11-card player "
                "starts without drawing",
                rule="U3.3",
            )

    def _fresh(self, s: _State, cards: Sequence[Card], head: str) -> None:
        for c in cards:
            if c.is_joker:
                raise IllegalActionError(f"{head}: Umtali uses no jokers", rule="U1.1")
            if c in s.used:
                raise IllegalActionError(f"{head}: {c} is already on the table", rule="U1.1")
        if len(set(cards)) != len(cards):
            raise IllegalActionError(f"{head}: a card is listed twice", rule="U1.1")

    def _in_hand(self, hand: frozenset[Card] | None, cards: Sequence[Card], head: str) -> None:
        if hand is None:
            return
        missing = [c for c in cards if c not in hand]
        if missing:
            raise IllegalActionError(
                f"{head}: {format_cards(missing)} not in the hand entered "
                f"({format_cards(sorted(hand))})",
                rule="U5",
            )

    def _take(self, s: _State, p: int, a: TakeDiscards, hand: frozenset[Card] | None) -> _Outcome:
        cards = parse_cards(a.cards)
        who = self.players[p]
        head = f"{who} takes {_q(cards)}"
        if s.drew and s.d1 is not None:
            return self._second_take(s, p, cards, hand)
        if s.drew:
            raise IllegalActionError(f"{head}: one draw per turn", rule="U4.1")
        self._no_first_draw(s, p, "take_discards")
        if not cards:
            raise IllegalActionError(f"{head}: name the card(s) taken", rule="U4.1")
        if s.phase is Phase.FINAL and s.face_down:
            raise IllegalActionError(
                f"{head}: the going-out discard was face down, so the final draw must come "
                "from the stock",
                rule="U8.2",
            )
        self._fresh(s, cards, head)
        if len(cards) > 2 and not self.rules.discard_dig:
            raise IllegalActionError(
                f"{head}: at most two cards come from the discard pile", rule="U4.2"
            )
        if hand is not None and any(c in hand for c in cards):
            raise IllegalActionError(f"{head}: those cards are already in the hand", rule="U4.2")
        s.drew = True
        s.taken = frozenset(cards)
        s.d1 = cards[0] if len(cards) == 1 else None
        s.d1_melded = False
        self._pend(s, cards)
        return _Outcome("take_discards", 0, "U4.2", f"{who} took {_q(cards)}", cards)

    def _pend(self, s: _State, cards: Sequence[Card]) -> None:
        """What a take of ``cards`` (top first) leaves to meld this turn (U4.2)."""
        if len(cards) == 2 and not self.rules.discard_dig:
            s.pending = frozenset(cards)
            s.pending_order = tuple(cards)
        elif len(cards) >= 2:
            s.pending = frozenset({cards[-1]})

    def _second_take(
        self, s: _State, p: int, cards: Sequence[Card], hand: frozenset[Card] | None
    ) -> _Outcome:
        """U4.2 taken one card at a time: D1 was taken alone, and D2 now.  The same rule as
        taking both at once: D2 (and D1, if still held) must be melded at once, D1 first."""
        d1 = s.d1
        assert d1 is not None
        who = self.players[p]
        head = f"{who} takes {_q(cards)} after {d1}"
        if not cards:
            raise IllegalActionError(f"{head}: name the card(s) taken", rule="U4.1")
        self._fresh(s, cards, head)
        both = (d1, *cards)
        if d1 in cards:
            raise IllegalActionError(f"{head}: {d1} was already taken", rule="U4.2")
        if len(both) > 2 and not self.rules.discard_dig:
            raise IllegalActionError(
                f"{head}: at most two cards come from the discard pile", rule="U4.2"
            )
        if hand is not None and any(c in hand for c in cards):
            raise IllegalActionError(f"{head}: those cards are already in the hand", rule="U4.2")
        s.taken = s.taken | set(cards)
        if s.d1_melded:  # D1 went down at once: the rest must follow it (U4.2)
            self._pend(s, both)
            s.pending = s.pending - {d1}
            s.pending_order = tuple(c for c in s.pending_order if c != d1)
        else:
            self._pend(s, both)
        s.d1 = None
        return _Outcome(
            "take_discards",
            0,
            "U4.2",
            f"{who} took {_q(cards)} too: {format_cards(sorted(s.pending))} must be melded at once",
            tuple(cards),
        )

    def _u7(
        self, hand: frozenset[Card] | None, cards: Sequence[Card], head: str
    ) -> tuple[str, ...]:
        """U7.2 against the hand entered; without one, nothing to say: the game's
        opening words already say the rule is checked only when a hand is entered."""
        if hand is None:
            return ()
        return no_breaking(cards, hand, self.rules, head)

    def _meld(self, s: _State, p: int, a: Meld, hand: frozenset[Card] | None) -> _Outcome:
        cards = parse_cards(a.cards)
        head = f"{self.players[p]} melds {_q(cards)}"
        kind = classify_meld(cards)
        self._fresh(s, cards, head)
        self._in_hand(hand, cards, head)
        self._melds_next(s, cards, head)
        meld = TableMeld(kind, tuple(cards), p)
        self._place(s, p, meld)
        return _Outcome(
            kind.value,
            meld.points,
            meld_rule(kind),
            f"{_q(cards)} is a {kind.value}: {Units.POINTS.of(meld.points)} to "
            f"{self.players[p]}'s side",
            tuple(cards),
        )

    def _melds_next(self, s: _State, cards: Sequence[Card], head: str) -> None:
        """U4.2: of two cards taken from the discard pile, D1 is melded first, then D2."""
        if s.pending_order and s.pending_order[0] not in cards:
            first, rest = s.pending_order[0], s.pending_order[1:]
            if not rest:  # D2 after D1 went down (U4.2)
                raise IllegalActionError(
                    f"{head}: {first}, the second card taken from the discard pile, must be "
                    "melded next",
                    rule="U4.2",
                )
            raise IllegalActionError(
                f"{head}: {first} was taken from the discard pile with "
                f"{format_cards(rest)} and must be melded first",
                rule="U4.2",
            )

    def _place(self, s: _State, side: int, meld: TableMeld) -> None:
        sides = list(s.sides)
        sides[side] = (*sides[side], meld)
        s.sides = (sides[0], sides[1])
        s.used = s.used | set(meld.cards)
        s.pending = s.pending - set(meld.cards)
        s.pending_order = tuple(c for c in s.pending_order if c in s.pending)
        if s.d1 is not None:  # D2 may follow only a D1 melded at once (U4.2)
            if not s.d1_melded and s.d1 in meld.cards:
                s.d1_melded = True
            else:
                s.d1 = None

    def _extend(self, s: _State, p: int, a: Extend, hand: frozenset[Card] | None) -> _Outcome:
        card = parse_card(a.card)
        side_name, index = a.anchor
        side = self.players.index(self._name(side_name))
        head = f'{self.players[p]} plays "{card}" onto {side_name}\'s meld #{index}'
        if not 0 <= index < len(s.sides[side]):
            raise IllegalActionError(
                f"{head}: {side_name}'s side has no meld #{index} (it has {len(s.sides[side])})",
                rule="U6.1",
            )
        anchor = s.sides[side][index]
        self._fresh(s, [card], head)
        pair_open = s.phase is Phase.FINAL and side == s.went_out
        check_anchor(card, anchor.kind, anchor.cards, self.rules, pair_open=pair_open)
        self._in_hand(hand, [card], head)
        notes = self._u7(hand, [card], head)
        self._melds_next(s, [card], head)
        meld = TableMeld(MeldKind.SINGLE, (card,), p, (side, index))
        self._place(s, p, meld)
        pts = card_points(card)
        return _Outcome(
            "extension",
            pts,
            extension_rule(anchor.kind),
            f'"{card}" extends {_q(anchor.cards)}: a single on {self.players[p]}\'s side, '
            f"{pts} point{'s' if pts != 1 else ''}",
            (card,),
            notes,
        )

    def _discard(self, s: _State, p: int, a: Discard, hand: frozenset[Card] | None) -> _Outcome:
        card = parse_card(a.card)
        who = self.players[p]
        head = f'{who} discards "{card}"'
        self._fresh(s, [card], head)
        self._discard_checks(s, card, head)
        self._in_hand(hand, [card], head)
        notes = self._compulsory(s, card, hand, head)
        if s.phase is Phase.FINAL:
            s.final_discarded = True
            s.final_card = card
            return _Outcome("discard", 0, "U8.4", f"{who}'s final discard", (card,), notes)
        self._close_turn(s)
        s.turn_open = False
        return _Outcome("discard", 0, "U4.5", f"{who} discards and ends the turn", (card,), notes)

    def _accepted(self, s: _State) -> frozenset[Card]:
        """Every card some meld on the table takes now (U6.2; the going-out pair, U8.3)."""
        out: set[Card] = set()
        for side in (0, 1):
            pair_open = s.phase is Phase.FINAL and side == s.went_out
            for m in s.sides[side]:
                out.update(accepted_cards(m.kind, m.cards, self.rules, pair_open=pair_open))
        return frozenset(out - s.used)

    def _compulsory(
        self, s: _State, card: Card, hand: frozenset[Card] | None, head: str
    ) -> tuple[str, ...]:
        """``compulsory_melding`` (U4.4, A-U8): no discard while something can go down --
        the discarded card itself (a jack, U5.4; a card an anchor takes, U4.4; part of a
        meld), or, when the hand is known, anything in it."""
        if not self.rules.compulsory_melding:
            return ()
        accepted = self._accepted(s)
        compulsory_discard(card, hand or (), accepted, self.rules, head)
        if hand is None:
            return (COMPULSORY_UNCHECKED,)
        play = playable(hand, accepted)
        if play is not None:
            raise IllegalActionError(
                f"{head}: {play_words(*play)}; melding is compulsory", rule="U4.4"
            )
        return ()

    def _discard_checks(self, s: _State, card: Card, head: str) -> None:
        if card in s.taken and self.rules.no_rediscard:
            raise IllegalActionError(
                f"{head}: a card taken from the discard pile may not be discarded the same turn",
                rule="U4.3",
            )
        if card in s.pending:
            raise IllegalActionError(
                f"{head}: it was taken from the discard pile and must be melded", rule="U4.2"
            )
        self._close_turn(s)

    def _go_out(self, s: _State, p: int, a: GoOut, hand: frozenset[Card] | None) -> _Outcome:
        who = self.players[p]
        pair = parse_cards(a.pair)
        head = f"{who} goes out" + (f" with pair {_q(pair)}" if pair else "")
        notes = self._out_pair(s, pair, hand, head)
        discard = None if a.discard is None else parse_card(a.discard)
        if discard is None and a.face_down:
            raise IllegalActionError(f"{head}: face down needs a discard to be named", rule="U8.1")
        if discard is not None:
            notes += self._out_discard(s, discard, pair, hand, head)
        if hand is not None:
            rest = hand - set(pair) - ({discard} if discard else set())
            if rest:
                raise IllegalActionError(
                    f"{head}: {format_cards(sorted(rest))} still in the hand entered; going "
                    "out needs an empty hand (one discard allowed)",
                    rule="U8.1",
                )
        if pair:
            self._place(s, p, TableMeld(MeldKind.PAIR, tuple(pair), p))
        self._close_turn(s)
        pts = meld_points(MeldKind.PAIR, pair)
        if s.phase is Phase.FINAL:
            self._end_hand(s, "out", both_out=True)
            return _Outcome(
                "go_out",
                pts,
                "U8.5",
                f"{who} also goes out: nothing is transferred",
                tuple(pair),
                notes,
            )
        self._enter_final(s, p, face_down=bool(a.face_down))
        draw = "must draw from the stock" if s.face_down else "draws normally"
        return _Outcome(
            "go_out",
            pts,
            "U8.1",
            f"{who} goes out; {self.players[1 - p]} {draw} and plays one final turn",
            tuple(pair),
            notes,
        )

    def _out_pair(
        self, s: _State, pair: Sequence[Card], hand: frozenset[Card] | None, head: str
    ) -> tuple[str, ...]:
        """U5.5: the one pair of the going-out turn (``loose_pair``: any two cards, A-U5)."""
        if not pair:
            return ()
        classify_pair(pair, self.rules)
        self._fresh(s, pair, head)
        self._in_hand(hand, pair, head)
        notes = self._u7(hand, pair, head)
        self._melds_next(s, pair, head)
        return notes

    def _out_discard(
        self,
        s: _State,
        discard: Card,
        pair: Sequence[Card],
        hand: frozenset[Card] | None,
        head: str,
    ) -> tuple[str, ...]:
        """U8.1: the one card a player going out may discard (face up or down)."""
        if discard in pair:
            raise IllegalActionError(
                f"{head}: {discard} cannot be melded and discarded", rule="U8.1"
            )
        self._fresh(s, [discard], head)
        self._in_hand(hand, [discard], head)
        s.pending = s.pending - set(pair)
        self._discard_checks(s, discard, head)
        known = hand if hand is not None else frozenset({discard, *pair})
        if self.rules.compulsory_melding:
            compulsory_discard(discard, known, self._accepted(s), self.rules, head)
        return ()

    def _enter_final(self, s: _State, p: int, *, face_down: bool) -> None:
        """U8.2-U8.3: the opponent's one final turn begins."""
        s.phase = Phase.FINAL
        s.went_out = p
        s.face_down = face_down
        s.turn = 1 - p
        s.turn_open = True
        s.turn_acted = False
        s.turn_no += 1
        s.drew = False
        s.taken = frozenset()
        s.pending = frozenset()
        s.pending_order = ()
        s.final_discarded = False
        s.final_card = None
        s.d1 = None

    def _leftovers(self, s: _State, p: int, a: Leftovers, hand: frozenset[Card] | None) -> _Outcome:
        cards = parse_cards(a.cards)
        who = self.players[p]
        head = f"{who}'s leftovers {_q(cards)}"
        if s.phase is not Phase.FINAL or s.went_out is None:
            raise IllegalActionError(
                f"{head}: leftovers move only after someone went out", rule="U8.4"
            )
        if p == s.went_out:
            raise IllegalActionError(
                f"{head}: {who} went out; the leftovers are the other player's", rule="U8.4"
            )
        if s.pending:
            self._close_turn(s)
        self._fresh(s, cards, head)
        if s.final_card is not None and s.final_card in cards:
            raise IllegalActionError(
                f"{head}: {s.final_card} was the final discard, not a leftover", rule="U8.4"
            )
        if hand is not None and frozenset(cards) != hand:
            raise IllegalActionError(f"{head}: the hand entered is {_q(sorted(hand))}", rule="U8.4")
        if self.rules.compulsory_melding:
            play = playable(cards, self._accepted(s))
            if play is not None:
                raise IllegalActionError(
                    f"{head}: {play_words(*play)} in the final turn; melding is compulsory",
                    rule="A-U8",
                )
        out = s.went_out
        for c in cards:
            self._place(s, out, TableMeld(MeldKind.LEFTOVER, (c,), p))
        pts = sum(card_points(c) for c in cards)
        self._end_hand(s, "out", both_out=False)
        return _Outcome(
            "leftovers",
            pts,
            "U8.4",
            f"{_count(len(cards), 'leftover card')} to {self.players[out]}'s side as "
            f"singles: {Units.POINTS.of(pts)}",
            tuple(cards),
        )

    def _empty_stock(self, s: _State) -> _Outcome:
        if self.rules.empty_stock_reshuffle:
            title = self.rules.title_of("empty_stock_reshuffle")
            raise IllegalActionError(
                f'Ending the hand on an empty stock: with "{title}" the discard pile refills '
                "the stock",
                rule="U4.6",
            )
        if s.phase is not Phase.PLAY:
            raise IllegalActionError(
                "Ending the hand on an empty stock: someone went out; finish with the final turn",
                rule="U4.6",
            )
        notes: tuple[str, ...] = ()
        if s.stock_left:
            notes = (
                f"only {STOCK_AFTER_DEAL - s.stock_left} stock draws were recorded this hand; "
                "the app cannot confirm the stock is empty",
            )
        self._close_turn(s)
        self._end_hand(s, "empty_stock", both_out=False)
        return _Outcome(
            "end_hand_empty_stock",
            0,
            "U4.6",
            "the stock is empty: each side scores itself",
            notes=notes,
        )

    def _hand_model(self, h: HandResult) -> UmtaliHand:
        """The typed, named view of a finished hand, with its ledger."""
        players = self.players
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
            outcome=self._outcome_words(h),
            actions=(h.first_action, h.last_action),
        )

    def _outcome_words(self, h: HandResult) -> Said:
        if h.went_out is None:
            return Said(
                text="The stock ran out: each side scores itself; cards in hand score nothing.",
                rule="U4.6",
            )
        out, other = self.players[h.went_out], self.players[1 - h.went_out]
        if h.both_out:
            return Said(
                text=f"{out} went out, then {other} went out too: nothing moved.", rule="U8.5"
            )
        return Said(
            text=f"{out} went out; {other}'s leftovers moved to {out}'s side as singles.",
            rule="U8.4",
        )

    def _end_hand(self, s: _State, ended: str, *, both_out: bool) -> None:
        scores = (sum(m.points for m in s.sides[0]), sum(m.points for m in s.sides[1]))
        result = HandResult(
            number=len(s.hands) + 1,
            dealer=s.dealer if s.dealer is not None else 0,
            scores=scores,
            went_out=s.went_out,
            both_out=both_out,
            ended=ended,
            sides=s.sides,
            first_action=s.hand_start,
            last_action=len(self._actions),
        )
        s.hands = (*s.hands, result)
        model = self._hand_model(result)
        s.hand_models = (*s.hand_models, model)
        s.ledger = (*s.ledger, *model.ledger)
        sums = dict(s.totals) if s.totals else dict.fromkeys(self.players, 0)
        for entry in model.ledger:
            sums[entry.player] += entry.amount
        s.totals = tuple(sums.items())
        n = len(s.hands)
        totals = [sum(h.scores[i] for h in s.hands) for i in (0, 1)]
        tied = totals[0] == totals[1]
        more = n < HANDS_PER_GAME or (n == HANDS_PER_GAME and tied and self.rules.fifth_hand_on_tie)
        s.phase = Phase.IDLE if more else Phase.OVER
        s.turn = None
        s.turn_open = False
        s.pending = frozenset()
        s.pending_order = ()
        s.taken = frozenset()
