// The five sequence operators of the ONNX spec, as functions on values.
// Each lives in its own file, next to the spec sentences it implements.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/context.h"
#include "reference/value.h"

namespace seqconf::ops {

// SequenceAt-11
Tensor SequenceAt(const Sequence& input_sequence, const Tensor& position, Context& ctx);

// SequenceErase-11; position absent erases the last tensor.
Sequence SequenceErase(const Sequence& input_sequence, const std::optional<Tensor>& position,
                       Context& ctx);

// SequenceInsert-11; position absent appends.
Sequence SequenceInsert(const Sequence& input_sequence, const Tensor& tensor,
                        const std::optional<Tensor>& position, Context& ctx);

// SplitToSequence-11/24; split absent gives chunks of length 1 (keepdims applies only then).
// since_version (11 or 24) decides whether bfloat16 is an allowed input type; the latest by
// default.
Sequence SplitToSequence(const Tensor& input, const std::optional<Tensor>& split, int64_t axis,
                         int64_t keepdims, Context& ctx, int64_t since_version = 24);

// SequenceMap-17. The body maps one sample (one value per node input) to one tensor per node
// output. output_elem_types are the element types of the body's outputs, which type the
// output sequences even when there is no sample.
struct SequenceMapBody {
  size_t num_inputs = 0;
  std::vector<DataType> output_elem_types;
  std::function<std::vector<Value>(const std::vector<Value>& sample)> run;
};
std::vector<Sequence> SequenceMap(const Sequence& input_sequence,
                                  const std::vector<Value>& additional_inputs,
                                  const SequenceMapBody& body, Context& ctx);

// The type constraints of the five operators at their first version ("Constrain to any tensor
// type." and its variants) expand to ONNX's all_tensor_types(): the 15 types of kAllDataTypes,
// without bfloat16. Throws element_type_not_allowed naming what() ("input_sequence is
// seq(tensor(bfloat16))", built only then) and the clause's sentence when d is not one of them.
void check_any_tensor_type(const std::string& op, const std::function<std::string()>& what,
                           DataType d, std::string_view clause_id);

// Shared by the three position-taking operators: reads `position` (int32 or int64 scalar;
// shape [1] is an ambiguity, see the .cpp) and maps it into [0, n-1] (or [0, n] when
// accept_n), throwing position_out_of_range otherwise.
size_t normalize_position(const char* op, const Tensor& position, size_t n, bool accept_n,
                          Context& ctx);

}  // namespace seqconf::ops
