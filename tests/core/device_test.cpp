// Device parsing/printing/validation, Layout and MemoryFormat numbering.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <unordered_set>

#include "dispatch/core/device.hpp"
#include "dispatch/core/layout.hpp"
#include "dispatch/core/memory_format.hpp"

using opd::Device;
using opd::DeviceType;

TEST(Device, ParsesValidStrings) {
  struct Case {
    const char* text;
    DeviceType type;
    int index;
  };
  const Case cases[] = {
      {"cpu", DeviceType::CPU, -1},
      {"cpu:0", DeviceType::CPU, 0},
      {"cuda", DeviceType::CUDA, -1},
      {"cuda:0", DeviceType::CUDA, 0},
      {"cuda:1", DeviceType::CUDA, 1},
      {"cuda:15", DeviceType::CUDA, 15},
      {"meta", DeviceType::Meta, -1},
      {"privateuse1:2", DeviceType::PrivateUse1, 2},
      {"privateuseone", DeviceType::PrivateUse1, -1},
      {"privateuse3", DeviceType::PrivateUse3, -1},
      {"lazy", DeviceType::Lazy, -1},
      {"lazy:0", DeviceType::Lazy, 0},
  };
  for (const auto& c : cases) {
    const Device d = Device::parse(c.text);
    EXPECT_EQ(d.type(), c.type) << c.text;
    EXPECT_EQ(d.index(), c.index) << c.text;
    EXPECT_EQ(Device(std::string_view(c.text)), d);
    ASSERT_TRUE(Device::try_parse(c.text).has_value());
  }
}

TEST(Device, RejectsBadStringsWithAnError) {
  const char* bad[] = {"",       "gpu",     "CUDA:x", "cuda:",  "cuda:-1", "cuda:01",     "cuda:1x",
                       "cuda:1:2", " cuda", "cuda ",  "cpu:1",  "cuda:99999", "cuda:+1", ":1"};
  for (const char* text : bad) {
    EXPECT_THROW(Device::parse(text), opd::Error) << text;
    EXPECT_FALSE(Device::try_parse(text).has_value()) << text;
  }
  try {
    Device::parse("gpu:0");
    FAIL() << "expected an error";
  } catch (const opd::Error& e) {
    EXPECT_EQ(std::string(e.what()), "invalid device string 'gpu:0': unknown device type 'gpu'");
  }
}

TEST(Device, ConstructorValidatesIndex) {
  EXPECT_THROW((void)Device(DeviceType::CUDA, -2), opd::Error);
  EXPECT_THROW((void)Device(DeviceType::CPU, 1), opd::Error);
  EXPECT_NO_THROW((void)Device(DeviceType::CPU, 0));
  Device d(DeviceType::CUDA, 3);
  EXPECT_THROW(d.set_index(-5), opd::Error);
}

TEST(Device, PrintsAndRoundTrips) {
  EXPECT_EQ(Device(DeviceType::CUDA, 1).str(), "cuda:1");
  EXPECT_EQ(Device::cpu().str(), "cpu");
  EXPECT_EQ(Device::meta().str(), "meta");
  std::ostringstream os;
  os << Device(DeviceType::PrivateUse2, 0) << " " << DeviceType::CUDA;
  EXPECT_EQ(os.str(), "privateuse2:0 CUDA");
  for (const char* text : {"cpu", "cuda:7", "meta", "privateuse1:0"}) {
    EXPECT_EQ(Device::parse(text).str(), text);
  }
}

TEST(Device, EqualityAndHashing) {
  EXPECT_EQ(Device::cuda(1), Device(DeviceType::CUDA, 1));
  EXPECT_NE(Device::cuda(1), Device::cuda(0));
  EXPECT_NE(Device::cuda(), Device::cuda(0));
  std::unordered_set<Device> set{Device::cpu(), Device::cuda(0), Device::cuda(1), Device::cuda(0)};
  EXPECT_EQ(set.size(), 3u);
  EXPECT_TRUE(Device::cpu().is_cpu());
  EXPECT_TRUE(Device::cuda(2).is_cuda());
  EXPECT_TRUE(Device::cuda(2).has_index());
  EXPECT_FALSE(Device::meta().has_index());
}

TEST(Layout, NumberingAndNames) {
  EXPECT_EQ(static_cast<int>(opd::Layout::Strided), 0);
  EXPECT_EQ(static_cast<int>(opd::Layout::Sparse), 1);
  EXPECT_EQ(static_cast<int>(opd::Layout::SparseCsr), 2);
  EXPECT_EQ(static_cast<int>(opd::Layout::Mkldnn), 3);
  EXPECT_EQ(opd::to_string(opd::Layout::Strided), "Strided");
  EXPECT_EQ(opd::try_parse_layout("Sparse"), opd::Layout::Sparse);
  EXPECT_FALSE(opd::try_parse_layout("strided").has_value());
}

TEST(MemoryFormat, NumberingAndNames) {
  EXPECT_EQ(static_cast<int>(opd::MemoryFormat::Contiguous), 0);
  EXPECT_EQ(static_cast<int>(opd::MemoryFormat::Preserve), 1);
  EXPECT_EQ(static_cast<int>(opd::MemoryFormat::ChannelsLast), 2);
  EXPECT_EQ(static_cast<int>(opd::MemoryFormat::ChannelsLast3d), 3);
  std::ostringstream os;
  os << opd::MemoryFormat::ChannelsLast3d;
  EXPECT_EQ(os.str(), "ChannelsLast3d");
  EXPECT_EQ(opd::try_parse_memory_format("Preserve"), opd::MemoryFormat::Preserve);
  EXPECT_TRUE(opd::is_valid_memory_format(3));
  EXPECT_FALSE(opd::is_valid_memory_format(4));
}
