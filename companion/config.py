"""Where the app keeps its data, and other start-up settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion.storage import default_data_dir

_PACKAGE = Path(__file__).resolve().parent


def _shipped(name: str) -> Path:
    """``assets``/``seeds``: inside the installed wheel, or beside the package in a checkout."""
    inside = _PACKAGE / f"_{name}"
    return inside if inside.is_dir() else _PACKAGE.parent / name


ASSETS_DIR = _shipped("assets")
SEEDS_DIR = _shipped("seeds")

__all__ = ["ASSETS_DIR", "SEEDS_DIR", "AppConfig", "default_data_dir"]


@dataclass(frozen=True)
class AppConfig:
    data_dir: Path = field(default_factory=default_data_dir)
    web: bool = False
