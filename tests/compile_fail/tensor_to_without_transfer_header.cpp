// EXPECT: (incomplete type|undefined template).*transfer
// Tensor::to is defined by <dispatch/transfer.hpp>; a file that calls it
// without that header fails to compile, naming detail::transfer, instead of
// failing to link.
#include <dispatch/dispatcher.hpp>

opd::Tensor move(const opd::Tensor& t) { return t.to(opd::Device::cpu()); }
