// RapidCheck generators of SequenceMap cases: a body from a small set (Identity, Add with an
// extra tensor or a second sequence, Shape, and a two-node body), as an
// ops::SequenceMapBody callable and as the ONNX GraphProto of the `body` attribute, with
// inputs that fit it.
#pragma once

#include <rapidcheck.h>

#include <onnx/onnx_pb.h>

#include <vector>

#include "generators/gen_sequence.h"
#include "reference/ops/ops.h"

namespace seqconf::gens {

enum class BodyKind {
  identity,      // out0 = Identity(in0)
  add_tensor,    // out0 = Add(in0, in1), in1 a scalar tensor passed whole to every sample
  add_sequence,  // out0 = Add(in0, in1), in1 a second sequence of the same shapes
  shape,         // out0 = Shape(in0)
  two_node,      // out0 = Identity(in0), out1 = Shape(in0)
};

const char* body_kind_name(BodyKind kind);

// The body as a function of one sample (one value per node input), computed independently of
// the reference operators.
std::vector<Value> apply_body(BodyKind kind, const std::vector<Value>& sample);
// Element types of the body's outputs for input element type elem.
std::vector<DataType> body_output_types(BodyKind kind, DataType elem);
ops::SequenceMapBody body_callable(BodyKind kind, DataType elem);
// The `body` GraphProto: inputs in0 (and in1), outputs out0 (and out1), tensor types without
// shapes.
onnx::GraphProto body_graph(BodyKind kind, DataType elem);

struct MapCase {
  BodyKind kind = BodyKind::identity;
  Sequence input_sequence;
  std::vector<Value> additional_inputs;
  DataType elem_type() const { return input_sequence.elem_type(); }
};

inline rc::Gen<MapCase> map_case_of(BodyKind kind, size_t max_length = 6) {
  return rc::gen::exec([=] {
    MapCase c;
    c.kind = kind;
    const bool adds = kind == BodyKind::add_tensor || kind == BodyKind::add_sequence;
    const DataType elem = adds ? *add_data_type() : *data_type();
    const size_t n = *sequence_length(max_length);
    if (kind == BodyKind::add_sequence) {
      // Clause SequenceMap.same_samples.
      const auto shapes = *rc::gen::container<std::vector<Shape>>(n, shape(0, 3, 16));
      std::vector<Tensor> a, b;
      for (const Shape& s : shapes) {
        a.push_back(*tensor_of(elem, s));
        b.push_back(*tensor_of(elem, s));
      }
      c.input_sequence = Sequence(elem, std::move(a));
      c.additional_inputs.push_back(Sequence(elem, std::move(b)));
    } else {
      c.input_sequence = *sequence_of_length(elem, n);
      if (kind == BodyKind::add_tensor) c.additional_inputs.push_back(*tensor_of(elem, {}));
    }
    return c;
  });
}

inline rc::Gen<MapCase> map_case(size_t max_length = 6) {
  return rc::gen::mapcat(
      rc::gen::element(BodyKind::identity, BodyKind::add_tensor, BodyKind::add_sequence,
                       BodyKind::shape, BodyKind::two_node),
      [=](BodyKind k) { return map_case_of(k, max_length); });
}

}  // namespace seqconf::gens
