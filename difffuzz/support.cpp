#include "difffuzz/support.h"

#include "difffuzz/campaign.h"
#include "difffuzz/parallel.h"

namespace seqconf::difffuzz {

namespace {

// A minimal valid program holding the node: a sequence of two [2] tensors (a [2, 2] input to
// split), every optional input absent.
Program probe_program(std::optional<SourceKind> source, std::optional<Step> step, DataType d) {
  Program p;
  p.elem = d;
  p.source = source.value_or(SourceKind::input);
  if (p.source != SourceKind::empty) p.tensors = {Tensor::zeros(d, {2}), Tensor::zeros(d, {2})};
  if (step) p.steps.push_back(std::move(*step));
  return p;
}

Step probe_step(StepKind kind, gens::BodyKind body, DataType d) {
  Step s;
  s.kind = kind;
  switch (kind) {
    case StepKind::insert:
      s.tensor = Tensor::zeros(d, {2});
      break;
    case StepKind::at:
      s.position = Tensor::from_values<DataType::int64>({}, {0});
      break;
    case StepKind::concat:
      s.axis = 0;
      break;
    case StepKind::split:
      s.tensor = Tensor::zeros(d, {2, 2});
      break;
    case StepKind::map:
      s.body = body;
      if (body == gens::BodyKind::add_tensor) s.extra = Value(Tensor::zeros(d, {}));
      if (body == gens::BodyKind::add_sequence)
        s.extra = Value(Sequence(d, {Tensor::zeros(d, {2}), Tensor::zeros(d, {2})}));
      break;
    case StepKind::erase:
    case StepKind::length:
      break;
  }
  return s;
}

}  // namespace

Support probe_support(Runtime& runtime) { return probe_support(std::vector<Runtime*>{&runtime}); }

Support probe_support(const std::vector<Runtime*>& runtimes) {
  std::vector<std::pair<std::string, Program>> probes;
  for (DataType d : kAllDataTypes) {
    probes.emplace_back("SequenceEmpty", probe_program(SourceKind::empty, std::nullopt, d));
    probes.emplace_back("SequenceConstruct", probe_program(SourceKind::construct, std::nullopt, d));
    for (StepKind kind : {StepKind::insert, StepKind::erase, StepKind::at, StepKind::length,
                          StepKind::concat, StepKind::split})
      probes.emplace_back(support_node(kind),
                          probe_program(std::nullopt, probe_step(kind, {}, d), d));
    for (gens::BodyKind body : map_bodies(d))
      probes.emplace_back(support_node(StepKind::map, body),
                          probe_program(std::nullopt, probe_step(StepKind::map, body, d), d));
  }
  // One thread per runtime instance.
  std::vector<RunResult> results(probes.size());
  for_each_parallel(runtimes.size(), probes.size(), [&](size_t w, size_t k) {
    results[k] = run_on(*runtimes[w], build(probes[k].second));
  });
  Support support;
  for (size_t k = 0; k < probes.size(); ++k)
    if (!results[k].ok && results[k].error.kind == RunError::Kind::not_supported)
      support.not_supported[{probes[k].first, probes[k].second.elem}] = results[k].error.message;
  return support;
}

}  // namespace seqconf::difffuzz
