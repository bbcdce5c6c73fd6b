"""Reusable Flet components (cards, pickers, verdict banners)."""
