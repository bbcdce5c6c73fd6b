"""The layout audit can fail: hand-built screens, each with one defect it must name.

The screens are plain HTML shaped like Flutter's accessibility tree (a
``flt-semantics-host`` of absolutely placed ``flt-semantics`` nodes, test ids in
``flt-semantics-identifier``, scrolling areas with ``overflow: auto``), so each
defect is exactly the one built -- a 75 px scrolling box of stacks, a row cut off
under the bar, a panel over another, a label cut short -- and the same screen
without it passes (the audit is not vacuous, nor does it cry wolf).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import PHONE, new_page
from tests.browser.layout_audit import MIN_SCROLL, assert_layout, audit

ROWS = [f"row-{i}" for i in range(8)]


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    pg = new_page(browser, PHONE)
    yield pg
    pg.context.close()


def node(ident: str, x: int, y: int, w: int, h: int, text: str = "", **attrs: str) -> str:
    more = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    span = f"<span>{text}</span>" if text else ""
    return (
        f'<flt-semantics flt-semantics-identifier="{ident}"{more} style="position:absolute;'
        f'left:{x}px;top:{y}px;width:{w}px;height:{h}px">{span}</flt-semantics>'
    )


def screen(
    page: Any, *, area: int = 600, below: int = 0, cover: bool = False, cut: str = ""
) -> None:
    """A table: a scrolling board ``area`` px tall holding eight 60 px rows, a bar at
    the bottom; ``below``: one more row that far under the screen's bottom, outside
    any scrolling area; ``cover``: a panel over row 1; ``cut``: a text node's label."""
    rows = "".join(
        node(r, 10, 10 + 70 * i, 370, 60, f"Player {i}: 4 cards") for i, r in enumerate(ROWS)
    )
    extra = node("lost", 10, 844 + below - 30, 370, 60, "Player 9: 4 cards") if below else ""
    panel = node("panel", 0, 150, 390, 60, "Widow panel") if cover else ""
    text = node("note", 10, 700, 200, 20, cut) if cut else ""
    page.set_content(
        f"""<body style="margin:0"><flt-semantics-host style="position:absolute;inset:0">
        <flt-semantics style="position:absolute;left:0;top:60px;width:390px;height:{area}px;
          overflow-y:auto" role="group"><div style="position:relative;height:{10 + 70 * 8}px">
          {rows}</div></flt-semantics>
        {panel}{text}{extra}
        {node("verdict", 0, 730, 390, 52, "Ann may swap blind", role="group")}
        {node("action", 120, 788, 260, 48, "Deal", role="button", flt_tappable="")}
        </flt-semantics-host></body>"""
    )


def test_a_right_screen_passes_with_rows_reached_by_scrolling(page: Any) -> None:
    screen(page, area=600)  # rows 7 and 8 lie under the board's bottom: it scrolls to them
    assert_layout(page, ROWS, fixed=["verdict", "action"], where="the right screen")


def test_a_small_scrolling_box_that_clips_required_rows_fails(page: Any) -> None:
    screen(page, area=75)
    problems = audit(page, ROWS, fixed=["verdict", "action"])
    assert any(f"only 75 px tall (under {MIN_SCROLL} px)" in p for p in problems), problems
    assert any(p.startswith("row-1 ") for p in problems), problems


def test_a_row_cut_off_with_nothing_to_scroll_fails(page: Any) -> None:
    screen(page, below=10)
    problems = audit(page, [*ROWS, "lost"], fixed=["action"])
    assert any("lost is cut to" in p and "nothing scrolls to it" in p for p in problems), problems
    screen(page, below=200)
    problems = audit(page, [*ROWS, "lost"])
    assert any("lost is out of sight and nothing scrolls to it" in p for p in problems), problems


def test_a_panel_over_a_row_fails(page: Any) -> None:
    screen(page, cover=True)
    problems = audit(page, ROWS)
    assert any("overlap" in p and "panel" in p and "row-1" in p for p in problems), problems
    assert any(p.startswith("row-1 ") and "covered by panel" in p for p in problems), problems


def test_missing_out_of_sight_action_and_a_cut_label_fail(page: Any) -> None:
    screen(page, cut="Note: U7 (no-breaking rul…")
    problems = audit(page, [*ROWS, "row-99"], fixed=["action"])
    assert "row-99 is missing" in problems
    assert any("note: its text is cut short" in p for p in problems), problems
    # the primary action scrolled out of sight (in a tall area) still fails: it is fixed
    page.evaluate(
        "() => { const a = document.querySelector('[flt-semantics-identifier=action]');"
        " a.style.top = '900px'; }"
    )
    problems = audit(page, ROWS, fixed=["action"])
    assert any(p.startswith("action ") and "without scrolling" in p for p in problems), problems


def test_a_target_cut_by_its_box_fails(page: Any) -> None:
    """Flutter gives a clipped node the box of what is left of it: a 14 px high button."""
    screen(page)
    page.evaluate(
        """() => document.querySelector('flt-semantics-host').insertAdjacentHTML('beforeend',
        '<flt-semantics flt-semantics-identifier="plus" role="button" flt-tappable=""'
        + ' style="position:absolute;left:300px;top:715px;width:48px;height:14px">'
        + '</flt-semantics>')"""
    )
    problems = audit(page, ROWS)
    assert any(p.startswith("plus: a target only 48x14 px") for p in problems), problems
