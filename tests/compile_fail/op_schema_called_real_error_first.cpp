// EXPECT: ^([^e]|e[^r]|er[^r]|err[^o]|erro[^r]|error[^:]|error:[^ ])*error: static assertion failed: malformed operator schema([^e]|e[^r]|er[^r]|err[^o]|erro[^r]|error[^:]|error:[^ ])*$
// EXPECT-Clang: ^([^e]|e[^r]|er[^r]|err[^o]|erro[^r]|error[^:]|error:[^ ])*error: static_assert failed due to requirement 'well_formed_schema<opd::malformed_schema<opd::schema_error::unknown_type, 23,([^e]|e[^r]|er[^r]|err[^o]|erro[^r]|error[^:]|error:[^ ])*1 error generated
// A malformed schema whose operator is also called, its result kept: the
// first error (here the only one) is the schema's, not a knock-on one at the
// call ("could not convert ... from 'void' to 'opd::Tensor'"), with g++ and
// clang. (The regexes: no "error: " before the schema's, nor after it.)
#include <dispatch/dispatcher.hpp>

struct axpb : opd::op<"mylib::axpb(Tensor x, Scalr a, Scalar b) -> Tensor"> {};

int main() {
  opd::Tensor t;
  opd::Tensor r = opd::call<axpb>(t, 1.0, 2.0);
  const opd::Tensor& c = opd::call<axpb>(t, 1.0, opd::arg<"b"> = 2.0);
  (void)r;
  (void)c;
  return 0;
}
