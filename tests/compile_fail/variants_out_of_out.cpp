// EXPECT: out_variant_of: the schema already is an out= schema
// Asking for the out= variant of a schema that already is an out= schema.
#include <dispatch/schema/variants.hpp>

constexpr auto add_out =
    opd::schema::schema_of<"add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)">();

int main() { return static_cast<int>(opd::schema::derived_out_schema<add_out>.arguments.size()); }
