"""The results cache: hits, what invalidates an entry, corrupt entries, fixing, ``clean``."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

import jaxlint.cache
import jaxlint.cli
import jaxlint.versions
from jaxlint.cache import (
    CACHE_DIR_NAME,
    CACHEDIR_TAG,
    GITIGNORE,
    MARKER,
    MARKER_NAME,
    CachedResult,
    decode_entry,
    encode_entry,
)
from jaxlint.cli import main
from jaxlint.diagnostics import Applicability, Diagnostic, Edit, Fix, Position

SAMPLE = "import jax.numpy as jnp\nx = jnp.round_(3)\n"  # JAX702 at 2:5, a safe fix
FIXED = "import jax.numpy as jnp\nx = jnp.round(3)\n"
CLEAN = "import jax.numpy as jnp\ny = jnp.ones(2)\n"
LEGACY = "import jax\nk = jax.random.PRNGKey(0)\n"


@dataclass
class Run:
    code: int
    out: str
    err: str
    linted: list[str]
    """The files that were linted (not answered by the cache), in order."""


@pytest.fixture(autouse=True)
def _pinned_jax(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jaxlint.versions, "installed_jax_version", lambda: "0.12.0")
    monkeypatch.delenv("JAXLINT_CACHE_DIR", raising=False)


@pytest.fixture
def cli(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Run]:
    monkeypatch.chdir(tmp_path)
    real = jaxlint.cli.checking.process_text

    def run(*args: str) -> Run:
        linted: list[str] = []

        def counting(text: str, name: str, *rest, **kwargs):
            linted.append(name)
            return real(text, name, *rest, **kwargs)

        monkeypatch.setattr(jaxlint.cli.checking, "process_text", counting)
        code = main(["check", "--output-format", "concise", "-j", "1", *args])
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return Run(code, out, err, linted)

    return run


def entries(root: Path) -> list[Path]:
    return sorted(
        p for p in (root / CACHE_DIR_NAME).rglob("*") if p.is_file() and len(p.name) == 64
    )


# -- hits and misses ---------------------------------------------------------------------------


def test_second_run_is_answered_by_the_cache(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / "b.py").write_text(CLEAN)
    first = cli("a.py", "b.py")
    assert first.linted == ["a.py", "b.py"]
    second = cli("a.py", "b.py")
    assert second.linted == []
    assert (second.code, second.out, second.err) == (first.code, first.out, first.err)
    assert len(entries(tmp_path)) == 2


def test_cache_folder_is_ignored_by_git_and_tagged(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("a.py")
    folder = tmp_path / CACHE_DIR_NAME
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (folder / "CACHEDIR.TAG").read_text() == CACHEDIR_TAG
    assert (folder / MARKER_NAME).read_text().startswith(MARKER)  # and the folder it names
    for entry in entries(tmp_path):
        assert entry.stat().st_mode & 0o044  # readable like any new file, not mkstemp's 0600


def test_cache_sits_at_the_project_root(cli, tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\n")
    sub = tmp_path / "src" / "pkg"
    sub.mkdir(parents=True)
    (sub / "a.py").write_text(SAMPLE)
    monkeypatch.chdir(sub)
    from jaxlint.cli import main as run_main

    assert run_main(["check", "--output-format", "concise", "a.py"]) == 1
    assert (tmp_path / CACHE_DIR_NAME).is_dir()
    assert not (sub / CACHE_DIR_NAME).exists()


def test_environment_and_option_choose_the_folder(cli, tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("--cache-dir", "elsewhere", "a.py")
    assert (tmp_path / "elsewhere" / ".gitignore").exists()
    monkeypatch.setenv("JAXLINT_CACHE_DIR", str(tmp_path / "from-env"))
    cli("a.py")
    assert (tmp_path / "from-env" / ".gitignore").exists()
    assert not (tmp_path / CACHE_DIR_NAME).exists()


def test_no_cache_reads_and_writes_nothing(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("a.py")
    assert cli("--no-cache", "a.py").linted == ["a.py"]
    before = entries(tmp_path)
    (tmp_path / "b.py").write_text(SAMPLE)
    cli("--no-cache", "b.py")
    assert entries(tmp_path) == before


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(
            lambda p: (p / "a.py").write_text(SAMPLE + "y = jnp.round_(4)\n"), id="content"
        ),
        pytest.param(
            lambda p: (p / "pyproject.toml").write_text('[tool.jaxlint]\ntarget-jax = "0.4.30"\n'),
            id="target-jax",
        ),
        pytest.param(
            lambda p: (p / "pyproject.toml").write_text('[tool.jaxlint]\nignore = ["JAX702"]\n'),
            id="rule-selection",
        ),
        pytest.param(
            lambda p: (p / "pyproject.toml").write_text(
                '[tool.jaxlint]\nper-file-ignores = {"a.py" = ["JAX7"]}\n'
            ),
            id="per-file-ignores",
        ),
        pytest.param(
            lambda p: (p / "pyproject.toml").write_text(
                '[tool.jaxlint]\ntraced-decorators = ["mylib.my_jit"]\n'
            ),
            id="traced-decorators",
        ),
    ],
)
def test_what_invalidates_an_entry(cli, tmp_path: Path, change) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\n")
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("a.py")
    assert cli("a.py").linted == []
    change(tmp_path)
    again = cli("a.py")
    assert again.linted == ["a.py"]
    assert cli("--no-cache", "a.py").out == again.out


def test_command_line_selection_is_part_of_the_key(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(LEGACY)
    assert cli("a.py").out.count("JAX302") == 0
    enabled = cli("--extend-select", "JAX302", "a.py")
    assert enabled.linted == ["a.py"] and "JAX302" in enabled.out
    assert cli("--extend-select", "JAX302", "a.py").linted == []
    assert cli("--target-jax", "0.4.0", "--extend-select", "JAX302", "a.py").linted == ["a.py"]


def test_a_rule_option_is_part_of_the_key() -> None:
    from jaxlint.cache import settings_fingerprint
    from jaxlint.config import Settings

    plain = Settings()
    tuned = Settings(rule_options=(("JAX204", (("max-unrolled", 3),)),))
    assert settings_fingerprint(plain, None, False) != settings_fingerprint(tuned, None, False)
    assert settings_fingerprint(plain, None, False) != settings_fingerprint(plain, None, True)


def test_a_new_jaxlint_is_a_new_cache(cli, tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("a.py")
    monkeypatch.setattr(jaxlint.cache, "engine_fingerprint", lambda: "0" * 64)
    assert cli("a.py").linted == ["a.py"]


def test_engine_fingerprint_covers_the_rule_sources() -> None:
    jaxlint.cache.engine_fingerprint.cache_clear()
    first = jaxlint.cache.engine_fingerprint()
    assert first == jaxlint.cache.engine_fingerprint() and len(first) == 64
    # every .py/.toml/.json file of the package, __pycache__ left out, as rglob lists them
    package = Path(jaxlint.cache.__file__).resolve().parent
    listed: list[tuple[list[str], str]] = []
    jaxlint.cache._package_files(str(package), [], listed)
    expected = sorted(
        p.relative_to(package).as_posix()
        for p in package.rglob("*")
        if p.suffix in (".py", ".toml", ".json") and "__pycache__" not in p.parts
    )
    assert sorted("/".join(parts) for parts, _ in listed) == expected
    assert "rules/prng/prng_key_reuse.py" in expected and len(expected) > 500


def test_json_output_from_the_cache_keeps_the_fix_edits(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / "b.py").write_text(LEGACY)
    args = ("--output-format", "json", "--extend-select", "JAX302", "a.py", "b.py")
    cold = cli(*args)
    warm = cli(*args)
    assert warm.linted == []
    assert json.loads(warm.out) == json.loads(cold.out)
    assert json.loads(cold.out)[0]["fix"]["edits"]
    assert cli("--no-cache", *args).out == cold.out


def test_files_that_never_mention_jax_need_no_entry(cli, tmp_path: Path) -> None:
    (tmp_path / "plain.py").write_text("x = 1\n")
    cli("plain.py")
    assert entries(tmp_path) == []


def test_a_crashing_rule_is_never_cached(cli, tmp_path: Path, monkeypatch) -> None:
    from jaxlint.rules.api_drift import RemovedApi

    def boom(self, node) -> None:
        raise RuntimeError("boom")

    (tmp_path / "a.py").write_text(SAMPLE)
    with monkeypatch.context() as m:
        m.setattr(RemovedApi, "visit_Attribute", boom)
        assert cli("a.py").code == 2
    assert entries(tmp_path) == []
    assert cli("a.py").linted == ["a.py"]


# -- entries are never trusted blindly ----------------------------------------------------------


def _diag(row: int = 2) -> Diagnostic:
    fix = Fix(Applicability.SAFE, "Use round", (Edit(Position(row, 5), Position(row, 15), "x"),))
    return Diagnostic(
        "JAX702",
        "removed-api",
        "msg",
        "ignored.py",
        Position(row, 5),
        Position(row, 15),
        Applicability.SAFE,
        "Use round",
        fix,
        "jaxlint probe x",
    )


def test_entry_round_trip() -> None:
    key = "ab" * 32
    data = encode_entry(key, CachedResult([_diag()]))
    back = decode_entry(data, key, "a.py")
    assert back is not None
    [d] = back.diagnostics
    assert d.filename == "a.py" and d.fix == _diag().fix and d.start == Position(2, 5)


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda d: d[: len(d) // 2], id="truncated"),
        pytest.param(lambda d: b"", id="empty"),
        pytest.param(lambda d: d[:-3] + bytes([d[-3] ^ 1]) + d[-2:], id="bit-flip-in-payload"),
        pytest.param(lambda d: d.replace(b"jaxlint-cache-2", b"jaxlint-cache-0", 1), id="format"),
        pytest.param(lambda d: b"\xff\xfe garbage \x00" * 10, id="garbage"),
        pytest.param(lambda d: d.replace(b'"start":[2,5]', b'"start":[0,5]'), id="bad-row"),
    ],
)
def test_damaged_entries_are_ignored(damage) -> None:
    key = "cd" * 32
    assert decode_entry(damage(encode_entry(key, CachedResult([_diag()]))), key, "a.py") is None


def test_entry_of_another_key_is_ignored() -> None:
    data = encode_entry("ab" * 32, CachedResult([_diag()]))
    assert decode_entry(data, "cd" * 32, "a.py") is None


def test_well_formed_payload_with_wrong_types_is_ignored() -> None:
    import hashlib

    key = "ef" * 32
    for payload in (
        b"{}",
        b"[]",  # the first format's list of findings
        b'{"d": [{"code": 1}], "q": {}}',
        b'{"d": [{"fix": {"edits": "x"}}], "q": {}}',
        b'{"d": [[1, 2]], "q": {}}',
        b'{"d": [], "q": []}',
    ):
        header = f"jaxlint-cache-2\n{key}\n{hashlib.sha256(payload).hexdigest()}\n".encode()
        assert decode_entry(header + payload, key, "a.py") is None


@pytest.mark.parametrize("how", ["truncate", "garbage", "foreign"])
def test_corrupt_entry_on_disk_is_relinted_and_rewritten(cli, tmp_path: Path, how: str) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / "b.py").write_text(SAMPLE.replace("(3)", "(4)"))
    good = cli("a.py", "b.py")
    by_name = {}
    for entry in entries(tmp_path):
        by_name[entry] = entry.read_bytes()
    [first, second] = sorted(by_name)
    if how == "truncate":
        first.write_bytes(by_name[first][:40])
    elif how == "garbage":
        first.write_bytes(os.urandom(300))
    else:  # another file's entry copied over this one
        first.write_bytes(by_name[second])
    again = cli("a.py", "b.py")
    assert len(again.linted) == 1
    assert (again.code, again.out) == (good.code, good.out)
    assert first.read_bytes() == by_name[first]  # rewritten
    assert cli("a.py", "b.py").linted == []


def test_poisoned_entry_with_findings_is_never_used_to_fix(cli, tmp_path: Path) -> None:
    """A stale or forged entry with a fix must not be applied: fix runs lint such files."""
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("--output-format", "json", "a.py")
    [entry] = entries(tmp_path)
    key = entry.name
    bogus = _diag()
    bogus.fix = Fix(Applicability.SAFE, "x", (Edit(Position(1, 1), Position(2, 1), "garbage\n"),))
    entry.write_bytes(encode_entry(key, CachedResult([bogus])))
    r = cli("--output-format", "json", "--fix", "a.py")
    assert r.linted == ["a.py"]
    assert (tmp_path / "a.py").read_text() == FIXED


def test_fix_runs_use_entries_without_findings_and_fill_the_cache(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / "b.py").write_text(CLEAN)
    cli("a.py", "b.py")
    fixed = cli("--fix", "a.py", "b.py")
    assert fixed.linted == ["a.py"]  # b.py had no findings: nothing to fix
    assert (tmp_path / "a.py").read_text() == FIXED
    after = cli("a.py", "b.py")
    assert after.linted == [] and after.code == 0  # the fixed text was cached by the fix run


def test_diff_mode_never_writes_and_still_uses_clean_entries(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / "b.py").write_text(CLEAN)
    cli("a.py", "b.py")
    r = cli("--diff", "a.py", "b.py")
    assert r.linted == ["a.py"] and "+x = jnp.round(3)" in r.out
    assert (tmp_path / "a.py").read_text() == SAMPLE


# -- writing ----------------------------------------------------------------------------------


def test_failed_entry_write_leaves_no_partial_entry(cli, tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("--no-cache", "a.py")  # nothing cached yet
    real_replace = os.replace

    def failing(src, dst, *args, **kwargs):
        in_cache = CACHE_DIR_NAME in str(dst) or kwargs.get("dst_dir_fd") is not None
        if in_cache and len(os.path.basename(dst)) in (64, 65):  # entries, summaries
            raise OSError(28, "No space left on device")
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", failing)
    r = cli("a.py")
    monkeypatch.setattr(os, "replace", real_replace)
    assert r.code == 1 and "JAX702" in r.out  # the run itself is unaffected
    leftovers = [p for p in (tmp_path / CACHE_DIR_NAME).rglob("*") if p.is_file()]
    assert sorted(p.name for p in leftovers) == [".gitignore", "CACHEDIR.TAG", MARKER_NAME]


def test_unusable_cache_folder_is_a_warning_not_an_error(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / "blocker").write_text("a file where the cache folder should go")
    r = cli("--cache-dir", "blocker", "a.py")
    assert r.code == 1 and "JAX702" in r.out
    assert "warning: blocker: cannot create the cache folder; running without a cache" in r.err


# -- jaxlint clean ------------------------------------------------------------------------------


def test_clean_removes_caches_and_only_caches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text(SAMPLE)
    assert main(["check", "a.py"]) == 1
    assert main(["check", "--cache-dir", "sub/.jaxlint_cache", "sub/b.py"]) == 1
    impostor = tmp_path / "other" / CACHE_DIR_NAME
    impostor.mkdir(parents=True)
    (impostor / "keep.txt").write_text("not ours")
    capsys.readouterr()
    assert main(["clean"]) == 0
    out = capsys.readouterr().out
    assert out.count("Removing cache at:") == 2
    assert not (tmp_path / CACHE_DIR_NAME).exists()
    assert not (tmp_path / "sub" / CACHE_DIR_NAME).exists()
    assert (impostor / "keep.txt").exists()
    assert main(["clean"]) == 0  # nothing left: still fine


# -- a folder that is not a cache (issue 18, item 1) ---------------------------------------------


def _project(root: Path) -> list[str]:
    """A folder holding a git repository and sources, as ``--cache-dir .`` would name."""
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text(SAMPLE)
    return _listing(root)


def _listing(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_cache_dir_dot_in_a_project_is_refused_and_clean_keeps_it(
    cli, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _project(tmp_path)
    r = cli("--cache-dir", ".", "src")
    assert r.code == 2 and r.linted == []
    assert "--cache-dir: .: not a jaxlint cache folder" in r.err
    assert _listing(tmp_path) == before  # no CACHEDIR.TAG, no .gitignore of '*'
    for args in (["clean"], ["clean", "--cache-dir", "."], ["clean", "--cache-dir", "src"]):
        assert main(args) == 0
        assert "Removing" not in capsys.readouterr().out
        assert _listing(tmp_path) == before


def test_a_folder_an_older_jaxlint_tagged_by_mistake_is_not_cleaned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _project(tmp_path)
    (tmp_path / "CACHEDIR.TAG").write_text(CACHEDIR_TAG)  # what `--cache-dir .` used to write
    (tmp_path / ".gitignore").write_text(GITIGNORE)
    before = _listing(tmp_path)
    assert main(["clean"]) == 0 and main(["clean", "--cache-dir", "."]) == 0
    assert main(["clean", str(tmp_path)]) == 0
    assert "Removing" not in capsys.readouterr().out
    assert _listing(tmp_path) == before
    assert main(["check", "--cache-dir", ".", "src"]) == 2  # still not a cache to write into
    assert _listing(tmp_path) == before


def test_environment_naming_a_foreign_folder_is_an_error(cli, tmp_path: Path, monkeypatch) -> None:
    before = _project(tmp_path)
    monkeypatch.setenv("JAXLINT_CACHE_DIR", str(tmp_path / "src"))
    r = cli("src")
    assert r.code == 2 and "$JAXLINT_CACHE_DIR" in r.err and "not a jaxlint cache" in r.err
    assert _listing(tmp_path) == before


def test_empty_cache_dir_option_is_an_error(cli, tmp_path: Path) -> None:
    before = _project(tmp_path)
    r = cli("--cache-dir", "", "src")
    assert r.code == 2 and "--cache-dir: needs a folder name" in r.err
    assert _listing(tmp_path) == before
    assert main(["clean", "--cache-dir", ""]) == 2
    assert _listing(tmp_path) == before


def test_an_empty_existing_folder_becomes_a_cache(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / "c").mkdir()
    assert cli("--cache-dir", "c", "a.py").linted == ["a.py"]
    assert (tmp_path / "c" / MARKER_NAME).read_text().startswith(MARKER)
    assert cli("--cache-dir", "c", "a.py").linted == []  # recognised by its marker
    assert main(["clean", "--cache-dir", "c"]) == 0
    assert not (tmp_path / "c").exists()


def test_a_default_folder_that_is_not_ours_is_left_alone(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / CACHE_DIR_NAME).mkdir()
    (tmp_path / CACHE_DIR_NAME / "notes.txt").write_text("mine")
    r = cli("a.py")
    assert r.code == 1 and "JAX702" in r.out and "running without a cache" in r.err
    assert _listing(tmp_path / CACHE_DIR_NAME) == ["notes.txt"]


def test_a_cache_from_before_the_marker_is_still_recognised(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("a.py")
    folder = tmp_path / CACHE_DIR_NAME
    (folder / MARKER_NAME).unlink()  # as an older jaxlint left it
    # recognised (clean may remove it), but not proven made here (issue 28): its entries
    # are not trusted, so it is emptied, marked and used
    assert jaxlint.cache.cache_problem(folder) is None
    assert not jaxlint.cache.is_jaxlint_cache(folder)
    assert cli("a.py").linted == ["a.py"]
    assert jaxlint.cache.is_jaxlint_cache(folder)
    assert cli("a.py").linted == []
    (folder / MARKER_NAME).unlink()
    assert main(["clean"]) == 0
    assert not folder.exists()


# -- entries that are not regular files (issue 18, item 10) -------------------------------------


def _replace_entries(tmp_path: Path, make: Callable[[Path], None]) -> None:
    found = entries(tmp_path)
    assert found
    for entry in found:
        entry.unlink()
        make(entry)


@pytest.fixture
def no_hang():
    """Fail (not hang) if the run blocks, e.g. opening a FIFO."""
    if not hasattr(signal, "SIGALRM"):
        pytest.skip("needs SIGALRM")

    def stuck(signum, frame):
        raise AssertionError("the run blocked")

    old = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_an_entry_is_a_miss_not_a_hang(cli, tmp_path: Path, no_hang) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("a.py")
    _replace_entries(tmp_path, os.mkfifo)
    r = cli("a.py")
    assert r.code == 1 and "JAX702" in r.out and r.linted == ["a.py"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_symlink_to_dev_zero_as_an_entry_is_a_miss(cli, tmp_path: Path, no_hang) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("a.py")
    _replace_entries(tmp_path, lambda p: p.symlink_to("/dev/zero"))
    r = cli("a.py")
    assert r.code == 1 and "JAX702" in r.out and r.linted == ["a.py"]


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges")
def test_a_symlink_to_a_sound_entry_is_not_followed(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    cli("a.py")
    [entry] = entries(tmp_path)
    moved = tmp_path / "elsewhere"
    entry.rename(moved)
    entry.symlink_to(moved)
    assert jaxlint.cache.read_regular_file(moved) is not None
    assert jaxlint.cache.read_regular_file(entry) is None
    assert cli("a.py").linted == ["a.py"]


def test_an_oversized_entry_is_a_miss(tmp_path: Path) -> None:
    path = tmp_path / "entry"
    path.write_bytes(b"x" * 100)
    assert jaxlint.cache.read_regular_file(path, limit=100) == b"x" * 100
    assert jaxlint.cache.read_regular_file(path, limit=99) is None
    assert jaxlint.cache.read_regular_file(tmp_path, limit=99) is None  # a folder
    assert jaxlint.cache.read_regular_file(tmp_path / "missing") is None
