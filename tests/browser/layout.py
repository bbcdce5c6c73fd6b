"""Nothing jumps: where every tappable control is, before and after a tap.

``boxes(page)`` reads every tappable node of Flutter's accessibility tree (buttons,
switches, text boxes, anything with a tap) with its bounding box, keyed by its
test id (``flt-semantics-identifier``, its own or its nearest ancestor's) or, without
one, its name.  ``assert_nothing_moved(before, after, tolerance=2)`` fails when a
control present in both moved or changed size by more than ``tolerance`` px;
controls that appear or go (a rule link beside a new verdict) are not moves.

Also here, for tests and benchmarks that drive a phone:

* ``phone_context(browser)`` / ``android_page(browser)`` -- a 390x844 Android phone
  (its user agent, touch, mobile layout: Flutter sizes some controls by platform);
* ``open_phone(page, url)`` -- load the app and switch on the accessibility tree
  (on a mobile user agent Flutter's switch is a full-screen placeholder to tap);
* ``watch_server(page)`` / ``settle(page, since)`` -- wait for the server's answer
  to a tap and a quiet moment, so the next tap meets the new screen;
* ``visible_box(page, locator)`` -- the part of a control the user can see (its
  box cut by every scrolling area it is in), None when none of it is.
"""

from __future__ import annotations

import time
from typing import Any

from tests.browser.conftest import ANDROID_UA, PHONE, new_page

__all__ = [
    "ANDROID_UA",
    "Box",
    "assert_nothing_moved",
    "boxes",
    "moved",
    "open_phone",
    "phone_context",
    "android_page",
    "reveal",
    "settle",
    "settled_boxes",
    "visible_box",
    "watch_server",
]


Box = dict[str, float]

_TAPPABLE_ROLES = (
    "['button', 'checkbox', 'switch', 'radio', 'tab', 'slider', 'link', 'menuitem', 'textbox']"
)

_BOXES_JS = f"""() => {{
  const host = document.querySelector('flt-semantics-host');
  if (!host) return [];
  const roles = {_TAPPABLE_ROLES};
  const out = [];
  for (const el of host.querySelectorAll('flt-semantics, input, textarea')) {{
    const role = el.getAttribute('role');
    const tappable = el.hasAttribute('flt-tappable') || roles.includes(role)
      || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';
    if (!tappable) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let id = el.getAttribute('flt-semantics-identifier');
    let p = el;
    while (!id && p.parentElement && p !== host) {{
      p = p.parentElement;
      id = p.getAttribute && p.getAttribute('flt-semantics-identifier');
    }}
    const name = (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 50);
    out.push({{id: id || '', name, x: r.x, y: r.y, w: r.width, h: r.height}});
  }}
  return out;
}}"""

#: the part of an element inside the viewport and every scrolling (clipping) ancestor
_VISIBLE_JS = """el => {
  let r = el.getBoundingClientRect();
  let box = {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom};
  const cut = (o) => {
    box = {x0: Math.max(box.x0, o.left), y0: Math.max(box.y0, o.top),
           x1: Math.min(box.x1, o.right), y1: Math.min(box.y1, o.bottom)};
  };
  cut({left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight});
  for (let p = el.parentElement; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (/(scroll|hidden|auto)/.test(s.overflowY + s.overflowX)) cut(p.getBoundingClientRect());
  }
  if (box.x1 - box.x0 <= 0 || box.y1 - box.y0 <= 0) return null;
  return {x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0,
          full: {x: r.left, y: r.top, width: r.width, height: r.height}};
}"""


def boxes(page: Any) -> dict[str, Box]:
    """Every tappable control on screen: key (test id, else name) -> x, y, w, h.

    Two controls with the same key get ``#2``, ``#3``... in document order.
    """
    found: dict[str, Box] = {}
    for item in page.evaluate(_BOXES_JS):
        key = item["id"] or f"[{item['name']}]"
        n, base = 1, key
        while key in found:
            n += 1
            key = f"{base}#{n}"
        found[key] = {k: float(item[k]) for k in ("x", "y", "w", "h")}
    return found


def moved(before: dict[str, Box], after: dict[str, Box], tolerance: float = 2) -> list[str]:
    """Each control in both whose box moved or resized by more than ``tolerance`` px."""
    out = []
    for key in sorted(before.keys() & after.keys()):
        b, a = before[key], after[key]
        deltas = {k: a[k] - b[k] for k in ("x", "y", "w", "h")}
        if any(abs(d) > tolerance for d in deltas.values()):
            change = ", ".join(f"{k} {d:+.0f}" for k, d in deltas.items() if abs(d) > tolerance)
            out.append(f"{key}: {change}")
    return out


def assert_nothing_moved(
    before: dict[str, Box], after: dict[str, Box], tolerance: float = 2, where: str = ""
) -> None:
    """Fail if a control present before and after moved or resized past ``tolerance``."""
    assert before, f"{where}: no tappable controls before the tap"
    common = before.keys() & after.keys()
    assert len(common) >= len(before) // 2, (
        f"{where}: most controls went: {sorted(before.keys() - after.keys())[:20]}"
    )
    problems = moved(before, after, tolerance)
    assert not problems, f"{where}: {len(problems)} moved: " + "; ".join(problems)


def phone_context(browser: Any, *, dark: bool = False) -> Any:
    """A new browser context that looks like a 390x844 Android phone."""
    return browser.new_context(
        viewport=PHONE,
        user_agent=ANDROID_UA,
        is_mobile=True,
        has_touch=True,
        color_scheme="dark" if dark else "light",
    )


def open_phone(page: Any, url: str, timeout_ms: int = 90_000) -> None:
    """Load the app on a (phone) page and switch on Flutter's accessibility tree."""
    page.goto(url)
    page.wait_for_selector("#loading", state="detached", timeout=timeout_ms)
    page.wait_for_selector("flt-glass-pane", state="attached", timeout=timeout_ms)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=timeout_ms)
    deadline = time.monotonic() + 30
    while page.locator("flt-semantics-host flt-semantics").count() == 0:
        # desktop: a synthetic click; mobile: the placeholder covers the screen, tap it
        if placeholder.count():
            placeholder.dispatch_event("click")
            page.wait_for_timeout(300)
        if page.locator("flt-semantics-host flt-semantics").count() == 0 and placeholder.count():
            placeholder.tap(force=True)
        page.wait_for_timeout(300)
        assert time.monotonic() < deadline, "the accessibility tree never came on"


def android_page(browser: Any, *, dark: bool = False) -> Any:
    """A page on a 390x844 Android phone, with the test suite's guards (``new_page``)."""
    return new_page(browser, PHONE, dark=dark, android=True)


def watch_server(page: Any) -> None:
    """Note when the server last sent the page something (a patch after a tap)."""
    if hasattr(page, "ws_recv"):
        return
    page.ws_recv = [time.monotonic()]
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda _: page.ws_recv.append(time.monotonic())),
    )


def settle(page: Any, since: float | None = None, quiet_s: float = 0.25) -> None:
    """Wait for the server's answer to a tap made at ``since`` (a re-render patch),
    then for a quiet moment, so the next tap meets the new screen."""
    start = time.monotonic()
    if since is not None:
        while page.ws_recv[-1] < since and time.monotonic() - start < 5.0:
            page.wait_for_timeout(20)
    while time.monotonic() - page.ws_recv[-1] < quiet_s and time.monotonic() - start < 10.0:
        page.wait_for_timeout(20)
    page.wait_for_timeout(80)  # a frame or two for Flutter to apply it


def settled_boxes(page: Any, timeout_s: float = 10.0) -> dict[str, Box]:
    """``boxes(page)`` once two readings 150 ms apart agree (the screen has settled)."""
    deadline = time.monotonic() + timeout_s
    prev = boxes(page)
    while time.monotonic() < deadline:
        page.wait_for_timeout(150)
        cur = boxes(page)
        if cur == prev:
            return cur
        prev = cur
    return prev


def visible_box(page: Any, locator: Any) -> dict[str, Any] | None:
    """The part of ``locator``'s control a user can see, or None."""
    handle = locator.element_handle(timeout=20_000)
    if handle is None:
        return None
    box: dict[str, Any] | None = handle.evaluate(_VISIBLE_JS)
    return box


WHEEL_STEP = 300

_SCROLL_AREA_JS = """el => {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (/(scroll|auto)/.test(s.overflowY)) {
      const r = p.getBoundingClientRect();
      return {x: r.left, y: r.top, width: r.width, height: r.height};
    }
  }
  return null;
}"""


def reveal(page: Any, locator: Any, attempts: int = 20) -> int:
    """Scroll until the whole of ``locator``'s control can be seen; the number of scroll
    gestures it took (0 when it was already in sight).

    Each gesture is a mouse wheel of at most :data:`WHEEL_STEP` px over the scrolling
    area that holds the control (Playwright's own scroll-into-view moves the
    accessibility tree, not Flutter's canvas, so a tap after it can miss).
    """
    for gestures in range(attempts):
        seen = visible_box(page, locator)
        full = None if seen is None else seen["full"]
        if (
            seen is not None
            and abs(seen["height"] - full["height"]) < 1
            and abs(seen["width"] - full["width"]) < 1
        ):
            return gestures
        box = full or locator.bounding_box()
        handle = locator.element_handle(timeout=20_000)
        area = handle.evaluate(_SCROLL_AREA_JS) if handle is not None else None
        size = page.viewport_size
        mid = (area["y"] + area["height"] / 2) if area else size["height"] / 2
        delta = WHEEL_STEP if box is None else max(-WHEEL_STEP, min(WHEEL_STEP, box["y"] - mid))
        page.mouse.move((area["x"] + area["width"] / 2) if area else size["width"] / 2, mid)
        page.mouse.wheel(0, delta)
        page.wait_for_timeout(200)
    raise AssertionError(f"could not bring {locator} into view")
