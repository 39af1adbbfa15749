"""The page's one entry point to the exercises, JSON in and JSON out (runtime-worker.js, op
"exercise"), so that the hints and the solution reach the page only when the reader asks:
they are not in the chapter's HTML.

    {"action": "check", "id": "softmax", "source": "...", "seed": 0} -> the feedback (check)
    {"action": "hint", "id": "softmax", "n": 0}                      -> {"hint", "left"}
    {"action": "solution", "id": "softmax"}                          -> {"solution"}
    {"action": "interrupted", "id": ..., "why": "timeout", "seed": 0, "time_limit": 5}
                                          -> the feedback for a check the page had to end
"""
import json

from . import feedback
from .checker import check, valid_seed
from .registry import get

INTERRUPTED = {
    "stopped": "已停止：你按了「停止」。运行检查的 Python 已经结束，下一次检查会在新的 Python 里进行。",
    "timeout": "检查超过了 {time_limit} 秒，已自动停止：可能是死循环，或者算得太慢。",
    "exit": "你的代码结束了 Python 本身（os._exit({status}) 或 sys.exit），检查没有结果。",
    "crashed": "运行检查的 Python 意外退出了（也许是内存耗尽），检查没有结果。",
    "boot": "运行检查的 Python 迟迟没有启动好，换了一个新的也没有，这次没有检查（浏览器可能太忙）。"
            "再按一次「检查」会重新启动一个 Python。",
}
ADVICE = {
    "timeout": ["看看有没有永远不会结束的 while 循环；能用 NumPy 的整块运算代替 Python 的逐元素循环吗？"],
    "exit": ["函数里不需要结束程序：用 return 返回结果。"],
}


def answer(request):
    ex = get(request.get("id"))
    action = request.get("action")
    if action == "check":
        return check(ex.id, str(request.get("source", "")), seed=request.get("seed", 0))
    if action == "hint":
        n = int(request.get("n", 0))
        if not 0 <= n < len(ex.hints):
            raise ValueError(f"exercise {ex.id} has {len(ex.hints)} hints, not a hint {n}")
        return {"hint": ex.hints[n], "left": len(ex.hints) - n - 1}
    if action == "solution":
        return {"solution": ex.solution}
    if action == "interrupted":  # the page ended the reader's Python: say what happened
        kind, _, status = str(request.get("why", "")).partition(":")
        message = INTERRUPTED.get(kind, INTERRUPTED["crashed"]).format(
            status=status, time_limit=int(request.get("time_limit", 0)))
        return feedback.make(ex, valid_seed(request.get("seed", 0)), "interrupted", message,
                             advice=ADVICE.get(kind, []))
    raise ValueError(f"unknown exercise action {action!r}: check, hint or solution")


def call_json(request_json):
    return json.dumps(answer(json.loads(request_json)), ensure_ascii=False)
