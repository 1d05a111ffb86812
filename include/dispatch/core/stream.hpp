// Stream: a device stream (PyTorch's c10::Stream), a device and an id.
//
// In an IValue a Stream travels as one Int, packed as PyTorch packed it
// before streams had a tag of their own: the id in the low 48 bits, the
// device index and type above it. Unpacking checks the device fields.
#pragma once

#include <cstdint>

#include "dispatch/core/device.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/ivalue.hpp"

namespace opd {

struct Stream {
  Device device = Device(DeviceType::CPU);
  std::int64_t id = 0;
  friend constexpr bool operator==(const Stream&, const Stream&) = default;

  static constexpr int id_bits = 48;
  std::int64_t pack() const {
    OPD_CHECK_VALUE(id >= 0 && id < (std::int64_t{1} << id_bits), "Stream id ", id, " does not fit in ", id_bits,
                    " bits");
    const auto index = static_cast<std::uint64_t>(static_cast<std::uint8_t>(device.index()));
    const auto type = static_cast<std::uint64_t>(device.type());
    return static_cast<std::int64_t>((type << 56) | (index << id_bits) | static_cast<std::uint64_t>(id));
  }
  static Stream unpack(std::int64_t bits) {
    const auto u = static_cast<std::uint64_t>(bits);
    const auto type = static_cast<int>(u >> 56);
    const auto index = static_cast<std::int8_t>(static_cast<std::uint8_t>(u >> id_bits));
    OPD_CHECK_VALUE(type < kNumDeviceTypes, "Int value ", bits, " is not a packed Stream (device type ", type, ")");
    return Stream{Device(static_cast<DeviceType>(type), index),
                  static_cast<std::int64_t>(u & ((std::uint64_t{1} << id_bits) - 1))};
  }
};

template <>
struct ivalue_converter<Stream> {
  static IValue to_ivalue(const Stream& s) { return IValue(s.pack()); }
  static Stream from_ivalue(const IValue& v) { return Stream::unpack(v.to_int()); }
};

}  // namespace opd
