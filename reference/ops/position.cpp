// Positions, shared by SequenceAt, SequenceErase and SequenceInsert.
#include <string>

#include "reference/ops/ops.h"
#include "reference/spec_clauses.h"

namespace seqconf::ops {

// SPEC (all three), clause position.scalar: "It must be a scalar(tensor of empty shape)."
// ONNX's own fixture test_sequence_insert_at_front passes a position of shape [1], and ONNX
// Runtime reads its one element. Lenient policy accepts a one-element 1-D position and
// records the ambiguity; strict policy rejects it as position_not_scalar.
void check_position_type(const char* op, DataType position,
                         const std::function<std::string()>& got) {
  // SPEC: "position: tensor(int32), tensor(int64)" (type constraint I).
  if (position != DataType::int32 && position != DataType::int64)
    throw Error(ErrorCode::position_type,
                std::string(op) + ": position must be int32 or int64, got " + got());
}

static int64_t read_position(const char* op, const Tensor& position, Context& ctx) {
  check_position_type(op, position.dtype(), [&] { return position.describe(); });
  if (position.rank() != 0) {
    const bool one_element_vector = position.rank() == 1 && position.shape()[0] == 1;
    if (!one_element_vector || ctx.policy == Policy::strict)
      throw Error(ErrorCode::position_not_scalar,
                  std::string(op) + ": position must be a scalar (tensor of empty shape), got " +
                      position.describe());
    ctx.note({"position_shape_1", op, std::string(spec_clause("position.scalar").sentence),
              "position of shape [1] accepted as the scalar it holds (lenient policy)"});
  }
  return position.int_at(0);
}

size_t normalize_position(const char* op, const Tensor& position, size_t n, bool accept_n,
                          Context& ctx) {
  const int64_t p = read_position(op, position, ctx);
  const auto len = static_cast<int64_t>(n);
  // SPEC: clauses position.range (SequenceInsert.position_range: `[-n, n]`),
  // position.negative and position.out_of_bounds.
  const int64_t hi = accept_n ? len : len - 1;
  if (p < -len || p > hi)
    throw Error(ErrorCode::position_out_of_range,
                std::string(op) + ": position " + std::to_string(p) + " is outside [" +
                    std::to_string(-len) + ", " + std::to_string(hi) +
                    "] for a sequence of length " + std::to_string(n));
  return static_cast<size_t>(p < 0 ? p + len : p);
}

}  // namespace seqconf::ops
