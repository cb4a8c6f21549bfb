// Fuzz target: a TensorProto decoded into a Tensor (tensor_from_proto and value_from_bytes).
// Invalid messages must end in seqconf::Error; a decoded tensor must survive the round trip
// through both encodings unchanged.
#include <cstdint>

#include "fuzz/fuzz_common.h"
#include "reference/proto.h"

using namespace seqconf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const TensorLimit limit(fuzz::kFuzzMaxTensorBytes);
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  onnx::TensorProto proto;
  if (!proto.ParseFromString(bytes)) return 0;
  Tensor t;
  try {
    t = tensor_from_proto(proto);
  } catch (const Error&) {
    return 0;
  }
  for (auto enc : {TensorEncoding::typed_fields, TensorEncoding::raw_data}) {
    const Tensor back = tensor_from_proto(tensor_to_proto(t, enc));
    if (!back.identical(t)) fuzz::invariant_failed("tensor round trip", t.describe());
  }
  // The same bytes read as a graph input declared tensor(<its type>).
  onnx::TypeProto declared;
  declared.mutable_tensor_type()->set_elem_type(static_cast<int32_t>(t.dtype()));
  Value v;
  try {
    v = value_from_bytes(bytes, declared, "input_0.pb");
  } catch (const Error& e) {
    // Stricter than tensor_from_proto in one way only: fields that do not fit the type.
    if (proto.unknown_fields().empty())
      fuzz::invariant_failed("value_from_bytes rejects a decodable tensor", e.what());
    return 0;
  }
  if (!v.is_tensor() || !v.tensor().identical(t))
    fuzz::invariant_failed("value_from_bytes", t.describe());
  return 0;
}
