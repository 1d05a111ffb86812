// The operators of the functionalization conformance programs
// (tests/data/functionalization_1.13.jsonl, made with PyTorch 1.13):
//  - every operator a program calls, and every operator PyTorch's
//    functionalization passed below itself (both traces), is declared, by
//    its ATen name;
//  - every program, run eagerly on CPU by boxed calls by name, gives eager
//    PyTorch's outputs and input mutations (relative tolerance 1e-6), except
//    where an in-place step reads a tensor that overlaps the one it writes
//    without being it (x.sub_(x[:, 0:1])): PyTorch's loop then reads values it
//    already wrote, the library's kernels read the values from before the call
//    (as a functional program does); such programs may differ (counted).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"

namespace {
using nlohmann::json;
using opd::Tensor;

std::vector<json> programs() {
  std::ifstream in(OPD_TEST_DATA_DIR "/functionalization_1.13.jsonl");
  EXPECT_TRUE(in.good()) << "cannot read functionalization_1.13.jsonl";
  std::vector<json> out;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

Tensor input(const json& spec, std::size_t position) {
  std::vector<int64_t> sizes = spec.at("sizes").get<std::vector<int64_t>>();
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(i) * 0.5f - 3.f + static_cast<float>(position);
  return opd::from_vector<float>(v, sizes);
}

opd::IValue argument(const json& a, const std::map<std::string, Tensor>& env) {
  if (a.is_object()) return env.at(a.at("t").get<std::string>());
  if (a.is_null()) return opd::IValue();
  if (a.is_boolean()) return a.get<bool>();
  if (a.is_number_integer()) return a.get<int64_t>();
  if (a.is_number_float()) return a.get<double>();
  return a.get<std::vector<int64_t>>();
}

// "" when equal, else what differs.
std::string compare(const Tensor& got, const json& expected) {
  const std::vector<int64_t> sizes = expected.at("sizes").get<std::vector<int64_t>>();
  if (got.sizes().vec() != sizes) return "sizes differ";
  const std::vector<float> g = opd::to_vector<float>(got);
  const std::vector<double> e = expected.at("values").get<std::vector<double>>();
  if (g.size() != e.size()) return "numel differs";
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double x = g[i], y = e[i];
    if (std::isnan(x) && std::isnan(y)) continue;
    if (x == y) continue;
    if (std::abs(x - y) > 1e-6 * std::max(std::abs(x), std::abs(y)) + 1e-30)
      return "value " + std::to_string(i) + ": " + std::to_string(x) + " vs " + std::to_string(y);
  }
  return "";
}

TEST(ConformanceOps, EveryOperatorOfTheProgramsAndTracesIsDeclared) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  std::set<std::string> names;
  for (const json& p : programs()) {
    for (const json& s : p.at("steps")) names.insert(s.at("op").get<std::string>());
    for (const char* trace : {"trace_mutations", "trace_mutations_and_views"})
      for (const json& op : p.at(trace)) names.insert(op.get<std::string>());
  }
  EXPECT_GE(names.size(), 50u);
  for (const std::string& n : names) EXPECT_NE(opd::Dispatcher::singleton().find_schema(n), nullptr) << n;
}

TEST(ConformanceOps, EagerRunsGiveEagerPyTorchsValues) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const std::vector<json> all = programs();
  ASSERT_EQ(all.size(), 400u);
  std::size_t passed = 0, partial_overlap = 0;
  for (const json& p : all) {
    const std::string id = p.at("id").get<std::string>();
    std::map<std::string, Tensor> env;
    std::vector<Tensor> inputs;
    for (std::size_t i = 0; i < p.at("inputs").size(); ++i) {
      inputs.push_back(input(p.at("inputs")[i], i));
      env[p.at("inputs")[i].at("name").get<std::string>()] = inputs.back();
    }
    bool reads_while_writing = false;
    try {
      for (const json& s : p.at("steps")) {
        opd::Stack stack;
        for (const json& a : s.at("args")) stack.push_back(argument(a, env));
        const std::string op = s.at("op").get<std::string>();
        if (op.find("_.") != std::string::npos || op.back() == '_') {
          const Tensor& self = stack.at(0).to_tensor();
          for (std::size_t k = 1; k < stack.size(); ++k)
            if (stack[k].is_tensor() && stack[k].to_tensor().is_alias_of(self) &&
                !(stack[k].to_tensor().sizes() == self.sizes() && stack[k].to_tensor().strides() == self.strides() &&
                  stack[k].to_tensor().storage_offset() == self.storage_offset()))
              reads_while_writing = true;
        }
        opd::call_boxed(s.at("op").get<std::string>(), stack);
        const json& out = s.at("out");
        if (out.is_string()) env[out.get<std::string>()] = stack.at(0).to_tensor();
        if (out.is_array()) {
          const std::vector<Tensor> pieces = stack.at(0).to_tensor_list();
          ASSERT_EQ(pieces.size(), out.size()) << id;
          for (std::size_t k = 0; k < pieces.size(); ++k) env[out[k].get<std::string>()] = pieces[k];
        }
      }
    } catch (const opd::Error& e) {
      ADD_FAILURE() << id << ": " << e.what();
      continue;
    }
    std::vector<std::string> diffs;
    for (std::size_t k = 0; k < p.at("outputs").size(); ++k) {
      const std::string d = compare(env.at(p.at("outputs")[k].get<std::string>()), p.at("expected").at("outputs")[k]);
      if (!d.empty()) diffs.push_back("output " + std::to_string(k) + ": " + d);
    }
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const std::string d = compare(inputs[k], p.at("expected").at("inputs_after")[k]);
      if (!d.empty()) diffs.push_back("input " + std::to_string(k) + ": " + d);
    }
    if (diffs.empty()) {
      ++passed;
    } else if (reads_while_writing) {
      ++partial_overlap;
      std::cout << id << " differs (an in-place step reads what it writes): " << diffs[0] << "\n";
    } else {
      ADD_FAILURE() << id << " " << diffs[0];
    }
  }
  EXPECT_EQ(passed + partial_overlap, all.size());
  EXPECT_LE(partial_overlap, 5u);  // a handful
  std::cout << passed << " programs give eager PyTorch's values; " << partial_overlap
            << " differ where an in-place step reads a tensor overlapping the one it writes\n";
}

}  // namespace
