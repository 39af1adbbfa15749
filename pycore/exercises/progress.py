"""The reader's progress file, for a teacher: what the progress page (exercises.html,
assets/progress.js) downloads, and how to verify it here.

The file is JSON: {format, version, book, exported, exercises: [{id, passed, attempts, seed,
code}], sha256}. `sha256` is the SHA-256 of PREFIX + the other fields written as compact JSON
(in the file's order, non-ASCII characters as they are), which is what the page's
JSON.stringify gives, so that any change to a field, a passed flag or a line of code makes the
file fail. The algorithm is public (it runs in the reader's browser): the checksum catches
edits and accidents, not a reader determined to forge a file. What does not depend on trust is
the re-check: verify() runs each exercise's saved code through the checker again.

    python3 -m pycore.exercises verify progress.json   (see __main__.py)
"""
import hashlib
import json
import re

FORMAT, VERSION = "tbook-exercise-progress", 1
PREFIX = f"{FORMAT}/{VERSION}\n"  # a file of another kind never has a matching sum
ENTRY_KEYS = ("id", "passed", "attempts", "seed", "code")
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def canonical(body):
    """The text the checksum covers, as JavaScript's JSON.stringify(body) writes it: compact,
    non-ASCII as is, a lone surrogate as a \\u escape (Python would write it raw)."""
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def checksum(body):
    return hashlib.sha256((PREFIX + canonical(body)).encode("utf-8")).hexdigest()


def make(entries, book, exported):
    """The file's text for entries [{id, passed, attempts, seed, code}] (as the page writes)."""
    body = {"format": FORMAT, "version": VERSION, "book": book, "exported": exported,
            "exercises": [{k: e.get(k) for k in ENTRY_KEYS} for e in entries]}
    return json.dumps({**body, "sha256": checksum(body)}, ensure_ascii=False, indent=2) + "\n"


class Invalid(ValueError):
    """The file is not a progress file at all: `line` is where it goes wrong (or None)."""

    def __init__(self, message, line=None):
        super().__init__(message)
        self.line = line


def read(text):
    """(body, problems): the file's fields, and what is wrong with its checksum or entries.
    Raises Invalid when it is not a progress file."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise Invalid(f"不是 JSON（{e.msg}，第 {e.colno} 列）；这个文件应该是练习进度页"
                      f"「导出进度」下载的原样文件", e.lineno) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Invalid(f"不是练习进度文件：最外层应是带 \"format\": \"{FORMAT}\" 的对象", 1)
    if data.get("version") != VERSION:
        raise Invalid(f"版本 {data.get('version')!r} 不认识；这个 pycore 读的是第 {VERSION} 版", 1)
    claimed = data.pop("sha256", None)
    problems = []
    if not isinstance(claimed, str):
        problems.append("文件里没有校验和（sha256）")
    elif claimed != checksum(data):
        problems.append("校验和对不上：文件导出之后被改动过（或者传输时损坏了）")
    entries = data.get("exercises")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise Invalid("\"exercises\" 应是一个列表，每一项是一个练习的记录", 1)
    return data, problems


def verify(text, recheck=True):
    """{ok, problems, book, exported, exercises: [{id, passed, attempts, recheck}]}.
    ok: the checksum matches and every exercise marked passed passes again when its saved
    code is checked here (recheck: the checker's status, or None when not re-checked)."""
    from .checker import check  # the checker only when a file is verified
    from .registry import EXERCISES
    body, problems = read(text)
    rows = []
    for e in body["exercises"]:
        row = {"id": e.get("id"), "passed": e.get("passed") is True,
               "attempts": e.get("attempts"), "recheck": None}
        if row["id"] not in EXERCISES:
            problems.append(f"没有叫 {row['id']!r} 的练习")
        elif recheck and isinstance(e.get("code"), str):
            seed = e.get("seed") if isinstance(e.get("seed"), int) and e["seed"] >= 0 else 0
            row["recheck"] = check(row["id"], e["code"], seed=seed)["status"]
            if row["passed"] and row["recheck"] not in ("passed", "slow"):
                problems.append(f"{row['id']} 标为已通过，但保存的代码这次没有通过"
                                f"（{row['recheck']}）：导出前代码可能又改过")
        rows.append(row)
    return {"ok": not problems, "problems": problems, "book": body.get("book"),
            "exported": body.get("exported"), "exercises": rows}
