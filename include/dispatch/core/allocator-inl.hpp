#pragma once
// Out-of-line part of allocator.hpp: the process-wide allocator table.
#include "dispatch/core/allocator.hpp"

namespace opd::detail {

OPD_FUNC std::atomic<Allocator*>* allocator_table() noexcept {
  struct table {
    std::atomic<Allocator*> slots[kNumDeviceTypes];
    table() noexcept {
      static CPUAllocator cpu;
      static MetaAllocator meta;
      for (auto& slot : slots) slot.store(nullptr, std::memory_order_relaxed);
      slots[static_cast<int>(DeviceType::CPU)].store(&cpu, std::memory_order_relaxed);
      slots[static_cast<int>(DeviceType::Meta)].store(&meta, std::memory_order_relaxed);
    }
  };
  static table t;
  return t.slots;
}

}  // namespace opd::detail
