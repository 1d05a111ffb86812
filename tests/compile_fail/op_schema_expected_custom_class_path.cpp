// EXPECT: malformed_schema<opd::schema_error::expected_custom_class_path, 26,
// A custom class path not of the form __torch__.torch.classes.<ns>.<Class>.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(__torch__.torch.foo.Bar x) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
