"""The C ABI from Python through ctypes (Debian's python3; python3-torch for
the DLPack part). A tensor made by PyTorch goes through DLPack into the
library, an operator runs through its typed C entry point and through the
boxed one, and the results go back to PyTorch through DLPack; the data
pointers show that neither crossing copies.

usage: python3 ctypes_test.py <path of libopd_ctest_exports.so>
Exit status 0: passed; 77: PyTorch is not installed (the C-only part passed).
"""
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
c_int32, c_int64, c_void_p = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p


class ScalarValue(ctypes.Union):
    _fields_ = [("i", c_int64), ("d", ctypes.c_double), ("c", ctypes.c_double * 2)]


class Scalar(ctypes.Structure):  # opd_scalar
    _fields_ = [("tag", c_int32), ("reserved", c_int32), ("v", ScalarValue)]


class AnyValue(ctypes.Union):
    _fields_ = [("i", c_int64), ("d", ctypes.c_double), ("s", ctypes.c_char_p), ("p", c_void_p)]


class Any(ctypes.Structure):  # opd_any
    _fields_ = [("tag", c_int32), ("reserved", c_int32), ("v", AnyValue)]


assert ctypes.sizeof(Any) == 16 and ctypes.sizeof(Scalar) == 24
OPD_SCALAR_INT, OPD_TAG_INT, OPD_TAG_TENSOR = 0, 1, 5

lib.opd_last_error.restype = ctypes.c_char_p
for name in ("opd_tensor_from_dlpack", "opd_tensor_to_dlpack", "opd_tensor_data_ptr", "opd_tensor_release",
             "opd_call_boxed", "opd_ctest_init"):
    getattr(lib, name).restype = c_int32
lib.opd_call_boxed.argtypes = [ctypes.c_char_p, ctypes.POINTER(Any), c_int64, ctypes.POINTER(Any), c_int64,
                               ctypes.POINTER(c_int64)]


def check(status):
    if status != 0:
        raise RuntimeError("status %d: %s" % (status, lib.opd_last_error().decode()))


def entry(symbol, *argtypes):
    """An OPD_EXPORT_C entry point: an ordinary C function named `symbol`."""
    function = getattr(lib, symbol)
    function.restype, function.argtypes = c_int32, list(argtypes)
    return function


check(lib.opd_ctest_init())
fingerprint = ctypes.c_uint64.in_dll(lib, "opd_add_fingerprint").value
assert fingerprint != 0

# C only: the boxed call on a tensor the library makes.
sizes = (c_int64 * 1)(4)
x = c_void_p()
lib.opd_tensor_empty.argtypes = [c_int64, ctypes.POINTER(c_int64), c_int32, c_int32, c_int32, ctypes.POINTER(c_void_p)]
check(lib.opd_tensor_empty(1, sizes, 6, 0, -1, ctypes.byref(x)))
lib.opd_tensor_data_ptr.argtypes = [c_void_p, ctypes.POINTER(c_void_p)]
p = c_void_p()
check(lib.opd_tensor_data_ptr(x, ctypes.byref(p)))
ctypes.memmove(p.value, (ctypes.c_float * 4)(1, 2, 3, 4), 16)
args = (Any * 2)()
args[0].tag, args[0].v.p = OPD_TAG_TENSOR, x.value
args[1].tag, args[1].v.i = OPD_TAG_INT, 3  # factor: float?, given as an int
results = (Any * 1)()
n = c_int64()
check(lib.opd_call_boxed(b"ctest::scale", args, 2, results, 1, ctypes.byref(n)))
assert n.value == 1 and results[0].tag == OPD_TAG_TENSOR
check(lib.opd_tensor_data_ptr(results[0].v.p, ctypes.byref(p)))
assert list((ctypes.c_float * 4).from_address(p.value)) == [3, 6, 9, 12]
lib.opd_tensor_release.argtypes = [c_void_p]
lib.opd_tensor_release(results[0].v.p)
# The typed entry point, called as the plain C function it is.
opd_ctest_scale = entry("opd_ctest_scale", c_void_p, ctypes.POINTER(ctypes.c_double), ctypes.POINTER(c_int64),
                        ctypes.POINTER(c_void_p))
r = c_void_p()
check(opd_ctest_scale(x, ctypes.byref(ctypes.c_double(0.5)), ctypes.byref(c_int64(1)), ctypes.byref(r)))
check(lib.opd_tensor_data_ptr(r, ctypes.byref(p)))
assert list((ctypes.c_float * 4).from_address(p.value)) == [1.5, 2, 2.5, 3]
lib.opd_tensor_release(r)
assert opd_ctest_scale(None, None, None, ctypes.byref(r)) != 0 and b"self" in lib.opd_last_error()
assert lib.opd_call_boxed(b"ctest::fail", args, 1, results, 1, ctypes.byref(n)) != 0
assert b"always fails" in lib.opd_last_error()
lib.opd_tensor_release(x)
print("ctypes: C-only part passed")

try:
    import torch
    import torch.utils.dlpack
except ImportError:
    print("ctypes: PyTorch not installed, DLPack part skipped")
    sys.exit(77)

PyCapsule_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
PyCapsule_GetPointer.restype, PyCapsule_GetPointer.argtypes = c_void_p, [ctypes.py_object, ctypes.c_char_p]
PyCapsule_SetName = ctypes.pythonapi.PyCapsule_SetName
PyCapsule_SetName.restype, PyCapsule_SetName.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]
PyCapsule_New = ctypes.pythonapi.PyCapsule_New
PyCapsule_New.restype, PyCapsule_New.argtypes = ctypes.py_object, [c_void_p, ctypes.c_char_p, c_void_p]
lib.opd_tensor_from_dlpack.argtypes = [c_void_p, ctypes.POINTER(c_void_p)]
lib.opd_tensor_to_dlpack.argtypes = [c_void_p, ctypes.POINTER(c_void_p)]


def to_opd(t):
    capsule = torch.utils.dlpack.to_dlpack(t)
    managed = PyCapsule_GetPointer(capsule, b"dltensor")
    PyCapsule_SetName(capsule, b"used_dltensor")  # the library owns it now (its deleter runs there)
    h = c_void_p()
    check(lib.opd_tensor_from_dlpack(managed, ctypes.byref(h)))
    return h


def data_ptr(h):
    q = c_void_p()
    check(lib.opd_tensor_data_ptr(h, ctypes.byref(q)))
    return q.value


def to_torch(h):
    managed = c_void_p()
    check(lib.opd_tensor_to_dlpack(h, ctypes.byref(managed)))
    return torch.utils.dlpack.from_dlpack(PyCapsule_New(managed.value, b"dltensor", None))


a = torch.arange(6, dtype=torch.float32).reshape(2, 3)
b = torch.full((2, 3), 0.5)
ha, hb = to_opd(a), to_opd(b)
assert data_ptr(ha) == a.data_ptr() and data_ptr(hb) == b.data_ptr(), "import copied"

# Typed entry: add.Tensor(self, other, *, alpha) -> Tensor.
opd_add = entry("opd_add", c_void_p, c_void_p, Scalar, ctypes.POINTER(c_void_p))
alpha = Scalar(OPD_SCALAR_INT, 0, ScalarValue(i=2))
hr = c_void_p()
check(opd_add(ha, hb, alpha, ctypes.byref(hr)))
r_ptr = data_ptr(hr)
r = to_torch(hr)
assert r.data_ptr() == r_ptr, "export copied"
assert torch.equal(r, torch.add(a, b, alpha=2)), (r, torch.add(a, b, alpha=2))
lib.opd_tensor_release(hr)

# out= into PyTorch's memory: the library writes through the imported handle.
out = torch.zeros(2, 3)
hout = to_opd(out)
opd_add_out = entry("opd_add_out", c_void_p, c_void_p, c_void_p, Scalar)
check(opd_add_out(hout, ha, hb, Scalar(OPD_SCALAR_INT, 0, ScalarValue(i=1))))
assert torch.equal(out, a + b)

for h in (ha, hb, hout):
    lib.opd_tensor_release(h)
print("ctypes: DLPack part passed")
