// RapidCheck generators of ONNX element types: the 15 tensor types of the sequence operators,
// and the 16 the suite carries.
#pragma once

#include <rapidcheck.h>

#include "reference/dtype.h"

namespace seqconf::gens {

// Any of the 15 tensor types (SPEC, type constraints: "all tensor types").
inline rc::Gen<DataType> data_type() { return rc::gen::elementOf(kAllDataTypes); }

// Any of the 16 carried types: the 15 and bfloat16 (SplitToSequence-24, values, protobuf).
inline rc::Gen<DataType> carried_data_type() { return rc::gen::elementOf(kCarriedDataTypes); }

// Types the Add body of SequenceMap is defined for here (a subset of Add's numeric types).
inline rc::Gen<DataType> add_data_type() {
  return rc::gen::element(DataType::float32, DataType::float64, DataType::int32, DataType::int64);
}

}  // namespace seqconf::gens

namespace rc {
template <>
struct Arbitrary<seqconf::DataType> {
  static Gen<seqconf::DataType> arbitrary() { return seqconf::gens::data_type(); }
};
}  // namespace rc
