"""games/engine must stay pure Python: no Django, Channels, Celery or DRF."""

import ast
import subprocess
import sys
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).resolve().parent
FORBIDDEN = ("django", "channels", "celery", "rest_framework")


def test_engine_source_imports_no_web_framework():
    files = sorted(ENGINE.rglob("*.py"))
    assert files
    for path in files:
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
                names = [getattr(a, "value", "") for a in node.args[:1]]
            else:
                continue
            for name in names:
                assert str(name).split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


def test_importing_the_engine_loads_no_web_framework():
    code = (
        "import sys, json\n"
        "from games.engine import get_rules\n"
        "r = get_rules('mapmaker'); s = r.setup({'players': 2}, 1)\n"
        "r.view(s, 0); r.legal_moves(s, r.to_move(s)[0])\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "[]"
