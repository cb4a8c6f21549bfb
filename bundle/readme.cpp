#include "bundle/readme.h"

#include <sstream>

namespace seqconf::bundle {
namespace {

namespace fs = std::filesystem;

std::string quote_block(const std::string& s) {
  std::string out = "> ";
  for (char c : s) {
    out += c;
    if (c == '\n') out += "> ";
  }
  return out;
}

std::string code_span(const std::string& s) {
  return s.find('`') == std::string::npos ? "`" + s + "`" : "``" + s + "``";
}

}  // namespace

std::string clipped(std::string s, size_t n) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > n) s = s.substr(0, n) + " ...";
  return s;
}

std::string readme(const Source& s, const Written& w) {
  const reports::Departure& d = *w.departure;
  std::ostringstream md;
  const std::string runtime =
      s.runtime_name + (s.runtime_version.empty() ? "" : " " + s.runtime_version);
  const auto outcome_of = [&](const std::string& id) -> const Outcome* {
    const auto it = s.record.find(id);
    return it == s.record.end() ? nullptr : &it->second->outcome;
  };
  const Outcome* own = outcome_of(w.c->id);
  const Outcome* smallest = outcome_of(d.smallest);
  md << "# " << d.op << ": " << d.what << " (" << runtime << ")\n\n";
  md << "**What happens.** " << w.what_it_did << "\n\n";
  md << "- case: " << code_span(w.c->id) << " (" << w.data_set << ")\n";
  // An exported model the spec rejects through one of its nodes: that node, not the model.
  if (own && own->exported && !own->exported->fault_node.empty())
    md << "- node at fault: " << code_span(own->exported->fault_node) << "\n";
  if (!d.clauses.empty()) {
    md << "- spec clause" << (d.clauses.size() > 1 ? "s" : "") << ": ";
    for (size_t k = 0; k < d.clauses.size(); ++k) md << (k ? ", " : "") << code_span(d.clauses[k]);
    md << "\n";
  }
  md << "- expected: "
     << (w.expected.rejected
             ? "the runtime rejects the model or its inputs (the reference: " + w.expected.why + ")"
             : summarize_values(w.expected.outputs))
     << "\n\n";
  if (!d.spec.empty())
    md << "**The specification says** (ONNX operator " << d.op << "):\n\n"
       << quote_block(d.spec) << "\n\n";
  // The layer: the bundled case's attribution, else its departure's smallest case's.
  if (own && own->attribution)
    md << "**Layer.** " << own->attribution->layer << ": " << own->attribution->why << "\n\n";
  else if (smallest && smallest->attribution)
    md << "**Layer** (of its smallest case " << code_span(d.smallest) << "). "
       << smallest->attribution->layer << ": " << smallest->attribution->why << "\n\n";
  if (w.memory_error) {
    md << "**Memory error** (valgrind memcheck, `seqconf run --memcheck`): "
       << code_span(w.memory_error->kind) << ", " << w.memory_error->description << "\n\n";
    for (const auto& f : w.memory_error->frames) md << "    " << f << "\n";
    md << "\n`repro.js` runs the model under valgrind memcheck (`valgrind` on `PATH`, or "
          "`$VALGRIND`; with the suppressions in `memcheck.supp`) and says it cannot check (exit "
          "2) without it: it exits 0 only when memcheck reports no error and the runtime does "
          "what the specification says.\n\n";
  }
  md << "## Reproduce\n\n";
  if (!w.package.empty()) {
    md << "```sh\nnpm install " << w.package << "@" << s.runtime_version
       << "\nnode repro.js                # --any-version: on another version of the package\n"
          "```\n\n";
    md << "`repro.js` loads the model with " << w.package
       << ", runs it on the inputs in `values.json`, prints what the specification gives against "
          "what the runtime gives, and exits 1 while the departure holds, 0 once the runtime does "
          "what the specification says, and 2 when it cannot tell: the package is missing or is "
          "not the report's version (its first line names both), a model file is not the one "
          "`values.json` was written with (their SHA-256), the control fails, or a value cannot "
          "be passed. It runs the model in a child process, so a crash is shown as one and a "
          "hang is stopped after "
       << w.time_limit_s << " s; it writes no file.\n\n";
    if (!w.control.empty())
      md << "Before the departing model it runs a control, " << code_span(w.control)
         << ", a case of the same operator in the same graph context that passed in the same "
            "run (`control_*.onnx`): "
         << (w.expected.rejected ? "a rejection counts only once the runtime has shown it loads "
                                   "and runs that kind of model"
                                 : "a failure counts only once the runtime has shown it runs "
                                   "that kind of model")
         << "; when the control fails, `repro.js` cannot tell (exit 2).";
    else if (w.expected.rejected)
      md << "It has no control (" << w.no_control
         << "), so a rejection cannot be told from a runtime that loads nothing of its kind: it "
            "exits 1 while the runtime accepts the case, 2 otherwise.";
    if (w.expected.rejected)
      md << (w.expected.at_load ? " The specification rejects the model itself, so a rejection "
                                  "when loading or running it counts."
                                : " The specification rejects the model's inputs: the model must "
                                  "load, and the rejection come from running it.");
    if (!w.control.empty() || w.expected.rejected) md << "\n\n";
    if (w.fit == 1)
      md << "The model takes or gives sequences, which the JavaScript API cannot pass: "
            "`repro.js` runs the same model with each sequence input given as its tensors "
            "(SequenceConstruct) and each sequence output read as its length (SequenceLength, "
            "`lengths.onnx`) and its tensors (SequenceAt, `items.onnx`). `model.onnx` is the "
            "case's own model.\n\n";
    if (w.fit == 2)
      md << "The case uses a value the JavaScript API cannot pass (a complex or bfloat16 tensor, "
            "an optional, or a string that is not UTF-8): `repro.js` shows the departure when the "
            "runtime cannot load the model, and says it cannot check (exit 2) otherwise.\n\n";
  } else {
    md << "This runtime has no JavaScript API that seqconf knows; the case is in ONNX's backend "
          "test layout (`model.onnx`, `test_data_set_0/`), which ONNX's test runners read.\n\n";
  }
  if (s.runtime_spec.rfind("process=", 0) == 0)
    md << "The runtime is a process: its adapter command line is\n\n```sh\n"
       << s.runtime_spec.substr(8) << "\n```\n\n";
  md << "With seqconf:\n\n```sh\n"
     << (d.rerun.empty() ? "(no command recorded)" : d.rerun) << "\n```\n\n";
  md << "## Runtime\n\n";
  md << "- " << runtime << "\n";
  if (!s.runtime_path.empty())
    md << "- library: " << code_span(fs::path(s.runtime_path).filename().string()) << "\n";
  if (!s.os.empty()) md << "- platform: " << s.os << ", " << s.cpu_count << " CPUs\n";
  if (s.kind == "fuzz") md << "- found by differential fuzzing against " << s.oracle << "\n";
  md << "\n## Other cases of this departure\n\n";
  md << d.case_ids.size() << " case" << (d.case_ids.size() == 1 ? "" : "s");
  if (!d.dtypes.empty()) {
    md << "; element types ";
    for (size_t k = 0; k < d.dtypes.size(); ++k) md << (k ? ", " : "") << d.dtypes[k];
  }
  if (!d.contexts.empty()) {
    md << "; graph contexts ";
    for (size_t k = 0; k < d.contexts.size(); ++k) md << (k ? ", " : "") << d.contexts[k];
  }
  md << ".\n\n";
  size_t shown = 0;
  for (const auto& id : d.case_ids) {
    if (id == w.c->id) continue;
    if (shown++ == 5) {
      md << "- ... and " << d.case_ids.size() - 6 << " more\n";
      break;
    }
    md << "- " << code_span(id) << "\n";
  }
  md << "\n## Files\n\n"
        "- `lengths.onnx`, `items.onnx`, `repro.onnx` (when present): the model as `repro.js` "
        "runs it, its sequences lifted to tensors and the inputs the JavaScript API cannot pass "
        "given as the inputs' default values (initializers)\n"
        "- `control_*.onnx` (when present): the control as `repro.js` runs it\n"
        "- `memcheck.supp` (a memory error): valgrind's suppressions of known noise\n"
        "- `onnxruntime_errors.json`, `onnxruntime_errors.js` (beside `repro.js`): how it tells "
        "ONNX "
        "Runtime's refusal of a model from a fault of its own code or a missing kernel, by the "
        "rules seqconf reads ONNX Runtime's errors by\n"
        "- `model.onnx`, `test_data_set_0/input_K.pb`, `output_K.pb`: the case (outputs as the "
        "specification gives them)\n"
        "- `actual/`: what the runtime gave when this folder was written\n"
        "- `values.json`: the same values, readable (`inputs`, `expected`, `actual`), and what "
        "`repro.js` runs (`repro`)\n";
  return md.str();
}

}  // namespace seqconf::bundle
