// Every functional aten operator the library registers for the CPU, timed
// against libtorch 1.13's, one representative call each (issue 15:
// docs/kernels.md's ratio column):
//
//   BM_<op>[_<overload>]_<1t|mt>/<opd|aten>/<n>
//
// Both sides are called boxed by name (opd::call_boxed and c10's callBoxed)
// through the differential harness's prepared calls (tests/kernels/diff/
// opd_side.hpp, torch_side.hpp): the arguments are built once per benchmark,
// outside the timed loop; an iteration copies the prepared stack and calls
// it, so it times the dispatcher, the kernel and the result's allocation on
// both sides alike. `_1t` rows run one thread on both sides, `_mt` rows all
// the machine's (std::thread::hardware_concurrency(), set on both sides);
// all_ops_table.py reads their real time, since the workers' CPU time is not
// the calling thread's (UseRealTime() would append "/real_time" to the
// row names the issue fixes).
// Inputs are float32 and
// contiguous, except where an operator needs a Bool mask, Long indices or an
// integral tensor (the bitwise operators take int32).
//
// n is the element count of the first tensor argument (of the size list for
// factories): 1 and 1,000,000 for elementwise operators and reductions
// (which reduce over the last dim of [1, 1] / [1000, 1000]); one fixed shape
// for the others, given in the case's `shape` (bench/kernels/all_ops_table.py
// prints it beside the numbers).
//
// Each row also counts the process's minor page faults per call (`faults`):
// an output that is not reused costs fresh pages. And each row's
// bytes_per_second is the memory traffic one call cannot avoid (its tensor
// arguments and new results, PreparedOpd::bytes_moved(), the same count on
// both sides) over its time; the reference rows
//
//   BM_memcpy_<1t|mt>/machine/<bytes>
//
// copy bytes / 2 into a buffer of as many, with the machine's memcpy split
// over the threads, so that all_ops_table.py can set a row's traffic beside
// what the machine moves at the same footprint.
//
// A case one side refuses (its one trial call throws) is not timed: it is
// reported with SkipWithError("<op> refused by <side>: <message>"). Registered
// functional operators without a case are listed in the JSON context
// ("no_case") and on stderr, so that none is dropped silently.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <kernels/cpu/parallel.hpp>
#include <kernels/ops.hpp>

#include "opd_side.hpp"
#if defined(OPD_BENCH_WITH_TORCH)
#include "torch_side.hpp"
#endif

namespace {

using diff::B;
using diff::BL;
using diff::D;
using diff::I;
using diff::L;
using diff::None;
using diff::RawTensor;
using diff::S;
using diff::T;
using diff::TL;
using diff::Value;

// ---- argument builders (values.hpp's descriptions) ------------------------

enum class Fill {
  unit,   // floats in [0.05, 0.95): inside every unary operator's domain
  mask,   // Bool, about half true
  small,  // integers in [0, 8) (shift amounts, bitwise operands)
  above_one,  // floats in [1.05, 1.95): acosh's domain
};

RawTensor raw(int dtype, std::vector<int64_t> sizes, Fill fill = Fill::unit, uint64_t seed = 1) {
  RawTensor r;
  r.dtype = dtype;
  r.sizes = sizes;
  r.strides.assign(sizes.size(), 1);
  for (std::size_t d = sizes.size(); d-- > 1;) r.strides[d - 1] = r.strides[d] * std::max<int64_t>(sizes[d], 1);
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  const std::size_t item = diff::element_size(dtype);
  r.storage.resize(static_cast<std::size_t>(n) * item);
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t h = (static_cast<uint64_t>(i) + seed * 7919) * 2654435761u;
    unsigned char* at = r.storage.data() + static_cast<std::size_t>(i) * item;
    const int64_t k = static_cast<int64_t>(h % 1000);
    switch (dtype) {
      case diff::f32: {
        const float v = fill == Fill::unit        ? 0.05f + 0.0009f * static_cast<float>(k)
                        : fill == Fill::above_one ? 1.05f + 0.0009f * static_cast<float>(k)
                                                  : static_cast<float>(k % 8);
        std::memcpy(at, &v, 4);
        break;
      }
      case diff::c64: {  // real part as f32's, imaginary part its half
        const float v[2] = {0.05f + 0.0009f * static_cast<float>(k), 0.025f + 0.00045f * static_cast<float>(k)};
        std::memcpy(at, v, 8);
        break;
      }
      case diff::b8: { *at = static_cast<unsigned char>(fill == Fill::mask ? (h >> 7) & 1 : k != 0); break; }
      case diff::i32: { const int32_t v = static_cast<int32_t>(k % 8); std::memcpy(at, &v, 4); break; }
      default: { const int64_t v = k % 8; std::memcpy(at, &v, 8); break; }
    }
  }
  return r;
}

// Long indices in [0, bound).
RawTensor indices(std::vector<int64_t> sizes, int64_t bound, uint64_t seed = 3) {
  RawTensor r = raw(diff::i64, sizes, Fill::small, seed);
  auto* p = reinterpret_cast<int64_t*>(r.storage.data());
  const std::size_t n = r.storage.size() / 8;
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<int64_t>((i * 2654435761u + seed) % static_cast<uint64_t>(bound));
  return r;
}

Value F(std::vector<int64_t> sizes, uint64_t seed = 1) { return T(raw(diff::f32, std::move(sizes), Fill::unit, seed)); }
Value M(std::vector<int64_t> sizes) { return T(raw(diff::b8, std::move(sizes), Fill::mask)); }
Value Int32(std::vector<int64_t> sizes, uint64_t seed = 1) { return T(raw(diff::i32, std::move(sizes), Fill::small, seed)); }
Value Idx(std::vector<int64_t> sizes, int64_t bound) { return T(indices(std::move(sizes), bound)); }
Value OTL(std::vector<RawTensor> ts) { return diff::OTL({std::make_move_iterator(ts.begin()), std::make_move_iterator(ts.end())}); }
Value C64(std::vector<int64_t> sizes) { return T(raw(diff::c64, std::move(sizes))); }
Value F32() { return I(diff::f32); }  // a ScalarType argument
Value Long() { return I(diff::i64); }
// Bag offsets 0, step, 2 step, ... (count of them), Long.
Value Offsets(int64_t count, int64_t step) {
  RawTensor r = raw(diff::i64, {count}, Fill::small);
  auto* p = reinterpret_cast<int64_t*>(r.storage.data());
  for (int64_t i = 0; i < count; ++i) p[i] = i * step;
  return T(std::move(r));
}

// count Long values f(0), f(1), ... (an embedding bag's offset2bag, bag sizes).
Value Longs(int64_t count, int64_t (*f)(int64_t)) {
  RawTensor r = raw(diff::i64, {count}, Fill::small);
  auto* p = reinterpret_cast<int64_t*>(r.storage.data());
  for (int64_t i = 0; i < count; ++i) p[i] = f(i);
  return T(std::move(r));
}

// [rows, cols] holding n elements: [1, 1] for 1, [1000, 1000] for 1e6.
std::vector<int64_t> rc(int64_t n) { return n < 1000 ? std::vector<int64_t>{1, n} : std::vector<int64_t>{n / 1000, 1000}; }
int64_t cols(int64_t n) { return rc(n)[1]; }
int64_t rows(int64_t n) { return rc(n)[0]; }
// [N, C, H, W] holding n elements (1 or 1e6) and its targets' [N, H, W].
std::vector<int64_t> nchw(int64_t n) { return n < 1000 ? std::vector<int64_t>{1, 1, 1, n} : std::vector<int64_t>{4, 10, 100, n / 4000}; }
std::vector<int64_t> nhw(int64_t n) { const auto s = nchw(n); return {s[0], s[2], s[3]}; }

// ---- the cases ------------------------------------------------------------

using Args = std::vector<Value> (*)(int64_t n);

struct Case {
  const char* op;        // "aten::add"
  const char* overload;  // "Tensor"; "" for none
  std::vector<int64_t> ns;
  const char* shape;     // what the arguments are at n
  Args args;
  // Set for an operator ATen 1.13 does not have (PyTorch 2.x's) or does not
  // register as one: timed on the library's side only.
  const char* no_aten = nullptr;
};

const std::vector<int64_t> EW = {1, 1000000};  // elementwise and reductions: 1 and 1e6 elements

// One table for every operator: elementwise ([n]), reductions ([rows, cols],
// the last dim), then fixed shapes. x and y are float32 [n] (different values),
// m is float32 rc(n).
#define X F({n})
#define Y F({n}, 2)
#define MAT F(rc(n))
std::vector<Case> make_cases() {
  std::vector<Case> c = {
      // unary, [n]
      {"exp", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{X}; }},
  };
  for (const char* op : {"exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tan",
                         "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "erf", "erfc", "neg", "abs", "sign",
                         "silu", "hardswish", "floor", "ceil", "round", "trunc", "frac", "logical_not", "relu", "isnan",
                         "isinf", "isfinite", "alias", "detach", "zero"}) {
    c.push_back({op, "", EW, "[n]", [](int64_t n) { return std::vector<Value>{X}; }});
  }
  // The name is kept in the table (a string literal per row, "aten::" added below).
  const std::vector<Case> rest = {
      {"clone", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{X, None()}; }},
      {"bitwise_not", "", EW, "[n] int32", [](int64_t n) { return std::vector<Value>{Int32({n})}; }},
      {"gelu", "", EW, "[n], approximate='none'", [](int64_t n) { return std::vector<Value>{X, S("none")}; }},
      {"nan_to_num", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{X, None(), None(), None()}; }},
      {"softplus", "", EW, "[n], beta 1, threshold 20", [](int64_t n) { return std::vector<Value>{X, I(1), I(20)}; }},
      // binary and ternary, [n]
      {"add", "Tensor", EW, "[n] + [n]", [](int64_t n) { return std::vector<Value>{X, Y, I(1)}; }},
      {"add", "Scalar", EW, "[n] + 2.0", [](int64_t n) { return std::vector<Value>{X, D(2.0), I(1)}; }},
      {"sub", "Tensor", EW, "[n] - [n]", [](int64_t n) { return std::vector<Value>{X, Y, I(1)}; }},
      {"sub", "Scalar", EW, "[n] - 2.0", [](int64_t n) { return std::vector<Value>{X, D(2.0), I(1)}; }},
      {"mul", "Tensor", EW, "[n] * [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"mul", "Scalar", EW, "[n] * 2.0", [](int64_t n) { return std::vector<Value>{X, D(2.0)}; }},
      {"div", "Tensor", EW, "[n] / [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"div", "Scalar", EW, "[n] / 2.0", [](int64_t n) { return std::vector<Value>{X, D(2.0)}; }},
      {"div", "Tensor_mode", EW, "[n] / [n], 'floor'", [](int64_t n) { return std::vector<Value>{X, Y, S("floor")}; }},
      {"div", "Scalar_mode", EW, "[n] / 0.3, 'floor'", [](int64_t n) { return std::vector<Value>{X, D(0.3), S("floor")}; }},
      {"eq", "Tensor", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"ne", "Tensor", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"lt", "Tensor", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"le", "Tensor", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"gt", "Tensor", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"ge", "Tensor", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"eq", "Scalar", EW, "[n], 0.5", [](int64_t n) { return std::vector<Value>{X, D(0.5)}; }},
      {"ne", "Scalar", EW, "[n], 0.5", [](int64_t n) { return std::vector<Value>{X, D(0.5)}; }},
      {"lt", "Scalar", EW, "[n], 0.5", [](int64_t n) { return std::vector<Value>{X, D(0.5)}; }},
      {"le", "Scalar", EW, "[n], 0.5", [](int64_t n) { return std::vector<Value>{X, D(0.5)}; }},
      {"gt", "Scalar", EW, "[n], 0.5", [](int64_t n) { return std::vector<Value>{X, D(0.5)}; }},
      {"ge", "Scalar", EW, "[n], 0.5", [](int64_t n) { return std::vector<Value>{X, D(0.5)}; }},
      {"logical_and", "", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"logical_or", "", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"logical_xor", "", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"maximum", "", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"minimum", "", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"atan2", "", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"remainder", "Tensor", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"remainder", "Scalar", EW, "[n], 0.3", [](int64_t n) { return std::vector<Value>{X, D(0.3)}; }},
      {"remainder", "Scalar_Tensor", EW, "2.0, [n]", [](int64_t n) { return std::vector<Value>{D(2.0), Y}; }},
      {"fmod", "Tensor", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"fmod", "Scalar", EW, "[n], 0.3", [](int64_t n) { return std::vector<Value>{X, D(0.3)}; }},
      {"floor_divide", "", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"floor_divide", "Scalar", EW, "[n], 0.3", [](int64_t n) { return std::vector<Value>{X, D(0.3)}; }},
      {"pow", "Tensor_Tensor", EW, "[n] ** [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"pow", "Tensor_Scalar", EW, "[n] ** 2.5", [](int64_t n) { return std::vector<Value>{X, D(2.5)}; }},
      {"pow", "Scalar", EW, "2.0 ** [n]", [](int64_t n) { return std::vector<Value>{D(2.0), X}; }},
      {"bitwise_and", "Tensor", EW, "[n] int32, [n] int32", [](int64_t n) { return std::vector<Value>{Int32({n}), Int32({n}, 2)}; }},
      {"bitwise_or", "Tensor", EW, "[n] int32, [n] int32", [](int64_t n) { return std::vector<Value>{Int32({n}), Int32({n}, 2)}; }},
      {"bitwise_xor", "Tensor", EW, "[n] int32, [n] int32", [](int64_t n) { return std::vector<Value>{Int32({n}), Int32({n}, 2)}; }},
      {"bitwise_and", "Scalar", EW, "[n] int32, 3", [](int64_t n) { return std::vector<Value>{Int32({n}), I(3)}; }},
      {"bitwise_or", "Scalar", EW, "[n] int32, 3", [](int64_t n) { return std::vector<Value>{Int32({n}), I(3)}; }},
      {"bitwise_xor", "Scalar", EW, "[n] int32, 3", [](int64_t n) { return std::vector<Value>{Int32({n}), I(3)}; }},
      {"bitwise_and", "Scalar_Tensor", EW, "3, [n] int32", [](int64_t n) { return std::vector<Value>{I(3), Int32({n})}; }},
      {"bitwise_or", "Scalar_Tensor", EW, "3, [n] int32", [](int64_t n) { return std::vector<Value>{I(3), Int32({n})}; }},
      {"bitwise_xor", "Scalar_Tensor", EW, "3, [n] int32", [](int64_t n) { return std::vector<Value>{I(3), Int32({n})}; }},
      {"bitwise_left_shift", "Tensor", EW, "[n] int32, [n] int32", [](int64_t n) { return std::vector<Value>{Int32({n}), Int32({n}, 2)}; }},
      {"bitwise_right_shift", "Tensor", EW, "[n] int32, [n] int32", [](int64_t n) { return std::vector<Value>{Int32({n}), Int32({n}, 2)}; }},
      {"bitwise_left_shift", "Tensor_Scalar", EW, "[n] int32, 2", [](int64_t n) { return std::vector<Value>{Int32({n}), I(2)}; }},
      {"bitwise_right_shift", "Tensor_Scalar", EW, "[n] int32, 2", [](int64_t n) { return std::vector<Value>{Int32({n}), I(2)}; }},
      {"bitwise_left_shift", "Scalar_Tensor", EW, "3, [n] int32", [](int64_t n) { return std::vector<Value>{I(3), Int32({n})}; }},
      {"bitwise_right_shift", "Scalar_Tensor", EW, "3, [n] int32", [](int64_t n) { return std::vector<Value>{I(3), Int32({n})}; }},
      {"where", "self", EW, "mask [n], [n], [n]", [](int64_t n) { return std::vector<Value>{M({n}), X, Y}; }},
      {"where", "ScalarSelf", EW, "mask [n], 0.5, [n]", [](int64_t n) { return std::vector<Value>{M({n}), D(0.5), Y}; }},
      {"where", "ScalarOther", EW, "mask [n], [n], 0.5", [](int64_t n) { return std::vector<Value>{M({n}), X, D(0.5)}; }},
      {"where", "Scalar", EW, "mask [n], 1.0, 0.0", [](int64_t n) { return std::vector<Value>{M({n}), D(1.0), D(0.0)}; }},
      {"clamp", "", EW, "[n], 0.2, 0.8", [](int64_t n) { return std::vector<Value>{X, D(0.2), D(0.8)}; }},
      {"clamp", "Tensor", EW, "[n], [n], [n]", [](int64_t n) { return std::vector<Value>{X, Y, F({n}, 3)}; }},
      {"masked_fill", "Scalar", EW, "[n], mask [n], 0.0", [](int64_t n) { return std::vector<Value>{X, M({n}), D(0.0)}; }},
      {"masked_fill", "Tensor", EW, "[n], mask [n], 0-dim", [](int64_t n) { return std::vector<Value>{X, M({n}), F({})}; }},
      {"lerp", "Scalar", EW, "[n], [n], 0.3", [](int64_t n) { return std::vector<Value>{X, Y, D(0.3)}; }},
      {"lerp", "Tensor", EW, "[n], [n], [n]", [](int64_t n) { return std::vector<Value>{X, Y, F({n}, 3)}; }},
      {"addcmul", "", EW, "[n], [n], [n], value 1", [](int64_t n) { return std::vector<Value>{X, Y, F({n}, 3), I(1)}; }},
      {"addcdiv", "", EW, "[n], [n], [n], value 1", [](int64_t n) { return std::vector<Value>{X, Y, F({n}, 3), I(1)}; }},
      // src of another dtype: ATen 1.13's copy is src.to(self's dtype), which
      // returns src itself, copying nothing, when the dtypes already match.
      {"copy", "", EW, "[n] int32 into [n]", [](int64_t n) { return std::vector<Value>{X, Int32({n}), B(false)}; }},
      {"fill", "Scalar", EW, "[n], 1.5", [](int64_t n) { return std::vector<Value>{X, D(1.5)}; }},
      {"dropout", "", EW, "[n], p 0.5, train=False", [](int64_t n) { return std::vector<Value>{X, D(0.5), B(false)}; }},
      {"_to_copy", "", EW, "[n] to float64", [](int64_t n) { return std::vector<Value>{X, I(diff::f64), None(), None(), None(), B(false), None()}; }},
      {"to", "dtype", EW, "[n] to float64", [](int64_t n) { return std::vector<Value>{X, I(diff::f64), B(false), B(false), None()}; }},
      {"to", "dtype_layout", EW, "[n] to float64", [](int64_t n) { return std::vector<Value>{X, I(diff::f64), None(), None(), None(), B(false), B(false), None()}; }},
      {"to", "other", EW, "[n] to a float64 tensor's dtype", [](int64_t n) { return std::vector<Value>{X, T(raw(diff::f64, {1})), B(false), B(false), None()}; }},
      // factories: n elements
      {"empty", "memory_format", EW, "[n]", [](int64_t n) { return std::vector<Value>{L({n}), F32(), None(), None(), None(), None()}; }},
      {"empty_strided", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{L({n}), L({1}), F32(), None(), None(), None()}; }},
      {"zeros", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{L({n}), F32(), None(), None(), None()}; }},
      {"ones", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{L({n}), F32(), None(), None(), None()}; }},
      {"full", "", EW, "[n], 1.5", [](int64_t n) { return std::vector<Value>{L({n}), D(1.5), F32(), None(), None(), None()}; }},
      {"arange", "", EW, "n float32", [](int64_t n) { return std::vector<Value>{I(n), F32(), None(), None(), None()}; }},
      {"arange", "start", EW, "0..n float32", [](int64_t n) { return std::vector<Value>{I(0), I(n), F32(), None(), None(), None()}; }},
      {"arange", "start_step", EW, "0..n step 1 float32", [](int64_t n) { return std::vector<Value>{I(0), I(n), I(1), F32(), None(), None(), None()}; }},
      {"linspace", "", EW, "0..1, n steps (n = 2 for 1)", [](int64_t n) { return std::vector<Value>{D(0.0), D(1.0), I(std::max<int64_t>(n, 2)), F32(), None(), None(), None()}; }},
      {"eye", "", EW, "[k, k], k*k = n", [](int64_t n) { return std::vector<Value>{I(cols(n)), F32(), None(), None(), None()}; }},
      {"eye", "m", EW, "[k, k], k*k = n", [](int64_t n) { return std::vector<Value>{I(cols(n)), I(cols(n)), F32(), None(), None(), None()}; }},
      // reductions over the last dim of rc(n) ([1, 1] / [1000, 1000]); full ones over all of it
      {"sum", "", EW, "all of [r, c]", [](int64_t n) { return std::vector<Value>{MAT, None()}; }},
      {"sum", "dim_IntList", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, L({-1}), B(false), None()}; }},
      {"mean", "", EW, "all of [r, c]", [](int64_t n) { return std::vector<Value>{MAT, None()}; }},
      {"mean", "dim", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, L({-1}), B(false), None()}; }},
      {"prod", "", EW, "all of [r, c]", [](int64_t n) { return std::vector<Value>{MAT, None()}; }},
      {"prod", "dim_int", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), B(false), None()}; }},
      {"amax", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, L({-1}), B(false)}; }},
      {"amin", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, L({-1}), B(false)}; }},
      {"max", "", EW, "all of [r, c]", [](int64_t n) { return std::vector<Value>{MAT}; }},
      {"min", "", EW, "all of [r, c]", [](int64_t n) { return std::vector<Value>{MAT}; }},
      {"max", "dim", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), B(false)}; }},
      {"min", "dim", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), B(false)}; }},
      {"argmax", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), B(false)}; }},
      {"argmin", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), B(false)}; }},
      {"var", "", EW, "all of [r, c]", [](int64_t n) { return std::vector<Value>{MAT, B(true)}; }},
      {"var", "dim", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, L({-1}), B(true), B(false)}; }},
      {"var", "correction", EW, "[r, c], dim -1, correction 1", [](int64_t n) { return std::vector<Value>{MAT, L({-1}), I(1), B(false)}; }},
      {"std", "", EW, "all of [r, c]", [](int64_t n) { return std::vector<Value>{MAT, B(true)}; }},
      {"std", "dim", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, L({-1}), B(true), B(false)}; }},
      {"std", "correction", EW, "[r, c], dim -1, correction 1", [](int64_t n) { return std::vector<Value>{MAT, L({-1}), I(1), B(false)}; }},
      {"norm", "Scalar", EW, "all of [r, c], p 2", [](int64_t n) { return std::vector<Value>{MAT, I(2)}; }},
      {"norm", "ScalarOpt_dtype", EW, "all of [r, c], p 2, float32", [](int64_t n) { return std::vector<Value>{MAT, I(2), F32()}; }},
      {"norm", "ScalarOpt_dim", EW, "[r, c], p 2, dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(2), L({-1}), B(false)}; }},
      {"norm", "ScalarOpt_dim_dtype", EW, "[r, c], p 2, dim -1, float32", [](int64_t n) { return std::vector<Value>{MAT, I(2), L({-1}), B(false), F32()}; }},
      {"logsumexp", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, L({-1}), B(false)}; }},
      {"all", "", EW, "all of [r, c]", [](int64_t n) { return std::vector<Value>{MAT}; }},
      {"any", "", EW, "all of [r, c]", [](int64_t n) { return std::vector<Value>{MAT}; }},
      {"all", "dim", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), B(false)}; }},
      {"any", "dim", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), B(false)}; }},
      {"count_nonzero", "", EW, "all of [r, c]", [](int64_t n) { return std::vector<Value>{MAT, None()}; }},
      {"count_nonzero", "dim_IntList", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, L({-1})}; }},
      {"cumsum", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), None()}; }},
      {"cumprod", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), None()}; }},
      {"softmax", "int", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), None()}; }},
      {"log_softmax", "int", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), None()}; }},
      {"_softmax", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), B(false)}; }},
      {"_log_softmax", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), B(false)}; }},
      {"native_layer_norm", "", EW, "[r, c] over c, weight and bias", [](int64_t n) { return std::vector<Value>{MAT, L({cols(n)}), F({cols(n)}, 2), F({cols(n)}, 3), D(1e-5)}; }},
      {"layer_norm", "", EW, "[r, c] over c, weight and bias", [](int64_t n) { return std::vector<Value>{MAT, L({cols(n)}), F({cols(n)}, 2), F({cols(n)}, 3), D(1e-5), B(true)}; }},
      // shape and indexing on [r, c] (dim -1) or [n]
      {"cat", "", EW, "two [n] along 0", [](int64_t n) { return std::vector<Value>{TL({raw(diff::f32, {n}), raw(diff::f32, {n}, Fill::unit, 2)}), I(0)}; }},
      {"stack", "", EW, "two [n]", [](int64_t n) { return std::vector<Value>{TL({raw(diff::f32, {n}), raw(diff::f32, {n}, Fill::unit, 2)}), I(0)}; }},
      {"index_select", "", EW, "[r, c], dim 0, r Long indices", [](int64_t n) { return std::vector<Value>{MAT, I(0), Idx({rows(n)}, rows(n))}; }},
      {"gather", "", EW, "[r, c], dim -1, [r, c] Long indices", [](int64_t n) { return std::vector<Value>{MAT, I(-1), Idx(rc(n), cols(n)), B(false)}; }},
      {"scatter", "src", EW, "[r, c], dim -1, [r, c] indices and src", [](int64_t n) { return std::vector<Value>{MAT, I(-1), Idx(rc(n), cols(n)), F(rc(n), 2)}; }},
      {"scatter", "value", EW, "[r, c], dim -1, [r, c] indices, 1.0", [](int64_t n) { return std::vector<Value>{MAT, I(-1), Idx(rc(n), cols(n)), D(1.0)}; }},
      {"scatter", "reduce", EW, "[r, c], dim -1, [r, c] indices and src, 'add'", [](int64_t n) { return std::vector<Value>{MAT, I(-1), Idx(rc(n), cols(n)), F(rc(n), 2), S("add")}; }},
      {"scatter", "value_reduce", EW, "[r, c], dim -1, [r, c] indices, 1.0, 'add'", [](int64_t n) { return std::vector<Value>{MAT, I(-1), Idx(rc(n), cols(n)), D(1.0), S("add")}; }},
      {"flip", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, L({-1})}; }},
      {"roll", "", EW, "[r, c], shift 1 along -1", [](int64_t n) { return std::vector<Value>{MAT, L({1}), L({-1})}; }},
      {"repeat", "", EW, "[n] twice", [](int64_t n) { return std::vector<Value>{X, L({2})}; }},
      {"tril", "", EW, "[r, c]", [](int64_t n) { return std::vector<Value>{MAT, I(0)}; }},
      {"triu", "", EW, "[r, c]", [](int64_t n) { return std::vector<Value>{MAT, I(0)}; }},
      {"where", "", EW, "mask [n]", [](int64_t n) { return std::vector<Value>{M({n})}; }},
      {"nonzero", "", EW, "[n] float32", [](int64_t n) { return std::vector<Value>{X}; }},
      {"masked_select", "", EW, "[n], mask [n]", [](int64_t n) { return std::vector<Value>{X, M({n})}; }},
      {"index", "Tensor", EW, "[n], [n] Long indices", [](int64_t n) { return std::vector<Value>{X, OTL({indices({n}, n)})}; }},
      {"index_put", "", EW, "[n], [n] Long indices, [n] values", [](int64_t n) { return std::vector<Value>{X, OTL({indices({n}, n)}), Y, B(false)}; }},
      {"sort", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), B(false)}; }},
      {"sort", "stable", EW, "[r, c], dim -1, stable", [](int64_t n) { return std::vector<Value>{MAT, B(true), I(-1), B(false)}; }},
      {"argsort", "", EW, "[r, c], dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), B(false)}; }},
      {"argsort", "stable", EW, "[r, c], dim -1, stable", [](int64_t n) { return std::vector<Value>{MAT, B(true), I(-1), B(false)}; }},
      {"topk", "", EW, "[r, c], k = min(c, 10), dim -1", [](int64_t n) { return std::vector<Value>{MAT, I(std::min<int64_t>(cols(n), 10)), I(-1), B(true), B(true)}; }},
      // views and their *_copy (on [r, c])
      {"view", "", EW, "[r, c] as [n]", [](int64_t n) { return std::vector<Value>{MAT, L({n})}; }},
      {"_unsafe_view", "", EW, "[r, c] as [n]", [](int64_t n) { return std::vector<Value>{MAT, L({n})}; }},
      {"reshape", "", EW, "[r, c] as [n]", [](int64_t n) { return std::vector<Value>{MAT, L({n})}; }},
      {"transpose", "int", EW, "[r, c], 0, 1", [](int64_t n) { return std::vector<Value>{MAT, I(0), I(1)}; }},
      {"t", "", EW, "[r, c]", [](int64_t n) { return std::vector<Value>{MAT}; }},
      {"permute", "", EW, "[r, c], [1, 0]", [](int64_t n) { return std::vector<Value>{MAT, L({1, 0})}; }},
      {"slice", "Tensor", EW, "[r, c], dim -1, step 2", [](int64_t n) { return std::vector<Value>{MAT, I(-1), None(), None(), I(2)}; }},
      {"select", "int", EW, "[r, c], row 0", [](int64_t n) { return std::vector<Value>{MAT, I(0), I(0)}; }},
      {"narrow", "", EW, "[r, c], dim -1, first element", [](int64_t n) { return std::vector<Value>{MAT, I(-1), I(0), I(1)}; }},
      {"diagonal", "", EW, "[r, c]", [](int64_t n) { return std::vector<Value>{MAT, I(0), I(0), I(1)}; }},
      {"unsqueeze", "", EW, "[r, c], dim 0", [](int64_t n) { return std::vector<Value>{MAT, I(0)}; }},
      {"squeeze", "", EW, "[r, c]", [](int64_t n) { return std::vector<Value>{MAT}; }},
      {"squeeze", "dim", EW, "[r, c], dim 0", [](int64_t n) { return std::vector<Value>{MAT, I(0)}; }},
      {"expand", "", EW, "[1, n] to [2, n]", [](int64_t n) { return std::vector<Value>{F({1, n}), L({2, n}), B(false)}; }},
      {"expand_as", "", EW, "[1, n] as [2, n]", [](int64_t n) { return std::vector<Value>{F({1, n}), F({2, n}, 2)}; }},
      {"as_strided", "", EW, "[n] as [r, c]", [](int64_t n) { return std::vector<Value>{X, L(rc(n)), L({cols(n), 1}), None()}; }},
      {"split", "Tensor", EW, "[r, c] in pieces of c/2 along -1 (1 for 1)", [](int64_t n) { return std::vector<Value>{MAT, I(std::max<int64_t>(cols(n) / 2, 1)), I(-1)}; }},
      {"split_with_sizes", "", EW, "[r, c] into [1, c-1] along -1 ([1] for 1)", [](int64_t n) { return std::vector<Value>{MAT, cols(n) > 1 ? L({1, cols(n) - 1}) : L({1}), I(-1)}; }},
      {"unbind", "int", EW, "[r, c] along 0", [](int64_t n) { return std::vector<Value>{MAT, I(0)}; }},
      {"chunk", "", EW, "[r, c] in 2 along -1", [](int64_t n) { return std::vector<Value>{MAT, I(2), I(-1)}; }},
      {"unfold", "", EW, "[r, c], dim -1, size 1, step 1", [](int64_t n) { return std::vector<Value>{MAT, I(-1), I(1), I(1)}; }},
      {"flatten", "using_ints", EW, "[r, c]", [](int64_t n) { return std::vector<Value>{MAT, I(0), I(-1)}; }},
      {"contiguous", "", EW, "[r, c], contiguous_format", [](int64_t n) { return std::vector<Value>{MAT, I(0)}; }},
      {"slice_scatter", "", EW, "[r, c], src [r, c/2], dim -1, step 2 ([1, 1] for 1)", [](int64_t n) { return std::vector<Value>{MAT, F({rows(n), (cols(n) + 1) / 2}, 2), I(-1), None(), None(), I(2)}; }},
      {"select_scatter", "", EW, "[r, c], src row [c], row 0", [](int64_t n) { return std::vector<Value>{MAT, F({cols(n)}, 2), I(0), I(0)}; }},
      {"diagonal_scatter", "", EW, "[r, c], src diagonal", [](int64_t n) { return std::vector<Value>{MAT, F({std::min(rows(n), cols(n))}, 2), I(0), I(0), I(1)}; }},
      {"as_strided_scatter", "", EW, "[n], src [r, c]", [](int64_t n) { return std::vector<Value>{X, F(rc(n), 2), L(rc(n)), L({cols(n), 1}), None()}; }},
      {"unfold_backward", "", EW, "grad [r, c, 1] of unfold(dim -1, 1, 1)", [](int64_t n) { return std::vector<Value>{F({rows(n), cols(n), 1}), L(rc(n)), I(-1), I(1), I(1)}; }},
      // linear algebra, fixed shapes
      {"mm", "", {65536}, "[256, 256] @ [256, 256]", [](int64_t) { return std::vector<Value>{F({256, 256}), F({256, 256}, 2)}; }},
      {"matmul", "", {65536}, "[256, 256] @ [256, 256]", [](int64_t) { return std::vector<Value>{F({256, 256}), F({256, 256}, 2)}; }},
      {"bmm", "", {65536}, "[4, 128, 128] @ [4, 128, 128]", [](int64_t) { return std::vector<Value>{F({4, 128, 128}), F({4, 128, 128}, 2)}; }},
      {"addmm", "", {65536}, "[256, 256] + [256, 256] @ [256, 256]", [](int64_t) { return std::vector<Value>{F({256, 256}, 3), F({256, 256}), F({256, 256}, 2), I(1), I(1)}; }},
      {"baddbmm", "", {65536}, "[4, 128, 128] + bmm of two", [](int64_t) { return std::vector<Value>{F({4, 128, 128}, 3), F({4, 128, 128}), F({4, 128, 128}, 2), I(1), I(1)}; }},
      {"linear", "", {65536}, "[256, 256], weight [256, 256], bias [256]", [](int64_t) { return std::vector<Value>{F({256, 256}), F({256, 256}, 2), F({256}, 3)}; }},
      {"dot", "", EW, "[n] . [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"mv", "", EW, "[r, c] @ [c]", [](int64_t n) { return std::vector<Value>{MAT, F({cols(n)}, 2)}; }},
      {"outer", "", {1, 1000}, "[n] x [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      // NN layers, fixed shapes
      {"embedding", "", {256000}, "weight [1000, 256], 1000 Long indices", [](int64_t) { return std::vector<Value>{F({1000, 256}), Idx({1000}, 1000), I(-1), B(false), B(false)}; }},
      {"conv2d", "", {200704}, "[1, 64, 56, 56], 3x3, 64 out, pad 1", [](int64_t) { return std::vector<Value>{F({1, 64, 56, 56}), F({64, 64, 3, 3}, 2), F({64}, 3), L({1, 1}), L({1, 1}), L({1, 1}), I(1)}; }},
      {"max_pool2d", "", {802816}, "[1, 64, 112, 112], 3x3 stride 2 pad 1", [](int64_t) { return std::vector<Value>{F({1, 64, 112, 112}), L({3, 3}), L({2, 2}), L({1, 1}), L({1, 1}), B(false)}; }},
      {"avg_pool2d", "", {200704}, "[1, 64, 56, 56], 2x2 stride 2", [](int64_t) { return std::vector<Value>{F({1, 64, 56, 56}), L({2, 2}), L({2, 2}), L({0, 0}), B(false), B(true), None()}; }},
      {"adaptive_avg_pool2d", "", {25088}, "[1, 512, 7, 7] to 1x1", [](int64_t) { return std::vector<Value>{F({1, 512, 7, 7}), L({1, 1})}; }},
      // what torchvision's CNNs reach below autograd (issue 25)
      {"convolution", "", {200704}, "[1, 64, 56, 56], 3x3, 64 out, pad 1", [](int64_t) { return std::vector<Value>{F({1, 64, 56, 56}), F({64, 64, 3, 3}, 2), F({64}, 3), L({1, 1}), L({1, 1}), L({1, 1}), B(false), L({0, 0}), I(1)}; }},
      {"conv1d", "", {32768}, "[1, 64, 512], 3, 64 out, pad 1", [](int64_t) { return std::vector<Value>{F({1, 64, 512}), F({64, 64, 3}, 2), F({64}, 3), L({1}), L({1}), L({1}), I(1)}; }},
      {"conv3d", "", {65536}, "[1, 16, 16, 16, 16], 3x3x3, 16 out, pad 1", [](int64_t) { return std::vector<Value>{F({1, 16, 16, 16, 16}), F({16, 16, 3, 3, 3}, 2), F({16}, 3), L({1}), L({1}), L({1}), I(1)}; }},
      {"conv_transpose2d", "input", {200704}, "[1, 64, 28, 28], 4x4 stride 2, 64 out, pad 1", [](int64_t) { return std::vector<Value>{F({1, 64, 28, 28}), F({64, 64, 4, 4}, 2), F({64}, 3), L({2}), L({1}), L({0}), I(1), L({1})}; }},
      {"native_batch_norm", "", {802816}, "[1, 64, 112, 112], inference", [](int64_t) { return std::vector<Value>{F({1, 64, 112, 112}), F({64}, 2), F({64}, 3), F({64}, 4), F({64}, 5), B(false), D(0.1), D(1e-5)}; }},
      {"max_pool2d_with_indices", "", {802816}, "[1, 64, 112, 112], 3x3 stride 2 pad 1", [](int64_t) { return std::vector<Value>{F({1, 64, 112, 112}), L({3, 3}), L({2, 2}), L({1, 1}), L({1, 1}), B(false)}; }},
      {"hardtanh", "", EW, "[n], 0, 6", [](int64_t n) { return std::vector<Value>{X, D(0), D(6)}; }},
      {"_reshape_alias", "", EW, "[r, c] as [n]", [](int64_t n) { return std::vector<Value>{MAT, L({n}), L({1})}; }},
      {"lift_fresh", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{X}; }},
      // the nll losses (issue 27): [r, c] log-probabilities, r Long targets in [0, c), mean;
      // the 2-D ones over [1, 1, 1, 1] and [4, 10, 100, 250]
      {"nll_loss_forward", "", EW, "[r, c], r targets, mean", [](int64_t n) { return std::vector<Value>{MAT, Idx({rows(n)}, cols(n)), None(), I(1), I(-100)}; }},
      {"nll_loss_backward", "", EW, "grad [], [r, c], r targets, mean", [](int64_t n) { return std::vector<Value>{F({}, 2), MAT, Idx({rows(n)}, cols(n)), None(), I(1), I(-100), F({}, 3)}; }},
      {"nll_loss2d_forward", "", EW, "[N, C, H, W], [N, H, W] targets, mean", [](int64_t n) { return std::vector<Value>{F(nchw(n)), Idx(nhw(n), nchw(n)[1]), None(), I(1), I(-100)}; }},
      {"nll_loss2d_backward", "", EW, "grad [], [N, C, H, W], [N, H, W] targets, mean", [](int64_t n) { return std::vector<Value>{F({}, 2), F(nchw(n)), Idx(nhw(n), nchw(n)[1]), None(), I(1), I(-100), F({}, 3)}; }},
      {"nll_loss", "", EW, "[r, c], r targets, mean", [](int64_t n) { return std::vector<Value>{MAT, Idx({rows(n)}, cols(n)), None(), I(1), I(-100)}; }},
      {"nll_loss_nd", "", EW, "[r, c], r targets, mean", [](int64_t n) { return std::vector<Value>{MAT, Idx({rows(n)}, cols(n)), None(), I(1), I(-100)}; }},
      {"nll_loss2d", "", EW, "[N, C, H, W], [N, H, W] targets, mean", [](int64_t n) { return std::vector<Value>{F(nchw(n)), Idx(nhw(n), nchw(n)[1]), None(), I(1), I(-100)}; }},
      {"cross_entropy_loss", "", EW, "[r, c] logits, r targets, mean", [](int64_t n) { return std::vector<Value>{MAT, Idx({rows(n)}, cols(n)), None(), I(1), I(-100), D(0.0)}; }},
      // the backward kernels of issue 27's spatial operators: a ResNet-sized plane, the forward's
      // output as grad_output (pads of 1 or 3, 2x upsampling, 2x2x2 pools of a 16^3 volume)
      {"reflection_pad1d_backward", "", {527360}, "grad [8, 64, 1030], self [8, 64, 1024], pad 3", [](int64_t) { return std::vector<Value>{F({8, 64, 1030}), F({8, 64, 1024}, 2), L({3, 3})}; }},
      {"replication_pad1d_backward", "", {527360}, "grad [8, 64, 1030], self [8, 64, 1024], pad 3", [](int64_t) { return std::vector<Value>{F({8, 64, 1030}), F({8, 64, 1024}, 2), L({3, 3})}; }},
      {"reflection_pad2d_backward", "", {215296}, "grad [1, 64, 58, 58], self [1, 64, 56, 56], pad 1", [](int64_t) { return std::vector<Value>{F({1, 64, 58, 58}), F({1, 64, 56, 56}, 2), L({1, 1, 1, 1})}; }},
      {"replication_pad2d_backward", "", {215296}, "grad [1, 64, 58, 58], self [1, 64, 56, 56], pad 1", [](int64_t) { return std::vector<Value>{F({1, 64, 58, 58}), F({1, 64, 56, 56}, 2), L({1, 1, 1, 1})}; }},
      {"reflection_pad3d_backward", "", {93312}, "grad [1, 16, 18, 18, 18], self [1, 16, 16, 16, 16], pad 1", [](int64_t) { return std::vector<Value>{F({1, 16, 18, 18, 18}), F({1, 16, 16, 16, 16}, 2), L({1, 1, 1, 1, 1, 1})}; }},
      {"replication_pad3d_backward", "", {93312}, "grad [1, 16, 18, 18, 18], self [1, 16, 16, 16, 16], pad 1", [](int64_t) { return std::vector<Value>{F({1, 16, 18, 18, 18}), F({1, 16, 16, 16, 16}, 2), L({1, 1, 1, 1, 1, 1})}; }},
      {"upsample_nearest2d_backward", "", {802816}, "grad [1, 64, 112, 112] of [1, 64, 56, 56]", [](int64_t) { return std::vector<Value>{F({1, 64, 112, 112}), L({112, 112}), L({1, 64, 56, 56}), None(), None()}; }},
      {"upsample_bilinear2d_backward", "", {802816}, "grad [1, 64, 112, 112] of [1, 64, 56, 56]", [](int64_t) { return std::vector<Value>{F({1, 64, 112, 112}), L({112, 112}), L({1, 64, 56, 56}), B(false), None(), None()}; }},
      {"upsample_nearest2d_backward", "vec", {802816}, "grad [1, 64, 112, 112] of [1, 64, 56, 56]", [](int64_t) { return std::vector<Value>{F({1, 64, 112, 112}), L({112, 112}), L({1, 64, 56, 56}), None()}; }},
      {"upsample_bilinear2d_backward", "vec", {802816}, "grad [1, 64, 112, 112] of [1, 64, 56, 56]", [](int64_t) { return std::vector<Value>{F({1, 64, 112, 112}), L({112, 112}), L({1, 64, 56, 56}), B(false), None()}; }},
      {"avg_pool3d_backward", "", {8192}, "grad [1, 16, 8, 8, 8] of [1, 16, 16, 16, 16], 2x2x2", [](int64_t) { return std::vector<Value>{F({1, 16, 8, 8, 8}), F({1, 16, 16, 16, 16}, 2), L({2}), L({2}), L({0}), B(false), B(true), None()}; }},
      {"max_pool3d_with_indices_backward", "", {8192}, "grad [1, 16, 8, 8, 8] of [1, 16, 16, 16, 16], 2x2x2", [](int64_t) { return std::vector<Value>{F({1, 16, 8, 8, 8}), F({1, 16, 16, 16, 16}, 2), L({2}), L({2}), L({0}), L({1}), B(false), Idx({1, 16, 8, 8, 8}, 4096)}; }},
      {"_adaptive_avg_pool3d_backward", "", {1024}, "grad [1, 16, 4, 4, 4] of [1, 16, 16, 16, 16]", [](int64_t) { return std::vector<Value>{F({1, 16, 4, 4, 4}), F({1, 16, 16, 16, 16}, 2)}; }},
      {"im2col", "", {200704}, "[1, 64, 56, 56], 3x3, pad 1", [](int64_t) { return std::vector<Value>{F({1, 64, 56, 56}), L({3, 3}), L({1, 1}), L({1, 1}), L({1, 1})}; }},
      {"grid_sampler_2d_backward", "", {65536}, "grad [1, 16, 64, 64], bilinear, zeros", [](int64_t) { return std::vector<Value>{F({1, 16, 64, 64}), F({1, 16, 64, 64}, 2), F({1, 64, 64, 2}, 3), I(0), I(0), B(false), diff::BL({true, true})}; }},
      // the FFTs (1-D, no normalization; 1e6 = 2^6 5^6)
      {"_fft_r2c", "", EW, "[n] float32, onesided", [](int64_t n) { return std::vector<Value>{X, L({0}), I(0), B(true)}; }},
      {"_fft_c2c", "", EW, "[n] complex64, forward", [](int64_t n) { return std::vector<Value>{C64({n}), L({0}), I(0), B(true)}; }},
      {"_fft_c2r", "", {1, 500001}, "[n] complex64 to [2 (n - 1)] float32 ([1] at n = 1)", [](int64_t n) { return std::vector<Value>{C64({n}), L({0}), I(0), I(std::max<int64_t>(1, 2 * (n - 1)))}; }},
      // the rest of issue 25's operators: elementwise and complex, [n]
      {"clamp_min", "", EW, "[n], 0.5", [](int64_t n) { return std::vector<Value>{X, D(0.5)}; }},
      {"clamp_min", "Tensor", EW, "[n], [n]", [](int64_t n) { return std::vector<Value>{X, Y}; }},
      {"acosh", "", EW, "[n] in [1.05, 1.95)", [](int64_t n) { return std::vector<Value>{T(raw(diff::f32, {n}, Fill::above_one))}; }},
      {"asinh", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{X}; }},
      {"atanh", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{X}; }},
      {"hardsigmoid", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{X}; }},
      {"leaky_relu", "", EW, "[n], 0.01", [](int64_t n) { return std::vector<Value>{X, D(0.01)}; }},
      {"elu", "", EW, "[n], 1, 1, 1", [](int64_t n) { return std::vector<Value>{X, I(1), I(1), I(1)}; }},
      {"sgn", "", EW, "[n] complex64", [](int64_t n) { return std::vector<Value>{C64({n})}; }},
      {"angle", "", EW, "[n] complex64", [](int64_t n) { return std::vector<Value>{C64({n})}; }},
      {"conj_physical", "", EW, "[n] complex64", [](int64_t n) { return std::vector<Value>{C64({n})}; }},
      {"conj", "", EW, "[n] complex64", [](int64_t n) { return std::vector<Value>{C64({n})}; }},
      {"resolve_conj", "", EW, "[n] complex64", [](int64_t n) { return std::vector<Value>{C64({n})}; }},
      {"resolve_neg", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{X}; }},
      {"real", "", EW, "[n] complex64", [](int64_t n) { return std::vector<Value>{C64({n})}; }},
      {"imag", "", EW, "[n] complex64", [](int64_t n) { return std::vector<Value>{C64({n})}; }},
      {"view_as_real", "", EW, "[n] complex64", [](int64_t n) { return std::vector<Value>{C64({n})}; }},
      {"view_as_real_copy", "", EW, "[n] complex64", [](int64_t n) { return std::vector<Value>{C64({n})}; }},
      {"view_as_complex", "", EW, "[n / 2, 2] ([1, 2] for 1)", [](int64_t n) { return std::vector<Value>{F({std::max<int64_t>(n / 2, 1), 2})}; }},
      {"view_as_complex_copy", "", EW, "[n / 2, 2] ([1, 2] for 1)", [](int64_t n) { return std::vector<Value>{F({std::max<int64_t>(n / 2, 1), 2})}; }},
      {"is_complex", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{X}; }},
      {"is_conj", "", EW, "[n] complex64", [](int64_t n) { return std::vector<Value>{C64({n})}; }},
      {"native_dropout", "", EW, "[n], p 0.5, train", [](int64_t n) { return std::vector<Value>{X, D(0.5), B(true)}; }},
      {"native_dropout_backward", "", EW, "[n], mask [n], scale 2", [](int64_t n) { return std::vector<Value>{X, M({n}), D(2.0)}; }},
      {"masked_scatter", "", EW, "[n], mask [n], source [n]", [](int64_t n) { return std::vector<Value>{X, M({n}), Y}; }},
      // factories and queries
      {"full_like", "", EW, "[n], 1.5", [](int64_t n) { return std::vector<Value>{X, D(1.5), None(), None(), None(), None(), None()}; }},
      {"new_zeros", "", EW, "[n] like [n]", [](int64_t n) { return std::vector<Value>{X, L({n}), None(), None(), None(), None()}; }},
      {"rand", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{L({n}), None(), None(), None(), None()}; }},
      {"randn", "", EW, "[n]", [](int64_t n) { return std::vector<Value>{L({n}), None(), None(), None(), None()}; }},
      {"rand", "generator", EW, "[n], default generator", [](int64_t n) { return std::vector<Value>{L({n}), None(), None(), None(), None(), None()}; }},
      {"randn", "generator", EW, "[n], default generator", [](int64_t n) { return std::vector<Value>{L({n}), None(), None(), None(), None(), None()}; }},
      {"randperm", "", EW, "n, Long", [](int64_t n) { return std::vector<Value>{I(n), Long(), None(), None(), None()}; }},
      {"randperm", "generator", EW, "n, default generator, Long", [](int64_t n) { return std::vector<Value>{I(n), None(), Long(), None(), None(), None()}; }},
      {"scalar_tensor", "", {1}, "0-dim from 1.5", [](int64_t) { return std::vector<Value>{D(1.5), None(), None(), None(), None()}; }},
      {"_local_scalar_dense", "", {1}, "[1]", [](int64_t) { return std::vector<Value>{F({1})}; }},
      {"sym_size", "int", EW, "[r, c], dim 0", [](int64_t n) { return std::vector<Value>{MAT, I(0)}; }, "ATen 1.13 registers no aten::sym_size.int"},
      {"sym_stride", "int", EW, "[r, c], dim 0", [](int64_t n) { return std::vector<Value>{MAT, I(0)}; }, "ATen 1.13 registers no aten::sym_stride.int"},
      {"sym_numel", "", EW, "[r, c]", [](int64_t n) { return std::vector<Value>{MAT}; }, "ATen 1.13 registers no aten::sym_numel"},
      {"sym_storage_offset", "", EW, "[r, c]", [](int64_t n) { return std::vector<Value>{MAT}; }, "ATen 1.13 registers no aten::sym_storage_offset"},
      {"sym_is_contiguous", "", EW, "[r, c] (PyTorch 2.x)", [](int64_t n) { return std::vector<Value>{MAT, I(0)}; }, "PyTorch 2.x"},
      {"resize", "", EW, "[n] to [n]", [](int64_t n) { return std::vector<Value>{X, L({n}), None()}; }},
      // shape and indexing
      {"squeeze", "dims", EW, "[1, n], dims [0] (PyTorch 2.x)", [](int64_t n) { return std::vector<Value>{F({1, n}), L({0})}; }, "PyTorch 2.x"},
      {"any", "dims", EW, "[r, c], dim -1 (PyTorch 2.x)", [](int64_t n) { return std::vector<Value>{MAT, L({-1}), B(false)}; }, "PyTorch 2.x"},
      {"unsafe_split", "Tensor", EW, "[r, c] in pieces of c/2 along -1 (1 for 1)", [](int64_t n) { return std::vector<Value>{MAT, I(std::max<int64_t>(cols(n) / 2, 1)), I(-1)}; }},
      {"scatter_add", "", EW, "[r, c], dim -1, [r, c] indices and src", [](int64_t n) { return std::vector<Value>{MAT, I(-1), Idx(rc(n), cols(n)), F(rc(n), 2)}; }},
      {"scatter_reduce", "two", EW, "[r, c], dim -1, [r, c] indices and src, 'sum'", [](int64_t n) { return std::vector<Value>{MAT, I(-1), Idx(rc(n), cols(n)), F(rc(n), 2), S("sum"), B(true)}; }},
      {"constant_pad_nd", "", EW, "[r, c], 1 each side of c", [](int64_t n) { return std::vector<Value>{MAT, L({1, 1}), D(0.0)}; }},
      // NN layers, fixed shapes
      {"embedding_dense_backward", "", {256000}, "grad [1000, 256], 1000 indices, 1000 rows", [](int64_t) { return std::vector<Value>{F({1000, 256}), Idx({1000}, 1000), I(1000), I(-1), B(false)}; }},
      {"_embedding_bag", "", {256000}, "weight [1000, 256], 1000 indices in 100 bags, sum", [](int64_t) { return std::vector<Value>{F({1000, 256}), Idx({1000}, 1000), Offsets(100, 10), B(false), I(0), B(false), None(), B(false), I(-1)}; }},
      {"_pdist_forward", "", {16384}, "[256, 64], p 2", [](int64_t) { return std::vector<Value>{F({256, 64}), D(2.0)}; }},
      {"_pdist_backward", "", {16384}, "grad [32640] of [256, 64], p 2", [](int64_t) { return std::vector<Value>{F({32640}, 2), F({256, 64}), D(2.0), F({32640}, 3)}; }},
      {"_embedding_bag_backward", "", {256000}, "grad [100, 256], 1000 indices in 100 bags of 10, 1000 rows, sum", [](int64_t) { return std::vector<Value>{F({100, 256}), Idx({1000}, 1000), Offsets(100, 10), Longs(1000, [](int64_t i) { return i / 10; }), Longs(100, [](int64_t) -> int64_t { return 10; }), Longs(100, [](int64_t) -> int64_t { return 0; }), I(1000), B(false), I(0), B(false), None(), I(-1)}; }},
      {"_embedding_bag_dense_backward", "", {256000}, "grad [100, 256], 1000 indices in 100 bags of 10, 1000 rows, sum", [](int64_t) { return std::vector<Value>{F({100, 256}), Idx({1000}, 1000), Longs(1000, [](int64_t i) { return i / 10; }), Longs(100, [](int64_t) -> int64_t { return 10; }), Longs(100, [](int64_t) -> int64_t { return 0; }), I(1000), B(false), I(0), None(), I(-1)}; }},
      {"_embedding_bag_per_sample_weights_backward", "", {256000}, "grad [100, 256], weight [1000, 256], 1000 indices in 100 bags of 10, sum", [](int64_t) { return std::vector<Value>{F({100, 256}), F({1000, 256}, 2), Idx({1000}, 1000), Offsets(100, 10), Longs(1000, [](int64_t i) { return i / 10; }), I(0), I(-1)}; }},
      {"_cdist_forward", "", {16384}, "[256, 64] to [256, 64], p 2", [](int64_t) { return std::vector<Value>{F({256, 64}), F({256, 64}, 2), D(2.0), None()}; }},
      {"col2im", "", {200704}, "[1, 576, 3136] to [1, 64, 56, 56], 3x3 pad 1", [](int64_t) { return std::vector<Value>{F({1, 576, 3136}), L({56, 56}), L({3, 3}), L({1, 1}), L({1, 1}), L({1, 1})}; }},
      {"_adaptive_avg_pool2d", "", {25088}, "[1, 512, 7, 7] to 1x1", [](int64_t) { return std::vector<Value>{F({1, 512, 7, 7}), L({1, 1})}; }},
      {"_adaptive_avg_pool2d_backward", "", {25088}, "grad [1, 512, 1, 1] of [1, 512, 7, 7]", [](int64_t) { return std::vector<Value>{F({1, 512, 1, 1}), F({1, 512, 7, 7}, 2)}; }},
      {"_adaptive_avg_pool3d", "", {262144}, "[1, 64, 16, 16, 16] to 4x4x4", [](int64_t) { return std::vector<Value>{F({1, 64, 16, 16, 16}), L({4, 4, 4})}; }},
      {"adaptive_avg_pool1d", "", {32768}, "[1, 64, 512] to 16", [](int64_t) { return std::vector<Value>{F({1, 64, 512}), L({16})}; }},
      {"avg_pool1d", "", {32768}, "[1, 64, 512], 2 stride 2", [](int64_t) { return std::vector<Value>{F({1, 64, 512}), L({2}), L({2}), L({0}), B(false), B(true)}; }},
      {"avg_pool3d", "", {65536}, "[1, 16, 16, 16, 16], 2x2x2 stride 2", [](int64_t) { return std::vector<Value>{F({1, 16, 16, 16, 16}), L({2, 2, 2}), L({2, 2, 2}), L({0, 0, 0}), B(false), B(true), None()}; }},
      {"avg_pool2d_backward", "", {200704}, "grad [1, 64, 28, 28] of [1, 64, 56, 56], 2x2 stride 2", [](int64_t) { return std::vector<Value>{F({1, 64, 28, 28}), F({1, 64, 56, 56}, 2), L({2, 2}), L({2, 2}), L({0, 0}), B(false), B(true), None()}; }},
      {"max_pool3d_with_indices", "", {65536}, "[1, 16, 16, 16, 16], 2x2x2 stride 2", [](int64_t) { return std::vector<Value>{F({1, 16, 16, 16, 16}), L({2, 2, 2}), L({2, 2, 2}), L({0, 0, 0}), L({1, 1, 1}), B(false)}; }},
      {"max_pool2d_with_indices_backward", "", {802816}, "grad [1, 64, 56, 56] of [1, 64, 112, 112], 3x3 stride 2 pad 1", [](int64_t) { return std::vector<Value>{F({1, 64, 56, 56}), F({1, 64, 112, 112}, 2), L({3, 3}), L({2, 2}), L({1, 1}), L({1, 1}), B(false), Idx({1, 64, 56, 56}, 112 * 112)}; }},
      {"reflection_pad1d", "", {32768}, "[1, 64, 512], 3 each side", [](int64_t) { return std::vector<Value>{F({1, 64, 512}), L({3, 3})}; }},
      {"reflection_pad2d", "", {200704}, "[1, 64, 56, 56], 1 each side", [](int64_t) { return std::vector<Value>{F({1, 64, 56, 56}), L({1, 1, 1, 1})}; }},
      {"reflection_pad3d", "", {65536}, "[1, 16, 16, 16, 16], 1 each side", [](int64_t) { return std::vector<Value>{F({1, 16, 16, 16, 16}), L({1, 1, 1, 1, 1, 1})}; }},
      {"replication_pad1d", "", {32768}, "[1, 64, 512], 3 each side", [](int64_t) { return std::vector<Value>{F({1, 64, 512}), L({3, 3})}; }},
      {"replication_pad2d", "", {200704}, "[1, 64, 56, 56], 1 each side", [](int64_t) { return std::vector<Value>{F({1, 64, 56, 56}), L({1, 1, 1, 1})}; }},
      {"replication_pad3d", "", {65536}, "[1, 16, 16, 16, 16], 1 each side", [](int64_t) { return std::vector<Value>{F({1, 16, 16, 16, 16}), L({1, 1, 1, 1, 1, 1})}; }},
      {"upsample_nearest2d", "", {50176}, "[1, 64, 28, 28] to 56x56", [](int64_t) { return std::vector<Value>{F({1, 64, 28, 28}), L({56, 56}), None(), None()}; }},
      {"upsample_nearest2d", "vec", {50176}, "[1, 64, 28, 28] to 56x56", [](int64_t) { return std::vector<Value>{F({1, 64, 28, 28}), L({56, 56}), None()}; }},
      {"upsample_bilinear2d", "", {50176}, "[1, 64, 28, 28] to 56x56", [](int64_t) { return std::vector<Value>{F({1, 64, 28, 28}), L({56, 56}), B(false), None(), None()}; }},
      {"upsample_bilinear2d", "vec", {50176}, "[1, 64, 28, 28] to 56x56", [](int64_t) { return std::vector<Value>{F({1, 64, 28, 28}), L({56, 56}), B(false), None()}; }},
      {"grid_sampler_2d", "", {65536}, "[1, 16, 64, 64], grid [1, 64, 64, 2], bilinear, zeros", [](int64_t) { return std::vector<Value>{F({1, 16, 64, 64}), F({1, 64, 64, 2}, 2), I(0), I(0), B(false)}; }},
      {"conv_transpose1d", "", {16384}, "[1, 64, 256], 4 stride 2, 64 out, pad 1", [](int64_t) { return std::vector<Value>{F({1, 64, 256}), F({64, 64, 4}, 2), F({64}, 3), L({2}), L({1}), L({0}), I(1), L({1})}; }},
      {"conv_transpose3d", "input", {8192}, "[1, 16, 8, 8, 8], 4x4x4 stride 2, 16 out, pad 1", [](int64_t) { return std::vector<Value>{F({1, 16, 8, 8, 8}), F({16, 16, 4, 4, 4}, 2), F({16}, 3), L({2, 2, 2}), L({1, 1, 1}), L({0, 0, 0}), I(1), L({1, 1, 1})}; }},
      {"convolution_backward", "", {200704}, "[1, 64, 56, 56], 3x3, 64 out, pad 1, all three", [](int64_t) { return std::vector<Value>{F({1, 64, 56, 56}), F({1, 64, 56, 56}, 2), F({64, 64, 3, 3}, 3), L({64}), L({1, 1}), L({1, 1}), L({1, 1}), B(false), L({0, 0}), I(1), BL({true, true, true})}; }},
      {"native_group_norm", "", {200704}, "[1, 64, 56, 56], 32 groups", [](int64_t) { return std::vector<Value>{F({1, 64, 56, 56}), F({64}, 2), F({64}, 3), I(1), I(64), I(3136), I(32), D(1e-5)}; }},
      {"native_group_norm_backward", "", {200704}, "[1, 64, 56, 56], 32 groups, all three", [](int64_t) { return std::vector<Value>{F({1, 64, 56, 56}), F({1, 64, 56, 56}, 2), F({1, 32}, 4), F({1, 32}, 5), F({64}, 3), I(1), I(64), I(3136), I(32), BL({true, true, true})}; }},
      {"native_layer_norm_backward", "", EW, "[r, c] over c, weight and bias, all three", [](int64_t n) { return std::vector<Value>{MAT, F(rc(n), 2), L({cols(n)}), F({rows(n), 1}, 4), F({rows(n), 1}, 5), F({cols(n)}, 2), F({cols(n)}, 3), BL({true, true, true})}; }},
      {"_native_batch_norm_legit", "no_stats", {802816}, "[1, 64, 112, 112], training (PyTorch 2.x)", [](int64_t) { return std::vector<Value>{F({1, 64, 112, 112}), F({64}, 2), F({64}, 3), B(true), D(0.1), D(1e-5)}; }, "PyTorch 2.x"},
      {"_native_batch_norm_legit_no_training", "", {802816}, "[1, 64, 112, 112] (PyTorch 2.x)", [](int64_t) { return std::vector<Value>{F({1, 64, 112, 112}), F({64}, 2), F({64}, 3), F({64}, 4), F({64}, 5), D(0.1), D(1e-5)}; }, "PyTorch 2.x"},
      {"_transformer_encoder_layer_fwd", "", {16384}, "[1, 64, 256], 4 heads, ffn 1024, relu, norm after", [](int64_t) { return std::vector<Value>{F({1, 64, 256}), I(256), I(4), F({768, 256}, 2), F({768}, 3), F({256, 256}, 4), F({256}, 5), B(false), B(false), D(1e-5), F({256}, 6), F({256}, 7), F({256}, 8), F({256}, 9), F({1024, 256}, 10), F({1024}, 11), F({256, 1024}, 12), F({256}, 13), None(), None()}; }},
      {"_native_multi_head_attention", "", {16384}, "q, k, v [1, 64, 256], 4 heads, weights averaged", [](int64_t) { return std::vector<Value>{F({1, 64, 256}), F({1, 64, 256}, 2), F({1, 64, 256}, 3), I(256), I(4), F({768, 256}, 4), F({768}, 5), F({256, 256}, 6), F({256}, 7), None(), B(true), B(true), None()}; }},
  };
  c.insert(c.end(), rest.begin(), rest.end());
  // *_copy of every view the library has one for: the view's arguments.
  for (const char* v : {"view", "transpose", "t", "permute", "slice", "select", "diagonal", "unsqueeze", "squeeze", "expand",
                        "as_strided", "alias", "split", "split_with_sizes", "unbind", "unfold", "detach"}) {
    for (const Case& k : std::vector<Case>(c)) {
      if (std::strcmp(k.op, v) == 0) {
        const std::string copy_name = std::string("aten::") + v + "_copy" + (*k.overload ? std::string(".") + k.overload : "");
        if (opd::Dispatcher::singleton().find_schema(copy_name) == nullptr) continue;  // (squeeze.dims has no _copy)
        static std::vector<std::unique_ptr<std::string>> names;  // the table holds const char*
        names.push_back(std::make_unique<std::string>(std::string(v) + "_copy"));
        Case copy = k;
        copy.op = names.back()->c_str();
        c.push_back(copy);
      }
    }
  }
  return c;
}
#undef X
#undef Y
#undef MAT

std::string qualified(const Case& k) { return std::string("aten::") + k.op; }
std::string full_name(const Case& k) { return qualified(k) + (*k.overload ? std::string(".") + k.overload : ""); }
std::string bench_name(const Case& k, bool all_threads) {
  return std::string("BM_") + k.op + (*k.overload ? std::string("_") + k.overload : "") +
         (all_threads ? "_mt" : "_1t");
}

// Both sides' intra-op thread count, for one benchmark's duration.
class ThreadsFor {
 public:
  explicit ThreadsFor(int threads) { set(threads); }
  ~ThreadsFor() { set(1); }
  ThreadsFor(const ThreadsFor&) = delete;
  ThreadsFor& operator=(const ThreadsFor&) = delete;

 private:
  static void set(int threads) {
    opd::kernels::set_num_threads(threads);
#if defined(OPD_BENCH_WITH_TORCH)
    diff::torch_set_num_threads(threads);
#endif
  }
};

// Minor page faults of the process so far.
long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// PreparedOpd::bytes_moved() of the case at n, or 0 where the library refuses it.
int64_t bytes_moved(const Case& k, int64_t n) {
  try {
    return diff::PreparedOpd(qualified(k), k.overload, k.args(n)).bytes_moved();
  } catch (const std::exception&) {
    return 0;
  }
}

// One side's benchmark: prepare (untimed), one trial call (refusals are
// reported, not timed), then the timed calls.
template <class Prepared>
void run_case(benchmark::State& st, const Case& k, const char* side, int threads) {
  const ThreadsFor scope(threads);
  const int64_t n = st.range(0);
  std::unique_ptr<Prepared> p;
  std::string error;
  try {
    p = std::make_unique<Prepared>(qualified(k), k.overload, k.args(n));
    error = p->try_call();
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (!error.empty()) {
    const std::size_t eol = error.find('\n');
    st.SkipWithError((full_name(k) + " refused by " + side + ": " + error.substr(0, eol)).c_str());
    return;
  }
  const long faults_before = minor_faults();
  for (auto _ : st) p->call();
  // Fresh pages per call: an output that is not reused costs page faults.
  st.counters["faults"] = benchmark::Counter(static_cast<double>(minor_faults() - faults_before),
                                             benchmark::Counter::kAvgIterations);
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * bytes_moved(k, n));
  st.SetLabel(full_name(k) + " | " + k.shape);  // read by all_ops_table.py
}

// The machine's copy bandwidth at a footprint of `bytes` (read and written):
// memcpy of bytes / 2 between two buffers written once before the timing,
// split in contiguous parts over the threads as a kernel's loop would be.
void run_memcpy(benchmark::State& st, int threads) {
  const ThreadsFor scope(threads);
  const auto half = static_cast<std::size_t>(st.range(0) / 2);
  std::vector<char> from(half, 1);
  std::vector<char> to(half, 0);
  const int64_t part = (static_cast<int64_t>(half) + threads - 1) / threads;
  for (auto _ : st) {
    opd::kernels::parallel_tasks(threads, [&](int64_t t) {
      const int64_t b = std::min<int64_t>(t * part, static_cast<int64_t>(half));
      const int64_t e = std::min<int64_t>(b + part, static_cast<int64_t>(half));
      std::memcpy(to.data() + b, from.data() + b, static_cast<std::size_t>(e - b));
    });
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * st.range(0));
}

// Registered functional aten operators (CPU or composite kernels, no written
// argument) that no case calls.
std::vector<std::string> without_case(const std::vector<Case>& cases) {
  std::set<std::string> covered;
  for (const Case& k : cases) covered.insert(full_name(k));
  std::vector<std::string> missing;
  opd::Dispatcher& d = opd::Dispatcher::singleton();
  for (const std::string& name : d.operator_names()) {
    if (name.rfind("aten::", 0) != 0 || covered.count(name)) continue;
    opd::OperatorEntry* e = d.find_schema(name);
    if (e == nullptr || !e->alias_facts().written.empty()) continue;
    if (!e->has_kernel_for(opd::DispatchKey::CPU) && !e->has_kernel_for(opd::DispatchKey::CompositeExplicitAutograd) &&
        !e->has_kernel_for(opd::DispatchKey::CompositeImplicitAutograd)) {
      continue;
    }
    missing.push_back(name);
  }
  return missing;
}

}  // namespace

int main(int argc, char** argv) {
  const opd::RegistrationSet kernels = opd::kernels::register_cpu();
  static const std::vector<Case> cases = make_cases();
  const int all = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  for (const bool mt : {false, true}) {
    const int threads = mt ? all : 1;
    for (const Case& k : cases) {
      const std::string base = bench_name(k, mt);
      auto* b = benchmark::RegisterBenchmark(
          (base + "/opd").c_str(), [&k, threads](benchmark::State& st) { run_case<diff::PreparedOpd>(st, k, "opd", threads); });
      for (int64_t n : k.ns) b->Arg(n);
#if defined(OPD_BENCH_WITH_TORCH)
      if (k.no_aten != nullptr) continue;
      auto* a = benchmark::RegisterBenchmark(
          (base + "/aten").c_str(), [&k, threads](benchmark::State& st) { run_case<diff::PreparedTorch>(st, k, "aten", threads); });
      for (int64_t n : k.ns) a->Arg(n);
#endif
    }
  }
  for (const bool mt : {false, true}) {
    const int threads = mt ? all : 1;
    auto* m = benchmark::RegisterBenchmark(mt ? "BM_memcpy_mt/machine" : "BM_memcpy_1t/machine",
                                           [threads](benchmark::State& st) { run_memcpy(st, threads); });
    for (int64_t bytes = int64_t{1} << 20; bytes <= (int64_t{1} << 26); bytes *= 2) m->Arg(bytes);
  }
  std::string missing;
  for (const std::string& name : without_case(cases)) {
    std::fprintf(stderr, "all_ops: no case for %s\n", name.c_str());
    missing += (missing.empty() ? "" : " ") + name;
  }
  benchmark::AddCustomContext("no_case", missing.empty() ? "-" : missing);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
