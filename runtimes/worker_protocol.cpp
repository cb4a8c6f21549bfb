// The messages between an isolated runtime and its worker: length-prefixed fields, and the
// values and run results in them; see worker_protocol.h.
#include "runtimes/worker_protocol.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "reference/error.h"
#include "reference/proto.h"

namespace seqconf {

void put_field(std::string& out, const std::string& field) {
  const uint64_t n = field.size();
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  out += field;
}

std::string FieldReader::get() {
  uint64_t n = 0;
  if (s_.size() - pos_ < sizeof n) throw Error(ErrorCode::invalid_proto, "truncated message");
  std::memcpy(&n, s_.data() + pos_, sizeof n);
  pos_ += sizeof n;
  if (s_.size() - pos_ < n) throw Error(ErrorCode::invalid_proto, "truncated message");
  std::string r = s_.substr(pos_, n);
  pos_ += n;
  return r;
}

namespace worker_protocol {

void put_values(std::string& out, const std::vector<Value>& values) {
  put(out, std::to_string(values.size()));
  for (const Value& v : values) {
    put(out, type_of(v).SerializeAsString());
    put(out, value_to_bytes(v, TensorEncoding::raw_data));
  }
}

std::vector<Value> get_values(Reader& in, const std::string& what) {
  std::vector<Value> values;
  const size_t n = std::stoul(in.get());
  for (size_t i = 0; i < n; ++i) {
    onnx::TypeProto type;
    if (!type.ParseFromString(in.get())) throw Error(ErrorCode::invalid_proto, "bad TypeProto");
    values.push_back(value_from_bytes(in.get(), type, what + " " + std::to_string(i)));
  }
  return values;
}

std::string encode(const RunResult& r) {
  std::string out;
  put(out, r.ok ? "1" : "0");
  put(out, std::to_string(static_cast<int>(r.error.kind)));
  put(out, r.error.message);
  put(out, r.error.code);
  put(out, r.error.fault_op);
  put(out, r.error.fault_node);
  put_values(out, r.outputs);
  put(out, std::to_string(r.ambiguities.size()));
  for (const Ambiguity& a : r.ambiguities) {
    put(out, a.id);
    put(out, a.op);
    put(out, a.spec_sentence);
    put(out, a.detail);
  }
  put(out, std::to_string(r.delegated.size()));
  for (const auto& [op, n] : r.delegated) {
    put(out, op);
    put(out, std::to_string(n));
  }
  put(out, r.host);
  return out;
}

RunResult decode(const std::string& bytes) {
  Reader in(bytes);
  RunResult r;
  r.ok = in.get() == "1";
  r.error.kind = static_cast<RunError::Kind>(std::stoi(in.get()));
  r.error.message = in.get();
  r.error.code = in.get();
  r.error.fault_op = in.get();
  r.error.fault_node = in.get();
  r.outputs = get_values(in, "output");
  const size_t m = std::stoul(in.get());
  for (size_t i = 0; i < m; ++i) {
    Ambiguity a;
    a.id = in.get();
    a.op = in.get();
    a.spec_sentence = in.get();
    a.detail = in.get();
    r.ambiguities.push_back(std::move(a));
  }
  const size_t d = std::stoul(in.get());
  for (size_t i = 0; i < d; ++i) {
    std::string op = in.get();
    r.delegated[op] = std::stoul(in.get());
  }
  r.host = in.get();
  return r;
}

RunResult failure(RunError::Kind kind, std::string message) {
  RunResult r;
  r.error = {kind, std::move(message), "", {}, {}};
  return r;
}

}  // namespace worker_protocol

}  // namespace seqconf
