"""A C caller that writes no C++: loads libopdispatch.so alone, finds no ATen
operator, calls opd_register_builtin_kernels() and then calls aten::add.Tensor
through the boxed C entry; then opd_register_builtin_formulas() and a backward
pass (x.requires_grad, y = x + x, y.backward(ones): x.grad = 2). argv[1]: the path of libopdispatch.so."""
import ctypes
import sys
from ctypes import c_int32, c_int64, c_void_p

lib = ctypes.CDLL(sys.argv[1])


class AnyValue(ctypes.Union):
    _fields_ = [("i", c_int64), ("d", ctypes.c_double), ("p", c_void_p)]


class Any(ctypes.Structure):
    _fields_ = [("tag", c_int32), ("reserved", c_int32), ("v", AnyValue)]


OPD_TAG_TENSOR = 5
lib.opd_last_error.restype = ctypes.c_char_p
lib.opd_register_builtin_kernels.restype = c_int32
lib.opd_call_boxed.restype = c_int32
lib.opd_call_boxed.argtypes = [ctypes.c_char_p, ctypes.POINTER(Any), c_int64, ctypes.POINTER(Any), c_int64,
                               ctypes.POINTER(c_int64)]
lib.opd_tensor_empty.argtypes = [c_int64, ctypes.POINTER(c_int64), c_int32, c_int32, c_int32, ctypes.POINTER(c_void_p)]
lib.opd_tensor_data_ptr.argtypes = [c_void_p, ctypes.POINTER(c_void_p)]
lib.opd_tensor_release.argtypes = [c_void_p]

x = c_void_p()
assert lib.opd_tensor_empty(1, (c_int64 * 1)(3), 6, 0, -1, ctypes.byref(x)) == 0
p = c_void_p()
assert lib.opd_tensor_data_ptr(x, ctypes.byref(p)) == 0
ctypes.memmove(p.value, (ctypes.c_float * 3)(1, 2, 3), 12)
args = (Any * 2)()
for a in args:
    a.tag, a.v.p = OPD_TAG_TENSOR, x.value
results = (Any * 1)()
n = c_int64()

# Before: nothing declares aten::add.Tensor in a process that ran no C++ registration.
assert lib.opd_call_boxed(b"aten::add.Tensor", args, 2, results, 1, ctypes.byref(n)) != 0
assert b"aten::add.Tensor" in lib.opd_last_error(), lib.opd_last_error()
assert lib.opd_register_builtin_kernels() == 0
assert lib.opd_register_builtin_kernels() == 0  # once per process; a second call does nothing
# After: alpha comes from the schema's default.
assert lib.opd_call_boxed(b"aten::add.Tensor", args, 2, results, 1, ctypes.byref(n)) == 0, lib.opd_last_error()
assert lib.opd_tensor_data_ptr(results[0].v.p, ctypes.byref(p)) == 0
assert list((ctypes.c_float * 3).from_address(p.value)) == [2, 4, 6]

# Autograd from C: the formulas registered, a graph and .grad.
for f in ("opd_tensor_set_requires_grad", "opd_backward"):
    getattr(lib, f).restype = c_int32
lib.opd_tensor_set_requires_grad.argtypes = [c_void_p, c_int32]
lib.opd_backward.argtypes = [c_void_p, c_void_p, c_int32, c_int32]
lib.opd_tensor_grad.argtypes = [c_void_p, ctypes.POINTER(c_void_p)]
lib.opd_tensor_release(results[0].v.p)
assert lib.opd_register_builtin_formulas() == 0
assert lib.opd_register_builtin_formulas() == 0  # once per process
assert lib.opd_tensor_set_requires_grad(x, 1) == 0, lib.opd_last_error()
assert lib.opd_call_boxed(b"aten::add.Tensor", args, 2, results, 1, ctypes.byref(n)) == 0, lib.opd_last_error()
y = c_void_p(results[0].v.p)
ones = c_void_p()
assert lib.opd_tensor_empty(1, (c_int64 * 1)(3), 6, 0, -1, ctypes.byref(ones)) == 0
assert lib.opd_tensor_data_ptr(ones, ctypes.byref(p)) == 0
ctypes.memmove(p.value, (ctypes.c_float * 3)(1, 1, 1), 12)
assert lib.opd_backward(y, ones, -1, 0) == 0, lib.opd_last_error()
g = c_void_p()
assert lib.opd_tensor_grad(x, ctypes.byref(g)) == 0 and g.value
assert lib.opd_tensor_data_ptr(g, ctypes.byref(p)) == 0
assert list((ctypes.c_float * 3).from_address(p.value)) == [2, 2, 2]
for t in (g, ones, y, x):
    lib.opd_tensor_release(t)
print("builtin kernels and formulas from C: passed")
