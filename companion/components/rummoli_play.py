"""The Rummoli phase: a quick settlement (pots and who went out) or a live card log.

Quick: tap a pot (here or on the board), then who laid its card; then who went
out and how many cards each other player still holds, or an impasse.  Live:
who laid which card, judged by the referee as it is chosen.  Open pots, held
cards, the next card, pending claims and every rule come from the referee.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import flet as ft

from companion.components.common import button, choice, rule_link, said, verdict_line
from companion.components.picker import CardPicker
from companion.components.rummoli_board import mini_cards, pot_words
from companion.components.rummoli_parts import (
    Draft,
    TableUi,
    chip_row,
    explain,
    note_row,
    plural,
    poker_result,
    section,
    stepper,
    summary_of,
    use_ui,
)
from companion.session import GameSession
from companion.ui import slug
from rulesets.cards import Card, parse_cards
from rulesets.rummoli import Claim, Impasse, Lay, Out, PlayView, PotView, RummoliSummary

__all__ = ["LiveLog", "PlayPanel", "QuickSettlement"]


@ft.component
def PlayPanel(session: GameSession, table: TableUi) -> ft.Control:
    summary = summary_of(session)
    play = summary.detail.play
    if play is None:
        return ft.Container()
    hand = summary.hands[-1]
    intro = [] if hand.poker is None else poker_result(hand.poker, "poker-result")
    intro += note_row(summary.detail.note("won"), "won-so-far")
    out: list[ft.Control] = [
        section(f"Round {hand.number}: the Rummoli phase", intro, "rummoli-intro")
    ]
    mode = play.mode or table.play_mode
    if play.mode is None:
        out.append(
            chip_row(
                [
                    choice(
                        "Quick: pots and who went out",
                        mode == "quick",
                        lambda _: setattr(table, "play_mode", "quick"),
                        "rummoli-mode-quick",
                    ),
                    choice(
                        "Card by card",
                        mode == "live",
                        lambda _: setattr(table, "play_mode", "live"),
                        "rummoli-mode-live",
                    ),
                ]
            )
        )
    if mode == "live":
        out.append(LiveLog(session, key="live"))  # type: ignore[call-arg]
    else:
        out.append(QuickSettlement(session, table, key="quick"))  # type: ignore[call-arg]
    return ft.Column(out, spacing=10)


# --------------------------------------------------------------------------- quick


@ft.observable
@dataclass
class QuickUi(Draft):
    combo: bool | None = None  #: did one player lay every card of the combination pot?
    ending: str | None = None  #: who went out, or "" for an impasse
    held: dict[str, int] = field(default_factory=dict)

    def step_by(self, player: str, most: int, delta: int) -> None:
        self.held = {**self.held, player: max(0, min(most, self.held.get(player, 0) + delta))}


@ft.component
def QuickSettlement(session: GameSession, table: TableUi) -> ft.Control:
    summary = summary_of(session)
    play = summary.detail.play
    ui = use_ui(QuickUi).fresh(len(session.actions))
    if play is None:
        return ft.Container()
    at = len(session.actions)
    pot = table.tapped_pot(at)
    pots = {p.pot: p for p in summary.detail.pots}

    def tap(name: str) -> None:
        # the entry count at the tap, not at the drawing (a tap may follow an entry)
        table.tap_pot(name, len(session.actions))
        ui.combo = None

    rows: list[ft.Control] = [
        *note_row(summary.detail.note("claims"), "claims-rule"),
        chip_row(
            [
                choice(
                    f"{pots[p].label} · {pots[p].chips}",
                    p == pot,
                    lambda _, p=p: tap(p),
                    f"claim-{slug(p)}",
                    f"Won: {pot_words(pots[p].label, pots[p].chips)}",
                )
                for p in play.open_pots
            ]
        ),
    ]
    if pot is not None and pot in play.open_pots:
        rows += _who_laid(session, summary, pots[pot], ui)
    return ft.Column(
        [section("Pay cards laid", rows, "quick-claims"), _ending(session, summary, play, ui)],
        spacing=10,
    )


def _who_laid(
    session: GameSession, summary: RummoliSummary, pot: PotView, ui: QuickUi
) -> list[ft.Control]:
    """Who laid the pot's card -- for a combination pot, after asking whether one
    player laid all of it (A-M8, A-M9, A-M19)."""
    if pot.combo and ui.combo is None:
        return [
            explain(
                f"The {pot.label} pot pays only if {pot.wins}. Did one player lay all of it?",
                pot.rule,
                "combo-question",
            ),
            ft.Row(
                [
                    button(
                        "Yes, one player",
                        lambda _: setattr(ui, "combo", True),
                        "combo-yes",
                        filled=True,
                    ),
                    button(
                        "No, different players", lambda _: setattr(ui, "combo", False), "combo-no"
                    ),
                ],
                wrap=True,
            ),
        ]
    if pot.combo and ui.combo is False:
        return [
            explain(
                f"Nobody wins the {pot.label} pot this round: its {plural(pot.chips, 'chip')} "
                "stay on the board.",
                pot.rule,
                "combo-no-payout",
            )
        ]
    return [
        ft.Text(f"Who laid {pot.label}?", size=15, weight=ft.FontWeight.W_500),
        chip_row(
            [
                choice(
                    p,
                    False,
                    lambda _, p=p: session.add(Claim(player=p, pot=pot.pot)),
                    f"claim-by-{slug(p)}",
                    f"{p} laid {pot.label}",
                )
                for p in summary.detail.in_game
            ]
        ),
    ]


def _held(summary: RummoliSummary, play: PlayView, ui: QuickUi) -> list[int]:
    """Cards still held per seat (seating order), each at most what the referee says."""
    skip = ui.ending or None
    return [
        max(0, min(ui.held.get(p, 0), play.held.get(p, 0)))
        if p in summary.detail.in_game and p != skip
        else 0
        for p in summary.players
    ]


def _steppers(summary: RummoliSummary, play: PlayView, ui: QuickUi) -> list[ft.Control]:
    now = _held(summary, play, ui)
    rows: list[ft.Control] = []
    for i, p in enumerate(summary.players):
        if p not in summary.detail.in_game or p == ui.ending:
            continue
        most = play.held.get(p, 0)
        rows.append(
            stepper(
                f"{p} holds",
                now[i],
                functools.partial(ui.step_by, p, most),
                f"held-{slug(p)}",
                0,
                most,
            )
        )
    return rows


def _ending(
    session: GameSession, summary: RummoliSummary, play: PlayView, ui: QuickUi
) -> ft.Control:
    """Who went out first (M6.1), or an impasse (M5.7)."""
    ending = ui.ending
    people = [
        choice(
            p,
            ending == p,
            lambda _, p=p: setattr(ui, "ending", p),
            f"out-{slug(p)}",
            f"{p} went out",
        )
        for p in summary.detail.in_game
    ]
    people.append(
        choice(
            "Impasse",
            ending == "",
            lambda _: setattr(ui, "ending", ""),
            "impasse",
            "Impasse: nobody can lay",
        )
    )
    rows: list[ft.Control] = [
        ft.Text("Who went out first?", size=15, weight=ft.FontWeight.W_500),
        chip_row(people),
    ]
    if ending:
        rows += _went_out(session, summary, play, ui, ending)
    elif ending == "":
        rows += note_row(summary.detail.note("impasse-quick"), "impasse-rule")
        rows += _steppers(summary, play, ui)
        held = _held(summary, play, ui)
        verdict = session.judge(Impasse(held=held))
        rows += [] if verdict.legal else [verdict_line(verdict, ident="impasse-verdict")]
        rows.append(
            button(
                f"Record the impasse: {sum(held)} chips to the centre",
                lambda _: session.add(Impasse(held=_held(summary, play, ui))),
                "record-impasse",
                filled=True,
                icon=ft.Icons.BLOCK,
                disabled=not verdict.legal,
            )
        )
    return section("End of the round", rows, "quick-end")


def _went_out(
    session: GameSession, summary: RummoliSummary, play: PlayView, ui: QuickUi, ending: str
) -> list[ft.Control]:
    held = _held(summary, play, ui)
    verdict = session.judge(Out(player=ending, held=held))
    centre = summary.detail.pot("rummoli").chips
    owed = (verdict.points or 0) - centre if verdict.legal else sum(held)
    rows = note_row(summary.detail.note("out"), "out-rule")
    rows.append(
        ft.Text(
            f"How many cards does each other player still hold? {ending} takes "
            f"the Rummoli pot ({centre}).",
            size=14,
        )
    )
    rows += _steppers(summary, play, ui)
    rows += [] if verdict.legal else [verdict_line(verdict, ident="out-verdict")]
    rows.append(
        button(
            f"{ending} went out: collects {owed} + the Rummoli pot",
            lambda _: session.add(Out(player=ending, held=_held(summary, play, ui))),
            "record-out",
            filled=True,
            icon=ft.Icons.DONE_ALL,
            disabled=not verdict.legal,
        )
    )
    return rows


# --------------------------------------------------------------------------- live


@ft.observable
@dataclass
class LiveUi(Draft):
    lay_by: str | None = None
    lay_card: list[Card] = field(default_factory=list)


def _laid_log(laid: tuple[tuple[str, str], ...]) -> list[ft.Control]:
    if not laid:
        return []
    cells: list[ft.Control] = [
        ft.Column(
            [
                mini_cards(card, width=30),
                ft.Text(
                    who,
                    size=11,
                    width=40,
                    max_lines=1,
                    overflow=ft.TextOverflow.ELLIPSIS,
                    text_align=ft.TextAlign.CENTER,
                ),
            ],
            spacing=1,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        )
        for who, card in laid
    ]
    words = "Laid: " + ", ".join(f"{c} by {w}" for w, c in laid)
    return [said(ft.Row(cells, wrap=True, spacing=2, run_spacing=6), words, "laid-log")]


def _pending(session: GameSession, summary: RummoliSummary) -> list[ft.Control]:
    """Pots a player may claim before the next card (claim=strict, M5.6)."""
    rows: list[ft.Control] = []
    for c in summary.detail.pending:
        rows.append(
            explain(
                f"{c.player} may claim the {c.label} pot now: an unclaimed pot stays on the "
                "board once the next card is laid.",
                c.rule,
            )
        )
        rows.append(
            button(
                f"{c.player} claims {c.label} ({c.chips})",
                lambda _, c=c: session.add(Claim(player=c.player, pot=c.pot)),
                f"pending-{slug(c.pot)}",
                filled=True,
                icon=ft.Icons.SAVINGS,
            )
        )
    return rows


def _lay_verdict(session: GameSession, action: Lay | None) -> list[ft.Control]:
    """The referee's verdict on the card chosen, before it is recorded."""
    if action is None:
        return []
    v = session.judge(action)
    if v.legal:
        words = f"{v.reason}."
        return [
            ft.Row(
                [
                    ft.Icon(ft.Icons.CHECK_CIRCLE, color=ft.Colors.PRIMARY),
                    said(ft.Text(words), words, "lay-verdict", expand=True),
                ]
            )
        ]
    return [
        ft.Row(
            [
                ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR),
                said(
                    ft.Text(v.reason, color=ft.Colors.ERROR), v.reason, "lay-verdict", expand=True
                ),
                *([rule_link(v.rule, "lay-verdict-rule")] if v.rule else []),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
    ]


@ft.component
def LiveLog(session: GameSession) -> ft.Control:
    summary = summary_of(session)
    play = summary.detail.play
    ui = use_ui(LiveUi).fresh(len(session.actions))
    if play is None:
        return ft.Container()
    who, chosen = ui.lay_by, list(ui.lay_card)
    action = Lay(player=who, card=str(chosen[0])) if who and chosen else None

    def record(_: object) -> None:
        # who and the card as they are now, not as they were when this was drawn
        if ui.lay_by and ui.lay_card:
            session.add(Lay(player=ui.lay_by, card=str(ui.lay_card[0])))

    rows: list[ft.Control] = [*_laid_log(play.laid), *_pending(session, summary)]
    rows += note_row(summary.detail.note("hint"), "live-hint")
    rows.append(ft.Text("Who laid the card?", size=15, weight=ft.FontWeight.W_500))
    rows.append(
        chip_row(
            [
                choice(
                    f"{p} ({play.held[p]})",
                    p == who,
                    lambda _, p=p: setattr(ui, "lay_by", p),
                    f"lay-by-{slug(p)}",
                    f"{p} lays, holds {play.held[p]}",
                )
                for p in play.layers
            ]
        )
    )
    rows.append(
        CardPicker(
            chosen,
            lambda cards: setattr(ui, "lay_card", list(cards[-1:])),
            ident="lay",
            label="Card laid",
            unavailable={c for _, text in play.laid for c in parse_cards(text)},
        )
    )
    rows += _lay_verdict(session, action)
    rows.append(
        button(
            f"Lay {chosen[0].symbol} for {who}" if action else "Pick who and the card",
            record,
            "record-lay",
            filled=True,
            icon=ft.Icons.PLAY_ARROW,
            disabled=action is None,
        )
    )
    impasse = [
        *note_row(summary.detail.note("impasse"), "impasse-live-rule"),
        button(
            "Record the impasse",
            lambda _: session.add(Impasse()),
            "impasse-live",
            icon=ft.Icons.BLOCK,
            disabled=not session.can(Impasse()),
        ),
    ]
    return ft.Column(
        [section("Card by card", rows, "live-log"), section("Impasse", impasse, "live-impasse")],
        spacing=10,
    )
