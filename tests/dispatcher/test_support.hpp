#pragma once
// Helpers shared by the dispatcher tests.
//
// The Dispatcher is a process-wide singleton whose operator entries live for
// the whole process: every test uses operator names of its own ("t_<test>::op")
// and RAII registration handles, so a test leaves no kernels behind.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include <dispatch/dispatcher.hpp>

namespace opd_test {

using opd::DispatchKey;
using opd::DispatchKeySet;

// A tensor whose key set is exactly `ks` (dispatch only looks at the key set;
// the storage is a Meta one, so nothing is allocated).
inline opd::Tensor tensor_with_keys(DispatchKeySet ks) {
  opd::Tensor t = opd::empty(std::vector<int64_t>{1}, opd::ScalarType::Float, opd::Device::meta());
  t.unsafe_get_impl()->set_key_set(ks);
  return t;
}
inline opd::Tensor tensor_with_keys(DispatchKey k) { return tensor_with_keys(DispatchKeySet(k)); }

// A CPU float tensor holding `values`.
inline opd::Tensor cpu_floats(const std::vector<float>& values) { return opd::from_vector<float>(values); }

// A CPU tensor that additionally carries the AutogradCPU key (PyTorch's
// "requires_grad" dummy tensor).
// Whether the computed table entry of k falls through (dump_computed_table's
// reason): a masked fallthrough, or an autograd key whose slot passes the
// whole autograd layer (c10's per-backend fallthrough, operator_entry-inl.hpp).
inline bool falls_through(const opd::OperatorEntry& e, DispatchKey k) {
  const std::string table = opd::Dispatcher::singleton().dump_computed_table(e.name(), true);
  const std::string line = std::string(opd::to_string(k)) + ": fallthrough";
  return table.rfind(line, 0) == 0 || table.find("\n" + line) != std::string::npos;
}
inline opd::Tensor cpu_requires_grad() { return tensor_with_keys(DispatchKeySet{DispatchKey::CPU, DispatchKey::AutogradCPU}); }

// Host memory that pretends to be a device: installs a plain CPU-style
// allocator for a device type for the scope of a test, so that tensors on
// PrivateUse1 have readable bytes.
class HostBackedAllocator final : public opd::Allocator {
 public:
  opd::DataPtr allocate(std::size_t nbytes, opd::Device device) override {
    if (nbytes == 0) return opd::DataPtr(nullptr, nullptr, nullptr, device);
    void* p = ::operator new(nbytes);
    return opd::DataPtr(p, p, &free_it, device);
  }

 private:
  static void free_it(void* p) noexcept { ::operator delete(p); }
};
class ScopedHostAllocator {
 public:
  explicit ScopedHostAllocator(opd::DeviceType type) : type_(type), previous_(opd::set_allocator(type, &alloc_)) {}
  ~ScopedHostAllocator() { opd::set_allocator(type_, previous_); }
  ScopedHostAllocator(const ScopedHostAllocator&) = delete;
  ScopedHostAllocator& operator=(const ScopedHostAllocator&) = delete;

 private:
  HostBackedAllocator alloc_;
  opd::DeviceType type_;
  opd::Allocator* previous_;
};

// A contiguous copy of `t` (host-addressable memory) on `device`.
inline opd::Tensor copy_to(const opd::Tensor& t, opd::Device device) {
  opd::Tensor out = opd::empty(t.sizes(), t.dtype(), device);
  if (t.nbytes() > 0) std::memcpy(out.data_ptr(), t.data_ptr(), t.nbytes());
  return out;
}
// The float elements of a contiguous host-addressable tensor on any device.
inline std::vector<float> floats_of(const opd::Tensor& t) {
  const float* p = static_cast<const float*>(t.data_ptr());
  return std::vector<float>(p, p + t.numel());
}

// Expects `f` to throw E whose what() contains every one of `parts`.
template <class E = opd::Error, class F>
void expect_throw_containing(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
  } catch (const E& e) {
    const std::string what = e.what();
    for (const auto& p : parts) EXPECT_NE(what.find(p), std::string::npos) << "message '" << what << "' lacks '" << p << "'";
    return;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a different exception type: " << e.what();
    return;
  }
  ADD_FAILURE() << "did not throw";
}

// The message of the exception f throws, or "<no exception>".
inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "<no exception>";
}

}  // namespace opd_test
