// SequenceConstruct-11
// "Construct a tensor sequence containing 'inputs' tensors.
//  All tensors in 'inputs' must have the same data type."
#include <string>

#include "reference/ops/ops.h"

namespace seqconf::ops {

// SequenceConstruct-11: clauses SequenceConstruct.summary and SequenceConstruct.same_type.
Sequence SequenceConstruct(const std::vector<Tensor>& inputs) {
  // 'inputs' is variadic: at least one tensor.
  if (inputs.empty())
    throw Error(ErrorCode::missing_input, "SequenceConstruct: needs at least one input tensor");
  // SequenceConstruct.same_type: "All tensors in 'inputs' must have the same data type."
  for (size_t i = 1; i < inputs.size(); ++i)
    if (inputs[i].dtype() != inputs[0].dtype())
      throw Error(ErrorCode::element_type_mismatch,
                  "SequenceConstruct: input " + std::to_string(i) + " is " + inputs[i].describe() +
                      " but input 0 is " + inputs[0].describe());
  return Sequence(inputs[0].dtype(), inputs);
}

}  // namespace seqconf::ops
