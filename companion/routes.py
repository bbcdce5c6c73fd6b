"""Addresses of screens that views and components both link to.

Kept out of ``views/`` so that components can link to a rule without importing
a view (nothing below ``views/`` imports a view).

The rules section remembers where the reader came from in the address itself
(``/rules/umtali/U6.2/?back=%2Fplay%2Fg1``), so its Back returns there -- a game,
the checker, a search with its words -- and a reload keeps it.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlparse

from companion import rulebook


def section_route(sec: rulebook.Section) -> str:
    """``/rules/umtali/U6.2/``: the trailing slash marks it as a screen, not a file
    (see :mod:`companion.web_addresses`, which answers it with 200 on reload)."""
    return f"/rules/{sec.game}/{sec.id}/"


def rule_route(rule_id: str) -> str:
    """The screen of a rule ID (``U6.2``) -- what verdicts and settlements link to."""
    found = rulebook.section(rule_id)
    if found is None:
        return "/rules"
    return section_route(found)


def with_back(route: str, back: str | None) -> str:
    """``route``, remembering ``back`` as the place its Back button returns to.

    >>> with_back("/rules/umtali/U6.2/", "/play/g1")
    '/rules/umtali/U6.2/?back=%2Fplay%2Fg1'
    >>> with_back("/rules/umtali", None)
    '/rules/umtali'
    """
    if not back:
        return route
    return f"{route}?{urlencode({'back': back})}"


def query_value(route: str, name: str) -> str:
    """One value of ``route``'s query (``""`` if absent).

    >>> query_value("/rules?q=how+many+cards", "q")
    'how many cards'
    """
    values = parse_qs(urlparse(route).query).get(name)
    return values[0] if values else ""


def back_of(route: str) -> str | None:
    """Where ``route``'s Back returns to, if it remembers it (an address in this app).

    >>> back_of("/rules/umtali/U6.2/?back=%2Frules%3Fq%3Dmarrige")
    '/rules?q=marrige'
    >>> back_of("/rules/umtali/U6.2/?back=https%3A%2F%2Fexample.com") is None
    True
    """
    back = query_value(route, "back")
    return back if back.startswith("/") and not back.startswith("//") else None


def path_of(route: str) -> str:
    """``route`` without its query, and without a trailing slash."""
    path = urlparse(route).path
    return path.rstrip("/") or "/"
