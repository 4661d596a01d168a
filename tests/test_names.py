"""The shared name resolver: import spellings, aliases and shadowing."""

from __future__ import annotations

import libcst as cst
import pytest

from jaxlint.analysis.names import SemanticModel


def _calls(code: str) -> list[tuple[str, str | None]]:
    """(callee source, qualified name) for every call in ``code``."""
    module = cst.parse_module(code)
    model = SemanticModel(module)
    found: list[tuple[str, str | None]] = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            found.append((module.code_for_node(node.func), model.call_name(node)))

    module.visit(V())
    return found


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("import jax\njax.random.split(k)\n", "jax.random.split"),
        ("import jax as j\nj.random.split(k)\n", "jax.random.split"),
        ("import jax.numpy as jnp\njnp.zeros(3)\n", "jax.numpy.zeros"),
        ("import jax.numpy as np2\nnp2.zeros(3)\n", "jax.numpy.zeros"),
        ("from jax import random as jr\njr.split(k)\n", "jax.random.split"),
        ("from jax.random import PRNGKey\nPRNGKey(0)\n", "jax.random.PRNGKey"),
        ("from jax.random import PRNGKey as K\nK(0)\n", "jax.random.PRNGKey"),
        ("import jax.random\njax.random.key(0)\n", "jax.random.key"),
        ("from jax import numpy as jnp\njnp.empty(1)\n", "jax.numpy.empty"),
        ("import numpy as np\nnp.asarray(x)\n", "numpy.asarray"),
        ("print(1)\n", "builtins.print"),
        ("def f():\n    import jax.numpy as jnp\n    return jnp.ones(2)\n", "jax.numpy.ones"),
        (
            "import jax.numpy as jnp\nclass C:\n    def m(self):\n        return jnp.ones(2)\n",
            "jax.numpy.ones",
        ),
    ],
)
def test_resolves_import_spellings(code: str, expected: str) -> None:
    assert _calls(code)[-1][1] == expected


@pytest.mark.parametrize(
    "code",
    [
        # a parameter shadows the import
        "import jax.numpy as jnp\ndef f(jnp):\n    return jnp.zeros(3)\n",
        # a local assignment shadows it (anywhere in the function: Python scoping)
        "import jax.numpy as jnp\ndef f():\n    jnp = other\n    return jnp.zeros(3)\n",
        # module-level rebinding makes it ambiguous
        "import jax.numpy as jnp\njnp = None\njnp.zeros(3)\n",
        # two different imports: ambiguous
        "try:\n    import jax.numpy as np\nexcept ImportError:\n    import numpy as np\n"
        "np.zeros(3)\n",
        # a lambda parameter
        "import jax\nf = lambda jax: jax.numpy.zeros(3)\n",
        # a comprehension variable
        "import jax\n[jax.numpy.zeros(3) for jax in things]\n",
        # relative imports are never JAX
        "from . import jax\njax.numpy.zeros(3)\n",
        # a for-loop target
        "import jax\nfor jax in mods:\n    jax.numpy.zeros(3)\n",
        # with ... as
        "import jax\nwith ctx() as jax:\n    jax.numpy.zeros(3)\n",
        # not imported at all
        "jnp.zeros(3)\n",
    ],
)
def test_shadowed_or_unknown_names_do_not_resolve(code: str) -> None:
    assert _calls(code)[-1][1] is None


def test_class_scope_does_not_enclose_methods() -> None:
    code = (
        "import jax.numpy as jnp\n"
        "class C:\n"
        "    jnp = None\n"
        "    def m(self):\n"
        "        return jnp.ones(2)\n"
    )
    assert _calls(code)[-1][1] == "jax.numpy.ones"


def test_global_declaration_refers_to_module_binding() -> None:
    code = "import jax.numpy as jnp\ndef f():\n    global jnp\n    return jnp.ones(2)\n"
    assert _calls(code)[-1][1] == "jax.numpy.ones"


def test_default_values_are_evaluated_in_enclosing_scope() -> None:
    code = "import jax.numpy as jnp\ndef f(jnp=jnp.zeros(3)):\n    pass\n"
    assert _calls(code)[-1][1] == "jax.numpy.zeros"


def test_spelling_prefers_existing_alias() -> None:
    module = cst.parse_module("import jax\nimport jax.numpy as jnp\nx = 1\n")
    model = SemanticModel(module)
    assert model.spelling("jax.numpy.zeros", None) == "jnp.zeros"
    assert model.spelling("jax.tree.map", None) == "jax.tree.map"
    assert model.spelling("numpy.zeros", None) is None


def test_inside_follows_the_parents_the_walk_recorded() -> None:
    module = cst.parse_module("def f(x):\n    return g(x + 1)\n\ny = 2\n")
    model = SemanticModel(module)
    fn = module.body[0]
    call = fn.body.body[0].body[0].value
    one = call.args[0].value.right
    assert model.inside(one, call) and model.inside(one, fn) and model.inside(call, call)
    assert not model.inside(call, one) and not model.inside(one, module.body[1])
