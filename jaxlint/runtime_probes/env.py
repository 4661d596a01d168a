"""``jaxlint probe env``: versions, backend, devices, config and environment variable names.

Environment variable VALUES are never reported, only the names of the ones that
are set; config options whose value comes from an environment variable show
only that they are set, unless they are one of a few enumerated options
(``jax_platforms=cpu``) that cannot carry a secret.
"""

from __future__ import annotations

import argparse
import enum
import importlib.metadata
import os
import platform
import re
import sys
import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from jaxlint.runtime_probes._common import (
    EXIT_ERROR,
    EXIT_OK,
    ProbeFailure,
    Report,
    fmt_seconds,
    import_jax,
    init_backend,
    make_parser,
    run_probe,
    status_line,
)

ENV_PREFIXES = (
    "JAX_",
    "XLA_",
    "TPU_",
    "LIBTPU_",
    "CUDA_",
    "NCCL_",
    "NVIDIA_",
    "ROCM_",
    "HIP_",
    "TF_CPP_",
    "PJRT_",
    "ENABLE_PJRT_",
)
ENV_NAMES = ("JOB_COMPLETION_INDEX", "OMP_NUM_THREADS", "LD_LIBRARY_PATH", "CLOUDSDK_CORE_PROJECT")

# Config options that change results or speed, grouped as reported.
CONFIG_OPTIONS = (
    # numerics and results
    "jax_enable_x64",
    "jax_default_matmul_precision",
    "jax_numpy_rank_promotion",
    "jax_numpy_dtype_promotion",
    "jax_default_prng_impl",
    "jax_threefry_partitionable",
    "jax_legacy_prng_key",
    "jax_enable_custom_prng",
    "jax_softmax_custom_jvp",
    # platforms and devices
    "jax_platforms",
    "jax_platform_name",
    "jax_default_device",
    "jax_num_cpu_devices",
    "jax_cuda_visible_devices",
    "jax_rocm_visible_devices",
    # compilation cache
    "jax_enable_compilation_cache",
    "jax_compilation_cache_dir",
    "jax_persistent_cache_min_compile_time_secs",
    "jax_persistent_cache_min_entry_size_bytes",
    "jax_compilation_cache_max_size",
    # debugging switches (slow when on)
    "jax_explain_cache_misses",
    "jax_log_compiles",
    "jax_debug_nans",
    "jax_debug_infs",
    "jax_debug_key_reuse",
    "jax_disable_jit",
    "jax_enable_checks",
    "jax_check_tracer_leaks",
    "jax_transfer_guard",
    "jax_traceback_filtering",
    "jax_dump_ir_to",
    # compiler and runtime
    "jax_cpu_enable_async_dispatch",
    "jax_use_shardy_partitioner",
    "jax_optimization_level",
    "jax_memory_fitting_level",
    "jax_disable_most_optimizations",
    "jax_enable_pgle",
)

# String options whose values are enumerations, safe to show even when set from the environment.
SAFE_STRING_OPTIONS = frozenset(
    {
        "jax_platforms",
        "jax_platform_name",
        "jax_default_matmul_precision",
        "jax_numpy_rank_promotion",
        "jax_default_prng_impl",
        "jax_traceback_filtering",
        "jax_transfer_guard",
        "jax_optimization_level",
        "jax_memory_fitting_level",
        "jax_cuda_visible_devices",
        "jax_rocm_visible_devices",
    }
)

PLUGIN_PREFIXES = ("jax-cuda", "jax-rocm", "libtpu", "jax-tpu", "jax-metal", "jax-plugin")

SMOKE_RTOL = 1e-4
SMOKE_ATOL = 1e-3

ENV_TRUST = (
    "This probe runs none of your code, but importing jax loads any installed JAX plugins and\n"
    "initialising the backend can allocate accelerator memory."
)

SUMMARY = "Report the JAX environment: versions, backend, devices, config, env var names."
DETAILS = """\
Reports Python, jax, jaxlib, numpy and installed JAX plugins (jax-cuda*, jax-rocm*,
libtpu, ...), the default backend, every device (id, platform, kind, process index and
memory statistics where the backend gives them; CPU gives none), the process count,
the config options that change results or speed (jax.config.values), and the NAMES
of the relevant environment variables that are set (JAX_*, XLA_*, TPU_*, LIBTPU_*,
CUDA_*, NCCL_*, ROCM_*, TF_CPP_*, PJRT_*, ...). Environment variable values are never
printed; config options set from an environment variable show only that they are set
(a few enumerations such as jax_platforms excepted). This is not a secret scanner:
review paths and device names before sharing the report."""
EXAMPLES = """\
  jaxlint probe env                       # JSON on stdout
  jaxlint probe env --format text
  jaxlint probe env --smoke --output env.json
  XLA_FLAGS=--xla_force_host_platform_device_count=8 jaxlint probe env --format text"""


def build_parser() -> argparse.ArgumentParser:
    parser = make_parser("env", SUMMARY, DETAILS, EXAMPLES, trust=ENV_TRUST)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="also jit a 128x128 float32 matmul (precision HIGHEST) and a float32 sum on the"
        f" default device and compare with float64 NumPy (rtol={SMOKE_RTOL}, atol={SMOKE_ATOL});"
        " with several devices, also a sum sharded over all of them. Exit 2 on a mismatch or a"
        " backend failure",
    )
    return parser


# -- collection ------------------------------------------------------------------------------


def relevant_env_names(environ: dict[str, str] | None = None) -> list[str]:
    env = os.environ if environ is None else environ
    return sorted(n for n in env if n.startswith(ENV_PREFIXES) or n in ENV_NAMES)


def _dist_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def plugin_versions() -> dict[str, str]:
    found: dict[str, str] = {}
    for dist in importlib.metadata.distributions():
        raw = dist.metadata["Name"] or ""
        name = raw.lower().replace("_", "-")
        if name.startswith(PLUGIN_PREFIXES):
            found[name] = dist.version
    return dict(sorted(found.items()))


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):  # LegacyPrngKeyState.ALLOW -> 'allow'
        value = value.value
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _safe_to_show(option: str, value: Any) -> bool:
    """An option set from the environment is shown only when it is one of the listed
    enumerations and its value is one of their words: JAX checks an enumeration's
    value when it is imported (an invalid one stops the import, and that error is
    redacted), and the free-form lists (platforms, device numbers) are checked here."""
    if option not in SAFE_STRING_OPTIONS or not isinstance(value, str):
        return False
    allowed = _LIST_OPTION_WORDS.get(option)
    if allowed is not None:
        return all(part in allowed or part.isdigit() for part in value.split(","))
    return _ENUM_WORD_RE.fullmatch(value) is not None


_ENUM_WORD_RE = re.compile(r"[A-Za-z0-9_]{0,40}")
_PLATFORM_WORDS = frozenset({"cpu", "gpu", "cuda", "rocm", "tpu", "metal", "all", ""})
_LIST_OPTION_WORDS = {
    "jax_platforms": _PLATFORM_WORDS,
    "jax_platform_name": _PLATFORM_WORDS,
    "jax_cuda_visible_devices": frozenset({"all"}),
    "jax_rocm_visible_devices": frozenset({"all"}),
}


def config_report(jax: ModuleType) -> dict[str, Any]:
    values = jax.config.values
    out: dict[str, Any] = {}
    for option in CONFIG_OPTIONS:
        if option not in values:
            continue
        value = _plain(values[option])
        env_name = option.upper()
        if env_name in os.environ and not _safe_to_show(option, value):
            # whatever its type: an integer or a path can be as private as a string
            value = f"<set from environment variable {env_name}; value not shown>"
        out[option] = value
    return out


def _memory_stats(device: Any) -> dict[str, Any] | None:
    try:
        stats = device.memory_stats()
    except Exception as exc:  # some backends raise instead of returning None
        return {"error": f"{type(exc).__name__}: {exc}"}
    if stats is None:
        return None
    return {str(k): _plain(v) for k, v in dict(stats).items()}


def device_report(device: Any) -> dict[str, Any]:
    info: dict[str, Any] = {
        "id": device.id,
        "platform": device.platform,
        "device_kind": device.device_kind,
        "process_index": device.process_index,
        "name": str(device),
    }
    coords = getattr(device, "coords", None)
    if coords is not None:
        info["coords"] = list(coords)
    info["memory_stats"] = _memory_stats(device)
    return info


def versions_report() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "python_executable": sys.executable,
        "os": f"{platform.system()} {platform.release()} {platform.machine()}",
        "jax": _dist_version("jax"),
        "jaxlib": _dist_version("jaxlib"),
        "numpy": _dist_version("numpy"),
        "scipy": _dist_version("scipy"),
        "ml_dtypes": _dist_version("ml_dtypes"),
        "plugins": plugin_versions(),
    }


def backend_summary(jax: ModuleType, devices: Sequence[Any]) -> dict[str, Any]:
    """The backend part of the report (also used by ``bench``)."""
    return {
        "default_backend": jax.default_backend(),
        "process_index": jax.process_index(),
        "process_count": jax.process_count(),
        "device_count": jax.device_count(),
        "local_device_count": jax.local_device_count(),
        "devices": [device_report(d) for d in devices],
    }


def scrub(obj: Any, secrets: dict[str, str]) -> tuple[Any, int]:
    """Replace any environment variable value that leaked into a string (safety net)."""
    count = 0

    def walk(value: Any) -> Any:
        nonlocal count
        if isinstance(value, str):
            for name, secret in secrets.items():
                if secret in value:
                    value = value.replace(secret, f"<value of {name}>")
                    count += 1
            return value
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    return walk(obj), count


def env_secrets(names: Sequence[str]) -> dict[str, str]:
    """Values worth scrubbing: long enough not to collide with ordinary words."""
    out = {}
    for name in names:
        value = os.environ.get(name, "")
        if len(value) >= 6 and not _safe_to_show(name.lower(), value):
            out[name] = value
    return out


# -- smoke test ------------------------------------------------------------------------------


def smoke_test(jax: ModuleType) -> dict[str, Any]:
    import numpy as np

    jnp = jax.numpy
    rng = np.random.default_rng(0)
    checks: list[dict[str, Any]] = []

    def record(name: str, got: Any, want: Any, seconds: float, device: str) -> None:
        got64 = np.asarray(got, dtype=np.float64)
        err = float(np.max(np.abs(got64 - want))) if np.size(want) else 0.0
        ok = bool(np.allclose(got64, want, rtol=SMOKE_RTOL, atol=SMOKE_ATOL))
        checks.append(
            {"name": name, "ok": ok, "max_abs_error": err, "seconds": seconds, "device": device}
        )

    a = rng.standard_normal((128, 128)).astype(np.float32)
    b = rng.standard_normal((128, 128)).astype(np.float32)
    matmul = jax.jit(lambda x, y: jnp.matmul(x, y, precision=jax.lax.Precision.HIGHEST))
    start = time.perf_counter()
    got = jax.block_until_ready(matmul(a, b))
    record(
        "matmul float32 128x128 (precision HIGHEST)",
        got,
        a.astype(np.float64) @ b.astype(np.float64),
        time.perf_counter() - start,
        str(jax.devices()[0]),
    )

    x = rng.standard_normal(100_000).astype(np.float32)
    total = jax.jit(jnp.sum)
    start = time.perf_counter()
    got = jax.block_until_ready(total(x))
    record(
        "sum float32[100000]",
        got,
        x.astype(np.float64).sum(),
        time.perf_counter() - start,
        str(jax.devices()[0]),
    )

    n = jax.local_device_count()
    if n > 1:
        from jax.sharding import NamedSharding, PartitionSpec

        mesh = jax.make_mesh((n,), ("d",), axis_types=(jax.sharding.AxisType.Auto,))
        y = rng.standard_normal(n * 1024).astype(np.float32)
        ys = jax.device_put(y, NamedSharding(mesh, PartitionSpec("d")))
        start = time.perf_counter()
        got = jax.block_until_ready(total(ys))
        record(
            f"sum float32[{n * 1024}] sharded over {n} devices",
            got,
            y.astype(np.float64).sum(),
            time.perf_counter() - start,
            f"{n} devices",
        )
    return {
        "ok": all(c["ok"] for c in checks),
        "reference": "NumPy float64",
        "tolerance": {"rtol": SMOKE_RTOL, "atol": SMOKE_ATOL},
        "checks": checks,
    }


# -- the probe -------------------------------------------------------------------------------


def run(args: argparse.Namespace, report: Report) -> int:
    names = relevant_env_names()
    report["environment_variables_set"] = names
    report["versions"] = versions_report()
    try:
        jax = import_jax()
        report["config"] = config_report(jax)
        devices = init_backend(jax)
        report["backend"] = backend_summary(jax, devices)
        code = EXIT_OK
        if args.smoke:
            try:
                report["smoke"] = smoke_test(jax)
            except Exception as exc:
                report["smoke"] = {"ok": False}
                report["error"] = {
                    "class": type(exc).__name__,
                    "message": str(exc).splitlines()[0] if str(exc) else "",
                    "phase": "smoke test",
                }
                return EXIT_ERROR
            if not report["smoke"]["ok"]:
                bad = [c["name"] for c in report["smoke"]["checks"] if not c["ok"]]
                report["error"] = {
                    "class": "SmokeTestMismatch",
                    "message": f"results differ from NumPy beyond tolerance: {', '.join(bad)}",
                }
                code = EXIT_ERROR
        return code
    except ProbeFailure as failure:
        # JAX's own messages can quote a variable's value ("Invalid value ... for JAX
        # flag ..."): the error is scrubbed like the rest of the report
        redacted, hidden = _redact_invalid_values(failure.error)
        error, count = scrub(redacted, env_secrets(names))
        failure.error = error
        report["redactions"] = count + hidden
        raise
    finally:
        scrubbed, count = scrub(
            {k: v for k, v in report.items() if k != "environment_variables_set"},
            env_secrets(names),
        )
        report.update(scrubbed)
        report["redactions"] = count + report.get("redactions", 0)


_INVALID_VALUE_RE = re.compile(r'(Invalid value )"[^"]*"')


def _redact_invalid_values(error: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """``Invalid value "..." for JAX flag X`` -> the value left out, however short it is;
    returns the error and how many values were left out."""
    count = 0
    out: dict[str, Any] = {}
    for key, value in error.items():
        if isinstance(value, str):
            value, n = _INVALID_VALUE_RE.subn(r"\1(not shown)", value)
            count += n
        out[key] = value
    return out, count


def render_text(report: Report) -> str:
    lines = ["jaxlint probe env", status_line(report)]
    v = report.get("versions", {})
    if v:
        lines.append(f"python {v.get('python')} ({v.get('python_executable')}); os {v.get('os')}")
        lines.append(
            f"jax {v.get('jax')}, jaxlib {v.get('jaxlib')}, numpy {v.get('numpy')},"
            f" scipy {v.get('scipy')}, ml_dtypes {v.get('ml_dtypes')}"
        )
        plugins = v.get("plugins") or {}
        lines.append(
            "plugins: " + (", ".join(f"{k} {val}" for k, val in plugins.items()) or "none")
        )
    b = report.get("backend")
    if b:
        lines.append(
            f"backend: {b['default_backend']}; process {b['process_index']} of"
            f" {b['process_count']}; {b['device_count']} devices ({b['local_device_count']} local)"
        )
        for d in b["devices"]:
            mem = d.get("memory_stats")
            mem_text = (
                "no memory stats"
                if mem is None
                else ", ".join(f"{k}={val}" for k, val in mem.items())
            )
            lines.append(
                f"  {d['name']}: id {d['id']}, platform {d['platform']}, kind {d['device_kind']},"
                f" process {d['process_index']}; {mem_text}"
            )
    cfg = report.get("config")
    if cfg:
        lines.append("config:")
        lines.extend(f"  {k} = {val!r}" for k, val in cfg.items())
    names = report.get("environment_variables_set") or []
    lines.append("environment variables set (names only): " + (", ".join(names) or "none"))
    smoke = report.get("smoke")
    if smoke:
        lines.append(f"smoke test: {'passed' if smoke.get('ok') else 'FAILED'}")
        tol = smoke.get("tolerance")
        if tol:
            lines.append(
                f"  reference {smoke['reference']}, rtol={tol['rtol']}, atol={tol['atol']}"
            )
        for c in smoke.get("checks", []):
            lines.append(
                f"  {'ok ' if c['ok'] else 'BAD'} {c['name']} on {c['device']}:"
                f" max abs error {c['max_abs_error']:.3g}, {fmt_seconds(c['seconds'])}"
            )
    if report.get("error"):
        err = report["error"]
        lines.append(f"error: {err.get('class')}: {err.get('message')}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    return run_probe("env", build_parser(), run, render_text, argv)


if __name__ == "__main__":
    from jaxlint.runtime_probes._supervise import run_command

    sys.exit(run_command("env", None, main))
