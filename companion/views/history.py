"""History: every game, newest first, filterable; a game's hands and chart; statistics.

Routes: ``/history`` (the list, a page of 20 at a time from the index -- no
replay -- so it stays quick with thousands of games; and player statistics)
and ``/history/<game id>`` (hand-by-hand table, cumulative chart, delete with
undo).  Numbers come from :mod:`companion.stats`.
"""

from __future__ import annotations

import functools
import math
from datetime import datetime
from typing import Any

import flet as ft

from companion.access import Capability
from companion.components.kit.phone import share_text
from companion.components.kit.ui import go, icon_button, labelled, slug
from companion.preferences import describe_rules
from companion.services import Services, use_history, use_services
from companion.stats import PlayerStats, Series, higher_is_better, player_stats, series, units
from companion.storage import GameListItem, StorageError, StoredGame
from rulesets import GAMES, RulesetError, load_ruleset, timeline
from rulesets.protocol import LedgerRow, Summary

PAGE = 20
EVERYONE = "__everyone__"
SERIES_COLORS = ("#1565C0", "#C62828", "#2E7D32", "#EF6C00", "#6A1B9A", "#00838F", "#5D4037")


def _title(game: str) -> str:
    try:
        return load_ruleset(game).title
    except Exception:  # an unknown game in an imported backup
        return game.title()


def when(iso: str) -> str:
    """'2026-11-29 14:05' in local time (the stored time is UTC)."""
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso[:16]


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return "" if value is None else str(value)


def result_text(
    title: str, played: str, outcome: str, players: list[str], totals: dict[str, Any], unit: str
) -> str:
    """A finished game's result as a message to share (names as typed, units as shown).

    >>> result_text("Rummy", "2026-11-30 21:05", "Winner: Bob", ["Ann", "Bob"],
    ...             {"Ann": 17, "Bob": 0}, "penalty points")
    'Rummy, 2026-11-30 21:05. Winner: Bob. Ann 17, Bob 0 (penalty points).'
    """
    scores = ", ".join(f"{p} {_fmt(totals.get(p, 0))}" for p in players)
    return f"{title}, {played}. {outcome}. {scores} ({unit})."


def _game_tile(item: GameListItem) -> ft.Control:
    title = f"{_title(item.game)} · {when(item.created)}"
    totals = ", ".join(f"{p} {_fmt(item.totals.get(p))}".strip() for p in item.players)
    if item.status == "finished":
        won = ", ".join(item.winners)
        state = f"winner {won}" if len(item.winners) == 1 else f"shared by {won}"
    else:
        state = "in progress"
    hands = f"{item.hands} hand{'s' if item.hands != 1 else ''}"
    subtitle = f"{totals} — {hands}, {state}"
    return labelled(
        ft.ListTile(
            leading=ft.Icon(
                ft.Icons.EMOJI_EVENTS if item.status == "finished" else ft.Icons.PLAY_CIRCLE
            ),
            title=ft.Text(title),
            subtitle=ft.Text(subtitle, max_lines=3),
            on_click=lambda _, gid=item.id: go(f"/history/{gid}"),
        ),
        f"{title}: {subtitle}",
        f"history-game-{item.id}",
        button=True,
    )


def _chip(text: str, selected: bool, on_click: Any, ident: str) -> ft.Control:
    cls = ft.FilledButton if selected else ft.OutlinedButton
    return labelled(
        cls(text, on_click=lambda _: on_click()), text, ident, button=True, selected=selected
    )


def _stats_table(game: str, rows: list[PlayerStats]) -> ft.Control:
    unit = units(game)
    best_word = "highest" if higher_is_better(game) else "lowest"
    explain = f"Per hand: average {unit} per hand. Best: the {best_word} total in one game."
    table = ft.DataTable(
        column_spacing=12,
        horizontal_margin=4,
        columns=[
            ft.DataColumn(label=ft.Text("Player")),
            ft.DataColumn(label=ft.Text("Games"), numeric=True),
            ft.DataColumn(label=ft.Text("Wins"), numeric=True),
            ft.DataColumn(label=ft.Text("Win %"), numeric=True),
            ft.DataColumn(label=ft.Text("Per hand"), numeric=True),
            ft.DataColumn(label=ft.Text("Best"), numeric=True),
        ],
        rows=[
            ft.DataRow(
                cells=[
                    ft.DataCell(ft.Text(s.player)),
                    ft.DataCell(ft.Text(str(s.games))),
                    ft.DataCell(ft.Text(str(s.wins))),
                    ft.DataCell(ft.Text(f"{s.win_rate:.0%}")),
                    ft.DataCell(ft.Text("–" if s.per_hand is None else f"{s.per_hand:.1f}")),
                    ft.DataCell(
                        ft.Text(_fmt(s.best) or "–"),
                        on_tap=(lambda _, g=s.best_game: go(f"/history/{g}"))
                        if s.best_game
                        else None,
                    ),
                ]
            )
            for s in rows
        ],
    )
    return ft.Semantics(
        identifier=f"history-stats-{game}",
        container=True,
        content=ft.Column(
            [
                ft.Text(f"{_title(game)} ({unit})", size=17, weight=ft.FontWeight.BOLD),
                ft.Text(explain, size=13),
                ft.Row([table], scroll=ft.ScrollMode.AUTO),
            ],
            spacing=4,
        ),
    )


def _statistics(services: Services, game: str | None, player: str | None) -> list[ft.Control]:
    items = services.repo.list_games(limit=10**9, game=game, player=player)
    stats = player_stats(items)
    if player is not None:
        stats = {g: [s for s in rows if s.player == player] for g, rows in stats.items()}
    out: list[ft.Control] = [
        ft.Text(
            "Finished games only. A shared win counts for each winner; tap a best total "
            "to open that game.",
            size=13,
        )
    ]
    shown = [g for g in GAMES if stats.get(g)] + [g for g in stats if g not in GAMES]
    if not shown:
        out.append(ft.Text("No finished games yet.", size=15))
    out.extend(_stats_table(g, stats[g]) for g in shown)
    return out


@ft.component
def HistoryView() -> ft.View:
    services = use_services()
    revision = use_history()  # any device's change: a game started or ended elsewhere
    game, set_game = ft.use_state("")
    player, set_player = ft.use_state("")
    pages, set_pages = ft.use_state(1)
    tab, set_tab = ft.use_state("games")

    g = game or None
    p = player or None
    limit = PAGE * pages
    items = ft.use_memo(
        lambda: services.repo.list_games(limit=limit + 1, game=g, player=p),
        [limit, g, p, revision],
    )
    more = len(items) > limit
    items = items[:limit]
    players = ft.use_memo(lambda: [pl.name for pl in services.repo.list_players()], [revision])

    def choose_game(value: str) -> None:
        set_game(value)
        set_pages(1)

    def choose_player(e: ft.Event[ft.Dropdown]) -> None:
        value = e.control.value or EVERYONE
        set_player("" if value == EVERYONE else value)
        set_pages(1)

    filters: list[ft.Control] = [
        ft.Row(
            [
                _chip(
                    "All games",
                    game == "",
                    functools.partial(choose_game, ""),
                    "history-filter-all",
                ),
                *[
                    _chip(
                        _title(name),
                        game == name,
                        functools.partial(choose_game, name),
                        f"history-filter-{name}",
                    )
                    for name in GAMES
                ],
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        ),
        labelled(
            ft.Dropdown(
                label="Player",
                value=player or EVERYONE,
                options=[
                    ft.DropdownOption(key=EVERYONE, text="Everyone"),
                    *[ft.DropdownOption(key=name, text=name) for name in players],
                ],
                on_select=choose_player,
                width=260,
                dense=True,
            ),
            "Player filter",
            "history-filter-player",
        ),
    ]
    tabs = ft.Row(
        [
            _chip("Games", tab == "games", lambda: set_tab("games"), "history-tab-games"),
            _chip("Statistics", tab == "stats", lambda: set_tab("stats"), "history-tab-stats"),
        ],
        spacing=8,
    )
    body: list[ft.Control] = []
    if tab == "stats":
        body.extend(_statistics(services, g, p))
    elif items:
        body.extend(_game_tile(i) for i in items)
        if more:
            body.append(
                labelled(
                    ft.OutlinedButton(
                        "More", icon=ft.Icons.EXPAND_MORE, on_click=lambda _: set_pages(pages + 1)
                    ),
                    "More",
                    "history-more",
                    button=True,
                )
            )
    else:
        body.append(
            ft.Text(
                "No games here yet."
                if (g or p)
                else "No games yet. Play one, or load the demo games in Settings.",
                size=15,
            )
        )
        if not (g or p):
            body.append(
                ft.OutlinedButton(
                    "Settings", icon=ft.Icons.SETTINGS, on_click=lambda _: go("/settings")
                )
            )
    return ft.View(
        route="/history",
        appbar=ft.AppBar(title=ft.Text("History")),
        scroll=ft.ScrollMode.AUTO,
        padding=12,
        controls=[tabs, *filters, ft.Divider(height=1), *body],
    )


# --------------------------------------------------------------------------- one game


def _summary_of(game: StoredGame) -> tuple[Summary | None, str | None]:
    """The referee's summary of a stored game (its one replay), or why there is none."""
    try:
        return timeline.replay(game.to_record()).game.summary(), None
    except RulesetError as exc:  # a record the referee refuses, or an unknown game
        return None, f"This game cannot be replayed ({exc}); showing the last saved totals."


def _amount(row: LedgerRow, player: str) -> str:
    """A row's amount for a player: a starting stack as it is, a change signed ("+10",
    "-13"), so the rows read as the changes that make up the total."""
    value = row.amounts.get(player, 0)
    return str(value) if row.kind == "start" or value == 0 else f"{value:+d}"


def _cell(text: str, ident: str, *, bold: bool = False, width: int | None = None) -> ft.DataCell:
    """A table cell the screen reader (and a test) finds by ``ident``; ``width`` keeps a
    title such as "Final poker" on one line (the table would wrap it on a phone)."""
    words: ft.Control = ft.Text(text, no_wrap=True, weight=ft.FontWeight.BOLD if bold else None)
    if width is not None:
        words = ft.Container(words, width=width)
    return ft.DataCell(
        ft.Semantics(content=words, identifier=ident, label=text, exclude_semantics=True)
    )


def _hands_table(summary: Summary) -> ft.Control:
    """Hand by hand (Rummoli: round by round, with the starting stacks, buy-ins and the
    final poker): every row is a run of the referee's ledger, so the rows add up to the
    total row.  Cells are named ``hands-<row>-<player>`` / ``hands-total-<player>``."""
    players = list(summary.players)
    unit = summary.units.value
    word = summary.HAND_WORD
    rows = summary.rows()
    titles = [str(row.hand) if row.hand is not None else row.title for row in rows]
    # about 8 px a letter at the table's text size
    title_width = max(48, 8 * max((len(t) for t in titles), default=0))
    table = ft.DataTable(
        column_spacing=20,
        heading_row_height=40,
        data_row_min_height=36,
        data_row_max_height=40,
        columns=[
            ft.DataColumn(label=ft.Text(word)),
            *[ft.DataColumn(label=ft.Text(p), numeric=True) for p in players],
        ],
        rows=[
            *[
                ft.DataRow(
                    cells=[
                        _cell(titles[i], f"hands-{i}-title", width=title_width),
                        *[_cell(_amount(row, p), f"hands-{i}-{slug(p)}") for p in players],
                    ]
                )
                for i, row in enumerate(rows)
            ],
            ft.DataRow(
                cells=[
                    _cell("Total", "hands-total-title", bold=True, width=title_width),
                    *[
                        _cell(_fmt(summary.totals.get(p)), f"hands-total-{slug(p)}", bold=True)
                        for p in players
                    ],
                ]
            ),
        ],
    )
    return ft.Semantics(
        identifier="detail-hands",
        container=True,
        content=ft.Column(
            [
                ft.Text(f"{word} by {word.lower()} ({unit})", size=17, weight=ft.FontWeight.BOLD),
                ft.Row([table], scroll=ft.ScrollMode.AUTO),
            ],
            spacing=4,
        ),
    )


def nice_step(span: float) -> float:
    """A round grid step giving about 4-8 lines over ``span`` (1, 2, 5 x 10^n).

    >>> nice_step(112), nice_step(9), nice_step(0)
    (20, 2, 1)
    """
    if span <= 0:
        return 1
    raw = span / 6
    base: float = 10.0 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * base:
            return int(m * base) if m * base >= 1 else m * base
    return float(10 * base)


def _chart(run: Series, unit: str, label: str) -> ft.Control:
    import flet_charts as fch  # only when a chart is drawn: it costs start-up time

    series = run.values
    values = [v for pts in series.values() for v in pts] or [0]
    step = nice_step(max(values) - min(values))
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if high == low:
        high = low + step
    length = max((len(pts) for pts in series.values()), default=1)
    chart = fch.LineChart(
        data_series=[
            fch.LineChartData(
                points=[fch.LineChartDataPoint(x=i, y=v) for i, v in enumerate(pts)],
                color=SERIES_COLORS[n % len(SERIES_COLORS)],
                stroke_width=3,
                point=True,
            )
            for n, pts in enumerate(series.values())
        ],
        # half a step of room at each end: the first and last labels ("Start", "Final")
        # are not drawn over the axis or cut at the edge
        min_x=-0.4,
        max_x=max(1, length - 1) + 0.4,
        min_y=low,
        max_y=high,
        left_axis=fch.ChartAxis(label_size=44, label_spacing=step),
        horizontal_grid_lines=fch.ChartGridLines(interval=step, color="#33888888", width=1),
        bottom_axis=fch.ChartAxis(
            label_size=28,
            labels=[
                fch.ChartAxisLabel(value=i, label=ft.Text(_axis_word(text), size=12))
                for i, text in enumerate(run.labels)
            ],
        ),
        height=260,
        expand=True,
    )
    legend = ft.Row(
        [
            ft.Row(
                [
                    ft.Container(
                        width=14,
                        height=14,
                        border_radius=7,
                        bgcolor=SERIES_COLORS[n % len(SERIES_COLORS)],
                    ),
                    ft.Text(f"{p} {_fmt(pts[-1]) if pts else ''}"),
                ],
                spacing=4,
                tight=True,
            )
            for n, (p, pts) in enumerate(series.items())
        ],
        wrap=True,
        spacing=14,
    )
    return ft.Semantics(
        identifier="detail-chart",
        container=True,
        label=label,
        content=ft.Column(
            [
                ft.Text(f"Running total ({unit})", size=17, weight=ft.FontWeight.BOLD),
                legend,
                ft.Container(content=chart, padding=ft.Padding.only(right=16, top=8)),
            ],
            spacing=6,
        ),
    )


def _axis_word(label: str) -> str:
    """A chart axis label short enough for a phone: "Final poker" -> "Final"."""
    return label.split()[0] if not label.isdigit() else label


@ft.component
def GameDetailView() -> ft.View:
    services = use_services()
    _ = use_history()  # a hook: called first, before any early return (hooks keep order)
    params = ft.use_route_params()
    gid = params.get("gid", "")
    route = f"/history/{gid}"
    try:
        stored = services.repo.get_game(gid)
    except StorageError as exc:
        return ft.View(
            route=route,
            appbar=ft.AppBar(title=ft.Text("Game")),
            padding=12,
            controls=[
                ft.Text(str(exc)),
                ft.OutlinedButton("History", on_click=lambda _: go("/history")),
            ],
        )
    summary, problem = ft.use_memo(lambda: _summary_of(stored), [gid, stored.updated])
    title = _title(stored.game)

    def undo(_: object, game_id: str = gid) -> None:
        page = ft.context.page
        try:
            services.repo.restore_game(game_id)
        except StorageError as exc:
            page.show_dialog(ft.SnackBar(ft.Text(f"Could not restore: {exc}")))
            return
        services.history_changed()
        page.show_dialog(ft.SnackBar(ft.Text("Game restored.")))

    def delete(_: object) -> None:
        page = ft.context.page
        try:
            services.repo.delete_game(gid)
        except StorageError as exc:
            page.show_dialog(ft.SnackBar(ft.Text(f"Not deleted: {exc}")))
            return
        services.history_changed()
        page.show_dialog(
            ft.SnackBar(
                ft.Text(f"{title} game of {when(stored.created)} deleted."),
                action=ft.SnackBarAction("Undo", on_click=undo),
                duration=ft.Duration(seconds=8),
            )
        )
        go("/history")

    listed = stored.list_item()
    winners = list(summary.winners) if summary is not None else listed.winners
    finished = stored.status == "finished" or (summary is not None and summary.finished)
    if finished:
        outcome = (
            f"Winner: {', '.join(winners)}"
            if len(winners) == 1
            else f"Shared by {', '.join(winners)}"
        )
    else:
        outcome = "In progress"

    async def share(_: object) -> None:
        totals = dict(summary.totals) if summary is not None else dict(listed.totals)
        unit = summary.units.value if summary is not None else "points"
        text = result_text(title, when(stored.created), outcome, stored.players, totals, unit)
        words = await share_text(text, f"{title} result")
        if words:
            ft.context.page.show_dialog(ft.SnackBar(ft.Text(words)))

    bar_actions: list[ft.Control] = []
    if finished:  # in the app bar: far from "Delete game"
        bar_actions.append(icon_button(ft.Icons.SHARE, "Share the result", share, "detail-share"))
    controls: list[ft.BaseControl] = [
        ft.Text(f"{title} · {when(stored.created)}", size=20, weight=ft.FontWeight.BOLD),
        ft.Text(f"Players: {', '.join(stored.players)}", size=15),
        ft.Text(outcome, size=15, weight=ft.FontWeight.W_500),
    ]
    if stored.rules:
        controls.append(
            ft.Text(
                f"House rules: {describe_rules(stored.game, dict(stored.rules))}",
                size=13,
            )
        )
    if problem:
        controls.append(ft.Text(problem, color=ft.Colors.ERROR))
    actions: list[ft.Control] = []
    if stored.status != "finished":
        actions.append(
            ft.FilledButton(
                "Continue", icon=ft.Icons.PLAY_ARROW, on_click=lambda _: go(f"/play/{gid}")
            )
        )
    if services.can(Capability.DELETE):  # host-only: not drawn on a phone (refused anyway)
        actions.append(
            labelled(
                ft.OutlinedButton("Delete game", icon=ft.Icons.DELETE_OUTLINE, on_click=delete),
                "Delete game",
                "detail-delete",
                button=True,
            )
        )
    controls.append(ft.Row(actions, wrap=True, spacing=8))
    if summary is not None and summary.rows():
        run = series(summary)
        label = "Chart of running totals: " + ", ".join(
            f"{p} {_fmt(pts[-1])}" for p, pts in run.values.items() if pts
        )
        controls.append(_chart(run, summary.units.value, label))
        controls.append(_hands_table(summary))
    elif summary is None and listed.totals:
        controls.append(
            ft.Text(", ".join(f"{p} {_fmt(v)}" for p, v in listed.totals.items()), size=15)
        )
    else:
        controls.append(ft.Text("No hand finished yet.", size=15))
    return ft.View(
        route=route,
        appbar=ft.AppBar(title=ft.Text(f"{title} game"), actions=bar_actions),
        scroll=ft.ScrollMode.AUTO,
        padding=12,
        controls=controls,
    )
