"""The checker's verdict in a teacher's words: a JSON-able dict with the fields in FIELDS.

status is one of TITLES' keys; passed is True for "passed" and "slow" (correct but slow).
message says what happened on which case; advice lists what to do about it, the diagnosed
typical mistake first; case shows the failing case small enough to read (and, when small,
code that rebuilds its inputs); mismatch, error, checked and timing carry the details.
"""
import difflib
import warnings

import numpy as np

from . import compare as cmp
from . import sandbox

SLOW_FACTOR = 20  # the large case may take this many times the reference's time...
SLOW_SECONDS = 0.05  # ...unless it stays under this many seconds anyway

FIELDS = ("exercise", "seed", "status", "passed", "title", "message", "advice", "mistake",
          "case", "mismatch", "error", "checked", "timing", "warnings", "output")

TITLES = {
    "passed": "全部通过",
    "slow": "结果正确，但太慢",
    "syntax_error": "语法错误",
    "load_error": "代码还没开始检查就出错了",
    "missing_function": "没有找到要写的函数",
    "bad_signature": "函数的参数不对",
    "not_implemented": "还没有写完",
    "error": "运行时出错",
    "wrong_exception": "抛出的异常类型不对",
    "should_raise": "这里应该报错",
    "wrong_type": "返回值不对",
    "wrong_shape": "形状不对",
    "not_finite": "出现了 nan 或 inf",
    "wrong_value": "数值不对",
    "uses_pycore": "用的是书里的实现",
    "interrupted": "检查被中断了",
    "internal_error": "检查程序自身出错",
}


def make(ex, seed, status, message, **fields):
    out = {"exercise": ex.id, "seed": seed, "status": status,
           "passed": status in ("passed", "slow"), "title": TITLES[status], "message": message,
           "advice": [], "mistake": None, "case": None, "mismatch": None, "error": None,
           "checked": None, "timing": None, "warnings": [], "output": ""}
    out.update(fields)
    return out


def syntax(ex, seed, e):
    kind = "缩进" if isinstance(e, IndentationError) else "语法"
    where = f"第 {e.lineno} 行" + (f"第 {e.offset} 列" if e.offset else "") if e.lineno else ""
    line = (e.text or "").rstrip("\n")
    pointer = f"\n    {line}\n    {' ' * max((e.offset or 1) - 1, 0)}^" if line.strip() else ""
    error = {"type": type(e).__name__, "message": e.msg, "line": e.lineno,
             "traceback": f"{type(e).__name__}: {e.msg}{pointer}"}
    return make(ex, seed, "syntax_error",
                f"Python 读不懂你的代码：{where}有{kind}错误（{e.msg}）。代码一行都还没有运行。",
                error=error, advice=_syntax_advice(e))


def _syntax_advice(e):
    text = (e.text or "") + (e.msg or "")
    if isinstance(e, IndentationError):
        return ["Python 用缩进表示代码块：函数体要比 def 多缩进一层，同一块里的行缩进要一致，"
                "不要混用 Tab 和空格。"]
    if "（" in text or "）" in text or "，" in text or "：" in text:
        return ["这一行里有中文标点（全角的括号、逗号或冒号），Python 只认英文标点。"]
    return []


def finish(ex, seed, cases, v):
    status = v["status"]
    common = {"warnings": v["warnings"], "output": v["output"],
              "timing": _timing(v)}
    if isinstance(v.get("error"), KeyboardInterrupt):  # the page's stop button, most likely
        return make(ex, seed, "interrupted", "运行你的代码时检查被中断了（KeyboardInterrupt），"
                    "没有得出结论。", error=sandbox.describe_error(v["error"]), **common)
    if status == "passed" and v.get("pycore_imports"):
        return _uses_pycore(ex, seed, v, common)
    if status == "passed":
        return _passed(ex, seed, cases, v, common)
    if status == "load_error":
        error = sandbox.describe_error(v["error"])
        where = f"第 {error['line']} 行" if error["line"] else "顶层"
        return make(ex, seed, status,
                    f"检查还没开始，你的代码在{where}（函数外面）就抛出了 "
                    f"{error['type']}: {error['message']}", error=error,
                    advice=_error_advice(v["error"]), **common)
    if status == "missing_function":
        return make(ex, seed, status, _missing_message(ex, v), **common)
    if status == "bad_signature":
        return make(ex, seed, status,
                    f"题目要的是 {ex.signature}，你写的是 {v['theirs']}。检查时会按题目的"
                    f"参数顺序调用它，例如 {ex.function}({', '.join(ex.fixed[0].inputs)})。",
                    **common)
    return _case_failure(ex, seed, v, common)


def _timing(v):
    large = v.get("large")
    if large:
        ref = large["reference_seconds"]
        large = {"name": large["name"], "seconds": large["seconds"], "reference_seconds": ref,
                 "factor": round(large["seconds"] / ref, 1) if ref > 0 else None,
                 "slow": large["seconds"] >= SLOW_SECONDS
                 and large["round_ratio"] >= SLOW_FACTOR}
    return {"load_seconds": v["load_seconds"], "total_seconds": v["reader_seconds"],
            "large_case": large}


def _passed(ex, seed, cases, v, common):
    counts = {k: sum(1 for c in cases if c["kind"] == k) for k in ("fixed", "random", "timing")}
    hardest = next((c.name for c in ex.fixed if c.hard), ex.fixed[-1].name)
    checked = {"fixed": counts["fixed"], "random": counts["random"],
               "large": counts["timing"], "hardest": hardest}
    large = common["timing"]["large_case"]
    extra = "，还有一个较大的用例" if counts["timing"] else ""
    message = (f"{counts['fixed']} 个固定用例和 {counts['random']} 个随机用例（seed={seed}）"
               f"全部正确{extra}。其中最难的一个是「{hardest}」。")
    if not (large and large["slow"]):
        return make(ex, seed, "passed", message, checked=checked, **common)
    message = (f"每个用例的结果都对，但在较大的用例「{large['name']}」上你的函数用了 "
               f"{_duration(large['seconds'])}，参考实现只用 {_duration(large['reference_seconds'])}"
               f"，慢了约 {large['factor'] or '很多'} 倍。")
    advice = ["慢通常来自逐个元素的 Python 循环。NumPy 的整块运算（矩阵乘法 @、广播、"
              "沿某一轴的 sum/max）在编译好的代码里一次做完，试着用它们代替循环。"]
    return make(ex, seed, "slow", message, checked=checked, advice=advice, **common)


def _uses_pycore(ex, seed, v, common):
    """Right results from the book's own code: the reader is told, and it does not count."""
    names = "、".join(v["pycore_imports"])
    return make(ex, seed, "uses_pycore",
                f"结果都对，但你的代码导入了 {names}：书里的参考实现和标准答案都在 pycore 里，"
                "用它们算出来的结果不算你写出来的，这次检查不算通过。",
                advice=["去掉对 pycore 的导入，只用 NumPy 自己写出这个函数，再检查一次。"],
                **common)


def _duration(seconds):
    return f"{seconds * 1000:.1f} 毫秒" if seconds < 1 else f"{seconds:.2f} 秒"


def _missing_message(ex, v):
    if v["defined_as"]:
        return (f"{ex.function} 在你的代码里是一个 {v['defined_as']}，不是函数。"
                f"请用 def {ex.signature}: 定义它。")
    message = f"你的代码里没有名为 {ex.function} 的函数。请按题目写 def {ex.signature}:。"
    close = difflib.get_close_matches(ex.function, v["functions"], n=1, cutoff=0.6)
    if close:
        message += f"你定义了 {close[0]}，是不是名字写错了？"
    elif v["functions"]:
        message += f"你定义的函数有：{', '.join(v['functions'])}。"
    return message


def _case_failure(ex, seed, v, common):
    item, status = v["item"], v["status"]
    case = item["case"]
    shown = _case_view(ex, item, v)
    where = _where(item)
    mismatch, error, advice, mistake = None, None, [], None
    if v["error"] is not None:
        error = sandbox.describe_error(v["error"])
        line = f"第 {error['line']} 行" if error["line"] else "内部"
        raised = f"{error['type']}: {error['message']}"
    if status == "not_implemented":
        message = (f"{ex.function} 还在抛出 NotImplementedError：把函数体里的 "
                   "raise NotImplementedError 换成你的实现。")
    elif status == "error":
        message = f"{where}，你的函数在{line}抛出了 {raised}"
        advice = _error_advice(v["error"])
    elif status == "wrong_exception":
        message = (f"{where}，输入是不合法的，应该抛出 {case.raises.__name__}；"
                   f"你的函数在{line}抛出的是 {raised}")
    elif status == "should_raise":
        message = (f"{where}，输入是不合法的，应该 raise {case.raises.__name__}(...)；"
                   f"你的函数却返回了{_what(v['got'])}。")
    else:
        mismatch = v["problem"]
        message = f"{where}，{_problem_text(ex, mismatch)}"
        if status == "not_finite" and ex.nonfinite_hint:
            advice.append(ex.nonfinite_hint)
    if status in ("wrong_type", "wrong_shape", "not_finite", "wrong_value", "should_raise"):
        mistake = diagnose(ex, item, v["got"], v["passed_before"])
        if mistake:
            advice.insert(0, mistake.message)
    if case.note and case.note not in advice:
        advice.append(case.note)
    return make(ex, seed, status, message, case=shown, mismatch=mismatch, error=error,
                advice=advice, mistake=mistake.id if mistake else None, **common)


def _what(value):
    if isinstance(value, np.ndarray) and value.size > 1:
        return f"一个形状 {tuple(value.shape)} 的数组"
    return f" {cmp.show(value)}"


def _where(item):
    name = item["case"].name
    if item["kind"] == "fixed":
        return f"在第 {item['number']} 个固定用例「{name}」上"
    if item["kind"] == "random":
        return f"固定用例都通过了，但在第 {item['number']} 个随机用例（{name}）上"
    return f"所有小用例都通过了，但在较大的用例「{name}」上"


def _case_view(ex, item, v):
    case = item["case"]
    expected = f"抛出 {case.raises.__name__}" if case.raises else cmp.show(item["expected"])
    return {"kind": item["kind"], "number": item["number"], "name": case.name,
            "call": case.call or f"{ex.function}({', '.join(case.inputs)})",
            "inputs": {k: cmp.show(x) for k, x in case.inputs.items()},
            "code": _code(ex, case), "expected": expected,
            "got": None if v["error"] is not None else cmp.show(v["got"]),
            "note": case.note or None}


def _code(ex, case):
    """Lines the reader can paste under their function to run this case themselves."""
    inputs = cmp.code(case.inputs)
    if inputs is None or case.run is not None:
        return inputs
    return f"{inputs}\nprint({ex.function}({', '.join(case.inputs)}))"


def _problem_text(ex, p):
    out = f"返回值 {p['output']} " if p.get("output") else ""
    kind = p["kind"]
    if kind == "none":
        return (f"函数返回了 None。是不是忘了写 return，或者函数体里还只有 ...？"
                if not out else f"{out}是 None。")
    if kind == "count":
        names = "、".join(ex.outputs)
        return f"应该返回 {p['expected_count']} 个值（{names}），你返回了 {p['got_count']} 个。"
    if kind == "type":
        return f"{out or '返回值'}应该是数或数组，你返回的是 {p['got_type']}。"
    if kind == "shape":
        expect = tuple(p["expected_shape"])
        what = "一个数（标量）" if not expect else f"形状 {expect}"
        return f"{out or '返回值'}应该是{what}，你的是形状 {tuple(p['got_shape'])}。"
    at = f"下标 {list(p['index'])} 处" if p["index"] else ""
    if kind == "not_finite":
        count = f"（共 {p['count']}/{p['size']} 个数是 nan 或 inf）" if p["index"] else ""
        return (f"{out}参考结果{at}是有限的数 {p['expected']}，你的结果却是 {p['got']}"
                f"{count}。")
    allowed = "，要求完全相等" if p["tolerance"] == "0" else f"，允许的误差是 {p['tolerance']}"
    if not p["index"]:
        return f"{out}应为 {p['expected']}，你的是 {p['got']}（差 {p['abs_error']}{allowed}）。"
    return (f"{out}第一个不对的数在{at}：应为 {p['expected']}，你的是 {p['got']}"
            f"（差 {p['abs_error']}{allowed}）。"
            f"共 {p['count']}/{p['size']} 个数不对，最大误差 {p['max_abs_error']}。")


def diagnose(ex, item, got, passed_before=()):
    """The first typical mistake that gives the reader's result on the failing case and the
    right result on every case the reader passed before it; None when there is none."""
    for mistake in ex.mistakes:
        if _agrees(ex, mistake, item, got) and all(
                _agrees(ex, mistake, earlier, earlier["expected"]) for earlier in passed_before
                if earlier["case"].raises is None):
            return mistake
    return None


def _agrees(ex, mistake, item, result):
    case = item["case"]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        value, error, _ = sandbox.call(mistake.answer, case.copy_inputs(), case.run)
    if error is not None or value is None:
        return False
    return cmp.compare(value, result, ex.rtol, ex.atol_for(case), ex.outputs,
                       equal_nan=True) is None


def _error_advice(error):
    text = sandbox.message_of(error)
    if isinstance(error, SystemExit):
        return ["你的代码调用了 exit() 或 sys.exit()。练习里不需要退出程序，直接 return 结果就行。"]
    if isinstance(error, RecursionError):
        return ["函数在不停地调用自己，一直没有停下（递归没有出口）。检查函数里是不是误调用了"
                "它自己，比如辅助函数和主函数重名。"]
    if isinstance(error, MemoryError):
        return ["内存不够了：是不是创建了一个特别大的数组？"]
    if isinstance(error, NameError):
        if "'np'" in text:
            return ["用到了 np 却没有导入：在代码开头写 import numpy as np。"]
        return ["用到了一个还没定义的名字：检查拼写，以及它是否在使用之前就赋值了。"]
    if "matmul" in text or "not aligned" in text:
        return ["矩阵乘法 A @ B 要求 A 的最后一维等于 B 的倒数第二维。对照输入的形状，"
                "看看是不是少了或多了一次转置（比如 K.T）。"]
    if "broadcast" in text:
        return ["两个形状不兼容的数组做了逐元素运算。沿某一轴求和或取最大值时加上 "
                "keepdims=True，结果就还能和原数组广播。"]
    if "zero-size array" in text:
        return ["对一个空数组求了 max（或 min、argmax）：空数组没有最大值。想想这个数组为什么是空的，"
                "比如在空缓存上做注意力之前，是不是应该先把新的一行加进去。"]
    if "reshape" in text:
        return ["reshape 前后元素的总数必须相同：核对新形状里每一维的大小。"]
    if isinstance(error, IndexError):
        return ["下标越界了：核对循环的范围和数组的形状。"]
    return []
