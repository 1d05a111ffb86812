#pragma once
// RAII ownership of one registration (a schema, a kernel, a fallback):
// destroying the handle removes exactly what it registered, nothing else.
//
// Both classes are [[nodiscard]], and so is every function that returns one
// (register_kernel, declare, register_structured, register_cpu, ...): a handle
// dropped at once unregisters its kernel at once, and the later "no kernel"
// error would give no hint why.
#include <functional>
#include <utility>
#include <vector>

namespace opd {

class [[nodiscard("dropping a registration handle unregisters at once: keep it for as long as the registration should last")]] RegistrationHandle {
 public:
  RegistrationHandle() = default;
  explicit RegistrationHandle(std::function<void()> undo) : undo_(std::move(undo)) {}
  RegistrationHandle(RegistrationHandle&& o) noexcept : undo_(std::exchange(o.undo_, nullptr)) {}
  RegistrationHandle& operator=(RegistrationHandle&& o) noexcept {
    if (this != &o) {
      release();
      undo_ = std::exchange(o.undo_, nullptr);
    }
    return *this;
  }
  RegistrationHandle(const RegistrationHandle&) = delete;
  RegistrationHandle& operator=(const RegistrationHandle&) = delete;
  ~RegistrationHandle() { release(); }

  // Undo now (idempotent).
  void release() {
    if (undo_) std::exchange(undo_, nullptr)();
  }
  explicit operator bool() const { return static_cast<bool>(undo_); }

 private:
  std::function<void()> undo_;
};

// Several registrations owned together (a Library's worth).
class [[nodiscard("dropping a registration set unregisters at once: keep it for as long as the registrations should last")]] RegistrationSet {
 public:
  void add(RegistrationHandle h) { handles_.push_back(std::move(h)); }
  void add(RegistrationSet other) {
    for (auto& h : other.handles_) handles_.push_back(std::move(h));
    other.handles_.clear();
  }
  std::size_t size() const { return handles_.size(); }
  ~RegistrationSet() {
    while (!handles_.empty()) handles_.pop_back();  // undo in reverse order
  }
  RegistrationSet() = default;
  RegistrationSet(RegistrationSet&&) = default;
  RegistrationSet& operator=(RegistrationSet&&) = default;

 private:
  std::vector<RegistrationHandle> handles_;
};

}  // namespace opd
