// EXPECT: structured: the schema must be an out= schema
// A family is declared by its out= schema, not by the functional one.
#include <structured/structured.hpp>

struct not_out : opd::structured<"cf::mul.Tensor(Tensor self, Tensor other) -> Tensor"> {};

int main() { return not_out::has_inplace ? 0 : 1; }
