"""Session set-up shared by every test module."""
import os
import tempfile
from collections import Counter

import pytest

# NumPy's BLAS in one thread per test process. The tests run in three processes on two cores
# (pyproject's addopts) beside the browsers they drive: a BLAS that starts a thread per core in
# each process fights them for the cores, and its threads wait on each other. Measured on the
# ablation of the trained model (all 22,400 held-out sentences): 5.4 s with two threads, 3.0 s
# with one, at load 5. Set here, before any test module imports NumPy; the worker processes
# inherit it.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


def pytest_sessionstart(session):
    """The tests run in worker processes (pytest-xdist, pyproject's addopts), and each builds
    the book. Build it once here first, in the process that starts the workers: that fetches the
    runtime into the shared cache (first builds racing to put it there would replace each
    other's folder) and fills the chapter cache, so the workers' builds reuse every chapter
    instead of each rendering the whole book at the same time (~14 CPU-s a build)."""
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return  # a worker, or one process: its first build does this as usual
    from bookbuild.pipeline import build
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory(prefix="tbook-warm-") as folder:
        build(os.path.join(root, "book"), os.path.join(folder, "site"), log=lambda *a: None)


# Test files that must run in the same process: both state the trained model's figures that
# take seconds to compute (tests/trained_model_figures.py keeps them for the process), so on
# two processes they were computed twice (~10 CPU-s of the suite's).
SAME_PROCESS = {"tests/test_docs_model.py": "tests/test_chapter_trained_model.py"}


# The files that take longest (wall seconds, clean-clone CI run of 12-07 at load 3-22: engines
# 180, the example editor 125, axe 120, the exercises 94, offline 90, ...), handed to the test
# processes first. pytest-xdist hands out whole files in the order collected (pyproject's
# --no-loadscope-reorder; its own order is by number of tests), so a long file with few tests
# (axe on every page: two tests, over a minute) came last and ran on while the other processes had
# nothing left. The rest follow by number of tests, as pytest-xdist orders them.
FIRST = ("tests/browser/test_engines.py", "tests/browser/test_example_editor.py",
         "tests/browser/test_accessibility.py", "tests/browser/test_exercises.py",
         "tests/browser/test_offline.py", "tests/browser/test_play.py",
         "tests/browser/test_deploy.py", "tests/browser/test_reader_code.py",
         "tests/browser/test_apparatus.py", "tests/test_chapter_trained_model.py",
         "tests/test_notebooks.py", "tests/browser/test_code_lab.py", "tests/test_downloads.py",
         "tests/test_fuzz.py")


def pytest_collection_modifyitems(config, items):
    file_of = lambda item: item.nodeid.split("::")[0]  # noqa: E731
    count = Counter(map(file_of, items))
    rank = {f: i for i, f in enumerate(FIRST)}
    items.sort(key=lambda item: (rank.get(file_of(item), len(FIRST)), -count[file_of(item)]))


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: no error where it is not loaded
def pytest_xdist_make_scheduler(config, log):
    """pyproject's `--dist loadfile` (a whole file to one process), with SAME_PROCESS's files
    given as one."""
    from xdist.scheduler import LoadFileScheduling

    class LoadFileTogether(LoadFileScheduling):
        def _split_scope(self, nodeid):
            scope = super()._split_scope(nodeid)
            return SAME_PROCESS.get(scope, scope)

    return LoadFileTogether(config, log)
