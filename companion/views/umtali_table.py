"""The Umtali table: both sides as melds, live verdicts, going out, leftovers, 4 hands.

A thin view over the referee (``rulesets.umtali``): the summary dict gives the
sides, running points, whose turn it is, the dealer and the hand scores; every
verdict is ``UmtaliGame.judge`` on the action the table is about to record, and
every entry goes through ``GameSession.add`` (refused with a rule ID, or saved).

Flow of a hand (RULES.md U3-U9): the acting player (the referee's turn unless
someone taps the other name) melds, extends an anchor on either side, discards,
or goes out (optional pair, optional face-down discard).  Then the opponent's
final turn: melds, extensions (the pair is open), a pair only if it takes them
out, then their leftovers go to the going-out side.  A hand may also end on an
empty stock (U4.6).  Finished hands can be corrected ("Edit").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import flet as ft

from companion.components.picker import CardPicker
from companion.components.umtali_parts import (
    hand_detail,
    hands_sheet,
    rule_link,
    side_panel,
    verdict_line,
)
from companion.session import GameSession
from companion.ui import icon_button, labelled, slug
from rulesets import RulesetError
from rulesets.cards import Card, format_cards, parse_cards
from rulesets.protocol import Verdict
from rulesets.umtali import Suggestion, UmtaliGame

T = TypeVar("T")

#: CardPicker with a ``key`` (Flet components take one): each picker keeps its own typed text.
Picker: Any = CardPicker

MODES_PLAY = (
    ("meld", "Meld"),
    ("extend", "Extend"),
    ("discard", "Discard"),
    ("go_out", "Go out"),
    ("hand", "My hand"),
)
MODES_FINAL = (
    ("meld", "Meld"),
    ("extend", "Extend"),
    ("go_out", "Go out"),
    ("leftovers", "Leftovers"),
    ("hand", "My hand"),
)
#: where a mode's entry splits: the picker above/left, the verdict and button below/right.
SPLIT = ft.Container()


def _use_live(initial: T) -> tuple[T, Callable[[T], None], Any]:
    """State whose latest value is also in a ref: handlers read the ref (pitfall P6)."""
    ref = ft.use_ref(initial)
    value, set_value = ft.use_state(initial)

    def setter(v: T) -> None:
        if ref.current == v:
            return  # unchanged: no re-render (each one re-diffs the whole table)
        ref.current = v
        set_value(v)

    return value, setter, ref


def _none(_: type[T]) -> T | None:
    """A typed None, so ``_use_live`` knows the state's type."""
    return None


def _game(session: GameSession) -> UmtaliGame | None:
    try:
        return UmtaliGame.from_record(session.record())
    except RulesetError:
        return None


def _hand_label(n: int) -> str:
    """ "Hand 2 of 4", or the tie-break hand of house rule fifth_hand_on_tie (U2.4)."""
    return f"Hand {n} of 4" if n <= 4 else f"Hand {n} (tie-break, U2.4)"


def _hand_spans(actions: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(first, last) action index of every hand in the record."""
    starts = [i for i, a in enumerate(actions) if a.get("type") == "start_hand"]
    ends = [*starts[1:], len(actions)]
    return [(s, e - 1) for s, e in zip(starts, ends, strict=True)]


def _action_text(a: dict[str, Any]) -> str:
    t = a.get("type")
    who = a.get("player", "")
    if t == "start_hand":
        return f"{a.get('dealer') or 'expected dealer'} deals"
    if t == "meld":
        return f"{who} melds {format_cards(parse_cards(a['cards']), symbols=True)}"
    if t == "extend":
        side, idx = a["anchor"]
        card = format_cards(parse_cards(a["card"]), symbols=True)
        return f"{who} plays {card} on {side} #{int(idx) + 1}"
    if t == "discard":
        return f"{who} discards {format_cards(parse_cards(a['card']), symbols=True)}"
    if t == "draw":
        return f"{who} draws"
    if t == "take_discards":
        return f"{who} takes {format_cards(parse_cards(a['cards']), symbols=True)}"
    if t == "go_out":
        text = f"{who} goes out"
        if a.get("pair"):
            text += f" with pair {format_cards(parse_cards(a['pair']), symbols=True)}"
        if a.get("discard"):
            down = " face down" if a.get("face_down") else ""
            text += f", discards {format_cards(parse_cards(a['discard']), symbols=True)}{down}"
        return text
    if t == "leftovers":
        cards = parse_cards(a.get("cards", []))
        return f"{who}'s leftovers: {format_cards(cards, symbols=True) or 'none'}"
    if t == "end_hand_empty_stock":
        return "Stock empty: hand ends"
    return str(t)


def _choice_button(text: str, selected: bool, on_click: Any, ident: str) -> ft.Control:
    btn: ft.Control
    if selected:
        btn = ft.FilledButton(text, on_click=on_click, height=40)
    else:
        btn = ft.OutlinedButton(text, on_click=on_click, height=40)
    return ft.Semantics(content=btn, identifier=ident, selected=selected)


@ft.component
def UmtaliTable(session: GameSession) -> ft.Control:
    summary = session.summary
    players: list[str] = list(summary.get("players") or session.stored.players)
    game = ft.use_memo(lambda: _game(session), [session.game_id, session.revision])

    mode, set_mode, mode_ref = _use_live("meld")
    acting_pick, set_acting_pick, acting_ref = _use_live(_none(str))  # None: follow the referee
    cards, set_cards, cards_ref = _use_live(list[Card]())
    anchor, set_anchor, anchor_ref = _use_live(_none(tuple[str, int]))
    pair, set_pair, pair_ref = _use_live(list[Card]())
    out_discard, set_out_discard, out_discard_ref = _use_live(list[Card]())
    face_down, set_face_down, face_down_ref = _use_live(False)
    out_part, set_out_part, _ = _use_live("pair")
    hand, set_hand, hand_ref = _use_live(list[Card]())
    owner, set_owner, owner_ref = _use_live(_none(str))  # whose private hand it is
    editing, set_editing, editing_ref = _use_live(_none(int))
    fix, set_fix, fix_ref = _use_live(list[Card]())
    confirm, set_confirm, _ = _use_live("")

    current: dict[str, Any] | None = summary.get("current")
    phase = str(summary.get("phase", "idle"))
    in_hand = current is not None and game is not None
    turn = current.get("turn") if current else None
    acting: str = acting_pick if acting_pick in players and acting_pick else str(turn or players[0])
    went_out = current.get("went_out") if current else None
    sides: dict[str, list[dict[str, Any]]] = current.get("sides", {}) if current else {}
    scores: dict[str, int] = current.get("scores", {}) if current else {}
    table_cards = game.table_cards if game is not None and in_hand else frozenset()
    private = list(hand) if owner == acting else []

    def who() -> str:
        pick = acting_ref.current
        if pick in players:
            return str(pick)
        return str(turn or players[0])

    def reset_entry() -> None:
        set_cards([])
        set_anchor(None)
        set_pair([])
        set_out_discard([])
        set_face_down(False)
        set_out_part("pair")
        set_confirm("")

    def enter_hand(new: list[Card]) -> None:
        set_owner(who())
        set_hand(new)

    def judge(action: dict[str, Any] | None) -> Verdict | None:
        if action is None or game is None:
            return None
        return game.judge(action, hand=private or None)

    def record(actions: list[dict[str, Any]]) -> bool:
        refusal = session.add(actions[0]) if len(actions) == 1 else session.add_many(actions)
        if refusal is not None:
            return False
        used: set[str] = set()
        for a in actions:
            used.update(a.get("cards", ()))
            used.update(a.get("pair", ()))
            for key in ("card", "discard"):
                if a.get(key):
                    used.add(str(a[key]))
        if hand_ref.current and owner_ref.current == who():
            set_hand([c for c in hand_ref.current if str(c) not in used])
        set_acting_pick(None)
        reset_entry()
        return True

    # ------------------------------------------------------------ the actions
    def meld_action() -> dict[str, Any] | None:
        sel = cards_ref.current
        if not sel:
            return None
        return {"type": "meld", "player": who(), "cards": [str(c) for c in sel]}

    def extend_action() -> dict[str, Any] | None:
        sel, anc = cards_ref.current, anchor_ref.current
        if not sel or anc is None:
            return None
        return {"type": "extend", "player": who(), "card": str(sel[0]), "anchor": list(anc)}

    def discard_action() -> dict[str, Any] | None:
        sel = cards_ref.current
        if not sel:
            return None
        return {"type": "discard", "player": who(), "card": str(sel[0])}

    def go_out_action() -> dict[str, Any]:
        disc = out_discard_ref.current
        return {
            "type": "go_out",
            "player": who(),
            "pair": [str(c) for c in pair_ref.current],
            "discard": str(disc[0]) if disc else None,
            "face_down": bool(face_down_ref.current and disc),
        }

    def leftovers_actions() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        disc = out_discard_ref.current
        if disc:
            out.append({"type": "discard", "player": who(), "card": str(disc[0])})
        out.append(
            {"type": "leftovers", "player": who(), "cards": [str(c) for c in cards_ref.current]}
        )
        return out

    # ------------------------------------------------------------ handlers
    def pick_mode(m: str) -> None:
        set_mode(m)
        reset_entry()

    def pick_acting(name: str) -> None:
        set_acting_pick(name)
        reset_entry()

    def on_anchor(a: tuple[str, int]) -> None:
        set_anchor(a)  # idempotent: a tap may arrive both as a semantic and a pointer tap

    def add_current(_: Any) -> None:
        m = mode_ref.current
        if m == "meld":
            act = meld_action()
            if act:
                record([act])
        elif m == "extend":
            act = extend_action()
            if act:
                record([act])
        elif m == "discard":
            act = discard_action()
            if act:
                record([act])
        elif m == "go_out":
            record([go_out_action()])
        elif m == "leftovers":
            record(leftovers_actions())

    def start_next(_: Any) -> None:
        # dealer None = "whoever the rules say" (U2.3): an edited earlier hand that
        # changes the winner (winner_deals) then moves this deal with it on replay
        session.add({"type": "start_hand", "dealer": None})
        set_editing(None)
        set_mode("meld")
        set_hand([])
        reset_entry()

    def end_empty_stock(_: Any) -> None:
        if confirm != "stock":
            set_confirm("stock")
            return
        record([{"type": "end_hand_empty_stock"}])

    def play_best(line: tuple[Any, ...]) -> None:
        record([a.to_json() for a in line])

    def on_edit(n: int) -> None:
        if editing_ref.current == n:
            set_editing(None)
            return
        set_editing(n)
        set_confirm("")
        spans = _hand_spans(session.actions)
        first, last = spans[n - 1] if 0 < n <= len(spans) else (0, -1)
        left = [a for a in session.actions[first : last + 1] if a.get("type") == "leftovers"]
        set_fix(list(parse_cards(left[-1].get("cards", []))) if left else [])

    # ------------------------------------------------------------ panels
    def acting_row() -> ft.Control:
        return ft.Row(
            [
                ft.Text("Acting:", weight=ft.FontWeight.W_500),
                *[
                    _choice_button(
                        p, p == acting, lambda _, p=p: pick_acting(p), f"acting-{slug(p)}"
                    )
                    for p in players
                ],
            ],
            wrap=True,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )

    def modes_row() -> ft.Control:
        modes = MODES_FINAL if phase == "final" else MODES_PLAY
        return ft.Row(
            [
                _choice_button(text, m == mode, lambda _, m=m: pick_mode(m), f"mode-{m}")
                for m, text in modes
            ],
            wrap=True,
            spacing=6,
            run_spacing=6,
        )

    def add_button(text: str, verdict: Verdict | None, ident: str) -> ft.Control:
        ok = verdict is not None and verdict.legal
        return ft.Semantics(
            content=ft.FilledButton(
                text, icon=ft.Icons.ADD_TASK, on_click=add_current, disabled=not ok, height=48
            ),
            identifier=ident,
        )

    def part_toggle(parts: tuple[tuple[str, str], ...]) -> ft.Control:
        return ft.Row(
            [
                _choice_button(
                    text, out_part == key, lambda _, k=key: set_out_part(k), f"part-{key}"
                )
                for key, text in parts
            ],
            wrap=True,
        )

    def hand_note() -> list[ft.Control]:
        if not private:
            return []
        text = f"Checked against {acting}'s private hand ({len(private)} cards, U7)."
        return [ft.Text(text, size=12, italic=True)]

    def meld_body() -> list[ft.Control]:
        v = judge(meld_action())
        return [
            ft.Text("Pick the cards of a set, sequence, marriage, or a jack alone."),
            Picker(
                cards,
                set_cards,
                ident="meld",
                key="picker-meld",
                label="Meld cards",
                unavailable=table_cards,
                max_cards=10,
            ),
            SPLIT,
            *hand_note(),
            verdict_line(v, empty="Pick cards for a verdict."),
            add_button(f"Add to {acting}'s side", v, "add-meld"),
        ]

    def extend_body() -> list[ft.Control]:
        v = judge(extend_action())
        if anchor is None:
            where = "Tap an anchor on either side above, then pick the card."
        else:
            side, idx = anchor
            where = f"Anchor: {side}'s meld #{int(idx) + 1}. Now pick the card."
        return [
            labelled(ft.Text(where, weight=ft.FontWeight.W_500), where, "anchor-hint"),
            Picker(
                cards,
                set_cards,
                ident="extend",
                key="picker-extend",
                label="Extension card",
                unavailable=table_cards,
                max_cards=1,
            ),
            SPLIT,
            *hand_note(),
            verdict_line(v, empty="Pick an anchor and a card for a verdict."),
            add_button(f"Add single to {acting}'s side", v, "add-extend"),
        ]

    def discard_body() -> list[ft.Control]:
        v = judge(discard_action())
        return [
            ft.Text(f"The card {acting} discards face up to end the turn (optional record)."),
            Picker(
                cards,
                set_cards,
                ident="discard",
                key="picker-discard",
                label="Discard",
                unavailable=table_cards,
                max_cards=1,
            ),
            SPLIT,
            verdict_line(v),
            add_button(f"{acting} discards", v, "add-discard"),
        ]

    def go_out_body() -> list[ft.Control]:
        v = judge(go_out_action())
        pair_text = format_cards(pair, symbols=True) or "none"
        disc_text = format_cards(out_discard, symbols=True) or "none"
        if out_discard and face_down:
            disc_text += " (face down)"
        if phase == "final":
            intro = f"{acting} also goes out: a pair is allowed only if it empties the hand."
        else:
            intro = f"{acting} goes out: optional pair, optional discard (may be face down)."
        picker = (
            Picker(
                pair,
                set_pair,
                ident="pair",
                key="picker-pair",
                label="Pair",
                unavailable=table_cards,
                max_cards=2,
            )
            if out_part == "pair"
            else Picker(
                out_discard,
                set_out_discard,
                ident="out-discard",
                key="picker-out-discard",
                label="Going-out discard",
                unavailable=table_cards,
                max_cards=1,
            )
        )
        return [
            ft.Text(intro),
            # the part being picked is summed up by its picker; show the other one here
            labelled(ft.Text(f"Pair: {pair_text}"), f"Pair: {pair_text}", "out-pair-summary")
            if out_part != "pair"
            else ft.Container(),
            labelled(
                ft.Text(f"Discard: {disc_text}"), f"Discard: {disc_text}", "out-discard-summary"
            ),
            ft.Semantics(
                content=ft.Switch(
                    label="Discard face down",
                    value=bool(face_down),
                    on_change=lambda e: set_face_down(bool(e.control.value)),
                ),
                identifier="face-down",
            ),
            part_toggle((("pair", "Pick pair"), ("discard", "Pick discard"))),
            picker,
            SPLIT,
            *hand_note(),
            verdict_line(v),
            add_button(f"{acting} goes out", v, "add-go-out"),
        ]

    def leftovers_body() -> list[ft.Control]:
        acts = leftovers_actions()
        v: Verdict | None = None
        if game is not None:
            v = judge(acts[0])
            if len(acts) > 1 and v is not None and v.legal:
                probe = UmtaliGame(game.players, game.rules, game.actions)
                probe.push(acts[0])
                v = probe.judge(acts[1])
        n = len(cards)
        intro = (
            f"The cards left in {acting}'s hand move to {went_out}'s side as singles (U8.4). "
            "Record a final discard first if there was one."
        )
        picker = (
            Picker(
                cards,
                set_cards,
                ident="leftovers",
                key="picker-leftovers",
                label="Leftover cards",
                unavailable=table_cards,
                max_cards=11,
            )
            if out_part != "discard"
            else Picker(
                out_discard,
                set_out_discard,
                ident="final-discard",
                key="picker-final-discard",
                label="Final discard",
                unavailable=table_cards,
                max_cards=1,
            )
        )
        disc_text = format_cards(out_discard, symbols=True) or "none"
        return [
            ft.Text(intro),
            labelled(
                ft.Text(f"Final discard: {disc_text}"),
                f"Final discard: {disc_text}",
                "final-discard-summary",
            ),
            part_toggle((("pair", "Pick leftovers"), ("discard", "Pick final discard"))),
            picker,
            SPLIT,
            verdict_line(v),
            add_button(
                f"Move {n} card{'s' if n != 1 else ''} to {went_out}'s side"
                if n
                else "No leftovers: end the hand",
                v,
                "add-leftovers",
            ),
        ]

    def hand_body() -> list[ft.Control]:
        out: list[ft.Control] = [
            ft.Text(
                f"{acting}: enter your hand privately. It is not saved. Verdicts then also "
                "check the no-breaking rule against it, and you get the best melding."
            ),
            Picker(
                private,
                enter_hand,
                ident="hand",
                key="picker-hand",
                label="My hand",
                unavailable=table_cards,
                max_cards=11,
            ),
        ]
        if not private or game is None:
            return out
        try:
            sug: Suggestion = game.suggest(acting, private)
        except RulesetError as exc:
            return [
                *out,
                SPLIT,
                verdict_line(Verdict(legal=False, rule=exc.rule or "U", reason=exc.reason)),
            ]
        lines: list[ft.Control] = []
        if sug.best:
            lines.append(
                ft.Text(
                    f"Best melding this turn: {sug.best_points} points",
                    weight=ft.FontWeight.BOLD,
                )
            )
            lines += [ft.Text(f"• {_action_text(a.to_json())}") for a in sug.best]
            if sug.kept:
                lines.append(ft.Text(f"Kept: {format_cards(sug.kept, symbols=True)}"))
            lines.append(
                ft.FilledTonalButton(
                    "Record this line",
                    icon=ft.Icons.PLAYLIST_ADD_CHECK,
                    on_click=lambda _, b=sug.best: play_best(b),
                )
            )
        else:
            lines.append(ft.Text("Nothing in this hand can go down now."))
        if sug.can_go_out and sug.go_out and sug.go_out != sug.best:
            lines.append(ft.Text(f"Going out is possible ({sug.go_out_points} points):"))
            lines += [ft.Text(f"• {_action_text(a.to_json())}") for a in sug.go_out]
        elif not sug.can_go_out:
            lines.append(ft.Text("This hand cannot go out this turn."))
        if sug.plays:
            lines.append(ft.Text("Legal plays now (no-breaking rule applied):"))
            lines += [
                ft.Text(f"• {_action_text(p.action.to_json())}: {p.points}", size=13)
                for p in sug.plays[:12]
            ]
        lines += [ft.Text(n, size=12, italic=True) for n in sug.notes]
        lines.append(
            ft.Row(
                [
                    rule_link("U7.2"),
                    ft.TextButton(
                        "Hide my hand",
                        icon=ft.Icons.VISIBILITY_OFF,
                        on_click=lambda _: set_hand([]),
                    ),
                ],
                wrap=True,
            )
        )
        return [
            *out,
            SPLIT,
            ft.Semantics(
                content=ft.Container(
                    content=ft.Column(lines, spacing=4),
                    padding=8,
                    border_radius=8,
                    bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
                ),
                identifier="suggestion",
                container=True,
            ),
        ]

    def entry_panel() -> ft.Control:
        m = mode if (mode != "leftovers" or phase == "final") else "meld"
        if m == "discard" and phase == "final":
            m = "meld"
        bodies = {
            "meld": meld_body,
            "extend": extend_body,
            "discard": discard_body,
            "go_out": go_out_body,
            "leftovers": leftovers_body,
        }
        body = bodies.get(m, hand_body)()
        cut = next((i for i, c in enumerate(body) if c is SPLIT), len(body))
        left, right = body[:cut], body[cut + 1 :]
        if phase == "play":
            right.append(
                ft.Row(
                    [
                        ft.Semantics(
                            content=ft.OutlinedButton(
                                "Tap again: end the hand, stock empty"
                                if confirm == "stock"
                                else "Stock ran out: end hand",
                                icon=ft.Icons.LAYERS_CLEAR,
                                on_click=end_empty_stock,
                            ),
                            identifier="empty-stock",
                        ),
                        rule_link("U4.6"),
                    ],
                    wrap=True,
                )
            )
        # phone: one column; desktop: the picker left, verdict and buttons right
        return ft.Column(
            [
                ft.Divider(height=4),
                acting_row(),
                modes_row(),
                ft.ResponsiveRow(
                    [
                        ft.Column(left, spacing=8, col={"xs": 12, "md": 7}),
                        ft.Column(right, spacing=8, col={"xs": 12, "md": 5}),
                    ],
                    spacing=12,
                    run_spacing=8,
                ),
            ],
            spacing=8,
        )

    def edit_panel(n: int) -> ft.Control:
        actions = list(session.actions)
        spans = _hand_spans(actions)
        if not 0 < n <= len(spans):
            return ft.Container()
        first, last = spans[n - 1]
        hands = summary.get("hands", [])
        rows: list[ft.Control] = [
            ft.Text(f"Edit hand {n}", size=16, weight=ft.FontWeight.BOLD),
            ft.Text("Correct an entry; every later hand is replayed and rescored.", size=13),
        ]
        for i in range(first + 1, last + 1):
            text = _action_text(actions[i])
            rows.append(
                ft.Row(
                    [
                        ft.Text(text, expand=True),
                        icon_button(
                            ft.Icons.DELETE_OUTLINE,
                            f"Remove: {text}",
                            lambda _, i=i: session.replace(actions[:i] + actions[i + 1 :]),
                            f"remove-action-{i}",
                        ),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                )
            )
        left_idx = [i for i in range(first, last + 1) if actions[i].get("type") == "leftovers"]
        if left_idx and n <= len(hands):
            li = left_idx[-1]
            on_table = {
                c
                for melds in hands[n - 1].get("sides", {}).values()
                for m in melds
                if m.get("kind") != "leftover"
                for c in parse_cards(m.get("cards", []))
            }
            fixed = dict(actions[li], cards=[str(c) for c in fix])

            def save(_: Any, li: int = li, fixed: dict[str, Any] = fixed) -> None:
                if session.replace(actions[:li] + [fixed] + actions[li + 1 :]) is None:
                    set_editing(None)

            rows += [
                ft.Text(
                    f"Correct {actions[li].get('player')}'s leftovers", weight=ft.FontWeight.W_500
                ),
                Picker(
                    fix,
                    set_fix,
                    ident="fix-leftovers",
                    key="picker-fix-leftovers",
                    label="Leftover cards",
                    unavailable=on_table,
                    max_cards=11,
                ),
                ft.Semantics(
                    content=ft.FilledButton("Save leftovers", icon=ft.Icons.SAVE, on_click=save),
                    identifier="save-leftovers",
                ),
            ]

        def reopen(_: Any) -> None:
            if confirm != f"reopen-{n}":
                set_confirm(f"reopen-{n}")
                return
            if session.replace(actions[:last]) is None:
                set_editing(None)
                set_confirm("")

        later = len(actions) - last - 1
        rows.append(
            ft.Semantics(
                content=ft.OutlinedButton(
                    f"Tap again: reopen hand {n}, dropping {later} later entries"
                    if confirm == f"reopen-{n}"
                    else f"Reopen hand {n} at its last entry",
                    icon=ft.Icons.HISTORY,
                    on_click=reopen,
                ),
                identifier=f"reopen-hand-{n}",
            )
        )
        return ft.Container(
            content=ft.Column(rows, spacing=6),
            padding=ft.Padding.symmetric(horizontal=2, vertical=8),
            border=ft.Border.only(top=ft.BorderSide(2, ft.Colors.PRIMARY)),
        )

    # ------------------------------------------------------------ layout
    body: list[ft.Control] = []
    hand_no = int(current["number"]) if current else len(summary.get("hands", [])) + 1
    dealer = summary.get("dealer")
    if current and in_hand:
        status = f"{_hand_label(hand_no)} · {dealer} dealt"
        if phase == "final":
            status += f" · {went_out} went out: {turn}'s final turn"
        elif turn:
            status += f" · {turn} to play"
        body.append(
            labelled(ft.Text(status, size=16, weight=ft.FontWeight.W_500), status, "umtali-status")
        )
        anchors_on = mode == "extend"
        panels: list[ft.Control] = []
        for p in players:
            badges = []
            if p == dealer:
                badges.append("Dealer")
            if p == turn:
                badges.append("Final turn" if phase == "final" else "To play")
            if p == went_out:
                badges.append("Went out")
            panels.append(
                ft.Container(
                    content=side_panel(
                        p,
                        sides.get(p, []),
                        int(scores.get(p, 0)),
                        badges=badges,
                        pickable=anchors_on,
                        anchor=anchor if anchors_on else None,
                        on_pick=on_anchor,
                    ),
                    col={"xs": 12, "md": 6},
                )
            )
        body.append(ft.ResponsiveRow(panels, spacing=8, run_spacing=8))
        body.append(entry_panel())
    elif summary.get("finished"):
        body.append(_game_over(summary))
    elif game is not None:
        hands = summary.get("hands", [])
        if hands:
            body.append(hand_detail(hands[-1], players))
        how = "the winner deals" if game.rules.winner_deals else "the deal alternates"
        nxt = f"{_hand_label(hand_no)}: {dealer} deals ({how})."
        body.append(
            ft.Column(
                [
                    labelled(ft.Text(nxt, size=16), nxt, "next-hand"),
                    ft.Row(
                        [
                            ft.Semantics(
                                content=ft.FilledButton(
                                    f"Start hand {hand_no}",
                                    icon=ft.Icons.PLAY_ARROW,
                                    on_click=start_next,
                                    height=48,
                                ),
                                identifier="next-hand-start",
                            ),
                            rule_link("U2.3"),
                        ],
                        wrap=True,
                    ),
                ]
            )
        )
    body.append(ft.Text("Score sheet", size=16, weight=ft.FontWeight.BOLD))
    body.append(hands_sheet(summary, on_edit=on_edit, editing=editing))
    if editing is not None:
        body.append(edit_panel(int(editing)))
    return ft.Column(body, spacing=10)


def _game_over(summary: dict[str, Any]) -> ft.Control:
    totals: dict[str, int] = summary.get("totals", {})
    winners: list[str] = list(summary.get("winners", []))
    players: list[str] = list(summary.get("players", []))
    if len(winners) == 1:
        w = winners[0]
        other = next((p for p in players if p != w), "")
        text = f"{w} wins, {totals.get(w, 0)} to {totals.get(other, 0)}."
        rule = "U2.1"
    else:
        text = f"A draw: {' and '.join(winners)} on {totals.get(winners[0], 0) if winners else 0}."
        rule = "A-U16"
    parts: list[ft.Control] = [
        labelled(
            ft.Text(text, size=22, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
            text,
            "game-result",
        ),
        rule_link(rule),
    ]
    hands = summary.get("hands", [])
    if hands:
        parts.append(hand_detail(hands[-1], players))
    return ft.Column(parts, spacing=8)
