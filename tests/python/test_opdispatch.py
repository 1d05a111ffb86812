"""The Python module opdispatch: operators from the registry, arguments as
PyTorch's Python API takes them, tensors exchanged without copies, errors as
Python exceptions. Run by CTest (python.opdispatch) with PYTHONPATH=<build>/python."""
import gc
import json
import os
import pydoc
import random
import unittest

import numpy as np

import opdispatch as opd
from opdispatch import ops

try:
    import torch
except ImportError:  # the torch exchange tests skip without python3-torch
    torch = None

DATA = os.environ.get("OPD_TEST_DATA_DIR", os.path.join(os.path.dirname(__file__), "..", "data"))


def every_overload():
    """(qualified name, OpOverload) of every operator in the registry."""
    out = []
    for name in opd._C._operator_names():
        ns, rest = name.split("::", 1)
        base, _, overload = rest.partition(".")
        packet = getattr(getattr(ops, ns), base)
        out.append((name, getattr(packet, overload or "default")))
    return out


def parse_params(schema):
    """Parameter names and types of a printed schema (enough for the tests)."""
    inside = schema[schema.index("(") + 1: schema.index(") ->")]
    params, depth, cur = [], 0, ""
    for ch in inside:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            params.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        params.append(cur.strip())
    out = []
    kwarg_only = False
    for p in params:
        if p == "*":
            kwarg_only = True
            continue
        decl, eq, default = p.partition("=")
        typ, _, name = decl.rpartition(" ")
        out.append({"type": typ, "name": name, "has_default": eq == "=", "kwarg_only": kwarg_only})
    return out


class Registry(unittest.TestCase):
    def test_every_operator_is_exposed_with_its_schema(self):
        overloads = every_overload()
        self.assertGreater(len(overloads), 400)
        # The schema text equals ATen's native_functions.yaml for every ATen operator the library has.
        native = {}
        with open(os.path.join(DATA, "native_functions_1.13.jsonl")) as f:
            for line in f:
                e = json.loads(line)
                native["aten::" + e["name"] + ("." + e["overload"] if e["overload"] else "")] = "aten::" + e["schema"]
        compared = 0
        for name, ov in overloads:
            self.assertIsInstance(ov, opd.OpOverload)
            self.assertTrue(ov.schema.startswith(name + "("), (name, ov.schema))
            if name in native:
                self.assertEqual(ov.schema, native[name], name)
                compared += 1
        self.assertGreater(compared, 400)

    def test_help_shows_the_schema(self):
        text = pydoc.render_doc(ops.aten.add.Tensor)
        self.assertIn("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", text)
        self.assertIn("aten::add.Tensor", ops.aten.add.__doc__)

    def test_namespaces_and_packets_list_what_is_registered(self):
        self.assertIn("aten", dir(ops))
        self.assertIn("add", dir(ops.aten))
        self.assertIn("Tensor", ops.aten.add.overloads())
        with self.assertRaises(AttributeError):
            ops.aten.no_such_operator_here
        with self.assertRaises(AttributeError):
            ops.aten.add.NoSuchOverload

    def test_overloads_are_tried_in_pytorchs_order(self):
        order = ops.aten.add.overloads()
        self.assertLess(order.index("Tensor"), order.index("Scalar"))  # Tensor before Scalar, as torchgen sorts


class Calls(unittest.TestCase):
    def setUp(self):
        self.x = opd.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])

    def assertClose(self, a, b):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, atol=1e-6)

    def test_positional_keyword_and_defaults(self):
        x = self.x
        self.assertClose(ops.aten.add.Tensor(x, x), 2 * x.numpy())
        self.assertClose(ops.aten.add.Tensor(x, x, alpha=3), 4 * x.numpy())
        self.assertClose(ops.aten.add.Tensor(self=x, other=x), 2 * x.numpy())
        self.assertClose(ops.aten.sum.dim_IntList(x, [1]), x.numpy().sum(1))
        self.assertClose(ops.aten.sum.dim_IntList(x, [1], keepdim=True), x.numpy().sum(1, keepdims=True))
        with self.assertRaisesRegex(TypeError, r"takes 2 positional arguments but 3 were given"):
            ops.aten.add.Tensor(x, x, 2)  # alpha is keyword-only
        with self.assertRaisesRegex(TypeError, r"got multiple values for argument 'self'"):
            ops.aten.add.Tensor(x, x, self=x)
        with self.assertRaisesRegex(TypeError, r"unexpected keyword argument 'beta'"):
            ops.aten.add.Tensor(x, x, beta=2)

    def test_numbers_sequences_none_dtypes_devices(self):
        x = self.x
        self.assertClose(ops.aten.add.Scalar(x, 2), x.numpy() + 2)
        self.assertClose(ops.aten.add(x, 2.5), x.numpy() + 2.5)          # packet: the Scalar overload
        self.assertClose(ops.aten.mul.Tensor(x, 2), x.numpy() * 2)       # a number for a Tensor: a wrapped number
        self.assertEqual(ops.aten.permute(x, (1, 0)).shape, (3, 2))      # a tuple for int[]
        self.assertEqual(ops.aten.permute(x, [1, 0]).shape, (3, 2))
        for dt in ("float64", opd.float64, opd.double) + ((torch.float64,) if torch else ()):
            z = ops.aten.zeros([2, 3], dtype=dt)
            self.assertEqual(z.dtype, opd.float64)
        self.assertEqual(ops.aten.zeros([2], dtype=None).dtype, opd.float32)
        for dev in ("cpu", opd.device("cpu")) + ((torch.device("cpu"),) if torch else ()):
            self.assertEqual(str(ops.aten.zeros([1], device=dev).device), "cpu")
        self.assertEqual(opd.float32, "float32")
        self.assertEqual(opd.float32, "torch.float32")

    def test_wrapped_numbers_promote_as_in_pytorch(self):
        i = opd.tensor([1, 2])
        self.assertEqual(i.dtype, opd.int64)
        self.assertEqual(ops.aten.add.Tensor(i, 2.5).dtype, opd.float32)  # PyTorch: float32, not float64
        self.assertEqual(ops.aten.add.Tensor(i, 2).dtype, opd.int64)
        f = opd.tensor([1.0])
        self.assertEqual(ops.aten.mul.Tensor(f, 0.1).dtype, opd.float32)
        if torch:
            t = torch.tensor([1.0, 2.0], dtype=torch.float64)
            self.assertEqual(ops.aten.add.Tensor(opd.as_tensor(t), 0.1).numpy().tolist(), (t + 0.1).tolist())

    def test_in_place_returns_the_argument_itself(self):
        x = opd.tensor([1.0, 2.0])
        y = ops.aten.add_.Tensor(x, 1)
        self.assertIs(y, x)
        self.assertEqual(x.tolist(), [2.0, 3.0])
        out = opd.tensor([0.0, 0.0])
        r = ops.aten.add.out(x, x, out=out)
        self.assertIs(r, out)
        self.assertEqual(out.tolist(), [4.0, 6.0])

    def test_several_results_come_as_a_tuple(self):
        values, indices = ops.aten.max.dim(self.x, 1)
        self.assertEqual(values.tolist(), [3.0, 5.0])
        self.assertEqual(indices.tolist(), [2, 1])
        self.assertEqual(len(ops.aten.split.Tensor(self.x, 1)), 2)

    def test_tensor_basics(self):
        x = self.x
        self.assertEqual(x.shape, (2, 3))
        self.assertEqual(x.size(), (2, 3))
        self.assertEqual(x.size(1), 3)
        self.assertEqual(x.stride(), (3, 1))
        self.assertEqual(x.ndim, 2)
        self.assertEqual(x.numel(), 6)
        self.assertEqual(x.dtype, opd.float32)
        self.assertEqual(x.device, "cpu")
        self.assertEqual(repr(opd.tensor([1.0, 2.0])), "tensor([1., 2.])")
        if torch:
            self.assertEqual(repr(opd.tensor([[1.5, -2.0], [3.0, 4.25]])), repr(torch.tensor([[1.5, -2.0], [3.0, 4.25]])))
        self.assertEqual((x + 1).tolist(), (x.numpy() + 1).tolist())
        self.assertEqual((x * x).tolist(), (x.numpy() * x.numpy()).tolist())
        self.assertEqual((-x).tolist(), (-x.numpy()).tolist())
        self.assertEqual(x.relu().tolist(), np.maximum(x.numpy(), 0).tolist())  # any aten operator as a method

    def test_indexing_through_views(self):
        a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
        x = opd.tensor(a)
        for index in [0, -1, (1, 2), (slice(None), 1), (Ellipsis, 2), (None, 0), slice(0, 2), (0, slice(1, 3), slice(None, None, 2)),
                      (Ellipsis, None), (1, Ellipsis, 1)]:
            got = x[index]
            self.assertEqual(got.numpy().tolist(), a[index].tolist(), index)
        view = x[1]
        self.assertTrue(view.is_view())
        self.assertEqual(view.data_ptr(), x.data_ptr() + 12 * 4)
        x[0, 1] = 7.0
        self.assertEqual(x.numpy()[0, 1].tolist(), [7.0] * 4)
        with self.assertRaises(IndexError):
            x[5]
        idx = opd.tensor([1, 0])
        self.assertEqual(x[idx].numpy().tolist(), x.numpy()[[1, 0]].tolist())


@unittest.skipIf(torch is None, "python3-torch is not installed")
class ZeroCopy(unittest.TestCase):
    def test_to_torch_and_back(self):
        x = opd.tensor([1.0, 2.0, 3.0])
        t = torch.from_dlpack(x)
        self.assertEqual(t.data_ptr(), x.data_ptr())
        t[0] = 10.0                      # a write on one side is seen on the other
        self.assertEqual(x.tolist(), [10.0, 2.0, 3.0])
        back = opd.from_dlpack(t)
        self.assertEqual(back.data_ptr(), x.data_ptr())
        ops.aten.mul_.Scalar(back, 2)
        self.assertEqual(t.tolist(), [20.0, 4.0, 6.0])

    def test_complex_dtypes(self):
        # complex64/complex128: parsing, printing, DLPack both ways, arithmetic, conversions
        values = [[1 + 2j, -3.5j], [0.25, 1e10 + 1j]]
        x, t = opd.tensor(values), torch.tensor(values)
        self.assertEqual(x.dtype, opd.complex64)
        self.assertEqual(repr(x), repr(t))
        self.assertEqual(repr(opd.tensor([1 + 1j], dtype=torch.complex128)), repr(torch.tensor([1 + 1j], dtype=torch.complex128)))
        y = torch.from_dlpack(ops.aten.mul(x, x))
        self.assertEqual(y.dtype, torch.complex64)
        self.assertTrue(torch.equal(y, t * t))
        back = opd.from_dlpack(torch.tensor([1 + 1j, 2], dtype=torch.complex128))
        self.assertEqual(back.dtype, opd.complex128)
        self.assertEqual(back.tolist(), [1 + 1j, 2 + 0j])
        self.assertEqual(ops.aten.add(opd.tensor([1.0, 2.0]), 1j).tolist(), [1 + 1j, 2 + 1j])
        self.assertEqual(ops.aten._to_copy(x, dtype=torch.float64).tolist(), [[1.0, -0.0], [0.25, 1e10]])
        self.assertEqual(ops.aten._local_scalar_dense(opd.tensor([2 - 1j])), 2 - 1j)
        with self.assertRaisesRegex(TypeError, "not implemented for 'ComplexFloat'"):
            ops.aten.lt(x, x)
        # dot (through cgemm): Debian's libtorch 1.13 returns 0 for complex dot, so by hand
        self.assertEqual(ops.aten.dot(opd.tensor([1 + 2j, 3 - 1j]), opd.tensor([2 - 1j, 1 + 1j])).tolist(), 8 + 5j)

    def test_complex32(self):
        # ComplexHalf: conversions bit for bit with PyTorch 1.13 (through complex64, each part
        # rounded once to Half; a double goes through float first), printing, DLPack both ways,
        # item/tolist (read as complex64), and PyTorch's refusals
        v = 1 + 2 ** -11 + 2 ** -40     # rounds to 1.0 through float, to 1.0009765625 directly
        src = torch.tensor([complex(v, -v), 0.1 + 0.2j, 70000 - 1e-8j, complex(float("nan"), float("inf"))],
                           dtype=torch.complex128)
        for s in (src, src.real.contiguous(), src.real.float(), (src.real * 1000).long()):
            x = ops.aten._to_copy.default(s, dtype=torch.complex32)
            self.assertEqual(x.dtype, opd.complex32)
            t = torch.from_dlpack(x)
            self.assertEqual(t.dtype, torch.complex32)
            self.assertTrue(torch.equal(torch.view_as_real(t).view(torch.int16),
                                        torch.view_as_real(s.to(torch.complex32)).view(torch.int16)), str(s))
        c = torch.tensor([1 + 2j, 3.5 - 1j, 0.1 + 0.2j]).to(torch.complex32)
        x = opd.from_dlpack(c)
        self.assertEqual(x.data_ptr(), c.data_ptr())
        self.assertEqual(repr(x), repr(c))
        self.assertEqual(x.tolist(), c.cfloat().tolist())
        self.assertEqual(x[1].item(), 3.5 - 1j)
        for to in (torch.float16, torch.float64, torch.bool, torch.uint8, torch.complex64, torch.bfloat16):
            self.assertTrue(torch.equal(torch.from_dlpack(ops.aten._to_copy.default(c, dtype=to)), c.to(to)), str(to))
        self.assertEqual(torch.from_dlpack(ops.aten.view_as_real.default(x)).tolist(), torch.view_as_real(c).tolist())
        many = ops.aten.full.default([2], 1e6, dtype=torch.complex32)    # as 1.13: two elements round to inf,
        self.assertEqual(many.tolist(), [complex(float("inf"), 0)] * 2)
        with self.assertRaisesRegex(RuntimeError, r"c10::complex<c10::Half> without overflow"):
            ops.aten.full.default([1], 1e6, dtype=torch.complex32)         # one element is checked as Half
        with self.assertRaisesRegex(TypeError, "\"flip_cpu\" not implemented for 'ComplexHalf'"):
            ops.aten.flip(x, [0])
        # add/sub/mul as 1.13: in complex64, each complex32 operation rounded once (alpha * b too)
        y = torch.tensor([0.3 - 7j, 1e4 + 2j, -1.5 + 0.1j]).to(torch.complex32)
        for got, want in ((ops.aten.add.Tensor(x, y, alpha=0.3 + 0.7j), torch.add(c, y, alpha=0.3 + 0.7j)),
                          (ops.aten.sub.Tensor(x, y), c - y), (ops.aten.mul.Tensor(x, y), c * y),
                          (ops.aten.mul.Scalar(x, 0.1 + 0.3j), c * (0.1 + 0.3j))):
            got = torch.from_dlpack(got)
            self.assertEqual(got.dtype, torch.complex32)
            self.assertTrue(torch.equal(torch.view_as_real(got).view(torch.int16), torch.view_as_real(want).view(torch.int16)))
        with self.assertRaisesRegex(TypeError, "\"div\" not implemented for 'ComplexHalf'"):
            ops.aten.div(x, x)     # 1.13 refuses it too ("div_cpu")
        self.assertEqual(ops.aten.eq(x, x).tolist(), [True, True, True])
        with self.assertRaisesRegex(TypeError, "\"abs\" not implemented for 'ComplexHalf'"):
            ops.aten.abs(x)        # 1.13 computes it; the library does not yet

    def test_torch_tensors_as_arguments(self):
        a = torch.arange(6, dtype=torch.float32).reshape(2, 3)
        r = ops.aten.add.Tensor(a, a)
        self.assertIsInstance(r, opd.Tensor)
        self.assertEqual(r.tolist(), (a + a).tolist())
        v = ops.aten.select.int(a, 0, 1)         # a view of torch's memory
        self.assertEqual(v.data_ptr(), a.data_ptr() + 3 * 4)
        out = torch.zeros(2, 3)
        res = ops.aten.add.out(a, a, out=out)    # written in place, the same object back
        self.assertIs(res, out)
        self.assertEqual(out.tolist(), (a + a).tolist())
        strided = a.t()
        self.assertEqual(ops.aten.clone(strided).tolist(), strided.tolist())

    def test_bool_both_ways(self):
        t = torch.tensor([True, False, True])
        x = opd.as_tensor(t)
        self.assertEqual(x.dtype, opd.bool)                 # PyTorch 1.13 exports bool as uint8
        self.assertEqual(x.data_ptr(), t.data_ptr())
        self.assertEqual(ops.aten.logical_not(t).tolist(), [False, True, False])
        back = torch.from_dlpack(x)
        self.assertEqual(back.dtype, torch.uint8)          # DLPack 0.6 has no bool: PyTorch reads uint8
        self.assertEqual(x.numpy().dtype, np.bool_)

    def test_numpy_both_ways(self):
        a = np.arange(6, dtype=np.float64).reshape(2, 3)
        x = opd.from_numpy(a)
        self.assertEqual(x.data_ptr(), a.ctypes.data)
        a[0, 0] = 42.0
        self.assertEqual(x.tolist()[0][0], 42.0)
        n = x.numpy()
        self.assertEqual(n.ctypes.data, x.data_ptr())
        n[1, 2] = -1.0
        self.assertEqual(a[1, 2], -1.0)
        self.assertEqual(ops.aten.neg(a[:, ::2]).tolist(), (-a[:, ::2]).tolist())   # strided array as an argument
        b = np.array([True, False])
        self.assertEqual(ops.aten.logical_not(b).tolist(), [False, True])
        ro = np.arange(3.0)
        ro.setflags(write=False)
        self.assertEqual(ops.aten.neg(ro).tolist(), [-0.0, -1.0, -2.0])              # read-only: copied, never written

    def test_memory_outlives_the_producer(self):
        x = opd.from_numpy(np.arange(1000, dtype=np.float32))
        gc.collect()
        self.assertEqual(x.tolist()[999], 999.0)
        t = torch.from_dlpack(opd.tensor([5.0]))
        gc.collect()
        self.assertEqual(t.tolist(), [5.0])


def sample_value(typ):
    """A plausible value of a schema type, for calls that leave every default out."""
    base = typ.split("(")[0]
    table = {"Tensor": lambda: opd.tensor([[1.0, 2.0], [3.0, 4.0]]), "Tensor?": lambda: None,
             "int": lambda: 0, "SymInt": lambda: 1, "int?": lambda: None, "float": lambda: 1.0, "bool": lambda: False,
             "Scalar": lambda: 1, "Scalar?": lambda: None, "str": lambda: "none", "ScalarType": lambda: opd.float32,
             "Device": lambda: "cpu", "Generator?": lambda: None, "Layout": lambda: "strided", "Dimname": lambda: "x",
             "Tensor[]": lambda: [opd.tensor([1.0]), opd.tensor([2.0])], "Tensor?[]": lambda: [None],
             "MemoryFormat": lambda: "contiguous_format", "complex": lambda: 1.0}
    if base in table:
        return table[base]()
    if base.startswith(("int[", "SymInt[")):
        return [1]
    if base.startswith("float["):
        return [1.0]
    if base.startswith("bool["):
        return [False]
    if base.endswith("?"):
        return None
    raise KeyError(typ)


class Defaults(unittest.TestCase):
    def test_every_operator_can_be_called_with_its_defaults_omitted(self):
        ran = skipped = 0
        for name, ov in every_overload():
            params = parse_params(ov.schema)
            try:
                args = [sample_value(p["type"]) for p in params if not p["has_default"] and not p["kwarg_only"]]
                kwargs = {p["name"]: sample_value(p["type"]) for p in params if not p["has_default"] and p["kwarg_only"]}
            except KeyError:
                skipped += 1
                continue
            if any(w in name for w in ("empty", "resize", "set_", "_local_scalar")):
                continue
            try:
                ov(*args, **kwargs)
                ran += 1
            except TypeError as e:
                # Binding never fails: only a kernel's own type check may (e.g. an int tensor where float is needed).
                self.assertNotRegex(str(e), r"missing required argument|positional argument|\(\): argument '", name)
            except (RuntimeError, ValueError, IndexError, NotImplementedError):
                pass  # the kernel ran and refused these values
        self.assertGreater(ran, 250)  # (on the build this was written on: see the count printed below)
        print(f"\n  {ran} of {ran + skipped} operators ran with every default left out (the others: the kernel refused the sample values; {skipped} with a type this test cannot make)")


class Errors(unittest.TestCase):
    def test_wrong_type_names_operator_argument_position_and_types(self):
        with self.assertRaises(TypeError) as cm:
            ops.aten.add.Tensor(opd.tensor([1.0]), "x")
        self.assertEqual(str(cm.exception), "aten::add.Tensor(): argument 'other' (position 2) must be Tensor, not str")
        with self.assertRaisesRegex(TypeError, r"missing required argument 'other' \(position 2\)"):
            ops.aten.add.Tensor(opd.tensor([1.0]))

    def test_no_overload_lists_the_candidates(self):
        with self.assertRaises(TypeError) as cm:
            ops.aten.add(opd.tensor([1.0]), "x")
        text = str(cm.exception)
        self.assertIn("aten::add() received an invalid combination of arguments - got (Tensor, str)", text)
        self.assertIn("\n * aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", text)

    def test_kernel_errors_keep_the_librarys_message(self):
        with self.assertRaisesRegex(RuntimeError, "mat1 and mat2 shapes cannot be multiplied|size mismatch|shape"):
            ops.aten.mm(opd.tensor([[1.0, 2.0]]), opd.tensor([[1.0, 2.0]]))
        with self.assertRaises(IndexError):
            ops.aten.select.int(opd.tensor([1.0]), 0, 5)

    def test_every_operator_rejects_a_wrong_type_and_a_missing_argument(self):
        checked = 0
        for name, ov in every_overload():
            params = parse_params(ov.schema)
            positional = [p for p in params if not p["kwarg_only"]]
            # The first parameter, when it is a Tensor (conversion goes in order).
            tensor_params = [0] if positional and positional[0]["type"].startswith("Tensor") and \
                positional[0]["type"] not in ("Tensor?", "Tensor[]", "Tensor?[]") and "[" not in positional[0]["type"] else []
            keyword_required = [p for p in params if p["kwarg_only"] and not p["has_default"]]
            if tensor_params and not keyword_required:
                k = tensor_params[0]
                args = [opd.tensor([1.0])] * len(positional)  # (conversion stops at the first bad argument)
                args[k] = "not a tensor"
                with self.assertRaises(TypeError, msg=name) as cm:
                    ov(*args)
                text = str(cm.exception)
                self.assertIn(name, text)
                self.assertIn(f"argument '{positional[k]['name']}' (position {k + 1})", text, name)
                self.assertIn("not str", text, name)
                checked += 1
            required = [p for p in params if not p["has_default"]]
            if required:
                with self.assertRaisesRegex(TypeError, "missing required argument '" + required[0]["name"] + "'", msg=name):
                    ov()
        self.assertGreater(checked, 300)

    def test_fuzz_random_argument_kinds_and_counts(self):
        rng = random.Random(1234)
        overloads = [ov for _, ov in every_overload()]
        values = [None, 0, 1, -1, 2, 2.5, True, "x", "float32", [], [0], [1, 0], (2,), [opd.tensor([1.0])],
                  opd.tensor([1.0, 2.0]), opd.tensor([[1, 2], [3, 4]]), opd.tensor(3.0), opd.tensor([True, False]),
                  object(), np.arange(3.0), {"a": 1}, [None, opd.tensor([0])], -10**30]
        raised = 0
        for _ in range(4000):
            ov = rng.choice(overloads)
            if any(s in ov.schema for s in ("empty", "resize", "new_", "full", "ones", "zeros", "arange", "linspace",
                                            "logspace", "rand", "set_", "as_strided", "repeat", "expand", "_to_copy")):
                continue  # (sizes from random numbers could ask for too much memory; nothing to learn there)
            args = [rng.choice(values) for _ in range(rng.randint(0, 5))]
            try:
                ov(*args)
            except (TypeError, ValueError, RuntimeError, IndexError, NotImplementedError, MemoryError, OverflowError):
                raised += 1
        self.assertGreater(raised, 1000)  # survived: every bad call was an exception, none a crash


class CustomOperators(unittest.TestCase):
    def test_a_cpp_library_appears_without_python_code(self):
        path = os.environ.get("OPD_TEST_CUSTOM_OPS")
        if not path:
            self.skipTest("OPD_TEST_CUSTOM_OPS is not set (the test runs under CTest)")
        opd.load_library(path)
        x = opd.tensor([1.0, 2.0])
        self.assertEqual(ops.pytest.scale(x).tolist(), [2.0, 4.0])
        self.assertEqual(ops.pytest.scale(x, 3.0, offset=1).tolist(), [4.0, 7.0])
        self.assertIn("pytest::scale(Tensor self, float factor=2.0, *, int offset=0) -> Tensor", pydoc.render_doc(ops.pytest.scale.default))
        self.assertEqual(ops.pytest.describe([x, x]), "2 tensors, size [1, 1], mode sum, dtype None")
        self.assertEqual(ops.pytest.describe([x], 3, "max", opd.float64), "1 tensors, size [3, 3], mode max, dtype 7")
        with self.assertRaisesRegex(ValueError, "pytest::fail always fails"):
            ops.pytest.fail(x)
        with self.assertRaises(OSError):
            opd.load_library("/no/such/library.so")

    def test_an_operator_declared_from_python_with_a_python_kernel(self):
        lib = opd.library.Library("pyops")
        lib.define("twice(Tensor x, float factor=2.0) -> Tensor")
        lib.impl("twice", lambda x, factor: ops.aten.mul.Scalar(x, factor))
        x = opd.tensor([1.0, 3.0])
        self.assertEqual(ops.pyops.twice(x).tolist(), [2.0, 6.0])
        self.assertEqual(ops.pyops.twice(x, factor=0.5).tolist(), [0.5, 1.5])
        if torch:
            self.assertEqual(ops.pyops.twice(torch.ones(2)).tolist(), [2.0, 2.0])
        lib.define("pair(Tensor x) -> (Tensor, Tensor)")
        lib.impl("pair", lambda x: (x, ops.aten.neg(x)))
        a, b = ops.pyops.pair(x)
        self.assertEqual(b.tolist(), [-1.0, -3.0])

        class Boom(Exception):
            pass

        def boom(x):
            raise Boom("from the kernel")
        lib.define("boom(Tensor x) -> Tensor")
        lib.impl("boom", boom)
        with self.assertRaisesRegex(Boom, "from the kernel"):   # the kernel's own exception, through the dispatcher
            ops.pyops.boom(x)
        lib.define("bad(Tensor x) -> Tensor")
        lib.impl("bad", lambda x: "not a tensor")
        with self.assertRaisesRegex(TypeError, "pyops::bad: the Python kernel's return 1 must be Tensor, not str"):
            ops.pyops.bad(x)
        old = ops.pyops.twice.default
        lib.remove()
        with self.assertRaises(Exception):
            ops.pyops.twice(x)
        # Declared again with another schema: the packet finds the new one; an
        # overload object read before says it is out of date.
        lib2 = opd.library.Library("pyops")
        lib2.define("twice(Tensor x, int times=3) -> Tensor")
        lib2.impl("twice", lambda x, times: ops.aten.mul.Scalar(x, times))
        self.assertEqual(ops.pyops.twice(x).tolist(), [3.0, 9.0])
        with self.assertRaisesRegex(RuntimeError, "declared again"):
            old(x)
        lib2.remove()


if __name__ == "__main__":
    unittest.main()
