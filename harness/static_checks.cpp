#include "harness/static_checks.h"

#include <sstream>
#include <stdexcept>

#include <onnx/checker.h>
#include <onnx/common/version.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "reference/dtype.h"
#include "runtimes/isolated.h"

namespace seqconf {

namespace {

std::string type_text(const onnx::TypeProto& t) {
  if (t.has_tensor_type()) {
    std::string s = "tensor(" + dtype_name_any(t.tensor_type().elem_type()) + ")";
    if (t.tensor_type().has_shape()) {
      s += "[";
      bool first = true;
      for (const auto& d : t.tensor_type().shape().dim()) {
        s += first ? "" : ",";
        first = false;
        s += d.has_dim_value() ? std::to_string(d.dim_value())
                               : (d.has_dim_param() ? d.dim_param() : std::string("?"));
      }
      s += "]";
    }
    return s;
  }
  if (t.has_sequence_type()) return "seq(" + type_text(t.sequence_type().elem_type()) + ")";
  if (t.has_optional_type()) return "optional(" + type_text(t.optional_type().elem_type()) + ")";
  return "unknown";
}

// Why `v` contradicts the inferred type t, or empty when it does not.
std::string contradiction(const onnx::TypeProto& t, const Value& v) {
  if (t.has_tensor_type()) {
    if (!v.is_tensor()) return "a " + v.describe() + " where a tensor is inferred";
    const Tensor& x = v.tensor();
    const int32_t e = t.tensor_type().elem_type();
    if (e != 0 && e != static_cast<int32_t>(x.dtype()))
      return "element type " + std::string(dtype_name(x.dtype())) + " where " + dtype_name_any(e) +
             " is inferred";
    if (t.tensor_type().has_shape()) {
      const auto& dims = t.tensor_type().shape().dim();
      if (static_cast<size_t>(dims.size()) != x.rank())
        return "rank " + std::to_string(x.rank()) + " (shape " + shape_to_string(x.shape()) +
               ") where rank " + std::to_string(dims.size()) + " is inferred";
      for (int k = 0; k < dims.size(); ++k)
        if (dims[k].has_dim_value() && dims[k].dim_value() != x.shape()[static_cast<size_t>(k)])
          return "shape " + shape_to_string(x.shape()) + " where dimension " + std::to_string(k) +
                 " is inferred as " + std::to_string(dims[k].dim_value());
    }
    return {};
  }
  if (t.has_sequence_type()) {
    if (!v.is_sequence()) return "a " + v.describe() + " where a sequence is inferred";
    const Sequence& s = v.sequence();
    const auto& et = t.sequence_type().elem_type();
    if (et.has_tensor_type() && et.tensor_type().elem_type() != 0 &&
        et.tensor_type().elem_type() != static_cast<int32_t>(s.elem_type()))
      return "element type " + std::string(dtype_name(s.elem_type())) + " where " +
             dtype_name_any(et.tensor_type().elem_type()) + " is inferred";
    for (size_t i = 0; i < s.size(); ++i) {
      std::string c = contradiction(et, s.at(i));
      if (!c.empty()) return "sequence item " + std::to_string(i) + ": " + c;
    }
    return {};
  }
  if (t.has_optional_type()) {
    if (!v.is_optional()) return "a " + v.describe() + " where an optional is inferred";
    if (v.optional().element)
      return contradiction(t.optional_type().elem_type(), *v.optional().element);
  }
  return {};
}

void run_checker(const onnx::ModelProto& model, StaticCheck& r) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    r.checker_ok = false;
    r.checker_message = e.what();
  }
}

// Inference twice: with the declared types (strict), then from scratch: the declared output
// types are removed so that what remains is what ONNX's type and shape functions infer. Fills
// inference_ok/message; returns the inferred graph outputs (a ValueInfoProto without type where
// nothing was inferred).
std::vector<onnx::ValueInfoProto> run_inference(const onnx::ModelProto& model, StaticCheck& r) {
  // First with the model's declared types, strict, as onnx.checker.check_model(full_check=True)
  // does after the checker: a declared type that contradicts an inferred one is an error.
  try {
    onnx::ModelProto declared = model;
    onnx::ShapeInferenceOptions options(/*check_type=*/true, /*error_mode=*/1);
    onnx::shape_inference::InferShapes(declared, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    r.inference_ok = false;
    r.inference_message = std::string("with the declared types: ") + e.what();
    return {};
  }
  onnx::ModelProto m = model;
  for (auto& o : *m.mutable_graph()->mutable_output()) o.clear_type();
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/true, /*error_mode=*/1);
    onnx::shape_inference::InferShapes(m, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    r.inference_ok = false;
    r.inference_message = e.what();
    return {};
  }
  return {m.graph().output().begin(), m.graph().output().end()};
}

// The inferred types, and where they contradict the expected outputs.
void compare_inferred(const std::vector<onnx::ValueInfoProto>& outputs,
                      const std::vector<Value>& expected_outputs, StaticCheck& r) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto& o = outputs[i];
    r.inferred.push_back(o.name() + ": " + (o.has_type() ? type_text(o.type()) : "(no type)"));
    if (!o.has_type() || i >= expected_outputs.size()) continue;
    const std::string c = contradiction(o.type(), expected_outputs[i]);
    if (!c.empty())
      r.contradictions.push_back("output " + std::to_string(i) + " '" + o.name() + "': inferred " +
                                 type_text(o.type()) + ", but the expected output has " + c);
  }
}

// The sandbox's worker. Request: {stages (space-separated: "checker", "shape_inference"), model
// bytes}. Answer, per stage in order: {ok, message}, then for shape_inference the number of
// inferred graph outputs and each as a ValueInfoProto.
std::optional<std::string> answer_stages(const std::string& request) {
  std::string answer;
  try {
    FieldReader in(request);
    std::istringstream stages(in.get());
    onnx::ModelProto model;
    if (!model.ParseFromString(in.get()))
      throw Error(ErrorCode::invalid_proto, "the model did not reach the static-check worker");
    for (std::string stage; stages >> stage;) {
      StaticCheck r;
      if (stage == "checker") {
        run_checker(model, r);
        put_field(answer, r.checker_ok ? "1" : "0");
        put_field(answer, r.checker_message);
      } else {
        const auto outputs = run_inference(model, r);
        put_field(answer, r.inference_ok ? "1" : "0");
        put_field(answer, r.inference_message);
        put_field(answer, std::to_string(outputs.size()));
        for (const auto& o : outputs) put_field(answer, o.SerializeAsString());
      }
    }
  } catch (const std::exception& e) {
    answer.clear();
    put_field(answer, "0");
    put_field(answer, std::string("the static-check worker failed: ") + e.what());
  }
  return answer;
}

const WorkerKind kStaticChecksWorker("static-checks",
                                     [](const std::string&) { return answer_stages; });

// Reads one stage's answer into r.
void read_stage(FieldReader& in, const std::string& stage,
                const std::vector<Value>& expected_outputs, StaticCheck& r) {
  const bool ok = in.get() == "1";
  const std::string message = in.get();
  if (stage == "checker") {
    r.checker_ok = ok;
    r.checker_message = message;
    return;
  }
  r.inference_ok = ok;
  r.inference_message = message;
  if (!ok) return;
  std::vector<onnx::ValueInfoProto> outputs(std::stoul(in.get()));
  for (auto& o : outputs)
    if (!o.ParseFromString(in.get()))
      throw Error(ErrorCode::invalid_proto, "unreadable answer of the static-check worker");
  compare_inferred(outputs, expected_outputs, r);
}

}  // namespace

std::string onnx_version() { return onnx::LAST_RELEASE_VERSION; }

std::string static_checks_not_applicable(const onnx::ModelProto& model) {
  const int64_t ir = onnx::Version::IR_VERSION;
  const int64_t opset =
      onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map().at(onnx::ONNX_DOMAIN).second;
  int64_t model_opset = 0;
  for (const auto& o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      model_opset = std::max(model_opset, o.version());
  if (model.ir_version() <= ir && model_opset <= opset) return {};
  return "the model (IR version " + std::to_string(model.ir_version()) + ", opset " +
         std::to_string(model_opset) + ") is newer than ONNX " + onnx_version() +
         " reads (IR version " + std::to_string(ir) + ", opset " + std::to_string(opset) + ")";
}

StaticCheck check_statically(const onnx::ModelProto& model,
                             const std::vector<Value>& expected_outputs) {
  StaticCheck r;
  run_checker(model, r);
  const auto outputs = run_inference(model, r);
  if (r.inference_ok) compare_inferred(outputs, expected_outputs, r);
  return r;
}

StaticCheckSandbox::StaticCheckSandbox(int timeout_ms) {
  IsolationOptions options;
  options.timeout_ms = timeout_ms;
  worker_ = std::make_unique<WorkerProcess>(WorkerRecipe{"static-checks", ""}, options);
  worker_->start();
}

StaticCheckSandbox::~StaticCheckSandbox() = default;

StaticCheck StaticCheckSandbox::check(const onnx::ModelProto& model,
                                      const std::vector<Value>& expected_outputs) {
  send(model);
  return receive(expected_outputs);
}

namespace {

std::string stages_request(const std::string& stages, const std::string& model_bytes) {
  std::string request;
  put_field(request, stages);
  put_field(request, model_bytes);
  return request;
}

}  // namespace

void StaticCheckSandbox::send(const onnx::ModelProto& model) {
  if (pending_) throw std::logic_error("a static check is already under way");
  model_bytes_ = model.SerializeAsString();
  // Both stages in one request.
  worker_->send("static checks", stages_request("checker shape_inference", model_bytes_));
  pending_ = true;
}

StaticCheck StaticCheckSandbox::receive(const std::vector<Value>& expected_outputs) {
  if (!pending_) throw std::logic_error("no static check is under way");
  pending_ = false;
  StaticCheck r;
  if (WorkerProcess::Answer a = worker_->receive(); a.ok) {
    FieldReader in(a.bytes);
    read_stage(in, "checker", expected_outputs, r);
    read_stage(in, "shape_inference", expected_outputs, r);
    return r;
  }
  // The worker died or hung: each stage alone on a fresh worker, which confirms the crash and
  // tells which of ONNX's functions it was in.
  const auto ask = [&](const std::string& stage, const std::string& what) {
    return worker_->call(what, stages_request(stage, model_bytes_));
  };
  for (const std::string stage : {"checker", "shape_inference"}) {
    const bool checker = stage == "checker";
    const WorkerProcess::Answer a =
        ask(stage, checker ? "onnx::checker::check_model" : "InferShapes");
    if (a.ok) {
      FieldReader in(a.bytes);
      read_stage(in, stage, expected_outputs, r);
      continue;
    }
    const bool hung = a.error.kind == RunError::Kind::timeout;
    r.crashes.push_back({stage + (hung ? "_timeout" : "_crash"),
                         "ONNX " + onnx_version() + "'s own library " +
                             (hung ? "hung" : "crashed") + " on this model: " + a.error.message});
    (checker ? r.checker_ok : r.inference_ok) = false;
  }
  return r;
}

std::vector<StaticFinding> static_findings(const StaticCheck& r, bool must_reject) {
  std::vector<StaticFinding> out;
  // ONNX's library crashing or hanging on a model is never right, whatever the case expects.
  for (const auto& c : r.crashes) out.push_back({c.check, c.message});
  const auto crashed = [&](const char* stage) {
    for (const auto& c : r.crashes)
      if (c.check.rfind(stage, 0) == 0) return true;
    return false;
  };
  // For a must-reject case, a rejection by the checker or by inference agrees with the case.
  if (!r.checker_ok && !must_reject && !crashed("checker"))
    out.push_back(
        {"checker", "onnx::checker::check_model rejects the model: " + r.checker_message});
  if (!r.inference_ok) {
    if (!must_reject && !crashed("shape_inference"))
      out.push_back({"shape_inference", "InferShapes fails: " + r.inference_message});
    return out;
  }
  for (const auto& c : r.contradictions) out.push_back({"shape_inference", c});
  return out;
}

CaseStaticChecks::CaseStaticChecks(const LoadedCase& lc, bool must_reject,
                                   StaticCheckSandbox* sandbox)
    : lc_(lc), must_reject_(must_reject), sandbox_(sandbox) {
  not_applicable_ = static_checks_not_applicable(lc.model);
  if (!not_applicable_.empty() || !sandbox_) return;
  // The worker checks the model while the caller goes on; one round trip per case on the
  // caller's thread, not a thread per case (a thread's start and the wake-ups of handing the
  // check to it and back cost more than the check: Harness/corpus rows of seqconf-bench, 4.4 s
  // on a thread per case, 1.3 s on the case's thread).
  sandbox_->send(lc.model);
  pending_ = true;
}

CaseStaticChecks::~CaseStaticChecks() {
  if (pending_) (void)sandbox_->receive({});
}

std::vector<StaticFinding> CaseStaticChecks::findings() {
  if (!not_applicable_.empty()) return {};
  const std::vector<Value>& expected = lc_.data_sets.front().outputs;
  if (!sandbox_) return static_findings(check_statically(lc_.model, expected), must_reject_);
  if (!pending_) throw std::logic_error("the static checks were already collected");
  pending_ = false;
  return static_findings(sandbox_->receive(expected), must_reject_);
}

std::vector<StaticFinding> check_case_statically(const LoadedCase& lc, bool must_reject,
                                                 StaticCheckSandbox* sandbox,
                                                 std::string* not_applicable) {
  CaseStaticChecks checks(lc, must_reject, sandbox);
  *not_applicable = checks.not_applicable();
  return checks.findings();
}

}  // namespace seqconf
