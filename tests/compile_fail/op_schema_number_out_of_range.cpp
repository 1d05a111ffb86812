// EXPECT: malformed_schema<opd::schema_error::number_out_of_range, 26,
// An integer default beyond int64.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor x, int n=99999999999999999999) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
