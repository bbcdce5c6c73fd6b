"""Random legal Rummoli games, played by M1-M7 with real shuffled hands.

Used by the conformance and property tests: every game is legal by
construction, mixes quick settlements and live card logs, and names players
either by name (as the app does now) or by seat number (as older records do).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from rulesets.cards import DECK, Card, Suit
from rulesets.protocol import GameRecord
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
    Start,
    Who,
    Widow,
)
from rulesets.rummoli.board import (
    AK_DIAMONDS,
    SINGLE_POTS,
    deal_sizes,
    next_rank,
    pay_cards_in,
    run_pot,
    run_ranks,
)
from rulesets.rummoli.game import RummoliGame
from rulesets.rummoli.house_rules import RummoliRules
from rulesets.rummoli.state import Phase, left_of

__all__ = ["PlayResult", "random_game", "random_record", "simulate_play"]

_NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")


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
    while held[seat]:
        rank = next_rank(card.r)
        nxt = None if rank is None else Card(rank, card.s)
        if nxt is not None and nxt in holder:
            seat, card = holder[nxt], nxt
            lay(seat, card)
            continue
        need = card.s.color.opposite
        clockwise = [(seat + k) % seats for k in range(seats)]
        able = [q for q in clockwise if any(c.s.color is need for c in held.get(q, []))]
        if not able:  # an impasse (M5.7)
            return PlayResult(lays, None, [len(held.get(q, [])) for q in range(seats)])
        seat = able[0]
        card = _lowest([c for c in held[seat] if c.s.color is need], rng)
        lay(seat, card)
    return PlayResult(lays, seat, [len(held.get(q, [])) for q in range(seats)])


class _Table:
    """One random game being played: the live game, the rules and how players are named."""

    def __init__(self, game: RummoliGame, rng: random.Random, by_name: bool) -> None:
        self.game = game
        self.rng = rng
        self.by_name = by_name

    def who(self, seat: int) -> Who:
        return self.game.players[seat] if self.by_name else seat

    @property
    def rules(self) -> RummoliRules:
        return self.game.rules


def _random_bets(t: _Table, seats: list[int]) -> None:
    g, rng = t.game, t.rng
    folded: set[int] = set()
    for _ in range(rng.randint(0, 4)):
        q = rng.choice(seats)
        if q in folded:
            continue
        if rng.random() < 0.3 and len(seats) - len(folded) > 1:
            g.push(Fold(player=t.who(q)))
            folded.add(q)
        else:
            bet = Bet(player=t.who(q), chips=rng.randint(1, t.rules.bet_limit))
            if g.can(bet):
                g.push(bet)


def _random_poker(t: _Table, hands: dict[int, list[Card]], final: bool) -> None:
    from rulesets import poker as pk

    g, rng = t.game, t.rng
    s = g._state
    seats = [q for q in range(len(s.players)) if s.in_game[q]]
    if t.rules.poker_betting == "one_round" and rng.random() < 0.7:
        _random_bets(t, seats)
    s = g._state
    out = s.final_folded if final or s.round is None else s.round.folded
    live = [q for q in seats if q not in out]
    make: Callable[..., Poker | FinalPoker] = FinalPoker if final else Poker
    if len(live) == 1 and rng.random() < 0.5:
        g.push(make())
        return
    j = pk.judge([hands[q] for q in live])
    winners = [t.who(live[i]) for i in j.winners]
    shown: list[tuple[Card, ...] | None] = [
        tuple(hands[q]) if q in live else None for q in range(len(s.players))
    ]
    mode = rng.random()
    if mode < 0.4:
        g.push(make(hands=shown))
    elif mode < 0.7:
        g.push(make(winners=winners))
    else:
        g.push(make(hands=shown, winners=winners))


def _deal_hands(t: _Table) -> tuple[dict[int, list[Card]], list[Card]]:
    s = t.game._state
    r = s.round
    assert r is not None
    order = left_of(s, r.dealer)
    deck = list(DECK)
    t.rng.shuffle(deck)
    hands: dict[int, list[Card]] = {}
    pos = 0
    for q, size in zip(order, deal_sizes(len(order)), strict=False):
        hands[q] = deck[pos : pos + size]
        pos += size
    return hands, deck[pos:]


def _random_widow(t: _Table, hands: dict[int, list[Card]], widow: list[Card]) -> None:
    """The dealer's swap (M2.2), an auction (M2.3), nobody, or straight to poker."""
    g, rng = t.game, t.rng
    s = g._state
    r = s.round
    assert r is not None

    def may(q: int) -> bool:
        return not t.rules.widow_needs_no_pay_card or not pay_cards_in(hands[q], t.rules)

    choice = rng.random()
    if choice < 0.25 and may(r.dealer):
        g.push(Widow(player=t.who(r.dealer), hand=tuple(hands[r.dealer])))
        hands[r.dealer], widow[:] = widow[:], hands[r.dealer]
    elif choice < 0.6:
        bidders = [q for q in left_of(s, r.dealer) if q != r.dealer and may(q)]
        if not bidders:
            g.push(Widow())
            return
        q = rng.choice(bidders)
        bid = rng.randint(0, min(3, s.stacks[q]))
        shown = tuple(hands[q]) if rng.random() < 0.5 else None
        g.push(Widow(player=t.who(q), bid=bid, hand=shown))
        hands[q], widow[:] = widow[:], hands[q]
    elif choice < 0.8:
        g.push(Widow())


def _quick_claims(t: _Table, lays: list[tuple[int, Card]]) -> None:
    """Quick settlement: the pots the lays won, as the table would enter them."""
    rules = t.rules
    won: dict[str, int] = {}
    laid = {c: q for q, c in lays}
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
        if rules.claim == "auto" or t.rng.random() < 0.8:
            t.game.push(Claim(player=t.who(q), pot=pot))


def _random_round(t: _Table) -> None:
    g, rng = t.game, t.rng
    hands, widow = _deal_hands(t)
    _random_widow(t, hands, widow)
    _random_poker(t, hands, final=False)
    r = g._state.round
    assert r is not None and r.starter is not None
    result = simulate_play(hands, r.starter, len(g.players), rng)
    if rng.random() < 0.6:
        for q, c in result.lays:
            g.push(Lay(player=t.who(q), card=c))
            for p, pot in g.pending_claims:
                if rng.random() < 0.8:
                    g.push(Claim(player=p if t.by_name else g.players.index(p), pot=pot))
        if result.out is None:
            g.push(Impasse())
        return
    _quick_claims(t, result.lays)
    if result.out is None:
        g.push(Impasse(held=result.held))
    else:
        g.push(Out(player=t.who(result.out), held=result.held))


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
    t = _Table(RummoliGame(_NAMES[:n], rules), rng, by_name=rng.random() < 0.5)
    g = t.game
    g.push(Start(chips=[rng.randint(5, 60) for _ in range(n)], dealer=t.who(rng.randrange(n))))
    for _ in range(rng.randint(0, 5)):
        if rng.random() < 0.15:
            q = rng.randrange(n)
            chips = rng.randint(0, 20) if rng.random() < 0.8 else -min(g.stacks[q], 3)
            g.push(Adjust(player=t.who(q), chips=chips, note="buy-in" if chips >= 0 else ""))
        if not g.can(Deal()):
            break
        g.push(Deal())
        _random_round(t)
    g.push(End())
    while g.phase is Phase.FINAL:
        deck = list(DECK)
        rng.shuffle(deck)
        s = g._state
        hands = {q: deck[5 * q : 5 * q + 5] for q in range(n) if s.in_game[q]}
        _random_poker(t, hands, final=True)
    return g


def random_record(seed: int) -> GameRecord:
    """The record of :func:`random_game` (what the conformance test replays)."""
    return random_game(seed).to_record()
