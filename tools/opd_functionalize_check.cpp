// opd-functionalize-check: runs programs of ATen view, in-place, out= and
// functional operators (the format of tests/data/functionalization_1.13.jsonl,
// one JSON object per line) twice: eagerly on the CPU, and functionalized
// (remove_views) above the tracing backend of examples/lazy_trace. For each:
//
//   ok<TAB>id                      or   fail<TAB>id<TAB>what differs
//   trace<TAB>id<TAB>ops           the operators the backend saw, space separated
//
// then `N passed, M failed`. A program passes when both runs give the
// expected outputs and input mutations (the file's `expected`, eager PyTorch's;
// relative tolerance 1e-6) and the trace holds no in-place, out= or view
// operator. An operator the library lacks is a failure. Exit code 0 only when
// every program passed. With --pytorch-traces, standard error also gets how
// many traces equal PyTorch's `trace_mutations_and_views` operator for
// operator (its final aten::copy_ calls, PyTorch's copying of input mutations
// back, left out: here the caller reads the synced inputs instead).
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lazy_trace/trace_backend.hpp"
#include <lazy/lazy.hpp>

namespace {

using json = nlohmann::json;
using opd::IValue;
using opd::Tensor;

Tensor input_value(std::size_t i, const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k) * 0.5f - 3.0f + static_cast<float>(i);
  return opd::from_vector<float>(v, sizes);
}

using Env = std::map<std::string, Tensor>;

IValue argument(const json& a, const Env& env) {
  if (a.is_object()) {
    const std::string name = a.at("t").get<std::string>();
    auto it = env.find(name);
    if (it == env.end()) throw std::runtime_error("unknown tensor '" + name + "'");
    return IValue(it->second);
  }
  if (a.is_null()) return IValue();
  if (a.is_boolean()) return IValue(a.get<bool>());
  if (a.is_number_integer()) return IValue(a.get<std::int64_t>());
  if (a.is_number_float()) return IValue(a.get<double>());
  if (a.is_array()) {
    std::vector<int64_t> v;
    for (const json& e : a) v.push_back(e.get<std::int64_t>());
    return IValue(std::move(v));
  }
  throw std::runtime_error("unsupported argument " + a.dump());
}

void run_steps(const json& program, Env& env) {
  for (const json& step : program.at("steps")) {
    const std::string op = step.at("op").get<std::string>();
    opd::Stack stack;
    for (const json& a : step.at("args")) stack.push_back(argument(a, env));
    opd::call_boxed(op, stack);
    const json& out = step.at("out");
    if (out.is_string()) {
      env[out.get<std::string>()] = stack.at(0).to_tensor();
    } else if (out.is_array()) {
      const std::vector<Tensor> list = stack.at(0).to_tensor_list();
      if (list.size() != out.size()) throw std::runtime_error(op + " returned " + std::to_string(list.size()) + " tensors");
      for (std::size_t i = 0; i < list.size(); ++i) env[out[i].get<std::string>()] = list[i];
    }
  }
}

// "" when t matches expected {sizes, values} within rel tol 1e-6.
std::string differs(const Tensor& t, const json& expected) {
  const std::vector<int64_t> sizes = expected.at("sizes").get<std::vector<int64_t>>();
  if (!(t.sizes() == opd::IntArrayRef(sizes))) {
    std::ostringstream os;
    os << "sizes " << t.sizes() << " instead of " << opd::IntArrayRef(sizes);
    return os.str();
  }
  const Tensor c = opd::call<opd::kernels::ops::contiguous>(t, opd::MemoryFormat::Contiguous);
  const std::vector<float> got = opd::to_vector<float>(c);
  const json& want = expected.at("values");
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double w = want.at(i).is_null() ? NAN : want.at(i).get<double>();
    const double g = got[i];
    if (std::isnan(w) && std::isnan(g)) continue;
    if (std::isinf(w) && g == w) continue;
    if (!(std::fabs(g - w) <= 1e-6 * std::max(std::fabs(w), std::fabs(g)) + 1e-30 || g == w)) {
      std::ostringstream os;
      os << "value " << i << " is " << g << " instead of " << w;
      return os.str();
    }
  }
  return "";
}

struct Result {
  std::string failure;  // empty: passed
  std::vector<std::string> trace;
};

Result check(const json& program, lazy::Backend& backend, bool on_lazy) {
  Result r;
  const json& inputs = program.at("inputs");
  const json& expected = program.at("expected");
  auto compare = [&](const char* run, const std::vector<Tensor>& outs, const std::vector<Tensor>& ins) {
    for (std::size_t i = 0; i < outs.size(); ++i) {
      const std::string d = differs(outs[i], expected.at("outputs").at(i));
      if (!d.empty()) return std::string(run) + ": output " + program.at("outputs").at(i).get<std::string>() + ": " + d;
    }
    for (std::size_t i = 0; i < ins.size(); ++i) {
      const std::string d = differs(ins[i], expected.at("inputs_after").at(i));
      if (!d.empty()) return std::string(run) + ": input " + inputs.at(i).at("name").get<std::string>() + " after: " + d;
    }
    return std::string();
  };

  // 1. eagerly, on the CPU
  try {
    Env env;
    std::vector<Tensor> ins;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      ins.push_back(input_value(i, inputs[i].at("sizes").get<std::vector<int64_t>>()));
      env[inputs[i].at("name").get<std::string>()] = ins.back();
    }
    run_steps(program, env);
    std::vector<Tensor> outs;
    for (const json& o : program.at("outputs")) outs.push_back(env.at(o.get<std::string>()));
    r.failure = compare("eager", outs, ins);
  } catch (const std::exception& e) {
    r.failure = std::string("eager: ") + e.what();
  }
  const std::string eager_failure = std::move(r.failure);
  r.failure.clear();

  // 2. functionalized, removing views, above the tracing backend (or, with
  // --lazy, above the lazy backend of include/lazy/, whose kernel refuses
  // views and writes itself)
  backend.clear();
  try {
    Env env;
    std::vector<Tensor> ins;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const Tensor value = input_value(i, inputs[i].at("sizes").get<std::vector<int64_t>>());
      ins.push_back(on_lazy ? opd::lazy::to_lazy(value) : lazy::from_cpu(value));
      env[inputs[i].at("name").get<std::string>()] = ins.back();
    }
    {
      opd::FunctionalizeGuard on(opd::FunctionalizeMode::remove_views);
      run_steps(program, env);
    }
    std::vector<Tensor> outs, ins_cpu;
    auto to_cpu = [&](const Tensor& t) { return on_lazy ? opd::lazy::to_cpu(t) : lazy::to_cpu(t); };
    for (const json& o : program.at("outputs")) outs.push_back(to_cpu(env.at(o.get<std::string>())));
    for (const Tensor& t : ins) ins_cpu.push_back(to_cpu(t));
    r.failure = compare("functionalized", outs, ins_cpu);
  } catch (const std::exception& e) {
    r.failure = std::string("functionalized: ") + e.what();
  }
  r.trace = backend.ops();
  if (!eager_failure.empty()) r.failure = r.failure.empty() ? eager_failure : eager_failure + "; " + r.failure;
  if (r.failure.empty()) {
    for (const std::string& op : r.trace) {
      const opd::OperatorEntry& e = opd::Dispatcher::singleton().find_schema_or_throw(op);
      if (e.alias_facts().is_view() || !e.alias_facts().written.empty()) {
        r.failure = "the backend saw '" + op + "', which " + (e.alias_facts().is_view() ? "is a view" : "writes its arguments");
        break;
      }
    }
  }
  return r;
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\t') c = ' ';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  bool compare_pytorch = false;
  bool on_lazy = false;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--pytorch-traces") compare_pytorch = true;
    else if (a == "--lazy") on_lazy = true;
    else if (a == "-h" || a == "--help") {
      std::printf("usage: opd-functionalize-check [--pytorch-traces] [--lazy] [programs.jsonl]  (standard input without a path)\n");
      return 0;
    } else path = a;
  }
  std::ifstream file;
  if (!path.empty()) {
    file.open(path);
    if (!file) {
      std::fprintf(stderr, "opd-functionalize-check: cannot open %s\n", path.c_str());
      return 2;
    }
  }
  std::istream& in = path.empty() ? std::cin : file;

  auto cpu_kernels = opd::kernels::register_cpu();
  lazy::Backend backend;
  if (on_lazy) opd::lazy::ensure_registered();
  int passed = 0, failed = 0, same_trace = 0;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json program;
    std::string id = "line" + std::to_string(lineno);
    Result r;
    try {
      program = json::parse(line);
      if (program.contains("id")) id = program.at("id").get<std::string>();
      r = check(program, backend, on_lazy);
    } catch (const std::exception& e) {
      r.failure = std::string("bad program: ") + e.what();
    }
    if (r.failure.empty()) {
      ++passed;
      std::printf("ok\t%s\n", id.c_str());
    } else {
      ++failed;
      std::printf("fail\t%s\t%s\n", id.c_str(), one_line(r.failure).c_str());
    }
    std::printf("trace\t%s\t", id.c_str());
    for (std::size_t i = 0; i < r.trace.size(); ++i) std::printf("%s%s", i ? " " : "", r.trace[i].c_str());
    std::printf("\n");
    if (compare_pytorch && program.is_object() && program.contains("trace_mutations_and_views")) {
      std::vector<std::string> theirs = program.at("trace_mutations_and_views").get<std::vector<std::string>>();
      while (!theirs.empty() && theirs.back() == "aten::copy_") theirs.pop_back();
      if (theirs == r.trace) ++same_trace;
    }
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  if (compare_pytorch) std::fprintf(stderr, "traces equal to PyTorch's: %d of %d\n", same_trace, passed + failed);
  return failed == 0 ? 0 : 1;
}
