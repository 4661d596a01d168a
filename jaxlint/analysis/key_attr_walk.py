"""The key walk's handling of keys held on attributes (``self.rng``): a mixin of
:class:`jaxlint.analysis.key_walk._Walker`, which holds the state these methods read
(``state``, ``attrs``, ``evidence``, ``attr_touched``, ``attr_live``, ``model``) and
``_new``. What makes an attribute a key is :mod:`jaxlint.analysis.key_attrs`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.key_attrs import dotted, name_or_dotted

if TYPE_CHECKING:
    from jaxlint.analysis.key_values import KeyValue


class _AttrWalker:
    # -- keys held on attributes (key_attrs) ---------------------------------------------

    def _attr_key(self, expr: cst.Attribute) -> KeyValue | None:
        """The key ``self.rng`` (an attribute path) holds here, when it is clearly a key:
        the value last bound to it in this walk, else a new key as the function finds it."""
        path = dotted(expr)
        return self._attr_value(path, expr) if path is not None else None

    def _attr_value(self, path: str, node: cst.CSTNode) -> KeyValue | None:
        st = self.state
        if st is None:
            return None
        val = st.env.get(path)
        if val is not None:
            return val
        head, _, attr = path.partition(".")
        if (
            head == "self"
            and self.attrs is not None
            and self.attrs.is_property(attr.partition(".")[0])
        ):
            return None  # a property (``def rng(self)``) may give a new key on every read
        if path not in self.evidence:
            if head != "self" or self.attrs is None or attr not in self.attrs.keys:
                return None
        val = self._new(node, path, True, tag=("attr", path))
        entry = path.startswith("self.") and path not in self.attr_touched
        val.where = "attr-entry" if entry else "attr"
        st.env[path] = val
        self.attr_live = True
        return val

    def _forget(self, prefix: str, *, proper: bool = False) -> None:
        """Stop tracking ``prefix`` (unless ``proper``) and the paths under it."""
        st = self.state
        if st is None:
            return
        under = prefix + "."
        for path in [p for p in st.env if p.startswith(under) or (not proper and p == prefix)]:
            del st.env[path]
            self.attr_touched.add(path)

    def _forget_all(self) -> None:
        st = self.state
        if st is None:
            return
        for path in [p for p in st.env if "." in p]:
            del st.env[path]
            self.attr_touched.add(path)

    def _call_may_assign(self, call: cst.Call) -> None:
        """Forget the attribute paths that ``call`` may reassign: those under an object it
        receives, or under the object whose method it is (unless a method of this class
        that never assigns the attribute), or under ``self`` for ``super().m()``."""
        st = self.state
        assert st is not None
        paths = [p for p in st.env if "." in p]
        if not paths:
            self.attr_live = False
            return
        func = call.func
        qn = self.model.call_name(call)
        if qn is not None and qn.startswith(("jax.", "numpy.")):
            return  # JAX and NumPy do not assign attributes of Python objects
        prefixes: set[str] = set()
        exact: set[str] = set()
        for arg in call.args:
            d = name_or_dotted(arg.value)
            if d is not None:
                prefixes.add(d)
        if type(func) is cst.Attribute:
            base = name_or_dotted(func.value)
            if base == "self" and self.attrs is not None and func.attr.value in self.attrs.methods:
                method = func.attr.value
                for p in paths:
                    attr = p.split(".")[1]
                    if p.startswith("self.") and self.attrs.may_assign(method, attr):
                        exact.add(p)
            elif base is not None:
                prefixes.add(base)
            elif type(func.value) is cst.Call:
                prefixes.add("self")  # ``super().m()``
        for p in paths:
            if p in exact or any(p.startswith(pre + ".") for pre in prefixes):
                del st.env[p]
                self.attr_touched.add(p)
