"""Lets the Horseshoes tests import their shared helpers (``horseshoes_helpers``).

The suite runs with ``--import-mode=importlib``, which keeps test directories off
``sys.path``; this directory is added so the helpers stay one plain module.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
