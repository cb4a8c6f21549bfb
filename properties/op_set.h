// The operator implementations a property is checked against. Properties take an OpSet so the
// same property can run on the reference (reference_ops()) and on deliberately broken variants
// (properties/mutants.h), which it must reject.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reference/ops/ops.h"
#include "reference/proto.h"

namespace seqconf::properties {

struct OpSet {
  std::function<Tensor(const Sequence&, const Tensor&, Context&)> sequence_at;
  std::function<Sequence(const Sequence&, const std::optional<Tensor>&, Context&)> sequence_erase;
  std::function<Sequence(const Sequence&, const Tensor&, const std::optional<Tensor>&, Context&)>
      sequence_insert;
  std::function<Sequence(const Tensor&, const std::optional<Tensor>&, int64_t axis,
                         int64_t keepdims, Context&)>
      split_to_sequence;
  std::function<std::vector<Sequence>(const Sequence&, const std::vector<Value>&,
                                      const ops::SequenceMapBody&, Context&)>
      sequence_map;
  // ConcatFromSequence-11 (axis, new_axis), the inverse the split round trip uses.
  std::function<Tensor(const Sequence&, int64_t axis, int64_t new_axis)> concat_from_sequence;
  // SequenceConstruct-11, SequenceEmpty-11 (nullopt: the dtype attribute absent) and
  // SequenceLength-11.
  std::function<Sequence(const std::vector<Tensor>&)> sequence_construct;
  std::function<Sequence(std::optional<DataType> dtype)> sequence_empty;
  std::function<Tensor(const Sequence&)> sequence_length;
  // A SequenceMap node run through the model interpreter in its Loop expansion: the node's
  // inputs, the body graph, and the outputs.
  std::function<std::vector<Sequence>(const Sequence&, const std::vector<Value>&,
                                      const onnx::GraphProto& body)>
      sequence_map_expanded;
  std::function<std::string(const Value&, TensorEncoding)> encode;
  std::function<Value(const std::string&, const onnx::TypeProto& declared)> decode;
};

// The reference implementation of every member.
OpSet reference_ops();

}  // namespace seqconf::properties
