"""The entry bar: the referee's verdict and the primary action, pinned under the thumb.

Every table screen ends with it (see :func:`~companion.components.kit.thumb_screen.thumb_screen`):

* one **verdict line** of reserved height -- the referee's live verdict on the
  entry being picked (kind and points, or why not) with its rule link, or the
  last refusal (with a dismiss button), or a hint while nothing is picked.  It
  never grows, so nothing above it moves; a tap on it shows the whole text when
  it is cut short;
* **Undo** at the bottom left, within reach of the thumb (the app bar keeps Redo);
* the **primary action** at the bottom right, 48 px high, live only when the
  referee says yes.  Its press is judged by the session; the phone ticks for an
  accepted entry and buzzes for a refused one (:func:`~companion.components.kit.phone.tick`).

Rare or destructive actions ("Stock ran out: end hand") never go in the bar.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.components.kit.common import kind_words, rule_link, rule_words
from companion.components.kit.phone import tick
from companion.components.kit.ui import icon_button
from companion.services import Services, ServicesContext
from companion.session import GameSession, Refusal
from rulesets.protocol import Units, Verdict

__all__ = [
    "BAR_BUTTON_HEIGHT",
    "Adds",
    "VERDICT_HEIGHT",
    "EntryBar",
    "Primary",
    "verdict_label",
    "verdict_slot",
]

#: px: the verdict line (three short lines of text, or the rule link) -- always this tall
VERDICT_HEIGHT = 52
#: the verdict's line height, a multiple of its 13 px font: 3 x 13 x 1.25 < VERDICT_HEIGHT
LINE_HEIGHT = 1.25
#: px: the rule link's place at the end of the verdict line (kept empty without a rule)
RULE_SLOT = 112
#: px: Undo and the primary action
BAR_BUTTON_HEIGHT = 48


@dataclass(frozen=True)
class Primary:
    """The bar's main button: its words, its test id, and what a press does.

    ``press`` makes the entry and returns the session's answer (None = accepted,
    a :class:`Refusal` = refused); it is read when pressed, never at render time.
    """

    text: str
    ident: str
    press: Callable[[], Refusal | None]
    enabled: bool = True
    icon: ft.IconData | None = ft.Icons.ADD_TASK


@dataclass(frozen=True)
class Adds:
    """A press that adds ``action`` to the game (``Primary(..., Adds(session, Deal()))``):
    equal from render to render, unlike a lambda, so the bar's memoized button is not
    drawn again on every update for it."""

    session: GameSession
    action: Any

    def __call__(self) -> Refusal | None:
        return self.session.add(self.action)


def verdict_label(v: Verdict, units: Units = Units.POINTS) -> str:
    """What a screen reader says for a verdict (the same words as ``common.verdict_line``);
    a meld's points in the game's ``units`` (under penalty scoring a meld is worth
    nothing: its points come out of the hand, :meth:`Units.meld`)."""
    if v.legal:
        head = kind_words(v.kind) or "Allowed"
        if v.points is not None:
            head += f": {units.meld(v.points) if v.cards else units.of(v.points)}"
    else:  # a meld still being picked is not refused yet: it needs more cards
        head = "Keep picking" if v.incomplete else "Not allowed"
    label = f"{head}. {v.said}" + (f" ({rule_words(v.rule)})" if v.rule else "")
    if v.said_notes:  # (the notes a screen says: not always all the referee's)
        label += " Note: " + "; ".join(v.said_notes) + "."
    return label


def _head(v: Verdict, units: Units) -> str:
    return verdict_label(v, units).split(". ", 1)[0]


def _show_whole(title: str, lines: list[str], rule: str | None) -> None:
    """The whole verdict in a sheet over the screen (the line may be cut short)."""
    page = ft.context.page
    body: list[ft.Control] = [ft.Text(title, size=16, weight=ft.FontWeight.BOLD)]
    body += [ft.Text(line, selectable=True) for line in lines]
    row: list[ft.Control] = []
    if rule:
        row.append(rule_link(rule, "verdict-sheet-rule"))
    row.append(
        ft.Semantics(
            content=ft.FilledButton("Close", on_click=lambda _: page.pop_dialog(), height=44),
            identifier="verdict-sheet-close",
        )
    )
    body.append(ft.Row(row, alignment=ft.MainAxisAlignment.END))
    page.show_dialog(
        ft.BottomSheet(
            content=ft.Container(ft.Column(body, tight=True, spacing=8), padding=16),
            show_drag_handle=True,
            size_constraints=ft.BoxConstraints(max_width=640),
        )
    )


def verdict_slot(
    verdict: Verdict | None,
    *,
    hint: str = "",
    hint_rule: str | None = None,
    refusal: Refusal | None = None,
    on_dismiss: Callable[[], Any] | None = None,
    ident: str = "verdict",
    units: Units = Units.POINTS,
) -> ft.Control:
    """The reserved verdict line: a refusal, else the live verdict, else the hint
    (with the rule it follows from, if any); a meld's points in ``units``."""
    rule: str | None = hint_rule
    notes: list[str] = []
    if refusal is not None:
        head, reason, rule = "Refused", refusal.message, refusal.rule
        label = f"Refused: {refusal.message}" + (
            f" ({rule_words(refusal.rule)})" if refusal.rule else ""
        )
        fg, bg = ft.Colors.ON_ERROR_CONTAINER, ft.Colors.ERROR_CONTAINER
        icon = ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR, size=20)
    elif verdict is not None:
        head, reason, rule, notes = (
            _head(verdict, units),
            verdict.said,
            verdict.rule,
            list(verdict.said_notes),
        )
        label = verdict_label(verdict, units)
        if verdict.legal:
            fg, bg = None, ft.Colors.SURFACE_CONTAINER_HIGHEST
            icon = ft.Icon(ft.Icons.CHECK_CIRCLE, color=ft.Colors.PRIMARY, size=20)
        elif verdict.incomplete:  # neutral: nothing is wrong yet
            fg, bg = None, ft.Colors.SURFACE_CONTAINER_HIGHEST
            icon = ft.Icon(ft.Icons.TOUCH_APP, color=ft.Colors.ON_SURFACE_VARIANT, size=20)
        else:
            fg, bg = ft.Colors.ON_ERROR_CONTAINER, ft.Colors.ERROR_CONTAINER
            icon = ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR, size=20)
    else:
        head, reason = "", hint
        label = hint + (f" ({rule_words(hint_rule)})" if hint_rule else "")
        fg, bg = ft.Colors.ON_SURFACE_VARIANT, None
        icon = ft.Icon(ft.Icons.TOUCH_APP, color=ft.Colors.ON_SURFACE_VARIANT, size=20)
    # one plain string: Flet drops the ellipsis of a text made of styled spans, and a
    # cut-off verdict must end in "…" so people know a tap shows the rest
    words = (f"{head}. " if head else "") + reason + "".join(f" {n}." for n in notes)
    text = ft.Container(
        content=ft.Semantics(
            exclude_semantics=True,
            # a fixed line height: three lines (the most it shows) fit the reserved 52 px
            content=ft.Text(
                words,
                size=13,
                style=ft.TextStyle(height=LINE_HEIGHT),
                italic=not head,
                color=fg,
                max_lines=3,
                overflow=ft.TextOverflow.ELLIPSIS,
            ),
        ),
        expand=True,
        height=VERDICT_HEIGHT,
        alignment=ft.Alignment.CENTER_LEFT,
        on_click=(lambda _: _show_whole(head or "Hint", [reason, *notes], rule)) if label else None,
    )
    # the rule link's place is kept when there is none: the words never change width
    row: list[ft.Control] = [
        icon,
        text,
        ft.Container(  # the link fills its slot: a longer title never moves its box
            rule_link(rule, f"{ident}-rule", stacked=True, align=ft.Alignment.CENTER_LEFT)
            if rule
            else None,
            width=RULE_SLOT,
        ),
    ]
    if refusal is not None and on_dismiss is not None:
        row.append(
            icon_button(ft.Icons.CLOSE, "Dismiss", lambda _: on_dismiss(), f"{ident}-dismiss")
        )
    return ft.Semantics(
        content=ft.Container(
            content=ft.Row(row, spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            height=VERDICT_HEIGHT,
            bgcolor=bg,
            border_radius=8,
            padding=ft.Padding.symmetric(horizontal=8),
        ),
        identifier=ident,
        key=ident,
        label=label,
        container=True,
        live_region=True,
    )


@ft.component
def _slot(
    verdict: Verdict | None,
    hint: str,
    hint_rule: str | None,
    refusal: Refusal | None,
    on_dismiss: Callable[[], Any] | None,
    ident: str,
    units: Units,
) -> ft.Control:
    return verdict_slot(
        verdict,
        hint=hint,
        hint_rule=hint_rule,
        refusal=refusal,
        on_dismiss=on_dismiss,
        ident=ident,
        units=units,
    )


#: The bar's parts are memoized: at a table every device draws its screen again on
#: every entry anyone makes, and most of the bar (the hint, Undo, the action) stays as
#: it was; a memoized part is drawn again only when its own props change.
VerdictSlot: Callable[..., ft.Control] = ft.memo(_slot)  # type: ignore[no-untyped-call]


@ft.component
def _primary(primary: Primary | None) -> ft.Control:
    if primary is None:
        return ft.Container(expand=True, height=BAR_BUTTON_HEIGHT)

    def press(_: Any) -> None:
        tick(primary.press())

    button = ft.FilledButton(
        # the action's words read whole: they wrap to a second line inside the button's
        # fixed height (at 390 px one line cut "Cy went out: collects 4 + the Rummoli
        # pot" to "Cy went out: collects 4 + …"); "…" only past two lines, and its
        # label says all of it (a tooltip here would add a node of its own to the
        # accessibility tree, apart from the button)
        content=ft.Text(
            primary.text,
            max_lines=2,
            overflow=ft.TextOverflow.ELLIPSIS,
            semantics_label=primary.text,
            size=15,
            text_align=ft.TextAlign.CENTER,
            style=ft.TextStyle(height=1.1),
        ),
        icon=primary.icon,
        on_click=press,
        disabled=not primary.enabled,
        height=BAR_BUTTON_HEIGHT,
        style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=12)),
        expand=True,
    )
    # the button names itself; the wrapper only carries the test id (and expands)
    return ft.Semantics(content=button, identifier=primary.ident, key=primary.ident, expand=True)


#: the action, drawn again only when its words, state or press change (a press made
#: anew at every render -- a lambda -- draws it every time)
PrimaryButton: Callable[..., ft.Control] = ft.memo(_primary)  # type: ignore[no-untyped-call]


@ft.component
def _undo(session: GameSession, services: Services | None, enabled: bool) -> ft.Control:
    def undo(_: Any) -> None:
        session.undo()
        if services is not None:
            services.history_changed()

    return ft.Semantics(
        content=ft.OutlinedButton(
            "Undo",
            icon=ft.Icons.UNDO,
            on_click=undo,
            disabled=not enabled,
            height=BAR_BUTTON_HEIGHT,
        ),
        identifier="undo",
        key="undo",
    )


#: Undo, drawn again only when it turns on or off
UndoButton: Callable[..., ft.Control] = ft.memo(_undo)  # type: ignore[no-untyped-call]


@ft.component
def EntryBar(
    session: GameSession,
    verdict: Verdict | None,
    primary: Primary | None,
    *,
    hint: str = "",
    hint_rule: str | None = None,
    ident: str = "verdict",
) -> ft.Control:
    """The verdict line over [Undo] [primary action], pinned to the bottom of the screen."""
    # the history list re-reads the game after an undo (no services: a table drawn alone)
    services = ft.use_context(ServicesContext)
    return ft.Container(
        content=ft.Column(
            [
                VerdictSlot(
                    verdict,
                    hint,
                    hint_rule,
                    session.error,
                    session.clear_error,
                    ident,
                    session.ruleset.units(session.game.rules),
                    key=f"slot-{ident}",
                ),
                ft.Row(
                    # Undo at the left edge, the primary action filling the rest: a gap
                    # between them so a thumb aiming at one never lands on the other
                    [
                        UndoButton(session, services, session.can_undo, key="undo-button"),
                        ft.Container(width=12),
                        PrimaryButton(primary, key="primary-button"),
                    ],
                    spacing=0,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
            ],
            spacing=6,
        ),
        padding=ft.Padding.only(top=6, bottom=2),
        border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
    )
