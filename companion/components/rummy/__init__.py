"""Rummy's panels (mirrors rulesets/rummy)."""
