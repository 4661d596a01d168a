"""``[tool.jaxlint]`` / ``jaxlint.toml``: validation, rule selection, globs, discovery."""

from __future__ import annotations

from pathlib import Path

import pytest

import jaxlint.rules
from jaxlint.config import (
    ConfigError,
    ConfigResolver,
    Settings,
    load_config_file,
    settings_from_table,
)
from jaxlint.rules import all_rules
from jaxlint.rules.base import Option, Rule
from jaxlint.versions import parse_version


def enabled(settings: Settings) -> list[str]:
    return [r.code for r in settings.enabled_rules(all_rules())]


def table(**kwargs: object) -> Settings:
    return settings_from_table({k.replace("_", "-"): v for k, v in kwargs.items()}, None, "cfg")


# -- rule selection --------------------------------------------------------------------------


def _stub_rule(code: str, default_enabled: bool) -> type[Rule]:
    return type(
        f"Stub{code}",
        (Rule,),
        {
            "code": code,
            "name": f"stub-{code.lower()}",
            "message": "m",
            "docs": "",
            "probe": "jaxlint probe env",
            "default_enabled": default_enabled,
        },
    )


# The selection semantics below are written against a fixed three-rule universe (one
# default-off rule and two default-on rules, of three families), so that new rule families
# do not change them; ``test_selection_layers`` checks each case on the real rule set too.
SELECTION_UNIVERSE = (
    _stub_rule("JAX302", False),
    _stub_rule("JAX601", True),
    _stub_rule("JAX701", True),
)


@pytest.mark.parametrize(
    ("config", "cli", "expected"),
    [
        # JAX302 (legacy-prng-key) is off by default: only a selector that matches it
        # turns it on
        ({}, None, ["JAX601", "JAX701"]),
        ({"extend_select": ["JAX302"]}, None, ["JAX302", "JAX601", "JAX701"]),
        ({"extend_select": ["JAX3"]}, None, ["JAX302", "JAX601", "JAX701"]),
        ({"select": ["JAX3"]}, None, ["JAX302"]),
        ({"select": ["JAX"]}, None, ["JAX302", "JAX601", "JAX701"]),
        ({"select": ["JAX6"]}, None, ["JAX601"]),
        ({"select": ["ALL"]}, None, ["JAX302", "JAX601", "JAX701"]),
        ({"ignore": ["JAX7"]}, None, ["JAX601"]),
        ({"extend_select": ["JAX302"], "ignore": ["JAX7"]}, None, ["JAX302", "JAX601"]),
        ({"extend_select": ["JAX302"], "ignore": ["JAX3"]}, None, ["JAX302", "JAX601", "JAX701"]),
        ({"extend_select": ["JAX3"], "ignore": ["JAX302"]}, None, ["JAX601", "JAX701"]),
        ({"select": ["JAX302"], "ignore": ["JAX3"]}, None, ["JAX302"]),
        ({"select": ["JAX3"], "ignore": ["JAX302"]}, None, []),
        ({"select": ["JAX302"], "ignore": ["JAX302"]}, None, []),  # a tie: ignore wins
        ({"select": ["JAX6"], "extend_select": ["JAX7"]}, None, ["JAX601", "JAX701"]),
        ({"extend_select": ["JAX6"], "ignore": ["JAX"]}, None, ["JAX601"]),
        # the command line is a second layer: its select starts afresh ...
        ({"select": ["JAX7"], "extend_select": ["JAX6"]}, (("JAX3",), (), ()), ["JAX302"]),
        # ... its ignore beats the config's more specific select ...
        ({"select": ["JAX601"]}, (None, (), ("JAX6",)), []),
        # ... and its select beats the config's ignore
        ({"ignore": ["JAX6"]}, (("JAX601",), (), ()), ["JAX601"]),
        ({"ignore": ["JAX6"]}, (None, ("JAX601",), ()), ["JAX601", "JAX701"]),
        # ... its ignore adds to the config's (which still applies) ...
        ({"extend_select": ["JAX302"], "ignore": ["JAX6"]}, (None, (), ("JAX7",)), ["JAX302"]),
        ({}, (("JAX302",), (), ("JAX3",)), ["JAX302"]),
        # ... and the default-off JAX302 can be turned on, or back off, on either layer
        ({}, (None, ("JAX302",), ()), ["JAX302", "JAX601", "JAX701"]),
        ({}, (("JAX3",), (), ()), ["JAX302"]),
        ({"extend_select": ["JAX302"]}, (None, (), ("JAX302",)), ["JAX601", "JAX701"]),
        ({"extend_select": ["JAX302"]}, (("JAX6",), (), ()), ["JAX601"]),
        ({"extend_select": ["JAX302"]}, (None, ("JAX7",), ()), ["JAX302", "JAX601", "JAX701"]),
        ({"select": ["JAX6"]}, (None, ("JAX302",), ()), ["JAX302", "JAX601"]),
    ],
)
def test_selection_layers(
    config: dict[str, object],
    cli: tuple[tuple[str, ...] | None, tuple[str, ...], tuple[str, ...]] | None,
    expected: list[str],
) -> None:
    settings = table(**config)
    if cli is not None:
        settings = Settings(**{**settings.__dict__, "cli_selection": cli})
    assert [r.code for r in settings.enabled_rules(SELECTION_UNIVERSE)] == expected
    # whether a rule is enabled depends only on its own code and default, so on the
    # real rule set the same three codes come out the same way
    real = {r.code: r.default_enabled for r in all_rules()}
    stub = {r.code: r.default_enabled for r in SELECTION_UNIVERSE}
    assert {code: real.get(code) for code in stub} == stub
    assert [code for code in enabled(settings) if code in stub] == expected


def _codes(prefix: str = "", *, default_only: bool = False) -> list[str]:
    return [
        r.code
        for r in all_rules()
        if r.code.startswith(prefix) and (r.default_enabled or not default_only)
    ]


def test_selection_on_the_real_rule_set() -> None:
    """The whole enabled list, computed from the registry so new rules do not break it."""
    defaults = _codes(default_only=True)
    off = [r.code for r in all_rules() if not r.default_enabled]
    assert off and set(off).isdisjoint(defaults)
    assert enabled(Settings()) == defaults
    assert enabled(table()) == defaults
    assert enabled(table(select=["ALL"])) == _codes()
    assert enabled(table(select=["JAX"])) == _codes()
    assert enabled(table(extend_select=off)) == _codes()
    assert enabled(table(select=["JAX6"])) == _codes("JAX6")
    assert enabled(table(select=["JAX3"])) == _codes("JAX3")
    assert enabled(table(ignore=["JAX7"])) == [c for c in defaults if not c.startswith("JAX7")]
    assert enabled(table(select=["JAX6"], extend_select=["JAX7"])) == [
        *_codes("JAX6"),
        *_codes("JAX7"),
    ]
    assert enabled(Settings(cli_selection=(("JAX602",), (), ()))) == ["JAX602"]
    assert enabled(Settings(cli_selection=(None, (), ("JAX",)))) == []


def test_resolver_overrides_become_the_command_line_layer(tmp_path: Path) -> None:
    (tmp_path / "jaxlint.toml").write_text('select = ["JAX602"]\n')
    resolver = ConfigResolver(overrides={"ignore": ["JAX6"], "extend_select": ["JAX7"]})
    settings = resolver.for_path(tmp_path / "a.py")
    assert settings.select == ("JAX602",)
    assert settings.cli_selection == (None, ("JAX7",), ("JAX6",))
    assert enabled(settings) == _codes("JAX7")  # a selected prefix turns on its default-off rules
    assert enabled(settings)


def test_off_by_default_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    class Quiet(Rule):
        code = "JAX991"
        name = "quiet"
        message = "m"
        docs = ""
        probe = "jaxlint probe env"
        default_enabled = False

    rules = (*all_rules(), Quiet)
    monkeypatch.setattr(jaxlint.rules, "all_rules", lambda: rules)
    codes = lambda s: [r.code for r in s.enabled_rules(rules)]  # noqa: E731
    assert "JAX991" not in codes(Settings())
    assert "JAX991" in codes(Settings(select=("JAX9",)))
    assert "JAX991" in codes(Settings(extend_select=("JAX991",)))
    assert "JAX991" in codes(Settings(select=("ALL",)))
    assert "JAX991" not in codes(Settings(cli_selection=(None, (), ("JAX",))))


OFF_BY_DEFAULT = ["JAX105", "JAX302", "JAX306", "JAX602", "JAX704"]
"""``legacy-prng-key`` is legacy, not deprecated (docs/design.md); ``prng-key-reuse-contract``
is JAX's contract where no value shares bits on the installed JAX (its docs); the others were too
noisy on the held-out projects (docs/precision/heldout.md, each rule's docs)."""


def test_the_rules_that_are_off_by_default() -> None:
    assert [r.code for r in all_rules() if not r.default_enabled] == OFF_BY_DEFAULT
    for code in OFF_BY_DEFAULT:
        assert code not in enabled(Settings())
        assert code in enabled(table(extend_select=[code]))
    assert "JAX302" not in enabled(Settings())
    assert "JAX302" in enabled(table(extend_select=["JAX302"]))
    assert "JAX302" in enabled(table(select=["JAX3"]))
    assert "JAX302" in enabled(Settings(cli_selection=(None, ("JAX302",), ())))
    assert "JAX302" in enabled(Settings(cli_selection=(("JAX3",), (), ())))


# -- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"selectt": ["JAX6"]}, "unknown key 'selectt' (did you mean 'select'?)"),
        ({"line-length": 3}, "unknown key 'line-length'"),
        ({"select": "JAX6"}, "key 'select': expected a list of strings"),
        ({"select": ["E501"]}, "key 'select': invalid rule selector 'E501'"),
        ({"ignore": ["JAX99"]}, "key 'ignore': selector 'JAX99' matches no jaxlint rule"),
        ({"extend-select": [3]}, "key 'extend-select': expected a list of strings"),
        ({"per-file-ignores": ["x"]}, "key 'per-file-ignores': expected a table"),
        ({"per-file-ignores": {"tests/*": ["nope"]}}, 'per-file-ignores."tests/*"'),
        ({"exclude": "build"}, "key 'exclude': expected a list of strings"),
        ({"respect-gitignore": "yes"}, "key 'respect-gitignore': expected true or false"),
        ({"unsafe-fixes": 1}, "key 'unsafe-fixes': expected true or false"),
        ({"target-jax": 0.4}, "key 'target-jax': expected a version string"),
        ({"target-jax": "latest"}, "key 'target-jax': not a JAX version: 'latest'"),
        ({"doc-url": "https://x.org/r"}, "unknown key 'doc-url' (did you mean 'docs-url'?)"),
        (
            {"docs-url": "docs/rules"},
            "key 'docs-url': expected the https://, http:// or file:// address of the folder"
            " that holds the JAXnnn.md rule pages (e.g. https://example.org/jaxlint/rules),"
            " got 'docs/rules'",
        ),
        ({"docs-url": ["https://x.org/r"]}, "key 'docs-url': expected the https://"),
        ({"docs-url": "file://rules"}, "key 'docs-url': expected the https://"),
        ({"rules": []}, "key 'rules': expected a table of rule tables"),
        ({"rules": {"JAX999": {}}}, "key 'rules.JAX999': unknown rule 'JAX999'"),
        ({"rules": {"JAX602": 1}}, "key 'rules.JAX602': expected a table of options"),
        (
            {"rules": {"JAX602": {"strict": True}}},
            "key 'rules.JAX602': unknown option 'strict' for JAX602 (empty-not-zeros);"
            " known options: none",
        ),
        (
            {"rules": {"empty-not-zeros": {"strict": True}}},
            "key 'rules.empty-not-zeros': unknown option 'strict' for JAX602",
        ),
    ],
)
def test_invalid_values(data: dict[str, object], needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        settings_from_table(data, Path("/p/jaxlint.toml"), "/p/jaxlint.toml")
    message = str(info.value)
    assert message.startswith("/p/jaxlint.toml: ")
    assert needle in message


def test_valid_values() -> None:
    s = settings_from_table(
        {
            "select": ["JAX3", "JAX6"],
            "extend-select": ["JAX7"],
            "ignore": ["JAX302"],
            "per-file-ignores": {"tests/*": ["JAX6"]},
            "exclude": ["gen"],
            "extend-exclude": ["x.py"],
            "respect-gitignore": False,
            "unsafe-fixes": True,
            "target-jax": "0.4.26",
            "docs-url": "https://docs.example.org/jaxlint/rules/",
            "rules": {"JAX602": {}},
        },
        Path("/p/jaxlint.toml"),
        "/p/jaxlint.toml",
    )
    assert s.select == ("JAX3", "JAX6")
    assert s.extend_select == ("JAX7",)
    assert s.ignore == ("JAX302",)
    assert s.per_file_ignores == (("tests/*", ("JAX6",)),)
    assert s.exclude == ("gen",)
    assert s.extend_exclude == ("x.py",)
    assert s.respect_gitignore is False
    assert s.unsafe_fixes is True
    assert s.target_jax == (0, 4, 26)
    assert s.docs_url == "https://docs.example.org/jaxlint/rules"
    assert s.root == Path("/p")
    assert settings_from_table({}, None, "x").docs_url is None


class Tunable(Rule):
    code = "JAX992"
    name = "tunable"
    message = "m"
    docs = ""
    probe = "jaxlint probe env"
    options = {
        "limit": Option(int, 3, "a limit"),
        "names": Option(list, [], "some names"),
        "strict": Option(bool, False, "be strict"),
    }


@pytest.fixture
def tunable(monkeypatch: pytest.MonkeyPatch) -> type[Rule]:
    """Register :class:`Tunable` for one test (the registry is left as it was)."""
    rules = (*all_rules(), Tunable)
    monkeypatch.setattr(jaxlint.rules, "all_rules", lambda: rules)
    monkeypatch.setattr(
        jaxlint.rules,
        "find_rule",
        lambda key: next((r for r in rules if key in (r.code, r.name)), None),
    )
    return Tunable


def test_rule_options(tunable: type[Rule]) -> None:
    s = table(rules={"JAX992": {"limit": 5, "names": ["a"]}})
    assert s.rule_option(tunable, "limit") == 5
    assert s.rule_option(tunable, "names") == ["a"]
    assert s.rule_option(tunable, "strict") is False  # the default
    s = table(rules={"tunable": {"strict": True}})
    assert s.rule_option(tunable, "strict") is True
    assert s.rule_option(tunable, "limit") == 3


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ({"limit": "5"}, "key 'rules.JAX992.limit': expected int, got '5'"),
        ({"limit": True}, "key 'rules.JAX992.limit': expected int, got True"),
        ({"strict": 1}, "key 'rules.JAX992.strict': expected bool, got 1"),
        ({"names": "a"}, "key 'rules.JAX992.names': expected list"),
        ({"limt": 5}, "unknown option 'limt' for JAX992 (tunable); known options: limit, names"),
    ],
)
def test_rule_option_errors(tunable: type[Rule], options: dict[str, object], needle: str) -> None:
    with pytest.raises(ConfigError, match="^cfg: ") as info:
        table(rules={"JAX992": options})
    assert needle in str(info.value)


# -- files -------------------------------------------------------------------------------------


def test_load_config_file(tmp_path: Path) -> None:
    (tmp_path / "jaxlint.toml").write_text('select = ["JAX6"]\n')
    assert load_config_file(tmp_path / "jaxlint.toml").select == ("JAX6",)
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nselect = ["JAX7"]\n')
    assert load_config_file(tmp_path / "pyproject.toml").select == ("JAX7",)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert load_config_file(tmp_path / "pyproject.toml").select is None


@pytest.mark.parametrize(
    ("name", "content", "needle"),
    [
        ("jaxlint.toml", "select = [", "invalid TOML"),
        ("jaxlint.toml", b"select = ['\xff']\n", "invalid TOML"),
        ("pyproject.toml", 'tool = "x"\n', None),
        ("pyproject.toml", "[tool]\njaxlint = 3\n", "expected a table"),
        ("pyproject.toml", "[tool.jaxlint]\nfoo = 1\n", "[tool.jaxlint]: unknown key 'foo'"),
    ],
)
def test_bad_config_files(
    tmp_path: Path, name: str, content: str | bytes, needle: str | None
) -> None:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    if needle is None:
        assert load_config_file(path).select is None
        return
    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    assert str(info.value).startswith(str(path))
    assert needle in str(info.value)
    if name == "pyproject.toml" and needle != "expected a table":
        with pytest.raises(ConfigError):
            ConfigResolver().for_path(tmp_path / "a.py")


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        ConfigResolver(tmp_path / "nope.toml")


def test_nearest_config(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nselect = ["JAX3"]\n')
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "jaxlint.toml").write_text('select = ["JAX6"]\n')
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "pyproject.toml").write_text('[project]\nname = "c"\n')
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "pyproject.toml").write_text('[tool.jaxlint]\nselect = ["JAX7"]\n')
    (tmp_path / "d" / "jaxlint.toml").write_text('select = ["JAX602"]\n')  # preferred
    resolver = ConfigResolver()
    assert resolver.for_path(tmp_path / "x.py").select == ("JAX3",)
    assert resolver.for_path(tmp_path / "a" / "b" / "x.py").select == ("JAX6",)
    assert resolver.for_path(tmp_path / "a" / "b").select == ("JAX6",)
    assert resolver.for_path(tmp_path / "c" / "x.py").select == ("JAX3",)
    assert resolver.for_path(tmp_path / "d" / "x.py").select == ("JAX602",)
    assert resolver.for_path(tmp_path / "a" / "b" / "x.py").root == tmp_path / "a"


def test_resolver_returns_one_settings_object_per_config(tmp_path: Path) -> None:
    """Callers cache per settings object; a fresh copy per file would defeat (or break) that."""
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "jaxlint.toml").write_text('select = ["JAX6"]\n')
    resolver = ConfigResolver(overrides={"ignore": ["JAX7"], "target_jax": (0, 4, 30)})
    first = resolver.for_path(tmp_path / "p" / "a.py")
    assert resolver.for_path(tmp_path / "p" / "b.py") is first
    assert first.target_jax == (0, 4, 30)
    other = resolver.for_path(tmp_path / "q.py")
    assert other is not first
    assert resolver.for_path(tmp_path / "r.py") is other


def test_unsafe_fixes_override(tmp_path: Path) -> None:
    (tmp_path / "jaxlint.toml").write_text("unsafe-fixes = true\n")
    assert ConfigResolver(overrides={"unsafe_fixes": None}).for_path(tmp_path).unsafe_fixes
    assert not ConfigResolver(overrides={"unsafe_fixes": False}).for_path(tmp_path).unsafe_fixes
    (tmp_path / "jaxlint.toml").write_text("")
    assert ConfigResolver(overrides={"unsafe_fixes": True}).for_path(tmp_path).unsafe_fixes


def test_target_jax_default_and_override(tmp_path: Path) -> None:
    (tmp_path / "jaxlint.toml").write_text('target-jax = "0.4.20"\n')
    assert ConfigResolver().for_path(tmp_path / "a.py").target_jax == (0, 4, 20)
    resolver = ConfigResolver(overrides={"target_jax": parse_version("0.10")})
    assert resolver.for_path(tmp_path / "a.py").target_jax == (0, 10, 0)


# -- globs: per-file-ignores and exclude -----------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "rel", "matches"),
    [
        ("tests/*", "tests/test_a.py", True),
        ("tests/*", "tests/deep/test_a.py", True),
        ("tests/*", "src/tests/test_a.py", False),
        ("tests/", "tests/test_a.py", True),
        ("./tests/*", "tests/test_a.py", True),
        ("tests", "tests/test_a.py", True),  # a bare folder name
        ("tests", "src/tests/test_a.py", True),
        ("__init__.py", "src/pkg/__init__.py", True),
        ("*_pb2.py", "src/m_pb2.py", True),
        ("src/*/gen_*.py", "src/pkg/gen_x.py", True),
        ("src/**/gen_*.py", "src/a/b/gen_x.py", True),
        ("src/gen_*.py", "lib/gen_x.py", False),
        ("x.py", "src/y.py", False),
    ],
)
def test_per_file_ignores_globs(tmp_path: Path, pattern: str, rel: str, matches: bool) -> None:
    s = Settings(per_file_ignores=((pattern, ("JAX6",)),), root=tmp_path)
    assert (s.file_ignores(tmp_path / rel) == ("JAX6",)) is matches


def test_per_file_ignores_ignore_folders_above_the_config(tmp_path: Path) -> None:
    root = tmp_path / "tests" / "project"
    s = Settings(per_file_ignores=(("tests", ("JAX6",)),), root=root)
    assert s.file_ignores(root / "src" / "a.py") == ()
    assert s.file_ignores(root / "tests" / "a.py") == ("JAX6",)


@pytest.mark.parametrize(
    ("pattern", "rel", "excluded"),
    [
        ("build", "build", True),
        ("build", "src/build", True),
        ("build", "build.py", False),
        ("*.pyi", "src/a.pyi", True),
        ("src/gen", "src/gen", True),
        ("src/gen", "lib/src/gen", False),
        ("src/gen/*.py", "src/gen/a.py", True),
        ("legacy_*.py", "pkg/legacy_a.py", True),
    ],
)
def test_exclude_globs(tmp_path: Path, pattern: str, rel: str, excluded: bool) -> None:
    s = Settings(exclude=(), extend_exclude=(pattern,), root=tmp_path)
    assert s.is_excluded(tmp_path / rel) is excluded


def test_exclude_does_not_look_above_the_project(tmp_path: Path) -> None:
    root = tmp_path / "build" / "dist" / "venv" / "proj"
    s = Settings(root=root)  # the default excludes
    assert not s.is_excluded(root / "a.py")
    assert not s.is_excluded(root / "src", parents=True)
    assert s.is_excluded(root / "build")
    assert s.is_excluded(root / "src" / ".venv")
    assert s.is_excluded(root / "dist" / "a.py", parents=True)
    assert not s.is_excluded(root / "dist" / "a.py")  # the walk stops at dist/ already
