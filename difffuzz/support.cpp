#include "difffuzz/support.h"

#include "difffuzz/campaign.h"

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

Support probe_support(Runtime& runtime) {
  Support support;
  auto probe = [&](const std::string& node, const Program& p) {
    const RunResult r = run_on(runtime, build(p));
    if (!r.ok && r.error.kind == RunError::Kind::not_supported)
      support.not_supported[{node, p.elem}] = r.error.message;
  };
  for (DataType d : kAllDataTypes) {
    probe("SequenceEmpty", probe_program(SourceKind::empty, std::nullopt, d));
    probe("SequenceConstruct", probe_program(SourceKind::construct, std::nullopt, d));
    for (StepKind kind : {StepKind::insert, StepKind::erase, StepKind::at, StepKind::length,
                          StepKind::concat, StepKind::split})
      probe(support_node(kind), probe_program(std::nullopt, probe_step(kind, {}, d), d));
    for (gens::BodyKind body : map_bodies(d))
      probe(support_node(StepKind::map, body),
            probe_program(std::nullopt, probe_step(StepKind::map, body, d), d));
  }
  return support;
}

}  // namespace seqconf::difffuzz
