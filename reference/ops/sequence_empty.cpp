// SequenceEmpty-11
// "Construct an empty tensor sequence, with given data type."
// dtype: "(Optional) The data type of the tensors in the output sequence. The default type is
//  'float'."
#include <string>

#include "reference/ops/ops.h"

namespace seqconf::ops {

// Clause SequenceEmpty.dtype_default: the default argument (ops.h).
Sequence SequenceEmpty(DataType dtype) {
  // The suite's limit, not the spec's: the interpreter checks type constraint S (clause
  // SequenceEmpty.types) before it calls this.
  if (!is_supported(dtype))
    throw Error(ErrorCode::unsupported_type,
                "SequenceEmpty: dtype " + dtype_name_any(static_cast<int32_t>(dtype)) +
                    " is not one of the 16 tensor types the suite carries");
  return Sequence(dtype);
}

}  // namespace seqconf::ops
