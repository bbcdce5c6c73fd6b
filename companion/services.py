"""What every screen can reach: the configuration and the shared app state.

Views get it with ``use_services()``; it is provided once at the root.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import flet as ft

from companion.config import AppConfig


@ft.observable
@dataclass
class UiState:
    """Per-session UI state that several screens share."""

    dark: bool | None = None  # None = follow the system


@dataclass
class Services:
    config: AppConfig
    ui: UiState = field(default_factory=UiState)


_NO_SERVICES: Services | None = None
ServicesContext = ft.create_context(_NO_SERVICES)


def use_services() -> Services:
    services = ft.use_context(ServicesContext)
    if services is None:  # pragma: no cover - a programming error
        raise RuntimeError("Services not provided: render views inside App")
    return services


def use_ui() -> UiState:
    """The shared UI state, re-rendering the calling component when it changes."""
    ui, _ = ft.use_state(use_services().ui)
    return ui
