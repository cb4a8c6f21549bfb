// Seeded defects of SequenceConstruct. The spec: "Construct a tensor sequence containing 'inputs'
// tensors."
#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

std::vector<Defect> sequence_construct_defects() {
  std::vector<Defect> d;
  d.push_back({"construct.drops_empty_tensors",
               "SequenceConstruct",
               "inputs without elements (a dimension of 0) are left out of the sequence",
               "kernels that skip zero-size buffers when collecting their inputs",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 if (!is(c, "SequenceConstruct")) return std::nullopt;
                 std::vector<std::optional<Value>> kept;
                 for (const auto& in : c.inputs)
                   if (!in || !in->is_tensor() || in->tensor().element_count() != 0)
                     kept.push_back(in);
                 if (kept.size() == c.inputs.size() || kept.empty()) return std::nullopt;
                 return c.reference(kept);
               }}});
  return d;
}

}  // namespace seqconf::seeded
