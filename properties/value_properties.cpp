// Properties over values: element types kept for all 15 types, and the protobuf round trip of
// all 16 carried types (bfloat16 included).
#include "properties/prop_util.h"
#include "properties/properties.h"
#include "reference/spec_clauses.h"

namespace seqconf::properties {

namespace {

// All five operators keep the element type, also when the result is an empty sequence.
void element_type_preserved(const OpSet& ops) {
  Context ctx;
  const DataType d = *gens::data_type();
  const size_t n = *gens::uniform<size_t>(1, 4);
  const Sequence s = *gens::sequence_of_length(d, n);
  const Tensor t = *gens::tensor_of_type(d, 0, 3, 16);
  RC_TAG(dtype_name(d));
  RC_CLASSIFY(n == 1, "erase empties the sequence");
  // SequenceAt: "Output tensor at the specified position in the input sequence."
  RC_ASSERT(ops.sequence_at(s, (*gens::valid_position(n, false)).tensor, ctx).dtype() == d);
  // Clause SequenceInsert.same_type.
  RC_ASSERT(ops.sequence_insert(s, t, (*gens::valid_position(n, true)).tensor, ctx).elem_type() ==
            d);
  RC_ASSERT(ops.sequence_erase(s, (*gens::valid_position(n, false)).tensor, ctx).elem_type() == d);
  // Erasing every tensor leaves an empty sequence that still has the element type.
  Sequence rest = s;
  while (!rest.empty()) rest = ops.sequence_erase(rest, std::nullopt, ctx);
  RC_ASSERT(rest.elem_type() == d);
  // SplitToSequence of a zero-length axis: no chunk, the sequence still of the input's type.
  const Tensor x = *gens::tensor_of(d, *gens::shape(1, 3));
  const Sequence chunks = ops.split_to_sequence(x, std::nullopt, 0, 1, ctx);
  RC_CLASSIFY(chunks.empty(), "split gives no chunk");
  RC_ASSERT(chunks.elem_type() == d);
  for (size_t k = 0; k < chunks.size(); ++k) RC_ASSERT(chunks.at(k).dtype() == d);
  // SequenceMap with an Identity body over an empty sequence: empty output of the body's type.
  const auto mapped =
      ops.sequence_map(Sequence(d), {}, gens::body_callable(gens::BodyKind::identity, d), ctx);
  RC_ASSERT(mapped.size() == 1);
  RC_ASSERT(mapped[0].empty());
  RC_ASSERT(mapped[0].elem_type() == d);
}

rc::Gen<Value> any_value() {
  return rc::gen::exec([]() -> Value {
    const DataType d = *gens::carried_data_type();
    switch (*gens::uniform<int>(0, 5)) {
      case 0:
        return *gens::tensor_of_type(d);
      case 1:
        return *gens::sequence_of(d);
      case 2:
        return make_optional(*gens::tensor_of_type(d, 0, 3, 16));
      case 3:
        return make_optional(*gens::sequence_of(d));
      default: {
        const bool seq = *rc::gen::arbitrary<bool>();
        Optional o;
        o.holds_sequence = seq;
        o.elem_type = d;
        return o;
      }
    }
  });
}

// Every value survives serialization and decoding against its declared type, in both tensor
// encodings (typed fields and raw_data), bit for bit.
void proto_round_trip(const OpSet& ops) {
  const Value v = *any_value();
  if (v.is_tensor()) classify_tensor(v.tensor());
  RC_CLASSIFY(v.is_tensor(), "tensor");
  RC_CLASSIFY(v.is_sequence(), "sequence");
  RC_CLASSIFY(v.is_optional() && v.optional().element, "optional");
  RC_CLASSIFY(v.is_optional() && !v.optional().element, "empty optional");
  RC_CLASSIFY(v.is_sequence() && v.sequence().empty(), "empty sequence");
  const onnx::TypeProto declared = type_of(v);
  for (TensorEncoding enc : {TensorEncoding::typed_fields, TensorEncoding::raw_data}) {
    const Value back = ops.decode(ops.encode(v, enc), declared);
    std::ostringstream os;
    showValue(back, os);
    RC_LOG() << (enc == TensorEncoding::raw_data ? "raw_data" : "typed fields") << " gave "
             << os.str() << std::endl;
    RC_ASSERT(back.identical(v));
  }
}

}  // namespace

void add_value_properties(std::vector<PropertyDef>& out) {
  out.push_back({"Types/ElementTypePreserved",
                 "SequenceAt, SequenceErase, SequenceInsert, SplitToSequence: all tensor types; " +
                     spec_text({"SequenceInsert.same_type"}),
                 element_type_preserved});
  out.push_back({"Proto/RoundTripBothEncodings",
                 "TensorProto, SequenceProto and OptionalProto carry every value of the 15 "
                 "types; typed fields and raw_data are equivalent encodings.",
                 proto_round_trip});
}

}  // namespace seqconf::properties
