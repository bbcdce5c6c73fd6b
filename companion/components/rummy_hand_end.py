"""Rummy "Hand over": who went out, going rummy, and every other player's cards.

For each player who did not go out: their remaining cards in the card picker
(the referee's penalty shown live) or a typed total, marked "typed".  The
picker never offers a card that lies on the table or that another player has
already been given in this hand end.  Before confirming, the referee's
scoring of the hand (doubling included) is shown as a preview.

The same form reopens a finished hand for correction: the record is replaced
and the referee recomputes every hand after it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import flet as ft

from companion.components.picker import CardPicker
from companion.components.rummy_entry import (
    Answer,
    ask,
    cards_of,
    corrected,
    hand_end_action,
    hand_end_index,
    house_rules,
    next_deal,
    penalty,
    table_cards,
)
from companion.components.rummy_scores import box, radio, refusal_note, rule_link, said, tag
from companion.session import GameSession, Refusal
from companion.ui import labelled, slug
from rulesets import RulesetError
from rulesets.cards import Card

NOBODY = "(nobody)"


def _initial(action: dict[str, Any] | None) -> dict[str, Any]:
    if action is None:
        return {"went_out": None, "rummy": False, "remaining": {}, "typed": {}}
    went = action.get("went_out")
    return {
        "went_out": NOBODY if went is None else went,
        "rummy": bool(action.get("going_rummy")),
        "remaining": {p: cards_of(c) for p, c in action.get("remaining", {}).items()},
        "typed": {p: str(v) for p, v in action.get("typed", {}).items()},
    }


@ft.component
def HandEndForm(session: GameSession, number: int, on_close: Callable[[], None]) -> ft.Control:
    """The hand-end entry for hand ``number`` (a new one, or a finished one to correct)."""
    stored = session.stored
    players = list(stored.players)
    rules = house_rules(stored)
    actions = list(session.actions)
    index = hand_end_index(actions, number)
    editing = index is not None
    prefix = actions[:index] if index is not None else actions
    start = _initial(actions[index] if index is not None else None)

    went_out, set_went_out = ft.use_state(start["went_out"])
    rummy, set_rummy = ft.use_state(start["rummy"])
    remaining, set_remaining = ft.use_state(start["remaining"])
    typed_on, set_typed_on = ft.use_state(frozenset(start["typed"]))
    typed_text = ft.use_ref(dict(start["typed"]))
    _, set_typed_rev = ft.use_state(0)
    nothing: Refusal | None = None
    refused, set_refused = ft.use_state(nothing)

    before, _ = ask(stored, prefix)
    on_table = table_cards((before or {}).get("table", []))
    flags = rules.model_dump()
    nobody_allowed = bool(flags.get("block_rummy")) or flags.get("max_reshuffles") is not None
    doubling = bool(flags.get("going_rummy_double"))

    winner = None if went_out in (None, NOBODY) else went_out
    losers = [p for p in players if p != winner] if went_out is not None else []

    # ---- what was entered, as the referee will see it ------------------------------
    typed: dict[str, int] = {}
    problems: list[str] = []
    for p in losers:
        if p in typed_on:
            raw = (typed_text.current or {}).get(p, "").strip()
            if raw.isdigit():
                typed[p] = int(raw)
            else:
                problems.append(f"type a whole number for {p}" if raw else f"type {p}'s total")
    action = hand_end_action(winner, rummy, losers, remaining, typed)
    preview: dict[str, Any] | None = None
    answer = Answer(True, "", None)
    if went_out is not None and not problems:
        preview, answer = ask(stored, [*prefix, action])

    # ---- handlers -------------------------------------------------------------------
    def choose_went_out(e: ft.Event[ft.RadioGroup]) -> None:
        value = e.control.value or None
        set_went_out(value)
        if value not in (None, NOBODY):
            set_remaining(lambda r: {p: c for p, c in r.items() if p != value})

    def set_cards(p: str, cards: list[Card]) -> None:
        set_remaining(lambda r: {**r, p: list(cards)})

    def toggle_typed(p: str, on: bool) -> None:
        set_typed_on(lambda s: (s | {p}) if on else (s - {p}))

    def on_typed(p: str, e: ft.Event[ft.TextField]) -> None:
        texts = dict(typed_text.current or {})
        texts[p] = e.control.value or ""
        typed_text.current = texts
        set_typed_rev(lambda n: n + 1)

    def confirm(_: Any) -> None:
        if went_out is None or problems or preview is None:
            return
        if index is not None:
            refusal = session.replace(corrected(stored, actions, index, action))
        else:
            deal = next_deal(preview)
            refusal = session.add_many([action, *([deal] if deal else [])])
        if refusal is None:
            on_close()
        else:
            session.clear_error()  # shown here, next to the entry, not at the top of the page
            set_refused(refusal)

    # ---- the form -------------------------------------------------------------------
    title = f"Correct hand {number}" if editing else f"Hand {number} is over"
    radios: list[ft.Control] = [radio(p, p) for p in players]
    if nobody_allowed:
        radios.append(radio(NOBODY, "Nobody (stock ran out)"))
    controls: list[ft.Control] = [
        ft.Text(title, size=18, weight=ft.FontWeight.BOLD),
        ft.Text("Who went out?", weight=ft.FontWeight.W_500),
        labelled(
            ft.RadioGroup(
                value=went_out,
                on_change=choose_went_out,
                content=ft.Row(radios, wrap=True),
            ),
            "Who went out?",
            "went-out",
        ),
    ]
    if winner is not None:
        note = " It doubles this hand's score (going_rummy_double)." if doubling else ""
        controls.append(
            ft.Row(
                [
                    tag(
                        ft.Switch(
                            label="Going rummy",
                            value=rummy,
                            on_change=lambda e: set_rummy(bool(e.control.value)),
                        ),
                        "going-rummy",
                    ),
                    rule_link("R4.2"),
                ],
                wrap=True,
            )
        )
        controls.append(
            ft.Text(
                f"{winner} went out in one turn, having put no card down before.{note}",
                size=12,
                italic=True,
            )
        )
    for p in losers:
        others: set[Card] = set()
        for q, cards in remaining.items():
            if q != p and q in losers and q not in typed_on:
                others.update(c for c in cards if not c.is_joker)
        mine = list(remaining.get(p, []))
        if p in typed_on:
            raw = (typed_text.current or {}).get(p, "")
            value_text = f"typed {raw}" if raw.strip().isdigit() else "typed: enter a total"
            entry: ft.Control = tag(
                ft.TextField(
                    label=f"{p}'s typed total",
                    value=raw,
                    keyboard_type=ft.KeyboardType.NUMBER,
                    on_change=lambda e, p=p: on_typed(p, e),
                    dense=True,
                    width=200,
                ),
                f"typed-{slug(p)}",
            )
        else:
            try:
                value_text = f"penalty {penalty(mine, rules)}"
            except RulesetError as exc:
                value_text = exc.reason
            entry = CardPicker(
                mine,
                partial(set_cards, p),
                ident=f"rem-{slug(p)}",
                label=f"{p}'s cards",
                jokers=bool(flags.get("jokers")),
                unavailable=on_table | others,
            )
        controls.append(
            box(
                ft.Column(
                    [
                        ft.Row(
                            [
                                ft.Text(p, size=16, weight=ft.FontWeight.BOLD, expand=True),
                                said(
                                    ft.Text(value_text, size=16, weight=ft.FontWeight.W_500),
                                    f"{p}: {value_text}",
                                    f"live-{slug(p)}",
                                ),
                            ]
                        ),
                        tag(
                            ft.Switch(
                                label=f"Type {p}'s total instead of cards",
                                value=p in typed_on,
                                on_change=lambda e, p=p: toggle_typed(p, bool(e.control.value)),
                            ),
                            f"typed-switch-{slug(p)}",
                        ),
                        entry,
                    ],
                    spacing=6,
                )
            )
        )
    if went_out is None:
        controls.append(ft.Text("Pick who went out, then enter everyone else's cards."))
    elif problems:
        controls.append(ft.Text("To confirm: " + "; ".join(problems) + ".", italic=True))
    elif not answer.legal:
        controls.append(
            said(
                ft.Row(
                    [
                        ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR),
                        ft.Text(answer.reason, color=ft.Colors.ERROR, expand=True),
                    ],
                ),
                f"Not accepted: {answer.reason}"
                + (f" (rule {answer.rule})" if answer.rule else ""),
                "hand-end-problem",
            )
        )
        if answer.rule:
            controls.append(rule_link(answer.rule, "hand-end-problem-rule"))
    elif preview is not None:
        controls.append(_preview(preview, number, players))
        # the rules the referee scored by: card values, losers' penalties, doubling, game end
        hand = (
            preview.get("hands", [])[number - 1] if len(preview.get("hands", [])) >= number else {}
        )
        rules_used = ["R6.1", "R6.2"] + (["R7"] if hand.get("doubled") else [])
        if preview.get("finished"):
            rules_used.append("R6.3")
        controls.append(ft.Row([rule_link(r) for r in rules_used], wrap=True, spacing=0))
    controls += refusal_note(refused, "hand-end-refusal")
    controls.append(
        ft.Row(
            [
                tag(
                    ft.FilledButton(
                        f"Save hand {number}" if editing else f"Confirm hand {number}",
                        icon=ft.Icons.CHECK,
                        on_click=confirm,
                        disabled=preview is None,
                        height=48,
                    ),
                    "confirm-hand",
                ),
                tag(
                    ft.OutlinedButton("Cancel", on_click=lambda _: on_close(), height=48),
                    "cancel-hand",
                ),
            ],
            wrap=True,
        )
    )
    # no frame around the whole form: on a phone each player's picker keeps 7 cards a row
    return ft.Column(controls, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def _preview(summary: dict[str, Any], number: int, players: list[str]) -> ft.Control:
    """The referee's scoring of this hand, before it is saved."""
    hands = summary.get("hands", [])
    hand = hands[number - 1] if len(hands) >= number else {}
    scores: dict[str, int] = hand.get("scores", {})
    totals: dict[str, int] = hand.get("totals", {})
    typed = set(hand.get("typed", []))
    parts = [f"{p} {scores.get(p, 0)}" + (" typed" if p in typed else "") for p in players]
    lines = [f"This hand: {' · '.join(parts)}"]
    if hand.get("doubled"):
        lines.append("Going rummy: every penalty doubled.")
    lines.append("Totals after it: " + " · ".join(f"{p} {totals.get(p, 0)}" for p in players))
    if summary.get("finished") and len(hands) == number:
        won = summary.get("winners", [])
        lines.append(
            "This ends the game: "
            + (f"{won[0]} wins." if len(won) == 1 else f"shared win, {' and '.join(won)}.")
        )
    text = "\n".join(lines)
    return said(ft.Text(text, size=15, weight=ft.FontWeight.W_500), text, "hand-preview")
