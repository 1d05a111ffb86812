// EXPECT: functional_variant_of: the schema already is functional
// Asking for the functional variant of a schema that already is functional.
#include <dispatch/schema/variants.hpp>

using mul = opd::schema::schema_literal<"mul.Tensor(Tensor self, Tensor other) -> Tensor">;

int main() { return static_cast<int>(opd::schema::functional_variant_of<mul>::text.size()); }
