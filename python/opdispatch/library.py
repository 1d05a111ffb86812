"""Operators declared from Python, with Python functions as kernels.

    lib = opdispatch.library.Library("myns")
    lib.define("myns::scale(Tensor x, float factor=2.0) -> Tensor")
    lib.impl("scale", lambda x, factor: opd.ops.aten.mul(x, factor), "CPU")
    opd.ops.myns.scale(t)                        # through the dispatcher, as any operator

The registrations last as long as the Library object (or until remove()).
"""
from . import _C


class Library:
    def __init__(self, ns):
        self.ns = ns
        self._registrations = []

    def _qualified(self, name):
        return name if "::" in name else f"{self.ns}::{name}"

    def define(self, schema):
        """Declares an operator; the schema's namespace may be omitted."""
        if "::" not in schema.split("(")[0]:
            schema = f"{self.ns}::{schema}"
        self._registrations.append(_C._define(schema))
        return self._qualified(schema.split("(")[0])

    def impl(self, name, fn, dispatch_key="CPU"):
        """Registers fn as the operator's kernel for dispatch_key. fn gets the
        arguments in schema order (defaults filled) and returns the results."""
        self._registrations.append(_C._impl(self._qualified(name), dispatch_key, fn))

    def remove(self):
        for r in reversed(self._registrations):
            r.remove()
        self._registrations.clear()

    def __del__(self):
        self.remove()


def define(schema, fn=None, dispatch_key="CPU"):
    """One operator and (optionally) its kernel, in a Library of its own, returned."""
    ns = schema.split("::")[0]
    lib = Library(ns)
    name = lib.define(schema)
    if fn is not None:
        lib.impl(name, fn, dispatch_key)
    return lib
