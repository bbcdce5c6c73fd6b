"""What every screen can reach: the configuration, the history and shared UI state.

Views get it with ``use_services()``; it is provided once at the root.  The
repository is opened once per process and shared by every browser session
(it serialises writers with a file lock).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import flet as ft

from companion.config import AppConfig
from companion.storage import GameRepository


@ft.observable
@dataclass
class UiState:
    """Per-session UI state that several screens share."""

    dark: bool | None = None  # None = follow the system
    #: bumped whenever history changes, so lists that show it re-read it
    history_revision: int = 0
    #: a one-line message for the snackbar ("Game deleted" with Undo, "Saved", ...)
    notice: str = ""


@dataclass
class Services:
    config: AppConfig
    repo: GameRepository
    ui: UiState = field(default_factory=UiState)

    def history_changed(self) -> None:
        self.ui.history_revision += 1


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
