"""The Rummy table: a stack of recorded actions, refereed one by one, and the hands they scored.

:class:`RummyGame` implements :class:`rulesets.protocol.Game`: ``verify`` /
``can`` / ``push`` / ``pop`` / ``judge`` / ``summary``.  Each ``push`` keeps a
snapshot of the state before it (:func:`rulesets.snapshot.capture`), so
``pop`` is its exact inverse without a replay.  An action is built from its
model (``Meld(player=..., cards=...)``); there is no second API.

>>> from rulesets.rummy.actions import HandEnd, LayOff, Meld, StartHand
>>> g = RummyGame(["Ann", "Bob", "Cy"])
>>> _ = g.push(StartHand(dealer="Ann"))
>>> _ = g.push(Meld(player="Bob", cards=("7H", "8H", "9H")))
>>> g.table[0].kind
'run'
>>> [g.can(LayOff(player="Cy", cards=(card,), meld=0)) for card in ("10H", "QH")]
[True, False]
>>> _ = g.push(HandEnd(went_out="Bob", remaining={"Ann": ("KS", "7D", "AC")}, typed={"Cy": 12}))
>>> g.results[-1].scores
{'Ann': 18, 'Bob': 0, 'Cy': 12}
>>> g.totals, g.dealer
({'Ann': 18, 'Bob': 0, 'Cy': 12}, 'Bob')
>>> _ = g.pop()
>>> g.totals, g.summary().phase
({'Ann': 0, 'Bob': 0, 'Cy': 0}, <Phase.PLAY: 'play'>)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesets import seats
from rulesets.cards import Card, format_cards, parse_cards
from rulesets.errors import IllegalActionError, RecordError, RulesetError
from rulesets.protocol import Action, GameRecord, HouseRulesBase, LedgerEntry, Units, Verdict
from rulesets.rummy.actions import (
    Discard,
    Draw,
    HandEnd,
    LayOff,
    Meld,
    RummyAction,
    StartHand,
    SwapJoker,
    parse_action,
)
from rulesets.rummy.melds import (
    JOKERS_IN_PACK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MeldShape,
    RummyRules,
    analyse_meld,
    card_of,
    cards_of,
    coerce_rules,
    deal_size,
    extend_meld,
    hand_value,
    house_rule,
    layoff_reason,
    meld_reason,
)
from rulesets.rummy.summary import (
    Phase,
    RummyDetail,
    RummyHand,
    RummyMeld,
    RummyPlay,
    RummySummary,
    hand_ledger,
)
from rulesets.snapshot import capture
from rulesets.words import quote_cards as quote

__all__ = ["RummyGame", "TableMeld", "higher_is_better", "scoring", "units"]

ActionIn = Action | dict[str, Any]
HandIn = Sequence[Card | str] | str | None


def scoring(rules: RummyRules) -> str:
    """How hands are scored: ``"cash"`` (A-R13), ``"winner_takes_all"`` or ``"penalty"``."""
    if rules.cash:
        return "cash"
    return "winner_takes_all" if rules.winner_takes_all else "penalty"


def higher_is_better(rules: RummyRules) -> bool:
    """Penalty points: lower is better (R6.3); points won or cash balances: higher (A-R16)."""
    return scoring(rules) != "penalty"


def units(rules: RummyRules) -> Units:
    return Units.PENALTY if scoring(rules) == "penalty" else Units.POINTS


# --------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its number, owner and shape (frozen record)."""

    index: int
    owner: str
    shape: MeldShape

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.shape.cards

    @property
    def kind(self) -> str:
        return self.shape.kind

    def to_model(self) -> RummyMeld:
        return RummyMeld(
            index=self.index,
            owner=self.owner,
            kind=self.shape.kind,
            cards=tuple(str(c) for c in self.shape.cards),
            jokers=self.shape.stands_for(),
        )

    def to_json(self) -> dict[str, Any]:
        return self.to_model().to_json()


@dataclass(slots=True)
class _Hand:
    """The hand in play (mutable; every push works on a :func:`capture` of the state)."""

    number: int
    dealer: str
    turns: bool
    melds: list[TableMeld] = field(default_factory=list)
    placed: dict[str, int] = field(default_factory=dict)  # cards put on the table
    spent: dict[str, int] = field(default_factory=dict)  # cards gone from a hand for good
    melded: set[str] = field(default_factory=set)  # players with a meld of their own
    earlier: set[str] = field(default_factory=set)  # placed cards before someone else did
    seen: set[Card] = field(default_factory=set)  # natural cards on the table
    jokers_out: int = 0
    # turn tracking (turns=True only)
    counts: dict[str, int] = field(default_factory=dict)
    turn: str | None = None
    drawn: bool = False
    drawn_discard: Card | None = None
    melds_this_turn: int = 0
    placed_before_turn: bool = False
    stock: int = 0
    stock_known: list[Card | None] = field(default_factory=list)  # no_shuffle: top first
    pile: list[Card | None] = field(default_factory=list)  # bottom first; None = not named
    held: set[Card] = field(default_factory=set)  # named cards drawn into a hand
    reshuffles: int = 0
    out: str | None = None  # who emptied their hand
    rummy: bool = False

    @property
    def top(self) -> Card | None:
        return self.pile[-1] if self.pile else None


@dataclass(slots=True)
class _State:
    hand: _Hand | None
    results: tuple[RummyHand, ...]
    totals: dict[str, int]
    next_dealer: str | None
    ledger: tuple[LedgerEntry, ...] = ()  # every hand's entries, in order (kept, not rebuilt)
    penalties: dict[str, int] = field(default_factory=dict)  # penalties summed per player


@dataclass(frozen=True, slots=True)
class _Loss:
    """What one loser's hand-end entry comes to."""

    penalty: int
    cards: tuple[str, ...] | None  # None: typed


#: actions in the words of a refusal.
_WORDS = {
    "draw": "draw",
    "meld": "meld",
    "lay_off": "lay-off",
    "swap_joker": "joker swap",
    "discard": "discard",
}


def _refuse(message: str, rule: str) -> IllegalActionError:
    return IllegalActionError(message, rule=rule)


def _entered(hand: HandIn) -> tuple[Card, ...] | None:
    if hand is None:
        return None
    return parse_cards(hand if isinstance(hand, str) else list(hand))


# --------------------------------------------------------------------------- the game


class RummyGame:
    """A game of Rummy as a stack of actions; the referee of one table (see the module doc)."""

    def __init__(
        self,
        players: Sequence[str],
        rules: HouseRulesBase | dict[str, Any] | None = None,
        actions: Iterable[ActionIn] = (),
    ) -> None:
        names = tuple(str(p) for p in players)
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise _refuse(
                f"{', '.join(names) or 'no players'}: Rummy is for 2 to 6 players", "R1.1"
            )
        if len(set(names)) != len(names) or any(not n.strip() for n in names):
            raise RecordError(f"{', '.join(names)}: player names must be distinct and non-empty")
        self._players = names
        self._rules = coerce_rules(rules)
        self._state = _State(None, (), dict.fromkeys(names, 0), None, (), dict.fromkeys(names, 0))
        self._stack: list[_State] = []
        self._actions: list[RummyAction] = []
        for a in actions:
            self.push(a)

    # ---- the protocol -------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def rules(self) -> RummyRules:
        return self._rules

    @property
    def actions(self) -> tuple[RummyAction, ...]:
        return tuple(self._actions)

    @classmethod
    def from_record(cls, record: GameRecord) -> RummyGame:
        """Rebuild a game by replaying a record (a :class:`RulesetError` if it won't)."""
        if record.game.strip().lower() not in ("rummy", "rum", "basic-rummy"):
            raise RecordError(f"{record.game!r}: not a Rummy record")
        return cls(record.players, record.rules, record.actions)

    def to_record(self) -> GameRecord:
        return GameRecord(
            game="rummy",
            players=list(self._players),
            rules=self._rules.changed(),
            actions=[a.to_json() for a in self._actions],
        )

    def verify(self, action: ActionIn, *, hand: HandIn = None) -> None:
        """Raise (the :class:`RulesetError` family) if ``action`` is illegal now; no change.

        ``hand`` is the acting player's hand as entered at the table: the cards
        they put down or discard must be in it, and with "Discard to go out"
        they may not put all of it down.
        """
        self._run(capture(self._state), parse_action(action), _entered(hand))

    def can(self, action: ActionIn, *, hand: HandIn = None) -> bool:
        try:
            self.verify(action, hand=hand)
        except RulesetError:
            return False
        return True

    def push(self, action: ActionIn, *, hand: HandIn = None) -> RummyAction:
        """Verify ``action``, then apply it; returns the parsed action."""
        act = parse_action(action)
        state = capture(self._state)
        self._run(state, act, _entered(hand))
        self._stack.append(self._state)
        self._state = state
        self._actions.append(act)
        return act

    def pop(self) -> RummyAction:
        """Undo the last action: the state before it comes back exactly."""
        if not self._actions:
            raise RecordError("nothing to undo: the game has no actions")
        self._state = self._stack.pop()
        return self._actions.pop()

    def judge(self, action: ActionIn, *, hand: HandIn = None) -> Verdict:
        """A :class:`Verdict` on ``action`` now; never raises for the error family.

        >>> g = RummyGame(["Ann", "Bob"], {"jokers": True})
        >>> _ = g.push({"type": "start_hand", "dealer": "Ann"})
        >>> v = g.judge({"type": "meld", "player": "Bob", "cards": ["5S", "6S", "JK"]})
        >>> v.legal, v.kind, v.notes
        (True, 'run', ('JK=7S',))
        >>> g.judge({"type": "lay_off", "player": "Ann", "cards": ["9S"], "meld": 0}).rule
        'R3.3'
        >>> g.judge({"type": "meld", "player": "Bob", "cards": ["5X"]}).legal
        False
        """
        return self._judge_on(self._state, action, hand)

    def _judge_on(self, st: _State, action: ActionIn, hand: HandIn) -> Verdict:
        try:
            act = parse_action(action)
            out = self._run(capture(st), act, _entered(hand))
        except RulesetError as exc:
            texts = action.get("cards") if isinstance(action, dict) else None
            cards = tuple(str(c) for c in texts) if isinstance(texts, list | tuple) else ()
            return Verdict(legal=False, rule=exc.rule or "R3", reason=exc.reason, cards=cards)
        return self._verdict(st, act, out)

    def summary(self) -> RummySummary:
        return self._summary_of(self._state)

    # ---- reading ------------------------------------------------------------------

    @property
    def _hand(self) -> _Hand | None:
        return self._state.hand

    @property
    def table(self) -> tuple[TableMeld, ...]:
        hand = self._state.hand
        return tuple(hand.melds) if hand else ()

    @property
    def in_hand(self) -> bool:
        return self._state.hand is not None

    @property
    def hand_number(self) -> int:
        return len(self._state.results) + (1 if self._state.hand else 0)

    @property
    def totals(self) -> dict[str, int]:
        return dict(self._state.totals)

    @property
    def results(self) -> tuple[RummyHand, ...]:
        return self._state.results

    @property
    def turn(self) -> str | None:
        """Whose turn it is (only known when turns are logged)."""
        hand = self._state.hand
        return hand.turn if hand and hand.turns else None

    @property
    def dealer(self) -> str | None:
        """Dealer of the current hand, or of the next one between hands."""
        return self._state.hand.dealer if self._state.hand else self._state.next_dealer

    @property
    def finished(self) -> bool:
        return self._finished(self._state)

    @property
    def winners(self) -> list[str]:
        return list(self._winners(self._state))

    # ---- dispatch -----------------------------------------------------------------

    def _run(self, st: _State, act: RummyAction, entered: tuple[Card, ...] | None) -> Any:
        """Apply ``act`` to ``st`` (a capture): the rules, one handler per action."""
        if isinstance(act, StartHand | HandEnd):
            return self._start(st, act) if isinstance(act, StartHand) else self._end(st, act)
        hand = self._need_hand(st, _WORDS[act.type])
        player = self._player(act.player)
        if hand.out is not None:
            raise _refuse(
                f"{_WORDS[act.type]} by {player}: {hand.out} went out, the hand is over", "R4.1"
            )
        if not isinstance(act, Draw):
            self._check_turn(hand, player, _WORDS[act.type])
        match act:
            case Draw():
                return self._draw(hand, player, act, entered)
            case Meld():
                return self._meld(hand, player, act, entered)
            case LayOff():
                return self._layoff(hand, player, act, entered)
            case SwapJoker():
                return self._swap(hand, player, act, entered)
            case Discard():
                return self._discard(hand, player, act, entered)

    def _player(self, name: str) -> str:
        if name not in self._players:
            raise RecordError(f"{name!r}: not a player in this game ({', '.join(self._players)})")
        return name

    def _need_hand(self, st: _State, what: str) -> _Hand:
        if st.hand is None:
            if self._finished(st):
                raise _refuse(f"{what}: the game is over", "R6.3")
            raise _refuse(f"{what}: no hand is in progress (start a hand first)", "R1.3")
        return st.hand

    def _left_of(self, name: str) -> str:
        return seats.left_of(self._players, name)

    # ---- start --------------------------------------------------------------------

    def _start(self, st: _State, act: StartHand) -> StartHand:
        if st.hand is not None:
            raise _refuse(f"new hand: hand {st.hand.number} has not ended", "R4.1")
        if self._finished(st):
            raise _refuse("new hand: the game is over", "R6.3")
        expected = st.next_dealer
        dealer = act.dealer if act.dealer is not None else expected
        if dealer is None:
            raise _refuse("new hand: name the first dealer (chosen at random at the table)", "R1.2")
        self._player(dealer)
        if expected is not None and dealer != expected:
            how = "the winner deals" if self._rules.winner_deals else "the deal passes clockwise"
            raise _refuse(
                f"new hand dealt by {dealer}: {expected} deals hand {len(st.results) + 1} ({how})",
                "R1.2",
            )
        n = len(self._players)
        size = deal_size(n)
        hand = _Hand(number=len(st.results) + 1, dealer=dealer, turns=act.turns)
        hand.placed = dict.fromkeys(self._players, 0)
        hand.spent = dict.fromkeys(self._players, 0)
        upcard = card_of(act.upcard, self._rules) if act.upcard is not None else None
        hand.pile = [upcard]
        if act.turns:
            pack = 52 + (JOKERS_IN_PACK if self._rules.jokers else 0)
            hand.counts = dict.fromkeys(self._players, size)
            hand.stock = pack - n * size - 1
            hand.turn = self._left_of(dealer)
        st.hand = hand
        return act.model_copy(update={"dealer": dealer})

    # ---- turns --------------------------------------------------------------------

    def _check_turn(self, hand: _Hand, player: str, what: str) -> None:
        if not hand.turns:
            return
        if player != hand.turn:
            raise _refuse(f"{what} by {player}: it is {hand.turn}'s turn", "R1.4")
        if not hand.drawn:
            raise _refuse(f"{what} by {player}: draw a card first", "R3.1")

    def _draw(self, hand: _Hand, player: str, act: Draw, entered: tuple[Card, ...] | None) -> Draw:
        card = card_of(act.card, self._rules) if act.card is not None else None
        if card is not None and entered is not None and card in entered and not card.is_joker:
            raise _refuse(f'draw "{card}" by {player}: {card} is already in your hand', "R1.1")
        if not hand.turns:
            return act  # draws are only refereed when turns are logged
        if player != hand.turn:
            raise _refuse(f"draw by {player}: it is {hand.turn}'s turn", "R1.4")
        if hand.drawn:
            raise _refuse(f"draw by {player}: one draw per turn", "R3.1")
        if act.source == "discard":
            self._draw_discard(hand, player, card)
        else:
            self._draw_stock(hand, player, card)
        hand.drawn = True
        hand.counts[player] += 1
        hand.melds_this_turn = 0
        hand.placed_before_turn = hand.placed[player] > 0
        return act

    def _draw_discard(self, hand: _Hand, player: str, card: Card | None) -> None:
        if not hand.pile:
            raise _refuse(f"draw by {player}: the discard pile is empty", "R3.1")
        top = hand.top
        if card is not None and top is not None and card != top:
            raise _refuse(
                f'draw "{card}" by {player}: the top of the discard pile is {top}', "R3.1"
            )
        taken = card if card is not None else top
        hand.pile.pop()
        hand.drawn_discard = taken
        if taken is not None and not taken.is_joker:
            hand.held.add(taken)

    def _stock_refusal(self, hand: _Hand, player: str) -> IllegalActionError | None:
        """Why the stock cannot be drawn from now (when it is empty), or None."""
        if hand.stock > 0:
            return None
        r = self._rules
        if r.block_rummy:
            return _refuse(
                f"draw by {player}: the stock is empty; with {house_rule('block_rummy')} the"
                " hand ends and everyone scores",
                "R5.2",
            )
        if r.max_reshuffles is not None and hand.reshuffles >= r.max_reshuffles:
            return _refuse(
                f"draw by {player}: the stock is empty and the pile was reused"
                f" {hand.reshuffles} time(s) ({house_rule('max_reshuffles')}:"
                f" {r.max_reshuffles}); the hand ends",
                "R5.2",
            )
        if len(hand.pile) < (1 if r.no_shuffle else 2):
            return _refuse(
                f"draw by {player}: stock and pile are both empty; the hand ends", "R5.1"
            )
        return None

    def _turn_over(self, hand: _Hand) -> None:
        """The empty stock is replaced by the discard pile (R5.1, A-R15)."""
        if self._rules.no_shuffle:
            # A-R15: turned face down as it lies: the bottom card is the new top of the stock
            hand.stock_known = list(hand.pile)
            hand.stock = len(hand.pile)
            hand.pile = []
        else:
            # R5.1: shuffled; its top card starts a new pile (which card, nobody has said)
            hand.stock = len(hand.pile) - 1
            hand.stock_known = []
            hand.pile = [None]
        hand.reshuffles += 1

    def _draw_stock(self, hand: _Hand, player: str, card: Card | None) -> None:
        refusal = self._stock_refusal(hand, player)
        if refusal is not None:
            raise refusal
        if hand.stock == 0:
            self._turn_over(hand)
        self._check_stock_card(hand, player, card)
        hand.stock -= 1
        known = hand.stock_known.pop(0) if hand.stock_known else None
        taken = card if card is not None else known
        if taken is not None and not taken.is_joker:
            hand.held.add(taken)
        hand.drawn_discard = None

    def _check_stock_card(self, hand: _Hand, player: str, card: Card | None) -> None:
        """A-R15: a stock draw may not name a card the table knows is elsewhere."""
        if card is None or card.is_joker:
            return
        what = f'draw "{card}" from the stock by {player}'
        expected = hand.stock_known[0] if hand.stock_known else None
        if expected is not None and card != expected:
            raise _refuse(
                f"{what}: the pile was turned over as it lay ({house_rule('no_shuffle')}),"
                f" so the next card of the stock is {expected}",
                "A-R15",
            )
        if card in hand.pile:
            where = "is face up on the discard pile"
        elif card in hand.seen:
            where = "is on the table"
        elif card in hand.held:
            where = "was drawn earlier in this hand"
        else:
            return
        raise _refuse(f"{what}: {card} {where}, so it is not in the stock", "A-R15")

    def _going_out_check(
        self, hand: _Hand, player: str, n: int, what: str, entered: tuple[Card, ...] | None
    ) -> None:
        if hand.turns:
            held: int | None = hand.counts[player]
        else:
            held = len(entered) if entered is not None else None
        if held is None:
            return
        left = held - n
        if left < 0:
            raise _refuse(f"{what}: {player} holds only {held} card(s)", "R3.3")
        if left == 0 and self._rules.must_discard_to_go_out:
            raise _refuse(
                f"{what}: the last card must be discarded ({house_rule('must_discard_to_go_out')})",
                "R7",
            )

    @staticmethod
    def _check_holds(
        entered: tuple[Card, ...] | None, cards: Sequence[Card], what: str, rule: str
    ) -> None:
        if entered is None:
            return
        missing = Counter(cards) - Counter(entered)
        if missing:
            card = next(iter(missing))
            raise _refuse(
                f'{what}: {card} is not in the hand entered ("{format_cards(entered)}")', rule
            )

    def _place(self, hand: _Hand, player: str, cards: Sequence[Card], *, spent: bool) -> None:
        for c in cards:
            if c.is_joker:
                hand.jokers_out += 1
            else:
                hand.seen.add(c)
                hand.held.discard(c)
        if hand.jokers_out > JOKERS_IN_PACK:
            raise _refuse(f"{format_cards(cards)}: the pack has only {JOKERS_IN_PACK} jokers", "R7")
        # in the order of the log, whoever put cards down before this player did so on an
        # earlier turn (the hand ends the moment someone goes out, R4.1)
        hand.earlier |= {q for q, n in hand.placed.items() if n and q != player}
        hand.placed[player] += len(cards)
        if not spent:
            return
        hand.spent[player] += len(cards)
        if hand.turns:
            hand.counts[player] -= len(cards)
            if hand.counts[player] == 0:
                self._went_out(hand, player)

    @staticmethod
    def _went_out(hand: _Hand, player: str) -> None:
        hand.out = player
        hand.rummy = not hand.placed_before_turn

    @staticmethod
    def _check_fresh(hand: _Hand, cards: Sequence[Card], what: str) -> None:
        again = [c for c in cards if not c.is_joker and c in hand.seen]
        if again:
            raise _refuse(f"{what}: {again[0]} is already on the table", "R2.3")

    def _meld(
        self, hand: _Hand, player: str, act: Meld, entered: tuple[Card, ...] | None
    ) -> TableMeld:
        cards = cards_of(act.cards, self._rules)
        what = f"meld {quote(cards)} by {player}"
        shape = analyse_meld(cards, self._rules, kind=act.kind)
        self._check_fresh(hand, cards, what)
        self._check_holds(entered, cards, what, "R3.2")
        if hand.turns and hand.melds_this_turn >= 1 and not self._rules.multi_meld:
            raise _refuse(
                f"{what}: one meld per turn ({house_rule('multi_meld')} allows more)", "R3.2"
            )
        self._going_out_check(hand, player, len(cards), what, entered)
        meld = TableMeld(len(hand.melds), player, shape)
        hand.melds.append(meld)
        hand.melds_this_turn += 1
        hand.melded.add(player)
        self._place(hand, player, cards, spent=True)
        return meld

    def _target(self, hand: _Hand, index: int, what: str) -> TableMeld:
        if not 0 <= index < len(hand.melds):
            raise _refuse(
                f"{what}: there is no meld {index + 1} on the table ({len(hand.melds)} melds)",
                "R3.3",
            )
        return hand.melds[index]

    def _layoff(
        self, hand: _Hand, player: str, act: LayOff, entered: tuple[Card, ...] | None
    ) -> TableMeld:
        cards = cards_of(act.cards, self._rules)
        what = f"lay off {quote(cards)} by {player}"
        target = self._target(hand, act.meld, what)
        if self._rules.meld_before_layoff and player not in hand.melded:
            raise _refuse(
                f"{what}: put down a meld of your own first ({house_rule('meld_before_layoff')})",
                "R7",
            )
        self._check_fresh(hand, cards, what)
        self._check_holds(entered, cards, what, "R3.3")
        shape = extend_meld(target.shape, cards, self._rules)
        self._going_out_check(hand, player, len(cards), what, entered)
        new = TableMeld(target.index, target.owner, shape)
        hand.melds[target.index] = new
        self._place(hand, player, cards, spent=True)
        return new

    def _swap(
        self, hand: _Hand, player: str, act: SwapJoker, entered: tuple[Card, ...] | None
    ) -> TableMeld:
        card = card_of(act.card, self._rules)
        what = f'swap "{card}" for a joker by {player}'
        if not self._rules.joker_swap:
            raise _refuse(f"{what}: jokers stay put ({house_rule('joker_swap')} allows it)", "R7")
        target = self._target(hand, act.meld, what)
        self._check_fresh(hand, [card], what)
        self._check_holds(entered, [card], what, "R7")
        shape = target.shape
        index = _joker_for(shape, card)
        if index is None:
            raise _refuse(
                f'{what}: no joker in "{format_cards(shape.cards)}" stands for {card}', "R7"
            )
        new = TableMeld(target.index, target.owner, shape.with_card(index, card))
        hand.melds[target.index] = new
        # the card goes down and the joker comes back: the hand keeps its size
        self._place(hand, player, [card], spent=False)
        hand.jokers_out -= 1
        return new

    def _discard(
        self, hand: _Hand, player: str, act: Discard, entered: tuple[Card, ...] | None
    ) -> Discard:
        card = card_of(act.card, self._rules) if act.card is not None else None
        what = f'discard "{card or "?"}" by {player}'
        if card is not None:
            self._check_holds(entered, [card], what, "R3.4")
        if not hand.turns:
            return act
        if card is not None and hand.drawn_discard is not None and card == hand.drawn_discard:
            raise _refuse(
                f"{what}: you may not discard the card taken from the discard pile this turn",
                "R3.4",
            )
        if card is not None and not card.is_joker and card in hand.seen:
            raise _refuse(f"{what}: {card} is on the table", "R2.3")
        hand.counts[player] -= 1
        hand.pile.append(card)
        if card is not None:
            hand.held.discard(card)
        if hand.counts[player] == 0:
            self._went_out(hand, player)
        else:
            hand.turn = self._left_of(player)
            hand.drawn = False
            hand.drawn_discard = None
            hand.melds_this_turn = 0
        return act

    # ---- the end of a hand ----------------------------------------------------------

    def _stock_dead(self, hand: _Hand) -> bool:
        return hand.stock == 0 and self._stock_refusal(hand, "?") is not None

    def _may_end_without_winner(self, hand: _Hand) -> bool:
        r = self._rules
        allowed = r.block_rummy or r.max_reshuffles is not None
        return allowed and (not hand.turns or self._stock_dead(hand))

    def _check_no_winner(self, hand: _Hand, act: HandEnd) -> None:
        what = "hand end"
        r = self._rules
        if not (r.block_rummy or r.max_reshuffles is not None):
            raise _refuse(
                f"{what}: nobody went out, but the stock is reshuffled (R5.1); only"
                f" {house_rule('block_rummy')} or {house_rule('max_reshuffles')} end a hand"
                " without a winner",
                "R5.2",
            )
        if act.going_rummy:
            raise _refuse(f"{what}: nobody went out, so nobody went rummy", "R4.2")
        if hand.turns and not self._stock_dead(hand):
            raise _refuse(
                f"{what}: nobody went out, but the stock can still be drawn from"
                f" ({hand.stock} left, pile {len(hand.pile)})",
                "R5.2",
            )

    def _check_winner(self, hand: _Hand, act: HandEnd, winner: str) -> None:
        what = "hand end"
        if hand.out is not None and hand.out != winner:
            raise _refuse(f"{what}: {hand.out} emptied their hand, not {winner}", "R4.1")
        if winner in act.remaining or winner in act.typed:
            raise _refuse(f"{what}: {winner} went out and holds no cards", "R6.2")
        if hand.turns and hand.out is None:
            raise _refuse(f"{what}: {winner} still holds {hand.counts[winner]} card(s)", "R4.1")

    def _going_rummy(self, hand: _Hand, act: HandEnd, winner: str) -> bool:
        """Whether the winner went rummy (R4.2, A-R5): nothing placed on an earlier turn."""
        what = "hand end"
        if hand.turns:
            if act.going_rummy and not hand.rummy:
                raise _refuse(
                    f"{what}: {winner} placed cards before the last turn, so this is"
                    " not going rummy",
                    "R4.2",
                )
            return hand.rummy if act.going_rummy is None else act.going_rummy
        if act.going_rummy and winner in hand.earlier:
            raise _refuse(
                f"{what}: {winner} put cards down on an earlier turn (someone else put cards"
                " down after them), so this is not going rummy",
                "R4.2",
            )
        return bool(act.going_rummy)

    def _most_held(self, hand: _Hand, player: str) -> int:
        """A-R14: the most cards ``player`` can hold at a hand end."""
        return deal_size(len(self._players)) - hand.spent[player]

    def _loss(self, hand: _Hand, act: HandEnd, p: str, seen: set[Card], jokers: list[int]) -> _Loss:
        """One loser's penalty, from a typed total or from the cards shown."""
        what = "hand end"
        if p in act.typed:
            value = act.typed[p]
            if value < 0:
                raise _refuse(
                    f"{what}: a typed total of {value} for {p}: a penalty is a sum of card"
                    " values, never negative",
                    "R6.2",
                )
            return _Loss(value, None)
        texts = act.remaining[p]
        cards = cards_of(texts, self._rules) if texts else ()
        shown = f'"{" ".join(texts)}"'
        most = self._most_held(hand, p)
        if len(cards) > most:
            put = hand.spent[p]
            down = f", less the {put} put down" if put else ""
            raise _refuse(
                f"{what}: {p} cannot hold {len(cards)} cards ({shown}): at most {most}"
                f" ({deal_size(len(self._players))} dealt{down}; every turn draws one and"
                " discards one)",
                "A-R14",
            )
        for c in cards:
            if c.is_joker:
                jokers[0] += 1
                if jokers[0] > JOKERS_IN_PACK:
                    raise _refuse(f"{what}: more than {JOKERS_IN_PACK} jokers in play", "R7")
            elif c in seen:
                raise _refuse(
                    f"{what}: {c} in {p}'s cards {shown} is already on the table, on the"
                    " discard pile or in another hand",
                    "R2.3",
                )
            seen.add(c)
        if hand.turns and len(cards) != hand.counts[p]:
            raise _refuse(
                f"{what}: {p} holds {hand.counts[p]} cards, not {len(cards)} ({shown})", "R6.2"
            )
        return _Loss(hand_value(cards, self._rules), tuple(str(c) for c in cards))

    def _end(self, st: _State, act: HandEnd) -> RummyHand:
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
        st: _State,
        hand: _Hand,
        winner: str | None,
        going_rummy: bool,
        losses: dict[str, _Loss],
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

    # ---- results --------------------------------------------------------------------

    def _finished(self, st: _State) -> bool:
        if st.hand is not None or not st.results:
            return False
        r = self._rules
        if r.fixed_rounds is not None:
            return len(st.results) >= r.fixed_rounds
        return any(t >= r.target for t in st.totals.values())

    def _winners(self, st: _State) -> tuple[str, ...]:
        """Lowest penalty total (R6.3), or highest points / balance (R7, A-R13, A-R16);
        ties share the win (A-R11)."""
        if not self._finished(st):
            return ()
        vals = st.totals.values()
        best = max(vals) if higher_is_better(self._rules) else min(vals)
        return tuple(p for p in self._players if st.totals[p] == best)

    def _phase(self, st: _State) -> Phase:
        hand = st.hand
        if hand is None:
            return Phase.OVER if self._finished(st) else Phase.DEAL
        if hand.out is not None or (hand.turns and self._stock_dead(hand) and not hand.drawn):
            return Phase.SCORING
        return Phase.PLAY

    def _play(self, hand: _Hand) -> RummyPlay:
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
            top=str(hand.top) if hand.top is not None else None,
            held=dict(hand.counts),
            went_out=hand.out,
            deal_size=deal_size(len(players)),
            most_held={p: self._most_held(hand, p) for p in players},
            may_win=may_win,
            may_go_rummy=rummy,
            may_end_without_winner=self._may_end_without_winner(hand),
            unavailable=tuple(str(c) for c in sorted(unavailable)),
        )

    def _detail(self, st: _State) -> RummyDetail:
        r = self._rules
        mode = scoring(r)
        if r.fixed_rounds is not None:
            rule = "A-R13" if r.cash else "A-R16" if r.winner_takes_all else "R7"
        else:
            rule = "R7" if r.winner_takes_all else "R6.3"
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

    def _summary_of(self, st: _State) -> RummySummary:
        r = self._rules
        hand = st.hand
        return RummySummary(
            game="rummy",
            players=self._players,
            phase=self._phase(st),
            finished=self._finished(st),
            winners=self._winners(st),
            totals=dict(st.totals),
            units=units(r),
            higher_is_better=higher_is_better(r),
            dealer=hand.dealer if hand else st.next_dealer,
            turn=hand.turn if hand and hand.turns else None,
            hand=len(st.results) + (1 if hand else 0),
            hands=st.results,
            ledger=st.ledger,
            detail=self._detail(st),
        )

    # ---- verdicts -------------------------------------------------------------------

    def _verdict(self, st: _State, act: RummyAction, out: Any) -> Verdict:
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

    def _meld_verdict(self, st: _State, act: RummyAction, out: TableMeld) -> Verdict:
        notes = out.shape.stands_for()
        if isinstance(act, SwapJoker):
            return Verdict(
                legal=True,
                kind=out.kind,
                rule="R7",
                reason=f'"{act.card}" takes the place of the joker: "{format_cards(out.cards)}"',
                cards=tuple(str(c) for c in out.cards),
                notes=notes,
            )
        cards = cards_of(act.cards, self._rules) if isinstance(act, Meld | LayOff) else ()
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


def _explain(r: RummyRules) -> dict[str, str]:
    out = {"going_rummy": "went out in one turn, having put no card down before in this hand"}
    if r.going_rummy_double:
        switch = house_rule("going_rummy_double")
        out["doubling"] = f"Going rummy doubles this hand's score ({switch})."
    return out


def _joker_for(shape: MeldShape, card: Card) -> int | None:
    """Which joker of ``shape`` stands for ``card`` (R7), if any."""
    for i, c in enumerate(shape.cards):
        if not c.is_joker:
            continue
        if shape.kind == "run" and card == Card(shape.natural_for(i), shape.suit):
            return i
        if (
            shape.kind == "set"
            and card.rank is shape.rank
            and card.suit not in {x.suit for x in shape.cards}
        ):
            return i
    return None


def _end_verdict(hand: RummyHand) -> Verdict:
    parts = ", ".join(f"{p} {v}" for p, v in hand.scores.items())
    who = f"{hand.went_out} went out" if hand.went_out else "nobody went out"
    rummy = (
        " (going rummy, doubled)" if hand.doubled else " (going rummy)" if hand.going_rummy else ""
    )
    return Verdict(
        legal=True,
        kind="hand_end",
        points=sum(hand.penalties.values()),
        rule="R5.2" if hand.block else "R6.2",
        reason=f"hand {hand.number}: {who}{rummy}; this hand scores {parts}",
    )
