"""The API-drift table: what JAX deprecated, removed or moved.

Two files: ``jaxlint/data/api_drift.toml``, the curated entries (replacements, fixes,
notes), and ``jaxlint/data/api_drift_history.json``, the names the release diff of
``scripts/jax_api_history.py generate`` found removed (advice only; JSON because it is
large and ``tomllib`` would add a fifth of a second to every start). Loaded once,
without importing JAX. ``tests/test_api_drift_table.py`` checks every entry against
the installed JAX.
"""

from __future__ import annotations

import functools
import json
import sys
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from jaxlint.diagnostics import Applicability
from jaxlint.versions import Version, format_version, parse_version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

KINDS = ("name", "module", "import", "method", "keyword", "positional", "config-flag")
FIX_SAFETY = {
    "safe": Applicability.SAFE,
    "unsafe": Applicability.UNSAFE,
    "display-only": Applicability.DISPLAY_ONLY,
    "none": None,
}
_FIELDS = frozenset(
    {
        "old",
        "kind",
        "deprecated",
        "removed",
        "replacement",
        "replacement_since",
        "template",
        "flat_template",
        "call",
        "arity",
        "call_keywords",
        "statement",
        "now_properties",
        "keyword",
        "value_map",
        "max_positional",
        "parameters",
        "fix",
        "warns",
        "note",
        "example",
        "error",
        "never",
    }
)

EXPLICIT_IMPORTS = ("jax.extend", "jax.example_libraries.optimizers", "jax.example_libraries.stax")
"""Subpackages that ``import jax`` does not load: a fix that spells a name inside one
also needs ``import <subpackage>`` (the table test checks this against the installed JAX)."""


@dataclass(frozen=True)
class Drift:
    """One row of the table."""

    old: str
    kind: str = "name"
    deprecated_in: Version | None = None
    removed_in: Version | None = None
    replacement: str | None = None
    replacement_since: Version | None = None
    template: str | None = None
    flat_template: str | None = None
    """With ``call``: the template used instead where the first positional argument is
    visibly one-dimensional (``jnp.arange(n)``, ``jnp.array([1, 2])``), so that a flattening
    step the old function did (``.ravel()``) is left out as a maintainer would."""
    call: bool = False
    arity: int | None = None
    call_keywords: tuple[str, ...] = ()
    """With ``call`` and ``arity``: the keyword arguments the call may have, read by the
    template as ``{kw:NAME}`` (``None`` where the call omits one); any other: no fix."""
    statement: bool = False
    """With ``call``: fixed only where the call is a statement of its own (its value unused)."""
    now_properties: tuple[str, ...] = ()
    """Methods of the old object that are properties of the replacement: ``obj.old.NAME()``
    is fixed as a whole, to ``<replacement>.NAME`` (``x.device_buffer.device()`` ->
    ``x.addressable_data(0).device``); kept as a call it would raise."""
    keyword: str | None = None
    value_map: dict[str, str] = field(default_factory=dict)
    max_positional: int | None = None
    parameters: tuple[str, ...] = ()
    fix: str = "none"
    warns: str | None = None
    note: str = ""
    example: str = ""
    error: str | None = None
    generated: bool = False
    """From the release diff (``api_drift_history.json``), not curated."""
    never: bool = False
    """No release of JAX ever had it (``jax.tree.tree_map``: ``jax.tree`` names drop the
    ``tree_`` prefix of ``jax.tree_util``): an ``AttributeError`` on every target. The
    release diff lists every public name that some release had and a later one dropped,
    so a name absent from the installed JAX and from that diff never existed
    (tests/test_api_drift_table.py checks both)."""

    def status(self, target: Version) -> str | None:
        """``"removed"``, ``"deprecated"`` or ``None`` (fine) in the ``target`` JAX."""
        if self.never:
            return "removed"
        if self.removed_in is not None and target >= self.removed_in:
            return "removed"
        if self.deprecated_in is not None and target >= self.deprecated_in:
            return "deprecated"
        return None

    def applicability(self, target: Version) -> Applicability | None:
        """How far the fix may be trusted for ``target``; ``None``: no fix."""
        if self.replacement_since is not None and target < self.replacement_since:
            return None
        return FIX_SAFETY[self.fix]

    @property
    def attr(self) -> str:
        return self.old.rpartition(".")[2]

    def describe(self, target: Version) -> str:
        """``deprecated since JAX 0.4.26`` / ``removed in JAX 0.6.0 (deprecated since 0.4.26)``."""
        status = self.status(target)
        if self.never:
            return "never part of JAX: no release has it"
        if status == "removed":
            assert self.removed_in is not None
            text = f"removed in JAX {format_version(self.removed_in)}"
            if self.deprecated_in is not None:
                text += f" (deprecated since {format_version(self.deprecated_in)})"
            return text
        assert self.deprecated_in is not None
        text = f"deprecated since JAX {format_version(self.deprecated_in)}"
        if self.removed_in is not None:
            text += f" and removed in JAX {format_version(self.removed_in)}"
        return text


def _version(row: dict[str, Any], key: str) -> Version | None:
    value = row.get(key)
    if value in (None, ""):
        return None
    return parse_version(str(value))


def _drift(row: dict[str, Any], generated: bool = False) -> Drift:
    unknown = set(row) - _FIELDS
    if unknown:
        raise ValueError(f"api_drift.toml: {row.get('old')}: unknown fields {sorted(unknown)}")
    kind = row.get("kind", "name")
    if kind not in KINDS:
        raise ValueError(f"api_drift.toml: {row['old']}: unknown kind {kind!r}")
    fix = row.get("fix", "none")
    if fix not in FIX_SAFETY:
        raise ValueError(f"api_drift.toml: {row['old']}: unknown fix safety {fix!r}")
    drift = Drift(
        old=row["old"],
        kind=kind,
        deprecated_in=_version(row, "deprecated"),
        removed_in=_version(row, "removed"),
        replacement=row.get("replacement"),
        replacement_since=_version(row, "replacement_since"),
        template=row.get("template"),
        flat_template=row.get("flat_template"),
        call=bool(row.get("call", False)),
        arity=row.get("arity"),
        call_keywords=tuple(row.get("call_keywords", ())),
        statement=bool(row.get("statement", False)),
        now_properties=tuple(row.get("now_properties", ())),
        keyword=row.get("keyword"),
        value_map=dict(row.get("value_map", {})),
        max_positional=row.get("max_positional"),
        parameters=tuple(row.get("parameters", ())),
        fix=fix,
        warns=row.get("warns"),
        note=row.get("note", ""),
        example=row.get("example", ""),
        error=row.get("error"),
        generated=generated,
        never=bool(row.get("never", False)),
    )
    if drift.never and (drift.deprecated_in is not None or drift.removed_in is not None):
        raise ValueError(f"api_drift.toml: {drift.old}: `never` takes no versions")
    if drift.deprecated_in is None and drift.removed_in is None and not drift.never:
        raise ValueError(f"api_drift.toml: {drift.old}: neither deprecated nor removed")
    if kind == "keyword" and not drift.keyword:
        raise ValueError(f"api_drift.toml: {drift.old}: a keyword entry needs `keyword`")
    if kind == "positional" and (drift.max_positional is None or not drift.parameters):
        raise ValueError(f"api_drift.toml: {drift.old}: needs max_positional and parameters")
    if drift.flat_template is not None and not drift.call:
        raise ValueError(f"api_drift.toml: {drift.old}: `flat_template` needs `call`")
    if drift.call and drift.template is None:
        raise ValueError(f"api_drift.toml: {drift.old}: `call` needs a `template`")
    return drift


@dataclass(frozen=True)
class Table:
    entries: tuple[Drift, ...]
    names: dict[str, Drift]
    """``name`` and ``module`` entries by qualified name."""
    imports: dict[str, Drift]
    methods: dict[str, Drift]
    """Array attributes by attribute name."""
    keywords: dict[str, tuple[Drift, ...]]
    positional: dict[str, Drift]
    flags: dict[str, Drift]

    def module_entry(self, qualname: str) -> Drift | None:
        """The ``module`` entry that is ``qualname`` or contains it (longest first)."""
        parts = qualname.split(".")
        for n in range(len(parts), 0, -1):
            drift = self.names.get(".".join(parts[:n]))
            if drift is not None and drift.kind == "module":
                return drift
        return None


def _build(entries: tuple[Drift, ...]) -> Table:
    names: dict[str, Drift] = {}
    imports: dict[str, Drift] = {}
    methods: dict[str, Drift] = {}
    keywords: dict[str, list[Drift]] = {}
    positional: dict[str, Drift] = {}
    flags: dict[str, Drift] = {}
    for d in entries:
        key = (d.kind, d.old, d.keyword)
        target: dict[str, Drift] | None = {
            "name": names,
            "module": names,
            "import": imports,
            "method": methods,
            "positional": positional,
            "config-flag": flags,
        }.get(d.kind)
        index = d.attr if d.kind == "method" else d.old
        if target is not None:
            if index in target:
                raise ValueError(f"api_drift.toml: duplicate entry {key}")
            target[index] = d
        else:
            keywords.setdefault(d.old, []).append(d)
    return Table(
        entries=entries,
        names=names,
        imports=imports,
        methods=methods,
        keywords={k: tuple(v) for k, v in keywords.items()},
        positional=positional,
        flags=flags,
    )


@functools.cache
def load_table(history: bool = True) -> Table:
    """The table shipped in the package (without the release-diff entries if not ``history``)."""
    data = resources.files("jaxlint").joinpath("data")
    rows = tomllib.loads(data.joinpath("api_drift.toml").read_text("utf-8")).get("api", [])
    entries = [_drift(row) for row in rows]
    if history:
        generated = json.loads(data.joinpath("api_drift_history.json").read_text("utf-8"))
        curated = {(d.kind, d.old, d.keyword) for d in entries}
        for row in generated.get("api", []):
            drift = _drift(row, generated=True)
            if (drift.kind, drift.old, drift.keyword) not in curated:
                entries.append(drift)
    return _build(tuple(entries))


@functools.cache
def spelled_names() -> frozenset[str]:
    """The identifiers without one of which no entry of the table can match a file.

    A qualified name resolves only from code that spells its last component (in
    an import or an attribute), and so does anything below a module entry; method
    entries match the attribute name itself; config flags are strings, matched in
    ``jax.config.update(...)`` calls.
    """
    table = load_table()
    words = {key.rsplit(".", 1)[-1] for key in (*table.names, *table.imports)}
    words.update(key.rsplit(".", 1)[-1] for key in (*table.keywords, *table.positional))
    words.update(table.methods)
    if table.flags:
        words.add("update")
    return frozenset(words)


@functools.cache
def attribute_tails(history: bool = True) -> frozenset[str]:
    """The attribute names an attribute use must end with to be a ``name``, ``module`` or
    ``method`` entry: ``x.a.b`` has the qualified name ``<x's>.a.b`` or none, so an
    attribute whose name is not the last part of an entry is none of them (JAX701 and
    JAX702 look at every attribute of a file; most are ``self.x`` or ``jnp.zeros``)."""
    table = load_table(history)
    return frozenset({key.rsplit(".", 1)[-1] for key in table.names} | set(table.methods))


def table_markdown(status: str) -> str:
    """The table's entries as markdown, for the docs (``status``: which column comes first)."""
    rows = [
        "| Symbol | Deprecated | Removed | Use instead | Fix |",
        "|---|---|---|---|---|",
    ]
    generated = 0
    for d in load_table().entries:
        if d.generated:
            generated += status == "removed" and d.removed_in is not None
            continue
        if status == "deprecated" and d.removed_in is not None:
            continue
        if status == "removed" and d.removed_in is None and not d.never:
            continue
        if status == "deprecated" and d.never:
            continue
        symbol = d.old
        if d.kind == "keyword":
            symbol = f"{d.old}({d.keyword}=)"
        elif d.kind == "positional":
            symbol = f"{d.old} with over {d.max_positional} positional arguments"
        elif d.kind == "method":
            symbol = f"x.{d.attr}" + ("()" if d.call else "")
        elif d.kind == "config-flag":
            symbol = f'jax.config.update("{d.old}", ...)'
        elif d.kind == "import":
            symbol = f"import {d.old}"
        dep = format_version(d.deprecated_in) if d.deprecated_in else "–"
        rem = (
            format_version(d.removed_in) if d.removed_in else ("never existed" if d.never else "–")
        )
        use = f"`{d.replacement}`" if d.replacement else d.note.replace("|", "\\|")
        if d.kind == "keyword" and d.replacement:
            use = f"`{d.replacement}=`"
        rows.append(f"| `{symbol}` | {dep} | {rem} | {use} | {d.fix} |")
    if generated:
        rows.append(
            f"\nAnd {generated} more names that the release diff found removed"
            " (`jaxlint/data/api_drift_history.json`, written by"
            " `scripts/jax_api_history.py generate`): internals of `jax.core`,"
            " `jax.interpreters.*`, `jax.lib`, old module paths, and `jax._src` objects"
            " whose public name still exists (fixed to that name, unsafe)."
        )
    return "\n".join(rows)


TABLE_NOTE = """\
The table lives in `jaxlint/data/api_drift.toml` (one entry per symbol: old name,
deprecated-in, removed-in, replacement, fix safety, note) and is checked against
the installed JAX by `tests/test_api_drift_table.py`.
"""
