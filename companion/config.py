"""Where the app keeps its data, and other start-up settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

APP_NAME = "rummy-companion"
ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
SEEDS_DIR = Path(__file__).resolve().parent.parent / "seeds"


def default_data_dir() -> Path:
    """The platform's user data folder for the app (e.g. ~/.local/share/rummy-companion)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


@dataclass(frozen=True)
class AppConfig:
    data_dir: Path = field(default_factory=default_data_dir)
    web: bool = False
