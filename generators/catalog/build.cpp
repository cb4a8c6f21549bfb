// Shared case-building code of the catalog: keyed values, IDs and folders, models, files,
// static checks.
#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "generators/catalog/catalog.h"
#include "reference/proto.h"

namespace seqconf::catalog {

namespace {

// Keys stay small so every integer type holds the value of every key.
constexpr int kMaxKey = 127;

// The value of key k for type D. Distinct keys give distinct values (bool: a fixed pattern).
// Signs alternate, and the wide integer types use their high bytes, so a runtime that narrows
// or drops the sign is caught.
template <DataType D>
storage_t<D> value_of(int k) {
  using T = storage_t<D>;
  const bool odd = k % 2 != 0;
  if constexpr (D == DataType::string) {
    if (k == 7) return std::string();
    if (k % 5 == 3) return "\xc3\xa9" + std::to_string(k);  // "é<k>": non-ASCII UTF-8
    return "s" + std::to_string(k);
  } else if constexpr (D == DataType::bool_) {
    return static_cast<T>(k % 3 == 1 || k % 5 == 0);
  } else if constexpr (D == DataType::float16) {
    return float_to_float16(odd ? -(static_cast<float>(k) + 0.5f) : static_cast<float>(k) + 0.5f);
  } else if constexpr (D == DataType::float32) {
    return odd ? -(static_cast<float>(k) + 0.25f) : static_cast<float>(k) + 0.25f;
  } else if constexpr (D == DataType::float64) {
    return odd ? -(k + 0.1) : k + 0.1;
  } else if constexpr (D == DataType::complex64) {
    return T(static_cast<float>(k) + 0.25f, -(static_cast<float>(k) + 0.5f));
  } else if constexpr (D == DataType::complex128) {
    return T(k + 0.1, -k);
  } else if constexpr (D == DataType::int64) {
    const int64_t v = (int64_t{k} << 33) + k;
    return odd ? -v : v;
  } else if constexpr (D == DataType::uint64) {
    return (uint64_t(k) << 40) + uint64_t(k);
  } else if constexpr (D == DataType::uint32) {
    return (uint32_t(k) << 20) + uint32_t(k);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(odd ? -k : k);
  } else {
    return static_cast<T>(k);
  }
}

size_t count_of(const Shape& s) {
  size_t n = 1;
  for (int64_t d : s) n *= static_cast<size_t>(d);
  return n;
}

std::string snake_case(const std::string& op) {
  std::string s;
  for (char ch : op) {
    if (std::isupper(static_cast<unsigned char>(ch))) {
      if (!s.empty()) s += '_';
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else {
      s += ch;
    }
  }
  return s;
}

void set_tensor_shape(onnx::TypeProto_Tensor* t, const Shape& shape) {
  auto* sp = t->mutable_shape();
  for (int64_t d : shape) sp->add_dim()->set_dim_value(d);
}

std::string serialize_deterministic(const google::protobuf::MessageLite& msg) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream sos(&out);
    google::protobuf::io::CodedOutputStream cos(&sos);
    cos.SetSerializationDeterministic(true);
    msg.SerializeToCodedStream(&cos);  // computes the sizes first
  }
  return out;
}

std::string type_string(const onnx::TypeProto& t) {
  auto tensor = [](const onnx::TypeProto_Tensor& tt) {
    std::string s = "tensor(" + dtype_name_any(tt.elem_type()) + ")";
    if (!tt.has_shape()) return s;
    s += "[";
    for (int i = 0; i < tt.shape().dim_size(); ++i) {
      const auto& d = tt.shape().dim(i);
      s += (i ? "," : "") + (d.has_dim_value()   ? std::to_string(d.dim_value())
                             : d.has_dim_param() ? d.dim_param()
                                                 : "?");
    }
    return s + "]";
  };
  if (t.has_tensor_type()) return tensor(t.tensor_type());
  if (t.has_sequence_type()) {
    const auto& e = t.sequence_type().elem_type();
    return "seq(" + (e.has_tensor_type() ? tensor(e.tensor_type()) : std::string("?")) + ")";
  }
  return "(no type)";
}

// Shape agreement of an inferred tensor type with an actual tensor; empty when they agree.
std::string tensor_disagreement(const onnx::TypeProto_Tensor& inferred, const Tensor& actual) {
  if (inferred.elem_type() != 0 && inferred.elem_type() != static_cast<int32_t>(actual.dtype()))
    return "element type " + dtype_name_any(inferred.elem_type()) + ", actual " +
           std::string(dtype_name(actual.dtype()));
  if (!inferred.has_shape()) return {};
  const auto& sp = inferred.shape();
  if (static_cast<size_t>(sp.dim_size()) != actual.rank())
    return "rank " + std::to_string(sp.dim_size()) + ", actual " + actual.describe();
  for (int i = 0; i < sp.dim_size(); ++i)
    if (sp.dim(i).has_dim_value() && sp.dim(i).dim_value() != actual.shape()[i])
      return "dimension " + std::to_string(i) + " = " + std::to_string(sp.dim(i).dim_value()) +
             ", actual " + actual.describe();
  return {};
}

}  // namespace

KeyTensor key_tensor(Shape shape, int first_key) {
  KeyTensor t{std::move(shape), {}};
  const size_t n = count_of(t.shape);
  for (size_t i = 0; i < n; ++i) t.keys.push_back(first_key + static_cast<int>(i));
  return t;
}

Tensor materialize(DataType dtype, const KeyTensor& t) {
  if (t.keys.size() != count_of(t.shape))
    throw std::logic_error("catalog: key tensor with " + std::to_string(t.keys.size()) +
                           " keys for shape " + shape_to_string(t.shape));
  return visit_dtype(dtype, [&](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    std::vector<storage_t<D>> v;
    for (int k : t.keys) {
      if (k < 0 || k > kMaxKey) throw std::logic_error("catalog: key out of range");
      v.push_back(value_of<D>(k));
    }
    return Tensor::from_values<D>(t.shape, std::move(v));
  });
}

Sequence materialize_sequence(DataType dtype, const std::vector<KeyTensor>& tensors) {
  std::vector<Tensor> v;
  for (const auto& t : tensors) v.push_back(materialize(dtype, t));
  return Sequence(dtype, std::move(v));
}

KeyTensor chunk_along(const KeyTensor& input, size_t axis, int64_t start, int64_t length) {
  // Row-major: element (o, j, i) with o over the axes before `axis`, j along it, i after it.
  size_t outer = 1, inner = 1;
  for (size_t a = 0; a < axis; ++a) outer *= static_cast<size_t>(input.shape[a]);
  for (size_t a = axis + 1; a < input.shape.size(); ++a)
    inner *= static_cast<size_t>(input.shape[a]);
  const auto d = static_cast<size_t>(input.shape[axis]);
  KeyTensor out{input.shape, {}};
  out.shape[axis] = length;
  for (size_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < length; ++j)
      for (size_t i = 0; i < inner; ++i)
        out.keys.push_back(input.keys[(o * d + static_cast<size_t>(start + j)) * inner + i]);
  return out;
}

Tensor int_tensor(DataType dtype, Shape shape, const std::vector<int64_t>& values) {
  if (dtype == DataType::int32) {
    std::vector<int32_t> v(values.begin(), values.end());
    return Tensor::from_values<DataType::int32>(std::move(shape), std::move(v));
  }
  if (dtype == DataType::int16) {
    std::vector<int16_t> v(values.begin(), values.end());
    return Tensor::from_values<DataType::int16>(std::move(shape), std::move(v));
  }
  if (dtype == DataType::float32) {
    std::vector<float> v(values.begin(), values.end());
    return Tensor::from_values<DataType::float32>(std::move(shape), std::move(v));
  }
  return Tensor::from_values<DataType::int64>(std::move(shape), values);
}

Tensor int_scalar(DataType dtype, int64_t v) { return int_tensor(dtype, {}, {v}); }

std::string folder_for_id(const std::string& id) {
  const size_t slash = id.find('/');
  std::string f = "test_" + snake_case(id.substr(0, slash));
  for (size_t i = slash; i != std::string::npos && i < id.size(); ++i) {
    const char ch = id[i];
    if (ch == '/')
      f += "__";
    else if (ch == '=')
      f += '-';
    else if (ch == '-')
      f += 'm';
    else if (ch == ',')
      f += 'x';
    else if (ch == '+')
      f += 'p';
    else
      f += ch;
  }
  return f;
}

std::string CatalogCase::id() const {
  std::string s = op;
  for (const auto& p : params) s += "/" + p.key + "=" + p.value;
  return s;
}

std::string CatalogCase::folder() const { return folder_for_id(id()); }

onnx::TypeProto tensor_type(DataType d) {
  onnx::TypeProto t;
  t.mutable_tensor_type()->set_elem_type(static_cast<int32_t>(d));
  return t;
}

onnx::TypeProto sequence_type(DataType d) {
  onnx::TypeProto t;
  t.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(
      static_cast<int32_t>(d));
  return t;
}

onnx::TypeProto declared_type(const Value& v) {
  if (v.is_tensor()) {
    onnx::TypeProto t = tensor_type(v.tensor().dtype());
    set_tensor_shape(t.mutable_tensor_type(), v.tensor().shape());
    return t;
  }
  const Sequence& s = v.sequence();
  onnx::TypeProto t = sequence_type(s.elem_type());
  if (s.empty()) return t;
  const Shape& first = s.at(0).shape();
  for (const auto& x : s.tensors())
    if (x.rank() != first.size()) return t;  // ranks differ: no shape
  auto* sp = t.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->mutable_shape();
  for (size_t i = 0; i < first.size(); ++i) {
    bool same = true;
    for (const auto& x : s.tensors()) same = same && x.shape()[i] == first[i];
    auto* dim = sp->add_dim();
    if (same) dim->set_dim_value(first[i]);  // else: a dimension without value
  }
  return t;
}

onnx::ModelProto build_model(const CatalogCase& c) {
  onnx::ModelProto m;
  m.set_ir_version(c.opset >= 17 ? 8 : 6);
  m.set_producer_name("seqconf");
  auto* opset = m.add_opset_import();
  opset->set_domain("");
  opset->set_version(c.opset);
  auto* g = m.mutable_graph();
  g->set_name(c.folder());
  *g->add_node() = c.node;
  for (const auto& in : c.inputs) {
    auto* vi = g->add_input();
    vi->set_name(in.name);
    *vi->mutable_type() = declared_type(in.value);
  }
  for (size_t i = 0; i < c.output_names.size(); ++i) {
    auto* vi = g->add_output();
    vi->set_name(c.output_names[i]);
    // Tensor outputs of valid cases declare their exact shape, as ONNX's backend tests do
    // (check_model requires a shape on tensor types); sequences declare the element type only.
    if (i < c.outputs.size() && c.outputs[i].is_tensor())
      *vi->mutable_type() = declared_type(c.outputs[i]);
    else
      *vi->mutable_type() = c.output_types[i];
  }
  return m;
}

nlohmann::ordered_json case_json(const CatalogCase& c) {
  using json = nlohmann::ordered_json;
  auto expectation = [](const std::optional<ErrorCode>& e) {
    return e ? json{{"kind", "error"}, {"code", std::string(error_code_name(*e))}}
             : json{{"kind", "outputs"}};
  };
  json j;
  j["id"] = c.id();
  j["op"] = c.op;
  j["opset"] = c.opset;
  j["dtype"] = std::string(dtype_name(c.dtype));
  j["expectation"] = expectation(c.error);
  if (c.ambiguous) j["strict_expectation"] = expectation(c.strict_error);
  j["tolerance"] = json{{"rtol", 1e-3}, {"atol", 1e-7}};
  j["spec"] = c.spec;
  j["clarity"] = c.ambiguous ? "ambiguous" : "normative";
  if (c.ambiguous) j["ambiguity"] = c.ambiguity;
  // Whether ONNX's static checks already see the problem: a must-reject case that fails them
  // may be rejected when the model is loaded rather than when it runs.
  const StaticResult s = static_check(c);
  j["static"] = json{{"check_model", s.checker_ok ? "pass" : "fail"},
                     {"shape_inference", s.inference_ok ? "pass" : "fail"}};
  json params = json::object();
  for (const auto& p : c.params) params[p.key] = p.value;
  for (const auto& [k, v] : c.details.items()) params[k] = v;
  j["params"] = params;
  json inputs = json::array();
  for (const auto& in : c.inputs) inputs.push_back(in.name);
  j["inputs"] = inputs;
  j["outputs"] = c.output_names;
  return j;
}

std::map<std::string, std::string> case_files(const CatalogCase& c) {
  std::map<std::string, std::string> files;
  files["model.onnx"] = serialize_deterministic(build_model(c));
  for (size_t k = 0; k < c.inputs.size(); ++k)
    files["test_data_set_0/input_" + std::to_string(k) + ".pb"] =
        value_to_bytes(c.inputs[k].value, TensorEncoding::raw_data, c.inputs[k].name);
  for (size_t k = 0; k < c.outputs.size(); ++k)
    files["test_data_set_0/output_" + std::to_string(k) + ".pb"] =
        value_to_bytes(c.outputs[k], TensorEncoding::raw_data, c.output_names[k]);
  files["case.json"] = case_json(c).dump(2) + "\n";
  return files;
}

StaticResult static_check(const CatalogCase& c) {
  StaticResult r;
  onnx::ModelProto m = build_model(c);
  try {
    onnx::checker::check_model(m);
  } catch (const std::exception& e) {
    r.checker_ok = false;
    r.checker_message = e.what();
  }
  // Inference starts from outputs typed by element type only, so that what it infers is
  // compared with the actual outputs rather than with the declared shapes.
  for (int i = 0; i < m.graph().output_size(); ++i)
    *m.mutable_graph()->mutable_output(i)->mutable_type() =
        c.output_types.at(static_cast<size_t>(i));
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/true, /*error_mode=*/1);
    onnx::shape_inference::InferShapes(m, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    r.inference_ok = false;
    r.inference_message = e.what();
    return r;
  }
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    const onnx::TypeProto& inferred = m.graph().output(static_cast<int>(i)).type();
    r.inferred.push_back(c.output_names[i] + ": " + type_string(inferred));
    const Value& actual = c.outputs[i];
    const std::string where =
        "output " + c.output_names[i] + ": inferred " + type_string(inferred) + ", ";
    if (actual.is_tensor()) {
      if (!inferred.has_tensor_type()) {
        r.disagreements.push_back(where + "actual " + actual.describe());
        continue;
      }
      const std::string d = tensor_disagreement(inferred.tensor_type(), actual.tensor());
      if (!d.empty()) r.disagreements.push_back(where + d);
    } else {
      if (!inferred.has_sequence_type() ||
          !inferred.sequence_type().elem_type().has_tensor_type()) {
        r.disagreements.push_back(where + "actual " + actual.describe());
        continue;
      }
      const auto& tt = inferred.sequence_type().elem_type().tensor_type();
      const Sequence& s = actual.sequence();
      if (tt.elem_type() != 0 && tt.elem_type() != static_cast<int32_t>(s.elem_type())) {
        r.disagreements.push_back(where + "actual " + s.describe());
        continue;
      }
      for (size_t k = 0; k < s.size(); ++k) {
        const std::string d = tensor_disagreement(tt, s.at(k));
        if (!d.empty()) {
          r.disagreements.push_back(where + "element " + std::to_string(k) + ": " + d);
          break;
        }
      }
    }
  }
  return r;
}

std::vector<std::string> static_findings() {
  std::vector<std::string> out;
  for (const auto& c : all_cases()) {
    if (c.must_reject()) continue;
    const StaticResult r = static_check(c);
    if (!r.checker_ok)
      out.push_back(c.id() + ": check_model rejects a valid case: " + r.checker_message);
    if (!r.inference_ok)
      out.push_back(c.id() + ": shape inference fails on a valid case: " + r.inference_message);
    for (const auto& d : r.disagreements) out.push_back(c.id() + ": shape inference: " + d);
  }
  return out;
}

const std::vector<CatalogCase>& all_cases() {
  static const std::vector<CatalogCase> cases = [] {
    std::vector<CatalogCase> v;
    add_sequence_at_cases(v);
    add_sequence_erase_cases(v);
    add_sequence_insert_cases(v);
    add_split_to_sequence_cases(v);
    add_sequence_map_cases(v);
    std::sort(v.begin(), v.end(),
              [](const CatalogCase& a, const CatalogCase& b) { return a.id() < b.id(); });
    std::set<std::string> ids, folders;
    for (const auto& c : v) {
      if (!ids.insert(c.id()).second) throw std::logic_error("catalog: duplicate id " + c.id());
      if (!folders.insert(c.folder()).second)
        throw std::logic_error("catalog: two ids map to folder " + c.folder());
    }
    return v;
  }();
  return cases;
}

}  // namespace seqconf::catalog
