// The *_copy schemas derived at compile time: name + "_copy" (overload kept),
// alias annotations dropped (also a wildcard's), a list return stays a list.
#include <kernels/ops_view_copies.hpp>

namespace ops = opd::kernels::ops;
static_assert(ops::transpose_copy::schema_str == "aten::transpose_copy.int(Tensor self, int dim0, int dim1) -> Tensor");
static_assert(ops::split_copy::schema_str == "aten::split_copy.Tensor(Tensor self, int split_size, int dim=0) -> Tensor[]");
static_assert(ops::expand_copy::schema_str == "aten::expand_copy(Tensor self, SymInt[] size, *, bool implicit=False) -> Tensor");
struct my_view : opd::op<"myops::pick(Tensor(a) self, int i) -> Tensor(a)"> {};
static_assert(opd::kernels::view_copy_of<my_view>::schema_str == "myops::pick_copy(Tensor self, int i) -> Tensor");
static_assert(std::is_same_v<opd::kernels::view_copy_of<my_view>::view_op, my_view>);
int main() {}
