#include "reference/interpreter/schema_types.h"

#include <algorithm>
#include <map>
#include <string_view>

#include <onnx/defs/schema.h>

#include "reference/dtype.h"
#include "reference/error.h"
#include "reference/interpreter/type_constraints.h"

namespace seqconf::interp {

namespace {

// The type a schema's type string names ("tensor(float)", "seq(tensor(int64))",
// "optional(seq(tensor(bool)))"); nullopt for one the reference does not carry (map, sparse
// tensor, an element type such as complex64).
TypeOf type_of_text(std::string_view s) {
  auto strip = [&](std::string_view prefix) {
    if (s.substr(0, prefix.size()) != prefix || s.empty() || s.back() != ')') return false;
    s = s.substr(prefix.size(), s.size() - prefix.size() - 1);
    return true;
  };
  const bool optional = strip("optional(");
  const bool sequence = strip("seq(");
  if (!strip("tensor(")) return std::nullopt;
  const std::optional<DataType> e = dtype_from_name(s);
  if (!e) return std::nullopt;
  if (optional) return Value(Optional{sequence, *e, nullptr});
  if (sequence) return Value(Sequence(*e));
  return Value(Tensor::zeros(*e, Shape{0}));
}

// The formal parameter the i-th actual argument binds to (the last one when it is variadic).
const onnx::OpSchema::FormalParameter* formal(
    const std::vector<onnx::OpSchema::FormalParameter>& formals, size_t i) {
  if (i < formals.size()) return &formals[i];
  if (!formals.empty() && formals.back().GetOption() == onnx::OpSchema::Variadic)
    return &formals.back();
  return nullptr;
}

std::string allowed_types(const onnx::OpSchema::FormalParameter& f) {
  std::vector<std::string> names;
  for (const auto* t : f.GetTypes()) names.push_back(*t);
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& t : names) out += (out.empty() ? "" : ", ") + t;
  return out;
}

const onnx::OpSchema::TypeConstraintParam* constraint(const onnx::OpSchema& schema,
                                                      const std::string& param) {
  for (const auto& c : schema.typeConstraintParams())
    if (c.type_param_str == param) return &c;
  return nullptr;
}

}  // namespace

std::optional<std::vector<TypeOf>> schema_types(const onnx::NodeProto& n, int64_t opset,
                                                const std::vector<TypeOf>& in) {
  if (!n.domain().empty() && n.domain() != "ai.onnx") return std::nullopt;
  const auto& known = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  const auto range = known.find(onnx::ONNX_DOMAIN);
  if (range == known.end() || opset > range->second.second) return std::nullopt;
  const onnx::OpSchema* schema =
      onnx::OpSchemaRegistry::Schema(n.op_type(), static_cast<int>(opset), onnx::ONNX_DOMAIN);
  if (!schema || schema->Deprecated()) return std::nullopt;
  const std::string name = n.op_type() + "-" + std::to_string(schema->SinceVersion());

  // Operators.md: a type parameter binds one type across the homogeneous uses in a node.
  std::map<std::string, std::string> bound;  // parameter -> the type text it is bound to
  for (size_t i = 0; i < in.size(); ++i) {
    const auto* f = formal(schema->inputs(), i);
    if (!f || !in[i])
      continue;  // too many inputs is left to the host; an unknown type is unchecked
    const std::string got = type_text(*in[i]);
    const std::string where =
        "input " + std::to_string(i) + " (" + f->GetName() + ") is " + got + ", but ";
    bool allowed = false;
    for (const auto* t : f->GetTypes()) allowed = allowed || *t == got;
    if (!allowed) {
      const auto* c = constraint(*schema, f->GetTypeStr());
      throw Error(ErrorCode::invalid_model,
                  name + ": " + where +
                      (c ? "type constraint " + c->type_param_str + " (\"" + c->description +
                               "\") allows " + allowed_types(*f)
                         : "its type is " + f->GetTypeStr()) +
                      " (ONNX's schema of " + name + ")");
    }
    if (!f->GetIsHomogeneous() || !constraint(*schema, f->GetTypeStr())) continue;
    const auto [it, first] = bound.emplace(f->GetTypeStr(), got);
    if (!first && it->second != got)
      throw Error(ErrorCode::invalid_model,
                  name + ": " + where + "type parameter " + f->GetTypeStr() +
                      " is already bound to " + it->second +
                      " by an earlier input (ONNX's schema of " + name + ")");
  }
  std::vector<TypeOf> out(static_cast<size_t>(n.output_size()));
  for (size_t j = 0; j < out.size(); ++j) {
    const auto* f = formal(schema->outputs(), j);
    if (!f) continue;
    const auto b = bound.find(f->GetTypeStr());
    if (b != bound.end())
      out[j] = type_of_text(b->second);
    else if (f->GetTypes().size() == 1)
      out[j] = type_of_text(**f->GetTypes().begin());
  }
  return out;
}

}  // namespace seqconf::interp
