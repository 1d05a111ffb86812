// The boxed C entry (opd_call_boxed), the tool's agreement with the
// templates, and a fuzz-style run of random tags, NULLs and lengths into the
// C entry points (never a crash: run under ASan+UBSan in the sanitizer build).
#include <gtest/gtest.h>

#include <dispatch/c_abi/shim.hpp>
#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <span>
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

// ---- list elements through the boxed entry ----------------------------------------
// An operator with a list argument of each kind the conversions treat apart;
// it prints what its kernel received, so that a test sees the conversions.
struct lists_op : opd::op<"ctest_boxed::lists(float[] xs, bool[] flags, Device[] devices, int[][] nested, str[] words, "
                          "Tensor?[] ts, float[]? maybe=None, int[2] pair=1) -> str"> {};
std::string lists_cpu(std::span<const double> xs, const std::vector<bool>& flags, std::span<const opd::Device> devices,
                      std::span<const std::vector<int64_t>> nested, std::span<const std::string> words,
                      std::span<const std::optional<opd::Tensor>> ts, std::optional<std::span<const double>> maybe,
                      std::span<const int64_t> pair) {
  std::string out = "xs";
  for (double x : xs) out += opd::detail::str_cat(" ", x);
  out += " flags";
  for (bool f : flags) out += f ? " T" : " F";
  out += " devices";
  for (const opd::Device& d : devices) out += opd::detail::str_cat(" ", d);
  out += " nested";
  for (const auto& inner : nested) {
    out += " [";
    for (int64_t v : inner) out += opd::detail::str_cat(" ", v);
    out += " ]";
  }
  out += " words";
  for (const std::string& w : words) out += " " + w;
  out += " ts";
  for (const auto& t : ts) out += t ? opd::detail::str_cat(" ", t->numel()) : std::string(" none");
  out += maybe ? " maybe" : " no-maybe";
  if (maybe)
    for (double x : *maybe) out += opd::detail::str_cat(" ", x);
  out += " pair";
  for (int64_t v : pair) out += opd::detail::str_cat(" ", v);
  return out;
}

struct CAbiBoxedLists : CAbiBoxed {
  opd::RegistrationHandle kernel = opd::register_kernel<lists_op, &lists_cpu>(opd::DispatchKey::CPU);
  std::vector<opd_value> owned;
  ~CAbiBoxedLists() override {
    for (opd_value v : owned) opd_value_release(v);
  }
  opd_any list(std::vector<opd_any> items) {
    opd_value v = nullptr;
    EXPECT_EQ(opd_value_list(items.data(), static_cast<int64_t>(items.size()), &v), OPD_OK) << opd_last_error();
    owned.push_back(v);
    opd_any a{};
    a.tag = OPD_TAG_LIST;
    a.v.value = v;
    return a;
  }
  static opd_any num(double d) {
    opd_any a{};
    a.tag = OPD_TAG_DOUBLE;
    a.v.d = d;
    return a;
  }
  static opd_any flag(bool b) {
    opd_any a{};
    a.tag = OPD_TAG_BOOL;
    a.v.i = b;
    return a;
  }
  static opd_any str(const char* s) {
    opd_any a{};
    a.tag = OPD_TAG_STRING;
    a.v.s = s;
    return a;
  }
  static opd_any device(int32_t type, int32_t index) {
    opd_any a{};
    a.tag = OPD_TAG_DEVICE;
    a.v.device.type = type;
    a.v.device.index = index;
    return a;
  }
  // Calls lists_op; on success returns what the kernel printed.
  int32_t call(std::vector<opd_any> args, std::string* printed) {
    opd_any result{};
    int64_t n = 0;
    const int32_t status =
        opd_call_boxed("ctest_boxed::lists", args.data(), static_cast<int64_t>(args.size()), &result, 1, &n);
    if (status == OPD_OK) {
      EXPECT_EQ(result.tag, OPD_TAG_LIST);
      const char* text = nullptr;
      EXPECT_EQ(opd_value_string(result.v.value, &text), OPD_OK);
      *printed = text;
      opd_value_release(result.v.value);
    }
    return status;
  }
  // A valid argument list, one list of each kind; `replace` swaps argument k.
  std::vector<opd_any> valid(opd_tensor t) {
    return {list({any_int(1), num(2.5)}), list({flag(true), flag(false)}),
            list({device(OPD_DEVICE_CPU, -1), device(OPD_DEVICE_META, -1)}),
            list({list({any_int(1), any_int(2)}), list({any_int(3)})}), list({str("a"), str("bc")}),
            list({any_tensor(t), opd_any{}, any_tensor(t)})};
  }
};

TEST_F(CAbiBoxedLists, ElementsConvertAsTheSchemaAsks) {
  opd_tensor t = ones(3);
  std::string printed;
  // int and double elements for float[], BOOLs for bool[], DEVICEs for
  // Device[], int lists inside a list for int[][], STRINGs for str[], tensors
  // and NONE for Tensor?[]; the optional list and int[2] left to their defaults.
  ASSERT_EQ(call(valid(t), &printed), OPD_OK) << opd_last_error();
  const std::string expected_head = opd::detail::str_cat("xs ", 1.0, " ", 2.5, " flags T F devices ", opd::Device::cpu(), " ",
                                                         opd::Device(opd::DeviceType::Meta), " nested [ 1 2 ] [ 3 ] words a bc ts 3 none 3");
  EXPECT_EQ(printed, expected_head + " no-maybe pair 1 1");
  // float[]? given an int list; int[2] given a bare INT: two copies.
  std::vector<opd_any> args = valid(t);
  args.push_back(list({any_int(4), any_int(5)}));
  args.push_back(any_int(7));
  ASSERT_EQ(call(args, &printed), OPD_OK) << opd_last_error();
  EXPECT_EQ(printed, expected_head + opd::detail::str_cat(" maybe ", 4.0, " ", 5.0, " pair 7 7"));
  // Empty lists (opd_value_list of no items) of every kind but the tensors
  // (a call with no tensor has no device to dispatch on); NONE for the optional list.
  args = {list({}), list({}), list({}), list({}), list({}), list({any_tensor(t)}), opd_any{}};
  ASSERT_EQ(call(args, &printed), OPD_OK) << opd_last_error();
  EXPECT_EQ(printed, "xs flags devices nested words ts 3 no-maybe pair 1 1");
  opd_tensor_release(t);
}

TEST_F(CAbiBoxedLists, WrongElementsAreStatusesNamingTheArgument) {
  opd_tensor t = ones(1);
  std::string printed;
  struct bad_case {
    std::size_t k;
    opd_any value;
    std::vector<std::string> message;  // what the message must contain
  };
  const bad_case cases[] = {
      {0, list({any_int(1), str("x")}), {"ctest_boxed::lists", "'xs'", "element 1", "float[]", "String"}},
      {1, list({any_int(1), any_int(0)}), {"'flags'", "bool[]", "Int"}},  // ints are no bools
      {2, list({device(OPD_DEVICE_CPU, -1), any_int(0)}), {"'devices'", "element 1", "Device[]"}},
      {3, list({list({any_int(1)}), any_int(2)}), {"'nested'", "element 1", "int[][]"}},
      {3, list({list({any_int(1), num(0.5)})}), {"'nested'", "element 0, element 1", "int[][]", "Double"}},
      {4, list({str("a"), opd_any{}}), {"'words'", "element 1", "str[]", "None"}},
      {5, list({any_tensor(t), str("x")}), {"'ts'", "element 1", "Tensor?[]", "String"}},
      {0, any_int(3), {"'xs'", "float[]", "Int"}},  // a scalar for a list without a size
      {4, any_tensor(t), {"'words'", "str[]", "Tensor"}},
  };
  for (const bad_case& c : cases) {
    std::vector<opd_any> args = valid(t);
    args[c.k] = c.value;
    EXPECT_EQ(call(args, &printed), OPD_ERR_INVALID_ARGUMENT) << "argument " << c.k;
    const std::string message = opd_last_error();
    for (const std::string& part : c.message) EXPECT_NE(message.find(part), std::string::npos) << part << " in: " << message;
  }
  // An optional list with a bad element; a NULL list handle.
  std::vector<opd_any> args = valid(t);
  args.push_back(list({flag(true)}));
  EXPECT_EQ(call(args, &printed), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(opd_last_error()).find("float[]?"), std::string::npos) << opd_last_error();
  args = valid(t);
  args[3].v.value = nullptr;
  EXPECT_EQ(call(args, &printed), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(opd_last_error()).find("'nested'"), std::string::npos) << opd_last_error();
  opd_tensor_release(t);
}

TEST_F(CAbiBoxed, ScalarArgumentsAreCheckedAgainstTheSchema) {
  opd_tensor x = ones(2);
  opd_any result{};
  int64_t n = 0;
  // Tensor?[] through the boxed entry: tensors and a NONE in one list.
  opd_value list = nullptr;
  const opd_any items[] = {any_tensor(x), opd_any{}, any_tensor(x)};
  ASSERT_EQ(opd_value_list(items, 3, &list), OPD_OK);
  opd_any largs[1]{};
  largs[0].tag = OPD_TAG_LIST;
  largs[0].v.value = list;
  opd_any results[2]{};
  ASSERT_EQ(opd_call_boxed("ctest::count_present", largs, 1, results, 2, &n), OPD_OK) << opd_last_error();
  EXPECT_EQ(results[0].v.i, 2);
  EXPECT_EQ(results[1].v.d, 4.0);
  opd_value_release(list);
  // An int where a tensor is expected; a DOUBLE for an int; an INT for a bool.
  const opd_any not_tensor[] = {any_int(1)};
  EXPECT_EQ(opd_call_boxed("ctest::scale", not_tensor, 1, &result, 1, &n), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(opd_last_error()).find("'self': expected Tensor, got Int"), std::string::npos) << opd_last_error();
  opd_any scale_args[3] = {any_tensor(x), any_int(2), opd_any{}};
  scale_args[2].tag = OPD_TAG_DOUBLE;
  scale_args[2].v.d = 1.5;
  EXPECT_EQ(opd_call_boxed("ctest::scale", scale_args, 3, &result, 1, &n), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(opd_last_error()).find("'offset': expected int?, got Double"), std::string::npos) << opd_last_error();
  const opd_any dims_items[] = {any_int(1)};
  ASSERT_EQ(opd_value_list(dims_items, 1, &list), OPD_OK);
  opd_any sum_args[3] = {opd_any{}, opd_any{}, any_int(1)};
  sum_args[0].tag = OPD_TAG_LIST;
  sum_args[0].v.value = list;
  EXPECT_EQ(opd_call_boxed("ctest::sum_ints", sum_args, 3, &result, 1, &n), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(opd_last_error()).find("'negate': expected bool, got Int"), std::string::npos) << opd_last_error();
  sum_args[2].tag = OPD_TAG_BOOL;
  ASSERT_EQ(opd_call_boxed("ctest::sum_ints", sum_args, 3, &result, 1, &n), OPD_OK) << opd_last_error();
  EXPECT_EQ(result.v.i, -1);
  opd_value_release(list);
  opd_tensor_release(x);
}

TEST_F(CAbiBoxed, OperatorHandles) {
  opd_op op = nullptr, again = nullptr;
  ASSERT_EQ(opd_op_find("ctest::scale", &op), OPD_OK) << opd_last_error();
  ASSERT_EQ(opd_op_find("ctest::scale", &again), OPD_OK);
  EXPECT_EQ(op, again);  // one handle per operator
  opd_tensor x = ones(2);
  const opd_any args[] = {any_tensor(x), any_int(3)};
  opd_any result{};
  int64_t n = 0;
  ASSERT_EQ(opd_op_call_boxed(op, args, 2, &result, 1, &n), OPD_OK) << opd_last_error();
  EXPECT_EQ(first(result.v.tensor), 3.0f);
  opd_tensor_release(result.v.tensor);
  EXPECT_EQ(opd_op_find("nope::nothing", &op), OPD_ERR_OPERATOR);
  EXPECT_NE(std::string(opd_last_error()).find("nope::nothing"), std::string::npos) << opd_last_error();
  EXPECT_EQ(opd_op_find(nullptr, &op), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(opd_op_call_boxed(nullptr, args, 2, &result, 1, &n), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(opd_op_call_boxed(again, args, -1, &result, 1, &n), OPD_ERR_INVALID_ARGUMENT);
  opd_tensor_release(x);
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
  const opd::RegistrationHandle lists_kernel = opd::register_kernel<lists_op, &lists_cpu>(opd::DispatchKey::CPU);
  // Random lists for LIST tags: 0 to 4 elements of random tags (lists of the
  // pool's earlier lists among them, so lists of lists), as opd_value_list
  // builds them (a list it refuses is left out).
  std::vector<opd_value> pool;
  const auto random_scalar = [&](opd_any& a, int32_t tag) {
    a = opd_any{};
    a.tag = tag;
    switch (tag) {
      case OPD_TAG_INT: a.v.i = static_cast<int64_t>(rng() % 7) - 3; break;
      case OPD_TAG_DOUBLE: a.v.d = static_cast<double>(rng() % 100) / 7.0; break;
      case OPD_TAG_BOOL: a.v.i = static_cast<int64_t>(rng() % 2); break;
      case OPD_TAG_STRING: a.v.s = rng() % 4 == 0 ? nullptr : "mode"; break;
      case OPD_TAG_TENSOR: a.v.tensor = rng() % 4 == 0 ? nullptr : t; break;
      case OPD_TAG_LIST: a.v.value = pool.empty() || rng() % 8 == 0 ? nullptr : pool[rng() % pool.size()]; break;
      case OPD_TAG_DEVICE:
        a.v.device.type = static_cast<int32_t>(rng() % 8) - 1;
        a.v.device.index = static_cast<int32_t>(rng() % 4) - 2;
        break;
      case OPD_TAG_DTYPE: a.v.i32 = static_cast<int32_t>(rng() % 40) - 5; break;
      default: a.v.i = static_cast<int64_t>(rng()); break;
    }
  };
  for (int k = 0; pool.size() < 48 && k < 400; ++k) {
    opd_any items[4];
    const int64_t n = static_cast<int64_t>(rng() % 5);
    const int32_t same = static_cast<int32_t>(rng() % 9);  // mostly one tag per list, as real callers send
    for (auto& item : items) random_scalar(item, rng() % 3 == 0 ? static_cast<int32_t>(rng() % 9) : same);
    opd_value v = nullptr;
    if (opd_value_list(items, n, &v) == OPD_OK) pool.push_back(v);
  }
  ASSERT_GE(pool.size(), 24u);
  // A valid call of the list operator, which the loop mutates one argument at a time.
  const auto make_list = [&](std::vector<opd_any> items) {
    opd_value v = nullptr;
    EXPECT_EQ(opd_value_list(items.data(), static_cast<int64_t>(items.size()), &v), OPD_OK) << opd_last_error();
    pool.push_back(v);
    opd_any a{};
    a.tag = OPD_TAG_LIST;
    a.v.value = v;
    return a;
  };
  opd_any a_double{}, a_bool{}, a_device{}, a_string{};
  a_double.tag = OPD_TAG_DOUBLE, a_double.v.d = 2.5;
  a_bool.tag = OPD_TAG_BOOL, a_bool.v.i = 1;
  a_device.tag = OPD_TAG_DEVICE, a_device.v.device.type = OPD_DEVICE_CPU, a_device.v.device.index = -1;
  a_string.tag = OPD_TAG_STRING, a_string.v.s = "w";
  const opd_any valid_lists_call[] = {make_list({any_int(1), a_double}), make_list({a_bool}), make_list({a_device}),
                                      make_list({make_list({any_int(1)})}), make_list({a_string}),
                                      make_list({any_tensor(t), opd_any{}}), make_list({any_int(2)}), any_int(3)};
  const char* names[] = {"ctest::scale", "ctest::count_present", "ctest::sum_ints", "ctest::describe",
                         "ctest::unbind", "ctest::fill_", "ctest::scalar_to_int", "ctest::codes",
                         "ctest::fail", "ctest::defaults", "ctest_boxed::lists", "ctest_boxed::lists",
                         "nope::nothing", ""};
  const std::string add_name = std::string(opd::kernels::ops::add::functional::name) + "." +
                               std::string(opd::kernels::ops::add::functional::overload_name);
  int ok = 0, failed = 0, lists_ok = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    opd_any args[9];
    int64_t nargs = static_cast<int64_t>(rng() % 10);
    for (auto& a : args) {
      const int32_t tag = static_cast<int32_t>(rng() % 12) - 1;  // -1 and 9: unknown tags; 10: a list
      random_scalar(a, tag == 10 ? OPD_TAG_LIST : tag);
    }
    const std::size_t which = rng() % (std::size(names) + 1);
    const char* name = which == std::size(names) ? add_name.c_str() : names[which];
    if (std::string_view(name) == "ctest_boxed::lists" && rng() % 2 == 0) {  // valid but for one argument
      const opd_any replacement = args[0];
      std::copy(std::begin(valid_lists_call), std::end(valid_lists_call), args);
      if (rng() % 4 != 0) args[rng() % std::size(valid_lists_call)] = replacement;
      nargs = 6 + static_cast<int64_t>(rng() % 3);
    }
    opd_any results[4]{};
    int64_t nresults = 0;
    const int64_t max_results = static_cast<int64_t>(rng() % 5);
    const bool null_args = rng() % 16 == 0;
    const int32_t status = opd_call_boxed(rng() % 64 == 0 ? nullptr : name, null_args ? nullptr : args,
                                          rng() % 32 == 0 ? -static_cast<int64_t>(rng() % 5) - 1 : nargs, results,
                                          max_results, &nresults);
    if (status == OPD_OK) {
      ++ok;
      if (name != nullptr && std::string_view(name) == "ctest_boxed::lists") ++lists_ok;
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
  EXPECT_GT(lists_ok, 0);  // the list operator ran with random lists too, not only failed
  for (opd_value v : pool) opd_value_release(v);
  opd_tensor_release(t);
}

}  // namespace
