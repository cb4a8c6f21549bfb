// The element types the five operators accept. Their type constraints at version 11 (17 for
// SequenceMap) list ONNX's all_tensor_types(): bool, the eight integer types, float16, float,
// double, complex64, complex128 and string. bfloat16 is not among them; only SplitToSequence-24
// adds it (all_tensor_types_ir4()).
#include "reference/ops/ops.h"
#include "reference/spec_clauses.h"

namespace seqconf::ops {

void check_any_tensor_type(const std::string& op, const std::function<std::string()>& what,
                           DataType d, std::string_view clause_id) {
  if (is_any_tensor_type(d)) return;
  throw Error(ErrorCode::element_type_not_allowed,
              op + ": " + what() + ", but the type constraint (\"" +
                  std::string(spec_clause(clause_id).sentence) +
                  "\") allows the 15 tensor types of ONNX's all_tensor_types(), which do not "
                  "include " +
                  std::string(dtype_name(d)));
}

}  // namespace seqconf::ops
