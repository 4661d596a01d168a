"""The flake8 plugin: the real ``flake8`` must report what ``jaxlint check`` reports.

Rules that are off by default (JAX302) are on flake8's default ignore list: both
tools hide them unless selected, so flake8 and ``jaxlint check`` are compared with
the same selection arguments (none, ``--extend-select JAX302``, ``--select JAX``...).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import jaxlint
import jaxlint.flake8_plugin as plugin_module
from jaxlint.flake8_plugin import JaxlintChecker, default_off_codes
from jaxlint.rules import all_rules
from jaxlint.rules.array_semantics import InPlaceUpdate

FIXTURES = Path(__file__).parent / "fixtures" / "flake8"

Finding = tuple[str, int, int, str]
"""(path relative to the project, 1-based row, 1-based column, code)."""

_FORMAT = "%(path)s\t%(row)d\t%(col)d\t%(code)s\t%(text)s"
"""flake8's ``%(text)s`` is the message without its code."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the fixture project, outside the jaxlint repository."""
    dest = tmp_path / "proj"
    shutil.copytree(FIXTURES, dest)
    return dest


def run_flake8(
    cwd: Path,
    *args: str,
    stdin: str | None = None,
    select_jax: bool = True,
    isolated: bool = True,
) -> tuple[subprocess.CompletedProcess[str], list[tuple[Finding, str]]]:
    """Run the real flake8; its ``JAX`` findings, with their message texts.

    ``select_jax`` passes ``--select JAX``, which (an explicit selection beats a
    default ignore) also selects the default-off rules. Without it flake8 keeps its
    default selection, jaxlint's default-off codes stay on its default ignore list,
    and the other plugins' findings (pycodestyle, pyflakes) are dropped here.
    ``isolated`` passes ``--isolated`` (no flake8 config files are read).
    """
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "flake8",
            *(["--isolated"] if isolated else []),
            *(["--select", "JAX"] if select_jax else []),
            f"--format={_FORMAT}",
            *args,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        input=stdin,
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    rows: list[tuple[Finding, str]] = []
    lines = proc.stdout.splitlines()
    for line in lines:
        path, row, col, code, text = line.split("\t", 4)
        if not select_jax and not code.startswith("JAX"):
            continue
        rel = Path(path).as_posix().removeprefix("./")
        rows.append(((rel, int(row), int(col), code), text))
    if select_jax:
        assert len(rows) == len(lines), proc.stdout
    assert proc.returncode == (1 if lines else 0), proc.stdout + proc.stderr
    return proc, rows


def flake8_findings(
    cwd: Path, *args: str, select_jax: bool = True, isolated: bool = True
) -> set[Finding]:
    _, rows = run_flake8(cwd, *args, select_jax=select_jax, isolated=isolated)
    return {finding for finding, _ in rows}


def jaxlint_findings(cwd: Path, *args: str) -> set[Finding]:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "jaxlint",
            "check",
            "--no-cache",
            "--output-format",
            "json",
            *args,
            ".",
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    out: set[Finding] = set()
    for item in json.loads(proc.stdout):
        path = Path(item["filename"])
        rel = path.resolve().relative_to(cwd.resolve()) if path.is_absolute() else path
        loc = item["location"]
        out.add((rel.as_posix(), loc["row"], loc["column"], item["code"]))
    return out


# -- flake8 and jaxlint check agree ---------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "jax302"),
    [
        ([], False),  # both tools' defaults: JAX302 is off
        (["--extend-select", "JAX302"], True),
        (["--extend-select", "JAX3"], True),
        (["--select", "JAX"], True),
        (["--select", "JAX3"], True),
        (["--select", "JAX302"], True),
        (["--select", "JAX6,JAX7"], False),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_flake8_reports_exactly_what_jaxlint_check_reports(
    project: Path, argv: list[str], jax302: bool
) -> None:
    """The same selection arguments mean the same to flake8 and ``jaxlint check``."""
    expected = jaxlint_findings(project, *argv)
    assert expected
    assert flake8_findings(project, *argv, select_jax=False) == expected
    assert ("JAX302" in {code for *_, code in expected}) is jax302


def test_the_fixtures_exercise_everything(project: Path) -> None:
    everything = jaxlint_findings(project, "--extend-select", "JAX302")
    default = jaxlint_findings(project)
    assert default == {f for f in everything if f[3] != "JAX302"}
    assert flake8_findings(project) == everything  # `flake8 --select JAX`: every rule

    # The fixture set is meant to exercise all of this; make sure it still does.
    assert {code for *_, code in everything} == {"JAX302", "JAX601", "JAX702"}
    files = {path for path, *_ in everything}
    assert "no_jax.py" not in files
    assert "silenced.py" not in files  # file-level `# jaxlint: noqa`
    assert ("arrays.py", 13, 18, "JAX601") in everything  # columns count characters
    assert ("prng_spellings.py", 8, 8, "JAX302") in everything
    # lines silenced inline: by code (JAX601), by prefix (JAX3), and by a bare noqa
    for path, row in [
        ("arrays.py", 11),
        ("mixed.py", 9),
        ("mixed.py", 15),
        ("prng_spellings.py", 12),
        ("api_drift.py", 11),
    ]:
        assert not any(f[:2] == (path, row) for f in everything), (path, row)
    # a noqa comment naming JAX602 or JAX302 does not silence other codes
    assert ("arrays.py", 12, 1, "JAX601") in everything
    assert ("mixed.py", 16, 29, "JAX702") in everything
    # `# jaxlint: noqa: JAX601` silences only JAX601
    assert {code for path, *_, code in everything if path == "partly_silenced.py"} == {
        "JAX302",
        "JAX702",
    }
    # target-jax = "0.4.20" in legacy_jax/pyproject.toml: jnp.round_ (line 4) is not
    # deprecated yet there, jnp.product (line 6) was already removed
    assert {f for f in everything if f[0] == "legacy_jax/old_code.py"} == {
        ("legacy_jax/old_code.py", 5, 7, "JAX302"),
        ("legacy_jax/old_code.py", 6, 7, "JAX702"),
    }


@pytest.mark.parametrize("argv", [[], ["--extend-select", "JAX302"]])
def test_concise_output_has_the_same_positions(project: Path, argv: list[str]) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "jaxlint",
            "check",
            "--no-cache",
            "--output-format",
            "concise",
            *argv,
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    concise = set()
    for line in proc.stdout.splitlines():
        head, sep, rest = line.partition(": ")
        if not sep or not rest.startswith("JAX"):
            continue
        path, row, col = head.rsplit(":", 2)
        concise.add(f"{Path(path).as_posix()}:{row}:{col}:{rest.split()[0]}")
    _, rows = run_flake8(project, *argv, select_jax=False)
    assert {f"{p}:{r}:{c}:{code}" for (p, r, c, code), _ in rows} == concise
    assert any(":JAX302" in line for line in concise) is bool(argv)


def test_message_text(project: Path) -> None:
    _, rows = run_flake8(project, "arrays.py")
    texts = {finding: text for finding, text in rows}
    assert texts[("arrays.py", 6, 1, "JAX601")] == (
        "`a` is a JAX array (made by `jnp.zeros` at line 5): item assignment raises"
        " TypeError because JAX arrays are immutable; use `a = a.at[0].set(1.0)`"
    )


@pytest.mark.parametrize(
    ("args", "dropped"),
    [
        (["--ignore", "JAX702"], {"JAX702"}),
        (["--extend-ignore", "JAX702"], {"JAX702"}),
        (["--extend-ignore", "JAX7,JAX30"], {"JAX702", "JAX302"}),
        (["--select", "JAX6"], {"JAX702", "JAX302"}),
    ],
)
def test_flake8_select_and_ignore_govern(project: Path, args: list[str], dropped: set[str]) -> None:
    everything = jaxlint_findings(project, "--select", "JAX")  # JAX302 included
    got = flake8_findings(project, *args)  # after `--select JAX`
    assert got == {f for f in everything if f[3] not in dropped}
    assert got  # something is left


@pytest.mark.parametrize(
    ("args", "dropped"),
    [
        ([], {"JAX302"}),
        # --extend-ignore adds to flake8's default ignore list: JAX302 stays off ...
        (["--extend-ignore", "JAX702"], {"JAX302", "JAX702"}),
        (["--extend-ignore", "E501"], {"JAX302"}),
        # ... --ignore replaces that list, so it turns JAX302 on (flake8's semantics,
        # as for pycodestyle's default-ignored W503)
        (["--ignore", "JAX702"], {"JAX702"}),
        (["--ignore", "E501"], set()),
        # selecting it, or a prefix of it, explicitly turns it on
        (["--extend-select", "JAX302"], set()),
        (["--extend-select", "JAX302", "--extend-ignore", "JAX6"], {"JAX601"}),
        (["--select", "JAX302"], {"JAX601", "JAX702"}),
        (["--select", "JAX3"], {"JAX601", "JAX702"}),
        (["--select", "JAX"], set()),
        (["--select", "JAX", "--extend-ignore", "JAX302"], {"JAX302"}),
        (["--select", "JAX6,JAX7"], {"JAX302"}),
    ],
)
def test_default_off_rules_are_on_flake8s_default_ignore_list(
    project: Path, args: list[str], dropped: set[str]
) -> None:
    everything = jaxlint_findings(project, "--select", "JAX")
    assert "JAX302" in {f[3] for f in everything}
    got = flake8_findings(project, *args, select_jax=False)
    assert got == {f for f in everything if f[3] not in dropped}


def test_jax302_opt_in_from_flake8_config(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "import jax\nimport jax.numpy as jnp\nk = jax.random.PRNGKey(0)\nx = jnp.round_(3)\n"
    )
    default = {("m.py", 4, 5, "JAX702")}
    opted_in = {("m.py", 3, 5, "JAX302"), ("m.py", 4, 5, "JAX702")}
    assert flake8_findings(tmp_path, select_jax=False, isolated=False) == default
    assert jaxlint_findings(tmp_path) == default
    (tmp_path / ".flake8").write_text("[flake8]\nextend-select = JAX302\n")
    assert flake8_findings(tmp_path, select_jax=False, isolated=False) == opted_in
    assert jaxlint_findings(tmp_path, "--extend-select", "JAX302") == opted_in
    (tmp_path / ".flake8").write_text("[flake8]\nextend-ignore = E501\n")
    assert flake8_findings(tmp_path, select_jax=False, isolated=False) == default


def test_jaxlint_select_and_ignore_do_not_apply(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\nselect = ["JAX6"]\nignore = ["JAX601"]\n'
        'per-file-ignores = { "*.py" = ["JAX3"] }\n'
    )
    shutil.copy(FIXTURES / "mixed.py", tmp_path / "mixed.py")
    assert jaxlint_findings(tmp_path) == set()
    codes = {code for *_, code in flake8_findings(tmp_path)}
    assert codes == {"JAX302", "JAX601", "JAX702"}
    codes = {code for *_, code in flake8_findings(tmp_path, select_jax=False)}
    assert codes == {"JAX601", "JAX702"}  # flake8's defaults, not jaxlint's select


def test_jaxlint_extend_select_does_not_opt_in_under_flake8(tmp_path: Path) -> None:
    """Under flake8, only flake8's selection turns JAX302 on (docs/integrations.md)."""
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nextend-select = ["JAX302"]\n')
    shutil.copy(FIXTURES / "mixed.py", tmp_path / "mixed.py")
    assert {code for *_, code in jaxlint_findings(tmp_path)} == {"JAX302", "JAX601", "JAX702"}
    codes = {code for *_, code in flake8_findings(tmp_path, select_jax=False)}
    assert codes == {"JAX601", "JAX702"}
    got = flake8_findings(tmp_path, "--extend-select", "JAX302", select_jax=False)
    assert got == jaxlint_findings(tmp_path)


def test_noqa_is_handled_by_flake8(tmp_path: Path) -> None:
    (tmp_path / "n.py").write_text(
        textwrap.dedent(
            """\
            import jax.numpy as jnp

            a = jnp.round_(1)  # noqa: JAX702
            b = jnp.round_(1)  # noqa:JAX7
            c = jnp.round_(1)  # noqa
            d = jnp.round_(1)  # noqa: E501
            e = jnp.round_(1)
            """
        )
    )
    assert {f[1] for f in flake8_findings(tmp_path)} == {6, 7}
    assert {f[1] for f in flake8_findings(tmp_path, "--disable-noqa")} == {3, 4, 5, 6, 7}
    assert {f[1] for f in jaxlint_findings(tmp_path)} == {6, 7}


def test_lower_case_noqa_codes_behave_as_in_flake8(tmp_path: Path) -> None:
    """flake8 compares noqa codes as written: `# NOQA:jax602` silences nothing (while a
    `# noqa :` without a code list is a bare noqa); jaxlint does the same."""
    (tmp_path / "n.py").write_text(
        textwrap.dedent(
            """\
            import jax.numpy as jnp

            a = jnp.empty(1)  # NOQA:jax602
            b = jnp.empty(1)  # noqa: jax6
            c = jnp.empty(1)  # NOQA:JAX602
            d = jnp.empty(1)  # noqa : jax602
            e = jnp.empty(1)
            """
        )
    )
    flake8_rows = {f[1] for f in flake8_findings(tmp_path)}
    assert flake8_rows == {3, 4, 7}
    # flake8's --select JAX selects the default-off JAX602 too
    assert {f[1] for f in jaxlint_findings(tmp_path, "--extend-select", "JAX602")} == flake8_rows


def test_target_jax_from_pyproject_next_to_the_file(tmp_path: Path) -> None:
    source = "import jax.numpy as jnp\nx = jnp.round_(3)\n"  # deprecated 0.4.32, removed 0.4.38
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "old" / "pyproject.toml").write_text('[tool.jaxlint]\ntarget-jax = "0.4.30"\n')
    (tmp_path / "new" / "pyproject.toml").write_text('[tool.jaxlint]\ntarget-jax = "0.4.38"\n')
    (tmp_path / "old" / "m.py").write_text(source)
    (tmp_path / "new" / "m.py").write_text(source)
    (tmp_path / "top.py").write_text(source)
    expected = {("new/m.py", 2, 5, "JAX702"), ("top.py", 2, 5, "JAX702")}
    assert flake8_findings(tmp_path) == expected
    assert jaxlint_findings(tmp_path) == expected


def test_jaxlint_toml_is_read_too(tmp_path: Path) -> None:
    (tmp_path / "jaxlint.toml").write_text('target-jax = "0.4.20"\n')
    (tmp_path / "m.py").write_text(
        "import jax\nout = jax.tree_map(f, t)\nx = jax.numpy.round_(1)\n"
    )
    assert flake8_findings(tmp_path) == set()
    assert jaxlint_findings(tmp_path) == set()


def test_stdin_uses_the_display_name_for_config(project: Path) -> None:
    text = (project / "legacy_jax" / "old_code.py").read_text()
    _, rows = run_flake8(project, "--stdin-display-name", "legacy_jax/old_code.py", "-", stdin=text)
    assert {f for f, _ in rows} == {
        ("legacy_jax/old_code.py", 5, 7, "JAX302"),
        ("legacy_jax/old_code.py", 6, 7, "JAX702"),
    }
    _, rows = run_flake8(project, "-", stdin=text)  # no config: jnp.round_ is reported
    assert {f[1:] for f, _ in rows} == {(4, 5, "JAX702"), (5, 7, "JAX302"), (6, 7, "JAX702")}
    _, rows = run_flake8(
        project,
        "--stdin-display-name",
        "legacy_jax/old_code.py",
        "-",
        stdin=text,
        select_jax=False,
    )
    assert {f for f, _ in rows} == {("legacy_jax/old_code.py", 6, 7, "JAX702")}


def test_crlf_file(tmp_path: Path) -> None:
    (tmp_path / "w.py").write_bytes(
        b"import jax\r\nimport jax.numpy as jnp\r\n\r\nx = jnp.round_(\r\n    3)\r\n"
        b"k = jax.random.PRNGKey(0)\r\n"
    )
    expected = {("w.py", 4, 5, "JAX702"), ("w.py", 6, 5, "JAX302")}
    assert jaxlint_findings(tmp_path, "--extend-select", "JAX302") == expected
    assert flake8_findings(tmp_path) == expected
    assert jaxlint_findings(tmp_path) == {("w.py", 4, 5, "JAX702")}
    assert flake8_findings(tmp_path, select_jax=False) == {("w.py", 4, 5, "JAX702")}


# -- errors become JAX900 findings, never an aborted flake8 run ------------------------


def test_config_error_is_one_finding_per_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "pyproject.toml").write_text('[tool.jaxlint]\ntarget-jax = "banana"\n')
    (bad / "a.py").write_text("import jax.numpy as jnp\nx = jnp.round_(3)\n")
    (bad / "plain.py").write_text("x = 1\n")
    (tmp_path / "good.py").write_text("import jax.numpy as jnp\nx = jnp.round_(3)\n")
    proc, rows = run_flake8(tmp_path)
    assert proc.returncode == 1
    assert [f for f, _ in rows] == [
        ("bad/a.py", 1, 1, "JAX900"),
        ("good.py", 2, 5, "JAX702"),
    ]
    text = rows[0][1]
    assert text.startswith("jaxlint config error: ")
    assert "target-jax" in text and "\n" not in text


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def test_rule_crash_becomes_one_jax900(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: InPlaceUpdate, node: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(InPlaceUpdate, "visit_Assign", boom)
    text = (FIXTURES / "mixed.py").read_text()
    reports = list(JaxlintChecker(None, str(FIXTURES / "mixed.py"), _lines(text)).run())
    internal = [r for r in reports if r[2].startswith("JAX900")]
    assert len(internal) == 1
    row, col, message, kind = internal[0]
    assert (row, col, kind) == (1, 0, JaxlintChecker)
    assert "JAX601" in message and "in-place-update" in message and "kaboom" in message
    # the other rules still report (inline noqa is flake8's job, so line 15 is here;
    # the plugin runs every rule, and flake8's selection hides JAX302 by default)
    others = {(r[0], r[1], r[2].split()[0]) for r in reports if r not in internal}
    assert others == {
        (7, 10, "JAX302"),
        (12, 13, "JAX702"),
        (15, 9, "JAX302"),
        (16, 28, "JAX702"),
    }


def test_rule_crash_does_not_abort_a_real_flake8_run(project: Path) -> None:
    script = textwrap.dedent(
        """\
        import sys
        from jaxlint.rules.array_semantics import InPlaceUpdate

        def boom(self, node):
            raise RuntimeError("kaboom")

        InPlaceUpdate.visit_Assign = boom
        from flake8.main.cli import main
        sys.exit(main(sys.argv[1:]))
        """
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            script,
            "--isolated",
            "--select",
            "JAX",
            "-j1",
            f"--format={_FORMAT}",
            ".",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "critical" not in proc.stderr.lower()
    found = {tuple(line.split("\t")[:4]) for line in proc.stdout.splitlines()}
    codes = {f[3] for f in found}
    assert codes == {"JAX302", "JAX702", "JAX900"}
    crashed = {f[0].removeprefix("./") for f in found if f[3] == "JAX900"}
    # every file that reaches JAX601's visitor reports the crash once, at 1:1
    assert crashed == {
        "api_drift.py",
        "arrays.py",
        "legacy_jax/old_code.py",
        "mixed.py",
        "partly_silenced.py",
        "prng_spellings.py",
    }
    assert all(f[1:3] == ("1", "1") for f in found if f[3] == "JAX900")


def test_unexpected_exception_becomes_jax900(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("engine exploded\non two lines")

    monkeypatch.setattr(plugin_module, "lint_text", broken)
    reports = list(JaxlintChecker(None, "x.py", ["import jax\n"]).run())
    assert reports == [
        (
            1,
            0,
            "JAX900 jaxlint internal error: ValueError: engine exploded on two lines",
            JaxlintChecker,
        )
    ]


def test_files_without_jax_are_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed a file that cannot involve JAX")

    monkeypatch.setattr(plugin_module, "lint_text", must_not_run)
    # the file's settings are looked up (their traced-decorators may name the file's
    # own decorators), but the file is not parsed
    text = (FIXTURES / "no_jax.py").read_text()
    assert list(JaxlintChecker(None, "no_jax.py", _lines(text)).run()) == []
    text = (FIXTURES / "silenced.py").read_text()
    assert list(JaxlintChecker(None, "silenced.py", _lines(text)).run()) == []


def test_parse_error_is_reported_as_jax000(tmp_path: Path) -> None:
    # flake8 reports E999 itself and never calls tree plugins on such a file, but a
    # file that libcst cannot parse still yields jaxlint's JAX000.
    reports = list(JaxlintChecker(None, str(tmp_path / "x.py"), ["import jax\n", "x = (\n"]).run())
    assert len(reports) == 1
    assert reports[0][2].startswith("JAX000 SyntaxError")


class _RecordingParser:
    def __init__(self) -> None:
        self.default_ignore: list[str] = []

    def extend_default_ignore(self, codes: list[str]) -> None:
        self.default_ignore.extend(codes)


def test_add_options_extends_the_default_ignore_list() -> None:
    parser = _RecordingParser()
    JaxlintChecker.add_options(parser)
    assert (
        parser.default_ignore
        == default_off_codes()
        == [
            "JAX105",
            "JAX302",
            "JAX306",
            "JAX602",
            "JAX704",
        ]
    )
    assert default_off_codes() == [r.code for r in all_rules() if not r.default_enabled]


def test_add_options_with_flake8s_option_manager() -> None:
    from flake8.options.manager import OptionManager

    manager = OptionManager(version="0", plugin_versions="", parents=[], formatter_names=[])
    JaxlintChecker.add_options(manager)
    assert manager.extended_default_ignore == [
        "JAX105",
        "JAX302",
        "JAX306",
        "JAX602",
        "JAX704",
    ]


def test_the_plugin_runs_default_off_rules(tmp_path: Path) -> None:
    text = "import jax\nk = jax.random.PRNGKey(0)\n"
    reports = list(JaxlintChecker(None, str(tmp_path / "k.py"), _lines(text)).run())
    assert [(r[0], r[1], r[2].split()[0]) for r in reports] == [(2, 4, "JAX302")]


def test_plugin_metadata_and_no_flake8_import() -> None:
    assert JaxlintChecker.name == "jaxlint"
    assert JaxlintChecker.version == jaxlint.__version__
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, jaxlint.flake8_plugin, jaxlint.cli; "
            "assert not [m for m in sys.modules if m.split('.')[0] == 'flake8'], 'flake8'",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--version"], capture_output=True, text=True, timeout=120
    )
    assert f"jaxlinter: {jaxlint.__version__}" in proc.stdout  # flake8 names the distribution


# -- the whole rule set ---------------------------------------------------------------


@pytest.fixture
def every_rule_project(tmp_path: Path) -> Path:
    """Each rule's documented examples (default options and target), one file each."""
    dest = tmp_path / "examples"
    dest.mkdir()
    for rule in all_rules():
        for kind, examples in (("invalid", rule.INVALID), ("valid", rule.VALID)):
            for i, example in enumerate(examples):
                if example.options or example.target_jax:
                    continue
                name = f"{rule.code.lower()}_{kind}_{i}.py"
                (dest / name).write_text(textwrap.dedent(example.code))
    return dest


@pytest.mark.parametrize(
    "argv",
    [[], ["--select", "JAX"]],
    ids=lambda v: " ".join(v) or "defaults",
)
def test_flake8_and_jaxlint_agree_on_every_rule(every_rule_project: Path, argv: list[str]) -> None:
    """Like with like over the whole registry: every rule's examples, same selection."""
    expected = jaxlint_findings(every_rule_project, *argv)
    got = flake8_findings(every_rule_project, *argv, select_jax=False)
    assert got == expected, sorted(got ^ expected)
    # every rule has an example that fires under its default options and target, so
    # both tools were compared on every rule that the selection enables
    wanted = {r.code for r in all_rules() if r.default_enabled or argv}
    assert {code for *_, code in expected} == wanted


def test_configured_traced_decorator_file_is_checked(tmp_path: Path) -> None:
    """A file that uses only a decorator named in `traced-decorators` (no `jax` in it)
    passes the prefilter under flake8 too."""
    (tmp_path / "m.py").write_text(
        "import numpy as np\nfrom mylib import my_jit\n\n\n@my_jit\ndef f(x):\n"
        "    return np.asarray(x)\n"
    )
    assert flake8_findings(tmp_path) == set()
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\ntraced-decorators = ["mylib.my_jit"]\n'
    )
    assert {(f[0], f[1], f[-1]) for f in flake8_findings(tmp_path)} == {("m.py", 7, "JAX101")}
