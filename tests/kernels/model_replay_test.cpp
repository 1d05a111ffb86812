// torchvision's resnet18, mobilenet_v2 and squeezenet1_0 run end to end
// through the library: the ATen calls PyTorch 1.13 makes below autograd
// (recorded by tools/record_aten_calls.py --export: random weights, seed 0,
// eval mode) are replayed one by one through the boxed dispatcher
// (opd::call_boxed by operator name), and the logits are compared with
// PyTorch's: max |ours - torch| <= 1e-4 * max |torch|.
//
// The traces are made when the suite starts, by /usr/bin/python3 with
// python3-torch and python3-torchvision (the test skips without them), at
// batch 1 and 64x64 to keep CI cheap (the ops and paths are those of 224x224;
// OPD_MODEL_TRACES=<dir> replays traces exported elsewhere, e.g. at 224x224).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <dispatch/dispatcher.hpp>
#include "all_kernels.hpp"

namespace {

using json = nlohmann::json;

std::string trace_dir() {
  if (const char* dir = std::getenv("OPD_MODEL_TRACES")) return dir;
  return OPD_MODEL_TRACE_DIR;
}

// Exports `model`'s trace once per process, into a folder of its own: CTest
// runs the three models as parallel processes, which must not write (or read
// half-written) files of one another. Skipped when OPD_MODEL_TRACES names a
// folder that holds the traces.
std::string model_dir(const std::string& model) {
  if (std::getenv("OPD_MODEL_TRACES") != nullptr) return trace_dir();
  return trace_dir() + "/" + model;
}
bool export_trace(const std::string& model) {
  static std::map<std::string, bool> done;
  if (std::getenv("OPD_MODEL_TRACES") != nullptr) return true;
  if (const auto it = done.find(model); it != done.end()) return it->second;
  const std::string dir = model_dir(model);
  const std::string cmd = std::string("/usr/bin/python3 ") + OPD_SOURCE_DIR + "/tools/record_aten_calls.py --size 64 --export " +
                          dir + " " + model + " > " + dir + ".log 2>&1";
  std::filesystem::create_directories(trace_dir());
  return done[model] = std::system(cmd.c_str()) == 0;
}

opd::Tensor tensor_from(const json& spec, const std::vector<char>& bin) {
  const auto dtype = static_cast<opd::ScalarType>(spec.at("dtype").get<int>());
  const std::vector<int64_t> sizes = spec.at("sizes").get<std::vector<int64_t>>();
  opd::Tensor t = opd::empty(sizes, dtype);
  const auto offset = spec.at("offset").get<std::size_t>(), nbytes = spec.at("nbytes").get<std::size_t>();
  if (nbytes != static_cast<std::size_t>(t.numel()) * t.itemsize() || offset > bin.size() || nbytes > bin.size() - offset)
    throw std::runtime_error("trace: tensor bytes [" + std::to_string(offset) + ", +" + std::to_string(nbytes) +
                             ") do not fit the sizes or the .bin file of " + std::to_string(bin.size()) + " bytes");
  if (nbytes > 0) std::memcpy(t.data_ptr(), bin.data() + offset, nbytes);
  return t;
}

opd::IValue ivalue_from(const json& a, const std::map<int64_t, opd::Tensor>& env) {
  const auto tensor = [&](int64_t id) {
    const auto it = env.find(id);
    if (it == env.end()) throw std::runtime_error("tensor " + std::to_string(id) + " is neither a constant nor an output");
    return it->second;
  };
  if (a.contains("tensor")) return tensor(a["tensor"].get<int64_t>());
  if (a.contains("tensors")) {
    std::vector<opd::Tensor> ts;
    for (const json& id : a["tensors"]) ts.push_back(tensor(id.get<int64_t>()));
    return ts;
  }
  if (a.contains("none")) return opd::IValue();
  if (a.contains("bool")) return a["bool"].get<bool>();
  if (a.contains("int")) return a["int"].get<int64_t>();
  if (a.contains("float")) return a["float"].get<double>();
  if (a.contains("ints")) return a["ints"].get<std::vector<int64_t>>();
  if (a.contains("floats")) return a["floats"].get<std::vector<double>>();
  if (a.contains("bools")) return a["bools"].get<std::vector<bool>>();
  if (a.contains("str")) return a["str"].get<std::string>();
  if (a.contains("dtype")) return static_cast<opd::ScalarType>(a["dtype"].get<int>());
  if (a.contains("layout")) return static_cast<opd::Layout>(a["layout"].get<int>());
  if (a.contains("memory_format")) return static_cast<opd::MemoryFormat>(a["memory_format"].get<int>());
  if (a.contains("device")) {
    EXPECT_EQ(a["device"].get<std::string>(), "cpu");
    return opd::Device::cpu();
  }
  throw std::runtime_error("unknown argument " + a.dump());
}

struct Replay {
  std::optional<opd::Tensor> output;  // none when a call failed
  std::string failure;                // "node 12 aten::foo: message"
  opd::Tensor expected;
  std::size_t nodes = 0;
};

Replay replay(const std::string& model) {
  Replay r;
  const std::string base = model_dir(model) + "/" + model;
  std::ifstream jf(base + ".json"), bf(base + ".bin", std::ios::binary);
  if (!jf.good() || !bf.good()) {
    r.failure = "cannot read " + base + ".json/.bin";
    return r;
  }
  const json trace = json::parse(jf);
  const std::vector<char> bin((std::istreambuf_iterator<char>(bf)), std::istreambuf_iterator<char>());
  std::map<int64_t, opd::Tensor> env;
  for (const json& c : trace.at("constants")) env[c.at("id").get<int64_t>()] = tensor_from(c, bin);
  r.expected = tensor_from(trace.at("expected"), bin);
  const json& nodes = trace.at("nodes");
  r.nodes = nodes.size();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const json& node = nodes[i];
    const std::string op = node.at("op").get<std::string>();
    try {
      opd::Stack stack;
      for (const json& a : node.at("args")) stack.push_back(ivalue_from(a, env));
      opd::call_boxed(op, stack);
      const json& outs = node.at("outputs");
      if (stack.size() != outs.size()) throw std::runtime_error("returned " + std::to_string(stack.size()) + " values");
      for (std::size_t k = 0; k < outs.size(); ++k) {
        if (!outs[k].is_null()) env[outs[k].get<int64_t>()] = stack[k].to_tensor();
      }
    } catch (const std::exception& e) {
      r.failure = "node " + std::to_string(i) + " " + op + ": " + e.what();
      return r;
    }
  }
  r.output = env.at(trace.at("output").get<int64_t>());
  return r;
}

// max |a - b| / max |b|, over float tensors of the same shape.
double relative_error(const opd::Tensor& ours, const opd::Tensor& torch) {
  EXPECT_EQ(ours.sizes(), torch.sizes());
  const std::vector<float> a = opd::to_vector<float>(ours), b = opd::to_vector<float>(torch);
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    diff = std::max(diff, std::fabs(static_cast<double>(a[i]) - b[i]));
    scale = std::max(scale, std::fabs(static_cast<double>(b[i])));
  }
  return scale == 0 ? diff : diff / scale;
}

class ModelReplay : public ::testing::TestWithParam<const char*> {
 protected:
  static void SetUpTestSuite() { kernels_ = new opd::RegistrationSet(opd_test::register_all_kernels()); }
  static void TearDownTestSuite() {
    delete kernels_;
    kernels_ = nullptr;
  }
  static opd::RegistrationSet* kernels_;
};
opd::RegistrationSet* ModelReplay::kernels_ = nullptr;

TEST_P(ModelReplay, LogitsMatchPyTorch) {
  if (!export_trace(GetParam()))
    GTEST_SKIP() << "no trace: /usr/bin/python3 with torch and torchvision is needed (see " << model_dir(GetParam()) << ".log)";
  Replay r;
  try {
    r = replay(GetParam());
  } catch (const std::exception& e) {
    FAIL() << GetParam() << ": " << e.what();
  }
  ASSERT_TRUE(r.output.has_value()) << GetParam() << ": " << r.failure;
  const double err = relative_error(*r.output, r.expected);
  std::printf("%s: %zu calls replayed, logits %s, max relative error %.3g\n", GetParam(), r.nodes,
              opd::detail::str_cat(r.output->sizes()).c_str(), err);
  EXPECT_LE(err, 1e-4) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Torchvision, ModelReplay, ::testing::Values("resnet18", "mobilenet_v2", "squeezenet1_0"));

}  // namespace
