// Schema properties and derived variants on hand-picked schemas, at compile
// time (static_assert) and at run time.
#include <dispatch/schema/properties.hpp>
#include <dispatch/schema/variants.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace {

namespace sc = opd::schema;
using sc::schema_kind;

// ---- compile time -------------------------------------------------------------

constexpr auto mul_tensor = sc::schema_of<"mul.Tensor(Tensor self, Tensor other) -> Tensor">();
constexpr auto mul = sc::schema_of<"mul(Tensor self, Tensor other) -> Tensor">();
constexpr auto add_inplace = sc::schema_of<"add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)">();
constexpr auto add_out =
    sc::schema_of<"add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)">();
constexpr auto fq_helper = sc::schema_of<
    "_fused_moving_avg_obs_fq_helper(Tensor self, Tensor observer_on, Tensor fake_quant_on, Tensor(a!) running_min, "
    "Tensor(b!) running_max, Tensor(c!) scale, Tensor(d!) zero_point, float averaging_const, int quant_min, "
    "int quant_max, int ch_axis, bool per_row_fake_quant=False, bool symmetric_quant=False) -> (Tensor output, Tensor "
    "mask)">();

static_assert(sc::kind_of(mul_tensor) == schema_kind::functional);
static_assert(sc::kind_of(add_inplace) == schema_kind::inplace);
static_assert(sc::kind_of(add_out) == schema_kind::out);
static_assert(sc::kind_of(fq_helper) == schema_kind::mutable_);

// The out= variant of a functional schema: overload "<overload>_out" ("out" without one).
static_assert(sc::derived_out_text<mul_tensor>.view() ==
              "mul.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
static_assert(sc::derived_out_text<mul>.view() == "mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
// ... of an in-place one, and its functional variant.
static_assert(sc::derived_out_text<add_inplace>.view() ==
              "add.Tensor_out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
static_assert(sc::derived_functional_text<add_inplace>.view() ==
              "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
// ... of a mutable one: fresh alias letters, "_functional" for the functional variant.
static_assert(sc::derived_out_text<fq_helper>.view() ==
              "_fused_moving_avg_obs_fq_helper.out(Tensor self, Tensor observer_on, Tensor fake_quant_on, Tensor(a!) "
              "running_min, Tensor(b!) running_max, Tensor(c!) scale, Tensor(d!) zero_point, float averaging_const, "
              "int quant_min, int quant_max, int ch_axis, bool per_row_fake_quant=False, bool symmetric_quant=False, *, "
              "Tensor(e!) out0, Tensor(f!) out1) -> (Tensor(e!), Tensor(f!))");
static_assert(sc::derived_functional_text<fq_helper>.view() ==
              "_fused_moving_avg_obs_fq_helper_functional(Tensor self, Tensor observer_on, Tensor fake_quant_on, "
              "Tensor running_min, Tensor running_max, Tensor scale, Tensor zero_point, float averaging_const, int "
              "quant_min, int quant_max, int ch_axis, bool per_row_fake_quant=False, bool symmetric_quant=False) -> "
              "(Tensor output, Tensor mask, Tensor running_min_out, Tensor running_max_out, Tensor scale_out, Tensor "
              "zero_point_out)");

// The derived schemas are compile-time schemas themselves.
static_assert(sc::kind_of(sc::derived_out_schema<mul_tensor>) == schema_kind::out);
static_assert(sc::derived_out_schema<mul_tensor>.overload == "Tensor_out");
static_assert(sc::derived_out_schema<add_inplace>.arguments.size() == 4);
static_assert(sc::is_out_argument(sc::derived_out_schema<add_inplace>, 3));
static_assert(sc::kind_of(sc::derived_functional_schema<add_inplace>) == schema_kind::functional);
static_assert(sc::derived_functional_schema<fq_helper>.returns.size() == 6);

// Through a type naming the schema, and from a literal.
struct foreach_zero {
  static constexpr const auto& schema = sc::schema_of<"_foreach_zero_(Tensor(a!)[] self) -> ()">();
};
static_assert(sc::kind_of(foreach_zero::schema) == schema_kind::inplace);
static_assert(sc::out_variant_of<foreach_zero>::text.view() == "_foreach_zero.out(Tensor[] self, *, Tensor(a!)[] out) -> ()");
static_assert(sc::functional_variant_of<foreach_zero>::text.view() == "_foreach_zero(Tensor[] self) -> Tensor[] self_out");
static_assert(sc::family_key_of<foreach_zero>::text.view() == "_foreach_zero(Tensor[] self) -> Tensor[]");
static_assert(sc::out_variant_of<sc::schema_literal<"split(Tensor self, int size, int dim=0) -> Tensor[]">>::text.view() ==
              "split.out(Tensor self, int size, int dim=0, *, Tensor(a!)[] out) -> ()");

// One family: functional, in-place and out= share a key.
static_assert(sc::family_key_of<sc::schema_ref<add_inplace>>::text.view() ==
              "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
static_assert(sc::family_key_of<sc::schema_ref<add_out>>::text.view() ==
              sc::family_key_of<sc::schema_ref<add_inplace>>::text.view());

// Compile-time argument positions, sized exactly.
constexpr auto index_put = sc::schema_of<
    "index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False, *, Tensor? w=None, "
    "Tensor(b!)[] outs) -> Tensor(a!)">();
static_assert(sc::tensor_argument_positions<index_put> == std::array<std::size_t, 5>{0, 1, 2, 4, 5});
static_assert(sc::mutable_argument_positions<index_put> == std::array<std::size_t, 2>{0, 5});
static_assert(sc::out_argument_positions<index_put> == std::array<std::size_t, 1>{5});
static_assert(sc::out_argument_positions<mul>.size() == 0);
static_assert(sc::argument_positions<foreach_zero>::tensors == std::array<std::size_t, 1>{0});
static_assert(sc::argument_positions<foreach_zero>::mutables == std::array<std::size_t, 1>{0});
static_assert(sc::argument_positions<foreach_zero>::outs.empty());

// Alias info as PyTorch reports it.
static_assert(sc::argument_alias(foreach_zero::schema, 0)->is_write);
static_assert(sc::argument_alias(foreach_zero::schema, 0)->before.count == 0);
static_assert(sc::argument_alias(index_put, 0)->before.names[0] == "a");
static_assert(!sc::argument_alias(index_put, 1).has_value());
static_assert(sc::is_mutable(add_inplace) && !sc::is_mutable(mul));
static_assert(sc::self_argument(add_inplace) == 0 && sc::self_argument(index_put) == 0);

// ---- run time ---------------------------------------------------------------

sc::runtime_schema parse(const char* text) { return sc::parse_or_throw(text); }

TEST(VariantsProperties, KindOf) {
  EXPECT_EQ(sc::kind_of(parse("abs(Tensor self) -> Tensor")), schema_kind::functional);
  EXPECT_EQ(sc::kind_of(parse("abs_(Tensor(a!) self) -> Tensor(a!)")), schema_kind::inplace);
  EXPECT_EQ(sc::kind_of(parse("abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")), schema_kind::out);
  EXPECT_EQ(sc::kind_of(parse("__iand__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)")), schema_kind::inplace);
  EXPECT_EQ(sc::kind_of(parse("__and__.Scalar(Tensor self, Scalar other) -> Tensor")), schema_kind::functional);
  EXPECT_EQ(sc::kind_of(parse("_cummax_helper(Tensor self, Tensor(a!) values, Tensor(b!) indices, int dim) -> ()")),
            schema_kind::mutable_);
  // A written argument before self does not make the schema mutable (torchgen looks after self only).
  EXPECT_EQ(sc::kind_of(parse("f(Tensor(a!) x, Tensor self) -> Tensor")), schema_kind::functional);
  EXPECT_EQ(sc::kind_of(parse("g(Tensor(a!) x, Tensor y) -> Tensor")), schema_kind::mutable_);
  EXPECT_EQ(sc::kind_of(parse("f.out(Tensor self, *, Tensor(a!) out, Tensor(b!) _scratch_x) -> Tensor(a!)")),
            schema_kind::scratch);
  // An in-place name whose self is not written is classified by the rest.
  EXPECT_EQ(sc::kind_of(parse("odd_(Tensor self) -> Tensor")), schema_kind::functional);
  EXPECT_EQ(sc::kind_name(schema_kind::mutable_), "mutable");
}

TEST(VariantsProperties, IsView) {
  EXPECT_TRUE(sc::is_view(parse("alias(Tensor(a) self) -> Tensor(a)")));
  EXPECT_TRUE(sc::is_view(parse("unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]")));
  EXPECT_TRUE(sc::is_view(parse("f(Tensor(a -> *) self) -> Tensor[]")));
  EXPECT_FALSE(sc::is_view(parse("add_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)")));
  EXPECT_FALSE(sc::is_view(parse("squeeze_(Tensor(a!) self) -> Tensor(a!)")));
  EXPECT_TRUE(sc::is_view_op(parse("squeeze_(Tensor(a!) self) -> Tensor(a!)"), true));
  EXPECT_FALSE(sc::is_view_op(parse("resize_(Tensor(a!) self, SymInt[] size) -> Tensor(a!)"), true));
  EXPECT_FALSE(sc::is_view(parse("abs(Tensor self) -> Tensor")));
}

TEST(VariantsProperties, Positions) {
  const auto s = parse(
      "f(Tensor a, Tensor? b, Tensor[] c, Tensor?[] d, int e, Tensor[]? g, (Tensor, Tensor) t, Tensor(a!) h, *, "
      "Tensor(b!) o, Tensor(c!)[] os) -> ()");
  EXPECT_EQ(sc::tensor_argument_indices(s), (std::vector<std::size_t>{0, 1, 2, 3, 5, 7, 8, 9}));
  EXPECT_EQ(sc::mutable_argument_indices(s), (std::vector<std::size_t>{7, 8, 9}));
  EXPECT_EQ(sc::out_argument_indices(s), (std::vector<std::size_t>{8, 9}));
  EXPECT_TRUE(sc::is_out_argument(s, 9));
  EXPECT_FALSE(sc::is_out_argument(s, 7));
  EXPECT_EQ(sc::self_argument(s), sc::no_position);
}

TEST(VariantsProperties, TopLevelAlias) {
  const auto s = parse("f(Tensor(a!)[] x, Tensor(b)? y, Tensor(c -> *) z, Tensor(d)[] w, Tensor v) -> Tensor(b)");
  const auto x = sc::argument_alias(s, 0);
  ASSERT_TRUE(x.has_value());
  EXPECT_TRUE(x->is_write);
  EXPECT_EQ(x->before.count, 0);
  EXPECT_EQ(x->after.count, 0);
  const auto y = sc::argument_alias(s, 1);
  ASSERT_TRUE(y.has_value());
  EXPECT_FALSE(y->is_write);
  EXPECT_EQ(y->before.names[0], "b");
  const auto z = sc::argument_alias(s, 2);
  ASSERT_TRUE(z.has_value());
  EXPECT_EQ(z->after.names[0], "*");
  const auto w = sc::argument_alias(s, 3);
  ASSERT_TRUE(w.has_value());
  EXPECT_FALSE(w->is_write);
  EXPECT_EQ(w->before.count, 0);
  EXPECT_FALSE(sc::argument_alias(s, 4).has_value());
  EXPECT_EQ(sc::return_alias(s, 0)->before.names[0], "b");
  EXPECT_TRUE(sc::is_mutable(*s));
}

TEST(VariantsProperties, OutVariants) {
  // Several returns, some not tensors: only the non-tensor returns stay.
  EXPECT_EQ(sc::out_variant_text(parse("f.x(Tensor self) -> (Tensor a, int b, Tensor[] c)")),
            "f.x_out(Tensor self, *, Tensor(a!) out0, Tensor(c!)[] out2) -> int b");
  // TensorOptions are dropped, other kwargs stay; letters skip the used ones.
  EXPECT_EQ(sc::out_variant_text(parse("full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? "
                                       "layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? "
                                       "memory_format=None) -> Tensor")),
            "full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> "
            "Tensor(a!)");
  EXPECT_EQ(sc::out_variant_text(parse("_amp_update_scale_(Tensor(a!) self, Tensor(b!) growth_tracker, Tensor "
                                       "found_inf) -> Tensor(a!)")),
            "_amp_update_scale.out(Tensor self, Tensor(b!) growth_tracker, Tensor found_inf, *, Tensor(a!) out) -> "
            "Tensor(a!)");
  EXPECT_EQ(sc::out_variant_text(parse("myns::f(Tensor self) -> Tensor")),
            "myns::f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  const sc::runtime_schema o = sc::out_variant(parse("abs(Tensor self) -> Tensor"));
  EXPECT_EQ(o->overload, "out");
  EXPECT_EQ(sc::kind_of(o), schema_kind::out);
}

TEST(VariantsProperties, FunctionalVariants) {
  EXPECT_EQ(sc::functional_variant_text(parse("_amp_update_scale_(Tensor(a!) self, Tensor(b!) growth_tracker, Tensor "
                                              "found_inf) -> Tensor(a!)")),
            "_amp_update_scale(Tensor self, Tensor growth_tracker, Tensor found_inf) -> (Tensor, Tensor "
            "growth_tracker_out)");
  EXPECT_EQ(sc::functional_variant_text(parse("__iand__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)")),
            "__and__.Scalar(Tensor self, Scalar other) -> Tensor");
  EXPECT_EQ(sc::functional_variant_text(parse("__ixor__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)")),
            "__xor__.Tensor(Tensor self, Tensor other) -> Tensor");
  // torchgen keeps the overload of an out= source.
  EXPECT_EQ(sc::functional_variant_text(parse("abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")),
            "abs.out(Tensor self) -> Tensor");
}

TEST(VariantsProperties, FamilyKeys) {
  const std::string key = "bernoulli(Tensor self, float p=0.5, *, Generator? generator=None) -> Tensor";
  // torchgen's Note [bernoulli.p schema]: bernoulli.p is keyed with p=0.5.
  EXPECT_EQ(sc::family_key(parse("bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor")), key);
  EXPECT_EQ(sc::family_key(parse("bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> "
                                 "Tensor(a!)")),
            key);
  EXPECT_EQ(sc::family_key(parse("normal_functional(Tensor self, float mean=0) -> Tensor")),
            sc::family_key(parse("normal_(Tensor(a!) self, float mean=0) -> Tensor(a!)")));
  EXPECT_EQ(sc::family_key(parse("max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) "
                                 "max_values) -> (Tensor(a!) max, Tensor(b!) max_values)")),
            sc::family_key(parse("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)")));
}

TEST(VariantsProperties, ErrorsAtRunTime) {
  try {
    (void)sc::out_variant(parse("abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"));
    ADD_FAILURE() << "no variant_failure";
  } catch (const sc::variant_failure& e) {
    EXPECT_EQ(e.code(), sc::variant_error::already_out);
    EXPECT_NE(std::string(e.what()).find("abs.out"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)sc::functional_variant(parse("abs(Tensor self) -> Tensor")), sc::variant_failure);
  EXPECT_EQ(sc::check_functional_variant(parse("abs(Tensor self) -> Tensor")), sc::variant_error::already_functional);
  EXPECT_EQ(sc::check_out_variant(parse("_nnz(Tensor self) -> int")), sc::variant_error::no_tensor_return);
  EXPECT_EQ(sc::check_out_variant(parse("_cummax_helper(Tensor self, Tensor(a!) values, int dim) -> ()")),
            sc::variant_error::no_tensor_return);
  EXPECT_EQ(sc::check_out_variant(parse("f(Tensor(a!) x, Tensor y) -> Tensor(a!)")),
            sc::variant_error::returns_written_alias);
  EXPECT_EQ(sc::check_out_variant(parse("f(Tensor self, ...) -> Tensor")), sc::variant_error::varargs);
  sc::string_sink sink;
  EXPECT_EQ(sc::print_out_variant(parse("abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"), sink),
            sc::variant_error::already_out);
  EXPECT_TRUE(sink.out.empty());
}

}  // namespace
