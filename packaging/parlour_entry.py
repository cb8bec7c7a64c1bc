"""The frozen app's entry point: exactly the ``parlour`` console command (app.cli.main).

PyInstaller needs a script file, not a ``module:function`` entry point; this is it.
It lives here, not in app/, so that the script's folder PyInstaller puts on the import
path holds nothing that could shadow a real module.
"""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())
