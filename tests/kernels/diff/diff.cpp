// The harness: argument builders, deterministic tensors, and the comparison
// of the two sides' outcomes.
#include "diff.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <utility>

#include "dispatch/core/bfloat16.hpp"
#include "dispatch/core/half.hpp"
#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include "opd_side.hpp"
#include "torch_side.hpp"

namespace diff {
namespace {

// splitmix64: a small deterministic generator, the same on every platform.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53; }
  int64_t integer(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1)); }
};

double float_value(Rng& rng, Fill fill) {
  switch (fill) {
    case Fill::positive: return rng.uniform(0.1, 4.0);
    case Fill::small: return rng.uniform(-0.5, 0.5);
    case Fill::special: {
      static constexpr double specials[] = {std::numeric_limits<double>::quiet_NaN(),
                                            std::numeric_limits<double>::infinity(),
                                            -std::numeric_limits<double>::infinity(), 0.0, -0.0, 1e30, -1e30, 1.0};
      if (rng.next() % 3 == 0) return specials[rng.next() % std::size(specials)];
      return rng.uniform(-3.0, 3.0);
    }
    case Fill::standard: break;
  }
  return rng.uniform(-3.0, 3.0);
}

template <class T>
void store(unsigned char* at, T v) {
  std::memcpy(at, &v, sizeof(T));
}

void store_value(unsigned char* at, int dtype, Rng& rng, Fill fill) {
  auto integer = [&](int64_t lo, int64_t hi) {
    if (fill == Fill::positive) return rng.integer(std::max<int64_t>(lo, 1), hi);
    if (fill == Fill::small) return rng.integer(std::max<int64_t>(lo, -2), 2);
    return rng.integer(lo, hi);
  };
  switch (dtype) {
    case u8: store(at, static_cast<uint8_t>(integer(0, 18))); break;
    case i8: store(at, static_cast<int8_t>(integer(-9, 9))); break;
    case i16: store(at, static_cast<int16_t>(integer(-9, 9))); break;
    case i32: store(at, static_cast<int32_t>(integer(-9, 9))); break;
    case i64: store(at, static_cast<int64_t>(integer(-9, 9))); break;
    case b8: store(at, static_cast<uint8_t>(fill == Fill::positive ? 1 : rng.next() % 2)); break;
    case f16: store(at, opd::Half(static_cast<float>(float_value(rng, fill)))); break;
    case bf16: store(at, opd::BFloat16(static_cast<float>(float_value(rng, fill)))); break;
    case f32: store(at, static_cast<float>(float_value(rng, fill))); break;
    case f64: store(at, float_value(rng, fill)); break;
    case c32: {
      const opd::Half parts[2] = {opd::Half(static_cast<float>(float_value(rng, fill))),
                                  opd::Half(static_cast<float>(float_value(rng, fill)))};
      std::memcpy(at, parts, sizeof parts);
      break;
    }
    case c64: {
      const float parts[2] = {static_cast<float>(float_value(rng, fill)), static_cast<float>(float_value(rng, fill))};
      std::memcpy(at, parts, sizeof parts);
      break;
    }
    case c128: {
      const double parts[2] = {float_value(rng, fill), float_value(rng, fill)};
      std::memcpy(at, parts, sizeof parts);
      break;
    }
    default: throw std::invalid_argument("diff::make_tensor: unsupported dtype " + std::to_string(dtype));
  }
}

// Elements a strided tensor reaches: 1 + sum((size - 1) * stride), 0 if empty.
int64_t storage_extent(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides, int64_t offset) {
  int64_t last = offset;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return 0;
    last += (sizes[d] - 1) * strides[d];
  }
  return last + 1;
}

const char* dtype_name(int dtype) {
  switch (dtype) {
    case u8: return "uint8";
    case i8: return "int8";
    case i16: return "int16";
    case i32: return "int32";
    case i64: return "int64";
    case f16: return "half";
    case f32: return "float";
    case f64: return "double";
    case b8: return "bool";
    case bf16: return "bfloat16";
    case c32: return "complex32";
    case c64: return "complex64";
    case c128: return "complex128";
    default: return "dtype?";
  }
}

// Position of a float on the number line in units in the last place of its
// format (monotonic in value; +0 and -0 both map to 0).
int64_t ordered(int dtype, const unsigned char* at) {
  // sign-magnitude bits -> a signed position
  auto map = [](uint64_t bits, int width) {
    const uint64_t sign = uint64_t{1} << (width - 1);
    const auto magnitude = static_cast<int64_t>(bits & (sign - 1));
    return (bits & sign) ? -magnitude : magnitude;
  };
  switch (dtype) {
    case f16: case bf16: { uint16_t b; std::memcpy(&b, at, 2); return map(b, 16); }
    case f32: { uint32_t b; std::memcpy(&b, at, 4); return map(b, 32); }
    default: { uint64_t b; std::memcpy(&b, at, 8); return map(b, 64); }
  }
}

double as_double(int dtype, const unsigned char* at) {
  switch (dtype) {
    case f16: { opd::Half h; std::memcpy(&h, at, 2); return static_cast<float>(h); }
    case bf16: { opd::BFloat16 h; std::memcpy(&h, at, 2); return static_cast<float>(h); }
    case f32: { float f; std::memcpy(&f, at, 4); return f; }
    case f64: { double f; std::memcpy(&f, at, 8); return f; }
    case u8: return *at;
    case b8: return *at != 0;
    case i8: { int8_t v; std::memcpy(&v, at, 1); return v; }
    case i16: { int16_t v; std::memcpy(&v, at, 2); return v; }
    case i32: { int32_t v; std::memcpy(&v, at, 4); return v; }
    default: { int64_t v; std::memcpy(&v, at, 8); return static_cast<double>(v); }
  }
}

std::string sizes_str(const std::vector<int64_t>& sizes) {
  std::string s = "[";
  for (std::size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

// "" when equal; else what differs.
std::string compare_tensors(const RawTensor& ours, const RawTensor& theirs, const Tolerance& tol) {
  if (ours.dtype != theirs.dtype) {
    return std::string("dtype ") + dtype_name(ours.dtype) + " vs libtorch's " + dtype_name(theirs.dtype);
  }
  if (ours.sizes != theirs.sizes) return "sizes " + sizes_str(ours.sizes) + " vs libtorch's " + sizes_str(theirs.sizes);
  const int dtype = part_dtype(ours.dtype);  // complex: real and imaginary parts in turn
  const std::size_t item = element_size(dtype);
  const std::size_t n = ours.storage.size() / item;
  std::size_t bad = 0;
  std::string first;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char* a = ours.storage.data() + i * item;
    const unsigned char* b = theirs.storage.data() + i * item;
    bool same;
    if (!is_floating(dtype)) {
      same = std::memcmp(a, b, item) == 0 || (dtype == b8 && (*a != 0) == (*b != 0));
    } else {
      const double x = as_double(dtype, a), y = as_double(dtype, b);
      if (std::isnan(x) || std::isnan(y)) {
        same = std::isnan(x) && std::isnan(y);
      } else if (x == y) {
        same = true;
      } else if (std::isinf(x) || std::isinf(y)) {
        same = false;
      } else {
        const int64_t distance = ordered(dtype, a) - ordered(dtype, b);
        same = (distance <= tol.ulp && distance >= -tol.ulp) || std::fabs(x - y) <= tol.atol ||
               (tol.rtol > 0 && std::fabs(x - y) <= tol.atol + tol.rtol * std::fabs(y));
      }
    }
    if (!same) {
      if (bad++ == 0) {
        std::ostringstream os;
        os.precision(9);
        os << (is_complex(ours.dtype) ? (i % 2 ? "imaginary part of element " : "real part of element ") : "element ")
           << (is_complex(ours.dtype) ? i / 2 : i) << ": " << as_double(dtype, a) << " vs libtorch's " << as_double(dtype, b);
        first = os.str();
      }
    }
  }
  if (bad == 0) return "";
  return std::to_string(bad) + " of " + std::to_string(n) + (is_complex(ours.dtype) ? " parts" : " elements") + " differ (" + dtype_name(ours.dtype) +
         ", sizes " + sizes_str(ours.sizes) + "), first " + first;
}

std::string compare_values(const Value& ours, const Value& theirs, const Tolerance& tol) {
  if (ours.kind != theirs.kind) return "kinds differ";
  switch (ours.kind) {
    case Value::Kind::None: return "";
    case Value::Kind::Bool: return ours.b == theirs.b ? "" : "bools differ";
    case Value::Kind::Int: return ours.i == theirs.i ? "" : std::to_string(ours.i) + " vs " + std::to_string(theirs.i);
    case Value::Kind::Double: {
      const bool same = ours.d == theirs.d || (std::isnan(ours.d) && std::isnan(theirs.d)) ||
                        std::fabs(ours.d - theirs.d) <= std::max(tol.atol, 1e-12 * std::fabs(theirs.d));
      return same ? "" : std::to_string(ours.d) + " vs " + std::to_string(theirs.d);
    }
    case Value::Kind::Complex: {
      const auto close = [&](double x, double y) {
        return x == y || (std::isnan(x) && std::isnan(y)) || std::fabs(x - y) <= std::max(tol.atol, 1e-12 * std::fabs(y));
      };
      return close(ours.d, theirs.d) && close(ours.imag, theirs.imag) ? "" : "complex numbers differ";
    }
    case Value::Kind::IntList: return ours.ints == theirs.ints ? "" : "int lists differ";
    case Value::Kind::BoolList: return ours.bools == theirs.bools ? "" : "bool lists differ";
    case Value::Kind::DoubleList: return ours.doubles == theirs.doubles ? "" : "float lists differ";
    case Value::Kind::String: return ours.s == theirs.s ? "" : "'" + ours.s + "' vs '" + theirs.s + "'";
    default: break;
  }
  if (ours.tensors.size() != theirs.tensors.size()) {
    return std::to_string(ours.tensors.size()) + " tensors vs libtorch's " + std::to_string(theirs.tensors.size());
  }
  for (std::size_t i = 0; i < ours.tensors.size(); ++i) {
    if (ours.tensors[i].has_value() != theirs.tensors[i].has_value()) return "tensor " + std::to_string(i) + ": None on one side";
    if (!ours.tensors[i]) continue;
    std::string d = compare_tensors(*ours.tensors[i], *theirs.tensors[i], tol);
    if (!d.empty()) return ours.tensors.size() > 1 ? "tensor " + std::to_string(i) + ": " + d : d;
  }
  return "";
}

std::string describe_value(const Value& v) {
  switch (v.kind) {
    case Value::Kind::None: return "None";
    case Value::Kind::Bool: return v.b ? "True" : "False";
    case Value::Kind::Int: return std::to_string(v.i);
    case Value::Kind::Double: { std::ostringstream os; os << v.d; return os.str(); }
    case Value::Kind::Complex: { std::ostringstream os; os << "(" << v.d << (v.imag < 0 ? "" : "+") << v.imag << "j)"; return os.str(); }
    case Value::Kind::String: return "'" + v.s + "'";
    case Value::Kind::IntList: return sizes_str(v.ints);
    case Value::Kind::DoubleList: {
      std::ostringstream os;
      os << "[";
      for (std::size_t i = 0; i < v.doubles.size(); ++i) os << (i ? ", " : "") << v.doubles[i];
      os << "]";
      return os.str();
    }
    case Value::Kind::BoolList: return "[bools]";
    default: break;
  }
  std::string s = v.kind == Value::Kind::Tensor ? "" : "[";
  for (std::size_t i = 0; i < v.tensors.size(); ++i) {
    if (i) s += ", ";
    if (!v.tensors[i]) {
      s += "None";
      continue;
    }
    const RawTensor& t = *v.tensors[i];
    s += std::string(dtype_name(t.dtype)) + sizes_str(t.sizes);
    if (t.strides != contiguous_strides(t.sizes) || t.offset != 0) s += "(strides " + sizes_str(t.strides) + ")";
  }
  return v.kind == Value::Kind::Tensor ? s : s + "]";
}

// ---- torch_in_float: the reduced dtypes through libtorch's Float kernels ----

float reduced_to_float(int dtype, const unsigned char* p) {
  uint16_t bits;
  std::memcpy(&bits, p, 2);
  return dtype == f16 ? static_cast<float>(opd::Half(bits, opd::Half::from_bits()))
                      : static_cast<float>(opd::BFloat16(bits, opd::BFloat16::from_bits()));
}
void float_to_reduced(int dtype, float v, unsigned char* p) {
  const uint16_t bits = dtype == f16 ? opd::Half(v).x : opd::BFloat16(v).x;
  std::memcpy(p, &bits, 2);
}
// The same tensor with its storage converted element by element.
RawTensor convert_storage(const RawTensor& t, int to) {
  RawTensor r = t;
  r.dtype = to;
  const std::size_t n = t.storage.size() / element_size(t.dtype);
  r.storage.assign(n * element_size(to), 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (to == f32) {
      const float v = reduced_to_float(t.dtype, t.storage.data() + 2 * i);
      std::memcpy(r.storage.data() + 4 * i, &v, 4);
    } else {
      float v;
      std::memcpy(&v, t.storage.data() + 4 * i, 4);
      float_to_reduced(to, v, r.storage.data() + 2 * i);
    }
  }
  return r;
}
// Every tensor of v of dtype `from` converted to `to`; true if one was.
bool convert_tensors(Value& v, int from, int to) {
  bool any = false;
  for (std::optional<RawTensor>& t : v.tensors) {
    if (t && t->dtype == from) {
      t = convert_storage(*t, to);
      any = true;
    }
  }
  return any;
}

Outcome call_torch_in_float(const Case& c) {
  int reduced = -1;
  for (const Value& v : c.args)
    for (const std::optional<RawTensor>& t : v.tensors)
      if (reduced < 0 && t && (t->dtype == f16 || t->dtype == bf16)) reduced = t->dtype;
  if (reduced < 0) return call_torch(c.op, c.overload, c.args);
  std::vector<Value> args = c.args;
  std::vector<bool> converted(args.size(), false);
  for (std::size_t i = 0; i < args.size(); ++i) converted[i] = convert_tensors(args[i], reduced, f32);
  Outcome o = call_torch(c.op, c.overload, args);
  for (Value& v : o.returns) convert_tensors(v, f32, reduced);
  for (std::size_t i = 0; i < o.args_after.size() && i < converted.size(); ++i)
    if (converted[i]) convert_tensors(o.args_after[i], f32, reduced);
  return o;
}

void ensure_kernels_registered() {
  static const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  (void)kernels;
}

}  // namespace

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (std::size_t d = sizes.size(); d-- > 1;) strides[d - 1] = strides[d] * std::max<int64_t>(sizes[d], 1);
  return strides;
}

RawTensor long_tensor(std::vector<int64_t> sizes, const std::vector<int64_t>& values) {
  RawTensor t;
  t.dtype = i64;
  t.strides = contiguous_strides(sizes);
  t.sizes = std::move(sizes);
  t.storage.resize(values.size() * 8);
  std::memcpy(t.storage.data(), values.data(), t.storage.size());
  return t;
}

RawTensor make_tensor(int dtype, std::vector<int64_t> sizes, Layout layout, Fill fill, uint64_t seed) {
  RawTensor t;
  t.dtype = dtype;
  t.sizes = sizes;
  const std::size_t nd = sizes.size();
  if (layout == Layout::transposed && nd >= 2) {
    std::vector<int64_t> memory = sizes;
    std::swap(memory[nd - 1], memory[nd - 2]);
    t.strides = contiguous_strides(memory);
    std::swap(t.strides[nd - 1], t.strides[nd - 2]);
  } else if (layout == Layout::expanded && nd >= 1 && sizes[0] > 1) {
    std::vector<int64_t> row(sizes.begin() + 1, sizes.end());
    t.strides = contiguous_strides(row);
    t.strides.insert(t.strides.begin(), 0);
  } else if (layout == Layout::sliced && nd >= 1) {
    std::vector<int64_t> memory = sizes;
    memory[nd - 1] *= 2;
    t.strides = contiguous_strides(memory);
    t.strides[nd - 1] = 2;
    t.offset = 1;
  } else {
    t.strides = contiguous_strides(sizes);
  }
  const int64_t extent = storage_extent(sizes, t.strides, t.offset);
  const std::size_t item = element_size(dtype);
  t.storage.resize(static_cast<std::size_t>(extent) * item);
  Rng rng{seed * 0x2545f4914f6cdd1dULL + static_cast<uint64_t>(dtype)};
  for (int64_t i = 0; i < extent; ++i) store_value(t.storage.data() + i * item, dtype, rng, fill);
  return t;
}

Value T(int dtype, std::vector<int64_t> sizes, Layout layout, Fill fill, uint64_t seed) {
  return T(make_tensor(dtype, std::move(sizes), layout, fill, seed));
}

std::string describe(const Case& c) {
  std::string s = c.op + (c.overload.empty() ? "" : "." + c.overload) + "(";
  for (std::size_t i = 0; i < c.args.size(); ++i) s += (i ? ", " : "") + describe_value(c.args[i]);
  return s + ")";
}

// OPD_DIFF_LOG=<file>: each case appends "<op>\t<overload>\t<computed|refused>\n"
// (refused: both sides threw), for counting which operators the tables reach
// (tests/kernels/diff/coverage.py).
static void log_case(const Case& c, bool refused) {
  static const char* const path = std::getenv("OPD_DIFF_LOG");
  if (path == nullptr || *path == '\0') return;
  if (std::FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\t%s\t%s\n", c.op.c_str(), c.overload.c_str(), refused ? "refused" : "computed");
    std::fclose(f);
  }
}

// The strides of each tensor of a result, where a dimension has more than one
// element (a size-1 dimension's stride addresses nothing).
std::string compare_layouts(const Value& ours, const Value& theirs) {
  for (std::size_t k = 0; k < ours.tensors.size() && k < theirs.tensors.size(); ++k) {
    if (!ours.tensors[k] || !theirs.tensors[k]) continue;
    const RawTensor& a = *ours.tensors[k];
    const RawTensor& b = *theirs.tensors[k];
    bool same = a.layout.size() == b.layout.size() && a.layout.size() == a.sizes.size();
    for (std::size_t d = 0; same && d < a.sizes.size(); ++d) same = a.sizes[d] <= 1 || a.layout[d] == b.layout[d];
    if (!same) return "strides " + sizes_str(a.layout) + " vs libtorch's " + sizes_str(b.layout);
  }
  return "";
}

::testing::AssertionResult same_as_torch(const Case& c) {
  ensure_kernels_registered();
  const Outcome ours = call_opd(c.op, c.overload, c.args);
  const Outcome theirs = c.torch_in_float ? call_torch_in_float(c) : call_torch(c.op, c.overload, c.args);
  log_case(c, ours.error && theirs.error);
  if (ours.error || theirs.error) {
    if (ours.error && theirs.error) return ::testing::AssertionSuccess();
    if (ours.error) return ::testing::AssertionFailure() << describe(c) << ": opd throws \"" << *ours.error << "\", libtorch does not";
    return ::testing::AssertionFailure() << describe(c) << ": libtorch throws \"" << *theirs.error << "\", opd does not";
  }
  if (ours.returns.size() != theirs.returns.size()) {
    return ::testing::AssertionFailure() << describe(c) << ": " << ours.returns.size() << " results vs libtorch's "
                                         << theirs.returns.size();
  }
  for (std::size_t i = 0; i < ours.returns.size(); ++i) {
    const std::string d = compare_values(ours.returns[i], theirs.returns[i], c.tol);
    if (!d.empty()) return ::testing::AssertionFailure() << describe(c) << ": result " << i << ": " << d;
  }
  for (std::size_t i = 0; c.same_layout && i < ours.returns.size(); ++i) {
    const std::string d = compare_layouts(ours.returns[i], theirs.returns[i]);
    if (!d.empty()) return ::testing::AssertionFailure() << describe(c) << ": result " << i << ": " << d;
  }
  for (std::size_t i = 0; i < ours.args_after.size() && i < theirs.args_after.size(); ++i) {
    const std::string d = compare_values(ours.args_after[i], theirs.args_after[i], c.tol);
    if (!d.empty()) return ::testing::AssertionFailure() << describe(c) << ": argument " << i << " after the call: " << d;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace diff

// Under ASan, libtorch (not instrumented) keeps allocations alive to the
// end of the process by design (its registries); LeakSanitizer is told to
// ignore what its libraries allocate, not what opd does.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libtorch_cpu.so\nleak:libtorch.so\nleak:libc10.so\nleak:libgomp.so\nleak:libopenblas\n";
}
#endif
