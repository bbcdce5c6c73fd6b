"""Rummoli's panels (mirrors rulesets/rummoli)."""
