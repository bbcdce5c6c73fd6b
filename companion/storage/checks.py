"""Input checks every backend runs before it stores anything (messages are for players)."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from companion import jsonsafe
from companion.storage.base import (
    MAX_ACTION_BYTES,
    MAX_ACTIONS,
    MAX_GAME_NAME,
    MAX_NAME,
    MAX_RULES_BYTES,
    MAX_SUMMARY_BYTES,
)
from companion.storage.files import VALUE_DEPTH
from companion.storage.models import (
    GameListItem,
    GameStatus,
    StaleGameError,
    StorageError,
    StoredGame,
    check_summary_shape,
)


def _plain_text(text: str) -> bool:
    """No control characters, no lone surrogates (they cannot be saved as UTF-8)."""
    return not any(unicodedata.category(c) in ("Cc", "Cs") for c in text)


def check_revision(game_id: str, revision: int, expected: int | None) -> None:
    """Refuse a write made from an older reading of the game (see :class:`StaleGameError`)."""
    if expected is not None and expected != revision:
        raise StaleGameError(
            f"game {game_id} changed since it was read (revision {revision}, not {expected})",
            revision,
        )


def check_name(name: Any, what: str = "player name") -> str:
    if not isinstance(name, str) or not name.strip():
        raise StorageError(f"{name!r:.80}: a {what} cannot be empty")
    text: str = name.strip()
    limit = MAX_GAME_NAME if what == "game name" else MAX_NAME
    if len(text) > limit:
        raise StorageError(f"{text[:40]!r}...: a {what} has at most {limit} characters")
    if not _plain_text(text):
        raise StorageError(f"{text!r:.80}: a {what} cannot hold control characters")
    return text


def check_merge(
    source: str, target: str, src: str | None, dst: str | None, games: Iterable[StoredGame]
) -> tuple[str, str]:
    """Refuse a merge of unknown, identical, or co-seated players; return the stored names."""
    if src is None or dst is None:
        missing = source if src is None else target
        raise StorageError(f"{missing!r}: no such player")
    if src == dst:
        raise StorageError(f"{source!r} and {target!r} are the same player")
    both = [g for g in games if src in g.players and dst in g.players]
    if both:
        raise StorageError(
            f"cannot merge {source!r} into {target!r}: both played in {len(both)} game(s)"
        )
    return src, dst


def check_rename(key: str, new: str, games: Iterable[StoredGame]) -> None:
    """Refuse a new name someone else already has at one of the player's games."""
    both = [g for g in games if key in g.players and new in g.players and new != key]
    if both:
        raise StorageError(f"{new!r} already played in {len(both)} game(s) with {key!r}")


def check_players(players: Any) -> list[str]:
    if isinstance(players, str) or not isinstance(players, list | tuple) or not players:
        raise StorageError(f"{players!r:.80}: a game needs a list of at least one player")
    names = [check_name(p) for p in players]
    seen: set[str] = set()
    for n in names:
        if n.casefold() in seen:
            raise StorageError(f"{', '.join(names)}: {n!r} appears twice among the players")
        seen.add(n.casefold())
    return names


#: compact JSON, as stored (one encoder for every check: ``json.dumps`` with options builds one
#: per call)
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


def value_json(value: Any, what: str, max_bytes: int) -> bytes:
    """``value`` as compact UTF-8 JSON, within the nesting and size limits, or StorageError.

    The bytes a log line embeds as they are: a save checks and encodes its action once."""
    if jsonsafe.depth_of(value, VALUE_DEPTH) > VALUE_DEPTH:
        raise StorageError(f"{what} is nested more than {VALUE_DEPTH} levels deep")
    try:
        data = _ENCODE(value).encode("utf-8")
    except (TypeError, ValueError, RecursionError) as exc:
        raise StorageError(f"{value!r:.80}: {what} must be plain JSON ({exc})") from None
    if len(data) > max_bytes:
        raise StorageError(f"{what} is too big ({len(data):,} bytes; at most {max_bytes:,})")
    return data


def check_value(value: Any, what: str, max_bytes: int) -> Any:
    """A copy of ``value`` as plain JSON, within the nesting and size limits, or StorageError."""
    return json.loads(value_json(value, what, max_bytes))


def action_json(action: Any) -> bytes:
    """An action checked (as :func:`check_action`) and encoded, for a log line."""
    if not isinstance(action, dict):
        raise StorageError(f"{action!r:.80}: an action must be a JSON object (dict)")
    return value_json(action, "an action", MAX_ACTION_BYTES)


def check_action(action: Any) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(action_json(action))
    return copy


def check_rules(rules: Any) -> dict[str, Any]:
    if not isinstance(rules, dict):
        raise StorageError(f"{rules!r:.80}: house rules must be a JSON object (dict)")
    copy: dict[str, Any] = check_value(rules, "the house rules", MAX_RULES_BYTES)
    return copy


def check_summary(summary: Any) -> dict[str, Any] | None:
    if summary is None:
        return None
    if not isinstance(summary, dict):
        raise StorageError(f"{summary!r:.80}: a summary must be a JSON object (dict)")
    copy: dict[str, Any] = check_value(summary, "a summary", MAX_SUMMARY_BYTES)
    try:
        check_summary_shape(copy)
    except ValueError as exc:
        raise StorageError(str(exc)) from None
    return copy


def check_status(status: Any) -> GameStatus:
    if status not in ("in_progress", "finished"):
        raise StorageError(f"{status!r:.40}: status must be 'in_progress' or 'finished'")
    checked: GameStatus = status
    return checked


def check_game(game: StoredGame) -> StoredGame:
    """Everything :meth:`create_game` and :meth:`append_action` would have refused."""
    check_players(game.players)
    check_name(game.game, "game name")
    check_rules(game.rules)
    if len(game.actions) > MAX_ACTIONS:
        raise StorageError(f"{len(game.actions):,} actions (at most {MAX_ACTIONS:,})")
    for action in game.actions:
        check_action(action)
    check_summary(game.summary)
    for stamp in (game.created, game.updated):
        try:
            datetime.fromisoformat(stamp)
        except ValueError:
            raise StorageError(f"{stamp!r:.40} is not a date and time") from None
    return game


def rename_in(value: Any, old: str, new: str) -> Any:
    """Replace the player name ``old`` by ``new`` in every string and dict key of ``value``."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [rename_in(v, old, new) for v in value]
    if isinstance(value, dict):
        return {(new if k == old else k): rename_in(v, old, new) for k, v in value.items()}
    return value


def renamed(game: StoredGame, old: str, new: str) -> StoredGame:
    data = game.model_dump(mode="json")
    for name in ("players", "actions", "summary"):
        data[name] = rename_in(data[name], old, new)
    return StoredGame.model_validate(data)


def describe(item: GameListItem | StoredGame) -> str:
    """Plain words for a game, e.g. 'the umtali game of 2026-11-29 with Ann, Bob'."""
    return f"the {item.game} game of {item.created[:10]} with {', '.join(item.players)}"


def sort_key(item: GameListItem | StoredGame) -> tuple[str, str]:
    return (item.created, item.id)


def matches(item: GameListItem | StoredGame, game: str | None, player: str | None) -> bool:
    if game is not None and item.game != game:
        return False
    return player is None or player in item.players
