// The five sequence operators of the ONNX spec and their four companion operators, as functions
// on values. Each lives in its own file, next to the spec sentences it implements:
// | op                 | file (.cpp)          | versions (since)    | types                     |
// |--------------------|----------------------|---------------------|---------------------------|
// | SequenceAt         | sequence_at          | 11                  | the 15 tensor types       |
// | SequenceErase      | sequence_erase       | 11                  | the 15 tensor types       |
// | SequenceInsert     | sequence_insert      | 11                  | the 15 tensor types       |
// | SplitToSequence    | split_to_sequence    | 11, 24              | the 15 types; 24: +bf16   |
// | SequenceMap        | sequence_map         | 17                  | the 15 tensor types       |
// | SequenceConstruct  | sequence_construct   | 11                  | the 15 tensor types       |
// | SequenceEmpty      | sequence_empty       | 11 (dtype)          | the 15 tensor types       |
// | SequenceLength     | sequence_length      | 11                  | sequences of the 15 types |
// | ConcatFromSequence | concat_from_sequence | 11 (axis, new_axis) | the 15 tensor types       |
// The five check their own element types (types.cpp); SequenceAt, SequenceErase and
// SequenceInsert share position.cpp. The four companions take no Context, and the interpreter
// checks their type constraints before it calls them (reference/interpreter/type_constraints.cpp).
// Their files are compiled into seqconf_interpreter, not seqconf_reference (link it to call
// them): ConcatFromSequence copies with support::concatenate (reference/support/broadcast.h),
// and seqconf_interpreter links seqconf_reference, not the other way round.
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

// SequenceConstruct-11 (clause SequenceConstruct.same_type).
Sequence SequenceConstruct(const std::vector<Tensor>& inputs);

// SequenceEmpty-11: "The default type is 'float'."
Sequence SequenceEmpty(DataType dtype = DataType::float32);

// SequenceLength-11: an int64 scalar.
Tensor SequenceLength(const Sequence& input_sequence);

// ConcatFromSequence-11 (numpy.concatenate when new_axis is 0, numpy.stack when 1).
Tensor ConcatFromSequence(const Sequence& input_sequence, int64_t axis, int64_t new_axis = 0);

// The type constraints of the five operators at their first version ("Constrain to any tensor
// type." and its variants) expand to ONNX's all_tensor_types(): the 15 types of kAllDataTypes,
// without bfloat16. Throws element_type_not_allowed naming what() ("input_sequence is
// seq(tensor(bfloat16))", built only then) and the clause's sentence when d is not one of them.
void check_any_tensor_type(const std::string& op, const std::function<std::string()>& what,
                           DataType d, std::string_view clause_id);

// The rules of the five operators' types that hold whatever the values. Each operator checks
// them when it runs; the interpreter's static pass checks them on types alone, on every node
// (branches no data set takes and bodies that never run included), so that a model that breaks
// one is rejected before any data set. got() describes the offending input (built only then).
// Type constraint I of SequenceAt, SequenceErase and SequenceInsert: position_type.
void check_position_type(const char* op, DataType position,
                         const std::function<std::string()>& got);
// SequenceInsert's clause SequenceInsert.same_type: element_type_mismatch.
void check_insert_same_type(DataType sequence_elem, DataType tensor,
                            const std::function<std::string()>& got);
// SplitToSequence's type constraint I: split_type.
void check_split_type(DataType split, const std::function<std::string()>& got);
// Shared by the three position-taking operators: reads `position` (int32 or int64 scalar;
// shape [1] is an ambiguity, see the .cpp) and maps it into [0, n-1] (or [0, n] when
// accept_n), throwing position_out_of_range otherwise.
size_t normalize_position(const char* op, const Tensor& position, size_t n, bool accept_n,
                          Context& ctx);

}  // namespace seqconf::ops
