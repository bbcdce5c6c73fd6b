"""The end of a game, the same for every game: who won, everyone's place, the score
sheet, and what the table does next.

::

    ┌──────────────────────────────────┐
    │ app bar: the collapsed scoreboard│
    │ 🏆 Bob wins, 49 to 46.   Rule U2.1│  board: scrolls
    │ 1. Bob              49 points    │
    │ 2. Ann              46 points    │
    │ (the game's own: final poker …)  │
    │ the score sheet, hand by hand    │
    │ [ Home ]          [ Share ]      │  fixed
    │ Cy deals first (…)     Rule R1.2 │  the bar: the next game's deal,
    │ [Undo] [ New game, same players ]│  Undo and the next game
    └──────────────────────────────────┘

Every fact comes from the referee: the result in words and its rule, who deals
first in the next game and why (``summary.ending``), the places
(``summary.ranking()``).  Each game passes its own score sheet (and extras such
as Rummoli's final poker); this component draws the rest.

* **New game, same players** starts a new game of the same players and house
  rules (:meth:`~companion.session.GameSession.play_again`) and opens it.
* **Home** goes back to the first screen.
* **Share** the result as text: in a browser it is copied (a browser lets a page
  write to the clipboard only inside the tap, so the copy is the button's client
  action, ``ft.CopyToClipboard``) and a notice says so; in the app it goes
  through the phone's share sheet (clipboard where there is none).
* **Undo** takes back the last entry, which reopens the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import flet as ft

from companion.components.kit.common import rule_link, said, tag
from companion.components.kit.entry_bar import BAR_BUTTON_HEIGHT, EntryBar, Primary
from companion.components.kit.phone import share_text
from companion.components.kit.thumb_screen import thumb_screen
from companion.components.kit.ui import go, slug
from companion.services import ServicesContext
from companion.session import GameSession, Refusal
from rulesets.protocol import Standing, Summary

__all__ = ["GameOver", "result_message"]


def _played(created: str) -> str:
    """The day a game was started, as people write it ("3 Dec 2026")."""
    try:
        day = datetime.fromisoformat(created).astimezone()
    except ValueError:
        return created[:10]
    return f"{day.day} {day:%b %Y}"


def result_message(title: str, played: str, summary: Summary) -> str:
    """A finished game's result as a message to send: the result, then every place.

    >>> from rulesets.rummy import RummyGame
    >>> g = RummyGame(["Ann", "Bob", "Cy"], {"target": 10})
    >>> _ = g.push({"type": "start_hand", "dealer": "Ann"})
    >>> _ = g.push({"type": "hand_end", "went_out": "Bob", "remaining": {"Ann": ["KS"], "Cy": []}})
    >>> print(result_message("Rummy", "3 Dec 2026", g.summary()))
    Rummy, 3 Dec 2026: Shared win: Bob and Cy, 0 penalty points each.
    1. Bob: 0 penalty points
    1. Cy: 0 penalty points
    3. Ann: 10 penalty points
    1 hand played.
    """
    ending = summary.ending
    head = ending.text if ending is not None else "Game over."
    lines = [f"{title}, {played}: {head}"]
    lines += [f"{r.place}. {r.player}: {summary.units.of(r.total)}" for r in summary.ranking()]
    n = len(summary.hands)
    lines.append(f"{n} {summary.HAND_WORD.lower()}{'' if n == 1 else 's'} played.")
    return "\n".join(lines)


def _rank_row(summary: Summary, r: Standing) -> ft.Control:
    amount = summary.units.of(r.total)
    label = f"{r.place}. {r.player}: {amount}" + (", winner" if r.winner else "")
    return said(
        ft.Row(
            [
                ft.Icon(
                    ft.Icons.EMOJI_EVENTS if r.winner else ft.Icons.PERSON_OUTLINE,
                    color=ft.Colors.AMBER if r.winner else ft.Colors.ON_SURFACE_VARIANT,
                    size=22,
                ),
                ft.Text(
                    f"{r.place}. {r.player}",
                    size=17,
                    weight=ft.FontWeight.BOLD if r.winner else ft.FontWeight.NORMAL,
                    expand=True,
                    max_lines=1,
                    overflow=ft.TextOverflow.ELLIPSIS,
                ),
                ft.Text(amount, size=16, weight=ft.FontWeight.W_600),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        label,
        f"rank-{slug(r.player)}",
    )


def _result(summary: Summary) -> list[ft.Control]:
    """The result in the referee's words, with its rule, over every player's place."""
    ending = summary.ending
    text = ending.text if ending is not None else "Game over."
    head: list[ft.Control] = [
        said(
            ft.Text(text, size=21, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
            f"Result: {text}",
            "result",
            expand=True,
        )
    ]
    if ending is not None:
        head.append(rule_link(ending.rule, "result-rule"))
    rows = [_rank_row(summary, r) for r in summary.ranking()]
    return [
        ft.Row(head, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        ft.Container(
            ft.Column(rows, spacing=6),
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            border_radius=10,
            padding=ft.Padding.symmetric(horizontal=12, vertical=10),
        ),
    ]


def _home_and_share(session: GameSession, summary: Summary, web: bool) -> ft.Control:
    meta = session.meta
    title = meta.game.title()
    message = result_message(title, _played(meta.created), summary)

    def notice(words: str) -> None:
        if words:
            ft.context.page.show_dialog(ft.SnackBar(ft.Text(words)))

    async def share(_: Any) -> None:
        if web:  # the button's client action has copied it already, inside the tap
            notice("Result copied: paste it into a message.")
        else:
            notice(await share_text(message, f"{title} result"))

    home = ft.OutlinedButton(
        "Home", icon=ft.Icons.HOME, on_click=lambda _: go("/"), height=BAR_BUTTON_HEIGHT
    )
    sharer = ft.OutlinedButton(
        "Share",
        icon=ft.Icons.SHARE,
        on_click=share,
        action=ft.CopyToClipboard(message) if web else None,
        height=BAR_BUTTON_HEIGHT,
        tooltip="Copy the result to send" if web else "Share the result",
    )
    return ft.Row(
        [
            tag(home, "go-home", expand=True),
            ft.Container(width=12),
            ft.Semantics(
                content=sharer,
                identifier="share-result",
                key="share-result",
                label="Share the result" + (": copies it to paste into a message" if web else ""),
                button=True,
                expand=True,
            ),
        ],
        spacing=0,
    )


@ft.component
def GameOver(
    session: GameSession,
    sheet: Sequence[ft.Control] = (),
    extras: Sequence[ft.Control] = (),
) -> ft.Control:
    """The ending: the result and the places, ``extras`` (the game's own), ``sheet``
    (its score sheet), then Home and Share, and the bar with Undo and the next game."""
    services = ft.use_context(ServicesContext)
    summary = session.summary
    web = bool(getattr(ft.context.page, "web", False))

    def play_again() -> Refusal | None:
        started = session.play_again()
        if isinstance(started, Refusal):
            session.refuse(started.message)
            return started
        gid = started.game_id
        started.close()  # the play screen opens its own
        if services is not None:
            services.history_changed()
        go(f"/play/{gid}")
        return None

    ending = summary.ending
    primary = Primary(
        "New game, same players",
        "play-again",
        play_again,
        enabled=ending is not None,
        # no icon: beside Undo on a 360 px phone its words fit whole only without one
        icon=None,
    )
    hint = f"Game over. Next game: {ending.next_deal}." if ending is not None else "Game over."
    bar = EntryBar(
        session,
        None,
        primary,
        hint=hint,
        hint_rule=ending.next_rule if ending is not None else None,
        ident="game-over",
    )
    board = [*_result(summary), *extras, *sheet]
    return thumb_screen(
        board=board,
        entry=[_home_and_share(session, summary, web)],
        bar=bar,
    )
