// The boxed C entry (opd_call_boxed), the tool's agreement with the
// templates, and a fuzz-style run of random tags, NULLs and lengths into the
// C entry points (never a crash: run under ASan+UBSan in the sanitizer build).
#include <gtest/gtest.h>

#include <dispatch/c_abi/shim.hpp>
#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "c_test_ops.hpp"
#include "ctest_init.h"
#include "opd_ctest.h"

namespace {

struct CAbiBoxed : ::testing::Test {
  void SetUp() override { ASSERT_EQ(opd_ctest_init(), OPD_OK) << opd_last_error(); }
};

opd_any any_tensor(opd_tensor t) {
  opd_any a{};
  a.tag = OPD_TAG_TENSOR;
  a.v.tensor = t;
  return a;
}
opd_any any_int(int64_t i) {
  opd_any a{};
  a.tag = OPD_TAG_INT;
  a.v.i = i;
  return a;
}
opd_tensor ones(int64_t n) {
  opd_tensor t = nullptr;
  EXPECT_EQ(opd_tensor_empty(1, &n, OPD_DTYPE_FLOAT32, OPD_DEVICE_CPU, -1, &t), OPD_OK);
  void* p = nullptr;
  opd_tensor_data_ptr(t, &p);
  for (int64_t i = 0; i < n; ++i) static_cast<float*>(p)[i] = 1.0f;
  return t;
}
float first(opd_tensor t) {
  void* p = nullptr;
  opd_tensor_data_ptr(t, &p);
  return *static_cast<const float*>(p);
}

static_assert(sizeof(opd_any) == 16, "opd_any is 16 bytes, as TVMFFIAny");
static_assert(sizeof(opd_scalar) == 24, "opd_scalar: a tag and 16 bytes, room for a complex");

TEST_F(CAbiBoxed, DefaultsAndIntToFloat) {
  opd_tensor x = ones(2), y = ones(2);
  // add.Tensor(self, other, *, alpha=1): alpha omitted.
  const opd_any args[] = {any_tensor(x), any_tensor(y)};
  opd_any result{};
  int64_t n = 0;
  const std::string add_name = std::string(opd::kernels::ops::add::functional::name) + "." +
                               std::string(opd::kernels::ops::add::functional::overload_name);
  ASSERT_EQ(opd_call_boxed(add_name.c_str(), args, 2, &result, 1, &n),
            OPD_OK)
      << opd_last_error();
  ASSERT_EQ(n, 1);
  ASSERT_EQ(result.tag, OPD_TAG_TENSOR);
  EXPECT_EQ(first(result.v.tensor), 2.0f);
  opd_tensor_release(result.v.tensor);
  // scale(self, float? factor, int? offset): an int for the float.
  const opd_any sargs[] = {any_tensor(x), any_int(5), any_int(1)};
  ASSERT_EQ(opd_call_boxed("ctest::scale", sargs, 3, &result, 1, &n), OPD_OK) << opd_last_error();
  EXPECT_EQ(first(result.v.tensor), 6.0f);
  opd_tensor_release(result.v.tensor);
  // Several returns, a string argument, a None.
  opd_any dargs[3] = {any_tensor(x), opd_any{}, opd_any{}};
  dargs[2].tag = OPD_TAG_STRING;
  dargs[2].v.s = "xyz";
  opd_any results[3]{};
  ASSERT_EQ(opd_call_boxed("ctest::describe", dargs, 3, results, 3, &n), OPD_OK) << opd_last_error();
  ASSERT_EQ(n, 3);
  EXPECT_EQ(results[1].tag, OPD_TAG_INT);
  EXPECT_EQ(results[1].v.i, 3);
  EXPECT_EQ(results[2].v.i, -1);
  opd_tensor_release(results[0].v.tensor);
  // A list argument through an opd_value.
  const opd_any items[] = {any_int(1), any_int(2), any_int(3)};
  opd_value list = nullptr;
  ASSERT_EQ(opd_value_list(items, 3, &list), OPD_OK);
  opd_any largs[1]{};
  largs[0].tag = OPD_TAG_LIST;
  largs[0].v.value = list;
  ASSERT_EQ(opd_call_boxed("ctest::sum_ints", largs, 1, &result, 1, &n), OPD_OK) << opd_last_error();
  EXPECT_EQ(result.tag, OPD_TAG_INT);
  EXPECT_EQ(result.v.i, 6);
  opd_value_release(list);
  opd_tensor_release(x);
  opd_tensor_release(y);
}

// A Dict crosses the C ABI as an opaque opd_value (docs/c_abi.md): a Dict
// result comes back as one of kind OPD_VALUE_OTHER, which C code can pass on
// to another call (tag OPD_TAG_LIST) but not build or read.
struct cabi_make_dict : opd::op<"t_cabi_dict::make(int n) -> Dict(str, int)"> {};
struct cabi_dict_sum : opd::op<"t_cabi_dict::sum(Dict(str, int) d) -> int"> {};
TEST_F(CAbiBoxed, DictIsAnOpaqueValue) {
  auto make = opd::register_kernel<cabi_make_dict>(opd::DispatchKey::CompositeImplicitAutograd, [](int64_t n) {
    opd::Dict<std::string, int64_t> d;
    for (int64_t i = 0; i < n; ++i) d.insert(std::to_string(i), i);
    return d;
  });
  auto sum = opd::register_kernel<cabi_dict_sum>(opd::DispatchKey::CompositeImplicitAutograd,
                                                 [](const opd::Dict<std::string, int64_t>& d) {
                                                   int64_t total = 0;
                                                   for (const auto& e : d) total += e.value();
                                                   return total;
                                                 });
  opd_any arg = any_int(4), result{};
  int64_t n = 0;
  ASSERT_EQ(opd_call_boxed("t_cabi_dict::make", &arg, 1, &result, 1, &n), OPD_OK) << opd_last_error();
  ASSERT_EQ(result.tag, OPD_TAG_LIST);
  int32_t kind = -1;
  ASSERT_EQ(opd_value_kind(result.v.value, &kind), OPD_OK);
  EXPECT_EQ(kind, OPD_VALUE_OTHER);
  opd_any total{};
  ASSERT_EQ(opd_call_boxed("t_cabi_dict::sum", &result, 1, &total, 1, &n), OPD_OK) << opd_last_error();
  EXPECT_EQ(total.tag, OPD_TAG_INT);
  EXPECT_EQ(total.v.i, 0 + 1 + 2 + 3);
  // Not a Dict where one is expected: an error, not a crash.
  EXPECT_NE(opd_call_boxed("t_cabi_dict::sum", &arg, 1, &total, 1, &n), OPD_OK);
  opd_value_release(result.v.value);
}

TEST_F(CAbiBoxed, DefaultsOfEveryKind) {
  opd_any result{};
  int64_t n = 0;
  // All four defaulted: stride=[1, 1], eps=0.5, mode="abc", dims=[3, 4].
  ASSERT_EQ(opd_call_boxed("ctest::defaults", nullptr, 0, &result, 1, &n), OPD_OK) << opd_last_error();
  ASSERT_EQ(result.tag, OPD_TAG_DOUBLE);
  EXPECT_EQ(result.v.d, 1 + 1 + 0.5 + 3 + 3 + 4);
  // The typed shim with the same values given.
  const int64_t stride[] = {1, 1}, dims[] = {3, 4};
  double typed = 0;
  ASSERT_EQ(opd_ctest_defaults(stride, 2, 0.5, "abc", dims, 2, &typed), OPD_OK) << opd_last_error();
  EXPECT_EQ(typed, result.v.d);
  // int[2] given one value: repeated, as PyTorch reads it.
  ASSERT_EQ(opd_ctest_defaults(stride, 1, 0.5, "abc", dims, 2, &typed), OPD_OK) << opd_last_error();
  EXPECT_EQ(typed, result.v.d);
  EXPECT_EQ(opd_ctest_defaults(stride, 3, 0.5, "abc", dims, 2, &typed), OPD_ERR_INVALID_ARGUMENT);
}

TEST_F(CAbiBoxed, ErrorsAreStatuses) {
  opd_any result{};
  int64_t n = 0;
  EXPECT_EQ(opd_call_boxed("ctest::scale", nullptr, 0, &result, 1, &n), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string_view(opd_last_error()).find("self"), std::string_view::npos) << opd_last_error();
  EXPECT_NE(opd_call_boxed(nullptr, nullptr, 0, nullptr, 0, nullptr), OPD_OK);
  EXPECT_NE(opd_call_boxed("ctest::scale", nullptr, -1, nullptr, 0, nullptr), OPD_OK);
  opd_any bad{};
  bad.tag = 1234;
  EXPECT_EQ(opd_call_boxed("ctest::scale", &bad, 1, &result, 1, &n), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string_view(opd_last_error()).find("tag"), std::string_view::npos) << opd_last_error();
  opd_any null_tensor{};
  null_tensor.tag = OPD_TAG_TENSOR;
  EXPECT_EQ(opd_call_boxed("ctest::scale", &null_tensor, 1, &result, 1, &n), OPD_ERR_INVALID_ARGUMENT);
}

#ifdef OPD_SCHEMA_TOOL
// opd-schema --c prints, for each operator's schema, the prototype the templates derive.
template <class Op>
void expect_tool_agrees(std::string_view symbol_free_name) {
  (void)symbol_free_name;
  const std::string dir = ::testing::TempDir();
  const std::string in = dir + "/opd_c_tool_in.txt", out = dir + "/opd_c_tool_out.txt";
  std::ofstream(in) << Op::schema.text << "\n";
  const std::string cmd = std::string(OPD_SCHEMA_TOOL) + " --c < " + in + " > " + out;
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream f(out);
  std::string line;
  std::getline(f, line);
  EXPECT_EQ(line, "ok\t" + std::string(opd::c_abi::c_prototype<Op>::view()));
}
TEST(CAbiTool, AgreesWithTheTemplates) {
  expect_tool_agrees<ctest::scale>("");
  expect_tool_agrees<ctest::count_present>("");
  expect_tool_agrees<ctest::sum_ints>("");
  expect_tool_agrees<ctest::describe>("");
  expect_tool_agrees<ctest::unbind>("");
  expect_tool_agrees<ctest::fill_>("");
  expect_tool_agrees<ctest::codes>("");
  expect_tool_agrees<opd::kernels::ops::add::out>("");
  expect_tool_agrees<opd::kernels::ops::add::functional>("");
}
#endif

// Random tags, payloads, NULLs and lengths into the boxed entry and the
// value/tensor functions: every call returns a status.
TEST_F(CAbiBoxed, FuzzNeverCrashes) {
  std::mt19937_64 rng(20261123);
  opd_tensor t = ones(3);
  const int64_t lens[] = {0, 1, 3};
  const opd_any good[] = {any_int(1), any_int(2)};
  opd_value list = nullptr;
  ASSERT_EQ(opd_value_list(good, 2, &list), OPD_OK);
  const char* names[] = {"ctest::scale", "ctest::count_present", "ctest::sum_ints", "ctest::describe",
                         "ctest::unbind", "ctest::fill_", "ctest::scalar_to_int", "ctest::codes",
                         "ctest::fail", "nope::nothing", ""};
  const std::string add_name = std::string(opd::kernels::ops::add::functional::name) + "." +
                               std::string(opd::kernels::ops::add::functional::overload_name);
  int ok = 0, failed = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    opd_any args[6];
    const int64_t nargs = static_cast<int64_t>(rng() % 7);
    for (auto& a : args) {
      a = opd_any{};
      a.tag = static_cast<int32_t>(rng() % 11) - 1;  // -1 and 9: unknown tags
      switch (a.tag) {
        case OPD_TAG_INT: a.v.i = static_cast<int64_t>(rng() % 7) - 3; break;
        case OPD_TAG_DOUBLE: a.v.d = static_cast<double>(rng() % 100) / 7.0; break;
        case OPD_TAG_BOOL: a.v.i = static_cast<int64_t>(rng() % 2); break;
        case OPD_TAG_STRING: a.v.s = rng() % 4 == 0 ? nullptr : "mode"; break;
        case OPD_TAG_TENSOR: a.v.tensor = rng() % 4 == 0 ? nullptr : t; break;
        case OPD_TAG_LIST: a.v.value = rng() % 4 == 0 ? nullptr : list; break;
        case OPD_TAG_DEVICE:
          a.v.device.type = static_cast<int32_t>(rng() % 8) - 1;
          a.v.device.index = static_cast<int32_t>(rng() % 4) - 2;
          break;
        case OPD_TAG_DTYPE: a.v.i32 = static_cast<int32_t>(rng() % 40) - 5; break;
        default: a.v.i = static_cast<int64_t>(rng()); break;
      }
    }
    const std::size_t which = rng() % (std::size(names) + 1);
    const char* name = which == std::size(names) ? add_name.c_str() : names[which];
    opd_any results[4]{};
    int64_t nresults = 0;
    const int64_t max_results = static_cast<int64_t>(rng() % 5);
    const bool null_args = rng() % 16 == 0;
    const int32_t status = opd_call_boxed(rng() % 64 == 0 ? nullptr : name, null_args ? nullptr : args,
                                          rng() % 32 == 0 ? -static_cast<int64_t>(rng() % 5) - 1 : nargs, results,
                                          max_results, &nresults);
    if (status == OPD_OK) {
      ++ok;
      for (int64_t r = 0; r < nresults && r < max_results; ++r) {  // (only those written)
        if (results[r].tag == OPD_TAG_TENSOR) opd_tensor_release(results[r].v.tensor);
        if (results[r].tag == OPD_TAG_LIST) opd_value_release(results[r].v.value);
      }
    } else {
      ++failed;
      EXPECT_STRNE(opd_last_error(), "");
    }
    // The typed shims with random NULLs and lengths.
    const int64_t dims[] = {1, 2, 3};
    const int64_t* maybe = rng() % 2 ? dims : nullptr;
    int64_t sum = 0;
    (void)opd_ctest_sum_ints(maybe, static_cast<int64_t>(rng() % 7) - 3, rng() % 2 ? &maybe : nullptr,
                             lens[rng() % 3] - static_cast<int64_t>(rng() % 2) * 5, 0, rng() % 2 ? &sum : nullptr);
    const opd_tensor* tl[] = {rng() % 2 ? &t : nullptr, nullptr};
    opd_tensor nt = nullptr;
    const opd_tensor* tl2[] = {&nt};
    int64_t cnt = 0;
    double tot = 0;
    (void)opd_ctest_count_present(rng() % 2 ? tl : tl2, static_cast<int64_t>(rng() % 4) - 1, &cnt, &tot);
  }
  EXPECT_GT(ok, 0);
  EXPECT_GT(failed, 0);
  opd_value_release(list);
  opd_tensor_release(t);
}

}  // namespace
