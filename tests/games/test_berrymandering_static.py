"""The Berrymandering board's stylesheet in the production shape: the collected (hashed)
board module names the hashed stylesheet, so a browser never pairs a new board with an old
cached stylesheet."""

import json
import re

from ..test_settings import PRODUCTION, run_manage


def test_the_collected_board_loads_its_hashed_stylesheet(tmp_path):
    result = run_manage("collectstatic", "--noinput", "-v", "0",
                        env={**PRODUCTION, "STATIC_ROOT": str(tmp_path)})
    assert result.returncode == 0, result.stdout + result.stderr
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    board = (tmp_path / paths["games/js/berrymandering-board.js"]).read_text()
    css = paths["games/css/berrymandering.css"]
    assert re.search(r"\.[0-9a-f]{12}\.css$", css)
    # the module finds its stylesheet from this string (see STYLE_REF in the module)
    refs = re.findall(r"""'import\("([^"]+)"\)'""", board)
    assert refs == ["../css/" + css.rsplit("/", 1)[1]]
    assert (tmp_path / "games/js" / refs[0]).resolve() == (tmp_path / css).resolve()
