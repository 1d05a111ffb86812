// With <dispatch/transfer.hpp>, Tensor::to compiles (the counterpart of
// tensor_to_without_transfer_header.cpp).
#include <dispatch/dispatcher.hpp>
#include <dispatch/transfer.hpp>

opd::Tensor move(const opd::Tensor& t) { return t.to(opd::Device::cpu()); }
