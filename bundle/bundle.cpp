#include "bundle/bundle.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bundle/repro_js.h"
#include "cases/case.h"
#include "harness/compare.h"
#include "reference/error.h"
#include "reference/proto.h"
#include "reports/json_report.h"
#include "reports/output.h"
#include "reports/report.h"
#include "runtimes/isolated.h"
#include "runtimes/process.h"
#include "runtimes/reference_runtime.h"
#include "runtimes/registry.h"

namespace seqconf::bundle {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

// ---- what a report says ------------------------------------------------------------------

// What a bundle needs of a report, whichever kind it is.
struct Source {
  std::string kind;  // "conformance" | "fuzz"
  std::string runtime_name, runtime_version, runtime_path, runtime_spec;
  std::string os, hostname;
  int cpu_count = 0;
  std::vector<reports::Departure> departures;
  // What the report says of each case: its message, and for a conformance report its outcome.
  std::map<std::string, std::string> message;
  std::map<std::string, const reports::CaseRecord*> record;
  CaseSelection selection;
  bool strict = false;
  std::string oracle;      // a fuzz report: what gave the expected values
  reports::Report report;  // a conformance report (kept for the records above)
};

std::string text_of(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Source read_source(const BundleOptions& o) {
  std::ifstream in(o.report, std::ios::binary);
  if (!in) throw Error(ErrorCode::io_error, "cannot read " + o.report.string());
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw Error(ErrorCode::invalid_argument, o.report.string() + ": not JSON: " + e.what());
  }
  Source s;
  if (text_of(j, "kind") == "seqconf-fuzz") {
    s.kind = "fuzz";
    s.runtime_name = text_of(j, "runtime");
    s.runtime_version = text_of(j, "runtime_version");
    s.runtime_spec = text_of(j, "runtime_spec");
    if (s.runtime_spec.empty()) s.runtime_spec = s.runtime_name;
    s.oracle = text_of(j, "oracle");
    fs::path fixtures = o.fixtures;
    if (fixtures.empty()) fixtures = text_of(j, "out");
    if (fixtures.empty())
      throw Error(ErrorCode::invalid_argument,
                  o.report.string() +
                      ": the fuzz report names no fixtures folder; give the campaign's --out "
                      "with --fixtures");
    s.selection.source = "corpus";
    s.selection.corpus = fixtures;
    for (const auto& f : j.value("findings", nlohmann::json::array()))
      s.message["corpus/" + text_of(f, "id")] = text_of(f, "description");
    for (const auto& d : j.value("departures", nlohmann::json::array())) {
      reports::Departure dep;
      dep.id = text_of(d, "id");
      dep.op = text_of(d, "op");
      dep.what = text_of(d, "what");
      dep.title = text_of(d, "title");
      dep.spec = text_of(d, "spec");
      dep.smallest = text_of(d, "smallest");
      dep.rerun = text_of(d, "rerun");
      dep.listed = text_of(d, "listed");
      for (const auto& c : d.value("clauses", nlohmann::json::array()))
        dep.clauses.push_back(c.get<std::string>());
      for (const auto& c : d.value("cases", nlohmann::json::array()))
        dep.case_ids.push_back(c.get<std::string>());
      s.departures.push_back(std::move(dep));
    }
    return s;
  }
  if (!j.contains("schema_version") || !j.contains("cases"))
    throw Error(ErrorCode::invalid_argument,
                o.report.string() + ": neither a conformance report nor a fuzz report");
  s.kind = "conformance";
  s.report = reports::report_from_json(j);
  const reports::RunInfo& info = s.report.info;
  s.runtime_name = info.runtime_name;
  s.runtime_version = info.runtime_version;
  s.runtime_path = info.runtime_path;
  s.os = info.os;
  s.hostname = info.hostname;
  s.cpu_count = info.cpu_count;
  const auto opt = [&](const char* key) { return text_of(info.options, key); };
  s.runtime_spec = opt("runtime");
  if (s.runtime_spec.empty()) s.runtime_spec = s.runtime_name;
  s.selection.source = opt("source").empty() ? "all" : opt("source");
  s.selection.corpus = opt("corpus");
  s.selection.exported = opt("exported");
  s.selection.onnx_testdata = opt("onnx_testdata");
  if (const auto it = info.options.find("onnx_all_ops");
      it != info.options.end() && it->is_boolean() && it->get<bool>())
    s.selection.backend_models = BackendModels::implemented;
  if (const auto it = info.options.find("strict"); it != info.options.end() && it->is_boolean())
    s.strict = it->get<bool>();
  s.departures = s.report.departures;
  for (const auto& c : s.report.cases) {
    s.message[c.outcome.case_id] = c.outcome.message;
    s.record[c.outcome.case_id] = &c;
  }
  return s;
}

// ---- values as JSON ------------------------------------------------------------------------

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

// A tensor: {"type", "dims", "values"} and, for floating types, "bits" (each element's bits in
// hex, what repro.js builds its inputs from and compares exact outputs with).
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

// Every string of the value is valid UTF-8 (JavaScript can pass it).
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

// ---- choosing the case ----------------------------------------------------------------------

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

std::vector<const onnx::ValueInfoProto*> graph_inputs(const onnx::GraphProto& g) {
  std::set<std::string> init;
  for (const auto& i : g.initializer()) init.insert(i.name());
  std::vector<const onnx::ValueInfoProto*> out;
  for (const auto& v : g.input())
    if (!init.count(v.name())) out.push_back(&v);
  return out;
}

// How well a JavaScript API can run a model: 0 as it is, 1 with its sequences lifted to tensors,
// 2 not at all (an optional, or an element type it cannot pass).
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

// ---- the case's expectation and the runtime's result ---------------------------------------

struct Expected {
  bool rejected = false;
  std::string why;  // rejected: the error code the reference gives
  std::vector<Value> outputs;
};

std::vector<Expected> expectations_of(const Case& c, const LoadedCase& lc, bool strict) {
  std::vector<Expected> out;
  if (c.exported()) {
    // An exported model's outputs are the framework's; the spec's are the reference's.
    ReferenceRuntime reference(strict ? Policy::strict : Policy::lenient);
    RunError error;
    auto prepared = reference.prepare(c.dir / "model.onnx", lc.model, &error);
    for (const DataSet& ds : lc.data_sets) {
      Expected e;
      if (!prepared) {
        e.rejected = true;
        e.why = error.code.empty() ? error.message : error.code;
      } else {
        RunResult r = prepared->run(ds.inputs);
        if (r.ok) {
          e.outputs = std::move(r.outputs);
        } else {
          e.rejected = true;
          e.why = r.error.code.empty() ? r.error.message : r.error.code;
        }
      }
      out.push_back(std::move(e));
    }
    return out;
  }
  const auto code = c.expected_error_for(strict);
  for (const DataSet& ds : lc.data_sets) {
    Expected e;
    if (code) {
      e.rejected = true;
      e.why = *code;
    } else {
      e.outputs = ds.outputs;
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::string error_text(const RunError& e) {
  return std::string(run_error_kind_name(e.kind)) + ": " + e.message;
}

// Whether a result departs from the expectation, and how (one line).
std::optional<std::string> departs(const Expected& e, const RunResult& r,
                                   const ComparisonRule& rule) {
  if (e.rejected) {
    if (r.ok) return "accepted: it ran and gave " + summarize_values(r.outputs);
    // A must-reject case is rejected with an error, never by a crash or a hang.
    if (r.error.kind == RunError::Kind::crash || r.error.kind == RunError::Kind::timeout)
      return error_text(r.error);
    return std::nullopt;
  }
  if (!r.ok) return error_text(r.error);
  const Comparison c = compare_outputs(e.outputs, r.outputs, rule);
  if (c.ok) return std::nullopt;
  return c.message;
}

// ---- writing --------------------------------------------------------------------------------

std::string folder_name(const std::string& id) {
  std::string s;
  for (char c : id)
    s += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ||
          c == '+' || c == '=' || c == ',')
             ? c
             : '_';
  if (s.size() > 150) s = s.substr(0, 150);
  if (s.empty() || s[0] == '.') s = "_" + s;
  return s;
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  reports::write_file_atomic(p, bytes);
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(ErrorCode::io_error, "cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string model_bytes(const onnx::ModelProto& m) {
  std::string s;
  if (!m.SerializeToString(&s)) throw Error(ErrorCode::io_error, "cannot serialize a model");
  return s;
}

// What repro.js runs: the feeds, the models and what to expect of them (values.json "repro").
bool has_sequence_io(const onnx::ModelProto& m) {
  for (const auto* v : graph_inputs(m.graph()))
    if (!v->type().has_tensor_type()) return true;
  for (const auto& v : m.graph().output())
    if (!v.type().has_tensor_type()) return true;
  return false;
}

// What repro.js runs: the feeds, the models and what to expect of them (values.json "repro").
// A model that takes or gives sequences runs with them lifted to tensors (lift_sequences): each
// sequence input given as its tensors, each sequence output read as its length (lengths.onnx),
// then as its tensors (items.onnx).
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

// What repro.js runs: the feeds, the models and what to expect of them (values.json "repro").
// A model that takes or gives sequences runs with them lifted to tensors (lift_sequences): each
// sequence input given as its tensors, each sequence output read as its length (lengths.onnx),
// then as its tensors (items.onnx). Input tensors the JavaScript API cannot pass (strings that
// are not UTF-8, complex or bfloat16 tensors) are in those models as the inputs' defaults.
ordered_json repro_json(const onnx::ModelProto& model, const DataSet& ds, const Expected& e,
                        const ComparisonRule& rule, const std::string& package,
                        const std::string& version, int timeout_ms, const fs::path& dir) {
  ordered_json r;
  r["package"] = package;
  r["version"] = version;
  r["time_limit_ms"] = std::max(timeout_ms, 1000);
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
  r["comparison"] = {{"rule", rule.exact ? "exact" : "tolerance"},
                     {"rtol", rule.exact ? 0.0 : rule.tolerance.rtol},
                     {"atol", rule.exact ? 0.0 : rule.tolerance.atol}};
  const auto write_model = [&](const char* file, const onnx::ModelProto& m) {
    write_bytes(dir / file, model_bytes(with_defaults(m, defaults)));
    return std::string(file);
  };
  // The case's model as repro.js runs it when nothing is lifted.
  const auto plain = [&] {
    return defaults.empty() ? std::string("model.onnx") : write_model("repro.onnx", model);
  };
  ordered_json expect;
  if (e.rejected) {
    expect["kind"] = "rejected";
    expect["why"] = e.why;
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
    }
  }
  expect["lengths"] = lengths;
  expect["outputs"] = outputs;
  if (lift) {
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

std::string quote_block(const std::string& s) {
  std::string out = "> ";
  for (char c : s) {
    out += c;
    if (c == '\n') out += "> ";
  }
  return out;
}

std::string code_span(const std::string& s) {
  return s.find('`') == std::string::npos ? "`" + s + "`" : "``" + s + "``";
}

// One line of a message, at most n characters.
std::string clipped(std::string s, size_t n = 600) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > n) s = s.substr(0, n) + " ...";
  return s;
}

struct Written {
  const reports::Departure* departure;
  const Case* c;
  fs::path dir;
  std::string data_set;  // the case's data set bundled
  std::string what_it_did;
  bool rerun = false, reproduced = false;
  int fit = 2;
  std::string package;
  Expected expected;
  int time_limit_s = 60;
  std::optional<MemoryError> memory_error;  // what memcheck reported of the case, if it ran so
};

std::string readme(const Source& s, const Written& w) {
  const reports::Departure& d = *w.departure;
  std::ostringstream md;
  const std::string runtime =
      s.runtime_name + (s.runtime_version.empty() ? "" : " " + s.runtime_version);
  md << "# " << d.op << ": " << d.what << " (" << runtime << ")\n\n";
  md << "**What happens.** " << w.what_it_did << "\n\n";
  md << "- case: " << code_span(w.c->id) << " (" << w.data_set << ")\n";
  if (!d.clauses.empty()) {
    md << "- spec clause" << (d.clauses.size() > 1 ? "s" : "") << ": ";
    for (size_t k = 0; k < d.clauses.size(); ++k) md << (k ? ", " : "") << code_span(d.clauses[k]);
    md << "\n";
  }
  md << "- expected: "
     << (w.expected.rejected
             ? "the runtime rejects the model or its inputs (the reference: " + w.expected.why + ")"
             : summarize_values(w.expected.outputs))
     << "\n\n";
  if (!d.spec.empty())
    md << "**The specification says** (ONNX operator " << d.op << "):\n\n"
       << quote_block(d.spec) << "\n\n";
  // The layer: the bundled case's attribution, else its departure's smallest case's.
  const auto outcome_of = [&](const std::string& id) -> const Outcome* {
    const auto it = s.record.find(id);
    return it == s.record.end() ? nullptr : &it->second->outcome;
  };
  const Outcome* own = outcome_of(w.c->id);
  const Outcome* smallest = outcome_of(d.smallest);
  if (own && own->attribution)
    md << "**Layer.** " << own->attribution->layer << ": " << own->attribution->why << "\n\n";
  else if (smallest && smallest->attribution)
    md << "**Layer** (of its smallest case " << code_span(d.smallest) << "). "
       << smallest->attribution->layer << ": " << smallest->attribution->why << "\n\n";
  if (w.memory_error) {
    md << "**Memory error** (valgrind memcheck, `seqconf run --memcheck`): "
       << code_span(w.memory_error->kind) << ", " << w.memory_error->description << "\n\n";
    for (const auto& f : w.memory_error->frames) md << "    " << f << "\n";
    md << "\n`repro.js` checks the outputs only; the error shows when the case runs under "
          "memcheck (the seqconf command below, with `--memcheck`).\n\n";
  }
  md << "## Reproduce\n\n";
  if (!w.package.empty()) {
    md << "```sh\nnpm install " << w.package << "@" << s.runtime_version
       << "\nnode repro.js\n```\n\n";
    md << "`repro.js` loads the model with " << w.package
       << ", runs it on the inputs in `values.json`, prints what the specification gives against "
          "what the runtime gives, and exits 1 while the departure holds, 0 once it is gone (2 "
          "when "
          "it cannot check: the package is missing). It runs the model in a child process, so a "
          "crash is shown as one and a hang is stopped after "
       << w.time_limit_s << " s; it writes no file.\n\n";
    if (w.fit == 1)
      md << "The model takes or gives sequences, which the JavaScript API cannot pass: "
            "`repro.js` runs the same model with each sequence input given as its tensors "
            "(SequenceConstruct) and each sequence output read as its length (SequenceLength, "
            "`lengths.onnx`) and its tensors (SequenceAt, `items.onnx`). `model.onnx` is the "
            "case's own model.\n\n";
    if (w.fit == 2)
      md << "The case uses a value the JavaScript API cannot pass (a complex or bfloat16 tensor, "
            "an optional, or a string that is not UTF-8): `repro.js` shows the departure when the "
            "runtime cannot load the model, and says it cannot check (exit 2) otherwise.\n\n";
  } else {
    md << "This runtime has no JavaScript API that seqconf knows; the case is in ONNX's backend "
          "test layout (`model.onnx`, `test_data_set_0/`), which ONNX's test runners read.\n\n";
  }
  if (s.runtime_spec.rfind("process=", 0) == 0)
    md << "The runtime is a process: its adapter command line is\n\n```sh\n"
       << s.runtime_spec.substr(8) << "\n```\n\n";
  md << "With seqconf:\n\n```sh\n"
     << (d.rerun.empty() ? "(no command recorded)" : d.rerun) << "\n```\n\n";
  md << "## Runtime\n\n";
  md << "- " << runtime << "\n";
  if (!s.runtime_path.empty())
    md << "- library: " << code_span(fs::path(s.runtime_path).filename().string()) << "\n";
  if (!s.os.empty()) md << "- platform: " << s.os << ", " << s.cpu_count << " CPUs\n";
  if (s.kind == "fuzz") md << "- found by differential fuzzing against " << s.oracle << "\n";
  md << "\n## Other cases of this departure\n\n";
  md << d.case_ids.size() << " case" << (d.case_ids.size() == 1 ? "" : "s");
  if (!d.dtypes.empty()) {
    md << "; element types ";
    for (size_t k = 0; k < d.dtypes.size(); ++k) md << (k ? ", " : "") << d.dtypes[k];
  }
  if (!d.contexts.empty()) {
    md << "; graph contexts ";
    for (size_t k = 0; k < d.contexts.size(); ++k) md << (k ? ", " : "") << d.contexts[k];
  }
  md << ".\n\n";
  size_t shown = 0;
  for (const auto& id : d.case_ids) {
    if (id == w.c->id) continue;
    if (shown++ == 5) {
      md << "- ... and " << d.case_ids.size() - 6 << " more\n";
      break;
    }
    md << "- " << code_span(id) << "\n";
  }
  md << "\n## Files\n\n"
        "- `lengths.onnx`, `items.onnx`, `repro.onnx` (when present): the model as `repro.js` "
        "runs it, its sequences lifted to tensors and the inputs the JavaScript API cannot pass "
        "given as the inputs' default values (initializers)\n"
        "- `model.onnx`, `test_data_set_0/input_K.pb`, `output_K.pb`: the case (outputs as the "
        "specification gives them)\n"
        "- `actual/`: what the runtime gave when this folder was written\n"
        "- `values.json`: the same values, readable (`inputs`, `expected`, `actual`), and what "
        "`repro.js` runs (`repro`)\n";
  return md.str();
}

}  // namespace

std::string javascript_package(const std::string& runtime_name) {
  if (runtime_name == "onnxruntime") return "onnxruntime-node";
  if (runtime_name == "onnxruntime-web") return "onnxruntime-web";
  return {};
}

std::vector<Bundled> write_bundles(const BundleOptions& o, std::ostream& log) {
  const Source s = read_source(o);
  std::vector<std::string> notes;
  const std::vector<Case> cases = select_cases(s.selection, &notes);
  std::map<std::string, const Case*> by_id;
  for (const Case& c : cases) by_id[c.id] = &c;

  std::unique_ptr<Runtime> runtime;
  std::string no_rerun;
  const std::string spec = o.runtime.empty() ? s.runtime_spec : o.runtime;
  if (spec == "none") {
    no_rerun = "not rerun (--runtime none)";
  } else {
    try {
      RuntimeOptions ro;
      ro.timeout_ms = o.timeout_ms;
      IsolationOptions io;
      io.timeout_ms = o.timeout_ms;
      runtime = isolate_unless_told(make_runtime(spec, ro), std::nullopt, io);
    } catch (const std::exception& e) {
      no_rerun = "not rerun: " + std::string(e.what());
    }
  }
  // A departure found under valgrind memcheck runs again under it (made on first use).
  std::unique_ptr<Runtime> memcheck_runtime;
  const auto under_memcheck = [&]() -> Runtime* {
    if (!memcheck_runtime && no_rerun.empty()) {
      RuntimeOptions ro;
      ro.timeout_ms = o.timeout_ms;
      IsolationOptions io;
      io.timeout_ms = o.timeout_ms;
      io.memcheck = true;
      memcheck_runtime = make_isolated_runtime(make_runtime(spec, ro), io);
    }
    return memcheck_runtime.get();
  };
  const std::string package = javascript_package(s.runtime_name);

  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) throw Error(ErrorCode::io_error, "cannot create " + o.out.string() + ": " + ec.message());

  std::vector<Bundled> result;
  for (const reports::Departure& d : s.departures) {
    if (!o.departures.empty() &&
        std::none_of(o.departures.begin(), o.departures.end(),
                     [&](const std::string& g) { return id_matches(g, d.id); }))
      continue;
    if (!d.run) continue;
    Bundled b;
    b.departure = d.id;
    b.folder = o.out / folder_name(d.id);

    // The candidates: the departure's cases a JavaScript API runs best, then the shortest ids.
    std::vector<std::pair<std::tuple<int, size_t, std::string>, const Case*>> ranked;
    std::vector<std::string> ids = d.case_ids;
    std::stable_sort(ids.begin(), ids.end(), [](const auto& a, const auto& b) {
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    if (ids.size() > 200) ids.resize(200);
    for (const auto& id : ids) {
      const auto it = by_id.find(id);
      if (it == by_id.end() || !it->second->load_error.empty()) continue;
      int fit = 2;
      if (!package.empty()) {
        try {
          fit = javascript_fit(read_model(it->second->dir / "model.onnx"));
        } catch (const std::exception&) {
          continue;
        }
      }
      ranked.push_back({{package.empty() ? 0 : fit, id.size(), id}, it->second});
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    if (ranked.empty()) {
      b.note = "none of its cases could be found or loaded (is the corpus of the report here?)";
      log << "skipped " << d.id << ": " << b.note << "\n";
      result.push_back(b);
      continue;
    }

    // The first candidate whose strings JavaScript can pass (at most a few tried).
    const Case* chosen = nullptr;
    LoadedCase lc;
    int fit = 2;
    for (size_t k = 0; k < ranked.size() && k < 8; ++k) {
      try {
        LoadedCase l = load_case(*ranked[k].second);
        bool utf8 = true;
        for (const auto& ds : l.data_sets)
          for (const auto& v : ds.inputs) utf8 = utf8 && strings_are_utf8(v);
        if (!chosen || (utf8 && fit == 2 && std::get<0>(ranked[k].first) < 2) || k == 0) {
          chosen = ranked[k].second;
          lc = std::move(l);
          fit = package.empty() ? 2 : (utf8 ? std::get<0>(ranked[k].first) : 2);
        }
        if (fit < 2 || package.empty()) break;
      } catch (const std::exception&) {
        continue;
      }
    }
    if (!chosen) {
      b.note = "its cases could not be loaded";
      result.push_back(b);
      continue;
    }
    b.case_id = chosen->id;
    const std::vector<Expected> expected = expectations_of(*chosen, lc, s.strict);

    // The runtime again: the first data set on which it departs.
    size_t pick = 0;
    std::vector<std::optional<RunResult>> results(lc.data_sets.size());
    std::string what_it_did;
    // What memcheck reported of the case in the report's run, if it ran under it.
    std::optional<MemoryError> memory_error;
    if (const auto it = s.record.find(chosen->id); it != s.record.end())
      memory_error = it->second->outcome.memory_error;
    Runtime* rerun_on = runtime.get();
    if (memory_error && runtime) {
      try {
        rerun_on = under_memcheck();
      } catch (const std::exception& e) {
        rerun_on = nullptr;
        no_rerun = "not rerun under memcheck: " + std::string(e.what());
      }
    }
    if (rerun_on) {
      b.rerun = true;
      RunError prep_error;
      auto prepared = rerun_on->prepare(chosen->dir / "model.onnx", lc.model, &prep_error);
      bool found = false;
      for (size_t k = 0; k < lc.data_sets.size() && !found; ++k) {
        RunResult r;
        if (prepared) {
          r = prepared->run(lc.data_sets[k].inputs);
        } else {
          r.ok = false;
          r.error = prep_error;
        }
        if (memory_error) {
          if (auto again = take_memory_error(*rerun_on)) {
            memory_error = again;
            pick = k;
            found = true;
            what_it_did = "memcheck: " + again->kind + ": " + again->description;
            results[k] = std::move(r);
            break;
          }
        }
        if (auto why = departs(expected[k], r, chosen->comparison)) {
          pick = k;
          found = true;
          what_it_did = *why;
        }
        results[k] = std::move(r);
        if (!prepared) {
          for (size_t j = k + 1; j < lc.data_sets.size(); ++j) results[j] = results[k];
          break;
        }
      }
      b.reproduced = found;
      if (!found) b.note = "the case did not depart when run again";
    } else {
      b.note = no_rerun;
    }
    if (what_it_did.empty()) {
      const auto it = s.message.find(chosen->id);
      what_it_did = it != s.message.end() && !it->second.empty() ? it->second : d.what;
    }

    fs::remove_all(b.folder, ec);
    fs::create_directories(b.folder / "test_data_set_0", ec);
    fs::create_directories(b.folder / "actual", ec);
    if (ec) throw Error(ErrorCode::io_error, "cannot create " + b.folder.string());
    const DataSet& ds = lc.data_sets.at(pick);
    const Expected& e = expected.at(pick);
    write_bytes(b.folder / "model.onnx", read_bytes(chosen->dir / "model.onnx"));
    const auto inputs = graph_inputs(lc.model.graph());
    for (size_t k = 0; k < ds.inputs.size(); ++k)
      write_bytes(b.folder / "test_data_set_0" / ("input_" + std::to_string(k) + ".pb"),
                  read_bytes(chosen->dir / ds.name / ("input_" + std::to_string(k) + ".pb")));
    for (size_t k = 0; k < e.outputs.size(); ++k)
      write_bytes(b.folder / "test_data_set_0" / ("output_" + std::to_string(k) + ".pb"),
                  value_to_bytes(e.outputs[k], TensorEncoding::raw_data,
                                 lc.model.graph().output(static_cast<int>(k)).name()));

    ordered_json values;
    values["departure"] = d.id;
    values["case"] = chosen->id;
    values["data_set"] = ds.name;
    if (memory_error)
      values["memory_error"] = {{"kind", memory_error->kind},
                                {"description", memory_error->description},
                                {"frames", memory_error->frames}};
    ordered_json in = ordered_json::array();
    for (size_t k = 0; k < ds.inputs.size(); ++k)
      in.push_back({{"name", k < inputs.size() ? inputs[k]->name() : std::string()},
                    {"value", value_json(ds.inputs[k])}});
    values["inputs"] = in;
    if (e.rejected) {
      values["expected"] = {{"rejected", e.why}};
    } else {
      ordered_json outs = ordered_json::array();
      for (size_t k = 0; k < e.outputs.size(); ++k)
        outs.push_back({{"name", lc.model.graph().output(static_cast<int>(k)).name()},
                        {"value", value_json(e.outputs[k])}});
      values["expected"] = {{"outputs", outs}};
    }
    if (results[pick]) {
      const RunResult& r = *results[pick];
      if (r.ok) {
        ordered_json outs = ordered_json::array();
        for (size_t k = 0; k < r.outputs.size(); ++k) {
          const std::string name = static_cast<int>(k) < lc.model.graph().output_size()
                                       ? lc.model.graph().output(static_cast<int>(k)).name()
                                       : std::string();
          outs.push_back({{"name", name}, {"value", value_json(r.outputs[k])}});
          write_bytes(b.folder / "actual" / ("output_" + std::to_string(k) + ".pb"),
                      value_to_bytes(r.outputs[k], TensorEncoding::raw_data, name));
        }
        values["actual"] = {{"outputs", outs}};
      } else {
        values["actual"] = {{"error",
                             {{"kind", std::string(run_error_kind_name(r.error.kind))},
                              {"message", r.error.message}}}};
        write_bytes(b.folder / "actual" / "error.txt", error_text(r.error) + "\n");
      }
    } else {
      values["actual"] = {{"from_report", what_it_did}};
      write_bytes(b.folder / "actual" / "error.txt", "from the report: " + what_it_did + "\n");
    }
    if (!package.empty()) {
      values["repro"] = repro_json(lc.model, ds, e, chosen->comparison, package, s.runtime_version,
                                   o.timeout_ms, b.folder);
      write_bytes(b.folder / "repro.js", std::string(kReproJs));
      fs::permissions(b.folder / "repro.js",
                      fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                      fs::perm_options::add, ec);
      b.repro_js = true;
    }
    write_bytes(b.folder / "values.json",
                values.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");

    Written w{&d,
              chosen,
              b.folder,
              ds.name,
              clipped(what_it_did),
              b.rerun,
              b.reproduced,
              fit,
              package,
              e,
              std::max(o.timeout_ms, 1000) / 1000,
              memory_error};
    write_bytes(b.folder / "README.md", readme(s, w));
    log << (b.reproduced ? "wrote "
                         : "wrote (" + (b.note.empty() ? std::string("?") : b.note) + ") ")
        << b.folder.string() << "  <- " << chosen->id << "\n";
    result.push_back(std::move(b));
  }
  for (const auto& n : notes) log << "note: " << n << "\n";
  return result;
}

}  // namespace seqconf::bundle
