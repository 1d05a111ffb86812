// EXPECT: malformed_schema<opd::schema_error::unknown_symbolic_default, 34,
// A symbolic default PyTorch does not know.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor x, int reduction=Median) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
