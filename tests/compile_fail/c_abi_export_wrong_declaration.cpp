// EXPECT: conflicting|redeclar|different type
// OPD_EXPORT_C declares its symbol through the type derived from the schema:
// a declaration of the same symbol with another C signature (a stale header)
// does not compile beside it.
#include <dispatch/c_abi/shim.hpp>
#include <dispatch/op.hpp>

struct scale : opd::op<"cf::scale(Tensor self, float? factor=None) -> Tensor"> {};
extern "C" int32_t opd_cf_scale(opd_tensor self, const double* factor);  // ret0 missing
OPD_EXPORT_C(opd_cf_scale, scale)

int main() {}
