// RapidCheck generators for the values and inputs of the five sequence operators, and
// printers that show them in counterexamples.
#pragma once

#include <ostream>
#include <string>

#include "generators/gen_body.h"
#include "generators/gen_dtype.h"
#include "generators/gen_position.h"
#include "generators/gen_sequence.h"
#include "generators/gen_split.h"
#include "generators/gen_tensor.h"

namespace seqconf {

// Type, shape and (up to max_elements) values, e.g. "tensor(float)[2]{1, -0}".
std::string format_tensor(const Tensor& t, size_t max_elements = 16);

// Found by RapidCheck through argument-dependent lookup when it prints a counterexample.
void showValue(DataType d, std::ostream& os);
void showValue(const Tensor& t, std::ostream& os);
void showValue(const Sequence& s, std::ostream& os);
void showValue(const Value& v, std::ostream& os);

namespace gens {
void showValue(const PositionInput& p, std::ostream& os);
void showValue(const SplitInput& s, std::ostream& os);
void showValue(BodyKind k, std::ostream& os);
void showValue(const MapCase& c, std::ostream& os);
}  // namespace gens

}  // namespace seqconf
