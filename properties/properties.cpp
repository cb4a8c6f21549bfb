// The property registry and the reference OpSet.
#include "properties/properties.h"

#include <stdexcept>

#include "properties/loop_expansion.h"
#include "reference/ops/ops.h"

namespace seqconf::properties {

OpSet reference_ops() {
  OpSet ops;
  ops.sequence_at = ops::SequenceAt;
  ops.sequence_erase = ops::SequenceErase;
  ops.sequence_insert = ops::SequenceInsert;
  // The latest version, SplitToSequence-24: the 15 types and bfloat16.
  ops.split_to_sequence = [](const Tensor& input, const std::optional<Tensor>& split, int64_t axis,
                             int64_t keepdims, Context& ctx) {
    return ops::SplitToSequence(input, split, axis, keepdims, ctx);
  };
  ops.sequence_map = ops::SequenceMap;
  ops.concat_from_sequence = [](const Sequence& s, int64_t axis, int64_t new_axis) {
    return ops::ConcatFromSequence(s, axis, new_axis);
  };
  ops.sequence_construct = ops::SequenceConstruct;
  ops.sequence_empty = [](std::optional<DataType> dtype) {
    return dtype ? ops::SequenceEmpty(*dtype) : ops::SequenceEmpty();
  };
  ops.sequence_length = ops::SequenceLength;
  ops.sequence_map_expanded = run_sequence_map_expanded;
  ops.encode = [](const Value& v, TensorEncoding e) { return value_to_bytes(v, e); };
  ops.decode = [](const std::string& bytes, const onnx::TypeProto& declared) {
    return value_from_bytes(bytes, declared, "round-tripped value");
  };
  return ops;
}

const std::vector<PropertyDef>& all_properties() {
  static const std::vector<PropertyDef> all = [] {
    std::vector<PropertyDef> v;
    add_position_properties(v);
    add_split_properties(v);
    add_map_properties(v);
    add_value_properties(v);
    add_concat_properties(v);
    return v;
  }();
  return all;
}

const PropertyDef& property(const std::string& id) {
  for (const auto& p : all_properties())
    if (p.id == id) return p;
  throw std::out_of_range("no property " + id);
}

}  // namespace seqconf::properties
