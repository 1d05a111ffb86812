// The graph loader and runner (graph.hpp). Load in numbered steps: 1. parse
// the JSON, 2. read the data file, 3. the inputs, 4. the weights, 5. the nodes
// (operator handles, arguments, outputs), 6. the outputs, 7. last uses.
#include "graph.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <unordered_map>

namespace opd::graph {
namespace {

using json = nlohmann::json;

[[noreturn, gnu::cold]] void fail(const std::string& msg) { throw GraphError(msg); }

struct DtypeName {
  std::string_view name;
  ScalarType type;
};
constexpr DtypeName dtype_names[] = {
    {"uint8", ScalarType::Byte},      {"int8", ScalarType::Char},       {"int16", ScalarType::Short},
    {"int32", ScalarType::Int},       {"int64", ScalarType::Long},      {"float16", ScalarType::Half},
    {"float32", ScalarType::Float},   {"float64", ScalarType::Double},  {"bool", ScalarType::Bool},
    {"bfloat16", ScalarType::BFloat16}, {"complex64", ScalarType::ComplexFloat},
    {"complex128", ScalarType::ComplexDouble},
};

ScalarType dtype_from(const json& j, const std::string& where) {
  if (!j.is_string()) fail(where + ": dtype is not a string");
  const std::string& s = j.get_ref<const std::string&>();
  for (const DtypeName& d : dtype_names)
    if (d.name == s) return d.type;
  fail(where + ": unknown dtype \"" + s + "\"");
}

std::vector<std::int64_t> dims_from(const json& j, const std::string& where, const char* what) {
  if (!j.is_array()) fail(where + ": " + what + " is not an array");
  if (j.size() > 64) fail(where + ": " + what + " has " + std::to_string(j.size()) + " dimensions");
  std::vector<std::int64_t> v;
  for (const json& x : j) {
    if (!x.is_number_integer() || x.get<std::int64_t>() < 0)
      fail(where + ": " + what + " holds " + x.dump() + ", not a non-negative integer");
    v.push_back(x.get<std::int64_t>());
  }
  return v;
}

const json& member(const json& j, const char* key, const std::string& where) {
  if (!j.is_object()) fail(where + ": not a JSON object");
  const auto it = j.find(key);
  if (it == j.end()) fail(where + ": no \"" + key + "\"");
  return *it;
}

json parse_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) fail(path + ": cannot be read");
  try {
    return json::parse(f);
  } catch (const json::exception& e) {
    fail(path + ": not JSON: " + e.what());
  }
}

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) fail(path + ": cannot be read");
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::string data_path(const std::string& file, const json& doc) {
  const json& d = member(doc, "data", file);
  if (!d.is_string()) fail(file + ": \"data\" is not a string");
  return (std::filesystem::path(file).parent_path() / d.get<std::string>()).string();
}

// A tensor from its spec ({dtype, sizes, strides, offset, nbytes}) and the
// bytes of the data file, checked against both.
Tensor tensor_from(const json& spec, const std::vector<char>& bin, const std::string& where) {
  const ScalarType dtype = dtype_from(member(spec, "dtype", where), where);
  const std::vector<std::int64_t> sizes = dims_from(member(spec, "sizes", where), where, "sizes");
  std::vector<std::int64_t> strides;
  if (spec.contains("strides")) {
    strides = dims_from(spec["strides"], where, "strides");
    if (strides.size() != sizes.size()) fail(where + ": strides and sizes differ in length");
  } else {  // contiguous
    strides.resize(sizes.size());
    std::int64_t s = 1;
    for (std::size_t i = sizes.size(); i-- > 0;) {
      strides[i] = s;
      if (__builtin_mul_overflow(s, std::max<std::int64_t>(sizes[i], 1), &s)) fail(where + ": sizes overflow");
    }
  }
  // The elements the strides reach: 1 + sum (size - 1) * stride, none if a size is 0.
  std::int64_t extent = 1;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) {
      extent = 0;
      break;
    }
    std::int64_t span = 0;
    if (__builtin_mul_overflow(sizes[i] - 1, strides[i], &span) || __builtin_add_overflow(extent, span, &extent))
      fail(where + ": sizes and strides overflow");
  }
  const json& off = member(spec, "offset", where);
  const json& nb = member(spec, "nbytes", where);
  if (!off.is_number_unsigned() || !nb.is_number_unsigned()) fail(where + ": offset and nbytes must be non-negative integers");
  const std::uint64_t offset = off.get<std::uint64_t>(), nbytes = nb.get<std::uint64_t>();
  const std::uint64_t itemsize = static_cast<std::uint64_t>(element_size(dtype));
  std::uint64_t want = 0;
  if (__builtin_mul_overflow(static_cast<std::uint64_t>(extent), itemsize, &want) || want != nbytes)
    fail(where + ": nbytes " + std::to_string(nbytes) + " is not what dtype, sizes and strides make (" +
         std::to_string(extent) + " elements of " + std::to_string(itemsize) + " bytes)");
  if (offset > bin.size() || nbytes > bin.size() - offset)
    fail(where + ": bytes [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " + std::to_string(nbytes) +
         ") lie outside the data file of " + std::to_string(bin.size()) + " bytes");
  Tensor storage = empty({extent}, dtype);
  if (nbytes > 0) std::memcpy(storage.data_ptr(), bin.data() + offset, nbytes);
  return storage.as_strided(sizes, strides, 0);
}

}  // namespace

std::string Profile::table(std::int64_t runs) const {
  std::vector<std::pair<std::string, Row>> rows(by_operator.begin(), by_operator.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.time > b.second.time; });
  std::ostringstream os;
  const double total_ms = std::chrono::duration<double, std::milli>(total).count() / static_cast<double>(runs);
  char line[512];
  std::snprintf(line, sizeof line, "%10s %7s %7s  %s\n", "ms/run", "%", "calls", "operator");
  os << line;
  for (const auto& [name, r] : rows) {
    const double ms = std::chrono::duration<double, std::milli>(r.time).count() / static_cast<double>(runs);
    std::snprintf(line, sizeof line, "%10.3f %6.1f%% %7lld  %s\n", ms, total_ms > 0 ? 100.0 * ms / total_ms : 0.0,
                  static_cast<long long>(r.calls / runs), name.c_str());
    os << line;
  }
  std::snprintf(line, sizeof line, "%10.3f %6.1f%% %7s  total (the nodes' calls)\n", total_ms, 100.0, "");
  os << line;
  return os.str();
}

Graph Graph::load(const std::string& path, Device device) {
  // 1. The JSON.
  const json doc = parse_file(path);
  try {
    Graph g;
    g.device_ = device;
    const json& format = member(doc, "format", path);
    if (format != "opd-aten-graph-1") fail(path + ": format " + format.dump() + " is not \"opd-aten-graph-1\"");
    if (doc.contains("model") && doc["model"].is_string()) g.model_ = doc["model"].get<std::string>();

    // 2. The data file.
    const std::vector<char> bin = read_bytes(data_path(path, doc));

    // Value ids (any integers) to dense slots; defined[slot] once made.
    std::unordered_map<std::int64_t, std::int32_t> slot_of;
    std::vector<bool> defined;
    const auto define = [&](const json& id, const std::string& where) -> std::int32_t {
      if (!id.is_number_integer()) fail(where + ": value id " + id.dump() + " is not an integer");
      const auto [it, fresh] = slot_of.try_emplace(id.get<std::int64_t>(), static_cast<std::int32_t>(slot_of.size()));
      if (fresh) defined.push_back(true);
      defined[static_cast<std::size_t>(it->second)] = true;  // an in-place call's output is its input
      return it->second;
    };
    const auto use = [&](const json& id, const std::string& where) -> std::int32_t {
      if (!id.is_number_integer()) fail(where + ": value id " + id.dump() + " is not an integer");
      const auto it = slot_of.find(id.get<std::int64_t>());
      if (it == slot_of.end())
        fail(where + ": value " + id.dump() + " is used before any input, weight or node makes it");
      return it->second;
    };
    const auto array = [&](const char* key) -> const json& {
      const json& a = member(doc, key, path);
      if (!a.is_array()) fail(path + ": \"" + key + "\" is not an array");
      return a;
    };

    // 3. The inputs.
    for (const json& in : array("inputs")) {
      const std::string where = path + ": input " + std::to_string(g.inputs_.size());
      const std::int32_t slot = define(member(in, "value", where), where);
      g.inputs_.push_back({slot, dtype_from(member(in, "dtype", where), where),
                           dims_from(member(in, "sizes", where), where, "sizes")});
    }

    // 4. The weights.
    for (const json& w : array("weights")) {
      std::string where = path + ": weight " + std::to_string(g.weights_.size());
      if (w.is_object() && w.contains("name") && w["name"].is_string()) where += " (" + w["name"].get<std::string>() + ")";
      const std::int32_t slot = define(member(w, "value", where), where);
      Tensor t = tensor_from(w, bin, where);
      if (!device.is_cpu()) t = t.to(device);
      g.weights_.emplace_back(slot, std::move(t));
    }

    // 5. The nodes.
    Dispatcher& dispatcher = Dispatcher::singleton();
    const DispatchKey backend = backend_key_for(device.type());
    const json& nodes = array("nodes");
    g.nodes_.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const json& jn = nodes[i];
      std::string where = path + ": node " + std::to_string(i);
      const json& op = member(jn, "op", where);
      if (!op.is_string()) fail(where + ": \"op\" is not a string");
      Node n;
      n.op = op.get<std::string>();
      where += " (" + n.op + ")";
      n.entry = dispatcher.find_schema(n.op);
      if (n.entry != nullptr && !n.entry->has_schema()) n.entry = nullptr;
      n.has_kernel = n.entry != nullptr && (n.entry->has_kernel_for(backend) ||
                                            n.entry->has_kernel_for(DispatchKey::CompositeImplicitAutograd) ||
                                            n.entry->has_kernel_for(DispatchKey::CompositeExplicitAutograd));
      const json& args = member(jn, "args", where);
      if (!args.is_array()) fail(where + ": \"args\" is not an array");
      if (n.entry != nullptr && args.size() != n.entry->num_arguments())
        fail(where + ": " + std::to_string(args.size()) + " arguments, the schema has " +
             std::to_string(n.entry->num_arguments()));
      for (std::size_t k = 0; k < args.size(); ++k) {
        const json& a = args[k];
        const std::string at = where + " argument " + std::to_string(k);
        if (!a.is_object() || a.size() != 1) fail(at + ": not an object of one member: " + a.dump());
        const std::string& kind = a.begin().key();
        const json& v = a.begin().value();
        Arg arg;
        try {
          if (kind == "tensor") {
            arg.kind = Arg::Kind::Value;
            arg.value = use(v, at);
          } else if (kind == "tensors") {
            if (!v.is_array()) fail(at + ": \"tensors\" is not an array");
            arg.kind = Arg::Kind::Values;
            for (const json& id : v) {
              arg.optional_list |= id.is_null();
              arg.values.push_back(id.is_null() ? -1 : use(id, at));
            }
            // A Tensor?[] argument (index.Tensor's indices) is one whatever its entries.
            if (n.entry != nullptr) {
              const schema::dynamic_schema& sch = n.entry->schema().value();
              const schema::type_node& t = sch.type_of(sch.arguments[k]);
              if (t.kind == schema::type_kind::list && t.child != schema::no_index &&
                  sch.type(t.child).kind == schema::type_kind::optional)
                arg.optional_list = true;
            }
          } else if (kind == "none") {
            arg.constant = IValue();
          } else if (kind == "bool") {
            arg.constant = v.get<bool>();
          } else if (kind == "int") {
            if (!v.is_number_integer()) fail(at + ": not an integer");
            arg.constant = v.get<std::int64_t>();
          } else if (kind == "float") {
            if (!v.is_number()) fail(at + ": not a number");
            arg.constant = v.get<double>();
          } else if (kind == "ints") {
            for (const json& x : v)
              if (!x.is_number_integer()) fail(at + ": \"ints\" holds " + x.dump());
            arg.constant = v.get<std::vector<std::int64_t>>();
          } else if (kind == "floats") {
            arg.constant = v.get<std::vector<double>>();
          } else if (kind == "bools") {
            arg.constant = v.get<std::vector<bool>>();
          } else if (kind == "str") {
            arg.constant = v.get<std::string>();
          } else if (kind == "dtype") {
            arg.constant = dtype_from(v, at);
          } else if (kind == "layout") {
            if (v != "strided") fail(at + ": layout " + v.dump() + " (only \"strided\" tensors run)");
            arg.constant = Layout::Strided;
          } else if (kind == "memory_format") {
            const std::string s = v.get<std::string>();
            if (s == "contiguous_format") arg.constant = MemoryFormat::Contiguous;
            else if (s == "preserve_format") arg.constant = MemoryFormat::Preserve;
            else if (s == "channels_last") arg.constant = MemoryFormat::ChannelsLast;
            else if (s == "channels_last_3d") arg.constant = MemoryFormat::ChannelsLast3d;
            else fail(at + ": unknown memory format \"" + s + "\"");
          } else if (kind == "device") {
            const auto d = Device::try_parse(v.get<std::string>());
            if (!d) fail(at + ": unknown device " + v.dump());
            arg.constant = d->is_cpu() ? device : *d;
          } else {
            fail(at + ": unknown argument kind \"" + kind + "\"");
          }
        } catch (const json::exception& e) {
          fail(at + ": \"" + kind + "\" holds " + v.dump() + ": " + e.what());
        }
        n.args.push_back(std::move(arg));
      }
      const json& outs = member(jn, "outputs", where);
      if (!outs.is_array()) fail(where + ": \"outputs\" is not an array");
      for (const json& o : outs) {
        Output out;
        if (o.is_null()) {
          out.slots.push_back(-1);
        } else if (o.is_array()) {
          out.is_list = true;
          for (const json& id : o) out.slots.push_back(define(id, where + " output"));
        } else {
          out.slots.push_back(define(o, where + " output"));
        }
        n.outputs.push_back(std::move(out));
      }
      g.nodes_.push_back(std::move(n));
    }

    // 6. The outputs.
    for (const json& o : array("outputs")) g.outputs_.push_back(use(o, path + ": graph output"));
    g.num_slots_ = slot_of.size();

    // 7. Last uses: a value is dropped after the last node that reads or
    // writes it, unless the graph returns it (weights too: they are held by
    // weights_ anyway).
    std::vector<std::int64_t> last(g.num_slots_, -1);
    for (std::size_t i = 0; i < g.nodes_.size(); ++i) {
      for (const Arg& a : g.nodes_[i].args) {
        if (a.kind == Arg::Kind::Value) last[static_cast<std::size_t>(a.value)] = static_cast<std::int64_t>(i);
        for (std::int32_t s : a.values)
          if (s >= 0) last[static_cast<std::size_t>(s)] = static_cast<std::int64_t>(i);
      }
      for (const Output& o : g.nodes_[i].outputs)
        for (std::int32_t s : o.slots)
          if (s >= 0) last[static_cast<std::size_t>(s)] = static_cast<std::int64_t>(i);
    }
    for (std::int32_t s : g.outputs_) last[static_cast<std::size_t>(s)] = -1;
    for (std::size_t s = 0; s < g.num_slots_; ++s)
      if (last[s] >= 0) g.nodes_[static_cast<std::size_t>(last[s])].frees.push_back(static_cast<std::int32_t>(s));
    return g;
  } catch (const json::exception& e) {
    fail(path + ": " + e.what());
  }
}

std::vector<std::string> Graph::missing_operators() const {
  std::vector<std::string> out;
  const std::string backend(to_string(backend_key_for(device_.type())));
  for (const Node& n : nodes_) {
    if (n.has_kernel) continue;
    const std::string line = n.op + (n.entry == nullptr ? " (not declared)" : " (no " + backend + " kernel)");
    if (std::find(out.begin(), out.end(), line) == out.end()) out.push_back(line);
  }
  return out;
}

std::vector<Tensor> Graph::run(const std::vector<Tensor>& inputs, Profile* profile, const NodeHook* on_node) const {
  // 1. Refuse a graph with operators the library lacks, before any work.
  if (const auto missing = missing_operators(); !missing.empty()) {
    std::string msg = model_ + ": operators without a kernel:";
    for (const std::string& m : missing) msg += " " + m + ";";
    fail(msg);
  }
  // 2. The value table: inputs (checked) and weights.
  if (inputs.size() != inputs_.size())
    fail(model_ + ": " + std::to_string(inputs.size()) + " inputs given, the graph takes " + std::to_string(inputs_.size()));
  std::vector<Tensor> values(num_slots_);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const InputSpec& spec = inputs_[i];
    if (!inputs[i].defined() || inputs[i].dtype() != spec.dtype ||
        std::vector<std::int64_t>(inputs[i].sizes().begin(), inputs[i].sizes().end()) != spec.sizes)
      fail(model_ + ": input " + std::to_string(i) + " is not a tensor of the graph's dtype and sizes");
    values[static_cast<std::size_t>(spec.slot)] = inputs[i].device() == device_ ? inputs[i] : inputs[i].to(device_);
  }
  for (const auto& [slot, w] : weights_) values[static_cast<std::size_t>(slot)] = w;

  // 3. The nodes.
  Stack stack;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    const auto start = profile ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    try {
      stack.clear();
      for (const Arg& a : n.args) {
        switch (a.kind) {
          case Arg::Kind::Value: stack.emplace_back(values[static_cast<std::size_t>(a.value)]); break;
          case Arg::Kind::Constant: stack.push_back(a.constant); break;
          case Arg::Kind::Values:
            if (a.optional_list) {
              std::vector<std::optional<Tensor>> ts;
              for (std::int32_t s : a.values)
                ts.push_back(s < 0 ? std::nullopt : std::optional<Tensor>(values[static_cast<std::size_t>(s)]));
              stack.emplace_back(std::move(ts));
            } else {
              std::vector<Tensor> ts;
              for (std::int32_t s : a.values) ts.push_back(values[static_cast<std::size_t>(s)]);
              stack.emplace_back(std::move(ts));
            }
            break;
        }
      }
      call_boxed(*n.entry, stack);
      if (stack.size() != n.outputs.size())
        fail("returned " + std::to_string(stack.size()) + " values, the graph expects " + std::to_string(n.outputs.size()));
      for (std::size_t k = 0; k < n.outputs.size(); ++k) {
        const Output& o = n.outputs[k];
        if (o.is_list) {
          if (!stack[k].is_tensor_list()) fail("output " + std::to_string(k) + " is not a Tensor[]");
          std::vector<Tensor> ts = std::move(stack[k]).to_tensor_list();
          if (ts.size() != o.slots.size())
            fail("output " + std::to_string(k) + " holds " + std::to_string(ts.size()) + " tensors, the graph expects " +
                 std::to_string(o.slots.size()));
          for (std::size_t j = 0; j < ts.size(); ++j) values[static_cast<std::size_t>(o.slots[j])] = std::move(ts[j]);
        } else if (o.slots[0] >= 0) {
          if (!stack[k].is_tensor()) fail("output " + std::to_string(k) + " is not a Tensor");
          values[static_cast<std::size_t>(o.slots[0])] = std::move(stack[k]).to_tensor();
        }
      }
    } catch (const GraphError& e) {
      fail(model_ + ": node " + std::to_string(i) + " (" + n.op + "): " + e.what());
    } catch (const std::exception& e) {
      fail(model_ + ": node " + std::to_string(i) + " (" + n.op + "): " + e.what());
    }
    stack.clear();
    if (on_node != nullptr) {
      std::vector<Tensor> outs;
      for (const Output& o : n.outputs)
        for (std::int32_t s : o.slots)
          if (s >= 0) outs.push_back(values[static_cast<std::size_t>(s)]);
      (*on_node)(i, n, outs);
    }
    for (std::int32_t s : n.frees) values[static_cast<std::size_t>(s)] = Tensor();
    if (profile) {
      const auto t = std::chrono::steady_clock::now() - start;
      Profile::Row& row = profile->by_operator[n.op];
      ++row.calls;
      row.time += t;
      profile->total += t;
    }
  }
  // 4. The outputs.
  std::vector<Tensor> out;
  for (std::int32_t s : outputs_) out.push_back(values[static_cast<std::size_t>(s)]);
  return out;
}

std::vector<Tensor> load_tensors(const std::string& path, const std::string& key) {
  const json doc = parse_file(path);
  try {
    const json& format = member(doc, "format", path);
    if (format != "opd-tensors-1") fail(path + ": format " + format.dump() + " is not \"opd-tensors-1\"");
    const std::vector<char> bin = read_bytes(data_path(path, doc));
    const json& list = member(doc, key.c_str(), path);
    if (!list.is_array()) fail(path + ": \"" + key + "\" is not an array");
    std::vector<Tensor> out;
    for (const json& spec : list) out.push_back(tensor_from(spec, bin, path + ": " + key + " " + std::to_string(out.size())));
    return out;
  } catch (const json::exception& e) {
    fail(path + ": " + e.what());
  }
}

std::vector<Tensor> synthetic_inputs(const Graph& g) {
  std::vector<Tensor> out;
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  for (const Graph::InputSpec& spec : g.inputs()) {
    Tensor t = empty(spec.sizes, spec.dtype);
    if (spec.dtype == ScalarType::Float) {
      float* p = t.data_ptr<float>();
      for (std::int64_t i = 0; i < t.numel(); ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = static_cast<float>(static_cast<double>(state >> 11) / 4503599627370496.0 - 1.0);
      }
    } else if (t.nbytes() > 0) {
      std::memset(t.data_ptr(), 0, t.nbytes());
    }
    out.push_back(std::move(t));
  }
  return out;
}

namespace {
std::vector<double> as_doubles(const Tensor& t) {
  const Tensor c = t.device().is_cpu() ? t : t.to(Device::cpu());
  const auto convert = [](const auto& v) { return std::vector<double>(v.begin(), v.end()); };
  switch (c.dtype()) {
    case ScalarType::Float: return convert(to_vector<float>(c));
    case ScalarType::Double: return convert(to_vector<double>(c));
    case ScalarType::Long: return convert(to_vector<std::int64_t>(c));
    case ScalarType::Int: return convert(to_vector<std::int32_t>(c));
    case ScalarType::Bool: return convert(to_vector<bool>(c));
    default: fail(std::string("cannot compare tensors of dtype ") + std::string(to_string(c.dtype())));
  }
}
}  // namespace

double relative_error(const Tensor& ours, const Tensor& reference) {
  const auto describe = [](const Tensor& t) {
    std::ostringstream os;
    os << t;
    return os.str();
  };
  const auto dims = [](const Tensor& t) { return std::vector<std::int64_t>(t.sizes().begin(), t.sizes().end()); };
  if (ours.dtype() != reference.dtype() || dims(ours) != dims(reference))
    fail(describe(ours) + " is not the reference's " + describe(reference));
  const std::vector<double> a = as_doubles(ours), b = as_doubles(reference);
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(a[i] - b[i]);
    if (std::isnan(d) && !(std::isnan(a[i]) && std::isnan(b[i]))) return std::numeric_limits<double>::infinity();
    if (!std::isnan(d)) diff = std::max(diff, d);
    if (!std::isnan(b[i])) scale = std::max(scale, std::fabs(b[i]));
  }
  return scale == 0 ? diff : diff / scale;
}

}  // namespace opd::graph
