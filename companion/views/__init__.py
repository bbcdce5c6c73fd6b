"""Screens: one ``@ft.component`` per file, each returning an ``ft.View``."""
