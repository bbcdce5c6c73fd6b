"""Advice for a private Rummoli hand: the best poker five, the pay cards it holds,
whether it may take the widow, and -- at a live table -- the card to lay now.

>>> a = suggest(parse_cards("AS KS QS JS 10S 2H 3D"))
>>> a.plays[0].reason, a.plays[0].cards
('Poker hand: Royal flush (AS KS QS JS 10S)', ('AS', 'KS', 'QS', 'JS', '10S'))
>>> [p.cards for p in a.plays if p.kind == "pay_card"]
[('10S',), ('AS',)]
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesets.cards import Card, format_cards, parse_cards
from rulesets.errors import IllegalActionError
from rulesets.protocol import Advice, Verdict
from rulesets.rummoli.actions import Lay
from rulesets.rummoli.board import (
    AK_DIAMONDS,
    POTS,
    SINGLE_POTS,
    pay_cards_in,
    run_pot,
)
from rulesets.rummoli.game import RummoliGame
from rulesets.rummoli.house_rules import RummoliRules
from rulesets.rummoli.state import Phase

__all__ = ["suggest"]


def suggest(
    hand: Sequence[Card],
    *,
    rules: RummoliRules | None = None,
    game: RummoliGame | None = None,
    player: str | None = None,
) -> Advice:
    """The best poker five (M4.1), the pay cards held (M2.4, M5.6) and, when ``game`` and
    ``player`` are given, the card the rules make ``player`` lay now (M5), judged by the
    referee with the hand."""
    r = rules or (game.rules if game is not None else RummoliRules())
    cards = list(parse_cards(list(hand)))
    if any(c.is_joker for c in cards):
        raise IllegalActionError(f'"{format_cards(cards)}": Rummoli has no jokers', rule="M1.1")
    plays: list[Verdict] = []
    if game is not None and player is not None:
        plays += _lay_now(game, player, cards)
    plays += _poker_five(cards)
    pays = _pay_pots(cards, r)
    plays += [_pay_verdict(pot, held) for pot, held in pays]
    chips = game.pots if game is not None else {}
    widow = pay_cards_in(cards, r)
    notes = (
        f"holds pay card(s) {', '.join(widow)}: may not take the widow"
        if widow and r.widow_needs_no_pay_card
        else "may swap for or bid on the widow",
    )
    return Advice(
        plays=tuple(plays),
        left=tuple(str(c) for c in sorted(cards)),
        points=sum(chips.get(pot, 0) for pot, _ in pays),
        reason="; ".join(p.reason for p in plays) or "no poker hand and no pay card",
        notes=notes,
    )


def _poker_five(cards: list[Card]) -> list[Verdict]:
    from rulesets import poker as pk

    if len(cards) < 5:
        return []
    ev = pk.evaluate(cards)
    return [
        Verdict(
            legal=True,
            kind="poker",
            rule="M4.1",
            reason=f"Poker hand: {ev.name} ({' '.join(ev.best)})",
            cards=ev.best,
        )
    ]


def _pay_pots(cards: list[Card], r: RummoliRules) -> list[tuple[str, tuple[str, ...]]]:
    """(pot, the cards of it held) for each pot the hand's pay cards can win."""
    held = set(cards)
    out: list[tuple[str, tuple[str, ...]]] = [
        (pot, (str(c),)) for pot, c in SINGLE_POTS.items() if c in held
    ]
    if all(c in held for c in AK_DIAMONDS):
        out.append(("AD+KD", ("KD", "AD")))
    for run in pay_cards_in(cards, r):
        if " " in run:
            out.append((run_pot(r), tuple(run.split())))
    return out


def _pay_verdict(pot: str, held: tuple[str, ...]) -> Verdict:
    info = POTS[pot]
    return Verdict(
        legal=True,
        kind="pay_card",
        rule=info.rule,
        reason=f"{' '.join(held)}: the {info.label} pot pays when {info.wins}",
        cards=held,
    )


def _lay_now(game: RummoliGame, player: str, cards: list[Card]) -> list[Verdict]:
    """The card ``player`` must lay now, if it is their turn to lay one (M5.1-M5.5)."""
    play = game.summary().detail.play
    if game.phase is not Phase.PLAY or play is None or player not in play.layers:
        return []
    if play.next_card is not None and play.next_card in cards:
        card: Card | None = play.next_card
    elif play.next_card is not None or (play.expected and play.expected[0] != player):
        return []
    else:
        colour = play.break_colour
        mine = [c for c in cards if colour is None or str(c.s.color) == colour]
        card = min(mine, key=lambda c: c.r.high) if mine else None
    if card is None:
        return [
            Verdict(
                legal=True,
                kind="pass",
                rule="M5.5",
                reason=f"no {play.break_colour} card: the turn passes clockwise",
            )
        ]
    return [game.judge(Lay(player=player, card=card), hand=cards)]
