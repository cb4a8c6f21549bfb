// Operators that are not under test but that ONNX's sequence fixtures, the SequenceMap
// expansion and the generated models need around the five sequence operators. Plain functions
// on values, callable without a graph (property tests, generators) as well as by the
// interpreter. Invalid input throws seqconf::Error with a code, never crashes. The four
// companion operators (SequenceConstruct, SequenceEmpty, SequenceLength, ConcatFromSequence)
// are in reference/ops, one file each (declared in reference/ops/ops.h); the operators of
// SequenceMap bodies and loops are in body_ops.h.
//
// What each supports (anything else is ErrorCode::not_supported or an input error):
// | op                 | versions (since)          | types                                   |
// |--------------------|---------------------------|-----------------------------------------|
// | Identity           | 1..24                     | tensors (13+: bf16 too), sequences, ... |
// | Add                | 1, 6 (legacy), 7, 13, 14  | float / high-precision / numeric; +bf16 |
// | Shape              | 1, 13, 15 (start, end)    | the 15 tensor types; 13+: bf16 too      |
// | Constant           | 1..13 (value, value_*)    | the 15 tensor types; 13+: bf16 too      |
// | Slice              | 10, 11, 13 (input form)   | the 15 types (13: bf16); starts, ends   |
// | Unsqueeze          | 1, 11 (attr), 13+ (input) | the 15 tensor types; 13+: bf16 too      |
// | Not                | 1                         | bool                                    |
// | Optional           | 15                        | optional of a tensor or a sequence      |
// | OptionalHasElement | 15, 18                    | optionals (18: also tensors, sequences) |
// | OptionalGetElement | 15, 18                    | optionals (18: also tensors, sequences) |
// Add before 7 broadcasts B alone to A's shape (attributes broadcast, axis); from 7 both ways.
#pragma once

#include <optional>
#include <vector>

#include <onnx/onnx_pb.h>

#include "reference/value.h"

namespace seqconf::support {

Value Identity(const Value& input);
// Add-7/13/14 with multidirectional (numpy) broadcasting.
Tensor Add(const Tensor& a, const Tensor& b);
// Shape-15: dims [start, end) with negative values counted from the back and clamped.
Tensor Shape(const Tensor& data, std::optional<int64_t> start = std::nullopt,
             std::optional<int64_t> end = std::nullopt);
// Constant: the tensor one of its value attributes (value, value_float(s), value_int(s),
// value_string(s)) gives. sparse_value is not supported.
Tensor Constant(const onnx::AttributeProto& attr);
// Slice-10/11/13: starts/ends/axes/steps as 1-D int32 or int64 tensors.
Tensor Slice(const Tensor& data, const Tensor& starts, const Tensor& ends,
             const std::optional<Tensor>& axes = std::nullopt,
             const std::optional<Tensor>& steps = std::nullopt);
// Unsqueeze: axes in [-r', r'-1] for the output rank r'; no duplicates.
Tensor Unsqueeze(const Tensor& data, const std::vector<int64_t>& axes);
Tensor Not(const Tensor& x);
// Optional-15: wraps input, or is empty of the given type when input is absent.
Optional MakeOptional(const std::optional<Value>& input, const onnx::TypeProto* type);
// OptionalHasElement / OptionalGetElement. opset 18 also accepts a plain tensor or sequence
// (it always has an element); opset 15 requires an optional (not_a_tensor otherwise).
Tensor OptionalHasElement(const std::optional<Value>& input, int64_t since_version);
Value OptionalGetElement(const Value& input, int64_t since_version);

// Reads a 1-D (or scalar) int32/int64 tensor as int64 values; `what` names it in errors.
std::vector<int64_t> read_ints(const Tensor& t, const char* what);

}  // namespace seqconf::support
