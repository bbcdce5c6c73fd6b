"""The `companion` command itself: help, the web server's life cycle, bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion.cli import build_parser, main
from tests.browser.conftest import free_port


def test_help_documents_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for option in ("--web", "--host", "--port", "--data-dir", "check", "score", "replay", "poker"):
        assert option in out
    for action in build_parser()._actions:
        assert action.help, f"{action.dest} has no help"


def _start(args: list[str], tmp_path: Path) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            *args,
            "--port",
            str(port),
            "--data-dir",
            str(tmp_path / "data"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                assert r.status == 200
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(proc.communicate()[0])


def _stop(proc: subprocess.Popen[str], sig: int) -> tuple[int, str]:
    proc.send_signal(sig)
    out, _ = proc.communicate(timeout=20)
    return proc.returncode, out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_web_mode_serves_offline_client_and_stops_cleanly(tmp_path: Path, sig: int) -> None:
    proc, url = _start(["--web"], tmp_path)
    with urllib.request.urlopen(url) as r:
        html = r.read().decode()
    assert 'canvasKitBaseUrl="/canvaskit/"' in html.replace("'", '"') or "canvaskit" in html
    code, out = _stop(proc, sig)
    assert code == 0, out
    assert f"served at {url}" in out
    assert "stopped" in out
    assert (tmp_path / "data").is_dir()


def test_without_display_says_so_in_one_line_and_serves_web(tmp_path: Path) -> None:
    proc, url = _start([], tmp_path)
    code, out = _stop(proc, signal.SIGTERM)
    lines = [ln for ln in out.splitlines() if "desktop" in ln.lower()]
    assert len(lines) == 1 and "web UI instead" in lines[0], out
    assert code == 0


def test_bad_card_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "rummy", "1X"]) == 2
    err = capsys.readouterr().err
    assert "\"1X\": unknown suit 'X'" in err


def test_bad_card_json_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "rummy", "QH", "QH", "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert "QH is listed twice" in data["error"]


def test_unreadable_replay_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "game.json"
    bad.write_text("{ not json")
    assert main(["replay", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read the file" in capsys.readouterr().err


def test_demo_flag_loads_demo_games_once(tmp_path: Path) -> None:
    proc, _ = _start(["--web", "--demo"], tmp_path)
    _, out = _stop(proc, signal.SIGTERM)
    assert "Demo games: 9 added" in out
    proc, _ = _start(["--web", "--demo"], tmp_path)
    _, out = _stop(proc, signal.SIGTERM)
    assert "Demo games: 0 added" in out


@pytest.mark.parametrize(
    "content, words",
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nested"),
        (
            b'{"game": "umtali", "players": ["A", "B"], "actions": '
            + b"[" * 5000
            + b"]" * 5000
            + b"}",
            "nested",
        ),
        (b"[1, 2]", "not a game record"),
        (b'{"game": 7}', "not a game record"),
        (b'{"x": 1e400000}', "not a game record"),
        (b"1" * 5000, "not usable JSON"),
    ],
    ids=["latin-1", "deep", "deep actions", "a list", "bad game", "huge float", "huge int"],
)
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_replay_of_unreadable_input_is_one_line_and_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes,
    words: str,
    as_json: bool,
) -> None:
    bad = tmp_path / "game.json"
    bad.write_bytes(content)
    assert main(["replay", str(bad), *(["--json"] if as_json else [])]) == 2
    out, err = capsys.readouterr()
    text = json.loads(out)["error"] if as_json else err
    assert words in text and "Traceback" not in out + err
    assert len(text.strip().splitlines()) == 1
