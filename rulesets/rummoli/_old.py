"""Rummoli: the referee and chip settler (RULES.md section 3, M1-M7, A-M1..A-M16).

Glossary:

* **pot** -- one of the nine piles of chips on the board (M1.2): ``poker``,
  ``10S``, ``JD``, ``QC``, ``KH``, ``AS``, ``AD+KD``, ``7-8-9`` (``8-9-10`` on
  the regional board) and the centre ``rummoli`` pot.  Pots carry over.
* **ante** -- 1 chip into each of the 9 pots before every deal (M1.3).
* **widow** -- the extra hand dealt face down (M2.1); **dead hand** -- the hand
  given up for the widow (M2.3).
* **pay card** -- 10S JD QC KH AS KD AD, or holding 7-8-9 of one suit (M2.4).
* **lay** -- putting one card face up in the Rummoli (stops) phase (M5);
  a **break** is a lay that does not continue the suit (M5.3, M5.4).
* **stack** -- the chips in front of a player.

How a game is recorded
----------------------
A game is a :class:`~rulesets.protocol.GameRecord` (``game="rummoli"``) whose
``rules`` are a :class:`RummoliRules` dump and whose ``actions`` are the action
models below dumped to JSON (``type`` tells them apart).  Players are named by
seat index (0-based, clockwise).  The **first action is always** ``start``,
which holds the starting stacks and the first dealer.  A round is::

    deal                         antes (M1.3) and deal sizes (M2.1)
    widow?                       dealer swap (M2.2) or auction (M2.3)
    bet* / fold*                 one betting round (M4.2), if the table bets
    poker                        winners, or the hands for the referee to judge
    then EITHER the live log:    lay* (+ claim* when claim=strict), impasse?
    OR the quick settlement:     claim* (who laid each pay card), out | impasse

In the live log the referee follows every card from public information and
ends the round itself when a hand empties.  ``end`` closes the game; then one
``final_poker`` (or one per pot with ``final_poker=per_pot``) settles the board.
Undo is pop-and-replay (:meth:`RummoliGame.pop`).  ``adjust`` (between rounds)
is the only way chips enter or leave: stacks + pots never change otherwise.

What the referee checks in the live log, from public information only: the
first card comes from the poker winner (M5.1); a card continues the suit
(anyone may lay it, M5.2) or breaks it, and a break must be the opposite colour
(M5.3, after an ace M5.4) from the last layer or the next seat clockwise
(M5.5).  A break tells the table things: the missing card is dead (nobody may
lay it later), the seats skipped hold no card of that colour, and the breaking
card was its player's lowest of that colour (A-M13).  Cards shown at poker stay
in their owner's hand and the hand given up for the widow is dead, so a later
lay that contradicts any of this is refused with the rule it breaks.

Payments never exceed a stack (a player short of chips pays what they have,
noted in the statement); ``pass_fine`` is not charged at an impasse, where
M5.7's per-card payment applies instead.

>>> g = RummoliGame(["Ann", "Bob", "Cy"])
>>> g.push(Start(chips=[50, 50, 50]))
Start(type='start', chips=[50, 50, 50], dealer=0)
>>> _ = g.push(Deal())
>>> g.pots["rummoli"], g.stacks
(3, [41, 41, 41])
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from rulesets.cards import DECK, Card, Color, Rank, Suit, format_cards, parse_card, parse_cards
from rulesets.errors import HouseRuleError, IllegalActionError, RecordError, RulesetError
from rulesets.protocol import GameRecord, HouseRulesBase, ScoreReport, Verdict

__all__ = [
    "RULESET",
    "Action",
    "Adjust",
    "Bet",
    "Claim",
    "Deal",
    "End",
    "FinalPoker",
    "Fold",
    "Impasse",
    "Lay",
    "Out",
    "Poker",
    "RummoliGame",
    "RummoliRules",
    "RummoliRuleset",
    "Start",
    "Widow",
    "deal_sizes",
    "pay_cards_in",
    "pot_names",
    "simulate_play",
]

ANTE_POTS = 9
POT_LABELS: dict[str, str] = {
    "poker": "Poker",
    "10S": "10♠",
    "JD": "J♦",
    "QC": "Q♣",
    "KH": "K♥",
    "AS": "A♠",
    "AD+KD": "A♦+K♦",
    "7-8-9": "7-8-9",
    "8-9-10": "8-9-10",
    "rummoli": "Rummoli",
}
SINGLE_POTS: dict[str, Card] = {k: parse_card(k) for k in ("10S", "JD", "QC", "KH", "AS")}
AK_DIAMONDS = (parse_card("AD"), parse_card("KD"))


# --------------------------------------------------------------------------- rules


class RummoliRules(HouseRulesBase):
    """House rules for Rummoli (defaults are RULES.md's)."""

    claim: Literal["auto", "strict"] = "auto"
    pass_fine: bool = False
    poker_betting: Literal["one_round", "showdown"] = "one_round"
    bet_limit: int = Field(default=5, ge=1)
    final_poker: Literal["single", "per_pot"] = "single"
    widow_needs_no_pay_card: bool = True
    board: Literal["seven_eight_nine", "eight_nine_ten"] = "seven_eight_nine"

    EXPLAIN: ClassVar[dict[str, str]] = {
        "claim": "auto: pay-card pots pay at once; strict: claim before the next card (M5.6)",
        "pass_fine": "a player who cannot start after a break pays 1 chip to the centre (M5.5)",
        "poker_betting": "one_round: one betting round with a limit; showdown: no betting (M4.2)",
        "bet_limit": "largest bet or raise in the poker betting round (M4.2)",
        "final_poker": "single: one final poker for all board chips; per_pot: one per pot (M7.2)",
        "widow_needs_no_pay_card": "only a hand without pay cards may take the widow (M2.2-M2.4)",
        "board": "which run pot the board has: 7-8-9 (standard) or 8-9-10 (regional boards)",
    }


def _rules(rules: HouseRulesBase | None) -> RummoliRules:
    if rules is None:
        return RummoliRules()
    if not isinstance(rules, RummoliRules):
        raise HouseRuleError(f"{type(rules).__name__}: not Rummoli house rules")
    return rules


def run_ranks(rules: RummoliRules) -> tuple[Rank, Rank, Rank]:
    """The three ranks of the run pot (7-8-9, or 8-9-10 on the regional board)."""
    if rules.board == "eight_nine_ten":
        return (Rank.EIGHT, Rank.NINE, Rank.TEN)
    return (Rank.SEVEN, Rank.EIGHT, Rank.NINE)


def run_pot(rules: RummoliRules) -> str:
    return "8-9-10" if rules.board == "eight_nine_ten" else "7-8-9"


def pot_names(rules: RummoliRules | None = None) -> tuple[str, ...]:
    """The nine pots in board order (A-M1 adds A♠).

    >>> pot_names()
    ('poker', '10S', 'JD', 'QC', 'KH', 'AS', 'AD+KD', '7-8-9', 'rummoli')
    """
    r = rules or RummoliRules()
    return ("poker", *SINGLE_POTS, "AD+KD", run_pot(r), "rummoli")


def pay_cards_in(cards: Sequence[Card] | str, rules: RummoliRules | None = None) -> list[str]:
    """The pay cards (M2.4, A-M7) found in a hand, as text.

    >>> pay_cards_in("2C 10S 7H 8H 9H KD")
    ['10S', 'KD', '7H 8H 9H']
    >>> pay_cards_in("2C 3C 4D")
    []
    """
    r = rules or RummoliRules()
    hand = set(parse_cards(cards))
    found = [str(c) for c in (*SINGLE_POTS.values(), AK_DIAMONDS[1], AK_DIAMONDS[0]) if c in hand]
    for suit in Suit:
        run = [Card(rank, suit) for rank in run_ranks(r)]
        if all(c in hand for c in run):
            found.append(format_cards(run))
    return found


def deal_sizes(players: int) -> list[int]:
    """Cards per hand in deal order, the widow last (M2.1).

    >>> deal_sizes(4)
    [11, 11, 10, 10, 10]
    >>> deal_sizes(2)
    [18, 17, 17]
    """
    hands = players + 1
    base, extra = divmod(52, hands)
    return [base + (1 if i < extra else 0) for i in range(hands)]


def _next_rank(rank: Rank) -> Rank | None:
    if rank is Rank.ACE:
        return None
    if rank is Rank.KING:
        return Rank.ACE
    return Rank.from_low(rank.low + 1)


# --------------------------------------------------------------------------- actions


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Start(_Action):
    """Starting stacks (one per seat) and the first dealer's seat."""

    type: Literal["start"] = "start"
    chips: list[Annotated[int, Field(ge=0)]]
    dealer: int = 0


class Adjust(_Action):
    """Chips the table adds to (or removes from) a stack between rounds."""

    type: Literal["adjust"] = "adjust"
    player: int
    chips: int
    note: str = ""


class Deal(_Action):
    """A new round: everyone still in antes 9 (M1.3); the cards are dealt (M2.1)."""

    type: Literal["deal"] = "deal"


class Widow(_Action):
    """Who took the widow: the dealer (free swap, M2.2), a bidder (M2.3), or nobody.

    ``hand`` (optional) is the hand given up; when known the referee checks M2.4.
    """

    type: Literal["widow"] = "widow"
    player: int | None = None
    bid: Annotated[int, Field(ge=0)] = 0
    hand: list[str] | None = None


class Bet(_Action):
    """Chips a player puts in the pot being played for (M4.2)."""

    type: Literal["bet"] = "bet"
    player: int
    chips: Annotated[int, Field(ge=1)]


class Fold(_Action):
    type: Literal["fold"] = "fold"
    player: int


class Poker(_Action):
    """The showdown of a round (M4.3): ``winners`` (seats) and/or ``hands``.

    ``hands`` is one entry per seat (``None`` for folded or out players); each
    is five cards or the whole hand (best five, M4.1).  With only ``hands`` the
    referee judges; with both they must agree; with neither only one player
    may be left in.
    """

    type: Literal["poker"] = "poker"
    winners: list[int] | None = None
    hands: list[list[str] | None] | None = None


class FinalPoker(_Action):
    """One final poker (M7.2): all board chips, or the next pot (``per_pot``)."""

    type: Literal["final_poker"] = "final_poker"
    winners: list[int] | None = None
    hands: list[list[str] | None] | None = None


class Lay(_Action):
    """One card laid in the Rummoli phase, and by whom (M5)."""

    type: Literal["lay"] = "lay"
    player: int
    card: str


class Claim(_Action):
    """A pay-card pot won by a player (quick settlement, or claim=strict)."""

    type: Literal["claim"] = "claim"
    player: int
    pot: str


class Out(_Action):
    """Quick settlement: ``player`` went out first; ``held`` = cards per seat (M6.1)."""

    type: Literal["out"] = "out"
    player: int
    held: list[Annotated[int, Field(ge=0)]]


class Impasse(_Action):
    """Nobody can lay the required colour (M5.7); ``held`` needed in quick mode."""

    type: Literal["impasse"] = "impasse"
    held: list[Annotated[int, Field(ge=0)]] | None = None


class End(_Action):
    """The table ends the game (M7.1); the final poker follows (M7.2)."""

    type: Literal["end"] = "end"


Action = Annotated[
    Start
    | Adjust
    | Deal
    | Widow
    | Bet
    | Fold
    | Poker
    | FinalPoker
    | Lay
    | Claim
    | Out
    | Impasse
    | End,
    Field(discriminator="type"),
]
_ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_action(data: Any) -> Action:
    """An action model from a model or its JSON dict (raises :class:`RecordError`)."""
    if isinstance(data, _Action):
        return data  # type: ignore[return-value]
    try:
        return _ACTION_ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "action"
        raise RecordError(f"{data!r}: not a Rummoli action: {where}: {first['msg']}") from None


# --------------------------------------------------------------------------- state


class Entry(NamedTuple):
    """One chip movement line of a statement (``delta`` from the seat's view)."""

    seat: int
    delta: int
    text: str
    rule: str
    detail: str = ""


@dataclass
class RoundLog:
    number: int
    dealer: int
    ledger: list[Entry] = field(default_factory=list)
    poker: dict[str, Any] = field(default_factory=dict)
    won: dict[str, int] = field(default_factory=dict)
    widow: dict[str, Any] = field(default_factory=dict)
    out: int | None = None
    impasse: bool = False
    held: list[int] = field(default_factory=list)
    laid: list[tuple[int, str]] = field(default_factory=list)
    mode: str | None = None
    finished: bool = False
    carried: dict[str, int] = field(default_factory=dict)

    def clone(self) -> RoundLog:
        new = copy.copy(self)
        new.ledger = self.ledger[:]
        new.won = dict(self.won)
        new.held = self.held[:]
        new.laid = self.laid[:]
        return new


@dataclass
class RoundState:
    dealer: int
    counts: list[int]
    widow_count: int
    bets: list[int]
    folded: set[int] = field(default_factory=set)
    starter: int | None = None
    laid: dict[Card, int] = field(default_factory=dict)
    dead: set[Card] = field(default_factory=set)
    void: dict[int, set[Color]] = field(default_factory=dict)
    floor: dict[int, dict[Color, int]] = field(default_factory=dict)
    last: tuple[int, Card] | None = None
    shown: dict[Card, int] = field(default_factory=dict)
    dead_hand: set[Card] = field(default_factory=set)

    def clone(self) -> RoundState:
        new = copy.copy(self)
        new.counts = self.counts[:]
        new.bets = self.bets[:]
        new.folded = set(self.folded)
        new.laid = dict(self.laid)
        new.dead = set(self.dead)
        new.void = {k: set(v) for k, v in self.void.items()}
        new.floor = {k: dict(v) for k, v in self.floor.items()}
        new.shown = dict(self.shown)
        new.dead_hand = set(self.dead_hand)
        return new


@dataclass
class State:
    players: list[str]
    rules: RummoliRules
    phase: str = "setup"
    stacks: list[int] = field(default_factory=list)
    pots: dict[str, int] = field(default_factory=dict)
    pool: int = 0
    in_game: list[bool] = field(default_factory=list)
    dealer: int = 0
    dealt_before: bool = False
    added: int = 0
    round: RoundState | None = None
    rounds: list[RoundLog] = field(default_factory=list)
    pending: list[tuple[int, str]] = field(default_factory=list)
    final_queue: list[str] = field(default_factory=list)
    final_bets: list[int] = field(default_factory=list)
    final_folded: set[int] = field(default_factory=set)
    final_log: list[dict[str, Any]] = field(default_factory=list)
    final_ledger: list[Entry] = field(default_factory=list)
    adjustments: list[dict[str, Any]] = field(default_factory=list)

    def clone(self) -> State:
        new = copy.copy(self)
        new.stacks = self.stacks[:]
        new.pots = dict(self.pots)
        new.in_game = self.in_game[:]
        new.round = None if self.round is None else self.round.clone()
        new.rounds = self.rounds[:-1] + [r.clone() for r in self.rounds[-1:]]
        new.pending = self.pending[:]
        new.final_queue = self.final_queue[:]
        new.final_bets = self.final_bets[:]
        new.final_folded = set(self.final_folded)
        new.final_log = self.final_log[:]
        new.final_ledger = self.final_ledger[:]
        new.adjustments = self.adjustments[:]
        return new


# --------------------------------------------------------------------------- the game


class RummoliGame:
    """A Rummoli game as the table reports it: push actions, pop to undo.

    ``verify(action)`` raises :class:`IllegalActionError` with the rule ID,
    ``can(action)`` answers yes/no, ``push(action)`` applies it and returns the
    frozen action model.  An illegal action leaves the game unchanged.
    """

    def __init__(self, players: Sequence[str], rules: RummoliRules | None = None) -> None:
        names = [str(p).strip() for p in players]
        if not 2 <= len(names) <= 8:
            raise IllegalActionError(
                f"{', '.join(names) or 'no players'}: Rummoli needs 2 to 8 players", rule="M1.1"
            )
        if any(not n for n in names) or len(set(names)) != len(names):
            raise RecordError(f"{', '.join(names)}: player names must be distinct and non-empty")
        self.rules = _rules(rules)
        self._state = State(players=names, rules=self.rules)
        self._actions: list[Action] = []

    # ---- construction from records
    @classmethod
    def from_record(cls, record: GameRecord) -> RummoliGame:
        if record.game.strip().lower() not in ("rummoli", "rumoli"):
            raise RecordError(f"{record.game!r}: not a Rummoli record")
        try:
            rules = RummoliRules.model_validate(record.rules)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise RecordError(f"{record.rules!r}: bad Rummoli rules: {first['msg']}") from None
        try:
            game = cls(record.players, rules)
        except RulesetError as exc:
            raise RecordError(f"{record.players!r}: {exc}") from None
        for i, raw in enumerate(record.actions):
            try:
                game.push(raw)
            except RecordError:
                raise
            except RulesetError as exc:
                raise RecordError(f"action {i + 1} {raw!r}: {exc}") from None
        return game

    def to_record(self) -> GameRecord:
        return GameRecord(
            game="rummoli",
            players=list(self._state.players),
            rules=self.rules.model_dump(mode="json"),
            actions=[a.model_dump(mode="json") for a in self._actions],
        )

    # ---- the triad
    def verify(self, action: Action | dict[str, Any]) -> Action:
        """Raise if ``action`` is illegal now; return it parsed."""
        act = parse_action(action)
        _apply(self._state.clone(), act)
        return act

    def can(self, action: Action | dict[str, Any]) -> bool:
        try:
            self.verify(action)
        except RulesetError:
            return False
        return True

    def push(self, action: Action | dict[str, Any]) -> Action:
        act = parse_action(action)
        new = self._state.clone()
        _apply(new, act)
        self._state = new
        self._actions.append(act)
        return act

    def pop(self) -> Action:
        """Undo the last action (pop and replay)."""
        if not self._actions:
            raise RecordError("nothing to undo")
        last = self._actions[-1]
        state = State(players=list(self._state.players), rules=self.rules)
        for act in self._actions[:-1]:
            _apply(state, act)
        self._state = state
        self._actions.pop()
        return last

    # ---- queries
    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def players(self) -> list[str]:
        return list(self._state.players)

    @property
    def phase(self) -> str:
        """setup, idle (between rounds), widow, poker, play, final or over."""
        return self._state.phase

    @property
    def stacks(self) -> list[int]:
        return list(self._state.stacks)

    @property
    def pots(self) -> dict[str, int]:
        return dict(self._state.pots)

    @property
    def dealer(self) -> int:
        """Seat of the dealer of the current round, or of the next one between rounds."""
        s = self._state
        if s.phase in ("idle", "final", "over") and s.dealt_before:
            return _next_dealer(s)
        return s.dealer

    @property
    def in_game(self) -> list[bool]:
        return list(self._state.in_game)

    @property
    def held(self) -> list[int]:
        """Cards each seat holds in the current round (from deal sizes and lays)."""
        r = self._state.round
        return list(r.counts) if r else [0] * len(self._state.players)

    @property
    def pending_claims(self) -> list[tuple[int, str]]:
        """Pots a player may claim now (claim=strict, M5.6)."""
        return list(self._state.pending)

    @property
    def laid(self) -> list[tuple[int, str]]:
        """The cards laid this round, in order, with the seat that laid each."""
        return list(self._state.rounds[-1].laid) if self._state.rounds else []

    @property
    def chips_total(self) -> int:
        s = self._state
        return sum(s.stacks) + sum(s.pots.values()) + s.pool

    def next_card(self) -> str | None:
        """The card that continues the suit now (M5.2), whoever holds it; ``None``
        after an ace, before the first card, or when that card is already laid."""
        s = self._state
        r = s.round
        if s.phase != "play" or r is None or r.last is None:
            return None
        rank = _next_rank(r.last[1].r)
        if rank is None:
            return None
        card = Card(rank, r.last[1].s)
        return None if card in r.laid or card in r.dead else str(card)

    def expected_layers(self) -> list[int]:
        """Seats that may lay next if the sequence breaks, in the order the turn
        passes (M5.3-M5.5): the last layer first, then clockwise.  Before the first
        card it is the poker winner alone (M5.1)."""
        s = self._state
        if s.phase != "play" or s.round is None:
            return []
        r = s.round
        if r.last is None:
            return [] if r.starter is None else [r.starter]
        return _clockwise_from(s, r.last[0])

    def open_pots(self) -> list[str]:
        """Pay-card pots not yet won this round (what a quick settlement may still enter)."""
        s = self._state
        if s.phase != "play" or not s.rounds:
            return []
        won = s.rounds[-1].won
        return [p for p in pot_names(s.rules) if p not in ("poker", "rummoli") and p not in won]

    def break_colour(self) -> str | None:
        """The colour a breaking card must have (opposite of the last card's, M5.3)."""
        r = self._state.round
        if self._state.phase != "play" or r is None or r.last is None:
            return None
        return str(r.last[1].s.color.opposite)

    def summary(self) -> dict[str, Any]:
        return _summary(self._state, self.dealer)

    # ---- convenience triads for the live log
    def verify_lay(self, player: int, card: str | Card) -> None:
        self.verify(Lay(player=player, card=str(card)))

    def can_lay(self, player: int, card: str | Card) -> bool:
        return self.can(Lay(player=player, card=str(card)))

    def lay(self, player: int, card: str | Card) -> Action:
        return self.push(Lay(player=player, card=str(card)))


# --------------------------------------------------------------------------- apply


def _illegal(msg: str, rule: str) -> IllegalActionError:
    return IllegalActionError(msg, rule=rule)


def _seat(s: State, seat: int, what: str) -> int:
    if not 0 <= seat < len(s.players):
        raise _illegal(
            f"{what}: seat {seat} does not exist (seats 0-{len(s.players) - 1})", rule="M1.1"
        )
    return seat


def _cards(n: int) -> str:
    """``1 card`` / ``3 cards`` for statements."""
    return f"{n} card" if n == 1 else f"{n} cards"


def _name(s: State, seat: int) -> str:
    return s.players[seat]


def _clockwise_from(s: State, seat: int) -> list[int]:
    """In-round seats holding cards, clockwise starting at ``seat`` itself."""
    n = len(s.players)
    r = s.round
    out = []
    for k in range(n):
        q = (seat + k) % n
        if s.in_game[q] and r is not None and r.counts[q] > 0:
            out.append(q)
    return out


def _left_of(s: State, seat: int) -> list[int]:
    """In-game seats clockwise starting at the seat left of ``seat``."""
    n = len(s.players)
    return [(seat + k) % n for k in range(1, n + 1) if s.in_game[(seat + k) % n]]


def _next_dealer(s: State) -> int:
    n = len(s.players)
    for k in range(1, n + 1):
        q = (s.dealer + k) % n
        if s.in_game[q] and s.stacks[q] >= ANTE_POTS:
            return q
    return (s.dealer + 1) % n


def _move_to_pot(
    s: State, log: list[Entry], seat: int, pot: str, n: int, text: str, rule: str, detail: str = ""
) -> int:
    paid = min(n, s.stacks[seat])
    if paid < n:
        detail = (detail + "; " if detail else "") + f"had only {paid}"
    s.stacks[seat] -= paid
    if pot == "final":
        s.pool += paid
    else:
        s.pots[pot] += paid
    if paid or n:
        log.append(Entry(seat, -paid, text, rule, detail))
    return paid


def _pot_to_seat(
    s: State, log: list[Entry], pot: str, seat: int, n: int, text: str, rule: str, detail: str = ""
) -> None:
    if pot == "final":
        s.pool -= n
    else:
        s.pots[pot] -= n
    s.stacks[seat] += n
    log.append(Entry(seat, n, text, rule, detail))


def _apply(s: State, a: Action) -> None:
    if s.phase == "setup" and not isinstance(a, Start):
        raise _illegal(
            f"{a.type}: the game has not started; record the starting chips first", rule="M1.1"
        )
    handler = _HANDLERS[type(a)]
    handler(s, a)
    if not isinstance(a, Claim | Lay):
        # strict claiming: a pot not claimed before the next action is lost (M5.6)
        s.pending.clear()


def _start(s: State, a: Any) -> None:
    if s.phase != "setup":
        raise _illegal("start: the game has already started", rule="M1.1")
    if len(a.chips) != len(s.players):
        raise _illegal(
            f"start {a.chips}: give one starting stack per player ({len(s.players)})", rule="M1.1"
        )
    _seat(s, a.dealer, "start")
    s.stacks = list(a.chips)
    s.pots = dict.fromkeys(pot_names(s.rules), 0)
    s.in_game = [True] * len(s.players)
    s.dealer = a.dealer
    s.added = sum(a.chips)
    s.phase = "idle"


def _adjust(s: State, a: Any) -> None:
    _seat(s, a.player, "adjust")
    if s.phase != "idle":
        raise _illegal("adjust: chips may be added or removed only between rounds", rule="M6.2")
    if s.stacks[a.player] + a.chips < 0:
        raise _illegal(
            f"adjust {a.chips:+d}: {_name(s, a.player)} has only {s.stacks[a.player]} chips",
            rule="M1.1",
        )
    s.stacks[a.player] += a.chips
    s.added += a.chips
    if s.stacks[a.player] >= ANTE_POTS:
        s.in_game[a.player] = True
    s.adjustments.append(
        {
            "after_round": len(s.rounds),
            "player": _name(s, a.player),
            "chips": a.chips,
            "note": a.note,
        }
    )


def _deal(s: State, a: Any) -> None:
    if s.phase != "idle":
        raise _illegal(
            f"deal: not between rounds (the game is in the {s.phase} phase)", rule="M6.2"
        )
    can_ante = [s.in_game[q] and s.stacks[q] >= ANTE_POTS for q in range(len(s.players))]
    if sum(can_ante) < 2:
        raise _illegal(
            "deal: fewer than two players can pay the ante of 9; end the game", rule="M7.1"
        )
    newly_out = [q for q in range(len(s.players)) if s.in_game[q] and not can_ante[q]]
    dealer = _next_dealer(s) if s.dealt_before else s.dealer
    for q in newly_out:
        s.in_game[q] = False
    if not s.in_game[dealer]:
        dealer = _left_of(s, dealer)[0]
    s.dealer = dealer
    s.dealt_before = True
    log = RoundLog(number=len(s.rounds) + 1, dealer=dealer)
    for q in newly_out:
        log.ledger.append(Entry(q, 0, "out of the game: cannot pay the full ante", "M7.1"))
    order = _left_of(s, dealer)
    for q in order:
        for pot in s.pots:
            _move_to_pot(s, log.ledger, q, pot, 1, "ante", "M1.3")
    sizes = deal_sizes(len(order))
    counts = [0] * len(s.players)
    for q, size in zip(order, sizes, strict=False):
        counts[q] = size
    n = len(s.players)
    s.round = RoundState(dealer=dealer, counts=counts, widow_count=sizes[-1], bets=[0] * n)
    s.rounds.append(log)
    s.phase = "widow"


def _check_hand_cards(s: State, seat: int, cards: Sequence[str], what: str) -> tuple[Card, ...]:
    hand = parse_cards(list(cards))
    if any(c.is_joker for c in hand):
        raise _illegal(f'{what} "{format_cards(hand)}": Rummoli has no jokers', rule="M1.1")
    return hand


def _widow(s: State, a: Any) -> None:
    r = s.round
    if s.phase != "widow" or r is None:
        raise _illegal(
            "widow: the widow is settled right after the deal, before poker", rule="M2.3"
        )
    log = s.rounds[-1]
    if a.player is None:
        if a.bid or a.hand:
            raise _illegal("widow: nobody took the widow, so there is no bid or hand", rule="M2.3")
        log.widow = {"taken_by": None}
        s.phase = "poker"
        return
    p = _seat(s, a.player, "widow")
    if not s.in_game[p]:
        raise _illegal(f"widow: {_name(s, p)} is out of the game", rule="M7.1")
    rule = "M2.2" if p == r.dealer else "M2.3"
    if p == r.dealer and a.bid:
        raise _illegal(f"widow bid {a.bid}: the dealer swaps for nothing", rule="M2.2")
    if a.bid > s.stacks[p]:
        raise _illegal(
            f"widow bid {a.bid}: {_name(s, p)} has only {s.stacks[p]} chips", rule="M2.3"
        )
    if a.hand is not None:
        hand = _check_hand_cards(s, p, a.hand, "widow hand")
        if len(hand) != r.counts[p]:
            raise _illegal(
                f'widow hand "{format_cards(hand)}": {_name(s, p)} was dealt {r.counts[p]} cards',
                rule="M2.1",
            )
        found = pay_cards_in(hand, s.rules)
        if found and s.rules.widow_needs_no_pay_card:
            raise _illegal(
                f'widow hand "{format_cards(hand)}": holds pay card(s) {", ".join(found)}, so '
                f"{_name(s, p)} may not take the widow ({rule})",
                rule="M2.4",
            )
    if a.bid:
        s.stacks[p] -= a.bid
        s.stacks[r.dealer] += a.bid
        log.ledger.append(Entry(p, -a.bid, f"widow bid to {_name(s, r.dealer)}", "M2.3"))
        log.ledger.append(Entry(r.dealer, a.bid, f"widow bid from {_name(s, p)}", "M2.3"))
    r.counts[p], r.widow_count = r.widow_count, r.counts[p]
    if a.hand is not None:
        r.dead_hand = set(parse_cards(a.hand))  # the hand given up is dead (M2.3)
    log.widow = {"taken_by": _name(s, p), "bid": a.bid}
    s.phase = "poker"


def _betting_state(s: State) -> tuple[list[int], set[int], str, list[Entry]]:
    if s.phase in ("widow", "poker") and s.round is not None:
        return s.round.bets, s.round.folded, "poker", s.rounds[-1].ledger
    if s.phase == "final" and s.final_queue:
        pot = "final" if s.final_queue[0] == "final" else s.final_queue[0]
        return s.final_bets, s.final_folded, pot, s.final_ledger
    raise _illegal(f"bet: there is no poker being played now ({s.phase} phase)", rule="M4.2")


def _bet(s: State, a: Any) -> None:
    p = _seat(s, a.player, "bet")
    if s.rules.poker_betting != "one_round":
        raise _illegal(f"bet {a.chips}: this table plays poker showdown only", rule="M4.2")
    bets, folded, pot, log = _betting_state(s)
    if not s.in_game[p] or p in folded:
        raise _illegal(f"bet {a.chips}: {_name(s, p)} is not in this poker hand", rule="M4.2")
    if a.chips > s.stacks[p]:
        raise _illegal(f"bet {a.chips}: {_name(s, p)} has only {s.stacks[p]} chips", rule="M4.2")
    total = bets[p] + a.chips
    if total - max(bets) > s.rules.bet_limit:
        raise _illegal(
            f"bet {a.chips}: raises by {total - max(bets)}, above the limit {s.rules.bet_limit}",
            rule="M4.2",
        )
    bets[p] = total
    _move_to_pot(s, log, p, pot, a.chips, "poker bet", "M4.2")
    if s.phase == "widow":
        s.rounds[-1].widow = {"taken_by": None}
        s.phase = "poker"


def _fold(s: State, a: Any) -> None:
    p = _seat(s, a.player, "fold")
    if s.rules.poker_betting != "one_round":
        raise _illegal("fold: this table plays poker showdown only", rule="M4.2")
    bets, folded, _pot, _log = _betting_state(s)
    if not s.in_game[p] or p in folded:
        raise _illegal(f"fold: {_name(s, p)} is not in this poker hand", rule="M4.2")
    left = [q for q in range(len(s.players)) if s.in_game[q] and q not in folded and q != p]
    if not left:
        raise _illegal(f"fold: {_name(s, p)} is the last player in and wins", rule="M4.3")
    folded.add(p)
    if s.phase == "widow":
        s.rounds[-1].widow = {"taken_by": None}
        s.phase = "poker"


def _showdown(
    s: State, a: Any, folded: set[int], dealer: int, final: bool, max_cards: list[int] | None
) -> tuple[list[int], dict[str, Any]]:
    from rulesets import poker as pk

    rule = "M7.2" if final else "M4.3"
    contenders = [q for q in _left_of(s, dealer) if q not in folded]
    info: dict[str, Any] = {}
    judged: list[int] | None = None
    if a.hands is not None:
        if len(a.hands) != len(s.players):
            raise _illegal(
                f"poker hands: give one entry per seat ({len(s.players)}), "
                "null for folded or out players",
                rule=rule,
            )
        seats, hands = [], []
        for q, h in enumerate(a.hands):
            if h is None:
                if q in contenders:
                    raise _illegal(
                        f"poker hands: {_name(s, q)} is still in; show their hand", rule=rule
                    )
                continue
            if q not in contenders:
                raise _illegal(f"poker hands: {_name(s, q)} folded or is out", rule=rule)
            cards = _check_hand_cards(s, q, h, "poker hand")
            if final and len(cards) != 5:
                raise _illegal(
                    f'final poker hand "{format_cards(cards)}": 5 cards are dealt', rule="A-M16"
                )
            if max_cards is not None and len(cards) > max_cards[q]:
                raise _illegal(
                    f'poker hand "{format_cards(cards)}": {_name(s, q)} holds only '
                    f"{max_cards[q]} cards",
                    rule="M4.1",
                )
            r = None if final else s.round
            dead = [c for c in cards if r is not None and c in r.dead_hand]
            if dead:
                raise _illegal(
                    f'poker hand "{format_cards(cards)}": {format_cards(dead)} is in the dead '
                    "hand given up for the widow",
                    rule="M2.3",
                )
            seats.append(q)
            hands.append(cards)
        j = pk.judge(hands, [_name(s, q) for q in seats])
        judged = [seats[i] for i in j.winners]
        info["shown"] = {str(c): seats[i] for i, h in enumerate(hands) for c in h}
        info["hands"] = {
            _name(s, seats[h.index]): {"name": h.name, "best": list(h.best)} for h in j.hands
        }
    if a.winners is not None:
        winners = []
        for w in a.winners:
            _seat(s, w, "poker winners")
            if w not in contenders:
                raise _illegal(f"poker winners: {_name(s, w)} folded or is out", rule=rule)
            if w in winners:
                raise _illegal(f"poker winners: {_name(s, w)} listed twice", rule=rule)
            winners.append(w)
        if not winners:
            raise _illegal("poker winners: name at least one winner", rule=rule)
        if judged is not None and sorted(judged) != sorted(winners):
            raise _illegal(
                f"poker winners {', '.join(_name(s, w) for w in winners)}: the hands shown make "
                f"{', '.join(_name(s, w) for w in judged)} the winner(s)",
                rule=rule,
            )
    elif judged is not None:
        winners = judged
    else:
        if len(contenders) != 1:
            raise _illegal("poker: say who won, or give the hands to judge", rule=rule)
        winners = contenders
    # order winners clockwise from the dealer's left (M4.4, M7.2)
    order = _left_of(s, dealer)
    winners = sorted(winners, key=order.index)
    info["winners"] = [_name(s, w) for w in winners]
    return winners, info


def _poker(s: State, a: Any) -> None:
    r = s.round
    if s.phase not in ("widow", "poker") or r is None:
        raise _illegal(
            f"poker: the poker phase comes after the deal ({s.phase} phase)", rule="M4.3"
        )
    winners, info = _showdown(s, a, r.folded, r.dealer, False, r.counts)
    r.shown = {parse_card(c): q for c, q in info.pop("shown", {}).items()}
    log = s.rounds[-1]
    pot = s.pots["poker"]
    share, odd = divmod(pot, len(winners))
    rule = "M4.3" if len(winners) == 1 else "M4.4"
    for w in winners:
        _pot_to_seat(
            s,
            log.ledger,
            "poker",
            w,
            share,
            "Poker pot",
            rule,
            "" if len(winners) == 1 else f"split {len(winners)} ways, {odd} left in the pot",
        )
    info["pot"], info["share"], info["carried"] = pot, share, odd
    info["starter"] = _name(s, winners[0])
    log.poker = info
    if not log.widow:
        log.widow = {"taken_by": None}
    r.starter = winners[0]
    s.phase = "play"


def _win_pot(s: State, seat: int, pot: str, rule: str) -> None:
    log = s.rounds[-1]
    log.won[pot] = seat
    _pot_to_seat(s, log.ledger, pot, seat, s.pots[pot], f"{POT_LABELS[pot]} pot", rule)


def _completed_pots(s: State, r: RoundState, seat: int, card: Card) -> list[tuple[str, str]]:
    out = []
    for pot, pc in SINGLE_POTS.items():
        if card == pc:
            out.append((pot, "M5.6"))
    if card in AK_DIAMONDS and all(r.laid.get(c) == seat for c in AK_DIAMONDS):
        out.append(("AD+KD", "A-M8"))
    ranks = run_ranks(s.rules)
    if card.rank in ranks:
        run = [Card(rank, card.s) for rank in ranks]
        if all(r.laid.get(c) == seat for c in run):
            out.append((run_pot(s.rules), "A-M9"))
    return [(p, rl) for p, rl in out if p not in s.rounds[-1].won]


def _lay(s: State, a: Any) -> None:
    r = s.round
    if s.phase != "play" or r is None:
        raise _illegal(
            f"lay {a.card}: cards are laid after the poker phase ({s.phase} phase)", rule="M5.1"
        )
    log = s.rounds[-1]
    if log.mode == "quick":
        raise _illegal(
            f"lay {a.card}: this round is being settled quickly (pots already "
            "entered); undo them to log cards",
            rule="M5.6",
        )
    p = _seat(s, a.player, f"lay {a.card}")
    card = parse_card(a.card)
    who = _name(s, p)
    if card.is_joker:
        raise _illegal(f"lay {a.card}: Rummoli has no jokers", rule="M1.1")
    if not s.in_game[p]:
        raise _illegal(f"lay {card}: {who} is out of the game", rule="M7.1")
    if r.counts[p] <= 0:
        raise _illegal(f"lay {card}: {who} holds no cards", rule="M2.1")
    if card in r.laid:
        raise _illegal(
            f"lay {card}: {card} was already laid by {_name(s, r.laid[card])}", rule="M5.2"
        )
    if card in r.dead:
        raise _illegal(
            f"lay {card}: the table broke the sequence at {card}, so nobody held it", rule="M5.3"
        )
    if card in r.dead_hand:
        raise _illegal(
            f"lay {card}: {card} is in the dead hand given up for the widow", rule="M2.3"
        )
    if r.shown.get(card, p) != p:
        raise _illegal(
            f"lay {card}: {_name(s, r.shown[card])} showed {card} in the poker hand", rule="M4.1"
        )
    color = card.s.color
    if color in r.void.get(p, set()):
        raise _illegal(
            f"lay {card}: {who} could not lay a {color} card earlier, so holds none", rule="M5.5"
        )
    floor = r.floor.get(p, {}).get(color)
    if floor is not None and card.r.high < floor:
        raise _illegal(
            f"lay {card}: {who} earlier laid a {color} card higher than {card} as their lowest",
            rule="M5.3",
        )
    fines: list[int] = []
    if r.last is None:
        if p != r.starter:
            starter = "nobody" if r.starter is None else _name(s, r.starter)
            raise _illegal(f"lay {card}: the poker winner {starter} starts", rule="M5.1")
        lower = _shown_unlaid(r, p, None, card.r.high)
        if lower:
            raise _illegal(
                f"lay {card}: {who} showed {format_cards(lower)} at poker, lower than {card}; "
                "the first card is the lowest",
                rule="M5.1",
            )
        new_floor = {Color.RED: card.r.high, Color.BLACK: card.r.high}
    else:
        last_seat, last = r.last
        nxt_rank = _next_rank(last.r)
        nxt = None if nxt_rank is None else Card(nxt_rank, last.s)
        if nxt is not None and card == nxt:
            new_floor = {}
        else:
            need = last.s.color.opposite
            rule = "M5.4" if nxt is None else "M5.3"
            if color != need:
                why = (
                    f"after the ace {last}"
                    if nxt is None
                    else f"{nxt} is not laid, so the sequence broke and"
                )
                raise _illegal(f"lay {card}: {why} the next card must be {need}", rule=rule)
            if nxt is not None and nxt not in r.laid and nxt in r.shown:
                raise _illegal(
                    f"lay {card}: {_name(s, r.shown[nxt])} showed {nxt} at poker and must lay it",
                    rule="M5.2",
                )
            order = _clockwise_from(s, last_seat)
            if p not in order:
                raise _illegal(f"lay {card}: {who} holds no cards", rule="M5.5")
            # everyone clockwise from the last layer up to ``p`` could not play (M5.5)
            skipped = order[: order.index(p)]
            for q in skipped:
                have = _shown_unlaid(r, q, need, 15)
                if have:
                    raise _illegal(
                        f"lay {card}: {_name(s, q)} showed {format_cards(have)} at poker and "
                        f"must start the {need} cards before {who}",
                        rule="M5.5",
                    )
            lower = _shown_unlaid(r, p, need, card.r.high)
            if lower:
                raise _illegal(
                    f"lay {card}: {who} showed {format_cards(lower)} at poker, lower than {card}",
                    rule="M5.3",
                )
            fines = skipped
            if nxt is not None and nxt not in r.laid:
                r.dead.add(nxt)
            for q in skipped:
                r.void.setdefault(q, set()).add(need)
            new_floor = {need: card.r.high}
    # apply
    if s.rules.pass_fine:
        for q in fines:
            _move_to_pot(s, log.ledger, q, "rummoli", 1, "pass fine", "M5.5")
    for c, v in new_floor.items():
        r.floor.setdefault(p, {})[c] = max(v, r.floor.get(p, {}).get(c, 0))
    r.counts[p] -= 1
    r.laid[card] = p
    r.last = (p, card)
    log.mode = "live"
    log.laid.append((p, str(card)))
    s.pending.clear()
    for pot, rule in _completed_pots(s, r, p, card):
        if s.rules.claim == "auto":
            _win_pot(s, p, pot, rule)
        else:
            s.pending.append((p, pot))
    if r.counts[p] == 0:
        _end_round(s, out=p, held=list(r.counts))


def _shown_unlaid(r: RoundState, seat: int, color: Color | None, below: int) -> list[Card]:
    """Cards ``seat`` showed at poker, not yet laid, of ``color`` and ranked below ``below``."""
    return sorted(
        c
        for c, q in r.shown.items()
        if q == seat
        and c not in r.laid
        and (color is None or c.s.color is color)
        and c.r.high < below
    )


def _norm_pot(s: State, text: str) -> str:
    t = text.strip()
    names = pot_names(s.rules)
    for name in names:
        if t.lower() == name.lower() or t == POT_LABELS[name]:
            return name
    try:
        card = parse_card(t)
    except RulesetError:
        card = None
    if card is not None:
        for name, pc in SINGLE_POTS.items():
            if pc == card:
                return name
    raise _illegal(f"claim {text!r}: no such pot (pots: {', '.join(names)})", rule="M1.2")


def _claim(s: State, a: Any) -> None:
    p = _seat(s, a.player, "claim")
    pot = _norm_pot(s, a.pot)
    who = _name(s, p)
    if pot in ("poker", "rummoli"):
        raise _illegal(
            f"claim {pot}: that pot is won by poker or by going out, not claimed", rule="M5.6"
        )
    if (p, pot) in s.pending:
        s.pending.remove((p, pot))
        rule = {"AD+KD": "A-M8"}.get(pot, "A-M9" if pot == run_pot(s.rules) else "M5.6")
        _win_pot(s, p, pot, rule)
        return
    log = s.rounds[-1] if s.rounds else None
    if s.phase != "play" or log is None or log.mode == "live":
        if log is not None and log.mode == "live" and s.rules.claim == "auto":
            raise _illegal(
                f"claim {pot}: pots pay automatically when the card is laid (claim=auto)",
                rule="M5.6",
            )
        raise _illegal(
            f"claim {pot}: {who} has nothing to claim now (claim before the next card)", rule="M5.6"
        )
    if not s.in_game[p]:
        raise _illegal(f"claim {pot}: {who} is out of the game", rule="M7.1")
    if pot in log.won:
        raise _illegal(
            f"claim {pot}: already won this round by {_name(s, log.won[pot])}", rule="M5.6"
        )
    log.mode = "quick"
    rule = {"AD+KD": "A-M8"}.get(pot, "A-M9" if pot == run_pot(s.rules) else "M5.6")
    _win_pot(s, p, pot, rule)


def _check_held(s: State, held: list[int], what: str) -> list[int]:
    r = s.round
    if r is None:
        raise _illegal(f"{what}: no round is being played", rule="M6.1")
    if len(held) != len(s.players):
        raise _illegal(
            f"{what} {held}: give the cards held by each of the {len(s.players)} seats", rule="M6.1"
        )
    for q, h in enumerate(held):
        if h > r.counts[q]:
            raise _illegal(
                f"{what} {held}: {_name(s, q)} holds at most {r.counts[q]} cards", rule="M2.1"
            )
    return list(held)


def _out(s: State, a: Any) -> None:
    r = s.round
    if s.phase != "play" or r is None:
        raise _illegal(
            f"out: a player goes out in the Rummoli phase ({s.phase} phase)", rule="M6.1"
        )
    p = _seat(s, a.player, "out")
    if s.rounds[-1].mode == "live":
        raise _illegal(
            f"out: the log shows {_name(s, p)} still holds {r.counts[p]} cards", rule="M6.1"
        )
    if not s.in_game[p]:
        raise _illegal(f"out: {_name(s, p)} is out of the game", rule="M7.1")
    held = _check_held(s, a.held, "out")
    if held[p] != 0:
        raise _illegal(f"out {a.held}: the player who went out holds 0 cards", rule="M6.1")
    s.rounds[-1].mode = "quick"
    _end_round(s, out=p, held=held)


def _impasse(s: State, a: Any) -> None:
    r = s.round
    if s.phase != "play" or r is None:
        raise _illegal(f"impasse: only in the Rummoli phase ({s.phase} phase)", rule="M5.7")
    log = s.rounds[-1]
    if log.mode == "live":
        if a.held is not None and list(a.held) != r.counts:
            raise _illegal(f"impasse {a.held}: the log shows {r.counts} cards held", rule="M5.7")
        held = list(r.counts)
    else:
        if a.held is None:
            raise _illegal("impasse: give the cards each seat holds", rule="M5.7")
        held = _check_held(s, a.held, "impasse")
        if sum(held) == 0:
            raise _illegal(
                f"impasse {a.held}: someone still holds cards at an impasse", rule="M5.7"
            )
        log.mode = "quick"
    _end_round(s, out=None, held=held)


def _end_round(s: State, out: int | None, held: list[int]) -> None:
    log = s.rounds[-1]
    log.held = held
    if out is None:
        log.impasse = True
        for q, h in enumerate(held):
            if h and s.in_game[q]:
                _move_to_pot(s, log.ledger, q, "rummoli", h, f"impasse, {_cards(h)} held", "M5.7")
    else:
        log.out = out
        _pot_to_seat(s, log.ledger, "rummoli", out, s.pots["rummoli"], "Rummoli pot", "M6.1")
        owed: list[str] = []
        total = 0
        for q in _left_of(s, out):
            h = held[q]
            if q == out or not h:
                continue
            paid = min(h, s.stacks[q])
            s.stacks[q] -= paid
            total += paid
            short = "" if paid == h else f" (had only {paid})"
            log.ledger.append(
                Entry(
                    q,
                    -paid,
                    f"{_cards(h)} held, paid to {_name(s, out)}",
                    "M6.1",
                    short.strip(" ()"),
                )
            )
            owed.append(f"{_name(s, q)} {paid}")
        s.stacks[out] += total
        log.ledger.append(Entry(out, total, "cards owed", "A-M11", ", ".join(owed)))
    log.finished = True
    log.carried = {pot: chips for pot, chips in s.pots.items() if chips}
    s.round = None
    s.phase = "idle"


def _end(s: State, a: Any) -> None:
    if s.phase != "idle":
        raise _illegal(f"end: the game ends between rounds ({s.phase} phase)", rule="M7.1")
    if s.rules.final_poker == "single":
        total = sum(s.pots.values())
        for pot in s.pots:
            s.pots[pot] = 0
        s.pool = total
        s.final_queue = ["final"] if total else []
    else:
        order = list(s.pots)
        s.final_queue = sorted(
            (p for p in order if s.pots[p] > 0), key=lambda p: (s.pots[p], order.index(p))
        )
    s.final_bets = [0] * len(s.players)
    s.final_folded = set()
    s.phase = "final" if s.final_queue else "over"


def _final_poker(s: State, a: Any) -> None:
    if s.phase != "final" or not s.final_queue:
        raise _illegal("final poker: the game has not been ended, or is over", rule="M7.2")
    dealer = _next_dealer(s)
    if not any(s.in_game):
        raise _illegal("final poker: nobody is left in the game", rule="M7.2")
    winners, info = _showdown(s, a, s.final_folded, dealer, True, None)
    info.pop("shown", None)
    pot = s.final_queue[0]
    chips = s.pool if pot == "final" else s.pots[pot]
    share, odd = divmod(chips, len(winners))
    label = "final poker" if pot == "final" else f"final poker for the {POT_LABELS[pot]} pot"
    for i, w in enumerate(winners):
        extra = odd if i == 0 else 0
        _pot_to_seat(
            s,
            s.final_ledger,
            pot,
            w,
            share + extra,
            label,
            "M7.2",
            ""
            if len(winners) == 1
            else f"split {len(winners)} ways" + (f", +{odd} odd chips" if extra else ""),
        )
    info.update(pot=pot, chips=chips, share=share, odd=odd)
    s.final_log.append(info)
    s.final_queue.pop(0)
    s.final_bets = [0] * len(s.players)
    s.final_folded = set()
    if not s.final_queue:
        s.phase = "over"


_HANDLERS: dict[type, Any] = {
    Start: _start,
    Adjust: _adjust,
    Deal: _deal,
    Widow: _widow,
    Bet: _bet,
    Fold: _fold,
    Poker: _poker,
    Lay: _lay,
    Claim: _claim,
    Out: _out,
    Impasse: _impasse,
    End: _end,
    FinalPoker: _final_poker,
}


# --------------------------------------------------------------------------- summary


def statement(players: Sequence[str], ledger: Sequence[Entry]) -> dict[str, str]:
    """One line per player: net change, then each movement with its rule ID.

    >>> statement(["Ann", "Bob"], [Entry(0, -9, "ante", "M1.3"), Entry(0, 4, "Rummoli pot",
    ...     "M6.1"), Entry(0, 3, "cards owed", "A-M11", "Bob 3"), Entry(1, -3, "3 cards held",
    ...     "M6.1")])["Ann"]
    'Ann -2: ante -9 [M1.3], Rummoli pot +4 [M6.1], cards owed +3 (Bob 3) [A-M11]'
    """
    out: dict[str, str] = {}
    for seat, name in enumerate(players):
        items: list[str] = []
        ante = [e for e in ledger if e.seat == seat and e.text == "ante"]
        net = sum(e.delta for e in ledger if e.seat == seat)
        if ante:
            items.append(f"ante {sum(e.delta for e in ante):+d} [M1.3]")
        for e in ledger:
            if e.seat != seat or e.text == "ante":
                continue
            detail = f" ({e.detail})" if e.detail else ""
            items.append(f"{e.text} {e.delta:+d}{detail} [{e.rule}]")
        if items:
            out[name] = f"{name} {net:+d}: " + ", ".join(items)
    return out


def _summary(s: State, dealer: int) -> dict[str, Any]:
    names = s.players
    hands = []
    for log in s.rounds:
        scores = {n: 0 for n in names}
        for e in log.ledger:
            scores[names[e.seat]] += e.delta
        hands.append(
            {
                "number": log.number,
                "dealer": names[log.dealer],
                "scores": scores,
                "statement": statement(names, log.ledger),
                "widow": log.widow,
                "poker": log.poker,
                "pots_won": {pot: names[q] for pot, q in log.won.items()},
                "out": None if log.out is None else names[log.out],
                "impasse": log.impasse,
                "held": {names[q]: h for q, h in enumerate(log.held)} if log.held else {},
                "laid": [[names[q], c] for q, c in log.laid],
                "mode": log.mode,
                "carried": dict(log.carried),
                "finished": log.finished,
            }
        )
    finished = s.phase == "over"
    winners: list[str] = []
    if finished:
        top = max(s.stacks)
        winners = [n for n, c in zip(names, s.stacks, strict=True) if c == top]
    pots = dict(s.pots) if s.pots else dict.fromkeys(pot_names(s.rules), 0)
    if s.pool:
        pots["final"] = s.pool
    return {
        "game": "rummoli",
        "players": list(names),
        "finished": finished,
        "winners": winners,
        "totals": {n: (s.stacks[i] if s.stacks else 0) for i, n in enumerate(names)},
        "hands": hands,
        "dealer": names[dealer],
        "phase": s.phase,
        "pots": pots,
        "chips_total": sum(s.stacks) + sum(s.pots.values()) + s.pool,
        "chips_added": s.added,
        "adjustments": list(s.adjustments),
        "in_game": [n for i, n in enumerate(names) if s.in_game and s.in_game[i]],
        "final": list(s.final_log),
        "final_next": _final_next(s),
        "final_statement": statement(names, s.final_ledger),
        "rules": s.rules.model_dump(mode="json"),
    }


def _final_next(s: State) -> dict[str, Any] | None:
    """The pot the next final poker is played for (M7.2): the whole board (``final``),
    or with ``final_poker=per_pot`` the pot with the fewest chips; None outside it."""
    if s.phase != "final" or not s.final_queue:
        return None
    pot = s.final_queue[0]
    return {"pot": pot, "chips": s.pool if pot == "final" else s.pots[pot]}


# --------------------------------------------------------------------------- simulation


class PlayResult(NamedTuple):
    lays: list[tuple[int, Card]]
    out: int | None
    held: list[int]


def _lowest(cards: Sequence[Card], rng: random.Random) -> Card:
    low = min(c.r.high for c in cards)
    return rng.choice([c for c in cards if c.r.high == low])


def simulate_play(
    hands: dict[int, list[Card]], starter: int, seats: int, rng: random.Random
) -> PlayResult:
    """Play a Rummoli phase by M5 with every hand known (used by random games and tests)."""
    held = {q: list(h) for q, h in hands.items()}
    holder = {c: q for q, h in held.items() for c in h}
    lays: list[tuple[int, Card]] = []

    def lay(q: int, c: Card) -> None:
        held[q].remove(c)
        del holder[c]
        lays.append((q, c))

    card = _lowest(held[starter], rng)
    seat = starter
    lay(seat, card)
    while True:
        if not held[seat]:
            return PlayResult(lays, seat, [len(held.get(q, [])) for q in range(seats)])
        nxt_rank = _next_rank(card.r)
        nxt = None if nxt_rank is None else Card(nxt_rank, card.s)
        if nxt is not None and nxt in holder:
            seat, card = holder[nxt], nxt
            lay(seat, card)
            continue
        need = card.s.color.opposite
        for k in range(seats):
            q = (seat + k) % seats
            mine = [c for c in held.get(q, []) if c.s.color is need]
            if mine:
                seat, card = q, _lowest(mine, rng)
                lay(seat, card)
                break
        else:
            return PlayResult(lays, None, [len(held.get(q, [])) for q in range(seats)])


_NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")


def _random_poker(
    game: RummoliGame, rng: random.Random, hands: dict[int, list[Card]], final: bool
) -> None:
    s = game._state
    rules = s.rules
    seats = [q for q in range(len(s.players)) if s.in_game[q]]
    if rules.poker_betting == "one_round" and rng.random() < 0.7:
        folded: set[int] = set()
        for _ in range(rng.randint(0, 4)):
            q = rng.choice(seats)
            if q in folded:
                continue
            if rng.random() < 0.3 and len(seats) - len(folded) > 1:
                game.push(Fold(player=q))
                folded.add(q)
            else:
                amount = rng.randint(1, rules.bet_limit)
                if game.can(Bet(player=q, chips=amount)):
                    game.push(Bet(player=q, chips=amount))
    from rulesets import poker as pk

    s = game._state
    out = s.final_folded if final or s.round is None else s.round.folded
    live = [q for q in seats if q not in out]
    if len(live) == 1 and rng.random() < 0.5:
        act: Any = FinalPoker() if final else Poker()
    else:
        j = pk.judge([hands[q] for q in live])
        winners = [live[i] for i in j.winners]
        shown: list[list[str] | None] = [
            [str(c) for c in hands[q]] if q in live else None for q in range(len(s.players))
        ]
        mode = rng.random()
        kw: dict[str, Any] = {}
        if mode < 0.4:
            kw["hands"] = shown
        elif mode < 0.7:
            kw["winners"] = winners
        else:
            kw["hands"], kw["winners"] = shown, winners
        act = FinalPoker(**kw) if final else Poker(**kw)
    game.push(act)


def _random_round(game: RummoliGame, rng: random.Random) -> None:
    s = game._state
    r = s.round
    assert r is not None
    rules = s.rules
    n = len(s.players)
    order = _left_of(s, r.dealer)
    deck = list(DECK)
    rng.shuffle(deck)
    sizes = deal_sizes(len(order))
    hands: dict[int, list[Card]] = {}
    pos = 0
    for q, size in zip(order, sizes, strict=False):
        hands[q] = deck[pos : pos + size]
        pos += size
    widow = deck[pos:]

    # widow (M2.2-M2.4)
    def may(q: int) -> bool:
        return not rules.widow_needs_no_pay_card or not pay_cards_in(hands[q], rules)

    choice = rng.random()
    if choice < 0.25 and may(r.dealer):
        game.push(Widow(player=r.dealer, hand=[str(c) for c in hands[r.dealer]]))
        hands[r.dealer], widow = widow, hands[r.dealer]
    elif choice < 0.6:
        bidders = [q for q in order if q != r.dealer and may(q)]
        if bidders:
            q = rng.choice(bidders)
            bid = rng.randint(0, min(3, s.stacks[q]))
            shown = [str(c) for c in hands[q]] if rng.random() < 0.5 else None
            game.push(Widow(player=q, bid=bid, hand=shown))
            hands[q], widow = widow, hands[q]
        else:
            game.push(Widow())
    elif choice < 0.8:
        game.push(Widow())
    _random_poker(game, rng, hands, final=False)
    starter = game._state.round.starter if game._state.round else None
    assert starter is not None
    result = simulate_play(hands, starter, n, rng)
    if rng.random() < 0.6:
        for q, c in result.lays:
            game.push(Lay(player=q, card=str(c)))
            for p, pot in game.pending_claims:
                if rng.random() < 0.8:
                    game.push(Claim(player=p, pot=pot))
        if result.out is None:
            game.push(Impasse())
    else:
        won: dict[str, int] = {}
        laid = {c: q for q, c in result.lays}
        for pot, card in SINGLE_POTS.items():
            if card in laid:
                won[pot] = laid[card]
        ak = {laid.get(c) for c in AK_DIAMONDS}
        if len(ak) == 1 and None not in ak:
            won["AD+KD"] = laid[AK_DIAMONDS[0]]
        for suit in Suit:
            run = {laid.get(Card(rank, suit)) for rank in run_ranks(rules)}
            if len(run) == 1 and None not in run and run_pot(rules) not in won:
                won[run_pot(rules)] = laid[Card(run_ranks(rules)[0], suit)]
        for pot, q in won.items():
            if rules.claim == "auto" or rng.random() < 0.8:
                game.push(Claim(player=q, pot=pot))
        if result.out is None:
            game.push(Impasse(held=result.held))
        else:
            game.push(Out(player=result.out, held=result.held))


def random_game(seed: int) -> RummoliGame:
    """A random legal game played to the end, following M1-M7 with real hands."""
    rng = random.Random(seed)
    n = rng.randint(2, 8)
    rules = RummoliRules(
        claim=rng.choice(["auto", "strict"]),
        pass_fine=rng.random() < 0.5,
        poker_betting=rng.choice(["one_round", "showdown"]),
        bet_limit=rng.randint(1, 5),
        final_poker=rng.choice(["single", "per_pot"]),
        widow_needs_no_pay_card=rng.random() < 0.8,
        board=rng.choice(["seven_eight_nine", "eight_nine_ten"]),
    )
    game = RummoliGame(_NAMES[:n], rules)
    game.push(Start(chips=[rng.randint(5, 60) for _ in range(n)], dealer=rng.randrange(n)))
    for _ in range(rng.randint(0, 5)):
        if rng.random() < 0.15:
            q = rng.randrange(n)
            game.push(Adjust(player=q, chips=rng.randint(0, 20), note="buy-in"))
        if not game.can(Deal()):
            break
        game.push(Deal())
        _random_round(game, rng)
    game.push(End())
    while game.phase == "final":
        deck = list(DECK)
        rng.shuffle(deck)
        s = game._state
        hands = {q: deck[5 * q : 5 * q + 5] for q in range(n) if s.in_game[q]}
        _random_poker(game, rng, hands, final=True)
    return game


# --------------------------------------------------------------------------- ruleset


class RummoliRuleset:
    """The Rummoli referee behind :func:`rulesets.load_ruleset`."""

    name = "rummoli"
    title = "Rummoli"
    summary = (
        "Nine pots of chips: poker for the Poker pot, then a stops game where pay cards "
        "collect their pots and the first player out takes the centre."
    )
    min_players = 2
    max_players = 8
    house_rules: type[HouseRulesBase] = RummoliRules

    def check(
        self,
        cards: Sequence[Card],
        *,
        onto: Sequence[Card] | None = None,
        going_out: bool = False,
        hand: Sequence[Card] | None = None,
        rules: HouseRulesBase | None = None,
    ) -> Verdict:
        """May a player holding ``cards`` swap for or bid on the widow? (M2.2-M2.4)

        ``cards`` is the whole hand; the answer is legal when it holds no pay card
        (or when the table plays ``no_widow_needs_no_pay_card``).  ``onto``,
        ``going_out`` and ``hand`` do not apply to Rummoli.

        >>> RULESET.check(parse_cards("2C 5H JD")).reason
        'holds the pay card(s) JD, so may not take the widow'
        """
        r = _rules(rules)
        hand_cards = parse_cards(list(cards))
        found = pay_cards_in(hand_cards, r)
        notes = (
            ("onto/going_out/hand are not used by Rummoli",) if (onto or going_out or hand) else ()
        )
        if not found:
            return Verdict(
                legal=True,
                kind="widow",
                rule="M2.4",
                reason="no pay card: may swap for or bid on the widow",
                notes=notes,
            )
        if not r.widow_needs_no_pay_card:
            return Verdict(
                legal=True,
                kind="widow",
                rule="M2.4",
                cards=tuple(found),
                reason=f"holds pay card(s) {', '.join(found)}, allowed by house rule",
                notes=notes,
            )
        return Verdict(
            legal=False,
            kind="widow",
            rule="M2.4",
            cards=tuple(found),
            reason=f"holds the pay card(s) {', '.join(found)}, so may not take the widow",
            notes=notes,
        )

    def score(self, cards: Sequence[Card], *, rules: HouseRulesBase | None = None) -> ScoreReport:
        """Chips owed for cards still held when a player goes out: 1 each (M6.1).

        >>> RULESET.score(parse_cards("2C 5H JD")).points
        3
        """
        _rules(rules)
        hand_cards = parse_cards(list(cards))
        return ScoreReport(
            points=len(hand_cards),
            rule="M6.1",
            breakdown=tuple((str(c), 1) for c in hand_cards),
            notes=("paid to the player who went out (A-M11)",),
        )

    def replay(self, record: GameRecord) -> dict[str, Any]:
        return RummoliGame.from_record(record).summary()

    def random_record(self, seed: int) -> GameRecord:
        return random_game(seed).to_record()


RULESET = RummoliRuleset()
