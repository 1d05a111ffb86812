// The fallback where OPD_EXPORT_C has no trampoline (forced here with
// OPD_C_EXPORT_POINTERS): the symbol is a constant pointer to the shim, which
// C++ and C call with the same syntax as the function.
#define OPD_C_EXPORT_POINTERS 1
#include <dispatch/c_abi/shim.hpp>
#include <dispatch/op.hpp>

#include <type_traits>

struct scale : opd::op<"cf::scale(Tensor self, float? factor=None) -> Tensor"> {};
OPD_EXPORT_C(opd_cf_scale, scale)
static_assert(OPD_C_EXPORTS_FUNCTIONS == 0);
static_assert(std::is_same_v<decltype(opd_cf_scale), int32_t (*const)(opd_tensor, const double*, opd_tensor*)>);

int main() {
  opd_tensor out = nullptr;
  const double f = 2.0;
  return opd_cf_scale(nullptr, &f, &out);
}
