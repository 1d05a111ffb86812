"""opdispatch.ops.<namespace>.<name>[.<overload>], looked up in the registry."""
from . import _C


class _Namespace:
    """The operators of one namespace: ops.aten.add is the packet of aten::add."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, op):
        if op.startswith("__"):
            raise AttributeError(op)
        packet = _C._packet(f"{self._name}::{op}")
        setattr(self, op, packet)  # found once
        return packet

    def __dir__(self):
        prefix = self._name + "::"
        return sorted({n[len(prefix):].split(".")[0] for n in _C._operator_names() if n.startswith(prefix)})

    def __repr__(self):
        return f"<opdispatch.ops.{self._name}>"


class _Ops:
    """ops.aten, ops.myns, ...: every namespace that has a declared operator (or will have)."""

    def __getattr__(self, ns):
        if ns.startswith("__"):
            raise AttributeError(ns)
        namespace = _Namespace(ns)
        setattr(self, ns, namespace)
        return namespace

    def __dir__(self):
        return sorted({n.split("::")[0] for n in _C._operator_names() if "::" in n})


ops = _Ops()
