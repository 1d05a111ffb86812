// EXPECT: cannot convert|no matching function|invalid conversion|no viable conversion|cannot initialize
// float? crosses the C ABI as `const double*` (NULL = None): a double by value is a type error.
#include <dispatch/c_abi/shim.hpp>
#include <dispatch/op.hpp>

struct scale : opd::op<"cf::scale(Tensor self, float? factor=None) -> Tensor"> {};
OPD_EXPORT_C(opd_cf_scale, scale)

int main() {
  opd_tensor out = nullptr;
  return opd_cf_scale(nullptr, 2.0, &out);
}
