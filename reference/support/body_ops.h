// Operators that SequenceMap bodies and Loops around the sequence operators commonly hold, one
// file each (reference/support/<op>.cpp), each with the spec sentences next to its checks. Like
// support_ops.h: plain functions on values, callable without a graph; invalid input throws
// seqconf::Error with a code. The interpreter checks every value against the operator version's
// type constraints (reference/interpreter/type_constraints.cpp) before calling them; the
// functions check element types themselves too (callers without a graph).
//
// "+bf16": the version adds bfloat16 (from 13 for most, 16 for Where, 20 for ConstantOfShape).
// "legacy": versions before 7 broadcast B alone to A's shape (attributes broadcast, axis).
//
// | op      | versions (since)     | types                                                      |
// |---------|----------------------|------------------------------------------------------------|
// | Concat  | 1, 4, 11, 13         | 1: float16/float/double; 4+: the 15 types; 13: +bf16       |
// | Cast    | 1, 6, 9, 13, 19..24  | 1 (`to` a name), 6: no string; 9+: no complex; 13+: +bf16  |
// | Gather  | 1, 11, 13            | the 15 types (13: +bf16); indices int32 or int64           |
// | Sub     | 1, 6, 7, 13, 14      | as Add: 1 float, 6, 7, 13 high-precision, 14 numeric; +bf16 |
// | Mul     | 1, 6, 7, 13, 14      | as Sub                                                     |
// | Div     | 1, 6, 7, 13, 14      | as Sub; integer division by zero is undefined_result       |
// | Equal   | 1, 7, 11, 13, 19     | 1, 7: bool/int32/int64; 11: numeric, bool; 13+bf16; 19+str |
// | Less    | 1, 7, 9, 13          | 1, 7: float16/float/double; 9+: numeric; 13: +bf16         |
// | Greater | 1, 7, 9, 13          | as Less                                                    |
// | Where   | 9, 16                | condition bool; X, Y the 15 types; 16: +bf16               |
// | Squeeze | 1, 11, 13, 21..24    | the 15 types (13+: +bf16); axes an attribute (< 13), input |
// | Reshape | 1, 5, 13, 14, 19..24 | 1: float types, shape an attribute; 5+: the 15 (13+: +bf16) |
// | Size    | 1, 13, 19, 21..24    | the 15 types (13+: +bf16); an int64 scalar out             |
// | ConstantOfShape | 9, 20..24    | input int64; value numeric or bool; 20+: +bf16             |
// | Range   | 11                   | float, double, int16, int32, int64                         |
// | Expand  | 8, 13                | the 15 types (13: +bf16); shape int64                      |
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "reference/value.h"

namespace seqconf::support {

// Concat: inputs share a rank and every dimension but axis's. Versions before 11 do not define
// negative axes (axis_out_of_range there).
Tensor Concat(const std::vector<Tensor>& inputs, int64_t axis, int64_t since_version = 13);

// Cast-6..24 to `to`, one of the 13 non-complex types (9+: string included). Values the spec
// leaves undefined (a NaN or out-of-range float to an integer type, a string that is not a
// numeric literal of the target) are undefined_result.
Tensor Cast(const Tensor& input, DataType to, int64_t since_version = 24);

// Gather along axis; indices of any rank. Gather-11+ wrap negative indices ([-s, s-1]);
// Gather-1 accepts [0, s-1] only. An index outside is index_out_of_range.
Tensor Gather(const Tensor& data, const Tensor& indices, int64_t axis, int64_t since_version = 13);

// Element-wise, with multidirectional broadcasting (broadcast.h).
Tensor Sub(const Tensor& a, const Tensor& b);
Tensor Mul(const Tensor& a, const Tensor& b);
// Integers: truncating division; a zero divisor is undefined_result. Floats: IEEE 754.
Tensor Div(const Tensor& a, const Tensor& b);
Tensor Equal(const Tensor& a, const Tensor& b);
Tensor Less(const Tensor& a, const Tensor& b);
Tensor Greater(const Tensor& a, const Tensor& b);
Tensor Where(const Tensor& condition, const Tensor& x, const Tensor& y);
// Expand: input broadcast to shape (numpy.array(input) * numpy.ones(shape)).
Tensor Expand(const Tensor& input, const Tensor& shape);

// Squeeze: without axes every dimension of length 1 goes. Squeeze-1 takes no negative axis.
Tensor Squeeze(const Tensor& data, const std::optional<std::vector<int64_t>>& axes,
               int64_t since_version = 13);
// Reshape: shape a 1-D int64 tensor; allowzero as Reshape-14 defines it (0 before 14).
Tensor Reshape(const Tensor& data, const Tensor& shape, int64_t allowzero = 0);
Tensor Size(const Tensor& data);
// ConstantOfShape: value absent is a float 0.
Tensor ConstantOfShape(const Tensor& input, const std::optional<Tensor>& value);
// Range: a delta of 0 is undefined_result.
Tensor Range(const Tensor& start, const Tensor& limit, const Tensor& delta);

}  // namespace seqconf::support
