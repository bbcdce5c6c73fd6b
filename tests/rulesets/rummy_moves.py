"""Short-hand for Rummy tests: each move built from its action model and pushed
through the protocol (``push`` / ``verify`` / ``can``), with cards as words.

The referee has one API, the protocol; these only spare a test the model
boiler-plate (``meld(g, "B", "7H 8H 9H")`` is ``g.push(Meld(player="B",
cards=("7H", "8H", "9H")))``) and read back what the move made.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rulesets.cards import Card, parse_cards
from rulesets.errors import RecordError
from rulesets.rummy import (
    Discard,
    Draw,
    HandEnd,
    LayOff,
    Meld,
    RummyGame,
    RummyHand,
    StartHand,
    SwapJoker,
    TableMeld,
)

CardsIn = str | Card | Iterable[str | Card]


def card_texts(cards: CardsIn) -> tuple[str, ...]:
    """Cards as recorded text, read from words or cards (jokers may repeat)."""
    return tuple(str(c) for c in parse_cards(cards, allow_duplicates=True))


def meld_action(player: str, cards: CardsIn, kind: str | None = None) -> Meld:
    if kind not in (None, "set", "run"):
        raise RecordError(f"{kind!r}: a meld kind is set or run")
    return Meld(player=player, cards=card_texts(cards), kind=kind)  # type: ignore[arg-type]


def layoff_action(player: str, cards: CardsIn, meld: int) -> LayOff:
    return LayOff(player=player, cards=card_texts(cards), meld=meld)


def end_action(
    went_out: str | None,
    *,
    going_rummy: bool | None = None,
    remaining: Mapping[str, CardsIn] | None = None,
    typed: Mapping[str, int] | None = None,
) -> HandEnd:
    rem = {p: card_texts(c) if c else () for p, c in (remaining or {}).items()}
    return HandEnd(
        went_out=went_out, going_rummy=going_rummy, remaining=rem, typed=dict(typed or {})
    )


def draw_action(player: str, source: str = "stock", card: str | None = None) -> Draw:
    return Draw.model_validate({"player": player, "source": source, "card": card})


# ---- push ------------------------------------------------------------------------------


def start_hand(
    g: RummyGame, dealer: str | None = None, *, turns: bool = False, upcard: str | None = None
) -> StartHand:
    act = g.push(StartHand(dealer=dealer, turns=turns, upcard=upcard))
    assert isinstance(act, StartHand)
    return act


def draw(g: RummyGame, player: str, source: str = "stock", card: str | None = None) -> Draw:
    act = g.push(draw_action(player, source, card))
    assert isinstance(act, Draw)
    return act


def meld(g: RummyGame, player: str, cards: CardsIn, kind: str | None = None) -> TableMeld:
    """Push the meld; the meld it made on the table."""
    g.push(meld_action(player, cards, kind))
    return g.table[-1]


def lay_off(g: RummyGame, player: str, cards: CardsIn, meld: int) -> TableMeld:
    """Push the lay-off; the meld it extended."""
    g.push(layoff_action(player, cards, meld))
    return g.table[meld]


def swap_joker(g: RummyGame, player: str, meld: int, card: str) -> TableMeld:
    """Push the joker swap; the meld the card went into."""
    g.push(SwapJoker(player=player, meld=meld, card=card))
    return g.table[meld]


def discard(g: RummyGame, player: str, card: str | None = None) -> Discard:
    act = g.push(Discard(player=player, card=card))
    assert isinstance(act, Discard)
    return act


def end_hand(
    g: RummyGame,
    went_out: str | None,
    *,
    going_rummy: bool | None = None,
    remaining: Mapping[str, CardsIn] | None = None,
    typed: Mapping[str, int] | None = None,
) -> RummyHand:
    """Push the hand end; the scored hand."""
    g.push(end_action(went_out, going_rummy=going_rummy, remaining=remaining, typed=typed))
    return g.results[-1]


# ---- verify / can ----------------------------------------------------------------------


def verify_start_hand(g: RummyGame, dealer: str | None = None, *, turns: bool = False) -> None:
    g.verify(StartHand(dealer=dealer, turns=turns))


def can_start_hand(g: RummyGame, dealer: str | None = None, *, turns: bool = False) -> bool:
    return g.can(StartHand(dealer=dealer, turns=turns))


def verify_draw(g: RummyGame, player: str, source: str = "stock", card: str | None = None) -> None:
    g.verify(draw_action(player, source, card))


def can_draw(g: RummyGame, player: str, source: str = "stock", card: str | None = None) -> bool:
    return g.can(draw_action(player, source, card))


def verify_meld(g: RummyGame, player: str, cards: CardsIn, kind: str | None = None) -> None:
    g.verify(meld_action(player, cards, kind))


def can_meld(g: RummyGame, player: str, cards: CardsIn, kind: str | None = None) -> bool:
    return g.can(meld_action(player, cards, kind))


def verify_lay_off(g: RummyGame, player: str, cards: CardsIn, meld: int) -> None:
    g.verify(layoff_action(player, cards, meld))


def can_lay_off(g: RummyGame, player: str, cards: CardsIn, meld: int) -> bool:
    return g.can(layoff_action(player, cards, meld))


def verify_swap_joker(g: RummyGame, player: str, meld: int, card: str) -> None:
    g.verify(SwapJoker(player=player, meld=meld, card=card))


def can_swap_joker(g: RummyGame, player: str, meld: int, card: str) -> bool:
    return g.can(SwapJoker(player=player, meld=meld, card=card))


def verify_discard(g: RummyGame, player: str, card: str | None = None) -> None:
    g.verify(Discard(player=player, card=card))


def can_discard(g: RummyGame, player: str, card: str | None = None) -> bool:
    return g.can(Discard(player=player, card=card))


def verify_end_hand(g: RummyGame, went_out: str | None, **kw: object) -> None:
    g.verify(end_action(went_out, **kw))  # type: ignore[arg-type]


def can_end_hand(g: RummyGame, went_out: str | None, **kw: object) -> bool:
    return g.can(end_action(went_out, **kw))  # type: ignore[arg-type]
