"""The watch for a newer Pyodide (bookbuild/tools/newer_runtime.py), with npm and pip faked."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bookbuild.tools import newer_runtime

NPM_VERSIONS = ["0.26.4", "0.27.7", "0.27.8", "0.28.0", "0.28.3", "0.29.5", "314.0.0-alpha.1",
                "314.0.8", "315.0.0-alpha.2"]


def fake_clients(monkeypatch, versions=NPM_VERSIONS, wheels=None, pip_error=None):
    """npm answers `versions`; pip downloads wheels[platform] where there is one, says there is
    no matching distribution elsewhere, or fails with pip_error. Returns the commands run."""
    calls = []

    def run(cmd):
        calls.append(cmd)
        if cmd[0] == "npm":
            return subprocess.CompletedProcess(cmd, 0, json.dumps(versions), "")
        assert cmd[:4] == [sys.executable, "-m", "pip", "download"]
        if pip_error:
            return subprocess.CompletedProcess(cmd, 1, "", pip_error)
        wheel = (wheels or {}).get(cmd[cmd.index("--platform") + 1])
        if wheel is None:
            return subprocess.CompletedProcess(
                cmd, 1, "", "ERROR: No matching distribution found for numpy\n")
        (Path(cmd[cmd.index("-d") + 1]) / wheel).write_bytes(b"wheel")
        return subprocess.CompletedProcess(cmd, 0, "Saved " + wheel, "")

    monkeypatch.setattr(newer_runtime, "run", run)
    return calls


def check():
    lines = []
    return newer_runtime.check(log=lines.append), lines


def test_today_no_newer_pyodide_has_numpy(monkeypatch):
    calls = fake_clients(monkeypatch)
    can, lines = check()
    assert can == []
    assert lines[0].startswith("pinned: Pyodide 0.27.7 with numpy-2.0.2-cp312")
    assert lines[1] == "npm: newer Pyodide releases: 0.27.8, 0.28.3, 0.29.5, 314.0.8"
    assert "0.27.8: a later release of the pinned line" in lines[2]
    assert lines[3:6] == [
        "Pyodide 0.28.3 (Python 3.13, pyodide_2025_0_wasm32): no NumPy wheel on the registries",
        "Pyodide 0.29.5 (Python 3.13, pyodide_2025_0_wasm32): no NumPy wheel on the registries",
        "Pyodide 314.0.8 (Python 3.14, pyemscripten_2026_0_wasm32): no NumPy wheel on the "
        "registries"]
    assert lines[-1].startswith("result: stay on Pyodide 0.27.7")
    pips = [c for c in calls if c[0] != "npm"]
    assert len(pips) == 2  # one question per platform, 0.28 and 0.29 share theirs
    for cmd, (python, platform) in zip(pips, [("3.13", "pyodide_2025_0_wasm32"),
                                              ("3.14", "pyemscripten_2026_0_wasm32")]):
        assert cmd[cmd.index("--python-version") + 1] == python
        assert cmd[cmd.index("--platform") + 1] == platform
        assert "--only-binary=:all:" in cmd and "--no-deps" in cmd


def test_a_numpy_wheel_for_a_newer_pyodide_is_reported(monkeypatch):
    wheel = "numpy-2.4.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl"
    fake_clients(monkeypatch, wheels={"pyemscripten_2026_0_wasm32": wheel})
    can, lines = check()
    assert can == [("314.0.8", wheel)]
    assert f"Pyodide 314.0.8 (Python 3.14, pyemscripten_2026_0_wasm32): NumPy wheel available: " \
           f"{wheel}" in lines
    assert lines[-1] == (f"result: a newer runtime can be had: Pyodide 314.0.8 with {wheel}; "
                         "docs/runtime.md says how to move the book to it")


def test_a_line_it_does_not_know_is_named_not_guessed(monkeypatch):
    calls = fake_clients(monkeypatch, versions=["0.27.7", "315.0.1"])
    can, lines = check()
    assert can == [] and len(calls) == 1
    assert "Pyodide 315.0.1: its Python and wheel platform are not in" in lines[2]


def test_no_newer_release_asks_pip_nothing(monkeypatch):
    calls = fake_clients(monkeypatch, versions=["0.27.6", "0.27.7", "0.28.0-alpha.1"])
    can, lines = check()
    assert can == [] and len(calls) == 1
    assert lines[1] == "npm: newer Pyodide releases: none"


@pytest.mark.parametrize("failure", ["missing", "exit"])
def test_npm_that_cannot_answer_is_said_plainly(monkeypatch, failure):
    def run(cmd):
        if failure == "missing":
            raise FileNotFoundError(2, "No such file or directory", "npm")
        return subprocess.CompletedProcess(cmd, 1, "", "npm error code ENOTFOUND\n")

    monkeypatch.setattr(newer_runtime, "run", run)
    can, lines = check()
    assert can == [] and len(lines) == 2
    assert lines[1].startswith("could not ask npm for Pyodide's versions (")
    assert lines[1].endswith("nothing checked")
    if failure == "exit":
        assert "ENOTFOUND" in lines[1]


def test_pip_that_cannot_answer_is_not_taken_for_no_wheel(monkeypatch):
    fake_clients(monkeypatch, pip_error="ERROR: Could not reach the index (timed out)\n")
    can, lines = check()
    assert can == []
    assert any("314.0.8 (Python 3.14): could not ask pip (" in line and "timed out" in line
               for line in lines)
    assert not any("no NumPy wheel" in line for line in lines)


def test_the_command_exits_zero_with_a_result_line(monkeypatch, capsys):
    fake_clients(monkeypatch)
    assert newer_runtime.main() == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("result: stay on Pyodide 0.27.7")
