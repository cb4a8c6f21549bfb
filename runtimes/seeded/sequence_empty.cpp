// Seeded defects of SequenceEmpty. The spec, of dtype: "The default type is 'float'."
#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

std::vector<Defect> sequence_empty_defects() {
  std::vector<Defect> d;
  d.push_back({"empty.default_int64",
               "SequenceEmpty",
               "without a dtype attribute the empty sequence is of int64 instead of float",
               "runtimes whose default element type is their index type",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 if (!is(c, "SequenceEmpty")) return std::nullopt;
                 for (const auto& a : c.node.attribute())
                   if (a.name() == "dtype") return std::nullopt;
                 return std::vector<Value>{Value(Sequence(DataType::int64))};
               }}});
  return d;
}

}  // namespace seqconf::seeded
