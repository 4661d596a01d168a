"""The ``jaxlint`` command line: options, exit codes, fixing, stdin, config discovery.

Most tests run ``jaxlint.cli.main`` in-process (fast); a few run the real
``python -m jaxlint`` and ``jaxlint`` executables.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
import pytest

import jaxlint.cli
import jaxlint.rules
import jaxlint.versions
from jaxlint.cli import main
from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import FixOp, Option, ReplaceNode, Rule

# One finding of each rule family: JAX302 (unsafe fix) at 4:7, JAX601 (safe) at 6:1,
# JAX702 (safe) at 7:7. JAX302 is off by default: tests that need it pass JAX302_ON
# (or put ``extend-select = ["JAX302"]`` in their config).
ALL_THREE = """\
import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(0)
buf = jnp.zeros((3,))
buf[0] = 1.0
out = jax.tree_map(lambda x: x, buf)
"""
ALL_THREE_SAFE_FIXED = ALL_THREE.replace("buf[0] = 1.0", "buf = buf.at[0].set(1.0)").replace(
    "jax.tree_map", "jax.tree.map"
)
ALL_THREE_ALL_FIXED = ALL_THREE_SAFE_FIXED.replace("jax.random.PRNGKey", "jax.random.key")
# The sample default-on finding with a safe fix: JAX702 removed-api at 2:5.
SAMPLE = "import jax.numpy as jnp\nx = jnp.round_(3)\n"
CLEAN = "import jax.numpy as jnp\nx = jnp.round(3)\n"
# JAX602 (empty-not-zeros) is off by default: its own tests select it.
EMPTY = "import jax.numpy as jnp\nx = jnp.empty(3)\n"
UNSAFE_ONLY = "import jax\nk = jax.random.PRNGKey(0)\n"
JAX302_ON = ("--extend-select", "JAX302")


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def codes(self) -> list[str]:
        """The codes reported in ``concise`` output, in order."""
        found = []
        for line in self.out.splitlines():
            parts = line.split(": ", 1)
            if len(parts) == 2 and parts[1].startswith("JAX"):
                found.append(parts[1].split()[0])
        return found


Run = Callable[..., Result]


@pytest.fixture(autouse=True)
def _pinned_jax(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend JAX 0.12.0 is installed so that the default ``target-jax`` is fixed."""
    monkeypatch.setattr(jaxlint.versions, "installed_jax_version", lambda: "0.12.0")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def jaxlint_run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """``jaxlint_run("check", "x.py", stdin=b"...")`` -> Result(code, out, err), in-process."""

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
        path.write_bytes(textwrap.dedent(text).encode())


# -- a throwaway rule, registered for one test only ----------------------------------------


class OnesRule(Rule):
    """Flags ``jnp.ones`` calls with more than ``max-args`` arguments (display-only fix)."""

    code = "JAX990"
    name = "test-ones"
    message = "`{callee}` called with {n} arguments (at most {limit})"
    fix_availability = "always"
    probe = "jaxlint probe env"
    docs = "## What it does\nA test rule.\n"
    options = {"max-args": Option(int, 1, "the most arguments allowed")}

    def visit_Call(self, node: cst.Call) -> None:
        if self.model.call_name(node) != "jax.numpy.ones":
            return
        limit = self.settings["max-args"]
        if len(node.args) <= limit:
            return

        def fix() -> list[FixOp]:
            return [ReplaceNode(node.func, "jnp.full")]

        self.report(
            node.func,
            callee=self.ctx.code(node.func),
            n=len(node.args),
            limit=limit,
            fix=fix,
            applicability=Applicability.DISPLAY_ONLY,
            fix_message="Consider `jnp.full`",
        )


@pytest.fixture
def extra_rule(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[Rule]]:
    """Register :class:`OnesRule` next to the real rules, for this test only."""
    rules = (*jaxlint.rules.all_rules(), OnesRule)

    def find(code_or_name: str) -> type[Rule] | None:
        return next((r for r in rules if code_or_name in (r.code, r.name)), None)

    for module in (jaxlint.rules, jaxlint.cli.common):
        monkeypatch.setattr(module, "all_rules", lambda: rules)
        monkeypatch.setattr(module, "find_rule", find)
    yield OnesRule


# -- exit codes and the basic run ------------------------------------------------------------


def test_clean_file_passes(project: Path, jaxlint_run: Run) -> None:
    write(project, {"ok.py": CLEAN})
    r = jaxlint_run("check", "ok.py")
    assert r.code == 0
    assert r.out == "All checks passed!\n"
    assert r.err == ""


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (ALL_THREE, ["JAX302", "JAX601", "JAX702"]),
        (ALL_THREE_SAFE_FIXED, ["JAX302"]),
        (ALL_THREE_ALL_FIXED, []),
        (SAMPLE, ["JAX702"]),
        (CLEAN, []),
        (EMPTY, ["JAX602"]),
        (UNSAFE_ONLY, ["JAX302"]),
    ],
)
def test_fixtures_trigger_only_their_rules(
    project: Path, jaxlint_run: Run, source: str, expected: list[str]
) -> None:
    """With every rule on, each fixture finds exactly what the CLI tests below assume.

    The CLI tests count findings of these fixtures; if a new rule also fires on one of
    them, this test names the fixture to change (or the rule to fix).
    """
    write(project, {"a.py": source})
    r = jaxlint_run("check", "--output-format", "concise", "--select", "ALL", "a.py")
    assert (r.code, r.codes) == (1 if expected else 0, expected), r.out


def test_findings_exit_1(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE})
    r = jaxlint_run("check", "--output-format", "concise", "a.py")
    assert r.code == 1
    assert r.codes == ["JAX601", "JAX702"]  # JAX302 is off by default
    assert "a.py:6:1: JAX601 [*] " in r.out
    r = jaxlint_run("check", "--output-format", "concise", *JAX302_ON, "a.py")
    assert r.code == 1
    assert r.codes == ["JAX302", "JAX601", "JAX702"]
    assert "a.py:4:7: JAX302 " in r.out
    assert "a.py:6:1: JAX601 [*] " in r.out


def test_jax302_is_opt_in(project: Path, jaxlint_run: Run) -> None:
    write(project, {"k.py": UNSAFE_ONLY})
    concise = ("check", "--output-format", "concise")
    r = jaxlint_run(*concise, "k.py")
    assert (r.code, r.out) == (0, "All checks passed!\n")
    for argv in (
        ["--extend-select", "JAX302"],
        ["--select", "JAX3"],
        ["--select", "JAX302"],
        ["--select", "JAX"],
        ["--select", "ALL"],
    ):
        r = jaxlint_run(*concise, *argv, "k.py")
        assert (r.code, r.codes) == (1, ["JAX302"]), argv
        assert "k.py:2:5: JAX302 " in r.out
    write(project, {"jaxlint.toml": 'extend-select = ["JAX302"]\n'})
    r = jaxlint_run(*concise, "k.py")
    assert (r.code, r.codes) == (1, ["JAX302"])
    assert jaxlint_run(*concise, "--ignore", "JAX3", "k.py").code == 0
    write(project, {"jaxlint.toml": 'select = ["JAX3"]\n'})
    assert jaxlint_run(*concise, "k.py").codes == ["JAX302"]
    (project / "jaxlint.toml").unlink()
    write(project, {"pyproject.toml": '[tool.jaxlint]\nextend-select = ["JAX302"]\n'})
    assert jaxlint_run(*concise, "k.py").codes == ["JAX302"]


def test_default_is_current_folder(project: Path, jaxlint_run: Run) -> None:
    write(project, {"pkg/a.py": SAMPLE, "pkg/b.txt": SAMPLE})
    for argv in (["check"], []):
        r = jaxlint_run(*argv, "--output-format", "concise")
        assert r.code == 1
        assert r.out.startswith("pkg/a.py:2:5: JAX702 ")
        assert r.codes == ["JAX702"]


def test_files_not_mentioning_jax_are_skipped(project: Path, jaxlint_run: Run) -> None:
    write(project, {"np_only.py": "import numpy as np\nx = np.empty(3)\n"})
    assert jaxlint_run("check", "np_only.py").code == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--bogus"],
        ["check", "--output-format", "xml", "a.py"],
        ["check", "missing.py"],
        ["check", "--config", "nope.toml", "a.py"],
        ["check", "-", "a.py"],
        ["rule"],
        ["rule", "NOPE"],
    ],
)
def test_usage_errors_exit_2(project: Path, jaxlint_run: Run, argv: list[str]) -> None:
    write(project, {"a.py": SAMPLE})
    r = jaxlint_run(*argv)
    assert r.code == 2
    assert r.err.startswith("error: ")


def test_missing_path_reported_with_others_still_checked(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": SAMPLE})
    r = jaxlint_run("check", "--output-format", "concise", "a.py", "missing.py")
    assert r.code == 2
    assert "missing.py: no such file or directory" in r.err
    assert r.codes == ["JAX702"]


def test_version(jaxlint_run: Run) -> None:
    r = jaxlint_run("--version")
    assert r.code == 0
    assert r.out.startswith("jaxlint ")


def test_no_cache_is_accepted(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": SAMPLE})
    assert jaxlint_run("check", "--no-cache", "a.py").code == 1


def test_exit_zero(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE})
    r = jaxlint_run("check", "--exit-zero", "a.py")
    assert r.code == 0
    assert "Found 2 error(s)." in r.out
    r = jaxlint_run("check", "--exit-zero", *JAX302_ON, "a.py")
    assert r.code == 0
    assert "Found 3 error(s)." in r.out


# -- rule selection ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], ["JAX601", "JAX702"]),  # JAX302 is off by default
        (["--extend-select", "JAX302"], ["JAX302", "JAX601", "JAX702"]),
        (["--extend-select", "JAX3"], ["JAX302", "JAX601", "JAX702"]),
        (["--select", "JAX"], ["JAX302", "JAX601", "JAX702"]),
        (["--select", "JAX3"], ["JAX302"]),
        (["--select", "JAX6"], ["JAX601"]),
        (["--select", "JAX601"], ["JAX601"]),
        (["--ignore", "JAX7"], ["JAX601"]),
        (["--extend-select", "JAX302", "--ignore", "JAX7"], ["JAX302", "JAX601"]),
        (["--extend-select", "JAX302", "--ignore", "JAX6,JAX7"], ["JAX302"]),
        (["--extend-select", "JAX302", "--ignore", "JAX6", "--ignore", "JAX7"], ["JAX302"]),
        (["--extend-select", "JAX302", "--ignore", "JAX3"], ["JAX302", "JAX601", "JAX702"]),
        (["--extend-select", "JAX3", "--ignore", "JAX302"], ["JAX601", "JAX702"]),
        (["--select", "JAX6", "--extend-select", "JAX7"], ["JAX601", "JAX702"]),
        (["--select", "JAX6,JAX7"], ["JAX601", "JAX702"]),
        (["--select", "JAX6", "--select", "JAX7"], ["JAX601", "JAX702"]),
        (["--select", "JAX302", "--ignore", "JAX3"], ["JAX302"]),
        (["--select", "JAX3", "--ignore", "JAX302"], []),
        (["--select", "JAX6", "--ignore", "JAX6"], []),
        (["--ignore", "JAX601", "--extend-select", "JAX601"], ["JAX702"]),
        (["--select", "ALL", "--ignore", "JAX7"], ["JAX302", "JAX601"]),
        (["--ignore", "JAX"], []),
    ],
)
def test_select_ignore(
    project: Path, jaxlint_run: Run, argv: list[str], expected: list[str]
) -> None:
    write(project, {"a.py": ALL_THREE})
    r = jaxlint_run("check", "--output-format", "concise", *argv, "a.py")
    assert r.codes == expected
    assert r.code == (1 if expected else 0)


@pytest.mark.parametrize(
    ("config", "argv", "expected"),
    [
        # within one layer the more specific selector wins
        ('select = ["JAX302"]\nignore = ["JAX3"]\n', [], ["JAX302"]),
        # the command line is a later layer: it wins over the config
        ('ignore = ["JAX6"]\n', ["--select", "JAX601"], ["JAX601"]),
        ('select = ["JAX601"]\n', ["--ignore", "JAX6"], []),
        ('extend-select = ["JAX6"]\nselect = ["JAX7"]\n', [], ["JAX601", "JAX702"]),
        ('select = ["JAX7"]\n', ["--extend-select", "JAX6"], ["JAX601", "JAX702"]),
        ('select = ["JAX7"]\n', ["--select", "JAX3"], ["JAX302"]),
        ('extend-select = ["JAX302"]\nignore = ["JAX6"]\n', ["--ignore", "JAX7"], ["JAX302"]),
        # the default-off JAX302, turned on or off on either layer
        ('extend-select = ["JAX302"]\n', [], ["JAX302", "JAX601", "JAX702"]),
        ('extend-select = ["JAX302"]\n', ["--ignore", "JAX302"], ["JAX601", "JAX702"]),
        ('extend-select = ["JAX302"]\n', ["--select", "JAX6"], ["JAX601"]),
        ('select = ["JAX6"]\n', ["--extend-select", "JAX302"], ["JAX302", "JAX601"]),
    ],
)
def test_config_and_command_line_selection(
    project: Path, jaxlint_run: Run, config: str, argv: list[str], expected: list[str]
) -> None:
    write(project, {"a.py": ALL_THREE, "jaxlint.toml": config})
    r = jaxlint_run("check", "--output-format", "concise", *argv, "a.py")
    assert r.codes == expected


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--select", "FOO"], "--select: invalid rule selector 'FOO'"),
        (["--select", "JAX9"], "--select: selector 'JAX9' matches no jaxlint rule"),
        (["--ignore", "E501"], "--ignore: invalid rule selector 'E501'"),
        (["--extend-select", "JAX6,JAX99"], "--extend-select: selector 'JAX99'"),
        (["--select", "jax6"], "invalid rule selector 'jax6'"),
    ],
)
def test_unknown_selector_exit_2(
    project: Path, jaxlint_run: Run, argv: list[str], needle: str
) -> None:
    write(project, {"a.py": ALL_THREE})
    r = jaxlint_run("check", *argv, "a.py")
    assert r.code == 2
    assert needle in r.err
    assert r.out == ""


# -- --statistics ------------------------------------------------------------------------------


def test_statistics(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE, "b.py": SAMPLE})
    r = jaxlint_run("check", "--statistics", *JAX302_ON, "a.py", "b.py")
    assert r.code == 1
    lines = r.out.splitlines()
    assert lines[:3] == [
        "2\tJAX702\t[*] removed-api",
        "1\tJAX302\t[ ] legacy-prng-key",
        "1\tJAX601\t[*] in-place-update",
    ]
    assert "Found 4 error(s)." in r.out
    assert "a.py:" not in r.out  # counts only, no findings


def test_statistics_unsafe_fixes_marks_unsafe_fixable(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": UNSAFE_ONLY})
    r = jaxlint_run("check", "--statistics", *JAX302_ON, "a.py")
    assert r.out.splitlines()[0] == "1\tJAX302\tlegacy-prng-key"
    r = jaxlint_run("check", "--statistics", "--unsafe-fixes", *JAX302_ON, "a.py")
    assert r.out.splitlines()[0] == "1\tJAX302\t[*] legacy-prng-key"


def test_statistics_rejects_sarif(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE})
    r = jaxlint_run("check", "--statistics", "--output-format", "sarif", "a.py")
    assert r.code == 2
    assert "--statistics" in r.err


# -- --diff ------------------------------------------------------------------------------------


def test_diff_prints_and_writes_nothing(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE})
    before = (project / "a.py").stat()
    r = jaxlint_run("check", "--diff", *JAX302_ON, "a.py")
    assert r.code == 1
    assert (project / "a.py").read_text() == ALL_THREE
    assert (project / "a.py").stat().st_mtime_ns == before.st_mtime_ns
    assert r.out.startswith("--- a/a.py\n+++ b/a.py\n@@ ")
    assert "\n-buf[0] = 1.0\n" in r.out
    assert "\n+buf = buf.at[0].set(1.0)\n" in r.out
    assert "+out = jax.tree.map(lambda x: x, buf)\n" in r.out
    assert "PRNGKey" not in "".join(ln for ln in r.out.splitlines() if ln.startswith("+"))
    assert "Would fix 2 error(s) in 1 file(s)." in r.err


def test_diff_is_a_patch_that_gives_the_fixed_text(project: Path, jaxlint_run: Run) -> None:
    if shutil.which("patch") is None:
        pytest.skip("no patch(1)")
    write(project, {"a.py": ALL_THREE})
    r = jaxlint_run("check", "--diff", "--unsafe-fixes", *JAX302_ON, "a.py")
    assert r.code == 1
    subprocess.run(["patch", "-p1", "-s"], input=r.out.encode(), cwd=project, check=True)
    assert (project / "a.py").read_text() == ALL_THREE_ALL_FIXED


@pytest.mark.parametrize(
    "src",
    [
        "import jax.numpy as jnp\nx = jnp.round_(3)",  # no newline at the end
        "import jax.numpy as jnp\n\x0c\nx = jnp.round_(3)  # \x0c form feed\ny = 1",
        "import jax.numpy as jnp\r\nx = jnp.round_(3)\r\n",
    ],
)
def test_diff_patches_awkward_line_ends(project: Path, jaxlint_run: Run, src: str) -> None:
    if shutil.which("patch") is None:
        pytest.skip("no patch(1)")
    write(project, {"a.py": src})
    r = jaxlint_run("check", "--diff", "a.py")
    assert r.code == 1
    if not src.endswith("\n"):
        assert r.out.endswith("\\ No newline at end of file\n")
    subprocess.run(
        ["patch", "-p1", "-s", "--binary"], input=r.out.encode(), cwd=project, check=True
    )
    assert (project / "a.py").read_bytes() == src.replace("jnp.round_", "jnp.round").encode()


def test_diff_nothing_to_fix_exit_0(project: Path, jaxlint_run: Run) -> None:
    write(project, {"ok.py": CLEAN})
    r = jaxlint_run("check", "--diff", "ok.py")
    assert r.code == 0
    assert r.out == ""
    assert "No fixes available." in r.err


def test_diff_only_unsafe_fixes(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": UNSAFE_ONLY})
    r = jaxlint_run("check", "--diff", *JAX302_ON, "a.py")
    assert r.code == 0
    assert r.out == ""
    assert "1 hidden fix(es) can be enabled with the `--unsafe-fixes` option" in r.err
    r = jaxlint_run("check", "--diff", "--unsafe-fixes", *JAX302_ON, "a.py")
    assert r.code == 1
    assert "+k = jax.random.key(0)\n" in r.out
    assert (project / "a.py").read_text() == UNSAFE_ONLY


def test_diff_with_fix_still_writes_nothing(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": SAMPLE})
    r = jaxlint_run("check", "--fix", "--diff", "a.py")
    assert r.code == 1
    assert (project / "a.py").read_text() == SAMPLE


def test_diff_exit_zero(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": SAMPLE})
    assert jaxlint_run("check", "--diff", "--exit-zero", "a.py").code == 0


# -- --fix -------------------------------------------------------------------------------------


def test_fix_applies_only_safe_fixes(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE})
    r = jaxlint_run("check", "--fix", *JAX302_ON, "a.py")
    assert (project / "a.py").read_text() == ALL_THREE_SAFE_FIXED
    assert r.code == 1  # JAX302 remains
    assert "Found 3 error(s) (2 fixed, 1 remaining)." in r.out
    assert "No fixes available (1 hidden fix(es) can be enabled with the `--unsafe-fixes`" in r.out


def test_fix_unsafe_fixes(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE})
    r = jaxlint_run("check", "--fix", "--unsafe-fixes", *JAX302_ON, "a.py")
    assert (project / "a.py").read_text() == ALL_THREE_ALL_FIXED
    assert r.code == 0
    assert r.out == "Found 3 error(s) (3 fixed, 0 remaining).\n"


def test_unsafe_fixes_without_fix_changes_nothing(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE})
    r = jaxlint_run("check", "--unsafe-fixes", *JAX302_ON, "a.py")
    assert r.code == 1
    assert (project / "a.py").read_text() == ALL_THREE
    assert "[*] 3 fixable with the `--fix` option." in r.out


def test_unsafe_fixes_from_config(project: Path, jaxlint_run: Run) -> None:
    write(
        project,
        {"a.py": UNSAFE_ONLY, "jaxlint.toml": 'unsafe-fixes = true\nextend-select = ["JAX302"]\n'},
    )
    r = jaxlint_run("check", "--output-format", "concise", "a.py")
    assert "JAX302 [*] " in r.out
    assert "[*] 1 fixable with the `--fix` option." in r.out
    assert "hidden" not in r.out
    r = jaxlint_run("check", "--no-unsafe-fixes", "--fix", "a.py")
    assert (project / "a.py").read_text() == UNSAFE_ONLY
    assert r.code == 1
    r = jaxlint_run("check", "--fix", "a.py")
    assert (project / "a.py").read_text() == "import jax\nk = jax.random.key(0)\n"
    assert r.code == 0


def test_fix_shorthand(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": SAMPLE})
    r = jaxlint_run("--fix", "a.py")
    assert r.code == 0
    assert (project / "a.py").read_text() == CLEAN
    assert r.out == "Found 1 error(s) (1 fixed, 0 remaining).\n"


def test_fix_nothing_to_do_leaves_file_untouched(project: Path, jaxlint_run: Run) -> None:
    write(project, {"ok.py": CLEAN})
    before = (project / "ok.py").stat().st_mtime_ns
    r = jaxlint_run("check", "--fix", "ok.py")
    assert r.code == 0
    assert r.out == "All checks passed!\n"
    assert (project / "ok.py").stat().st_mtime_ns == before


def test_show_fixes(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE, "b.py": SAMPLE})
    r = jaxlint_run("check", "--fix", "--show-fixes", *JAX302_ON, "a.py", "b.py")
    fixed = r.out.index("Fixed 3 error(s):\n")
    assert r.out.index("a.py:4:7: JAX302") < fixed < r.out.index("Found 4 error(s)")
    assert (
        "- a.py:\n    1 × JAX601 (in-place-update)\n    1 × JAX702 (removed-api)\n"
        "- b.py:\n    1 × JAX702 (removed-api)\n"
    ) in r.out


def test_show_fixes_with_json_keeps_stdout_json(project: Path, jaxlint_run: Run) -> None:
    import json

    write(project, {"a.py": SAMPLE})
    r = jaxlint_run("check", "--fix", "--show-fixes", "--output-format", "json", "a.py")
    assert json.loads(r.out) == []
    assert "Fixed 1 error(s):" in r.err


def test_exit_non_zero_on_fix(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": SAMPLE, "b.py": SAMPLE, "ok.py": CLEAN})
    assert jaxlint_run("check", "--fix", "a.py").code == 0
    assert jaxlint_run("check", "--fix", "--exit-non-zero-on-fix", "b.py").code == 1
    assert (project / "b.py").read_text() == CLEAN
    assert jaxlint_run("check", "--fix", "--exit-non-zero-on-fix", "ok.py").code == 0


def test_display_only_fix_is_never_applied(
    project: Path, jaxlint_run: Run, extra_rule: type[Rule]
) -> None:
    src = "import jax.numpy as jnp\nx = jnp.ones(3, 4)\n"
    write(project, {"a.py": src})
    r = jaxlint_run("check", "--select", "JAX990", "a.py")
    assert r.code == 1
    assert "a.py:2:5: JAX990 `jnp.ones` called with 2 arguments (at most 1)" in r.out
    assert "help: Consider `jnp.full` (suggestion, not applied automatically)" in r.out
    assert "fixable" not in r.out
    for argv in (["--fix"], ["--fix", "--unsafe-fixes"]):
        r = jaxlint_run("check", "--select", "JAX990", *argv, "a.py")
        assert r.code == 1
        assert (project / "a.py").read_text() == src
        assert "fixed" not in r.out
    r = jaxlint_run("check", "--select", "JAX990", "--diff", "--unsafe-fixes", "a.py")
    assert (r.code, r.out) == (0, "")
    assert "No fixes available." in r.err


# -- noqa ----------------------------------------------------------------------------------------

# The comments below name JAX602 on purpose; it is off by default, so these tests select it.
NOQA_SRC = """\
import jax
import jax.numpy as jnp
a = jnp.empty(3)  # noqa
b = jnp.empty(3)  # noqa: JAX602
c = jnp.empty(3)  # noqa: JAX6
d = jnp.empty(3) + jax.tree_map(f, t)  # noqa:JAX702,JAX602
e = jnp.empty(3)  # noqa: JAX7
g = jnp.empty(3)  # NOQA: jax602
h = jnp.empty(3) + jax.tree_map(f, t)  # noqa: JAX702
"""


def test_noqa_in_check(project: Path, jaxlint_run: Run) -> None:
    write(project, {"n.py": NOQA_SRC})
    r = jaxlint_run("check", "--output-format", "concise", "--extend-select", "JAX602", "n.py")
    # the NOQA comment naming `jax602` names no code jaxlint reports (codes are
    # case-sensitive, as in flake8), so line 8 is reported
    assert [line.split(": ")[0] for line in r.out.splitlines() if "JAX" in line] == [
        "n.py:7:5",
        "n.py:8:5",
        "n.py:9:5",
    ]
    assert r.codes == ["JAX602", "JAX602", "JAX602"]


def test_noqa_in_fix(project: Path, jaxlint_run: Run) -> None:
    write(project, {"n.py": NOQA_SRC})
    r = jaxlint_run("check", "--fix", "--extend-select", "JAX602", "n.py")
    assert r.code == 0
    expected = (
        NOQA_SRC.replace("e = jnp.empty", "e = jnp.zeros")
        .replace("g = jnp.empty", "g = jnp.zeros")
        .replace("h = jnp.empty", "h = jnp.zeros")
    )
    assert (project / "n.py").read_text() == expected


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("# jaxlint: noqa\n", []),
        ("# jaxlint: noqa: JAX601\n", ["JAX302", "JAX702"]),
        ("# jaxlint: noqa: JAX6,JAX7\n", ["JAX302"]),
    ],
)
def test_file_level_noqa(project: Path, jaxlint_run: Run, header: str, expected: list[str]) -> None:
    write(project, {"a.py": header + ALL_THREE})
    r = jaxlint_run("check", "--output-format", "concise", *JAX302_ON, "a.py")
    assert r.codes == expected
    r = jaxlint_run("check", "--fix", "--unsafe-fixes", *JAX302_ON, "a.py")
    text = (project / "a.py").read_text()
    assert ("buf[0] = 1.0" in text) is ("JAX601" not in expected)
    assert r.code == 0


# -- stdin --------------------------------------------------------------------------------------


def test_stdin_with_filename(project: Path, jaxlint_run: Run) -> None:
    r = jaxlint_run(
        "check",
        "--output-format",
        "concise",
        "--stdin-filename",
        "pkg/mod.py",
        "-",
        stdin=SAMPLE.encode(),
    )
    assert r.code == 1
    assert r.out.startswith("pkg/mod.py:2:5: JAX702 ")


def test_stdin_without_filename(project: Path, jaxlint_run: Run) -> None:
    r = jaxlint_run("check", "--output-format", "concise", "-", stdin=SAMPLE.encode())
    assert r.code == 1
    assert r.out.startswith("-:2:5: JAX702 ")


def test_stdin_filename_alone_reads_stdin(project: Path, jaxlint_run: Run) -> None:
    write(project, {"other.py": ALL_THREE})  # not checked: stdin is
    r = jaxlint_run(
        "check", "--output-format", "concise", "--stdin-filename", "x.py", stdin=SAMPLE.encode()
    )
    assert r.codes == ["JAX702"]
    assert r.out.startswith("x.py:2:5:")


def test_stdin_fix_writes_code_to_stdout(project: Path, jaxlint_run: Run) -> None:
    r = jaxlint_run("check", "--fix", "--stdin-filename", "a.py", "-", stdin=SAMPLE.encode())
    assert r.code == 0
    assert r.out == CLEAN
    assert "Found 1 error(s) (1 fixed, 0 remaining)." in r.err
    assert not (project / "a.py").exists()


def test_stdin_fix_keeps_unfixed_code(project: Path, jaxlint_run: Run) -> None:
    r = jaxlint_run("check", "--fix", *JAX302_ON, "-", stdin=UNSAFE_ONLY.encode())
    assert r.code == 1
    assert r.out == UNSAFE_ONLY
    assert "-:2:5: JAX302" in r.err


def test_stdin_diff(project: Path, jaxlint_run: Run) -> None:
    r = jaxlint_run("check", "--diff", "--stdin-filename", "a.py", "-", stdin=SAMPLE.encode())
    assert r.code == 1
    assert r.out.startswith("--- a/a.py\n+++ b/a.py\n")


def test_stdin_per_file_ignores_use_the_stdin_filename(project: Path, jaxlint_run: Run) -> None:
    write(project, {"pyproject.toml": '[tool.jaxlint.per-file-ignores]\n"tests/*" = ["JAX7"]\n'})
    args = ("check", "--output-format", "concise", "--stdin-filename")
    r = jaxlint_run(*args, "tests/test_x.py", "-", stdin=SAMPLE.encode())
    assert r.code == 0
    assert r.out == "All checks passed!\n"
    r = jaxlint_run(*args, "src/x.py", "-", stdin=SAMPLE.encode())
    assert r.codes == ["JAX702"]


def test_stdin_config_is_found_from_the_stdin_filename(project: Path, jaxlint_run: Run) -> None:
    write(project, {"sub/jaxlint.toml": 'ignore = ["JAX7"]\n'})
    args = ("check", "--output-format", "concise", "--stdin-filename")
    assert jaxlint_run(*args, "sub/a.py", "-", stdin=SAMPLE.encode()).code == 0
    assert jaxlint_run(*args, "a.py", "-", stdin=SAMPLE.encode()).code == 1


# -- --target-jax ------------------------------------------------------------------------------


def test_target_jax(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": ALL_THREE})
    concise = ("check", "--output-format", "concise", *JAX302_ON)
    assert jaxlint_run(*concise, "a.py").codes == ["JAX302", "JAX601", "JAX702"]
    # jax.tree_map was deprecated in 0.4.26; item assignment never worked on a JAX array
    assert jaxlint_run(*concise, "--target-jax", "0.4.20", "a.py").codes == ["JAX302", "JAX601"]
    assert jaxlint_run(*concise, "--target-jax", "0.10.0", "a.py").codes == [
        "JAX302",
        "JAX601",
        "JAX702",
    ]
    # jnp.empty is uninitialised from 0.11 (JAX602 is off by default)
    write(project, {"e.py": EMPTY})
    concise = ("check", "--output-format", "concise", "--extend-select", "JAX602", "e.py")
    assert jaxlint_run(*concise, "--target-jax", "0.10.0").codes == []
    assert jaxlint_run(*concise, "--target-jax", "0.11").codes == ["JAX602"]


def test_target_jax_overrides_config(project: Path, jaxlint_run: Run) -> None:
    write(
        project,
        {"a.py": ALL_THREE, "jaxlint.toml": 'target-jax = "0.4.20"\nextend-select = ["JAX302"]\n'},
    )
    concise = ("check", "--output-format", "concise")
    assert jaxlint_run(*concise, "a.py").codes == ["JAX302", "JAX601"]
    assert jaxlint_run(*concise, "--target-jax", "0.12.0", "a.py").codes == [
        "JAX302",
        "JAX601",
        "JAX702",
    ]


@pytest.mark.parametrize("bad", ["banana", "1.2.3.4.5", "", "v0.4"])
def test_bad_target_jax_exit_2(project: Path, jaxlint_run: Run, bad: str) -> None:
    write(project, {"a.py": ALL_THREE})
    r = jaxlint_run("check", "--target-jax", bad, "a.py")
    assert r.code == 2
    assert "--target-jax" in r.err


# -- config files ----------------------------------------------------------------------------------


def test_config_option_with_jaxlint_toml(project: Path, jaxlint_run: Run) -> None:
    write(
        project,
        {
            "a.py": ALL_THREE,
            "cfg/strict.toml": 'select = ["JAX6"]\n',
            "jaxlint.toml": 'select = ["JAX7"]\n',
        },
    )
    r = jaxlint_run("check", "--output-format", "concise", "--config", "cfg/strict.toml", "a.py")
    assert r.codes == ["JAX601"]


def test_config_option_with_pyproject(project: Path, jaxlint_run: Run) -> None:
    write(
        project,
        {
            "a.py": ALL_THREE,
            "other/pyproject.toml": '[project]\nname = "x"\n\n[tool.jaxlint]\nignore = ["JAX7"]\n',
        },
    )
    r = jaxlint_run(
        "check", "--output-format", "concise", "--config", "other/pyproject.toml", "a.py"
    )
    assert r.codes == ["JAX601"]


def test_explicit_config_applies_to_every_file(project: Path, jaxlint_run: Run) -> None:
    write(
        project,
        {
            "p1/a.py": ALL_THREE,
            "p1/jaxlint.toml": 'select = ["JAX7"]\n',
            "p2/b.py": ALL_THREE,
            "c.toml": 'select = ["JAX6"]\n',
        },
    )
    r = jaxlint_run("check", "--output-format", "concise", "--config", "c.toml", "p1", "p2")
    assert r.codes == ["JAX601", "JAX601"]


def test_nearest_config_wins(project: Path, jaxlint_run: Run) -> None:
    write(
        project,
        {
            "pyproject.toml": '[tool.jaxlint]\nextend-select = ["JAX302"]\nignore = ["JAX7"]\n',
            "a.py": ALL_THREE,
            "p1/jaxlint.toml": 'select = ["JAX6"]\n',
            "p1/a.py": ALL_THREE,
            "p1/deep/er/a.py": ALL_THREE,
            "p2/pyproject.toml": '[tool.jaxlint]\nselect = ["JAX7"]\n',
            "p2/a.py": ALL_THREE,
            # no [tool.jaxlint]: skipped, the root pyproject.toml applies
            "p3/pyproject.toml": '[project]\nname = "p3"\n',
            "p3/a.py": ALL_THREE,
        },
    )
    r = jaxlint_run("check", "--output-format", "concise")
    by_file = {}
    for line in r.out.splitlines():
        if ": JAX" in line:
            name, rest = line.split(":", 1)
            by_file.setdefault(name, []).append(rest.split(": ")[1].split()[0])
    assert by_file == {
        "a.py": ["JAX302", "JAX601"],
        "p1/a.py": ["JAX601"],
        "p1/deep/er/a.py": ["JAX601"],
        "p2/a.py": ["JAX702"],
        "p3/a.py": ["JAX302", "JAX601"],
    }


def test_nearest_config_with_command_line_overrides(project: Path, jaxlint_run: Run) -> None:
    write(
        project,
        {
            "p1/jaxlint.toml": 'extend-select = ["JAX302"]\nignore = ["JAX7"]\n',
            "p1/a.py": ALL_THREE,
            "p2/jaxlint.toml": 'extend-select = ["JAX302"]\nignore = ["JAX6"]\n',
            "p2/a.py": ALL_THREE,
        },
    )
    r = jaxlint_run("check", "--output-format", "concise", "--ignore", "JAX3", "p1", "p2")
    assert r.codes == ["JAX601", "JAX702"]
    assert r.out.splitlines()[0].startswith("p1/a.py:6:1: JAX601")
    assert r.out.splitlines()[1].startswith("p2/a.py:7:7: JAX702")


def test_config_error_exit_2_names_file_and_key(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": SAMPLE, "pyproject.toml": "[tool.jaxlint]\nselectt = ['JAX6']\n"})
    r = jaxlint_run("check", "a.py")
    assert r.code == 2
    assert "pyproject.toml" in r.err
    assert "'selectt'" in r.err


@pytest.mark.parametrize(
    ("toml", "needles"),
    [
        ("[rules.JAX602]\nfoo = 1\n", ["jaxlint.toml", "rules.JAX602", "'foo'"]),
        ("[rules.empty-not-zeros]\nfoo = 1\n", ["jaxlint.toml", "'foo'", "JAX602"]),
        ("[rules.NOPE]\nfoo = 1\n", ["jaxlint.toml", "unknown rule 'NOPE'"]),
        ("rules = 3\n", ["jaxlint.toml", "rules"]),
        ("[rules]\nJAX602 = 3\n", ["jaxlint.toml", "rules.JAX602"]),
    ],
)
def test_unknown_rule_option_exit_2(
    project: Path, jaxlint_run: Run, toml: str, needles: list[str]
) -> None:
    write(project, {"a.py": SAMPLE, "jaxlint.toml": toml})
    r = jaxlint_run("check", "a.py")
    assert r.code == 2
    for needle in needles:
        assert needle in r.err


def test_unknown_rule_option_in_pyproject(project: Path, jaxlint_run: Run) -> None:
    write(project, {"a.py": SAMPLE, "pyproject.toml": "[tool.jaxlint.rules.JAX602]\nfoo = 1\n"})
    r = jaxlint_run("check", "a.py")
    assert r.code == 2
    assert "pyproject.toml" in r.err and "rules.JAX602" in r.err and "'foo'" in r.err


def test_valid_rule_option(project: Path, jaxlint_run: Run, extra_rule: type[Rule]) -> None:
    src = "import jax.numpy as jnp\nx = jnp.ones(3, 4)\ny = jnp.ones(3, 4, 5)\n"
    write(project, {"a.py": src})
    concise = ("check", "--output-format", "concise", "--select", "JAX990", "a.py")
    r = jaxlint_run(*concise)
    assert r.codes == ["JAX990", "JAX990"]
    (project / "jaxlint.toml").write_text("[rules.JAX990]\nmax-args = 2\n")
    r = jaxlint_run(*concise)
    assert r.codes == ["JAX990"]
    assert "a.py:3:5: JAX990 `jnp.ones` called with 3 arguments (at most 2)" in r.out
    (project / "jaxlint.toml").write_text("[rules.test-ones]\nmax-args = 3\n")
    assert jaxlint_run(*concise).code == 0
    (project / "jaxlint.toml").write_text('[rules.JAX990]\nmax-args = "2"\n')
    r = jaxlint_run(*concise)
    assert r.code == 2
    assert "max-args" in r.err and "expected int" in r.err
    (project / "jaxlint.toml").write_text("[rules.JAX990]\nmax-args = true\n")
    assert jaxlint_run(*concise).code == 2


def test_rule_with_options_documents_them(extra_rule: type[Rule], jaxlint_run: Run) -> None:
    r = jaxlint_run("rule", "JAX990")
    assert r.code == 0
    assert "## Options" in r.out
    assert "`max-args` (int, default `1`)" in r.out


# -- per-file-ignores, exclude, .gitignore ---------------------------------------------------------


def test_per_file_ignores(project: Path, jaxlint_run: Run) -> None:
    write(
        project,
        {
            "pyproject.toml": """\
                [tool.jaxlint]
                extend-select = ["JAX302"]

                [tool.jaxlint.per-file-ignores]
                "tests/*" = ["JAX6"]
                "__init__.py" = ["JAX7"]
                "src/**/gen_*.py" = ["JAX3", "JAX6"]
                "scripts/" = ["JAX"]
            """,
            "tests/test_a.py": ALL_THREE,
            "tests/deep/test_b.py": ALL_THREE,
            "src/pkg/__init__.py": ALL_THREE,
            "src/pkg/gen_x.py": ALL_THREE,
            "src/pkg/x.py": ALL_THREE,
            "scripts/run.py": ALL_THREE,
        },
    )
    r = jaxlint_run("check", "--output-format", "concise")
    got = sorted(
        line.split(":")[0] + " " + line.split(": ")[1].split()[0]
        for line in r.out.splitlines()
        if ": JAX" in line
    )
    assert got == [
        "src/pkg/__init__.py JAX302",
        "src/pkg/__init__.py JAX601",
        "src/pkg/gen_x.py JAX702",
        "src/pkg/x.py JAX302",
        "src/pkg/x.py JAX601",
        "src/pkg/x.py JAX702",
        "tests/deep/test_b.py JAX302",
        "tests/deep/test_b.py JAX702",
        "tests/test_a.py JAX302",
        "tests/test_a.py JAX702",
    ]


def test_per_file_ignores_are_relative_to_the_config(project: Path, jaxlint_run: Run) -> None:
    write(
        project,
        {
            "sub/jaxlint.toml": '[per-file-ignores]\n"tests/*" = ["JAX7"]\n',
            "sub/tests/a.py": SAMPLE,
            "tests/a.py": SAMPLE,
        },
    )
    r = jaxlint_run("check", "--output-format", "concise")
    assert r.out.splitlines()[0].startswith("tests/a.py:2:5: JAX702")
    assert r.codes == ["JAX702"]


def test_exclude_and_extend_exclude(project: Path, jaxlint_run: Run) -> None:
    write(
        project,
        {
            "jaxlint.toml": 'extend-exclude = ["gen", "src/legacy_*.py"]\n',
            "src/a.py": SAMPLE,
            "src/legacy_b.py": SAMPLE,
            "src/gen/c.py": SAMPLE,
            "gen/d.py": SAMPLE,
            ".venv/lib/e.py": SAMPLE,
            "node_modules/f.py": SAMPLE,
        },
    )
    r = jaxlint_run("check", "--output-format", "concise")
    assert [line.split(":")[0] for line in r.out.splitlines() if ": JAX" in line] == ["src/a.py"]
    # a file named on the command line is checked anyway ...
    r = jaxlint_run("check", "--output-format", "concise", "src/legacy_b.py", "gen/d.py")
    assert r.codes == ["JAX702", "JAX702"]
    # ... unless --force-exclude (pre-commit passes every file explicitly)
    r = jaxlint_run("check", "--force-exclude", "src/legacy_b.py", "gen/d.py", "src/gen/c.py")
    assert r.code == 0
    # --extend-exclude on the command line adds to the config's
    r = jaxlint_run("check", "--output-format", "concise", "--extend-exclude", "src/a.py")
    assert r.code == 0


def test_exclude_replaces_the_defaults(project: Path, jaxlint_run: Run) -> None:
    write(
        project, {"jaxlint.toml": 'exclude = ["skip"]\n', "venv/a.py": SAMPLE, "skip/b.py": SAMPLE}
    )
    r = jaxlint_run("check", "--output-format", "concise")
    assert [line.split(":")[0] for line in r.out.splitlines() if ": JAX" in line] == ["venv/a.py"]


def test_project_inside_an_excluded_folder_name_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jaxlint_run: Run
) -> None:
    """A default exclude (``build``, ``dist``) must not match folders above the project."""
    proj = tmp_path / "build" / "dist" / "proj"
    write(proj, {"a.py": SAMPLE, "build/x.py": SAMPLE})
    monkeypatch.chdir(tmp_path)
    r = jaxlint_run("check", "--output-format", "concise", "build/dist/proj")
    assert r.codes == ["JAX702"]
    assert r.out.startswith("build/dist/proj/a.py:")
    monkeypatch.chdir(proj)
    assert jaxlint_run("check", "--output-format", "concise", str(proj)).codes == ["JAX702"]
    monkeypatch.chdir("/")
    assert jaxlint_run("check", "--output-format", "concise", str(proj)).codes == ["JAX702"]


def _git_init(path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(path)], check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_respect_gitignore(project: Path, jaxlint_run: Run) -> None:
    _git_init(project)
    write(
        project,
        {
            ".gitignore": "generated/\nscratch_*.py\n",
            "kept.py": SAMPLE,
            "generated/g.py": SAMPLE,
            "pkg/scratch_1.py": SAMPLE,
        },
    )
    r = jaxlint_run("check", "--output-format", "concise")
    assert [line.split(":")[0] for line in r.out.splitlines() if ": JAX" in line] == ["kept.py"]
    (project / "pyproject.toml").write_text("[tool.jaxlint]\nrespect-gitignore = false\n")
    r = jaxlint_run("check", "--output-format", "concise")
    assert sorted(line.split(":")[0] for line in r.out.splitlines() if ": JAX" in line) == [
        "generated/g.py",
        "kept.py",
        "pkg/scratch_1.py",
    ]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_respect_gitignore_from_a_subfolder_and_through_a_symlink(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jaxlint_run: Run
) -> None:
    repo = tmp_path / "repo"
    _git_init(repo)
    write(repo, {".gitignore": "*_pb2.py\n", "pkg/a.py": SAMPLE, "pkg/m_pb2.py": SAMPLE})
    link = tmp_path / "link"
    link.symlink_to(repo, target_is_directory=True)
    for cwd, arg in ((repo / "pkg", "."), (tmp_path, "link/pkg"), (link, "pkg")):
        monkeypatch.chdir(cwd)
        r = jaxlint_run("check", "--output-format", "concise", arg)
        names = [line.split(":")[0] for line in r.out.splitlines() if ": JAX" in line]
        assert len(names) == 1 and names[0].endswith("a.py"), (cwd, arg, r.out)


# -- jaxlint rule --------------------------------------------------------------------------------


def test_rule_docs(jaxlint_run: Run) -> None:
    r = jaxlint_run("rule", "JAX602")
    assert r.code == 0
    assert r.out.startswith("# empty-not-zeros (JAX602)\n")
    for section in (
        "What it does",
        "Why is this bad",
        "Example",
        "Use instead",
        "Fix safety",
        "Verify at runtime",
    ):
        assert f"## {section}\n" in r.out
    assert "Fix is always available." in r.out


@pytest.mark.parametrize("spelling", ["empty-not-zeros", "jax602", "EMPTY-NOT-ZEROS"])
def test_rule_by_name_or_lowercase_code(jaxlint_run: Run, spelling: str) -> None:
    r = jaxlint_run("rule", spelling)
    assert r.code == 0
    assert r.out.startswith("# empty-not-zeros (JAX602)")


def test_rule_all(jaxlint_run: Run) -> None:
    r = jaxlint_run("rule", "--all")
    assert r.code == 0
    lines = r.out.splitlines()
    assert len(lines) == len(jaxlint.rules.all_rules())
    for rule, line in zip(jaxlint.rules.all_rules(), lines, strict=True):
        off = [] if rule.default_enabled else ["(off", "by", "default)"]
        assert line.split() == [rule.code, rule.name, "fix:", rule.fix_availability, *off]
    by_code = {line.split()[0]: line for line in lines}
    assert by_code["JAX302"].endswith("  (off by default)")
    assert by_code["JAX602"].endswith("  (off by default)")
    assert "off by default" not in by_code["JAX601"] + by_code["JAX702"]


def test_rule_unknown(jaxlint_run: Run) -> None:
    r = jaxlint_run("rule", "NOPE")
    assert r.code == 2
    assert "unknown rule 'NOPE'" in r.err
    assert "JAX602" in r.err  # lists the known codes
    assert r.out == ""


# -- the real executables ------------------------------------------------------------------------


def _subprocess(argv: list[str], cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, env=env, timeout=120)


def test_python_dash_m(project: Path) -> None:
    write(project, {"a.py": SAMPLE})
    proc = _subprocess(
        [sys.executable, "-m", "jaxlint", "check", "--target-jax", "0.12", "a.py"], project
    )
    assert proc.returncode == 1, proc.stderr
    assert b"a.py:2:5: JAX702 [*] " in proc.stdout
    proc = _subprocess(
        [sys.executable, "-m", "jaxlint", "--fix", "--target-jax", "0.12", "a.py"], project
    )
    assert proc.returncode == 0, proc.stderr
    assert (project / "a.py").read_text() == CLEAN
    proc = _subprocess([sys.executable, "-m", "jaxlint", "rule", "NOPE"], project)
    assert proc.returncode == 2


def test_console_script_and_stdin(project: Path) -> None:
    exe = Path(sys.executable).parent / ("jaxlint.exe" if os.name == "nt" else "jaxlint")
    if not exe.exists():
        pytest.skip("the jaxlint console script is not installed next to this Python")
    proc = _subprocess(
        [str(exe), "check", "--target-jax", "0.12", "--fix", "--stdin-filename", "a.py", "-"],
        project,
        stdin=SAMPLE.encode(),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == CLEAN.encode()
    assert b"1 fixed" in proc.stderr
