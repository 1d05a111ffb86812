// opd::op on typical schemas: out variants, in-place, optional and list
// arguments, several returns; each with a matching kernel.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>

#include <dispatch/op.hpp>

using namespace opd;

struct max_out : op<"aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, "
                    "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)"> {};
std::tuple<Tensor&, Tensor&> max_out_kernel(const Tensor&, std::int64_t, bool, Tensor& max, Tensor& idx) {
  return {max, idx};
}
static_assert(schema::check_kernel<max_out, decltype(max_out_kernel)>());

struct conv : op<"aten::convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
                 "SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor"> {};
Tensor conv_kernel(const Tensor& input, const Tensor&, const std::optional<Tensor>&, std::span<const std::int64_t>,
                   std::span<const std::int64_t>, std::span<const std::int64_t>, bool, std::span<const std::int64_t>,
                   std::int64_t) {
  return input;
}
static_assert(schema::check_kernel<conv, decltype(conv_kernel)>());

struct lstm_cell : op<"myops::cell(Tensor x, Tensor[] hx, bool[2] flags, str? mode=None, ScalarType? dtype=None) -> ()"> {};
void lstm_cell_kernel(const Tensor&, std::span<const Tensor>, std::array<bool, 2>, std::optional<std::string_view>,
                      std::optional<ScalarType>) {}
static_assert(schema::check_kernel<lstm_cell, decltype(lstm_cell_kernel)>());

int main() {}
