// Every operator the library declares is ATen's: its name is in namespace
// aten and its schema text is ATen 1.13's (tests/data/native_functions_1.13.jsonl,
// field "schema"), character for character. The operators are read from the
// dispatcher after opd_test::register_all_kernels(), not listed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <cstring>
#include <optional>
#include <set>
#include <variant>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <dispatch/dispatcher.hpp>
#include <dispatch/schema/variants.hpp>
#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include <kernels/ops_scatter.hpp>
#include <kernels/ops_view_copies.hpp>
#include <kernels/ops_views.hpp>

namespace {

std::map<std::string, std::string> aten_schemas() {
  std::ifstream in(OPD_TEST_DATA_DIR "/native_functions_1.13.jsonl");
  EXPECT_TRUE(in.good()) << "cannot read native_functions_1.13.jsonl";
  std::map<std::string, std::string> by_name;  // "aten::add.out" -> "aten::add.out(Tensor self, ...) -> Tensor(a!)"
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const nlohmann::json j = nlohmann::json::parse(line);
    const std::string schema = "aten::" + j.at("schema").get<std::string>();
    by_name.emplace(schema.substr(0, schema.find('(')), schema);
  }
  return by_name;
}

// PyTorch 2.x's schemas (tests/data/native_functions_main.txt, one per line,
// without the namespace), by "aten::name.overload".
std::map<std::string, std::string> pytorch2_schemas() {
  std::ifstream in(OPD_TEST_DATA_DIR "/native_functions_main.txt");
  EXPECT_TRUE(in.good()) << "cannot read native_functions_main.txt";
  std::map<std::string, std::string> by_name;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const std::string schema = "aten::" + line;
    by_name.emplace(schema.substr(0, schema.find('(')), schema);
  }
  return by_name;
}

TEST(AtenSchemas, EveryLibraryOperatorHasAtensSchemaVerbatim) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const std::map<std::string, std::string> aten = aten_schemas();
  ASSERT_GT(aten.size(), 2000u);
  const std::map<std::string, std::string> pytorch2 = pytorch2_schemas();
  // The Core ATen batch norm that ATen 1.13 does not have (kernels/ops_batch_norm.hpp):
  // PyTorch 2.x's schemas, verbatim.
  const std::set<std::string> from_pytorch2{"aten::_native_batch_norm_legit", "aten::_native_batch_norm_legit.out",
                                            "aten::_native_batch_norm_legit.no_stats",
                                            "aten::_native_batch_norm_legit.no_stats_out",
                                            "aten::_native_batch_norm_legit_no_training",
                                            // the sym_* queries (kernels/ops_scalars.hpp)
                                            "aten::sym_size.int", "aten::sym_stride.int", "aten::sym_numel",
                                            "aten::sym_storage_offset", "aten::sym_is_contiguous",
                                            // squeeze.dims, any.dims and its out= (kernels/ops_core_aten.hpp)
                                            "aten::squeeze.dims", "aten::any.dims", "aten::any.dims_out"};
  opd::Dispatcher& d = opd::Dispatcher::singleton();
  std::size_t checked = 0, newer = 0, autogen = 0, pytorch2_checked = 0;
  std::vector<std::string> outside_aten;
  for (const std::string& name : d.operator_names()) {
    const opd::OperatorEntry* e = d.find_schema(name);
    if (e == nullptr) continue;
    if (name.rfind("aten::", 0) != 0) {
      outside_aten.push_back(name);
      continue;
    }
    const auto it = aten.find(name);
    if (it != aten.end()) {
      EXPECT_EQ(e->schema().text(), it->second) << name;
      ++checked;
      continue;
    }
    // aten::zero and aten::resize are torchgen's autogen functional variants
    // of zero_ and resize_ (which the yaml lists; the functional ones it
    // generates): the schemas derived from the jsonl's in-place ones.
    if (name == "aten::zero" || name == "aten::resize") {
      ++autogen;
      EXPECT_EQ(e->schema().text(), opd::schema::functional_variant_text(
                                        opd::schema::parse_or_throw(aten.at(name + "_"))));
      continue;
    }
    // torchgen's autogen out= variants of two backward kernels (1.13's yaml declares them on
    // `autogen:` lines, which the jsonl leaves out): as torch._C._jit_get_schemas_for_operator
    // prints them in python3-torch 1.13.
    static const std::map<std::string, std::string> autogen_out = {
        {"aten::_adaptive_avg_pool3d_backward.out",
         "aten::_adaptive_avg_pool3d_backward.out(Tensor grad_output, Tensor self, *, Tensor(a!) out) -> Tensor(a!)"},
        {"aten::grid_sampler_2d_backward.out",
         "aten::grid_sampler_2d_backward.out(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode, "
         "int padding_mode, bool align_corners, bool[2] output_mask, *, Tensor(a!) out0, Tensor(b!) out1) -> "
         "(Tensor(a!), Tensor(b!))"}};
    if (const auto a = autogen_out.find(name); a != autogen_out.end()) {
      ++autogen;
      EXPECT_EQ(e->schema().text(), a->second);
      EXPECT_EQ(aten.count(name.substr(0, name.size() - 4)), 1u) << name;  // its functional is declared
      continue;
    }
    if (from_pytorch2.count(name) == 1) {
      ASSERT_EQ(pytorch2.count(name), 1u) << name << " is not in PyTorch 2.x's native_functions";
      EXPECT_EQ(e->schema().text(), pytorch2.at(name)) << name;
      ++pytorch2_checked;
      continue;
    }
    // Only the roots of the Scalar structured families (add.Scalar_out, ...)
    // are newer than ATen 1.13 (2.x has them): an out= overload whose
    // functional sibling (add.Scalar) 1.13 has.
    ++newer;
    const std::string suffix = "_out";
    ASSERT_GT(name.size(), suffix.size()) << name;
    EXPECT_EQ(name.substr(name.size() - suffix.size()), suffix) << name << " is not in ATen 1.13";
    EXPECT_TRUE(aten.count(name.substr(0, name.size() - suffix.size())) == 1) << name;
  }
  // add/sub/mul/div x {Tensor, Scalar} x 3 variants, less the 4 newer roots;
  // copy_, fill_, empty, zeros, ones; 32 views and copies; zero_, copy,
  // fill.Scalar; 18 *_copy operators; 4 scatters, unfold_backward.
  constexpr std::size_t reductions = 65;  // kernels/ops_reductions.hpp (sum.dim_IntList among them)
  // linalg: mm, bmm, dot, mv, outer, matmul, linear x 2 (functional, out=), addmm, baddbmm x 3;
  // nn: embedding, dropout, conv2d, max_pool2d, avg_pool2d x 2, adaptive_avg_pool2d x 2.
  constexpr std::size_t linalg = 20, nn = 8;
  // issue 25 (models): convolution and 5 front ends (conv2d is in nn), native_batch_norm x 2,
  // max_pool2d_with_indices x 2 and its backward x 2, hardtanh x 3, _reshape_alias, lift_fresh.
  constexpr std::size_t models = 6 + 2 + 4 + 3 + 2;
  // issue 25 (Core ATen): full_like, scalar_tensor, _local_scalar_dense; reflection and
  // replication padding 1-3d x 2 (functional, out=), constant_pad_nd.
  // _adaptive_avg_pool2d and its backward, avg_pool2d_backward x 2, avg_pool1d, adaptive_avg_pool1d.
  // native_group_norm, its backward, native_layer_norm_backward.
  // upsample_nearest2d and upsample_bilinear2d x 3 (functional, out=, .vec).
  // rand, randn, randperm x 4 (plain, generator, out, generator_out), native_dropout and its backward.
  // embedding_dense_backward.
  constexpr std::size_t core_aten = 3 + 12 + 1 + 6 + 3 + 6 + 14 + 1;
  // ops_core_aten.hpp: resize_, scatter_reduce.two x 3; ops_pooling3d.hpp: avg_pool3d x 2,
  // max_pool3d_with_indices x 2, _adaptive_avg_pool3d, col2im x 2; ops_distance.hpp: _cdist_forward,
  // _pdist_forward; ops_grid_sampler.hpp: grid_sampler_2d; ops_conv_backward.hpp: convolution_backward;
  // ops_embedding_bag.hpp: _embedding_bag; ops_fft.hpp: _fft_r2c, _fft_c2r, _fft_c2c x 2 (functional, out=).
  constexpr std::size_t core_aten_more = 1 + 3 + 2 + 2 + 1 + 2 + 2 + 1 + 1 + 1 + 3 * 2;
  constexpr std::size_t shape = 64;  // ops_shape.hpp: shape, indexing and range operators
  // The pointwise operators (kernels/ops_pointwise.hpp): 39 unary families (sgn the last), gelu,
  // nan_to_num, elu and leaky_relu x 3 variants; softplus, maximum, minimum (functional, out=),
  // relu and relu_, isnan, isinf, isfinite; 12 comparison and 3 logical
  // families x 3; where.self x 2, where.ScalarSelf / ScalarOther / Scalar; clamp and clamp.Tensor x 3; masked_fill x 4;
  // remainder, fmod, bitwise and/or/xor and the two shifts x {Tensor,
  // Scalar} x 3, atan2, div.Tensor_mode, lerp x 2, addcmul, addcdiv x 3;
  // pow.Scalar x 2; pow (Tensor_Tensor, Tensor_Scalar), floor_divide x 3;
  // floor_divide.Scalar, div.Scalar_mode x 2; 6 Scalar_Tensor overloads.
  constexpr std::size_t kPointwiseSchemas = 43u * 3u + 3u * 2u + 2u + 3u + 15u * 3u + 2u + 3u + 2u * 3u + 4u +  //
                                            14u * 3u + 6u * 3u + 2u + 3u * 3u + 2u * 2u + 6u;
  // issue 26 (the last models): clamp_min and clamp_min.Tensor x 3 (kernels/ops_composites.hpp), new_zeros,
  // fill_.Tensor, unsafe_split.Tensor, as_strided_, transpose_; the two fused transformer operators.
  constexpr std::size_t last_models = 6 + 5 + 2;
  // issue 25 (complex, kernels/ops_complex.hpp): view_as_real, view_as_complex, real, imag, their two
  // *_copy (ops_view_copies.hpp), conj, conj_physical x 3, resolve_conj, resolve_neg, is_conj,
  // is_complex, angle x 2 (functional, out=).
  constexpr std::size_t complex = 4 + 2 + 8 + 2;
  // issue 27 (kernels/ops_loss.hpp): nll_loss_forward, nll_loss2d_forward, their backward x 2 (functional,
  // out=); nll_loss, nll_loss_nd, nll_loss2d, cross_entropy_loss.
  constexpr std::size_t loss = 4 * 2 + 4;
  // issue 27's backward kernels: the pads' x 6 and the upsamplings' x 2 (functional, .grad_input),
  // the upsamplings' .vec, avg_pool3d_backward and max_pool3d_with_indices_backward (functional,
  // .grad_input), _adaptive_avg_pool3d_backward, grid_sampler_2d_backward, im2col x 2; _pdist_backward;
  // _embedding_bag_backward, _embedding_bag_dense_backward, _embedding_bag_per_sample_weights_backward.
  constexpr std::size_t backward_kernels = 6 * 2 + 2 * 2 + 2 + 2 * 2 + 1 + 1 + 2 + 1 + 3;
  EXPECT_EQ(checked, 8u * 3u - 4u + 5u + 32u + 3u + 18u + 5u + reductions + linalg + nn + shape + kPointwiseSchemas +
                         models + core_aten + core_aten_more + last_models + complex + loss + backward_kernels);
  EXPECT_EQ(newer, 4u);
  EXPECT_EQ(pytorch2_checked, from_pytorch2.size());
  EXPECT_EQ(autogen, 4u);  // zero, resize, two backward kernels' .out
  // The one operator outside aten is the structured machinery's own copy
  // (structured/copy.hpp), which ATen has no counterpart of.
  EXPECT_EQ(outside_aten, std::vector<std::string>{"opd::_structured_copy_"});
}

}  // namespace

namespace {

// Every aten:: operator with a CPU kernel has a Meta kernel too (issue 15: the
// operators work on CPU and Meta), except the operators whose output shape
// depends on the data, which ATen's Meta kernels refuse as well.
const std::set<std::string>& data_dependent_shape_ops() {
  static const std::set<std::string> ops = {
      "aten::nonzero", "aten::nonzero.out", "aten::masked_select", "aten::masked_select.out",
      "aten::where",  // where(condition): nonzero's columns
      "aten::_local_scalar_dense",  // not a shape: a value, which a Meta tensor does not have
  };
  return ops;
}

TEST(AtenSchemas, EveryCpuOperatorHasAMetaKernel) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  opd::Dispatcher& d = opd::Dispatcher::singleton();
  std::vector<std::string> missing;
  std::size_t with_cpu = 0;
  for (const std::string& name : d.operator_names()) {
    const opd::OperatorEntry* e = d.find_schema(name);
    if (e == nullptr || name.rfind("aten::", 0) != 0 || !e->has_kernel_for(opd::DispatchKey::CPU)) continue;
    ++with_cpu;
    if (data_dependent_shape_ops().count(name) != 0) continue;
    if (!e->has_kernel_for(opd::DispatchKey::Meta)) missing.push_back(name);
  }
  EXPECT_GT(with_cpu, 300u);
  std::string listed;
  for (const std::string& name : missing) listed += " " + name;
  EXPECT_TRUE(missing.empty()) << missing.size() << " operators have a CPU kernel and no Meta kernel:" << listed;
}

}  // namespace

// ------------------------------------------------------------------------
// PyTorch 2.x's Core ATen opset (tests/data/core_aten_ops.txt, 193 entries):
// each entry is registered with a CPU kernel and a Meta kernel (a
// CompositeExplicitAutograd / CompositeImplicitAutograd kernel serves both;
// nonzero's output shape is data, so it has no Meta kernel, as above).
// `not_yet` is the opset's part the library lacks: the test fails on an entry
// missing that the list does not name, and on a listed entry that has been
// added (take it off the list), so the list is always exactly what is missing.
namespace {

bool has_cpu_and_meta(const opd::OperatorEntry& e, const std::string& name) {
  using opd::DispatchKey;
  const bool composite = e.has_kernel_for(DispatchKey::CompositeExplicitAutograd) ||
                         e.has_kernel_for(DispatchKey::CompositeImplicitAutograd);
  if (composite) return true;
  if (!e.has_kernel_for(DispatchKey::CPU)) return false;
  return e.has_kernel_for(DispatchKey::Meta) || data_dependent_shape_ops().count(name) != 0;
}

TEST(AtenSchemas, CoreAtenOpset) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  std::ifstream in(OPD_TEST_DATA_DIR "/core_aten_ops.txt");
  ASSERT_TRUE(in.good()) << "cannot read core_aten_ops.txt";
  std::vector<std::string> entries;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) entries.push_back(line);
  }
  ASSERT_EQ(entries.size(), 193u);
  const std::set<std::string> not_yet = {};
  opd::Dispatcher& d = opd::Dispatcher::singleton();
  std::vector<std::string> missing, added;
  for (const std::string& name : entries) {
    const opd::OperatorEntry* e = d.find_schema(name);
    const bool has = e != nullptr && has_cpu_and_meta(*e, name);
    if (!has && not_yet.count(name) == 0) missing.push_back(name);
    if (has && not_yet.count(name) != 0) added.push_back(name);
  }
  for (const std::string& name : not_yet) {
    EXPECT_TRUE(std::find(entries.begin(), entries.end(), name) != entries.end()) << name << " is not in the opset";
  }
  std::string m, a;
  for (const std::string& name : missing) m += " " + name;
  for (const std::string& name : added) a += " " + name;
  EXPECT_TRUE(missing.empty()) << missing.size() << " Core ATen operators lack a CPU or Meta kernel:" << m;
  EXPECT_TRUE(added.empty()) << "registered now, take them off not_yet:" << a;
  std::printf("Core ATen opset: %zu of %zu registered with CPU and Meta kernels, %zu not yet\n",
              entries.size() - not_yet.size(), entries.size(), not_yet.size());
}

}  // namespace

// ------------------------------------------------------------------------
// Meta kernels against the CPU ones: for each case, the same boxed call with
// CPU tensors and with Meta tensors of the same sizes and strides must give
// results of the same sizes, strides and dtype (or, both of them, the same
// error message). Inputs are zero-filled on the CPU (valid indices); the
// cases cover the operators of issue 15 that have no structured family.
namespace {

using opd::ScalarType;

// A tensor argument: dtype, sizes, layout ('c' contiguous, 't' the last two
// dimensions transposed, 'e' the first dimension expanded from 1).
struct T {
  ScalarType dtype;
  std::vector<int64_t> sizes;
  char layout = 'c';
};
struct DeviceArg {};  // the device under test (factories)
using OptList = std::vector<std::optional<T>>;
using Arg = std::variant<T, std::vector<T>, OptList, DeviceArg, opd::IValue>;

opd::Tensor make(const T& t, opd::Device device) {
  std::vector<int64_t> sizes = t.sizes;
  const std::size_t nd = sizes.size();
  std::vector<int64_t> base = sizes;
  if (t.layout == 't' && nd >= 2) std::swap(base[nd - 1], base[nd - 2]);
  if (t.layout == 'e' && nd >= 1) base[0] = 1;
  opd::Tensor b = opd::empty(base, t.dtype, device);
  if (device.is_cpu() && b.nbytes() > 0) std::memset(b.data_ptr(), 0, b.nbytes());
  std::vector<int64_t> strides = b.strides().vec();
  if (t.layout == 't' && nd >= 2) std::swap(strides[nd - 1], strides[nd - 2]);
  if (t.layout == 'e' && nd >= 1) strides[0] = 0;
  return b.as_strided(sizes, strides, 0);
}

opd::IValue to_ivalue(const Arg& a, opd::Device device) {
  if (const T* t = std::get_if<T>(&a)) return opd::IValue(make(*t, device));
  if (const auto* l = std::get_if<std::vector<T>>(&a)) {
    std::vector<opd::Tensor> ts;
    for (const T& t : *l) ts.push_back(make(t, device));
    return opd::IValue(std::move(ts));
  }
  if (const auto* l = std::get_if<OptList>(&a)) {
    std::vector<std::optional<opd::Tensor>> ts;
    for (const std::optional<T>& t : *l) ts.push_back(t ? std::optional<opd::Tensor>(make(*t, device)) : std::nullopt);
    return opd::IValue(std::move(ts));
  }
  if (std::holds_alternative<DeviceArg>(a)) return opd::IValue(device);
  return std::get<opd::IValue>(a);
}

struct Outcome {
  std::vector<opd::IValue> stack;
  std::string error;
};
Outcome run(const std::string& op, const std::vector<Arg>& args, opd::Device device) {
  Outcome o;
  opd::Stack stack;
  for (const Arg& a : args) stack.push_back(to_ivalue(a, device));
  try {
    opd::call_boxed(op, stack);
    o.stack.assign(stack.begin(), stack.end());
  } catch (const opd::Error& e) {
    o.error = e.what();
    if (o.error.empty()) o.error = "(empty message)";
  }
  return o;
}

void expect_same_tensor(const opd::Tensor& cpu, const opd::Tensor& meta, const std::string& where) {
  ASSERT_EQ(cpu.defined(), meta.defined()) << where;
  if (!cpu.defined()) return;
  EXPECT_TRUE(meta.is_meta()) << where;
  EXPECT_EQ(cpu.sizes().vec(), meta.sizes().vec()) << where;
  EXPECT_EQ(cpu.strides().vec(), meta.strides().vec()) << where;
  EXPECT_EQ(cpu.dtype(), meta.dtype()) << where;
}

void expect_same_results(const std::string& op, const std::vector<Arg>& args, bool expect_error = false) {
  const Outcome cpu = run(op, args, opd::Device::cpu());
  const Outcome meta = run(op, args, opd::Device::meta());
  EXPECT_EQ(!cpu.error.empty(), expect_error) << op << ": " << cpu.error;
  EXPECT_EQ(cpu.error, meta.error) << op;
  ASSERT_EQ(cpu.stack.size(), meta.stack.size()) << op;
  for (std::size_t i = 0; i < cpu.stack.size(); ++i) {
    const std::string where = op + ", result " + std::to_string(i);
    if (cpu.stack[i].is_tensor()) {
      ASSERT_TRUE(meta.stack[i].is_tensor()) << where;
      expect_same_tensor(cpu.stack[i].to_tensor(), meta.stack[i].to_tensor(), where);
    } else if (cpu.stack[i].is_tensor_list()) {
      ASSERT_TRUE(meta.stack[i].is_tensor_list()) << where;
      const auto a = cpu.stack[i].to_tensor_list(), b = meta.stack[i].to_tensor_list();
      ASSERT_EQ(a.size(), b.size()) << where;
      for (std::size_t j = 0; j < a.size(); ++j) expect_same_tensor(a[j], b[j], where);
    }
  }
}

const ScalarType f32 = ScalarType::Float, f64 = ScalarType::Double, i32 = ScalarType::Int, i64 = ScalarType::Long,
                 i8 = ScalarType::Char, u8 = ScalarType::Byte, b8 = ScalarType::Bool;
using IL = std::vector<int64_t>;
opd::IValue none() { return opd::IValue(); }
opd::IValue iv(int64_t v) { return opd::IValue(v); }
opd::IValue dv(double v) { return opd::IValue(v); }
opd::IValue bv(bool v) { return opd::IValue(v); }
opd::IValue il(IL v) { return opd::IValue(std::move(v)); }
opd::IValue sv(const char* v) { return opd::IValue(v); }

TEST(MetaKernels, PointwiseMatchCpu) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  expect_same_results("aten::relu", {T{f32, {2, 3}, 't'}});
  expect_same_results("aten::relu_", {T{f32, {2, 3}}});
  expect_same_results("aten::relu", {T{b8, {2}}}, true);
  expect_same_results("aten::isnan", {T{f32, {2, 3}, 't'}});
  expect_same_results("aten::isfinite", {T{i32, {4}}});
  expect_same_results("aten::softplus", {T{f32, {2, 3}}, iv(1), iv(20)});
  expect_same_results("aten::softplus.out", {T{f32, {2, 3}}, iv(1), iv(20), T{f32, {0}}});
  expect_same_results("aten::maximum", {T{f32, {2, 1}}, T{f64, {3}}});
  expect_same_results("aten::maximum", {T{f32, {2}}, T{f32, {3}}}, true);
  expect_same_results("aten::minimum.out", {T{i32, {2, 3}}, T{i64, {3}}, T{i64, {0}}});
  expect_same_results("aten::pow.Tensor_Tensor", {T{i32, {2, 3}}, T{f32, {3}}});
  expect_same_results("aten::pow_.Scalar", {T{i64, {3}}, dv(2.5)}, true);
  expect_same_results("aten::pow_.Tensor", {T{f32, {3}}, T{f32, {2, 3}}}, true);
  expect_same_results("aten::floor_divide", {T{f32, {4}}, T{i8, {4}, 'e'}});  // (zero integers: ZeroDivisionError)
  expect_same_results("aten::floor_divide_.Scalar", {T{f32, {4}}, iv(3)});
  expect_same_results("aten::remainder.Scalar_Tensor", {iv(2), T{f32, {3}}});
  expect_same_results("aten::bitwise_and.Scalar_Tensor", {iv(3), T{i64, {3}}});
  expect_same_results("aten::bitwise_left_shift.Scalar_Tensor", {iv(3), T{f32, {3}}}, true);
  expect_same_results("aten::div.Scalar_mode", {T{i32, {3}}, iv(2), sv("floor")});
  expect_same_results("aten::div_.Scalar_mode", {T{i32, {3}}, iv(2), none()}, true);
  expect_same_results("aten::masked_fill.Scalar", {T{f32, {2, 3}}, T{b8, {3}}, dv(1.5)});
  expect_same_results("aten::masked_fill.Scalar", {T{f32, {2, 3}}, T{f32, {3}}, iv(1)}, true);
  expect_same_results("aten::masked_fill_.Tensor", {T{f32, {2, 3}, 't'}, T{b8, {2, 3}}, T{f32, {}}});
  expect_same_results("aten::masked_fill_.Scalar", {T{f32, {3}}, T{b8, {2, 3}}, iv(1)}, true);
}

TEST(MetaKernels, ReductionsMatchCpu) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  expect_same_results("aten::sum", {T{i32, {2, 3}}, none()});
  expect_same_results("aten::sum.dim_IntList", {T{f32, {2, 3, 4}, 't'}, il({0, 2}), bv(true), none()});
  expect_same_results("aten::sum.dim_IntList", {T{f32, {2, 3}}, il({0, 0}), bv(false), none()}, true);
  expect_same_results("aten::sum.IntList_out", {T{f32, {2, 3}}, il({1}), bv(false), none(), T{f32, {0}}});
  expect_same_results("aten::mean.dim", {T{f32, {2, 3}}, il({1}), bv(false), none()});
  expect_same_results("aten::mean", {T{i64, {3}}, none()}, true);
  expect_same_results("aten::prod.dim_int", {T{f32, {2, 3}}, iv(1), bv(true), none()});
  expect_same_results("aten::amax", {T{f32, {2, 3}}, il({1}), bv(false)});
  expect_same_results("aten::amin.out", {T{f32, {2, 3}}, il({0}), bv(true), T{f32, {0}}});
  expect_same_results("aten::amax", {T{f32, {0, 3}}, il({0}), bv(false)}, true);
  expect_same_results("aten::max.dim", {T{f32, {2, 3}}, iv(1), bv(false)});
  expect_same_results("aten::min.dim_min", {T{f32, {2, 3}}, iv(0), bv(true), T{f32, {0}}, T{i64, {0}}});
  expect_same_results("aten::min", {T{i8, {2, 3}}});
  expect_same_results("aten::argmax", {T{f32, {2, 3}}, none(), bv(false)});
  expect_same_results("aten::argmin", {T{f32, {2, 3}}, iv(1), bv(true)});
  expect_same_results("aten::var.correction", {T{f32, {4, 5}}, il({1}), iv(0), bv(true)});
  expect_same_results("aten::var", {T{i32, {4}}, bv(true)}, true);
  expect_same_results("aten::std", {T{f64, {4}}, bv(true)});
  expect_same_results("aten::norm.ScalarOpt_dim", {T{f32, {3, 4}}, iv(2), il({1}), bv(false)});
  expect_same_results("aten::norm.Scalar", {T{i32, {3}}, iv(2)}, true);
  expect_same_results("aten::logsumexp", {T{i32, {3, 4}}, il({1}), bv(false)});
  expect_same_results("aten::all.dim", {T{u8, {2, 3}}, iv(1), bv(false)});
  expect_same_results("aten::any", {T{f32, {2}}});
  expect_same_results("aten::count_nonzero.dim_IntList", {T{f32, {2, 3}}, il({0})});
  expect_same_results("aten::cumsum", {T{i32, {2, 3}}, iv(1), none()});
  expect_same_results("aten::cumprod", {T{f32, {2, 3}}, iv(5), none()}, true);
  expect_same_results("aten::softmax.int", {T{f32, {2, 3}, 't'}, iv(1), none()});
  expect_same_results("aten::log_softmax.int", {T{f32, {2, 3}}, iv(0), opd::IValue(f64)});
  expect_same_results("aten::_log_softmax", {T{f64, {2, 3}}, iv(0), bv(false)});
  expect_same_results("aten::_softmax", {T{i64, {2, 3}}, iv(0), bv(false)}, true);
  expect_same_results("aten::native_layer_norm", {T{f32, {2, 3, 4}}, il({4}), none(), none(), dv(1e-5)});
  expect_same_results("aten::layer_norm", {T{f32, {2, 3}}, il({4}), none(), none(), dv(1e-5), bv(true)}, true);
}

TEST(MetaKernels, LinalgAndNnMatchCpu) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  expect_same_results("aten::dot", {T{f32, {3}}, T{f32, {3}}});
  expect_same_results("aten::dot", {T{b8, {3}}, T{b8, {3}}}, true);
  expect_same_results("aten::mv", {T{f32, {2, 3}, 't'}, T{f32, {3}}});
  expect_same_results("aten::mv.out", {T{f32, {2, 3}}, T{f32, {3}}, T{f32, {0}}});
  expect_same_results("aten::outer", {T{i32, {2}}, T{f32, {3}}});
  expect_same_results("aten::matmul", {T{f32, {3}}, T{f32, {3}}});
  expect_same_results("aten::matmul", {T{f32, {2, 3}}, T{f32, {3}}});
  expect_same_results("aten::matmul", {T{f32, {3}}, T{f32, {3, 4}}});
  expect_same_results("aten::matmul", {T{f32, {5, 2, 3}, 't'}, T{f32, {3, 4}}});
  expect_same_results("aten::matmul", {T{f32, {3}}, T{f32, {5, 3, 4}}});
  expect_same_results("aten::matmul", {T{f32, {2, 1, 3, 4}}, T{f32, {5, 4, 2}}});
  expect_same_results("aten::matmul", {T{f32, {2, 3}}, T{f32, {4, 5}}}, true);
  expect_same_results("aten::matmul", {T{f32, {2, 2, 3}}, T{f32, {3, 4, 5}}}, true);
  expect_same_results("aten::matmul", {T{f32, {}}, T{f32, {3}}}, true);
  expect_same_results("aten::matmul.out", {T{f32, {5, 2, 3}}, T{f32, {3}}, T{f32, {0}}});
  expect_same_results("aten::linear", {T{f32, {2, 3}}, T{f32, {4, 3}}, T{f32, {4}}});
  expect_same_results("aten::linear", {T{f32, {5, 2, 3}}, T{f32, {4, 3}}, none()});
  expect_same_results("aten::linear", {T{f32, {5, 2, 3}}, T{f32, {4, 3}}, T{f32, {4}}});
  expect_same_results("aten::linear", {T{f32, {5, 2, 3}}, T{f32, {4, 3}}, T{f32, {2, 4, 1}}}, true);
  expect_same_results("aten::embedding", {T{f32, {10, 3}}, T{i64, {2, 4}}, iv(-1), bv(false), bv(false)});
  expect_same_results("aten::embedding", {T{f32, {10, 3}}, T{f32, {2}}, iv(-1), bv(false), bv(false)}, true);
  expect_same_results("aten::dropout", {T{f32, {2, 3}}, dv(0.5), bv(false)});
  expect_same_results("aten::dropout", {T{f32, {2, 3}}, dv(1.0), bv(true)});
  expect_same_results("aten::conv2d",
                      {T{f32, {1, 3, 8, 8}}, T{f32, {4, 3, 3, 3}}, T{f32, {4}}, il({2, 2}), il({1, 1}), il({1, 1}), iv(1)});
  expect_same_results("aten::conv2d",
                      {T{f32, {4, 7, 7}}, T{f32, {6, 2, 3, 3}}, none(), il({1}), il({0}), il({2}), iv(2)});
  expect_same_results("aten::conv2d",
                      {T{f32, {1, 3, 8, 8}}, T{f32, {4, 2, 3, 3}}, none(), il({1}), il({0}), il({1}), iv(1)}, true);
  expect_same_results("aten::max_pool2d", {T{f32, {1, 2, 8, 8}}, il({2, 2}), il({}), il({0, 0}), il({1, 1}), bv(false)});
  expect_same_results("aten::max_pool2d", {T{i32, {1, 2, 8, 8}}, il({2}), il({}), il({0}), il({1}), bv(false)}, true);
  expect_same_results("aten::avg_pool2d",
                      {T{f32, {2, 5, 5}}, il({3, 3}), il({2, 2}), il({1, 1}), bv(true), bv(true), none()});
  expect_same_results("aten::avg_pool2d.out",
                      {T{f32, {2, 5, 5}}, il({3}), il({}), il({0}), bv(false), bv(true), none(), T{f32, {0}}});
  expect_same_results("aten::adaptive_avg_pool2d", {T{f32, {1, 2, 7, 7}}, il({3, 3})});
  expect_same_results("aten::adaptive_avg_pool2d", {T{f32, {7, 7}}, il({3, 3})}, true);
}

TEST(MetaKernels, ShapeAndFactoriesMatchCpu) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  expect_same_results("aten::cat", {std::vector<T>{T{f32, {2, 3}}, T{f64, {1, 3}, 'e'}}, iv(0)});
  expect_same_results("aten::cat", {std::vector<T>{T{f32, {2, 3}}, T{f32, {2, 4}}}, iv(0)}, true);
  expect_same_results("aten::cat.out", {std::vector<T>{T{f32, {2, 3}}, T{f32, {2, 4}}}, iv(1), T{f64, {0}}});
  expect_same_results("aten::stack", {std::vector<T>{T{f32, {2, 3}}, T{f32, {2, 3}, 't'}}, iv(1)});
  expect_same_results("aten::index_select", {T{f32, {4, 5}}, iv(1), T{i64, {3}}});
  expect_same_results("aten::index_select", {T{f32, {4, 5}, 't'}, iv(0), T{i32, {2}}});
  expect_same_results("aten::index_select", {T{f32, {4, 5}}, iv(1), T{f32, {3}}}, true);
  expect_same_results("aten::index_select.out", {T{f32, {4, 5}}, iv(0), T{i64, {3}}, T{f32, {0}}});
  expect_same_results("aten::gather", {T{f32, {3, 4}}, iv(1), T{i64, {3, 2}}, bv(false)});
  expect_same_results("aten::scatter.src", {T{f32, {3, 4}}, iv(1), T{i64, {3, 2}}, T{f32, {3, 2}}});
  expect_same_results("aten::scatter_.value", {T{f32, {3, 4}}, iv(0), T{i64, {2, 4}}, dv(1.5)});
  expect_same_results("aten::scatter.reduce", {T{f32, {3, 4}}, iv(1), T{i64, {3, 2}}, T{f32, {3, 2}}, sv("add")});
  expect_same_results("aten::scatter.reduce", {T{f32, {3, 4}}, iv(1), T{i64, {3, 2}}, T{f32, {3, 2}}, sv("max")}, true);
  expect_same_results("aten::scatter.value_reduce_out",
                      {T{f32, {3, 4}}, iv(1), T{i64, {3, 2}}, dv(2.0), sv("multiply"), T{f32, {0}}});
  expect_same_results("aten::flip", {T{f32, {2, 3}}, il({0, 1})});
  expect_same_results("aten::flip", {T{f32, {2, 3}}, il({0, 0})}, true);
  expect_same_results("aten::roll", {T{f32, {2, 3}, 't'}, il({1}), il({1})});
  expect_same_results("aten::roll", {T{f32, {2, 3}}, il({4}), il({})});
  expect_same_results("aten::repeat", {T{f32, {2, 3}}, il({2, 1, 2})});
  expect_same_results("aten::repeat", {T{f32, {2, 3}}, il({2})}, true);
  expect_same_results("aten::tril", {T{f32, {3, 4}}, iv(0)});
  expect_same_results("aten::triu_", {T{f32, {3, 4}}, iv(1)});
  expect_same_results("aten::tril", {T{f32, {3}}, iv(0)}, true);
  expect_same_results("aten::triu.out", {T{i32, {2, 3, 4}}, iv(-1), T{i32, {0}}});
  expect_same_results("aten::index.Tensor", {T{f32, {4, 5, 6}}, OptList{std::nullopt, T{i64, {2, 3}}, T{i64, {3}}}});
  expect_same_results("aten::index.Tensor", {T{f32, {4, 5, 6}}, OptList{T{i64, {2}}, std::nullopt, T{i64, {2}}}});
  expect_same_results("aten::index.Tensor", {T{f32, {4, 5}}, OptList{T{i64, {2}}, T{i64, {3}}}}, true);
  expect_same_results("aten::index_put_", {T{f32, {4, 5}}, OptList{T{i64, {2}}}, T{f32, {5}}, bv(false)});
  expect_same_results("aten::index_put", {T{f32, {4, 5}}, OptList{T{i64, {2}}}, T{f64, {5}}, bv(true)}, true);
  expect_same_results("aten::sort", {T{f32, {3, 4}, 't'}, iv(1), bv(false)});
  expect_same_results("aten::sort.values", {T{f32, {3, 4}}, iv(0), bv(true), T{f32, {0}}, T{i64, {0}}});
  expect_same_results("aten::argsort", {T{i32, {3, 4}}, iv(-1), bv(false)});
  expect_same_results("aten::topk", {T{f32, {3, 4}}, iv(2), iv(1), bv(true), bv(true)});
  expect_same_results("aten::topk", {T{f32, {3, 4}}, iv(5), iv(1), bv(true), bv(true)}, true);
  expect_same_results("aten::topk", {T{b8, {3, 4}}, iv(1), iv(1), bv(true), bv(true)}, true);

  expect_same_results("aten::zeros", {il({2, 3}), none(), none(), DeviceArg{}, none()});
  expect_same_results("aten::ones", {il({2, 3}), opd::IValue(i32), none(), DeviceArg{}, none()});
  expect_same_results("aten::full", {il({2}), dv(1.5), none(), none(), DeviceArg{}, none()});
  expect_same_results("aten::arange.start_step", {iv(0), iv(10), iv(3), none(), none(), DeviceArg{}, none()});
  expect_same_results("aten::arange", {dv(2.5), none(), none(), DeviceArg{}, none()});
  expect_same_results("aten::arange.start_step", {iv(0), iv(10), iv(-1), none(), none(), DeviceArg{}, none()}, true);
  expect_same_results("aten::arange.out", {iv(5), T{f32, {0}}});
  expect_same_results("aten::linspace", {iv(0), iv(1), iv(5), none(), none(), DeviceArg{}, none()});
  expect_same_results("aten::linspace", {iv(0), iv(1), iv(5), opd::IValue(b8), none(), DeviceArg{}, none()}, true);
  expect_same_results("aten::eye.m", {iv(2), iv(3), none(), none(), DeviceArg{}, none()});
  expect_same_results("aten::eye", {iv(-1), none(), none(), DeviceArg{}, none()}, true);
  expect_same_results("aten::eye.m_out", {iv(2), iv(3), T{i64, {0}}});
}

// The operators whose result's shape is data have no Meta kernel, as in
// ATen: a Meta call raises an error that names the Meta key or the mask.
TEST(MetaKernels, DataDependentShapesRaiseOnMeta) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  for (const char* op : {"aten::nonzero", "aten::where"}) {
    const Outcome cpu = run(op, {T{f32, {2, 3}}}, opd::Device::cpu());
    EXPECT_EQ(cpu.error, "") << op;
    const Outcome meta = run(op, {T{f32, {2, 3}}}, opd::Device::meta());
    EXPECT_NE(meta.error.find("Meta"), std::string::npos) << op << ": " << meta.error;
  }
  const Outcome cpu = run("aten::masked_select", {T{f32, {2, 3}}, T{b8, {3}}}, opd::Device::cpu());
  EXPECT_EQ(cpu.error, "");
  const Outcome meta = run("aten::masked_select", {T{f32, {2, 3}}, T{b8, {3}}}, opd::Device::meta());
  EXPECT_NE(meta.error.find("Meta"), std::string::npos) << meta.error;
  // index with a boolean mask: the CPU computes it, Meta refuses it by name.
  const std::vector<Arg> masked = {T{f32, {4, 5}}, OptList{T{b8, {4}}}};
  EXPECT_EQ(run("aten::index.Tensor", masked, opd::Device::cpu()).error, "");
  const std::string error = run("aten::index.Tensor", masked, opd::Device::meta()).error;
  EXPECT_NE(error.find("mask index on the Meta device"), std::string::npos) << error;
}

// A call with CPU and Meta operands goes to the Meta kernel (Meta's key is
// the higher one): it returns Meta results, or refuses to write a CPU self.
TEST(MetaKernels, MixedCpuAndMetaOperands) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const opd::Device cpu = opd::Device::cpu(), meta = opd::Device::meta();
  opd::Stack ln = {opd::IValue(make(T{f32, {2, 4}}, cpu)), opd::IValue(IL{4}), opd::IValue(make(T{f32, {4}}, meta)),
                   opd::IValue(), opd::IValue(1e-5)};
  opd::call_boxed("aten::native_layer_norm", ln);
  ASSERT_EQ(ln.size(), 3u);
  for (const opd::IValue& r : ln) EXPECT_TRUE(r.to_tensor().is_meta());
  EXPECT_EQ(ln[1].to_tensor().sizes().vec(), (IL{2, 1}));
  opd::Tensor self = make(T{f32, {4, 5}}, cpu);
  opd::Stack put = {opd::IValue(self), opd::IValue(std::vector<std::optional<opd::Tensor>>{make(T{i64, {2}}, cpu)}),
                    opd::IValue(make(T{f32, {5}}, meta)), opd::IValue(false)};
  EXPECT_THROW(opd::call_boxed("aten::index_put_", put), opd::Error);
  EXPECT_EQ(self.data_ptr<float>()[0], 0.0f);
}

}  // namespace
