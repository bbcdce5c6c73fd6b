"""The Rummoli board and the players' stacks, drawn from the referee's summary.

The nine pots sit as on a real board: the centre Rummoli pot in the middle and
the eight pay pots round it, clockwise from the Poker pot at the top left.
Every pot and every stack is a labelled control (screen readers and the
browser tests read "Poker pot: 7 chips").  Nothing here computes chips or
names a pot: counts and labels are the referee's (``summary.detail.pots``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import flet as ft

from companion.components.kit.ui import RED_SUIT, TABLE_GREEN, one_line
from rulesets.cards import Card, Color, parse_cards
from rulesets.rummoli import PotView

#: Suits on the board and the small cards are drawn with the Cupertino suit icons:
#: crisp at any size and independent of the fonts the web client has loaded.
SUIT_ICONS: dict[str, ft.IconData] = {
    "♠": ft.CupertinoIcons.SUIT_SPADE_FILL,
    "♥": ft.CupertinoIcons.SUIT_HEART_FILL,
    "♦": ft.CupertinoIcons.SUIT_DIAMOND_FILL,
    "♣": ft.CupertinoIcons.SUIT_CLUB_FILL,
}


def suit_text(
    text: str, *, size: float = 15, color: str | None = None, bold: bool = True
) -> ft.Control:
    """Short text such as ``A♦+K♦`` with the suits drawn as icons."""
    parts: list[ft.Control] = []
    run = ""
    weight = ft.FontWeight.BOLD if bold else None
    for ch in text:
        if ch in SUIT_ICONS:
            if run:
                parts.append(ft.Text(run, size=size, weight=weight, color=color))
                run = ""
            parts.append(ft.Icon(SUIT_ICONS[ch], size=size, color=color))
        else:
            run += ch
    if run:
        parts.append(ft.Text(run, size=size, weight=weight, color=color))
    return ft.Row(
        parts,
        spacing=0,
        tight=True,
        alignment=ft.MainAxisAlignment.CENTER,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def mini_card(card: Card, width: int = 30) -> ft.Control:
    """A small face-up card: rank over suit icon, red or black, named for screen readers."""
    color = RED_SUIT if card.s.color is Color.RED else "#212121"
    face = ft.Container(
        width=width,
        height=int(width * 1.35),
        bgcolor="#FFFFFF",
        border=ft.Border.all(1, "#9E9E9E"),
        border_radius=5,
        alignment=ft.Alignment.CENTER,
        content=ft.Column(
            [
                ft.Text(card.r.value, size=width * 0.42, weight=ft.FontWeight.BOLD, color=color),
                ft.Icon(SUIT_ICONS[card.s.symbol], size=width * 0.42, color=color),
            ],
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            alignment=ft.MainAxisAlignment.CENTER,
        ),
    )
    return ft.Semantics(content=face, label=card.words, image=True, exclude_semantics=True)


def mini_cards(cards: str | Sequence[Card], width: int = 30) -> ft.Control:
    seq = parse_cards(cards) if isinstance(cards, str) else list(cards)
    return ft.Row([mini_card(c, width) for c in seq], wrap=True, spacing=3, run_spacing=3)


#: board cells, row by row; ``None`` is the run pot (7-8-9 or 8-9-10).
BOARD_LAYOUT: tuple[tuple[str | None, ...], ...] = (
    ("poker", "10S", "JD"),
    (None, "rummoli", "QC"),
    ("AD+KD", "AS", "KH"),
)
RED_POTS = {"JD", "KH", "AD+KD"}
FELT = TABLE_GREEN
TILE_BG = "#2E7D32"
CENTRE_BG = "#F9A825"


def pot_words(label: str, chips: int) -> str:
    """The spoken name of a pot and its chips (``10♠ pot: 4 chips``)."""
    return f"{label} pot: {chips} chip{'' if chips == 1 else 's'}"


def board_cells(pots: Sequence[PotView]) -> list[list[PotView]]:
    """The pots in board layout, the run pot of this board filled in."""
    by_name = {p.pot: p for p in pots}
    run = next(p for p in pots if p.pot not in {c for row in BOARD_LAYOUT for c in row})
    return [[run if cell is None else by_name[cell] for cell in row] for row in BOARD_LAYOUT]


#: a pot tile's height: thumb-sized, three rows of the board in about 150 px
TILE_HEIGHT = 46


@functools.cache
def _border(width: int, color: str) -> ft.Border:
    """One border object per width and colour, shared by every render: Flet skips an
    unchanged part it is handed again (the same object) instead of comparing its four
    sides, and a deal draws all nine pots and eight stacks again on every phone."""
    return ft.Border.all(width, color)


_TILE_PADDING = ft.Padding.symmetric(horizontal=4)


@ft.component
def _tile(pot: PotView, *, selected: bool, on_tap: Callable[[str], None] | None) -> ft.Control:
    centre = pot.pot == "rummoli"
    name_color = "#212121" if centre else ("#FFCDD2" if pot.pot in RED_POTS else "#FFFFFF")
    count_color = "#212121" if centre else "#FFFFFF"
    # the pot's name (A♦+K♦: text and suit icons) is the same controls from render to
    # render -- never drawn again while chips come and go (a deal changes every count)
    name = ft.use_memo(
        lambda: suit_text(pot.label, size=14, color=name_color), [pot.label, name_color]
    )
    face = ft.Row(
        [name, ft.Text(str(pot.chips), size=19, weight=ft.FontWeight.BOLD, color=count_color)],
        spacing=6,
        tight=True,
        alignment=ft.MainAxisAlignment.CENTER,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    body = ft.Container(
        height=TILE_HEIGHT,
        expand=True,
        padding=_TILE_PADDING,
        border_radius=TILE_HEIGHT // 2 if centre else 10,
        bgcolor=CENTRE_BG if centre else TILE_BG,
        # the border keeps its width when the tile is chosen: only its colour changes
        border=_border(3, "#FFEB3B" if selected else ("#A5D6A7" if on_tap else TILE_BG)),
        alignment=ft.Alignment.CENTER,
        on_click=(lambda _: on_tap(pot.pot)) if on_tap is not None else None,
        ink=on_tap is not None,
        # a tile to tap hides only its words (hiding the tile's own semantics would hide
        # the tap too); a tile only shown says nothing but its label (one control less
        # per pot: a deal draws all nine again on every phone)
        content=ft.Semantics(exclude_semantics=True, content=face) if on_tap else face,
    )
    return ft.Semantics(
        content=body,
        label=pot_words(pot.label, pot.chips),
        identifier=f"pot-{pot.pot}",
        # a new node when the tile becomes tappable: Flutter web keeps the identifier
        # only on nodes it creates, not on a node that turns into a button
        key=f"pot-{pot.pot}-{'tap' if on_tap is not None else 'show'}",
        button=on_tap is not None,
        selected=selected,
        container=True,
        exclude_semantics=on_tap is None,
        expand=True,
    )


#: a pot drawn again only when its own view, choice or tap changes: with eight phones at
#: a table every device redraws on every entry, and most pots stay as they were
PotTile: Callable[..., ft.Control] = ft.memo(_tile)  # type: ignore[no-untyped-call]


def board(
    pots: Sequence[PotView],
    *,
    pool: int = 0,
    on_tap: Callable[[str], None] | None = None,
    selected: str | None = None,
    taps: Sequence[str] = (),
) -> ft.Control:
    """The nine pots as a 3x3 board; ``taps`` are the pots that may be tapped now;
    ``pool`` the chips swept together for the final poker."""
    rows = [
        ft.Row(
            [
                PotTile(
                    p,
                    selected=p.pot == selected,
                    on_tap=on_tap if p.pot in taps else None,
                    key=f"tile-{p.pot}",
                )
                for p in row
            ],
            spacing=5,
        )
        for row in board_cells(pots)
    ]
    extra: list[ft.Control] = []
    if pool:
        words = f"Final pot: {pool} chips"
        extra.append(
            ft.Semantics(
                content=ft.Text(words, color="#FFFFFF", size=16, weight=ft.FontWeight.BOLD),
                label=words,
                identifier="pot-final",
                key="pot-final",
                container=True,
                exclude_semantics=True,
            )
        )
    return ft.Container(
        content=ft.Column([*rows, *extra], spacing=5, tight=True),
        bgcolor=FELT,
        border_radius=14,
        padding=6,
    )


@ft.component
def _board(
    pots: tuple[PotView, ...],
    pool: int,
    on_tap: Callable[[str], None] | None,
    selected: str | None,
    taps: tuple[str, ...],
) -> ft.Control:
    return board(pots, pool=pool, on_tap=on_tap, selected=selected, taps=taps)


#: the whole board drawn again only when a pot, the pool or the choice changes (a chip
#: moved between stacks leaves it as it was); ``on_tap`` is None unless pots may be
#: tapped, so it is equal from render to render then
Board: Callable[..., ft.Control] = ft.memo(_board)  # type: ignore[no-untyped-call]


def _stack_words(name: str, chips: int, *, dealer: bool, out: bool, extra: Sequence[str]) -> str:
    words = [f"{name}: {chips} chips"]
    if dealer:
        words.append("dealer")
    if out:
        words.append("out of the game")
    return ", ".join([*words, *extra])


#: a stack tile's height: the same whatever it notes (a bet, a fold, the cards held)
STACK_HEIGHT = 54


def _name_row(name: str, dealer: bool, out: bool) -> ft.Control:
    badges: list[ft.Control] = []
    if dealer:
        badges.append(
            ft.Container(
                ft.Text("D", size=12, weight=ft.FontWeight.BOLD, color="#212121"),
                alignment=ft.Alignment.CENTER,
                bgcolor=CENTRE_BG,
                border_radius=9,
                width=18,
                height=18,
            )
        )
    if out:
        badges.append(ft.Text("out", size=12, color=ft.Colors.ERROR))
    return ft.Row(
        [
            one_line(name, size=14, weight=ft.FontWeight.W_600, expand=True),
            *badges,
        ],
        spacing=4,
        height=20,
    )


_STACK_PADDING = ft.Padding.symmetric(horizontal=6, vertical=4)


@ft.component
def _stack_tile(
    name: str, chips: int, *, dealer: bool, out: bool, extra: tuple[str, ...], short: bool
) -> ft.Control:
    # the name and badges are the same controls from render to render while the dealer
    # and the player's being out stay -- not drawn again when chips move (a deal changes
    # every stack's count)
    name_row = ft.use_memo(lambda: _name_row(name, dealer, out), [name, dealer, out])
    # one line under the name: the chips, then the latest note (a bet or a fold before
    # the cards held); it never wraps, so the tile never grows
    seen = extra[-1].removeprefix("holds ") if extra else ""
    count_row = ft.Row(
        [
            ft.Text(
                str(chips), size=18, weight=ft.FontWeight.BOLD, color=RED_SUIT if short else None
            ),
            one_line(seen, size=11, expand=True),
        ],
        spacing=3,
        height=22,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    return ft.Semantics(
        identifier=f"stack-{name}",
        key=f"stack-{name}",
        label=_stack_words(name, chips, dealer=dealer, out=out, extra=extra),
        container=True,
        exclude_semantics=True,
        col={"xs": 3},  # four stacks a row, also on a phone
        content=ft.Container(
            height=STACK_HEIGHT,
            padding=_STACK_PADDING,
            border_radius=10,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
            # the same border width for everyone: the dealer's is only coloured
            border=_border(2, CENTRE_BG if dealer else ft.Colors.OUTLINE_VARIANT),
            opacity=0.55 if out else 1.0,
            content=ft.Column([name_row, count_row], spacing=2, tight=True),
        ),
    )


#: a stack drawn again only when that player's chips or notes change (see :data:`PotTile`)
StackTile: Callable[..., ft.Control] = ft.memo(_stack_tile)  # type: ignore[no-untyped-call]


def stacks(
    players: Sequence[str],
    chips: dict[str, int],
    *,
    dealer: str | None,
    in_game: Sequence[str],
    ante: int,
    held: dict[str, int] | None = None,
    note: dict[str, str] | None = None,
) -> ft.Control:
    """Each player's stack, the dealer marked, players out of the game greyed, a stack
    too small for the next ante in red."""
    tiles: list[ft.Control] = []
    for name in players:
        out = name not in in_game
        parts = []
        if held is not None and not out:
            n = held.get(name, 0)
            parts.append(f"holds {n} card{'' if n == 1 else 's'}")
        if note and note.get(name):
            parts.append(note[name])
        count = chips.get(name, 0)
        tiles.append(
            StackTile(
                name,
                count,
                dealer=name == dealer and not out,
                out=out,
                extra=tuple(parts),
                short=count < ante,
                key=f"stack-tile-{name}",
            )
        )
    # keyed: every phase shows the stacks, at another place in its column
    return ft.ResponsiveRow(tiles, spacing=6, run_spacing=6, key="stacks")
