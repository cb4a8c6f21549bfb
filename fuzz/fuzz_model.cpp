// Fuzz target: load, check and interpret a fuzzed model with fuzzed inputs, the path
// `seqconf run --runtime reference` takes for one case.
//
// Input: framed chunks (fuzz_common.h): the ModelProto, then one serialized value per graph
// input (decoded by the input's declared type, as load_case does); a last byte picks the
// policy. Every failure must be a seqconf::Error (or, from ONNX's checker, a finding).
#include <cstdint>

#include "fuzz/fuzz_common.h"
#include "harness/static_checks.h"
#include "reference/interpreter/interpreter.h"
#include "reference/proto.h"

using namespace seqconf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const TensorLimit limit(fuzz::kFuzzMaxTensorBytes);
  fuzz::Reader in(data, size);
  onnx::ModelProto model;
  if (!model.ParseFromString(in.chunk())) return 0;
  interp::InterpretedModel prepared;
  try {
    prepared = interp::InterpretedModel::prepare(model);
  } catch (const Error&) {
    return 0;
  }
  std::vector<Value> inputs;
  try {
    for (size_t k = 0; k < prepared.input_names().size(); ++k)
      inputs.push_back(value_from_bytes(in.chunk(), prepared.input_types()[k],
                                        "input_" + std::to_string(k) + ".pb"));
  } catch (const Error&) {
    return 0;
  }
  Context ctx;
  ctx.work_budget = fuzz::kFuzzWorkBudget;
  ctx.policy = in.byte() & 1 ? Policy::strict : Policy::lenient;
  std::vector<Value> outputs;
  try {
    outputs = prepared.run(inputs, ctx);
  } catch (const Error&) {
    return 0;
  }
  if (outputs.size() != prepared.output_names().size())
    fuzz::invariant_failed("output count", std::to_string(outputs.size()));
  // The static checks the runner adds to every case (ONNX's checker and shape inference)
  // must turn any complaint into a finding. They run only on models the interpreter accepts:
  // ONNX's checker itself is not under test here.
  (void)static_findings(check_statically(model, outputs));
  // Outputs must serialize (what a process runtime or a report does with them).
  for (const auto& v : outputs) (void)value_to_bytes(v, TensorEncoding::raw_data);
  return 0;
}
