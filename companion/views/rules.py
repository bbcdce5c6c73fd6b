"""Rules: search as you type (typos and questions welcome), a game's sections, one rule.

Routes: ``/rules`` (search + games; ``?q=`` holds a search), ``/rules/<game>`` (its
sections), ``/rules/<game>/<rule id>/`` (one rule).  Each may carry ``?back=<address>``:
its Back button then returns there -- to the game or the checker a rule was opened
from, or to the search a result was picked from, with its words -- instead of
climbing the rules pages one by one.  Rule links elsewhere open a sheet over the
screen (``components/kit/rule_sheet.py``); only "Open in the rulebook" comes here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import flet as ft

from companion import rulebook
from companion.components.kit.common import readable
from companion.components.kit.rule_text import rule_body
from companion.components.kit.ui import go, icon_button, labelled, slug
from companion.routes import back_of, path_of, query_value, section_route, with_back

SEARCH_HINT = "marriage, widow, how many cards to deal…"
#: px above the search field: its label floats up by about half a line when focused
LABEL_ROOM = 10


def _here() -> str:
    return ft.context.page.route or "/"


def _link(target: str, here: str, parent: str) -> str:
    """``target``, remembering ``here`` for its Back -- unless Back would go there anyway
    (``here`` is the screen above ``target`` in the rules section)."""
    back = None if here == parent else here
    return with_back(target, back)


def _search_address(query: str) -> str:
    return f"/rules?{urlencode({'q': query})}" if query.strip() else "/rules"


async def _confirm_pop(e: ft.Event[ft.View], back: str) -> None:
    """A system Back (Android's button, a swipe) goes where this page's Back goes."""
    go(back)
    await e.control.confirm_pop(False)


def _view(route: str, title: str, controls: list[ft.Control], **kw: Any) -> ft.View:
    """A rules page: its Back returns to the address it remembers, if any."""
    back = back_of(_here()) if path_of(_here()) == path_of(route) else None
    leading = (
        icon_button(ft.Icons.ARROW_BACK, "Back", lambda _, b=back: go(b), "rules-back")
        if back
        else None
    )
    pop: Callable[..., Any] | None = None
    if back:

        async def pop(e: ft.Event[ft.View], b: str = back) -> None:
            await _confirm_pop(e, b)

    return ft.View(
        route=route,
        appbar=ft.AppBar(
            title=ft.Text(title),
            leading=leading,
            automatically_imply_leading=back is None,
        ),
        can_pop=back is None,
        on_confirm_pop=pop,
        scroll=ft.ScrollMode.AUTO,
        controls=[readable(controls)],
        **kw,
    )


def _section_tile(
    sec: rulebook.Section, link: str, snippet: str | None = None, *, with_game: bool = False
) -> ft.Control:
    name = f"{sec.shown_id} {sec.title}"
    # in players' words: "Rule U5.3: Marriage", "Our ruling A-U14: A marriage is worth 20"
    label = f"{sec.kind.capitalize()} {sec.shown_id}: {sec.name}"
    if with_game:  # a search result says which game it belongs to
        name = f"{sec.game_title} · {name}"
        label = f"{sec.game_title} {sec.kind} {sec.shown_id}: {sec.name}"
    return labelled(
        ft.ListTile(
            title=ft.Text(name),
            # a snippet longer than its two lines ends in "…", not clipped mid-word
            subtitle=(
                ft.Text(snippet, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS)
                if snippet
                else None
            ),
            on_click=lambda _, to=link: go(to),
            dense=True,
        ),
        label,
        f"rule-{slug(sec.id)}",
        button=True,
    )


def _game_tile(game: rulebook.GameInfo, here: str) -> ft.Control:
    link = _link(f"/rules/{game.id}", here, "/rules")
    return labelled(
        ft.ListTile(
            leading=ft.Icon(ft.Icons.MENU_BOOK),
            title=ft.Text(f"{game.title} rules"),
            subtitle=ft.Text(game.summary),
            on_click=lambda _, to=link: go(to),
        ),
        f"{game.title} rules",
        f"rules-{game.id}",
        button=True,
    )


def _results(query: str) -> list[ft.Control]:
    hits = rulebook.search(query)
    if not hits:
        return [ft.Text(f"Nothing matches “{query}”. Try other words, e.g. meld or pot.")]
    here = _search_address(query)
    return [
        _section_tile(
            h.section,
            with_back(section_route(h.section), here),
            h.snippet,
            with_game=True,
        )
        for h in hits
    ]


@ft.component
def RulesView() -> ft.View:
    here = _here()
    asked = query_value(here, "q") if path_of(here) == "/rules" else None
    query, set_query = ft.use_state(asked or "")
    seen = ft.use_ref(asked)
    if asked is not None and asked != seen.current:  # arrived at another search's address
        seen.current = asked
        query = asked
        set_query(asked)

    def on_change(e: ft.Event[ft.TextField]) -> None:
        set_query(e.control.value or "")

    body = (
        _results(query)
        if query.strip()
        else [_game_tile(g, path_of(here)) for g in rulebook.games()]
    )
    return _view(
        "/rules",
        "Rules",
        [
            # room above the field for its label, which floats up over the border
            # once the field is focused (the scrolling column clipped it in half)
            ft.Row(  # the field takes the whole width of the column
                [
                    ft.TextField(
                        label="Search rules",
                        hint_text=SEARCH_HINT,
                        prefix_icon=ft.Icons.SEARCH,
                        value=query,
                        on_change=on_change,
                        autofocus=False,
                        expand=True,
                    )
                ],
                margin=ft.Margin.only(top=LABEL_ROOM),
            ),
            *body,
        ],
        padding=12,
    )


@ft.component
def RulesGameView() -> ft.View:
    game = ft.use_route_params().get("game", "")
    info = next((g for g in rulebook.games() if g.id == game), None)
    route = f"/rules/{game}"
    if info is None:
        return _view(route, "Rules", [ft.Text(f"No rules for “{game}”.")])
    here = _here() if path_of(_here()) == route else route
    return _view(
        route,
        f"{info.title} rules",
        [_section_tile(s, _link(section_route(s), here, route)) for s in rulebook.sections(game)],
        padding=8,
    )


@ft.component
def RuleSectionView() -> ft.View:
    params = ft.use_route_params()
    rule_id = params.get("rule", "")
    sec = rulebook.section(rule_id)
    route = f"/rules/{params.get('game', '')}/{rule_id}"
    if sec is None:
        return _view(route, "Rules", [ft.Text(f"No rule “{rule_id}”.")])
    return _view(
        route,
        f"{sec.kind.capitalize()} {sec.shown_id}",  # "Our ruling A-M9", not "Rule A-M9"
        [ft.Text(sec.game_title, size=14, color=ft.Colors.PRIMARY), *rule_body(sec)],
        padding=12,
    )
