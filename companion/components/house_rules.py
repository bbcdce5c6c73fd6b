"""House-rule switches generated from a game's rules model (defaults = RULES.md).

A switch, a choice or a number field per field of the model, each with the
model's name for it in plain words (``TITLES``) and its one-line explanation
(``EXPLAIN``).  The editor is controlled: the
parent owns the dict of values that differ from the defaults.  Used by the
new-game screen, the meld checker and the settings.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable
from typing import Any, Literal

import flet as ft

from companion.components.kit.ui import labelled
from rulesets import load_ruleset


def _switched(set_value: Callable[[str, Any], None], name: str, e: ft.Event[ft.Switch]) -> None:
    set_value(name, bool(e.control.value))


def _literal_options(annotation: Any) -> tuple[str, ...] | None:
    if typing.get_origin(annotation) is Literal:
        return tuple(str(a) for a in typing.get_args(annotation))
    return None


def _is_optional_int(annotation: Any) -> bool:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return args == [int]
    return False


def _number_field(
    ident: str,
    label: str,
    value: Any,
    optional: bool,
    on_value: Callable[[Any], None],
) -> ft.Control:
    def changed(e: ft.Event[ft.TextField]) -> None:
        text = (e.control.value or "").strip()
        if not text and optional:
            on_value(None)
            return
        try:
            on_value(int(text))
        except ValueError:
            on_value(text)  # the model refuses it, with a message

    return labelled(
        # no label inside the box: its title is the line above it, and a 160 px box
        # wrapped "Fixed number of hands" onto two cramped lines (the screen reader
        # still hears the title, from ``labelled``)
        ft.TextField(
            value="" if value is None else str(value),
            hint_text="off" if optional else None,
            keyboard_type=ft.KeyboardType.NUMBER,
            on_change=changed,
            dense=True,
            width=160,
        ),
        label,
        ident,
    )


@ft.component
def HouseRulesEditor(
    game: str,
    rules: dict[str, Any],
    on_change: Callable[[dict[str, Any]], None],
    *,
    ident: str = "rules",
) -> ft.Control:
    """A switch (or choice / number) per field of the game's house-rules model,
    each with its one-line explanation (the model's ``EXPLAIN``)."""
    model = load_ruleset(game).house_rules
    defaults = model().model_dump()
    latest = ft.use_ref(dict(rules))
    latest.current = dict(rules)

    def set_value(name: str, value: Any) -> None:
        new = {**(latest.current or {}), name: value}
        if new.get(name) == defaults.get(name):
            new.pop(name)
        latest.current = new
        on_change(new)

    rows: list[ft.Control] = []
    for name, info in model.model_fields.items():
        explain = model.EXPLAIN.get(name, "")
        value = rules.get(name, defaults.get(name))
        title = model.title_of(name)
        fid = f"{ident}-{name}"
        options = _literal_options(info.annotation)
        if info.annotation is bool:
            control: ft.Control = labelled(
                ft.Switch(
                    value=bool(value),
                    on_change=functools.partial(_switched, set_value, name),
                ),
                title,
                fid,
            )
        elif options is not None:
            control = ft.Row(
                [
                    labelled(
                        (ft.FilledTonalButton if value == opt else ft.TextButton)(
                            model.value_title(opt),
                            on_click=lambda _, n=name, o=opt: set_value(n, o),
                        ),
                        f"{title}: {model.value_title(opt)}",
                        f"{fid}-{opt}",
                        button=True,
                        selected=value == opt,
                    )
                    for opt in options
                ],
                wrap=True,
                spacing=4,
            )
        else:
            control = _number_field(
                fid,
                title,
                value,
                _is_optional_int(info.annotation),
                functools.partial(set_value, name),
            )
        rows.append(
            ft.Container(
                padding=ft.Padding.symmetric(vertical=4),
                content=ft.Column(
                    [
                        ft.Row(
                            [
                                ft.Text(title, weight=ft.FontWeight.W_500, expand=True),
                                control if info.annotation is bool else ft.Container(),
                            ],
                            vertical_alignment=ft.CrossAxisAlignment.CENTER,
                        ),
                        ft.Text(explain, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
                        *([] if info.annotation is bool else [control]),
                    ],
                    spacing=2,
                ),
            )
        )
    return ft.Column(rows, spacing=2)
