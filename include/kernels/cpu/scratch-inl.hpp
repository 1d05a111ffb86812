#pragma once
// Scratch memory for kernels: a per-thread block, reused from call to call,
// for the large temporaries a kernel needs only while it runs (conv2d's
// padded image, reordered weights and accumulator, im2col's unfolded matrix).
// Freshly allocated blocks of a few hundred KB come from mmap and cost a page
// fault per 4 KB on first touch, every call (about 0.5 ms of a 2 ms ResNet
// 3x3 layer); ATen's oneDNN keeps its scratchpad the same way.
//
//   detail::Scratch s(bytes);   // s.data(): 64-byte aligned, uninitialised
//
// The thread's block grows to the largest request and is kept until the
// thread ends. A Scratch taken while the thread's block is in use (a kernel
// inside a kernel) gets a block of its own, freed when it goes.
// Only kernel sources include this header (as loops-inl.hpp).
#include <cstddef>
#include <new>

namespace opd::kernels::detail {

class Scratch {
 public:
  explicit Scratch(std::size_t bytes) {
    Block& b = thread_block();
    if (!b.busy) {
      if (b.capacity < bytes) {
        release(b.data);
        b.data = nullptr;
        b.capacity = 0;
        b.data = acquire(bytes);
        b.capacity = bytes;
      }
      b.busy = true;
      data_ = b.data;
      owned_ = false;
    } else {
      data_ = acquire(bytes);
      owned_ = true;
    }
  }
  ~Scratch() {
    if (owned_) {
      release(data_);
    } else {
      thread_block().busy = false;
    }
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  void* data() const noexcept { return data_; }
  template <class T>
  T* as(std::size_t element_offset = 0) const noexcept {
    return static_cast<T*>(data_) + element_offset;
  }

 private:
  static constexpr std::align_val_t kAlign{64};
  struct Block {
    void* data = nullptr;
    std::size_t capacity = 0;
    bool busy = false;
    ~Block() { release(data); }
  };
  static Block& thread_block() {
    thread_local Block block;
    return block;
  }
  static void* acquire(std::size_t bytes) { return ::operator new(bytes == 0 ? 1 : bytes, kAlign); }
  static void release(void* p) noexcept {
    if (p) ::operator delete(p, kAlign);
  }

  void* data_ = nullptr;
  bool owned_ = false;
};

}  // namespace opd::kernels::detail
