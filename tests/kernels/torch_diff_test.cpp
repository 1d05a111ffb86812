// Differential test: the CPU kernels against libtorch's (ATen's) own, on
// random shapes with broadcasting, 0-dim operands, non-contiguous
// (permuted, strided, offset) and expanded operands, for every pair of the
// ten kernel dtypes:
//   add/sub/mul/div (Tensor, Tensor, alpha): functional, out= (an out of a
//   random dtype and layout) and in-place; the Scalar overloads; copy_ and
//   fill_; result_type / promote_types / can_cast tables.
// Compared: sizes, result dtype, values (integers and Bool exactly, floating
// types within a tight tolerance: PyTorch fuses a + alpha * b into one FMA
// on AVX2 and rounds Half/BFloat16 at each step of its scalar loops), for
// out= and in-place the whole underlying buffer (nothing outside the view
// written), and for failing calls the error message. Both sides see the
// same bytes: each operand is one buffer copied into an at::Tensor and
// viewed with the same sizes, strides and offset.
#include <gtest/gtest.h>

#ifndef OPD_HAVE_LIBTORCH

TEST(KernelsTorchDiff, RequiresLibtorch) {
  GTEST_SKIP() << "libtorch is not installed (CMake found no ATen headers / libtorch_cpu): the differential test "
                  "of the CPU kernels against at::add/sub/mul/div was not built";
}

#else

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/cpu/kernels.hpp"
#include "torch_bridge.hpp"

namespace {

namespace ok = opd::kernels;
using OST = opd::ScalarType;

constexpr OST kDtypes[] = {OST::Bool, OST::Byte, OST::Char,  OST::Short,  OST::Int,
                           OST::Long, OST::Half, OST::Float, OST::Double, OST::BFloat16};

namespace tb = torch_bridge;

int num(OST t) { return static_cast<int>(t); }
OST ost(int t) { return static_cast<OST>(t); }

tb::RawScalar raw(const opd::Scalar& s) {
  tb::RawScalar r;
  switch (s.kind()) {
    case opd::Scalar::Kind::Bool: r.kind = tb::RawScalar::Kind::Bool; r.b = s.to_bool(); break;
    case opd::Scalar::Kind::Int: r.kind = tb::RawScalar::Kind::Int; r.i = s.to_long(); break;
    case opd::Scalar::Kind::Double:
    case opd::Scalar::Kind::ComplexDouble: r.kind = tb::RawScalar::Kind::Double; r.d = s.to_double(); break;
  }
  return r;
}

std::string str(const opd::Scalar& s) {
  std::ostringstream os;
  os << s << (s.kind() == opd::Scalar::Kind::Int ? "(int)" : "");
  return os.str();
}

// ------------------------------------------------------------------ tallies ---

struct Tally {
  long cases = 0;             // calls compared (results or errors)
  long error_cases = 0;       // of which both sides failed with the same message
  long elements = 0;          // elements compared
  long float_elements = 0;    // of which floating
  long float_bitwise = 0;     // ... bitwise identical (or both NaN)
  long torch_unsupported = 0; // torch says "not implemented", we compute
  std::map<std::string, long> per_test;
  std::map<std::string, long> errors;  // agreed error messages, by their start
};
Tally& tally() {
  static Tally t;
  return t;
}

class SummaryEnv : public ::testing::Environment {
 public:
  void TearDown() override {
    const Tally& t = tally();
    if (t.cases == 0) return;
    std::cout << "[ kernels vs libtorch " << tb::version() << " ] " << t.cases << " calls compared (" << t.error_cases
              << " failing on both sides with the same message), " << t.elements << " elements (" << t.float_elements
              << " floating, " << t.float_bitwise << " of them bitwise equal), " << t.torch_unsupported
              << " calls libtorch does not implement\n";
    for (const auto& [name, n] : t.per_test) std::cout << "    " << name << ": " << n << " calls\n";
    std::cout << "  agreed errors:\n";
    for (const auto& [msg, n] : t.errors) std::cout << "    " << n << " x " << msg << "\n";
  }
};
[[maybe_unused]] ::testing::Environment* const summary_env = ::testing::AddGlobalTestEnvironment(new SummaryEnv);

void count_case(const char* test) {
  ++tally().cases;
  ++tally().per_test[test];
}

// ------------------------------------------------------------------ operands ---

struct Layout {
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
  int64_t storage_numel = 1;
};

// A random strided layout of `sizes`: contiguous, or a permutation of the
// dimensions with some stepped by 2 and an offset, or with a broadcast
// (stride 0) dimension when `allow_expand`.
Layout random_layout(std::mt19937_64& rng, const std::vector<int64_t>& sizes, double expand_probability) {
  Layout l;
  l.sizes = sizes;
  const std::size_t nd = sizes.size();
  l.strides.assign(nd, 0);
  std::vector<std::size_t> perm(nd);
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  std::vector<int64_t> step(nd, 1);
  std::uniform_real_distribution<double> u(0, 1);
  const bool contiguous = u(rng) < 0.35;
  if (!contiguous) {
    if (u(rng) < 0.6) std::shuffle(perm.begin(), perm.end(), rng);
    for (auto& s : step) s = u(rng) < 0.35 ? 2 : 1;
    l.offset = static_cast<int64_t>(rng() % 3);
  }
  // Contiguous strides over the "physical" sizes, in perm order (last fastest).
  int64_t running = 1;
  for (std::size_t k = nd; k-- > 0;) {
    const std::size_t d = perm[k];
    l.strides[d] = running * step[d];
    running *= std::max<int64_t>(sizes[d], 1) * step[d];
  }
  if (nd > 0 && u(rng) < expand_probability) {
    std::vector<std::size_t> candidates;
    for (std::size_t d = 0; d < nd; ++d) {
      if (sizes[d] > 1) candidates.push_back(d);
    }
    if (!candidates.empty()) l.strides[candidates[rng() % candidates.size()]] = 0;
  }
  int64_t last = 0;
  bool empty = false;
  for (std::size_t d = 0; d < nd; ++d) {
    if (sizes[d] == 0) empty = true;
    else last += (sizes[d] - 1) * l.strides[d];
  }
  l.storage_numel = l.offset + (empty ? 1 : last + 1);
  return l;
}

double random_value(std::mt19937_64& rng, OST t) {
  std::uniform_real_distribution<double> u(0, 1);
  switch (t) {
    case OST::Bool: return static_cast<double>(rng() % 2);
    case OST::Byte: return static_cast<double>(rng() % 61);
    case OST::Char:
    case OST::Short:
    case OST::Int:
    case OST::Long: return static_cast<double>(static_cast<int64_t>(rng() % 81) - 40);
    default: {
      const double r = u(rng);
      if (r < 0.1) return 0.0;
      if (r < 0.55) return static_cast<double>(static_cast<int64_t>(rng() % 161) - 80) / 8.0;
      return (u(rng) - 0.5) * 20.0;
    }
  }
}

// One operand on both sides: the same buffer contents and the same view.
struct Pair {
  opd::Tensor ours;
  opd::Tensor ours_storage;  // the whole buffer, 1-d
  tb::RawTensor theirs;      // the same bytes and view, for libtorch
};

Pair make_pair(std::mt19937_64& rng, OST dtype, const std::vector<int64_t>& sizes, double expand_probability) {
  const Layout l = random_layout(rng, sizes, expand_probability);
  Pair p;
  const std::vector<int64_t> storage_sizes{l.storage_numel};
  std::vector<double> vals(static_cast<std::size_t>(l.storage_numel));
  for (double& v : vals) v = random_value(rng, dtype);
  opd::Tensor src = opd::from_vector<double>(vals, opd::IntArrayRef(storage_sizes));
  p.ours_storage = ok::empty(opd::IntArrayRef(storage_sizes), dtype);
  ok::copy_(p.ours_storage, src);
  p.ours = p.ours_storage.as_strided(l.sizes, l.strides, l.offset);
  p.theirs.dtype = num(dtype);
  p.theirs.sizes = l.sizes;
  p.theirs.strides = l.strides;
  p.theirs.offset = l.offset;
  p.theirs.buffer.resize(p.ours_storage.nbytes());
  std::memcpy(p.theirs.buffer.data(), p.ours_storage.data_ptr(), p.ours_storage.nbytes());
  return p;
}

// ----------------------------------------------------------------- compare ---

struct Tol {
  double rtol, atol;
};
Tol tolerance(OST t) {
  switch (t) {
    case OST::Half: return {2e-3, 5e-2};
    case OST::BFloat16: return {1.6e-2, 0.5};
    case OST::Float: return {1e-6, 2e-5};
    case OST::Double: return {1e-13, 1e-12};
    default: return {0, 0};
  }
}

// The loosest tolerance among the dtypes a result went through (a Float
// out= of a BFloat16 computation carries BFloat16 rounding).
Tol loosest(std::initializer_list<OST> dtypes) {
  Tol t{0, 0};
  for (OST d : dtypes) {
    const Tol u = tolerance(d);
    t.rtol = std::max(t.rtol, u.rtol);
    t.atol = std::max(t.atol, u.atol);
  }
  return t;
}

// Same sizes, dtype and elements (in logical order) as libtorch's
// contiguous `theirs`; floating elements within `tol` (by default the
// result dtype's tolerance).
::testing::AssertionResult same_tensor(const opd::Tensor& ours, const tb::RawTensor& theirs,
                                       std::optional<Tol> tol_override = std::nullopt) {
  if (!(ours.sizes() == opd::IntArrayRef(theirs.sizes))) {
    return ::testing::AssertionFailure() << "sizes " << ours.sizes() << " vs libtorch "
                                         << opd::IntArrayRef(theirs.sizes);
  }
  if (num(ours.dtype()) != theirs.dtype) {
    return ::testing::AssertionFailure() << "dtype " << ours.dtype() << " vs libtorch " << ost(theirs.dtype);
  }
  const opd::Tensor mine = ok::contiguous_clone(ours);
  const int64_t n = mine.numel();
  if (static_cast<std::size_t>(n) * mine.itemsize() != theirs.buffer.size()) {
    return ::testing::AssertionFailure() << "libtorch's buffer has " << theirs.buffer.size() << " bytes, expected "
                                         << n * static_cast<int64_t>(mine.itemsize());
  }
  const Tol tol = tol_override.value_or(tolerance(ours.dtype()));
  return ok::dispatch_dtype(ours.dtype(), "compare", [&](auto tag) -> ::testing::AssertionResult {
    using T = typename decltype(tag)::type;
    const T* a = static_cast<const T*>(mine.data_ptr());
    for (int64_t i = 0; i < n; ++i) {
      T bi;
      std::memcpy(&bi, theirs.buffer.data() + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
      ++tally().elements;
      if constexpr (ok::is_float_like_v<T>) {
        ++tally().float_elements;
        const double x = static_cast<double>(a[i]);
        const double y = static_cast<double>(bi);
        if ((std::isnan(x) && std::isnan(y)) || x == y) {
          ++tally().float_bitwise;
          continue;
        }
        if (std::isinf(x) || std::isinf(y) || std::isnan(x) || std::isnan(y) ||
            std::abs(x - y) > tol.atol + tol.rtol * std::abs(y)) {
          return ::testing::AssertionFailure() << "element " << i << ": " << x << " vs libtorch " << y;
        }
      } else {
        if (!(a[i] == bi)) {
          return ::testing::AssertionFailure()
                 << "element " << i << ": " << +a[i] << " vs libtorch " << +bi << " (" << ours.dtype() << ")";
        }
      }
    }
    return ::testing::AssertionSuccess();
  });
}

// The whole buffer of a Pair on both sides after an out=/in-place call.
::testing::AssertionResult same_buffer(const Pair& p, std::optional<Tol> tol = std::nullopt) {
  tb::RawTensor flat = p.theirs;
  flat.sizes = {p.ours_storage.numel()};
  flat.strides = {1};
  flat.offset = 0;
  return same_tensor(p.ours_storage, flat, tol);
}

// An error message without its numbers, shapes and dtypes, for the summary.
std::string error_bucket(const std::string& msg) {
  for (const char* prefix : {"result type ", "value cannot be converted to type ", "output with shape ",
                             "The size of tensor a ", "unsupported operation: more than one element",
                             "unsupported operation: some elements"}) {
    if (msg.rfind(prefix, 0) == 0) return std::string(prefix) + "...";
  }
  return msg.substr(0, 70);
}

template <class F>
std::optional<std::string> opd_error(F&& f) {
  try {
    f();
  } catch (const opd::Error& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}
// Runs both; if both fail, the messages must agree; if one fails, the
// test fails. Returns true when both succeeded (results to compare).
template <class Ours, class Theirs>
bool run_both(const std::string& what, Ours&& ours, Theirs&& theirs) {
  const std::optional<std::string> theirs_error = theirs();
  const std::optional<std::string> ours_error = opd_error(ours);
  if (theirs_error && !ours_error && theirs_error->find("not implemented for") != std::string::npos) {
    ++tally().torch_unsupported;
    return false;
  }
  if (theirs_error || ours_error) {
    EXPECT_TRUE(theirs_error && ours_error) << what << "\n  ours: " << ours_error.value_or("(no error)")
                                            << "\n  libtorch: " << theirs_error.value_or("(no error)");
    if (theirs_error && ours_error) {
      EXPECT_EQ(*ours_error, *theirs_error) << what;
      if (*ours_error == *theirs_error) {
        ++tally().error_cases;
        ++tally().errors[error_bucket(*ours_error)];
      }
    }
    return false;
  }
  return true;
}

// ------------------------------------------------------------------- shapes ---

std::vector<int64_t> random_shape(std::mt19937_64& rng) {
  const std::size_t rank = rng() % 5;
  std::vector<int64_t> s(rank);
  for (auto& d : s) d = (rng() % 25 == 0) ? 0 : 1 + static_cast<int64_t>(rng() % 4);
  return s;
}

// A shape that broadcasts to `out` (fewer leading dims, some 1s), or now and
// then one that does not.
std::vector<int64_t> broadcastable_to(std::mt19937_64& rng, const std::vector<int64_t>& out, bool allow_mismatch) {
  std::size_t rank = out.size();
  if (rank > 0 && rng() % 3 == 0) rank -= rng() % (rank + 1);
  std::vector<int64_t> s(out.end() - static_cast<std::ptrdiff_t>(rank), out.end());
  for (auto& d : s) {
    if (rng() % 4 == 0) d = 1;
  }
  if (allow_mismatch && !s.empty() && rng() % 25 == 0) s[rng() % s.size()] += 2;
  return s;
}

std::optional<std::vector<int64_t>> try_broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  try {
    return ok::infer_size(a, b);
  } catch (const opd::Error&) {
    return std::nullopt;
  }
}

std::string describe(const char* op, const Pair& a, const std::string& b, const std::string& extra) {
  std::ostringstream os;
  os << op << "(" << a.ours.dtype() << a.ours.sizes() << " strides " << a.ours.strides() << ", " << b << ")"
     << extra;
  return os.str();
}
std::string describe_tensor(const Pair& p) {
  std::ostringstream os;
  os << p.ours.dtype() << p.ours.sizes() << " strides " << p.ours.strides() << " offset " << p.ours.storage_offset();
  return os.str();
}

opd::Scalar random_alpha(std::mt19937_64& rng) {
  static const opd::Scalar choices[] = {opd::Scalar(2),    opd::Scalar(-1),   opd::Scalar(0),
                                        opd::Scalar(3),    opd::Scalar(-3),   opd::Scalar(0.5),
                                        opd::Scalar(-1.25), opd::Scalar(true), opd::Scalar(false),
                                        opd::Scalar(200)};
  if (rng() % 5 < 3) return opd::Scalar(1);
  return choices[rng() % (sizeof(choices) / sizeof(choices[0]))];
}

enum class Op { Add, Sub, Mul, Div };
constexpr Op kOps[] = {Op::Add, Op::Sub, Op::Mul, Op::Div};
const char* name(Op op) {
  switch (op) {
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Div: return "div";
  }
  return "?";
}

// ------------------------------------------------------------- ops, ours ---

opd::Tensor ours_functional(Op op, const opd::Tensor& a, const opd::Tensor& b, const opd::Scalar& alpha) {
  opd::Tensor out;
  switch (op) {
    case Op::Add: out = ok::empty_from_meta(ok::add_meta(a, b, alpha)); ok::add_impl(a, b, alpha, out); break;
    case Op::Sub: out = ok::empty_from_meta(ok::sub_meta(a, b, alpha)); ok::sub_impl(a, b, alpha, out); break;
    case Op::Mul: out = ok::empty_from_meta(ok::mul_meta(a, b)); ok::mul_impl(a, b, out); break;
    case Op::Div: out = ok::empty_from_meta(ok::div_meta(a, b)); ok::div_impl(a, b, out); break;
  }
  return out;
}
void ours_into(Op op, const opd::Tensor& a, const opd::Tensor& b, const opd::Scalar& alpha, opd::Tensor& out) {
  switch (op) {
    case Op::Add: ok::add_impl(a, b, alpha, out); break;
    case Op::Sub: ok::sub_impl(a, b, alpha, out); break;
    case Op::Mul: ok::mul_impl(a, b, out); break;
    case Op::Div: ok::div_impl(a, b, out); break;
  }
}
opd::Tensor ours_scalar_functional(Op op, const opd::Tensor& a, const opd::Scalar& b, const opd::Scalar& alpha) {
  opd::Tensor out;
  switch (op) {
    case Op::Add:
      out = ok::empty_from_meta(ok::add_scalar_meta(a, b, alpha));
      ok::add_scalar_impl(a, b, alpha, out);
      break;
    case Op::Sub:
      out = ok::empty_from_meta(ok::sub_scalar_meta(a, b, alpha));
      ok::sub_scalar_impl(a, b, alpha, out);
      break;
    case Op::Mul: out = ok::empty_from_meta(ok::mul_scalar_meta(a, b)); ok::mul_scalar_impl(a, b, out); break;
    case Op::Div: out = ok::empty_from_meta(ok::div_scalar_meta(a, b)); ok::div_scalar_impl(a, b, out); break;
  }
  return out;
}
void ours_scalar_into(Op op, const opd::Tensor& a, const opd::Scalar& b, const opd::Scalar& alpha, opd::Tensor& out) {
  switch (op) {
    case Op::Add: ok::add_scalar_impl(a, b, alpha, out); break;
    case Op::Sub: ok::sub_scalar_impl(a, b, alpha, out); break;
    case Op::Mul: ok::mul_scalar_impl(a, b, out); break;
    case Op::Div: ok::div_scalar_impl(a, b, out); break;
  }
}

tb::BinaryOp bridge_op(Op op) {
  switch (op) {
    case Op::Add: return tb::BinaryOp::Add;
    case Op::Sub: return tb::BinaryOp::Sub;
    case Op::Mul: return tb::BinaryOp::Mul;
    case Op::Div: return tb::BinaryOp::Div;
  }
  return tb::BinaryOp::Add;
}

class KernelsTorchDiff : public ::testing::Test {
 protected:
  void SetUp() override { tb::set_num_threads(1); }
};

// ------------------------------------------------------------------ tables ---

TEST_F(KernelsTorchDiff, PromotionTablesMatchResultType) {
  const opd::Scalar scalars[] = {opd::Scalar(true), opd::Scalar(3), opd::Scalar(2.5)};
  for (OST a : kDtypes) {
    for (OST b : kDtypes) {
      SCOPED_TRACE(::testing::Message() << a << ", " << b);
      count_case("promotion tables");
      EXPECT_EQ(num(opd::promote_types(a, b)), tb::promote_types(num(a), num(b)));
      EXPECT_EQ(ok::can_cast(a, b), tb::can_cast(num(a), num(b)));
      // dim/dim, 0-dim/dim, dim/0-dim, 0-dim/0-dim tensors.
      for (int kind = 0; kind < 4; ++kind) {
        const bool za = (kind & 1) != 0;
        const bool zb = (kind & 2) != 0;
        const opd::Tensor oa = ok::zeros(za ? std::vector<int64_t>{} : std::vector<int64_t>{2}, a);
        const opd::Tensor ob = ok::zeros(zb ? std::vector<int64_t>{} : std::vector<int64_t>{2}, b);
        EXPECT_EQ(num(ok::result_type(oa, ob)), tb::result_type(num(a), za, num(b), zb)) << "kind " << kind;
      }
    }
    // Tensors (with and without dimensions) against Scalars of each kind.
    for (const opd::Scalar& s : scalars) {
      for (bool zero_dim : {false, true}) {
        count_case("promotion tables");
        const opd::Tensor oa = ok::zeros(zero_dim ? std::vector<int64_t>{} : std::vector<int64_t>{3}, a);
        EXPECT_EQ(num(ok::result_type(oa, s)), tb::result_type(num(a), zero_dim, raw(s))) << a << " " << str(s);
        EXPECT_EQ(num(ok::result_type(s, oa)), tb::result_type(raw(s), num(a), zero_dim)) << a << " " << str(s);
      }
    }
  }
  for (const opd::Scalar& s : scalars) {
    for (const opd::Scalar& t : scalars) {
      EXPECT_EQ(num(ok::result_type(s, t)), tb::result_type(raw(s), raw(t))) << str(s) << " " << str(t);
    }
  }
}

// ------------------------------------------------------------ Tensor, Tensor ---

void tensor_tensor_cases(Op op, int reps, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (OST ta : kDtypes) {
    for (OST tb_ : kDtypes) {
      for (int rep = 0; rep < reps; ++rep) {
        const std::vector<int64_t> out_shape = random_shape(rng);
        const std::vector<int64_t> sa = broadcastable_to(rng, out_shape, true);
        const std::vector<int64_t> sb = broadcastable_to(rng, out_shape, true);
        Pair a = make_pair(rng, ta, sa, 0.15);
        Pair b = make_pair(rng, tb_, sb, 0.15);
        const opd::Scalar alpha = (op == Op::Add || op == Op::Sub) ? random_alpha(rng) : opd::Scalar(1);
        const std::string base = describe(name(op), a, describe_tensor(b), ", alpha=" + str(alpha));
        const int variant = rep % 3;
        count_case(variant == 0 ? "Tensor-Tensor functional" : variant == 1 ? "Tensor-Tensor out=" : "Tensor-Tensor in-place");
        if (variant == 0) {
          opd::Tensor ours;
          tb::Outcome theirs;
          if (run_both(base, [&] { ours = ours_functional(op, a.ours, b.ours, alpha); },
                       [&] {
                         theirs = tb::binary(bridge_op(op), tb::Variant::Functional, a.theirs, b.theirs, raw(alpha),
                                             nullptr);
                         return theirs.error;
                       })) {
            EXPECT_TRUE(same_tensor(ours, theirs.result)) << base;
          }
        } else if (variant == 1) {
          const OST tout = kDtypes[rng() % 10];
          const std::vector<int64_t> so = try_broadcast(sa, sb).value_or(sa);
          Pair out = make_pair(rng, tout, so, 0.05);
          const std::string what = base + " out=" + describe_tensor(out);
          if (run_both(what, [&] { ours_into(op, a.ours, b.ours, alpha, out.ours); },
                       [&] {
                         return tb::binary(bridge_op(op), tb::Variant::Out, a.theirs, b.theirs, raw(alpha),
                                           &out.theirs)
                             .error;
                       })) {
            EXPECT_TRUE(same_buffer(out, loosest({ta, tb_, tout}))) << what;
          }
        } else {
          // self.op_(other): other must broadcast to self.
          Pair self = make_pair(rng, ta, out_shape, 0.05);
          Pair other = make_pair(rng, tb_, broadcastable_to(rng, out_shape, true), 0.15);
          const std::string what =
              describe(name(op), self, describe_tensor(other), ", alpha=" + str(alpha)) + " in-place";
          if (run_both(what, [&] { ours_into(op, self.ours, other.ours, alpha, self.ours); },
                       [&] {
                         return tb::binary(bridge_op(op), tb::Variant::InPlace, self.theirs, other.theirs,
                                           raw(alpha), nullptr)
                             .error;
                       })) {
            EXPECT_TRUE(same_buffer(self, loosest({ta, tb_}))) << what;
          }
        }
      }
    }
  }
}

TEST_F(KernelsTorchDiff, AddTensorTensor) { tensor_tensor_cases(Op::Add, 9, 101); }
TEST_F(KernelsTorchDiff, SubTensorTensor) { tensor_tensor_cases(Op::Sub, 9, 202); }
TEST_F(KernelsTorchDiff, MulTensorTensor) { tensor_tensor_cases(Op::Mul, 9, 303); }
TEST_F(KernelsTorchDiff, DivTensorTensor) { tensor_tensor_cases(Op::Div, 9, 404); }

// Long rows: the vectorized blocks, tails and converting chunks here, and
// libtorch's vectorized loops there; contiguous and broadcast.
void long_row_cases(Op op, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (OST ta : kDtypes) {
    for (OST tb_ : kDtypes) {
      count_case("long rows");
      const int64_t rows = 1 + static_cast<int64_t>(rng() % 40);
      const int64_t cols = 60 + static_cast<int64_t>(rng() % 600);
      const std::vector<int64_t> shape{rows, cols};
      Pair a = make_pair(rng, ta, shape, 0.0);
      Pair b = make_pair(rng, tb_, rng() % 2 ? shape : std::vector<int64_t>{cols}, 0.1);
      const opd::Scalar alpha = (op == Op::Add || op == Op::Sub) ? random_alpha(rng) : opd::Scalar(1);
      const std::string what = describe(name(op), a, describe_tensor(b), ", alpha=" + str(alpha));
      opd::Tensor ours;
      tb::Outcome theirs;
      if (run_both(what, [&] { ours = ours_functional(op, a.ours, b.ours, alpha); },
                   [&] {
                     theirs =
                         tb::binary(bridge_op(op), tb::Variant::Functional, a.theirs, b.theirs, raw(alpha), nullptr);
                     return theirs.error;
                   })) {
        EXPECT_TRUE(same_tensor(ours, theirs.result)) << what;
      }
    }
  }
}

TEST_F(KernelsTorchDiff, LongRows) {
  long_row_cases(Op::Add, 111);
  long_row_cases(Op::Sub, 222);
  long_row_cases(Op::Mul, 333);
  long_row_cases(Op::Div, 444);
}

// ------------------------------------------------------------ Tensor, Scalar ---

TEST_F(KernelsTorchDiff, ScalarOverloads) {
  std::mt19937_64 rng(505);
  const opd::Scalar others[] = {opd::Scalar(true), opd::Scalar(false), opd::Scalar(0),    opd::Scalar(3),
                                opd::Scalar(-2),   opd::Scalar(300),   opd::Scalar(2.5),  opd::Scalar(-0.75),
                                opd::Scalar(0.0),  opd::Scalar(0.1),   opd::Scalar(1e10), opd::Scalar(-7)};
  for (Op op : kOps) {
    for (OST ta : kDtypes) {
      for (const opd::Scalar& other : others) {
        for (int variant = 0; variant < 2; ++variant) {
          count_case(variant == 0 ? "Tensor-Scalar functional" : "Tensor-Scalar in-place");
          Pair a = make_pair(rng, ta, random_shape(rng), variant == 0 ? 0.15 : 0.0);
          const opd::Scalar alpha = (op == Op::Add || op == Op::Sub) ? random_alpha(rng) : opd::Scalar(1);
          const std::string what =
              describe(name(op), a, str(other), ", alpha=" + str(alpha)) + (variant ? " in-place" : "");
          if (variant == 0) {
            opd::Tensor ours;
            tb::Outcome theirs;
            if (run_both(what, [&] { ours = ours_scalar_functional(op, a.ours, other, alpha); },
                         [&] {
                           theirs = tb::binary_scalar(bridge_op(op), false, a.theirs, raw(other), raw(alpha));
                           return theirs.error;
                         })) {
              EXPECT_TRUE(same_tensor(ours, theirs.result)) << what;
            }
          } else {
            if (run_both(what, [&] { ours_scalar_into(op, a.ours, other, alpha, a.ours); },
                         [&] { return tb::binary_scalar(bridge_op(op), true, a.theirs, raw(other), raw(alpha)).error; })) {
              EXPECT_TRUE(same_buffer(a)) << what;
            }
          }
        }
      }
    }
  }
}

// ------------------------------------------------------------ copy_ / fill_ ---

TEST_F(KernelsTorchDiff, Copy) {
  std::mt19937_64 rng(606);
  for (OST td : kDtypes) {
    for (OST ts : kDtypes) {
      for (int rep = 0; rep < 6; ++rep) {
        count_case("copy_");
        const std::vector<int64_t> shape = random_shape(rng);
        Pair dst = make_pair(rng, td, shape, 0.05);
        Pair src = make_pair(rng, ts, broadcastable_to(rng, shape, true), 0.2);
        const std::string what = "copy_(" + describe_tensor(dst) + ", " + describe_tensor(src) + ")";
        if (run_both(what, [&] { ok::copy_(dst.ours, src.ours); },
                     [&] { return tb::copy(dst.theirs, src.theirs).error; })) {
          EXPECT_TRUE(same_buffer(dst)) << what;
        }
      }
    }
  }
}

TEST_F(KernelsTorchDiff, Fill) {
  std::mt19937_64 rng(707);
  const opd::Scalar values[] = {opd::Scalar(true),  opd::Scalar(0),     opd::Scalar(1),    opd::Scalar(-1),
                                opd::Scalar(127),   opd::Scalar(128),   opd::Scalar(255),  opd::Scalar(256),
                                opd::Scalar(-129),  opd::Scalar(70000), opd::Scalar(int64_t{1} << 40),
                                opd::Scalar(2.7),   opd::Scalar(-2.7),  opd::Scalar(1e300),
                                opd::Scalar(std::numeric_limits<double>::infinity()),
                                opd::Scalar(std::nan("")), opd::Scalar(0.1), opd::Scalar(-300.5)};
  for (OST td : kDtypes) {
    for (const opd::Scalar& v : values) {
      count_case("fill_");
      Pair dst = make_pair(rng, td, random_shape(rng), 0.1);
      const std::string what = "fill_(" + describe_tensor(dst) + ", " + str(v) + ")";
      if (run_both(what, [&] { ok::fill_(dst.ours, v); }, [&] { return tb::fill(dst.theirs, raw(v)).error; })) {
        EXPECT_TRUE(same_buffer(dst)) << what;
      }
    }
  }
}

}  // namespace

#endif  // OPD_HAVE_LIBTORCH
