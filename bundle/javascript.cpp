#include "bundle/javascript.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

#include "bundle/files.h"
#include "runtimes/process.h"

namespace seqconf::bundle {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace {

// Valid UTF-8 (what a JSON string and a JavaScript string can hold unchanged).
bool is_utf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 4;
    if (n == 4 || i + n >= s.size() + (n == 0 ? 1 : 0) || (n > 0 && i + n > s.size() - 1))
      return false;
    for (size_t k = 1; k <= n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    i += n + 1;
  }
  return true;
}

std::string hex_bits(uint64_t bits, int width) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", width, static_cast<unsigned long long>(bits));
  return buf;
}

// A floating element, readably: a number (exact: the JSON number is the element's value), or
// "NaN" (the canonical quiet NaN), "NaN:0x..." (any other NaN, by its bits), "Infinity",
// "-Infinity", "-0".
ordered_json float_json(double v, uint64_t bits, uint64_t canonical_nan, int width) {
  if (std::isnan(v)) return bits == canonical_nan ? "NaN" : "NaN:" + hex_bits(bits, width);
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0 && std::signbit(v)) return "-0";
  return v;
}

}  // namespace

ordered_json tensor_json(const Tensor& t) {
  ordered_json j;
  j["type"] = std::string(dtype_name(t.dtype()));
  j["dims"] = t.shape();
  ordered_json values = ordered_json::array(), bits = ordered_json::array();
  const size_t n = t.element_count();
  const std::byte* raw = t.bytes();
  const auto load = [&](auto tag, size_t i) {
    decltype(tag) x;
    std::memcpy(&x, raw + i * sizeof(x), sizeof(x));
    return x;
  };
  for (size_t i = 0; i < n; ++i) {
    switch (t.dtype()) {
      case DataType::float32: {
        const float f = load(float{}, i);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        values.push_back(float_json(f, b, 0x7fc00000u, 8));
        bits.push_back(hex_bits(b, 8));
        break;
      }
      case DataType::float64: {
        const double f = load(double{}, i);
        uint64_t b;
        std::memcpy(&b, &f, 8);
        values.push_back(float_json(f, b, 0x7ff8000000000000ull, 16));
        bits.push_back(hex_bits(b, 16));
        break;
      }
      case DataType::float16: {
        const Float16 h = load(Float16{}, i);
        values.push_back(float_json(float16_to_float(h), h.bits, 0x7e00u, 4));
        bits.push_back(hex_bits(h.bits, 4));
        break;
      }
      case DataType::bfloat16: {
        const BFloat16 h = load(BFloat16{}, i);
        values.push_back(float_json(bfloat16_to_float(h), h.bits, 0x7fc0u, 4));
        bits.push_back(hex_bits(h.bits, 4));
        break;
      }
      case DataType::complex64: {
        float c[2];
        std::memcpy(c, raw + i * 8, 8);
        values.push_back({c[0], c[1]});
        break;
      }
      case DataType::complex128: {
        double c[2];
        std::memcpy(c, raw + i * 16, 16);
        values.push_back({c[0], c[1]});
        break;
      }
      case DataType::string: {
        const std::string& s = t.string_at(i);
        if (is_utf8(s)) {
          values.push_back(s);
        } else {
          std::string hex;
          for (unsigned char c : s) hex += hex_bits(c, 2).substr(2);
          values.push_back({{"bytes_hex", hex}});
        }
        break;
      }
      case DataType::bool_:
        values.push_back(t.int_at(i) != 0);
        break;
      case DataType::int64:
        values.push_back(std::to_string(t.int_at(i)));
        break;
      case DataType::uint64:
        values.push_back(std::to_string(load(uint64_t{}, i)));
        break;
      default:
        values.push_back(t.int_at(i));
        break;
    }
  }
  j["values"] = std::move(values);
  if (!bits.empty() || t.dtype() == DataType::float32 || t.dtype() == DataType::float64 ||
      t.dtype() == DataType::float16 || t.dtype() == DataType::bfloat16)
    j["bits"] = std::move(bits);
  return j;
}

ordered_json value_json(const Value& v) {
  if (v.is_tensor()) return tensor_json(v.tensor());
  if (v.is_sequence()) {
    const Sequence& s = v.sequence();
    ordered_json tensors = ordered_json::array();
    for (const Tensor& t : s.tensors()) tensors.push_back(tensor_json(t));
    return {{"sequence_of", std::string(dtype_name(s.elem_type()))}, {"tensors", tensors}};
  }
  const Optional& o = v.optional();
  return {{"optional", o.element ? value_json(*o.element) : ordered_json(nullptr)}};
}

bool strings_are_utf8(const Value& v) {
  if (v.is_tensor()) {
    const Tensor& t = v.tensor();
    if (t.dtype() != DataType::string) return true;
    for (size_t i = 0; i < t.element_count(); ++i)
      if (!is_utf8(t.string_at(i))) return false;
    return true;
  }
  if (v.is_sequence()) {
    for (const Tensor& t : v.sequence().tensors())
      if (!strings_are_utf8(Value(t))) return false;
    return true;
  }
  const Optional& o = v.optional();
  return !o.element || strings_are_utf8(*o.element);
}
namespace {

// Element types the JavaScript APIs of ONNX Runtime pass (onnxruntime-common's Tensor types).
bool javascript_type(int32_t elem) {
  switch (static_cast<DataType>(elem)) {
    case DataType::float32:
    case DataType::float64:
    case DataType::float16:
    case DataType::int8:
    case DataType::uint8:
    case DataType::int16:
    case DataType::uint16:
    case DataType::int32:
    case DataType::uint32:
    case DataType::int64:
    case DataType::uint64:
    case DataType::bool_:
    case DataType::string:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::vector<const onnx::ValueInfoProto*> graph_inputs(const onnx::GraphProto& g) {
  std::set<std::string> init;
  for (const auto& i : g.initializer()) init.insert(i.name());
  std::vector<const onnx::ValueInfoProto*> out;
  for (const auto& v : g.input())
    if (!init.count(v.name())) out.push_back(&v);
  return out;
}

int javascript_fit(const onnx::ModelProto& m) {
  int fit = 0;
  std::vector<const onnx::ValueInfoProto*> all = graph_inputs(m.graph());
  for (const auto& v : m.graph().output()) all.push_back(&v);
  for (const auto* v : all) {
    const auto& t = v->type();
    if (t.has_tensor_type()) {
      if (!javascript_type(t.tensor_type().elem_type())) return 2;
    } else if (t.has_sequence_type() && t.sequence_type().elem_type().has_tensor_type()) {
      if (!javascript_type(t.sequence_type().elem_type().tensor_type().elem_type())) return 2;
      fit = 1;
    } else {
      return 2;
    }
  }
  return fit;
}
namespace {

// The model takes or gives a value that is not a tensor.
bool has_sequence_io(const onnx::ModelProto& m) {
  for (const auto* v : graph_inputs(m.graph()))
    if (!v->type().has_tensor_type()) return true;
  for (const auto& v : m.graph().output())
    if (!v.type().has_tensor_type()) return true;
  return false;
}

// A tensor a JavaScript API can pass as it is.
bool passable(const Tensor& t) {
  if (!javascript_type(static_cast<int32_t>(t.dtype()))) return false;
  if (t.dtype() != DataType::string) return true;
  for (size_t i = 0; i < t.element_count(); ++i)
    if (!is_utf8(t.string_at(i))) return false;
  return true;
}

// The model with these inputs given default values: initializers of the same names (graph
// inputs with an initializer may be fed and are not constants, so the runtime treats them as
// inputs), for the values a JavaScript API cannot pass.
onnx::ModelProto with_defaults(onnx::ModelProto m,
                               const std::vector<std::pair<std::string, Tensor>>& defaults) {
  for (const auto& [name, t] : defaults)
    *m.mutable_graph()->add_initializer() = tensor_to_proto(t, TensorEncoding::raw_data, name);
  return m;
}

// What repro.js runs of one case: its feeds, its models (written in dir, their names starting
// with prefix) and what to expect of them. The case's own model, when it runs as it is, is
// model.onnx; a control's is written as <prefix>model.onnx.
ordered_json run_json(const onnx::ModelProto& model, const DataSet& ds, const Expected& e,
                      const ComparisonRule& rule, const fs::path& dir, const std::string& prefix) {
  ordered_json r;
  bool lift = false;
  std::string lift_error;
  if (has_sequence_io(model)) {
    try {
      (void)lift_sequences(model, {}, nullptr);
      lift = true;
    } catch (const std::exception& ex) {
      lift_error = std::string("the JavaScript API passes tensors only, and ") + ex.what();
    }
  }
  const auto inputs = graph_inputs(model.graph());
  ordered_json feeds = ordered_json::array();
  std::vector<size_t> input_lengths;
  std::vector<std::pair<std::string, Tensor>> defaults;
  const auto feed = [&](const std::string& name, const Tensor& t) {
    if (passable(t)) {
      feeds.push_back({{"name", name}, {"tensor", tensor_json(t)}});
    } else {
      feeds.push_back({{"name", name}, {"in_model", tensor_json(t)}});
      defaults.push_back({name, t});
    }
  };
  for (size_t k = 0; k < inputs.size() && k < ds.inputs.size(); ++k) {
    const Value& v = ds.inputs[k];
    if (v.is_sequence() && lift) {
      const auto tensors = v.sequence().tensors();
      input_lengths.push_back(tensors.size());
      for (size_t i = 0; i < tensors.size(); ++i)
        feed(lifted_name(inputs[k]->name(), "item", i), tensors[i]);
    } else if (v.is_tensor()) {
      input_lengths.push_back(0);
      feed(inputs[k]->name(), v.tensor());
    } else {
      input_lengths.push_back(0);
      feeds.push_back({{"name", inputs[k]->name()},
                       {"unsupported", "input '" + inputs[k]->name() + "' is a " + v.describe() +
                                           (lift_error.empty() ? "" : "; " + lift_error)}});
    }
  }
  r["feeds"] = feeds;
  const auto comparison = [](const ComparisonRule& c) {
    return ordered_json{{"rule", c.exact ? "exact" : "tolerance"},
                        {"rtol", c.exact ? 0.0 : c.tolerance.rtol},
                        {"atol", c.exact ? 0.0 : c.tolerance.atol}};
  };
  r["comparison"] = comparison(rule);
  const auto write_model = [&](const char* file, const onnx::ModelProto& m) {
    const std::string name = prefix + file;
    write_bytes(dir / name, model_bytes(with_defaults(m, defaults)));
    return name;
  };
  // The case's model as repro.js runs it when nothing is lifted.
  const auto plain = [&] {
    if (!prefix.empty()) return write_model("model.onnx", model);
    return defaults.empty() ? std::string("model.onnx") : write_model("repro.onnx", model);
  };
  ordered_json expect;
  if (e.rejected) {
    expect["kind"] = "rejected";
    expect["why"] = e.why;
    // Where the spec rejects it: a rejection of its inputs must come from running the model.
    expect["stage"] = e.at_load ? "load" : "run";
    if (lift) r["lifted"] = true;
    r["model"] =
        lift ? write_model("lengths.onnx", lift_sequences(model, input_lengths, nullptr)) : plain();
    r["expect"] = expect;
    return r;
  }
  if (!lift_error.empty()) r["unsupported"] = lift_error;
  expect["kind"] = "outputs";
  expect["summary"] = summarize_values(e.outputs);
  ordered_json lengths = ordered_json::array(), outputs = ordered_json::array();
  std::vector<size_t> output_lengths;
  const auto& outs = model.graph().output();
  for (int k = 0; k < outs.size() && static_cast<size_t>(k) < e.outputs.size(); ++k) {
    const Value& v = e.outputs[static_cast<size_t>(k)];
    const std::string& name = outs[k].name();
    const size_t first = outputs.size();
    if (v.is_sequence()) {
      const auto tensors = v.sequence().tensors();
      output_lengths.push_back(tensors.size());
      lengths.push_back(
          {{"name", lifted_name(name, "length", 0)}, {"output", name}, {"length", tensors.size()}});
      for (size_t i = 0; i < tensors.size(); ++i)
        outputs.push_back({{"name", lifted_name(name, "at", i)},
                           {"shown_as", name + "[" + std::to_string(i) + "]"},
                           {"tensor", tensor_json(tensors[i])}});
    } else if (v.is_tensor()) {
      outputs.push_back({{"name", name}, {"shown_as", name}, {"tensor", tensor_json(v.tensor())}});
    } else {
      continue;
    }
    // Where the outputs are compared differently, each says how (repro.js: o.comparison).
    if (!rule.outputs.empty())
      for (size_t i = first; i < outputs.size(); ++i)
        outputs[i]["comparison"] = comparison(rule.output(static_cast<size_t>(k)));
  }
  expect["lengths"] = lengths;
  expect["outputs"] = outputs;
  if (lift) {
    r["lifted"] = true;
    if (!lengths.empty())
      r["lengths_model"] =
          write_model("lengths.onnx", lift_sequences(model, input_lengths, nullptr));
    r["model"] = write_model("items.onnx", lift_sequences(model, input_lengths, &output_lengths));
  } else {
    r["model"] = plain();
  }
  r["expect"] = expect;
  return r;
}

}  // namespace

ordered_json repro_json(const onnx::ModelProto& model, const DataSet& ds, const Expected& e,
                        const ComparisonRule& rule, const std::string& package,
                        const std::string& version, int timeout_ms, const fs::path& dir) {
  ordered_json r;
  r["package"] = package;
  r["version"] = version;
  r["time_limit_ms"] = std::max(timeout_ms, 1000);
  r.update(run_json(model, ds, e, rule, dir, ""));
  return r;
}

ordered_json control_json(const Case& c, const onnx::ModelProto& model, const DataSet& ds,
                          const Expected& e, const fs::path& dir) {
  ordered_json r;
  r["case"] = c.id;
  r["data_set"] = ds.name;
  r.update(run_json(model, ds, e, c.comparison, dir, "control_"));
  return r;
}

}  // namespace seqconf::bundle
