"""Issue 28, round two: faults an attack found in a run, the server and ``--diff``.

- One file never stops the run: a coding line that names no text codec (``hex``,
  ``rot13``), an unknown one, one that cannot read its own line (``utf-16``), in any
  file of the project (the project-wide pass reads the others too), and a lone
  surrogate in a notebook's cell, are each a JAX000 finding on that file.
- The server: a buffer above ``max-file-size`` gets one diagnostic and no parse; its
  worker process ends when the server is killed; every request gets an answer (bad
  params, after ``shutdown``); ``exit`` ends with 1 without ``shutdown``, 0 after it.
- ``--diff`` shows each file's diff once and counts its fixes once, although the
  end-of-run re-check lints some files again.

The command-line tests run ``python -m jaxlint`` (stdout is a pipe, as in CI); the
server tests speak JSON-RPC to ``python -m jaxlint server`` over its pipes. Waits
are bounded (a response, a process that ends) and never timed.
"""

from __future__ import annotations

import codecs
import json
import os
import queue
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import jaxlint
from jaxlint.source import DecodeError, decode_source

ROOT = Path(jaxlint.__file__).resolve().parents[1]
"""The jaxlint the subprocesses run: the one this test imports (``PYTHONPATH``)."""
WAIT = 60.0
"""Seconds to wait for an answer, or for a process to end, before the test fails."""

GOOD = "import jax\n\ny = jax.tree_map(lambda v: v, 1)\n"
"""One JAX702 finding, at 3:5."""


def jaxlint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JAXLINT_CACHE_DIR": str(cwd / ".c")}
    env.pop("PYTHONIOENCODING", None)
    return subprocess.run(
        [sys.executable, "-m", "jaxlint", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        errors="backslashreplace",
        timeout=300,
    )


# -- 6. a coding line that is no text encoding ----------------------------------------------

COOKIES = {
    "hex": b"# coding: hex\nx = 1\n",
    "rot13": b"# -*- coding: rot13 -*-\nx = 1\n",
    "zlib": b"# vim: set fileencoding=zlib :\nx = 1\n",
    "base64-line-2": b"#!/usr/bin/env python\n# coding: base64\nx = 1\n",
    "unknown": b"# coding: no-such-codec\nx = 1\n",
    "utf-16": b"# coding: utf-16\nx = 1\n",
    "utf-16-even": b"# coding: utf-16\nx = 12\n",
    "utf-32": b"# coding: utf-32\nx = 1\n",
    "cp037": b"# coding: cp037\nx = 1\n",
    "undefined": b"# coding: undefined\nx = 1\n",
}
"""Every one names its coding line's encoding as the problem, on the line it is on."""
COOKIE_ROW = {"base64-line-2": 2}


@pytest.mark.parametrize("case", sorted(COOKIES))
def test_bad_coding_line_is_a_finding_on_that_file_alone(tmp_path, case):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "bad.py").write_bytes(COOKIES[case])
    # the file named alone: the project-wide pass still reads bad.py
    alone = jaxlint("check", "--no-cache", "--output-format", "concise", "good.py", cwd=tmp_path)
    assert alone.returncode == 1, alone.stderr
    assert "error" not in alone.stderr, alone.stderr
    assert alone.stdout.splitlines()[0].startswith("good.py:3:5: JAX702")
    whole = jaxlint("check", "--no-cache", "--output-format", "json", ".", cwd=tmp_path)
    assert whole.returncode == 1, whole.stderr
    assert "error" not in whole.stderr, whole.stderr
    found = {(Path(f["filename"]).name, f["code"]): f for f in json.loads(whole.stdout)}
    assert set(found) == {("bad.py", "JAX000"), ("good.py", "JAX702")}
    bad = found["bad.py", "JAX000"]
    assert bad["message"].startswith("bad encoding declaration"), bad["message"]
    assert bad["location"]["row"] == COOKIE_ROW.get(case, 1)


def test_bad_coding_line_in_a_neighbour_in_the_language_server(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "neighbour.py").write_bytes(COOKIES["hex"])
    with Server(tmp_path) as s:
        s.initialize()
        s.open("good.py", GOOD)
        diags = s.diagnostics("good.py")
        assert [(d["code"], d["range"]["start"]["line"]) for d in diags] == [("JAX702", 2)]


def test_a_codec_that_fails_in_its_own_way_is_a_decode_error():
    """A codec may raise anything while it decodes: it is the file's JAX000, not a crash."""

    def broken_decode(data, errors="strict"):
        raise RuntimeError("the codec broke")

    def search(name):
        if name != "jaxlint_test_broken":
            return None
        ascii_ = codecs.lookup("ascii")
        return codecs.CodecInfo(
            ascii_.encode,
            lambda data, errors="strict": (
                ascii_.decode(data, errors) if len(data) < 40 else broken_decode(data)
            ),
            name="jaxlint_test_broken",
        )

    codecs.register(search)
    try:
        with pytest.raises(DecodeError, match="RuntimeError: the codec broke"):
            decode_source(b"# coding: jaxlint_test_broken\nx = 1\n" + b"y = 2\n" * 10)
    finally:
        codecs.unregister(search)


UNICODE_ESCAPE = b'# coding: unicode_escape\nimport jax\n\ny = jax.tree_map(f, "caf\\xe9")\n'
"""Python reads it (every ``\\n`` as a line break); written back in its encoding, the
text would be one line with ``\\n`` in it (a fix once did that)."""


def test_fix_never_rewrites_a_file_whose_encoding_does_not_round_trip(tmp_path):
    (tmp_path / "u.py").write_bytes(UNICODE_ESCAPE)
    (tmp_path / "good.py").write_text(GOOD)
    run = jaxlint("check", "--no-cache", "--fix", "--output-format", "concise", ".", cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert (tmp_path / "u.py").read_bytes() == UNICODE_ESCAPE
    assert "u.py: not fixed: its encoding (unicode_escape)" in run.stderr
    assert "u.py:4:5: JAX702" in run.stdout  # still reported, as not fixed
    assert (tmp_path / "good.py").read_text() == GOOD.replace("tree_map", "tree.map")
    diff = jaxlint("check", "--no-cache", "--diff", "u.py", cwd=tmp_path)
    assert diff.returncode == 2 and diff.stdout == "", diff.stdout
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    piped = subprocess.run(
        [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--fix", "-"],
        cwd=tmp_path,
        env=env,
        input=UNICODE_ESCAPE,
        capture_output=True,
        timeout=300,
    )
    assert piped.returncode == 2
    assert piped.stdout == UNICODE_ESCAPE  # the code comes back as it came


# -- 8. a lone surrogate -------------------------------------------------------------------


def _notebook(*cells: str) -> str:
    return json.dumps(
        {
            "cells": [
                {
                    "cell_type": "code",
                    "metadata": {},
                    "source": c.splitlines(keepends=True),
                    "outputs": [],
                    "execution_count": None,
                }
                for c in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


@pytest.mark.parametrize("output", ["text", "concise", "json"])
def test_lone_surrogate_in_a_notebook_cell_is_a_finding(tmp_path, output):
    # valid JSON: "\ud800" is an escape json.loads accepts, and it gives a lone surrogate
    (tmp_path / "nb.ipynb").write_text(_notebook("import jax\n", "x = '\ud800'\n"))
    (tmp_path / "good.py").write_text(GOOD)
    run = jaxlint("check", "--no-cache", "--output-format", output, ".", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert "error" not in run.stderr, run.stderr
    if output == "json":
        found = {
            (Path(f["filename"]).name, f["code"], f.get("cell")) for f in json.loads(run.stdout)
        }
        assert found == {("nb.ipynb", "JAX000", 2), ("good.py", "JAX702", None)}
    else:
        assert "nb.ipynb:cell 2:1:6: JAX000 cannot parse: U+D800 is a lone surrogate" in run.stdout
        assert "good.py:3:5: JAX702" in run.stdout


def test_lone_surrogate_from_a_unicode_escape_coding_line_is_a_finding(tmp_path):
    (tmp_path / "u.py").write_bytes(b'# coding: unicode_escape\nimport jax\nx = "\\ud800"\n')
    run = jaxlint("check", "--no-cache", "u.py", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert "error" not in run.stderr, run.stderr
    assert "u.py:3:6: JAX000 cannot parse: U+D800 is a lone surrogate" in run.stdout


# -- 15. --diff over a tree ----------------------------------------------------------------

PACKAGE = {
    "pyproject.toml": "",
    "pkg/__init__.py": "",
    "pkg/a.py": """\
        import jax
        from pkg.b import helper


        @jax.jit
        def f(x):
            return helper(x)


        y = jax.tree_map(lambda v: v, 1)
        """,
    "pkg/b.py": """\
        import jax


        def helper(x):
            print(x)
            return jax.tree_map(lambda v: v, x)
        """,
}
"""b.py is linted first (a.py imports it), and again at the end of the run: only then is
``helper`` known to be traced (called from the jitted ``f``), a JAX103 finding."""


def _package(root: Path) -> None:
    for name, text in PACKAGE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))


@pytest.mark.parametrize("unsafe", [False, True])
def test_diff_over_a_tree_shows_each_file_once(tmp_path, unsafe):
    _package(tmp_path)
    extra = ["--unsafe-fixes"] if unsafe else []
    run = jaxlint("check", "--diff", "--no-cache", *extra, ".", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    heads = [line for line in run.stdout.splitlines() if line.startswith("--- a/")]
    assert sorted(heads) == ["--- a/pkg/a.py", "--- a/pkg/b.py"], run.stdout
    fixes = 3 if unsafe else 2
    assert f"Would fix {fixes} error(s) in 2 file(s)." in run.stderr
    # the diff is what --fix writes
    fixed = jaxlint("check", "--fix", "--no-cache", "--show-fixes", *extra, ".", cwd=tmp_path)
    assert f"Fixed {fixes} error(s):" in fixed.stdout, fixed.stdout
    assert f"({fixes} fixed, " in fixed.stdout
    again = jaxlint("check", "--diff", "--no-cache", *extra, ".", cwd=tmp_path)
    assert again.returncode == 0 and again.stdout == "", again.stdout


def test_fix_counts_of_a_file_linted_again_add_up(tmp_path):
    """With --fix, b.py is fixed twice in one run (JAX702 first, JAX103 when the re-check
    knows ``helper`` is traced): --show-fixes lists both, as the total counts them."""
    _package(tmp_path)
    run = jaxlint(
        "check", "--fix", "--unsafe-fixes", "--show-fixes", "--no-cache", ".", cwd=tmp_path
    )
    assert run.returncode == 0, run.stdout + run.stderr
    listed = run.stdout.split("Fixed 3 error(s):\n", 1)[1].split("\n\n", 1)[0]
    assert listed.splitlines() == [
        "- pkg/a.py:",
        "    1 × JAX702 (removed-api)",
        "- pkg/b.py:",
        "    1 × JAX103 (print-in-traced)",
        "    1 × JAX702 (removed-api)",
    ]


# -- the server ------------------------------------------------------------------------------


class Server:
    """``jaxlint server`` over its pipes, spoken to in raw JSON-RPC (a client library
    would refuse to send the malformed requests these tests need)."""

    def __init__(self, cwd: Path, command: list[str] | None = None):
        self.cwd = cwd
        self.command = command or [
            sys.executable,
            "-m",
            "jaxlint",
            "server",
            "--exact-delay",
            "0.05",
        ]
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.next_id = 0
        self.versions: dict[str, int] = {}

    def __enter__(self) -> Server:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "JAXLINT_CACHE_DIR": str(self.cwd / ".c")}
        self.stderr = open(self.cwd / "server.log", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            self.command,
            cwd=self.cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
        )
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=WAIT)
        self.stderr.close()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            assert length is not None
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"method": method, **({} if params is None else {"params": params})})

    def wait(self, predicate, what: str) -> dict[str, Any]:
        for message in self.seen:
            if predicate(message):
                return message
        deadline = time.monotonic() + WAIT
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {what} from the server (got {self.seen[-5:]})")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            self.seen.append(message)
            if predicate(message):
                return message

    def response(self, msg_id: int) -> dict[str, Any]:
        return self.wait(
            lambda m: m.get("id") == msg_id and "method" not in m, f"response to request {msg_id}"
        )

    def initialize(self, options: Any = None) -> None:
        msg_id = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": self.cwd.as_uri(),
                "capabilities": {},
                "initializationOptions": options,
            },
        )
        assert "result" in self.response(msg_id)
        self.notify("initialized", {})

    def uri(self, name: str) -> str:
        return (self.cwd / name).as_uri()

    def open(self, name: str, text: str) -> None:
        (self.cwd / name).write_text(text, encoding="utf-8", errors="surrogatepass")
        self.versions[name] = 1
        item = {"uri": self.uri(name), "languageId": "python", "version": 1, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": item})

    def replace(self, name: str, text: str) -> None:
        self.versions[name] += 1
        doc = {"uri": self.uri(name), "version": self.versions[name]}
        self.notify(
            "textDocument/didChange", {"textDocument": doc, "contentChanges": [{"text": text}]}
        )

    def diagnostics(self, name: str) -> list[dict[str, Any]]:
        """The diagnostics published for the document's current version."""
        uri, version = self.uri(name), self.versions[name]
        found = self.wait(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == uri
                and m["params"].get("version") == version
            ),
            f"diagnostics for {name} v{version}",
        )
        return found["params"]["diagnostics"]

    def shutdown_and_exit(self) -> int:
        assert self.response(self.request("shutdown", None)).get("result") is None
        self.notify("exit")
        return self.proc.wait(timeout=WAIT)


needs_pygls = pytest.mark.skipif(
    not all(__import__("importlib").util.find_spec(m) is not None for m in ("pygls", "lsprotocol")),
    reason="jaxlint server needs the lsp extra (pygls >= 2)",
)


@needs_pygls
def test_buffer_above_max_file_size_gets_one_diagnostic_and_no_parse(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nmax-file-size = "1kB"\n')
    # the server with every parser jaxlint uses replaced: any parse fails the handler
    patched = textwrap.dedent(
        """\
        import sys
        import ast, libcst
        def no(*args, **kwargs):
            raise AssertionError("parsed")
        ast.parse = libcst.parse_module = no
        import jaxlint.engine, jaxlint.server.incremental
        jaxlint.engine.parse_module = no
        from jaxlint.cli import main
        sys.exit(main(["server", "--exact-delay", "0.05"]))
        """
    )
    big = GOOD + "".join(f"z{i} = jax.tree_map(f, {i})\n" for i in range(60)) + "def (:\n"
    assert len(big.encode()) > 1000
    with Server(tmp_path, [sys.executable, "-c", patched]) as s:
        s.initialize()
        s.open("big.py", big)
        (diag,) = s.diagnostics("big.py")
        assert diag["code"] == "JAX000" and diag["severity"] == 2  # a warning
        assert "not checked" in diag["message"] and "max-file-size (1,000 bytes)" in diag["message"]
        assert diag["range"]["start"] == {"line": 0, "character": 0}
        s.replace("big.py", big + "w = 1\n")  # an edit that keeps it too large
        (diag,) = s.diagnostics("big.py")
        assert "not checked" in diag["message"]
        # a character of several bytes counts as its UTF-8 size
        wide = "x = '" + "\u00e9" * 600 + "'\n"
        s.replace("big.py", wide)
        (diag,) = s.diagnostics("big.py")
        assert "1,207 bytes is above max-file-size" in diag["message"]
    with Server(tmp_path) as s:  # below the limit: linted as usual
        s.initialize()
        s.open("small.py", GOOD)
        assert [d["code"] for d in s.diagnostics("small.py")] == ["JAX702"]
        s.replace("small.py", big)
        assert [d["code"] for d in s.diagnostics("small.py")] == ["JAX000"]
        s.replace("small.py", GOOD)
        assert [d["code"] for d in s.diagnostics("small.py")] == ["JAX702"]
        assert s.shutdown_and_exit() == 0


def _children(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    todo = [pid]
    while todo:
        here = todo.pop()
        for child, parent in parents.items():
            if parent == here and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended


@needs_pygls
@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_worker_ends_when_the_server_is_killed(tmp_path):
    with Server(tmp_path) as s:
        s.initialize()
        s.open("model.py", GOOD)
        s.diagnostics("model.py")
        s.replace("model.py", GOOD + "z = jax.tree_map(f, 2)\n")
        # the fast pass, then the full lint in the worker process
        s.wait(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics"
                and m["params"].get("version") == 2
                and len(m["params"]["diagnostics"]) == 2
            ),
            "diagnostics for version 2",
        )
        deadline = time.monotonic() + WAIT
        while not (children := _children(s.proc.pid)):
            assert time.monotonic() < deadline, "the server started no worker"
            time.sleep(0.1)
        time.sleep(1.0)  # anything else it starts (a resource tracker) is up by now
        children |= _children(s.proc.pid)
        os.kill(s.proc.pid, signal.SIGKILL)
        s.proc.wait(timeout=WAIT)
        deadline = time.monotonic() + WAIT
        while left := {pid for pid in children if _alive(pid)}:
            if time.monotonic() > deadline:
                for pid in left:
                    os.kill(pid, signal.SIGKILL)
                raise AssertionError(f"still running after the server was killed: {left}")
            time.sleep(0.1)


@needs_pygls
def test_request_with_bad_params_gets_invalid_params(tmp_path):
    with Server(tmp_path) as s:
        s.initialize()
        s.open("model.py", GOOD)
        bad = s.request("textDocument/hover", {"textDocument": 5, "position": "here"})
        answer = s.response(bad)
        assert answer["error"]["code"] == -32602, answer
        assert "textDocument/hover" in answer["error"]["message"]
        # a code action request without its range: the same
        bad = s.request("textDocument/codeAction", {"textDocument": {"uri": s.uri("model.py")}})
        assert s.response(bad)["error"]["code"] == -32602
        # and the server goes on
        good = s.request(
            "textDocument/hover",
            {"textDocument": {"uri": s.uri("model.py")}, "position": {"line": 2, "character": 6}},
        )
        assert "JAX702" in s.response(good)["result"]["contents"]["value"]
        assert s.shutdown_and_exit() == 0


@needs_pygls
def test_requests_after_shutdown_get_invalid_request_and_exit_codes(tmp_path):
    with Server(tmp_path) as s:
        s.initialize()
        assert s.response(s.request("shutdown", None)).get("result") is None
        hover = s.request(
            "textDocument/hover",
            {"textDocument": {"uri": s.uri("model.py")}, "position": {"line": 0, "character": 0}},
        )
        assert s.response(hover)["error"]["code"] == -32600
        assert s.response(s.request("shutdown", None))["error"]["code"] == -32600
        s.notify("exit")
        assert s.proc.wait(timeout=WAIT) == 0
    with Server(tmp_path) as s:  # exit without shutdown: 1
        s.initialize()
        s.notify("exit")
        assert s.proc.wait(timeout=WAIT) == 1


@needs_pygls
def test_lone_surrogate_in_an_editor_buffer_is_a_finding(tmp_path):
    with Server(tmp_path) as s:
        s.initialize()
        s.open("model.py", "import jax\nx = '\ud800'\n")
        (diag,) = s.diagnostics("model.py")
        assert diag["code"] == "JAX000" and "lone surrogate" in diag["message"]
        assert diag["range"]["start"] == {"line": 1, "character": 5}
        assert s.shutdown_and_exit() == 0
