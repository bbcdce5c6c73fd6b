"""Rules: search as you type, browse a game's sections, read one section.

Routes: ``/rules`` (search + games), ``/rules/<game>`` (its sections),
``/rules/<game>/<rule id>`` (one section; every verdict links here).
"""

from __future__ import annotations

import flet as ft

from companion import rulebook
from companion.components.cards import card_row
from companion.routes import section_route
from companion.ui import go, labelled


def _section_tile(sec: rulebook.Section, snippet: str | None = None) -> ft.Control:
    return labelled(
        ft.ListTile(
            title=ft.Text(f"{sec.id}  {sec.title}"),
            subtitle=ft.Text(snippet, max_lines=2) if snippet else None,
            on_click=lambda _, s=sec: go(section_route(s)),
            dense=True,
        ),
        f"Rule {sec.id}: {sec.title}",
        f"rule-{sec.id}",
        button=True,
    )


@ft.component
def RulesView() -> ft.View:
    query, set_query = ft.use_state("")

    def on_change(e: ft.Event[ft.TextField]) -> None:
        set_query(e.control.value or "")

    if query.strip():
        hits = rulebook.search(query)
        body: list[ft.Control] = (
            [_section_tile(h.section, h.snippet) for h in hits]
            if hits
            else [ft.Text(f"Nothing matches “{query}”. Try another word, e.g. meld or pot.")]
        )
    else:
        body = [
            labelled(
                ft.ListTile(
                    leading=ft.Icon(ft.Icons.MENU_BOOK),
                    title=ft.Text(f"{g.title} rules"),
                    subtitle=ft.Text(g.summary),
                    on_click=lambda _, gid=g.id: go(f"/rules/{gid}"),
                ),
                f"{g.title} rules",
                f"rules-{g.id}",
                button=True,
            )
            for g in rulebook.games()
        ]
    return ft.View(
        route="/rules",
        appbar=ft.AppBar(title=ft.Text("Rules")),
        scroll=ft.ScrollMode.AUTO,
        padding=12,
        controls=[
            ft.TextField(
                label="Search rules",
                hint_text="marriage, widow, ace high…",
                prefix_icon=ft.Icons.SEARCH,
                value=query,
                on_change=on_change,
                autofocus=False,
            ),
            *body,
        ],
    )


@ft.component
def RulesGameView() -> ft.View:
    params = ft.use_route_params()
    game = params.get("game", "")
    info = next((g for g in rulebook.games() if g.id == game), None)
    if info is None:
        return ft.View(
            route=f"/rules/{game}",
            appbar=ft.AppBar(title=ft.Text("Rules")),
            controls=[ft.Text(f"No rules for “{game}”.")],
        )
    return ft.View(
        route=f"/rules/{game}",
        appbar=ft.AppBar(title=ft.Text(f"{info.title} rules")),
        scroll=ft.ScrollMode.AUTO,
        padding=8,
        controls=[_section_tile(s) for s in rulebook.sections(game)],
    )


@ft.component
def RuleSectionView() -> ft.View:
    params = ft.use_route_params()
    rule_id = params.get("rule", "")
    sec = rulebook.section(rule_id)
    route = f"/rules/{params.get('game', '')}/{rule_id}"
    if sec is None:
        return ft.View(
            route=route,
            appbar=ft.AppBar(title=ft.Text("Rules")),
            controls=[ft.Text(f"No rule “{rule_id}”.")],
        )
    controls: list[ft.BaseControl] = [
        ft.Text(sec.title, size=22, weight=ft.FontWeight.BOLD),
        ft.Markdown(sec.body, selectable=True),
    ]
    for ex in sec.examples:
        controls.append(
            ft.Column([card_row(" ".join(ex.cards)), ft.Text(ex.caption, italic=True)], spacing=4)
        )
    if sec.house_rule_notes:
        controls.append(ft.Text("House rules that change this", weight=ft.FontWeight.BOLD))
        controls.extend(
            ft.Text(f"{note.name.replace('_', ' ').capitalize()}: {note.text}", italic=True)
            for note in sec.house_rule_notes
        )
    elif sec.house_rules:
        controls.append(
            ft.Text("House rules that change this: " + ", ".join(sec.house_rules), italic=True)
        )
    return ft.View(
        route=route,
        appbar=ft.AppBar(title=ft.Text(f"Rule {sec.id}")),
        scroll=ft.ScrollMode.AUTO,
        padding=12,
        controls=controls,
    )
