"""Who may do what: the host, the phones that joined with the PIN, and the table itself.

Table mode puts a PIN in front of the app: the host opens a one-time link, phones
join with the PIN (wrong PINs limited per address and for the whole table), ending
the table drops every phone, and the table is kept through a restart
(``table.json``, tokens only as hashes).  Roles are enforced on the server: a
device at a table reaches the history through a :class:`GuardedRepository` that
checks its :class:`Capability` on every call and raises :class:`NotAllowed`;
anything the guard does not know is host-only.  The whole design:
``docs/ARCHITECTURE.md``, section 3.2.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from companion.storage import GameRepository, StorageError

__all__ = [
    "Capability",
    "Device",
    "GuardedRepository",
    "JoinResult",
    "NotAllowed",
    "Role",
    "Table",
    "new_pin",
]

log = logging.getLogger(__name__)

#: the table's file in the data folder: PIN, host links and device tokens (hashed)
TABLE_FILE = "table.json"
TABLE_VERSION = 1
PIN_DIGITS = 6
FREE_TRIES = 5
FIRST_WAIT = 30.0
LONGEST_WAIT = 3600.0
#: wrong PINs from all addresses together before the host is asked (a forged address
#: gets its own per-address count; this one it cannot escape)
TABLE_MISSES = 30
TABLE_LOCKED = (
    "Too many wrong PINs were typed at this table. Ask the host to let new phones try "
    "again on the table screen."
)


class Role(StrEnum):
    HOST = "host"
    PHONE = "phone"


class Capability(StrEnum):
    """What a device may do; the value completes "Only the host can …"."""

    VIEW = "view games, history and rules"
    PLAY = "enter entries and start games"
    DELETE = "delete or restore games"
    BACKUP = "import or export backups"
    SETTINGS = "change settings and default house rules"
    PLAYERS = "rename or merge players"
    DATA_PATH = "see the data folder"
    RUN_TABLE = "run the table"


ALLOWED: dict[Role, frozenset[Capability]] = {
    Role.HOST: frozenset(Capability),
    Role.PHONE: frozenset({Capability.VIEW, Capability.PLAY}),
}


class NotAllowed(StorageError, PermissionError):
    """A device asked for something its role may not do (the message says who may)."""


@dataclass
class Device:
    """One device: the host, a phone at the table, or the one screen without a table."""

    id: str
    role: Role
    number: int = 0
    seat: str | None = None
    #: False once the table ended (or before the device joined): it may do nothing
    active: bool = True
    #: True for a device at a table of several (private hands show only on their seat)
    at_table: bool = False
    #: when its connection dropped (None: connected), and the hub revision each game it
    #: showed was at then -- so its next screen can say what it missed
    offline_since: float | None = None
    seen: dict[str, int] = field(default_factory=dict)

    @property
    def words(self) -> str:
        """How others read this device in "who did what": its seat, else its role."""
        if self.seat:
            return self.seat
        if not self.at_table:
            return "Another window"
        return "The host" if self.role is Role.HOST else f"Phone {self.number}"

    def can(self, need: Capability) -> bool:
        return self.active and need in ALLOWED[self.role]

    def require(self, need: Capability) -> None:
        """Raise :class:`NotAllowed` unless this device may do ``need``."""
        if not self.active:
            raise NotAllowed("This device is not at the table any more; join again with the PIN.")
        if need not in ALLOWED[self.role]:
            raise NotAllowed(f"Only the host can {need.value}.")


def solo_device() -> Device:
    """The one device of an app without a table: it may do everything."""
    return Device(id="solo", role=Role.HOST)


def nobody() -> Device:
    """A device that has not joined (yet): it may do nothing."""
    return Device(id="nobody", role=Role.PHONE, active=False, at_table=True)


# ---- the repository as one device may use it ------------------------------------------------

_NEEDS: dict[str, Capability] = {
    "get_game": Capability.VIEW,
    "snapshot": Capability.VIEW,
    "game_revision": Capability.VIEW,
    "list_games": Capability.VIEW,
    "list_players": Capability.VIEW,
    "create_game": Capability.PLAY,
    "add_player": Capability.PLAY,
    "append_action": Capability.PLAY,
    "append_actions": Capability.PLAY,
    "writer_lock": Capability.PLAY,
    "pop_action": Capability.PLAY,
    "replace_actions": Capability.PLAY,
    "set_summary": Capability.PLAY,
    "delete_game": Capability.DELETE,
    "restore_game": Capability.DELETE,
    "list_trash": Capability.DELETE,
    "import_json": Capability.BACKUP,
    "export_json": Capability.BACKUP,
    "export_csv": Capability.BACKUP,
    "rename_player": Capability.PLAYERS,
    "merge_players": Capability.PLAYERS,
}


class GuardedRepository:
    """The history as one device may use it: each call checks the device's role first.

    ``inner`` is the shared repository: the one the server's hub of live games owns
    (every session's services are given that hub; see :mod:`companion.services`).
    Methods not listed in ``_NEEDS`` are host-only.  ``data_dir``, ``problems``
    and ``problem_reports`` (which name files) read as None / empty for a device
    that may not see the data folder, so the screens that show them still draw.
    """

    def __init__(self, inner: GameRepository, device: Callable[[], Device]) -> None:
        self._inner = inner
        self._device = device

    @property
    def inner(self) -> GameRepository:
        return self._inner

    @property
    def device(self) -> Device:
        return self._device()

    @property
    def data_dir(self) -> Path | None:
        return self._inner.data_dir if self._device().can(Capability.DATA_PATH) else None

    @property
    def problems(self) -> list[str]:
        return self._inner.problems if self._device().can(Capability.DATA_PATH) else []

    def problem_reports(self) -> list[Any]:
        """Files set aside, with notes naming the data folder: none, for a phone."""
        if not self._device().can(Capability.DATA_PATH):
            return []
        inner: Any = self._inner
        return list(inner.problem_reports())

    def close(self) -> None:
        """Closing is the server's business, not a device's."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        self._device().require(_NEEDS.get(name, Capability.SETTINGS))
        return getattr(self._inner, name)


# ---- the table: PIN, host link, devices ---------------------------------------------------


def new_pin() -> str:
    """A random 6-digit PIN (leading zeros kept)."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class JoinResult:
    """A PIN attempt: the device and its token, or why not (and how long to wait)."""

    device: Device | None = None
    token: str = ""
    refusal: str = ""
    wait: float = 0.0


@dataclass
class _Tries:
    misses: int = 0
    until: float = 0.0


@dataclass
class Table:
    """The table of one server process: its PIN, host link and joined devices."""

    pin: str = field(default_factory=new_pin)
    clock: Callable[[], float] = time.monotonic
    _host_links: set[str] = field(default_factory=set)
    _devices: dict[str, Device] = field(default_factory=dict)
    _tries: dict[str, _Tries] = field(default_factory=dict)
    _next_number: int = 1
    #: wrong PINs from every address together since the host last let new phones try
    _table_misses: int = 0
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _listeners: list[weakref.ref[Callable[[], None]] | Callable[[], None]] = field(
        default_factory=list
    )
    #: bumped whenever devices join, leave or the table ends (screens listing them follow)
    revision: int = 0
    #: where the table is kept (the data folder's table.json); None: in memory only
    path: Path | None = None

    def __post_init__(self) -> None:
        if len(self.pin) != PIN_DIGITS or not self.pin.isdigit():
            raise ValueError(f"{self.pin!r}: a PIN is {PIN_DIGITS} digits")

    # -- kept in the data folder -------------------------------------------------------------
    @classmethod
    def open(
        cls, path: Path, pin: str | None = None, clock: Callable[[], float] = time.monotonic
    ) -> Table:
        """The table kept at ``path`` (a fresh one if there is none): after a restart the
        PIN, the host and every joined phone are still there -- their tokens still work --
        unless a new ``pin`` is given.  Only hashes of tokens and links are kept."""
        table = cls(pin=pin or new_pin(), clock=clock, path=path)
        try:
            kept = json.loads(path.read_bytes()) if path.exists() else None
        except (OSError, ValueError) as exc:
            log.warning("the table in %s could not be read (%s): a new table starts", path, exc)
            kept = None
        if isinstance(kept, dict) and kept.get("v") == TABLE_VERSION:
            table._restore(kept, keep_pin=not pin)
        table._save()
        return table

    def _restore(self, kept: dict[str, Any], *, keep_pin: bool) -> None:
        stored_pin = str(kept.get("pin", ""))
        if keep_pin and len(stored_pin) == PIN_DIGITS and stored_pin.isdigit():
            self.pin = stored_pin
        self._host_links = {str(d) for d in kept.get("host_links", [])}
        for item in kept.get("devices", []):
            try:
                device = Device(
                    id=str(item["id"]),
                    role=Role(item["role"]),
                    number=int(item.get("number", 0)),
                    seat=item.get("seat") or None,
                    at_table=True,
                )
            except (KeyError, TypeError, ValueError):
                continue  # one unreadable device: the others still come back
            self._devices[str(item["digest"])] = device
        numbers = [d.number for d in self._devices.values()]
        self._next_number = max([int(kept.get("next_number", 1)), *[n + 1 for n in numbers]])
        for client, misses in dict(kept.get("misses", {})).items():
            self._tries[str(client)] = _Tries(int(misses), self._until(int(misses)))
        self._table_misses = int(kept.get("table_misses", 0))

    def _state(self) -> dict[str, Any]:
        devices = [
            {"digest": digest, "id": d.id, "role": d.role.value, "number": d.number, "seat": d.seat}
            for digest, d in self._devices.items()
            if d.active
        ]
        return {
            "v": TABLE_VERSION,
            "pin": self.pin,
            "host_links": sorted(self._host_links),
            "devices": devices,
            "next_number": self._next_number,
            "misses": {c: t.misses for c, t in self._tries.items() if t.misses},
            "table_misses": self._table_misses,
        }

    def _save(self) -> None:
        """Keep the table in its file (a failed write is logged: the table goes on in memory)."""
        if self.path is None:
            return
        data = json.dumps(self._state(), sort_keys=True).encode()
        try:
            _write_private(self.path, data)
        except OSError as exc:
            log.warning("the table could not be kept in %s: %s", self.path, exc)

    # -- the host -----------------------------------------------------------------------------
    def host_link(self) -> str:
        """A new one-time host link token (the terminal prints the first one)."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._host_links.add(_digest(token))
            self._save()
        return token

    def claim_host(self, link: str) -> JoinResult:
        """The device that opens a host link becomes a host; the link then stops working."""
        digest = _digest(link)
        with self._lock:
            found = next((d for d in self._host_links if hmac.compare_digest(d, digest)), None)
            if found is None:
                return JoinResult(refusal="This host link was already used or is not valid.")
            self._host_links.discard(found)
            return self._admit(Role.HOST)

    # -- phones ---------------------------------------------------------------------------------
    def wait_left(self, client: str) -> float:
        """Seconds ``client`` must wait before its next PIN is looked at (0: none)."""
        with self._lock:
            tries = self._tries.get(client)
            return max(0.0, tries.until - self.clock()) if tries else 0.0

    def join(self, client: str, pin: str) -> JoinResult:
        """A PIN typed on ``client`` (its network address); never logged.

        Two limits: per address (:data:`FREE_TRIES`, then a growing wait), and for the
        whole table (:data:`TABLE_MISSES` wrong PINs from all addresses together, then no
        PIN is looked at until the host lets new phones try).  Neither is cleared by a
        phone getting in, nor by ending the table."""
        with self._lock:
            wait = self.wait_left(client)
            if wait > 0:
                return JoinResult(refusal=_wait_words(wait), wait=wait)
            if self.locked:
                return JoinResult(refusal=TABLE_LOCKED)
            typed = "".join(pin.split())
            if hmac.compare_digest(typed.encode(), self.pin.encode()):
                return self._admit(Role.PHONE)
            tries = self._tries.setdefault(client, _Tries())
            tries.misses += 1
            tries.until = self._until(tries.misses)
            self._table_misses += 1
            if self.locked:
                self._changed()  # the host's table screen asks
            else:
                self._save()
            if tries.misses < FREE_TRIES:
                left = FREE_TRIES - tries.misses
                return JoinResult(
                    refusal=f"That is not the PIN. {left} more {'try' if left == 1 else 'tries'} "
                    "before a wait."
                )
            wait = tries.until - self.clock()
            return JoinResult(refusal=f"That is not the PIN. {_wait_words(wait)}", wait=wait)

    def _until(self, misses: int) -> float:
        """When an address with ``misses`` wrong PINs may try again (0: at once)."""
        if misses < FREE_TRIES:
            return 0.0
        wait = min(LONGEST_WAIT, FIRST_WAIT * 2.0 ** (misses - FREE_TRIES))
        return self.clock() + wait

    @property
    def locked(self) -> bool:
        """Too many wrong PINs at this table: no new phone may try until the host allows."""
        return self._table_misses >= TABLE_MISSES

    @property
    def table_misses(self) -> int:
        return self._table_misses

    def let_phones_try(self, by: Device) -> None:
        """The host lets new phones try the PIN again (after :attr:`locked`)."""
        by.require(Capability.RUN_TABLE)
        with self._lock:
            self._table_misses = 0
            self._changed()

    def _admit(self, role: Role) -> JoinResult:
        token = secrets.token_urlsafe(24)
        device = Device(
            id=secrets.token_hex(6),
            role=role,
            number=0 if role is Role.HOST else self._take_number(),
            at_table=True,
        )
        self._devices[_digest(token)] = device
        self._changed()
        return JoinResult(device=device, token=token)

    def _take_number(self) -> int:
        number = self._next_number
        self._next_number += 1
        return number

    def device(self, token: str | None) -> Device | None:
        """The joined device holding ``token`` (from its client storage), if any."""
        if not token or not isinstance(token, str):
            return None
        with self._lock:
            device = self._devices.get(_digest(token))
            return device if device is not None and device.active else None

    def devices(self) -> list[Device]:
        with self._lock:
            return sorted(
                (d for d in self._devices.values() if d.active),
                key=lambda d: (d.role is not Role.HOST, d.number),
            )

    def seat_holder(self, seat: str) -> Device | None:
        """The joined device sitting in ``seat`` (a player's name), if any."""
        with self._lock:
            return next((d for d in self._devices.values() if d.active and d.seat == seat), None)

    def set_seat(self, device: Device, seat: str | None) -> str:
        """ "I am Ann": one device per seat.  Returns why not ("" when seated).

        A private hand shows only on its seat's device, so a seat another device
        holds is refused; the host can free it (:meth:`free_seat`)."""
        with self._lock:
            seat = seat or None
            holder = self.seat_holder(seat) if seat else None
            if holder is not None and holder is not device:
                return seat_taken(seat or "")
            device.seat = seat
            self._changed()
            return ""

    def free_seat(self, by: Device, device_id: str) -> None:
        """The host frees the seat of a device (a phone left, or sits in the wrong place)."""
        by.require(Capability.RUN_TABLE)
        with self._lock:
            for device in self._devices.values():
                if device.id == device_id:
                    device.seat = None
            self._changed()

    def end(self, by: Device) -> str:
        """Drop every joined phone (the host stays) and pick a new PIN; returns it."""
        by.require(Capability.RUN_TABLE)
        with self._lock:
            for digest, device in list(self._devices.items()):
                if device.role is Role.PHONE:
                    device.active = False
                    del self._devices[digest]
            self.pin = new_pin()  # the wrong PINs counted so far still count
            self._changed()
            return self.pin

    # -- screens that follow the table ----------------------------------------------------------
    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` after devices join or leave or the table ends."""
        ref: weakref.ref[Callable[[], None]] | Callable[[], None] = listener
        if hasattr(listener, "__self__"):
            ref = weakref.WeakMethod(listener)
        with self._lock:
            self._listeners.append(ref)

        def unsubscribe() -> None:
            with self._lock:
                if ref in self._listeners:
                    self._listeners.remove(ref)

        return unsubscribe

    def _changed(self) -> None:
        self.revision += 1
        self._save()
        listeners = list(self._listeners)
        for ref in listeners:
            fn = ref() if isinstance(ref, weakref.ref) else ref
            if fn is None:
                self._listeners.remove(ref)
            else:
                fn()


def _write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` (old or new after a crash), readable by this user only."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def seat_taken(seat: str) -> str:
    """Why a seat cannot be taken, in words."""
    return f"{seat}'s seat is taken on another phone. The host can free it on the table screen."


def _wait_words(wait: float) -> str:
    seconds = int(wait + 0.999)
    if seconds < 120:
        return f"Too many wrong PINs: wait {seconds} s before the next try."
    return f"Too many wrong PINs: wait {seconds // 60} min before the next try."
