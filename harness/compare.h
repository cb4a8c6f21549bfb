// Comparison of a runtime's outputs with the expected ones, the way ONNX's backend tests
// compare: element types, shapes and sequence lengths exactly; integers, bools and strings
// exactly; floating types within |actual - expected| <= atol + rtol * |expected| (float16
// through float, complex per component), NaN equal to NaN.
#pragma once

#include <string>
#include <vector>

#include "cases/case.h"
#include "harness/outcome.h"
#include "reference/value.h"

namespace seqconf {

struct Comparison {
  bool ok = true;
  // value_mismatch | shape_mismatch | dtype_mismatch | length_mismatch | kind_mismatch |
  // output_count_mismatch (Outcome::reason for fail); none when ok.
  Reason reason = Reason::none;
  std::string message;  // names output index, element index, expected and actual
};

Comparison compare_value(const Value& expected, const Value& actual, const Tolerance& tol,
                         const std::string& where);
Comparison compare_outputs(const std::vector<Value>& expected, const std::vector<Value>& actual,
                           const Tolerance& tol);

// "tensor(float)[2,3]", "seq(tensor(int64))[4]", ... for outcome summaries.
std::string summarize_values(const std::vector<Value>& values);

}  // namespace seqconf
