// RapidCheck generator of ONNX element types: all 15 tensor types of the sequence operators.
#pragma once

#include <rapidcheck.h>

#include "reference/dtype.h"

namespace seqconf::gens {

// Any of the 15 tensor types (SPEC, type constraints: "all tensor types").
inline rc::Gen<DataType> data_type() { return rc::gen::elementOf(kAllDataTypes); }

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
