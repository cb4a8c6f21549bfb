#include "harness/static_checks.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "reference/dtype.h"

namespace seqconf {

namespace {

std::string type_text(const onnx::TypeProto& t) {
  if (t.has_tensor_type()) {
    std::string s = "tensor(" + dtype_name_any(t.tensor_type().elem_type()) + ")";
    if (t.tensor_type().has_shape()) {
      s += "[";
      bool first = true;
      for (const auto& d : t.tensor_type().shape().dim()) {
        s += first ? "" : ",";
        first = false;
        s += d.has_dim_value() ? std::to_string(d.dim_value())
                               : (d.has_dim_param() ? d.dim_param() : std::string("?"));
      }
      s += "]";
    }
    return s;
  }
  if (t.has_sequence_type()) return "seq(" + type_text(t.sequence_type().elem_type()) + ")";
  if (t.has_optional_type()) return "optional(" + type_text(t.optional_type().elem_type()) + ")";
  return "unknown";
}

// Why `v` contradicts the inferred type t, or empty when it does not.
std::string contradiction(const onnx::TypeProto& t, const Value& v) {
  if (t.has_tensor_type()) {
    if (!v.is_tensor()) return "a " + v.describe() + " where a tensor is inferred";
    const Tensor& x = v.tensor();
    const int32_t e = t.tensor_type().elem_type();
    if (e != 0 && e != static_cast<int32_t>(x.dtype()))
      return "element type " + std::string(dtype_name(x.dtype())) + " where " + dtype_name_any(e) +
             " is inferred";
    if (t.tensor_type().has_shape()) {
      const auto& dims = t.tensor_type().shape().dim();
      if (static_cast<size_t>(dims.size()) != x.rank())
        return "rank " + std::to_string(x.rank()) + " (shape " + shape_to_string(x.shape()) +
               ") where rank " + std::to_string(dims.size()) + " is inferred";
      for (int k = 0; k < dims.size(); ++k)
        if (dims[k].has_dim_value() && dims[k].dim_value() != x.shape()[static_cast<size_t>(k)])
          return "shape " + shape_to_string(x.shape()) + " where dimension " + std::to_string(k) +
                 " is inferred as " + std::to_string(dims[k].dim_value());
    }
    return {};
  }
  if (t.has_sequence_type()) {
    if (!v.is_sequence()) return "a " + v.describe() + " where a sequence is inferred";
    const Sequence& s = v.sequence();
    const auto& et = t.sequence_type().elem_type();
    if (et.has_tensor_type() && et.tensor_type().elem_type() != 0 &&
        et.tensor_type().elem_type() != static_cast<int32_t>(s.elem_type()))
      return "element type " + std::string(dtype_name(s.elem_type())) + " where " +
             dtype_name_any(et.tensor_type().elem_type()) + " is inferred";
    for (size_t i = 0; i < s.size(); ++i) {
      std::string c = contradiction(et, s.at(i));
      if (!c.empty()) return "sequence item " + std::to_string(i) + ": " + c;
    }
    return {};
  }
  if (t.has_optional_type()) {
    if (!v.is_optional()) return "a " + v.describe() + " where an optional is inferred";
    if (v.optional().element)
      return contradiction(t.optional_type().elem_type(), *v.optional().element);
  }
  return {};
}

}  // namespace

StaticCheck check_statically(const onnx::ModelProto& model,
                             const std::vector<Value>& expected_outputs) {
  StaticCheck r;
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    r.checker_ok = false;
    r.checker_message = e.what();
  }
  // Inference from scratch: the declared output types are removed so that what remains is
  // what ONNX's type and shape functions infer.
  onnx::ModelProto m = model;
  for (auto& o : *m.mutable_graph()->mutable_output()) o.clear_type();
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/true, /*error_mode=*/1);
    onnx::shape_inference::InferShapes(m, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    r.inference_ok = false;
    r.inference_message = e.what();
    return r;
  }
  const auto& g = m.graph();
  for (int i = 0; i < g.output_size(); ++i) {
    const auto& o = g.output(i);
    r.inferred.push_back(o.name() + ": " + (o.has_type() ? type_text(o.type()) : "(no type)"));
    if (!o.has_type() || static_cast<size_t>(i) >= expected_outputs.size()) continue;
    const std::string c = contradiction(o.type(), expected_outputs[static_cast<size_t>(i)]);
    if (!c.empty())
      r.contradictions.push_back("output " + std::to_string(i) + " '" + o.name() + "': inferred " +
                                 type_text(o.type()) + ", but the expected output has " + c);
  }
  return r;
}

std::vector<StaticFinding> static_findings(const onnx::ModelProto& model,
                                     const std::vector<Value>& expected_outputs, bool must_reject) {
  const StaticCheck r = check_statically(model, expected_outputs);
  std::vector<StaticFinding> out;
  // For a must-reject case, a rejection by the checker or by inference agrees with the case.
  if (!r.checker_ok && !must_reject)
    out.push_back({"checker", "onnx::checker::check_model rejects the model: " + r.checker_message});
  if (!r.inference_ok) {
    if (!must_reject) out.push_back({"shape_inference", "InferShapes fails: " + r.inference_message});
    return out;
  }
  for (const auto& c : r.contradictions) out.push_back({"shape_inference", c});
  return out;
}

}  // namespace seqconf
