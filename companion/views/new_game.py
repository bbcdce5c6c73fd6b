"""New game: players (saved or typed), first dealer, house rules (folded into one row).

Route ``/new/<game>``.  Made for one hand on a phone: Start is pinned to the bottom,
every problem shows at the control that caused it (the panels in
``components/new_game_parts.py``), and the game's player limits show before anyone
is added.  What is allowed comes from the game's ruleset.  Starting records the
opening action(s) at once, so the game is in history (and offered on home) from its
first second.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

import flet as ft

from companion import rulebook
from companion.components.kit.common import readable
from companion.components.kit.ui import go
from companion.components.new_game_form import NewGameForm, Problems, check
from companion.components.new_game_parts import (
    DealerPanel,
    HouseRulesDialog,
    HouseRulesRow,
    PlayersPanel,
    StartBar,
)
from companion.preferences import default_rules
from companion.services import Services, use_services
from companion.storage import StorageError
from rulesets import RulesetError, load_ruleset
from rulesets.protocol import Action, Ruleset


def _start(services: Services, form: NewGameForm, opening: list[Action]) -> str | None:
    """Record the new game (and new players); its id, or None with the reason kept."""
    saved = {p.name for p in services.repo.list_players()}
    try:
        for p in form.players:
            if p not in saved:
                services.repo.add_player(p)
        session = services.start_game(form.game, form.players, form.rules, opening)
    except (StorageError, RulesetError) as exc:
        form.problems = Problems(general=f"Could not start the game: {exc}")
        return None
    services.history_changed()
    return session.game_id


def _unknown(game: str) -> ft.View:
    return ft.View(
        route=f"/new/{game}",
        appbar=ft.AppBar(title=ft.Text("New game")),
        controls=[ft.Text(f"There is no game called “{game}”.")],
    )


def _form_column(
    form: NewGameForm, ruleset: Ruleset, services: Services, saved: list[str]
) -> ft.Column:
    panels = [
        PlayersPanel(form, ruleset, saved),
        ft.Divider(height=1),
        DealerPanel(form, ruleset),
        ft.Divider(height=1),
        HouseRulesRow(form, services.config.data_dir),
    ]
    return ft.Column(
        [ft.Container(readable(panels, spacing=14), padding=12)],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
    )


@ft.component
def NewGameView() -> ft.View:
    services = use_services()
    game = ft.use_route_params().get("game", "")
    # a fresh form for each game (the panels re-render themselves as it changes)
    form: NewGameForm = ft.use_memo(
        lambda: NewGameForm(game=game, rules=default_rules(services.config.data_dir, game)),
        [game],
    )
    scroller = ft.use_ref(cast(ft.Column | None, None))
    info = next((g for g in rulebook.games() if g.id == game), None)
    if info is None:
        return _unknown(game)
    ruleset = load_ruleset(game)

    def start(_: Any) -> None:
        problems, opening = check(form, ruleset)
        form.problems = problems
        if problems:
            column = scroller.current
            if problems.first and column is not None:  # bring the first problem into view
                asyncio.create_task(column.scroll_to(scroll_key=problems.first, duration=250))
            return
        gid = _start(services, form, list(opening))
        if gid is not None:
            go(f"/play/{gid}")

    column = _form_column(form, ruleset, services, [p.name for p in services.repo.list_players()])
    scroller.current = column
    return ft.View(
        route=f"/new/{game}",
        appbar=ft.AppBar(title=ft.Text(f"New {info.title} game")),
        padding=0,
        spacing=0,
        controls=[
            column,
            StartBar(form, info.title, start),
            HouseRulesDialog(form, services.config.data_dir, services),
        ],
    )
