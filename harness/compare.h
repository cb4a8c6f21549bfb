// Comparison of a runtime's outputs with the expected ones. Element types, shapes and sequence
// lengths always exactly; then by the case's ComparisonRule (cases/case_json.h, the one table
// that decides it):
// - exact: every element bit for bit. Floating types by their bits (a NaN's sign and payload,
//   -0.0, subnormals), complex per component, integers and bools exactly, strings as byte
//   strings. The operators under test copy values: SequenceAt "Outputs a tensor copy from the
//   tensor at 'position'", and the others return the tensors they were given, so a conformant
//   runtime returns the very bits it was given. A difference is named by what it lost
//   (zero_sign_changed, nan_changed, nan_quieted, subnormal_flushed, bits_changed, else
//   value_mismatch), with the first differing element in decimal and in hex.
// - tolerance: the way ONNX's backend tests compare computed values: floating types within
//   |actual - expected| <= atol + rtol * |expected| (float16 through float, complex per
//   component), NaN equal to NaN, -0.0 equal to +0.0; integers, bools and strings exactly.
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

Comparison compare_value(const Value& expected, const Value& actual, const ComparisonRule& rule,
                         const std::string& where);
Comparison compare_outputs(const std::vector<Value>& expected, const std::vector<Value>& actual,
                           const ComparisonRule& rule);

// "tensor(float)[2,3]", "seq(tensor(int64))[4]", ... for outcome summaries.
std::string summarize_values(const std::vector<Value>& values);

}  // namespace seqconf
