#pragma once
// Tensors to and from DLPack (dlpack.h 0.6's DLManagedTensor), without copies.
// Shared by the C ABI's opd_tensor_from_dlpack / opd_tensor_to_dlpack and the
// Python module's __dlpack__ / from_dlpack. Needs Debian's libdlpack-dev.
#include <dlpack/dlpack.h>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd {

// A tensor over m's memory that owns m: m's deleter runs when the last tensor
// over the memory is gone. Throws ValueError (m untouched, still the caller's)
// for a dtype, device or shape the library cannot hold.
OPD_API Tensor tensor_from_dlpack(DLManagedTensor* m);
// A managed tensor over t's memory, holding a reference to t until the
// consumer calls its deleter. Bool goes out as 8-bit unsigned, as PyTorch 1.13
// sends it (DLPack 0.6 has no bool); kDLBool (0.8) is accepted on import.
OPD_API DLManagedTensor* tensor_to_dlpack(const Tensor& t);

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/c_abi/dlpack-inl.hpp"
#endif
