// EXPECT: malformed_schema<opd::schema_error::default_does_not_fit_type, 28,
// A bool default for an int.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor x, int dim=True) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
