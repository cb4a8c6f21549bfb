// Prints every value the reference's reader decodes from the .pb files of the corpus and of
// ONNX's sequence fixtures, one JSON object per file, for independent_reader_test.py to compare
// with ONNX's own Python decoder:
//   {"file": ".../test_data_set_0/input_1.pb", "kind": "tensor" | "sequence" | "optional",
//    "elem": <TensorProto.DataType>, "tensors": [{"dtype": d, "shape": [...], "data": hex}]}
// Numeric data is the elements' bytes in memory order (little-endian), hex; strings are a list
// of hex strings. An optional has "empty": true|false and at most one entry in "tensors" (or
// the tensors of the sequence it holds, with "holds_sequence"). A case the reader rejects is
// {"case": dir, "error": message}.
// Usage: dump_values CORPUS_DIR ONNX_TESTDATA_DIR
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cases/case.h"

namespace {

using seqconf::DataType;
using seqconf::Tensor;
using seqconf::Value;

std::string hex(const void* data, size_t n) {
  static const char digits[] = "0123456789abcdef";
  const auto* p = static_cast<const unsigned char*>(data);
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  return s;
}

nlohmann::json tensor_json(const Tensor& t) {
  nlohmann::json j{{"dtype", static_cast<int32_t>(t.dtype())}, {"shape", t.shape()}};
  if (t.dtype() == DataType::string) {
    nlohmann::json strings = nlohmann::json::array();
    for (size_t i = 0; i < t.element_count(); ++i)
      strings.push_back(hex(t.string_at(i).data(), t.string_at(i).size()));
    j["data"] = std::move(strings);
  } else {
    j["data"] = hex(t.bytes(), t.byte_size());
  }
  return j;
}

nlohmann::json value_json(const Value& v) {
  nlohmann::json j;
  nlohmann::json tensors = nlohmann::json::array();
  if (v.is_tensor()) {
    j["kind"] = "tensor";
    j["elem"] = static_cast<int32_t>(v.tensor().dtype());
    tensors.push_back(tensor_json(v.tensor()));
  } else if (v.is_sequence()) {
    j["kind"] = "sequence";
    j["elem"] = static_cast<int32_t>(v.sequence().elem_type());
    for (const Tensor& t : v.sequence().tensors()) tensors.push_back(tensor_json(t));
  } else {
    const seqconf::Optional& o = v.optional();
    j["kind"] = "optional";
    j["elem"] = static_cast<int32_t>(o.elem_type);
    j["holds_sequence"] = o.holds_sequence;
    j["empty"] = !o.element;
    if (o.element && o.holds_sequence)
      for (const Tensor& t : o.element->sequence().tensors()) tensors.push_back(tensor_json(t));
    else if (o.element)
      tensors.push_back(tensor_json(o.element->tensor()));
  }
  j["tensors"] = std::move(tensors);
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: dump_values CORPUS_DIR ONNX_TESTDATA_DIR\n";
    return 2;
  }
  try {
    std::vector<seqconf::Case> cases = seqconf::load_corpus(argv[1]);
    for (auto& c : seqconf::discover_onnx_backend(argv[2])) cases.push_back(std::move(c));
    for (const seqconf::Case& c : cases) {
      seqconf::LoadedCase lc;
      try {
        lc = seqconf::load_case(c);
      } catch (const std::exception& e) {
        std::cout << nlohmann::json{{"case", c.dir.string()}, {"error", e.what()}}.dump() << '\n';
        continue;
      }
      for (const seqconf::DataSet& d : lc.data_sets) {
        auto emit = [&](const std::vector<Value>& values, const char* prefix) {
          for (size_t k = 0; k < values.size(); ++k) {
            nlohmann::json j = value_json(values[k]);
            j["file"] = (c.dir / d.name / (prefix + std::to_string(k) + ".pb")).string();
            std::cout << j.dump() << '\n';
          }
        };
        emit(d.inputs, "input_");
        emit(d.outputs, "output_");
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "dump_values: " << e.what() << '\n';
    return 2;
  }
  return 0;
}
