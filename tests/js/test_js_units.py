"""Front-end unit tests (static/games/js/socket.js): run tests/js/*.test.mjs.

In Chromium through Playwright (the browser CI already has), and under Node when Node is
installed.  The files are served from the repository root by a throwaway HTTP server, because
Chromium refuses ES modules from file:// URLs.
"""

import functools
import http.server
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEST_FILES = sorted((ROOT / "tests" / "js").glob("*.test.mjs"))


@pytest.fixture(scope="module")
def static_server():
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(ROOT))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.mark.browser
def test_socket_js_in_chromium(page, static_server):
    page.goto(f"{static_server}/tests/js/runner.html")
    page.wait_for_function("window.__jsTestResult !== undefined", timeout=15000)
    result = page.evaluate("window.__jsTestResult")
    assert result["total"] > 0
    assert result["failed"] == 0, result["log"]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed (optional)")
@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: p.name)
def test_js_under_node(path):
    proc = subprocess.run(["node", str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    passed, total = map(int, re.search(r"(\d+)/(\d+) passed", proc.stdout).groups())
    assert passed == total > 0  # the file ran its tests (not just imported and exited)
