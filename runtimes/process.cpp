// The seqconf-runtime/1 process protocol; see process.h.
#include "runtimes/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "reference/error.h"
#include "reference/limits.h"
#include "reference/model_builder.h"
#include "reference/proto.h"

extern char** environ;

namespace seqconf {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kProtocol = "seqconf-runtime/1";

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(ErrorCode::io_error, "cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// An output file a runtime names: only a regular file (not a link, a FIFO or a device) directly in
// the request's output folder, and no larger than the size limit allows a value to be (with
// room for its proto framing). Anything else is an error naming the path; the file is not read.
std::string read_output_file(const fs::path& out_dir, const std::string& answered) {
  const fs::path p(answered);
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  if (ec || !fs::is_regular_file(st))
    throw Error(ErrorCode::io_error, "output file " + answered + " is not a regular file");
  const fs::path parent = fs::canonical(p.parent_path(), ec);
  if (ec || parent != fs::canonical(out_dir))
    throw Error(ErrorCode::io_error, "output file " + answered + " is not in the output_dir " +
                                         out_dir.string() + " of the request");
  const uintmax_t size = fs::file_size(p, ec);
  const uintmax_t limit = max_tensor_bytes() + (uintmax_t{1} << 20);
  if (ec || size > limit)
    throw Error(ErrorCode::limit_exceeded, "output file " + answered + " has " +
                                               std::to_string(size) + " bytes, more than " +
                                               std::to_string(limit) + " (--max-tensor-bytes)");
  return read_file(p);
}

void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
  if (!out) throw Error(ErrorCode::io_error, "cannot write " + p.string());
}

RunError make_error(RunError::Kind kind, std::string message) {
  RunError e;
  e.kind = kind;
  e.message = std::move(message);
  return e;
}

// ---------------------------------------------------------------------------------------------
// The child process: spawn, line I/O with a deadline, kill.

class Child {
 public:
  explicit Child(std::string command) : command_(std::move(command)) {}
  ~Child() { stop(); }

  bool running() const { return pid_ > 0; }

  void start() {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
      throw Error(ErrorCode::io_error, std::string("pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // Its own process group, so that a kill also reaches what the shell started.
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    // setpriv (util-linux) gives the shell, and what it execs, a parent-death signal: the
    // runtime's process ends with seqconf even when seqconf is killed with SIGKILL.
    static const bool have_setpriv = ::access("/usr/bin/setpriv", X_OK) == 0;
    std::vector<const char*> argv;
    if (have_setpriv) argv = {"/usr/bin/setpriv", "--pdeathsig", "KILL"};
    for (const char* a : {"/bin/sh", "-c"}) argv.push_back(a);
    // A simple command replaces the shell (exec), so that the signal reaches the runtime itself;
    // a compound one (pipes, lists, redirections) keeps the shell between them.
    const bool simple = command_.find_first_of(";&|<>()`$\n") == std::string::npos;
    const std::string shell_command = simple ? "exec " + command_ : command_;
    argv.push_back(shell_command.c_str());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc =
        ::posix_spawn(&pid, argv[0], &actions, &attr, const_cast<char**>(argv.data()), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(in[0]);
    ::close(out[1]);
    if (rc != 0) {
      ::close(in[1]);
      ::close(out[0]);
      throw Error(ErrorCode::io_error, "cannot start '" + command_ + "': " + std::strerror(rc));
    }
    pid_ = pid;
    to_child_ = in[1];
    from_child_ = out[0];
    buffer_.clear();
  }

  // Kills the child (and its group) and collects its status; returns a description of how it
  // ended ("exited with status 1", "terminated by SIGSEGV").
  std::string stop(bool kill_it = true) {
    if (pid_ <= 0) return {};
    if (to_child_ >= 0) ::close(to_child_);
    to_child_ = -1;
    if (kill_it) {
      ::kill(-pid_, SIGKILL);
      ::kill(pid_, SIGKILL);
    }
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    if (from_child_ >= 0) ::close(from_child_);
    from_child_ = -1;
    pid_ = -1;
    if (WIFSIGNALED(status)) {
      const char* abbrev = sigabbrev_np(WTERMSIG(status));
      return std::string("terminated by ") +
             (abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(WTERMSIG(status)));
    }
    const int code = WEXITSTATUS(status);
    std::string how = "exited with status " + std::to_string(code);
    // sh -c reports a command killed by signal N as status 128 + N.
    if (code > 128 && code < 128 + 65) {
      const char* abbrev = sigabbrev_np(code - 128);
      if (abbrev) how += " (its command was terminated by SIG" + std::string(abbrev) + ")";
    }
    return how;
  }

  bool write_line(const std::string& line) {
    const std::string s = line + "\n";
    size_t done = 0;
    while (done < s.size()) {
      const ssize_t n = ::write(to_child_, s.data() + done, s.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += static_cast<size_t>(n);
    }
    return true;
  }

  enum class ReadStatus { line, eof, timeout, interrupted, too_long };

  using Deadline = std::optional<std::chrono::steady_clock::time_point>;
  static Deadline deadline_in(int timeout_ms) {
    if (timeout_ms <= 0) return std::nullopt;
    return std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  }

  // One line, or eof, or the deadline passed, or a stop request, or too_long: a line longer than
  // kMaxLineBytes (no answer of the protocol is that long).
  static constexpr size_t kMaxLineBytes = size_t{16} << 20;
  ReadStatus read_line(std::string& line, const Deadline& deadline) {
    for (;;) {
      const auto nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return ReadStatus::line;
      }
      // Waits in slices of at most 100 ms, so that a stop request is seen.
      if (interrupt_requested()) return ReadStatus::interrupted;
      if (buffer_.size() > kMaxLineBytes) return ReadStatus::too_long;
      int wait_ms = 100;
      if (deadline) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(
                              *deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) return ReadStatus::timeout;
        wait_ms = static_cast<int>(std::min<int64_t>(left, 100));
      }
      pollfd p{from_child_, POLLIN, 0};
      const int ready = ::poll(&p, 1, wait_ms);
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) continue;
      char chunk[65536];
      const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return ReadStatus::eof;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

 private:
  std::string command_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;
};

// ---------------------------------------------------------------------------------------------
// Lifting: sequences in and out of a tensors-only runtime.

bool is_sequence_type(const onnx::TypeProto& t) { return t.has_sequence_type(); }

int32_t seq_elem_type(const onnx::TypeProto& t) {
  return t.sequence_type().elem_type().tensor_type().elem_type();
}

// An element type as the model names it (any TensorProto data type, known to the suite or not).
onnx::TypeProto tensor_type(int32_t elem_type) {
  return model::tensor_type(static_cast<DataType>(elem_type));
}

onnx::NodeProto* add_node(google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                          const std::string& op, const std::vector<std::string>& inputs,
                          const std::string& output) {
  auto* n = nodes.Add();
  *n = model::node(op, inputs, {output}, "seqconf_lift_" + output);
  return n;
}

std::vector<const onnx::ValueInfoProto*> runtime_inputs(const onnx::GraphProto& g) {
  std::vector<const onnx::ValueInfoProto*> r;
  for (const auto& in : g.input()) {
    bool init = false;
    for (const auto& i : g.initializer()) init |= i.name() == in.name();
    if (!init) r.push_back(&in);
  }
  return r;
}

}  // namespace

std::string lifted_name(const std::string& name, const char* what, size_t k) {
  return name + "__seqconf_" + what + "_" + std::to_string(k);
}

onnx::ModelProto lift_sequences(const onnx::ModelProto& model,
                                const std::vector<size_t>& input_lengths,
                                const std::vector<size_t>* output_lengths) {
  onnx::ModelProto m = model;
  auto* g = m.mutable_graph();
  for (const auto& v : g->input())
    if (v.type().has_optional_type())
      throw Error(ErrorCode::not_supported,
                  "input '" + v.name() + "' is optional; a tensors-only runtime cannot take it");
  for (const auto& v : g->output())
    if (v.type().has_optional_type())
      throw Error(ErrorCode::not_supported,
                  "output '" + v.name() + "' is optional; a tensors-only runtime cannot give it");
  // The lifting operators (SequenceConstruct, SequenceEmpty, SequenceLength, SequenceAt) take the
  // 15 types of all_tensor_types() only: a sequence of bfloat16 cannot be lifted.
  for (const auto* side : {&g->input(), &g->output()})
    for (const auto& v : *side)
      if (is_sequence_type(v.type()) &&
          !is_any_tensor_type(static_cast<DataType>(seq_elem_type(v.type()))))
        throw Error(ErrorCode::not_supported,
                    "'" + v.name() + "' is a sequence of " +
                        dtype_name_any(seq_elem_type(v.type())) +
                        ", which the operators that lift sequences to tensors for a tensors-only "
                        "runtime (SequenceConstruct, SequenceLength, SequenceAt) do not take");

  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inputs;
  size_t k = 0;
  for (const auto& in : g->input()) {
    bool init = false;
    for (const auto& i : g->initializer()) init |= i.name() == in.name();
    if (init || !is_sequence_type(in.type())) {
      *inputs.Add() = in;
      if (!init) ++k;
      continue;
    }
    const size_t n = k < input_lengths.size() ? input_lengths[k] : 0;
    ++k;
    const int32_t elem = seq_elem_type(in.type());
    if (n == 0) {
      // Clause SequenceEmpty.summary.
      auto* node = add_node(nodes, "SequenceEmpty", {}, in.name());
      *node->add_attribute() = model::int_attribute("dtype", elem);
      continue;
    }
    std::vector<std::string> parts;
    for (size_t i = 0; i < n; ++i) {
      parts.push_back(lifted_name(in.name(), "item", i));
      *inputs.Add() = model::value_info(parts.back(), tensor_type(elem));
    }
    // Clause SequenceConstruct.summary.
    add_node(nodes, "SequenceConstruct", parts, in.name());
  }
  for (const auto& n : g->node()) *nodes.Add() = n;

  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> outputs;
  size_t j = 0;
  for (const auto& out : g->output()) {
    if (!is_sequence_type(out.type())) {
      *outputs.Add() = out;
      continue;
    }
    const int32_t elem = seq_elem_type(out.type());
    if (!output_lengths) {
      // Clause SequenceLength.summary.
      const std::string len = lifted_name(out.name(), "length", 0);
      add_node(nodes, "SequenceLength", {out.name()}, len);
      *outputs.Add() = model::value_info(len, tensor_type(onnx::TensorProto::INT64));
    } else {
      const size_t n = j < output_lengths->size() ? (*output_lengths)[j] : 0;
      for (size_t i = 0; i < n; ++i) {
        const std::string pos = lifted_name(out.name(), "position", i);
        onnx::TensorProto position;
        position.set_data_type(onnx::TensorProto::INT64);
        position.add_int64_data(static_cast<int64_t>(i));
        *add_node(nodes, "Constant", {}, pos)->add_attribute() =
            model::tensor_attribute("value", position);
        const std::string item = lifted_name(out.name(), "at", i);
        // Clause SequenceAt.summary.
        add_node(nodes, "SequenceAt", {out.name(), pos}, item);
        *outputs.Add() = model::value_info(item, tensor_type(elem));
      }
    }
    ++j;
  }
  g->mutable_node()->Swap(&nodes);
  g->mutable_input()->Swap(&inputs);
  g->mutable_output()->Swap(&outputs);
  return m;
}

namespace {

// ---------------------------------------------------------------------------------------------
// The runtime.

class ProcessRuntime;

class ProcessModel : public PreparedModel {
 public:
  ProcessModel(ProcessRuntime& rt, onnx::ModelProto model) : rt_(rt), model_(std::move(model)) {}
  RunResult run(const std::vector<Value>& inputs) override;

 private:
  ProcessRuntime& rt_;
  onnx::ModelProto model_;
};

class ProcessRuntime : public Runtime {
 public:
  ProcessRuntime(std::string command, ProcessOptions options)
      : command_(std::move(command)), options_(options), child_(command_) {
    // A child that dies while we write to it must not take the suite down with SIGPIPE.
    ::signal(SIGPIPE, SIG_IGN);
    // Under $TMPDIR when it is set (temp_directory_path), else /tmp.
    std::error_code ec;
    fs::path tmp = fs::temp_directory_path(ec);
    if (ec) tmp = "/tmp";
    std::string tmpl = (tmp / "seqconf-process-XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))
      throw Error(ErrorCode::io_error,
                  "cannot create a work folder " + tmpl + ": " + std::strerror(errno));
    work_dir_ = tmpl;
    RunError e;
    if (!ensure_started(&e))
      throw Error(ErrorCode::io_error, "runtime process '" + command_ + "': " + e.message);
  }

  ~ProcessRuntime() override {
    child_.stop();
    std::error_code ec;
    fs::remove_all(work_dir_, ec);
  }

  std::string name() const override { return name_; }
  std::string version() const override { return version_; }
  std::string location() const override { return command_; }
  bool out_of_process() const override { return true; }
  bool sequences() const { return sequences_; }

  std::unique_ptr<PreparedModel> prepare(const fs::path&, const onnx::ModelProto& model,
                                         RunError*) override {
    // The child loads the model with each request; a model it rejects is a run outcome.
    return std::make_unique<ProcessModel>(*this, model);
  }

  // One request: writes the model and the inputs, reads the outputs (decoded with the graph's
  // declared output types).
  RunResult request(const onnx::ModelProto& model, const std::vector<Value>& inputs) {
    RunResult r;
    if (!ensure_started(&r.error)) return r;
    const size_t id = ++next_id_;
    const fs::path dir = work_dir_ / ("run-" + std::to_string(id));
    fs::create_directories(dir / "out");
    struct Cleanup {
      fs::path dir;
      ~Cleanup() {
        std::error_code ec;
        if (!std::getenv("SEQCONF_KEEP_PROCESS_FILES")) fs::remove_all(dir, ec);
      }
    } cleanup{dir};
    write_file(dir / "model.onnx", model.SerializeAsString());
    json req = {{"id", id},
                {"model", (dir / "model.onnx").string()},
                {"inputs", json::array()},
                {"output_dir", (dir / "out").string()}};
    for (size_t i = 0; i < inputs.size(); ++i) {
      const fs::path p = dir / ("input_" + std::to_string(i) + ".pb");
      write_file(p, value_to_bytes(inputs[i], TensorEncoding::raw_data));
      req["inputs"].push_back(p.string());
    }
    if (!child_.write_line(req.dump())) {
      r.error = make_error(RunError::Kind::crash, "runtime process " + child_.stop());
      return r;
    }
    json answer;
    // One time limit for the whole answer, however many stray lines come first.
    const Child::Deadline deadline = Child::deadline_in(options_.timeout_ms);
    for (;;) {
      std::string line;
      const auto st = child_.read_line(line, deadline);
      if (st == Child::ReadStatus::timeout || st == Child::ReadStatus::interrupted) {
        child_.stop();
        r.error = make_error(RunError::Kind::timeout,
                             st == Child::ReadStatus::interrupted
                                 ? "the run was stopped while waiting for the runtime process; it "
                                   "was killed"
                                 : "runtime process gave no answer within " +
                                       std::to_string(options_.timeout_ms) + " ms; it was killed");
        return r;
      }
      if (st == Child::ReadStatus::too_long) {
        child_.stop();
        r.error = make_error(RunError::Kind::internal, "runtime process wrote a line longer than " +
                                                           std::to_string(Child::kMaxLineBytes) +
                                                           " bytes; it was killed");
        return r;
      }
      if (st == Child::ReadStatus::eof) {
        r.error = make_error(RunError::Kind::crash,
                             "runtime process " + child_.stop(false) + " before answering");
        return r;
      }
      answer = json::parse(line, nullptr, false);
      // Lines that are not this request's answer (stray output) are skipped.
      if (answer.is_object() && answer.value("id", json()) == json(id)) break;
    }
    if (!answer.value("ok", false)) {
      const json err = answer.value("error", json::object());
      const std::string kind = err.is_object() ? err.value("kind", "internal") : "internal";
      r.error.kind = kind == "not_supported"   ? RunError::Kind::not_supported
                     : kind == "invalid_input" ? RunError::Kind::invalid_input
                     : kind == "adapter"       ? RunError::Kind::answer_unreadable
                                               : RunError::Kind::internal;
      r.error.message = err.is_object() ? err.value("message", "") : err.dump();
      return r;
    }
    const json outs = answer.value("outputs", json::array());
    const auto& declared = model.graph().output();
    if (!outs.is_array() || outs.size() != static_cast<size_t>(declared.size())) {
      r.error = make_error(RunError::Kind::answer_unreadable,
                           "runtime process answered " + std::to_string(outs.size()) +
                               " outputs; the graph has " + std::to_string(declared.size()));
      return r;
    }
    try {
      for (int i = 0; i < declared.size(); ++i) {
        const std::string path = outs[static_cast<size_t>(i)].get<std::string>();
        r.outputs.push_back(value_from_bytes(read_output_file(dir / "out", path),
                                             declared[i].type(), "output " + declared[i].name()));
      }
    } catch (const Error& e) {
      // An output larger than the size limit is the suite's limit, not a fault of the runtime.
      r.outputs.clear();
      r.error = make_error(e.code() == ErrorCode::limit_exceeded ? RunError::Kind::limit_exceeded
                                                                 : RunError::Kind::internal,
                           std::string("runtime process wrote an unreadable output: ") + e.what());
      return r;
    } catch (const std::exception& e) {
      r.outputs.clear();
      r.error = make_error(RunError::Kind::internal,
                           std::string("runtime process wrote an unreadable output: ") + e.what());
      return r;
    }
    r.ok = true;
    return r;
  }

 private:
  bool ensure_started(RunError* error) {
    if (child_.running()) return true;
    try {
      child_.start();
    } catch (const Error& e) {
      *error = make_error(RunError::Kind::internal, e.what());
      return false;
    }
    std::string line;
    const auto st = child_.read_line(line, Child::deadline_in(options_.timeout_ms));
    if (st != Child::ReadStatus::line) {
      const std::string how =
          st == Child::ReadStatus::timeout
              ? "gave no handshake within " + std::to_string(options_.timeout_ms) + " ms"
          : st == Child::ReadStatus::interrupted ? "was stopped with the run before its handshake"
          : st == Child::ReadStatus::too_long
              ? "wrote a first line longer than " + std::to_string(Child::kMaxLineBytes) + " bytes"
              : child_.stop(false) + " before its handshake";
      child_.stop();
      *error = make_error(RunError::Kind::internal, "runtime process " + how);
      return false;
    }
    const json hello = json::parse(line, nullptr, false);
    if (!hello.is_object() || hello.value("protocol", "") != kProtocol) {
      child_.stop();
      *error = make_error(RunError::Kind::internal,
                          "runtime process did not start with a " + std::string(kProtocol) +
                              " handshake; its first line: " + line.substr(0, 200));
      return false;
    }
    name_ = hello.value("name", "process");
    version_ = hello.value("version", "");
    const json caps = hello.value("capabilities", json::object());
    sequences_ = caps.is_object() && caps.value("sequences", false);
    return true;
  }

  std::string command_;
  ProcessOptions options_;
  Child child_;
  fs::path work_dir_;
  size_t next_id_ = 0;
  std::string name_ = "process", version_;
  bool sequences_ = false;
};

std::vector<Value> flatten_inputs(const std::vector<Value>& inputs) {
  std::vector<Value> r;
  for (const Value& v : inputs) {
    if (!v.is_sequence()) {
      r.push_back(v);
      continue;
    }
    for (const Tensor& t : v.sequence().tensors()) r.push_back(t);
  }
  return r;
}

RunResult ProcessModel::run(const std::vector<Value>& inputs) {
  if (rt_.sequences()) return rt_.request(model_, inputs);
  RunResult r;
  try {
    const auto declared_inputs = runtime_inputs(model_.graph());
    std::vector<size_t> in_lengths;
    for (size_t i = 0; i < inputs.size(); ++i) {
      in_lengths.push_back(inputs[i].is_sequence() ? inputs[i].sequence().size() : 0);
      if (i < declared_inputs.size() && is_sequence_type(declared_inputs[i]->type()) &&
          !inputs[i].is_sequence())
        throw Error(ErrorCode::not_a_sequence,
                    "input '" + declared_inputs[i]->name() + "' is declared a sequence");
    }
    const std::vector<Value> flat = flatten_inputs(inputs);
    const auto& outs = model_.graph().output();
    bool any_sequence_out = false;
    for (const auto& o : outs) any_sequence_out |= is_sequence_type(o.type());
    if (!any_sequence_out) return rt_.request(lift_sequences(model_, in_lengths, nullptr), flat);

    // First run: the lengths of the sequence outputs.
    RunResult first = rt_.request(lift_sequences(model_, in_lengths, nullptr), flat);
    if (!first.ok) return first;
    std::vector<size_t> out_lengths;
    size_t total = 0;
    for (int i = 0; i < outs.size(); ++i) {
      if (!is_sequence_type(outs[i].type())) continue;
      const Tensor& len = first.outputs.at(static_cast<size_t>(i)).tensor("sequence length");
      const int64_t n = len.element_count() == 1 ? len.int_at(0) : -1;
      if (n < 0)
        throw Error(ErrorCode::invalid_proto,
                    "SequenceLength of '" + outs[i].name() + "' gave " + len.describe());
      out_lengths.push_back(static_cast<size_t>(n));
      total += static_cast<size_t>(n);
    }
    // Second run, when any sequence output is non-empty: its items.
    RunResult second;
    if (total > 0) {
      second = rt_.request(lift_sequences(model_, in_lengths, &out_lengths), flat);
      if (!second.ok) return second;
    }
    size_t pos = 0, j = 0;
    for (int i = 0; i < outs.size(); ++i) {
      const RunResult& src = total > 0 ? second : first;
      if (!is_sequence_type(outs[i].type())) {
        r.outputs.push_back(src.outputs.at(total > 0 ? pos : static_cast<size_t>(i)));
        ++pos;
        continue;
      }
      const size_t n = out_lengths[j++];
      const DataType elem = dtype_from_onnx(seq_elem_type(outs[i].type()), outs[i].name());
      std::vector<Tensor> items;
      for (size_t k = 0; k < n; ++k) items.push_back(second.outputs.at(pos++).tensor("item"));
      if (total == 0) ++pos;
      r.outputs.push_back(Sequence(elem, std::move(items)));
    }
    r.ok = true;
  } catch (const Error& e) {
    r.outputs.clear();
    r.error = make_error(e.code() == ErrorCode::not_supported ? RunError::Kind::not_supported
                                                              : RunError::Kind::internal,
                         e.what());
    r.error.code = std::string(error_code_name(e.code()));
  }
  return r;
}

}  // namespace

std::string onnxruntime_web_command(std::string* why_not) {
  auto fail = [&](std::string why) {
    if (why_not) *why_not = std::move(why);
    return std::string();
  };
#ifdef SEQCONF_SOURCE_DIR
  const fs::path source = SEQCONF_SOURCE_DIR;
#else
  const fs::path source = fs::current_path();
#endif
  const fs::path script = source / "adapters" / "onnxruntime-web" / "adapter.js";
  if (!fs::exists(script)) return fail(script.string() + " is missing");
  std::string node;
  const char* path_env = std::getenv("PATH");
  std::stringstream dirs(path_env ? path_env : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((fs::path(dir) / "node").c_str(), X_OK) == 0) {
      node = (fs::path(dir) / "node").string();
      break;
    }
  if (node.empty()) return fail("node is not installed (apt-get install nodejs)");
  const char* web = std::getenv("SEQCONF_ORT_WEB");
  const fs::path package =
      web && *web ? fs::path(web)
                  : source / "third_party" / "npm" / "node_modules" / "onnxruntime-web";
  if (!fs::exists(package / "package.json"))
    return fail(package.string() + " is missing (run tools/setup-runtimes.sh)");
  return "'" + node + "' '" + script.string() + "'";
}

std::unique_ptr<Runtime> make_process_runtime(const std::string& command, ProcessOptions options) {
  return std::make_unique<ProcessRuntime>(command, options);
}

}  // namespace seqconf
