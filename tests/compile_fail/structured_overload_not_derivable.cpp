// EXPECT: structured: cannot derive the functional overload name
// "mul.result" is neither "out" nor "<name>_out": the overload name must be given.
#include <structured/structured.hpp>

struct odd : opd::structured<"cf::mul.result(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};

int main() { return odd::has_inplace ? 0 : 1; }
