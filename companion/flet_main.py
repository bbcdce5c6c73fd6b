"""Entry point for ``flet build`` (Android/iOS packaging): the app with default settings."""

from __future__ import annotations

import flet as ft

from companion.app import build_main
from companion.config import AppConfig
from companion.hub import defer_listing

defer_listing()

main = build_main(AppConfig())

if __name__ == "__main__":
    ft.run(main)
