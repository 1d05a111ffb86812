// DeviceType and Device {type, index}: where a tensor's memory lives.
//
// Why a separate small value type: Device travels in IValues, picks the
// allocator and the backend dispatch key, and is parsed from schema defaults
// and user strings ("cuda:1"), so it must be cheap to copy, hashable, and its
// parser must reject bad input with an opd::Error instead of crashing.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "dispatch/core/error.hpp"

namespace opd {

enum class DeviceType : uint8_t {
  CPU = 0,
  CUDA = 1,
  Meta = 2,  // shape-only tensors: no memory is ever allocated
  PrivateUse1 = 3,
  PrivateUse2 = 4,
  PrivateUse3 = 5,
  Lazy = 6,  // lazy tensors: operators are recorded as a graph, run on sync (include/lazy/)
};

inline constexpr int kNumDeviceTypes = 7;

// Lower-case names are the string form used by Device ("cuda:0"); upper-case
// names are the enum spelling.
constexpr std::string_view to_string(DeviceType t, bool lower_case = true) noexcept {
  switch (t) {
    case DeviceType::CPU: return lower_case ? "cpu" : "CPU";
    case DeviceType::CUDA: return lower_case ? "cuda" : "CUDA";
    case DeviceType::Meta: return lower_case ? "meta" : "Meta";
    case DeviceType::PrivateUse1: return lower_case ? "privateuse1" : "PrivateUse1";
    case DeviceType::PrivateUse2: return lower_case ? "privateuse2" : "PrivateUse2";
    case DeviceType::PrivateUse3: return lower_case ? "privateuse3" : "PrivateUse3";
    case DeviceType::Lazy: return lower_case ? "lazy" : "Lazy";
  }
  return "unknown";
}

inline std::ostream& operator<<(std::ostream& os, DeviceType t) { return os << to_string(t, /*lower_case=*/false); }
// The same text for error messages, without a stream (str_cat finds it by ADL).
inline void append_to(std::string& out, DeviceType t) { detail::append_to(out, to_string(t, /*lower_case=*/false)); }

constexpr bool is_valid_device_type(int64_t value) noexcept { return value >= 0 && value < kNumDeviceTypes; }

constexpr std::optional<DeviceType> try_parse_device_type(std::string_view name) noexcept {
  for (int i = 0; i < kNumDeviceTypes; ++i) {
    const auto t = static_cast<DeviceType>(i);
    if (name == to_string(t, true) || name == to_string(t, false)) return t;
  }
  if (name == "privateuseone") return DeviceType::PrivateUse1;  // PyTorch's spelling
  return std::nullopt;
}

// -1 means "no particular index" (the current device of that type).
using DeviceIndex = int16_t;

class Device {
 public:
  // Throws opd::Error for an index < -1, or a CPU index other than -1/0.
  constexpr Device(DeviceType type, DeviceIndex index = -1) : type_(type), index_(index) { validate(); }

  // Parses "cpu", "cuda", "cuda:1", "meta", "privateuse1:0". Throws opd::Error
  // naming the string on anything else.
  explicit Device(std::string_view text) : Device(parse(text)) {}

  static Device parse(std::string_view text) {
    std::string why;
    if (auto d = parse_impl(text, why)) return *d;
    throw ValueError(detail::str_cat("invalid device string '", text, "': ", why));
  }
  static std::optional<Device> try_parse(std::string_view text) noexcept {
    std::string why;
    try {
      return parse_impl(text, why);
    } catch (...) {
      return std::nullopt;
    }
  }

  static constexpr Device cpu() noexcept { return Device(DeviceType::CPU, -1, Unchecked{}); }
  static constexpr Device meta() noexcept { return Device(DeviceType::Meta, -1, Unchecked{}); }
  static Device cuda(DeviceIndex index = -1) { return Device(DeviceType::CUDA, index); }

  constexpr DeviceType type() const noexcept { return type_; }
  constexpr DeviceIndex index() const noexcept { return index_; }
  constexpr bool has_index() const noexcept { return index_ != -1; }
  constexpr bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  constexpr bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  constexpr bool is_meta() const noexcept { return type_ == DeviceType::Meta; }

  void set_index(DeviceIndex index) {
    index_ = index;
    validate();
  }

  std::string str() const {
    std::string s(to_string(type_, true));
    if (has_index()) {
      s += ':';
      s += std::to_string(index_);
    }
    return s;
  }

  friend constexpr bool operator==(const Device&, const Device&) noexcept = default;
  friend std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }
  friend void append_to(std::string& out, const Device& d) { out.append(d.str()); }  // (the same, streamless)

 private:
  struct Unchecked {};
  constexpr Device(DeviceType type, DeviceIndex index, Unchecked) noexcept : type_(type), index_(index) {}

  constexpr void validate() const {
    OPD_CHECK_VALUE(is_valid_device_type(static_cast<int64_t>(type_)), "invalid DeviceType value ",
                    static_cast<int>(type_));
    OPD_CHECK_VALUE(index_ >= -1, "Device index must be -1 or non-negative, got ", index_);
    OPD_CHECK_VALUE(type_ != DeviceType::CPU || index_ <= 0, "CPU device index must be -1 or zero, got ", index_);
  }

  static std::optional<Device> parse_impl(std::string_view text, std::string& why) {
    const auto colon = text.find(':');
    const std::string_view type_name = text.substr(0, colon);
    const auto type = try_parse_device_type(type_name);
    if (!type) {
      why = detail::str_cat("unknown device type '", type_name, "'");
      return std::nullopt;
    }
    if (colon == std::string_view::npos) return Device(*type, -1, Unchecked{});
    const std::string_view digits = text.substr(colon + 1);
    // Only plain decimal digits without leading zeros: "cuda:01", "cuda:-1",
    // "cuda:+1" and "cuda:1x" are all rejected, as in PyTorch.
    if (digits.empty() || (digits.size() > 1 && digits[0] == '0') || digits[0] < '0' || digits[0] > '9') {
      why = "device index must be a non-negative integer";
      return std::nullopt;
    }
    int value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size() || value > INT16_MAX) {
      why = "device index must be a non-negative integer that fits in 16 bits";
      return std::nullopt;
    }
    if (*type == DeviceType::CPU && value != 0) {
      why = "CPU device index must be -1 or zero";
      return std::nullopt;
    }
    return Device(*type, static_cast<DeviceIndex>(value), Unchecked{});
  }

  DeviceType type_;
  DeviceIndex index_;
};

static_assert(sizeof(Device) <= 4, "Device is stored inline in IValue");

}  // namespace opd

template <>
struct std::hash<opd::Device> {
  std::size_t operator()(const opd::Device& d) const noexcept {
    return std::hash<uint32_t>()((static_cast<uint32_t>(d.type()) << 16) | static_cast<uint16_t>(d.index()));
  }
};
