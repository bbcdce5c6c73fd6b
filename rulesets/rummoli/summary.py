"""Where a Rummoli game stands, typed: :class:`RummoliSummary` and its parts.

The summary carries everything the table screen shows, so a screen computes
no rule itself: each pot with its label, what wins it and the rule; the deal
order and sizes; the betting (who bet what, who folded, the limit, who acts
first); the widow; the live log's next card, who may lay and the colour a
break needs; pending claims; the final-poker queue; and the ledger.

``RummoliSummary.to_json()`` is the JSON ``companion replay --json`` has always
printed: every key and value kept, new keys only added.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from rulesets import seats
from rulesets.cards import Card
from rulesets.protocol import (
    Cards,
    Ending,
    HandSummary,
    LedgerEntry,
    OneCard,
    Summary,
    SummaryDetail,
    Units,
)
from rulesets.rummoli.board import (
    ANTE,
    POT_LABELS,
    POTS,
    pay_cards_text,
    pot_names,
    run_pot,
)
from rulesets.rummoli.house_rules import RummoliRules
from rulesets.rummoli.lay import next_card_after
from rulesets.rummoli.notes import (
    Note,
    final_notes,
    idle_notes,
    play_notes,
    poker_notes,
    round_notes,
    widow_notes,
)
from rulesets.rummoli.results import FinalResult, PokerResult, WidowResult
from rulesets.rummoli.state import (
    Phase,
    RoundLog,
    State,
    clockwise_from,
    final_dealer,
    left_of,
    next_dealer,
)
from rulesets.words import names_and

__all__ = [
    "Adjustment",
    "BettingView",
    "DealView",
    "FinalNext",
    "PendingClaim",
    "PlayView",
    "PotView",
    "RummoliDetail",
    "RummoliHand",
    "RummoliSummary",
    "WidowView",
    "build_hand",
    "build_summary",
    "statement",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


# --------------------------------------------------------------------------- statements


def statement(players: Sequence[str], ledger: Sequence[LedgerEntry]) -> dict[str, str]:
    """One line per player, formatted from the ledger: the net change, the antes as one
    item, then each movement with its rule ID.

    >>> statement(["Ann", "Bob"], [
    ...     LedgerEntry(player="Ann", amount=-9, kind="ante", rule="M1.3", label="ante"),
    ...     LedgerEntry(player="Ann", amount=4, kind="centre", rule="M6.1", label="Rummoli pot"),
    ...     LedgerEntry(player="Ann", amount=3, kind="owed", rule="A-M11", label="cards owed",
    ...                 detail="Bob 3")])["Ann"]
    'Ann -2: ante -9 [M1.3], Rummoli pot +4 [M6.1], cards owed +3 (Bob 3) [A-M11]'
    """
    out: dict[str, str] = {}
    for name in players:
        mine = [e for e in ledger if e.player == name]
        if not mine:
            continue
        antes = [e.amount for e in mine if e.kind == "ante"]
        items = [f"ante {sum(antes):+d} [M1.3]"] if antes else []
        items += [e.line() for e in mine if e.kind != "ante"]
        out[name] = f"{name} {sum(e.amount for e in mine):+d}: " + ", ".join(items)
    return out


# --------------------------------------------------------------------------- rounds


class RummoliHand(HandSummary):
    """One round (M1.3-M6.3): its deal, widow, poker, pots won, ending and ledger."""

    dealer: str
    statement: dict[str, str]
    widow: WidowResult | None = None
    poker: PokerResult | None = None
    pots_won: dict[str, str]
    out: str | None = None
    impasse: bool = False
    held: dict[str, int]
    laid: tuple[tuple[str, OneCard], ...] = ()
    mode: str | None = None
    carried: dict[str, int]
    finished: bool = False
    #: players out of the game at this deal: they could not pay the ante (M7.1)
    gone: tuple[str, ...] = ()
    #: who was dealt to, from the dealer's left (M2.1), and how many cards each
    deal_order: tuple[str, ...] = ()
    deal_sizes: dict[str, int]
    widow_size: int = 0
    #: the referee's sentences about the round: pots won, how it ended, what it left
    notes: tuple[Note, ...] = ()

    def note(self, key: str) -> Note | None:
        return next((n for n in self.notes if n.key == key), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "scores": dict(self.scores),
            "statement": dict(self.statement),
            "widow": self.widow.to_json() if self.widow is not None else {},
            "poker": self.poker.to_json() if self.poker is not None else {},
            "pots_won": dict(self.pots_won),
            "out": self.out,
            "impasse": self.impasse,
            "held": dict(self.held),
            "laid": [[who, str(card)] for who, card in self.laid],
            "mode": self.mode,
            "carried": dict(self.carried),
            "finished": self.finished,
        }


def build_hand(players: Sequence[str], log: RoundLog) -> RummoliHand:
    scores = dict.fromkeys(players, 0)
    for e in log.entries:
        scores[e.player] += e.amount
    return RummoliHand(
        number=log.number,
        dealer=players[log.dealer],
        scores=scores,
        ledger=tuple(log.entries),
        statement=statement(players, log.entries),
        widow=log.widow,
        poker=log.poker,
        pots_won={pot: players[q] for pot, q in log.won.items()},
        out=None if log.out is None else players[log.out],
        impasse=log.impasse,
        held={players[q]: h for q, h in enumerate(log.held)} if log.held else {},
        laid=tuple((players[q], c) for q, c in log.laid),
        mode=log.mode,
        carried=dict(log.carried),
        finished=log.finished,
        gone=tuple(players[q] for q in log.gone),
        deal_order=tuple(players[q] for q in log.order),
        deal_sizes={players[q]: n for q, n in zip(log.order, log.sizes, strict=False)},
        widow_size=log.sizes[-1] if log.sizes else 0,
        notes=tuple(
            round_notes(
                None if log.out is None else players[log.out],
                log.impasse,
                {pot: players[q] for pot, q in log.won.items()},
                log.carried,
                done=log.finished,
            )
        ),
    )


# --------------------------------------------------------------------------- the detail


class PotView(_Frozen):
    """A pot on the board now: chips, how it is shown, what wins it and the rule."""

    pot: str
    label: str
    chips: int
    wins: str
    rule: str
    cards: Cards = ()
    combo: bool = False
    #: may still be entered as won in this round's quick settlement (M5.6)
    open: bool = False
    #: who won it this round, if anyone
    won_by: str | None = None


class Adjustment(_Frozen):
    """Chips the table added to (or took from) a stack between rounds."""

    after_round: int
    player: str
    chips: int
    note: str = ""


class DealView(_Frozen):
    """The round being played: who dealt, to whom, how many cards (M1.3, M2.1)."""

    number: int
    dealer: str
    order: tuple[str, ...]
    sizes: dict[str, int]
    widow: int
    ante: int
    gone: tuple[str, ...] = ()


class WidowView(_Frozen):
    """The widow being settled (M2.2-M2.4): who may swap or bid, and on what terms."""

    dealer: str
    size: int
    bidders: tuple[str, ...]
    needs_no_pay_card: bool
    pay_cards: str
    swap_rule: str = "M2.2"
    auction_rule: str = "M2.3"
    pay_card_rule: str = "M2.4"


class BettingView(_Frozen):
    """The poker being played: the pot, bets, folds, limit and who acts first (M4.2).

    Checks are not recorded, so the referee knows who opens the betting (the
    player on the dealer's left), what each player has put in and still needs
    to call, and the most each may put in now.
    """

    final: bool
    pot: str
    label: str
    chips: int
    dealer: str
    in_hand: tuple[str, ...]
    folded: tuple[str, ...]
    bets: dict[str, int]
    to_call: dict[str, int]
    max_bet: dict[str, int]
    betting: bool
    limit: int | None
    first: str | None
    #: how many cards each player may show (M4.1: up to the hand; A-M16: 5)
    max_cards: dict[str, int]
    rule: str = "M4.2"
    showdown_rule: str = "M4.3"
    split_rule: str = "M4.4"
    cards_rule: str = "M4.1"


class PendingClaim(_Frozen):
    """A pot a player may claim before the next card (claim=strict, M5.6)."""

    player: str
    pot: str
    label: str
    chips: int
    rule: str


class PlayView(_Frozen):
    """The Rummoli phase (M5): the log so far and what may come next."""

    starter: str | None
    mode: str | None
    laid: tuple[tuple[str, OneCard], ...]
    held: dict[str, int]
    #: players who may lay a card now: in the game and holding cards
    layers: tuple[str, ...]
    next_card: OneCard | None
    expected: tuple[str, ...]
    break_colour: str | None
    #: the rule that says what the next card is (M5.1 first card, M5.2 next of the
    #: suit, M5.3 after a break, M5.4 after an ace)
    rule: str
    open_pots: tuple[str, ...]
    won: dict[str, str]


class FinalNext(_Frozen):
    """The next final poker (M7.2): the pot played for, its chips, who deals (A-M18)."""

    pot: str
    label: str
    chips: int
    dealer: str
    per_pot: bool
    queue: tuple[str, ...]
    rule: str = "M7.2"


class RummoliDetail(SummaryDetail):
    """Everything the Rummoli table screen needs beyond the common summary fields."""

    pots: tuple[PotView, ...]
    run_pot: str
    pool: int = 0
    chips_on_board: int
    chips_added: int
    chips_total: int
    ante: int = ANTE
    in_game: tuple[str, ...]
    #: in the game but short of the next ante: out at the next deal (M7.1, A-M17)
    short: tuple[str, ...] = ()
    next_dealer: str | None = None
    held: dict[str, int]
    deal: DealView | None = None
    widow: WidowView | None = None
    betting: BettingView | None = None
    play: PlayView | None = None
    #: pots a player may claim before the next card (claim=strict, M5.6)
    pending: tuple[PendingClaim, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()
    final: tuple[FinalResult, ...] = ()
    final_next: FinalNext | None = None
    final_statement: dict[str, str]
    rules: RummoliRules
    #: what the rules say now, in sentences with their rule (see :mod:`.notes`)
    notes: tuple[Note, ...] = ()

    def pot(self, name: str) -> PotView:
        return next(p for p in self.pots if p.pot == name)

    def note(self, key: str) -> Note | None:
        """The note named ``key`` for the phase in play, if there is one."""
        return next((n for n in self.notes if n.key == key), None)


class RummoliSummary(Summary):
    """A Rummoli game's summary: totals are the stacks; ``detail`` is the table."""

    phase: Phase
    hands: tuple[RummoliHand, ...] = ()
    detail: RummoliDetail

    HAND_WORD: ClassVar[str] = "Round"

    def to_json(self) -> dict[str, Any]:
        d = self.detail
        pots = {p.pot: p.chips for p in d.pots}
        if d.pool:
            pots["final"] = d.pool
        nxt = d.final_next
        return {
            "game": self.game,
            "players": list(self.players),
            "finished": self.finished,
            "winners": list(self.winners),
            "totals": dict(self.totals),
            "hands": [h.to_json() for h in self.hands],
            "dealer": self.dealer,
            "phase": str(self.phase),
            "pots": pots,
            "chips_total": d.chips_total,
            "chips_added": d.chips_added,
            "adjustments": [a.model_dump(mode="json") for a in d.adjustments],
            "in_game": list(d.in_game),
            "final": [f.to_json() for f in d.final],
            "final_next": None if nxt is None else {"pot": nxt.pot, "chips": nxt.chips},
            "final_statement": dict(d.final_statement),
            "rules": d.rules.model_dump(mode="json"),
            "units": str(self.units.value),
            "higher_is_better": self.higher_is_better,
        }


# --------------------------------------------------------------------------- building


def current_dealer(s: State) -> int:
    """The dealer of the round in play, of the next round between rounds, or of the
    final poker once the game is ended (A-M18)."""
    if s.phase in (Phase.FINAL, Phase.OVER) and s.dealt_before:
        return final_dealer(s)
    if s.phase is Phase.IDLE and s.dealt_before:
        return next_dealer(s)
    return s.dealer


def build_summary(s: State, hands: Sequence[RummoliHand]) -> RummoliSummary:
    names = s.players
    finished = s.phase is Phase.OVER
    winners: tuple[str, ...] = ()
    if finished:
        top = max(s.stacks)
        winners = tuple(n for n, c in zip(names, s.stacks, strict=True) if c == top)
    return RummoliSummary(
        game="rummoli",
        players=tuple(names),
        phase=s.phase,
        finished=finished,
        winners=winners,
        totals={n: (s.stacks[i] if s.stacks else 0) for i, n in enumerate(names)},
        units=Units.CHIPS,
        higher_is_better=True,
        dealer=names[current_dealer(s)],
        turn=_turn(s),
        hand=len(s.rounds),
        hands=tuple(hands),
        ledger=tuple(s.ledger),
        detail=_detail(s),
        ending=next_game(s, winners) if finished else None,
    )


def next_game(s: State, winners: Sequence[str]) -> Ending | None:
    """The result (M7.3: the most chips wins; equal stacks share the win), and who deals
    the first round of a new game of the same players with the same starting chips: the
    deal passes one seat clockwise (M6.3) from the last deal of this game -- the final
    poker's, where one was dealt (A-M18) -- and everyone is back in the game."""
    if not winners or not s.stacks:
        return None
    chips = Units.CHIPS.of(s.stacks[s.players.index(winners[0])])
    if len(winners) == 1:
        text = f"{winners[0]} wins with {chips}."
    else:
        text = f"Shared win: {names_and(winners)}, {chips} each."
    if s.final_log:
        last: int | None = s.players.index(s.final_log[-1].dealer)
    else:
        last = s.dealer if s.dealt_before else None
    seat = s.dealer if last is None else seats.after(range(len(s.players)), last)[0]
    name = s.name(seat)
    start = {e.player: e.amount for e in s.ledger if e.kind == "start"}
    return Ending(
        text=text,
        rule="M7.3",
        next_dealer=name,
        next_deal=f"{name} deals first (the deal passes one seat clockwise)",
        next_rule="M6.3",
        chips=tuple(start.get(p, 0) for p in s.players),
    )


def _turn(s: State) -> str | None:
    """Whose turn it is, where the referee knows it."""
    r = s.round
    if s.phase is Phase.WIDOW and r is not None:
        return s.name(r.dealer)
    if s.phase is Phase.PLAY and r is not None:
        if r.last is None:
            return None if r.starter is None else s.name(r.starter)
        if _next_card(s) is None:
            expected = clockwise_from(s, r.last[0])
            return s.name(expected[0]) if expected else None
    return None


def _detail(s: State) -> RummoliDetail:
    names = s.players
    board = sum(s.pots.values()) + s.pool
    held = {names[q]: n for q, n in enumerate(s.round.counts)} if s.round else {}
    in_game = tuple(n for i, n in enumerate(names) if s.in_game and s.in_game[i])
    short: tuple[str, ...] = ()
    if s.phase is Phase.IDLE:
        short = tuple(n for i, n in enumerate(names) if s.in_game[i] and s.stacks[i] < ANTE)
    deal, widow, betting, play = _deal_view(s), _widow_view(s), _betting_view(s), _play_view(s)
    final_next = _final_next(s)
    return RummoliDetail(
        pots=_pots(s),
        run_pot=run_pot(s.rules),
        pool=s.pool,
        chips_on_board=board,
        chips_added=s.added,
        chips_total=sum(s.stacks) + board,
        in_game=in_game,
        short=short,
        next_dealer=names[current_dealer(s)] if s.phase is Phase.IDLE else None,
        held=held,
        deal=deal,
        widow=widow,
        betting=betting,
        play=play,
        pending=tuple(
            PendingClaim(
                player=s.name(q),
                pot=pot,
                label=POT_LABELS[pot],
                chips=s.pots[pot],
                rule=POTS[pot].rule,
            )
            for q, pot in s.pending
        ),
        adjustments=tuple(Adjustment(**a) for a in s.adjustments),
        final=tuple(s.final_log),
        final_next=final_next,
        final_statement=statement(names, [e for e in s.ledger if e.kind == "final_poker"]),
        rules=s.rules,
        notes=tuple(_notes(s, short, deal, betting, play, final_next)),
    )


def _notes(
    s: State,
    short: tuple[str, ...],
    deal: DealView | None,
    betting: BettingView | None,
    play: PlayView | None,
    final_next: FinalNext | None,
) -> list[Note]:
    """The referee's sentences for the phase in play."""
    if s.phase is Phase.IDLE:
        return idle_notes(s.name(current_dealer(s)), short, s.rules)
    if s.phase is Phase.WIDOW and deal is not None:
        return widow_notes(deal.sizes, deal.widow, deal.gone, deal.dealer, s.rules)
    if s.phase is Phase.POKER and betting is not None:
        widow = s.rounds[-1].widow
        said = [] if widow is None else [Note(key="widow", text=widow.words, rule=widow.rule)]
        return said + poker_notes(final=False, limit=betting.limit)
    if s.phase is Phase.FINAL and final_next is not None and betting is not None:
        where = final_notes(final_next.pot, final_next.label, final_next.chips, final_next.dealer)
        return where + poker_notes(final=True, limit=betting.limit)
    if s.phase is Phase.PLAY and play is not None:
        return _play_notes(s, play)
    if s.phase is Phase.OVER:
        return [Note(key="win", text="The player with the most chips wins.", rule="M7.3")]
    return []


def _play_notes(s: State, play: PlayView) -> list[Note]:
    log = s.rounds[-1]
    notes: list[Note] = []
    if log.poker is not None:
        notes.append(Note(key="poker", text=log.poker.words, rule=log.poker.rule))
    notes += round_notes(None, False, play.won, {}, done=False)
    notes += play_notes(
        laid=bool(play.laid),
        next_card=play.next_card,
        expected=play.expected,
        colour=play.break_colour,
        rule=play.rule,
        held={p: n for p, n in play.held.items() if p in play.layers or n},
    )
    return notes


def _pots(s: State) -> tuple[PotView, ...]:
    chips = s.pots or dict.fromkeys(pot_names(s.rules), 0)
    won = s.rounds[-1].won if s.rounds and s.phase is Phase.PLAY else {}
    open_ = set(_open_pots(s))
    return tuple(
        PotView(
            pot=name,
            label=POTS[name].label,
            chips=n,
            wins=POTS[name].wins,
            rule=POTS[name].rule,
            cards=POTS[name].cards,
            combo=POTS[name].combo,
            open=name in open_,
            won_by=s.name(won[name]) if name in won else None,
        )
        for name, n in chips.items()
    )


def _open_pots(s: State) -> list[str]:
    """Pay-card pots not yet won this round (what a quick settlement may still enter)."""
    if s.phase is not Phase.PLAY or not s.rounds or s.rounds[-1].mode == "live":
        return []
    won = s.rounds[-1].won
    return [p for p in pot_names(s.rules) if p not in ("poker", "rummoli") and p not in won]


def _deal_view(s: State) -> DealView | None:
    if s.round is None or not s.rounds:
        return None
    log = s.rounds[-1]
    return DealView(
        number=log.number,
        dealer=s.name(log.dealer),
        order=tuple(s.name(q) for q in log.order),
        sizes={s.name(q): n for q, n in zip(log.order, log.sizes, strict=False)},
        widow=log.sizes[-1],
        ante=ANTE,
        gone=tuple(s.name(q) for q in log.gone),
    )


def _widow_view(s: State) -> WidowView | None:
    r = s.round
    if s.phase is not Phase.WIDOW or r is None:
        return None
    return WidowView(
        dealer=s.name(r.dealer),
        size=r.widow_count,
        bidders=tuple(s.name(q) for q in left_of(s, r.dealer) if q != r.dealer),
        needs_no_pay_card=s.rules.widow_needs_no_pay_card,
        pay_cards=pay_cards_text(s.rules),
    )


def _betting_view(s: State) -> BettingView | None:
    r = s.round
    if s.phase in (Phase.WIDOW, Phase.POKER) and r is not None:
        bets, folded, pot, dealer = r.bets, r.folded, "poker", r.dealer
        max_cards = {s.name(q): n for q, n in enumerate(r.counts) if n}
    elif s.phase is Phase.FINAL and s.final_queue:
        bets, folded, pot, dealer = s.final_bets, s.final_folded, s.final_queue[0], final_dealer(s)
        max_cards = {s.name(q): 5 for q in left_of(s, dealer)}
    else:
        return None
    final = s.phase is Phase.FINAL
    in_hand = [q for q in left_of(s, dealer) if q not in folded]
    top = max(bets) if bets else 0
    betting = s.rules.poker_betting == "one_round"
    limit = s.rules.bet_limit
    return BettingView(
        final=final,
        pot=pot,
        label="the board" if pot == "final" else f"the {POT_LABELS[pot]} pot",
        chips=s.pool if pot == "final" else s.pots[pot],
        dealer=s.name(dealer),
        in_hand=tuple(s.name(q) for q in in_hand),
        folded=tuple(s.name(q) for q in sorted(folded)),
        bets={s.name(q): bets[q] for q in left_of(s, dealer) if q in in_hand or bets[q]},
        to_call={s.name(q): top - bets[q] for q in in_hand},
        max_bet={s.name(q): min(s.stacks[q], top - bets[q] + limit) for q in in_hand}
        if betting
        else {},
        betting=betting,
        limit=limit if betting else None,
        first=s.name(in_hand[0]) if in_hand and betting else None,
        max_cards=max_cards,
        showdown_rule="M7.2" if final else "M4.3",
        split_rule="M7.2" if final else "M4.4",
        cards_rule="A-M16" if final else "M4.1",
    )


def _next_card(s: State) -> Card | None:
    r = s.round
    if s.phase is not Phase.PLAY or r is None or r.last is None:
        return None
    card = next_card_after(r.last[1])
    if card is None or card in r.laid or card in r.dead:
        return None
    return card


def _play_view(s: State) -> PlayView | None:
    r = s.round
    if s.phase is not Phase.PLAY or r is None:
        return None
    log = s.rounds[-1]
    nxt = _next_card(s)
    if r.last is None:
        expected = [] if r.starter is None else [r.starter]
        colour, rule = None, "M5.1"
    else:
        expected = clockwise_from(s, r.last[0])
        colour = str(r.last[1].s.color.opposite)
        rule = "M5.2" if nxt else ("M5.4" if next_card_after(r.last[1]) is None else "M5.3")
    return PlayView(
        starter=None if r.starter is None else s.name(r.starter),
        mode=log.mode,
        laid=tuple((s.name(q), c) for q, c in log.laid),
        held={s.name(q): n for q, n in enumerate(r.counts)},
        layers=tuple(s.name(q) for q in range(len(s.players)) if s.in_game[q] and r.counts[q]),
        next_card=nxt,
        expected=tuple(s.name(q) for q in expected),
        break_colour=colour,
        rule=rule,
        open_pots=tuple(_open_pots(s)),
        won={pot: s.name(q) for pot, q in log.won.items()},
    )


def _final_next(s: State) -> FinalNext | None:
    """The pot the next final poker is played for (M7.2): the whole board (``final``),
    or with ``final_poker=per_pot`` the pot with the fewest chips; None outside it."""
    if s.phase is not Phase.FINAL or not s.final_queue:
        return None
    pot = s.final_queue[0]
    return FinalNext(
        pot=pot,
        label="the board" if pot == "final" else f"the {POT_LABELS[pot]} pot",
        chips=s.pool if pot == "final" else s.pots[pot],
        dealer=s.name(final_dealer(s)),
        per_pot=s.rules.final_poker == "per_pot",
        queue=tuple(s.final_queue),
    )
