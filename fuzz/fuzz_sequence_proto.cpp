// Fuzz target: a SequenceProto or OptionalProto decoded into a value, with or without a
// declared element type. The first byte chooses the message and the declaration; the rest is
// the message. Invalid messages must end in seqconf::Error; a decoded value must survive the
// round trip unchanged.
#include <cstdint>

#include "fuzz/fuzz_common.h"
#include "reference/proto.h"

using namespace seqconf;

namespace {

void check_round_trip(const Value& v, const onnx::TypeProto& declared) {
  for (auto enc : {TensorEncoding::typed_fields, TensorEncoding::raw_data}) {
    const Value back = value_from_bytes(value_to_bytes(v, enc), declared, "round trip");
    if (!back.identical(v)) fuzz::invariant_failed("value round trip", v.describe());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const TensorLimit limit(fuzz::kFuzzMaxTensorBytes);
  fuzz::Reader in(data, size);
  const uint8_t selector = in.byte();
  const std::string bytes = in.rest();
  // Low 4 bits: declared element type (0 = none, else the ONNX number, 15 types + invalid).
  const int32_t elem = selector & 0x0f;
  const bool optional = selector & 0x10;
  const bool optional_of_tensor = selector & 0x20;
  onnx::TypeProto declared;
  onnx::TypeProto* seq_type = &declared;
  if (optional) seq_type = declared.mutable_optional_type()->mutable_elem_type();
  if (optional && optional_of_tensor) {
    seq_type->mutable_tensor_type()->set_elem_type(elem);
  } else {
    auto* t = seq_type->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type();
    t->set_elem_type(elem);
  }
  Value v;
  try {
    v = value_from_bytes(bytes, declared, "input_0.pb");
  } catch (const Error&) {
    return 0;
  }
  if (optional != v.is_optional()) fuzz::invariant_failed("value kind", v.describe());
  if (elem != 0) {
    // A declared element type types the value, empty or not.
    const DataType got = v.is_sequence()   ? v.sequence().elem_type()
                         : v.is_optional() ? v.optional().elem_type
                                           : v.tensor().dtype();
    if (static_cast<int32_t>(got) != elem && !(optional && v.optional().element))
      fuzz::invariant_failed("declared element type", v.describe());
  }
  check_round_trip(v, declared);
  return 0;
}
