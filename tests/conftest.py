"""Session set-up shared by every test module."""
import tempfile


def pytest_sessionstart(session):
    """The tests run in two worker processes (pytest-xdist, pyproject's addopts), and both build
    books. The first build of a machine fetches the runtime into the shared cache: fetch it here,
    in the process that starts the workers, so that two first builds do not race to put it there
    (each would replace the other's folder)."""
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return  # a worker, or one process: the first build fetches it as usual
    from bookbuild.runtime import vendor
    with tempfile.TemporaryDirectory(prefix="tbook-runtime-") as folder:
        vendor.vendor_runtime(folder, log=lambda *a: None)
