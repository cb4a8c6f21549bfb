// Synthetic outcomes for the report tests: every status, cases without dtype, graph contexts
// (and cases without one), ambiguities, and strings that need escaping. The counts below are
// written by hand from this list.
#pragma once

#include <string>
#include <vector>

#include "harness/outcome.h"
#include "reports/report.h"

namespace seqconf::reports::testing {

// How many times needle occurs in hay, overlapping occurrences included.
inline size_t occurrences(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

inline Outcome outcome(std::string id, std::string op, std::string dtype, Status status,
                       Reason reason = Reason::none, std::string message = {},
                       std::string context = {}) {
  Outcome o;
  o.case_id = std::move(id);
  o.source = "corpus";
  o.op = std::move(op);
  o.dtype = std::move(dtype);
  o.context = std::move(context);
  o.status = status;
  o.reason = reason;
  o.message = std::move(message);
  o.duration_ms = 1.5;
  return o;
}

// The run of the synthetic reports: a reference run over all sources, fixed times.
inline RunInfo run_info(std::string runtime_name = "reference",
                        std::string runtime_version = "0.1.0") {
  RunInfo i;
  i.runtime_name = std::move(runtime_name);
  i.runtime_version = std::move(runtime_version);
  i.start_time = "2026-01-01T00:00:00.000Z";
  i.end_time = "2026-01-01T00:00:01.000Z";
  i.options = {{"runtime", i.runtime_name}, {"source", "all"}};
  return i;
}

inline Ambiguity position_shape_ambiguity(std::string detail) {
  return {"position_shape_1", "SequenceInsert",
          "'position' ... It is an error if 'position' is not a scalar tensor.", std::move(detail)};
}

// 10 outcomes: pass 4, fail 1, error 1, not_supported 2, crash 1, skipped 1
// (SequenceAt 3, SequenceInsert 3, SplitToSequence 3, model 1).
// Graph contexts (none given: inputs):
//   SequenceAt       inputs 1 (pass), loop_body 2 (pass, fail)
//   SequenceInsert   if_branch 2 (pass, error), inputs 1 (crash)
//   SplitToSequence  initializers 1 (not_supported), constant_nodes 1 (not_supported),
//                    inputs 1 (skipped)
//   model            inputs 1 (pass)
inline std::vector<Outcome> synthetic_outcomes() {
  std::vector<Outcome> v;
  v.push_back(outcome("corpus.SequenceAt.float.pos_0", "SequenceAt", "float", Status::pass));
  v.push_back(outcome("corpus.SequenceAt.float.pos_neg", "SequenceAt", "float", Status::fail,
                      Reason::value_mismatch, "output 0 element 1: expected 2, got 3 <&>\"'",
                      "loop_body"));
  v.push_back(outcome("corpus.SequenceAt.string.pos_0", "SequenceAt", "string", Status::pass,
                      Reason::none, {}, "loop_body"));
  auto ins = outcome("corpus.SequenceInsert.float.pos_shape_1", "SequenceInsert", "float",
                     Status::pass, Reason::none, {}, "if_branch");
  ins.ambiguities.push_back(position_shape_ambiguity("accepted position of shape [1]"));
  v.push_back(ins);
  auto ins2 =
      outcome("corpus.SequenceInsert.int8.pos_shape_1", "SequenceInsert", "int8", Status::error,
              Reason::invalid_input, "position must be a scalar", "if_branch");
  ins2.ambiguities.push_back(position_shape_ambiguity("accepted position of shape [1]"));
  v.push_back(ins2);
  v.push_back(outcome("corpus.SequenceInsert.int8.append", "SequenceInsert", "int8", Status::crash,
                      Reason::crash, "killed by signal 11\x01 \xff bytes", "inputs"));
  v.push_back(outcome("corpus.SplitToSequence.uint16.split_scalar", "SplitToSequence", "uint16",
                      Status::not_supported, Reason::not_supported, "no kernel for uint16",
                      "initializers"));
  v.push_back(outcome("corpus.SplitToSequence.uint32.split_scalar", "SplitToSequence", "uint32",
                      Status::not_supported, Reason::not_supported, "no kernel for uint32",
                      "constant_nodes"));
  v.push_back(outcome("corpus.SplitToSequence.float.keepdims_0", "SplitToSequence", "float",
                      Status::skipped, Reason::none, "filtered"));
  auto m = outcome("onnx-backend.simple.test_sequence_model1", "model", "", Status::pass);
  m.source = "onnx-backend";
  m.findings.push_back(
      {"shape_inference", "output 0: inferred seq(tensor(float)), expected <int8>"});
  v.push_back(m);
  return v;
}

// A base and a new run for seqconf diff: the 10 synthetic outcomes plus
// corpus.SequenceAt.bool.pos_neg_1 (SequenceAt, loop_body, pass) as base, and a new run that
// departs from it as follows (the expected categories, by hand):
//   regressed   SequenceAt.float.pos_0        inputs     pass -> fail/value_mismatch
//               SequenceAt.string.pos_0       loop_body  pass -> fail/value_mismatch
//               SequenceAt.bool.pos_neg_1     loop_body  pass -> fail/value_mismatch
//               SequenceInsert.float.pos_shape_1 if_branch pass -> skipped
//   progressed  SequenceAt.float.pos_neg      fail/value_mismatch -> pass
//               SplitToSequence.uint32.split_scalar  not_supported/not_supported -> pass
//   changed     SequenceInsert.int8.pos_shape_1  error/invalid_input -> error/internal
//               SequenceInsert.int8.append       crash/crash -> timeout/timeout
//   appeared    corpus.SequenceMap.float.identity  fail/shape_mismatch
//   disappeared onnx-backend.simple.test_sequence_model1 (pass)
//   unchanged   SplitToSequence.uint16.split_scalar (another message only),
//               SplitToSequence.float.keepdims_0 (skipped)
inline std::vector<Outcome> diff_base_outcomes() {
  auto v = synthetic_outcomes();
  v.push_back(outcome("corpus.SequenceAt.bool.pos_neg_1", "SequenceAt", "bool", Status::pass,
                      Reason::none, {}, "loop_body"));
  return v;
}

inline std::vector<Outcome> diff_new_outcomes() {
  std::vector<Outcome> v;
  for (auto o : diff_base_outcomes()) {
    const std::string& id = o.case_id;
    const auto set = [&](Status s, Reason r, std::string message) {
      o.status = s;
      o.reason = r;
      o.message = std::move(message);
    };
    if (id == "corpus.SequenceAt.float.pos_0" || id == "corpus.SequenceAt.string.pos_0" ||
        id == "corpus.SequenceAt.bool.pos_neg_1")
      set(Status::fail, Reason::value_mismatch, "output 0 element 0: expected 1, got 0");
    else if (id == "corpus.SequenceInsert.float.pos_shape_1")
      set(Status::skipped, Reason::none, "filtered");
    else if (id == "corpus.SequenceAt.float.pos_neg" ||
             id == "corpus.SplitToSequence.uint32.split_scalar")
      set(Status::pass, Reason::none, {});
    else if (id == "corpus.SequenceInsert.int8.pos_shape_1")
      set(Status::error, Reason::internal, "internal error");
    else if (id == "corpus.SequenceInsert.int8.append")
      set(Status::timeout, Reason::timeout, "no answer within 10 s");
    else if (id == "corpus.SplitToSequence.uint16.split_scalar")
      o.message = "uint16 is not registered";
    else if (id == "onnx-backend.simple.test_sequence_model1")
      continue;
    v.push_back(std::move(o));
  }
  v.push_back(outcome("corpus.SequenceMap.float.identity", "SequenceMap", "float", Status::fail,
                      Reason::shape_mismatch, "output 0: shape [2] <> [3]", "sequence_map_body"));
  return v;
}

}  // namespace seqconf::reports::testing
