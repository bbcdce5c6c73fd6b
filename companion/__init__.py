"""Rummy Companion: the Flet app that sits beside a real card table."""

__version__ = "0.1.0"
