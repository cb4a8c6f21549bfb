#include "toyrt.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "reference/proto.h"

namespace toyrt {
namespace {

using seqconf::RunError;
using seqconf::RunResult;
using seqconf::Value;

RunError make_error(RunError::Kind kind, std::string message) {
  RunError e;
  e.kind = kind;
  e.message = std::move(message);
  return e;
}

// A failed node: the run stops with this error.
struct Failure {
  RunError error;
};

int64_t read_integer_scalar(const seqconf::Tensor& t, const char* what) {
  // toyrt reads "It must be a scalar (tensor of empty shape)" literally: shape [1] is rejected.
  if (t.rank() != 0)
    throw Failure{make_error(RunError::Kind::invalid_input,
                             std::string(what) + " must be a scalar, got " + t.describe())};
  if (t.dtype() == seqconf::DataType::int32) return *t.data<int32_t>();
  if (t.dtype() == seqconf::DataType::int64) return *t.data<int64_t>();
  throw Failure{make_error(RunError::Kind::invalid_input,
                           std::string(what) + " must be int32 or int64, got " + t.describe())};
}

// SequenceAt-11: clauses SequenceAt.summary, position.range and position.negative
// (reference/spec_clauses.h).
Value sequence_at(const std::vector<const Value*>& in) {
  if (in.size() != 2 || !in[0] || !in[1] || !in[0]->is_sequence() || !in[1]->is_tensor())
    throw Failure{make_error(RunError::Kind::invalid_input,
                             "SequenceAt takes a sequence and a position tensor")};
  const seqconf::Sequence& seq = in[0]->sequence();
  const int64_t n = static_cast<int64_t>(seq.size());
  const int64_t position = read_integer_scalar(in[1]->tensor(), "SequenceAt position");
  if (position < -n || position >= n)
    throw Failure{make_error(RunError::Kind::invalid_input,
                             "SequenceAt position " + std::to_string(position) + " is outside [-" +
                                 std::to_string(n) + ", " + std::to_string(n - 1) + "]")};
  return seq.at(static_cast<size_t>(position < 0 ? position + n : position));
}

// SequenceLength-11 (clause SequenceLength.summary).
Value sequence_length(const std::vector<const Value*>& in) {
  if (in.size() != 1 || !in[0] || !in[0]->is_sequence())
    throw Failure{make_error(RunError::Kind::invalid_input, "SequenceLength takes a sequence")};
  const auto n = static_cast<int64_t>(in[0]->sequence().size());
  return seqconf::Tensor::from_values<seqconf::DataType::int64>({}, {n});
}

using Kernel = Value (*)(const std::vector<const Value*>&);
const std::map<std::string, Kernel> kKernels = {{"SequenceAt", sequence_at},
                                                {"SequenceLength", sequence_length}};

class ToyModel : public seqconf::PreparedModel {
 public:
  explicit ToyModel(const onnx::GraphProto& graph) : graph_(graph) {
    std::set<std::string> initialized;
    for (const auto& init : graph.initializer()) {
      constants_[init.name()] = seqconf::tensor_from_proto(init);
      initialized.insert(init.name());
    }
    for (const auto& input : graph.input())
      if (!initialized.count(input.name())) inputs_.push_back(input.name());
  }

  RunResult run(const std::vector<Value>& inputs) override {
    RunResult r;
    if (inputs.size() != inputs_.size()) {
      r.error = make_error(RunError::Kind::invalid_input,
                           "expected " + std::to_string(inputs_.size()) + " inputs, got " +
                               std::to_string(inputs.size()));
      return r;
    }
    std::map<std::string, Value> values = constants_;
    for (size_t i = 0; i < inputs.size(); ++i) values[inputs_[i]] = inputs[i];
    try {
      for (const auto& node : graph_.node()) {
        std::vector<const Value*> args;
        for (const auto& name : node.input()) {
          auto it = values.find(name);
          args.push_back(name.empty() || it == values.end() ? nullptr : &it->second);
        }
        values[node.output(0)] = kKernels.at(node.op_type())(args);
      }
      for (const auto& output : graph_.output()) {
        auto it = values.find(output.name());
        if (it == values.end())
          throw Failure{make_error(RunError::Kind::internal,
                                   "graph output " + output.name() + " is never computed")};
        r.outputs.push_back(it->second);
      }
    } catch (const Failure& f) {
      r.outputs.clear();
      r.error = f.error;
      return r;
    } catch (const std::exception& e) {  // e.g. an input the suite's values cannot hold
      r.outputs.clear();
      r.error = make_error(RunError::Kind::internal, e.what());
      return r;
    }
    r.ok = true;
    return r;
  }

 private:
  onnx::GraphProto graph_;
  std::map<std::string, Value> constants_;
  std::vector<std::string> inputs_;
};

}  // namespace

std::unique_ptr<seqconf::PreparedModel> ToyRuntime::prepare(const std::filesystem::path&,
                                                            const onnx::ModelProto& model,
                                                            seqconf::RunError* error) {
  int64_t opset = 0;
  for (const auto& import : model.opset_import())
    if (import.domain().empty() || import.domain() == "ai.onnx") opset = import.version();
  if (opset < 11) {
    *error =
        make_error(RunError::Kind::not_supported,
                   "toyrt needs opset 11 or later, the model imports " + std::to_string(opset));
    return nullptr;
  }
  for (const auto& node : model.graph().node()) {
    const bool default_domain = node.domain().empty() || node.domain() == "ai.onnx";
    if (!default_domain || !kKernels.count(node.op_type())) {
      *error = make_error(RunError::Kind::not_supported,
                          "toyrt does not implement " + node.domain() +
                              (node.domain().empty() ? "" : "::") + node.op_type());
      return nullptr;
    }
    if (node.output_size() != 1) {
      *error = make_error(
          RunError::Kind::invalid_input,
          node.op_type() + " has " + std::to_string(node.output_size()) + " outputs, 1 expected");
      return nullptr;
    }
  }
  try {
    return std::make_unique<ToyModel>(model.graph());
  } catch (const std::exception& e) {
    *error = make_error(RunError::Kind::invalid_input, e.what());
    return nullptr;
  }
}

}  // namespace toyrt
