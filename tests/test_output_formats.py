"""``--output-format``: text, concise, json (ruff's schema), sarif (2.1.0), github.

The JSON format is compared key for key with what the installed ruff prints, and
the SARIF output is validated against the official OASIS SARIF 2.1.0 schema
vendored under ``tests/schemas`` (errata 01, from github.com/oasis-tcs/sarif-spec,
``sarif-2.1/schema/sarif-schema-2.1.0.json``).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import string
import subprocess
import sys
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import jaxlint.versions
from jaxlint.cli import main
from jaxlint.output import urls
from jaxlint.output.urls import rule_url
from jaxlint.rules import all_rules

SCHEMA_PATH = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"

ALL_THREE = """\
import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(0)
buf = jnp.zeros((3,))
buf[0] = 1.0
out = jax.tree_map(lambda x: x, buf)
"""
"""JAX302 at 4:7 (unsafe fix), JAX601 at 6:1 (safe), JAX702 at 7:7 (safe)."""
JAX302_ON = ("--extend-select", "JAX302")
"""JAX302 (in ALL_THREE, with the only unsafe fix) is off by default."""
SAMPLE = "import jax.numpy as jnp\nx = jnp.round_(3)\n"
"""One default-on finding with a safe fix: JAX702 (removed-api) at 2:5."""
CLEAN = "import jax.numpy as jnp\nx = jnp.round(3)\n"
IMPORTS = 'from jax import core\n\np = core.Primitive("p")\n'
"""JAX702 whose fix adds ``import jax.extend`` and respells the use: two edits."""


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


Run = Callable[..., Result]


@pytest.fixture(autouse=True)
def _pinned_jax(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jaxlint.versions, "installed_jax_version", lambda: "0.12.0")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def jaxlint_run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    def run(*args: str, stdin: bytes | None = None) -> Result:
        capsys.readouterr()
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        code = main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())


def apply_json_edits(text: str, edits: list[dict[str, Any]]) -> str:
    """Apply ruff-style edits (1-based rows and character columns, end exclusive)."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def offset(loc: dict[str, int]) -> int:
        row, col = loc["row"], loc["column"]
        if row - 1 >= len(starts):
            return len(text)
        return min(starts[row - 1] + col - 1, len(text))

    spans = sorted(
        ((offset(e["location"]), offset(e["end_location"]), e["content"]) for e in edits),
        reverse=True,
    )
    for start, end, content in spans:
        text = text[:start] + content + text[end:]
    return text


# -- json: ruff's schema ---------------------------------------------------------------------------


def key_paths(value: Any, prefix: str = "$") -> set[str]:
    """Every key path in a JSON value: ``$[].fix.edits[].location.row`` and so on."""
    paths = {prefix}
    if isinstance(value, dict):
        for key, item in value.items():
            paths |= key_paths(item, f"{prefix}.{key}")
    elif isinstance(value, list):
        for item in value:
            paths |= key_paths(item, f"{prefix}[]")
    return paths


def _ruff() -> str:
    exe = Path(sys.executable).parent / ("ruff.exe" if os.name == "nt" else "ruff")
    found = str(exe) if exe.exists() else shutil.which("ruff")
    if found is None:
        pytest.skip("ruff is not installed")
    return found


def test_json_keys_match_the_installed_ruff(project: Path, jaxlint_run: Run) -> None:
    write(project, {"unused.py": "import os\nimport sys\n\nprint(sys.argv)\n", "a.py": ALL_THREE})
    proc = subprocess.run(
        [_ruff(), "check", "--no-cache", "--isolated", "--select", "F401"]
        + ["--output-format", "json", "unused.py"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    ruff_items = json.loads(proc.stdout)
    assert ruff_items and ruff_items[0]["fix"] is not None

    r = jaxlint_run("check", "--output-format", "json", *JAX302_ON, "a.py")
    assert r.code == 1
    ours = r.json()
    with_fix = [item for item in ours if item["fix"] is not None]
    assert len(with_fix) == 3
    assert key_paths(with_fix) - {"$[].probe"} == key_paths(ruff_items)
    # and item by item, including ``fix: null`` ones
    for item in ours:
        assert list(item) == sorted(item)
        assert set(item) == set(ruff_items[0]) | {"probe"}  # jaxlint adds its verify command


def test_json_values(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE})
    items = jaxlint_run("check", "--output-format", "json", *JAX302_ON, "a.py").json()
    assert [i["code"] for i in items] == ["JAX302", "JAX601", "JAX702"]
    prng, update, tree = items
    assert prng["filename"] == str(project / "a.py")
    assert prng["location"] == {"column": 7, "row": 4}
    assert prng["end_location"] == {"column": 25, "row": 4}
    assert prng["noqa_row"] == 4
    assert prng["cell"] is None
    assert prng["url"] == rule_url("JAX302")
    assert prng["url"].endswith("/docs/rules/JAX302.md")
    assert prng["name"] == "legacy-prng-key"
    assert prng["severity"] == "error"
    assert prng["message"].startswith("`jax.random.PRNGKey` makes a legacy raw uint32 key")
    assert prng["fix"] == {
        "applicability": "unsafe",
        "message": "Replace with `jax.random.key` (typed key)",
        "edits": [
            {
                "content": "jax.random.key",
                "location": {"column": 7, "row": 4},
                "end_location": {"column": 25, "row": 4},
            }
        ],
    }
    assert update["fix"]["applicability"] == "safe"
    assert tree["fix"]["applicability"] == "safe"


def test_json_no_findings_is_an_empty_list(project: Path, jaxlint_run: Run) -> None:
    write(project, {"ok.py": CLEAN})
    r = jaxlint_run("check", "--output-format", "json", "ok.py")
    assert r.code == 0
    assert r.json() == []


def test_json_fix_is_null_without_a_fix(project: Path, jaxlint_run: Run) -> None:
    write(project, {"bad.py": "import jax\nx = (\n"})
    items = jaxlint_run("check", "--output-format", "json", "bad.py").json()
    assert [i["code"] for i in items] == ["JAX000"]
    assert items[0]["fix"] is None
    assert items[0]["name"] == "parse-error"


def test_json_stdin(project: Path, jaxlint_run: Run) -> None:
    r = jaxlint_run("check", "--output-format", "json", "-", stdin=SAMPLE.encode())
    assert r.json()[0]["filename"] == "-"
    r = jaxlint_run(
        "check", "--output-format", "json", "--stdin-filename", "sub/x.py", stdin=SAMPLE.encode()
    )
    assert r.json()[0]["filename"] == str(project / "sub" / "x.py")


@pytest.mark.parametrize(
    ("src", "argv"),
    [
        (SAMPLE, ["--fix"]),
        # the fix also adds ``import jax.extend``: two edits
        (IMPORTS, ["--fix"]),
        # the fix rewrites the import (to ``import jax``) and the use: two edits
        ("from jax.numpy import NINF\n\nx = NINF\n", ["--fix"]),
        # no newline at the end of the file
        ("import jax.numpy as jnp\nx = jnp.round_(3)", ["--fix"]),
        ('from jax import core\np = core.Primitive("p")', ["--fix"]),
        ("import jax.numpy as jnp\r\nx = jnp.round_(\r\n    (3,),\r\n)\r\n", ["--fix"]),
        ("from jax import tree_map\nout = tree_map(f, t)\n", ["--fix"]),
        ("import jax\n\nkey = jax.random.PRNGKey(0)  # é\n", ["--fix", "--unsafe-fixes"]),
        ("import jax.numpy as jnp\nx = [jnp.round_(3) for _ in 'éé']; y = 'ü'\n", ["--fix"]),
    ],
)
def test_json_edits_give_the_same_text_as_fix(
    project: Path, jaxlint_run: Run, src: str, argv: list[str]
) -> None:
    write(project, {"a.py": src})
    # JAX302_ON for the PRNGKey case; the other sources have no JAX302 finding
    items = jaxlint_run("check", "--output-format", "json", *JAX302_ON, "a.py").json()
    fixes = [i["fix"] for i in items if i["fix"] is not None]
    assert len(fixes) == 1, items
    from_json = apply_json_edits(src, fixes[0]["edits"])
    jaxlint_run("check", *argv, *JAX302_ON, "a.py")
    assert (project / "a.py").read_bytes().decode() == from_json
    assert from_json != src


def test_apply_json_edits_agrees_with_ruff(project: Path) -> None:
    """The edit convention used above is ruff's: check it on ruff's own output."""
    src = "import os\nimport sys  # é\nimport re\n\nprint(sys.argv)\n"
    write(project, {"u.py": src})
    ruff = _ruff()
    base = [ruff, "check", "--no-cache", "--isolated", "--select", "F401"]
    proc = subprocess.run(
        [*base, "--output-format", "json", "u.py"], capture_output=True, text=True, timeout=60
    )
    edits = [e for item in json.loads(proc.stdout) for e in item["fix"]["edits"]]
    subprocess.run([*base, "--fix", "u.py"], capture_output=True, timeout=60)
    assert apply_json_edits(src, edits) == (project / "u.py").read_text()


# -- sarif ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sarif_validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    # The validator class follows the draft the schema declares in ``$schema``.
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def assert_valid_sarif(validator: Any, doc: Any) -> None:
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


_URI_RE = re.compile(r"^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]+$")


def assert_github_requirements(doc: dict[str, Any]) -> None:
    """What GitHub code scanning needs from an uploaded SARIF file."""
    assert doc["version"] == "2.1.0"
    assert doc["$schema"].endswith("sarif-2.1.0.json")
    assert len(doc["runs"]) == 1
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "jaxlint"
    assert driver["version"]
    rules = driver["rules"]
    assert [r["id"] for r in rules] == [r.code for r in all_rules()]
    by_code = {r.code: r for r in all_rules()}
    for rule in rules:
        for key in ("shortDescription", "fullDescription", "help"):
            assert rule[key]["text"].strip(), (rule["id"], key)
        short = rule["shortDescription"]["text"]
        # not an unformatted message template: no ``{field}`` of the rule's message, and
        # no brace outside the inline code spans (which may quote f-strings)
        template = by_code[rule["id"]].message
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        assert short != template, rule["id"]
        assert not any("{" + f in short for f in fields), (rule["id"], short)
        assert "{" not in re.sub(r"`[^`]*`", "", short), (rule["id"], short)
        assert rule["help"]["markdown"].startswith("## What it does")
    for result in run["results"]:
        assert result["ruleId"]
        assert result["message"]["text"]
        if "ruleIndex" in result:
            assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["locations"]
        for loc in result["locations"]:
            phys = loc["physicalLocation"]
            uri = phys["artifactLocation"]["uri"]
            assert _URI_RE.match(uri), uri
            region = phys["region"]
            assert region["startLine"] >= 1
            assert region["startColumn"] >= 1
            assert region["endLine"] >= region["startLine"]
            assert region["endColumn"] >= 1
        for fix in result.get("fixes", []):
            for change in fix["artifactChanges"]:
                for rep in change["replacements"]:
                    assert rep["deletedRegion"]["startLine"] >= 1
                    assert rep["deletedRegion"]["startColumn"] >= 1


def _uris(doc: dict[str, Any]) -> list[str]:
    return [
        loc["physicalLocation"]["artifactLocation"]["uri"]
        for result in doc["runs"][0]["results"]
        for loc in result["locations"]
    ]


def test_sarif_is_valid(project: Path, jaxlint_run: Run, sarif_validator: Any) -> None:
    write(project, {"pkg/a.py": ALL_THREE, "pkg/b.py": IMPORTS})
    r = jaxlint_run("check", "--output-format", "sarif", *JAX302_ON, "pkg")
    assert r.code == 1
    doc = json.loads(r.out)
    assert_valid_sarif(sarif_validator, doc)
    assert_github_requirements(doc)
    results = doc["runs"][0]["results"]
    assert [res["ruleId"] for res in results] == ["JAX302", "JAX601", "JAX702", "JAX702"]
    rules = {rule["id"]: rule for rule in doc["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["JAX302"]["defaultConfiguration"]["enabled"] is False
    assert rules["JAX601"]["defaultConfiguration"]["enabled"] is True
    assert rules["JAX602"]["defaultConfiguration"]["enabled"] is False
    assert set(_uris(doc)) == {"pkg/a.py", "pkg/b.py"}
    first = results[0]
    assert first["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 4,
        "startColumn": 7,
        "endLine": 4,
        "endColumn": 25,
    }
    assert first["message"]["text"].startswith("JAX302 `jax.random.PRNGKey`")
    assert first["level"] == "error"
    # fixes ride along, as in ruff's SARIF
    b_fix = results[3]["fixes"][0]
    assert len(b_fix["artifactChanges"][0]["replacements"]) == 2


def test_sarif_without_findings_is_valid(
    project: Path, jaxlint_run: Run, sarif_validator: Any
) -> None:
    write(project, {"ok.py": CLEAN})
    r = jaxlint_run("check", "--output-format", "sarif", "ok.py")
    assert r.code == 0
    doc = json.loads(r.out)
    assert_valid_sarif(sarif_validator, doc)
    assert_github_requirements(doc)
    assert doc["runs"][0]["results"] == []


def test_sarif_parse_error_is_valid(project: Path, jaxlint_run: Run, sarif_validator: Any) -> None:
    write(project, {"bad.py": "import jax\nx = (\n"})
    doc = json.loads(jaxlint_run("check", "--output-format", "sarif", "bad.py").out)
    assert_valid_sarif(sarif_validator, doc)
    assert_github_requirements(doc)
    assert doc["runs"][0]["results"][0]["ruleId"] == "JAX000"


def test_sarif_uris_are_percent_encoded(
    project: Path, jaxlint_run: Run, sarif_validator: Any
) -> None:
    write(project, {"my dir/a#b%c.py": SAMPLE, "ü.py": SAMPLE})
    doc = json.loads(jaxlint_run("check", "--output-format", "sarif", ".").out)
    assert_valid_sarif(sarif_validator, doc)
    assert_github_requirements(doc)
    uris = _uris(doc)
    assert sorted(urllib.parse.unquote(u) for u in uris) == ["my dir/a#b%c.py", "ü.py"]


def test_sarif_uri_outside_the_current_folder_is_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jaxlint_run: Run, sarif_validator: Any
) -> None:
    write(tmp_path, {"elsewhere/a.py": SAMPLE})
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    doc = json.loads(jaxlint_run("check", "--output-format", "sarif", "../elsewhere").out)
    assert_valid_sarif(sarif_validator, doc)
    assert _uris(doc) == [(tmp_path / "elsewhere" / "a.py").as_uri()]


def test_sarif_stdin(project: Path, jaxlint_run: Run, sarif_validator: Any) -> None:
    r = jaxlint_run(
        "check", "--output-format", "sarif", "--stdin-filename", "src/m.py", stdin=SAMPLE.encode()
    )
    doc = json.loads(r.out)
    assert_valid_sarif(sarif_validator, doc)
    assert _uris(doc) == ["src/m.py"]


# -- github ----------------------------------------------------------------------------------------

_GITHUB_RE = re.compile(
    r"^::error title=jaxlint \(JAX\d{3}\),file=(?P<file>[^,]+),line=(?P<line>\d+),"
    r"col=(?P<col>\d+),endLine=(?P<end_line>\d+),endColumn=(?P<end_col>\d+)::(?P<msg>.+)$"
)


def test_github_format(project: Path, jaxlint_run: Run) -> None:
    write(project, {"pkg/a.py": ALL_THREE})
    r = jaxlint_run("check", "--output-format", "github", *JAX302_ON, "pkg/a.py")
    assert r.code == 1
    lines = r.out.splitlines()
    assert len(lines) == 3
    matches = [_GITHUB_RE.match(line) for line in lines]
    assert all(matches), lines
    first = matches[0]
    assert first is not None
    assert first.group("file") == "pkg/a.py"
    assert (first.group("line"), first.group("col")) == ("4", "7")
    assert (first.group("end_line"), first.group("end_col")) == ("4", "25")
    msg = first.group("msg")
    assert msg.startswith("pkg/a.py:4:7: JAX302 `jax.random.PRNGKey` makes a legacy raw")
    assert msg.endswith("%0A  help: Replace with `jax.random.key` (typed key)")
    assert "Found" not in r.out  # no summary lines among the workflow commands


def test_github_escapes_properties_and_message(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a,b:c.py": SAMPLE})
    r = jaxlint_run("check", "--output-format", "github", "a,b:c.py")
    line = r.out.strip()
    assert "file=a%2Cb%3Ac.py," in line
    assert _GITHUB_RE.match(line)
    assert "\n" not in line


def test_github_no_findings_prints_nothing(project: Path, jaxlint_run: Run) -> None:
    write(project, {"ok.py": CLEAN})
    r = jaxlint_run("check", "--output-format", "github", "ok.py")
    assert (r.code, r.out) == (0, "")


# -- text and concise ------------------------------------------------------------------------------


def test_text_format(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE})
    r = jaxlint_run("check", *JAX302_ON, "a.py")
    assert r.code == 1
    expected_601 = (
        "a.py:6:1: JAX601 [*] `buf` is a JAX array (made by `jnp.zeros` at line 5): item"
        " assignment raises TypeError because JAX arrays are immutable;"
        " use `buf = buf.at[0].set(1.0)`\n"
        "  |\n"
        "6 | buf[0] = 1.0\n"
        "  | ^^^^^^ JAX601\n"
        "  |\n"
        "  = help: Replace with `buf = buf.at[...].set(...)` (safe fix)\n"
        "\n"  # module-level code: no probe runs it, so no verify line (jaxlint/verify.py)
    )
    assert expected_601 in r.out
    assert "  = help: Replace with `jax.random.key` (typed key) (unsafe fix: needs" in r.out
    assert (
        "  = verify: jaxlint probe env --rule JAX702\n" in r.out
    )  # JAX702: a command without placeholder
    assert "FILE.py" not in r.out
    assert r.out.endswith(
        "Found 3 error(s).\n"
        "[*] 2 fixable with the `--fix` option"
        " (1 hidden fix(es) can be enabled with the `--unsafe-fixes` option).\n"
    )


def test_text_caret_under_tabs_and_wide_line_numbers(project: Path, jaxlint_run: Run) -> None:
    src = "import jax.numpy as jnp\n" + "\n" * 9 + "if True:\n\tx = jnp.round_(3)\n"
    write(project, {"a.py": src})
    r = jaxlint_run("check", "a.py")
    assert "a.py:12:6: JAX702" in r.out
    assert "   |\n12 |  x = jnp.round_(3)\n   |      ^^^^^^^^^^ JAX702\n   |\n" in r.out


def test_text_unsafe_fixes_enabled(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": "import jax\nk = jax.random.PRNGKey(0)\n"})
    r = jaxlint_run("check", "--unsafe-fixes", *JAX302_ON, "a.py")
    assert "a.py:2:5: JAX302 [*] " in r.out
    assert "(unsafe fix)\n" in r.out
    assert r.out.endswith("Found 1 error(s).\n[*] 1 fixable with the `--fix` option.\n")


def test_text_all_checks_passed(project: Path, jaxlint_run: Run) -> None:
    write(project, {"ok.py": CLEAN})
    for fmt in ("text", "concise"):
        r = jaxlint_run("check", "--output-format", fmt, "ok.py")
        assert (r.code, r.out) == (0, "All checks passed!\n")


def test_concise_format(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE, "b.py": SAMPLE})
    r = jaxlint_run("check", "--output-format", "concise", *JAX302_ON, "b.py", "a.py")
    lines = r.out.splitlines()
    assert lines[:4] == [
        "a.py:4:7: JAX302 `jax.random.PRNGKey` makes a legacy raw uint32 key;"
        " use typed keys from `jax.random.key`",
        "a.py:6:1: JAX601 [*] `buf` is a JAX array (made by `jnp.zeros` at line 5): item"
        " assignment raises TypeError because JAX arrays are immutable;"
        " use `buf = buf.at[0].set(1.0)`",
        "a.py:7:7: JAX702 [*] `jax.tree_map` was removed in JAX 0.6.0 (deprecated since"
        " 0.4.26); use `jax.tree.map` (the same function)",
        "b.py:2:5: JAX702 [*] `jnp.round_` was removed in JAX 0.4.38 (deprecated since"
        " 0.4.32); use `jnp.round` (the same function (NumPy 2.0 removed `round_`))",
    ]
    assert lines[4:] == [
        "Found 4 error(s).",
        "[*] 3 fixable with the `--fix` option"
        " (1 hidden fix(es) can be enabled with the `--unsafe-fixes` option).",
    ]


def test_machine_formats_print_no_summary(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE})
    for fmt in ("json", "sarif"):
        r = jaxlint_run("check", "--output-format", fmt, *JAX302_ON, "a.py")
        json.loads(r.out)  # nothing but the document on stdout
        assert "Found" not in r.err


def test_statistics_json(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE, "b.py": SAMPLE})
    r = jaxlint_run("check", "--statistics", "--output-format", "json", *JAX302_ON, "a.py", "b.py")
    assert r.code == 1
    assert r.json() == [
        {
            "code": "JAX702",
            "name": "removed-api",
            "count": 2,
            "fixable": True,
            "fixable_count": 2,
        },
        {
            "code": "JAX302",
            "name": "legacy-prng-key",
            "count": 1,
            "fixable": False,
            "fixable_count": 0,
        },
        {
            "code": "JAX601",
            "name": "in-place-update",
            "count": 1,
            "fixable": True,
            "fixable_count": 1,
        },
    ]


def test_statistics_json_keys_match_ruff(project: Path, jaxlint_run: Run) -> None:
    write(project, {"u.py": "import os\n", "a.py": SAMPLE})
    proc = subprocess.run(
        [_ruff(), "check", "--no-cache", "--isolated", "--select", "F401", "--statistics"]
        + ["--output-format", "json", "u.py"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    ruff_stats = json.loads(proc.stdout)
    ours = jaxlint_run("check", "--statistics", "--output-format", "json", "a.py").json()
    assert key_paths(ours) == key_paths(ruff_stats)


# -- rule documentation URLs (jaxlint/output/urls.py) ---------------------------------------------

REPO_ROOT = Path(__file__).resolve().parent.parent
PAGES = REPO_ROOT / "docs" / "rules"
BASE = "https://docs.example.org/jaxlint/rules"
ENV_BASE = "https://mirror.example.org/jaxlint-rules"


def _page(uri: str) -> Path:
    assert uri.startswith("file://"), uri
    return Path(urllib.parse.unquote(urllib.parse.urlsplit(uri).path))


def test_every_rule_url_leads_to_its_page(monkeypatch) -> None:
    """From a checkout the link is the page itself (file://); with JAXLINT_DOCS_URL or a
    configured docs-url it is the page under that base, the variable first."""
    monkeypatch.delenv(urls.DOCS_URL_VARIABLE, raising=False)
    for rule in all_rules():
        url = rule_url(rule.code)
        assert url is not None
        page = _page(url)
        assert page == PAGES / f"{rule.code}.md" and page.is_file()
    assert rule_url("JAX000") is None and rule_url("JAX900") is None
    assert rule_url("JAX302", BASE) == f"{BASE}/JAX302.md"
    assert urls.repository_url(BASE) == f"{BASE}/index.md"
    monkeypatch.setenv(urls.DOCS_URL_VARIABLE, ENV_BASE + "/")
    assert rule_url("JAX302") == f"{ENV_BASE}/JAX302.md"
    assert rule_url("JAX302", BASE) == f"{ENV_BASE}/JAX302.md"  # the variable wins
    assert urls.repository_url(BASE) == f"{ENV_BASE}/index.md"
    assert rule_url("JAX000", BASE) is None
    monkeypatch.setenv(urls.DOCS_URL_VARIABLE, "")  # empty: unset
    assert rule_url("JAX302", BASE) == f"{BASE}/JAX302.md"
    monkeypatch.setenv(urls.DOCS_URL_VARIABLE, "not a url")  # never a link (check stops)
    assert rule_url("JAX302", BASE) == f"{BASE}/JAX302.md"
    assert _page(rule_url("JAX302")) == PAGES / "JAX302.md"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("https://docs.example.org/jaxlint/rules/", "https://docs.example.org/jaxlint/rules"),
        ("http://intranet:8080/jaxlint", "http://intranet:8080/jaxlint"),
        ("file:///srv/jaxlint/rules", "file:///srv/jaxlint/rules"),
        ("  https://docs.example.org/r  ", "https://docs.example.org/r"),
    ],
)
def test_docs_url_values(value: str, expected: str) -> None:
    assert urls.parse_docs_url(value) == expected


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("docs.example.org/rules", "got 'docs.example.org/rules'"),
        ("ftp://example.org/rules", "got 'ftp://example.org/rules'"),
        ("https://", "names no host"),
        ("file://docs/rules", "a file:// address is absolute"),
        ("file:///", "names no folder"),
        ("https://example.org/a b", "got 'https://example.org/a b'"),
        ("https://example.org/rules?page=", "has a query or fragment"),
        (3, "got 3"),
    ],
)
def test_docs_url_errors(value: object, why: str) -> None:
    with pytest.raises(ValueError) as info:
        urls.parse_docs_url(value)
    assert str(info.value).startswith("expected the https://, http:// or file:// address")
    assert why in str(info.value)


def test_installed_copy_links_to_its_own_pages(monkeypatch, tmp_path) -> None:
    """An installed package holds the pages in jaxlint/data/rules (setup.py; the real wheel
    is built in tests/test_packaging.py); without them, and without a base URL, it links
    nowhere (null, no helpUri) rather than to a guessed address."""
    monkeypatch.delenv(urls.DOCS_URL_VARIABLE, raising=False)
    site = tmp_path / "site-packages"
    installed = site / "jaxlint" / "data" / "rules"
    installed.mkdir(parents=True)
    for page in PAGES.glob("*.md"):
        shutil.copy(page, installed / page.name)
    monkeypatch.setattr(urls, "_PACKAGE", site / "jaxlint")
    monkeypatch.setattr(urls, "_CHECKOUT", site)
    assert _page(rule_url("JAX302")) == installed / "JAX302.md"
    assert _page(urls.repository_url()) == installed / "index.md"
    shutil.rmtree(installed)
    assert rule_url("JAX302") is None and urls.repository_url() is None
    from jaxlint.output import _sarif_rule

    rule = next(r for r in all_rules() if r.code == "JAX302")
    assert "helpUri" not in _sarif_rule(rule)
    assert _sarif_rule(rule, BASE)["helpUri"] == f"{BASE}/JAX302.md"


def _shipped_texts() -> list[Path]:
    """What a user gets or reads: the package (with its rule examples), the build files,
    the README and the docs."""
    found = [REPO_ROOT / name for name in ("README.md", "pyproject.toml", "setup.py")]
    for folder in ("jaxlint", "docs"):
        for path in sorted((REPO_ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".md", ".toml", ".json", ".txt"):
                found.append(path)
    return found


def test_no_placeholder_address_anywhere() -> None:
    """No link is a placeholder (github.com/OWNER/...) or a guessed address: the only
    example address is example.org, in the docs-url examples, never as a real link."""
    texts = _shipped_texts()
    assert PAGES / "JAX302.md" in texts and Path(urls.__file__) in texts
    bad = []
    for path in texts:
        text = path.read_text(encoding="utf-8", errors="replace")
        for needle in ("OWNER", "github.com/", "example.com"):
            if needle in text:
                bad.append(f"{path.relative_to(REPO_ROOT)}: {needle}")
    assert not bad, bad


def _links(out: str, fmt: str) -> dict[str, Any]:
    if fmt == "json":
        return {"url": json.loads(out)[0]["url"]}
    driver = json.loads(out)["runs"][0]["tool"]["driver"]
    help_uris = {r["id"]: r.get("helpUri") for r in driver["rules"]}
    return {"url": help_uris["JAX702"], "info": driver.get("informationUri"), "all": help_uris}


@pytest.mark.parametrize("fmt", ["json", "sarif"])
@pytest.mark.parametrize("where", ["neither", "env", "config", "inline", "env over config"])
def test_links_in_each_output(
    project: Path, jaxlint_run: Run, monkeypatch: pytest.MonkeyPatch, fmt: str, where: str
) -> None:
    """JSON's url, SARIF's helpUri (every rule) and informationUri: from the checkout's
    pages, $JAXLINT_DOCS_URL, docs-url in [tool.jaxlint] or --config, the variable first."""
    monkeypatch.delenv(urls.DOCS_URL_VARIABLE, raising=False)
    write(project, {"a.py": SAMPLE})
    args = ["check", "--no-cache", "--output-format", fmt]
    if where in ("config", "env over config"):
        write(project, {"pyproject.toml": f'[tool.jaxlint]\ndocs-url = "{BASE}/"\n'})
    if where == "inline":
        args += ["--config", f'docs-url = "{BASE}"']
    if where.startswith("env"):
        monkeypatch.setenv(urls.DOCS_URL_VARIABLE, ENV_BASE)
    result = jaxlint_run(*args, "a.py")
    assert result.code == 1, result.err
    links = _links(result.out, fmt)
    base = {"neither": None, "env": ENV_BASE, "env over config": ENV_BASE}.get(where, BASE)
    if base is None:
        assert _page(links["url"]) == PAGES / "JAX702.md"
    else:
        assert links["url"] == f"{base}/JAX702.md"
    if fmt == "sarif":
        if base is None:
            assert _page(links["info"]) == REPO_ROOT / "README.md"
            assert all(_page(u) == PAGES / f"{c}.md" for c, u in links["all"].items())
        else:
            assert links["info"] == f"{base}/index.md"
            assert all(u == f"{base}/{c}.md" for c, u in links["all"].items())


@pytest.mark.parametrize(
    ("setting", "needle"),
    [
        ("env", "$JAXLINT_DOCS_URL: expected the https://, http:// or file:// address"),
        ("config", "key 'docs-url': expected the https://, http:// or file:// address"),
        ("inline", "--config 'docs-url = \"docs/rules\"': key 'docs-url': expected the"),
    ],
)
def test_a_bad_docs_url_is_a_clear_error(
    project: Path, jaxlint_run: Run, monkeypatch: pytest.MonkeyPatch, setting: str, needle: str
) -> None:
    monkeypatch.delenv(urls.DOCS_URL_VARIABLE, raising=False)
    write(project, {"a.py": SAMPLE})
    args = ["check", "--no-cache", "--output-format", "json"]
    if setting == "env":
        monkeypatch.setenv(urls.DOCS_URL_VARIABLE, "docs/rules")
    elif setting == "config":
        write(project, {"pyproject.toml": '[tool.jaxlint]\ndocs-url = "docs/rules"\n'})
    else:
        args += ["--config", 'docs-url = "docs/rules"']
    result = jaxlint_run(*args, "a.py")
    assert result.code == 2
    assert result.out == ""
    assert needle in result.err, result.err
    assert "Traceback" not in result.err
