"""Runtime truth for the JAX5xx fixes: original and fixed programs on 8 CPU devices.

Each program below is linted with the sharding rules (JAX501-JAX505, every fix
applied, unsafe ones included) and both versions run in one fresh interpreter
with 8 forced host devices. A program leaves its output in ``result``. Where the
original still runs on the installed JAX, the fixed program must give the same
numbers and shapes; where it no longer runs (a removed API), the fixed program
must run and match ``expected``, computed by the program without the API.

Fixes the rules withhold or label unsafe are checked too (issue 12): a program in
``withheld`` must keep its finding with no fix offered, and still runs unchanged; a
program with ``fixed_error`` shows, by running, why its fix is labelled unsafe (the
fixed program fails with that error where the original ran).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from jaxlint.config import Settings
from jaxlint.diagnostics import Applicability
from jaxlint.engine import lint_text
from jaxlint.fixers import fix_text
from jaxlint.rules import sharding
from jaxlint.rules.base import Rule
from jaxlint.versions import parse_version

pytest.importorskip("jax")

RULES: list[type[Rule]] = [
    sharding.Pmap,
    sharding.LegacyMeshContext,
    sharding.Pjit,
    sharding.ExperimentalShardMap,
    sharding.LegacyShardingApi,
]
SETTINGS = Settings(
    target_jax=parse_version("0.12.0"),
    rule_options=(("JAX505", (("create-device-mesh", True),)),),
)


@dataclass(frozen=True)
class Program:
    codes: set[str]
    """The findings the original must have (each one fixed)."""
    source: str
    original_runs: bool = True
    withheld: frozenset[str] = frozenset()
    """Findings the original must have with no fix offered."""
    unsafe: frozenset[str] = frozenset()
    """Codes whose fixes must be labelled unsafe."""
    fixed_error: str | None = None
    """The fixed program must fail with this (``TypeName: start of message``)."""


def _p(
    codes: set[str],
    source: str,
    original_runs: bool = True,
    *,
    withheld: set[str] = frozenset(),  # type: ignore[assignment]
    unsafe: set[str] = frozenset(),  # type: ignore[assignment]
    fixed_error: str | None = None,
) -> Program:
    return Program(
        codes,
        textwrap.dedent(source),
        original_runs,
        frozenset(withheld),
        frozenset(unsafe),
        fixed_error,
    )


PROGRAMS: dict[str, Program] = {
    "pmap_decorator": _p(
        {"JAX501"},
        """
        import jax
        import jax.numpy as jnp

        def main():
            @jax.pmap
            def scale(x):
                return jnp.sin(x) * 2

            n = jax.device_count()
            return scale(jnp.arange(n * 3.0).reshape(n, 3))

        result = main()
        """,
    ),
    "pmap_partial_donate_scalar": _p(
        {"JAX501"},
        """
        from functools import partial
        import jax
        import jax.numpy as jnp

        def main():
            @partial(jax.pmap, axis_name='batch', donate_argnums=(0,))
            def step(x):
                loss = jax.lax.pmean(jnp.sum(x ** 2), 'batch')
                return x / jax.lax.psum(x.sum(), 'batch'), loss

            n = jax.device_count()
            return step(jnp.arange(1.0, n * 4.0 + 1).reshape(n, 4))

        result = main()
        """,
    ),
    "pmap_imported_in_axes": _p(
        {"JAX501"},
        """
        import jax.numpy as jnp
        from jax import lax, local_device_count, pmap

        def main():
            n = local_device_count()
            x = jnp.arange(n * 3.0).reshape(n, 3)
            w = jnp.array([1.0, -2.0, 0.5])
            p = pmap(lambda x, w: lax.psum(x @ w, 'i'), 'i', in_axes=(0, None))
            q = pmap(lambda x: {'max': lax.pmax(x, 'i'), 'idx': lax.axis_index('i') + 0 * x[0]}, 'i')
            return (p(x, w), q(x))

        result = main()
        """,
    ),
    "pmap_collectives_loop": _p(
        {"JAX501"},
        """
        import jax
        import jax.numpy as jnp

        AXIS = 'devices'

        def body(x):
            n = jax.lax.psum(1, AXIS)
            ring = jax.lax.ppermute(x, AXIS, [(j, (j + 1) % n) for j in range(n)])
            total = jax.lax.fori_loop(0, 3, lambda i, c: c + x, jnp.zeros_like(x))
            gathered = jax.lax.all_gather(x, AXIS).sum(0)
            return ring + total, gathered

        def main():
            m = jax.device_count()
            p_body = jax.pmap(body, axis_name=AXIS, in_axes=0, out_axes=0)
            return p_body(jnp.arange(m * 2.0).reshape(m, 2))

        result = main()
        """,
    ),
    "pjit_named_shardings": _p(
        {"JAX503"},
        """
        import jax
        import jax.numpy as jnp
        from jax.experimental.pjit import pjit
        from jax.sharding import NamedSharding, PartitionSpec as P

        mesh = jax.make_mesh((jax.device_count(),), ('x',))
        s = NamedSharding(mesh, P('x'))
        f = pjit(lambda a, b: a * b + 1, (s, s), s, donate_argnums=1)
        x = jnp.arange(4.0 * jax.device_count())
        result = f(x, x + 1)
        """,
    ),
    "pjit_with_mesh_brax_style": _p(
        {"JAX502", "JAX503"},
        """
        import jax
        import jax.numpy as jnp
        from jax.experimental import mesh_utils, pjit

        class Wrapper:
            def __init__(self, mesh: jax.sharding.Mesh):
                self._mesh = mesh
                spec = jax.sharding.PartitionSpec('x')
                self._scale = pjit.pjit(lambda v: v * 3, out_shardings=spec)
                self._total = pjit.pjit(lambda v: jnp.sum(v), out_shardings=None)

            def run(self, v):
                with self._mesh:
                    return self._scale(v), self._total(v)

        mesh = jax.sharding.Mesh(mesh_utils.create_device_mesh((jax.device_count(),)), ('x',))
        result = Wrapper(mesh).run(jnp.arange(2.0 * jax.device_count()))
        """,
    ),
    "pjit_axis_resources": _p(
        {"JAX503"},
        """
        import jax
        import jax.numpy as jnp
        from jax.experimental.pjit import pjit
        from jax.sharding import NamedSharding, PartitionSpec as P

        mesh = jax.make_mesh((jax.device_count(),), ('x',))
        x = jnp.arange(3.0 * jax.device_count())
        expected = x ** 2
        result = pjit(lambda a: a ** 2, in_axis_resources=NamedSharding(mesh, P('x')))(x)
        """,
        original_runs=False,
    ),
    "legacy_shard_map": _p(
        {"JAX504"},
        """
        from functools import partial
        import jax
        import jax.numpy as jnp
        from jax.experimental.shard_map import shard_map
        from jax.sharding import Mesh, PartitionSpec as P

        mesh = Mesh(jax.devices(), ('x',))

        @jax.jit
        @partial(shard_map, mesh=mesh, in_specs=P('x'), out_specs=P(), check_rep=False)
        def total(a):
            return jax.lax.psum(a.sum(keepdims=True), 'x')

        g = shard_map(lambda a: a * jax.lax.axis_index('x'), mesh, P('x'), P('x'))
        x = jnp.arange(4.0 * jax.device_count())
        result = (total(x), jax.jit(g)(x))
        """,
    ),
    "legacy_shard_map_auto": _p(
        {"JAX504"},
        """
        import jax
        import jax.numpy as jnp
        from jax.experimental import shard_map
        from jax.sharding import AxisType, PartitionSpec as P

        mesh = jax.make_mesh((jax.device_count() // 2, 2), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)
        x = jnp.arange(8.0 * jax.device_count()).reshape(jax.device_count(), 8)
        expected = jnp.tile(x.reshape(jax.device_count() // 2, 2, 8).sum(0), (jax.device_count() // 2, 1))
        f = shard_map.shard_map(lambda a: jax.lax.psum(a, 'x'), mesh, P('x'), P('x'), auto=frozenset({'y'}))
        result = jax.jit(f)(x)
        """,
        original_runs=False,
    ),
    "with_mesh_constraint": _p(
        {"JAX502"},
        """
        import jax
        import jax.numpy as jnp
        from jax.sharding import Mesh, PartitionSpec as P

        mesh = Mesh(jax.devices(), ('x',))

        @jax.jit
        def f(a):
            return jax.lax.with_sharding_constraint(a * 2, P('x')).sum()

        with mesh:
            result = f(jnp.arange(4.0 * jax.device_count()))
        """,
    ),
    "with_mesh_as_jit_specs": _p(
        {"JAX502"},
        """
        import jax
        import jax.numpy as jnp
        from jax.sharding import Mesh, PartitionSpec as P

        x = jnp.arange(2.0 * jax.device_count())
        expected = x + 1
        with Mesh(jax.devices(), ('x',)) as m:
            f = jax.jit(lambda a: a + 1, in_shardings=P('x'), out_shardings=P('x'))
            result = f(x)
            assert len(m.devices) == jax.device_count()
        """,
        original_runs=False,
    ),
    "use_mesh": _p(
        {"JAX502"},
        """
        import jax
        import jax.numpy as jnp
        from jax.sharding import PartitionSpec as P, use_mesh

        mesh = jax.make_mesh((jax.device_count(),), ('x',))
        x = jnp.arange(2.0 * jax.device_count())
        expected = x * 5
        with use_mesh(mesh):
            result = jax.jit(lambda a: a * 5, out_shardings=P('x'))(x)
        """,
        original_runs=False,
    ),
    "pmap_keyword_call_site": _p(
        set(),
        """
        import jax
        import jax.numpy as jnp

        def main():
            p_mul = jax.pmap(lambda x, w: x * w)
            n = jax.device_count()
            x = jnp.arange(n * 3.0).reshape(n, 3)
            return p_mul(x, w=x + 1)  # jit(shard_map(...)) would raise TypeError here

        result = main()
        """,
        withheld={"JAX501"},
    ),
    "pmap_module_level": _p(
        set(),
        """
        import jax
        import jax.numpy as jnp

        @jax.pmap  # a rewrite here would build a mesh (and start the backend) at import
        def scale(x):
            return x * 3

        n = jax.device_count()
        result = scale(jnp.arange(n * 2.0).reshape(n, 2))
        """,
        withheld={"JAX501"},
    ),
    "with_mesh_legacy_library": _p(
        {"JAX502"},
        """
        import jax
        import jax.numpy as jnp
        from jax.interpreters import pxla
        from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

        def legacy_shard(a):  # what older libraries do to find the mesh
            mesh = pxla.thread_resources.env.physical_mesh
            if mesh.empty:
                raise RuntimeError('no mesh in context')
            return jax.device_put(a, NamedSharding(mesh, P('x')))

        mesh = Mesh(jax.devices(), ('x',))
        with mesh:
            result = legacy_shard(jnp.arange(2.0 * jax.device_count()))
        """,
        unsafe={"JAX502"},
        fixed_error="RuntimeError: no mesh in context",
    ),
    "with_mesh_eager_constraint": _p(
        {"JAX502"},
        """
        import jax
        import jax.numpy as jnp
        from jax.sharding import Mesh, PartitionSpec as P

        mesh = Mesh(jax.devices(), ('x',))
        x = jnp.arange(4.0 * jax.device_count())
        with mesh:
            result = jax.lax.with_sharding_constraint(x, P('x'))
        """,
        unsafe={"JAX502"},
        fixed_error="TypeError: The sharding on the input must be a `NamedSharding`",
    ),
    "device_put_replicated": _p(
        {"JAX505"},
        """
        import jax
        import numpy as np

        params = {'w': np.arange(6, dtype=np.float32).reshape(2, 3), 'b': np.ones(3, np.float32)}
        devices = jax.local_devices()
        expected = {k: np.stack([v] * len(devices)) for k, v in params.items()}
        replicated = jax.device_put_replicated(params, devices)
        assert replicated['w'].sharding.spec == jax.P('x')
        result = jax.pmap(lambda p: p)(replicated)
        """,
        original_runs=False,
    ),
    "device_put_sharded": _p(
        {"JAX505"},
        """
        import jax
        import numpy as np
        from jax import device_put_sharded

        devices = jax.local_devices()
        shards = [{'a': np.full((2,), i, np.float32)} for i in range(len(devices))]
        expected = {'a': np.stack([s['a'] for s in shards])}
        result = device_put_sharded(shards, devices)
        """,
        original_runs=False,
    ),
    "create_device_mesh_auto": _p(
        {"JAX505"},
        """
        import jax
        import jax.numpy as jnp
        from jax.experimental import mesh_utils
        from jax.sharding import Mesh, PartitionSpec as P

        names = ('data', 'model')
        mesh = Mesh(mesh_utils.create_device_mesh((jax.device_count() // 2, 2)), names)
        # unsharded input with in_specs: works only on Auto axes (Explicit would raise)
        f = jax.shard_map(lambda a: a * 2, mesh=mesh, in_specs=P('data'), out_specs=P('data'))
        x = jnp.arange(3.0 * jax.device_count()).reshape(jax.device_count(), 3)
        assert all(t == jax.sharding.AxisType.Auto for t in mesh.axis_types)
        result = jax.jit(f)(x)
        """,
    ),
    "maps_mesh": _p(
        {"JAX505"},
        """
        import jax
        import jax.numpy as jnp
        from jax.experimental.maps import Mesh
        from jax.sharding import NamedSharding, PartitionSpec as P

        mesh = Mesh(jax.devices(), ('x',))
        x = jnp.arange(2.0 * jax.device_count())
        expected = x
        result = jax.device_put(x, NamedSharding(mesh, P('x')))
        """,
        original_runs=False,
    ),
}

# The rewrites JAX501 used to offer where it now withholds its fix, and how they fail.
OLD_REWRITES: dict[str, tuple[str, str]] = {
    "pmap_keyword_call_site": (
        textwrap.dedent(
            """
            import jax
            import jax.numpy as jnp

            def main():
                p_mul = jax.jit(jax.shard_map(jax.vmap(lambda x, w: x * w), mesh=jax.make_mesh((jax.device_count(),), ('i',), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P('i'), out_specs=jax.P('i'), check_vma=False))
                n = jax.device_count()
                x = jnp.arange(n * 3.0).reshape(n, 3)
                return p_mul(x, w=x + 1)

            result = main()
            """
        ),
        "TypeError",
    ),
}

RUNNER = textwrap.dedent(
    """
    import pickle, sys, warnings
    warnings.simplefilter("ignore")
    import numpy as np
    import jax
    out = {}
    for path in sys.argv[2:]:
        scope = {"__name__": "__main__"}
        try:
            exec(compile(open(path).read(), path, "exec"), scope)
            leaves = lambda t: [np.asarray(x) for x in jax.tree.leaves(t)]
            out[path] = {
                "ok": True,
                "result": leaves(scope["result"]),
                "expected": leaves(scope["expected"]) if "expected" in scope else None,
            }
        except BaseException as exc:
            out[path] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:800]}
    out["devices"] = jax.device_count()
    with open(sys.argv[1], "wb") as fh:
        pickle.dump(out, fh)
    """
)


def _lint(text: str):
    return lint_text(text, "program.py", SETTINGS, RULES, want_fixes=True)


def _fixed(name: str, program: Program) -> str:
    result = _lint(program.source)
    assert not result.internal_errors, result.internal_errors[0].traceback
    codes = {d.code for d in result.diagnostics}
    assert program.codes | program.withheld <= codes, (
        f"{name}: expected {program.codes}, got {codes}"
    )
    for d in result.diagnostics:
        if d.code in program.withheld:
            assert not d.fixable, f"{name}: {d.code} offers a fix it should withhold"
        if d.code in program.unsafe:
            assert d.fix_applicability == Applicability.UNSAFE, (
                f"{name}: {d.code} fix is not unsafe"
            )
    outcome = fix_text(program.source, lambda t: _lint(t).diagnostics, unsafe=True)
    assert outcome.dropped == [], outcome.dropped
    assert set(outcome.applied) >= program.codes, f"{name}: fixes applied {outcome.applied}"
    left = [d for d in _lint(outcome.text).diagnostics if d.code in program.codes]
    assert left == [], f"{name}: findings left after the fix: {[d.message for d in left]}"
    return outcome.text


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Every original and fixed program, run once in one interpreter with 8 CPU devices."""
    directory = tmp_path_factory.mktemp("sharding")
    paths: dict[str, str] = {}
    for name, program in PROGRAMS.items():
        for kind, text in (("original", program.source), ("fixed", _fixed(name, program))):
            path = directory / f"{name}_{kind}.py"
            path.write_text(text)
            paths[str(path)] = f"{name}_{kind}"
    for name, (text, _) in OLD_REWRITES.items():
        path = directory / f"{name}_old.py"
        path.write_text(text)
        paths[str(path)] = f"{name}_old"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_"))}
    env.update(
        JAX_PLATFORMS="cpu",
        JAX_NUM_CPU_DEVICES="8",
        XLA_FLAGS="--xla_force_host_platform_device_count=8",
    )
    out_file = directory / "out.pkl"
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, str(out_file), *paths],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert out_file.exists(), proc.stderr[-3000:]
    raw = pickle.loads(Path(out_file).read_bytes())
    assert raw.pop("devices") == 8
    return {paths[p]: r for p, r in raw.items()}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_fixed_program_matches_original(name: str, runs: dict[str, dict]) -> None:
    program = PROGRAMS[name]
    original, fixed = runs[f"{name}_original"], runs[f"{name}_fixed"]
    if program.fixed_error is not None:  # why the fix is labelled unsafe, shown by running it
        assert original["ok"], f"{name}: the original fails: {original.get('error')}"
        assert not fixed["ok"], f"{name}: the fixed program runs; is the fix really unsafe?"
        assert fixed["error"].startswith(program.fixed_error), fixed["error"]
        return
    assert fixed["ok"], f"{name}: the fixed program fails: {fixed.get('error')}"
    assert original["ok"] is program.original_runs, (
        f"{name}: expected the original to {'run' if program.original_runs else 'fail'}:"
        f" {original.get('error')}"
    )
    reference = original["result"] if original["ok"] else fixed["expected"]
    assert reference is not None, f"{name}: no reference output"
    assert len(fixed["result"]) == len(reference)
    for got, want in zip(fixed["result"], reference, strict=True):
        assert got.shape == want.shape, f"{name}: shape {got.shape} != {want.shape}"
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    if original["ok"] and original["expected"] is not None:
        for got, want in zip(original["result"], original["expected"], strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", list(OLD_REWRITES))
def test_withheld_rewrite_would_fail(name: str, runs: dict[str, dict]) -> None:
    """The rewrite JAX501 no longer offers here really breaks the program."""
    old = runs[f"{name}_old"]
    assert not old["ok"], f"{name}: the old rewrite runs; why is the fix withheld?"
    assert old["error"].startswith(OLD_REWRITES[name][1]), old["error"]
    assert runs[f"{name}_original"]["ok"]


DISTRIBUTED = textwrap.dedent(
    """
    import sys
    import jax

    if sys.argv[2] == "rewrite":  # what a module-level JAX501 rewrite runs at import
        mesh = jax.make_mesh((jax.device_count(),), ('i',))
    else:  # the original: building a pmap starts nothing
        p = jax.pmap(lambda x: x * 2)
    jax.distributed.initialize(
        coordinator_address=f"localhost:{sys.argv[1]}", num_processes=1, process_id=0
    )
    jax.distributed.shutdown()
    """
)


def test_module_level_mesh_breaks_distributed_initialize() -> None:
    """Why JAX501 withholds its fix at module level: the mesh starts the backend at import."""
    import socket

    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_"))}
    env["JAX_PLATFORMS"] = "cpu"
    outcomes = {}
    for kind in ("original", "rewrite"):
        with socket.socket() as sock:
            sock.bind(("localhost", 0))
            port = sock.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-c", DISTRIBUTED, str(port), kind],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        outcomes[kind] = proc
    assert outcomes["original"].returncode == 0, outcomes["original"].stderr[-2000:]
    assert outcomes["rewrite"].returncode != 0
    assert "jax.distributed.initialize() must be called before" in outcomes["rewrite"].stderr


def test_every_sharding_rule_is_exercised() -> None:
    covered = set().union(*(p.codes for p in PROGRAMS.values()))
    assert covered == {"JAX501", "JAX502", "JAX503", "JAX504", "JAX505"}
