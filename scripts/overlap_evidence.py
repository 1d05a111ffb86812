# Evidence for docs/functionalization.md ("Programs that do not pass"): the two
# conformance programs (s1-0065, s1-0143) whose in-place step reads an operand
# that partially overlaps the tensor it writes, run with PyTorch 1.13
# (Debian's python3-torch; the peer, not a dependency): eagerly as written,
# eagerly with that operand cloned first, and under functorch.functionalize;
# then whether TensorIterator refuses partial overlap it can see.
# Run: /usr/bin/python3 scripts/overlap_evidence.py   (not part of CI)
import torch, functorch
print("torch", torch.__version__)

def inputs(*sizes):
    out = []
    for i, s in enumerate(sizes):
        n = 1
        for d in s: n *= d
        out.append((torch.arange(n, dtype=torch.float32) * 0.5 - 3 + i).reshape(s))
    return out

# s1-0065; `snapshot` clones the overlapping operand (reads it as it was before the step).
def p65(x0, x1, snapshot=False):
    v3, v4, v5, v6 = torch.ops.aten.unbind.int(x0, 1)
    v8 = torch.ops.aten.alias(v4)
    v4.mul_(2)
    x0.mul_(v6.clone() if snapshot else v6)      # v6 = x0[:, 3], a column of x0 (stride 4)
    v10 = x0.permute(1, 0)
    v11 = v8[2:3:2]
    v11.mul_(v11)
    return v4

# s1-0143
def p143(x0, snapshot=False):
    v1 = torch.ops.aten.diagonal(x0, 0, 1, 0)
    v1.zero_()
    v2 = x0.unsqueeze(2)
    x0.mul_(2)
    v3 = v2[:, 0:1]
    v2.sub_(v3.clone() if snapshot else v3, alpha=2)   # v3 = v2[:, 0:1], broadcast over v2's dim 1
    v3.add_(1.5)
    return v1

for name, prog, sizes, expected in [("s1-0065", p65, [(4, 4), (3, 1, 2)], [-2.5, -0.5, 45.5625, 15.75]),
                                    ("s1-0143", p143, [(3, 2)], [1.5, -8.0])]:
    print(name, "expected (the data file, eager 1.13):", expected)
    print(name, "eager, operand overlapping self  :", prog(*inputs(*sizes)).tolist())
    print(name, "eager, operand cloned first      :", prog(*inputs(*sizes), snapshot=True).tolist())
    f = functorch.functionalize(prog)
    print(name, "functorch.functionalize          :", f(*inputs(*sizes)).tolist())

# The overlapping step alone.
x = inputs((4, 4))[0]
col = x[:, 3]
print("x.mul_(x[:, 3]): col contiguous?", col.is_contiguous(), "stride", col.stride())
a = x.clone(); a.mul_(a[:, 3]); b = x.clone(); b.mul_(b[:, 3].clone())
print("  in place, operand aliased :", a.flatten().tolist())
print("  operand cloned first      :", b.flatten().tolist())
import numpy as np
n = x.numpy().copy(); np.multiply(n, n[:, 3], out=n)
print("  numpy", np.__version__, "np.multiply(n, n[:, 3], out=n):", n.flatten().tolist())
v = torch.tensor([[1., 2.], [-4., 0.], [3., 5.]]).unsqueeze(2)
a = v.clone(); a.sub_(a[:, 0:1], alpha=2); b = v.clone(); b.sub_(b[:, 0:1].clone(), alpha=2)
print("v.sub_(v[:, 0:1], alpha=2): operand contiguous?", v[:, 0:1].is_contiguous(), "stride", v[:, 0:1].stride())
print("  in place, operand aliased :", a.flatten().tolist())
print("  operand cloned first      :", b.flatten().tolist())

# Does TensorIterator refuse partial overlap when it can see it (both contiguous)?
def attempt(label, f):
    try:
        f(); print(label, "-> no error")
    except RuntimeError as e:
        print(label, "-> RuntimeError:", str(e).splitlines()[0])
y = torch.arange(8.)
attempt("y[1:5].add_(y[0:4])   (contiguous, partial overlap)", lambda: y[1:5].add_(y[0:4]))
attempt("y[1:5].mul_(y[0:4])   (contiguous, partial overlap)", lambda: y[1:5].mul_(y[0:4]))
attempt("y[0:4].add_(y[0:4])   (full overlap)", lambda: y[0:4].add_(y[0:4]))
z = torch.arange(16.).reshape(4, 4)
attempt("z.mul_(z[:, 3])       (column: non-contiguous)", lambda: z.mul_(z[:, 3]))
attempt("z.mul_(z[3])          (row: contiguous, partial overlap)", lambda: z.mul_(z[3]))
w = torch.arange(6.).reshape(3, 2, 1)
attempt("w.sub_(w[:, 0:1])     (non-contiguous slice)", lambda: w.sub_(w[:, 0:1], alpha=2))
