"""The pure parts of scripts/heldout.py (the held-out precision protocol): no network,
no jaxlint run."""

from __future__ import annotations

import dataclasses
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import heldout  # noqa: E402
from fetch_corpus import PINNED  # noqa: E402


def finding(code: str, n: int, project: str = "gymnax", test: bool = False) -> dict:
    version = heldout.HELDOUT.get(project, ("0",))[0]
    return {
        "file": f"{project}-{version}/pkg/mod{n % 7}.py",
        "line": n,
        "column": 0,
        "code": code,
        "message": f"message {n}",
        "project": project,
        "test": test,
    }


def corpus(counts: dict[str, int]) -> list[dict]:
    return [finding(code, i) for code, n in counts.items() for i in range(1, n + 1)]


def test_held_out_projects_are_not_the_tuning_corpus():
    assert not set(heldout.HELDOUT) & set(PINNED)
    assert 8 <= len(heldout.HELDOUT) <= 12
    for version, domain in heldout.HELDOUT.values():
        assert version and domain


def test_the_original_set_is_the_default():
    assert heldout.SETS[heldout.DEFAULT_SET].projects is heldout.HELDOUT
    assert heldout.SETS[heldout.DEFAULT_SET].docs == heldout.DOCS
    assert heldout.SEED == heldout.SETS[heldout.DEFAULT_SET].seed


@pytest.mark.parametrize("name", sorted(heldout.SETS))
def test_every_set_is_disjoint_from_the_tuning_corpus_and_from_what_was_read_before(name):
    held = heldout.SETS[name]
    # 8-12 projects each, but fresh-2026-12f: 23, fresh-2026-12g, h and i: 24,
    # chosen so that the traced-code families give the 40 findings the read needs (12
    # projects gave about 20)
    assert 8 <= len(held.projects) <= 24
    assert not set(held.projects) & set(PINNED)
    assert not set(held.projects) & set(heldout.READ_ONCE)
    for other_name, other in heldout.SETS.items():
        if other_name != name:
            assert not set(held.projects) & set(other.projects)
            assert held.seed != other.seed
            assert held.docs != other.docs
            assert held.results != other.results
    for version, domain in held.projects.values():
        assert version and domain


@pytest.mark.parametrize(
    ("data", "lines"),
    [(b"", 0), (b"x = 1\n", 1), (b"x = 1", 1), (b"a\nb\n", 2), (b"a\nb", 2), (b"\n\n", 2)],
)
def test_count_lines(data, lines):
    assert heldout.count_lines(data) == lines


@pytest.mark.parametrize(
    ("path", "test"),
    [
        ("pkg/tests/x.py", True),
        ("pkg/test_x.py", True),
        ("pkg/x_test.py", True),
        ("conftest.py", True),
        ("pkg/testing/util.py", True),
        ("pkg/latest.py", False),
        ("pkg/contest/x.py", False),
        ("pkg/x.py", False),
    ],
)
def test_is_test_path_agrees_with_jaxlint(path, test):
    from jaxlint.analysis.testcode import is_test_path

    assert heldout.is_test_path(path) is test
    assert is_test_path(path) is test


def test_project_of():
    assert heldout.project_of("jax-md-0.2.29/jax_md-0.2.29/jax_md/space.py") == "jax-md"
    assert heldout.project_of("ott-jax-0.6.0/src/ott/x.py") == "ott-jax"
    assert heldout.project_of("levanter-1.2.dev1644/src/x.py") == "levanter"
    # a project of another set, whose name has a dash like its version
    nt = f"neural-tangents-{heldout.FRESH_2026_12['neural-tangents'][0]}/neural_tangents/x.py"
    assert heldout.project_of(nt) == "neural-tangents"


@pytest.mark.parametrize(
    "projects",
    [
        heldout.FRESH_2026_12B,
        heldout.FRESH_2026_12C,
        heldout.FRESH_2026_12D,
        heldout.FRESH_2026_12E,
        heldout.FRESH_2026_12G,
        heldout.FRESH_2026_12H,
        heldout.FRESH_2026_12I,
        heldout.FRESH_2026_12J,
    ],
)
def test_project_of_names_with_dashes_in_the_later_fresh_sets(projects):
    for name, (version, _) in projects.items():
        assert heldout.project_of(f"{name}-{version}/{name}-{version}/pkg/x.py") == name


def test_no_set_holds_a_project_seen_while_choosing_the_first_fresh_set():
    # mujoco-mjx was downloaded (and looked at) while the first held-out set was chosen
    for held in heldout.SETS.values():
        assert "mujoco-mjx" not in held.projects


def test_allocate_takes_all_when_few():
    assert heldout.allocate({"JAX301": 30, "JAX102": 20}, 80) == {"JAX301": 30, "JAX102": 20}


def test_allocate_is_stratified_and_exact():
    counts = {"JAX301": 400, "JAX102": 50, "JAX401": 30, "JAX702": 3, "JAX603": 1}
    quota = heldout.allocate(counts, 100, minimum=5)
    assert sum(quota.values()) == 100
    assert quota["JAX702"] == 3 and quota["JAX603"] == 1  # every finding of a rare code
    assert all(quota[c] >= min(counts[c], 5) for c in counts)
    assert all(quota[c] <= counts[c] for c in counts)
    assert quota["JAX301"] > quota["JAX102"] > quota["JAX401"]


@pytest.mark.parametrize("size", [1, 7, 80, 99, 100])
def test_allocate_never_exceeds_size_beyond_minimums(size):
    counts = {f"JAX{i}": n for i, n in enumerate([1, 2, 3, 50, 200, 9], start=100)}
    quota = heldout.allocate(counts, size, minimum=3)
    floor = sum(min(n, 3) for n in counts.values())
    assert sum(quota.values()) == max(size, floor)
    assert all(0 <= quota[c] <= counts[c] for c in counts)


def test_sample_is_deterministic_and_order_free():
    findings = corpus({"JAX301": 300, "JAX102": 40, "JAX401": 25, "JAX603": 2})
    first = heldout.draw_sample(findings, 80, seed="s")
    shuffled = list(findings)
    random.Random(3).shuffle(shuffled)
    assert heldout.draw_sample(shuffled, 80, seed="s") == first
    assert len(first) == 80
    assert Counter(f["code"] for f in first)["JAX603"] == 2
    assert [f["code"] for f in first] == sorted(f["code"] for f in first)
    assert heldout.draw_sample(findings, 80, seed="other") != first


def test_sample_of_few_findings_is_all_of_them():
    findings = corpus({"JAX301": 10, "JAX102": 5})
    assert sorted(map(id, heldout.draw_sample(findings, 80))) == sorted(map(id, findings))


def test_sample_table_escapes_and_leaves_verdicts_empty():
    f = finding("JAX301", 12)
    f["message"] = "`a | b` is\nreused"
    table = heldout.sample_table([f]).splitlines()
    assert table[0] == "| # | file:line | code | message | verdict | reason |"
    assert table[2] == "| 1 | gymnax-1.0.1/pkg/mod5.py:12 | JAX301 | `a \\| b` is reused | | |"
    assert heldout.parse_verdicts("\n".join(table)) == []


def test_verdicts_round_trip():
    sample = [finding("JAX301", 1), finding("JAX301", 2), finding("JAX102", 3)]
    rows = heldout.sample_table(sample).splitlines()
    rows[2] = rows[2].replace("| | |", "| true | key reused for two draws |")
    rows[3] = rows[3].replace("| | |", "| Debatable | deliberate: compared |")
    rows[4] = rows[4].replace("| | |", "| false alarm | once per epoch |")
    verdicts = heldout.parse_verdicts("\n".join(rows))
    assert verdicts == [("JAX301", "true"), ("JAX301", "debatable"), ("JAX102", "false alarm")]
    table = heldout.verdicts_table(verdicts).splitlines()
    assert table[2] == "| JAX102 | 1 | 0 | 1 | 0 | 0% | 100% |"
    assert table[3] == "| JAX301 | 2 | 1 | 0 | 1 | 50% | 0% |"
    assert table[-1] == "| all | 3 | 1 | 1 | 1 | 33% | 33% |"
    rows[2] = rows[2].replace("| true |", "| maybe |")
    with pytest.raises(ValueError, match="maybe"):
        heldout.parse_verdicts("\n".join(rows))


def test_context_lines_mark_the_finding():
    lines = [f"line {i}" for i in range(1, 11)]
    ctx = heldout.context_lines(lines, 2, radius=2)
    assert ctx == ["      1  line 1", ">     2  line 2", "      3  line 3", "      4  line 4"]
    assert heldout.context_lines(lines, 10, radius=1)[-1] == ">    10  line 10"


def test_parse_show_fixes():
    text = (
        "corpus/a.py:1:1: JAX401 message\n"
        "Fixed 4 error(s):\n"
        "- corpus/p-1/a.py:\n"
        "    1 × JAX101 (host-conversion-of-tracer)\n"
        "    2 × JAX401 (jit-in-loop)\n"
        "- corpus/p-1/b.py:\n"
        "    1 × JAX702 (removed-api)\n"
        "\n"
        "Found 9 error(s) (4 fixed, 5 remaining).\n"
    )
    fixed = heldout.parse_show_fixes(text)
    assert fixed == {
        "corpus/p-1/a.py": Counter({"JAX401": 2, "JAX101": 1}),
        "corpus/p-1/b.py": Counter({"JAX702": 1}),
    }


def test_tables():
    findings = [
        finding("JAX301", 1, "gymnax"),
        finding("JAX301", 2, "gymnax", test=True),
        finding("JAX102", 3, "pgx"),
    ]
    lines = {"gymnax": 1000, "pgx": 2000}
    files = {"gymnax": 10, "pgx": 20}
    projects = heldout.projects_table(findings, lines, files, ["gymnax", "pgx"]).splitlines()
    assert projects[2].startswith("| gymnax | 1.0.1 | ")
    assert projects[2].endswith("| 10 | 1000 | 2 | 1 | 2.000 | JAX301 2 |")
    assert projects[-1] == "| all | | | 30 | 3000 | 3 | 1 | 1.000 | |"
    other = heldout.projects_table(
        [], {"trax": 10}, {"trax": 1}, ["trax"], {"trax": ("9.9", "deep learning")}
    ).splitlines()
    assert other[2] == "| trax | 9.9 | deep learning | 1 | 10 | 0 | 0 | 0.000 |  |"
    known = {"JAX301": ("prng-key-reuse", True), "JAX302": ("legacy", False), "JAX105": ("t", True)}
    codes = heldout.codes_table(findings, 3000, known, Counter({"JAX301": 2})).splitlines()
    assert "| JAX302 |" not in "\n".join(codes)  # off by default and silent: not listed
    assert "| JAX105 | t | 0 | 0 | 0.000 | 0 |  |" in codes
    assert "| JAX301 | prng-key-reuse | 2 | 1 | 0.667 | 2 | gymnax 2 |" in codes
    assert codes[-1] == "| all | | 3 | 1 | 1.000 | 2 | |"
    run = {"fixes": Counter({"JAX401": 2}), "files": Counter({"JAX401": 1}), "broken": Counter()}
    fixes = heldout.fixes_table(
        {
            "safe": {**run, "changed": 1, "broken_files": 0},
            "unsafe": {**run, "changed": 1, "broken_files": 0},
        }
    ).splitlines()
    assert fixes[2] == "| JAX401 | 2 | 1 | 0 | 2 | 1 | 0 |"
    assert fixes[3] == "| all | 2 | 1 | 0 | 2 | 1 | 0 |"


def test_replace_section():
    text = "# T\n\nbefore\n<!-- s -->\nold\n<!-- e -->\nafter\n"
    assert heldout.replace_section(text, "<!-- s -->", "<!-- e -->", "new") == (
        "# T\n\nbefore\n<!-- s -->\nnew\n<!-- e -->\nafter\n"
    )
    assert heldout.replace_section("# T\n", "<!-- s -->", "<!-- e -->", "x") == (
        "# T\n\n<!-- s -->\nx\n<!-- e -->\n"
    )


@pytest.mark.parametrize("name", sorted(heldout.SETS))
def test_docs_page_has_the_markers(name):
    held = heldout.SETS[name]
    text = held.docs.read_text()
    for marker in (
        heldout.NUMBERS_START,
        heldout.NUMBERS_END,
        heldout.VERDICTS_START,
        heldout.VERDICTS_END,
    ):
        assert text.count(marker) == 1
    for project, (version, _) in held.projects.items():
        assert f"| {project} | {version} |" in text


def test_a_project_outside_the_chosen_set_is_an_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        heldout.main(["--set", "fresh-2026-12", "--projects", "gymnax"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "unknown project(s) in set fresh-2026-12: gymnax" in err
    assert "trax" in err  # names the set's projects


def test_verdicts_go_to_the_chosen_sets_page(tmp_path, monkeypatch):
    page = tmp_path / "fresh.md"
    page.write_text(f"# Fresh\n\n{heldout.VERDICTS_START}\nold\n{heldout.VERDICTS_END}\ntail\n")
    fresh = heldout.SETS["fresh-2026-12"]
    monkeypatch.setitem(heldout.SETS, "fresh-2026-12", dataclasses.replace(fresh, docs=page))
    original = heldout.DOCS.read_text()
    rows = heldout.sample_table([finding("JAX702", 1, "trax")]).splitlines()
    rows[2] = rows[2].replace("| | |", "| true | removed API |")
    filled = tmp_path / "sample.md"
    filled.write_text("\n".join(rows) + "\n")
    assert heldout.main(["--set", "fresh-2026-12", "--verdicts", str(filled)]) == 0
    text = page.read_text()
    assert "| JAX702 | 1 | 1 | 0 | 0 | 100% | 0% |" in text
    assert "old" not in text and text.endswith("tail\n")
    assert heldout.DOCS.read_text() == original


def test_traced_supplement_draws_only_traced_families_not_in_the_sample():
    findings = corpus({"JAX301": 30, "JAX102": 20, "JAX702": 200, "JAX201": 8, "JAX501": 9})
    sample = heldout.draw_sample(findings, 20, seed="s")
    extra = heldout.draw_traced_supplement(findings, sample, 25, seed="s")
    assert len(extra) == 25
    assert all(heldout.is_traced_family(f["code"]) for f in extra)
    taken = {heldout._finding_key(f) for f in sample}
    assert not taken & {heldout._finding_key(f) for f in extra}
    assert heldout.draw_traced_supplement(findings, sample, 25, seed="s") == extra
    assert heldout.draw_traced_supplement(findings, sample, 0, seed="s") == []


def test_traced_verdicts_count_the_sample_and_the_supplement_apart():
    sample = [finding("JAX301", 1), finding("JAX702", 2)]
    extra = [finding("JAX101", 3), finding("JAX201", 4)]
    main_rows = heldout.sample_table(sample).splitlines()
    extra_rows = heldout.sample_table(extra, heldout.SUPPLEMENT).splitlines()
    assert extra_rows[2].startswith("| T1 |")
    main_rows[2] = main_rows[2].replace("| | |", "| true | reused |")
    main_rows[3] = main_rows[3].replace("| | |", "| true | removed |")
    extra_rows[2] = extra_rows[2].replace("| | |", "| false alarm | static |")
    extra_rows[3] = extra_rows[3].replace("| | |", "| true | if on tracer |")
    filled = "\n".join(main_rows + [""] + extra_rows)
    main = heldout.parse_verdicts(filled)
    assert main == [("JAX301", "true"), ("JAX702", "true")]  # the supplement is not in it
    supplement = heldout.parse_verdicts(filled, supplement=True)
    assert supplement == [("JAX101", "false alarm"), ("JAX201", "true")]
    table = heldout.traced_verdicts_table(main, supplement).splitlines()
    assert "| JAX1xx | 1 | 0 | 1 | 0 | 0% | 100% |" in table
    assert "| JAX3xx | 1 | 1 | 0 | 0 | 100% | 0% |" in table
    assert table[-1] == "| JAX1xx-JAX4xx | 3 | 2 | 1 | 0 | 67% | 33% |"
