# Grove's manual: `sphinx-build -W -b html docs build/docs` (tests/run.sh does it). The node and
# grove-cli references are generated at build time from the program (GROVE_CLI, default
# build/app/grove-cli) by _ext/grove_reference.py; nothing in them is copied by hand.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "_ext"))

project = "Grove"
author = "The Grove developers"
copyright = "Grove"
extensions = ["myst_parser", "grove_reference"]
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "reference/limits.md", "reference/nodes/thumbs"]
html_theme = "furo"
html_title = "Grove manual"
html_static_path = []
# third-party pages are not fetched from here (no network in CI): linkcheck checks the links within the manual
linkcheck_ignore = [r"https?://.*"]
suppress_warnings = []
