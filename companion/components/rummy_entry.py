"""What the Rummy table screen sends to the referee, and what it asks it.

Pure helpers (no Flet): they build the recorded actions from what was tapped,
find a finished hand's entry in the record, and ask the referee
(``rulesets.rummy`` through the game's replay) for verdicts, penalties and
previews.  Nothing here decides a rule: every number and every "no" comes
from the referee.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.session import replay
from companion.storage import StoredGame
from rulesets import RulesetError, load_ruleset
from rulesets.cards import Card, parse_cards
from rulesets.protocol import HouseRulesBase

RULESET = load_ruleset("rummy")


@dataclass(frozen=True)
class Answer:
    """The referee's word on one possible entry: legal or not, why, which rule."""

    legal: bool
    reason: str
    rule: str | None


def house_rules(stored: StoredGame) -> HouseRulesBase:
    """The game's house rules as the referee's model (defaults = RULES.md)."""
    return RULESET.house_rules.model_validate(dict(stored.rules))


def cards_of(texts: Iterable[str]) -> list[Card]:
    """Cards from their recorded text (``["7H", "JK"]``); jokers may repeat."""
    return list(parse_cards(list(texts), allow_duplicates=True))


def penalty(cards: Sequence[Card], rules: HouseRulesBase) -> int:
    """The referee's value of a hand of cards (R6.1)."""
    return RULESET.score(list(cards), rules=rules).points


def ask(stored: StoredGame, actions: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, Answer]:
    """Replay ``actions``: the summary, or the referee's refusal."""
    try:
        summary = replay(stored, actions)
    except RulesetError as exc:
        return None, Answer(False, exc.reason, exc.rule)
    return summary, Answer(True, "", None)


def meld_action(player: str, cards: Sequence[Card]) -> dict[str, Any]:
    return {"type": "meld", "player": player, "cards": [str(c) for c in cards]}


def lay_off_action(player: str, cards: Sequence[Card], meld: int) -> dict[str, Any]:
    return {"type": "lay_off", "player": player, "cards": [str(c) for c in cards], "meld": meld}


def meld_verdict(
    stored: StoredGame, actions: list[dict[str, Any]], player: str, cards: Sequence[Card]
) -> Answer:
    """Would the referee accept these cards as a new meld by ``player`` now?"""
    _, answer = ask(stored, [*actions, meld_action(player, cards)])
    if not answer.legal:
        return answer
    v = RULESET.check(list(cards), rules=house_rules(stored))
    return Answer(True, v.reason, v.rule)


def lay_off_verdict(
    stored: StoredGame,
    actions: list[dict[str, Any]],
    player: str,
    cards: Sequence[Card],
    meld: dict[str, Any],
) -> Answer:
    """Would the referee accept laying ``cards`` off onto table meld ``meld`` now?"""
    _, answer = ask(stored, [*actions, lay_off_action(player, cards, int(meld["index"]))])
    if not answer.legal:
        return answer
    v = RULESET.check(list(cards), onto=cards_of(meld["cards"]), rules=house_rules(stored))
    if v.legal:
        return Answer(True, v.reason, v.rule)
    return Answer(True, "lays off onto this meld", "R3.3")  # jokers placed as on the table


def hand_end_action(
    went_out: str | None,
    going_rummy: bool,
    losers: Sequence[str],
    remaining: dict[str, list[Card]],
    typed: dict[str, int],
) -> dict[str, Any]:
    """The recorded end of a hand: cards for some losers, typed totals for others."""
    return {
        "type": "hand_end",
        "went_out": went_out,
        "going_rummy": bool(going_rummy) if went_out is not None else False,
        "remaining": {p: [str(c) for c in remaining.get(p, [])] for p in losers if p not in typed},
        "typed": {p: typed[p] for p in losers if p in typed},
    }


def hand_end_index(actions: Sequence[dict[str, Any]], number: int) -> int | None:
    """Where hand ``number``'s (1-based) hand-end entry is in the record."""
    seen = 0
    for i, a in enumerate(actions):
        if a.get("type") == "hand_end":
            seen += 1
            if seen == number:
                return i
    return None


def table_cards(table: Iterable[dict[str, Any]]) -> set[Card]:
    """Natural cards lying in the melds on the table (not available to anyone's hand)."""
    out: set[Card] = set()
    for m in table:
        out.update(c for c in cards_of(m["cards"]) if not c.is_joker)
    return out


def corrected(
    stored: StoredGame, actions: list[dict[str, Any]], index: int, new_end: dict[str, Any]
) -> list[dict[str, Any]]:
    """The record with the hand-end at ``index`` replaced by ``new_end``.

    Later hands keep their entries; a later deal is given to whoever the
    referee now says deals it (with ``winner_deals`` a corrected winner moves
    the deal).  If the referee refuses some later entry the record is
    returned as it is and ``session.replace`` reports the refusal.
    """
    out = [*actions[:index], new_end]
    for a in actions[index + 1 :]:
        if a.get("type") == "start_hand":
            summary, answer = ask(stored, out)
            if summary is not None and summary.get("dealer") and not summary.get("finished"):
                a = {**a, "dealer": summary["dealer"]}
        out.append(a)
    return out


def next_deal(summary: dict[str, Any]) -> dict[str, Any] | None:
    """The opening of the next hand (its dealer by the rules, R1.2), or None at game end."""
    if summary.get("finished") or summary.get("hand_in_progress"):
        return None
    return {"type": "start_hand", "dealer": summary.get("dealer")}
