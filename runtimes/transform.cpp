// Model-to-model tools as a runtime; see transform.h.
#include "runtimes/transform.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include <onnx/checker.h>
#include <onnx/common/version.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include "reference/dtype.h"
#include "reference/error.h"
#include "runtimes/isolated.h"
#include "runtimes/onnxruntime.h"

extern char** environ;

namespace seqconf {

namespace fs = std::filesystem;

std::vector<std::string> known_transform_tools() {
  return {"onnx-version-converter:OPSET", "onnxruntime-optimizer:LEVEL[=LIBRARY]",
          "process=COMMAND"};
}

namespace {

// ---------------------------------------------------------------------------------------------
// Types, as the lost-type check names them.

std::string type_text(const onnx::TypeProto& t) {
  switch (t.value_case()) {
    case onnx::TypeProto::kTensorType:
      return "tensor(" + dtype_name_any(t.tensor_type().elem_type()) + ")";
    case onnx::TypeProto::kSequenceType:
      return "seq(" + type_text(t.sequence_type().elem_type()) + ")";
    case onnx::TypeProto::kOptionalType:
      return "optional(" + type_text(t.optional_type().elem_type()) + ")";
    case onnx::TypeProto::VALUE_NOT_SET:
      return "no type";
    default:
      return "another type";
  }
}

// The kinds and element types of t, without shapes: a tool may refine or drop a shape, not a
// type. An element type of 0 (undefined) says nothing.
bool same_or_more_precise(const onnx::TypeProto& before, const onnx::TypeProto& after) {
  if (before.value_case() == onnx::TypeProto::VALUE_NOT_SET) return true;
  if (before.value_case() != after.value_case()) return false;
  switch (before.value_case()) {
    case onnx::TypeProto::kTensorType:
      return before.tensor_type().elem_type() == 0 ||
             before.tensor_type().elem_type() == after.tensor_type().elem_type();
    case onnx::TypeProto::kSequenceType:
      return same_or_more_precise(before.sequence_type().elem_type(),
                                  after.sequence_type().elem_type());
    case onnx::TypeProto::kOptionalType:
      return same_or_more_precise(before.optional_type().elem_type(),
                                  after.optional_type().elem_type());
    default:
      return true;
  }
}

// Every declared type of a model by where it is declared ("graph input 'x'", "value_info 'y'
// in the body of node 'loop'"), subgraphs included.
using DeclaredTypes = std::map<std::string, const onnx::TypeProto*>;

void collect_types(const onnx::GraphProto& g, const std::string& where, DeclaredTypes& out) {
  const auto add = [&](const char* what, const onnx::ValueInfoProto& v) {
    out.emplace(std::string(what) + " '" + v.name() + "'" + where, &v.type());
  };
  for (const auto& v : g.input()) add("graph input", v);
  for (const auto& v : g.output()) add("graph output", v);
  for (const auto& v : g.value_info()) add("value_info", v);
  for (const auto& n : g.node())
    for (const auto& a : n.attribute()) {
      const std::string inner = " in attribute " + a.name() + " of node '" +
                                (n.name().empty() ? n.op_type() : n.name()) + "'" + where;
      if (a.has_g()) collect_types(a.g(), inner, out);
      for (const auto& sub : a.graphs()) collect_types(sub, inner, out);
    }
}

}  // namespace

std::vector<std::string> lost_types(const onnx::ModelProto& input, const onnx::ModelProto& output) {
  DeclaredTypes before, after;
  collect_types(input.graph(), "", before);
  collect_types(output.graph(), "", after);
  std::vector<std::string> lost;
  for (const auto& [where, type] : before) {
    // A tool may drop a value_info entry (it is optional), not keep it without its type.
    const auto it = after.find(where);
    if (it == after.end() || same_or_more_precise(*type, *it->second)) continue;
    lost.push_back(where + ": " + type_text(*type) + " became " + type_text(*it->second));
  }
  // Entries the tool added without a type lose what the input said of their value.
  for (const auto& [where, type] : after)
    if (!before.count(where) && type->value_case() == onnx::TypeProto::VALUE_NOT_SET &&
        where.rfind("value_info", 0) != 0)
      lost.push_back(where + ": added with no type");
  return lost;
}

namespace {

// ---------------------------------------------------------------------------------------------
// The tools, inside the worker.

struct ToolAnswer {
  // "ok" (model holds the output model), "failed" (the tool refused or failed: message),
  // "not_supported" (the tool cannot express the model at all: message), "crashed" (a process
  // tool died by a signal: message).
  std::string status;
  std::string message;
  std::string model;
};

int max_known_opset() {
  return onnx::OpSchemaRegistry::DomainToVersionRange::Instance()
      .Map()
      .at(onnx::ONNX_DOMAIN)
      .second;
}

int64_t default_opset(const onnx::ModelProto& m) {
  for (const auto& o : m.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
  return 0;
}

// The first default-domain operator of g (subgraphs included) that has no version at opset
// `target`, as "SequenceMap (first in opset 17)", or empty.
std::string op_missing_at(const onnx::GraphProto& g, int target) {
  for (const auto& n : g.node()) {
    if (n.domain().empty() || n.domain() == "ai.onnx") {
      if (!onnx::OpSchemaRegistry::Schema(n.op_type(), target, "")) {
        const auto* latest = onnx::OpSchemaRegistry::Schema(n.op_type());
        return n.op_type() +
               (latest ? " (first in opset " + std::to_string(latest->since_version()) + ")"
                       : std::string(" (unknown to ONNX ") + onnx::LAST_RELEASE_VERSION + ")");
      }
    }
    for (const auto& a : n.attribute()) {
      if (a.has_g())
        if (auto m = op_missing_at(a.g(), target); !m.empty()) return m;
      for (const auto& sub : a.graphs())
        if (auto m = op_missing_at(sub, target); !m.empty()) return m;
    }
  }
  return {};
}

// onnx-version-converter:OPSET. A model the converter cannot express (an operator that the
// target opset lacks, an opset newer than the library knows) is not_supported: the converter
// has nothing to convert it to, which is not a defect.
ToolAnswer convert_version(const std::string& model_bytes, int target) {
  onnx::ModelProto in;
  if (!in.ParseFromString(model_bytes)) return {"failed", "unreadable model", {}};
  const int64_t from = default_opset(in);
  if (from > max_known_opset())
    return {"not_supported",
            "the model's opset " + std::to_string(from) + " is newer than ONNX " +
                onnx::LAST_RELEASE_VERSION + "'s converter knows (" +
                std::to_string(max_known_opset()) + ")",
            {}};
  if (const std::string missing = op_missing_at(in.graph(), target); !missing.empty())
    return {"not_supported", missing + " has no version at opset " + std::to_string(target), {}};
  try {
    const onnx::ModelProto out = onnx::version_conversion::ConvertVersion(in, target);
    return {"ok", {}, out.SerializeAsString()};
  } catch (const std::exception& e) {
    return {"failed", e.what(), {}};
  }
}

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// The last lines of a tool's error output, for a message.
std::string tail(const std::string& text, size_t max_bytes = 600) {
  std::string t = text.size() > max_bytes ? "..." + text.substr(text.size() - max_bytes) : text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  return t;
}

// process=COMMAND: `COMMAND INPUT OUTPUT` through /bin/sh, in the worker's process group, so
// that the worker's time limit kills it with the worker.
ToolAnswer run_process_tool(const std::string& command, const std::string& model_bytes) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/seqconf-transform-XXXXXX";
  if (!::mkdtemp(pattern.data()))
    return {
        "failed", std::string("cannot make a folder for the tool: ") + std::strerror(errno), {}};
  const fs::path dir = pattern;
  const fs::path in = dir / "input.onnx", out = dir / "output.onnx", err = dir / "stderr.txt";
  std::ofstream(in, std::ios::binary) << model_bytes;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  const std::string script = command + " \"$@\"";
  const char* argv[] = {"/bin/sh", "-c", script.c_str(), "sh", in.c_str(), out.c_str(), nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, const_cast<char**>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  ToolAnswer a;
  if (rc != 0) {
    a = {"failed", "cannot start '" + command + "': " + std::strerror(rc), {}};
  } else {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    const std::string said = tail(read_file(err));
    const std::string quoted = said.empty() ? std::string() : ": " + said;
    // sh -c reports a command killed by signal N as status 128 + N.
    const int sig = WIFSIGNALED(status) ? WTERMSIG(status)
                    : (WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 128 + 65)
                        ? WEXITSTATUS(status) - 128
                        : 0;
    if (sig != 0) {
      const char* abbrev = sigabbrev_np(sig);
      a = {"crashed",
           "terminated by " +
               (abbrev ? "SIG" + std::string(abbrev) : "signal " + std::to_string(sig)) + quoted,
           {}};
    } else if (WEXITSTATUS(status) != 0) {
      a = {"failed", "exited with status " + std::to_string(WEXITSTATUS(status)) + quoted, {}};
    } else if (!fs::exists(out)) {
      a = {"failed", "exited with status 0 but wrote no output model" + quoted, {}};
    } else {
      a = {"ok", {}, read_file(out)};
    }
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return a;
}

// ONNX's checker, then strict shape inference with the model's declared types, as
// onnx.checker.check_model(full_check=True) does: empty when the model passes, else why not.
std::string full_check(const std::string& model_bytes) {
  onnx::ModelProto m;
  if (!m.ParseFromString(model_bytes)) return "not an ONNX model (the bytes do not parse)";
  try {
    onnx::checker::check_model(m);
  } catch (const std::exception& e) {
    return std::string("onnx::checker::check_model: ") + e.what();
  }
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/true, /*error_mode=*/1);
    onnx::shape_inference::InferShapes(m, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    return std::string("shape inference: ") + e.what();
  }
  return {};
}

// A tool as a worker serves it: what it does to a model, and its version for the report.
struct Tool {
  std::function<ToolAnswer(const std::string&)> apply;
  std::string version;
};

// A tool's spec, read: which tool and its argument. Throws Error(invalid_argument) naming the
// known tools for a bad spec. Loads nothing, so that the suite's process can check a spec.
struct ToolSpec {
  enum class Kind { version_converter, onnxruntime_optimizer, process } kind;
  int opset = 0;                                             // version_converter
  OrtGraphOptimization level = OrtGraphOptimization::basic;  // onnxruntime_optimizer
  std::string library;  // onnxruntime_optimizer; empty: default
  std::string command;  // process
};

ToolSpec parse_tool(const std::string& spec) {
  static const std::string kConverter = "onnx-version-converter:";
  static const std::string kOptimizer = "onnxruntime-optimizer:";
  static const std::string kProcess = "process=";
  ToolSpec t{};
  if (spec.rfind(kConverter, 0) == 0) {
    t.kind = ToolSpec::Kind::version_converter;
    const std::string text = spec.substr(kConverter.size());
    try {
      size_t used = 0;
      t.opset = std::stoi(text, &used);
      if (used != text.size()) t.opset = 0;
    } catch (const std::exception&) {
    }
    if (t.opset < 1 || t.opset > max_known_opset())
      throw Error(ErrorCode::invalid_argument, "onnx-version-converter needs an opset from 1 to " +
                                                   std::to_string(max_known_opset()) + " (ONNX " +
                                                   onnx::LAST_RELEASE_VERSION + "), got '" + text +
                                                   "'");
    return t;
  }
  if (spec.rfind(kOptimizer, 0) == 0) {
    t.kind = ToolSpec::Kind::onnxruntime_optimizer;
    const std::string text = spec.substr(kOptimizer.size());
    const auto eq = text.find('=');
    const auto level = ort_graph_optimization_from_name(text.substr(0, eq));
    if (!level)
      throw Error(ErrorCode::invalid_argument,
                  "onnxruntime-optimizer needs a level: disabled, basic, extended or all, got '" +
                      text.substr(0, eq) + "'");
    t.level = *level;
    if (eq != std::string::npos) t.library = text.substr(eq + 1);
    return t;
  }
  if (spec.rfind(kProcess, 0) == 0 && spec.size() > kProcess.size()) {
    t.kind = ToolSpec::Kind::process;
    t.command = spec.substr(kProcess.size());
    return t;
  }
  std::string names;
  for (const auto& n : known_transform_tools()) names += (names.empty() ? "" : ", ") + n;
  throw Error(ErrorCode::invalid_argument,
              "unknown model-to-model tool '" + spec + "' (known: " + names + ")");
}

// The first node of g (subgraphs included) in a domain that is not ONNX's own, as
// "com.microsoft.FusedConv", or empty.
std::string foreign_op(const onnx::GraphProto& g) {
  for (const auto& n : g.node()) {
    if (!n.domain().empty() && n.domain() != "ai.onnx" && n.domain() != "ai.onnx.ml")
      return n.domain() + "." + n.op_type();
    for (const auto& a : n.attribute()) {
      if (a.has_g())
        if (auto f = foreign_op(a.g()); !f.empty()) return f;
      for (const auto& sub : a.graphs())
        if (auto f = foreign_op(sub); !f.empty()) return f;
    }
  }
  return {};
}

// onnxruntime-optimizer:LEVEL[=LIBRARY]. A model ONNX Runtime does not support (a type it lacks)
// is not_supported; one it rejects, a failure of the tool (a correct rejection for a must-reject
// case). At extended and all ONNX Runtime may fuse nodes into its own operators: such a model is
// not standard ONNX any more, so no other runtime can judge it (not_supported, named).
Tool onnxruntime_optimizer(const ToolSpec& t) {
  const fs::path library = t.library.empty() ? default_onnxruntime_library() : fs::path(t.library);
  std::string version;
  OrtOptimize optimize = make_onnxruntime_optimizer(library, t.level, &version);
  const std::string level = ort_graph_optimization_name(t.level);
  auto apply = [optimize, level](const std::string& model) -> ToolAnswer {
    std::string optimized;
    RunError error;
    if (!optimize(model, &optimized, &error))
      return {error.kind == RunError::Kind::not_supported ? "not_supported" : "failed",
              "ONNX Runtime: " + error.message,
              {}};
    onnx::ModelProto m;
    if (m.ParseFromString(optimized))
      if (const std::string op = foreign_op(m.graph()); !op.empty())
        return {"not_supported",
                "ONNX Runtime's optimizers at level " + level + " put in " + op +
                    ", an operator of ONNX Runtime's own: only ONNX Runtime runs the result",
                {}};
    return {"ok", {}, optimized};
  };
  return {apply, "onnxruntime " + version};
}

// The tool a worker serves.
Tool make_tool(const std::string& spec) {
  const ToolSpec t = parse_tool(spec);
  switch (t.kind) {
    case ToolSpec::Kind::version_converter:
      return {[opset = t.opset](const std::string& model) { return convert_version(model, opset); },
              std::string("onnx ") + onnx::LAST_RELEASE_VERSION};
    case ToolSpec::Kind::onnxruntime_optimizer:
      return onnxruntime_optimizer(t);
    case ToolSpec::Kind::process:
      break;
  }
  return {
      [command = t.command](const std::string& model) { return run_process_tool(command, model); },
      ""};
}

// The worker. Requests: {"version", ""} -> {version}; {"apply", model} -> {status, message,
// model}; {"check", model} -> {message} (empty: the model passes full_check).
const WorkerKind kTransformWorker("transform", [](const std::string& spec) {
  auto tool = std::make_shared<Tool>(make_tool(spec));
  return [tool](const std::string& request) -> std::optional<std::string> {
    FieldReader in(request);
    const std::string what = in.get();
    const std::string model = in.get();
    std::string answer;
    if (what == "version") {
      put_field(answer, tool->version);
      return answer;
    }
    if (what == "check") {
      put_field(answer, full_check(model));
      return answer;
    }
    ToolAnswer a;
    try {
      a = tool->apply(model);
    } catch (const std::exception& e) {
      a = {"failed", e.what(), {}};
    }
    put_field(answer, a.status);
    put_field(answer, a.message);
    put_field(answer, a.model);
    return answer;
  };
});

// ---------------------------------------------------------------------------------------------
// The runtime, in the suite's process.

RunError tool_error(RunError::Kind kind, std::string message) {
  return {kind, std::move(message), "", {}, {}};
}

// The tool's model prepared on the other runtime. The reference's error codes name what went wrong
// in the case's own model; on the tool's model the same rejection may come from another node (an
// inlined SequenceMap fails in its Loop's SequenceAt), so a rejection counts as one whatever its
// code.
class TransformedModel : public PreparedModel {
 public:
  explicit TransformedModel(std::unique_ptr<PreparedModel> model) : model_(std::move(model)) {}
  RunResult run(const std::vector<Value>& inputs) override {
    RunResult r = model_->run(inputs);
    r.error.code.clear();
    return r;
  }

 private:
  std::unique_ptr<PreparedModel> model_;
};

class TransformRuntime : public Runtime {
 public:
  TransformRuntime(std::string tool, std::unique_ptr<Runtime> runtime, TransformOptions options)
      : tool_(std::move(tool)), runtime_(std::move(runtime)), options_(std::move(options)) {
    parse_tool(tool_);  // a bad spec fails here, not in the worker
    IsolationOptions isolation;
    isolation.timeout_ms = options_.timeout_ms;
    worker_ = std::make_unique<WorkerProcess>(WorkerRecipe{"transform", tool_}, isolation);
    // The worker makes the tool (ONNX Runtime's library is opened there, not here): a tool that
    // cannot start stops the run before its first case.
    std::string request;
    put_field(request, "version");
    put_field(request, "");
    const WorkerProcess::Answer a = worker_->call(tool_ + " start", request);
    if (!a.ok) throw Error(ErrorCode::not_supported, tool_ + " cannot start: " + a.error.message);
    FieldReader in(a.bytes);
    tool_version_ = in.get();
    if (options_.keep_dir.empty()) {
      const char* tmp = std::getenv("TMPDIR");
      std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/seqconf-models-XXXXXX";
      if (!::mkdtemp(pattern.data()))
        throw Error(ErrorCode::io_error, std::string("mkdtemp: ") + std::strerror(errno));
      dir_ = pattern;
      own_dir_ = true;
    } else {
      dir_ = options_.keep_dir;
      std::error_code ec;
      fs::create_directories(dir_, ec);
      if (ec)
        throw Error(ErrorCode::io_error, "cannot make " + dir_.string() + ": " + ec.message());
    }
  }
  ~TransformRuntime() override {
    std::error_code ec;
    if (own_dir_) fs::remove_all(dir_, ec);
  }

  std::string name() const override { return "transform " + tool_ + ", then " + runtime_->name(); }
  std::string version() const override {
    return (tool_version_.empty() ? "" : tool_version_ + "; ") + runtime_->name() + " " +
           runtime_->version();
  }
  std::string location() const override { return runtime_->location(); }
  // The tool runs in a worker; the other runtime is isolated as it would be on its own.
  bool out_of_process() const override { return true; }

  std::unique_ptr<PreparedModel> prepare(const fs::path& model_path, const onnx::ModelProto& model,
                                         RunError* error) override {
    const std::string input = model.SerializeAsString();
    std::string request;
    put_field(request, "apply");
    put_field(request, input);
    WorkerProcess::Answer a = worker_->call(tool_ + " on " + model_path.string(), request);
    // A crash counts once a fresh worker, which has seen no other model, crashes on it too.
    if (!a.ok && a.error.kind == RunError::Kind::crash)
      a = worker_->call(tool_ + " on " + model_path.string(), request);
    if (!a.ok) {
      *error = tool_error(a.error.kind == RunError::Kind::timeout ? RunError::Kind::tool_timeout
                          : a.error.kind == RunError::Kind::crash ? RunError::Kind::tool_crash
                                                                  : RunError::Kind::internal,
                          tool_ + ": " + a.error.message);
      return nullptr;
    }
    FieldReader in(a.bytes);
    const std::string status = in.get(), message = in.get(), output = in.get();
    if (status != "ok") {
      const RunError::Kind kind = status == "not_supported" ? RunError::Kind::not_supported
                                  : status == "crashed"     ? RunError::Kind::tool_crash
                                                            : RunError::Kind::tool_failed;
      *error = tool_error(kind, tool_ + ": " + message);
      return nullptr;
    }
    // Named for the case's folder; an exported model's folder is <program>/opset=<N>, whose last
    // part alone many programs share.
    const fs::path folder = model_path.parent_path();
    std::string name = folder.filename().string();
    if (name.rfind("opset=", 0) == 0) name = folder.parent_path().filename().string() + "_" + name;
    const fs::path kept = dir_ / (name + ".onnx");
    {
      std::ofstream f(kept, std::ios::binary);
      f << output;
      if (!f) throw Error(ErrorCode::io_error, "cannot write " + kept.string());
    }
    remember(model_path, kept);
    onnx::ModelProto transformed;
    if (!transformed.ParseFromString(output)) {
      *error = tool_error(
          RunError::Kind::tool_invalid_model,
          tool_ + " wrote " + std::to_string(output.size()) + " bytes that are not an ONNX model");
      return nullptr;
    }
    if (const auto lost = lost_types(model, transformed); !lost.empty()) {
      std::string text;
      for (const auto& l : lost) text += (text.empty() ? "" : "; ") + l;
      *error = tool_error(RunError::Kind::tool_lost_type, tool_ + " loses types: " + text);
      return nullptr;
    }
    // Only a model that was valid can be made invalid.
    if (const std::string after = check(output); !after.empty() && check(input).empty()) {
      *error =
          tool_error(RunError::Kind::tool_invalid_model,
                     tool_ + " emits a model that fails the checks its input passes: " + after);
      return nullptr;
    }
    auto prepared = runtime_->prepare(kept, transformed, error);
    if (!prepared) {
      error->code.clear();
      return nullptr;
    }
    return std::make_unique<TransformedModel>(std::move(prepared));
  }

  std::string kept_model(const fs::path& model_path, bool keep) override {
    fs::path kept;
    {
      std::lock_guard<std::mutex> lock(mu_);
      const auto it = made_.find(model_path);
      if (it == made_.end()) return {};
      kept = it->second;
      made_.erase(it);
    }
    std::error_code ec;
    if (keep && !own_dir_) return kept.string();
    fs::remove(kept, ec);
    return {};
  }

 private:
  void remember(const fs::path& model_path, const fs::path& kept) {
    std::lock_guard<std::mutex> lock(mu_);
    made_[model_path] = kept;
  }

  // full_check in the worker: empty when the model passes. A crash or hang of ONNX's own
  // checker on the model counts as a failed check, named.
  std::string check(const std::string& model_bytes) {
    std::string request;
    put_field(request, "check");
    put_field(request, model_bytes);
    const WorkerProcess::Answer a = worker_->call("onnx::checker on a transformed model", request);
    if (!a.ok) return "ONNX's checker or shape inference died on it: " + a.error.message;
    FieldReader in(a.bytes);
    return in.get();
  }

  std::string tool_;
  std::string tool_version_;
  std::unique_ptr<Runtime> runtime_;
  TransformOptions options_;
  std::unique_ptr<WorkerProcess> worker_;
  fs::path dir_;
  bool own_dir_ = false;
  std::mutex mu_;
  std::map<fs::path, fs::path> made_;  // case model -> the tool's output model
};

}  // namespace

std::unique_ptr<Runtime> make_transform_runtime(const std::string& tool,
                                                std::unique_ptr<Runtime> runtime,
                                                TransformOptions options) {
  return std::make_unique<TransformRuntime>(tool, std::move(runtime), std::move(options));
}

}  // namespace seqconf
