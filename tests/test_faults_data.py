"""Issue 28, round two: data loss, code execution and writes outside the tree.

Each test here failed on the code before the fix (commit 01ef978) and passes after;
docs/reliability.md ("Round two") lists the promise each one checks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import libcst as cst
import pytest
from cli_support import runner

from jaxlint.positions import compute_positions

CONCISE = ("--output-format", "concise", "--no-cache")


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)

    return runner(capsys)


# -- 1. positions in the text's units, whatever the whitespace before a node ---------------------

CALL = "x = jax.tree_map(f, y)"
FIXED_CALL = "x = jax.tree.map(f, y)"

ODD_WHITESPACE = [
    pytest.param("import jax\n\f{call}\n", id="form-feed"),
    pytest.param("import jax\n \f{call}\n", id="space-form-feed"),
    pytest.param("import jax\n\t\f{call}\n", id="tab-form-feed"),
    pytest.param("import jax\n\f\f  \f{call}\n", id="form-feeds-and-blanks"),
    pytest.param("\fimport jax\n\f{call}\n", id="form-feed-on-first-line"),
    pytest.param("import jax\r\n\f{call}\r\n", id="crlf-form-feed"),
    pytest.param("import jax\r\f{call}\r", id="cr-form-feed"),
    pytest.param(
        "import jax\n\f@d\ndef g():\n  \f  return 1\n\f{call}\n", id="form-feed-in-a-block"
    ),
    pytest.param("import jax\ndef g():\n    a = 1\n\f    {call}\n", id="form-feed-before-indent"),
    pytest.param("import jax\nif True:\n\t{call}\n", id="tab-indent"),
    pytest.param("import jax\n\u00e9 = '\u4e2d\U0001f600'; {call}\n", id="non-ascii-before"),
    pytest.param("import jax\nx = 1\f\n{call}\n", id="form-feed-line-end"),
    pytest.param("import jax\n\f# page two\n{call}\n", id="form-feed-comment-line"),
    pytest.param("import jax\ny = (1,\n\f2); {call}\n", id="form-feed-in-brackets"),
    # libcst 1.9 leaves out the empty lines before a last line of blanks or a comment after
    # the last statement (jax-fem 0.0.12's aesthetic/debug.py ends in "\n\n\n\n ")
    pytest.param("import jax\n{call}\n\n\n\n ", id="blank-lines-before-blank-last-line"),
    pytest.param("import jax\n{call}\n\n \n", id="blank-line-before-blank-line"),
    pytest.param("import jax\r\n{call}\r\n\r\n \r\n", id="crlf-blank-lines-at-end"),
    pytest.param("import jax\nif x:\n    {call}\n\n \n# c\n", id="blank-lines-before-comment"),
    pytest.param("import jax\n{call}\n\n\f\n\n\t", id="form-feed-line-at-end"),
]


@pytest.mark.parametrize("template", ODD_WHITESPACE)
@pytest.mark.parametrize("bom", [False, True], ids=["", "bom"])
def test_fix_after_odd_whitespace_lands_on_the_node(cli, tmp_path: Path, template, bom) -> None:
    source = template.format(call=CALL)
    prefix = b"\xef\xbb\xbf" if bom else b""
    path = tmp_path / "m.py"
    path.write_bytes(prefix + source.encode())
    reported = cli(*CONCISE, "m.py")
    row = next(i for i, line in enumerate(_lines(source), 1) if CALL in line)
    column = _lines(source)[row - 1].index("jax.tree_map") + 1
    assert f"m.py:{row}:{column}: JAX702" in reported.out
    cli(*CONCISE, "--fix", "m.py")
    assert path.read_bytes() == prefix + template.format(call=FIXED_CALL).encode()


def _lines(text: str) -> list[str]:
    import re

    return re.split(r"\r\n|\r|\n", text)


def test_vertical_tab_is_a_parse_error_and_the_file_is_untouched(cli, tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    source = f"import jax\n\v{CALL}\n".encode()
    path.write_bytes(source)
    run = cli(*CONCISE, "--fix", "m.py")
    assert run.code != 0 and "JAX000" in run.out
    assert path.read_bytes() == source


@pytest.mark.parametrize("template", ODD_WHITESPACE)
def test_every_name_position_points_at_the_name_in_the_text(template) -> None:
    text = template.format(call=CALL)
    module = cst.parse_module(text)
    positions = compute_positions(module, text)
    lines = _lines(text)
    names = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            names.append(node)

    module.visit(Names())
    assert names
    for node in names:
        rng = positions[node]
        assert rng.start.line == rng.end.line
        assert lines[rng.start.line - 1][rng.start.column : rng.end.column] == node.value


def test_a_fix_whose_text_holds_a_dropped_form_feed_is_not_offered() -> None:
    text = "def g():\n    a = 1\n\f    b = 2\n"
    module = cst.parse_module(text)
    assert module.code != text  # libcst leaves the form feed out
    positions = compute_positions(module, text)
    func = module.body[0]
    assert positions.drops_within(func)  # a fix replacing it would lose the form feed
    first = func.body.body[0]
    assert not positions.drops_within(first)


def test_blank_lines_libcst_leaves_out_at_the_end_are_placed_in_the_text() -> None:
    text = "import jax\nx = 1\n\n\n\n "
    module = cst.parse_module(text)
    assert module.code == "import jax\nx = 1\n "  # libcst 1.9 leaves out two lines
    positions = compute_positions(module, text)
    assert positions.exact
    last = module.body[-1]
    assert positions[last].start.line == 2 and not positions.drops_within(last)
    end = positions[module].end
    # the text's end (with the newline libcst adds and pops), not the generated code's
    assert (end.line, end.column) == (7, 0)
    assert positions.drops_within(module)  # a fix replacing the module would lose them


# -- 4. checking never runs a program the checked tree configures --------------------------------

SAMPLE = "import jax.numpy as jnp\nx = jnp.round_(3)\n"


def _git(*args: str, cwd: Path) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(cwd)}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


def _planted_program(tmp_path: Path) -> tuple[Path, Path]:
    """A script that leaves a marker file when anything runs it."""
    marker = tmp_path / "RAN"
    script = tmp_path / "evil.sh"
    script.write_text(f"#!/bin/sh\necho ran >> '{marker}'\nexit 0\n")
    script.chmod(0o755)
    return script, marker


TREE_CONFIGS = {
    "fsmonitor": lambda script: f"[core]\n\tfsmonitor = {script}\n",
    "fsmonitor-bool-hook": lambda script: (
        f"[core]\n\tfsmonitor = {script}\n\tfsmonitorHookVersion = 2\n"
    ),
    "pager-and-editor": lambda script: f"[core]\n\tpager = {script}\n\teditor = {script}\n",
    "ssh-and-askpass": lambda script: f"[core]\n\tsshCommand = {script}\n\taskPass = {script}\n",
    "hooks-path": lambda script: f"[core]\n\thooksPath = {script.parent / 'hooks'}\n",
}


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("kind", sorted(TREE_CONFIGS))
@pytest.mark.parametrize("included", [False, True], ids=["config", "include-path"])
def test_check_never_runs_what_the_trees_git_config_names(
    cli, tmp_path: Path, kind: str, included: bool
) -> None:
    script, marker = _planted_program(tmp_path)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "fsmonitor-watchman", "reference-transaction"):
        (hooks / hook).symlink_to(script)
    tree = tmp_path / "tree"
    tree.mkdir()
    _git("init", "-q", cwd=tree)
    (tree / ".gitignore").write_text("ignored_*.py\n")
    (tree / "a.py").write_text(SAMPLE)
    (tree / "ignored_b.py").write_text(SAMPLE)
    _git("add", "a.py", ".gitignore", cwd=tree)  # an index for fsmonitor to refresh
    config = TREE_CONFIGS[kind](script)
    if included:
        (tree / ".git" / "extra.conf").write_text(config)
        config = "[include]\n\tpath = extra.conf\n"
    with open(tree / ".git" / "config", "a") as fh:
        fh.write(config)
    assert not marker.exists()
    run = cli(*CONCISE, str(tree))
    assert not marker.exists(), f"jaxlint ran the tree's program ({kind})"
    assert "a.py" in run.out and "ignored_b.py" not in run.out  # .gitignore still honoured


# -- 7. a cached module summary of the wrong shape is a miss, never a failed run --------------

PROJECT = {
    "pyproject.toml": "",
    "b.py": (
        "import jax\n\ndef helper(x, n):\n    if x > 0:\n        return x\n    return n\n\n"
        "class Model:\n    w: jax.Array\n\n"
        'mesh = jax.sharding.Mesh(jax.devices(), ("x",))\nkey = jax.random.key(0)\n'
    ),
    "a.py": (
        "import jax\nfrom b import helper, Model\n\n@jax.jit\ndef step(x):\n"
        "    return helper(x, 1)\n\ng = jax.jit(helper, static_argnums=1)\n"
    ),
}

MALFORMED_SUMMARIES = {
    "imports-a-list": lambda b: {**b, "imports": [1]},
    "import-target-a-number": lambda b: {**b, "imports": dict.fromkeys(b["imports"], 3)},
    "calls-target-a-number": lambda b: {**b, "calls": [{"target": 1}]},
    "calls-a-dict": lambda b: {**b, "calls": {"x": 1}},
    "call-args-a-number": lambda b: {**b, "calls": [{**c, "args": 5} for c in b["calls"]]},
    "call-args-not-pairs": lambda b: {**b, "calls": [{**c, "args": [[1]]} for c in b["calls"]]},
    "call-literal-a-deep-list": lambda b: {
        **b,
        "calls": [{**c, "static_argnums": _deep(200)} for c in b["calls"]],
    },
    "functions-a-number": lambda b: {**b, "functions": 5},
    "function-params-a-number": lambda b: {
        **b,
        "functions": {k: {**v, "params": 7} for k, v in b["functions"].items()},
    },
    "function-keys-a-list": lambda b: {
        **b,
        "functions": {k: {**v, "keys": [1]} for k, v in b["functions"].items()},
    },
    "class-bases-a-number": lambda b: {
        **b,
        "classes": {k: {**v, "bases": 3} for k, v in b["classes"].items()},
    },
    "class-attrs-a-list": lambda b: {
        **b,
        "classes": {k: {**v, "attrs": ["w"]} for k, v in b["classes"].items()},
    },
    "value-kind-missing": lambda b: {**b, "values": {k: {"line": 1} for k in b["values"]}},
    "module-a-number": lambda b: {**b, "module": 1},
    "line-a-string": lambda b: {
        **b,
        "functions": {k: {**v, "line": "1"} for k, v in b["functions"].items()},
    },
    "not-a-dict": lambda b: [b],
}


def _deep(n: int) -> list:
    out: list = []
    for _ in range(n):
        out = [out]
    return out


def _poison_summaries(cache: Path, mutate) -> int:
    import hashlib
    import json

    count = 0
    for path in cache.rglob("*"):
        if not path.is_file() or path.parent.parent.parent != cache:
            continue
        fmt, key, _, payload = path.read_bytes().split(b"\n", 3)
        if not key.startswith((b"s", b"p")):
            continue
        payload = json.dumps(mutate(json.loads(payload))).encode()
        checksum = hashlib.sha256(payload).hexdigest().encode()
        path.write_bytes(b"\n".join([fmt, key, checksum, payload]))
        count += 1
    return count


@pytest.mark.parametrize("edited", ["a.py", "b.py"])
@pytest.mark.parametrize("kind", sorted(MALFORMED_SUMMARIES))
def test_malformed_cached_summary_is_a_miss(cli, tmp_path: Path, kind: str, edited: str) -> None:
    for name, text in PROJECT.items():
        (tmp_path / name).write_text(text)
    expected = cli("--output-format", "concise", "--no-cache", ".")
    assert "JAX201" in expected.out  # the finding needs b's summary of a's call
    cli("--output-format", "concise", ".")  # fills the cache
    assert _poison_summaries(tmp_path / ".jaxlint_cache", MALFORMED_SUMMARIES[kind]) >= 2
    with open(tmp_path / edited, "a") as fh:  # linted again, reading the other's summary
        fh.write("# edited\n")
    run = cli("--output-format", "concise", ".")
    assert "internal error" not in run.err and "JAX000" not in run.out
    assert (run.code, run.out) == (expected.code, expected.out)


def test_summaries_jaxlint_writes_pass_the_shape_check(cli, tmp_path: Path) -> None:
    """The check must not turn every sound summary into a miss (each run would parse again)."""
    import json

    from jaxlint.analysis.project import SUMMARY_FORMAT
    from jaxlint.analysis.summary_check import is_summary

    for name, text in PROJECT.items():
        (tmp_path / name).write_text(text)
    examples = Path(__file__).resolve().parent.parent / "examples"
    shutil.copytree(examples, tmp_path / "examples")
    cli("--output-format", "concise", ".")
    blobs = []
    for path in (tmp_path / ".jaxlint_cache").rglob("*"):
        if path.is_file() and path.parent.parent.parent == tmp_path / ".jaxlint_cache":
            _, key, _, payload = path.read_bytes().split(b"\n", 3)
            if key.startswith((b"s", b"p")):
                blobs.append(json.loads(payload))
    assert len(blobs) >= 3 and any(b["calls"] for b in blobs)
    assert all(is_summary(b, SUMMARY_FORMAT) for b in blobs)


# -- 2. `jaxlint clean` deletes only a cache jaxlint made, and only what it made -------------------

OLD_MARKER = "jaxlint results cache: this whole folder is removed by `jaxlint clean`.\n"
"""The marker's text as jaxlint wrote it before issue 28 (anyone can write it)."""


def _checkout(root: Path) -> list[str]:
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text(SAMPLE)
    (root / "JAXLINT_CACHE").write_text(OLD_MARKER)  # a file named like the marker
    return _listing(root)


def _listing(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize(
    "args", [(), (".",), ("--cache-dir", "."), ("ABS",), ("--cache-dir", "ABS")]
)
def test_clean_never_deletes_a_checkout_holding_a_marker_file(
    cli, tmp_path: Path, args: tuple[str, ...]
) -> None:
    root = tmp_path / "checkout"
    root.mkdir()
    before = _checkout(root)
    os.chdir(root)
    run = cli("clean", *(str(root) if a == "ABS" else a for a in args))
    assert root.exists() and _listing(root) == before
    assert "Removing" not in run.out
    if "--cache-dir" in args:  # named, holds the marker, and is no cache: an error
        assert run.code == 2 and "not removed" in run.err


def test_clean_of_a_former_cache_dir_keeps_the_users_file(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("check", "--cache-dir", "c", "a.py")
    notes = tmp_path / "c" / "notes.txt"
    notes.write_text("mine")
    before = _listing(tmp_path / "c")
    run = cli("clean", "--cache-dir", "c")
    assert run.code == 2 and "notes.txt" in run.err and "Removing" not in run.out
    assert notes.read_text() == "mine" and _listing(tmp_path / "c") == before
    # nor is it used as a cache any more
    assert cli("check", "--cache-dir", "c", "a.py").code == 2
    assert _listing(tmp_path / "c") == before


@pytest.mark.parametrize("extra", ["file", "folder", "link", "git"])
def test_clean_refuses_a_cache_folder_holding_anything_else(
    cli, tmp_path: Path, extra: str
) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("check", "a.py")
    cache = tmp_path / ".jaxlint_cache"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep")
    if extra == "file":
        (cache / "todo.md").write_text("mine")
    elif extra == "folder":
        (cache / "data").mkdir()
    elif extra == "link":
        engine = next(p for p in cache.iterdir() if p.is_dir())
        (engine / "zz").symlink_to(outside)
    else:
        (cache / ".git").mkdir()
    before = _listing(tmp_path)
    run = cli("clean")
    assert run.code == 2 and "not removed" in run.err
    assert _listing(tmp_path) == before
    assert (outside / "keep.txt").read_text() == "keep"


def test_clean_never_deletes_the_folder_it_runs_in(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("check", "a.py")
    cache = tmp_path / ".jaxlint_cache"
    os.chdir(cache)
    run = cli("clean", "--cache-dir", ".")
    assert cache.is_dir() and run.code == 2
    os.chdir(tmp_path)
    run = cli("clean")  # from outside it, it is a cache
    assert run.code == 0 and not cache.exists()


# -- 5. a committed or copied cache folder is not trusted, and no link in it is followed ---------


def _plant_cache(root: Path) -> Path:
    """A committed ``.jaxlint_cache/`` as the issue's attack ships it."""
    from jaxlint.cache import CACHEDIR_TAG, GITIGNORE

    cache = root / ".jaxlint_cache"
    cache.mkdir()
    (cache / "JAXLINT_CACHE").write_text(OLD_MARKER)
    (cache / "CACHEDIR.TAG").write_text(CACHEDIR_TAG)
    (cache / ".gitignore").write_text(GITIGNORE)
    return cache


@pytest.mark.parametrize("where", ["engine-folder", "shard-folders", "cache-folder"])
def test_a_link_in_a_committed_cache_is_never_written_through(
    cli, tmp_path: Path, where: str
) -> None:
    from jaxlint.cache import engine_fingerprint

    victim = tmp_path / "victim"
    victim.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.py").write_text(SAMPLE)
    (project / "pyproject.toml").write_text("")
    if where == "cache-folder":
        (project / ".jaxlint_cache").symlink_to(victim)
    else:
        cache = _plant_cache(project)
        engine = cache / engine_fingerprint()[:16]
        if where == "engine-folder":
            engine.symlink_to(victim)
        else:
            engine.mkdir()
            for first in "0123456789abcdefsp":
                for second in "0123456789abcdef":
                    (engine / f"{first}{second}").symlink_to(victim)
    os.chdir(project)
    run = cli("check", *CONCISE[:2], "a.py")
    assert run.code == 1 and "JAX702" in run.out  # the run itself goes on
    assert list(victim.iterdir()) == []


def test_a_copied_cache_with_forged_entries_is_not_trusted(cli, tmp_path: Path) -> None:
    from jaxlint.cache import CachedResult, encode_entry

    (tmp_path / "a.py").write_text(SAMPLE)
    assert "JAX702" in cli("check", "--output-format", "concise", "a.py").out
    cache = tmp_path / ".jaxlint_cache"
    # every entry now says "no findings", checksums right: what a committed cache can ship
    for path in cache.rglob("*"):
        if path.is_file() and len(path.name) == 64:
            path.write_bytes(encode_entry(path.name, CachedResult([])))
    shutil.copytree(cache, tmp_path / "copy", symlinks=True)
    shutil.rmtree(cache)
    (tmp_path / "copy").rename(cache)  # the same files, another folder
    run = cli("check", "--output-format", "concise", "a.py")
    assert run.code == 1 and "JAX702" in run.out


def test_a_link_made_inside_a_cache_after_it_was_opened_is_not_followed(tmp_path: Path) -> None:
    from jaxlint.cache import Cache, CachedResult

    victim = tmp_path / "victim"
    victim.mkdir()
    cache = Cache.open(tmp_path / "cache")
    assert cache is not None
    cache.entries.symlink_to(victim)  # swapped in while the run goes on
    key = "ab" + "0" * 62
    cache.put(key, CachedResult([]))
    cache.put_blob("s" + key, {"format": 1})
    assert list(victim.iterdir()) == [] and cache.write_errors == 2
    (victim / "ab").mkdir()
    (victim / "ab" / key).write_bytes(b"anything")
    assert cache.get(key, "a.py") is None and cache.get_blob("s" + key) is None


# -- 3. a hard-linked file is never split by a fix ----------------------------------------------

FIXED = "import jax.numpy as jnp\nx = jnp.round(3)\n"


@pytest.mark.parametrize("mode", ["--fix", "--add-noqa"])
def test_hard_linked_file_is_not_fixed_and_keeps_every_name(cli, tmp_path: Path, mode: str) -> None:
    (tmp_path / "f.py").write_text(SAMPLE)
    os.link(tmp_path / "f.py", tmp_path / "other_name.txt")
    (tmp_path / "ok.py").write_text(SAMPLE)
    run = cli("check", *CONCISE, mode, "f.py", "ok.py")
    assert run.code == 2
    assert "f.py: file has 2 hard links" in run.err and "not fixed" in run.err
    assert (tmp_path / "f.py").read_text() == SAMPLE
    assert (tmp_path / "other_name.txt").read_text() == SAMPLE
    assert os.stat(tmp_path / "f.py").st_nlink == 2  # still one file
    assert (tmp_path / "ok.py").read_text() != SAMPLE  # the others are written
    assert [p.name for p in tmp_path.iterdir() if "jaxlint-tmp" in p.name] == []
    if mode == "--fix":
        assert (tmp_path / "ok.py").read_text() == FIXED
        assert "f.py:2:5: JAX702" in run.out  # its finding is still reported


def test_hard_link_made_while_fixing_is_not_split(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import jaxlint.source

    (tmp_path / "f.py").write_text(SAMPLE)

    def link_now(path: Path) -> None:
        os.link(path, tmp_path / "late_link.py.bak")

    monkeypatch.setattr(jaxlint.source, "_before_rename", link_now)
    run = cli("check", *CONCISE, "--fix", "f.py")
    assert run.code == 2 and "hard links" in run.err
    assert (tmp_path / "f.py").read_text() == SAMPLE
    assert (tmp_path / "late_link.py.bak").read_text() == SAMPLE
    assert [p.name for p in tmp_path.iterdir() if "jaxlint-tmp" in p.name] == []


# -- 1 (continued). a rule's own fix counts lines as positions do --------------------------------

JIT_IN_LOOP = (
    "import jax\n\ndef train_step(w, x):\n    return w\n\ndef train(w, batches):\n"
    "    for x in batches:\n        step = jax.jit(train_step)\n        w = step(w, x)\n"
    "    return w\n"
)
JIT_HOISTED = (
    "import jax\n\ndef train_step(w, x):\n    return w\n\ndef train(w, batches):\n"
    "    step = jax.jit(train_step)\n    for x in batches:\n        w = step(w, x)\n"
    "    return w\n"
)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_jit_in_loop_fix_counts_lines_as_positions_do(cli, tmp_path: Path, newline: str) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(JIT_IN_LOOP.replace("\n", newline).encode())
    run = cli("check", *CONCISE, "--extend-select", "JAX401", "--fix", "--unsafe-fixes", "m.py")
    assert "internal error" not in run.err and run.code == 0
    assert path.read_bytes() == JIT_HOISTED.replace("\n", newline).encode()


def test_reindenting_a_moved_statement_leaves_string_content_alone() -> None:
    from jaxlint.rules.compilation.jit_in_loop_fix import _reindented

    # U+2028 and a form feed inside a string are not line breaks to Python
    for sep in ("\u2028", "\f", "\x1c", "\x85"):
        statement = f'step = jax.jit(\n            f, "a{sep}            b",\n        )'
        moved = _reindented(statement, "        ", "    ")
        assert f'"a{sep}            b"' in moved
        assert moved == f'step = jax.jit(\n        f, "a{sep}            b",\n    )'


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
@pytest.mark.parametrize("ending", [True, False], ids=["ends-with-newline", "no-final-newline"])
def test_added_import_counts_lines_as_positions_do(newline: str, ending: bool) -> None:
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.engine import _ImportPlacer
    from jaxlint.fixers.edits import edit_text

    text = f"import os{newline}x = 1" + (newline if ending else "")
    module = cst.parse_module(text)
    placer = _ImportPlacer(module, SemanticModel(module), compute_positions(module, text), text)
    edit = placer.edit_for("jax")
    assert edit is not None
    expected = f"import os{newline}import jax{newline}x = 1" + (newline if ending else "")
    assert edit_text(text, [edit]) == expected
