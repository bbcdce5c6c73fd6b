"""House-rule switches generated from a game's rules model (defaults = RULES.md).

Booleans become switches, numbers text fields, choices radio buttons; each
shows the model's one-line explanation.  The form is controlled: the parent
owns the dict of values that differ from the defaults.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Any

import flet as ft

from rulesets.protocol import HouseRulesBase


def title_of(name: str) -> str:
    return name.replace("_", " ").capitalize()


def _choices(annotation: Any) -> tuple[str, ...] | None:
    if typing.get_origin(annotation) is typing.Literal:
        return tuple(str(a) for a in typing.get_args(annotation))
    return None


def _is_int(annotation: Any) -> tuple[bool, bool]:
    """(is an int field, may be empty)"""
    if annotation is int:
        return True, False
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = set(typing.get_args(annotation))
        if args == {int, type(None)}:
            return True, True
    return False, False


def rules_from(model: type[HouseRulesBase], values: dict[str, Any]) -> HouseRulesBase:
    """Validate ``values`` (raises pydantic's ValidationError on bad values)."""
    return model.model_validate(values)


@ft.component
def HouseRulesForm(
    model: type[HouseRulesBase],
    values: dict[str, Any],
    on_change: Callable[[dict[str, Any]], None],
    *,
    ident: str = "rules",
) -> ft.Control:
    texts_ref = ft.use_ref(dict[str, str]())
    texts: dict[str, str] = texts_ref.current or {}
    texts_ref.current = texts
    problem, set_problem = ft.use_state("")
    explain = model.EXPLAIN

    def set_value(name: str, value: Any) -> None:
        new = dict(values)
        default = model.model_fields[name].default
        if value == default:
            new.pop(name, None)
        else:
            new[name] = value
        try:
            model.model_validate(new)
        except Exception as exc:  # pydantic ValidationError: say which field, keep old values
            set_problem(f"{title_of(name)}: {str(exc).splitlines()[-1].strip()}")
            return
        set_problem("")
        on_change(new)

    rows: list[ft.Control] = []
    for name, field in model.model_fields.items():
        current = values.get(name, field.default)
        hint = explain.get(name, "")
        label = title_of(name)
        if field.annotation is bool:
            control: ft.Control = ft.Switch(
                label=label,
                value=bool(current),
                on_change=lambda e, n=name: set_value(n, bool(e.control.value)),
            )
        elif (choices := _choices(field.annotation)) is not None:
            control = ft.Column(
                [
                    ft.Text(label, weight=ft.FontWeight.W_500),
                    ft.RadioGroup(
                        value=str(current),
                        on_change=lambda e, n=name: set_value(n, e.control.value),
                        content=ft.Row(
                            [ft.Radio(value=c, label=title_of(c)) for c in choices], wrap=True
                        ),
                    ),
                ],
                spacing=0,
            )
        else:
            is_int, optional = _is_int(field.annotation)
            if not is_int:
                continue

            def on_text(e: ft.Event[ft.TextField], n: str = name) -> None:
                texts[n] = e.control.value or ""

            def commit(_: Any, n: str = name, opt: bool = optional) -> None:
                raw = texts.get(n, "").strip()
                if raw == "" and opt:
                    set_value(n, None)
                    return
                try:
                    set_value(n, int(raw))
                except ValueError:
                    set_problem(f"{title_of(n)}: “{raw}” is not a whole number")

            control = ft.TextField(
                label=label,
                hint_text="empty = off" if optional else None,
                value="" if current is None else str(current),
                keyboard_type=ft.KeyboardType.NUMBER,
                on_change=on_text,
                on_blur=commit,
                on_submit=commit,
                dense=True,
                width=220,
            )
        rows.append(
            ft.Semantics(
                identifier=f"{ident}-{name}",
                container=True,
                content=ft.Column(
                    [control, ft.Text(hint, size=12, italic=True)] if hint else [control],
                    spacing=0,
                ),
            )
        )
    if problem:
        rows.insert(0, ft.Text(problem, color=ft.Colors.ERROR))
    return ft.Column(rows, spacing=8)
