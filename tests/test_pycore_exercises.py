"""The exercise checker: every reference solution passes, every starter is "not written yet",
the cases' expected values agree with values worked out by hand, and whatever the reader's
code does (syntax errors, exceptions, SystemExit, endless recursion, changing pycore or
NumPy) the checker answers with JSON-able feedback and the next check is not affected."""
import functools
import json
import math
import re

import numpy as np
import pytest

import pycore.attention
import pycore.example
import pycore.softmax
from pycore import exercises
from pycore.exercises import FIELDS, check, checker, describe, get, ids, page
from tests.reference import softmax_row

IDS = ids()
CJK = re.compile(r"[\u4e00-\u9fff]")


def run(exercise, body, seed=0):
    result = check(exercise, "import numpy as np\n\n" + body.lstrip("\n"), seed=seed)
    json.dumps(result, allow_nan=False)  # plain JSON: no NaN, no arrays
    assert tuple(result) == FIELDS
    return result


# --- the registry -----------------------------------------------------------------------

def test_the_book_exercises_are_all_there():
    assert set(IDS) >= {"dot-product", "cosine-similarity", "softmax", "attention",
                        "split-heads", "merge-heads", "sinusoidal-encoding", "rope",
                        "layer-norm", "top-k", "top-p", "kv-cache-step", "param-count",
                        "patchify", "transformer-block"}
    assert [get(i).chapter for i in IDS] == sorted(get(i).chapter for i in IDS)


@pytest.mark.parametrize("exercise", IDS)
def test_reference_solution_passes(exercise):
    result = check(exercise, get(exercise).solution, seed=0)
    assert result["status"] == "passed", (result["message"], result["advice"])
    assert result["passed"] and result["checked"]["fixed"] == len(get(exercise).fixed)
    assert result["checked"]["random"] == 20
    assert result["checked"]["hardest"] in result["message"]


@pytest.mark.parametrize("exercise", IDS)
def test_starter_is_not_implemented_and_shares_the_signature(exercise):
    ex = get(exercise)
    result = check(exercise, ex.starter)
    assert result["status"] == "not_implemented" and not result["passed"]
    assert "NotImplementedError" in result["message"]
    for text in (ex.starter, ex.solution):
        assert f"\ndef {ex.signature}:\n" in text
        compile(text, exercise, "exec")


@pytest.mark.parametrize("exercise", IDS)
def test_statement_hints_and_cases_are_written_for_the_reader(exercise):
    ex = get(exercise)
    info = describe(exercise)
    json.dumps(info, allow_nan=False)
    assert info["starter"] == ex.starter and info["function"] == ex.function
    assert CJK.search(ex.statement) and CJK.search(ex.title)
    assert 1 <= len(ex.hints) <= 3 and all(CJK.search(h) for h in ex.hints)
    assert all(CJK.search(c.name) for c in ex.fixed)
    assert sum(c.hard for c in ex.fixed) == 1
    assert len(ex.mistakes) >= 3 and len({m.id for m in ex.mistakes}) == len(ex.mistakes)
    assert all(CJK.search(m.message) for m in ex.mistakes)


def test_unknown_exercise_is_the_page_s_error():
    with pytest.raises(ValueError, match="no exercise 'soft-max'"):
        check("soft-max", "")


@pytest.mark.parametrize("seed", [-1, "x", 1.5, True])
def test_a_seed_that_is_no_seed_is_the_page_s_error(seed):
    """A clear ValueError for the page, never a verdict that blames the checker itself."""
    with pytest.raises(ValueError, match="seed must be a whole number from 0 up"):
        check("softmax", get("softmax").solution, seed=seed)
    with pytest.raises(ValueError, match="seed must be a whole number from 0 up"):
        page.answer({"action": "interrupted", "id": "softmax", "why": "timeout",
                     "seed": seed})


def test_each_way_the_page_ends_a_check_has_its_own_words():
    """The page's reasons (reader.js) each get their message, none the fallback's: a Python
    that never booted is not reported as one that crashed."""
    said = {why: page.answer({"action": "interrupted", "id": "softmax", "why": why, "seed": 0,
                              "time_limit": 5})["message"]
            for why in ("stopped", "timeout", "exit:1", "crashed", "boot")}
    assert len(set(said.values())) == 5, said
    assert "没有启动好" in said["boot"] and "5 秒" in said["timeout"] and "os._exit(1)" in said["exit:1"]


# --- the cases agree with values worked out by hand ------------------------------------

@functools.lru_cache(maxsize=None)
def prepared(exercise):
    return checker.prepare(get(exercise), seed=0)


def expected(exercise, name):
    for item in prepared(exercise):
        if item["case"].name == name:
            return item["expected"]
    raise KeyError(name)


def test_softmax_cases_by_hand():
    e = math.exp(-1.0)
    assert expected("softmax", "logits 为 ±1000") == pytest.approx(np.array(
        [[1 / (2 + e), 1 / (2 + e), e / (2 + e)],
         [e / (1 + 2 * e), e / (1 + 2 * e), 1 / (1 + 2 * e)]]))
    assert expected("softmax", "很低的温度") == pytest.approx([0.0, 0.0, 1.0])
    assert list(expected("softmax", "有 -inf（被屏蔽的位置）")) == pytest.approx(
        [1 / (1 + math.e), 0.0, math.e / (1 + math.e), 0.0])
    assert expected("softmax", "温度 0.5：更尖") == pytest.approx(softmax_row([2.0, 4.0, 6.0]))


def test_attention_cases_are_the_book_s_numbers():
    out, weights = expected("attention", "书中的例子：语义头，9 个词")
    assert weights[5].round(4).tolist() == [0.2101, 0.0929, 0.0929, 0.1397, 0.0929, 0.0929,
                                            0.0929, 0.0929, 0.0929]
    _, causal = expected("attention", "书中的例子加上因果掩码")
    assert causal[0].tolist() == [1.0] + [0.0] * 8
    assert np.allclose(np.triu(causal, 1), 0.0) and np.allclose(causal.sum(axis=1), 1.0)


def test_kv_cache_steps_reproduce_causal_attention_row_by_row():
    rows, keys, values = expected("kv-cache-step", "逐词生成整句 = 整句的因果注意力")
    x = pycore.example.EMBEDDINGS
    w_q, _, _ = pycore.example.semantic_head()
    q = x @ w_q
    for i in range(len(x)):  # query i against keys 0..i, written out
        s = [q[i] @ x[j] / math.sqrt(6) for j in range(i + 1)]
        assert rows[i] == pytest.approx(np.array(softmax_row(s)) @ x[: i + 1])
    assert np.array_equal(keys, x) and np.array_equal(values, x)
    book, _, _ = expected("kv-cache-step", "书中的例子：“它”看前面五个词")
    assert book == pytest.approx(rows[5])


def test_other_cases_by_hand():
    assert expected("top-p", "第 9 节的例子，p=0.9")[:5].round(3).tolist() == [
        0.519, 0.233, 0.128, 0.078, 0.043]
    assert expected("top-p", "累计概率正好等于 p").tolist() == [2 / 3, 1 / 3, 0.0, 0.0]
    assert expected("top-k", "有并列的概率") == pytest.approx([0.6, 0.4, 0.0, 0.0, 0.0])
    assert expected("param-count", "GPT-2 small 的配置") == 124_439_808
    assert expected("param-count", "最小的模型：d=1，一层，词表 1") == 28
    assert expected("patchify", "4×4 单通道，P=2")[:2].tolist() == [[0, 1, 4, 5], [2, 3, 6, 7]]
    assert expected("patchify", "6×4 的图像，P=2：网格 3 行 2 列")[2].tolist() == [8, 9, 12, 13]
    assert expected("rope", "二维向量 (1, 0) 转 1 弧度")[0] == pytest.approx(
        [math.cos(1), math.sin(1)])
    pe = expected("sinusoidal-encoding", "只有一个位置")
    assert pe.tolist() == [[0.0, 1.0] * 3]
    assert expected("layer-norm", "常数行：方差为 0").tolist() == [[1.0, 2.0, 3.0]]
    assert expected("split-heads", "B=1，T=3，D=4，2 个头")[0, 1, 0].tolist() == [2.0, 3.0]
    assert expected("cosine-similarity", "书中的例子：“它”的查询和“马路”的键") == \
        pytest.approx(1 / math.sqrt(2))


# --- what the reader's code does, and what the checker says ----------------------------

def test_syntax_error_names_the_line():
    r = run("softmax", "def softmax(z, temperature=1.0)\n    return z\n")
    assert r["status"] == "syntax_error" and r["error"]["line"] == 3
    assert "第 3 行" in r["message"]


def test_chinese_punctuation_and_bad_indentation_get_their_own_advice():
    r = run("dot-product", "def dot(a，b):\n    return a @ b\n")
    assert r["status"] == "syntax_error" and "中文标点" in r["advice"][0]
    r = run("dot-product", "def dot(a, b):\nreturn a @ b\n")
    assert r["status"] == "syntax_error" and "缩进" in r["message"]


def test_missing_function_suggests_the_close_name():
    r = run("softmax", "def soft_max(z, temperature=1.0):\n    return z\n")
    assert r["status"] == "missing_function" and "soft_max" in r["message"]
    r = run("softmax", "softmax = 3\n")
    assert r["status"] == "missing_function" and "不是函数" in r["message"]


def test_wrong_signature_is_explained():
    r = run("softmax", "def softmax(z):\n    return np.exp(z) / np.exp(z).sum()\n")
    assert r["status"] == "bad_signature"
    assert "softmax(z, temperature=1.0)" in r["message"] and "softmax(z)" in r["message"]


def test_exception_shows_the_reader_s_traceback_with_their_line_numbers():
    r = run("dot-product", """
def helper(a):
    return a[10]

def dot(a, b):
    return helper(a) * b[0]
""")
    assert r["status"] == "error" and r["error"]["type"] == "IndexError"
    assert r["error"]["line"] == 4  # `return a[10]`, counting the import line
    tb = r["error"]["traceback"]
    assert "line 4, in helper" in tb and "return a[10]" in tb and "line 7, in dot" in tb
    assert "checker.py" not in tb and "sandbox.py" not in tb
    assert r["case"]["number"] == 1 and r["case"]["got"] is None


def test_matmul_shape_error_points_at_the_transpose():
    r = run("attention", """
def attention(q, k, v, causal=False):
    w = np.exp(q @ k)
    return w @ v, w
""")
    assert r["status"] == "error" and "K.T" in r["advice"][0]


def test_forgot_import_numpy():
    r = check("dot-product", "def dot(a, b):\n    return np.sum(a * b)\n")
    assert r["status"] == "error" and "import numpy as np" in r["advice"][0]


@pytest.mark.parametrize("where", ["top", "function"])
def test_system_exit_and_keyboard_interrupt_are_reported_not_raised(where):
    for stop in ("raise SystemExit(3)", "import sys; sys.exit()", "exit()"):
        body = f"{stop}\n" if where == "top" else f"def dot(a, b):\n    {stop}\n"
        r = run("dot-product", body)
        assert r["status"] == ("load_error" if where == "top" else "error"), stop
        assert r["error"]["type"] == "SystemExit" and "exit()" in r["advice"][0]
    body = "raise KeyboardInterrupt\n" if where == "top" else \
        "def dot(a, b):\n    raise KeyboardInterrupt\n"
    r = run("dot-product", body)  # how the page's stop button arrives in Pyodide
    assert r["status"] == "interrupted" and not r["passed"]


def test_endless_recursion_is_caught_and_its_traceback_stays_short():
    r = run("softmax", "def softmax(z, temperature=1.0):\n    return softmax(z, temperature)\n")
    assert r["status"] == "error" and r["error"]["type"] == "RecursionError"
    assert "repeated" in r["error"]["traceback"] and len(r["error"]["traceback"]) < 4000
    assert "调用自己" in r["advice"][0]


def test_input_and_printing_do_not_block_or_flood():
    r = run("dot-product", "name = input()\n")
    assert r["status"] == "load_error" and r["error"]["type"] == "EOFError"
    r = run("dot-product", """
print("开始")
def dot(a, b):
    print("x" * 100000)
    return float(a @ b)
""")
    assert r["output"].startswith("开始\n") and len(r["output"]) <= 4000


def test_returning_nothing_or_something_odd():
    r = run("dot-product", "def dot(a, b):\n    ...\n")
    assert r["status"] == "wrong_type" and "return" in r["message"]
    r = run("dot-product", "def dot(a, b):\n    return {'a': 1}\n")
    assert r["status"] == "wrong_type" and "dict" in r["message"]
    r = run("attention", "def attention(q, k, v, causal=False):\n    return q\n")
    assert r["status"] == "wrong_type" and "2 个值" in r["message"]


def test_must_raise_and_wrong_exception_type():
    r = run("dot-product", "def dot(a, b):\n    return float(a @ b)\n")
    assert r["status"] == "passed"  # a @ b raises ValueError by itself
    r = run("dot-product", """
def dot(a, b):
    assert len(a) == len(b), "长度不同"
    return float(sum(a * b))
""")
    assert r["status"] == "wrong_exception" and "ValueError" in r["message"]
    assert "AssertionError" in r["message"]


def test_a_random_case_that_fails_is_shown_small_with_code_to_rerun_it():
    r = run("dot-product", """
def dot(a, b):
    if len(a) != len(b):
        raise ValueError("长度不同")
    return float(a[:6] @ b[:6])  # only looks at the first 6 entries
""", seed=5)
    assert r["status"] == "wrong_value" and r["case"]["kind"] == "random"
    assert "固定用例都通过了" in r["message"]
    code = r["case"]["code"]
    namespace = {"np": np}
    exec(code.rsplit("\n", 1)[0], namespace)  # the inputs, every digit
    assert len(namespace["a"]) > 6 and code.endswith("print(dot(a, b))")
    again = run("dot-product", """
def dot(a, b):
    if len(a) != len(b):
        raise ValueError("长度不同")
    return float(a[:6] @ b[:6])
""", seed=5)
    assert again["case"] == r["case"] and again["message"] == r["message"]


def test_feedback_is_deterministic_for_a_seed_apart_from_durations():
    def strip(r):
        return {k: v for k, v in r.items() if k != "timing"}
    source = get("top-p").solution
    assert strip(check("top-p", source, seed=11)) == strip(check("top-p", source, seed=11))
    cases = [c["case"].name for c in checker.prepare(get("top-p"), seed=11)]
    assert cases == [c["case"].name for c in checker.prepare(get("top-p"), seed=11)]
    assert cases != [c["case"].name for c in checker.prepare(get("top-p"), seed=12)]


def test_changing_the_inputs_in_place_is_warned_about():
    r = run("softmax", """
def softmax(z, temperature=1.0):
    z /= temperature
    z -= z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
""")
    assert r["status"] == "passed" and "原地修改" in r["warnings"][-1]


def test_slow_but_correct_answer():
    r = run("softmax", """
import math
def softmax(z, temperature=1.0):
    rows = np.atleast_2d(z)
    out = np.zeros(rows.shape)
    for i in range(rows.shape[0]):
        m = max(rows[i])
        total = 0.0
        for j in range(rows.shape[1]):
            out[i, j] = math.exp((rows[i, j] - m) / temperature)
            total += out[i, j]
        for j in range(rows.shape[1]):
            out[i, j] /= total
    return out.reshape(np.shape(z))
""")
    assert r["status"] == "slow" and r["passed"]
    large = r["timing"]["large_case"]
    assert large["slow"] and large["factor"] >= 20 and "倍" in r["message"]


# --- the reader's code cannot change pycore for later checks ---------------------------

def test_reassigning_pycore_functions_does_not_fool_this_or_the_next_check():
    original = pycore.softmax.softmax, pycore.attention.softmax
    r = run("softmax", """
import pycore.softmax, pycore.attention
pycore.softmax.softmax = lambda z, temperature=1.0: np.zeros(np.shape(z))
pycore.attention.softmax = pycore.softmax.softmax
softmax = pycore.softmax.softmax
""")
    assert r["status"] == "wrong_value"  # checked against values computed before it ran
    assert (pycore.softmax.softmax, pycore.attention.softmax) == original
    assert run("attention", get("attention").solution)["status"] == "passed"


def test_writing_into_pycore_data_numpy_and_builtins_is_undone():
    embeddings = pycore.example.EMBEDDINGS.copy()
    r = run("attention", """
import builtins
import pycore.example
pycore.example.EMBEDDINGS[:] = 7.0
pycore.example.NEXT_TOKENS.append("猫")
np.exp = lambda x: x
builtins.sum = None
import sys
sys.setrecursionlimit(60)
pycore.extra = 1
""")
    assert r["status"] == "missing_function"
    assert np.array_equal(pycore.example.EMBEDDINGS, embeddings)
    assert "猫" not in pycore.example.NEXT_TOKENS and np.exp(0.0) == 1.0 and sum([1, 2]) == 3
    assert not hasattr(pycore, "extra")
    import sys
    assert sys.getrecursionlimit() >= 1000
    assert run("attention", get("attention").solution)["status"] == "passed"


@pytest.mark.parametrize("source", [
    "from pycore.softmax import softmax\n",
    "import pycore.softmax as sm\n\ndef softmax(z, temperature=1.0):\n"
    "    return sm.softmax(z, temperature)\n",
    "def softmax(z, temperature=1.0):\n    from pycore import softmax as sm\n"
    "    return sm.softmax(z, temperature)\n",
    "def softmax(z, temperature=1.0):\n"
    "    return __import__('pycore.exercises.softmax').softmax.softmax(z, temperature)\n",
])
def test_an_answer_from_the_book_s_own_code_is_told_so_and_does_not_pass(source):
    r = run("softmax", source)
    assert r["status"] == "uses_pycore" and not r["passed"], r["message"]
    assert "pycore" in r["message"]


def test_patching_the_checker_itself_does_not_last():
    wrong = "def dot(a, b):\n    return float(a @ b) + 1\n"
    # Reaching into the checker on purpose can fool the check it runs in (this is the
    # reader's own browser, not an exam server), but not the next one.
    run("dot-product", "import pycore.exercises.compare as c\n"
                       "c.compare = c.compare_one = lambda *args, **kw: None\n" + wrong)
    assert run("dot-product", wrong)["status"] == "wrong_value"
