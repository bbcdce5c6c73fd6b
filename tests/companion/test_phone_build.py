"""``companion build-phone``: what the folder holds, checked without a browser or a network.

The wheels come from a cache filled here with stand-ins named as the real ones
(the browser test, tests/browser/test_phone_build.py, builds with the real ones);
the build unpacks them into the app's one archive, under ``__pypackages__``.
"""

from __future__ import annotations

import json
import re
import tarfile
import zipfile
from pathlib import Path

import pytest

from companion import cli
from companion.phone_build import PhoneBuildError, browser_requirements, build_phone, pyodide_info
from companion.phone_build import web_client_dir as web


def python() -> str:
    return pyodide_info(web())["python"]


def test_browser_wheels_follow_the_browser_markers() -> None:
    pins = browser_requirements(python())
    for needed in ("flet", "pydantic", "pydantic-core", "msgpack", "pokerkit", "tinydb"):
        assert needed in pins
    # flet skips these on Emscripten; the table server, the window and rapidfuzz stay home
    for absent in ("httpx", "oauthlib", "uvicorn", "flet-web", "flet-desktop", "rapidfuzz"):
        assert absent not in pins


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    folder = tmp_path / "wheels"
    folder.mkdir()
    tag = pyodide_info(web())["platform"]
    for name, version in browser_requirements(python()).items():
        stem = name.replace("-", "_")
        compiled = name in ("pydantic-core", "msgpack")
        wheel = f"{stem}-{version}-" + (f"cp314-cp314-{tag}" if compiled else "py3-none-any")
        with zipfile.ZipFile(folder / f"{wheel}.whl", "w") as z:
            z.writestr(f"{stem}/__init__.py", "")
            z.writestr(f"{stem}-{version}.dist-info/METADATA", f"Name: {name}\n")
            if name == "segno":  # a wheel with .data, as the real one has
                z.writestr(f"{stem}-{version}.data/data/share/man/man1/segno.1", "man")
                z.writestr(f"{stem}-{version}.data/purelib/segno/extra.py", "")
    return folder


def test_folder_holds_everything_and_names_nothing_outside(tmp_path: Path, cache: Path) -> None:
    report = build_phone(tmp_path / "site", cache)
    site = report.folder
    index = (site / "index.html").read_text()
    assert "flet.pyodide = true;" in index and "flet.noCdn=true;" in index
    assert 'flet.pyodideUrl="./pyodide/pyodide.mjs"' in index
    assert 'name="theme-color" content="#2E7D32"' in index
    assert 'register("sw.js")' in index
    # Chromium gets dart2wasm with skwasm (a tap's screen drawn sooner), others CanvasKit
    assert 'flet.webRenderer="auto"' in index
    for client in ("main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.wasm", "main.dart.js"):
        assert (site / client).exists(), client
    assert not (site / "canvaskit/skwasm_heavy.wasm").exists()  # never picked where skwasm is
    manifest = json.loads((site / "manifest.json").read_text())
    assert manifest["name"] == "Rummy Companion" and manifest["theme_color"] == "#2E7D32"
    assert all((site / icon["src"]).exists() for icon in manifest["icons"])
    # nothing the client runs reaches for a CDN
    for name in (
        "index.html",
        "main.dart.js",
        "python.js",
        "python-worker.js",
        "flutter_bootstrap.js",
    ):
        text = (site / name).read_text()
        assert "cdn.jsdelivr.net" not in text and "storage.googleapis" not in text, name
    wasm = (site / "main.dart.wasm").read_bytes()
    assert b"cdn.jsdelivr.net" not in wasm and b"storage.googleapis" not in wasm
    assert len(wasm) == (web() / "main.dart.wasm").stat().st_size  # patched in place
    worker = (site / "python-worker.js").read_text()
    assert "sys.path.insert(0, os.path.abspath(pkgs_path))" in worker
    assert "serviceWorkerVersion: " not in (site / "flutter_bootstrap.js").read_text()
    # every wheel already unpacked inside the one archive: nothing for micropip to do
    with tarfile.open(site / "app.tar.gz") as tar:
        names = tar.getnames()
    assert "main.py" in names and "companion/phone.py" in names and "rulesets/poker.py" in names
    assert not [n for n in names if "__pycache__" in n]
    assert "requirements.txt" not in names and not (site / "wheels").exists()
    for name in report.wheels:
        stem = name.split("-")[0]
        assert f"__pypackages__/{stem}/__init__.py" in names, name
    # a wheel's man page stays out; its purelib goes beside the packages
    assert "__pypackages__/segno/extra.py" in names
    assert not [n for n in names if ".data/" in n]
    # the service worker caches every file of the folder
    sw = (site / "sw.js").read_text()
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", sw, re.S).group(1))  # type: ignore[union-attr]
    on_disk = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert set(files) == on_disk - {"sw.js"} | {"./"}


def test_a_second_build_replaces_the_first_and_refuses_other_folders(
    tmp_path: Path, cache: Path
) -> None:
    site = tmp_path / "site"
    build_phone(site, cache)
    (site / "stale.txt").write_text("from before")
    build_phone(site, cache)
    assert not (site / "stale.txt").exists()
    mine = tmp_path / "documents"
    mine.mkdir()
    (mine / "letter.txt").write_text("keep me")
    with pytest.raises(PhoneBuildError, match="not an earlier phone build"):
        build_phone(mine, cache)
    assert (mine / "letter.txt").read_text() == "keep me"


def test_command_prints_the_sizes(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["build-phone", str(tmp_path / "site"), "--wheels", str(cache)])
    out = capsys.readouterr().out
    assert code == 0
    assert "Built the phone app in" in out and "pydantic_core" in out and "MB" in out


def test_two_wheels_holding_one_path_are_refused(tmp_path: Path, cache: Path) -> None:
    """Unpacked at build time, a file two wheels share would silently lose one of them."""
    with zipfile.ZipFile(next(cache.glob("six-*.whl")), "a") as z:
        z.writestr("tinydb/__init__.py", "# not tinydb's")
    with pytest.raises(PhoneBuildError, match="both hold tinydb/__init__.py"):
        build_phone(tmp_path / "site", cache)
    assert not (tmp_path / "site").exists()
