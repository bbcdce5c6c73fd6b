"""Addresses of screens that views and components both link to.

Kept out of ``views/`` so that components can link to a rule without importing
a view (nothing below ``views/`` imports a view).
"""

from __future__ import annotations

from companion import rulebook


def section_route(sec: rulebook.Section) -> str:
    """``/rules/umtali/U6.2/``: the trailing slash keeps a reload working, because the
    web server treats a last segment with a dot (``U6.2``) as a file, not a screen."""
    return f"/rules/{sec.game}/{sec.id}/"


def rule_route(rule_id: str) -> str:
    """The screen of a rule ID (``U6.2``) -- what verdicts and settlements link to."""
    found = rulebook.section(rule_id)
    if found is None:
        return "/rules"
    return section_route(found)
