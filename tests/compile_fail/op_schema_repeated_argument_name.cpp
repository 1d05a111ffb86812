// EXPECT: malformed_schema<opd::schema_error::repeated_argument_name, 39,
// Two arguments named `norm`: keyword and boxed calls by name would be ambiguous.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor self, str? norm, str? norm=None) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
