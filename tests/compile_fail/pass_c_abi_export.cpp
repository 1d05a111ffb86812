// Exporting C entry points with one line each, and calling one with the C
// types the schema derives (the compile-fail snippets c_abi_* break this).
#include <dispatch/c_abi/shim.hpp>
#include <dispatch/op.hpp>

struct scale : opd::op<"cf::scale(Tensor self, float? factor=None) -> Tensor"> {};
struct sum : opd::op<"cf::sum(int[] dims, Tensor?[] ts, *, bool flag=False) -> (int, float)"> {};
// Returns of every flat kind, and a string (an opd_value).
struct many : opd::op<"cf::many(Tensor self) -> (Device, Scalar, ScalarType, bool, str, int[], float, complex)"> {};
OPD_EXPORT_C(opd_cf_scale, scale)
OPD_EXPORT_C(opd_cf_sum, sum)
OPD_EXPORT_C(opd_cf_many, many)
static_assert(std::is_same_v<opd::c_abi::c_function_t<many>,
                             int32_t(opd_tensor, int32_t*, int32_t*, opd_scalar*, int32_t*, int32_t*, opd_value*,
                                     opd_value*, double*, opd_complex*)>);

static_assert(std::is_same_v<opd::c_abi::c_function_t<scale>, int32_t(opd_tensor, const double*, opd_tensor*)>);
// Where a trampoline exists (x86-64 / AArch64 ELF), the symbol is that function.
static_assert(!OPD_C_EXPORTS_FUNCTIONS ||
              std::is_same_v<decltype(opd_cf_scale), int32_t(opd_tensor, const double*, opd_tensor*)>);

int main() {
  opd_tensor out = nullptr;
  const double f = 2.0;
  int64_t n = 0;
  double s = 0;
  return opd_cf_scale(nullptr, &f, &out) + opd_cf_sum(nullptr, 0, nullptr, 0, 0, &n, &s);
}
