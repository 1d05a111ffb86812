"""The quick start from Python: operators from the registry, PyTorch's calling
conventions, tensors shared with PyTorch and NumPy. Run by scripts/examples.sh
(PYTHONPATH=<build>/python)."""
import numpy as np

import opdispatch as opd

x = opd.tensor([1.0, 2.0, 3.0])
y = opd.ops.aten.add.Tensor(x, x, alpha=2)       # keyword-only alpha, from the schema
print("add.Tensor:", y)
print("add (overload from the types):", opd.ops.aten.add(x, 1))
print("sum.dim_IntList:", opd.ops.aten.sum.dim_IntList(opd.tensor([[1, 2], [3, 4]]), [1]))

a = np.arange(4, dtype=np.float32)
view = opd.from_numpy(a)                          # the array's memory, no copy
opd.ops.aten.mul_.Scalar(view, 10)
print("numpy array after mul_ in opdispatch:", a)
assert a.tolist() == [0.0, 10.0, 20.0, 30.0]

try:
    import torch
except ImportError:
    torch = None
if torch is not None:
    t = torch.from_dlpack(y)                      # the same memory on the PyTorch side
    assert t.data_ptr() == y.data_ptr()
    print("relu of a torch tensor:", opd.ops.aten.relu(torch.tensor([-1.0, 2.0])))

try:
    opd.ops.aten.add.Tensor(x, "two")
except TypeError as e:
    print("TypeError:", e)
