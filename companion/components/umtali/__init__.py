"""Umtali's panels (mirrors rulesets/umtali)."""
