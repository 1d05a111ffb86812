#pragma once
// Forward declarations of the library's main types, for headers and user
// code that only name them (as c10's KernelFunction.h names Stack without
// including ivalue.h). Includes nothing heavier than <vector> and <cstdint>.
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include <cstdint>
#include <vector>

namespace opd {

// values (dispatch/core/)
class Tensor;
class TensorImpl;
class Storage;
class Scalar;
class IValue;
template <class K, class V>
class Dict;
using Stack = std::vector<IValue>;
class Device;
enum class DeviceType : std::uint8_t;
enum class ScalarType : std::int8_t;
enum class Layout : std::int8_t;
enum class MemoryFormat : std::int8_t;
class Generator;
class Allocator;

// keys (dispatch/keys/)
enum class DispatchKey : std::uint8_t;
class DispatchKeySet;

// the dispatcher (dispatch/dispatcher/)
class Dispatcher;
class OperatorEntry;
struct KernelFunction;
class RegistrationHandle;
class RegistrationSet;

}  // namespace opd
