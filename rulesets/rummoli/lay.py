"""The live card log of the Rummoli phase (M5): is this card legal, and what follows.

The referee works from public information only: the first card comes from the
poker winner (M5.1); a card continues the suit (anyone may lay it, M5.2) or
breaks it, and a break must be the opposite colour (M5.3, after an ace M5.4)
from the last layer or the next seat clockwise (M5.5).  A break tells the table
things: the missing card is dead (nobody may lay it later), the seats skipped
hold no card of that colour, and the breaking card was its player's lowest of
that colour (A-M13).  Cards shown at poker stay in their owner's hand and the
hand given up for the widow is dead, so a later lay that contradicts any of
this is refused with the rule it breaks.

When the table also gives the layer's private hand (``hand=``, never
recorded), the referee checks it exactly: the card is in it, the first card is
the lowest (M5.1), a held next card must be laid (M5.2), a break is the lowest
of its colour (M5.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rulesets.cards import Card, Color, format_cards, parse_cards
from rulesets.rummoli.actions import Lay
from rulesets.rummoli.board import next_rank
from rulesets.rummoli.settle import completed_pots, end_round, win_pot
from rulesets.rummoli.state import (
    Phase,
    RoundLog,
    RoundState,
    State,
    clockwise_from,
    illegal,
    pay_into,
    seat_of,
)

__all__ = ["lay", "next_card_after", "shown_unlaid"]


@dataclass
class _Plan:
    """What a legal lay teaches the table (applied only once every check passed)."""

    fines: list[int] = field(default_factory=list)
    floor: dict[Color, int] = field(default_factory=dict)
    dead: Card | None = None
    void: Color | None = None


def next_card_after(card: Card) -> Card | None:
    """The card that continues ``card``'s suit (M5.2); None after an ace (M5.4)."""
    rank = next_rank(card.r)
    return None if rank is None else Card(rank, card.s)


def shown_unlaid(r: RoundState, seat: int, color: Color | None, below: int) -> list[Card]:
    """Cards ``seat`` showed at poker, not yet laid, of ``color`` and ranked below ``below``."""
    return sorted(
        c
        for c, q in r.shown.items()
        if q == seat
        and c not in r.laid
        and (color is None or c.s.color is color)
        and c.r.high < below
    )


def lay(s: State, a: Lay, hand: Sequence[Card] | None = None) -> None:
    """Check and apply one card laid (M5)."""
    r, log = _round_in_play(s, a)
    p = seat_of(s, a.player, f"lay {a.card}")
    card = a.card
    _check_public(s, r, p, card)
    plan = _first(s, r, p, card) if r.last is None else _follow(s, r, p, card)
    if hand is not None:
        _check_private(s, r, p, card, hand)
    _apply(s, r, log, p, card, plan)


def _round_in_play(s: State, a: Lay) -> tuple[RoundState, RoundLog]:
    r = s.round
    if s.phase is not Phase.PLAY or r is None:
        raise illegal(
            f"lay {a.card}: cards are laid after the poker phase ({s.phase} phase)", rule="M5.1"
        )
    log = s.rounds[-1]
    if log.mode == "quick":
        raise illegal(
            f"lay {a.card}: this round is being settled quickly (pots already "
            "entered); undo them to log cards",
            rule="M5.6",
        )
    return r, log


def _check_public(s: State, r: RoundState, p: int, card: Card) -> None:
    """What anyone at the table can see rules the card out."""
    who = s.name(p)
    if card.is_joker:
        raise illegal(f"lay {card}: Rummoli has no jokers", rule="M1.1")
    if not s.in_game[p]:
        raise illegal(f"lay {card}: {who} is out of the game", rule="M7.1")
    if r.counts[p] <= 0:
        raise illegal(f"lay {card}: {who} holds no cards", rule="M2.1")
    if card in r.laid:
        raise illegal(f"lay {card}: {card} was already laid by {s.name(r.laid[card])}", rule="M5.2")
    if card in r.dead:
        raise illegal(
            f"lay {card}: the table broke the sequence at {card}, so nobody held it", rule="M5.3"
        )
    if card in r.dead_hand:
        raise illegal(f"lay {card}: {card} is in the dead hand given up for the widow", rule="M2.3")
    if r.shown.get(card, p) != p:
        raise illegal(
            f"lay {card}: {s.name(r.shown[card])} showed {card} in the poker hand", rule="M4.1"
        )
    color = card.s.color
    if color in r.void.get(p, set()):
        raise illegal(
            f"lay {card}: {who} could not lay a {color} card earlier, so holds none", rule="M5.5"
        )
    floor = r.floor.get(p, {}).get(color)
    if floor is not None and card.r.high < floor:
        raise illegal(
            f"lay {card}: {who} earlier laid a {color} card higher than {card} as their lowest",
            rule="M5.3",
        )


def _first(s: State, r: RoundState, p: int, card: Card) -> _Plan:
    """The opening card: the poker winner's lowest (M5.1)."""
    if p != r.starter:
        starter = "nobody" if r.starter is None else s.name(r.starter)
        raise illegal(f"lay {card}: the poker winner {starter} starts", rule="M5.1")
    lower = shown_unlaid(r, p, None, card.r.high)
    if lower:
        raise illegal(
            f"lay {card}: {s.name(p)} showed {format_cards(lower)} at poker, lower than {card}; "
            "the first card is the lowest",
            rule="M5.1",
        )
    return _Plan(floor={Color.RED: card.r.high, Color.BLACK: card.r.high})


def _follow(s: State, r: RoundState, p: int, card: Card) -> _Plan:
    """A card after the first: the next of the suit (M5.2), or a break (M5.3-M5.5)."""
    assert r.last is not None
    last_seat, last = r.last
    nxt = next_card_after(last)
    if nxt is not None and card == nxt:
        return _Plan()
    need = last.s.color.opposite
    if card.s.color != need:
        why = (
            f"after the ace {last}"
            if nxt is None
            else f"{nxt} is not laid, so the sequence broke and"
        )
        rule = "M5.4" if nxt is None else "M5.3"
        raise illegal(f"lay {card}: {why} the next card must be {need}", rule=rule)
    if nxt is not None and nxt not in r.laid and nxt in r.shown:
        raise illegal(
            f"lay {card}: {s.name(r.shown[nxt])} showed {nxt} at poker and must lay it",
            rule="M5.2",
        )
    skipped = _skipped(s, r, last_seat, p, card, need)
    lower = shown_unlaid(r, p, need, card.r.high)
    if lower:
        raise illegal(
            f"lay {card}: {s.name(p)} showed {format_cards(lower)} at poker, lower than {card}",
            rule="M5.3",
        )
    dead = nxt if nxt is not None and nxt not in r.laid else None
    return _Plan(fines=skipped, floor={need: card.r.high}, dead=dead, void=need)


def _skipped(s: State, r: RoundState, last_seat: int, p: int, card: Card, need: Color) -> list[int]:
    """The seats clockwise from the last layer up to ``p``: none could start (M5.5)."""
    order = clockwise_from(s, last_seat)
    if p not in order:
        raise illegal(f"lay {card}: {s.name(p)} holds no cards", rule="M5.5")
    skipped = order[: order.index(p)]
    for q in skipped:
        have = shown_unlaid(r, q, need, 15)
        if have:
            raise illegal(
                f"lay {card}: {s.name(q)} showed {format_cards(have)} at poker and "
                f"must start the {need} cards before {s.name(p)}",
                rule="M5.5",
            )
    return skipped


def _check_private(s: State, r: RoundState, p: int, card: Card, hand: Sequence[Card]) -> None:
    """The layer's own hand, when the table entered it (never recorded)."""
    cards = list(parse_cards(list(hand)))
    who = s.name(p)
    if len(cards) != r.counts[p]:
        raise illegal(
            f'lay {card}: the hand "{format_cards(cards)}" has {len(cards)} cards; the record '
            f"shows {who} holding {r.counts[p]}",
            rule="M2.1",
        )
    if card not in cards:
        raise illegal(f'lay {card}: {card} is not in {who}\'s hand "{format_cards(cards)}"', "M5")
    if r.last is None:
        _lowest_of(cards, None, card, who, "M5.1")
        return
    nxt = next_card_after(r.last[1])
    if nxt is not None and nxt in cards and card != nxt:
        raise illegal(f"lay {card}: {who} holds {nxt} and must lay it", rule="M5.2")
    if nxt is None or card != nxt:
        _lowest_of(cards, card.s.color, card, who, "M5.4" if nxt is None else "M5.3")


def _lowest_of(cards: list[Card], color: Color | None, card: Card, who: str, rule: str) -> None:
    lower = sorted(
        c for c in cards if (color is None or c.s.color is color) and c.r.high < card.r.high
    )
    if lower:
        what = "card" if color is None else f"{color} card"
        said = f"lay {card}: {who}'s lowest {what} is {lower[0]}, lower than {card}"
        raise illegal(f"{said} (M3.1)", rule=rule, words=said)


def _apply(s: State, r: RoundState, log: RoundLog, p: int, card: Card, plan: _Plan) -> None:
    if s.rules.pass_fine:
        for q in plan.fines:
            fine = {"kind": "pass_fine", "label": "pass fine", "rule": "M5.5"}
            pay_into(s, q, "rummoli", 1, hand=log.number, **fine)
    if plan.dead is not None:
        r.dead.add(plan.dead)
    if plan.void is not None:
        for q in plan.fines:
            r.void.setdefault(q, set()).add(plan.void)
    mine = r.floor.setdefault(p, {})
    for color, value in plan.floor.items():
        mine[color] = max(value, mine.get(color, 0))
    r.counts[p] -= 1
    r.laid[card] = p
    r.last = (p, card)
    log.mode = "live"
    log.laid.append((p, card))
    s.pending.clear()
    for pot, rule, cards in completed_pots(s, r, p, card):
        if s.rules.claim == "auto":
            win_pot(s, p, pot, rule, cards)
        else:
            s.pending.append((p, pot))
    if r.counts[p] == 0:
        end_round(s, out=p, held=list(r.counts))
