"""Engine tests need no Django.  This folder is put on sys.path for ``mapmaker_helpers``."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
