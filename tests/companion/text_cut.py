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

A text made of spans (cards in their suits' colours) is not checked: Flet 1.0.5
drops the "…" of such a text, so those lines are laid out to fit (a meld as wide
as its cards, a rule link's title wrapping to a second line) and the browser's
layout audit sees a box cut short.

``cut_texts`` returns the texts that break a rule, one sentence each ([] when
none does).  It reads the controls of a headless session
(``tests/companion/flet_harness.py``), so it runs over every state a scripted
game passes through, and it fails on a text built to be cut
(``tests/companion/test_text_cut.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import flet as ft

__all__ = ["cut_texts", "may_be_cut"]

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
