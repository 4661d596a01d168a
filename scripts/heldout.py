#!/usr/bin/env python3
"""The held-out precision protocol (``make heldout``): jaxlint's default rules on real
JAX projects that were never used for tuning.

    python scripts/heldout.py                      # every held-out project (downloads once)
    python scripts/heldout.py --projects gymnax,pgx
    python scripts/heldout.py --update-docs        # also rewrite the tables in
                                                   # docs/precision/heldout.md
    python scripts/heldout.py --verdicts FILE      # count the verdicts of a filled sample
    python scripts/heldout.py --set fresh-2026-12  # another named set (``SETS``), with
                                                   # its own seed, results and docs page

The projects are pinned sdists (``HELDOUT``, the original set that ``make heldout``
measures, and the other sets of ``SETS``), downloaded with the pinned-corpus
downloader of ``scripts/fetch_corpus.py`` into ``$JAXLINT_HELDOUT`` or
``~/.cache/jaxlint-heldout``, never into the repository. On a temporary copy of their
Python files it runs, with DEFAULT settings (no ``--select``, no config):

1. ``jaxlint check --no-cache --output-format json``: findings per project and per
   code, and per 1,000 lines.
2. a deterministic review sample (seeded, stratified per code) of the findings, as a
   Markdown table with empty verdict/reason columns, and the source lines around
   each sampled finding for the reviewer;
3. ``--fix`` (safe fixes only) and ``--fix --unsafe-fixes`` on fresh copies: fixes
   applied per code, whether every changed file still compiles, and the diffs.

Everything that shows the findings themselves (messages, sample, context, diffs) is
written under the set's results folder (``<cache>/_results`` for the original set,
``<cache>/_results-<set>`` for the others, or ``--out``), outside the
repository. The script prints numbers only, so that running it does not put the
held-out findings into anyone's tuning loop; they are read once, at the end.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from fetch_corpus import fetch  # noqa: E402

# name: (version, domain). None of them is in fetch_corpus.PINNED (the tuning corpus).
HELDOUT: dict[str, tuple[str, str]] = {
    "jax-md": ("0.2.29", "molecular dynamics simulation"),
    "pgx": ("2.6.0", "RL environments (board games)"),
    "jumanji": ("1.1.2", "RL environments (combinatorial)"),
    "gymnax": ("1.0.1", "RL environments (classic control)"),
    "distrax": ("0.1.9", "probabilistic programming (distributions)"),
    "dynamax": ("1.0.3", "probabilistic state-space models"),
    "levanter": ("1.2.dev1644", "LLM training"),
    "haliax": ("1.4.dev453", "named tensors, Pallas kernels"),
    "jaxopt": ("0.8.5", "optimisation"),
    "ott-jax": ("0.6.0", "optimal transport"),
}

# Six projects read once after the first set was read (docs/precision/heldout.md, "A
# fresh set, read once"); measured by hand, not a named set, listed so that no later set
# reuses them.
READ_ONCE: dict[str, str] = {
    "evosax": "0.3.2",
    "jraph": "0.0.6.dev0",
    "lineax": "0.1.1",
    "mctx": "0.0.71",
    "optimistix": "0.1.0",
    "rlax": "0.1.9",
}

# A fresh set, chosen after the issue-12 tuning and read once (docs/precision/heldout-fresh.md):
# disjoint from PINNED, HELDOUT and READ_ONCE.
FRESH_2026_12: dict[str, tuple[str, str]] = {
    "kfac-jax": ("0.0.8", "second-order optimisation"),
    "neural-tangents": ("0.6.5", "infinite-width network kernels"),
    "evojax": ("0.2.17", "neuroevolution"),
    "objax": ("1.8.0", "neural-network framework"),
    "trax": ("1.4.1", "deep-learning library (2021)"),
    "penzai": ("0.2.5", "model building and interpretability"),
    "jaxns": ("3.0.0", "nested sampling"),
    "jaxley": ("0.14.0", "biophysical neuron simulation"),
    "flowjax": ("19.1.2", "normalising flows"),
    "flashbax": ("0.1.3", "RL replay buffers"),
    "oryx": ("0.2.9", "probabilistic programming (transformations)"),
    "tinygp": ("0.3.1", "Gaussian processes"),
}

# A second fresh set, chosen after the rule changes that fresh-2026-12's findings led to and
# read once (docs/precision/heldout-fresh-b.md): disjoint from PINNED, HELDOUT, READ_ONCE,
# FRESH_2026_12 and mujoco-mjx.
FRESH_2026_12B: dict[str, tuple[str, str]] = {
    "quax": ("0.4.6", "array-type dispatch (equinox)"),
    "jaxline": ("0.0.8", "distributed training loop"),
    "dm-pix": ("0.4.5", "image processing"),
    "sbx-rl": ("0.28.0", "RL algorithms"),
    "jax-cosmo": ("0.1.0", "cosmology"),
    "coix": ("0.1.0", "probabilistic inference combinators"),
    "bayeux-ml": ("0.1.15", "Bayesian inference front-end"),
    "brainpy": ("2.9.0", "brain dynamics simulation"),
    "dm-acme": ("0.4.0", "RL framework (2022)"),
    "jax-cfd": ("0.2.1", "computational fluid dynamics"),
    "jaxsim": ("0.9.0", "robot physics simulation"),
    "evofr": ("0.2.1", "epidemiological forecasting"),
}

# A third fresh set, pinned on 2026-12-05 before any of its code was linted or read, for the
# final read of issue 25 (default rules and the traced-code families JAX1xx-JAX4xx on their
# own): disjoint from every set above, from PINNED and from mujoco-mjx.
FRESH_2026_12C: dict[str, tuple[str, str]] = {
    "netket": ("3.23.0", "quantum many-body variational Monte Carlo"),
    "e3nn-jax": ("0.21.0", "equivariant neural networks"),
    "gpjax": ("1.0.0", "Gaussian processes"),
    "xlb": ("0.3.1", "lattice Boltzmann fluid simulation"),
    "jaxmarl": ("0.2.0", "multi-agent RL environments"),
    "craftax": ("1.6.1", "RL environment (open-ended game)"),
    "xminigrid": ("0.9.3", "RL environments (grid worlds)"),
    "qdax": ("0.5.0", "quality-diversity optimisation"),
    "jaxdf": ("0.3.0", "differentiable discretisations (PDEs)"),
    "probdiffeq": ("0.9.2", "probabilistic ODE solvers"),
    "scico": ("0.0.7", "computational imaging"),
    "navix": ("4.0.0", "RL environments (MiniGrid in JAX)"),
}

# A fourth fresh set, pinned on 2026-12-05 (later) before any of its code was linted or
# read, after fresh-2026-12c's read led to model changes: disjoint from every set above,
# from PINNED and from mujoco-mjx. Latest non-prerelease sdist of each on the index that day.
FRESH_2026_12D: dict[str, tuple[str, str]] = {
    "clu": ("0.0.12", "training-loop utilities (metrics, checkpoints)"),
    "fedjax": ("0.0.17", "federated learning"),
    "elegy": ("0.8.6", "Keras-like training framework"),
    "recurrentgemma": ("1.0.1", "language model (Griffin)"),
    "gemma": ("4.0.1", "language-model library (sampling, fine-tuning)"),
    "kauldron": ("1.4.4", "training framework"),
    "dynamiqs": ("0.3.7", "quantum dynamics simulation"),
    "efax": ("2.6.0", "exponential-family distributions"),
    "interpax": ("0.3.16", "interpolation"),
    "jaxlie": ("1.5.0", "Lie groups for robotics"),
    "id-mava": ("0.1.3", "multi-agent RL"),
    "sbijax": ("0.4.2.post1", "simulation-based inference"),
}

# A fifth fresh set, pinned on 2026-12-05 (later still) before any of its code was
# downloaded, linted or read, because fresh-2026-12d had only 19 findings of the traced-code
# families (the read needs at least 40): disjoint from every set above, from PINNED and from
# mujoco-mjx. Latest non-prerelease sdist of each on the index that day.
FRESH_2026_12E: dict[str, tuple[str, str]] = {
    "dopamine-rl": ("4.1.2", "RL agents (JAX and TF)"),
    "coax": ("0.1.13", "RL framework"),
    "pgmax": ("0.6.1", "probabilistic graphical models"),
    "flowMC": ("0.6.5", "MCMC with normalising flows"),
    "jimgw": ("0.6.0", "gravitational-wave inference"),
    "ripplegw": ("0.5.0", "gravitational waveforms"),
    "jax-fem": ("0.0.12", "finite elements"),
    "jaxkan": ("0.3.7", "Kolmogorov-Arnold networks"),
    "cola-ml": ("0.0.7", "structured linear algebra"),
    "tjax": ("1.9.0", "JAX utilities"),
    "rljax": ("0.0.4", "RL algorithms"),
    "jax-sph": ("0.1.0", "smoothed-particle hydrodynamics"),
}

# A sixth fresh set, pinned on 2026-12-06 before any of its code was downloaded, linted or
# read, because the earlier sets of (mostly) libraries gave too few findings of the
# traced-code families JAX1xx-JAX4xx (the read needs at least 40 judged): 23 projects,
# application-style where possible (training loops, samplers, RL, simulations), disjoint
# from every set above, from PINNED, from mujoco-mjx and from every project named in
# docs/precision/. Latest non-prerelease sdist of each on the index that day (qujax left
# out: its latest sdist is 0.2.3, its newer releases are wheels only; evox left out: its
# latest releases are PyTorch code).
FRESH_2026_12F: dict[str, tuple[str, str]] = {
    "rejax": ("0.1.3", "RL algorithms (jitted training)"),
    "muax": ("0.0.2.8.3", "MuZero RL"),
    "kinetix-env": ("3.0.2", "RL environment (2D physics)"),
    "colabdesign": ("1.1.1", "protein design (AlphaFold in JAX)"),
    "flaxdiff": ("0.2.11", "diffusion-model training"),
    "lagrangebench": ("0.2.0", "learned particle simulation benchmark"),
    "spyx": ("1.0.0", "spiking neural networks"),
    "jax-sgmc": ("0.1.5", "stochastic-gradient MCMC"),
    "sgmcmcjax": ("0.2.13", "stochastic-gradient MCMC samplers"),
    "genjax": ("1.0.14", "probabilistic programming"),
    "bayesnewton": ("1.3.4", "approximate Bayesian inference (GPs)"),
    "vbjax": ("0.0.19", "brain-network simulation"),
    "jaxpm": ("0.1.6", "cosmological particle-mesh simulation"),
    "fdtdx": ("0.6.3", "electromagnetic FDTD simulation"),
    "jax-fdm": ("0.14.1", "form-finding (structural design)"),
    "jax-unirep": ("3.0.0", "protein language model"),
    "neuralgcm": ("1.2.2", "weather and climate model"),
    "dinosaur-dycore": ("1.2.1", "atmospheric dynamical core"),
    "bayex": ("0.3.0", "Bayesian optimisation"),
    "jaxoplanet": ("0.2.0", "exoplanet light curves"),
    "dLux": ("0.15.1", "differentiable optics"),
    "cr-sparse": ("0.4.0", "sparse signal recovery"),
    "treex": ("0.6.12", "neural-network framework (2022)"),
}

# A seventh fresh set, pinned on 2026-12-06 (later) before any of its code was downloaded,
# linted or read, for a second blind read of the traced-code families JAX1xx-JAX4xx: 24
# projects, application-style where possible (training loops, samplers, RL, simulations),
# disjoint from every set above, from PINNED, from mujoco-mjx and from every project named
# in docs/precision/. Chosen from the package index's names, versions and summaries only;
# latest non-prerelease sdist of each on the index that day (docs/precision/heldout-fresh-g.md
# says which candidates were left out and why).
FRESH_2026_12G: dict[str, tuple[str, str]] = {
    "memorax": ("1.0.1", "memory-augmented RL"),
    "jaxarc": ("1.0.3", "RL environment (ARC puzzles)"),
    "ludax": ("1.0.0", "RL environments (board-game DSL)"),
    "evorl-jax": ("0.1.1", "evolutionary RL"),
    "google-tunix": ("0.1.7", "LLM post-training (RL, fine-tuning)"),
    "jax-privacy": ("2.0.0", "differentially private training"),
    "learned-optimization": ("0.0.1", "learned optimisers (2022)"),
    "crazyflow": ("0.4.0", "drone simulation"),
    "torax": ("1.4.3", "tokamak plasma transport simulation"),
    "jax-galsim": ("2026.7.0", "galaxy image simulation"),
    "cryojax": ("0.6.0", "cryo-EM image simulation"),
    "exponax": ("0.2.0", "PDE solvers (spectral)"),
    "jwave": ("0.2.1", "acoustic wave simulation"),
    "fmmax": ("1.7.1", "photonics (Fourier modal method)"),
    "invrs-gym": ("1.6.2", "photonic inverse-design challenges"),
    "galax": ("0.1.0", "galactic dynamics"),
    "pyscfad": ("0.3.4", "quantum chemistry with autodiff"),
    "jvmc": ("1.5.8", "variational Monte Carlo (quantum)"),
    "gwkokab": ("0.3.1", "gravitational-wave population inference"),
    "jaxspec": ("0.4.1", "Bayesian X-ray spectral fitting"),
    "inferactively-pymdp": ("1.0.4", "active inference"),
    "herculens": ("0.3.0", "strong-lens modelling"),
    "jinns": ("1.10.2", "physics-informed neural networks"),
    "ramsey": ("0.3.0", "neural processes (probabilistic deep learning)"),
}

# An eighth fresh set, pinned on 2026-12-06 (later still) before any of its code was
# downloaded, linted or read, for a third blind read of the traced-code families
# JAX1xx-JAX4xx, of jaxlint frozen at c335a2d: 24 projects, application-style where
# possible (training loops, samplers, RL, simulations), disjoint from every set above, from
# PINNED, from mujoco-mjx and from every project named in docs/precision/. Chosen from the
# package index's names, versions, upload dates, summaries, declared dependencies and sdist
# sizes only; latest non-prerelease sdist of each on the index that day
# (docs/precision/heldout-fresh-h.md says which candidates were left out and why).
FRESH_2026_12H: dict[str, tuple[str, str]] = {
    "deepqmc": ("1.3.0", "quantum Monte Carlo (neural wavefunctions)"),
    "chemtrain": ("0.2.0", "learned molecular-dynamics potentials"),
    "aws-fortuna": ("0.2.0", "uncertainty quantification (training, calibration)"),
    "econpizza": ("0.6.10", "macroeconomic models (perfect-foresight solver)"),
    "harmonic": ("1.3.1", "Bayesian evidence (learned harmonic mean)"),
    "pzflow": ("4.0.0", "normalising flows for tabular data"),
    "apebench": ("0.1.1", "neural PDE emulator benchmark"),
    "mbirjax": ("0.7.3", "tomographic reconstruction"),
    "diffstar": ("1.0.3", "galaxy star-formation histories"),
    "jaxgcrl": ("0.2.8", "goal-conditioned RL (Brax/MJX)"),
    "jaxtari": ("0.2.0", "RL environments (Atari games)"),
    "kups": ("1.0.8", "molecular simulation toolkit"),
    "apax": ("0.14.0", "machine-learned interatomic potentials"),
    "minimax-lib": ("0.2.0", "RL autocurricula"),
    "dopamax": ("0.2.1", "RL algorithms (pure JAX)"),
    "cax": ("0.4.4", "cellular automata (neural CA)"),
    "jaxsnn": ("0.3.0", "event-based spiking neural networks"),
    "astronomix": ("0.6.6", "astrophysical (magneto)hydrodynamics"),
    "esquilax": ("2.1.0", "multi-agent simulation"),
    "gensbi": ("0.5.1", "simulation-based inference (generative)"),
    "hgfx": ("1.0.0", "hierarchical Gaussian filters"),
    "jsmfsb": ("1.1.7", "stochastic simulation (systems biology)"),
    "marl-battlegrounds": ("1.0.3", "multi-agent RL benchmark"),
    "dftax": ("0.9.3", "density-functional theory (Kohn-Sham)"),
}

# A ninth fresh set, pinned on 2026-12-06 (later still) before any of its code was
# downloaded, linted or read, for a fourth blind read of the traced-code families
# JAX1xx-JAX4xx, of jaxlint frozen at 295fe5f: 24 projects, application-style where
# possible (training loops, samplers, RL, simulations), disjoint from every set above, from
# PINNED, from mujoco-mjx and from every project whose code is named in docs/precision/ (the
# seven that fresh-2026-12h's page names only as candidates left for a later set, never
# downloaded, are taken here). Chosen from the package index's names, versions, upload
# dates, summaries, declared dependencies, authors and sdist sizes only; latest
# non-prerelease sdist of each on the index that day (docs/precision/heldout-fresh-i.md says
# which candidates were left out and why).
FRESH_2026_12I: dict[str, tuple[str, str]] = {
    "squishyplanet": ("0.6.0", "exoplanet transits (non-spherical planets)"),
    "memo-lang": ("1.3.3", "probabilistic programming (reasoning about reasoning)"),
    "jaxion": ("0.0.13", "fuzzy dark matter simulation"),
    "icland": ("0.2.0", "RL environment (XLand in MJX)"),
    "jax-morph": ("0.4.0", "cell proliferation and active matter simulation"),
    "feax": ("0.8.0", "finite elements"),
    "dalle-mini": ("0.1.5", "text-to-image model (training, inference; 2023)"),
    "playground": ("0.2.0", "RL environments (MuJoCo MJX robotics)"),
    "popgym-arcade": ("0.0.7", "RL environments (POMDP arcade games)"),
    "octax": ("0.1.1", "RL environments (CHIP-8 games)"),
    "jaxued": ("0.0.1", "RL unsupervised environment design"),
    "ajax-rl": ("0.4.0", "RL algorithms"),
    "highjax": ("0.1.0", "RL environment (highway driving)"),
    "nasimjax": ("0.1.0", "RL environment (network penetration testing)"),
    "nnx-ppo": ("0.3.0", "PPO for recurrent networks (flax.nnx)"),
    "mujax": ("0.1.3", "MuZero RL (Gymnasium)"),
    "jaxincell": ("0.1.1", "particle-in-cell plasma simulation"),
    "jax-lab": ("0.6.2", "lattice Boltzmann multiphase flow"),
    "dnsjax": ("0.1.0.1", "Navier-Stokes DNS (pseudo-spectral)"),
    "pylcp-jax": ("0.0.1", "laser cooling (Monte Carlo trajectories)"),
    "myriad-jax": ("0.2.0", "control and system identification (stochastic systems)"),
    "bamojax": ("0.4.3", "Bayesian modelling (MCMC, SMC)"),
    "jax-mppi": ("0.3.0", "model predictive path-integral control"),
    "pyrddlgym-jax": ("3.1", "planning by gradient (RDDL)"),
}

FRESH_2026_12J: dict[str, tuple[str, str]] = {
    "jaxagents": ("0.2.5", "RL agents"),
    "jaxnasium": ("0.1.1", "RL utilities and algorithms"),
    "smcjax": ("1.1.0", "sequential Monte Carlo, particle filters"),
    "jexplore": ("0.0.3", "MCMC ensemble sampler"),
    "pdmp-jax": ("0.1.1", "piecewise deterministic Markov process sampler"),
    "sapphire-jax": ("0.130", "galaxy population simulation"),
    "jaxlatt": ("0.0.7", "lattice field theory"),
    "phyjax2d": ("0.5.0", "2D physics simulation"),
    "jaxabm": ("0.1.5", "agent-based modelling"),
    "jax-morpho": ("0.3.0", "developmental morphogenesis simulation"),
    "clip-jax": ("0.0.6", "CLIP training"),
    "marathon-train": ("0.4.0", "training interatomic potentials"),
    "image-classification-jax": ("0.1.4", "image classification training"),
    "megalodon-jax": ("0.2.2", "long-context language model (Equinox)"),
    "jaxpike": ("0.1.4", "spiking neural networks"),
    "trajax": ("0.2.2", "trajectory optimisation and control"),
}

# An eleventh fresh set, pinned on 2026-12-06 (late) before any of its code was downloaded,
# linted or read: 20 projects, application-style where possible (training loops, samplers, RL,
# simulations), disjoint from every set above, from PINNED, from mujoco-mjx and from every
# project whose code is named in docs/precision/ (and from projects of the same authors).
# Chosen from the package index's names, versions, upload dates, summaries, declared
# dependencies, authors, home pages and sdist sizes only; latest non-prerelease sdist of each
# on the index that day (docs/precision/heldout-fresh-k.md says which candidates were left
# out and why).
FRESH_2026_12K: dict[str, tuple[str, str]] = {
    "pobax": ("0.0.1", "RL benchmark (partial observability)"),
    "rl-blox": ("0.5.7", "RL algorithms (building blocks)"),
    "lerax": ("0.0.5", "deep RL (Equinox)"),
    "alem-env": ("0.2.1", "multi-agent RL environment (open-ended coordination)"),
    "factoriax": ("0.1.0", "RL environment (grid world)"),
    "hamon": ("0.12.0", "thermal sampling of discrete energy-based models"),
    "bayinx": ("0.8.0", "Bayesian inference"),
    "ceridwen": ("1.0.13", "Bayesian SED fitting (nested sampling, HMC)"),
    "sbiax": ("0.0.57", "simulation-based inference"),
    "gallifrey": ("0.1.1", "Gaussian-process structure learning (time series)"),
    "pmpp": ("1.1.0", "cosmological particle-mesh simulation"),
    "rfx-fdtd": ("1.7.0", "electromagnetic FDTD simulation (RF)"),
    "vajax": ("0.1.5", "analog circuit simulation (Verilog-A)"),
    "openferro": ("0.3.0", "on-lattice atomistic dynamics"),
    "dantinox": ("0.4.14", "LLM training (autoregressive, diffusion, flow matching)"),
    "flaxspeaker": ("0.4.0", "speaker recognition training"),
    "reax": ("0.6.14", "training framework"),
    "avitai-artifex": ("0.1.15", "generative-model training (VAEs, GANs, diffusion, flows)"),
    "shardes": ("0.1.1", "sharded evolution strategies"),
    "jaddle": ("0.2.6", "first-order LP and convex solvers"),
}

# A twelfth fresh set, pinned on 2026-12-07 before any of its code was downloaded, linted or
# read: 20 projects taken from the candidates heldout-fresh-k.md left for a later set,
# application-style where possible (RL environments, samplers, simulations, optimisers,
# training loops) and across domains, disjoint from every set above, from PINNED, from
# mujoco-mjx and from every project whose code is named in docs/precision/. Chosen from the
# package index's names, versions, upload dates, summaries, declared dependencies, authors,
# home pages and sdist sizes only; latest non-prerelease sdist of each on the index that day
# (docs/precision/heldout-fresh-l.md says which candidates were left out and why).
FRESH_2026_12L: dict[str, tuple[str, str]] = {
    "mapox": ("0.2.0", "multi-agent RL environments (partially observable grid worlds)"),
    "gfnx": ("0.0.1", "GFlowNet environments and baselines"),
    "lynnx": ("0.0.1.post1", "RL environments and algorithms (Flax NNX)"),
    "rex-lib": ("0.0.12", "robotic RL environments (delays, graphs)"),
    "nashbench": ("0.2.0", "imperfect-information games for Nash solvers"),
    "bijx": ("1.3.2", "bijections and normalizing flows (NNX)"),
    "ornax": ("0.1.0", "affine-invariant HMC and nested sampling"),
    "laplax": ("0.0.2", "Laplace approximations"),
    "bunobee": ("0.0.5", "time-series forecasting (NumPyro)"),
    "inferix": ("0.1.10", "probabilistic inference interface (Equinox, BlackJAX)"),
    "latticebmjax": ("1.0.1", "lattice Boltzmann fluid simulation"),
    "abmax": ("0.0.8", "agent-based modelling"),
    "jaxonomy": ("3.4.1", "hybrid dynamical-system simulation (block diagrams, ODE/DAE)"),
    "ace-jax": ("0.4.1", "fitting ACE interatomic potentials"),
    "slsqp-jax": ("0.21.1", "SLSQP constrained optimisation"),
    "python-somax": ("1.0.1", "second-order optimisers (Optax)"),
    "kozax": ("0.1.5", "genetic programming"),
    "gradhpo": ("0.1.3", "gradient-based hyperparameter optimisation (bilevel)"),
    "xax": ("0.4.4", "experiment and training framework"),
    "nano-moe-jax": ("0.1.0", "mixture-of-experts language model training"),
}

# A thirteenth fresh set, pinned on 2026-12-07 (late) before any of its code was downloaded,
# linted or read: 20 projects, ten of them among the thirteen heldout-fresh-l.md looked up and
# left out and ten new ones from the package index (2025-2026 packages whose name or summary
# names JAX or a JAX library), application-style where possible (RL environments, samplers,
# simulations, optimisers, training loops), disjoint from every set above, from PINNED, from
# mujoco-mjx and from every project whose code is named in docs/precision/ (and from projects
# of the same authors). Chosen from the package index's names, versions, upload dates,
# summaries, declared dependencies, authors, home pages and sdist sizes only; latest
# non-prerelease sdist of each on the index that day (docs/precision/heldout-fresh-m.md says
# which candidates were left out and why).
FRESH_2026_12M: dict[str, tuple[str, str]] = {
    "safenax": ("0.5.2", "constrained RL environments (gymnax interface)"),
    "orbitalgym": ("0.1.0", "RL and bandit decision-making in orbital scenarios"),
    "envrax": ("0.1.10", "RL environment API and wrappers"),
    "qenvs": ("0.3.2", "quantum control environments for RL"),
    "tachys": ("0.1.6", "neural quantum states (variational Monte Carlo)"),
    "pygfmc": ("0.1.1", "Green's function Monte Carlo (quantum lattice models)"),
    "smcs": ("0.2.0", "sequential Monte Carlo for time series"),
    "sklearn-contrib-bde": ("1.0.2", "Bayesian deep ensembles (MCMC sampling)"),
    "jflows": ("0.6.0", "normalizing flows and Boltzmann generators"),
    "setu-sbi": ("0.1.0", "simulation-based inference"),
    "blayers": ("0.3.8", "Bayesian layers (NumPyro)"),
    "circulax": ("0.2.5", "differentiable circuit simulation"),
    "morphix": ("0.0.1", "trainable morphogenesis simulation"),
    "septal": ("0.2.0", "SQP nonlinear programming"),
    "mpax": ("0.2.4", "LP and QP solvers (mathematical programming)"),
    "mutax": ("0.5.5", "evolutionary optimisation"),
    "hyperoptax": ("0.2.0", "hyperparameter tuning"),
    "fabricpc": ("0.6.0", "predictive coding networks (training)"),
    "hinkypunk": ("0.1.1", "training framework (Lightning-like)"),
    "aetherlm": ("0.1.0", "TPU language-model training library"),
}

# A fourteenth fresh set, pinned on 2026-12-07 (later) before any of its code was downloaded,
# linted or read: 24 projects, sixteen of them among those heldout-fresh-m.md looked up and
# left for a later set and eight new ones from the package index (2025-2026 packages whose
# name or summary names JAX or a JAX library), application-style where possible (RL, samplers,
# simulations, optimisers, training loops), disjoint from every set above, from PINNED, from
# mujoco-mjx and from every project whose code is named in docs/precision/ (and from projects
# of the same authors). Chosen from the package index's names, versions, upload dates,
# summaries, declared dependencies, authors, home pages and sdist sizes only; latest
# non-prerelease sdist of each on the index that day (docs/precision/heldout-fresh-n.md says
# which candidates were left out and why). 24, the most a set holds, because most of them
# are small (the largest sdist is jaxfolio's, 3.4 MB; the rest are under 0.35 MB).
FRESH_2026_12N: dict[str, tuple[str, str]] = {
    "parallax-rl": ("0.4.0", "RL environment protocol and adapters"),
    "gamerl-ppo-jax": ("0.1.1", "PPO agent (RL training)"),
    "jaxdp": ("0.4.0", "exact dynamic programming for finite MDPs"),
    "gridvoting-jax": ("0.50.0", "spatial voting simulations (Markov chains)"),
    "jaxbm": ("0.1.0", "Boltzmann machine simulation and training"),
    "msvgd": ("0.2.0", "Stein variational gradient descent sampler"),
    "ximinf": ("0.0.213", "simulation-based inference (type Ia supernova cosmology)"),
    "diffusionjax": ("0.1.8", "diffusion models (training and sampling)"),
    "xwm": ("0.1.0", "predictive world models (training)"),
    "eventax": ("0.1.0", "continuous-time spiking neural networks (Diffrax)"),
    "nornax": ("0.0.1", "N-body Hermite integrators"),
    "jaxphys": ("0.1.1", "differentiable physics engine"),
    "dsg-jit": ("0.7.1", "differentiable scene graphs and SLAM"),
    "hyperbolix": ("1.4.0", "hyperbolic deep learning"),
    "lucidlearn": ("0.0.12", "training framework (miniai-style)"),
    "jax-relax": ("0.2.9", "recourse explanations (counterfactuals, model training)"),
    "jaxboost": ("0.5.0", "differentiable gradient boosting"),
    "jaxfolio": ("0.1.1", "portfolio optimisation (traditional and learning-based)"),
    "gradientdrift": ("0.2.0", "econometric model fitting"),
    "jax-cgd": ("1.0.4", "competitive gradient descent"),
    "distributed-kron": ("2.0.0", "PSGD Kron optimiser (distributed training)"),
    "psgdax": ("0.1.1", "PSGD optimiser"),
    "stam-optimizer": ("0.1.0", "adaptive-momentum optimiser family"),
    "deciax": ("0.1.2", "decision models on TPUs (JAX and Pallas)"),
}

# A fifteenth fresh set, pinned on 2026-12-07 (later) before any of its code was downloaded,
# linted or read: 20 projects, all new from the package index (2025-2026 packages whose name
# or summary names JAX or a JAX library), application-style where possible (RL, samplers,
# simulations, optimisers, training loops, scientific models), disjoint from every set above,
# from PINNED, from mujoco-mjx and from every project whose name appears in docs/precision/
# (and from projects of the same authors). Chosen from the package index's names, versions,
# upload dates, summaries, declared dependencies, authors, home pages and sdist sizes only;
# latest non-prerelease sdist of each on the index that day (docs/precision/heldout-fresh-o.md
# says which candidates were left out and why). The largest sdist is pycharge's (4.0 MB).
FRESH_2026_12O: dict[str, tuple[str, str]] = {
    "rl2xla": ("0.1.0", "RL (Gymnasium environments compiled to JAX, agent training)"),
    "cbfjax": ("0.2.0", "control barrier functions (safe control)"),
    "pydgens": ("1.3.1", "dynamic and differential game equilibrium solvers"),
    "frax": ("0.1.0", "robot kinematics and dynamics"),
    "vpet-abc": ("0.1.6", "likelihood-free PET kinetic modelling (ABC sampling)"),
    "jaxstar": ("0.1.1", "stellar parameter estimation (NumPyro)"),
    "dynaris": ("0.1.2", "dynamic linear models (Kalman filtering)"),
    "ode-filters": ("0.8.2", "probabilistic ODE solvers (Gaussian filtering)"),
    "jbubble": ("0.2.0", "microbubble dynamics simulation"),
    "jfuse": ("0.2.2", "differentiable hydrological modelling"),
    "pycharge": ("2.0.1", "electrodynamics simulation of moving charges"),
    "triangulax": ("0.1.0", "triangular-mesh simulations"),
    "synthpix": ("0.3.1", "synthetic particle image velocimetry images"),
    "jax-hf": ("2.2.1", "Hartree-Fock solver (continuum models)"),
    "pqls": ("0.1.2", "Lindblad solvers for quantum atomic systems"),
    "diffice-jax": ("1.0.2", "physics-informed networks for ice-shelf data assimilation"),
    "jxpinn": ("0.1.0", "physics-informed neural network framework (training)"),
    "dinox": ("0.5.6", "derivative-informed neural operators (training)"),
    "representax": ("0.0.2", "representation learning (training)"),
    "flashoptim-jax": ("0.1.0", "memory-efficient optimisers (Optax)"),
}

# A sixteenth fresh set, pinned on 2026-12-07 (later still) before any of its code was
# downloaded, linted or read: 20 projects, all new from the package index (2025-2026 packages
# whose name or summary names JAX or a JAX library; kalmax is the one left for a later set by
# heldout-fresh-o.md), application-style where possible (RL, samplers, simulations,
# optimisers, training loops, scientific models), disjoint from every set above, from PINNED,
# from mujoco-mjx and from every other project whose name appears in docs/precision/ (and
# from projects of the same authors). Chosen from the package index's names, versions, upload
# dates, summaries, declared dependencies, authors, home pages and sdist sizes only; latest
# non-prerelease sdist of each on the index that day (docs/precision/heldout-fresh-p.md says
# which candidates were left out and why). The largest sdist is linx-bbn's (0.91 MB).
FRESH_2026_12P: dict[str, tuple[str, str]] = {
    "kalmax": ("0.3.0", "Kalman-filter neural decoding"),
    "astrodynx": ("0.9.12", "astrodynamics (orbit propagation)"),
    "raddo": ("0.1.4", "spacecraft trajectory generation (QP-based optimisation)"),
    "gradsolve": ("0.2.1", "ensemble differential-equation solvers (adjoint)"),
    "ns-blowup": ("0.2.0", "Navier-Stokes simulation"),
    "reactix": ("0.1.1", "reactive transport modelling (PyMC inference)"),
    "jaxmat": ("0.0.4", "material constitutive modelling"),
    "jaxsso": ("1.0.1", "structural shape optimisation"),
    "voltax": ("0.1.0", "circuit simulation (SPICE-class)"),
    "difftb": ("2025.12.16", "density-functional tight binding"),
    "mkin4py": ("2.0.0", "microkinetic catalysis models"),
    "raytrax": ("0.6.0", "ECRH ray tracing for fusion plasmas"),
    "iactrace": ("0.11.0", "optical ray tracing for Cherenkov telescopes"),
    "microlux": ("0.3.0", "binary-lens microlensing"),
    "saltjax": ("0.2.0", "supernova light-curve fitting (SALT2/3)"),
    "linx-bbn": ("0.1.4", "Big Bang nucleosynthesis"),
    "jaxnu": ("0.2.4", "neutrino oscillation probabilities"),
    "evermore": ("0.4.2", "binned likelihood fits (high-energy physics)"),
    "jactus": ("0.2.0", "financial contract cash flows (ACTUS)"),
    "queuinx": ("0.0.3", "queueing network performance models"),
}

# A seventeenth fresh set, pinned on 2026-12-07 (later still) before any of its code was
# downloaded, linted or read: 20 projects from the package index (2025-2026 packages whose
# name or summary names JAX or a JAX library; contrax, tinydiffeq, jaxipm, strelka-fdtd,
# vlax1d and shine-wl are among the ten heldout-fresh-p.md left for a later set),
# application-style where possible (samplers, training loops, simulations, optimisers,
# scientific models), disjoint from every set above, from PINNED, from mujoco-mjx and from
# every other project whose name appears in docs/precision/ (and from projects of the same
# authors). Chosen from the package index's names, versions, upload dates, summaries,
# declared dependencies, authors, home pages and sdist sizes only; latest non-prerelease
# sdist of each on the index that day (docs/precision/heldout-fresh-q.md says which
# candidates were left out and why). The largest sdist is qarray's (4.97 MB).
FRESH_2026_12Q: dict[str, tuple[str, str]] = {
    "jax-moseq": ("0.3.7", "behavioural motif models (AR-HMM Gibbs sampling)"),
    "shine-wl": ("0.0.3", "weak-lensing shear inference (NumPyro)"),
    "gwax": ("0.1.0", "gravitational-wave population inference (normalising flows)"),
    "lfox": ("0.0.1", "lattice field theory (Monte Carlo)"),
    "nequip-eqx": ("0.1.0", "interatomic potential training (NequIP)"),
    "redback-jax": ("0.4.1", "electromagnetic transient modelling and inference"),
    "coreax": ("1.0.0", "coreset selection (kernel herding, Stein thinning)"),
    "contrax": ("0.1.0", "control theory (LQR, estimation, simulation)"),
    "tinydiffeq": ("2.6.1", "ODE/SDE/DAE solvers"),
    "jaxipm": ("0.0.1", "batched interior-point optimisation"),
    "strelka-fdtd": ("0.1.0", "photonic FDTD optimisation"),
    "vlax1d": ("0.1.1", "Vlasov-Poisson plasma solver"),
    "flapjax": ("1.3.13", "aeroelastic response solver"),
    "qarray": ("1.6.0", "quantum dot array simulation"),
    "jaxscape": ("0.0.13", "landscape connectivity modelling (ecology)"),
    "clm-ml-jax": ("0.1.0", "land-surface model (multi-layer canopy)"),
    "rheedium": ("2026.6.16", "RHEED simulation and reconstruction"),
    "jaxquantum": ("0.3.0", "quantum system simulation (circuits, bosonic codes)"),
    "chronax": ("0.1.1", "time-series forecasting"),
    "copulax": ("3.0.0", "copula and distribution fitting"),
}

# An eighteenth fresh set, pinned on 2026-12-07 (later still) before any of its code was
# downloaded, linted or read: 19 projects from the package index, the eighteen that
# heldout-fresh-q.md left for a later set (each checked again on the index that day) and
# pbhc, found as before (2025-2026 packages whose name or summary names JAX or a JAX
# library), application-style where possible (samplers, simulations, solvers, fitting and
# forecasting code), disjoint from every set above, from PINNED, from mujoco-mjx and from
# every other project whose name appears in docs/precision/ (and from projects of the same
# authors). Chosen from the package index's names, versions, upload dates, summaries,
# declared dependencies, authors, home pages and sdist sizes only; latest non-prerelease
# sdist of each on the index that day (docs/precision/heldout-fresh-r.md says which
# candidates were left out and why). The largest sdist is jaqsi's (4.14 MB).
FRESH_2026_12R: dict[str, tuple[str, str]] = {
    "difforb": ("0.1.1", "small-body orbit determination"),
    "autograv": ("0.1.1", "numerical relativity (autodiff of metrics)"),
    "umapjax": ("0.1.0", "UMAP embedding optimisation"),
    "tbats-jax": ("0.1.1", "multi-seasonal forecasting (TBATS)"),
    "streamax": ("0.4.0", "stellar stream generation"),
    "nlsq": ("0.7.6", "nonlinear least-squares curve fitting"),
    "jaxparrow": ("1.1.1", "ocean-current inversion (cyclogeostrophic balance)"),
    "jax-sn": ("0.1.0", "discrete-ordinates transport"),
    "jaxfmm": ("0.6.0", "fast multipole method"),
    "fastropop": ("0.1.0", "astrophysical population generation"),
    "jaqsi": ("0.1.1", "quantum circuit and pulse simulation"),
    "itlog": ("0.1.0", "discrete-choice models (estimation)"),
    "pattingalloang": ("0.0.2", "chaotic attractor analysis (Aizawa)"),
    "tarjuman": ("0.5.1", "NeuroML models on the Jaxley simulator"),
    "tmmax": ("1.1.4", "thin-film optics (transfer matrices)"),
    "norax": ("1.0.1", "neural operators"),
    "microjaxx": ("0.1.1", "microlensing light curves"),
    "hwosim": ("0.0.1", "HWO mission simulation (glue)"),
    "pbhc": ("0.1.0", "Bayesian hierarchical clustering on graphs"),
}

# A nineteenth fresh set, pinned on 2026-12-07 (later still) before any of its code was
# downloaded, linted or read: 20 projects from the package index (2024-2026 packages whose
# name or summary names JAX or a JAX library; the lists of projects left for a later set by
# earlier pages are used up, so every project is a new candidate), application-style where
# possible (training loops, samplers, simulations, scientific models), disjoint from every set
# above, from PINNED, from mujoco-mjx and from every other project whose name appears in
# docs/precision/ (and from projects of the same authors or organisations). Chosen from the
# package index's names, versions, upload dates, summaries, declared dependencies, authors,
# home pages and sdist sizes only; latest non-prerelease sdist of each on the index that day
# (docs/precision/heldout-fresh-s.md says which candidates were left out and why). The
# largest sdist is jaxglitches's (4.61 MB).
FRESH_2026_12S: dict[str, tuple[str, str]] = {
    "paltax": ("1.0.1", "strong-lensing simulation and neural posterior training"),
    "pantea": ("0.11.0", "machine-learned interatomic potentials (training)"),
    "mess-jax": ("0.1.2", "electronic structure (Hartree-Fock, DFT)"),
    "rheplicant": ("0.2.0", "radio-antenna instrument modelling (differentiable pipeline)"),
    "pylimid": ("0.2.0", "limited-memory influence diagrams (NumPyro)"),
    "pod-rbf": ("2.0.1", "reduced-order modelling (POD-RBF)"),
    "jaxglitches": ("0.1.0", "LISA glitch waveforms and parameter estimation"),
    "tenax-tn": ("0.8.3", "tensor networks (block-sparse, variational optimisation)"),
    "dense-armor": ("1.2.0", "online learning and command safety for robots"),
    "jaxhps": ("0.2", "elliptic PDE solver (hierarchical Poincare-Steklov)"),
    "jaxsne": ("0.3.1", "dimensionality reduction (SNE in curved spaces)"),
    "rema-jax": ("0.6.0", "galaxy-cluster finding (red-sequence matched filter)"),
    "qurveros": ("1.0.0", "quantum control (space-curve pulse design)"),
    "awen-dlmax": ("0.3.0", "dynamic linear models (forecasting)"),
    "discretax": ("0.3.0", "state-space sequence models"),
    "kompot": ("0.8.0", "single-cell differential abundance and expression"),
    "feedbax": ("0.1.2", "optimal feedback control (neural controllers, training)"),
    "generax": ("0.1.2", "generative models (flows, diffusion) and training"),
    "perihelion": ("0.0.1", "deep-learning training framework (Equinox)"),
    "jaxdpopt": ("0.0.1", "differentially private training"),
}

# A twentieth fresh set, pinned on 2026-12-07 (later still) before any of its code was
# downloaded, linted or read: 20 projects from the package index, taken from the 38
# candidates that docs/precision/heldout-fresh-s.md left for a later set (each checked again
# on the index that day), application-style where possible (training loops, samplers,
# simulations, scientific models), disjoint from every set above, from PINNED, from
# mujoco-mjx and from every other project whose name appears in docs/precision/ (and from
# projects of the same authors or organisations). Chosen from the package index's names,
# versions, upload dates, summaries, declared dependencies, authors, home pages and sdist
# sizes only; latest non-prerelease sdist of each on the index that day
# (docs/precision/heldout-fresh-t.md says which candidates were left out and why). The
# largest sdist is binary-galactica's (1.41 MB).
FRESH_2026_12T: dict[str, tuple[str, str]] = {
    "cryojax-eo": ("0.3.2", "cryo-EM ensemble optimisation (with molecular dynamics)"),
    "binary-galactica": ("0.6.0", "LISA galactic-binary waveforms"),
    "mwa-jaxbeam": ("0.2.0", "radio-telescope beam models (differentiable inference)"),
    "propax": ("0.3.0", "fluid thermodynamic properties (equation-of-state solvers)"),
    "zoomy-jax": ("0.1.0", "PDE simulation solver backend (free-surface flows)"),
    "iitx": ("0.1.0", "integrated information theory"),
    "jaxqtl": ("0.3.1", "eQTL mapping with count models (GLM fitting)"),
    "jax-pcmci": ("1.4.0", "causal discovery (PCMCI)"),
    "jaxfvld": ("0.1.0", "antibody structure prediction (Flax)"),
    "nflojax": ("0.1.1", "normalizing flows"),
    "extro-torx": ("0.0.3", "stochastic circuits and factor graphs (sampling)"),
    "starccato-sampler": ("0.0.15", "parameter estimation with a VAE signal model"),
    "moojoco": ("1.1.7", "MuJoCo and MJX simulation environments"),
    "cfrx": ("0.0.2", "counterfactual regret minimisation (games)"),
    "pyqg-jax": ("0.8.1", "quasigeostrophic ocean model"),
    "slax": ("0.0.1", "spiking and recurrent network training"),
    "jaxampler": ("0.0.7", "statistical sampling"),
    "mccube": ("0.0.3", "Markov chain cubature"),
    "jaxfm": ("0.1.3", "flow matching (training)"),
    "jax-control-algorithms": ("0.6.3", "state estimation, control and system identification"),
}

# A twenty-first fresh set, pinned on 2026-12-07 (later still) before any of its code was
# downloaded, linted or read: the 18 projects that docs/precision/heldout-fresh-t.md left for a
# later set (each checked again on the index that day; all 18 still meet the criteria, so all
# are kept), disjoint from every set above, from PINNED, from mujoco-mjx and from every other
# project whose name appears in docs/precision/ (and from projects of the same authors or
# organisations). Chosen from the package index's names, versions, upload dates, summaries,
# declared dependencies, authors, home pages and sdist sizes only; latest non-prerelease sdist
# of each on the index that day (docs/precision/heldout-fresh-u.md says how). Smaller libraries
# of formulas, kernels, layers or single algorithms, not application-style code; the largest
# sdist is fpt-jax's (0.19 MB).
FRESH_2026_12U: dict[str, tuple[str, str]] = {
    "jact": ("0.1.14", "transition probabilities of multi-state models"),
    "jdca": ("0.1.1", "direct-coupling analysis of protein sequences"),
    "cpax": ("2026.10.0", "computational physics library"),
    "qoraphase": ("0.2.0", "phase retrieval for coherent diffraction imaging"),
    "libsalty": ("0.1.0", "thermodynamics of water and electrolyte solutions"),
    "lightningbo": ("0.1.3", "Bayesian optimisation (Gaussian processes)"),
    "metalog-jax": ("2.2.0", "the metalog distribution (probability modelling)"),
    "fpt-jax": ("0.2.0", "Fermat path tracing"),
    "jax-sbgeom": ("0.1.1", "differentiable stellarator geometry"),
    "heal-swin-nnx": ("0.2.0", "spherical HEALPix Swin U-Net (Flax NNX)"),
    "dire-jax": ("0.2.1", "dimension reduction"),
    "gmmx": ("0.7", "Gaussian mixture models"),
    "tsnex": ("0.0.3", "t-SNE embedding"),
    "galtab": ("1.1.0", "galaxy counts-in-cells statistics (HOD)"),
    "fracjax": ("0.1.1", "fractal and econophysics time-series tools"),
    "wnmfx": ("1.0.3", "weighted non-negative matrix factorisation"),
    "synthax": ("0.2.2", "modular audio synthesiser"),
    "elrpy": ("0.0.5", "individual-level election inference"),
}

# A twenty-second fresh set, pinned on 2026-12-07 (later still) before any of its code was
# downloaded, linted or read: twenty new candidates (none named in this script, in
# scripts/fetch_corpus.py or in docs/precision/), found in the machine's list of the package
# index's names and summaries as for fresh-2026-12k and s, disjoint from every set above, from
# PINNED, from mujoco-mjx and from every other project whose name appears in docs/precision/
# (and from projects of the same authors or organisations). Chosen from the package index's
# names, versions, upload dates, summaries, declared dependencies, authors, home pages and
# sdist sizes only; latest non-prerelease sdist of each on the index that day
# (docs/precision/heldout-fresh-v.md says how). Application-style where possible (fitting
# pipelines, samplers, simulations, training code); the largest sdist is logpsplinepsd's
# (4.48 MB).
FRESH_2026_12V: dict[str, tuple[str, str]] = {
    "logpsplinepsd": ("0.2.0", "Bayesian power-spectral-density estimation (P-splines, sampling)"),
    "homodyne": ("2.23.3", "XPCS scattering analysis (least-squares and MCMC fitting)"),
    "irtk-jax": ("0.1.0", "mechanistic-interpretability research toolkit (Equinox)"),
    "fibermc": ("0.0.4", "differentiable Monte Carlo (simulation, topology optimisation)"),
    "bobbin": ("0.0.2", "training loops for Flax models"),
    "normix": ("0.4.5", "generalized hyperbolic distributions (EM fitting)"),
    "nanodl": ("0.0.0", "transformer models and their training"),
    "ptyrodactyl": ("2026.3.24", "ptychography reconstruction (differentiable optimisation)"),
    "jax-dips": ("0.2.1", "interfacial PDE solvers trained by neural bootstrapping"),
    "diff-biophys": ("0.2.1", "differentiable biophysical modelling"),
    "zlynx": ("0.1.11", "deep-learning library with training loops (Flax NNX)"),
    "teneva-jax": ("0.1.1", "tensor-train approximation, optimisation and sampling"),
    "jax-f16": ("0.0.2", "F-16 aircraft dynamics simulation"),
    "jnlr": ("0.1.2", "nonlinear forecast reconciliation and learning"),
    "raytrace-jax": ("0.0.2", "ray-tracing sampler (MCMC)"),
    "jax-lnn": ("0.1.3", "logical neural networks (neuro-symbolic training)"),
    "jax-chmc": ("0.0.7", "constrained Hamiltonian Monte Carlo on implicit manifolds"),
    "autodiscjax": ("0.4.1", "automated exploration and simulation of biological models"),
    "jit-env": ("0.1.5", "reinforcement-learning environment interface"),
    "vijax": ("0.0.3", "variational inference"),
}

# fresh-2026-12w: twenty more real JAX projects, PINNED on 2026-12-07 before any of their
# code was downloaded, linted or read; disjoint from the tuning corpus, from every earlier
# held-out set (fresh-2026-12v included), from mujoco-mjx and from every other project whose
# name appears in docs/precision/ (and from projects of the same authors or organisations).
# Chosen from the package index's names, versions, upload dates, summaries, declared
# dependencies, authors, home pages and sdist sizes only; latest non-prerelease sdist of each
# on the index that day (docs/precision/heldout-fresh-w.md says how). Nine come from the list
# fresh-2026-12v left for a later set, eleven are new candidates; application-style where
# possible; the largest sdist is neojax-operators' (2.84 MB).
FRESH_2026_12W: dict[str, tuple[str, str]] = {
    "janus-sim": ("0.0.1", "neural simulator (Equinox)"),
    "mamba2-jax": ("1.1.2", "Mamba2 state-space model, training and forecasting (Flax NNX)"),
    "rscope": ("0.0.8", "RL training visualiser (MuJoCo Playground, Brax)"),
    "oned-vlasov-poisson-jax-solver": ("0.1.1", "1D Vlasov-Poisson plasma simulation"),
    "jaxkuramoto": ("0.0.8", "Kuramoto oscillator simulation"),
    "cyscat-jax": ("0.1.0", "electromagnetic scattering by cylinder arrays (simulation)"),
    "bqskit-qfactor-jax": ("1.0.1", "quantum-circuit instantiation by optimisation"),
    "sfcalculator-jax": ("0.1.5", "differentiable crystallographic structure-factor pipeline"),
    "crayopt": ("0.5.0", "optimisation toolkit"),
    "tensorwrap": ("0.0.1.8", "high-level training interface"),
    "nerva-jax": ("1.0.0", "multilayer perceptrons and their training"),
    "flaxsr": ("0.0.7", "super-resolution models and training (Flax)"),
    "neojax-operators": ("0.3.0", "neural operators (Equinox)"),
    "mixed-precision-for-jax": ("0.1.8", "mixed-precision training toolbox"),
    "jaxfit": ("0.0.5", "nonlinear least-squares curve fitting"),
    "diff-em": ("0.1.2", "differentiable cryo-EM map fitting"),
    "jaxlogit": ("1.0.0", "simulated maximum-likelihood estimation of logit models"),
    "scikit-jax": ("0.0.2", "classical machine-learning algorithms"),
    "tnkm": ("0.1.0", "tensor-network kernel machines (training)"),
    "miniml-jax": ("0.11.0", "minimalistic machine-learning framework"),
}

# fresh-2026-12x: twenty more real JAX projects, PINNED on 2026-12-07 before any of their
# code was downloaded, linted or read; disjoint from the tuning corpus, from every earlier
# held-out set (fresh-2026-12w included), from mujoco-mjx and from every other project whose
# name appears in docs/precision/ (and from projects of the same authors or organisations).
# Chosen from the package index's names, versions, upload dates, summaries, declared
# dependencies, authors, home pages and sdist sizes only; latest non-prerelease sdist of each
# on the index that day (docs/precision/heldout-fresh-x.md says how). All twenty are new
# candidates (none from fresh-2026-12w's list left for a later set); application-style where
# possible (fitting, sampling, simulation, training); the largest sdist is geojax's (3.42 MB).
FRESH_2026_12X: dict[str, tuple[str, str]] = {
    "ars-dev": ("0.1.0", "adaptive rejection sampling (sampler)"),
    "glmax": ("0.1.1", "generalized linear modelling (fitting)"),
    "robustbase-py-optimized": ("0.1.1", "port of R's robustbase (robust statistics)"),
    "pyrsdr": ("0.1.2", "sufficient dimension reduction (fitting)"),
    "n4ax": ("0.1.1", "N4 bias-field correction of MR images (fitting)"),
    "qutip-jax": ("0.1.1", "JAX backend for QuTiP (quantum dynamics simulation)"),
    "jacscanomaly": ("0.5.2", "scan anomaly detection in time-series residuals (fitting)"),
    "mlgeometry-jax": ("2.2.2", "computational geometry with neural networks (Flax, Optax)"),
    "sajax": ("1.1", "stellar activity grid for exoplanets (simulation)"),
    "cosmologix": ("1.0.1", "cosmological distances in FLRW universes"),
    "rkhs": ("0.0.1", "kernel two-sample and conditional testing"),
    "geojax": ("0.1.1", "Riemannian geometry and manifold optimisation"),
    "linrax": ("0.3.0", "simplex-method linear-program solver"),
    "hyperiax": ("3.0.0", "tree traversals (evolutionary morphometry)"),
    "numpyro-schechter": ("1.1.0", "Schechter luminosity distribution for NumPyro (sampling)"),
    "decayamplitude": ("0.1.9", "particle-decay amplitude modelling"),
    "beamax": ("0.2.1", "multiscale Gaussian beams (wave simulation)"),
    "uncpy": ("0.3.0", "linear uncertainty propagation"),
    "harmonix": ("0.1.0", "interferometry of stellar surfaces (spherical harmonics)"),
    "javiche": ("0.0.6", "JAX wrapper of the ceviche photonics simulator"),
}

# fresh-2026-12y: twenty more real JAX projects, PINNED on 2026-12-07 before any of their
# code was downloaded, linted or read; disjoint from the tuning corpus, from every earlier
# held-out set (fresh-2026-12x included), from mujoco-mjx and from every other project whose
# name appears in docs/precision/ (and from projects of the same authors or organisations).
# Chosen from the package index's names, versions, upload dates, summaries, declared
# dependencies, authors, home pages and sdist sizes only; latest non-prerelease sdist of each
# on the index that day (docs/precision/heldout-fresh-y.md says how). The release window is
# widened to 2021-2022: fifteen are projects last released then (old-JAX API drift likely);
# five come from fresh-2026-12x's list left for a later set. Application-style where possible
# (training, fitting, sampling); the largest sdist is tesseract-jax's (0.068 MB).
FRESH_2026_12Y: dict[str, tuple[str, str]] = {
    "jaxdsp": ("0.3.1", "differentiable audio processors (browser client for real-time control)"),
    "jax-nca": ("0.1.2", "neural cellular automata (training)"),
    "variationalhmm": ("0.1.0", "variational hidden Markov model (fitting)"),
    "jaims": ("0.0.1", "affine-invariant MCMC sampling (sampler)"),
    "jaxfss": ("0.1.0", "finite-size scaling analysis (Flax, fitting)"),
    "bax": ("0.1.12", "trainer interface for Haiku (training loops)"),
    "solstice-jax": ("0.0.1", "experiment framework for Equinox (training loops)"),
    "jax-fid": ("0.0.2", "FID computation (Flax)"),
    "jax-models": ("0.0.5", "implementations of deep-learning research papers (Flax)"),
    "flax-vision-models": ("0.0.3", "vision models and their training (Flax)"),
    "astax": ("0.1.3", "neural-network library for research"),
    "x-mlps": ("0.5.0", "configurable MLPs (Haiku)"),
    "diffjeom": ("0.0.1", "differential geometry"),
    "palm-jax": ("0.1.2", "PaLM language model (Equinox)"),
    "flax-extra": ("0.0.2", "Trax-style combinators for Flax"),
    "classy-szlite": ("0.2.12", "differentiable cosmology with emulators"),
    "jax-pt": ("1.0.0", "perturbation-theory power spectra (FAST-PT in JAX)"),
    "gravlax": ("0.0.1", "training utilities"),
    "tesseract-jax": ("0.5.1", "runs Tesseracts (external components) inside JAX programs"),
    "inox": ("0.8.0", "neural-network library"),
}

DOCS = ROOT / "docs" / "precision" / "heldout.md"


@dataclass(frozen=True)
class HeldoutSet:
    """A named held-out set: its projects, the seed of its review sample, the docs page
    its tables go to and the results folder (under the download cache) of its run."""

    projects: dict[str, tuple[str, str]]
    seed: str
    docs: Path
    results: str


SETS: dict[str, HeldoutSet] = {
    "original": HeldoutSet(HELDOUT, "jaxlint-heldout-1", DOCS, "_results"),
    "fresh-2026-12": HeldoutSet(
        FRESH_2026_12,
        "jaxlint-heldout-fresh-2026-12",
        ROOT / "docs" / "precision" / "heldout-fresh.md",
        "_results-fresh-2026-12",
    ),
    "fresh-2026-12b": HeldoutSet(
        FRESH_2026_12B,
        "jaxlint-heldout-fresh-2026-12b",
        ROOT / "docs" / "precision" / "heldout-fresh-b.md",
        "_results-fresh-2026-12b",
    ),
    "fresh-2026-12c": HeldoutSet(
        FRESH_2026_12C,
        "jaxlint-heldout-fresh-2026-12c",
        ROOT / "docs" / "precision" / "heldout-fresh-c.md",
        "_results-fresh-2026-12c",
    ),
    "fresh-2026-12d": HeldoutSet(
        FRESH_2026_12D,
        "jaxlint-heldout-fresh-2026-12d",
        ROOT / "docs" / "precision" / "heldout-fresh-d.md",
        "_results-fresh-2026-12d",
    ),
    "fresh-2026-12e": HeldoutSet(
        FRESH_2026_12E,
        "jaxlint-heldout-fresh-2026-12e",
        ROOT / "docs" / "precision" / "heldout-fresh-e.md",
        "_results-fresh-2026-12e",
    ),
    "fresh-2026-12f": HeldoutSet(
        FRESH_2026_12F,
        "jaxlint-heldout-fresh-2026-12f",
        ROOT / "docs" / "precision" / "heldout-fresh-f.md",
        "_results-fresh-2026-12f",
    ),
    "fresh-2026-12g": HeldoutSet(
        FRESH_2026_12G,
        "jaxlint-heldout-fresh-2026-12g",
        ROOT / "docs" / "precision" / "heldout-fresh-g.md",
        "_results-fresh-2026-12g",
    ),
    "fresh-2026-12h": HeldoutSet(
        FRESH_2026_12H,
        "jaxlint-heldout-fresh-2026-12h",
        ROOT / "docs" / "precision" / "heldout-fresh-h.md",
        "_results-fresh-2026-12h",
    ),
    "fresh-2026-12i": HeldoutSet(
        FRESH_2026_12I,
        "jaxlint-heldout-fresh-2026-12i",
        ROOT / "docs" / "precision" / "heldout-fresh-i.md",
        "_results-fresh-2026-12i",
    ),
    "fresh-2026-12j": HeldoutSet(
        FRESH_2026_12J,
        "jaxlint-heldout-fresh-2026-12j",
        ROOT / "docs" / "precision" / "heldout-fresh-j.md",
        "_results-fresh-2026-12j",
    ),
    "fresh-2026-12k": HeldoutSet(
        FRESH_2026_12K,
        "jaxlint-heldout-fresh-2026-12k",
        ROOT / "docs" / "precision" / "heldout-fresh-k.md",
        "_results-fresh-2026-12k",
    ),
    "fresh-2026-12l": HeldoutSet(
        FRESH_2026_12L,
        "jaxlint-heldout-fresh-2026-12l",
        ROOT / "docs" / "precision" / "heldout-fresh-l.md",
        "_results-fresh-2026-12l",
    ),
    "fresh-2026-12m": HeldoutSet(
        FRESH_2026_12M,
        "jaxlint-heldout-fresh-2026-12m",
        ROOT / "docs" / "precision" / "heldout-fresh-m.md",
        "_results-fresh-2026-12m",
    ),
    "fresh-2026-12n": HeldoutSet(
        FRESH_2026_12N,
        "jaxlint-heldout-fresh-2026-12n",
        ROOT / "docs" / "precision" / "heldout-fresh-n.md",
        "_results-fresh-2026-12n",
    ),
    "fresh-2026-12o": HeldoutSet(
        FRESH_2026_12O,
        "jaxlint-heldout-fresh-2026-12o",
        ROOT / "docs" / "precision" / "heldout-fresh-o.md",
        "_results-fresh-2026-12o",
    ),
    "fresh-2026-12p": HeldoutSet(
        FRESH_2026_12P,
        "jaxlint-heldout-fresh-2026-12p",
        ROOT / "docs" / "precision" / "heldout-fresh-p.md",
        "_results-fresh-2026-12p",
    ),
    "fresh-2026-12q": HeldoutSet(
        FRESH_2026_12Q,
        "jaxlint-heldout-fresh-2026-12q",
        ROOT / "docs" / "precision" / "heldout-fresh-q.md",
        "_results-fresh-2026-12q",
    ),
    "fresh-2026-12r": HeldoutSet(
        FRESH_2026_12R,
        "jaxlint-heldout-fresh-2026-12r",
        ROOT / "docs" / "precision" / "heldout-fresh-r.md",
        "_results-fresh-2026-12r",
    ),
    "fresh-2026-12s": HeldoutSet(
        FRESH_2026_12S,
        "jaxlint-heldout-fresh-2026-12s",
        ROOT / "docs" / "precision" / "heldout-fresh-s.md",
        "_results-fresh-2026-12s",
    ),
    "fresh-2026-12t": HeldoutSet(
        FRESH_2026_12T,
        "jaxlint-heldout-fresh-2026-12t",
        ROOT / "docs" / "precision" / "heldout-fresh-t.md",
        "_results-fresh-2026-12t",
    ),
    "fresh-2026-12u": HeldoutSet(
        FRESH_2026_12U,
        "jaxlint-heldout-fresh-2026-12u",
        ROOT / "docs" / "precision" / "heldout-fresh-u.md",
        "_results-fresh-2026-12u",
    ),
    "fresh-2026-12v": HeldoutSet(
        FRESH_2026_12V,
        "jaxlint-heldout-fresh-2026-12v",
        ROOT / "docs" / "precision" / "heldout-fresh-v.md",
        "_results-fresh-2026-12v",
    ),
    "fresh-2026-12w": HeldoutSet(
        FRESH_2026_12W,
        "jaxlint-heldout-fresh-2026-12w",
        ROOT / "docs" / "precision" / "heldout-fresh-w.md",
        "_results-fresh-2026-12w",
    ),
    "fresh-2026-12x": HeldoutSet(
        FRESH_2026_12X,
        "jaxlint-heldout-fresh-2026-12x",
        ROOT / "docs" / "precision" / "heldout-fresh-x.md",
        "_results-fresh-2026-12x",
    ),
    "fresh-2026-12y": HeldoutSet(
        FRESH_2026_12Y,
        "jaxlint-heldout-fresh-2026-12y",
        ROOT / "docs" / "precision" / "heldout-fresh-y.md",
        "_results-fresh-2026-12y",
    ),
}
DEFAULT_SET = "original"

NUMBERS_START = "<!-- heldout:numbers:start (written by scripts/heldout.py --update-docs) -->"
NUMBERS_END = "<!-- heldout:numbers:end -->"
VERDICTS_START = "<!-- heldout:verdicts:start (written by scripts/heldout.py --verdicts) -->"
VERDICTS_END = "<!-- heldout:verdicts:end -->"
VERDICTS = ("true", "false alarm", "debatable")
SAMPLE_SIZE = 100
SAMPLE_MINIMUM = 5
TRACED_FAMILIES = ("JAX1", "JAX2", "JAX3", "JAX4")
"""The traced-code families (host/device, control flow, PRNG, compilation), judged on their
own too (``--traced-sample``)."""
SUPPLEMENT = "T"
"""Prefix of the numbers of the supplementary traced-family rows (``T1``, ``T2``...)."""
SEED = SETS[DEFAULT_SET].seed
CONTEXT = 4
TEST_FOLDERS = frozenset({"tests", "test", "testing"})


def heldout_dir() -> Path:
    env = os.environ.get("JAXLINT_HELDOUT")
    return Path(env) if env else Path.home() / ".cache" / "jaxlint-heldout"


# ---------------------------------------------------------------- pure parts


def count_lines(data: bytes) -> int:
    """Lines of a file: its newlines, plus a last line that has none."""
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def is_test_path(relpath: str) -> bool:
    """Test code by path, as jaxlint's ``analysis.testcode.is_test_path`` sees it."""
    parts = [p for p in relpath.replace("\\", "/").split("/") if p]
    if not parts:
        return False
    stem = parts[-1].rsplit(".", 1)[0]
    if stem.startswith("test_") or stem.endswith("_test") or stem == "conftest":
        return True
    return any(part in TEST_FOLDERS for part in parts[:-1])


def project_of(relpath: str) -> str:
    """``jax-md-0.2.29/jax_md/x.py`` -> ``jax-md``: the copy's first folder, less its version."""
    first = relpath.replace("\\", "/").split("/", 1)[0]
    for held in SETS.values():
        for name, (version, _) in held.projects.items():
            if first == f"{name}-{version}":
                return name
    return first.rsplit("-", 1)[0]


def per_1000(count: int, lines: int) -> str:
    return f"{count * 1000 / lines:.3f}" if lines else "-"


def allocate(counts: dict[str, int], size: int, minimum: int = SAMPLE_MINIMUM) -> dict[str, int]:
    """How many findings to draw per code: all if there are at most ``size``; else every
    code gets ``min(count, minimum)`` and the rest of ``size`` goes to the codes in
    proportion to their counts (largest remainder, ties by code). The minimums win over
    ``size`` when there are more than ``size / minimum`` codes."""
    total = sum(counts.values())
    if total <= size:
        return dict(counts)
    quota = {code: min(n, minimum) for code, n in counts.items()}
    while True:
        left = size - sum(quota.values())
        room = {code: counts[code] - quota[code] for code in counts if counts[code] > quota[code]}
        if left <= 0 or not room:
            return quota
        weight = sum(room.values())
        shares = {code: left * room[code] / weight for code in room}
        granted = {code: min(room[code], int(shares[code])) for code in room}
        if sum(granted.values()) == 0:
            order = sorted(room, key=lambda c: (-(shares[c] - int(shares[c])), -room[c], c))
            for code in order[:left]:
                quota[code] += 1
            return quota
        for code, n in granted.items():
            quota[code] += n


def _finding_key(f: dict) -> tuple:
    return (f["file"], f["line"], f["column"], f["code"], f["message"])


def draw_sample(
    findings: list[dict], size: int = SAMPLE_SIZE, seed: str = SEED, minimum: int = SAMPLE_MINIMUM
) -> list[dict]:
    """A deterministic sample, stratified per code: the same findings and seed give the
    same sample, whatever their order. Sorted by code, then file and line."""
    by_code: dict[str, list[dict]] = {}
    for f in sorted(findings, key=_finding_key):
        by_code.setdefault(f["code"], []).append(f)
    quota = allocate({c: len(fs) for c, fs in by_code.items()}, size, minimum)
    sample: list[dict] = []
    for code in sorted(by_code):
        rng = random.Random(f"{seed}:{code}")
        picked = rng.sample(by_code[code], quota[code])
        sample.extend(sorted(picked, key=_finding_key))
    return sample


def is_traced_family(code: str) -> bool:
    return code.startswith(TRACED_FAMILIES)


def draw_traced_supplement(
    findings: list[dict], sample: list[dict], size: int, seed: str = SEED
) -> list[dict]:
    """Up to ``size`` more findings of the traced families (JAX1xx-JAX4xx), none of them in
    ``sample``, stratified per code like :func:`draw_sample` (seed ``<seed>-traced``): the
    main sample's traced rows and these together judge those families on their own. Their
    rows are numbered ``T1``, ``T2``... and count only in that judgement, so the main
    sample's figures stay those of a sample of all findings."""
    taken = {_finding_key(f) for f in sample}
    rest = [f for f in findings if is_traced_family(f["code"]) and _finding_key(f) not in taken]
    return draw_sample(rest, size, f"{seed}-traced") if size > 0 and rest else []


def _cell(text: object) -> str:
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").strip()


def sample_table(sample: list[dict], prefix: str = "") -> str:
    """The review table: numbered rows, verdict and reason left empty for the reviewer."""
    rows = ["| # | file:line | code | message | verdict | reason |", "|---|---|---|---|---|---|"]
    for i, f in enumerate(sample, 1):
        rows.append(
            f"| {prefix}{i} | {_cell(f['file'])}:{f['line']} | {f['code']} |"
            f" {_cell(f['message'])} | | |"
        )
    return "\n".join(rows)


def context_lines(lines: list[str], line: int, radius: int = CONTEXT) -> list[str]:
    """The source around a 1-based ``line``, numbered, the finding's line marked ``>``."""
    start, end = max(1, line - radius), min(len(lines), line + radius)
    return [
        f"{'>' if n == line else ' '}{n:6d}  {lines[n - 1].rstrip()}" for n in range(start, end + 1)
    ]


def context_markdown(numbered: list[tuple[str, dict]], sources: dict[str, list[str]]) -> str:
    out = ["# Held-out review sample: source context", ""]
    for n, f in numbered:
        out += [f"## {n}. {f['file']}:{f['line']}:{f['column']} {f['code']}", "", f["message"], ""]
        out += ["```python", *context_lines(sources.get(f["file"], []), f["line"]), "```", ""]
    return "\n".join(out)


_FIX_FILE = re.compile(r"^- (.+):$")
_FIX_COUNT = re.compile(r"^\s+(\d+) × (\w+)")


def parse_show_fixes(text: str) -> dict[str, Counter[str]]:
    """``--show-fixes`` output -> {file: Counter(code: fixes applied)}."""
    fixed: dict[str, Counter[str]] = {}
    current = None
    for line in text.splitlines():
        if m := _FIX_FILE.match(line):
            current = m.group(1)
            fixed.setdefault(current, Counter())
        elif (m := _FIX_COUNT.match(line)) and current is not None:
            fixed[current][m.group(2)] += int(m.group(1))
        elif not line.startswith(" "):
            current = None
    return fixed


def parse_verdicts(markdown: str, supplement: bool = False) -> list[tuple[str, str]]:
    """The (code, verdict) of every filled row of a review table; rows without a verdict
    are skipped. A verdict outside true / false alarm / debatable is an error. The rows of
    the main sample, or with ``supplement`` those of the traced-family supplement
    (numbered ``T1``...)."""
    rows = []
    for line in markdown.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) != 6 or not re.fullmatch(r"JAX\d+", cells[2]):
            continue
        if cells[0].startswith(SUPPLEMENT) != supplement:
            continue
        verdict = cells[4].lower()
        if not verdict:
            continue
        if verdict not in VERDICTS:
            raise ValueError(f"row {cells[0]}: verdict {cells[4]!r} is not one of {VERDICTS}")
        rows.append((cells[2], verdict))
    return rows


def traced_verdicts_table(main: list[tuple[str, str]], extra: list[tuple[str, str]]) -> str:
    """The traced families judged on their own: the main sample's JAX1xx-JAX4xx rows and
    the supplement's, per family and together."""
    rows = [(code, v) for code, v in main if is_traced_family(code)] + list(extra)
    out = [
        "| Family | Read | True | False alarm | Debatable | True % | False alarm % |",
        "|---|---|---|---|---|---|---|",
    ]
    total: Counter[str] = Counter()
    for family in TRACED_FAMILIES:
        c = Counter(v for code, v in rows if code.startswith(family))
        if c:
            total.update(c)
            out.append(_verdict_row(f"{family}xx", c))
    out.append(_verdict_row("JAX1xx-JAX4xx", total))
    return "\n".join(out)


def verdicts_table(rows: list[tuple[str, str]]) -> str:
    per_code: dict[str, Counter[str]] = {}
    for code, verdict in rows:
        per_code.setdefault(code, Counter())[verdict] += 1
    out = [
        "| Code | Read | True | False alarm | Debatable | True % | False alarm % |",
        "|---|---|---|---|---|---|---|",
    ]
    total: Counter[str] = Counter()
    for code in sorted(per_code):
        c = per_code[code]
        total.update(c)
        out.append(_verdict_row(code, c))
    out.append(_verdict_row("all", total))
    return "\n".join(out)


def _verdict_row(label: str, c: Counter[str]) -> str:
    n = sum(c.values())
    pct = (lambda k: f"{100 * c[k] / n:.0f}%") if n else (lambda k: "-")
    return (
        f"| {label} | {n} | {c['true']} | {c['false alarm']} | {c['debatable']} |"
        f" {pct('true')} | {pct('false alarm')} |"
    )


def projects_table(
    findings: list[dict],
    lines: dict[str, int],
    files: dict[str, int],
    names: list[str],
    catalogue: dict[str, tuple[str, str]] = HELDOUT,
) -> str:
    """One row per project of ``names`` (version and domain from ``catalogue``), and a total."""
    per_project = Counter(f["project"] for f in findings)
    per_project_codes: dict[str, Counter[str]] = {}
    tests = Counter(f["project"] for f in findings if f["test"])
    for f in findings:
        per_project_codes.setdefault(f["project"], Counter())[f["code"]] += 1
    out = [
        "| Project | Version | Domain | Files | Lines | Findings | In test files"
        " | Per 1,000 lines | Codes (most first) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name in names:
        version, domain = catalogue.get(name, ("?", "?"))
        n = per_project[name]
        codes = ", ".join(
            f"{c} {k}" for c, k in per_project_codes.get(name, Counter()).most_common()
        )
        out.append(
            f"| {name} | {version} | {domain} | {files[name]} | {lines[name]} | {n} |"
            f" {tests[name]} | {per_1000(n, lines[name])} | {codes} |"
        )
    total_lines = sum(lines[n] for n in names)
    out.append(
        f"| all | | | {sum(files[n] for n in names)} | {total_lines} | {len(findings)} |"
        f" {sum(tests.values())} | {per_1000(len(findings), total_lines)} | |"
    )
    return "\n".join(out)


def codes_table(
    findings: list[dict], total_lines: int, known: dict[str, tuple[str, bool]], sampled: Counter
) -> str:
    per_code = Counter(f["code"] for f in findings)
    tests = Counter(f["code"] for f in findings if f["test"])
    projects: dict[str, Counter[str]] = {}
    for f in findings:
        projects.setdefault(f["code"], Counter())[f["project"]] += 1
    out = [
        "| Code | Name | Findings | In test files | Per 1,000 lines | Sampled | Projects |",
        "|---|---|---|---|---|---|---|",
    ]
    defaults = {code for code, (_, on) in known.items() if on}
    for code in sorted(set(per_code) | defaults):
        name = known.get(code, ("parse-error" if code == "JAX000" else "?", True))[0]
        spread = ", ".join(f"{p} {n}" for p, n in projects.get(code, Counter()).most_common())
        out.append(
            f"| {code} | {name} | {per_code[code]} | {tests[code]} |"
            f" {per_1000(per_code[code], total_lines)} | {sampled[code]} | {spread} |"
        )
    out.append(
        f"| all | | {len(findings)} | {sum(tests.values())} |"
        f" {per_1000(len(findings), total_lines)} | {sum(sampled.values())} | |"
    )
    return "\n".join(out)


def fixes_table(runs: dict[str, dict]) -> str:
    """``runs``: {"safe"/"unsafe": {"fixes": Counter, "files": Counter, "broken": Counter}}."""
    codes = sorted(set().union(*(set(r["fixes"]) | set(r["files"]) for r in runs.values())))
    out = [
        "| Code | Safe run: fixes | files | files not compiling"
        " | Unsafe run: fixes | files | files not compiling |",
        "|---|---|---|---|---|---|---|",
    ]
    safe, unsafe = runs["safe"], runs["unsafe"]
    for code in [*codes, "all"]:
        cells = []
        for run in (safe, unsafe):
            if code == "all":
                cells += [sum(run["fixes"].values()), run["changed"], run["broken_files"]]
            else:
                cells += [run["fixes"][code], run["files"][code], run["broken"][code]]
        out.append(f"| {code} | " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(out)


def replace_section(text: str, start: str, end: str, body: str) -> str:
    """Put ``body`` between the ``start``/``end`` markers (appending them if missing)."""
    section = f"{start}\n{body}\n{end}"
    if start in text and end in text:
        head, rest = text.split(start, 1)
        _, tail = rest.split(end, 1)
        return head + section + tail
    return text.rstrip("\n") + "\n\n" + section + "\n"


# ---------------------------------------------------------------- running


def copy_python_files(src: Path, dest: Path) -> tuple[int, int]:
    """Copy the ``.py`` files (no links); return (files, lines)."""
    files = lines = 0
    for path in sorted(src.rglob("*.py")):
        if not path.is_file() or path.is_symlink():
            continue
        target = dest / path.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = path.read_bytes()
        target.write_bytes(data)
        files += 1
        lines += count_lines(data)
    return files, lines


def compiles(data: bytes, name: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(data, name, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def run_jaxlint(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "jaxlint", "check", *args]
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, check=False)


def crash_lines(run: subprocess.CompletedProcess[str]) -> list[str]:
    errors = [line for line in run.stderr.splitlines() if line.startswith("error:")]
    if run.returncode == 2 and not errors:
        errors = [f"exit code 2: {run.stderr.strip().splitlines()[-1:]}"]
    return errors


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def fix_run(corpus: Path, work: Path, label: str, flags: list[str], jobs: list[str]) -> dict:
    """Fix a fresh copy of the corpus; per code fixes, changed files, files that no
    longer compile; the diff text."""
    tree = work / f"fix-{label}"
    shutil.copytree(corpus, tree / "corpus")
    before = snapshot(tree / "corpus")
    run = run_jaxlint(
        [*flags, "--show-fixes", "--no-cache", "--exit-zero", "--output-format", "concise"]
        + [*jobs, "corpus"],
        tree,
    )
    after = snapshot(tree / "corpus")
    fixed = parse_show_fixes(run.stdout)
    fixes: Counter[str] = Counter()
    files: Counter[str] = Counter()
    broken: Counter[str] = Counter()
    diff: list[str] = []
    changed = broken_files = 0
    for rel, data in after.items():
        old = before.get(rel, b"")
        if data == old:
            continue
        changed += 1
        codes = fixed.get(f"corpus/{rel}", Counter())
        ok = compiles(data, rel) or not compiles(old, rel)
        broken_files += not ok
        for code in codes:
            files[code] += 1
            broken[code] += not ok
        diff.extend(
            difflib.unified_diff(
                old.decode("utf-8", "replace").splitlines(keepends=True),
                data.decode("utf-8", "replace").splitlines(keepends=True),
                f"a/{rel}",
                f"b/{rel}",
            )
        )
        if not diff[-1].endswith("\n"):
            diff.append("\n")
    for counts in fixed.values():
        fixes.update(counts)
    warns = [line for line in run.stderr.splitlines() if line.startswith("warning:")]
    return {
        "fixes": fixes,
        "files": files,
        "broken": broken,
        "changed": changed,
        "broken_files": broken_files,
        "warnings": len(warns),
        "crashes": crash_lines(run),
        "diff": "".join(diff),
    }


def load_findings(stdout: str, corpus: Path) -> list[dict]:
    findings = []
    for raw in json.loads(stdout or "[]"):
        path = Path(raw["filename"])
        rel = path.relative_to(corpus) if path.is_absolute() else path.relative_to("corpus")
        rel_s = rel.as_posix()
        inner = rel_s.split("/", 1)[1] if "/" in rel_s else rel_s
        findings.append(
            {
                "file": rel_s,
                "line": raw["location"]["row"],
                "column": raw["location"]["column"],
                "code": raw["code"],
                "name": raw.get("name"),
                "message": raw["message"],
                "project": project_of(rel_s),
                "test": is_test_path(inner),
                "fix": (raw.get("fix") or {}).get("applicability"),
            }
        )
    return sorted(findings, key=_finding_key)


def rule_names() -> dict[str, tuple[str, bool]]:
    from jaxlint.rules import all_rules

    return {r.code: (r.name, r.default_enabled) for r in all_rules()}


def numbers_section(summary: dict, projects: str, codes: str, fixes: str) -> str:
    return "\n".join(
        [
            f"Run of {summary['date']}, jaxlint at commit `{summary['commit']}`:"
            f" {summary['files']} files, {summary['lines']} lines in"
            f" {len(summary['projects'])} projects; {summary['findings']} findings with the"
            f" default rules ({summary['per_1000']} per 1,000 lines); review sample of"
            f" {summary['sample']} findings (seed `{summary['seed']}`).",
            "",
            "### Per project",
            "",
            projects,
            "",
            "### Per code (default rules)",
            "",
            codes,
            "",
            "### Fixes (default rules; a fresh copy for each run)",
            "",
            fixes,
            "",
            f"Crashes: {summary['crashes']}. Fix warnings (fixes dropped by jaxlint):"
            f" safe run {summary['fix_warnings']['safe']},"
            f" unsafe run {summary['fix_warnings']['unsafe']}.",
        ]
    )


def jaxlint_revision() -> str:
    """The commit of the checkout jaxlint is imported from (``+changes`` if it has
    uncommitted changes to tracked files), or ``unknown``."""
    import jaxlint

    where = Path(jaxlint.__file__).resolve().parent.parent

    def git(*args: str) -> str:
        try:
            run = subprocess.run(["git", *args], cwd=where, capture_output=True, text=True)
        except OSError:
            return ""
        return run.stdout.strip() if run.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD")
    if not commit:
        return "unknown"
    return commit + ("+changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--set",
        dest="set_name",
        choices=list(SETS),
        default=DEFAULT_SET,
        help=f"the named held-out set (default: {DEFAULT_SET}, the set `make heldout` measures)",
    )
    parser.add_argument("--projects", help="comma-separated subset of the set's projects")
    parser.add_argument("--jobs", default="0", help="jaxlint -j (default 0: all cores)")
    parser.add_argument(
        "--out",
        type=Path,
        help="results folder (default: <cache>/_results for the original set,"
        " <cache>/_results-<set> for the others)",
    )
    parser.add_argument("--sample-size", type=int, default=SAMPLE_SIZE)
    parser.add_argument("--seed", help="the sample's seed (default: the set's own)")
    parser.add_argument(
        "--traced-sample",
        type=int,
        default=0,
        help="also draw this many more JAX1xx-JAX4xx findings (rows T1...), so that the"
        " traced-code families are judged on their own with enough findings",
    )
    parser.add_argument(
        "--revision", help="the jaxlint revision to name in the tables (default: from git)"
    )
    parser.add_argument("--no-fix", action="store_true", help="skip the two fix runs")
    parser.add_argument(
        "--update-docs",
        action="store_true",
        help="rewrite the tables in the set's docs page (original: docs/precision/heldout.md)",
    )
    parser.add_argument(
        "--verdicts",
        type=Path,
        help="a filled review table (sample.md): write its verdict counts into the docs, then exit",
    )
    args = parser.parse_args(argv)
    held = SETS[args.set_name]
    docs = held.docs
    seed = args.seed or held.seed

    if args.verdicts is not None:
        filled = args.verdicts.read_text()
        rows = parse_verdicts(filled)
        table = verdicts_table(rows)
        extra = parse_verdicts(filled, supplement=True)
        if extra:
            table += (
                "\n\nThe traced-code families on their own (the sample's JAX1xx-JAX4xx rows"
                " and the supplementary rows T1...):\n\n" + traced_verdicts_table(rows, extra)
            )
        print(table)
        review = [line for line in filled.splitlines() if line.startswith("|")]
        table += "\n\nThe sample, as judged:\n\n" + "\n".join(review)
        text = docs.read_text() if docs.exists() else "# Held-out precision\n"
        docs.write_text(replace_section(text, VERDICTS_START, VERDICTS_END, table))
        print(f"updated {docs}")
        return 0

    names = args.projects.split(",") if args.projects else list(held.projects)
    unknown = [n for n in names if n not in held.projects]
    if unknown:
        parser.error(
            f"unknown project(s) in set {args.set_name}: {', '.join(unknown)}"
            f" (its projects: {', '.join(held.projects)})"
        )
    if args.sample_size < 1:
        parser.error("--sample-size must be at least 1")
    cache = heldout_dir()
    out = args.out or cache / held.results
    out.mkdir(parents=True, exist_ok=True)

    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="jaxlint-heldout-"))
    try:
        corpus = work / "corpus"
        files: dict[str, int] = {}
        lines: dict[str, int] = {}
        for name in names:
            version = held.projects[name][0]
            src = fetch(name, version, cache)
            files[name], lines[name] = copy_python_files(src, corpus / f"{name}-{version}")
        total_lines = sum(lines.values())
        print(f"held-out: {sum(files.values())} files, {total_lines} lines, {len(names)} projects")

        jobs = ["-j", str(args.jobs)]
        step = time.perf_counter()
        check = run_jaxlint(
            ["--no-cache", "--output-format", "json", "--exit-zero", *jobs, "corpus"], work
        )
        print(f"check: exit {check.returncode} in {time.perf_counter() - step:.0f} s")
        crashes = crash_lines(check)
        findings = load_findings(check.stdout, corpus)
        sample = draw_sample(findings, args.sample_size, seed)
        extra = draw_traced_supplement(findings, sample, args.traced_sample, seed)
        sources = {
            f["file"]: (corpus / f["file"]).read_text(errors="replace").splitlines()
            for f in sample + extra
        }
        (out / "findings.json").write_text(json.dumps(findings, indent=1) + "\n")
        supplement = (
            "\n\n## Traced-code families, supplementary rows\n\nMore JAX1xx-JAX4xx findings,"
            " not in the sample above: they count only in the judgement of those families.\n\n"
            + sample_table(extra, SUPPLEMENT)
            if extra
            else ""
        )
        (out / "sample.md").write_text(
            "# Held-out review sample\n\nVerdicts: true / false alarm / debatable, one line of"
            " reason each. Count them with `python scripts/heldout.py --verdicts"
            " sample.md`.\n\n" + sample_table(sample) + supplement + "\n"
        )
        numbered = [(str(i), f) for i, f in enumerate(sample, 1)]
        numbered += [(f"{SUPPLEMENT}{i}", f) for i, f in enumerate(extra, 1)]
        (out / "sample-context.md").write_text(context_markdown(numbered, sources))
        (out / "sample-context.json").write_text(
            json.dumps(
                [
                    {**f, "number": n, "context": context_lines(sources[f["file"]], f["line"])}
                    for n, f in numbered
                ],
                indent=1,
            )
            + "\n"
        )

        runs: dict[str, dict] = {}
        empty = {"fixes": Counter(), "files": Counter(), "broken": Counter()}
        for label, flags in (
            ("safe", ["--fix", "--no-unsafe-fixes"]),
            ("unsafe", ["--fix", "--unsafe-fixes"]),
        ):
            if args.no_fix:
                runs[label] = {**empty, "changed": 0, "broken_files": 0, "warnings": 0}
                continue
            step = time.perf_counter()
            runs[label] = fix_run(corpus, work, label, flags, jobs)
            crashes += [f"{label} fix: {c}" for c in runs[label].pop("crashes")]
            (out / f"fixes-{label}.diff").write_text(runs[label].pop("diff"))
            print(
                f"fix ({label}): {sum(runs[label]['fixes'].values())} fixes,"
                f" {runs[label]['changed']} files changed,"
                f" {runs[label]['broken_files']} no longer compile,"
                f" in {time.perf_counter() - step:.0f} s"
            )

        known = rule_names()
        sampled = Counter(f["code"] for f in sample)
        summary = {
            "date": time.strftime("%Y-%m-%d", time.gmtime()),
            "commit": args.revision or jaxlint_revision(),
            "set": args.set_name,
            "projects": {n: held.projects[n][0] for n in names},
            "files": sum(files.values()),
            "lines": total_lines,
            "findings": len(findings),
            "per_1000": per_1000(len(findings), total_lines),
            "in_test_files": sum(f["test"] for f in findings),
            "per_code": dict(sorted(Counter(f["code"] for f in findings).items())),
            "per_project": {n: sum(f["project"] == n for f in findings) for n in names},
            "lines_per_project": lines,
            "sample": len(sample),
            "traced_supplement": len(extra),
            "seed": seed,
            "fixes": {
                label: {
                    "per_code": dict(sorted(r["fixes"].items())),
                    "changed_files": r["changed"],
                    "files_not_compiling": r["broken_files"],
                }
                for label, r in runs.items()
            },
            "fix_warnings": {label: r["warnings"] for label, r in runs.items()},
            "crashes": len(crashes),
            "seconds": round(time.perf_counter() - started),
        }
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        projects = projects_table(findings, lines, files, names, held.projects)
        codes = codes_table(findings, total_lines, known, sampled)
        fixes = fixes_table(runs)
        numbers = numbers_section(summary, projects, codes, fixes)
        (out / "tables.md").write_text(numbers + "\n")
        print()
        print(numbers)
        for crash in crashes[:20]:
            print(f"crash: {crash}", file=sys.stderr)
        print(f"\nresults (findings, sample, context, diffs) in {out}; not printed here")
        if args.update_docs:
            text = docs.read_text() if docs.exists() else "# Held-out precision\n"
            docs.write_text(replace_section(text, NUMBERS_START, NUMBERS_END, numbers))
            print(f"updated {docs}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
