#pragma once
// The default compiler (lazy/backend.hpp): a graph becomes a CPU plan, in
// numbered steps at compile time:
//   1. fusion groups: chains of float32 elementwise operators (unary, binary
//      with scalar or trailing-dimension broadcasting, comparisons, where)
//      are grouped, greedily in post-order; a group runs where it closes
//      (before the first operator outside it that reads one of its values);
//   2. steps: every other operator, in post-order, with its view-copy
//      rewritten to the view itself when no live tensor receives it (a
//      buffer a view shares is never written, so a view is as good as a copy);
//   3. slots by liveness: a value's slot is freed after its last reader, and
//      reused by the next value;
//   4. buffers written in place, each only when at run time nothing else
//      holds it (no tensor, no view of its storage): an operator's dying
//      first operand (its in-place variant), a fused group's dying
//      intermediate input, and a graph input that an update group (`w - lr *
//      g`, run last) replaces when nothing reads that input after the sync.
// At run time each step is a boxed call of the CPU kernel through the
// dispatcher; a fused group is one loop over blocks of 1024 elements in which
// each operator is an inner loop over the block (no runtime compiler, no
// intermediate tensors: the intermediates live in a few L1-sized buffers).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "dispatch/core/small_vector.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/sgemm_paths.hpp"
#include "kernels/ops_views.hpp"
#include "lazy/backend.hpp"
#include "lazy/ir.hpp"
#include "lazy/op_node.hpp"

namespace opd::lazy {

namespace plan_detail {

enum class FOp : std::uint8_t {
  add, sub, mul, div,                       // binary: a op b (add/sub with alpha)
  gt, lt, ge, le, eq, ne,                   // comparisons -> 0/1
  relu, neg, abs, exp, log, tanh, sigmoid, sqrt,
  where,                                     // c ? a : b
  cast,                                      // a through the dtype `to` (_to_copy)
};

struct FusibleOp {
  FOp op;
  int arity;          // tensor operands (1 unary, 2 binary, 3 where)
  bool scalar_other;  // the second operand is the Scalar attribute at argument 1
  bool has_alpha;     // alpha at argument 2
  bool compare;       // returns Bool
};

OPD_FUNC const FusibleOp* fusible(const std::string& name) {
  static const std::unordered_map<std::string, FusibleOp> table = [] {
    std::unordered_map<std::string, FusibleOp> t;
    t["aten::add.Tensor"] = {FOp::add, 2, false, true, false};
    t["aten::sub.Tensor"] = {FOp::sub, 2, false, true, false};
    t["aten::mul.Tensor"] = {FOp::mul, 2, false, false, false};
    t["aten::div.Tensor"] = {FOp::div, 2, false, false, false};
    t["aten::add.Scalar"] = {FOp::add, 1, true, true, false};
    t["aten::sub.Scalar"] = {FOp::sub, 1, true, true, false};
    t["aten::mul.Scalar"] = {FOp::mul, 1, true, false, false};
    t["aten::div.Scalar"] = {FOp::div, 1, true, false, false};
    const std::pair<const char*, FOp> cmps[] = {{"gt", FOp::gt}, {"lt", FOp::lt}, {"ge", FOp::ge},
                                                {"le", FOp::le}, {"eq", FOp::eq}, {"ne", FOp::ne}};
    for (const auto& [n, op] : cmps) {
      t[std::string("aten::") + n + ".Tensor"] = {op, 2, false, false, true};
      t[std::string("aten::") + n + ".Scalar"] = {op, 1, true, false, true};
    }
    const std::pair<const char*, FOp> unary[] = {{"relu", FOp::relu}, {"neg", FOp::neg},         {"abs", FOp::abs},
                                                 {"exp", FOp::exp},   {"log", FOp::log},         {"tanh", FOp::tanh},
                                                 {"sigmoid", FOp::sigmoid}, {"sqrt", FOp::sqrt}};
    for (const auto& [n, op] : unary) t[std::string("aten::") + n] = {op, 1, false, false, false};
    t["aten::where.self"] = {FOp::where, 3, false, false, false};
    t["aten::_to_copy"] = {FOp::cast, 1, false, false, false};
    return t;
  }();
  auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

constexpr std::int64_t kBlock = 1024;

// The dtypes a fused group loads and stores (converted to and from its float
// registers as eager's copy_ converts), and those a cast in it may target.
OPD_FUNC bool fusible_real_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: case ScalarType::Byte: case ScalarType::Char: case ScalarType::Short:
    case ScalarType::Int: case ScalarType::Long: case ScalarType::Half: case ScalarType::BFloat16:
    case ScalarType::Float: case ScalarType::Double:
      return true;
    default:
      return false;
  }
}
// f(type_tag<T>) for one of those dtypes.
template <class F>
void visit_fusible_dtype(ScalarType t, F&& f) {
  visit_scalar_type(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_arithmetic_v<T> || kernels::is_reduced_float_v<T>) f(tag);
  });
}

// Where a fused operand comes from, per block.
struct FInput {
  std::uint32_t node = 0, index = 0;  // the value (graph position, output)
  std::int64_t period = 0;            // numel of the input: 1 (scalar), the group's numel, or a trailing-dims size
  ScalarType dtype = ScalarType::Float;  // other than Float: converted when loaded
  // Broadcast in another way ([n, 1] beside [n, m]): gathered per block
  // through its strides over the group's dimensions (0 where it repeats).
  bool general = false;
};

struct FInstr {
  FOp op;
  std::int32_t dst, a, b, c;  // registers; b = -1 with a scalar operand
  float scalar = 0.f, alpha = 1.f;
  bool alpha_one = true;
  ScalarType to = ScalarType::Float;  // FOp::cast's dtype
  bool writes_operand = false;  // computes a direct output (FOutput::direct): dst may be an operand's buffer
};

struct FOutput {
  std::int32_t reg;
  std::uint32_t node, slot;
  ScalarType dtype;  // other than Float: converted when stored
  std::int32_t into_input = -1;  // >= 0: written into this group input's buffer when it may be (see CpuPlan)
  // Computed straight into that buffer (no instruction after the one that
  // computes it reads the input), else in its register and copied per block.
  bool direct = false;
};

struct Group {
  std::vector<std::uint32_t> members;  // graph positions, in order
  std::vector<FInput> inputs;          // registers 0..inputs.size()-1
  std::vector<std::int32_t> input_slots;
  std::vector<FInstr> code;
  std::vector<FOutput> outputs;  // written values
  std::int32_t registers = 0;
  std::vector<std::int64_t> sizes;  // the group's shape
  std::int64_t numel = 0;
  // A graph input (node position, output) whose buffer this group may write:
  // read in full here, by no later step (see CpuPlan).
  std::int64_t target_node = -1;
  std::uint32_t target_index = 0;
  std::int32_t target_input = -1;  // its position among inputs
  // Else an intermediate that dies here (read by no later step), whose
  // buffer takes the output when at run time its slot alone holds it.
  std::int32_t dying_input = -1;  // its position among inputs
};

struct Step {
  std::int32_t group = -1;  // >= 0: a fused group
  std::uint32_t node = 0;
  const OperatorEntry* run_op = nullptr;
  const OperatorEntry* inplace_op = nullptr;  // run instead when operand 0's buffer dies here, unshared
  std::vector<std::int32_t> in;   // per operand: a slot, -1 for none
  std::vector<std::uint32_t> out;  // per output
  std::vector<std::uint32_t> release;
  std::int32_t weight = -1;  // >= 0: a linear layer whose weight the plan keeps transposed (CpuPlan::weights_)
};

OPD_FUNC float scalar_of(const IValue& v) {
  if (v.is_double()) return static_cast<float>(v.to_double());
  if (v.is_int()) return static_cast<float>(v.to_int());
  if (v.is_bool()) return v.to_bool() ? 1.f : 0.f;
  return std::nanf("");
}

OPD_FUNC bool is_float_scalar_attr(const IValue& v) { return v.is_double() || v.is_int() || v.is_bool(); }

// A cast's value in a float register: the element converted to `to` and
// back, as eager's _to_copy gives it (exact in float for every fusible dtype:
// a float -> integer conversion truncates to an integer a float holds).
OPD_FUNC void cast_through(ScalarType to, float* d, const float* a, std::int64_t n) {
  visit_fusible_dtype(to, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (std::int64_t k = 0; k < n; ++k) d[k] = kernels::convert<float>(kernels::convert<T>(a[k]));
  });
}

// One operator over one block. Registers never overlap (hence __restrict),
// except in an instruction that computes an output straight into the buffer
// of one of its own operands (FOutput::direct): apply_in_place, whose loops
// read element k before they write element k, so that none carries a
// dependence (ivdep, no __restrict). The loops vectorize (AVX2 where the CPU
// has it).
#if defined(__x86_64__) && defined(__ELF__) && !defined(OPD_HEADER_ONLY) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#define OPD_LAZY_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OPD_LAZY_CLONES
#endif
// (clang gets no hint: its assume_safety warns on the loops that call libm;
// it checks the pointers at run time instead.)
#if defined(__GNUC__) && !defined(__clang__)
#define OPD_LAZY_IVDEP _Pragma("GCC ivdep")
#else
#define OPD_LAZY_IVDEP
#endif
template <bool InPlace>
[[gnu::always_inline]] inline void apply_body(const FInstr& in, float* const* r, std::int64_t n) {
  using Out = std::conditional_t<InPlace, float*, float* __restrict>;
  using In = std::conditional_t<InPlace, const float*, const float* __restrict>;
  const Out d = r[in.dst];
  const In a = r[in.a];
  const In b = in.b >= 0 ? r[in.b] : nullptr;
  const float s = in.scalar;
  const float al = in.alpha;
#define OPD_LAZY_FOR(body)                                     \
  if constexpr (InPlace) {                                     \
    OPD_LAZY_IVDEP                                             \
    for (std::int64_t k = 0; k < n; ++k) body;                 \
  } else {                                                     \
    for (std::int64_t k = 0; k < n; ++k) body;                 \
  }
#define OPD_LAZY_BIN(expr_t, expr_s)      \
  if (b != nullptr) {                     \
    OPD_LAZY_FOR(d[k] = (expr_t))         \
  } else {                                \
    OPD_LAZY_FOR(d[k] = (expr_s))         \
  }                                       \
  break;
  switch (in.op) {
    case FOp::add:
      if (in.alpha_one) { OPD_LAZY_BIN(a[k] + b[k], a[k] + s) }
      OPD_LAZY_BIN(a[k] + al * b[k], a[k] + al * s)
    case FOp::sub:
      if (in.alpha_one) { OPD_LAZY_BIN(a[k] - b[k], a[k] - s) }
      OPD_LAZY_BIN(a[k] - al * b[k], a[k] - al * s)
    case FOp::mul: OPD_LAZY_BIN(a[k] * b[k], a[k] * s)
    case FOp::div: OPD_LAZY_BIN(a[k] / b[k], a[k] / s)
    case FOp::gt: OPD_LAZY_BIN(a[k] > b[k] ? 1.f : 0.f, a[k] > s ? 1.f : 0.f)
    case FOp::lt: OPD_LAZY_BIN(a[k] < b[k] ? 1.f : 0.f, a[k] < s ? 1.f : 0.f)
    case FOp::ge: OPD_LAZY_BIN(a[k] >= b[k] ? 1.f : 0.f, a[k] >= s ? 1.f : 0.f)
    case FOp::le: OPD_LAZY_BIN(a[k] <= b[k] ? 1.f : 0.f, a[k] <= s ? 1.f : 0.f)
    case FOp::eq: OPD_LAZY_BIN(a[k] == b[k] ? 1.f : 0.f, a[k] == s ? 1.f : 0.f)
    case FOp::ne: OPD_LAZY_BIN(a[k] != b[k] ? 1.f : 0.f, a[k] != s ? 1.f : 0.f)
#undef OPD_LAZY_BIN
    case FOp::relu: OPD_LAZY_FOR(d[k] = a[k] < 0.f ? 0.f : a[k]) break;
    case FOp::neg: OPD_LAZY_FOR(d[k] = -a[k]) break;
    case FOp::abs: OPD_LAZY_FOR(d[k] = std::abs(a[k])) break;
    case FOp::exp: OPD_LAZY_FOR(d[k] = std::exp(a[k])) break;
    case FOp::log: OPD_LAZY_FOR(d[k] = std::log(a[k])) break;
    case FOp::tanh: OPD_LAZY_FOR(d[k] = std::tanh(a[k])) break;
    case FOp::sigmoid: OPD_LAZY_FOR(d[k] = 1.f / (1.f + std::exp(-a[k]))) break;
    case FOp::sqrt: OPD_LAZY_FOR(d[k] = std::sqrt(a[k])) break;
    case FOp::where: {
      const In c = r[in.c];
      // both operands loaded: a select, no branch
      OPD_LAZY_FOR({
        const float yes = b[k];
        const float no = c[k];
        d[k] = a[k] != 0.f ? yes : no;
      })
      break;
    }
    case FOp::cast: cast_through(in.to, d, a, n); break;
  }
#undef OPD_LAZY_FOR
}
OPD_LAZY_CLONES OPD_FUNC void apply(const FInstr& in, float* const* r, std::int64_t n) { apply_body<false>(in, r, n); }
OPD_LAZY_CLONES OPD_FUNC void apply_in_place(const FInstr& in, float* const* r, std::int64_t n) {
  apply_body<true>(in, r, n);
}

// A contiguous copy of a strided float / bool tensor (inputs of fused groups
// are read contiguously), by the CPU clone kernel.
OPD_FUNC Tensor contiguous_copy(const Tensor& t) {
  Stack s;
  s.emplace_back(t);
  s.emplace_back(MemoryFormat::Contiguous);
  redispatch_boxed(detail::clone_op(), DispatchKeySet(DispatchKey::CPU), s);
  return std::move(s.back()).to_tensor();
}

// A broadcast view (an expand: stride 0 on the leading dimensions, contiguous
// trailing ones) repeats a contiguous block: its size, read without a copy;
// 0 when t is no such view.
OPD_FUNC std::int64_t broadcast_period(const Tensor& t) {
  std::int64_t block = 1;
  std::size_t d = static_cast<std::size_t>(t.dim());
  for (; d > 0 && (t.sizes()[d - 1] == 1 || t.strides()[d - 1] == block); --d) block *= t.sizes()[d - 1];
  for (; d > 0; --d)
    if (t.sizes()[d - 1] != 1 && t.strides()[d - 1] != 0) return 0;
  return block;
}

// A general broadcast input's strides over the group's dimensions (0 where
// it repeats), with adjacent dimensions merged where the strides allow: what
// gather_block walks. From the run's tensor, so a strided one needs no copy.
struct Gather {
  SmallVector<std::int64_t, 6> sizes, strides;  // innermost last
};
OPD_FUNC Gather gather_of(const Tensor& t, const std::vector<std::int64_t>& out_sizes) {
  Gather gt;
  const std::size_t nd = out_sizes.size(), td = static_cast<std::size_t>(t.dim());
  for (std::size_t d = 0; d < nd; ++d) {
    const std::int64_t size = out_sizes[d];
    std::int64_t stride = 0;
    if (d + td >= nd) {
      const std::size_t e = d + td - nd;
      stride = t.sizes()[e] == 1 ? 0 : t.strides()[e];
    }
    if (size == 1) continue;
    if (!gt.sizes.empty() && gt.strides.back() == stride * size) {  // merges into the previous dimension
      gt.sizes.back() *= size;
      gt.strides.back() = stride;
    } else {
      gt.sizes.push_back(size);
      gt.strides.push_back(stride);
    }
  }
  if (gt.sizes.empty()) {
    gt.sizes.push_back(1);
    gt.strides.push_back(0);
  }
  return gt;
}

// Elements [start, start + n) of the broadcast input, as floats.
template <class T>
void gather_block(const T* p, const Gather& gt, std::int64_t start, float* dst, std::int64_t n) {
  const std::size_t nd = gt.sizes.size();
  SmallVector<std::int64_t, 6> idx(nd);
  std::int64_t off = 0, rest = start;
  for (std::size_t d = nd; d-- > 0;) {
    idx[d] = rest % gt.sizes[d];
    rest /= gt.sizes[d];
    off += idx[d] * gt.strides[d];
  }
  const std::int64_t inner = gt.sizes[nd - 1], step = gt.strides[nd - 1];
  for (std::int64_t k = 0; k < n;) {
    const std::int64_t run = std::min(inner - idx[nd - 1], n - k);
    if (step == 0) {
      std::fill(dst + k, dst + k + run, kernels::convert<float>(p[off]));
    } else {
      for (std::int64_t j = 0; j < run; ++j) dst[k + j] = kernels::convert<float>(p[off + j * step]);
    }
    k += run;
    off += run * step;
    idx[nd - 1] += run;
    for (std::size_t d = nd - 1; d > 0 && idx[d] == gt.sizes[d]; --d) {  // carry
      off -= idx[d] * gt.strides[d];
      idx[d] = 0;
      ++idx[d - 1];
      off += gt.strides[d - 1];
    }
  }
}

// The value when elements [start, start + n) of the broadcast input are all
// one element (a column [n, 1] beside a row of the block): then an operator
// that has a scalar form reads it as its scalar, and nothing is gathered.
template <class T>
bool gather_constant(const T* p, const Gather& gt, std::int64_t start, std::int64_t n, float& value) {
  const std::size_t nd = gt.sizes.size();
  if (gt.strides[nd - 1] != 0) return false;
  const std::int64_t inner = gt.sizes[nd - 1];
  if (start % inner + n > inner) return false;
  std::int64_t off = 0, rest = start;
  for (std::size_t d = nd; d-- > 0;) {
    off += (rest % gt.sizes[d]) * gt.strides[d];
    rest /= gt.sizes[d];
  }
  value = kernels::convert<float>(p[off]);
  return true;
}

// Operators with a scalar form for their second operand (FInstr::b = -1).
constexpr bool has_scalar_form(FOp op) { return op <= FOp::ne; }

// write_input: the output marked into_input takes that input's buffer
// (CpuPlan::run checked that nothing reads it afterwards). `scratch` holds
// g.registers blocks of kBlock floats (uninitialized).
OPD_FUNC void run_group(const Group& g, const std::vector<Tensor>& slots, std::vector<Tensor>& results,
                        bool write_input, float* scratch) {
  const std::size_t ni = g.inputs.size();
  boost::container::small_vector<Tensor, 8> held(ni);
  SmallVector<const void*, 8> src(ni);
  SmallVector<std::int64_t, 8> period(ni);
  boost::container::small_vector<Gather, 2> gathers;
  SmallVector<std::int32_t, 8> gather_of_input(ni, -1);
  for (std::size_t i = 0; i < ni; ++i) {
    Tensor t = slots[static_cast<std::size_t>(g.input_slots[i])];
    period[i] = g.inputs[i].period;
    if (g.inputs[i].general) {
      gather_of_input[i] = static_cast<std::int32_t>(gathers.size());
      gathers.push_back(gather_of(t, g.sizes));
      period[i] = -1;
    } else if (!t.is_contiguous()) {
      if (const std::int64_t p = broadcast_period(t); p != 0) period[i] = p;
      else t = contiguous_copy(t);
    }
    src[i] = t.data_ptr();
    held[i] = std::move(t);
  }
  // A general input read only as the second operand of operators with a
  // scalar form: when a block sees one element of it, read as the scalar.
  SmallVector<bool, 8> as_scalar(ni, false);
  for (std::size_t i = 0; i < ni; ++i) as_scalar[i] = g.inputs[i].general;
  for (const FInstr& in : g.code) {
    for (const std::int32_t r : {in.a, in.c})
      if (r >= 0 && static_cast<std::size_t>(r) < ni) as_scalar[static_cast<std::size_t>(r)] = false;
    if (in.b >= 0 && static_cast<std::size_t>(in.b) < ni && !has_scalar_form(in.op)) as_scalar[static_cast<std::size_t>(in.b)] = false;
  }
  results.clear();
  for (const FOutput& o : g.outputs) {
    if (write_input && o.into_input >= 0) results.push_back(held[static_cast<std::size_t>(o.into_input)]);
    else results.push_back(empty(g.sizes, o.dtype, Device::cpu()));
  }
  // An output written into an input's buffer: computed there directly when
  // the input is read in place (the instructions after it do not read it),
  // else in its register and copied after the block.
  auto read_in_place = [&](std::size_t i) {
    return period[i] != 1 && period[i] == g.numel && g.inputs[i].dtype == ScalarType::Float;
  };
  auto direct = [&](const FOutput& o) { return o.direct && read_in_place(static_cast<std::size_t>(o.into_input)); };
  bool in_place = false;  // an output is computed straight into an operand's buffer
  for (const FOutput& o : g.outputs) in_place = in_place || (write_input && o.into_input >= 0 && direct(o));
  // Blocks keep a chain's intermediates in L1. A group of one operator whose
  // operands are all read in place and whose result goes straight to memory
  // (an SGD update) has none: one pass, without the per-block set-up.
  bool one_pass = false;
  if (g.code.size() == 1 && g.outputs.size() == 1 && g.outputs[0].dtype == ScalarType::Float &&
      (!(write_input && g.outputs[0].into_input >= 0) || direct(g.outputs[0]))) {
    one_pass = true;
    for (std::size_t i = 0; i < ni; ++i) one_pass = one_pass && read_in_place(i);
  }
  // Elements [begin, end) (begin a multiple of kBlock), with the registers in
  // `scratch`: one range per thread, each its own scratch.
  auto run_range = [&](std::int64_t begin, std::int64_t end, float* scratch_base) {
    SmallVector<float*, 16> reg(static_cast<std::size_t>(g.registers));
    for (std::int32_t r = 0; r < g.registers; ++r) reg[static_cast<std::size_t>(r)] = scratch_base + r * kBlock;
    const SmallVector<float*, 16> base = reg;
    // Scalar inputs: filled once.
    for (std::size_t i = 0; i < ni; ++i) {
      if (period[i] != 1) continue;
      float v = 0.f;
      visit_fusible_dtype(g.inputs[i].dtype, [&](auto tag) {
        v = kernels::convert<float>(*static_cast<const typename decltype(tag)::type*>(src[i]));
      });
      std::fill(base[i], base[i] + kBlock, v);
    }
    SmallVector<float, 8> block_value(ni);
    SmallVector<bool, 8> block_constant(ni, false);
    bool any_constant = false;
    const std::int64_t block = one_pass ? std::max<std::int64_t>(end - begin, 1) : kBlock;
    for (std::int64_t start = begin; start < end; start += block) {
      const std::int64_t n = std::min(block, end - start);
      for (std::size_t i = 0; i < ni; ++i) {
        const FInput& in = g.inputs[i];
        const std::int64_t pi = period[i];
        if (pi == 1) continue;
        if (read_in_place(i)) {
          reg[i] = const_cast<float*>(static_cast<const float*>(src[i])) + start;
          continue;
        }
        reg[i] = base[i];
        if (pi > 1 && in.dtype == ScalarType::Float && start % pi + n <= pi) {  // the block within one period: read there
          reg[i] = const_cast<float*>(static_cast<const float*>(src[i])) + start % pi;
          continue;
        }
        visit_fusible_dtype(in.dtype, [&](auto tag) {
          using T = typename decltype(tag)::type;
          const T* p = static_cast<const T*>(src[i]);
          if (pi < 0) {
            const Gather& gt = gathers[static_cast<std::size_t>(gather_of_input[i])];
            block_constant[i] = as_scalar[i] && gather_constant(p, gt, start, n, block_value[i]);
            any_constant = any_constant || block_constant[i];
            if (!block_constant[i]) gather_block(p, gt, start, base[i], n);
            return;
          }
          // the period's elements in runs (a bias of the trailing dimensions)
          std::int64_t j = start % pi;
          for (std::int64_t k = 0; k < n;) {
            const std::int64_t run = std::min(pi - j, n - k);
            float* d = base[i] + k;
            if constexpr (std::is_same_v<T, float>) {
              std::memcpy(d, p + j, static_cast<std::size_t>(run) * sizeof(float));
            } else {
              for (std::int64_t e = 0; e < run; ++e) d[e] = kernels::convert<float>(p[j + e]);
            }
            k += run;
            j = 0;
          }
        });
      }
      // Float outputs are computed in place in the output tensor.
      for (std::size_t o = 0; o < g.outputs.size(); ++o) {
        const FOutput& out = g.outputs[o];
        if (out.dtype != ScalarType::Float) continue;
        if (write_input && out.into_input >= 0) {
          if (direct(out)) reg[static_cast<std::size_t>(out.reg)] = reg[static_cast<std::size_t>(out.into_input)];
          else reg[static_cast<std::size_t>(out.reg)] = base[static_cast<std::size_t>(out.reg)];
        } else {
          reg[static_cast<std::size_t>(out.reg)] = static_cast<float*>(results[o].data_ptr()) + start;
        }
      }
      for (const FInstr& in : g.code) {
        auto run = in.writes_operand && in_place ? apply_in_place : apply;
        if (any_constant && in.b >= 0 && static_cast<std::size_t>(in.b) < ni && block_constant[static_cast<std::size_t>(in.b)]) {
          FInstr scalar = in;
          scalar.b = -1;
          scalar.scalar = block_value[static_cast<std::size_t>(in.b)];
          run(scalar, reg.data(), n);
        } else {
          run(in, reg.data(), n);
        }
      }
      for (std::size_t o = 0; o < g.outputs.size(); ++o) {
        const FOutput& out = g.outputs[o];
        const float* r = reg[static_cast<std::size_t>(out.reg)];
        if (write_input && out.into_input >= 0) {
          if (!direct(out))
            std::memcpy(static_cast<float*>(results[o].data_ptr()) + start, r, static_cast<std::size_t>(n) * sizeof(float));
          continue;
        }
        if (out.dtype == ScalarType::Float) continue;
        visit_fusible_dtype(out.dtype, [&](auto tag) {
          using T = typename decltype(tag)::type;
          T* p = static_cast<T*>(results[o].data_ptr()) + start;
          for (std::int64_t k = 0; k < n; ++k) p[k] = kernels::convert<T>(r[k]);
        });
      }
    }
  };
  // Threads over runs of blocks, as the eager kernels split their loops
  // (kernels::parallel_for: one thread below two grains). Elementwise, so
  // the results are the same bits on any number of threads.
  const std::int64_t blocks = (g.numel + kBlock - 1) / kBlock;
  kernels::parallel_for(0, blocks, kernels::grain_size / kBlock, [&](std::int64_t b, std::int64_t e) {
    std::unique_ptr<float[]> own;
    if (b != 0) own.reset(new float[static_cast<std::size_t>(g.registers) * kBlock]);  // the first run has the caller's
    run_range(b * kBlock, std::min(e * kBlock, g.numel), b == 0 ? scratch : own.get());
  });
}

// The view an X_copy operator copies ("aten::t_copy" -> "aten::t"), when it exists.
OPD_FUNC const OperatorEntry* view_of_copy(const OperatorEntry& op) {
  const std::string& name = op.name();
  const std::size_t dot = name.find('.');
  const std::string base = name.substr(0, dot);
  if (base.size() < 6 || base.compare(base.size() - 5, 5, "_copy") != 0) return nullptr;
  const std::string view = base.substr(0, base.size() - 5) + (dot == std::string::npos ? "" : name.substr(dot));
  OperatorEntry* v = Dispatcher::singleton().find_schema(view);
  if (v == nullptr || !v->alias_facts().is_view() || v->num_arguments() != op.num_arguments()) return nullptr;
  const KernelFunction& k = v->lookup(DispatchKey::CPU);
  return &k == &OperatorEntry::missing_kernel() || k.fallthrough ? nullptr : v;
}

// The in-place variant of a functional operator ("aten::relu" -> "aten::relu_",
// "aten::add.Tensor" -> "aten::add_.Tensor") that writes its first argument only.
OPD_FUNC const OperatorEntry* inplace_of(const OperatorEntry& op) {
  const std::string& name = op.name();
  const std::size_t dot = name.find('.');
  const std::string inplace = name.substr(0, dot) + "_" + (dot == std::string::npos ? "" : name.substr(dot));
  OperatorEntry* v = Dispatcher::singleton().find_schema(inplace);
  if (v == nullptr || v->num_arguments() != op.num_arguments() || v->alias_facts().written.size() != 1 ||
      v->alias_facts().written[0] != 0)
    return nullptr;
  const KernelFunction& k = v->lookup(DispatchKey::CPU);
  return &k == &OperatorEntry::missing_kernel() || k.fallthrough ? nullptr : v;
}

class CpuPlan final : public Executable {
 public:
  explicit CpuPlan(const Graph& g);
  std::vector<Tensor> run(const Graph& g) override;
  std::string describe() const override {
    return "cpu plan: " + std::to_string(steps_.size()) + " steps, " + std::to_string(groups_.size()) +
           " fused groups (" + std::to_string(writing_groups_) + " writing an input in place), " +
           std::to_string(num_slots_) + " slots";
  }

 private:
  std::vector<Step> steps_;
  std::vector<Group> groups_;
  std::vector<std::vector<std::uint32_t>> input_slots_;  // per graph input, per output
  std::vector<std::uint32_t> output_slots_;              // per root output
  std::uint32_t num_slots_ = 0;
  std::int32_t max_registers_ = 0;  // of the groups: the scratch a run needs
  std::uint64_t fused_nodes_ = 0;
  // Writing graph inputs in place (groups with a target): allowed in a run
  // only when every node of the graph that is no root, and each target
  // input, is held by the graph's own operands alone (held_only_by_graph).
  struct RefSite {
    std::uint32_t node, reader, operand;  // the node, and one operand of a reader that holds it
    long refs;                            // operands in the graph that hold it
  };
  std::vector<RefSite> closed_;   // the nodes the graph does not return
  std::vector<RefSite> targets_;  // per group (node = group index): its target input
  std::size_t writing_groups_ = 0;
  // Linear layers whose weight is a graph input that the graph does not
  // write: the weight's transposed copy, kept across runs while the input is
  // the same value (its node's data_serial), so that the product on oneDNN
  // reads a plain B instead of a transposed one (sgemm_on_onednn: 32 x 256 x
  // 256, 21.8 against 16.8 µs). Results equal eager's within float rounding
  // of the product, not to the bit (docs/lazy.md).
  struct TransposedWeight {
    std::uint64_t serial = 0;
    Tensor plain;  // (in_features, out_features), row-major
  };
  std::vector<TransposedWeight> weights_;
  void use_transposed_weight(const Step& step, const Node& node, Stack& stack);
  bool held_only_by_graph(const Graph& g, const RefSite& r) const {
    return g.nodes[r.reader]->operands[r.operand].node.use_count() == r.refs;
  }
};

OPD_FUNC CpuPlan::CpuPlan(const Graph& g) {
  const std::size_t n = g.nodes.size();
  std::vector<bool> is_root(n, false);
  for (const std::uint32_t r : g.roots) is_root[r] = true;
  // Readers of each node (for group outputs and liveness).
  std::vector<std::vector<std::uint32_t>> readers(n);
  for (std::size_t i = 0; i < n; ++i)
    for (const Operand& o : g.nodes[i]->operands)
      if (o.node) readers[o.node->order].push_back(static_cast<std::uint32_t>(i));

  // 1. fusion groups
  std::vector<std::int32_t> group_of(n, -1);
  std::vector<bool> open;  // per group
  std::vector<std::int32_t> schedule;  // >= 0: node, < 0: -(group + 1)
  auto close = [&](std::int32_t gi) {
    if (!open[static_cast<std::size_t>(gi)]) return;
    open[static_cast<std::size_t>(gi)] = false;
    schedule.push_back(-(gi + 1));
  };
  auto candidate = [&](const Node* node) -> const FusibleOp* {
    if (node->is_data() || node->op == nullptr || node->num_outputs() != 1) return nullptr;
    const FusibleOp* f = fusible(node->op->name());
    if (f == nullptr) return nullptr;
    const OutputMeta& out = node->output(0);
    if (f->op == FOp::cast) {
      // Between float and a real dtype, on this device, contiguous: either
      // end Float (a register holds its value exactly, plain or converted).
      const auto to = OpNode<kernels::ops::to_copy>::match(*node);
      if (!to || node->operands.size() != 1 || !node->operands[0].node) return nullptr;
      const ScalarType from = node->operands[0].node->output(node->operands[0].index).dtype;
      const auto layout = to->get<"layout">();
      const auto device = to->get<"device">();
      if ((layout && *layout != Layout::Strided) || (device && device->type() != DeviceType::Lazy) ||
          to->get<"pin_memory">().value_or(false) || !fusible_real_dtype(from) || !fusible_real_dtype(out.dtype) ||
          (from != ScalarType::Float && out.dtype != ScalarType::Float) ||
          out.sizes != node->operands[0].node->output(node->operands[0].index).sizes)
        return nullptr;
      std::int64_t expected = 1;  // contiguous, as the group writes it
      for (std::size_t d = out.sizes.size(); d-- > 0;) {
        if (out.sizes[d] != 1 && out.strides[d] != expected) return nullptr;
        expected *= out.sizes[d];
      }
      return f;
    }
    if (out.dtype != (f->compare ? ScalarType::Bool : ScalarType::Float)) return nullptr;
    if (f->scalar_other && !is_float_scalar_attr(node->attributes[1])) return nullptr;
    if (f->has_alpha && !is_float_scalar_attr(node->attributes[2])) return nullptr;
    if (node->operands.size() != static_cast<std::size_t>(f->arity)) return nullptr;
    // + - * / of two tensors promote a Bool operand (a mask) to float as the
    // eager kernels do: 1 or 0, then the same float operation.
    const bool promotes_bool = f->arity == 2 && !f->compare && !f->scalar_other;
    for (std::size_t j = 0; j < node->operands.size(); ++j) {
      const Operand& o = node->operands[j];
      if (!o.node) return nullptr;
      const OutputMeta& m = o.node->output(o.index);
      const bool want_bool = f->op == FOp::where && j == 0;
      if (m.dtype != (want_bool ? ScalarType::Bool : ScalarType::Float) && !(promotes_bool && m.dtype == ScalarType::Bool))
        return nullptr;
      // broadcast to the output's shape (read in place, repeated, or gathered: FInput)
      if (m.sizes.size() > out.sizes.size()) return nullptr;
      for (std::size_t d = 0; d < m.sizes.size(); ++d) {
        const std::int64_t o = out.sizes[out.sizes.size() - m.sizes.size() + d];
        if (m.sizes[d] != o && m.sizes[d] != 1) return nullptr;
      }
    }
    return f;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Node* node = g.nodes[i];
    if (node->is_data()) continue;
    const FusibleOp* f = candidate(node);
    std::int32_t join = -1;
    if (f != nullptr) {
      for (const Operand& o : node->operands) {
        const std::int32_t gi = group_of[o.node->order];
        if (gi >= 0 && open[static_cast<std::size_t>(gi)] && groups_[static_cast<std::size_t>(gi)].sizes == node->output(0).sizes) {
          join = gi;
          break;
        }
      }
    }
    for (const Operand& o : node->operands)  // groups whose values this node reads from outside
      if (o.node && group_of[o.node->order] >= 0 && group_of[o.node->order] != join) close(group_of[o.node->order]);
    if (f == nullptr) {
      schedule.push_back(static_cast<std::int32_t>(i));
      continue;
    }
    if (join < 0) {
      join = static_cast<std::int32_t>(groups_.size());
      groups_.emplace_back();
      open.push_back(true);
      groups_.back().sizes = node->output(0).sizes;
    }
    group_of[i] = join;
    groups_[static_cast<std::size_t>(join)].members.push_back(static_cast<std::uint32_t>(i));
  }
  for (std::size_t gi = 0; gi < groups_.size(); ++gi) close(static_cast<std::int32_t>(gi));
  // Groups that write a graph input in place (an SGD update `w - lr * g`
  // where eager mode's sub_ writes w): a group whose values no other step
  // reads (roots only) and that reads a float graph input of its own shape
  // runs after every other step, so that it is that input's last reader and
  // so that an operator that fails has run before any input was written
  // (a fused loop does not fail). Among such groups an input is written by
  // one only, and read by no other moved group. At run time the write needs
  // the input to be held by the graph alone (CpuPlan::run).
  {
    std::vector<bool> claimed(n, false), moved_reads(n, false);
    std::vector<std::int32_t> moved;
    for (std::size_t k = 0; k < schedule.size(); ++k) {
      if (schedule[k] >= 0) continue;
      const std::int32_t gi = -schedule[k] - 1;
      Group& grp = groups_[static_cast<std::size_t>(gi)];
      bool sink = true;
      for (const std::uint32_t m : grp.members)
        for (const std::uint32_t r : readers[m]) sink = sink && group_of[r] == gi;
      if (!sink) continue;
      // A group of one transcendental function runs as its operator (the
      // eager kernel's bits), so it writes no input.
      if (grp.members.size() == 1) {
        const FOp op = fusible(g.nodes[grp.members[0]]->op->name())->op;
        if (op == FOp::exp || op == FOp::log || op == FOp::tanh || op == FOp::sigmoid) continue;
      }
      // The candidate is taken from the last member first (an update's
      // `w - lr * g` reads w last).
      std::vector<std::uint32_t> reads;
      for (auto mi = grp.members.rbegin(); mi != grp.members.rend(); ++mi)
        for (const Operand& o : g.nodes[*mi]->operands) {
          const Node* src = o.node.get();
          reads.push_back(src->order);
          if (claimed[src->order]) sink = false;  // another moved group writes it
          if (grp.target_node < 0 && !moved_reads[src->order] && src->is_data() &&
              src->output(o.index).dtype == ScalarType::Float && src->output(o.index).sizes == grp.sizes) {
            grp.target_node = src->order;
            grp.target_index = o.index;
          }
        }
      if (!sink || grp.target_node < 0) {
        grp.target_node = -1;
        continue;
      }
      claimed[static_cast<std::size_t>(grp.target_node)] = true;
      for (const std::uint32_t r : reads) moved_reads[r] = true;
      moved.push_back(gi);
    }
    if (!moved.empty()) {
      std::vector<std::int32_t> reordered;
      for (const std::int32_t e : schedule)
        if (e >= 0 || std::find(moved.begin(), moved.end(), -e - 1) == moved.end()) reordered.push_back(e);
      for (const std::int32_t gi : moved) reordered.push_back(-(gi + 1));
      schedule = std::move(reordered);
    }
  }
  // A group of one runs as its operator (unless it writes an input in place).
  for (std::size_t k = 0; k < schedule.size(); ++k) {
    if (schedule[k] >= 0) continue;
    Group& grp = groups_[static_cast<std::size_t>(-schedule[k] - 1)];
    if (grp.members.size() == 1 && grp.target_node < 0) {
      group_of[grp.members[0]] = -1;
      schedule[k] = static_cast<std::int32_t>(grp.members[0]);
      grp.members.clear();
    }
  }

  // 3. slots by liveness (last reader position in the schedule)
  std::vector<std::int64_t> last_use(n, -1);
  auto node_pos = [&](std::size_t k, auto&& fn) {
    if (schedule[k] >= 0) fn(static_cast<std::uint32_t>(schedule[k]));
    else
      for (const std::uint32_t m : groups_[static_cast<std::size_t>(-schedule[k] - 1)].members) fn(m);
  };
  for (std::size_t k = 0; k < schedule.size(); ++k)
    node_pos(k, [&](std::uint32_t m) {
      for (const Operand& o : g.nodes[m]->operands)
        if (o.node && !(group_of[m] >= 0 && group_of[o.node->order] == group_of[m]))
          last_use[o.node->order] = static_cast<std::int64_t>(k);
    });
  std::vector<std::vector<std::uint32_t>> slot(n);
  std::vector<std::uint32_t> free_slots;
  auto take = [&]() {
    if (!free_slots.empty()) {
      const std::uint32_t s = free_slots.back();
      free_slots.pop_back();
      return s;
    }
    return num_slots_++;
  };
  for (const std::uint32_t in : g.inputs) {
    std::vector<std::uint32_t> s;
    for (std::size_t o = 0; o < g.nodes[in]->num_outputs(); ++o) s.push_back(take());
    slot[in] = s;
    input_slots_.push_back(std::move(s));
  }
  // Values that must get a slot: group members read outside their group or live.
  auto needs_slot = [&](std::uint32_t m) {
    if (group_of[m] < 0 || is_root[m]) return true;
    for (const std::uint32_t r : readers[m])
      if (group_of[r] != group_of[m]) return true;
    return false;
  };
  for (std::size_t k = 0; k < schedule.size(); ++k) {
    Step step;
    if (schedule[k] >= 0) {
      const std::uint32_t i = static_cast<std::uint32_t>(schedule[k]);
      const Node* node = g.nodes[i];
      step.node = i;
      step.run_op = node->op;
      if (!is_root[i])
        if (const OperatorEntry* v = view_of_copy(*node->op)) step.run_op = v;
      // Buffer reuse: the first operand's buffer dies here and has the output's
      // shape and dtype: the in-place variant writes the result into it.
      if (step.run_op == node->op && node->num_outputs() == 1 && !node->kinds.empty() &&
          node->kinds[0] == ArgKind::tensor && !node->op->alias_facts().is_view()) {
        const Operand& self = node->operands[0];
        const Node* src = self.node.get();
        if (!src->is_data() && !is_root[src->order] && last_use[src->order] == static_cast<std::int64_t>(k) &&
            src->output(self.index).sizes == node->output(0).sizes &&
            src->output(self.index).dtype == node->output(0).dtype)
          step.inplace_op = inplace_of(*node->op);
      }
      for (const Operand& o : node->operands) step.in.push_back(o.node ? static_cast<std::int32_t>(slot[o.node->order][o.index]) : -1);
      for (std::size_t o = 0; o < node->num_outputs(); ++o) step.out.push_back(take());
      slot[i] = step.out;
      for (const Operand& o : node->operands)
        if (o.node && last_use[o.node->order] == static_cast<std::int64_t>(k) && !is_root[o.node->order]) {
          for (const std::uint32_t s : slot[o.node->order]) step.release.push_back(s);
          last_use[o.node->order] = -2;  // released once
        }
    } else {
      const std::int32_t gi = -schedule[k] - 1;
      step.group = gi;
      Group& grp = groups_[static_cast<std::size_t>(gi)];
      fused_nodes_ += grp.members.size();
      std::vector<std::int32_t> reg(n, -1);
      auto input_reg = [&](const Operand& o) {
        const std::uint32_t p = o.node->order;
        if (group_of[p] == gi) return reg[p];
        for (std::size_t q = 0; q < grp.inputs.size(); ++q)
          if (grp.inputs[q].node == p && grp.inputs[q].index == o.index) return static_cast<std::int32_t>(q);
        FInput in;
        in.node = p;
        in.index = o.index;
        const OutputMeta& m = o.node->output(o.index);
        in.period = 1;
        for (const std::int64_t s : m.sizes) in.period *= s;
        in.dtype = m.dtype;
        // same shape, one element, or the output's trailing dimensions: a
        // period; another broadcast ([n, 1] beside [n, m]): gathered
        in.general = in.period != 1 && m.sizes != grp.sizes &&
                     (m.sizes.size() > grp.sizes.size() ||
                      !std::equal(m.sizes.begin(), m.sizes.end(),
                                  grp.sizes.end() - static_cast<std::ptrdiff_t>(m.sizes.size())));
        grp.inputs.push_back(in);
        grp.input_slots.push_back(static_cast<std::int32_t>(slot[p][o.index]));
        return static_cast<std::int32_t>(grp.inputs.size() - 1);
      };
      // inputs first (registers 0..), then one register per member
      for (const std::uint32_t m : grp.members)
        for (const Operand& o : g.nodes[m]->operands)
          if (group_of[o.node->order] != gi) input_reg(o);
      grp.registers = static_cast<std::int32_t>(grp.inputs.size());
      grp.numel = 1;
      for (const std::int64_t s : grp.sizes) grp.numel *= s;
      for (const std::uint32_t m : grp.members) {
        const Node* node = g.nodes[m];
        const FusibleOp& f = *fusible(node->op->name());
        FInstr ins{};
        ins.op = f.op;
        ins.dst = reg[m] = grp.registers++;
        ins.a = input_reg(node->operands[0]);
        ins.b = f.arity >= 2 ? input_reg(node->operands[1]) : -1;
        ins.c = f.arity >= 3 ? input_reg(node->operands[2]) : -1;
        if (f.scalar_other) ins.scalar = scalar_of(node->attributes[1]);
        if (f.op == FOp::cast) ins.to = node->output(0).dtype;
        if (f.has_alpha) {
          const IValue& alpha = node->attributes[2];
          ins.alpha = scalar_of(alpha);
          ins.alpha_one = alpha.is_int() ? alpha.to_int() == 1 : alpha.is_double() ? alpha.to_double() == 1.0 : alpha.to_bool();
        }
        grp.code.push_back(ins);
        if (needs_slot(m)) {
          const std::uint32_t s = take();
          slot[m] = {s};
          step.out.push_back(s);
          grp.outputs.push_back(FOutput{reg[m], m, s, node->output(0).dtype});
        }
      }
      // The target input dies here (the group runs last): its buffer takes
      // the group's last float output.
      bool writes = false;
      if (grp.target_node >= 0 && last_use[static_cast<std::size_t>(grp.target_node)] == static_cast<std::int64_t>(k)) {
        std::int32_t q = -1;
        for (std::size_t i = 0; i < grp.inputs.size(); ++i)
          if (grp.inputs[i].node == static_cast<std::uint32_t>(grp.target_node) && grp.inputs[i].index == grp.target_index)
            q = static_cast<std::int32_t>(i);
        for (std::size_t o = grp.outputs.size(); o-- > 0 && q >= 0 && !writes;)
          if (grp.outputs[o].dtype == ScalarType::Float) {
            grp.outputs[o].into_input = q;
            writes = true;
          }
      }
      if (writes) {
        ++writing_groups_;
        for (const FOutput& o : grp.outputs)
          if (o.into_input >= 0) grp.target_input = o.into_input;
      } else {
        grp.target_node = -1;
        // An intermediate of the group's shape read last here: its (warm)
        // buffer takes the group's last float output instead of a new one.
        for (std::size_t i = 0; i < grp.inputs.size() && grp.dying_input < 0; ++i) {
          const FInput& in = grp.inputs[i];
          const Node* src = g.nodes[in.node];
          if (in.dtype == ScalarType::Float && !in.general && !src->is_data() && !is_root[in.node] && last_use[in.node] == static_cast<std::int64_t>(k) &&
              src->output(in.index).sizes == grp.sizes)
            for (std::size_t o = grp.outputs.size(); o-- > 0 && grp.dying_input < 0;)
              if (grp.outputs[o].dtype == ScalarType::Float) {
                grp.outputs[o].into_input = static_cast<std::int32_t>(i);
                grp.dying_input = static_cast<std::int32_t>(i);
              }
        }
      }
      // Straight into the input's buffer when no instruction after the one
      // computing the output reads that input (each reads element k before
      // writing it: an instruction may read what it writes).
      for (FOutput& o : grp.outputs) {
        if (o.into_input < 0) continue;
        std::size_t def = 0;
        for (std::size_t c = 0; c < grp.code.size(); ++c)
          if (grp.code[c].dst == o.reg) def = c;
        o.direct = true;
        for (std::size_t c = def + 1; c < grp.code.size(); ++c) {
          const FInstr& ins = grp.code[c];
          if (ins.a == o.into_input || ins.b == o.into_input || ins.c == o.into_input) o.direct = false;
        }
        grp.code[def].writes_operand = o.direct;
      }
      max_registers_ = std::max(max_registers_, grp.registers);
      for (const std::uint32_t m : grp.members)
        for (const Operand& o : g.nodes[m]->operands) {
          const std::uint32_t p = o.node->order;
          if (group_of[p] != gi && last_use[p] == static_cast<std::int64_t>(k) && !is_root[p]) {
            for (const std::uint32_t s : slot[p]) step.release.push_back(s);
            last_use[p] = -2;
          }
        }
    }
    steps_.push_back(std::move(step));
  }
  for (const std::uint32_t r : g.roots)
    for (const std::uint32_t s : slot[r]) output_slots_.push_back(s);
  // Linear layers that read a float matrix the graph takes as input and never
  // writes (no update group targets it): inference weights.
  for (Step& step : steps_) {
    if (step.group >= 0 || step.run_op->name() != "aten::linear") continue;
    const Node* node = g.nodes[step.node];
    const Operand& x = node->operands[0];
    const Operand& w = node->operands[1];
    if (!x.node || !w.node || !w.node->is_data()) continue;
    const OutputMeta& wm = w.node->output(w.index);
    const OutputMeta& xm = x.node->output(x.index);
    bool written = false;
    for (const Group& grp : groups_) written = written || grp.target_node == static_cast<std::int64_t>(w.node->order);
    if (written || wm.dtype != ScalarType::Float || xm.dtype != ScalarType::Float || wm.sizes.size() != 2 ||
        xm.sizes.size() != 2)
      continue;
    step.weight = static_cast<std::int32_t>(weights_.size());
    weights_.emplace_back();
  }
  if (writing_groups_ > 0) {
    // Where each node is held in the graph: after a sync only the roots stay
    // (their operands dropped), so a node held by nothing else is unreadable then.
    std::vector<long> refs(n, 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> site(n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < g.nodes[i]->operands.size(); ++j)
        if (const Node* src = g.nodes[i]->operands[j].node.get(); src != nullptr && refs[src->order]++ == 0)
          site[src->order] = {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j)};
    for (std::size_t i = 0; i < n; ++i)
      if (!g.nodes[i]->is_data() && !is_root[i] && refs[i] > 0)
        closed_.push_back(RefSite{static_cast<std::uint32_t>(i), site[i].first, site[i].second, refs[i]});
    for (std::size_t gi = 0; gi < groups_.size(); ++gi)
      if (const std::int64_t t = groups_[gi].target_node; t >= 0) {
        const std::size_t i = static_cast<std::size_t>(t);
        targets_.push_back(RefSite{static_cast<std::uint32_t>(gi), site[i].first, site[i].second, refs[i]});
      }
  }
}

// stack: linear's (input, weight, bias). The weight becomes the transpose of
// its kept copy, (out, in) with strides (1, out): linear multiplies by that
// transpose, a plain row-major matrix.
OPD_FUNC void CpuPlan::use_transposed_weight(const Step& step, const Node& node, Stack& stack) {
  const Tensor& x = stack[0].to_tensor();
  const Tensor& w = stack[1].to_tensor();
  const std::int64_t out_features = w.size(0), in_features = w.size(1);
  if (!w.is_contiguous() || x.size(1) != in_features ||
      !kernels::detail::sgemm_on_onednn(x.size(0), out_features, in_features))
    return;  // eager's product as it is (the weight read transposed)
  TransposedWeight& kept = weights_[static_cast<std::size_t>(step.weight)];
  const Operand& wo = node.operands[1];
  if (kept.serial != wo.node->data_serial || !kept.plain.defined()) {
    const std::int64_t sizes[] = {in_features, out_features};
    const std::int64_t strides[] = {1, in_features};
    kept.plain = contiguous_copy(w.as_strided(sizes, strides, w.storage_offset()));
    kept.serial = wo.node->data_serial;
    detail::state().weights_transposed.fetch_add(1, std::memory_order_relaxed);
  }
  const std::int64_t sizes[] = {out_features, in_features};
  const std::int64_t strides[] = {1, out_features};
  stack[1] = IValue(kept.plain.as_strided(sizes, strides, 0));
}

OPD_FUNC std::vector<Tensor> CpuPlan::run(const Graph& g) {
  // Which groups may write their target input: the graph holds every node it
  // does not return, and the input alone, and nothing else holds the
  // input's buffer (no tensor, no view of its storage).
  std::vector<char> write_input;
  if (writing_groups_ > 0) {
    bool closed = true;
    for (const RefSite& r : closed_) closed = closed && held_only_by_graph(g, r);
    write_input.assign(groups_.size(), 0);
    for (const RefSite& r : targets_) {
      if (!closed || !held_only_by_graph(g, r)) continue;
      const Group& grp = groups_[r.node];
      const Tensor& t = g.nodes[static_cast<std::size_t>(grp.target_node)]->data[grp.target_index];
      const TensorImpl* impl = t.unsafe_get_impl();
      write_input[r.node] = impl->use_count() == 1 && t.storage().use_count() == 1 && t.is_contiguous() &&
                            impl->autograd_meta() == nullptr && !impl->is_wrapped_number();
    }
  }
  std::vector<Tensor> slots(num_slots_);
  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    const Node* in = g.nodes[g.inputs[k]];
    for (std::size_t o = 0; o < input_slots_[k].size(); ++o) slots[input_slots_[k][o]] = in->data[o];
  }
  Stack stack;
  std::vector<Tensor> results;
  // The fused groups' registers, uninitialized: every register is written
  // before it is read.
  const std::unique_ptr<float[]> scratch =
      max_registers_ > 0 ? std::make_unique_for_overwrite<float[]>(static_cast<std::size_t>(max_registers_) * kBlock)
                         : nullptr;
  std::uint64_t executed = 0, written = 0;
  for (const Step& step : steps_) {
    if (step.group >= 0) {
      const Group& grp = groups_[static_cast<std::size_t>(step.group)];
      bool write = false;
      if (grp.target_input >= 0 && !write_input.empty() && write_input[static_cast<std::size_t>(step.group)] != 0) {
        // and no step made an alias of it: held by its node and its slot alone
        const Tensor& t = slots[static_cast<std::size_t>(grp.input_slots[static_cast<std::size_t>(grp.target_input)])];
        write = t.unsafe_get_impl()->use_count() == 2 && t.storage().use_count() == 1;
        written += write ? 1 : 0;
      } else if (grp.dying_input >= 0) {  // held by its slot alone, no view of it
        const Tensor& t = slots[static_cast<std::size_t>(grp.input_slots[static_cast<std::size_t>(grp.dying_input)])];
        write = t.unsafe_get_impl()->use_count() == 1 && t.storage().use_count() == 1 && t.is_contiguous() &&
                t.dtype() == ScalarType::Float;
      }
      run_group(grp, slots, results, write, scratch.get());
      for (std::size_t o = 0; o < grp.outputs.size(); ++o) slots[grp.outputs[o].slot] = std::move(results[o]);
      executed += grp.members.size();
    } else {
      const Node* node = g.nodes[step.node];
      stack.clear();
      std::size_t j = 0;
      auto operand = [&]() -> Tensor {
        const std::int32_t s = step.in[j++];
        return s >= 0 ? slots[static_cast<std::size_t>(s)] : Tensor();
      };
      for (std::size_t i = 0; i < node->kinds.size(); ++i) {
        switch (node->kinds[i]) {
          case ArgKind::attribute: {
            const IValue& v = node->attributes[i];
            if (v.is_device() && v.to_device().type() == DeviceType::Lazy) stack.emplace_back(Device::cpu());
            else stack.push_back(v);
            break;
          }
          case ArgKind::tensor: stack.emplace_back(operand()); break;
          case ArgKind::tensor_list: {
            std::vector<Tensor> list;
            for (std::int64_t e = 0; e < node->attributes[i].to_int(); ++e) list.push_back(operand());
            stack.emplace_back(std::move(list));
            break;
          }
          case ArgKind::optional_tensor_list: {
            std::vector<std::optional<Tensor>> list;
            for (std::int64_t e = 0; e < node->attributes[i].to_int(); ++e) {
              Tensor t = operand();
              if (t.defined()) list.emplace_back(std::move(t));
              else list.emplace_back(std::nullopt);
            }
            stack.emplace_back(std::move(list));
            break;
          }
        }
      }
      if (step.weight >= 0) use_transposed_weight(step, *node, stack);
      const OperatorEntry* run_op = step.run_op;
      if (step.inplace_op != nullptr) {
        const Tensor& self = stack[0].to_tensor();
        // only this stack and the dying slot hold it, and no view shares its storage
        if (self.unsafe_get_impl()->use_count() == 2 && self.storage().use_count() == 1 && self.is_contiguous())
          run_op = step.inplace_op;
      }
      try {
        redispatch_boxed(*run_op, DispatchKeySet(DispatchKey::CPU), stack);
      } catch (const std::exception& e) {
        throw Error(opd::detail::str_cat("opd::lazy::sync: operator '", node->op->name(),
                                         "' failed (its lazy tensors are unchanged): ", e.what()));
      }
      std::size_t o = 0;
      for (IValue& v : stack) {
        if (v.is_tensor()) {
          slots[step.out[o++]] = std::move(v).to_tensor();
        } else if (v.is_tensor_list()) {
          for (const Tensor& t : v.to_tensor_list()) slots[step.out[o++]] = t;
        }
      }
      ++executed;
    }
    for (const std::uint32_t s : step.release) slots[s] = Tensor();
  }
  detail::state().nodes_executed.fetch_add(executed, std::memory_order_relaxed);
  detail::state().fused_nodes.fetch_add(fused_nodes_, std::memory_order_relaxed);
  if (written != 0) detail::state().inputs_written.fetch_add(written, std::memory_order_relaxed);
  std::vector<Tensor> out;
  out.reserve(output_slots_.size());
  for (const std::uint32_t s : output_slots_) out.push_back(slots[s]);
  return out;
}

}  // namespace plan_detail

OPD_FUNC std::unique_ptr<Executable> compile_cpu_plan(const Graph& g) {
  return std::make_unique<plan_detail::CpuPlan>(g);
}

}  // namespace opd::lazy
