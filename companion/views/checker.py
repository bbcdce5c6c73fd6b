"""Check a meld: pick the game and its house rules, tap cards, read the verdict at once.

Route ``/check`` (``/check?game=rummy`` preselects a game; ``/check?gid=<game id>``
takes the game and its house rules from a stored game, so a table screen can
link here).  The verdict is the referee's (``RULESET.check``), recomputed as
cards are tapped, with its reason and a link to the rule it cites.  "Whole
hand" shows the best melding of a hand (each game's ``suggest``); for Rummoli
the hand's widow eligibility, pay cards and poker hand.

Laid out for one thumb (:func:`~companion.components.kit.common.thumb_board_screen`):
the game, its house rules and the checks, then the chosen cards (a strip of
reserved height) and the card grid, scroll as one area held at its bottom, over
the verdict (a panel of fixed height, pinned at the bottom).  Tapping a card
never moves another card under the finger, and on a small phone (360x640), where
the grid and the verdict fill the screen, the game and the modes are a scroll
away rather than squeezed into a box too small to read.

Nothing here decides a rule: :func:`evaluate` only calls the rulesets.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import parse_qs, urlparse

import flet as ft

from companion.components.house_rules import HouseRulesEditor
from companion.components.kit.card_grid import STRIP_HEIGHT, CompactPicker, in_sentence
from companion.components.kit.cards import card_face, card_row
from companion.components.kit.common import rule_link, said, thumb_board_screen
from companion.components.kit.ui import icon_button, labelled
from companion.preferences import default_rules, describe_rules, validate_rules
from companion.services import use_services, use_ui
from companion.storage import StorageError
from rulesets import GAMES, RulesetError, load_ruleset
from rulesets.cards import Card, format_cards
from rulesets.protocol import Advice, CheckerFacts, HouseRulesBase, Verdict

Mode = Literal["meld", "extend", "hand"]
Target = Literal["cards", "anchor", "hand"]

#: (background, text) of the verdict panels, for a light and a dark theme.
PALETTE = {
    False: {
        "legal": ("#E8F5E9", "#1B5E20"),
        "illegal": ("#FFEBEE", "#B71C1C"),
        "neutral": ("#ECEFF1", "#37474F"),
        "hint": ("#E3F2FD", "#0D47A1"),
    },
    True: {
        "legal": ("#1B3A1E", "#A5D6A7"),
        "illegal": ("#3E1A1A", "#FFCDD2"),
        "neutral": ("#263238", "#CFD8DC"),
        "hint": ("#102A43", "#BBDEFB"),
    },
}


def _dark(chosen: bool | None) -> bool:
    """The theme in use: the one chosen in the app, else the system's."""
    if chosen is not None:
        return chosen
    return bool(ft.context.page.platform_brightness == ft.Brightness.DARK)


# --------------------------------------------------------------------------- logic


@dataclass
class Outcome:
    """What the screen shows for the current cards: the referee's words, never its own."""

    verdict: Verdict | None = None
    error: str | None = None  # a RulesetError message (bad cards, bad house rules)
    error_rule: str | None = None
    headline: str = ""
    lines: list[str] = field(default_factory=list)  # the whole-hand advice, line by line
    rule: str | None = None


def advice_lines(advice: Advice) -> list[str]:
    """The referee's advice on a whole hand, one line per play, then the outcome."""
    lines = [p.said for p in advice.plays]
    if advice.reason and advice.said not in lines:
        lines.append(advice.said)
    lines.extend(advice.said_notes)
    return lines


def evaluate(
    game: str,
    rules: dict[str, Any],
    mode: Mode,
    cards: Sequence[Card],
    *,
    anchor: Sequence[Card] = (),
    hand: Sequence[Card] | None = None,
    going_out: bool = False,
) -> Outcome:
    """Ask ``game``'s referee about ``cards``; never raises for bad input.

    ``hand`` is the rest of the player's hand (the cards played are not in it).
    """
    try:
        ruleset = load_ruleset(game)
        model = validate_rules(game, rules)
        facts = ruleset.checker
        if not cards:
            return Outcome(headline="Tap cards to check them.")
        if mode == "hand":
            suggestion = ruleset.suggest(list(cards), rules=model)
            if not facts.hand_verdict:
                return Outcome(headline="Best play of this hand", lines=advice_lines(suggestion))
            verdict = ruleset.check(list(cards), rules=model)
            headline = facts.headline(verdict, ruleset.units(model))
            # the verdict says the outcome (Rummoli's widow); the advice adds its plays
            # only -- its reason and notes say the plays and that outcome over again
            plays = [p.said for p in suggestion.plays]
            return Outcome(verdict=verdict, rule=verdict.rule, headline=headline, lines=plays)
        if mode == "extend" and not anchor:
            return Outcome(headline="Now pick the meld on the table to extend (Anchor).")
        verdict = ruleset.check(
            list(cards),
            onto=list(anchor) if mode == "extend" else None,
            going_out=going_out,
            hand=list(hand) if hand is not None else None,
            rules=model,
        )
    except RulesetError as exc:
        return Outcome(error=exc.words, error_rule=exc.rule, rule=exc.rule)
    headline = facts.headline(verdict, ruleset.units(model))
    return Outcome(verdict=verdict, rule=verdict.rule, headline=headline)


# --------------------------------------------------------------------------- the screen


def _query() -> dict[str, str]:
    route = getattr(ft.context.page, "route", "") or ""
    return {k: v[0] for k, v in parse_qs(urlparse(route).query).items() if v}


def _choice(
    text: str, selected: bool, on_click: Callable[[], None], ident: str, icon: Any = None
) -> ft.Control:
    cls = ft.FilledButton if selected else ft.OutlinedButton
    return labelled(
        cls(text, icon=icon, on_click=lambda _: on_click()),
        text,
        ident,
        button=True,
        selected=selected,
    )


def _verdict_panel(outcome: Outcome, dark: bool) -> ft.Control:
    colors = PALETTE[dark]
    v = outcome.verdict
    body: list[ft.Control] = []
    if outcome.error is not None:
        (bg, fg), icon = colors["illegal"], ft.Icons.ERROR_OUTLINE
        headline = "Cannot check these cards"
        body.append(ft.Text(outcome.error, color=fg))
    elif v is not None and v.incomplete:  # a meld still being picked: neutral words
        (bg, fg), icon = colors["neutral"], ft.Icons.TOUCH_APP
        headline = outcome.headline
        body.append(ft.Text(v.said, color=fg))
    elif v is not None:
        bg, fg = colors["legal"] if v.legal else colors["illegal"]
        icon = ft.Icons.CHECK_CIRCLE if v.legal else ft.Icons.CANCEL
        headline = outcome.headline
        body.append(ft.Text(v.said, color=fg))
        body.extend(ft.Text(f"• {n}", size=13, color=fg) for n in v.said_notes)
    else:
        (bg, fg), icon = colors["neutral"], ft.Icons.TOUCH_APP
        headline = outcome.headline
    if v is not None or outcome.error is not None:
        body.extend(ft.Text(line, color=fg) for line in outcome.lines)
    link = (
        rule_link(outcome.rule, "checker-rule-link", align=ft.Alignment.CENTER_LEFT)
        if outcome.rule
        else None
    )
    return _panel("checker-verdict", bg, ft.Icon(icon, color=fg), headline, fg, body, link)


def _suggestion_panel(outcome: Outcome, dark: bool) -> ft.Control:
    bg, accent = PALETTE[dark]["hint"]
    fg = PALETTE[dark]["neutral"][1]
    icon = ft.Icon(ft.Icons.LIGHTBULB_OUTLINE, color=accent)
    lines = [ft.Text(line, color=fg) for line in outcome.lines]
    return _panel("checker-suggestion", bg, icon, outcome.headline, accent, lines)


def verdict_box(outcome: Outcome, *, advice_only: bool, dark: bool) -> ft.Control:
    """The panel under the grid: the referee's advice on a whole hand where the game
    gives only advice (``advice_only``), else the verdict (or why the cards cannot
    be checked)."""
    if advice_only and outcome.error is None:
        return _suggestion_panel(outcome, dark)
    return _verdict_panel(outcome, dark)


#: px: the verdict panel, whatever it says (its lines scroll inside it): nothing moves
VERDICT_PANEL_HEIGHT = 148

#: px: the rule link's line, the panel's last: the link sits there whatever the verdict
#: says, so it never moves under a thumb, and the headline has the panel's whole width
LINK_LINE_HEIGHT = 44


def _panel(
    ident: str,
    bg: str,
    icon: ft.Icon,
    headline: str,
    color: str,
    body: Sequence[ft.Control],
    link: ft.Control | None = None,
) -> ft.Control:
    """A coloured box of fixed height, read out when it changes: icon and headline, then
    the lines (scrolling inside the box when there are many), then the rule link on a
    line of its own at the bottom.

    The headline has the box's whole width (at 360 px a link beside it squeezed
    "Legal: extension, 1 card" to "Legal: extension, 1 …"); it wraps to a second line
    before it is ever cut, and its label says all of it."""
    head = ft.Row(
        [
            icon,
            ft.Text(
                headline,
                size=17,
                weight=ft.FontWeight.BOLD,
                color=color,
                expand=True,
                max_lines=2,
                overflow=ft.TextOverflow.ELLIPSIS,
                semantics_label=headline,
            ),
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    rows: list[ft.Control] = [
        head,
        ft.Column(list(body), spacing=4, scroll=ft.ScrollMode.AUTO, expand=True),
    ]
    if link is not None:
        # the box is of fixed height and pinned: its last line is always in one place,
        # and the link fills that line (its words at the left), so a longer or shorter
        # title from one verdict to the next does not resize it under a thumb
        rows.append(ft.Row([ft.Container(link, height=LINK_LINE_HEIGHT, expand=True)]))
    return ft.Semantics(
        identifier=ident,
        container=True,
        live_region=True,
        content=ft.Container(
            bgcolor=bg,
            border_radius=10,
            padding=ft.Padding(12, 6, 12, 6),
            height=VERDICT_PANEL_HEIGHT,
            content=ft.Column(rows, spacing=2),
        ),
    )


def chosen_cards_strip(
    label: str, cards: Sequence[Card], *, ident: str, on_change: Callable[[list[Card]], None]
) -> ft.Control:
    """The reserved line over the grid: "Meld:" and the chosen cards (tap one to remove
    it), and the clear button -- the same height whatever it holds."""
    summary = f"{label}: {format_cards(cards, symbols=True)}" if cards else f"{label}: none chosen"

    def remove(i: int, _: Any = None) -> None:
        on_change([*cards[:i], *cards[i + 1 :]])

    faces: list[ft.Control] = [
        ft.Semantics(
            content=ft.Container(
                content=card_face(c, width=30, label=f"Remove {c.words}"),
                on_click=functools.partial(remove, i),
            ),
            identifier=f"{ident}-chosen-{i}",
            key=f"{ident}-chosen-{i}",
        )
        for i, c in enumerate(cards)
    ]
    words = ft.Text(
        f"{label}:" if cards else summary,
        size=14,
        weight=ft.FontWeight.W_500,
        semantics_label=summary,
        no_wrap=True,
    )
    clear = icon_button(
        ft.Icons.BACKSPACE_OUTLINED,
        f"Clear {in_sentence(label)}",
        lambda _: on_change([]),
        f"{ident}-clear",
        disabled=not cards,
    )
    return ft.Container(
        content=ft.Row(
            [
                ft.Row([words, *faces], spacing=4, expand=True, scroll=ft.ScrollMode.HIDDEN),
                clear,
            ],
            spacing=4,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        height=STRIP_HEIGHT,
    )


def _unavailable(
    mode: Mode, active: Target, groups: dict[str, list[Card]], use_hand: bool
) -> set[Card]:
    """Cards the picker being filled cannot take: they are already in another group."""
    cards, anchor, hand = groups["cards"], groups["anchor"], groups["hand"]
    others: set[Card] = set()
    if active == "cards":
        others = set(anchor) if mode == "extend" else set()
        if use_hand:
            others |= set(hand)
    elif active == "anchor":
        others = set(cards) | (set(hand) if use_hand else set())
    elif active == "hand":
        others = set(anchor) | set(cards)
    return {c for c in others if not c.is_joker}


def validate_or_none(game: str, rules: dict[str, Any]) -> HouseRulesBase | None:
    """The game's house rules from ``rules``, or None (the defaults) while they are invalid."""
    try:
        return validate_rules(game, rules)
    except RulesetError:
        return None


MODE_WORDS = {"meld": "Meld", "extend": "Extend a meld", "hand": "Whole hand"}


def _mode_controls(
    facts: CheckerFacts,
    mode: Mode,
    choose_mode: Callable[[str], None],
    going_out: bool,
    use_hand: bool,
    set_going_out: Callable[[bool], None],
    set_use_hand: Callable[[bool], None],
    hand_line: str = "",
) -> list[ft.Control]:
    """The checks this game offers (the ruleset's ``checker`` facts), and their switches;
    under them ``hand_line``, what the verdict could not check without the hand
    (:meth:`~rulesets.protocol.CheckerFacts.hand_line`): said once, beside the switch
    that enters the hand, not in every verdict."""
    out: list[ft.Control] = []
    if len(facts.modes) > 1:
        out.append(
            ft.Row(
                [
                    _choice(
                        MODE_WORDS[m],
                        m == mode,
                        functools.partial(choose_mode, m),
                        f"checker-mode-{m}",
                    )
                    for m in facts.modes
                ],
                wrap=True,
                spacing=8,
                run_spacing=8,
            )
        )
    if mode == "hand":
        if facts.whole_hand:
            out.append(ft.Text(facts.whole_hand, size=14))
        return out
    switches: list[ft.Control] = []
    if facts.going_out:
        switches.append(
            labelled(
                ft.Switch(
                    label="Going out",
                    value=going_out,
                    on_change=lambda e: set_going_out(bool(e.control.value)),
                ),
                "Going out",
                "checker-going-out",
            )
        )
    if facts.rest_of_hand:
        switches.append(
            labelled(
                ft.Switch(
                    label=facts.rest_of_hand,
                    value=use_hand,
                    on_change=lambda e: set_use_hand(bool(e.control.value)),
                ),
                facts.rest_of_hand,
                "checker-use-hand",
            )
        )
    if switches:
        out.append(ft.Row(switches, wrap=True, spacing=16))
    if hand_line:
        out.append(said(ft.Text(hand_line, size=13, italic=True), hand_line, "checker-hand-note"))
    return out


@ft.component
def CheckerView() -> ft.View:
    services = use_services()

    def initial() -> tuple[str, dict[str, dict[str, Any]]]:
        q = _query()
        game = q.get("game", "umtali")
        per_game = {g: default_rules(services.repo.data_dir, g) for g in GAMES}
        gid = q.get("gid")
        if gid:
            try:
                stored = services.repo.get_game(gid)
            except StorageError:
                pass
            else:
                game = stored.game
                per_game[stored.game] = dict(stored.rules)
        return (game if game in GAMES else "umtali"), per_game

    start = ft.use_memo(initial, [])
    game, set_game = ft.use_state(start[0])
    rules_by_game, set_rules_by_game = ft.use_state(start[1])
    mode, set_mode = ft.use_state("meld")
    target, set_target = ft.use_state("cards")
    empty: dict[str, list[Card]] = {"cards": [], "anchor": [], "hand": []}
    groups, set_groups = ft.use_state(empty)
    going_out, set_going_out = ft.use_state(False)
    use_hand, set_use_hand = ft.use_state(False)
    rules_open, set_rules_open = ft.use_state(False)

    ui = use_ui()
    dark = _dark(ui.dark)
    rules = rules_by_game.get(game, {})
    ruleset = load_ruleset(game)
    facts = ruleset.checker
    eff_mode: Mode = typing.cast(Mode, mode if mode in facts.modes else facts.modes[0])
    cards: list[Card] = groups["cards"]
    anchor: list[Card] = groups["anchor"]
    hand: list[Card] = groups["hand"]
    targets: list[Target] = ["cards"]
    if eff_mode == "extend":
        targets.append("anchor")
    if eff_mode != "hand" and use_hand:
        targets.append("hand")
    active: Target = target if target in targets else "cards"

    outcome = evaluate(
        game,
        rules,
        eff_mode,
        cards,
        anchor=anchor,
        hand=hand if (use_hand and eff_mode != "hand") else None,
        going_out=going_out and eff_mode != "hand",
    )

    def choose_game(g: str) -> None:
        set_game(g)
        if not load_ruleset(g).jokers(validate_or_none(g, rules_by_game.get(g, {}))):
            set_groups(lambda old: {k: [c for c in v if not c.is_joker] for k, v in old.items()})

    def set_group(name: Target, new: list[Card]) -> None:
        set_groups(lambda old: {**old, name: list(new)})

    def set_rules(new: dict[str, Any]) -> None:
        set_rules_by_game(lambda old: {**old, game: dict(new)})

    def choose_mode(m: str) -> None:
        set_mode(m)
        if m == "extend":
            set_target("anchor" if not anchor else "cards")

    jokers = ruleset.jokers(validate_or_none(game, rules))
    title = ruleset.title
    ft.use_dialog(
        ft.AlertDialog(
            title=ft.Text(f"{title} house rules"),
            scrollable=True,
            content=ft.Container(
                width=520,
                content=HouseRulesEditor(game, rules, set_rules, ident="checker-rule"),
            ),
            actions=[
                labelled(
                    ft.FilledButton("Done", on_click=lambda _: set_rules_open(False)),
                    "Done",
                    "checker-rules-done",
                    button=True,
                )
            ],
            on_dismiss=lambda _: set_rules_open(False),
        )
        if rules_open
        else None
    )
    changed = describe_rules(game, rules)
    board: list[ft.Control] = [
        ft.Row(
            [
                _choice(
                    load_ruleset(g).title,
                    g == game,
                    functools.partial(choose_game, g),
                    f"checker-game-{g}",
                )
                for g in GAMES
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        ),
        ft.Row(
            [
                labelled(
                    ft.OutlinedButton(
                        "House rules",
                        icon=ft.Icons.TUNE,
                        on_click=lambda _: set_rules_open(True),
                    ),
                    "House rules",
                    "checker-house-rules",
                    button=True,
                ),
                ft.Text(changed, size=13, expand=True),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
    ]
    checks = _mode_controls(
        facts,
        eff_mode,
        choose_mode,
        going_out,
        use_hand,
        set_going_out,
        set_use_hand,
        facts.hand_line(outcome.verdict),
    )
    # the modes, then which group the grid fills, then the switches: what a thumb
    # needs most sits highest on the (scrolling) board
    modes = checks[:1] if len(facts.modes) > 1 else []
    names = _target_names(eff_mode)
    board += [*modes, *_targets(targets, active, names, groups, set_target), *checks[len(modes) :]]
    advice_only = eff_mode == "hand" and not facts.hand_verdict and bool(cards)
    verdict = verdict_box(outcome, advice_only=advice_only, dark=dark)
    others = _unavailable(eff_mode, active, groups, use_hand)
    change = functools.partial(set_group, active)
    entry: list[ft.Control] = [
        chosen_cards_strip(
            names[active], groups[active], ident=f"checker-{active}", on_change=change
        ),
        CompactPicker(
            groups[active],
            change,
            ident=f"checker-{active}",
            label=names[active],
            jokers=jokers,
            unavailable=others,
            strip=False,
        ),
    ]
    return ft.View(
        route="/check",
        appbar=ft.AppBar(title=ft.Text("Check a meld")),
        scroll=None,
        padding=ft.Padding(12, 4, 12, 8),
        controls=[
            thumb_board_screen(board=board, entry=entry, bar=verdict, board_ident="checker-board")
        ],
    )


def _target_names(mode: Mode) -> dict[str, str]:
    """What each group of cards is called in ``mode``."""
    return {
        "cards": "Your hand" if mode == "hand" else ("Card to add" if mode == "extend" else "Meld"),
        "anchor": "Anchor (meld on the table)",
        "hand": "Rest of my hand",
    }


def _targets(
    targets: Sequence[Target],
    active: Target,
    names: dict[str, str],
    groups: dict[str, list[Card]],
    set_target: Callable[[str], None],
) -> list[ft.Control]:
    """Which group the grid fills (when there are several), and the others' cards."""
    if len(targets) < 2:
        return []
    out: list[ft.Control] = [
        ft.Text("Tap cards into:", size=14),
        ft.Row(
            [
                _choice(
                    names[t], t == active, functools.partial(set_target, t), f"checker-target-{t}"
                )
                for t in targets
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        ),
    ]
    for t in targets:
        if t != active and groups[t]:
            out.append(
                said(
                    ft.Column(
                        [ft.Text(f"{names[t]}:", size=13), card_row(groups[t], width=30)],
                        spacing=2,
                    ),
                    f"{names[t]}: {format_cards(groups[t], symbols=True)}",
                    f"checker-{t}-row",
                )
            )
    return out
