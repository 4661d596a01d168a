"""Jupyter notebooks (issue 17): ``jaxlint check`` / ``--fix`` / ``--diff`` / ``--add-noqa`` on
``.ipynb``, cell positions in every output format, IPython lines masked, fixes written back
byte for byte outside the edited cells, cells analysed in order, bad notebooks."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_output_formats import apply_json_edits

import jaxlint.versions
from jaxlint.cli import main
from jaxlint.diagnostics import Edit, Position
from jaxlint.notebook import NotebookError, NotebookModule, mask_cell, parse_notebook

FIXTURES = Path(__file__).parent / "fixtures" / "notebooks"
REPO_ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


@pytest.fixture(autouse=True)
def _pinned_jax(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jaxlint.versions, "installed_jax_version", lambda: "0.12.0")
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture notebooks, as the current folder."""
    for src in FIXTURES.glob("*.ipynb"):
        shutil.copyfile(src, tmp_path / src.name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    capsys.readouterr()
    code = main(["check", "--no-cache", *args])
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)


def notebook(*cells: str | tuple[str, str], style: dict[str, Any] | None = None) -> str:
    """A notebook in nbformat's own layout; a cell is code text or ``(cell_type, text)``."""
    out = []
    for cell in cells:
        kind, text = cell if isinstance(cell, tuple) else ("code", cell)
        item: dict[str, Any] = {"cell_type": kind, "metadata": {}, "source": lines(text)}
        if kind == "code":
            item.update(execution_count=None, outputs=[])
        out.append(item)
    doc = {"cells": out, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    opts = style or {"indent": 1, "ensure_ascii": False, "sort_keys": True}
    return json.dumps(doc, **opts) + "\n"


def lines(text: str) -> list[str]:
    return re.findall(r"[^\n]*\n|[^\n]+", text)


FINDING_RE = re.compile(
    r"^(?P<file>[^:\n]+):cell (?P<cell>\d+):(?P<row>\d+):(?P<col>\d+): (?P<code>JAX\d+)", re.M
)


def findings(out: str) -> list[tuple[str, int, int, int, str]]:
    return [
        (m["file"], int(m["cell"]), int(m["row"]), int(m["col"]), m["code"])
        for m in FINDING_RE.finditer(out)
    ]


# -- the fixture corpus ------------------------------------------------------------------------------

EXPECTED = [
    ("colab_style.ipynb", 4, 2, 12, "JAX702"),  # jnp.round_
    ("training.ipynb", 6, 3, 7, "JAX702"),  # jax.tree_map
    ("training.ipynb", 6, 3, 33, "JAX405"),  # donated in cell 3's function, read in cell 6
    ("training.ipynb", 8, 2, 1, "JAX601"),  # x[0] = 1.0
]


def test_folder_check_finds_the_corpus_findings(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = run(capsys, "--output-format", "concise", ".")
    assert r.code == 1, r.err
    assert findings(r.out) == EXPECTED
    assert r.out.count(": JAX") == len(EXPECTED)  # nothing else: no magic, no markdown
    assert "Found 4 error(s)." in r.out
    assert r.err == ""


def test_clean_notebook_passes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "clean.ipynb")
    assert (r.code, r.out) == (0, "All checks passed!\n")


def test_text_output_shows_the_cell_line(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "training.ipynb")
    assert "training.ipynb:cell 8:2:1: JAX601 [*] `x` is a JAX array" in r.out
    assert "2 | x[0] = 1.0\n  | ^^^^ JAX601\n" in r.out
    assert "3 | print(jax.tree_map(lambda x: x, params))\n" in r.out


def test_magics_and_non_python_cells_are_never_reported(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # training cell 7: `jax.tree_map?`, `%timeit jnp.round_(params)`, `!echo`, `sizes = !ls`;
    # colab cell 3 is %%bash mentioning jax.tree_map, cell 5 a raw cell
    r = run(capsys, "--output-format", "concise", "--select", "ALL", ".")
    cells = {(f, c) for f, c, *_ in findings(r.out)}
    assert ("training.ipynb", 7) not in cells
    assert ("colab_style.ipynb", 3) not in cells
    assert ("colab_style.ipynb", 5) not in cells
    assert "JAX000" not in r.out  # the masked IPython lines parse


@pytest.mark.parametrize(
    ("name", "replacements", "remaining"),
    [
        (
            "training.ipynb",
            [
                (
                    '"print(jax.tree_map(lambda x: x, params))\\n"',
                    '"print(jax.tree.map(lambda x: x, params))\\n"',
                ),
                ('"x[0] = 1.0\\n",', '"x = x.at[0].set(1.0)\\n",'),
            ],
            1,  # JAX405 has no fix
        ),
        ("colab_style.ipynb", [("return jnp.round_(x)", "return jnp.round(x)")], 0),
    ],
)
def test_fix_is_byte_exact_outside_the_edited_cells(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    replacements: list[tuple[str, str]],
    remaining: int,
) -> None:
    before = (project / name).read_bytes()
    expected = before.decode()
    for old, new in replacements:
        assert expected.count(old) == 1
        expected = expected.replace(old, new)
    r = run(capsys, "--fix", name)
    assert r.code == (1 if remaining else 0), r.out + r.err
    after = (project / name).read_bytes()
    # the whole file: indentation, key order, escapes, outputs, metadata, final newline
    assert after == expected.encode()
    assert after.endswith(b"\n") == before.endswith(b"\n")
    # a second --fix changes nothing
    run(capsys, "--fix", name)
    assert (project / name).read_bytes() == after


def test_fix_keeps_ascii_escapes_and_raw_unicode_as_the_notebook_writes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    src = ("markdown", "Résumé"), "import jax\ny = jax.tree_map(abs, [1])  # é"
    ascii_style = notebook(*src, style={"indent": 2, "ensure_ascii": True})[:-1]  # no final \n
    raw_style = notebook(*src)
    (tmp_path / "a.ipynb").write_text(ascii_style, encoding="utf-8")
    (tmp_path / "r.ipynb").write_text(raw_style, encoding="utf-8")
    run(capsys, "--fix", "a.ipynb", "r.ipynb")
    assert (tmp_path / "a.ipynb").read_text("utf-8") == ascii_style.replace(
        "jax.tree_map", "jax.tree.map"
    )
    assert (tmp_path / "r.ipynb").read_text("utf-8") == raw_style.replace(
        "jax.tree_map", "jax.tree.map"
    )
    assert "\\u00e9" in ascii_style and "é" in raw_style


def test_a_fix_that_needs_an_import_adds_it_in_the_imports_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    text = notebook("from jax.random import PRNGKey", "%time k = 1\nkey = PRNGKey(0)")
    (tmp_path / "k.ipynb").write_text(text)
    r = run(capsys, "--select", "JAX302", "--fix", "--unsafe-fixes", "k.ipynb")
    assert r.code == 0, r.out + r.err
    cells = [c["source"] for c in json.loads((tmp_path / "k.ipynb").read_text())["cells"]]
    assert cells == [
        ["from jax.random import PRNGKey\n", "import jax"],
        ["%time k = 1\n", "key = jax.random.key(0)"],
    ]


def test_diff_prints_one_diff_per_cell_and_writes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p.name: p.read_bytes() for p in project.glob("*.ipynb")}
    r = run(capsys, "--diff", ".")
    assert r.code == 1
    assert "--- a/training.ipynb:cell 6\n+++ b/training.ipynb:cell 6\n" in r.out
    assert "-print(jax.tree_map(lambda x: x, params))\n+print(jax.tree.map(" in r.out
    assert "--- a/training.ipynb:cell 8\n" in r.out
    assert "--- a/colab_style.ipynb:cell 4\n" in r.out
    assert "Would fix 3 error(s) in 2 file(s)." in r.err
    assert {p.name: p.read_bytes() for p in project.glob("*.ipynb")} == before


def test_add_noqa_comments_go_into_the_cells(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (project / "training.ipynb").read_text()
    r = run(capsys, "--add-noqa", "training.ipynb")
    assert r.code == 0, r.err
    assert "Added 2 noqa directive(s)." in r.out
    after = (project / "training.ipynb").read_text()
    assert after == before.replace(
        'x, params))\\n"', 'x, params))  # noqa: JAX405, JAX702\\n"'
    ).replace('"x[0] = 1.0\\n"', '"x[0] = 1.0  # noqa: JAX601\\n"')
    assert run(capsys, "training.ipynb").code == 0


# -- ruff's JSON conventions for notebooks ----------------------------------------------------------


def test_json_has_the_cell_and_rows_within_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = run(capsys, "--output-format", "json", "training.ipynb").json()
    got = [(i["cell"], i["location"]["row"], i["location"]["column"], i["code"]) for i in items]
    assert got == [(c, r, col, code) for f, c, r, col, code in EXPECTED if f == "training.ipynb"]
    for item in items:
        assert item["noqa_row"] == item["location"]["row"]
    py = project / "p.py"
    py.write_text("import jax\ny = jax.tree_map(abs, [1])\n")
    assert run(capsys, "--output-format", "json", "p.py").json()[0]["cell"] is None


def test_json_edits_fix_the_cell_as_fix_does(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "training.ipynb"
    items = run(capsys, "--output-format", "json", name).json()
    cells = parse_notebook((project / name).read_bytes()).cells
    expected_cells = {}
    for item in items:
        if item["fix"] and item["fix"]["edits"]:
            text = cells[item["cell"] - 1].text
            expected_cells[item["cell"]] = apply_json_edits(text, item["fix"]["edits"])
    assert set(expected_cells) == {6, 8}
    run(capsys, "--fix", name)
    fixed = parse_notebook((project / name).read_bytes()).cells
    for number, text in expected_cells.items():
        assert fixed[number - 1].text == text


def _ruff() -> str:
    exe = Path(sys.executable).parent / "ruff"
    found = str(exe) if exe.exists() else shutil.which("ruff")
    if found is None:
        pytest.skip("ruff is not installed")
    return found


def test_cell_numbers_and_json_shape_agree_with_ruff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ruff and jaxlint on one notebook: ruff's F401 and jaxlint's JAX702 in the same cell."""
    monkeypatch.chdir(tmp_path)
    text = notebook(
        ("markdown", "# title"),
        "%matplotlib inline\nimport os\nimport jax\ny = jax.tree_map(abs, [1])",
    )
    (tmp_path / "n.ipynb").write_text(text)
    proc = subprocess.run(
        [_ruff(), "check", "--no-cache", "--isolated", "--select", "F401"]
        + ["--output-format", "json", "n.ipynb"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    ruff_item = json.loads(proc.stdout)[0]
    ours = run(capsys, "--output-format", "json", "n.ipynb").json()[0]
    assert ruff_item["cell"] == ours["cell"] == 2
    assert (ruff_item["location"]["row"], ours["location"]["row"]) == (2, 4)
    assert set(ours) == set(ruff_item) | {"probe"}  # jaxlint adds the verify command
    assert set(ours["fix"]) == set(ruff_item["fix"])
    assert set(ours["fix"]["edits"][0]) == set(ruff_item["fix"]["edits"][0])


def test_sarif_and_github_name_the_cell(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = run(capsys, "--output-format", "sarif", "training.ipynb").json()
    results = doc["runs"][0]["results"]
    assert [r["properties"]["cell"] for r in results] == [6, 6, 8]
    assert results[2]["locations"][0]["physicalLocation"]["region"]["startLine"] == 2
    gh = run(capsys, "--output-format", "github", "training.ipynb").out
    assert "file=training.ipynb,line=2,col=1" in gh
    assert "::training.ipynb:cell 8:2:1: JAX601" in gh


def test_sarif_with_notebooks_is_valid(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json").read_text())
    doc = run(capsys, "--output-format", "sarif", ".").json()
    cls = jsonschema.validators.validator_for(schema)
    assert not list(cls(schema).iter_errors(doc))


# -- cells run in order: one module -------------------------------------------------------------

DEFINE = (
    "from functools import partial\nimport jax\nimport jax.numpy as jnp\n\n"
    "@partial(jax.jit, donate_argnums=0)\ndef update(params, batch):\n    return params - batch"
)
LOOP = "for batch in [jnp.ones(3)] * 3:\n    new = update(params, batch)\nprint(params)"


def test_a_jitted_function_from_an_earlier_cell_is_known(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in_order.ipynb").write_text(
        notebook(("markdown", "# setup"), DEFINE, "params = jnp.ones(3)", ("markdown", "x"), LOOP)
    )
    (tmp_path / "alone.ipynb").write_text(
        notebook("import jax.numpy as jnp\nparams = jnp.ones(3)", LOOP)
    )
    r = run(capsys, "--output-format", "concise", "in_order.ipynb")
    assert findings(r.out) == [("in_order.ipynb", 5, 3, 7, "JAX405")]
    assert "donated to `update` at line 2 of cell 5" in r.out
    # the loop alone: `update` is not known to donate
    assert run(capsys, "alone.ipynb").code == 0


def test_noqa_and_file_level_noqa_in_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.ipynb").write_text(
        notebook("import jax", "y = jax.tree_map(abs, [1])  # noqa: JAX702")
    )
    (tmp_path / "b.ipynb").write_text(
        notebook("# jaxlint: noqa\nimport jax", "y = jax.tree_map(abs, [1])")
    )
    assert run(capsys, "a.ipynb", "b.ipynb").code == 0


def test_syntax_error_is_reported_in_its_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.ipynb").write_text(notebook("import jax", "x = (1,\ny = 2", "z = 3"))
    r = run(capsys, "--output-format", "concise", "s.ipynb")
    assert r.code == 1
    assert findings(r.out)[0][1:2] == (2,) and findings(r.out)[0][-1] == "JAX000"


# -- masking IPython syntax --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "masked"),
    [
        ("%timeit f(x)", True),
        ("!pip install jax", True),
        ("files = !ls", True),
        ("t = %timeit -o f(x)", True),
        ("?jnp.round_", True),
        ("jnp.round_?", True),
        ("jax.tree_map??", True),
        ("x = 1  # really?", False),
        ("print('%d' % 3)", False),
        ("x != y", False),
        ("# %timeit", False),
    ],
)
def test_ipython_lines_are_masked(line: str, masked: bool) -> None:
    text, found, _ = mask_cell(f"import jax\n{line}\ny = 1", 1)
    assert (found == {1: line}) is masked
    rows = text.split("\n")
    assert len(rows) == 3 and rows[0] == "import jax" and rows[2] == "y = 1"
    if masked:
        assert rows[1].startswith("pass  # ")
    else:
        assert rows[1] == line


def test_masking_follows_blocks_strings_and_continuations() -> None:
    cell = (
        "for i in range(3):\n"
        "    !echo {i}\n"
        's = """\n'
        "%not a magic inside a string\n"
        '"""\n'
        "y = (1,\n"
        "     2)\n"
        "%time f(1, \\\n"
        "        2)\n"
        "z = 3"
    )
    text, found, _ = mask_cell(cell, 1)
    assert list(found.values()) == ["    !echo {i}", "%time f(1, \\", "        2)"]
    compile(text, "<cell>", "exec")  # the masked cell is Python
    module = NotebookModule.build(parse_notebook(notebook(cell).encode()).python_cells)
    assert module.cell_texts() == {1: cell}  # and the lines come back as they were


def test_cell_magics() -> None:
    nb = parse_notebook(
        notebook(
            "%%time\nimport jax", "%%bash\necho jax.tree_map", "%%writefile a.py\nimport jax"
        ).encode()
    )
    assert [c.python for c in nb.cells] == [True, False, False]


def test_fixes_that_would_cross_a_cell_or_touch_an_ipython_line_are_refused() -> None:
    nb = parse_notebook(notebook("import jax\n%time f()\ny = 1", "z = 2").encode())
    module = NotebookModule.build(nb.python_cells)
    index = module.index()
    assert index is not None
    p = Position
    assert index.edit_stays_in_cell(Edit(p(3, 1), p(3, 2), "w"))
    assert not index.edit_stays_in_cell(Edit(p(2, 1), p(2, 3), ""))  # the %time line
    assert not index.edit_stays_in_cell(Edit(p(1, 1), p(3, 1), ""))  # spans it
    assert index.edit_stays_in_cell(Edit(p(2, 1), p(2, 1), "import os\n"))  # before it
    assert not index.edit_stays_in_cell(Edit(p(3, 1), p(5, 1), ""))  # into cell 2
    assert index.edit_stays_in_cell(Edit(p(4, 1), p(4, 1), "import jax\n"))  # end of cell 1


# -- discovery, stdin, cache, processes ------------------------------------------------------------


def test_folders_include_notebooks_unless_excluded(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, ".").code == 1
    r = run(capsys, "--extend-exclude", "*.ipynb", ".")
    assert r.code == 0
    assert "No Python files found" in r.err


def test_stdin_notebook(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = (project / "colab_style.ipynb").read_bytes()

    class Stdin:
        buffer = __import__("io").BytesIO(data)

    monkeypatch.setattr(sys, "stdin", Stdin)
    capsys.readouterr()
    code = main(["check", "--stdin-filename", "nb.ipynb", "--fix", "-"])
    out = capsys.readouterr().out
    assert code == 0
    assert out == data.decode().replace("jnp.round_(x)", "jnp.round(x)")


def test_cache_and_processes_give_the_same_report(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "p.py").write_text("import jax\ny = jax.tree_map(abs, [1])\n")
    first = run(capsys, "-j", "1", ".")
    capsys.readouterr()
    args = ["check", "--cache-dir", str(project / ".cache"), "-j", "2", "."]
    assert main(args) == 1
    cold = capsys.readouterr().out
    assert main(args) == 1
    warm = capsys.readouterr().out
    assert first.out == cold == warm
    assert "training.ipynb:cell 6:3:33: JAX405" in warm


# -- notebooks jaxlint cannot read -----------------------------------------------------------------

BAD = {
    "invalid.ipynb": (b'{"cells": [', "invalid JSON at line 1 column 12"),
    "v3.ipynb": (
        b'{"nbformat": 3, "nbformat_minor": 0, "worksheets": []}\n',
        "nbformat 3 is not supported",
    ),
    "nosource.ipynb": (
        b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells":'
        b' [{"cell_type": "code", "metadata": {}, "outputs": []}]}\n',
        "cell 1 has no `source`",
    ),
    "latin1.ipynb": (b'{"nbformat": 4, "cells": [], "x": "\xe9"}', "is not UTF-8"),
    "list.ipynb": (b"[]", "the JSON document is not an object"),
    "badsource.ipynb": (
        b'{"nbformat": 4, "cells": [{"cell_type": "code", "source": 1}]}',
        "neither a string",
    ),
    "empty.ipynb": (b"", "invalid JSON"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_notebook_is_a_clear_error_and_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    data, message = BAD[name]
    (tmp_path / name).write_bytes(data)
    shutil.copyfile(FIXTURES / "colab_style.ipynb", tmp_path / "good.ipynb")
    r = run(capsys, "--fix", ".")
    assert r.code == 2
    assert f"error: {name}: " in r.err and message in r.err
    assert "Traceback" not in r.err + r.out
    assert (tmp_path / name).read_bytes() == data
    assert "jnp.round(x)" in (tmp_path / "good.ipynb").read_text()  # the others are checked
    with pytest.raises(NotebookError):
        parse_notebook(data)


def test_pre_commit_hooks_run_on_notebooks() -> None:
    text = (REPO_ROOT / ".pre-commit-hooks.yaml").read_text()
    assert text.count("types_or: [python, pyi, jupyter]") == 2


def test_top_level_await_and_non_python_kernels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cells = ("import jax\nawait jax.numpy.zeros(1)", "y = jax.tree_map(abs, [1])")
    (tmp_path / "a.ipynb").write_text(notebook(*cells))
    r = run(capsys, "--output-format", "concise", "a.ipynb")
    assert findings(r.out) == [("a.ipynb", 2, 1, 5, "JAX702")]
    doc = json.loads(notebook(*cells))
    doc["metadata"] = {"kernelspec": {"language": "R", "name": "ir"}}
    (tmp_path / "r.ipynb").write_text(json.dumps(doc))
    assert run(capsys, "r.ipynb").code == 0


def test_a_cell_holding_the_separator_line_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    text = notebook("import jax\n# jaxlint: end of notebook cell\ny = jax.tree_map(abs, [1])")
    (tmp_path / "m.ipynb").write_text(text)
    r = run(capsys, "--fix", "m.ipynb")
    assert r.code == 2
    assert "error: m.ipynb: cell 1 contains jaxlint's cell separator line" in r.err
    assert (tmp_path / "m.ipynb").read_text() == text


def test_an_index_update_that_a_cell_displays_is_not_discarded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """JAX604: the last statement of a cell is the value the notebook shows (`x.at[0]
    .set(5.0)` to look at the result), so only an update in the middle of a cell, or
    in a function, is a lost one. The last cell's last statement too is displayed."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nb.ipynb").write_text(
        notebook(
            "import jax.numpy as jnp\nx = jnp.zeros(3)\nx.at[0].set(5.0)\n",
            "x.at[1].set(2.0)\ny = x + 1\n",
            "def put(a):\n    a.at[0].set(1.0)\n    return a\n",
            "y.at[2].add(1.0)\n",
        ),
        encoding="utf-8",
    )
    r = run(capsys, "--select", "JAX604", "--output-format", "concise", "nb.ipynb")
    assert findings(r.out) == [("nb.ipynb", 2, 1, 1, "JAX604"), ("nb.ipynb", 3, 2, 5, "JAX604")]
