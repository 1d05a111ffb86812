// N calls of the 1-element add.out of bench/c_abi.cpp through one path, for
// instruction counts under callgrind (bench/c_abi_callgrind.sh):
//
//   opd_c_abi_callgrind <opd_call|c_shim|c_boxed|c_boxed_handle> <calls>
//
//   opd_call        opd::call<add::out>(a, b, alpha, out)
//   c_shim          the exported C function (OPD_EXPORT_C), through a pointer
//                   hidden from the optimizer
//   c_boxed         opd_call_boxed("aten::add.out", 4 tagged values), the
//                   returned handle released
//   c_boxed_handle  the same through opd_op_find's handle and opd_op_call_boxed
// (opd only: without libtorch loaded, valgrind starts it in a second.)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dispatch/c_abi/shim.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/ops.hpp"

#if defined(OPD_HEADER_ONLY)
#include "dispatch/c_abi/c_entry_points-inl.hpp"
#endif

using add_out = opd::kernels::ops::add::out;
OPD_EXPORT_C(callgrind_opd_add_out, add_out)

namespace {
opd::Tensor one() { return opd::from_vector<float>({1.0f}, {1}); }
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <opd_call|c_shim|c_boxed|c_boxed_handle> <calls>\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  const int64_t calls = std::atoll(argv[2]);
  const opd::RegistrationSet kernels = opd::kernels::register_cpu();
  opd_tensor a = opd::c_abi::detail::new_tensor(one()), b = opd::c_abi::detail::new_tensor(one());
  opd_tensor out = opd::c_abi::detail::new_tensor(one());
  const opd::Scalar alpha(1);
  opd_scalar c_alpha{};
  c_alpha.tag = OPD_SCALAR_INT;
  c_alpha.v.i = 1;
  const std::string name = std::string(add_out::name) + "." + std::string(add_out::overload_name);
  opd_any args[4]{};
  args[0].tag = OPD_TAG_TENSOR, args[0].v.tensor = a;
  args[1].tag = OPD_TAG_TENSOR, args[1].v.tensor = b;
  args[2].tag = OPD_TAG_INT, args[2].v.i = 1;
  args[3].tag = OPD_TAG_TENSOR, args[3].v.tensor = out;
  opd_op op = nullptr;
  if (opd_op_find(name.c_str(), &op) != OPD_OK) return 1;
  int32_t (*volatile shim)(opd_tensor, opd_tensor, opd_tensor, opd_scalar) = callgrind_opd_add_out;
  int64_t failures = 0;
  for (int64_t i = 0; i < calls; ++i) {
    if (path == "opd_call") {
      opd::call<add_out>(a->t, b->t, alpha, out->t);
    } else if (path == "c_shim") {
      failures += shim(out, a, b, c_alpha) != OPD_OK;
    } else {
      opd_any result{};
      int64_t n = 0;
      failures += (path == "c_boxed" ? opd_call_boxed(name.c_str(), args, 4, &result, 1, &n)
                                     : opd_op_call_boxed(op, args, 4, &result, 1, &n)) != OPD_OK;
      opd_tensor_release(result.v.tensor);
    }
  }
  std::printf("%s x %lld: %g, %lld failures\n", path.c_str(), static_cast<long long>(calls),
              static_cast<double>(out->t.data_ptr<float>()[0]), static_cast<long long>(failures));
  for (opd_tensor t : {a, b, out}) opd_tensor_release(t);
  return failures == 0 ? 0 : 1;
}
