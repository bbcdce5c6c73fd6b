"""Everything a screen state needs is on screen: a layout audit over Flutter's
accessibility tree (issue 18).

Tap counts and "nothing moved" do not see a row cut off under the bar, a panel
drawn over another, or pots squeezed into a 75 px box.  This does::

    from tests.browser.layout_audit import assert_layout

    assert_layout(
        page,
        required=["pots", *(f"stack-{p}" for p in players), "quick-end"],
        fixed=["record-out", "end-verdict"],   # in sight without any scrolling
        where="quick round end, 8 players",
    )

``audit(page, required, fixed=...)`` returns the problems as sentences (an
empty list when the screen is right); ``assert_layout`` fails with all of them.
Both read the box of every node of the accessibility tree (``flt-semantics``:
its test id ``flt-semantics-identifier``, its label, whether it is tappable)
and the part of it a user can see (cut by the viewport and by every clipping
or scrolling area it sits in).  The checks:

1. **present** -- every id in ``required`` and ``fixed`` names at least one node
   (every node with that id is checked below);
2. **reachable** -- a required node is wholly in sight, or it sits in a
   scrolling area (the page's, or an inner one) at least :data:`MIN_SCROLL` px
   tall, and the audit *proves* it by scrolling there with the mouse wheel (at
   most ``WHEEL_STEP`` px a gesture) and reading it again.  A node cut off with nothing to
   scroll, or held in a smaller scrolling box, is a problem.  A ``fixed`` node
   must be wholly in sight as the screen is (the primary action and the verdict
   live under the thumb);
3. **not covered, no overlaps** -- no two visible tappable or labelled (text)
   nodes overlap by more than ``tolerance`` px in both directions, unless one
   holds the other (a section and its rows, a chip and its button);
4. **no text cut** -- a label cut short ("…") must be tappable, or inside a
   tappable node (a way to read the rest); a labelled node only partly in sight
   with no scrolling area to bring the rest (text cut off by a box too small)
   is a problem;
5. **targets whole** -- a tappable node under :data:`MIN_TARGET` px either way is a
   target cut by its box.

Flutter gives a node cut by a clip the box of its visible part (and drops a node
wholly clipped by a box that does not scroll), so a node flush with an edge of
its scrolling area is scrolled to as well, a row cut off by a fixed box shows as
missing (check 1) or as a cut target (check 5).

What it cannot see: the accessibility tree gives a text's whole label and its
box, not the glyphs Flutter painted, so a ``max_lines`` text clipped mid-word
looks the same as one that ends in "…" (the app uses ``TextOverflow.ELLIPSIS``
for every line it shortens; check 4 covers text cut by its box).

The audit scrolls to prove reachability (``scroll=False`` skips that and reports
a node out of sight in a tall enough area as fine); the scrolling areas are left
where the last proof put them -- tap with ``dispatch_event`` afterwards, or take
screenshots before auditing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from tests.browser.layout import WHEEL_STEP

__all__ = [
    "MIN_SCROLL",
    "MIN_TARGET",
    "Node",
    "assert_layout",
    "audit",
    "read_nodes",
    "wait_for_browser_gestures",
]

#: px: a scrolling area lower than this that clips required content is a defect
#: (a ~75 px box of pots and stacks, a 39 px "On the table")
MIN_SCROLL = 200
#: px: a tappable node narrower or lower than this is a target cut by its box
MIN_TARGET = 24

_ROLES = ["button", "checkbox", "switch", "radio", "tab", "slider", "link", "menuitem", "textbox"]

#: every semantics node: its box, the part of it in sight, its nearest scrolling
#: ancestor's visible box, and its parent (for "one holds the other")
_NODES_JS = f"""(only) => {{
  const host = document.querySelector('flt-semantics-host');
  if (!host) return [];
  const roles = {_ROLES!r};
  const els = Array.from(host.querySelectorAll(only
    ? '[flt-semantics-identifier="' + CSS.escape(only) + '"]' : 'flt-semantics, input, textarea'));
  const index = new Map(els.map((el, i) => [el, i]));
  const vw = window.innerWidth, vh = window.innerHeight;
  const rect = r => ({{x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}});
  const cut = (a, b) => ({{x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0),
                           x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1)}});
  const scrolls = el => {{
    const s = getComputedStyle(el);
    return /(scroll|auto)/.test(s.overflowY + ' ' + s.overflowX)
      && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
  }};
  return els.map((el, i) => {{
    let parent = -1;
    for (let p = el.parentElement; p && p !== host; p = p.parentElement) {{
      if (index.has(p)) {{ parent = index.get(p); break; }}
    }}
    const full = rect(el.getBoundingClientRect());
    let seen = cut(full, {{x0: 0, y0: 0, x1: vw, y1: vh}});
    let area = null;
    for (let p = el.parentElement; p && p !== host; p = p.parentElement) {{
      const s = getComputedStyle(p);
      if (/(scroll|hidden|auto|clip)/.test(s.overflowY + ' ' + s.overflowX)) {{
        const r = rect(p.getBoundingClientRect());
        seen = cut(seen, r);
        if (area === null && scrolls(p)) {{
          area = cut(r, {{x0: 0, y0: 0, x1: vw, y1: vh}});
          for (let q = p.parentElement; q && q !== host; q = q.parentElement) {{
            const t = getComputedStyle(q);
            if (/(scroll|hidden|auto|clip)/.test(t.overflowY + ' ' + t.overflowX))
              area = cut(area, rect(q.getBoundingClientRect()));
          }}
        }}
      }}
    }}
    const role = el.getAttribute('role') || (el.tagName === 'INPUT' ? 'textbox' : '');
    let label = el.getAttribute('aria-label') || '';
    if (!label) {{
      for (const c of el.children) if (c.tagName === 'SPAN') label += c.textContent;
    }}
    if (!label && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA')) label = el.value || '';
    const visible = seen.x1 - seen.x0 > 0 && seen.y1 - seen.y0 > 0;
    return {{
      i, parent,
      id: el.getAttribute('flt-semantics-identifier') || '',
      role, label: label.trim(),
      tappable: el.hasAttribute('flt-tappable') || roles.includes(role)
        || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA',
      full, seen: visible ? seen : null,
      area: area && area.y1 > area.y0 ? area : null,
    }};
  }});
}}"""


@dataclass(frozen=True)
class Node:
    """One node of the accessibility tree as the audit reads it (px, page coordinates)."""

    i: int
    parent: int
    id: str
    role: str
    label: str
    tappable: bool
    full: tuple[float, float, float, float]  #: x0, y0, x1, y1 of its whole box
    seen: tuple[float, float, float, float] | None  #: the part in sight, None if none
    area: tuple[float, float, float, float] | None  #: its scrolling area in sight, if any

    @property
    def name(self) -> str:
        if self.id:
            return self.id
        return f"[{self.label[:40]}]" if self.label else f"node #{self.i}"

    @property
    def whole_in_sight(self) -> bool:
        if self.seen is None:
            return False
        return all(abs(a - b) < 1 for a, b in zip(self.seen, self.full, strict=True))


#: whether Flutter is in its browser-gesture mode again: for 500 ms after any
#: pointer event (a tap, a wheel, a mouse move) its engine sets ``overflow: hidden``
#: on every scrolling area (so the browser does not steal the gesture), which makes
#: an area that does scroll look like a plain clip.  A scrolling area is the one
#: holding a ``flt-semantics-scroll-overflow`` child; while one with more content
#: than room is still ``hidden``, the mode has not come back.
_BROWSER_GESTURES_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (!host) return true;
  for (const filler of host.querySelectorAll('flt-semantics-scroll-overflow')) {
    const el = filler.parentElement;
    if (!el) continue;
    const s = getComputedStyle(el);
    const more = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
    if (more && !/(scroll|auto)/.test(s.overflowY + ' ' + s.overflowX)) return false;
  }
  return true;
}"""


def wait_for_browser_gestures(page: Any, timeout_ms: int = 10_000) -> None:
    """Wait until Flutter shows its scrolling areas as scrolling again (see
    :data:`_BROWSER_GESTURES_JS`): read before that, a node below the fold of a
    scrolling page looks as if nothing scrolled to it, and a row flush with the
    area's edge like a cut target."""
    page.wait_for_function(_BROWSER_GESTURES_JS, timeout=timeout_ms, polling=50)


def _box(d: dict[str, float]) -> tuple[float, float, float, float]:
    return (d["x0"], d["y0"], d["x1"], d["y1"])


def read_nodes(page: Any, only: str | None = None) -> list[Node]:
    """Every node of Flutter's accessibility tree with its box (document order); with
    ``only``, just the nodes of that test id (and no parents)."""
    return [
        Node(
            i=n["i"],
            parent=n["parent"],
            id=n["id"],
            role=n["role"],
            label=n["label"],
            tappable=bool(n["tappable"]),
            full=_box(n["full"]),
            seen=_box(n["seen"]) if n["seen"] else None,
            area=_box(n["area"]) if n["area"] else None,
        )
        for n in page.evaluate(_NODES_JS, only)
    ]


def _lineage(nodes: list[Node]) -> list[set[int]]:
    """Each node's ancestors (indices)."""
    up: list[set[int]] = []
    for n in nodes:
        anc: set[int] = set()
        if n.parent >= 0:
            anc = {n.parent, *up[n.parent]}
        up.append(anc)
    return up


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float]:
    return min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])


def _px(box: tuple[float, ...]) -> str:
    return f"({box[0]:.0f},{box[1]:.0f} {box[2] - box[0]:.0f}x{box[3] - box[1]:.0f})"


def _touches_edge(node: Node) -> bool:
    """Whether ``node`` ends exactly at an edge of its scrolling area: Flutter gives a
    node cut by a clip the box of its visible part, so such a node may go on beyond."""
    if node.area is None or node.seen is None:
        return False
    return any(abs(node.full[k] - node.area[k]) < 1 for k in range(4))


def _in_sight(node: Node) -> bool:
    return node.whole_in_sight and not _touches_edge(node)


def _fills(node: Node, area: tuple[float, float, float, float]) -> bool:
    """Taller than its area, which scrolls through it (its parts are nodes of their own)."""
    return node.seen is not None and node.seen[3] - node.seen[1] >= area[3] - area[1] - 2


def _sweep(page: Any, ident: str, area: tuple[float, float, float, float]) -> bool:
    """Scroll the area to its top, then down half a wheel step at a time, until the
    node ``ident`` is in sight (Flutter does not move a node it hides, so its box
    cannot say which way to go); whether it came into sight."""
    mid = ((area[0] + area[2]) / 2, (area[1] + area[3]) / 2)
    page.mouse.move(*mid)
    page.mouse.wheel(0, -10_000)
    for _ in range(40):
        now = _settled(page, ident)
        if now is None:
            return False
        if _in_sight(now) or _fills(now, area) or (now.whole_in_sight and now.seen is not None):
            return True
        page.mouse.wheel(0, WHEEL_STEP / 2)
    return False


def _scroll_to(page: Any, node: Node, attempts: int = 25) -> bool:
    """Wheel ``node``'s scrolling area (at most ``WHEEL_STEP`` px a gesture, as a
    thumb would) until the node is wholly in sight; whether it got there."""
    stuck = 0
    area = node.area
    if area is None:
        return False
    for _ in range(attempts):
        if _in_sight(node) or _fills(node, area):
            return True
        dx = dy = 0.0
        for lo, hi, axis in ((0, 2, "x"), (1, 3, "y")):
            if node.full[lo] < area[lo] + 1 and node.full[hi] < area[hi] - 1:
                d = -min(WHEEL_STEP, area[lo] - node.full[lo] + 60)
            elif node.full[hi] > area[hi] - 1 and node.full[lo] > area[lo] + 1:
                d = min(WHEEL_STEP, node.full[hi] - area[hi] + 60)
            else:
                continue
            if axis == "x":
                dx = d
            else:
                dy = d
        if not (dx or dy):
            return node.whole_in_sight  # it fills its area, or sits flush at an edge
        page.mouse.move((area[0] + area[2]) / 2, (area[1] + area[3]) / 2)
        page.mouse.wheel(dx, dy)
        again = _settled(page, node.id)
        if again is None:
            return False
        again = replace(again, area=area)  # (a node Flutter hides may lose its area)
        if _same(again.full, node.full):
            if again.whole_in_sight and again.seen is not None:  # flush at the end
                return True
            stuck += 1
            if stuck > 2:  # a hidden node's box is stale: look for it from the top
                return _sweep(page, node.id, area)
        node = again
    return _in_sight(node) or _sweep(page, node.id, area)


def _same(a: tuple[float, ...], b: tuple[float, ...], tolerance: float = 3.0) -> bool:
    """The same box, give or take an overscroll stretch at the end of a scroll."""
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def _settled(page: Any, ident: str, timeout_ms: int = 1500) -> Node | None:
    """The node ``ident`` once two readings 100 ms apart agree (a scroll has ended)."""
    prev: Node | None = None
    for _ in range(timeout_ms // 100):
        page.wait_for_timeout(100)
        now = next(iter(read_nodes(page, ident)), None)
        if now is None or (prev is not None and now.full == prev.full):
            return now
        prev = now
    return prev


def _reachable(page: Any, node: Node, min_scroll: int, scroll: bool) -> str | None:
    """Why ``node`` cannot be brought wholly into sight (None: it can)."""
    if node.whole_in_sight and not _touches_edge(node):
        return None
    if node.seen is None:
        where = "out of sight"
    elif node.whole_in_sight:
        where = f"at the edge of its scrolling area {_px(node.area or node.full)}"
    else:
        where = f"cut to {_px(node.seen)} of {_px(node.full)}"
    if node.area is None:
        return f"{node.name} is {where} and nothing scrolls to it"
    height = node.area[3] - node.area[1]
    if height < min_scroll:
        return (
            f"{node.name} is {where}, in a scrolling box only {height:.0f} px tall "
            f"(under {min_scroll} px)"
        )
    if not scroll or not node.id:
        return None
    now = next(iter(read_nodes(page, node.id)), None)  # (an earlier proof may have scrolled)
    if now is None:
        return f"{node.name} went while the screen was audited"
    if now.area is None:
        now = replace(now, area=node.area)
    if not _scroll_to(page, now):
        return f"{node.name} is {where}; scrolling its area did not bring it into sight"
    return None


def audit(
    page: Any,
    required: Iterable[str],
    *,
    fixed: Iterable[str] = (),
    min_scroll: int = MIN_SCROLL,
    tolerance: float = 2.0,
    scroll: bool = True,
    min_target: int = MIN_TARGET,
) -> list[str]:
    """The layout problems of the screen ``page`` shows now, as sentences ([] = none).

    ``required``: test ids of what the state needs (each player's row, each pot...),
    which must be present, uncovered and in sight or reachable by scrolling;
    ``fixed``: test ids that must be wholly in sight as the screen is (the primary
    action, the verdict).  See the module's docstring for every check.
    """
    required, fixed = list(dict.fromkeys(required)), list(dict.fromkeys(fixed))
    problems: list[str] = []
    wait_for_browser_gestures(page)
    nodes = read_nodes(page)
    if not nodes:
        return ["the accessibility tree is empty"]
    by_id: dict[str, list[Node]] = {}
    for n in nodes:
        if n.id:
            by_id.setdefault(n.id, []).append(n)
    up = _lineage(nodes)
    shown = [n for n in nodes if n.seen is not None and (n.tappable or n.label)]
    problems += _overlaps(shown, up, tolerance)
    problems += _cut_text(nodes, up)
    problems += _cut_targets(shown, min_target)

    # 1. present, 2. reachable (the fixed ones: in sight as they are)
    for ident in fixed:
        found = by_id.get(ident, [])
        if not found:
            problems.append(f"{ident} is missing")
        for n in found:
            if not n.whole_in_sight:
                seen = "out of sight" if n.seen is None else f"only {_px(n.seen)} in sight"
                problems.append(f"{ident} {_px(n.full)} must be in sight without scrolling: {seen}")
    for ident in required:
        found = by_id.get(ident, [])
        if not found:
            problems.append(f"{ident} is missing")
        for n in found:
            why = _reachable(page, n, min_scroll, scroll)
            if why is not None:
                problems.append(why)
            problems += _covering(n, shown, up, tolerance)
    return list(dict.fromkeys(problems))


def _overlaps(shown: list[Node], up: list[set[int]], tolerance: float) -> list[str]:
    """3. visible tappable or labelled nodes that overlap (one holding the other is fine)."""
    out = []
    for k, a in enumerate(shown):
        for b in shown[k + 1 :]:
            if a.i in up[b.i] or b.i in up[a.i]:
                continue
            assert a.seen is not None and b.seen is not None
            w, h = _overlap(a.seen, b.seen)
            if w > tolerance and h > tolerance:
                out.append(
                    f"{a.name} {_px(a.seen)} and {b.name} {_px(b.seen)} overlap by {w:.0f}x{h:.0f}"
                )
    return out


def _cut_text(nodes: list[Node], up: list[set[int]]) -> list[str]:
    """4. a label cut short with no tap to read the rest; text cut off by its box."""
    out = []
    for n in nodes:
        if not n.label:
            continue
        if n.label.rstrip().endswith(("…", "...")) and not (
            n.tappable or any(nodes[j].tappable for j in up[n.i])
        ):
            out.append(
                f"{n.name}: its text is cut short ({n.label[-30:]!r}) with no way to read the rest"
            )
        elif n.seen is not None and not n.whole_in_sight and n.area is None:
            out.append(
                f"{n.name}: cut to {_px(n.seen)} of {_px(n.full)} and nothing scrolls to the rest"
            )
    return out


def _cut_targets(shown: list[Node], min_target: int) -> list[str]:
    """5. a target cut by its box (Flutter gives a clipped node the box of what is left)."""
    out = []
    for n in shown:
        if not n.tappable or n.role == "textbox" or _touches_edge(n):
            continue
        w, h = n.full[2] - n.full[0], n.full[3] - n.full[1]
        if min(w, h) < min_target:
            out.append(f"{n.name}: a target only {w:.0f}x{h:.0f} px (cut by its box?)")
    return out


def _covering(
    node: Node, shown: list[Node], up: list[set[int]], tolerance: float = 2.0
) -> list[str]:
    """What covers a required node (labelled or not: a board, a section) in sight."""
    if node.seen is None:
        return []
    out = []
    for other in shown:
        if other.i == node.i or other.i in up[node.i] or node.i in up[other.i]:
            continue
        assert other.seen is not None
        w, h = _overlap(node.seen, other.seen)
        if w > tolerance and h > tolerance:
            out.append(f"{node.name} {_px(node.seen)} is covered by {other.name} {_px(other.seen)}")
    return out


def assert_layout(
    page: Any,
    required: Iterable[str],
    *,
    fixed: Iterable[str] = (),
    where: str = "",
    min_scroll: int = MIN_SCROLL,
    tolerance: float = 2.0,
    scroll: bool = True,
) -> None:
    """Fail with every problem :func:`audit` finds on the screen ``page`` shows."""
    problems = audit(
        page, required, fixed=fixed, min_scroll=min_scroll, tolerance=tolerance, scroll=scroll
    )
    assert not problems, f"{where}: {len(problems)} layout problems:\n  " + "\n  ".join(problems)
