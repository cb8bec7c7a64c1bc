"""PyInstaller runtime hook: coincurve's compiled module (``coincurve._libsecp256k1``, the
private deal's group) imports its cffi backend as ``coincurve._cffi_backend``, a 1 MB
private copy its wheel carries. The bundle leaves that copy out (packaging/lean.py) and
hands coincurve the one ``_cffi_backend`` it already carries for PyNaCl and cryptography:
cffi's backend reads modules compiled by older cffi releases (coincurve 21.0.0's was
built with 1.17), and ``parlour --self-test`` multiplies on the curve through it
("group")."""

import sys

import _cffi_backend

sys.modules.setdefault("coincurve._cffi_backend", _cffi_backend)
