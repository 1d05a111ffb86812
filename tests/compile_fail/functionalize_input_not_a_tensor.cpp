// EXPECT: the functionalized function takes Tensors
// opd::functionalize(f) wraps each argument as a functional tensor, so every
// argument of the returned callable must be an opd::Tensor.
#include <functionalize/functionalize.hpp>

void use() {
  auto g = opd::functionalize([](const opd::Tensor& a, double) { return a; });
  (void)g(opd::Tensor(), 2.0);
}
