"""Where the app keeps its data, and other start-up settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion.storage import default_data_dir

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
SEEDS_DIR = Path(__file__).resolve().parent.parent / "seeds"

__all__ = ["ASSETS_DIR", "SEEDS_DIR", "AppConfig", "default_data_dir"]


@dataclass(frozen=True)
class AppConfig:
    data_dir: Path = field(default_factory=default_data_dir)
    web: bool = False
