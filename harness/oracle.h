// The spec's meaning of a case, data set by data set: the outputs the spec gives, or its
// rejection (of the model whatever its inputs, or of these inputs), or "not judged" with what
// stopped it. One component gives it, and every path that asks uses it with the same options:
// the runner's three verdicts, the bundle and its control, the fuzzer and selftest.
//   cases -> oracle (reference + host + policy + static check) -> what a runtime is held to
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cases/case.h"
#include "harness/outcome.h"
#include "reference/context.h"
#include "reference/interpreter/interpreter.h"
#include "runtimes/runtime.h"

namespace seqconf {

struct OracleOptions {
  OracleOptions(Policy p = Policy::lenient, std::shared_ptr<const interp::HostKernel> h = nullptr,
                bool locate = false)
      : policy(p), host(std::move(h)), locate_rejections(locate) {}
  Policy policy = Policy::lenient;
  // Runs the nodes the reference does not implement (runtimes/host.h); none: a data set that
  // needs one is not judged.
  std::shared_ptr<const interp::HostKernel> host;
  // A case of the corpus or ONNX's fixtures that must be rejected: ask the reference whether it
  // rejects the model itself (Meaning::static_rejection), which a bundle's README says; the
  // runner, which needs only the code, does not prepare the model twice.
  bool locate_rejections = false;
};

// What the spec says of one data set.
struct Meaning {
  enum class Kind { outputs, rejected, not_judged };
  Kind kind = Kind::outputs;
  std::vector<Value> outputs;  // outputs: what the spec gives
  // rejected: the reference's stable error code; for a case of the corpus or ONNX's fixtures,
  // the code its expectation names under the policy.
  std::string code;
  // rejected: the model itself is what the spec rejects, whatever its inputs (a static type
  // error, the graph's structure): the reference refuses it when it is prepared, or it fails the
  // static check on any data set. For a fixture's case, only with OracleOptions::
  // locate_rejections.
  bool static_rejection = false;
  // rejected, not_judged: the reference stopped when it prepared the model, before any data set.
  bool at_prepare = false;
  // rejected, not_judged: the reference's words; not_judged: what stopped it.
  std::string message;
  Reason gap = Reason::none;  // not_judged: why (reference_not_supported, host_rejected, ...)
  RunError error;             // rejected, not_judged: the reference's error as it was raised
  bool judged() const { return kind != Kind::not_judged; }
  bool rejected() const { return kind == Kind::rejected; }
};

struct CaseMeaning {
  std::vector<Meaning> data_sets;  // one per data set of the LoadedCase, in its order
  // The nodes the reference ran on its host, over every data set, and the host's name.
  std::map<std::string, size_t> delegated;
  std::string host;
  // Whether the reference itself was run (an exported case); else the fixture's expectation.
  bool from_reference = false;
  size_t judged() const;
  // The first data set not judged, or null.
  const Meaning* first_gap() const;
  // The spec rejects the model or its inputs on every data set judged (and one was judged).
  bool must_reject() const;
};

// Whether a rejection by the reference is a gap of the reference (an operator it lacks with no
// host, a limit, a random draw, a host that failed, an exception) rather than the spec's verdict;
// nullopt when it is the spec's verdict.
std::optional<Reason> reference_gap(const RunError& e);

// The spec's meaning of every data set of a loaded case. An exported case's is the reference's,
// run under options (its data sets' outputs in lc are the framework's, not the spec's); any other
// case's is its fixture's expectation under the policy (its outputs, or the error it must be
// rejected with), with where the reference rejects it. A static rejection on one data set is one
// on every data set, whatever stopped the others.
CaseMeaning spec_meaning(const Case& c, const LoadedCase& lc, const OracleOptions& options);

}  // namespace seqconf
