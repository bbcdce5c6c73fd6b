"""A rule opened over the current screen: a bottom sheet, closed with one tap.

Every rule link ("Sets U5.1", ``common.rule_link``) opens it.  The screen underneath is
not touched -- no navigation, no re-render -- so closing the sheet (its Close
button, a tap outside it, or Back) shows the table exactly as it was.  "Open in the
rulebook" goes to the rule's page, "Search the rules" to the rules search (from
inside a game too); the Back of either returns to this screen.
"""

from __future__ import annotations

import flet as ft

from companion import rulebook
from companion.components.kit.rule_text import rule_body, rule_heading
from companion.components.kit.ui import go
from companion.routes import rule_route, with_back

__all__ = ["rule_sheet", "show_rule"]

#: the widest a sheet grows on a desktop (Material's own limit for bottom sheets)
SHEET_WIDTH = 640


def _open_in_rulebook(rule: str) -> None:
    page = ft.context.page
    here = page.route or "/"
    page.pop_dialog()
    go(with_back(rule_route(rule), here))


def _search_rules(_: object = None) -> None:
    """The rules search, from inside a game: its Back comes back here."""
    page = ft.context.page
    here = page.route or "/"
    page.pop_dialog()
    go(with_back("/rules", here))


def _tag(control: ft.Control, ident: str) -> ft.Control:
    """A test id on a button named by its own text."""
    return ft.Semantics(content=control, identifier=ident, key=ident)


def _close(_: object = None) -> None:
    ft.context.page.pop_dialog()


def rule_sheet(rule: str) -> ft.BottomSheet:
    """The sheet for ``rule`` (a rule ID as the referees cite it, e.g. ``U6.2``)."""
    sec = rulebook.section(rule)
    body: list[ft.Control]
    if sec is None:
        heading, body = f"Rule {rule}", [ft.Text("This rule is not in the rulebook.")]
    else:
        heading, body = rule_heading(sec), rule_body(sec)
    actions = ft.Row(
        [
            _tag(
                ft.OutlinedButton(
                    "Open in the rulebook",
                    icon=ft.Icons.MENU_BOOK,
                    on_click=lambda _: _open_in_rulebook(rule),
                    height=44,
                    disabled=sec is None,
                ),
                "rule-sheet-open",
            ),
            _tag(
                ft.TextButton(
                    "Search the rules", icon=ft.Icons.SEARCH, on_click=_search_rules, height=44
                ),
                "rule-sheet-search",
            ),
            _tag(
                ft.FilledButton("Close", icon=ft.Icons.CLOSE, on_click=_close, height=44),
                "rule-sheet-close",
            ),
        ],
        alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        wrap=True,
        run_spacing=8,
    )
    content = ft.Container(
        padding=ft.Padding.only(left=16, right=16, top=4, bottom=12),
        content=ft.Column(
            [
                ft.Semantics(
                    content=ft.Text(heading, size=14, color=ft.Colors.PRIMARY),
                    header=True,
                    identifier="rule-sheet-heading",
                ),
                # the rule scrolls; the heading and the buttons stay in reach
                ft.Column(
                    body, scroll=ft.ScrollMode.AUTO, spacing=8, expand=True, expand_loose=True
                ),
                ft.Divider(height=1),
                actions,
            ],
            tight=True,
            spacing=8,
        ),
    )
    return ft.BottomSheet(
        content=ft.Semantics(content=content, identifier="rule-sheet", container=True),
        show_drag_handle=True,
        size_constraints=ft.BoxConstraints(max_width=SHEET_WIDTH),
    )


def show_rule(rule: str) -> None:
    """Open ``rule`` over the current screen."""
    ft.context.page.show_dialog(rule_sheet(rule))
