"""Applying one action to the state: start, chips between rounds, deal, widow,
betting and poker, quick settlement, the end of the game and the final poker.

Each handler checks its action against the state and then changes it; any
``IllegalActionError`` leaves the caller's snapshot untouched (the game applies
actions to a copy).  The live card log is :mod:`rulesets.rummoli.lay`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesets.cards import Card, distinct, format_cards, parse_card
from rulesets.errors import RulesetError
from rulesets.protocol import LedgerEntry
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
from rulesets.rummoli.board import (
    ANTE,
    POT_LABELS,
    SINGLE_POTS,
    deal_sizes,
    pay_cards_in,
    pot_names,
    pot_rule,
)
from rulesets.rummoli.lay import lay
from rulesets.rummoli.results import FinalResult, PokerResult, ShownHand, WidowResult
from rulesets.rummoli.settle import end_round, win_pot
from rulesets.rummoli.state import (
    Phase,
    RoundLog,
    RoundState,
    State,
    final_dealer,
    illegal,
    left_of,
    next_dealer,
    pay_into,
    pay_out,
    record,
    seat_of,
)

__all__ = ["apply"]


def apply(s: State, a: RummoliAction, hand: Sequence[Card] | None = None) -> None:
    """Check ``a`` against ``s`` and apply it (``hand``: the actor's private cards)."""
    if s.phase is Phase.SETUP and not isinstance(a, Start):
        raise illegal(
            f"{a.type}: the game has not started; record the starting chips first", rule="M1.1"
        )
    _dispatch(s, a, hand)
    if not isinstance(a, Claim | Lay):
        # strict claiming: a pot not claimed before the next action is lost (M5.6)
        s.pending.clear()


def _dispatch(s: State, a: RummoliAction, hand: Sequence[Card] | None) -> None:
    match a:
        case Start():
            _start(s, a)
        case Adjust():
            _adjust(s, a)
        case Deal():
            _deal(s)
        case Widow():
            _widow(s, a, hand)
        case Bet():
            _bet(s, a)
        case Fold():
            _fold(s, a)
        case Poker():
            _poker(s, a)
        case Lay():
            lay(s, a, hand)
        case Claim():
            _claim(s, a)
        case Out():
            _out(s, a)
        case Impasse():
            _impasse(s, a)
        case End():
            _end(s)
        case FinalPoker():
            _final_poker(s, a)


# --------------------------------------------------------------------------- chips


def _start(s: State, a: Start) -> None:
    if s.phase is not Phase.SETUP:
        raise illegal("start: the game has already started", rule="M1.1")
    if len(a.chips) != len(s.players):
        raise illegal(
            f"start {a.chips}: give one starting stack per player ({len(s.players)})", rule="M1.1"
        )
    s.dealer = seat_of(s, a.dealer, "start")
    s.stacks = list(a.chips)
    s.pots = dict.fromkeys(pot_names(s.rules), 0)
    s.in_game = [True] * len(s.players)
    s.added = sum(a.chips)
    for name, chips in zip(s.players, a.chips, strict=True):
        record(
            s,
            LedgerEntry(
                player=name, amount=chips, kind="start", rule="M1.1", label="starting chips"
            ),
        )
    s.phase = Phase.IDLE


def _adjust(s: State, a: Adjust) -> None:
    p = seat_of(s, a.player, "adjust")
    if s.phase is not Phase.IDLE:
        raise illegal("adjust: chips may be added or removed only between rounds", rule="M6.2")
    if s.stacks[p] + a.chips < 0:
        raise illegal(f"adjust {a.chips:+d}: {s.name(p)} has only {s.stacks[p]} chips", rule="M1.1")
    s.stacks[p] += a.chips
    s.added += a.chips
    if s.stacks[p] >= ANTE:
        s.in_game[p] = True
    s.adjustments.append(
        {"after_round": len(s.rounds), "player": s.name(p), "chips": a.chips, "note": a.note}
    )
    buy_in = a.chips >= 0
    record(
        s,
        LedgerEntry(
            player=s.name(p),
            amount=a.chips,
            kind="buy_in" if buy_in else "adjust",
            rule="M1.1",
            label="buy-in" if buy_in else "chips taken out",
            detail=a.note,
        ),
    )


# --------------------------------------------------------------------------- deal and widow


def _deal(s: State) -> None:
    if s.phase is not Phase.IDLE:
        raise illegal(f"deal: not between rounds (the game is in the {s.phase} phase)", rule="M6.2")
    can_ante = [s.in_game[q] and s.stacks[q] >= ANTE for q in range(len(s.players))]
    if sum(can_ante) < 2:
        raise illegal(
            f"deal: fewer than two players can pay the ante of {ANTE}; end the game", rule="M7.1"
        )
    gone = [q for q in range(len(s.players)) if s.in_game[q] and not can_ante[q]]
    dealer = next_dealer(s) if s.dealt_before else s.dealer
    for q in gone:
        s.in_game[q] = False
    if not s.in_game[dealer]:
        dealer = left_of(s, dealer)[0]
    s.dealer = dealer
    s.dealt_before = True
    number = len(s.rounds) + 1
    order = left_of(s, dealer)
    sizes = deal_sizes(len(order))
    s.rounds.append(RoundLog(number=number, dealer=dealer, gone=gone, order=order, sizes=sizes))
    for q in gone:
        record(
            s,
            LedgerEntry(
                player=s.name(q),
                amount=0,
                kind="out",
                rule="M7.1",
                hand=number,
                label="out of the game: cannot pay the full ante",
            ),
        )
    for q in order:
        for pot in s.pots:
            s.pots[pot] += 1
        s.stacks[q] -= ANTE
        record(
            s,
            LedgerEntry(
                player=s.name(q), amount=-ANTE, kind="ante", rule="M1.3", hand=number, label="ante"
            ),
        )
    counts = [0] * len(s.players)
    for q, size in zip(order, sizes, strict=False):
        counts[q] = size
    s.round = RoundState(
        dealer=dealer, counts=counts, widow_count=sizes[-1], bets=[0] * len(s.players)
    )
    s.phase = Phase.WIDOW


def _hand_cards(cards: Sequence[Card], what: str) -> tuple[Card, ...]:
    hand = distinct(tuple(cards), rule="M1.1")
    if any(c.is_joker for c in hand):
        raise illegal(f'{what} "{format_cards(hand)}": Rummoli has no jokers', rule="M1.1")
    return hand


def _widow(s: State, a: Widow, private: Sequence[Card] | None) -> None:
    r = s.round
    if s.phase is not Phase.WIDOW or r is None:
        raise illegal("widow: the widow is settled right after the deal, before poker", rule="M2.3")
    log = s.rounds[-1]
    dealer = s.name(r.dealer)
    if a.player is None:
        if a.bid or a.hand:
            raise illegal("widow: nobody took the widow, so there is no bid or hand", rule="M2.3")
        log.widow = WidowResult(dealer=dealer)
        s.phase = Phase.POKER
        return
    p = seat_of(s, a.player, "widow")
    _check_widow_taker(s, r, p, a.bid)
    shown = a.hand if a.hand is not None else private
    if shown is not None:
        _check_widow_hand(s, r, p, shown)
    if a.bid:
        _widow_bid(s, p, r.dealer, a.bid, log.number)
    r.counts[p], r.widow_count = r.widow_count, r.counts[p]
    if a.hand is not None:
        r.dead_hand = set(a.hand)  # the hand given up is dead (M2.3)
    log.widow = WidowResult(taken_by=s.name(p), bid=a.bid, dealer=dealer)
    s.phase = Phase.POKER


def _check_widow_taker(s: State, r: RoundState, p: int, bid: int) -> None:
    if not s.in_game[p]:
        raise illegal(f"widow: {s.name(p)} is out of the game", rule="M7.1")
    if p == r.dealer and bid:
        raise illegal(f"widow bid {bid}: the dealer swaps for nothing", rule="M2.2")
    if bid > s.stacks[p]:
        raise illegal(f"widow bid {bid}: {s.name(p)} has only {s.stacks[p]} chips", rule="M2.3")


def _check_widow_hand(s: State, r: RoundState, p: int, cards: Sequence[Card]) -> None:
    """The hand given up for the widow: its size (M2.1) and no pay card (M2.4)."""
    hand = _hand_cards(cards, "widow hand")
    who = s.name(p)
    if len(hand) != r.counts[p]:
        raise illegal(
            f'widow hand "{format_cards(hand)}": {who} was dealt {r.counts[p]} cards', rule="M2.1"
        )
    found = pay_cards_in(hand, s.rules)
    if found and s.rules.widow_needs_no_pay_card:
        rule = "M2.2" if p == r.dealer else "M2.3"
        raise illegal(
            f'widow hand "{format_cards(hand)}": holds pay card(s) {", ".join(found)}, so '
            f"{who} may not take the widow ({rule})",
            rule="M2.4",
        )


def _widow_bid(s: State, p: int, dealer: int, bid: int, number: int) -> None:
    """The highest bidder pays the bid to the dealer (M2.3)."""
    s.stacks[p] -= bid
    s.stacks[dealer] += bid
    payer, payee = s.name(p), s.name(dealer)
    record(
        s,
        LedgerEntry(
            player=payer,
            amount=-bid,
            kind="widow_bid",
            rule="M2.3",
            hand=number,
            label=f"widow bid to {payee}",
            other=payee,
        ),
    )
    record(
        s,
        LedgerEntry(
            player=payee,
            amount=bid,
            kind="widow_bid",
            rule="M2.3",
            hand=number,
            label=f"widow bid from {payer}",
            other=payer,
        ),
    )


# --------------------------------------------------------------------------- betting and poker


def betting(s: State) -> tuple[list[int], set[int], str, int | None]:
    """The poker being played now: bets per seat, folded seats, its pot, its round."""
    if s.phase in (Phase.WIDOW, Phase.POKER) and s.round is not None:
        return s.round.bets, s.round.folded, "poker", s.rounds[-1].number
    if s.phase is Phase.FINAL and s.final_queue:
        return s.final_bets, s.final_folded, s.final_queue[0], None
    raise illegal(f"bet: there is no poker being played now ({s.phase} phase)", rule="M4.2")


def _close_widow(s: State) -> None:
    """A bet or fold in the widow phase means nobody took the widow (M2.3)."""
    if s.phase is Phase.WIDOW and s.round is not None:
        s.rounds[-1].widow = WidowResult(dealer=s.name(s.round.dealer))
        s.phase = Phase.POKER


def _need_betting(s: State, what: str) -> None:
    """Bets and folds are recorded only at a table that bets (M4.2)."""
    if s.rules.poker_betting != "one_round":
        raise illegal(
            f"{what}: this table plays without betting ({s.rules.setting('poker_betting')})",
            rule="M4.2",
        )


def _bet(s: State, a: Bet) -> None:
    p = seat_of(s, a.player, "bet")
    _need_betting(s, f"bet {a.chips}")
    bets, folded, pot, hand = betting(s)
    who = s.name(p)
    if not s.in_game[p] or p in folded:
        raise illegal(f"bet {a.chips}: {who} is not in this poker hand", rule="M4.2")
    if a.chips > s.stacks[p]:
        raise illegal(f"bet {a.chips}: {who} has only {s.stacks[p]} chips", rule="M4.2")
    total = bets[p] + a.chips
    if total - max(bets) > s.rules.bet_limit:
        raise illegal(
            f"bet {a.chips}: raises by {total - max(bets)}, above the limit {s.rules.bet_limit}",
            rule="M4.2",
        )
    bets[p] = total
    kind = "bet" if hand is not None else "final_poker"
    pay_into(s, p, pot, a.chips, kind=kind, label="poker bet", rule="M4.2", hand=hand)
    _close_widow(s)


def _fold(s: State, a: Fold) -> None:
    p = seat_of(s, a.player, "fold")
    _need_betting(s, "fold")
    _bets, folded, _pot, _hand = betting(s)
    if not s.in_game[p] or p in folded:
        raise illegal(f"fold: {s.name(p)} is not in this poker hand", rule="M4.2")
    left = [q for q in range(len(s.players)) if s.in_game[q] and q not in folded and q != p]
    if not left:
        raise illegal(f"fold: {s.name(p)} is the last player in and wins", rule="M4.3")
    folded.add(p)
    _close_widow(s)


def _judge_hands(
    s: State,
    hands: list[tuple[Card, ...] | None],
    contenders: list[int],
    *,
    final: bool,
    max_cards: list[int] | None,
) -> tuple[list[int], dict[Card, int], dict[str, ShownHand]]:
    """The referee judges the hands shown (M4.1, M4.3; A-M16 for the final poker)."""
    from rulesets import poker as pk

    rule = "M7.2" if final else "M4.3"
    if len(hands) != len(s.players):
        raise illegal(
            f"poker hands: give one entry per seat ({len(s.players)}), "
            "null for folded or out players",
            rule=rule,
        )
    seats: list[int] = []
    cards: list[tuple[Card, ...]] = []
    for q, h in enumerate(hands):
        if h is None:
            if q in contenders:
                raise illegal(f"poker hands: {s.name(q)} is still in; show their hand", rule=rule)
            continue
        if q not in contenders:
            raise illegal(f"poker hands: {s.name(q)} folded or is out", rule=rule)
        cards.append(_shown_hand(s, q, h, final=final, max_cards=max_cards))
        seats.append(q)
    j = pk.judge(cards, [s.name(q) for q in seats])
    shown = {c: seats[i] for i, h in enumerate(cards) for c in h}
    named = {s.name(seats[h.index]): ShownHand(name=h.name, best=h.best) for h in j.hands}
    return [seats[i] for i in j.winners], shown, named


def _shown_hand(
    s: State, q: int, h: tuple[Card, ...], *, final: bool, max_cards: list[int] | None
) -> tuple[Card, ...]:
    cards = _hand_cards(h, "poker hand")
    if final and len(cards) != 5:
        raise illegal(f'final poker hand "{format_cards(cards)}": 5 cards are dealt', rule="A-M16")
    if max_cards is not None and len(cards) > max_cards[q]:
        raise illegal(
            f'poker hand "{format_cards(cards)}": {s.name(q)} holds only {max_cards[q]} cards',
            rule="M4.1",
        )
    r = None if final else s.round
    dead = [c for c in cards if r is not None and c in r.dead_hand]
    if dead:
        raise illegal(
            f'poker hand "{format_cards(cards)}": {format_cards(dead)} is in the dead '
            "hand given up for the widow",
            rule="M2.3",
        )
    return cards


def _named_winners(
    s: State, names: list[int | str], contenders: list[int], judged: list[int] | None, rule: str
) -> list[int]:
    """Winners the table named: in the hand, once each, and as the hands shown say."""
    winners: list[int] = []
    for who in names:
        w = seat_of(s, who, "poker winners")
        if w not in contenders:
            raise illegal(f"poker winners: {s.name(w)} folded or is out", rule=rule)
        if w in winners:
            raise illegal(f"poker winners: {s.name(w)} listed twice", rule=rule)
        winners.append(w)
    if not winners:
        raise illegal("poker winners: name at least one winner", rule=rule)
    if judged is not None and sorted(judged) != sorted(winners):
        raise illegal(
            f"poker winners {', '.join(s.name(w) for w in winners)}: the hands shown make "
            f"{', '.join(s.name(w) for w in judged)} the winner(s)",
            rule=rule,
        )
    return winners


def _showdown(
    s: State,
    a: Poker | FinalPoker,
    folded: set[int],
    dealer: int,
    max_cards: list[int] | None,
) -> tuple[list[int], dict[Card, int], dict[str, ShownHand] | None]:
    """Who won a showdown, ordered clockwise from the dealer's left (M4.4, M7.2)."""
    final = isinstance(a, FinalPoker)
    rule = "M7.2" if final else "M4.3"
    order = left_of(s, dealer)
    contenders = [q for q in order if q not in folded]
    judged: list[int] | None = None
    shown: dict[Card, int] = {}
    named: dict[str, ShownHand] | None = None
    if a.hands is not None:
        judged, shown, named = _judge_hands(
            s, a.hands, contenders, final=final, max_cards=max_cards
        )
    if a.winners is not None:
        winners = _named_winners(s, a.winners, contenders, judged, rule)
    elif judged is not None:
        winners = judged
    elif len(contenders) == 1:
        winners = contenders
    else:
        raise illegal("poker: say who won, or give the hands to judge", rule=rule)
    return sorted(winners, key=order.index), shown, named


def _poker(s: State, a: Poker) -> None:
    r = s.round
    if s.phase is Phase.PLAY and s.rounds and s.rounds[-1].poker is not None:
        done = s.rounds[-1].poker
        raise illegal(
            f"poker: round {s.rounds[-1].number}'s poker was already played "
            f"({', '.join(done.winners)} won); only one showdown a round",
            rule="M4.3",
        )
    if s.phase not in (Phase.WIDOW, Phase.POKER) or r is None:
        raise illegal(f"poker: the poker phase comes after the deal ({s.phase} phase)", rule="M4.3")
    winners, shown, named = _showdown(s, a, r.folded, r.dealer, r.counts)
    r.shown = shown
    log = s.rounds[-1]
    pot = s.pots["poker"]
    share, odd = divmod(pot, len(winners))
    rule = "M4.3" if len(winners) == 1 else "M4.4"
    split = "" if len(winners) == 1 else f"split {len(winners)} ways, {odd} left in the pot"
    for w in winners:
        pay_out(
            s,
            "poker",
            w,
            share,
            kind="poker",
            label="Poker pot",
            rule=rule,
            detail=split,
            hand=log.number,
        )
    log.poker = PokerResult(
        hands=named,
        winners=tuple(s.name(w) for w in winners),
        pot=pot,
        share=share,
        carried=odd,
        starter=s.name(winners[0]),
    )
    if log.widow is None:
        log.widow = WidowResult(dealer=s.name(r.dealer))
    r.starter = winners[0]
    s.phase = Phase.PLAY


# --------------------------------------------------------------------------- quick settlement


def norm_pot(s: State, text: str) -> str:
    """A pot's name from what the table typed: ``KH``, ``K♥``, ``kh``, ``Rummoli``."""
    t = text.strip()
    names = pot_names(s.rules)
    for name in names:
        if t.lower() == name.lower() or t == POT_LABELS[name]:
            return name
    try:
        card = parse_card(t)
    except RulesetError:
        card = None
    for name, pc in SINGLE_POTS.items():
        if pc == card:
            return name
    raise illegal(f"claim {text!r}: no such pot (pots: {', '.join(names)})", rule="M1.2")


def _claim(s: State, a: Claim) -> None:
    p = seat_of(s, a.player, "claim")
    pot = norm_pot(s, a.pot)
    if pot in ("poker", "rummoli"):
        raise illegal(
            f"claim {pot}: that pot is won by poker or by going out, not claimed", rule="M5.6"
        )
    if (p, pot) in s.pending:
        s.pending.remove((p, pot))
        win_pot(s, p, pot, pot_rule(pot))
        log = s.rounds[-1]
        if log.finished:  # claimed after the round's last card: it is not carried over (M6.2)
            log.carried = {q: chips for q, chips in s.pots.items() if chips}
        return
    log = _quick_round(s, pot, p)
    if pot in log.won:
        raise illegal(f"claim {pot}: already won this round by {s.name(log.won[pot])}", rule="M5.6")
    log.mode = "quick"
    win_pot(s, p, pot, pot_rule(pot))


def _quick_round(s: State, pot: str, p: int) -> RoundLog:
    """The round a quick claim is entered for (the Rummoli phase, no card log)."""
    log = s.rounds[-1] if s.rounds else None
    if s.phase is not Phase.PLAY or log is None or log.mode == "live":
        if log is not None and log.mode == "live" and s.rules.claim == "auto":
            raise illegal(
                f"claim {pot}: pots pay automatically when the card is laid "
                f"({s.rules.setting('claim')})",
                rule="M5.6",
            )
        raise illegal(
            f"claim {pot}: {s.name(p)} has nothing to claim now (claim before the next card)",
            rule="M5.6",
        )
    if not s.in_game[p]:
        raise illegal(f"claim {pot}: {s.name(p)} is out of the game", rule="M7.1")
    return log


def _check_held(s: State, held: list[int], what: str) -> list[int]:
    r = s.round
    if r is None:
        raise illegal(f"{what}: no round is being played", rule="M6.1")
    if len(held) != len(s.players):
        raise illegal(
            f"{what} {held}: give the cards held by each of the {len(s.players)} seats", rule="M6.1"
        )
    for q, h in enumerate(held):
        if h > r.counts[q]:
            raise illegal(
                f"{what} {held}: {s.name(q)} holds at most {r.counts[q]} cards", rule="M2.1"
            )
    return list(held)


def _out(s: State, a: Out) -> None:
    r = s.round
    if s.phase is not Phase.PLAY or r is None:
        raise illegal(f"out: a player goes out in the Rummoli phase ({s.phase} phase)", rule="M6.1")
    p = seat_of(s, a.player, "out")
    if s.rounds[-1].mode == "live":
        raise illegal(
            f"out: the log shows {s.name(p)} still holds {r.counts[p]} cards", rule="M6.1"
        )
    if not s.in_game[p]:
        raise illegal(f"out: {s.name(p)} is out of the game", rule="M7.1")
    held = _check_held(s, a.held, "out")
    if held[p] != 0:
        raise illegal(f"out {a.held}: the player who went out holds 0 cards", rule="M6.1")
    s.rounds[-1].mode = "quick"
    end_round(s, out=p, held=held)


def _impasse(s: State, a: Impasse) -> None:
    r = s.round
    if s.phase is not Phase.PLAY or r is None:
        raise illegal(f"impasse: only in the Rummoli phase ({s.phase} phase)", rule="M5.7")
    log = s.rounds[-1]
    if log.mode == "live":
        if a.held is not None and list(a.held) != r.counts:
            raise illegal(f"impasse {a.held}: the log shows {r.counts} cards held", rule="M5.7")
        held = list(r.counts)
    else:
        if a.held is None:
            raise illegal("impasse: give the cards each seat holds", rule="M5.7")
        held = _check_held(s, a.held, "impasse")
        if sum(held) == 0:
            raise illegal(f"impasse {a.held}: someone still holds cards at an impasse", rule="M5.7")
        log.mode = "quick"
    end_round(s, out=None, held=held)


# --------------------------------------------------------------------------- end of the game


def _end(s: State) -> None:
    if s.phase is not Phase.IDLE:
        raise illegal(f"end: the game ends between rounds ({s.phase} phase)", rule="M7.1")
    if s.rules.final_poker == "single":
        total = sum(s.pots.values())
        for pot in s.pots:
            s.pots[pot] = 0
        s.pool = total
        s.final_queue = ["final"] if total else []
    else:
        # fewest chips first (M7.2); equal pots in board order, centre last (A-M18)
        order = list(pot_names(s.rules))
        s.final_queue = sorted(
            (p for p in order if s.pots[p] > 0), key=lambda p: (s.pots[p], order.index(p))
        )
    s.final_bets = [0] * len(s.players)
    s.final_folded = set()
    s.phase = Phase.FINAL if s.final_queue else Phase.OVER


def _final_poker(s: State, a: FinalPoker) -> None:
    if s.phase is not Phase.FINAL or not s.final_queue:
        raise illegal("final poker: the game has not been ended, or is over", rule="M7.2")
    if not any(s.in_game):
        raise illegal("final poker: nobody is left in the game", rule="M7.2")
    dealer = final_dealer(s)
    winners, _shown, named = _showdown(s, a, s.final_folded, dealer, None)
    pot = s.final_queue[0]
    chips = s.pool if pot == "final" else s.pots[pot]
    share, odd = divmod(chips, len(winners))
    label = "final poker" if pot == "final" else f"final poker for the {POT_LABELS[pot]} pot"
    for i, w in enumerate(winners):
        # odd chips: the tied winner nearest the final-poker dealer's left (M7.2, A-M18)
        extra = odd if i == 0 else 0
        detail = (
            ""
            if len(winners) == 1
            else f"split {len(winners)} ways" + (f", +{odd} odd chips" if extra else "")
        )
        pay_out(
            s, pot, w, share + extra, kind="final_poker", label=label, rule="M7.2", detail=detail
        )
    s.final_log.append(
        FinalResult(
            hands=named,
            winners=tuple(s.name(w) for w in winners),
            pot=pot,
            label="the board" if pot == "final" else f"the {POT_LABELS[pot]} pot",
            chips=chips,
            share=share,
            odd=odd,
            dealer=s.name(dealer),
        )
    )
    s.final_queue.pop(0)
    s.final_bets = [0] * len(s.players)
    s.final_folded = set()
    if not s.final_queue:
        s.phase = Phase.OVER
