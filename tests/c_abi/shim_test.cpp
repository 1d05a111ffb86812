// The typed C entry points, called as a C caller would (through the exported
// symbols), from C++ so that failures print well. The C program
// (c_program.c) makes the same kinds of calls from C itself.
#include <gtest/gtest.h>

#include <dispatch/c_abi/c_signature.hpp>
#include <dispatch/c_abi/shim.hpp>
#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <string>
#include <string_view>
#include <vector>

#include "c_test_ops.hpp"
#include "ctest_init.h"
#include "opd_ctest.h"

#if OPD_C_EXPORTS_FUNCTIONS && defined(OPD_CTEST_EXPORTS_LIBRARY)
#include <dlfcn.h>
#include <link.h>
#endif

namespace {

// The derivation spelled out for the convention, one form each.
static_assert(opd::c_abi::c_prototype<opd::kernels::ops::add::out>::view().ends_with(
    "(opd_tensor out, opd_tensor self, opd_tensor other, opd_scalar alpha)"));
static_assert(opd::c_abi::c_prototype<ctest::scale>::view() ==
              "int32_t opd_ctest_scale(opd_tensor self, const double* factor, const int64_t* offset, opd_tensor* ret0)");
static_assert(opd::c_abi::c_prototype<ctest::count_present>::view() ==
              "int32_t opd_ctest_count_present(const opd_tensor* const* tensors, int64_t tensors_len, int64_t* ret0, "
              "double* ret1)");
static_assert(opd::c_abi::c_prototype<ctest::sum_ints>::view() ==
              "int32_t opd_ctest_sum_ints(const int64_t* dims, int64_t dims_len, const int64_t* const* extra, "
              "int64_t extra_len, int32_t negate, int64_t* ret0)");
static_assert(opd::c_abi::c_prototype<ctest::codes>::view() ==
              "int32_t opd_ctest_codes(const int32_t* dtype, const int32_t* device, int32_t device_index, int64_t* "
              "ret0, int64_t* ret1)");
static_assert(opd::c_abi::c_prototype<ctest::unbind>::view() == "int32_t opd_ctest_unbind(opd_tensor self, opd_value* ret0)");
static_assert(opd::c_abi::c_prototype<ctest::fill_>::view() ==
              "int32_t opd_ctest_fill_(opd_tensor self, opd_scalar value)");  // the Tensor(a!) return is the caller's own
static_assert(opd::c_abi::c_prototype<ctest::describe>::view() ==
              "int32_t opd_ctest_describe(opd_tensor self, const opd_tensor* other, opd_str mode, opd_tensor* ret0, "
              "int64_t* ret1, int64_t* ret2)");
// The fingerprint follows the types, not the names.
static_assert(opd::c_abi::c_fingerprint_v<ctest::fail> != opd::c_abi::c_fingerprint_v<ctest::unbind>);
static_assert(opd::c_abi::c_fingerprint(opd::schema::schema_of<"a::x(Tensor self) -> Tensor">()) ==
              opd::c_abi::c_fingerprint(opd::schema::schema_of<"b::y(Tensor other) -> Tensor">()));

struct CAbi : ::testing::Test {
  void SetUp() override { ASSERT_EQ(opd_ctest_init(), OPD_OK) << opd_last_error(); }
  static opd_tensor tensor(std::vector<float> v) {
    static std::vector<std::vector<float>> keep;  // (the handles borrow it; tests are short)
    opd_tensor t = nullptr;
    const int64_t n = static_cast<int64_t>(v.size());
    EXPECT_EQ(opd_tensor_empty(1, &n, OPD_DTYPE_FLOAT32, OPD_DEVICE_CPU, -1, &t), OPD_OK) << opd_last_error();
    void* p = nullptr;
    EXPECT_EQ(opd_tensor_data_ptr(t, &p), OPD_OK);
    std::memcpy(p, v.data(), v.size() * sizeof(float));
    return t;
  }
  static std::vector<float> values(opd_tensor t) {
    int64_t ndim = 0;
    const int64_t* sizes = nullptr;
    void* p = nullptr;
    EXPECT_EQ(opd_tensor_ndim(t, &ndim), OPD_OK);
    EXPECT_EQ(opd_tensor_sizes(t, &sizes), OPD_OK);
    EXPECT_EQ(opd_tensor_data_ptr(t, &p), OPD_OK);
    int64_t n = 1;
    for (int64_t d = 0; d < ndim; ++d) n *= sizes[d];
    const float* f = static_cast<const float*>(p);
    return std::vector<float>(f, f + n);
  }
};

TEST_F(CAbi, FingerprintsMatchTheGeneratedHeader) {
  EXPECT_EQ(opd_add_out_fingerprint, opd_add_out_FINGERPRINT);
  EXPECT_EQ(opd_ctest_scale_fingerprint, opd_ctest_scale_FINGERPRINT);
  EXPECT_EQ(opd_ctest_scale_fingerprint, opd::c_abi::c_fingerprint_v<ctest::scale>);
  EXPECT_NE(opd_ctest_scale_fingerprint, opd_ctest_sum_ints_fingerprint);
}

// The exported symbol is a function of the derived C type (where opd_c.h
// says a trampoline exists), as declared by the generated header.
static_assert(std::is_same_v<std::remove_cvref_t<decltype(opd_ctest_scale)>,
                             std::conditional_t<OPD_C_EXPORTS_FUNCTIONS, opd::c_abi::c_function_t<ctest::scale>,
                                                opd::c_abi::c_function_t<ctest::scale>*>>);

#if OPD_C_EXPORTS_FUNCTIONS && defined(OPD_CTEST_EXPORTS_LIBRARY)
// Loaded as a dynamic caller does (dlopen + dlsym + a cast to the header's
// function type), the symbol is an ELF function symbol and calls as one.
TEST_F(CAbi, ExportedSymbolIsAFunctionThroughDlsym) {
  void* lib = dlopen(OPD_CTEST_EXPORTS_LIBRARY, RTLD_NOW);
  ASSERT_NE(lib, nullptr) << dlerror();
  void* symbol = dlsym(lib, "opd_ctest_scale");
  ASSERT_NE(symbol, nullptr) << dlerror();
  EXPECT_EQ(symbol, reinterpret_cast<void*>(&opd_ctest_scale));
  Dl_info info{};
  void* symbol_entry = nullptr;
  ASSERT_NE(dladdr1(symbol, &info, &symbol_entry, RTLD_DL_SYMENT), 0);
  ASSERT_NE(symbol_entry, nullptr);
  const auto* entry = static_cast<const ElfW(Sym)*>(symbol_entry);
  EXPECT_EQ(ELF64_ST_TYPE(entry->st_info), STT_FUNC);
  EXPECT_STREQ(info.dli_sname, "opd_ctest_scale");
  const auto* fingerprint = static_cast<const uint64_t*>(dlsym(lib, "opd_ctest_scale_fingerprint"));
  ASSERT_NE(fingerprint, nullptr) << dlerror();
  EXPECT_EQ(*fingerprint, opd_ctest_scale_FINGERPRINT);

  using scale_fn = int32_t (*)(opd_tensor, const double*, const int64_t*, opd_tensor*);
  const auto scale = reinterpret_cast<scale_fn>(symbol);
  opd_tensor x = tensor({1, 2, 3});
  opd_tensor r = nullptr;
  const double factor = 3;
  ASSERT_EQ(scale(x, &factor, nullptr, &r), OPD_OK) << opd_last_error();
  EXPECT_EQ(values(r), (std::vector<float>{3, 6, 9}));
  opd_tensor_release(r);
  EXPECT_EQ(scale(nullptr, nullptr, nullptr, &r), OPD_ERR_INVALID_ARGUMENT);  // the shim's checks, through the jump
  EXPECT_NE(std::string(opd_last_error()).find("self"), std::string::npos) << opd_last_error();
  opd_tensor_release(x);
  EXPECT_EQ(dlclose(lib), 0);
}
#endif

TEST_F(CAbi, OptionalScalarsGivenAndOmitted) {
  opd_tensor x = tensor({1, 2, 3});
  opd_tensor r = nullptr;
  ASSERT_EQ(opd_ctest_scale(x, nullptr, nullptr, &r), OPD_OK) << opd_last_error();
  EXPECT_EQ(values(r), (std::vector<float>{1, 2, 3}));
  opd_tensor_release(r);
  const double factor = 2;
  const int64_t offset = 1;
  ASSERT_EQ(opd_ctest_scale(x, &factor, &offset, &r), OPD_OK) << opd_last_error();
  EXPECT_EQ(values(r), (std::vector<float>{3, 5, 7}));
  opd_tensor_release(r);
  opd_tensor_release(x);
}

TEST_F(CAbi, ListsOfOptionalTensorsAndOptionalLists) {
  opd_tensor a = tensor({1, 2}), b = tensor({5});
  const opd_tensor* list[] = {&a, nullptr, &b};
  int64_t n = 0;
  double s = 0;
  ASSERT_EQ(opd_ctest_count_present(list, 3, &n, &s), OPD_OK) << opd_last_error();
  EXPECT_EQ(n, 2);
  EXPECT_EQ(s, 8.0);
  const int64_t dims[] = {1, 2, 3}, extra[] = {10, 20};
  const int64_t* extra_p = extra;
  int64_t sum = 0;
  ASSERT_EQ(opd_ctest_sum_ints(dims, 3, nullptr, 0, 0, &sum), OPD_OK) << opd_last_error();
  EXPECT_EQ(sum, 6);
  ASSERT_EQ(opd_ctest_sum_ints(dims, 3, &extra_p, 2, 1, &sum), OPD_OK) << opd_last_error();
  EXPECT_EQ(sum, -36);
  opd_tensor_release(a);
  opd_tensor_release(b);
}

TEST_F(CAbi, StringOptionalTensorAndSeveralReturns) {
  opd_tensor x = tensor({1, 2, 3});
  opd_tensor same = nullptr;
  int64_t len = 0, numel = 0;
  ASSERT_EQ(opd_ctest_describe(x, nullptr, "hello", &same, &len, &numel), OPD_OK) << opd_last_error();
  EXPECT_EQ(len, 5);
  EXPECT_EQ(numel, -1);
  void *p1 = nullptr, *p2 = nullptr;
  opd_tensor_data_ptr(x, &p1);
  opd_tensor_data_ptr(same, &p2);
  EXPECT_EQ(p1, p2);  // the returned tensor is a new handle to the same tensor
  EXPECT_NE(same, x);
  opd_tensor_release(same);
  ASSERT_EQ(opd_ctest_describe(x, &x, "", nullptr, &len, &numel), OPD_OK) << opd_last_error();  // NULL: not wanted
  EXPECT_EQ(len, 0);
  EXPECT_EQ(numel, 3);
  opd_tensor_release(x);
}

TEST_F(CAbi, TensorListReturn) {
  opd_tensor x = tensor({4, 5});
  opd_value list = nullptr;
  ASSERT_EQ(opd_ctest_unbind(x, &list), OPD_OK) << opd_last_error();
  int64_t n = 0;
  int32_t kind = -1;
  ASSERT_EQ(opd_value_kind(list, &kind), OPD_OK);
  EXPECT_EQ(kind, OPD_VALUE_LIST);
  ASSERT_EQ(opd_value_size(list, &n), OPD_OK);
  ASSERT_EQ(n, 2);
  for (int64_t i = 0; i < n; ++i) {
    opd_any e{};
    ASSERT_EQ(opd_value_get(list, i, &e), OPD_OK) << opd_last_error();
    ASSERT_EQ(e.tag, OPD_TAG_TENSOR);
    EXPECT_EQ(values(e.v.tensor), (std::vector<float>{i == 0 ? 4.f : 5.f}));
    opd_tensor_release(e.v.tensor);
  }
  opd_any e{};
  EXPECT_NE(opd_value_get(list, 2, &e), OPD_OK);
  opd_value_release(list);
  opd_tensor_release(x);
}

TEST_F(CAbi, InPlaceOutAndFunctional) {
  opd_tensor x = tensor({1, 2}), y = tensor({10, 20}), out = tensor({0, 0});
  opd_scalar alpha{};
  alpha.tag = OPD_SCALAR_INT;
  alpha.v.i = 2;
  ASSERT_EQ(opd_add_out(out, x, y, alpha), OPD_OK) << opd_last_error();
  EXPECT_EQ(values(out), (std::vector<float>{21, 42}));
  opd_tensor r = nullptr;
  ASSERT_EQ(opd_add(x, y, alpha, &r), OPD_OK) << opd_last_error();
  EXPECT_EQ(values(r), (std::vector<float>{21, 42}));
  opd_scalar v{};
  v.tag = OPD_SCALAR_DOUBLE;
  v.v.d = 7.5;
  ASSERT_EQ(opd_ctest_fill_(x, v), OPD_OK) << opd_last_error();
  EXPECT_EQ(values(x), (std::vector<float>{7.5, 7.5}));
  for (opd_tensor t : {x, y, out, r}) opd_tensor_release(t);
}

TEST_F(CAbi, ScalarKeepsInt64Exactly) {
  opd_scalar s{};
  s.tag = OPD_SCALAR_INT;
  s.v.i = (int64_t{1} << 62) + 1;  // not representable as a double
  int64_t r = 0;
  ASSERT_EQ(opd_ctest_scalar_to_int(s, &r), OPD_OK) << opd_last_error();
  EXPECT_EQ(r, s.v.i);
  EXPECT_NE(static_cast<int64_t>(static_cast<double>(s.v.i)), s.v.i);
}

TEST_F(CAbi, DtypeAndDeviceCodes) {
  int64_t dt = 0, dev = 0;
  ASSERT_EQ(opd_ctest_codes(nullptr, nullptr, 0, &dt, &dev), OPD_OK) << opd_last_error();
  EXPECT_EQ(dt, -1);
  EXPECT_EQ(dev, -1);
  const int32_t f64 = OPD_DTYPE_FLOAT64, cpu = OPD_DEVICE_CPU;
  ASSERT_EQ(opd_ctest_codes(&f64, &cpu, -1, &dt, &dev), OPD_OK) << opd_last_error();
  EXPECT_EQ(dt, static_cast<int64_t>(opd::ScalarType::Double));
  EXPECT_EQ(dev, static_cast<int64_t>(opd::DeviceType::CPU));
  const int32_t bad = 99;
  EXPECT_EQ(opd_ctest_codes(&bad, nullptr, 0, &dt, &dev), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string_view(opd_last_error()).find("dtype"), std::string_view::npos) << opd_last_error();
  EXPECT_EQ(opd_ctest_codes(nullptr, &bad, 0, &dt, &dev), OPD_ERR_INVALID_ARGUMENT);
}

TEST_F(CAbi, FailuresAreStatusesWithMessages) {
  opd_tensor x = tensor({1});
  opd_tensor r = nullptr;
  EXPECT_EQ(opd_ctest_fail(x, &r), OPD_ERR_OPERATOR);
  EXPECT_NE(std::string_view(opd_last_error()).find("always fails"), std::string_view::npos) << opd_last_error();
  EXPECT_EQ(r, nullptr);
  EXPECT_EQ(opd_ctest_scale(nullptr, nullptr, nullptr, &r), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string_view(opd_last_error()).find("'self'"), std::string_view::npos) << opd_last_error();
  const int64_t dims[] = {1};
  int64_t sum = 0;
  EXPECT_EQ(opd_ctest_sum_ints(dims, -1, nullptr, 0, 0, &sum), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string_view(opd_last_error()).find("dims"), std::string_view::npos) << opd_last_error();
  EXPECT_EQ(opd_ctest_sum_ints(nullptr, 3, nullptr, 0, 0, &sum), OPD_ERR_INVALID_ARGUMENT);
  opd_scalar s{};
  s.tag = 42;
  int64_t i = 0;
  EXPECT_EQ(opd_ctest_scalar_to_int(s, &i), OPD_ERR_INVALID_ARGUMENT);
  // A shape mismatch inside the library's add.out: a status; out keeps its values.
  opd_tensor a = tensor({1, 2, 3}), b = tensor({1, 2}), out = tensor({9, 9, 9});
  opd_scalar one{};
  one.tag = OPD_SCALAR_INT;
  one.v.i = 1;
  EXPECT_NE(opd_add_out(out, a, b, one), OPD_OK);
  EXPECT_STRNE(opd_last_error(), "");
  EXPECT_EQ(values(out), (std::vector<float>{9, 9, 9}));
  for (opd_tensor t : {x, a, b, out}) opd_tensor_release(t);
}

TEST_F(CAbi, TensorFromDataWithDeleterAndQueries) {
  static int deleted = 0;
  deleted = 0;
  std::vector<double> storage = {1, 2, 3, 4, 5, 6};
  const int64_t sizes[] = {2, 3}, strides[] = {1, 2};  // column-major view
  opd_tensor t = nullptr;
  ASSERT_EQ(opd_tensor_from_data(storage.data(), 2, sizes, strides, OPD_DTYPE_FLOAT64, OPD_DEVICE_CPU, -1,
                                 [](void*, void* ctx) { ++*static_cast<int*>(ctx); }, &deleted, &t),
            OPD_OK)
      << opd_last_error();
  const int64_t *qs = nullptr, *qt = nullptr;
  int32_t dtype = -1, dev = -1, idx = 7;
  void* p = nullptr;
  ASSERT_EQ(opd_tensor_sizes(t, &qs), OPD_OK);
  ASSERT_EQ(opd_tensor_strides(t, &qt), OPD_OK);
  ASSERT_EQ(opd_tensor_dtype(t, &dtype), OPD_OK);
  ASSERT_EQ(opd_tensor_device(t, &dev, &idx), OPD_OK);
  ASSERT_EQ(opd_tensor_data_ptr(t, &p), OPD_OK);
  EXPECT_EQ(qs[0], 2);
  EXPECT_EQ(qs[1], 3);
  EXPECT_EQ(qt[0], 1);
  EXPECT_EQ(qt[1], 2);
  EXPECT_EQ(dtype, OPD_DTYPE_FLOAT64);
  EXPECT_EQ(dev, OPD_DEVICE_CPU);
  EXPECT_EQ(p, storage.data());
  EXPECT_EQ(deleted, 0);
  opd_tensor_release(t);
  EXPECT_EQ(deleted, 1);
  // Bad inputs: statuses.
  const int64_t neg[] = {-1};
  EXPECT_EQ(opd_tensor_from_data(storage.data(), 1, neg, nullptr, OPD_DTYPE_FLOAT64, 0, -1, nullptr, nullptr, &t),
            OPD_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(opd_tensor_from_data(storage.data(), 1, sizes, nullptr, 77, 0, -1, nullptr, nullptr, &t),
            OPD_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(opd_tensor_from_data(storage.data(), -2, sizes, nullptr, OPD_DTYPE_FLOAT64, 0, -1, nullptr, nullptr, &t),
            OPD_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(opd_tensor_sizes(nullptr, &qs), OPD_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(opd_tensor_release(nullptr), OPD_OK);
}

TEST_F(CAbi, DLPackRoundTripIsZeroCopy) {
  opd_tensor x = tensor({1, 2, 3});
  void* managed = nullptr;
  ASSERT_EQ(opd_tensor_to_dlpack(x, &managed), OPD_OK) << opd_last_error();
  opd_tensor y = nullptr;
  ASSERT_EQ(opd_tensor_from_dlpack(managed, &y), OPD_OK) << opd_last_error();
  void *px = nullptr, *py = nullptr;
  opd_tensor_data_ptr(x, &px);
  opd_tensor_data_ptr(y, &py);
  EXPECT_EQ(px, py);
  opd_tensor_release(x);  // y keeps the memory alive through the DLPack deleter
  EXPECT_EQ(values(y), (std::vector<float>{1, 2, 3}));
  opd_tensor_release(y);
}

}  // namespace
