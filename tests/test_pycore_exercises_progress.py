"""The progress file a reader hands a teacher (pycore/exercises/progress.py, the page's
assets/progress.js): made and verified round trip, an edited file rejected, the saved code
checked again, and the checksum's text equal to what JavaScript's JSON.stringify writes."""
import base64
import hashlib
import json
import shutil
import subprocess

import pytest

from pycore.exercises import describe, progress
from pycore.exercises.__main__ import main

BOOK = "Transformer 图解"
TRICKY = 'print("引号\\"、反斜杠\\\\、制表\t、换行\n、\x01、\x7f、\u2028、😀、\ud800")'


def entries(**softmax):
    return [{"id": "softmax", "passed": True, "attempts": 2, "seed": 0,
             "code": describe("softmax")["solution"], **softmax},
            {"id": "bigram-training", "passed": False, "attempts": 1, "seed": 3,
             "code": "def train_bigram(ids, vocab_size, steps, lr):\n    pass\n"},
            {"id": "rope", "passed": False, "attempts": 0, "seed": None, "code": None}]


def test_the_file_round_trips_and_the_saved_code_passes_again():
    text = progress.make(entries(), BOOK, "2026-12-06T07:00:00Z")
    report = progress.verify(text)
    assert report["ok"], report["problems"]
    assert [(r["id"], r["passed"], r["recheck"]) for r in report["exercises"]] == [
        ("softmax", True, "passed"), ("bigram-training", False, "wrong_type"),
        ("rope", False, None)]
    # the sum, worked out here from its definition
    body = json.loads(text)
    claimed = body.pop("sha256")
    compact = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    assert claimed == hashlib.sha256(
        ("tbook-exercise-progress/1\n" + compact).encode()).hexdigest()


@pytest.mark.parametrize("edit", [
    lambda d: d["exercises"][1].update(passed=True),  # a failed exercise marked passed
    lambda d: d["exercises"][0].update(attempts=1),
    lambda d: d["exercises"][0].update(code=d["exercises"][0]["code"] + "# 改\n"),
    lambda d: d.update(book="另一本书"),
    lambda d: d["exercises"].pop(),  # an exercise left out
])
def test_an_edited_file_is_rejected(edit):
    data = json.loads(progress.make(entries(), BOOK, "2026-12-06T07:00:00Z"))
    edit(data)
    report = progress.verify(json.dumps(data, ensure_ascii=False, indent=2), recheck=False)
    assert not report["ok"] and "校验和对不上" in report["problems"][0]


def test_a_passed_claim_whose_code_fails_here_is_reported():
    wrong = "import numpy as np\n\ndef softmax(z, temperature=1.0):\n    return z\n"
    report = progress.verify(progress.make(entries(code=wrong), BOOK, "t"))
    assert not report["ok"]
    assert report["problems"] == ["softmax 标为已通过，但保存的代码这次没有通过（wrong_value）："
                                  "导出前代码可能又改过"]


def test_the_command_line(tmp_path, capsys):
    good = tmp_path / "progress.json"
    good.write_text(progress.make(entries(), BOOK, "2026-12-06T07:00:00Z"), encoding="utf-8")
    assert main(["verify", str(good)]) == 0
    out = capsys.readouterr()
    assert "softmax: 已通过，本机重新检查：passed" in out.out and "文件完好" in out.out
    edited = tmp_path / "edited.json"
    edited.write_text(good.read_text(encoding="utf-8").replace('"attempts": 2', '"attempts": 1'),
                      encoding="utf-8")
    assert main(["verify", "--no-recheck", str(edited)]) == 1
    assert f"{edited}: 校验和对不上" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "format": "tbook-exercise-progress",\n  oops\n}\n', encoding="utf-8")
    assert main(["verify", str(broken)]) == 2
    assert capsys.readouterr().err.startswith(f"{broken}:3: 不是 JSON")
    other = tmp_path / "other.json"
    other.write_text('{"format": "something-else"}', encoding="utf-8")
    assert main(["verify", str(other)]) == 2
    assert "不是练习进度文件" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.json")]) == 2


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_the_checksum_covers_what_javascript_writes():
    """The page hashes JSON.stringify(body); Python must write the very same text, for
    quotes, backslashes, control characters, U+2028, an emoji and a lone surrogate alike."""
    body = {"format": "tbook-exercise-progress", "version": 1, "book": BOOK, "exported": "t",
            "exercises": [{"id": "softmax", "passed": True, "attempts": 3, "seed": None,
                           "code": TRICKY}]}
    script = ("let s = ''; process.stdin.on('data', d => s += d); process.stdin.on('end', () =>"
              " process.stdout.write(Buffer.from(JSON.stringify(JSON.parse(s)), 'utf8')"
              ".toString('base64')));")
    # the body goes to node ASCII-escaped (a lone surrogate cannot travel as UTF-8)
    done = subprocess.run(["node", "-e", script], input=json.dumps(body), text=True,
                          capture_output=True, check=True)
    assert base64.b64decode(done.stdout).decode("utf-8", "surrogatepass") == \
        progress.canonical(body)
