"""What goes down: melds, extensions, discards, going out, the leftovers, and the
end of a hand on an empty stock (U4.2-U4.6, U5-U8).

Each handler checks its action against the state and changes it (see
:mod:`rulesets.umtali.referee`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesets.cards import Card, distinct, format_cards
from rulesets.errors import IllegalActionError
from rulesets.protocol import Units
from rulesets.umtali.actions import Discard, Extend, GoOut, Leftovers, Meld
from rulesets.umtali.melds import (
    STOCK_AFTER_DEAL,
    MeldKind,
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
from rulesets.umtali.state import (
    Outcome,
    Phase,
    State,
    TableMeld,
    accepted,
    close_turn,
    fresh,
    in_hand,
    name_of,
    pile_put,
    pile_settle,
    place,
)
from rulesets.umtali.turns import end_hand, enter_final
from rulesets.words import plural, quote_cards

__all__ = [
    "discard",
    "end_hand_empty_stock",
    "extend",
    "go_out",
    "leftovers",
    "meld",
]


def _no_breaking_in(
    s: State, hand: frozenset[Card] | None, cards: Sequence[Card], head: str
) -> tuple[str, ...]:
    """U7.2 against the hand entered; without one, nothing to say: the game's
    opening words already say the rule is checked only when a hand is entered."""
    if hand is None:
        return ()
    return no_breaking(cards, hand, s.rules, head)


def meld(s: State, p: int, a: Meld, hand: frozenset[Card] | None) -> Outcome:
    """A set, sequence, marriage or jack goes down on ``p``'s side (U5)."""
    cards = distinct(a.cards, rule="U1.1")
    head = f"{s.players[p]} melds {quote_cards(cards)}"
    kind = classify_meld(cards)
    fresh(s, cards, head)
    in_hand(hand, cards, head)
    _melds_next(s, cards, head)
    down = TableMeld(kind, tuple(cards), p)
    place(s, p, down)
    pile_settle(s)
    return Outcome(
        kind.value,
        down.points,
        meld_rule(kind),
        f"{quote_cards(cards)} is a {kind.value}: {Units.POINTS.of(down.points)} to "
        f"{s.players[p]}'s side",
        tuple(cards),
    )


def _melds_next(s: State, cards: Sequence[Card], head: str) -> None:
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


def extend(s: State, p: int, a: Extend, hand: frozenset[Card] | None) -> Outcome:
    """A card played against an anchor becomes a single on ``p``'s side (U6)."""
    card = a.card
    side_name, index = a.anchor
    side = s.players.index(name_of(s, side_name))
    head = f'{s.players[p]} plays "{card}" onto {side_name}\'s meld #{index}'
    if not 0 <= index < len(s.sides[side]):
        raise IllegalActionError(
            f"{head}: {side_name}'s side has no meld #{index} (it has {len(s.sides[side])})",
            rule="U6.1",
        )
    anchor = s.sides[side][index]
    fresh(s, [card], head)
    pair_open = s.phase is Phase.FINAL and side == s.went_out
    check_anchor(card, anchor.kind, anchor.cards, s.rules, pair_open=pair_open)
    in_hand(hand, [card], head)
    notes = _no_breaking_in(s, hand, [card], head)
    _melds_next(s, [card], head)
    place(s, p, TableMeld(MeldKind.SINGLE, (card,), p, (side, index)))
    pile_settle(s)
    pts = card_points(card)
    return Outcome(
        "extension",
        pts,
        extension_rule(anchor.kind),
        f'"{card}" extends {quote_cards(anchor.cards)}: a single on {s.players[p]}\'s side, '
        f"{plural(pts, 'point')}",
        (card,),
        notes,
    )


def discard(s: State, p: int, a: Discard, hand: frozenset[Card] | None) -> Outcome:
    """A face-up discard ends the turn (U4.5), or the final turn (U8.4)."""
    card = a.card
    who = s.players[p]
    head = f'{who} discards "{card}"'
    fresh(s, [card], head)
    _discard_checks(s, card, head)
    in_hand(hand, [card], head)
    _compulsory(s, card, hand, head)
    pile_settle(s)
    pile_put(s, card)
    if s.phase is Phase.FINAL:
        s.final_discarded = True
        s.final_card = card
        return Outcome("discard", 0, "U8.4", f"{who}'s final discard", (card,))
    close_turn(s)
    s.turn_open = False
    return Outcome("discard", 0, "U4.5", f"{who} discards and ends the turn", (card,))


def _compulsory(s: State, card: Card, hand: frozenset[Card] | None, head: str) -> None:
    """``compulsory_melding`` (U4.4, A-U8): no discard while something can go down --
    the discarded card itself (a jack, U5.4; a card an anchor takes, U4.4; part of a
    meld), or, when the hand is known, anything in it.  Without the hand, nothing to
    say: the game's opening words already say the rest of the hand is checked only
    when it is entered (:data:`~rulesets.umtali.melds.U4_4_OPENING`)."""
    if not s.rules.compulsory_melding:
        return
    takes = accepted(s)
    compulsory_discard(card, hand or (), takes, s.rules, head)
    if hand is None:
        return
    play = playable(hand, takes)
    if play is not None:
        raise IllegalActionError(f"{head}: {play_words(*play)}; melding is compulsory", rule="U4.4")


def _discard_checks(s: State, card: Card, head: str) -> None:
    if card in s.taken and s.rules.no_rediscard:
        raise IllegalActionError(
            f"{head}: a card taken from the discard pile may not be discarded the same turn",
            rule="U4.3",
        )
    if card in s.pending:
        raise IllegalActionError(
            f"{head}: it was taken from the discard pile and must be melded", rule="U4.2"
        )
    close_turn(s)


def go_out(s: State, p: int, a: GoOut, hand: frozenset[Card] | None) -> Outcome:
    """``p`` goes out (U8.1): the other player's final turn follows, or the hand ends."""
    who = s.players[p]
    pair = distinct(a.pair, rule="U1.1")
    head = f"{who} goes out" + (f" with pair {quote_cards(pair)}" if pair else "")
    notes = _out_pair(s, pair, hand, head)
    discard = a.discard
    if discard is None and a.face_down:
        raise IllegalActionError(f"{head}: face down needs a discard to be named", rule="U8.1")
    if discard is not None:
        notes += _out_discard(s, discard, pair, hand, head)
    if hand is not None:
        rest = hand - set(pair) - ({discard} if discard else set())
        if rest:
            raise IllegalActionError(
                f"{head}: {format_cards(sorted(rest))} still in the hand entered; going "
                "out needs an empty hand (one discard allowed)",
                rule="U8.1",
            )
    if pair:
        place(s, p, TableMeld(MeldKind.PAIR, tuple(pair), p))
    close_turn(s)
    pile_settle(s)
    if discard is not None:
        pile_put(s, discard, face_down=bool(a.face_down))
    pts = meld_points(MeldKind.PAIR, pair)
    if s.phase is Phase.FINAL:
        end_hand(s, "out", both_out=True)
        return Outcome(
            "go_out",
            pts,
            "U8.5",
            f"{who} also goes out: nothing is transferred",
            tuple(pair),
            notes,
        )
    enter_final(s, p, face_down=bool(a.face_down))
    draw = "must draw from the stock" if s.face_down else "draws normally"
    return Outcome(
        "go_out",
        pts,
        "U8.1",
        f"{who} goes out; {s.players[1 - p]} {draw} and plays one final turn",
        tuple(pair),
        notes,
    )


def _out_pair(
    s: State, pair: Sequence[Card], hand: frozenset[Card] | None, head: str
) -> tuple[str, ...]:
    """U5.5: the one pair of the going-out turn (``loose_pair``: any two cards, A-U5)."""
    if not pair:
        return ()
    classify_pair(pair, s.rules)
    fresh(s, pair, head)
    in_hand(hand, pair, head)
    notes = _no_breaking_in(s, hand, pair, head)
    _melds_next(s, pair, head)
    return notes


def _out_discard(
    s: State,
    discard: Card,
    pair: Sequence[Card],
    hand: frozenset[Card] | None,
    head: str,
) -> tuple[str, ...]:
    """U8.1: the one card a player going out may discard (face up or down)."""
    if discard in pair:
        raise IllegalActionError(f"{head}: {discard} cannot be melded and discarded", rule="U8.1")
    fresh(s, [discard], head)
    in_hand(hand, [discard], head)
    s.pending = s.pending - set(pair)
    _discard_checks(s, discard, head)
    known = hand if hand is not None else frozenset({discard, *pair})
    if s.rules.compulsory_melding:
        compulsory_discard(discard, known, accepted(s), s.rules, head)
    return ()


def leftovers(s: State, p: int, a: Leftovers, hand: frozenset[Card] | None) -> Outcome:
    cards = distinct(a.cards, rule="U1.1")
    who = s.players[p]
    head = f"{who}'s leftovers {quote_cards(cards)}"
    if s.phase is not Phase.FINAL or s.went_out is None:
        raise IllegalActionError(f"{head}: leftovers move only after someone went out", rule="U8.4")
    if p == s.went_out:
        raise IllegalActionError(
            f"{head}: {who} went out; the leftovers are the other player's", rule="U8.4"
        )
    if s.pending:
        close_turn(s)
    fresh(s, cards, head)
    if s.final_card is not None and s.final_card in cards:
        raise IllegalActionError(
            f"{head}: {s.final_card} was the final discard, not a leftover", rule="U8.4"
        )
    if hand is not None and frozenset(cards) != hand:
        raise IllegalActionError(
            f"{head}: the hand entered is {quote_cards(sorted(hand))}", rule="U8.4"
        )
    if s.rules.compulsory_melding:
        play = playable(cards, accepted(s))
        if play is not None:
            raise IllegalActionError(
                f"{head}: {play_words(*play)} in the final turn; melding is compulsory",
                rule="A-U8",
            )
    out = s.went_out
    for c in cards:
        place(s, out, TableMeld(MeldKind.LEFTOVER, (c,), p))
    pts = sum(card_points(c) for c in cards)
    end_hand(s, "out", both_out=False)
    return Outcome(
        "leftovers",
        pts,
        "U8.4",
        f"{plural(len(cards), 'leftover card')} to {s.players[out]}'s side as "
        f"singles: {Units.POINTS.of(pts)}",
        tuple(cards),
    )


def end_hand_empty_stock(s: State) -> Outcome:
    """The stock ran out: the hand ends, each side scores itself (U4.6)."""
    if s.rules.empty_stock_reshuffle:
        title = s.rules.title_of("empty_stock_reshuffle")
        raise IllegalActionError(
            f'Ending the hand on an empty stock: with "{title}" the discard pile refills the stock',
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
    close_turn(s)
    end_hand(s, "empty_stock", both_out=False)
    return Outcome(
        "end_hand_empty_stock",
        0,
        "U4.6",
        "the stock is empty: each side scores itself",
        notes=notes,
    )
