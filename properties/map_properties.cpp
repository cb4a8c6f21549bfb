// Properties of SequenceMap: identity body, per-sample application, other sequences' lengths
// under both policies, and the equivalence with its Loop expansion.
#include "properties/prop_util.h"
#include "properties/properties.h"
#include "reference/spec_clauses.h"

namespace seqconf::properties {

namespace {

using gens::BodyKind;
using gens::MapCase;

bool has_nan(const MapCase& c) {
  auto nan_in = [](const Tensor& t) {
    for (size_t i = 0; i < t.element_count(); ++i) {
      if (t.dtype() == DataType::float32 && t.data<float>()[i] != t.data<float>()[i]) return true;
      if (t.dtype() == DataType::float64 && t.data<double>()[i] != t.data<double>()[i]) return true;
    }
    return false;
  };
  for (size_t i = 0; i < c.input_sequence.size(); ++i)
    if (nan_in(c.input_sequence.at(i))) return true;
  for (const Value& v : c.additional_inputs) {
    if (v.is_tensor() && nan_in(v.tensor())) return true;
    if (v.is_sequence())
      for (size_t i = 0; i < v.sequence().size(); ++i)
        if (nan_in(v.sequence().at(i))) return true;
  }
  return false;
}

void classify_map_case(const MapCase& c) {
  RC_TAG(gens::body_kind_name(c.kind));
  classify_length(c.input_sequence.size());
  RC_CLASSIFY(c.elem_type() == DataType::string, "string");
  RC_CLASSIFY(c.elem_type() == DataType::float16, "float16");
}

// Clauses SequenceMap.per_sample and SequenceMap.order.
std::vector<Sequence> expected_outputs(const MapCase& c) {
  const auto types = gens::body_output_types(c.kind, c.elem_type());
  std::vector<std::vector<Tensor>> columns(types.size());
  for (size_t i = 0; i < c.input_sequence.size(); ++i) {
    std::vector<Value> sample = {c.input_sequence.at(i)};
    for (const Value& in : c.additional_inputs)
      sample.push_back(in.is_sequence() ? Value(in.sequence().at(i)) : in);
    const auto result = gens::apply_body(c.kind, sample);
    for (size_t j = 0; j < types.size(); ++j) columns[j].push_back(result[j].tensor());
  }
  std::vector<Sequence> out;
  for (size_t j = 0; j < types.size(); ++j) out.emplace_back(types[j], std::move(columns[j]));
  return out;
}

// Bit-exact, except that an Add body may return any NaN for a NaN sum (see
// same_up_to_nan_payload); Identity and Shape must give back exactly what they were given.
void assert_same_outputs(const std::vector<Sequence>& got, const std::vector<Sequence>& expected,
                         BodyKind kind) {
  const bool arithmetic = kind == BodyKind::add_tensor || kind == BodyKind::add_sequence;
  RC_LOG() << "got " << got.size() << " outputs, expected " << expected.size() << std::endl;
  RC_ASSERT(got.size() == expected.size());
  for (size_t j = 0; j < got.size(); ++j) {
    RC_LOG() << "output " << j << ": got " << show(got[j]) << "\n  expected " << show(expected[j])
             << std::endl;
    const bool same =
        arithmetic ? same_up_to_nan_payload(got[j], expected[j]) : got[j].identical(expected[j]);
    RC_ASSERT(same);
  }
}

void identity_is_identity(const OpSet& ops) {
  Context ctx;
  const Sequence s = *gens::sequence();
  classify_length(s.size());
  RC_CLASSIFY(s.elem_type() == DataType::string, "string");
  const auto out =
      ops.sequence_map(s, {}, gens::body_callable(BodyKind::identity, s.elem_type()), ctx);
  assert_same_outputs(out, {s}, BodyKind::identity);
}

void equals_body_applied_per_sample(const OpSet& ops) {
  Context ctx;
  const MapCase c = *gens::map_case();
  classify_map_case(c);
  RC_CLASSIFY(has_nan(c), "NaN input");
  const auto got = ops.sequence_map(c.input_sequence, c.additional_inputs,
                                    gens::body_callable(c.kind, c.elem_type()), ctx);
  assert_same_outputs(got, expected_outputs(c), c.kind);
}

void equals_loop_expansion(const OpSet& ops) {
  Context ctx;
  const MapCase c = *gens::map_case(4);
  classify_map_case(c);
  // SequenceMap-17 is a function op: its context-dependent function body is a Loop over the
  // samples. The node run through that expansion must give what the operator gives.
  const auto direct = ops.sequence_map(c.input_sequence, c.additional_inputs,
                                       gens::body_callable(c.kind, c.elem_type()), ctx);
  const auto expanded = ops.sequence_map_expanded(c.input_sequence, c.additional_inputs,
                                                  gens::body_graph(c.kind, c.elem_type()));
  assert_same_outputs(expanded, direct, c.kind);
}

// Clause SequenceMap.same_samples: "Any other sequence inputs should have the same number of
// samples." A second sequence of another length than the first, drawn shorter or longer.
struct OtherLength {
  Sequence first;
  Sequence other;
};

OtherLength other_length() {
  Sequence s = *gens::sequence();
  const size_t n = s.size();
  size_t m = *gens::uniform<size_t>(0, 6);
  if (m >= n) ++m;  // any length but n
  Sequence other = *gens::sequence_of_length(s.elem_type(), m);
  classify_length(n);
  RC_CLASSIFY(m == 0, "second sequence empty");
  RC_CLASSIFY(m > n, "second sequence longer");
  return {std::move(s), std::move(other)};
}

// The body returns both samples of an iteration.
ops::SequenceMapBody both_samples(DataType d) {
  ops::SequenceMapBody body;
  body.num_inputs = 2;
  body.output_elem_types = {d, d};
  body.run = [](const std::vector<Value>& sample) { return sample; };
  return body;
}

// Strict policy: any other length is rejected.
void strict_rejects_any_other_length(const OpSet& ops) {
  Context ctx;
  ctx.policy = Policy::strict;
  const OtherLength drawn = other_length();
  const Sequence& s = drawn.first;
  const Sequence& other = drawn.other;
  assert_error({ErrorCode::sequence_length_mismatch},
               [&] { ops.sequence_map(s, {Value(other)}, both_samples(s.elem_type()), ctx); });
}

// Lenient policy: a shorter sequence is rejected ("a sample will be extracted from the input
// sequence(s) at the i-th position" has nothing past its end); a longer one gives its first n
// samples, as ONNX's function body (a Loop over the first sequence's length) reads it, and
// records the ambiguity sequence_map_lengths.
void lenient_reads_first_samples_of_longer(const OpSet& ops) {
  Context ctx;
  const OtherLength drawn = other_length();
  const Sequence& s = drawn.first;
  const Sequence& other = drawn.other;
  const size_t n = s.size();
  if (other.size() < n) {
    assert_error({ErrorCode::sequence_length_mismatch},
                 [&] { ops.sequence_map(s, {Value(other)}, both_samples(s.elem_type()), ctx); });
    return;
  }
  const auto got = ops.sequence_map(s, {Value(other)}, both_samples(s.elem_type()), ctx);
  std::vector<Tensor> first_n;
  for (size_t i = 0; i < n; ++i) first_n.push_back(other.at(i));
  assert_same_outputs(got, {s, Sequence(other.elem_type(), std::move(first_n))},
                      BodyKind::identity);
  RC_LOG() << ctx.ambiguities.size() << " ambiguities recorded" << std::endl;
  RC_ASSERT(ctx.ambiguities.size() == 1u);
  RC_ASSERT(ctx.ambiguities[0].id == "sequence_map_lengths");
}

}  // namespace

void add_map_properties(std::vector<PropertyDef>& out) {
  out.push_back(
      {"SequenceMap/IdentityIsIdentity", spec_text({"SequenceMap.order"}), identity_is_identity});
  out.push_back({"SequenceMap/EqualsBodyAppliedPerSample", spec_text({"SequenceMap.per_sample"}),
                 equals_body_applied_per_sample});
  out.push_back({"SequenceMap/StrictRejectsAnyOtherLength", spec_text({"SequenceMap.same_samples"}),
                 strict_rejects_any_other_length});
  out.push_back({"SequenceMap/LenientReadsFirstSamplesOfLonger",
                 spec_text({"SequenceMap.same_samples", "SequenceMap.per_sample"}),
                 lenient_reads_first_samples_of_longer});
  out.push_back({"SequenceMap/EqualsLoopExpansion",
                 "SequenceMap-17 has a context-dependent function body (a Loop over the "
                 "samples); the node and its expansion give the same outputs.",
                 equals_loop_expansion});
}

}  // namespace seqconf::properties
