"""``--plot FILE.svg`` for ``bench`` and ``recompile``, and the text histograms shown
instead when matplotlib (the ``plot`` extra) is not installed.

matplotlib is imported only when a plot is written (the Agg backend: no display).
Every bar and point is a measured number from the report; nothing is smoothed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from jaxlint.runtime_probes._common import fmt_seconds

PLOT_HINT = "pip install 'jaxlint[plot]' (matplotlib) to write the SVG"


def _matplotlib() -> Any:
    """pyplot with the Agg backend, or None when matplotlib is not installed."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def write_plot(path: str, draw: Callable[[Any], None]) -> dict[str, Any]:
    """Draw with pyplot and save to ``path``; say why when it cannot."""
    plt = _matplotlib()
    if plt is None:
        return {
            "file": path,
            "written": False,
            "reason": "matplotlib is not installed",
            "hint": PLOT_HINT,
        }
    fig = plt.figure(figsize=(8, 4.5))
    try:
        draw(fig)
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        fig.savefig(path, format=os.path.splitext(path)[1].lstrip(".").lower() or "svg")
    except (OSError, ValueError) as exc:
        return {"file": path, "written": False, "reason": f"{type(exc).__name__}: {exc}"}
    finally:
        plt.close(fig)
    return {"file": os.path.abspath(path), "written": True}


def bench_figure(samples: dict[str, list[float]], names: dict[str, str]) -> Callable[[Any], None]:
    """Histogram of the timed calls, one colour per side of an A/B."""

    def draw(fig: Any) -> None:
        ax = fig.add_subplot(1, 1, 1)
        values = [v * 1e3 for s in samples.values() for v in s]
        lo, hi = min(values), max(values)
        bins = [lo + (hi - lo) * i / 20 for i in range(21)] if hi > lo else 10
        for label, s in samples.items():
            ax.hist([v * 1e3 for v in s], bins=bins, alpha=0.6, label=f"{label}: {names[label]}")
        ax.set_xlabel("time per call (ms)")
        ax.set_ylabel("timed calls")
        ax.set_title("jaxlint probe bench: distribution of the timed calls")
        ax.legend()

    return draw


def recompile_figure(entries: list[dict[str, Any]], label: str) -> Callable[[Any], None]:
    """Compilations per case or step, coloured by cause."""

    def draw(fig: Any) -> None:
        ax = fig.add_subplot(1, 1, 1)
        causes = [entry_cause(e) for e in entries]
        palette = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3"]
        colours = {c: palette[i % len(palette)] for i, c in enumerate(dict.fromkeys(causes))}
        xs = [e[label] for e in entries]
        ax.bar(xs, [e["compiles"] for e in entries], color=[colours[c] for c in causes])
        for cause, colour in colours.items():
            ax.bar([], [], color=colour, label=cause)
        ax.set_xlabel(label)
        ax.set_ylabel("XLA compilations")
        ax.set_xticks(xs)
        ax.set_title(f"jaxlint probe recompile: compilations per {label}, by cause")
        ax.legend()

    return draw


def entry_cause(entry: dict[str, Any]) -> str:
    if not entry.get("compiles"):
        return "no compilation"
    causes = entry.get("causes") or []
    if causes:
        return ", ".join(dict.fromkeys(c["cause"] for c in causes))
    if "reason" in entry and entry["reason"].startswith("first call"):
        return "first call"
    return "unexplained"


def text_histogram(samples: list[float], bins: int = 10, width: int = 40) -> list[str]:
    """``  12.1 ms - 13.4 ms | ##### 5`` lines: the timed calls, binned."""
    if not samples:
        return []
    lo, hi = min(samples), max(samples)
    if hi == lo:
        return [f"  {fmt_seconds(lo):>10} | {'#' * min(width, len(samples))} {len(samples)}"]
    step = (hi - lo) / bins
    counts = [0] * bins
    for v in samples:
        counts[min(bins - 1, int((v - lo) / step))] += 1
    top = max(counts)
    lines = []
    for i, n in enumerate(counts):
        left, right = lo + i * step, lo + (i + 1) * step
        bar = "#" * round(width * n / top)
        lines.append(f"  {fmt_seconds(left):>10} - {fmt_seconds(right):>10} | {bar} {n}")
    return lines


def text_bars(entries: list[dict[str, Any]], label: str, width: int = 40) -> list[str]:
    """One line per case or step: a bar of its compilations and their cause."""
    top = max((e["compiles"] for e in entries), default=0) or 1
    return [
        f"  {label} {e[label]:>3} | {'#' * round(width * e['compiles'] / top)} {e['compiles']}"
        f" ({entry_cause(e)})"
        for e in entries
    ]
