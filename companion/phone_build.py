"""``companion build-phone DIR``: the whole app as a static folder that runs in a phone's browser.

The folder holds Flet's web client (from the installed ``flet-web``), the
Pyodide runtime that ``flet-web`` ships (no CDN), one archive
(``app.tar.gz``) with the app's Python code and every package it needs
already unpacked (``__pypackages__/``, from the wheels resolved here), a web
manifest with the app's icons and theme colour, and a service worker that
caches all of it on the first load, so the app starts with no network after
that.

The packages are unpacked at build time, not installed by micropip at each
start: the worker's one ``unpack_archive`` puts them in place and
``__pypackages__`` goes on ``sys.path`` (a mechanism of flet's own worker),
so a start neither loads micropip nor fetches and unzips fifteen wheels.

``flet publish`` does the same steps but fetches a python-build manifest and
a Pyodide tarball from GitHub, and lets micropip resolve dependencies from
PyPI at run time; neither works offline.  This module uses ``flet-web``'s own
patch helpers and the Pyodide runtime already in the ``flet-web`` wheel, and
resolves the wheels here, at build time (``pip download`` for the WebAssembly
platform of that runtime), so the phone never needs an index.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

try:
    from packaging.markers import default_environment
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name, parse_wheel_filename
except ImportError:  # pragma: no cover - the "phone" extra
    raise ImportError(
        "companion build-phone needs the packaging library: pip install -e '.[phone]'"
    ) from None

__all__ = [
    "BROWSER_ROOTS",
    "BuildReport",
    "PhoneBuildError",
    "browser_requirements",
    "build_phone",
]

_ROOT = Path(__file__).resolve().parent.parent
APP_NAME = "Rummy Companion"
SHORT_NAME = "Rummy"
THEME_COLOR = "#2E7D32"  # card-table green, the app's seed colour
BACKGROUND_COLOR = "#FFFFFF"
ENTRY_MODULE = "main"

#: what the app imports in a browser; everything else follows from their requirements.
#: Not here: rapidfuzz (no WebAssembly wheel; the rules search has a pure fallback),
#: uvicorn/flet-web/flet-desktop (the table server and the desktop window do not run there).
BROWSER_ROOTS = (
    "flet",
    "flet-charts",
    "pydantic",
    "tinydb",
    "pokerkit",
    "segno",
    "platformdirs",
    "filelock",
)

#: files of the web client the app never asks for: debug symbols, source maps,
#: Pyodide's command-line runner, and the renderers Flutter's loader never picks here
#: (skwasm_heavy is for a browser without image codecs or Chromium's break iterators,
#: but skwasm is offered to Chromium alone, which has both; wimp is opt-in)
_UNUSED = re.compile(
    r"(\.symbols|\.map|\.d\.ts)$"
    r"|^canvaskit/(skwasm_heavy|wimp)\.(js|wasm)$"
    r"|^canvaskit/experimental_webparagraph/"
    r"|^pyodide/(python|python\.bat|python\.exe|python_cli_entry\.mjs|package\.json)$"
    r"|^flutter_service_worker\.js$"
)

#: the Rive runtime the web client reaches for on jsDelivr at every start (the app
#: shows no Rive animation); pointed at this folder, where it is absent, it is never
#: a request to anything but the app's own origin
_RIVE_CDN = "https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"
_RIVE_LOCAL = "rive-absent/"


class PhoneBuildError(RuntimeError):
    """The phone build could not be made (the message says what to do)."""


@dataclass(frozen=True)
class BuildReport:
    folder: Path
    wheels: dict[str, int]  # file name -> bytes
    total_bytes: int
    app_bytes: int
    files: int

    def describe(self) -> str:
        mb = 1024 * 1024
        lines = [
            f"Built the phone app in {self.folder} "
            f"({self.total_bytes / mb:.1f} MB, {self.files} files; "
            f"app code and packages {self.app_bytes / 1024:.0f} KB, compressed)",
            "Wheels unpacked into it:",
        ]
        for name, size in sorted(self.wheels.items(), key=lambda kv: -kv[1]):
            lines.append(f"  {size / 1024:8.0f} KB  {name}")
        lines.append(
            f"Serve it once, e.g.: python -m http.server -d {self.folder} 8000, "
            "then open the address on the phone and add it to the home screen."
        )
        return "\n".join(lines)


# ---- the runtime ----------------------------------------------------------------------------
def web_client_dir() -> Path:
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir())


def pyodide_info(web: Path) -> dict[str, str]:
    """Python version and wheel platform of the Pyodide runtime inside ``flet-web``."""
    lock = json.loads((web / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    info = lock["info"]
    return {
        "python": str(info["python"]),
        "platform": f"pyemscripten_{info['abi_version']}_{info['arch']}",
    }


# ---- the wheels -----------------------------------------------------------------------------
def _browser_environment(python: str) -> dict[str, str]:
    env: dict[str, str] = {k: str(v) for k, v in default_environment().items()}
    short = ".".join(python.split(".")[:2])
    env.update(
        sys_platform="emscripten",
        platform_system="Emscripten",
        os_name="posix",
        platform_machine="wasm32",
        python_version=short,
        python_full_version=python,
        implementation_name="cpython",
        platform_python_implementation="CPython",
    )
    return env


def browser_requirements(python: str, roots: Iterable[str] = BROWSER_ROOTS) -> dict[str, str]:
    """Every distribution the roots need in a browser, pinned to the version installed here.

    Requirements are followed with the markers of the browser (``sys_platform ==
    "emscripten"``, its Python version), so a dependency that a package skips on
    Emscripten (flet's httpx, oauthlib) is not shipped.  Pinning to what is installed
    means the phone runs exactly the versions the tests ran.
    """
    env = _browser_environment(python)
    pins: dict[str, str] = {}
    todo = [Requirement(r) for r in roots]
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in pins:
            continue
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            raise PhoneBuildError(
                f"{req.name!r} is not installed here; install the app first (pip install -e .)"
            ) from None
        pins[name] = dist.version
        for text in dist.requires or []:
            sub = Requirement(text)
            if sub.marker is None or sub.marker.evaluate({**env, "extra": ""}):
                todo.append(sub)
    return dict(sorted(pins.items()))


def _wheel_key(path: Path) -> tuple[str, str] | None:
    try:
        name, version, _build, _tags = parse_wheel_filename(path.name)
    except ValueError:
        return None
    return canonicalize_name(name), str(version)


def fetch_wheels(pins: dict[str, str], cache: Path, info: dict[str, str]) -> list[Path]:
    """The wheel of every pin, from ``cache`` or downloaded into it (``pip download``)."""
    cache.mkdir(parents=True, exist_ok=True)
    have = {k: p for p in cache.glob("*.whl") if (k := _wheel_key(p)) is not None}
    missing = [f"{n}=={v}" for n, v in pins.items() if (n, v) not in have]
    if missing:
        short = "".join(info["python"].split(".")[:2])
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--platform",
            info["platform"],
            "--python-version",
            short,
            "--implementation",
            "cp",
            "--abi",
            f"cp{short}",
            "--disable-pip-version-check",
            "-q",
            "-d",
            str(cache),
            *missing,
        ]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise PhoneBuildError(
                "could not download the browser wheels "
                f"({' '.join(missing)}) for {info['platform']}:\n{done.stderr.strip()[-2000:]}"
            )
        have = {k: p for p in cache.glob("*.whl") if (k := _wheel_key(p)) is not None}
    lost = [f"{n}=={v}" for n, v in pins.items() if (n, v) not in have]
    if lost:
        raise PhoneBuildError(f"no wheel for {', '.join(lost)} on {info['platform']}")
    return [have[(n, v)] for n, v in pins.items()]


def default_wheel_cache() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("rummy-companion", appauthor=False)) / "phone-wheels"


# ---- the app package ------------------------------------------------------------------------
_ENTRY = '''"""Rummy Companion in the browser (made by ``companion build-phone``)."""

import flet as ft

from companion.phone import main

ft.run(main)
'''


def _add_tree(tar: tarfile.TarFile, src: Path, arcname: str) -> None:
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if path.is_dir() or "__pycache__" in rel.parts or path.suffix in (".pyc", ".pyo"):
            continue
        tar.add(path, arcname=f"{arcname}/{rel.as_posix()}", recursive=False)


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 0
    tar.addfile(info, io.BytesIO(data))


#: where flet's worker looks for packages shipped inside the app archive
PACKAGES = "__pypackages__"


def _add_wheel(tar: tarfile.TarFile, wheel: Path, seen: set[str]) -> None:
    """A wheel's files, as an installer would lay them out, under ``__pypackages__``.

    A wheel's ``.data/purelib`` and ``.data/platlib`` go beside its packages;
    its other ``.data`` (scripts, headers, man pages) have no use in a
    browser and are left out.  A path two wheels share is refused (an
    installer would have overwritten one with the other).
    """
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            name = info.filename
            parts = name.split("/")
            if name.startswith("/") or ".." in parts:
                raise PhoneBuildError(f"{wheel.name} holds an unsafe path: {name}")
            if parts[0].endswith(".data") and len(parts) > 2:
                if parts[1] not in ("purelib", "platlib"):
                    continue
                name = "/".join(parts[2:])
            if name in seen:
                raise PhoneBuildError(f"{wheel.name} and another wheel both hold {name}")
            seen.add(name)
            _add_bytes(tar, f"{PACKAGES}/{name}", z.read(info))


def write_app_package(dest: Path, wheels: Sequence[Path]) -> None:
    """``app.tar.gz``: the entry module, the two packages, the seeds, every wheel unpacked."""
    with tarfile.open(dest, "w:gz", format=tarfile.GNU_FORMAT) as tar:
        _add_bytes(tar, f"{ENTRY_MODULE}.py", _ENTRY.encode())
        _add_tree(tar, _ROOT / "companion", "companion")
        _add_tree(tar, _ROOT / "rulesets", "rulesets")
        seeds = _ROOT / "seeds"
        if not seeds.is_dir():  # an installed wheel keeps them inside the package
            seeds = _ROOT / "companion" / "_seeds"
        _add_tree(tar, seeds, "seeds")
        seen: set[str] = set()
        for wheel in wheels:
            _add_wheel(tar, wheel, seen)


# ---- the web client -------------------------------------------------------------------------
def _copy_client(web: Path, dest: Path) -> None:
    for path in sorted(web.rglob("*")):
        rel = path.relative_to(web).as_posix()
        if path.is_dir() or _UNUSED.search(rel):
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)


_SW_REGISTER = """<meta name="theme-color" content="{theme}">
  <script>
    // Rummy Companion: cache the whole app (sw.js) so it starts with no network.
    if ("serviceWorker" in navigator) {{
      navigator.serviceWorker.register("sw.js").catch((e) => console.warn("sw:", e));
    }}
    // ask the browser to keep the games even when space runs short
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist();
  </script>
  <script src="python.js"></script>"""


def _patch_client(dest: Path) -> None:
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web import patch_font_manifest_json, patch_index_html, patch_manifest_json

    info = pyodide_info(dest)
    index = dest / "index.html"
    patch_index_html(
        index_path=str(index),
        base_href="",
        app_name=APP_NAME,
        app_description="Keeps score, referees melds and settles chip pots at a card table.",
        pyodide=True,
        pyodide_script_path=f"{ENTRY_MODULE}.py",
        pyodide_version=info["python"],
        app_package_url="app.tar.gz",
        # Flutter's loader picks: dart2wasm with skwasm in Chromium (Android phones),
        # dart2js with CanvasKit elsewhere (Safari, Firefox).  A tap's new screen is
        # drawn ~2.5x sooner with skwasm (benchmarks/phone_start.py, verdict mode); the
        # folder carries both clients (about 12 MB more)
        web_renderer=WebRenderer.AUTO,
        # hash routes: a reload of /#/play/<id> asks a static server for / only
        route_url_strategy=RouteUrlStrategy.HASH,
        no_cdn=True,
    )
    html = index.read_text(encoding="utf-8")
    # a folder served under any path: the page's own folder, not the server's root
    html = re.sub(r'<base href="[^"]*">', '<base href="./">', html, count=1)
    html = html.replace('flet.canvasKitBaseUrl="/canvaskit/"', 'flet.canvasKitBaseUrl="canvaskit/"')
    html = html.replace('flet.entrypointBaseUrl="/"', 'flet.entrypointBaseUrl="."')
    html = html.replace('flet.assetBase="/"', 'flet.assetBase="./"')
    # the worker import()s it: a bare "pyodide/..." is not a URL to a module loader
    html = html.replace('flet.pyodideUrl="pyodide/', 'flet.pyodideUrl="./pyodide/')
    html = html.replace('<script src="python.js"></script>', _SW_REGISTER.format(theme=THEME_COLOR))
    index.write_text(html, encoding="utf-8")

    manifest = dest / "manifest.json"
    patch_manifest_json(
        manifest_path=str(manifest),
        app_name=APP_NAME,
        app_short_name=SHORT_NAME,
        app_description="Score, referee and chip pots for Umtali, Rummy and Rummoli.",
        background_color=BACKGROUND_COLOR,
        theme_color=THEME_COLOR,
    )
    patch_font_manifest_json(manifest_path=str(dest / "assets" / "FontManifest.json"))
    _icons(dest)

    # Flutter's loader would re-register its own (self-unregistering) service worker
    boot = dest / "flutter_bootstrap.js"
    text = boot.read_text(encoding="utf-8")
    text, n = re.subn(r"serviceWorkerSettings:\s*\{[^}]*\},", "", text)
    if n != 1:
        raise PhoneBuildError("flutter_bootstrap.js changed: cannot drop its service worker")
    boot.write_text(text, encoding="utf-8")

    main_js = dest / "main.dart.js"
    js = main_js.read_text(encoding="utf-8")
    if _RIVE_CDN in js:
        main_js.write_text(js.replace(_RIVE_CDN, _RIVE_LOCAL), encoding="utf-8")
    # the dart2wasm client holds the same address among its bytes: an equally long
    # one in its place keeps every offset and length of the module as it was
    main_wasm = dest / "main.dart.wasm"
    if main_wasm.exists():
        code_bytes = main_wasm.read_bytes()
        cdn = _RIVE_CDN.encode()
        local = _RIVE_LOCAL.encode().ljust(len(cdn) - 1, b"-") + b"/"
        if cdn in code_bytes:
            main_wasm.write_bytes(code_bytes.replace(cdn, local))

    worker = dest / "python-worker.js"
    code = worker.read_text(encoding="utf-8")
    # the archive's __pypackages__ holds every package, unpacked at build time; on
    # sys.path by its absolute path, so a module's __file__ does not hang on the cwd
    old = "sys.path.insert(0, pkgs_path)"
    if code.count(old) != 1:
        raise PhoneBuildError("python-worker.js changed: cannot put __pypackages__ on sys.path")
    worker.write_text(
        code.replace(old, "sys.path.insert(0, os.path.abspath(pkgs_path))"), encoding="utf-8"
    )


def _icons(dest: Path) -> None:
    """The app's own icon (assets/icon.png, 512 px) in every slot the manifest names."""
    icon = _ROOT / "assets" / "icon.png"
    if not icon.exists():
        icon = _ROOT / "companion" / "_assets" / "icon.png"
    icons = dest / "icons"
    for name in ("icon-512.png", "icon-maskable-512.png"):
        shutil.copy2(icon, icons / name)
    for name in ("icon-192.png", "icon-maskable-192.png", "apple-touch-icon-192.png"):
        _resized(icon, icons / name, 192)
    shutil.copy2(_ROOT / "assets" / "favicon.png", dest / "favicon.png")


def _resized(src: Path, dest: Path, px: int) -> None:
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - no Pillow: the 512 px icon, scaled by the phone
        shutil.copy2(src, dest)
        return
    with Image.open(src) as im:
        im.resize((px, px), Image.Resampling.LANCZOS).save(dest)


def _copy_assets(dest: Path) -> None:
    assets = _ROOT / "assets"
    if not assets.is_dir():
        assets = _ROOT / "companion" / "_assets"
    for path in sorted(assets.rglob("*")):
        rel = path.relative_to(assets)
        if path.is_file() and rel.parts[0] == "fonts" and path.suffix in (".ttf", ".otf"):
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


_SW = """// Rummy Companion service worker (made by companion build-phone).
// Caches every file of the build on install, so the app, Pyodide and the packages
// load with no network afterwards; answers from the cache first.
const CACHE = "rummy-companion-%(version)s";
const FILES = %(files)s;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const key = request.mode === "navigate" ? "./" : request;
    const hit = await cache.match(key, { ignoreSearch: true });
    if (hit) return hit;
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  })());
});
"""


def _write_service_worker(dest: Path) -> None:
    files = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode())
        digest.update((dest / rel).read_bytes())
    urls = ["./", *files]
    (dest / "sw.js").write_text(
        _SW % {"version": digest.hexdigest()[:12], "files": json.dumps(urls, indent=1)},
        encoding="utf-8",
    )


# ---- the command ----------------------------------------------------------------------------
def build_phone(folder: Path, wheel_cache: Path | None = None) -> BuildReport:
    """Make the static phone build in ``folder`` (replacing what an earlier build left)."""
    folder = folder.resolve()
    web = web_client_dir()
    if not (web / "pyodide" / "pyodide-lock.json").exists():
        raise PhoneBuildError(f"{web} has no Pyodide runtime: install flet-web 1.0.5")
    if folder.exists() and any(folder.iterdir()) and not (folder / "sw.js").exists():
        raise PhoneBuildError(f"{folder} is not empty and not an earlier phone build")
    info = pyodide_info(web)
    wheels = fetch_wheels(
        browser_requirements(info["python"]), wheel_cache or default_wheel_cache(), info
    )
    # built beside the folder and swapped in at the end: a failed build leaves no half folder
    work = folder.with_name(f".{folder.name}.building")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        _copy_client(web, work)
        _patch_client(work)
        _copy_assets(work)
        write_app_package(work / "app.tar.gz", wheels)
        _write_service_worker(work)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    shutil.rmtree(folder, ignore_errors=True)
    work.rename(folder)
    sizes = [p.stat().st_size for p in folder.rglob("*") if p.is_file()]
    return BuildReport(
        folder=folder,
        wheels={w.name: w.stat().st_size for w in wheels},
        total_bytes=sum(sizes),
        app_bytes=(folder / "app.tar.gz").stat().st_size,
        files=len(sizes),
    )
