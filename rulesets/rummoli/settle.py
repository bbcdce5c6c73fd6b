"""Chips that move when pots are won and when a round ends (M5.6, M5.7, M6.1, A-M17)."""

from __future__ import annotations

from rulesets.cards import Card
from rulesets.protocol import LedgerEntry
from rulesets.rummoli.board import (
    AK_DIAMONDS,
    POT_LABELS,
    SINGLE_POTS,
    pot_rule,
    run_pot,
    run_ranks,
)
from rulesets.rummoli.state import (
    Phase,
    RoundState,
    State,
    left_of,
    pay_into,
    pay_out,
    record,
)
from rulesets.words import plural

__all__ = ["completed_pots", "end_round", "win_pot"]


def win_pot(s: State, seat: int, pot: str, rule: str, cards: tuple[str, ...] = ()) -> None:
    """``seat`` collects every chip in a pay pot (M5.6, A-M8, A-M9, A-M19)."""
    log = s.rounds[-1]
    log.won[pot] = seat
    pay_out(
        s,
        pot,
        seat,
        s.pots[pot],
        kind="pot",
        label=f"{POT_LABELS[pot]} pot",
        rule=rule,
        hand=log.number,
        cards=cards,
    )


def completed_pots(
    s: State, r: RoundState, seat: int, card: Card
) -> list[tuple[str, str, tuple[str, ...]]]:
    """The pay pots ``seat`` wins by laying ``card`` now: (pot, rule, cards)."""
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for pot, pc in SINGLE_POTS.items():
        if card == pc:
            out.append((pot, pot_rule(pot), (str(card),)))
    if card in AK_DIAMONDS and all(r.laid.get(c) == seat for c in AK_DIAMONDS):
        out.append(("AD+KD", pot_rule("AD+KD"), ("KD", "AD")))
    ranks = run_ranks(s.rules)
    if card.rank in ranks:
        run = [Card(rank, card.s) for rank in ranks]
        if all(r.laid.get(c) == seat for c in run):
            pot = run_pot(s.rules)
            out.append((pot, pot_rule(pot), tuple(str(c) for c in run)))
    won = s.rounds[-1].won
    return [(p, rule, cards) for p, rule, cards in out if p not in won]


def end_round(s: State, out: int | None, held: list[int]) -> None:
    """Close the round: the impasse (M5.7) or the first player out (M6.1, A-M11)."""
    log = s.rounds[-1]
    log.held = held
    if out is None:
        log.impasse = True
        for q, h in enumerate(held):
            if h and s.in_game[q]:
                pay_into(
                    s,
                    q,
                    "rummoli",
                    h,
                    kind="impasse",
                    label=f"impasse, {plural(h, 'card')} held",
                    rule="M5.7",
                    hand=log.number,
                )
    else:
        _went_out(s, out, held)
    log.finished = True
    log.carried = {pot: chips for pot, chips in s.pots.items() if chips}
    s.round = None
    s.phase = Phase.IDLE


def _went_out(s: State, out: int, held: list[int]) -> None:
    """``out`` takes the centre; everyone else pays 1 chip per card held to them (M6.1,
    A-M11) -- or every chip they have, if fewer: the rest is not owed (A-M17)."""
    log = s.rounds[-1]
    log.out = out
    winner = s.name(out)
    pay_out(
        s,
        "rummoli",
        out,
        s.pots["rummoli"],
        kind="centre",
        label="Rummoli pot",
        rule="M6.1",
        hand=log.number,
    )
    owed: list[str] = []
    total = 0
    for q in left_of(s, out):
        h = held[q]
        if q == out or not h:
            continue
        paid = min(h, s.stacks[q])
        s.stacks[q] -= paid
        total += paid
        record(
            s,
            LedgerEntry(
                player=s.name(q),
                amount=-paid,
                kind="held",
                rule="M6.1",
                hand=log.number,
                label=f"{plural(h, 'card')} held, paid to {winner}",
                other=winner,
                detail="" if paid == h else f"had only {paid}",
            ),
        )
        owed.append(f"{s.name(q)} {paid}")
    s.stacks[out] += total
    record(
        s,
        LedgerEntry(
            player=winner,
            amount=total,
            kind="owed",
            rule="A-M11",
            hand=log.number,
            label="cards owed",
            detail=", ".join(owed),
        ),
    )
