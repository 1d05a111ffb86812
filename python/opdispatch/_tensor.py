"""opdispatch.Tensor: TensorBase (the C type holding the library's tensor) with
Python's operators, indexing and conversions, each one call of an operator."""
import builtins
import functools
import numbers

from . import _C
from ._ops import ops


def _is_index_tensor(i):
    return isinstance(i, (_C.TensorBase, list)) or hasattr(i, "__dlpack__")


class Tensor(_C.TensorBase):
    __slots__ = ()

    # ---- conversions -------------------------------------------------------------------
    def numpy(self):
        """A writable NumPy array over the same memory (no copy), through the
        buffer protocol (NumPy 1.24's from_dlpack gives read-only arrays)."""
        import numpy as np
        return np.asarray(memoryview(self))

    def __array__(self, dtype=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def _readable(self):
        """NumPy has no complex32: such a tensor is read as its complex64 copy (exact)."""
        if self.dtype == _C.complex32:
            return ops.aten._to_copy.default(self, dtype=_C.complex64).numpy()
        return self.numpy()

    def item(self):
        if self.numel() != 1:
            raise ValueError(f"item(): the tensor has {self.numel()} elements, not one")
        return self._readable().reshape(()).item()

    def tolist(self):
        return self._readable().tolist()

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __bool__(self):
        return builtins.bool(self.item())

    def __float__(self):
        return builtins.float(self.item())

    def __int__(self):
        return builtins.int(self.item())

    def __index__(self):
        return builtins.int(self.item())

    # ---- every aten operator as a method: t.relu(), t.sum(dim=1) -----------------------
    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return functools.partial(getattr(ops.aten, name), self)

    # ---- indexing through the library's views ------------------------------------------
    def __getitem__(self, index):
        return _index(self, index)

    def __setitem__(self, index, value):
        if not isinstance(index, tuple):
            index = (index,)
        if any(_is_index_tensor(i) for i in index):
            view, indices = _basic(self, index)
            values = value if _is_index_tensor(value) else tensor(value, dtype=self.dtype)
            ops.aten.index_put_(view, indices, values)
            return
        view, _ = _basic(self, index)
        if isinstance(value, numbers.Number):
            ops.aten.fill_.Scalar(view, value)
        else:
            ops.aten.copy_(view, value)

    # ---- arithmetic and comparison -----------------------------------------------------
    def __add__(self, other): return ops.aten.add(self, other)
    def __radd__(self, other): return ops.aten.add(self, other)
    def __iadd__(self, other): return ops.aten.add_(self, other)
    def __sub__(self, other): return ops.aten.sub(self, other)
    def __rsub__(self, other): return ops.aten.rsub(self, other)
    def __isub__(self, other): return ops.aten.sub_(self, other)
    def __mul__(self, other): return ops.aten.mul(self, other)
    def __rmul__(self, other): return ops.aten.mul(self, other)
    def __imul__(self, other): return ops.aten.mul_(self, other)
    def __truediv__(self, other): return ops.aten.div(self, other)
    def __rtruediv__(self, other): return ops.aten.mul(ops.aten.reciprocal(self), other)
    def __itruediv__(self, other): return ops.aten.div_(self, other)
    def __floordiv__(self, other): return ops.aten.floor_divide(self, other)
    def __mod__(self, other): return ops.aten.remainder(self, other)
    def __pow__(self, other): return ops.aten.pow(self, other)
    def __rpow__(self, other): return ops.aten.pow(other, self)
    def __matmul__(self, other): return ops.aten.matmul(self, other)
    def __neg__(self): return ops.aten.neg(self)
    def __pos__(self): return self
    def __abs__(self): return ops.aten.abs(self)
    def __invert__(self): return ops.aten.bitwise_not(self)
    def __and__(self, other): return ops.aten.bitwise_and(self, other)
    def __or__(self, other): return ops.aten.bitwise_or(self, other)
    def __xor__(self, other): return ops.aten.bitwise_xor(self, other)
    def __eq__(self, other): return ops.aten.eq(self, other)
    def __ne__(self, other): return ops.aten.ne(self, other)
    def __lt__(self, other): return ops.aten.lt(self, other)
    def __le__(self, other): return ops.aten.le(self, other)
    def __gt__(self, other): return ops.aten.gt(self, other)
    def __ge__(self, other): return ops.aten.ge(self, other)
    __hash__ = _C.TensorBase.__hash__


_C._set_tensor_class(Tensor)


def _basic(t, index):
    """Applies ints, slices, None and Ellipsis as views; returns the view and the
    index tensors (one per dimension of the view, None where none) if any."""
    consuming = [i for i in index if i is not None and i is not Ellipsis]
    if len(consuming) > t.ndim:
        raise IndexError(f"too many indices for a tensor of dimension {t.ndim}")
    if any(i is Ellipsis for i in index):
        k = next(n for n, i in enumerate(index) if i is Ellipsis)
        rest = tuple(i for i in index[k + 1:] if i is not Ellipsis)
        index = index[:k] + (slice(None),) * (t.ndim - len(consuming)) + rest
    dim = 0
    advanced = {}
    for i in index:
        if i is None:
            t = ops.aten.unsqueeze(t, dim)
            dim += 1
        elif isinstance(i, builtins.bool):
            raise IndexError("a bool index is not supported")
        elif isinstance(i, numbers.Integral):
            n = t.shape[dim]
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {n}")
            t = ops.aten.select.int(t, dim, builtins.int(i))
        elif isinstance(i, slice):
            start, stop, step = i.start, i.stop, 1 if i.step is None else i.step
            if step <= 0:
                raise ValueError("step must be greater than zero")
            t = ops.aten.slice.Tensor(t, dim, start, stop, step)
            dim += 1
        elif _is_index_tensor(i):
            advanced[dim] = i if not isinstance(i, list) else tensor(i)
            dim += 1
        else:
            raise IndexError(f"only integers, slices, None, Ellipsis and tensors are valid indices (got {type(i).__name__})")
    if not advanced:
        return t, None
    return t, [advanced.get(d) for d in range(max(advanced) + 1)]


def _index(t, index):
    if not isinstance(index, tuple):
        index = (index,)
    view, indices = _basic(t, index)
    if indices is None:
        return view
    return ops.aten.index.Tensor(view, indices)


def tensor(data, dtype=None):
    """A new tensor holding a copy of `data` (nested sequences of numbers, a
    NumPy array, a tensor). Python floats become float32 and ints int64, as
    torch.tensor does."""
    import numpy as np
    if isinstance(data, _C.TensorBase):
        source = data
    else:
        if hasattr(data, "__dlpack__") and not isinstance(data, np.ndarray):
            source = _C.as_tensor(data)
        else:
            a = np.array(data)
            if dtype is None and not isinstance(data, np.ndarray):
                if a.dtype == np.float64:
                    a = a.astype(np.float32)
                elif a.dtype == np.complex128:
                    a = a.astype(np.complex64)
            source = _C.as_tensor(np.ascontiguousarray(a))
    out = ops.aten.clone(source)
    if dtype is not None and out.dtype != dtype:
        out = ops.aten._to_copy(out, dtype=dtype)
    return out


def from_numpy(array):
    """A tensor over the array's memory (no copy; the array stays alive while the tensor does)."""
    import numpy as np
    if not isinstance(array, np.ndarray):
        raise TypeError(f"from_numpy: expected a numpy.ndarray, got {type(array).__name__}")
    return _C.as_tensor(array)
