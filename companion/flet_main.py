"""Entry point for ``flet build`` (Android/iOS packaging): the app with default settings."""

from __future__ import annotations

import flet as ft

from companion.app import build_main
from companion.config import AppConfig

#: history-list lines are saved off the tap's path (the hub's listing's worker)
main = build_main(AppConfig(), deferred=True)

if __name__ == "__main__":
    ft.run(main)
