"""No text cut mid-word without its ellipsis and a way to read the rest (issue 18).

The browser's accessibility tree gives a text's whole words and its box, never
the glyphs Flutter painted, so a line cut short cannot be seen there.  The
control tree can say which texts *may* be cut and whether they are cut well::

    from tests.companion.text_cut import cut_texts

    problems = cut_texts(screen.controls(), where="Rummoli, 8 players, betting")

A text **may be cut** when its line is held short: ``no_wrap`` (one line, as wide
as its box allows -- unless it sits in a row that scrolls sideways, with no box
of fixed width or share of a row between it and that row) or ``max_lines`` (the
lines past it are dropped).  Such a text must

1. end in an ellipsis (``overflow=ft.TextOverflow.ELLIPSIS``): Flutter's default
   is ``CLIP``, which cuts mid-word and says nothing;
2. give a way to read the whole of it: a tooltip (on it or a control holding it),
   a semantics label with its whole words (its own ``semantics_label``, which says
   all of it in words -- "ten of hearts" for 10♥ -- or the label of an
   ``ft.Semantics`` holding it, with its words in it), or a tap (a control holding it that opens or
   does something on a tap).

A text made of spans (cards in their suits' colours) is not checked by
``cut_texts``: Flet 1.0.5 drops the "…" of such a text (it puts ``overflow`` in
the root span's style, which ``Text.rich`` does not read), so those lines are
laid out to fit (a meld as wide as its cards) and the browser's layout audit sees
a box cut short.  ``cut_spans(controls, where)`` names each text made of spans
whose lines are held short (``max_lines`` or ``no_wrap``): its ellipsis never
shows, whatever its ``overflow`` says (a rule link's long title, "Deal every card,
plus the", cut with nothing to say so).

``cut_texts`` returns the texts that break a rule, one sentence each ([] when
none does).  It reads the controls of a headless session
(``tests/companion/flet_harness.py``), so it runs over every state a scripted
game passes through, and it fails on a text built to be cut
(``tests/companion/test_text_cut.py``).

The **primary action** of the entry bar wraps its words to two lines inside its
48 px ("Cy went out: 4 chips + the Rummoli pot"), and an ellipsis only past
them.  ``unfit_actions(controls, where, screen_width=360)`` names each action
whose words need more lines than that (or hold a word wider than the button) at
a phone that wide: the bar's width is what is left of the screen beside Undo
(Material 3's button metrics, as the browser draws them: at 360 px Undo is 99 px
and the action 225 px wide, 175 px of it for words beside the icon), the words'
widths come from the app's own font (``tests/companion/text_width.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import flet as ft

from tests.companion.text_width import lines_needed, text_width

__all__ = [
    "BarAction",
    "bar_actions",
    "cut_spans",
    "cut_texts",
    "may_be_cut",
    "unfit_actions",
]

_TAPS = ("on_click", "on_tap", "on_long_press", "on_press")


def _ancestors(control: Any) -> Iterator[Any]:
    p = control.parent
    while p is not None:
        yield p
        p = p.parent


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _scrolls_sideways(control: Any) -> bool:
    if isinstance(control, ft.Row):
        return control.scroll is not None
    if isinstance(control, ft.ListView | ft.GridView):
        return bool(control.horizontal)
    return False


def may_be_cut(text: ft.Text) -> str | None:
    """Why ``text``'s line may be held short (None: it wraps freely)."""
    if text.max_lines is not None:
        return f"max_lines={text.max_lines}"
    if not text.no_wrap:
        return None
    for up in _ancestors(text):
        if _scrolls_sideways(up):
            return None  # a row that scrolls sideways: the rest is a swipe away
        if getattr(up, "width", None) is not None or getattr(up, "expand", None):
            break  # a box of fixed width, or a share of a row, holds the line short
    if text.expand:
        return "no_wrap, in a share of its row"
    return "no_wrap"


def _readable(text: ft.Text, whole: str) -> bool:
    """A tooltip, a semantics label with the whole words, or a tap."""
    if text.tooltip is not None or text.semantics_label:
        return True  # (its own label says the whole of it in other words: "ten of hearts")
    for up in _ancestors(text):
        if getattr(up, "tooltip", None) is not None:
            return True
        if isinstance(up, ft.Semantics) and up.label and whole in _words(str(up.label)):
            return True
        if any(getattr(up, name, None) is not None for name in _TAPS) and not getattr(
            up, "disabled", False
        ):
            return True
    return False


def cut_texts(controls: Iterable[Any], where: str = "") -> list[str]:
    """Every text of ``controls`` that may be cut without its ellipsis or a way to
    read the rest, as a sentence."""
    out: list[str] = []
    for c in controls:
        if not isinstance(c, ft.Text) or not c.value or not str(c.value).strip():
            continue
        why = may_be_cut(c)
        if why is None:
            continue
        whole = _words(str(c.value))
        if c.overflow != ft.TextOverflow.ELLIPSIS:
            out.append(f"{where}: {whole!r} ({why}) is cut without an ellipsis")
        elif not _readable(c, whole):
            out.append(
                f"{where}: {whole!r} ({why}) ends in an ellipsis with no way to read the rest "
                "(no tooltip, no semantics label with its words, no tap)"
            )
    return list(dict.fromkeys(out))


def cut_spans(controls: Iterable[Any], where: str = "") -> list[str]:
    """Every text made of spans whose lines may be held short, as a sentence: Flet
    1.0.5 draws it cut with no "…" (its ``overflow`` is not read)."""
    out: list[str] = []
    for c in controls:
        if not isinstance(c, ft.Text) or not c.spans:
            continue
        why = may_be_cut(c)
        if why is None:
            continue
        whole = _words(str(c.value or "") + "".join(str(s.text or "") for s in c.spans))
        out.append(f"{where}: {whole!r} ({why}) is made of spans: cut, its ellipsis is dropped")
    return list(dict.fromkeys(out))


# --------------------------------------------------------------------------- the bar's action

#: px: the full-screen play view's padding at each side (companion/views/play.py)
FRAME_PADDING = 12
#: Material 3 (as Flutter draws it): a button's words at 14 px, 0.1 px between letters;
#: a button with an icon has 16 px before the icon and 24 after the words, the icon
#: 18 px and 8 px beside it
BUTTON_FONT, BUTTON_SPACING = 14.0, 0.1
ICON_PADDING, ICON, ICON_GAP = (16.0, 24.0), 18.0, 8.0
#: (a button without an icon: 24 px each side)
TEXT_PADDING = (24.0, 24.0)


@dataclass(frozen=True)
class BarAction:
    """The entry bar's primary action as drawn on a screen ``screen_width`` px wide."""

    words: str
    size: float  # px, the words' font size
    room: float  # px, the width its words may take
    max_lines: int
    lines: int | None  # the lines its words take (None: a word wider than ``room``)

    @property
    def fits(self) -> bool:
        return self.lines is not None and self.lines <= self.max_lines


def _padding(button: Any, icon: bool) -> tuple[float, float]:
    pad = getattr(getattr(button, "style", None), "padding", None)
    if isinstance(pad, ft.Padding):
        return float(pad.left), float(pad.right)
    return ICON_PADDING if icon else TEXT_PADDING


def _button_width(button: Any) -> float:
    """px: a button of fixed words (Undo) as wide as its words, icon and padding."""
    icon = button.icon is not None
    words = button.content if isinstance(button.content, str) else str(button.content.value)
    left, right = _padding(button, icon)
    width = text_width(words, BUTTON_FONT, BUTTON_SPACING)
    return left + (ICON + ICON_GAP if icon else 0) + width + right


def _is(control: Any, ident: str) -> bool:
    return isinstance(control, ft.Semantics) and getattr(control, "identifier", None) == ident


def bar_actions(controls: Iterable[Any], screen_width: float = 360) -> list[BarAction]:
    """The primary action of each entry bar among ``controls`` (the row that holds Undo:
    Undo, a gap, the action taking the rest), measured at ``screen_width``."""
    controls = list(controls)
    # a part of the bar drawn by a component shows as the control the component drew
    drawn = {id(c.parent): c for c in controls if c.parent is not None}
    found = []
    for undo in (c for c in controls if _is(c, "undo")):
        row = next((up for up in _ancestors(undo) if isinstance(up, ft.Row)), None)
        if row is None:
            continue
        kids = [c for c in row.controls if c.visible]
        fixed = float(row.spacing or 0) * (len(kids) - 1)
        action = None
        for kid in kids:
            shown = kid if isinstance(kid, ft.Control) else drawn.get(id(kid))
            if _is(shown, "undo"):
                fixed += _button_width(shown.content)
            elif isinstance(shown, ft.Semantics) and isinstance(shown.content, ft.FilledButton):
                action = shown.content
            elif getattr(shown, "width", None) is not None:
                fixed += float(shown.width)
        if action is None or not isinstance(action.content, ft.Text):
            continue  # no action in this state (an empty slot)
        text, icon = action.content, action.icon is not None
        left, right = _padding(action, icon)
        width = screen_width - 2 * FRAME_PADDING - fixed
        room = width - left - right - (ICON + ICON_GAP if icon else 0)
        size = float(text.size or BUTTON_FONT)
        words = _words(str(text.value))
        lines = lines_needed(words, size, room, BUTTON_SPACING)
        found.append(BarAction(words, size, room, text.max_lines or 1, lines))
    return found


def unfit_actions(controls: Iterable[Any], where: str = "", screen_width: float = 360) -> list[str]:
    """Each primary action whose words do not fit its button at ``screen_width``."""
    out = []
    for a in bar_actions(controls, screen_width):
        if a.fits:
            continue
        need = "a word wider than the button" if a.lines is None else f"{a.lines} lines"
        out.append(
            f"{where}: the action {a.words!r} needs {need} in its {a.room:.0f} px "
            f"at {screen_width:g} px wide (it shows {a.max_lines})"
        )
    return out
