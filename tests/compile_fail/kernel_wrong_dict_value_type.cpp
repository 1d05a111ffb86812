// EXPECT: kernel_argument_mismatch<1, const opd::Dict<std::(__cxx11::)?basic_string<char>, opd::Tensor> ?&, const opd::Dict<std::(__cxx11::)?basic_string<char>, long( int)?> ?&, 't', 'a', 'b', 'l', 'e'>
// Argument 1 (`table`) is a Dict(str, Tensor): a kernel taking a Dict of
// integers there does not fit, and the error names the argument.
#include <dispatch/dispatcher.hpp>

#include <cstdint>
#include <string>

struct my_op : opd::op<"cf_dispatcher::lookup(Tensor self, Dict(str, Tensor) table) -> Tensor"> {};

opd::Tensor kernel(const opd::Tensor& self, const opd::Dict<std::string, std::int64_t>& table);

int main() { auto h = opd::register_kernel<my_op, &kernel>(opd::DispatchKey::CPU); }
