#include "difffuzz/encoding.h"

#include <nlohmann/json.hpp>

#include "reference/error.h"
#include "reference/proto.h"

namespace seqconf::difffuzz {

namespace {

using json = nlohmann::json;

json tensor_json(const Tensor& t) {
  const std::string bytes = tensor_to_proto(t, TensorEncoding::raw_data).SerializeAsString();
  return json::binary(std::vector<uint8_t>(bytes.begin(), bytes.end()));
}

// A malformed program: decode() gives nullopt.
struct Malformed {};

void require(bool ok) {
  if (!ok) throw Malformed{};
}

Tensor tensor_of(const json& j) {
  require(j.is_binary());
  onnx::TensorProto proto;
  const auto& bytes = j.get_binary();
  require(proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
  try {
    return tensor_from_proto(proto);
  } catch (const Error&) {
    throw Malformed{};
  }
}

template <typename E>
E enum_of(const json& j, E last) {
  require(j.is_number_unsigned() && j.get<uint64_t>() <= static_cast<uint64_t>(last));
  return static_cast<E>(j.get<uint64_t>());
}

std::optional<int64_t> int_of(const json& j, const char* key) {
  if (!j.contains(key)) return std::nullopt;
  require(j[key].is_number_integer());
  return j[key].get<int64_t>();
}

std::vector<Tensor> tensors_of(const json& j, DataType elem) {
  require(j.is_array() && j.size() <= kMaxEncodedTensors);
  std::vector<Tensor> out;
  for (const json& t : j) {
    out.push_back(tensor_of(t));
    require(out.back().dtype() == elem);
  }
  return out;
}

DataType dtype_of(const json& j) {
  require(j.is_number_unsigned());
  const auto v = j.get<uint64_t>();
  for (DataType d : kAllDataTypes)
    if (static_cast<uint64_t>(d) == v) return d;
  throw Malformed{};
}

Step step_of(const json& j) {
  require(j.is_object());
  Step s;
  s.kind = enum_of(j.at("kind"), StepKind::map);
  if (j.contains("tensor")) s.tensor = tensor_of(j["tensor"]);
  if (j.contains("position")) s.position = tensor_of(j["position"]);
  if (j.contains("split")) s.split = tensor_of(j["split"]);
  s.axis = int_of(j, "axis");
  s.keepdims = int_of(j, "keepdims");
  s.new_axis = int_of(j, "new_axis").value_or(0);
  s.body = enum_of(j.value("body", json(0u)), gens::BodyKind::two_node);
  if (j.contains("extra")) {
    const json& e = j["extra"];
    if (e.is_object()) {
      const DataType d = dtype_of(e.at("elem"));
      s.extra = Value(Sequence(d, tensors_of(e.at("tensors"), d)));
    } else {
      s.extra = Value(tensor_of(e));
    }
  }
  // What build() reads for each kind.
  switch (s.kind) {
    case StepKind::insert:
    case StepKind::split:
      require(s.tensor.has_value());
      break;
    case StepKind::at:
      require(s.position.has_value());
      break;
    default:
      break;
  }
  return s;
}

}  // namespace

std::string encode(const Program& p) {
  json j;
  j["elem"] = static_cast<uint64_t>(p.elem);
  j["context"] = static_cast<uint64_t>(p.tensors_as);
  j["source"] = static_cast<uint64_t>(p.source);
  j["tensors"] = json::array();
  for (const Tensor& t : p.tensors) j["tensors"].push_back(tensor_json(t));
  j["steps"] = json::array();
  for (const Step& s : p.steps) {
    json k;
    k["kind"] = static_cast<uint64_t>(s.kind);
    if (s.tensor) k["tensor"] = tensor_json(*s.tensor);
    if (s.position) k["position"] = tensor_json(*s.position);
    if (s.split) k["split"] = tensor_json(*s.split);
    if (s.axis) k["axis"] = *s.axis;
    if (s.keepdims) k["keepdims"] = *s.keepdims;
    if (s.new_axis) k["new_axis"] = s.new_axis;
    if (s.kind == StepKind::map) k["body"] = static_cast<uint64_t>(s.body);
    if (s.extra && s.extra->is_tensor()) k["extra"] = tensor_json(s.extra->tensor());
    if (s.extra && s.extra->is_sequence()) {
      const Sequence& seq = s.extra->sequence();
      json e;
      e["elem"] = static_cast<uint64_t>(seq.elem_type());
      e["tensors"] = json::array();
      for (const Tensor& t : seq.tensors()) e["tensors"].push_back(tensor_json(t));
      k["extra"] = std::move(e);
    }
    j["steps"].push_back(std::move(k));
  }
  const std::vector<uint8_t> cbor = json::to_cbor(j);
  std::string out(kProgramMarker);
  out.append(cbor.begin(), cbor.end());
  return out;
}

std::optional<Program> decode(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.substr(0, kProgramMarker.size()) != kProgramMarker) return std::nullopt;
  const auto* begin = data + kProgramMarker.size();
  try {
    // Some malformed CBOR (an array length beyond the input) throws even without exceptions.
    const json j = json::from_cbor(begin, data + size, /*strict=*/true, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    Program p;
    p.elem = dtype_of(j.at("elem"));
    p.tensors_as = enum_of(j.at("context"), Placement::loop_body);
    p.source = enum_of(j.at("source"), SourceKind::construct);
    p.tensors = tensors_of(j.at("tensors"), p.elem);
    require(p.source != SourceKind::empty || p.tensors.empty());
    const json& steps = j.at("steps");
    require(steps.is_array() && !steps.empty() && steps.size() <= kMaxEncodedSteps);
    for (const json& s : steps) p.steps.push_back(step_of(s));
    return p;
  } catch (const Malformed&) {
    return std::nullopt;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

}  // namespace seqconf::difffuzz
