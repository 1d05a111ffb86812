"""opdispatch from Python: every operator of the registry, derived from its schema.

    import opdispatch as opd
    x = opd.tensor([1.0, 2.0, 3.0])
    y = opd.ops.aten.add.Tensor(x, x, alpha=2)   # one overload, by name
    z = opd.ops.aten.add(x, 1)                   # the overload chosen from the argument types
    t = torch.from_dlpack(y)                     # no copy, both ways

Operators come from the registry, never from a list written here: the
library's own, those of a shared library loaded with load_library(), and those
declared from Python (opdispatch.library).
"""
from . import _C
from ._C import (TensorBase, dtype, device, from_dlpack, as_tensor, load_library,
                 OpOverload, OpOverloadPacket)

# The library's CPU kernels, once per process.
_C._register_builtin_kernels()

from ._C import (uint8, int8, int16, short, int32, int, int64, long, float16, half,  # noqa: E402
                 float32, float, float64, double, complex32, chalf, complex64, cfloat,
                 complex128, cdouble, bool, bfloat16)
from ._tensor import Tensor, tensor, from_numpy  # noqa: E402
from ._ops import ops  # noqa: E402
from . import library  # noqa: E402

contiguous_format = "contiguous_format"
preserve_format = "preserve_format"
channels_last = "channels_last"
strided = "strided"

__all__ = ["Tensor", "TensorBase", "tensor", "from_numpy", "from_dlpack", "as_tensor", "ops", "library",
           "load_library", "dtype", "device", "OpOverload", "OpOverloadPacket"]
