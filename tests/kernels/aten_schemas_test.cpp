// Every operator the library declares is ATen's: its name is in namespace
// aten and its schema text is ATen 1.13's (tests/data/native_functions_1.13.jsonl,
// field "schema"), character for character. The operators are read from the
// dispatcher after opd_test::register_all_kernels(), not listed here.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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

TEST(AtenSchemas, EveryLibraryOperatorHasAtensSchemaVerbatim) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const std::map<std::string, std::string> aten = aten_schemas();
  ASSERT_GT(aten.size(), 2000u);
  opd::Dispatcher& d = opd::Dispatcher::singleton();
  std::size_t checked = 0, newer = 0, autogen = 0;
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
    // aten::zero is torchgen's autogen functional variant of zero_ (which
    // 1.13's yaml lists, the functional one it generates): the schema derived
    // from the jsonl's zero_.
    if (name == "aten::zero") {
      ++autogen;
      EXPECT_EQ(e->schema().text(), opd::schema::functional_variant_text(
                                        opd::schema::parse_or_throw(aten.at("aten::zero_"))));
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
  constexpr std::size_t shape = 59;  // ops_shape.hpp: shape, indexing and range operators
  // The pointwise operators (kernels/ops_pointwise.hpp): 34 unary families, gelu and
  // nan_to_num x 3 variants; softplus, maximum, minimum (functional, out=),
  // relu and relu_, isnan, isinf, isfinite; 12 comparison and 3 logical
  // families x 3; where.self x 2; clamp and clamp.Tensor x 3; masked_fill x 4;
  // remainder, fmod, bitwise and/or/xor and the two shifts x {Tensor,
  // Scalar} x 3, atan2, div.Tensor_mode, lerp x 2, addcmul, addcdiv x 3;
  // pow.Scalar x 2; pow (Tensor_Tensor, Tensor_Scalar), floor_divide x 3;
  // floor_divide.Scalar, div.Scalar_mode x 2; 6 Scalar_Tensor overloads.
  constexpr std::size_t kPointwiseSchemas = 36u * 3u + 3u * 2u + 2u + 3u + 15u * 3u + 2u + 2u * 3u + 4u +  //
                                            14u * 3u + 6u * 3u + 2u + 3u * 3u + 2u * 2u + 6u;
  EXPECT_EQ(checked, 8u * 3u - 4u + 5u + 32u + 3u + 18u + 5u + reductions + linalg + nn + shape + kPointwiseSchemas);
  EXPECT_EQ(newer, 4u);
  EXPECT_EQ(autogen, 1u);
  // The one operator outside aten is the structured machinery's own copy
  // (structured/copy.hpp), which ATen has no counterpart of.
  EXPECT_EQ(outside_aten, std::vector<std::string>{"opd::_structured_copy_"});
}

}  // namespace
