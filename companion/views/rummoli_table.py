"""The Rummoli table: the board, the stacks, and a round step by step.

What the screen shows follows the referee's phase (``summary["phase"]``):

* **idle** -- the last round's settlement (every chip movement per player,
  each linked to its rule), the board after carry-over, then "Deal round N"
  with the next dealer, or "End the game".
* **widow** -- the ante and the deal sizes, then the widow: the dealer swaps
  blind, an auction (bidder and bid; the winner pays the dealer) or nobody.
  Pay-card eligibility (M2.4) is asked before anything is recorded.
* **poker** -- bets and folds (when the table bets), then either tap the
  winner(s), or enter each player's cards and let the referee judge (each
  hand's name and best five are shown as the cards go in).
* **play** -- the Rummoli phase: quick (tap a pot, tap who laid it; going out
  with the cards each other player holds; impasse), or a live log card by
  card that the referee checks as each card is chosen.
* **final** / **over** -- the final poker (one pot, or pot by pot), then
  the standings.

The view is thin: every chip count, verdict and statement comes from the
referee (``session.summary`` / ``session.check`` / ``rulesets.rummoli``);
taps become action dicts that the session records or refuses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.components.picker import CardPicker
from companion.components.rummoli_board import (
    board,
    mini_cards,
    pot_label,
    pot_words,
    stacks,
)
from companion.games import RUMMOLI_ANTE
from companion.routes import rule_route
from companion.session import GameSession
from companion.ui import go, labelled, slug
from rulesets import RulesetError
from rulesets import poker as pk
from rulesets.cards import Card, parse_cards
from rulesets.rummoli import (
    RULESET,
    Bet,
    Claim,
    Deal,
    End,
    FinalPoker,
    Fold,
    Impasse,
    Lay,
    Out,
    Poker,
    RummoliGame,
    RummoliRules,
    Widow,
    deal_sizes,
)

PAY_CARDS_TEXT = "10♠ J♦ Q♣ K♥ A♠ K♦ A♦, or the {run} of one suit"
COMBO_POTS = {"AD+KD": ("K♦ and A♦", "A-M8"), "7-8-9": ("7, 8 and 9", "A-M9")}
COMBO_POTS["8-9-10"] = ("8, 9 and 10", "A-M9")


# --------------------------------------------------------------------------- pure helpers


@dataclass(frozen=True)
class Line:
    """One chip movement of a statement: what, how many, detail, the rule."""

    text: str
    delta: int
    detail: str
    rule: str


_ITEM = re.compile(
    r"(?P<text>.*?) (?P<delta>[+-]\d+)(?: \((?P<detail>[^\[]*?)\))? \[(?P<rule>[^\]]+)\](?:, |$)"
)


def parse_statement(name: str, text: str) -> tuple[int, list[Line]]:
    """Split the referee's statement line for ``name`` into its net and movements.

    >>> net, lines = parse_statement("Ann", "Ann -2: ante -9 [M1.3], cards owed +3 (Bob 3) [A-M11]")
    >>> net, lines[1]
    (-2, Line(text='cards owed', delta=3, detail='Bob 3', rule='A-M11'))
    """
    rest = text[len(name) + 1 :] if text.startswith(f"{name} ") else text
    head, _, body = rest.partition(": ")
    try:
        net = int(head.strip())
    except ValueError:
        net = 0
    lines = [
        Line(m["text"], int(m["delta"]), m["detail"] or "", m["rule"]) for m in _ITEM.finditer(body)
    ]
    return net, lines


def seat_of(players: Sequence[str], name: str) -> int:
    return list(players).index(name)


def round_actions(
    actions: Sequence[dict[str, Any]], start_types: Sequence[str]
) -> list[dict[str, Any]]:
    """The actions since the last action whose type is in ``start_types``."""
    for i in range(len(actions) - 1, -1, -1):
        if actions[i].get("type") in start_types:
            return list(actions[i + 1 :])
    return []


def bets_and_folds(
    actions: Sequence[dict[str, Any]], n: int, final: bool
) -> tuple[list[int], set[int]]:
    """Chips each seat has bet and who folded in the poker being played (from the record)."""
    since = round_actions(actions, ("end", "final_poker") if final else ("deal",))
    bets = [0] * n
    folded: set[int] = set()
    for a in since:
        if a.get("type") == "bet":
            bets[a["player"]] += a["chips"]
        elif a.get("type") == "fold":
            folded.add(a["player"])
    return bets, folded


def next_final_pot(summary: dict[str, Any]) -> tuple[str, int]:
    """The pot the next final poker is for, as the referee says (M7.2)."""
    nxt = summary.get("final_next") or {"pot": "final", "chips": 0}
    return str(nxt["pot"]), int(nxt["chips"])


def names_and(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# --------------------------------------------------------------------------- small widgets

# KEYS: every control with a test/accessibility identifier also carries it as its key.
# Flutter web sets a semantics node's identifier when it creates the node and does not
# update it when the widget in that place changes (seen with Flet 1.0.5): without a key,
# "record-poker" could name whatever button later takes its place.


def rule_link(rule: str, ident: str | None = None) -> ft.Control:
    return labelled(
        ft.TextButton(
            rule,
            on_click=lambda _, r=rule: go(rule_route(r)),
            style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=6)),
        ),
        f"Rule {rule}",
        ident or f"rule-{slug(rule)}",
        button=True,
        key=ident or None,
    )


def said(control: ft.Control, label: str, ident: str, *, expand: bool = False) -> ft.Control:
    """Read-only content with one spoken label (the text inside is not read twice)."""
    return ft.Semantics(
        content=control,
        label=label,
        identifier=ident,
        key=ident,  # a new node when the meaning changes (see KEYS)
        container=True,
        exclude_semantics=True,
        expand=expand,
    )


def explain(text: str, rule: str | None = None, ident: str | None = None) -> ft.Control:
    parts: list[ft.Control] = [ft.Text(text, size=14, expand=True)]
    if rule:
        parts.append(rule_link(rule))
    if ident:
        parts[0] = said(parts[0], text, ident, expand=True)
    return ft.Row(parts, vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=4)


def section(title: str, controls: Sequence[ft.Control], ident: str | None = None) -> ft.Control:
    box = ft.Container(
        content=ft.Column(
            [ft.Text(title, size=17, weight=ft.FontWeight.BOLD), *controls],
            spacing=8,
            tight=True,
        ),
        padding=12,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
    )
    return ft.Semantics(content=box, identifier=ident, key=ident, container=True) if ident else box


def button(
    text: str,
    on_click: Callable[..., Any],
    ident: str,
    *,
    filled: bool = False,
    icon: ft.IconData | None = None,
    disabled: bool = False,
    label: str | None = None,
) -> ft.Control:
    cls = ft.FilledButton if filled else ft.OutlinedButton
    ctl = cls(text, icon=icon, on_click=on_click, disabled=disabled, height=44)
    return labelled(ctl, label or text, ident, button=True, key=ident)


def choice(
    text: str, chosen: bool, on_click: Callable[..., Any], ident: str, label: str | None = None
) -> ft.Control:
    """A toggle chip: a player or a pot to pick (thumb-sized)."""
    # The tap of the InkWell joins the labelled node; only the text inside is hidden from
    # screen readers (hiding everything would hide the tap too).
    chip = ft.Container(
        content=ft.Semantics(
            exclude_semantics=True,
            content=ft.Text(
                text,
                size=15,
                weight=ft.FontWeight.W_600 if chosen else ft.FontWeight.NORMAL,
                color=ft.Colors.ON_PRIMARY if chosen else None,
            ),
        ),
        padding=ft.Padding.symmetric(horizontal=14, vertical=10),
        border_radius=22,
        bgcolor=ft.Colors.PRIMARY if chosen else ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border=ft.Border.all(1, ft.Colors.OUTLINE),
        on_click=on_click,
        ink=True,
    )
    return ft.Semantics(
        content=chip,
        label=label or text,
        identifier=ident,
        key=ident,
        button=True,
        selected=chosen,
        container=True,
    )


def stepper(
    label: str, value: int, on_step: Callable[[int], None], ident: str, lo: int = 0, hi: int = 99
) -> ft.Control:
    """- value +; ``on_step(delta)`` works from the latest value (never a stale closure, P6)."""
    words = f"{label}: {value}"
    return ft.Row(
        [
            ft.Text(label, size=15, expand=True),
            labelled(
                ft.IconButton(
                    ft.Icons.REMOVE_CIRCLE_OUTLINE,
                    on_click=lambda _: on_step(-1),
                    disabled=value <= lo,
                    icon_size=30,
                ),
                f"Less: {label}",
                f"{ident}-minus",
                button=True,
                key=f"{ident}-minus",
            ),
            said(
                ft.Text(
                    str(value),
                    size=20,
                    weight=ft.FontWeight.BOLD,
                    width=36,
                    text_align=ft.TextAlign.CENTER,
                ),
                words,
                ident,
            ),
            labelled(
                ft.IconButton(
                    ft.Icons.ADD_CIRCLE_OUTLINE,
                    on_click=lambda _: on_step(+1),
                    disabled=value >= hi,
                    icon_size=30,
                ),
                f"More: {label}",
                f"{ident}-plus",
                button=True,
                key=f"{ident}-plus",
            ),
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
        spacing=0,
    )


def stepping(
    ui: dict[str, Any], set_ui: Callable[..., None], key: str, default: int, lo: int, hi: int
) -> Callable[[int], None]:
    """A stepper's handler that moves ``ui[key]`` by a delta, kept within lo..hi."""

    def step(delta: int) -> None:
        set_ui(**{key: max(lo, min(hi, int(ui.get(key, default)) + delta))})

    return step


def statement_card(
    name: str, text: str | None, ident: str, *, chips_now: int | None = None
) -> ft.Control:
    """A player's statement: net change, then one line per movement linked to its rule."""
    net, lines = parse_statement(name, text) if text else (0, [])
    rows: list[ft.Control] = []
    for i, ln in enumerate(lines):
        detail = f" ({ln.detail})" if ln.detail else ""
        words = f"{ln.text} {ln.delta:+d}{detail}"
        rows.append(
            ft.Row(
                [
                    said(
                        ft.Text(words, size=14),
                        f"{name}: {words}, rule {ln.rule}",
                        f"{ident}-line-{i}",
                        expand=True,
                    ),
                    rule_link(ln.rule, f"{ident}-line-{i}-rule"),
                ],
                spacing=2,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    if not rows:
        rows.append(ft.Text("no chips moved", size=14, italic=True))
    head = f"{name} {net:+d}" + (f", now {chips_now} chips" if chips_now is not None else "")
    return ft.Semantics(
        identifier=ident,
        key=ident,
        container=True,
        content=ft.Container(
            padding=ft.Padding.only(left=10, right=4, top=6, bottom=6),
            border_radius=10,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            content=ft.Column(
                [
                    said(
                        ft.Text(
                            head,
                            size=16,
                            weight=ft.FontWeight.BOLD,
                            color=ft.Colors.PRIMARY if net > 0 else None,
                        ),
                        f"Statement {head}",
                        f"{ident}-net",
                    ),
                    *rows,
                ],
                spacing=0,
                tight=True,
            ),
        ),
    )


def poker_result(info: dict[str, Any], ident: str) -> list[ft.Control]:
    """The referee's poker verdict: each hand's name and best five, who won what."""
    out: list[ft.Control] = []
    for name, h in (info.get("hands") or {}).items():
        words = f"{name}: {h['name']}"
        out.append(
            said(
                ft.Column(
                    [
                        ft.Text(words, size=14, weight=ft.FontWeight.W_500),
                        mini_cards(" ".join(h["best"]), width=30),
                    ],
                    spacing=2,
                    tight=True,
                ),
                f"{words} ({' '.join(h['best'])})",
                f"{ident}-hand-{slug(name)}",
            )
        )
    winners = info.get("winners") or []
    if winners:
        if "carried" in info:  # a round's poker pot
            if len(winners) == 1:
                text = f"{winners[0]} wins the Poker pot: {plural(info['pot'], 'chip')}."
                rule = "M4.3"
            else:
                text = (
                    f"{names_and(winners)} tie and split {info['pot']}: {info['share']} each, "
                    f"{plural(info['carried'], 'chip')} left in the Poker pot."
                )
                rule = "M4.4"
            text += f" {info.get('starter', winners[0])} starts the Rummoli phase."
        else:  # final poker
            what = (
                "the board" if info.get("pot") == "final" else f"the {pot_label(info['pot'])} pot"
            )
            if len(winners) == 1:
                text = f"{winners[0]} wins {what}: {plural(info.get('chips', 0), 'chip')}."
            else:
                text = (
                    f"{names_and(winners)} split {what} ({info.get('chips', 0)}): "
                    f"{info.get('share', 0)} each"
                    + (f", {winners[0]} takes the odd {info['odd']}" if info.get("odd") else "")
                    + "."
                )
            rule = "M7.2"
        out.append(explain(text, rule, f"{ident}-verdict"))
    return out


# --------------------------------------------------------------------------- the table


@ft.component
def RummoliTable(session: GameSession) -> ft.Control:
    ft.use_state(session)  # re-render when the session changes
    _, set_rev = ft.use_state(0)
    initial: dict[str, Any] = {"modes": {}}
    ui_ref = ft.use_ref(initial)
    ui: dict[str, Any] = ui_ref.current if ui_ref.current is not None else initial

    summary = session.summary
    stored = session.stored
    players: list[str] = list(stored.players)
    n = len(players)
    actions = list(session.actions)
    if ui.get("at") != len(actions):  # a new entry (or undo): forget half-made choices
        _reset(ui, len(actions))
    try:
        rules = RummoliRules.model_validate(stored.rules)
    except Exception:
        rules = RummoliRules()
    game = ft.use_memo(lambda: _referee(session), [session.revision])

    def bump() -> None:
        set_rev(lambda r: r + 1)

    def set_ui(**kw: Any) -> None:
        ui.update(kw)
        bump()

    def set_mode(key: str, value: str) -> None:
        ui["modes"][key] = value
        bump()

    def record(*acts: Any) -> bool:
        dumped = [a.model_dump(mode="json") for a in acts]
        refusal = session.add(dumped[0]) if len(dumped) == 1 else session.add_many(dumped)
        if refusal is None:
            _reset(ui, len(session.actions))
            bump()
            return True
        bump()
        return False

    phase = summary.get("phase", "setup")
    pots: dict[str, int] = dict(summary.get("pots") or {})
    totals: dict[str, int] = dict(summary.get("totals") or {})
    in_game: list[str] = list(summary.get("in_game") or [])
    hands: list[dict[str, Any]] = list(summary.get("hands") or [])
    current = hands[-1] if hands else None
    dealer = summary.get("dealer")
    held_now = game.held if game is not None and phase in ("widow", "poker", "play") else None

    # ---- the top: board and stacks
    final_phase = phase in ("final", "over")
    taps: list[str] = []
    if (
        phase == "play"
        and game is not None
        and ui["modes"].get("play", "quick") == "quick"
        and (current is None or current.get("mode") != "live")
    ):
        taps = game.open_pots()

    def tap_pot(pot: str) -> None:
        set_ui(pot=pot, combo=None, claim_by=None)

    held_map = {p: held_now[i] for i, p in enumerate(players)} if held_now is not None else None
    bet_note: dict[str, str] = {}
    if phase in ("poker", "final", "widow"):
        bets, folded = bets_and_folds(actions, n, phase == "final")
        for i, p in enumerate(players):
            if i in folded:
                bet_note[p] = "folded"
            elif bets[i]:
                bet_note[p] = f"bet {bets[i]}"
    top: list[ft.Control] = [
        ft.Semantics(
            content=board(
                pots, on_tap=tap_pot if taps else None, selected=ui.get("pot"), taps=taps
            ),
            identifier="board",
            container=True,
        ),
        stacks(
            players,
            totals,
            dealer=None if final_phase else dealer,
            in_game=in_game,
            held=held_map,
            note=bet_note,
        ),
        said(
            ft.Text(
                f"Chips on the table: {summary.get('chips_total', 0)}"
                + (
                    f" (started with {summary.get('chips_added')})"
                    if summary.get("chips_added") != summary.get("chips_total")
                    else ""
                ),
                size=13,
                color=ft.Colors.ON_SURFACE_VARIANT,
            ),
            f"Chips on the table: {summary.get('chips_total', 0)}",
            "chips-total",
        ),
    ]

    # ---- the phase panel
    panel: list[ft.Control]
    if game is None or phase == "setup":
        panel = [ft.Text("This game has no starting chips recorded.")]
    elif phase == "idle":
        panel = _idle_panel(summary, players, hands, rules, dealer, record)
    elif phase == "widow":
        panel = _widow_panel(ui, set_ui, summary, players, rules, game, record)
    elif phase == "poker":
        panel = _poker_panel(
            ui, set_ui, set_mode, summary, players, rules, actions, game, record, final=False
        )
    elif phase == "play":
        panel = _play_panel(ui, set_ui, set_mode, session, summary, players, rules, game, record)
    elif phase == "final":
        panel = _poker_panel(
            ui, set_ui, set_mode, summary, players, rules, actions, game, record, final=True
        )
    else:
        panel = _over_panel(summary, players, hands)

    return ft.ResponsiveRow(
        [
            ft.Column(top, spacing=10, col={"xs": 12, "md": 5}),
            ft.Column(panel, spacing=10, col={"xs": 12, "md": 7}),
        ],
        spacing=12,
        run_spacing=12,
    )


def _reset(ui: dict[str, Any], at: int) -> None:
    """Forget half-made choices, keep the chosen modes.  The dict is cleared in place:
    a tap drawn by an earlier render still writes to the live choices (P6)."""
    modes = ui.get("modes", {})
    ui.clear()
    ui.update(modes=modes, at=at)


def _referee(session: GameSession) -> RummoliGame | None:
    """The referee's live game (for held cards, open pots and next-card hints)."""
    try:
        return RummoliGame.from_record(session.record())
    except RulesetError:
        return None


# --------------------------------------------------------------------------- idle


def _settlement(hand: dict[str, Any], players: list[str], totals: dict[str, int]) -> ft.Control:
    n = hand["number"]
    if hand.get("impasse"):
        how = "Impasse: every card still held paid 1 chip into the Rummoli pot"
        rule = "M5.7"
    elif hand.get("out"):
        how = f"{hand['out']} went out and took the Rummoli pot; 1 chip per card held paid to them"
        rule = "M6.1"
    else:
        how, rule = "", ""
    rows: list[ft.Control] = []
    if how:
        rows.append(explain(how + ".", rule, f"round-{n}-how"))
    won = hand.get("pots_won") or {}
    if won:
        text = "Pots won: " + ", ".join(f"{pot_label(p)} by {w}" for p, w in won.items())
        rows.append(explain(text, "M5.6", f"round-{n}-won"))
    statements = hand.get("statement") or {}
    for p in players:
        if p in statements:
            rows.append(
                statement_card(p, statements[p], f"statement-{slug(p)}", chips_now=totals.get(p))
            )
    carried = hand.get("carried") or {}
    carry = (
        "On the board for the next round: "
        + ", ".join(f"{pot_label(p)} {c}" for p, c in carried.items())
        if carried
        else "The board is empty."
    )
    rows.append(explain(carry, "M6.2", f"round-{n}-carried"))
    return section(f"Round {n} settled", rows, f"settlement-{n}")


def _idle_panel(
    summary: dict[str, Any],
    players: list[str],
    hands: list[dict[str, Any]],
    rules: RummoliRules,
    dealer: str | None,
    record: Callable[..., bool],
) -> list[ft.Control]:
    out: list[ft.Control] = []
    totals = summary.get("totals") or {}
    if hands:
        out.append(_settlement(hands[-1], players, totals))
    in_game = summary.get("in_game") or []
    short = [p for p in in_game if totals.get(p, 0) < RUMMOLI_ANTE]
    nxt = len(hands) + 1
    rows: list[ft.Control] = [
        explain(
            f"Everyone antes 1 chip into each of the 9 pots ({RUMMOLI_ANTE} chips); "
            f"{dealer} deals.",
            "M1.3",
        )
    ]
    if short:
        rows.append(
            explain(
                f"{names_and(short)} cannot pay the full ante and will be out of the game.",
                "M7.1",
                "short-of-chips",
            )
        )
    rows.append(
        button(
            f"Deal round {nxt}: {dealer} deals",
            lambda _: record(Deal()),
            "deal",
            filled=True,
            icon=ft.Icons.STYLE,
        )
    )
    final = (
        "one final poker for all chips on the board"
        if rules.final_poker == "single"
        else ("a final poker for each pot, fewest chips first")
    )
    rows.append(explain(f"Ending the game: {final}.", "M7.2"))
    rows.append(button("End the game", lambda _: record(End()), "end-game", icon=ft.Icons.FLAG))
    out.append(section(f"Round {nxt}", rows, "next-round"))
    if len(hands) > 1:
        out.append(_history(hands[:-1], players))
    return out


def _history(hands: list[dict[str, Any]], players: list[str]) -> ft.Control:
    tiles: list[ft.Control] = []
    for h in reversed(hands):
        statements = h.get("statement") or {}
        nets = ", ".join(f"{p} {h['scores'].get(p, 0):+d}" for p in players)
        tiles.append(
            ft.ExpansionTile(
                title=ft.Text(f"Round {h['number']} ({h['dealer']} dealt)"),
                subtitle=ft.Text(nets, size=13),
                controls=[
                    statement_card(p, statements.get(p), f"r{h['number']}-statement-{slug(p)}")
                    for p in players
                    if p in statements
                ],
            )
        )
    return section("Earlier rounds", tiles, "earlier-rounds")


# --------------------------------------------------------------------------- widow


def _widow_panel(
    ui: dict[str, Any],
    set_ui: Callable[..., None],
    summary: dict[str, Any],
    players: list[str],
    rules: RummoliRules,
    game: RummoliGame,
    record: Callable[..., bool],
) -> list[ft.Control]:
    hand = (summary.get("hands") or [{}])[-1]
    n_round = hand.get("number", 1)
    dealer = hand.get("dealer", summary.get("dealer"))
    in_game = summary.get("in_game") or []
    held = game.held
    d = seat_of(players, dealer)
    order = [players[(d + k) % len(players)] for k in range(1, len(players) + 1)]
    order = [p for p in order if p in in_game]
    widow_size = deal_sizes(len(order))[-1]
    deal_text = (
        "Deal, one card at a time from the dealer's left: "
        + ", ".join(f"{p} {held[seat_of(players, p)]}" for p in order)
        + f", widow {widow_size}."
    )
    rows: list[ft.Control] = [
        explain("Everyone in paid the ante: 1 chip into each pot.", "M1.3", "ante-paid"),
        explain(deal_text, "M2.1", "deal-sizes"),
    ]
    gone = [p for p in players if p not in in_game]
    if gone:
        rows.append(explain(f"Out of the game (could not ante): {names_and(gone)}.", "M7.1"))
    run = "8-9-10" if rules.board == "eight_nine_ten" else "7-8-9"
    pay = PAY_CARDS_TEXT.format(run=run)
    rows.append(
        explain(
            f"{dealer} may swap their hand for the widow, blind and for nothing. "
            "Otherwise the widow is auctioned: the highest bidder pays the bid to the dealer.",
            "M2.3",
        )
    )
    if rules.widow_needs_no_pay_card:
        rows.append(explain(f"Only a hand without a pay card may take the widow: {pay}.", "M2.4"))
    taker: str | None = ui.get("taker")
    bid: int = ui.get("bid", 0)
    bidder: str | None = ui.get("bidder")

    def take(player: str, chips: int) -> None:
        if rules.widow_needs_no_pay_card:
            set_ui(taker=player, taker_bid=chips, refused=None)
            return
        record(Widow(player=seat_of(players, player), bid=chips))

    rows.append(
        button(
            f"{dealer} swaps blind",
            lambda _: take(dealer, 0),
            "widow-dealer",
            icon=ft.Icons.SWAP_HORIZ,
        )
    )
    bidders = [p for p in in_game if p != dealer]
    rows.append(ft.Text("Auction: who bid highest?", size=15, weight=ft.FontWeight.W_500))
    rows.append(
        ft.Row(
            [
                choice(
                    p,
                    p == bidder,
                    lambda _, p=p: set_ui(bidder=p),
                    f"bidder-{slug(p)}",
                    f"Highest bidder {p}",
                )
                for p in bidders
            ],
            wrap=True,
            spacing=6,
            run_spacing=6,
        )
    )
    top_bid = summary.get("totals", {}).get(bidder, 0) if bidder else 99
    rows.append(
        stepper("Bid (chips)", bid, stepping(ui, set_ui, "bid", 0, 0, top_bid), "bid", 0, top_bid)
    )
    rows.append(
        button(
            f"{bidder} pays {bid} to {dealer} for the widow"
            if bidder
            else "Pick the highest bidder",
            lambda _: take(bidder, min(ui.get("bid", 0), top_bid)) if bidder else None,
            "widow-auction",
            icon=ft.Icons.GAVEL,
            disabled=bidder is None,
        )
    )
    rows.append(
        button(
            "Nobody takes the widow", lambda _: record(Widow()), "widow-none", icon=ft.Icons.BLOCK
        )
    )
    out: list[ft.Control] = [section(f"Round {n_round}: {dealer} deals", rows, "widow-panel")]
    if taker:
        chips = ui.get("taker_bid", 0)
        what = "swaps" if taker == dealer else (f"pays {chips}, takes it" if chips else "takes it")
        ask: list[ft.Control] = [
            explain(
                f"Does {taker}'s hand hold a pay card ({pay})? A hand with one may not take "
                "the widow.",
                "M2.4",
                "pay-card-question",
            ),
            button(
                f"No pay card: {taker} {what}",
                lambda _: record(Widow(player=seat_of(players, taker), bid=chips)),
                "widow-confirm",
                filled=True,
                icon=ft.Icons.CHECK,
            ),
            button(
                f"{taker} holds a pay card",
                lambda _: set_ui(taker=None, refused=taker),
                "widow-refuse",
                icon=ft.Icons.CLOSE,
            ),
        ]
        checked = ui.get("check_cards") or []
        ask.append(
            ft.ExpansionTile(
                title=ft.Text("Not sure? Enter the hand to check it"),
                controls=[
                    CardPicker(
                        checked,
                        lambda cards: set_ui(check_cards=cards),
                        ident="widow-check",
                        label=f"{taker}'s hand",
                    ),
                    *_pay_card_verdict(checked, rules),
                ],
            )
        )
        out.insert(0, section(f"{taker} takes the widow?", ask, "pay-card-check"))
    elif ui.get("refused"):
        out.insert(
            0,
            explain(
                f"{ui['refused']} holds a pay card, so may not take the widow. "
                "Pick another bidder, or nobody.",
                "M2.4",
                "widow-refused",
            ),
        )
    return out


def _pay_card_verdict(cards: list[Card], rules: RummoliRules) -> list[ft.Control]:
    if not cards:
        return []
    v = RULESET.check(cards, rules=rules)
    icon = ft.Icons.CHECK_CIRCLE if v.legal else ft.Icons.BLOCK
    color = ft.Colors.PRIMARY if v.legal else ft.Colors.ERROR
    return [
        ft.Row(
            [
                ft.Icon(icon, color=color),
                said(ft.Text(v.reason, color=color), v.reason, "pay-card-verdict", expand=True),
                rule_link(v.rule or "M2.4"),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
    ]


# --------------------------------------------------------------------------- poker (round or final)


def _poker_panel(
    ui: dict[str, Any],
    set_ui: Callable[..., None],
    set_mode: Callable[[str, str], None],
    summary: dict[str, Any],
    players: list[str],
    rules: RummoliRules,
    actions: list[dict[str, Any]],
    game: RummoliGame,
    record: Callable[..., bool],
    *,
    final: bool,
) -> list[ft.Control]:
    n = len(players)
    in_game = summary.get("in_game") or []
    pots = summary.get("pots") or {}
    hand = (summary.get("hands") or [{}])[-1]
    bets, folded = bets_and_folds(actions, n, final)
    contenders = [p for i, p in enumerate(players) if p in in_game and i not in folded]
    out: list[ft.Control] = []
    if final:
        pot, chips = next_final_pot(summary)
        what = (
            f"All {chips} chips left on the board are played for in one final poker."
            if pot == "final"
            else f"Final poker for the {pot_label(pot)} pot ({chips} chips): pots are played "
            "for one by one, fewest chips first."
        )
        intro = [explain(what + " A fresh 5 cards are dealt to each player.", "M7.2", "final-what")]
        title = "Final poker"
        for info in summary.get("final") or []:
            intro += poker_result(info, f"final-{info.get('pot')}")
    else:
        pot, chips = "poker", pots.get("poker", 0)
        w = hand.get("widow") or {}
        if w.get("taken_by"):
            paid = f" for {w['bid']} chips, paid to {hand['dealer']}" if w.get("bid") else ""
            wtext = f"{w['taken_by']} took the widow{paid}."
            wrule = "M2.2" if w["taken_by"] == hand.get("dealer") else "M2.3"
        else:
            wtext, wrule = "Nobody took the widow: it stays dead.", "M2.3"
        intro = [explain(wtext, wrule, "widow-result")]
        title = f"Round {hand.get('number', '')}: poker for the Poker pot ({chips})"
    out.append(section(title, intro, "poker-intro"))

    # betting
    if rules.poker_betting == "one_round":
        amount: int = ui.get("bet_amount", 1)
        brows: list[ft.Control] = [
            explain(
                f"One betting round; a bet or raise is at most {rules.bet_limit}. The player on "
                "the dealer's left acts first. Bets go into the pot being played for.",
                "M4.2",
            ),
            stepper(
                "Chips to bet",
                amount,
                stepping(ui, set_ui, "bet_amount", 1, 1, rules.bet_limit),
                "bet-amount",
                1,
                rules.bet_limit,
            ),
        ]
        for i, p in enumerate(players):
            if p not in in_game:
                continue
            if i in folded:
                brows.append(
                    said(
                        ft.Text(f"{p} folded", size=15, italic=True),
                        f"{p} folded",
                        f"folded-{slug(p)}",
                    )
                )
                continue
            brows.append(
                ft.Row(
                    [
                        ft.Text(f"{p} · bet {bets[i]}", size=15, expand=True),
                        button(
                            f"Bet {amount}",
                            lambda _, i=i: record(Bet(player=i, chips=ui.get("bet_amount", 1))),
                            f"bet-{slug(p)}",
                            label=f"{p} bets {amount}",
                        ),
                        button(
                            "Fold",
                            lambda _, i=i: record(Fold(player=i)),
                            f"fold-{slug(p)}",
                            label=f"{p} folds",
                        ),
                    ],
                    spacing=6,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                )
            )
        out.append(section("Betting", brows, "betting"))

    # the winner(s)
    mode = ui["modes"].get("poker", "tap")
    modes = ft.Row(
        [
            choice(
                "Tap the winner(s)",
                mode == "tap",
                lambda _: set_mode("poker", "tap"),
                "poker-mode-tap",
            ),
            choice(
                "Enter the hands",
                mode == "hands",
                lambda _: set_mode("poker", "hands"),
                "poker-mode-hands",
            ),
        ],
        wrap=True,
        spacing=6,
        run_spacing=6,
    )
    rows: list[ft.Control] = [modes]
    act: Callable[..., Any] = FinalPoker if final else Poker
    split_rule = "M7.2" if final else "M4.4"
    split_text = (
        "Tied winners split it; odd chips go to the tied player nearest the dealer's left."
        if final
        else "Tied winners split it; an odd chip stays in the Poker pot for the next round."
    )
    if mode == "tap":
        winners: list[str] = ui.get("winners") or []

        def toggle(p: str) -> None:
            cur = list(ui.get("winners") or [])
            set_ui(winners=[q for q in cur if q != p] if p in cur else [*cur, p])

        rows.append(explain(split_text, split_rule))
        rows.append(
            ft.Row(
                [
                    choice(
                        p,
                        p in winners,
                        lambda _, p=p: toggle(p),
                        f"winner-{slug(p)}",
                        f"Winner {p}",
                    )
                    for p in contenders
                ],
                wrap=True,
                spacing=6,
                run_spacing=6,
            )
        )

        def record_winners(_: Any) -> None:
            # the winners as they are now, not as they were when this was drawn (P6)
            now = [seat_of(players, p) for p in ui.get("winners") or []]
            if now:
                record(act(winners=now))

        label = (
            f"{names_and(winners)} win{'s' if len(winners) == 1 else ''} {chips} chips"
            if winners
            else "Tap the winner(s) first"
        )
        rows.append(
            button(
                label,
                record_winners,
                "record-poker",
                filled=True,
                icon=ft.Icons.EMOJI_EVENTS,
                disabled=not winners,
            )
        )
    else:
        entered: dict[str, list[Card]] = ui.get("hands") or {}
        active: str = ui.get("hand_of") or (contenders[0] if contenders else "")
        held = game.held
        chips_row = []
        for p in contenders:
            cards = entered.get(p, [])
            chips_row.append(
                choice(
                    f"{p} ({len(cards)})",
                    p == active,
                    lambda _, p=p: set_ui(hand_of=p),
                    f"hand-of-{slug(p)}",
                    f"Enter {p}'s hand, {len(cards)} cards",
                )
            )
        rows.append(
            explain(
                "Enter 5 cards each (or the whole hand: the best five count)"
                if not final
                else "Enter the 5 cards each player was dealt.",
                "A-M16" if final else "M4.1",
            )
        )
        rows.append(ft.Row(chips_row, wrap=True, spacing=6, run_spacing=6))
        for p in contenders:
            cards = entered.get(p, [])
            if len(cards) >= 5:
                try:
                    ev = pk.evaluate(cards)
                except RulesetError as exc:
                    rows.append(ft.Text(f"{p}: {exc}", color=ft.Colors.ERROR))
                    continue
                words = f"{p}: {ev.name}"
                rows.append(
                    said(
                        ft.Column(
                            [
                                ft.Text(words, size=14, weight=ft.FontWeight.W_500),
                                mini_cards(" ".join(ev.best), width=28),
                            ],
                            spacing=2,
                            tight=True,
                        ),
                        f"{words} ({' '.join(ev.best)})",
                        f"eval-{slug(p)}",
                    )
                )
        if active:
            others = {c for q, cs in entered.items() if q != active for c in cs}

            def set_cards(cards: list[Card], who: str = active) -> None:
                cur = dict(ui.get("hands") or {})
                cur[who] = list(cards)
                set_ui(hands=cur)

            limit = 5 if final else held[seat_of(players, active)]
            rows.append(
                CardPicker(
                    entered.get(active, []),
                    set_cards,
                    ident=f"hand-{slug(active)}",
                    label=f"{active}'s hand",
                    unavailable=others,
                    max_cards=limit,
                )
            )
        ready = all(len(entered.get(p, [])) >= 5 for p in contenders) and contenders

        def judge(_: Any) -> None:
            cur: dict[str, list[Card]] = ui.get("hands") or {}
            shown: list[list[str] | None] = [
                [str(c) for c in cur.get(p, [])] if p in contenders else None for p in players
            ]
            record(act(hands=shown))

        rows.append(explain(split_text, split_rule))
        rows.append(
            button(
                "Let the referee judge",
                judge,
                "judge-poker",
                filled=True,
                icon=ft.Icons.GAVEL,
                disabled=not ready,
            )
        )
    out.append(section("Who won the poker?", rows, "poker-winner"))
    return out


# --------------------------------------------------------------------------- Rummoli phase


def _play_panel(
    ui: dict[str, Any],
    set_ui: Callable[..., None],
    set_mode: Callable[[str, str], None],
    session: GameSession,
    summary: dict[str, Any],
    players: list[str],
    rules: RummoliRules,
    game: RummoliGame,
    record: Callable[..., bool],
) -> list[ft.Control]:
    hand = (summary.get("hands") or [{}])[-1]
    in_game = summary.get("in_game") or []
    pots = summary.get("pots") or {}
    held = game.held
    out: list[ft.Control] = []
    intro = poker_result(hand.get("poker") or {}, "poker-result")
    won = hand.get("pots_won") or {}
    if won:
        intro.append(
            explain(
                "Won so far: " + ", ".join(f"{pot_label(p)} by {w}" for p, w in won.items()),
                "M5.6",
                "won-so-far",
            )
        )
    out.append(
        section(f"Round {hand.get('number', '')}: the Rummoli phase", intro, "rummoli-intro")
    )
    locked = hand.get("mode")
    mode = locked or ui["modes"].get("play", "quick")
    if not locked:
        out.append(
            ft.Row(
                [
                    choice(
                        "Quick: pots and who went out",
                        mode == "quick",
                        lambda _: set_mode("play", "quick"),
                        "rummoli-mode-quick",
                    ),
                    choice(
                        "Card by card",
                        mode == "live",
                        lambda _: set_mode("play", "live"),
                        "rummoli-mode-live",
                    ),
                ],
                wrap=True,
                spacing=6,
                run_spacing=6,
            )
        )
    if mode == "live":
        out += _live(ui, set_ui, session, players, in_game, held, game, record, hand)
    else:
        out += _quick(ui, set_ui, players, in_game, held, pots, rules, game, record)
    return out


def _held_steppers(
    ui: dict[str, Any],
    set_ui: Callable[..., None],
    players: list[str],
    in_game: list[str],
    held: list[int],
    skip: str | None,
) -> tuple[list[ft.Control], Callable[[], list[int]]]:
    """One stepper per player (cards still held, at most what the referee says they hold),
    and a function giving the counts per seat as they are when it is called."""
    seats = [i for i, p in enumerate(players) if p in in_game and p != skip]

    def values() -> list[int]:
        counts: dict[str, int] = ui.get("held") or {}
        out = [0] * len(players)
        for i in seats:
            out[i] = max(0, min(counts.get(players[i], 0), held[i]))
        return out

    rows: list[ft.Control] = []
    now = values()
    for i in seats:
        p = players[i]

        def step(delta: int, p: str = p, hi: int = held[i]) -> None:
            cur = dict(ui.get("held") or {})
            cur[p] = max(0, min(hi, cur.get(p, 0) + delta))
            set_ui(held=cur)

        rows.append(stepper(f"{p} holds", now[i], step, f"held-{slug(p)}", 0, held[i]))
    return rows, values


def _quick(
    ui: dict[str, Any],
    set_ui: Callable[..., None],
    players: list[str],
    in_game: list[str],
    held: list[int],
    pots: dict[str, int],
    rules: RummoliRules,
    game: RummoliGame,
    record: Callable[..., bool],
) -> list[ft.Control]:
    out: list[ft.Control] = []
    open_pots = game.open_pots()
    pot: str | None = ui.get("pot")
    combo = COMBO_POTS.get(pot or "")
    rows: list[ft.Control] = [
        explain("Tap a pot (here or on the board), then who laid its card.", "M5.6"),
        ft.Row(
            [
                choice(
                    f"{pot_label(p)} · {pots.get(p, 0)}",
                    p == pot,
                    lambda _, p=p: set_ui(pot=p, combo=None),
                    f"claim-{slug(p)}",
                    f"Won: {pot_words(p, pots.get(p, 0))}",
                )
                for p in open_pots
            ],
            wrap=True,
            spacing=6,
            run_spacing=6,
        ),
    ]
    if pot and pot in open_pots:
        if combo and ui.get("combo") is None:
            cards, rule = combo
            rows += [
                explain(
                    f"The {pot_label(pot)} pot pays only if one player laid the {cards} "
                    "themselves. Did one player lay all of it?",
                    rule,
                    "combo-question",
                ),
                ft.Row(
                    [
                        button(
                            "Yes, one player",
                            lambda _: set_ui(combo=True),
                            "combo-yes",
                            filled=True,
                        ),
                        button("No, different players", lambda _: set_ui(combo=False), "combo-no"),
                    ],
                    wrap=True,
                ),
            ]
        elif combo and ui.get("combo") is False:
            rows.append(
                explain(
                    f"Nobody wins the {pot_label(pot)} pot this round: its "
                    f"{plural(pots.get(pot, 0), 'chip')} stay on the board.",
                    combo[1],
                    "combo-no-payout",
                )
            )
        else:
            rows.append(ft.Text(f"Who laid {pot_label(pot)}?", size=15, weight=ft.FontWeight.W_500))
            rows.append(
                ft.Row(
                    [
                        choice(
                            p,
                            False,
                            lambda _, p=p: record(Claim(player=seat_of(players, p), pot=pot)),
                            f"claim-by-{slug(p)}",
                            f"{p} laid {pot_label(pot)}",
                        )
                        for p in in_game
                    ],
                    wrap=True,
                    spacing=6,
                    run_spacing=6,
                )
            )
    out.append(section("Pay cards laid", rows, "quick-claims"))

    # going out / impasse
    ending: str | None = ui.get("ending")
    erows: list[ft.Control] = [
        ft.Text("Who went out first?", size=15, weight=ft.FontWeight.W_500),
        ft.Row(
            [
                choice(
                    p,
                    ending == p,
                    lambda _, p=p: set_ui(ending=p),
                    f"out-{slug(p)}",
                    f"{p} went out",
                )
                for p in in_game
            ]
            + [
                choice(
                    "Impasse",
                    ending == "",
                    lambda _: set_ui(ending=""),
                    "impasse",
                    "Impasse: nobody can lay",
                )
            ],
            wrap=True,
            spacing=6,
            run_spacing=6,
        ),
    ]
    if ending is not None:
        steppers, values = _held_steppers(ui, set_ui, players, in_game, held, ending or None)
        if ending:
            erows.append(
                explain(
                    f"{ending} takes the Rummoli pot ({pots.get('rummoli', 0)}). How many cards "
                    f"does each other player still hold? Each pays {ending} 1 chip per card.",
                    "A-M11",
                )
            )
            erows += steppers
            owed = sum(values())
            erows.append(
                button(
                    f"{ending} went out: collects {owed} + the Rummoli pot",
                    lambda _: record(Out(player=seat_of(players, ending), held=values())),
                    "record-out",
                    filled=True,
                    icon=ft.Icons.DONE_ALL,
                )
            )
        else:
            erows.append(
                explain(
                    "Nobody can lay the colour needed. Every player pays 1 chip per card held "
                    "into the Rummoli pot, which carries over to the next round.",
                    "M5.7",
                )
            )
            erows += steppers
            erows.append(
                button(
                    f"Record the impasse: {sum(values())} chips to the centre",
                    lambda _: record(Impasse(held=values())),
                    "record-impasse",
                    filled=True,
                    icon=ft.Icons.BLOCK,
                )
            )
    out.append(section("End of the round", erows, "quick-end"))
    return out


def _live(
    ui: dict[str, Any],
    set_ui: Callable[..., None],
    session: GameSession,
    players: list[str],
    in_game: list[str],
    held: list[int],
    game: RummoliGame,
    record: Callable[..., bool],
    hand: dict[str, Any],
) -> list[ft.Control]:
    laid = hand.get("laid") or []
    rows: list[ft.Control] = []
    if laid:
        rows.append(
            said(
                ft.Row(
                    [
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
                    ],
                    wrap=True,
                    spacing=2,
                    run_spacing=6,
                ),
                "Laid: " + ", ".join(f"{c} by {w}" for w, c in laid),
                "laid-log",
            )
        )
    for who_won, pot in game.pending_claims:
        seat = seat_of(players, who_won)
        rows.append(
            explain(
                f"{who_won} may claim the {pot_label(pot)} pot now: an unclaimed pot stays on "
                "the board once the next card is laid.",
                "M5.6",
            )
        )
        rows.append(
            button(
                f"{who_won} claims {pot_label(pot)} ({game.pots.get(pot, 0)})",
                lambda _, seat=seat, pot=pot: record(Claim(player=seat, pot=pot)),
                f"pending-{slug(pot)}",
                filled=True,
                icon=ft.Icons.SAVINGS,
            )
        )
    nxt = game.next_card()
    expected = game.expected_layers()
    colour = game.break_colour()
    if not laid:
        hint = f"{expected[0] if expected else 'The poker winner'} starts with their lowest card."
        hint_rule = "M5.1"
    elif nxt:
        card = parse_cards(nxt)[0]
        hint = (
            f"Next: whoever holds {card.symbol} must lay it. If nobody does, "
            f"{expected[0] if expected else '—'} lays their lowest {colour} card."
        )
        hint_rule = "M5.2"
    else:
        hint = f"{expected[0] if expected else '—'} lays their lowest {colour} card."
        hint_rule = "M5.4" if laid and laid[-1][1].startswith("A") else "M5.3"
    rows.append(explain(hint, hint_rule, "live-hint"))

    who: str | None = ui.get("lay_by")
    chosen: list[Card] = ui.get("lay_card") or []
    rows.append(ft.Text("Who laid the card?", size=15, weight=ft.FontWeight.W_500))
    rows.append(
        ft.Row(
            [
                choice(
                    f"{p} ({held[i]})",
                    p == who,
                    lambda _, p=p: set_ui(lay_by=p),
                    f"lay-by-{slug(p)}",
                    f"{p} lays, holds {held[i]}",
                )
                for i, p in enumerate(players)
                if p in in_game and held[i] > 0
            ],
            wrap=True,
            spacing=6,
            run_spacing=6,
        )
    )
    laid_cards = {c for _, text in laid for c in parse_cards(text)}
    rows.append(
        CardPicker(
            chosen,
            lambda cards: set_ui(lay_card=list(cards[-1:])),
            ident="lay",
            label="Card laid",
            unavailable=laid_cards,
        )
    )
    action = Lay(player=seat_of(players, who), card=str(chosen[0])) if who and chosen else None

    def record_lay(_: Any) -> None:
        # who and the card as they are now, not as they were when this was drawn (P6)
        by, cards = ui.get("lay_by"), ui.get("lay_card") or []
        if by and cards:
            record(Lay(player=seat_of(players, by), card=str(cards[0])))

    if action is not None:
        refusal = session.check(action.model_dump(mode="json"))
        if refusal is None:
            verdict = f"{who} may lay {chosen[0].symbol}."
            rows.append(
                ft.Row(
                    [
                        ft.Icon(ft.Icons.CHECK_CIRCLE, color=ft.Colors.PRIMARY),
                        said(ft.Text(verdict), verdict, "lay-verdict", expand=True),
                    ]
                )
            )
        else:
            rows.append(
                ft.Row(
                    [
                        ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR),
                        said(
                            ft.Text(refusal.message, color=ft.Colors.ERROR),
                            refusal.message,
                            "lay-verdict",
                            expand=True,
                        ),
                        *([rule_link(refusal.rule)] if refusal.rule else []),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                )
            )
    rows.append(
        button(
            f"Lay {chosen[0].symbol} for {who}" if action else "Pick who and the card",
            record_lay,
            "record-lay",
            filled=True,
            icon=ft.Icons.PLAY_ARROW,
            disabled=action is None,
        )
    )
    out: list[ft.Control] = [section("Card by card", rows, "live-log")]
    counts = ", ".join(f"{p} {held[i]}" for i, p in enumerate(players) if p in in_game)
    out.append(
        section(
            "Impasse",
            [
                explain(
                    f"Nobody can lay {colour or 'the colour needed'}: every player pays 1 chip "
                    f"per card held into the Rummoli pot ({counts}).",
                    "M5.7",
                ),
                button(
                    "Record the impasse",
                    lambda _: record(Impasse()),
                    "impasse-live",
                    icon=ft.Icons.BLOCK,
                ),
            ],
            "live-impasse",
        )
    )
    return out


# --------------------------------------------------------------------------- over


def _over_panel(
    summary: dict[str, Any], players: list[str], hands: list[dict[str, Any]]
) -> list[ft.Control]:
    totals: dict[str, int] = summary.get("totals") or {}
    winners = summary.get("winners") or []
    ranked = sorted(players, key=lambda p: (-totals.get(p, 0), players.index(p)))
    rows: list[ft.Control] = []
    for place, p in enumerate(ranked, start=1):
        won = p in winners
        words = f"{place}. {p}: {totals.get(p, 0)} chips" + (" (winner)" if won else "")
        rows.append(
            said(
                ft.Row(
                    [
                        ft.Icon(
                            ft.Icons.EMOJI_EVENTS if won else ft.Icons.PERSON,
                            color=ft.Colors.AMBER if won else None,
                        ),
                        ft.Text(
                            words,
                            size=18,
                            weight=ft.FontWeight.BOLD if won else ft.FontWeight.NORMAL,
                        ),
                    ]
                ),
                words,
                f"standing-{slug(p)}",
            )
        )
    rows.append(explain("The player with the most chips wins.", "M7.3"))
    out: list[ft.Control] = [section("Standings", rows, "standings")]
    final_rows: list[ft.Control] = []
    for info in summary.get("final") or []:
        final_rows += poker_result(info, f"final-{slug(str(info.get('pot')))}")
    fs = summary.get("final_statement") or {}
    for p in players:
        if p in fs:
            final_rows.append(statement_card(p, fs[p], f"final-statement-{slug(p)}"))
    if final_rows:
        out.append(section("Final poker", final_rows, "final-poker"))
    if hands:
        out.append(_history(hands, players))
    return out


__all__ = ["RummoliTable", "parse_statement", "bets_and_folds", "next_final_pot"]
