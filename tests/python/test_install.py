"""The package installs offline from the checkout, as its page says: `pip install --no-index
--no-build-isolation ./app/python` into a fresh venv that sees Debian's numpy; the installed copy imports,
finds libgrove through $GROVE_LIBRARY or beside itself, and places points."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from support import SOURCE, LIBRARY

USE = """
import grove, importlib.metadata, sys
assert grove.__file__.startswith(sys.prefix), grove.__file__
assert importlib.metadata.version("grove") == grove.__version__, "pyproject.toml's version is the package's"
with grove.open_text("grove: 1\\nworld: {width: 100, height: 100, seed: 3}\\nnodes:\\n  a: {type: place_layer, params: {radius: 5}}\\n") as g:
    print(grove.version(), len(g["a"].points()))
"""


class InstallsOffline(unittest.TestCase):
    def test_pip_install_into_a_venv_then_use(self):
        with tempfile.TemporaryDirectory() as scratch:
            # a copy: setuptools builds in the source folder (build/, grove.egg-info), the checkout stays clean
            source = shutil.copytree(os.path.join(SOURCE, "app", "python"), os.path.join(scratch, "python"),
                                     ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
            venv = os.path.join(scratch, "venv")
            subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv], check=True)
            python = os.path.join(venv, "bin", "python")
            environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GROVE_LIBRARY")}
            # offline whatever pip.conf says; no version check (it waits on the network); the user's cache untouched
            environment.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1")
            install = subprocess.run([python, "-m", "pip", "install", "--no-index", "--no-build-isolation", source],
                                     capture_output=True, text=True, env=environment, cwd=scratch)
            self.assertEqual(install.returncode, 0, install.stdout + install.stderr)

            used = subprocess.run([python, "-c", USE], capture_output=True, text=True, cwd=scratch,
                                  env=dict(environment, GROVE_LIBRARY=LIBRARY))
            self.assertEqual(used.returncode, 0, used.stderr)
            version, count = used.stdout.split()
            self.assertEqual(version, "0.1.0")
            self.assertGreater(int(count), 50)

            # without $GROVE_LIBRARY: not found, and the message says where it looked
            missing = subprocess.run([python, "-c", USE], capture_output=True, text=True, cwd=scratch, env=environment)
            if missing.returncode != 0:  # (a libgrove installed system-wide would be found instead)
                self.assertIn("next to the package", missing.stderr)
            # libgrove beside the installed package is found without $GROVE_LIBRARY
            where = subprocess.run([python, "-c", "import grove, os; print(os.path.dirname(grove.__file__))"],
                                   capture_output=True, text=True, check=True, env=environment, cwd=scratch)
            os.symlink(os.path.realpath(LIBRARY), os.path.join(where.stdout.strip(), "libgrove.so.0"))
            beside = subprocess.run([python, "-c", USE], capture_output=True, text=True, cwd=scratch, env=environment)
            self.assertEqual(beside.returncode, 0, beside.stderr)


if __name__ == "__main__":
    unittest.main()
