"""What the rules say at this moment of the game, in sentences, each with its rule.

The table screen shows these notes next to the controls of the phase in play
(the ante before a deal, the deal sizes, the widow's terms, the betting limit,
the card that must come next...).  They are the referee's words: a screen
holds no rule text and no rule ID of its own.  Each note has a stable ``key``
the screen finds it by.

>>> from rulesets.rummoli.house_rules import RummoliRules
>>> end_note(RummoliRules(final_poker="per_pot")).text
'Ending the game: a final poker for each pot, fewest chips first.'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from rulesets.rummoli.board import (
    ANTE,
    POT_LABELS,
    pay_cards_text,
)
from rulesets.rummoli.house_rules import RummoliRules
from rulesets.words import names_and, plural

if TYPE_CHECKING:
    from rulesets.cards import Card

__all__ = [
    "Note",
    "end_note",
    "final_notes",
    "idle_notes",
    "play_notes",
    "poker_notes",
    "round_notes",
    "widow_notes",
]


class Note(BaseModel):
    """A sentence of the rules as they apply now, and the rule it comes from."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    key: str
    text: str
    rule: str


def end_note(rules: RummoliRules) -> Note:
    what = (
        "one final poker for all chips on the board"
        if rules.final_poker == "single"
        else "a final poker for each pot, fewest chips first"
    )
    return Note(key="end", text=f"Ending the game: {what}.", rule="M7.2")


def idle_notes(dealer: str, short: tuple[str, ...], rules: RummoliRules) -> list[Note]:
    """Between rounds: the ante and the dealer, who will be out, how the game ends."""
    notes = [
        Note(
            key="ante",
            text=f"Everyone antes 1 chip into each of the 9 pots ({ANTE} chips); {dealer} deals.",
            rule="M1.3",
        )
    ]
    if short:
        notes.append(
            Note(
                key="short",
                text=f"{names_and(short)} cannot pay the full ante and will be out of the game.",
                rule="M7.1",
            )
        )
    notes.append(end_note(rules))
    return notes


def widow_notes(
    order: dict[str, int], widow: int, gone: tuple[str, ...], dealer: str, rules: RummoliRules
) -> list[Note]:
    """Right after the deal: the ante paid, the deal, who is out, the widow's terms."""
    deal = ", ".join(f"{p} {n}" for p, n in order.items())
    notes = [
        Note(key="ante-paid", text="Everyone in paid the ante: 1 chip into each pot.", rule="M1.3"),
        Note(
            key="deal",
            text=f"Deal, one card at a time from the dealer's left: {deal}, widow {widow}.",
            rule="M2.1",
        ),
    ]
    if gone:
        notes.append(
            Note(
                key="gone",
                text=f"Out of the game (could not ante): {names_and(gone)}.",
                rule="M7.1",
            )
        )
    notes.append(
        Note(
            key="swap",
            text=f"{dealer} may swap their hand for the widow, blind and for nothing. Otherwise "
            "the widow is auctioned: the highest bidder pays the bid to the dealer.",
            rule="M2.3",
        )
    )
    if rules.widow_needs_no_pay_card:
        notes.append(
            Note(
                key="pay-card",
                text=f"Only a hand without a pay card may take the widow: {pay_cards_text(rules)}.",
                rule="M2.4",
            )
        )
    return notes


def round_notes(
    out: str | None, impasse: bool, won: dict[str, str], carried: dict[str, int], *, done: bool
) -> list[Note]:
    """A round's ending (M5.7 or M6.1), the pots won (M5.6) and what it left (M6.2)."""
    notes: list[Note] = []
    if won:
        what = ", ".join(f"{POT_LABELS[p]} by {w}" for p, w in won.items())
        notes.append(
            Note(key="won", text=("Pots won: " if done else "Won so far: ") + what, rule="M5.6")
        )
    if not done:
        return notes
    if impasse:
        notes.append(
            Note(
                key="how",
                text="Impasse: every card still held paid 1 chip into the Rummoli pot.",
                rule="M5.7",
            )
        )
    elif out is not None:
        notes.append(
            Note(
                key="how",
                text=f"{out} went out and took the Rummoli pot; 1 chip per card held paid to them.",
                rule="M6.1",
            )
        )
    left = ", ".join(f"{POT_LABELS[p]} {c}" for p, c in carried.items())
    notes.append(
        Note(
            key="carried",
            text=f"On the board for the next round: {left}" if left else "The board is empty.",
            rule="M6.2",
        )
    )
    return notes


def poker_notes(*, final: bool, limit: int | None) -> list[Note]:
    """The poker being played: the betting, the hands to enter, ties."""
    notes: list[Note] = []
    if limit is not None:
        notes.append(
            Note(
                key="betting",
                text=f"One betting round; a bet or raise is at most {limit}. The player on the "
                "dealer's left acts first. Bets go into the pot being played for.",
                rule="M4.2",
            )
        )
    if final:
        notes.append(
            Note(key="cards", text="Enter the 5 cards each player was dealt.", rule="A-M16")
        )
        notes.append(
            Note(
                key="split",
                text="Tied winners split it; odd chips go to the tied player nearest the "
                "dealer's left.",
                rule="M7.2",
            )
        )
    else:
        notes.append(
            Note(
                key="cards",
                text="Enter 5 cards each (or the whole hand: the best five count)",
                rule="M4.1",
            )
        )
        notes.append(
            Note(
                key="split",
                text="Tied winners split it; an odd chip stays in the Poker pot for the "
                "next round.",
                rule="M4.4",
            )
        )
    return notes


def final_notes(pot: str, label: str, amount: int, dealer: str) -> list[Note]:
    """The final poker about to be played (M7.2, A-M18)."""
    if pot == "final":
        what = f"All {amount} chips left on the board are played for in one final poker."
    else:
        what = (
            f"Final poker for {label} ({plural(amount, 'chip')}): pots are played for one by one, "
            "fewest chips first."
        )
    return [
        Note(
            key="final",
            text=f"{what} A fresh 5 cards are dealt to each player; {dealer} deals.",
            rule="M7.2",
        )
    ]


def play_notes(
    *,
    laid: bool,
    next_card: Card | None,
    expected: tuple[str, ...],
    colour: str | None,
    rule: str,
    held: dict[str, int],
) -> list[Note]:
    """The Rummoli phase: what the next card must be (M5.1-M5.5), the impasse (M5.7)."""
    first = expected[0] if expected else "The poker winner"
    if not laid:
        hint = f"{first} starts with their lowest card."
    elif next_card is not None:
        hint = (
            f"Next: whoever holds {next_card.symbol} must lay it. If nobody does, "
            f"{first} lays their lowest {colour} card."
        )
    else:
        hint = f"{first} lays their lowest {colour} card."
    counts = ", ".join(f"{p} {n}" for p, n in held.items())
    return [
        Note(key="hint", text=hint, rule=rule),
        Note(
            key="impasse",
            text=f"Nobody can lay {colour or 'the colour needed'}: every player pays 1 chip per "
            f"card held into the Rummoli pot ({counts}).",
            rule="M5.7",
        ),
        Note(
            key="impasse-quick",
            text="Nobody can lay the colour needed. Every player pays 1 chip per card held "
            "into the Rummoli pot, which carries over to the next round.",
            rule="M5.7",
        ),
        Note(
            key="claims",
            text="When a pay card is laid, tap its pot on the board, then who laid it.",
            rule="M5.6",
        ),
        Note(
            key="out",
            text="The first player out takes the Rummoli pot; every other player pays them "
            "1 chip per card still held.",
            rule="A-M11",
        ),
    ]
