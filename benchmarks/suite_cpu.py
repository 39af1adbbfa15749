"""The test suite's CPU time, per test file: where the minutes of `.ci/run` go.

    python3 benchmarks/suite_cpu.py                       # the whole suite, as pyproject says
    python3 benchmarks/suite_cpu.py tests/browser/test_engines.py -n 0

On two cores the suite is bound by CPU, not by waiting: its wall time is about its CPU time
halved, so a change is worth the CPU-seconds it saves. Each pytest process moves itself into a
cgroup of its own (every browser it starts follows it there) and reads the group's CPU counter
before and after each test, so a test's figure includes its browser's work and its module's
fixtures (a module's first test pays for them). Prints CPU-seconds and wall seconds per file,
largest first, then the total. Needs Linux's cgroup v1 `cpuacct` controller and root.
"""
import collections
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

GROUPS = Path("/sys/fs/cgroup/cpuacct")
OUT = os.environ.get("SUITE_CPU_OUT")  # set for the pytest processes this script starts


def _group():
    return GROUPS / f"tbook-suite-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}"


def _cpu(group):
    return int((group / "cpuacct.usage").read_text()) / 1e9


# ---- the pytest plugin (loaded with -p suite_cpu in the processes main() starts) -----------

def pytest_configure(config):
    """Every pytest process moves into a group of its own (xdist's workers, started later,
    leave their controller's group for their own), and the browsers it starts follow it."""
    if OUT is None:
        return
    group = _group()
    group.mkdir(exist_ok=True)
    (group / "cgroup.procs").write_text(str(os.getpid()))
    config._suite_cpu = group


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    group = getattr(item.config, "_suite_cpu", None)
    cpu, wall = (_cpu(group), time.monotonic()) if group else (0, 0)
    yield
    if group:
        with open(Path(OUT) / f"{group.name}.tsv", "a", encoding="utf-8") as f:
            f.write(f"{item.nodeid}\t{_cpu(group) - cpu:.3f}\t{time.monotonic() - wall:.3f}\n")


# ---- the command ----------------------------------------------------------------------------

def main(args):
    if not (GROUPS / "cpuacct.usage").exists() or os.geteuid() != 0:
        sys.exit(f"needs root and cgroup v1's cpuacct controller at {GROUPS}")
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "SUITE_CPU_OUT": out,
               "PYTHONPATH": os.pathsep.join(filter(None, [str(root / "benchmarks"),
                                                          os.environ.get("PYTHONPATH")]))}
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "pytest", "-p", "suite_cpu", "-q", *args],
                              cwd=root, env=env)
        wall = time.monotonic() - started
        cpu, took, tests = collections.Counter(), collections.Counter(), collections.Counter()
        for tsv in Path(out).glob("*.tsv"):
            for line in tsv.read_text(encoding="utf-8").splitlines():
                nodeid, c, w = line.split("\t")
                path = nodeid.split("::")[0]
                cpu[path] += float(c)
                took[path] += float(w)
                tests[path] += 1
    print(f"\n{'CPU-s':>8} {'wall-s':>8} {'tests':>6}  file")
    for path, c in cpu.most_common():
        print(f"{c:8.1f} {took[path]:8.1f} {tests[path]:6d}  {path}")
    print(f"{sum(cpu.values()):8.1f} {'':>8} {sum(tests.values()):6d}  in all, "
          f"in {wall:.0f} s of wall time")
    for group in GROUPS.glob("tbook-suite-*"):
        try:
            group.rmdir()
        except OSError:
            pass  # a process still in it
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
