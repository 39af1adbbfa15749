"""What an exercise is made of: plain data that the checker reads.

An exercise asks the reader for one function. Its `signature` (e.g. "softmax(z,
temperature=1.0)") is the single source of truth for the function's name and parameters;
the starter and the solution begin with `def <signature>:`.

Cases are called positionally, in the signature's order: `inputs` is an ordered dict whose
keys are a prefix of the parameters (leaving an optional parameter out checks its default).
"""
import ast
import copy
from dataclasses import dataclass, field
from typing import Callable, Optional


@dataclass
class Case:
    name: str  # Chinese, shown to the reader: what this case is
    inputs: dict  # parameter name -> value, in the signature's order
    raises: Optional[type] = None  # a correct answer raises this (e.g. ValueError)
    note: str = ""  # Chinese: said when this case fails, what makes it special
    hard: bool = False  # the edge case named when everything passes
    run: Optional[Callable] = None  # run(fn, *inputs) -> output, when one call is not enough
    call: str = ""  # how `run` calls the function, shown instead of the plain call
    expect: Optional[Callable] = None  # expect(*inputs) -> the expected result, when it comes
    # from somewhere other than the reference (a gradient by finite differences)

    def copy_inputs(self):
        """Fresh copies of the arguments, in order: no call can change the case itself."""
        return [copy.deepcopy(v) for v in self.inputs.values()]


@dataclass
class Mistake:
    id: str
    answer: Callable  # the wrong answer, written out: same parameters as the exercise
    message: str  # Chinese: what the reader did and how to fix it


@dataclass
class Exercise:
    id: str
    chapter: int
    title: str  # Chinese
    signature: str  # "softmax(z, temperature=1.0)"
    statement: str  # Chinese: what to write and what it is checked on
    starter: str  # def line + docstring + raise NotImplementedError
    solution: str  # a model answer in plain NumPy, shown by "reveal the solution"
    hints: tuple  # 1-3 Chinese hints, revealed one at a time
    reference: Callable  # the pycore computation the answer is checked against
    reference_name: str  # where it lives, e.g. "pycore.softmax.softmax"
    fixed: list  # [Case]: hand-picked, simplest first
    random: Callable  # random(rng) -> [Case], smallest first
    timing: Optional[Callable] = None  # timing(rng) -> one large Case, or None
    outputs: tuple = ()  # names of the returned values when the answer returns a tuple
    rtol: float = 1e-9
    atol: object = 1e-12  # a number, or atol(inputs) -> number
    mistakes: list = field(default_factory=list)  # [Mistake], most specific first
    nonfinite_hint: str = ""  # Chinese: said when nan/inf appears where the answer is finite

    def atol_for(self, case):
        return self.atol(case.inputs) if callable(self.atol) else self.atol

    @property
    def function(self):
        return parse_signature(self.signature)[0]

    @property
    def params(self):
        """[(name, default source or None)] in order."""
        return parse_signature(self.signature)[1]


def parse_signature(signature):
    """"f(a, b=1.0)" -> ("f", [("a", None), ("b", "1.0")])."""
    fn = ast.parse(f"def {signature}: pass").body[0]
    args = fn.args.args
    defaults = [None] * (len(args) - len(fn.args.defaults)) + fn.args.defaults
    return fn.name, [(a.arg, None if d is None else ast.unparse(d))
                     for a, d in zip(args, defaults)]


def program(signature, doc, body, before=""):
    """The text of a small program: import numpy, optional helpers, then `def signature:`
    with `doc` as its docstring and `body` (both given without indentation)."""
    doc = doc.strip()
    quoted = '"""' + doc + ('\n"""' if "\n" in doc else '"""')
    indent = lambda text: "\n".join("    " + line if line else "" for line in text.splitlines())
    helpers = "\n" + before.strip("\n") + "\n\n" if before else ""
    return (f"import numpy as np\n\n{helpers}\ndef {signature}:\n{indent(quoted)}\n"
            f"{indent(body.strip())}\n")
