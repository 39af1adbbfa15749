"""Run the book's notebooks as a reader would, in one Jupyter kernel shared by a whole test
module: a fresh virtual environment (seeing this machine's NumPy and ipykernel, but not the
worktree's pycore) where the first notebook's own `%pip install` cell installs the built wheel
from a folder beside the notebooks; later notebooks skip that cell and start from a cleared
namespace (%reset -f), so none can lean on another's variables.
"""
import ast
import json
import os
import shutil
import sys
import venv
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbclient import NotebookClient

KERNEL = "tbook-pycore"
RESET = "get_ipython().run_line_magic('reset', '-f')"


class Kernel:
    def __init__(self, folder, wheel):
        """folder: an empty scratch folder; wheel: the site's pycore wheel."""
        self.folder = Path(folder)
        self.env_dir = self.folder / "venv"
        # No pip, NumPy or ipykernel of its own: it sees this interpreter's (through the system
        # site-packages, or a .pth naming them when the tests run in a virtual environment).
        inside_venv = sys.prefix != sys.base_prefix
        venv.EnvBuilder(system_site_packages=not inside_venv, with_pip=False).create(self.env_dir)
        python = self.env_dir / "bin" / "python"
        if inside_venv:
            (purelib,) = self.env_dir.glob("lib/python*/site-packages")
            seen = [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")]
            (purelib / "tbook-test-env.pth").write_text("\n".join(seen) + "\n")
        spec = self.folder / "kernels" / KERNEL
        spec.mkdir(parents=True)
        (spec / "kernel.json").write_text(json.dumps({
            "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "pycore wheel", "language": "python"}))
        self.work = self.folder / "work"  # the notebooks' folder, with the wheel beside them
        self.work.mkdir()
        shutil.copyfile(wheel, self.work / Path(wheel).name)
        self.km = AsyncKernelManager(kernel_name=KERNEL,
                                     kernel_spec_manager=KernelSpecManager(
                                         kernel_dirs=[str(self.folder / "kernels")]))
        self.installed = False

    def run(self, nb):
        """Execute a notebook (an nbformat node, changed in place) and return it."""
        nb = nbformat.reads(json.dumps(nb), as_version=4)  # a copy; sources as strings
        for cell in nb.cells:
            if cell.metadata.get("tbook", {}).get("role") == "install" and self.installed:
                cell.metadata["tags"] = ["skip-execution"]
        if self.installed:
            nb.cells.insert(0, nbformat.v4.new_code_cell(RESET))
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")  # nothing downloaded
        NotebookClient(nb, km=self.km, timeout=120, kernel_name=KERNEL,
                       resources={"metadata": {"path": str(self.work)}}).execute(env=env)
        self.installed = True
        return nb

    def pycore_file(self):
        """Where the kernel's pycore comes from."""
        nb = self.run(nbformat.v4.new_notebook(cells=[
            nbformat.v4.new_code_cell("import pycore; print(pycore.__file__)")]))
        return nb.cells[-1].outputs[0]["text"].strip()

    def close(self):
        if self.km.has_kernel:
            run_sync(self.km.shutdown_kernel)(now=True)


def view_outputs(nb):
    """[(widget name, params, {key: value shown})] of every view cell of an executed
    notebook: the params as the cell before it set them, the values as the kernel printed
    them."""
    found, params = [], None
    for cell in nb.cells:
        role = cell.metadata.get("tbook", {}).get("role")
        if role == "params":
            params = ast.literal_eval(cell.source.split("=", 1)[1].strip())
        if role == "view":
            result = [o for o in cell.outputs if o["output_type"] == "execute_result"]
            shown = ast.literal_eval(result[0]["data"]["text/plain"])
            found.append((cell.metadata["tbook"]["widget"], params, shown))
    return found


def errors(nb):
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
            if o["output_type"] == "error"]


if __name__ == "__main__":  # python3 tests/notebook_kernel.py site/notebooks/<name>.ipynb ...
    import tempfile
    site_dir = Path(sys.argv[1]).resolve().parent.parent
    (wheel,) = (site_dir / "downloads").glob("pycore-*.whl")
    with tempfile.TemporaryDirectory() as tmp:
        k = Kernel(tmp, wheel)
        try:
            for path in sys.argv[1:]:
                failed = errors(k.run(nbformat.read(path, as_version=4)))
                print(f"{path}: " + ("ok" if not failed else failed[0]["ename"]))
        finally:
            k.close()
