#include "generators/catalog/common.h"

namespace seqconf::catalog::detail {

std::string spec_quote(std::string_view id) {
  std::string_view s = spec_clause(id).sentence;
  if (!s.empty() && s.back() == '.') s.remove_suffix(1);
  return "\"" + std::string(s) + "\"";
}

std::string sequence_map_longer_note() {
  return "another sequence input longer than the first: the spec says " +
         spec_quote("SequenceMap.same_samples") +
         " (should, not must), and ONNX's own function body for SequenceMap-17 (a Loop over the "
         "first sequence's length, SequenceAt on the others), which ONNX Runtime runs, reads the "
         "first samples of a longer one. Lenient policy (the expectation): sample i of every "
         "sequence input for i below the first's length, the further tensors unused. Strict "
         "policy: sequence_length_mismatch.";
}

std::vector<KeyTensor> mixed_elements(size_t n) {
  const std::vector<Shape> shapes = {{2}, {}, {2, 3}, {0, 2, 1}, {1, 2, 1, 2}};
  std::vector<KeyTensor> v;
  for (size_t i = 0; i < n; ++i)
    v.push_back(key_tensor(shapes.at(i), static_cast<int>(20 * i + 1)));
  return v;
}

std::string dims_string(const Shape& s) {
  if (s.empty()) return "scalar";
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "x" : "") + std::to_string(s[i]);
  return out;
}

std::string shapes_string(const std::vector<KeyTensor>& ts) {
  std::string out;
  for (size_t i = 0; i < ts.size(); ++i) out += (i ? "," : "") + dims_string(ts[i].shape);
  return out.empty() ? "none" : out;
}

CatalogCase start_case(const std::string& op, int opset, DataType dtype) {
  CatalogCase c;
  c.op = op;
  c.opset = opset;
  c.dtype = dtype;
  return c;
}

std::string type_label(DataType d) { return std::string(dtype_name(d)); }

DataType other_type(DataType d) {
  return d == DataType::float32 ? DataType::float64 : DataType::float32;
}

onnx::NodeProto with_int(onnx::NodeProto n, const std::string& name, int64_t v) {
  *n.add_attribute() = model::int_attribute(name, v);
  return n;
}

void add_int_initializer(onnx::GraphProto& g, const std::string& name, int64_t v) {
  *g.add_initializer() =
      tensor_to_proto(int_scalar(DataType::int64, v), TensorEncoding::raw_data, name);
}

onnx::GraphProto loop_body(const std::string& name) {
  onnx::GraphProto body;
  body.set_name(name);
  *body.add_input() = model::value_info("iteration", tensor_type(DataType::int64, {}));
  *body.add_input() = model::value_info("cond_in", tensor_type(DataType::bool_, {}));
  return body;
}

void pass_condition(onnx::GraphProto& body) {
  *body.add_node() = model::node("Identity", {"cond_in"}, {"cond_out"});
  *body.add_output() = model::value_info("cond_out", tensor_type(DataType::bool_, {}));
}

onnx::NodeProto loop_node(const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, onnx::GraphProto body) {
  onnx::NodeProto loop = model::node("Loop", inputs, outputs);
  *loop.add_attribute() = model::graph_attribute("body", std::move(body));
  return loop;
}

std::vector<KeyTensor> rows_of(const KeyTensor& t) {
  std::vector<KeyTensor> rows;
  for (int64_t i = 0; i < t.shape[0]; ++i) {
    KeyTensor r = chunk_along(t, 0, i, 1);
    r.shape.erase(r.shape.begin());
    rows.push_back(std::move(r));
  }
  return rows;
}

KeyTensor stack_rows(const std::vector<KeyTensor>& rows, const Shape& row_shape) {
  KeyTensor out;
  out.shape = row_shape;
  out.shape.insert(out.shape.begin(), static_cast<int64_t>(rows.size()));
  for (const KeyTensor& r : rows) out.keys.insert(out.keys.end(), r.keys.begin(), r.keys.end());
  return out;
}

}  // namespace seqconf::catalog::detail
