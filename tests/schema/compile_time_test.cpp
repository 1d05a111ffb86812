// Compile-time parsing agrees with run-time parsing: representative schemas
// parsed with schema_of<"..."> print back identically during compilation
// (static_assert), and the run-time parser gives the same printed form.
// Default values are read at compile time too.
#include <dispatch/schema.hpp>
#include <dispatch/schema/queries.hpp>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace {

using opd::fixed_string;
using opd::schema::default_kind;
using opd::schema::schema_of;

// Prints schema_of<S>() into a buffer at compile time and compares.
template <fixed_string S>
constexpr bool prints_back() {
  constexpr const auto& s = schema_of<S>();
  opd::schema::buffer_sink<2 * decltype(S)::size() + 16> sink;  // room to see a longer output
  opd::schema::print(s, sink);
  return std::string_view(sink.data, sink.size) == S.view();
}

// From native_functions.yaml (1.13 and 2025) and from custom operators.
#define OPD_SCHEMAS(X)                                                                                               \
  X("_cast_Byte(Tensor self, bool non_blocking=False) -> Tensor")                                                    \
  X("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")                                           \
  X("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)")                          \
  X("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)")                                  \
  X("_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()")                               \
  X("index.Tensor(Tensor self, Tensor?[] indices) -> Tensor")                                                       \
  X("chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]")                                             \
  X("view(Tensor(a) self, SymInt[] size) -> Tensor(a)")                                                             \
  X("binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean) -> Tensor")         \
  X("randint(SymInt high, SymInt[] size, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, "     \
    "bool? pin_memory=None) -> Tensor")                                                                              \
  X("layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, " \
    "bool cudnn_enable=True) -> Tensor")                                                                             \
  X("avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, bool ceil_mode=False, "        \
    "bool count_include_pad=True) -> Tensor")                                                                        \
  X("max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "                 \
    "int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)")                                                  \
  X("_fused_dropout(Tensor self, float p, Generator? generator=None) -> (Tensor, Tensor)")                          \
  X("div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor")                                  \
  X("gelu(Tensor self, *, str approximate='none') -> Tensor")                                                       \
  X("sum.dim_DimnameList(Tensor self, Dimname[1] dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor")    \
  X("chalf(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor")                                            \
  X("set_.source_Storage(Tensor(a!) self, Storage source) -> Tensor(a!)")                                           \
  X("_cufft_get_plan_cache_size(DeviceIndex device_index) -> int")                                                  \
  X("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)")                         \
  X("max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> "           \
    "(Tensor(a!) values, Tensor(b!) indices)")                                                                       \
  X("aten::quantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, "                           \
    "str interpolation='linear') -> Tensor")                                                                         \
  X("nuclear_norm.dim(Tensor self, int[2] dim, bool keepdim=False) -> Tensor")                                      \
  X("fake_quantize(Tensor self, float scale, int zero_point, int quant_min=-128, int quant_max=0x7F) -> Tensor")    \
  X("_C::silu_and_mul(Tensor! result, Tensor input) -> ()")                                                         \
  X("merge_attn_states(Tensor! output, Tensor!? output_lse, Tensor prefix_output, int!? tokens) -> ()")             \
  X("image::decode_png(Tensor data, int mode, bool apply_exif_orientation=False) -> Tensor")                        \
  X("myops::call(Dict(str, Tensor) inputs, Future(Tensor) f, RRef(int) r, Union(int, str) u) -> Any")              \
  X("myops::dicts(Dict(str, Tensor)? a, Dict(int, Dict(str, float[])) b) -> (Dict(str, Tensor), Dict(str, int)?)") \
  X("fbgemm::load(str path) -> __torch__.torch.classes.fbgemm.KVTensorWrapper")                                     \
  X("prim::tuple(...) -> ...")                                                                                        \
  X("f(Tensor x, (int, float) pair, t(a) any, complex c=2j, Scalar s=-1.5) -> (Tensor, NoneType)")

#define OPD_PRINTS_BACK(text) static_assert(prints_back<text>(), text);
OPD_SCHEMAS(OPD_PRINTS_BACK)

TEST(SchemaCompileTime, RunTimeParserPrintsTheSame) {
  std::size_t count = 0;
#define OPD_RUN_TIME_AGREES(text)                                    \
  {                                                                  \
    const opd::schema::parse_result r = opd::schema::parse(text);    \
    ASSERT_TRUE(r) << text << "\n  " << r.message();                 \
    EXPECT_EQ(opd::schema::to_string(r.schema->value()), text);      \
    EXPECT_EQ(opd::schema::to_string(schema_of<text>()), text);      \
    ++count;                                                         \
  }
  OPD_SCHEMAS(OPD_RUN_TIME_AGREES)
#undef OPD_RUN_TIME_AGREES
  EXPECT_GE(count, 30u);
}

// Default values, read during compilation.
constexpr const auto& norm = schema_of<"layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, "
                                       "Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor">();
static_assert(norm.arguments[4].name == "eps");
static_assert(norm.arguments[4].def.kind == default_kind::floating);
static_assert(norm.arguments[4].def.floating == 1e-05);
static_assert(norm.arguments[4].def.text == "1e-05");
static_assert(norm.arguments[2].def.kind == default_kind::none);
static_assert(norm.arguments[5].def.kind == default_kind::boolean && norm.arguments[5].def.boolean);
static_assert(!norm.arguments[0].has_default);

constexpr const auto& bce =
    schema_of<"binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean) -> Tensor">();
static_assert(bce.arguments[3].def.kind == default_kind::symbol);
static_assert(bce.arguments[3].def.integer == 1);

constexpr const auto& randint = schema_of<"randint(SymInt high, SymInt[] size, *, ScalarType? dtype=long) -> Tensor">();
static_assert(randint.arguments[2].def.kind == default_kind::symbol);
static_assert(randint.arguments[2].def.integer == 4);
static_assert(randint.arguments[2].kwarg_only && !randint.arguments[1].kwarg_only);

constexpr const auto& pool = schema_of<"f(Tensor self, int[2] stride=1, int[2] padding=[0, 1], int dim=-1, "
                                       "float p=2, Scalar alpha=0.5, str mode='linear') -> Tensor">();
static_assert(pool.arguments[1].def.kind == default_kind::repeated);
static_assert(pool.arguments[1].def.element == default_kind::integer);
static_assert(pool.arguments[1].def.integer == 1 && pool.arguments[1].def.length == 2);
static_assert(pool.arguments[2].def.kind == default_kind::list && pool.arguments[2].def.length == 2);
static_assert(pool.arguments[3].def.integer == -1);
static_assert(pool.arguments[4].def.floating == 2.0);
static_assert(pool.arguments[5].def.kind == default_kind::floating && pool.arguments[5].def.floating == 0.5);
static_assert(pool.arguments[6].def.kind == default_kind::string && pool.arguments[6].def.text == "'linear'");

// Structure, at compile time.
constexpr const auto& out = schema_of<"max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, "
                                      "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)">();
static_assert(out.name == "max" && out.overload == "dim_max" && out.ns.empty());
static_assert(out.arguments.size() == 5 && out.returns.size() == 2);
static_assert(out.kwarg_marker == 3);
static_assert(opd::schema::is_out(out, out.arguments[3]) && opd::schema::is_out(out, out.arguments[4]));
static_assert(out.returns[1].name == "indices");
static_assert(out.alias(out.type_of(out.returns[1]).alias).before.names[0] == "b");

}  // namespace
