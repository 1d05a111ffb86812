// The C entry points of the test operators (and of the library's add.out),
// and opd_ctest_init(), which registers their CPU kernels. Linked into the C
// program, the Python test's shared library, the C++ tests and the benchmark.
#include <dispatch/c_abi/shim.hpp>
#include <kernels/ops_arithmetic.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <vector>

#include "all_formulas.hpp"
#include "all_kernels.hpp"
#include "c_test_ops.hpp"
#include "ctest_init.h"
// The generated header's declarations: the compiler checks that each agrees
// with the symbol OPD_EXPORT_C defines below (same type, same linkage).
#include "opd_ctest.h"

#if defined(OPD_HEADER_ONLY)
#include <autograd/c_entry_points-inl.hpp>
#include <dispatch/c_abi/c_entry_points-inl.hpp>
#endif

namespace {

double sum_of(const opd::Tensor& t) {
  double s = 0;
  for (float v : opd::to_vector<float>(t)) s += v;
  return s;
}

opd::Tensor scale_cpu(const opd::Tensor& self, std::optional<double> factor, std::optional<int64_t> offset) {
  std::vector<float> v = opd::to_vector<float>(self);
  for (float& x : v) x = static_cast<float>(x * factor.value_or(1.0) + static_cast<double>(offset.value_or(0)));
  return opd::from_vector<float>(v, self.sizes());
}
std::tuple<int64_t, double> count_present_cpu(std::span<const std::optional<opd::Tensor>> ts) {
  int64_t n = 0;
  double s = 0;
  for (const auto& t : ts)
    if (t) ++n, s += sum_of(*t);
  return {n, s};
}
int64_t sum_ints_cpu(std::span<const int64_t> dims, std::optional<std::span<const int64_t>> extra, bool negate) {
  int64_t s = 0;
  for (int64_t d : dims) s += d;
  if (extra)
    for (int64_t d : *extra) s += d;
  return negate ? -s : s;
}
std::tuple<opd::Tensor, int64_t, int64_t> describe_cpu(const opd::Tensor& self, const std::optional<opd::Tensor>& other,
                                                       std::string_view mode) {
  return {self, static_cast<int64_t>(mode.size()), other ? other->numel() : -1};
}
std::vector<opd::Tensor> unbind_cpu(const opd::Tensor& self) {
  std::vector<opd::Tensor> out;
  for (float v : opd::to_vector<float>(self)) out.push_back(opd::from_vector<float>({v}, {1}));
  return out;
}
opd::Tensor& fill_cpu(opd::Tensor& self, const opd::Scalar& value) {
  auto* p = self.data_ptr<float>();
  for (int64_t i = 0; i < self.numel(); ++i) p[i] = value.to<float>();
  return self;
}
int64_t scalar_to_int_cpu(const opd::Scalar& s) { return s.to<int64_t>(); }
std::tuple<int64_t, int64_t> codes_cpu(std::optional<opd::ScalarType> dtype, std::optional<opd::Device> device) {
  return {dtype ? static_cast<int64_t>(*dtype) : -1, device ? static_cast<int64_t>(device->type()) : -1};
}
double defaults_cpu(std::span<const int64_t> stride, double eps, std::string_view mode, std::span<const int64_t> dims) {
  double s = eps + static_cast<double>(mode.size());
  for (int64_t v : stride) s += static_cast<double>(v);
  for (int64_t v : dims) s += static_cast<double>(v);
  return s;
}
opd::Tensor fail_cpu(const opd::Tensor&) { throw std::runtime_error("ctest::fail: this operator always fails"); }

}  // namespace

int32_t opd_ctest_init(void) {
  try {
    static const auto registrations = [] {
      auto set = std::make_unique<std::vector<opd::RegistrationHandle>>();
      set->push_back(opd::register_kernel<ctest::scale, &scale_cpu>(opd::DispatchKey::CPU));
      set->push_back(opd::register_kernel<ctest::count_present, &count_present_cpu>(opd::DispatchKey::CPU));
      set->push_back(opd::register_kernel<ctest::sum_ints, &sum_ints_cpu>(opd::DispatchKey::CPU));
      set->push_back(opd::register_kernel<ctest::describe, &describe_cpu>(opd::DispatchKey::CPU));
      set->push_back(opd::register_kernel<ctest::unbind, &unbind_cpu>(opd::DispatchKey::CPU));
      set->push_back(opd::register_kernel<ctest::fill_, &fill_cpu>(opd::DispatchKey::CPU));
      set->push_back(opd::register_kernel<ctest::scalar_to_int, &scalar_to_int_cpu>(opd::DispatchKey::CPU));
      set->push_back(opd::register_kernel<ctest::codes, &codes_cpu>(opd::DispatchKey::CPU));
      set->push_back(opd::register_kernel<ctest::defaults, &defaults_cpu>(opd::DispatchKey::CPU));
      set->push_back(opd::register_kernel<ctest::fail, &fail_cpu>(opd::DispatchKey::CPU));
      return set;
    }();
    static const opd::RegistrationSet library = opd_test::register_all_kernels();
    (void)registrations;
    return OPD_OK;
  } catch (...) {
    return opd::c_abi::status_from_current_exception();
  }
}

int32_t opd_ctest_init_autograd(void) {
  try {
    static const opd::RegistrationSet formulas = opd_test::register_all_formulas();
    return OPD_OK;
  } catch (...) {
    return opd::c_abi::status_from_current_exception();
  }
}

OPD_EXPORT_C(opd_ctest_scale, ctest::scale)
OPD_EXPORT_C(opd_ctest_count_present, ctest::count_present)
OPD_EXPORT_C(opd_ctest_sum_ints, ctest::sum_ints)
OPD_EXPORT_C(opd_ctest_describe, ctest::describe)
OPD_EXPORT_C(opd_ctest_unbind, ctest::unbind)
OPD_EXPORT_C(opd_ctest_fill_, ctest::fill_)
OPD_EXPORT_C(opd_ctest_scalar_to_int, ctest::scalar_to_int)
OPD_EXPORT_C(opd_ctest_codes, ctest::codes)
OPD_EXPORT_C(opd_ctest_defaults, ctest::defaults)
OPD_EXPORT_C(opd_ctest_fail, ctest::fail)
OPD_EXPORT_C(opd_add_out, opd::kernels::ops::add::out)
OPD_EXPORT_C(opd_add, opd::kernels::ops::add::functional)
