// A campaign: programs drawn in rounds, evaluated by threads (one structure with several input
// sets, or programs in batches), counted in program order, and their disagreements handed to
// the findings (difffuzz/findings.h); the campaign's JSON report.
#include "difffuzz/campaign.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

#include "difffuzz/batch.h"
#include "difffuzz/evaluate.h"
#include "difffuzz/findings.h"
#include "difffuzz/input_sets.h"
#include "difffuzz/parallel.h"
#include "difffuzz/shrink.h"
#include "difffuzz/support.h"
#include "reference/error.h"
#include "runtimes/registry.h"

namespace seqconf::difffuzz {

std::string reproduce_command(const FuzzOptions& o, size_t iterations) {
  if (!o.replay.empty())
    return "seqconf fuzz --runtime " + o.runtime_spec + o.runtime_args + " --replay " + o.replay +
           " --out " + (o.out.empty() ? std::string("DIR") : o.out.string());
  return "seqconf fuzz --runtime " + o.runtime_spec + o.runtime_args + " --seed " +
         std::to_string(o.seed) +
         (o.first_iteration ? " --first-iteration " + std::to_string(o.first_iteration) : "") +
         " --iterations " + std::to_string(iterations) + " --out " +
         (o.out.empty() ? std::string("DIR") : o.out.string());
}

FuzzResult run_campaign(Runtime& runtime, const FuzzOptions& options) {
  FuzzResult result;
  result.seed = options.seed;
  const size_t jobs = options.make_runtime ? std::max<size_t>(options.jobs, 1) : 1;
  // One reference and one runtime under test per thread; thread 0 uses `runtime`.
  std::vector<std::unique_ptr<Runtime>> references, extra;
  std::vector<Runtime*> runtimes = {&runtime};
  if (options.make_oracle && options.oracle_id.empty())
    throw Error(ErrorCode::invalid_argument, "a fuzz campaign's oracle needs an ID");
  // The other side of each comparison, one per thread: the reference, or the oracle.
  for (size_t w = 0; w < jobs; ++w)
    references.push_back(options.make_oracle ? options.make_oracle() : make_runtime("reference"));
  const std::string oracle =
      options.make_oracle ? options.oracle_name : std::string(kReferenceOracle);
  for (size_t w = 1; w < jobs; ++w) {
    extra.push_back(options.make_runtime());
    runtimes.push_back(extra.back().get());
  }
  std::vector<Runtime*> reference_ptrs;
  for (const auto& r : references) reference_ptrs.push_back(r.get());
  Finder finder{reference_ptrs, runtimes, options, result, oracle};
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  // Programs hold only nodes the runtime supports (difffuzz/support.h), probed now unless given.
  result.support = options.support ? *options.support : probe_support(runtimes);
  const auto gen = program_gen(options.max_steps, result.support);
  FindingBook book(options, result, finder, *references.front(), runtime, oracle, elapsed);
  // Counts one evaluated program; a disagreement goes to the findings (FindingBook).
  auto consider = [&](size_t i, size_t input_set,
                      const std::function<rc::Shrinkable<Program>()>& shrinkable, const Program& p,
                      const Evaluation& e) {
    ++result.programs;
    if (input_set == 0) ++result.structures;
    std::set<std::string> ops;
    if (p.source == SourceKind::empty) ops.insert("SequenceEmpty");
    if (p.source == SourceKind::construct) ops.insert("SequenceConstruct");
    for (const Step& s : p.steps) ops.insert(step_op(s.kind));
    for (const std::string& op : ops) {
      ++result.programs_by_op[op];
      if (e.verdict == Verdict::agree_outputs) ++result.agree_outputs_by_op[op];
      if (e.verdict == Verdict::agree_rejected) ++result.agree_rejected_by_op[op];
    }
    ++result.programs_by_context[placement_name(p.tensors_as)];
    if (e.verdict == Verdict::agree_outputs)
      ++result.agree_outputs_by_context[placement_name(p.tensors_as)];
    switch (e.verdict) {
      case Verdict::agree_outputs:
        ++result.agree_outputs;
        return;
      case Verdict::agree_rejected:
        ++result.agree_rejected;
        return;
      case Verdict::not_supported:
        ++result.not_supported;
        ++result.not_supported_by_op[e.op];
        return;
      case Verdict::not_judged:
        ++result.not_judged;
        return;
      case Verdict::disagree:
        break;
    }
    ++result.disagreements;
    book.add(i, input_set, shrinkable, p, e);
  };
  // Programs go in rounds: generated in order on this thread (RapidCheck's generation state is
  // not thread-safe) while the previous round is evaluated: built and run on the reference, then
  // on the runtime (in batches, batch.h) by the evaluation threads; then counted and shrunk in
  // order.
  const size_t max_batch = std::max<size_t>(options.batch, 1);
  // Rounds start small, so that the evaluation threads soon have work, and double up to a size
  // that makes the wait for a round's last program rare.
  // With input sets a structure is up to options.input_sets programs: rounds of fewer
  // structures keep a time budget's last round short.
  const size_t max_round =
      (options.input_sets > 1 ? size_t{64} : std::max<size_t>(512, 4 * max_batch)) * jobs;
  size_t round = std::max<size_t>(8, max_batch) * jobs;
  std::vector<BatchCounts> counts(jobs);
  // An input set j >= 1 of a structure (difffuzz/input_sets.h) and its evaluation.
  struct InputSetRun {
    size_t j = 0;
    Program program;
    Evaluation evaluation;
    bool keep_valid = false;  // drawn to stay valid (input_set_gen)
  };
  struct Round {
    size_t first = 0;  // index in the campaign of the round's first program
    std::vector<rc::Shrinkable<Program>> shrinkables;
    std::vector<Slot> slots;
    std::vector<std::vector<InputSetRun>> input_sets;  // per slot, in order of j
  };
  // RapidCheck's generation state is shared by all threads: every draw (and every value of a
  // shrinkable drawn lazily) holds this lock, so that the evaluation threads can draw input
  // sets while this thread draws the next round.
  std::mutex generation;
  const bool with_input_sets = options.input_sets > 1 && max_batch == 1 && !options.program;
  auto input_set_shrinkable = [&](const Program& p, size_t i, size_t j, bool keep_valid) {
    return input_set_gen(p, keep_valid)(rc::Random(rc::Random::Key{options.seed, i, j, 0}),
                                        static_cast<int>(i % 100));
  };
  auto in_parallel = [&](size_t n, const std::function<void(size_t, size_t)>& work) {
    for_each_parallel(jobs, n, work);
  };
  // The next round's programs; false when the campaign has run its programs or its time.
  size_t generated = 0;
  auto generate = [&](Round& r) {
    const size_t iterations = options.program ? 1 : options.iterations;
    if (iterations != 0 && generated >= iterations) return false;
    if (options.time_budget_s > 0 && elapsed() >= options.time_budget_s) return false;
    const size_t n = iterations == 0 ? round : std::min(round, iterations - generated);
    r.first = generated;
    r.shrinkables.clear();
    r.slots.assign(n, Slot{});
    r.input_sets.assign(n, {});
    for (size_t k = 0; k < n; ++k) {
      const std::lock_guard<std::mutex> lock(generation);
      r.shrinkables.push_back(
          options.program
              ? rc::shrinkable::just(*options.program)
              : campaign_program(gen, options.seed, options.first_iteration + generated + k));
      r.slots[k].program = r.shrinkables.back().value();
    }
    generated += n;
    round = std::min(2 * round, max_round);
    return true;
  };
  // Once judged, a slot keeps what counting and shrinking read: its program and verdict, and
  // the results of a disagreement. The rest is freed by the evaluation threads, in parallel,
  // rather than by the thread that generates the next round.
  auto release = [](Slot& s) {
    s.built = BuiltProgram();
    s.reference = RunResult();
    if (s.evaluation.verdict != Verdict::disagree) {
      s.evaluation.reference = RunResult();
      s.evaluation.found = RunResult();
    }
  };
  // A structure prepared once on each side and run with its own values, then with further
  // input sets in chunks while the last chunk gave a verdict the structure had not given yet.
  auto evaluate_input_sets = [&](Round& r, size_t w, size_t k) {
    Slot& s = r.slots[k];
    const size_t i = options.first_iteration + r.first + k;
    s.built = build(s.program);
    ++counts[w].sessions;
    const Prepared on_reference = prepare_on(*references[w], s.built);
    const Prepared on_runtime = prepare_on(*runtimes[w], s.built);
    s.evaluation = judge(s.built, run_prepared(on_reference, s.built.inputs),
                         run_prepared(on_runtime, s.built.inputs), oracle);
    // A model either side cannot prepare gives the same verdict whatever the values.
    if (!on_reference.model || !on_runtime.model) return;
    // The input sets of a structure the other side runs stay valid, but every third, which is
    // drawn as freely as those of a structure it rejects: invalid values on purpose, a third of
    // the time, rather than by accident (difffuzz/input_sets.h).
    const bool structure_runs = s.evaluation.reference.ok;
    const auto keep_valid = [&](size_t set) { return structure_runs && set % 3 != 0; };
    const auto behaviour = [](const Evaluation& e) {
      return std::to_string(static_cast<int>(e.verdict)) + "|" + e.kind + "|" + e.op + "|" +
             e.reference.error.code + "|" +
             (e.found.ok ? "" : std::string(run_error_kind_name(e.found.error.kind)));
    };
    std::set<std::string> seen = {behaviour(s.evaluation)};
    size_t j = 1;
    for (const size_t chunk : {3, 4, 8, 16}) {
      if (j >= options.input_sets) break;
      const size_t n = std::min(chunk, options.input_sets - j);
      std::vector<Program> drawn;
      {
        const std::lock_guard<std::mutex> lock(generation);
        for (size_t t = 0; t < n; ++t)
          drawn.push_back(input_set_shrinkable(s.program, i, j + t, keep_valid(j + t)).value());
      }
      // The runtime under test gets the chunk in one call (one request to a worker process).
      std::vector<std::vector<Value>> inputs;
      for (const Program& q : drawn) inputs.push_back(build(q).inputs);
      std::vector<RunResult> found;
      try {
        found = on_runtime.model->run_many(inputs);
      } catch (const std::exception& e) {
        found.assign(inputs.size(), RunResult());
        for (RunResult& f : found) {
          f.error.kind = RunError::Kind::internal;
          f.error.message = e.what();
        }
      }
      bool fresh = false;
      for (size_t t = 0; t < drawn.size(); ++t) {
        InputSetRun set{j, std::move(drawn[t]), {}, keep_valid(j)};
        ++j;
        set.evaluation =
            judge(s.built, run_prepared(on_reference, inputs[t]), std::move(found[t]), oracle);
        fresh |= seen.insert(behaviour(set.evaluation)).second;
        if (set.evaluation.verdict != Verdict::disagree) {
          set.evaluation.reference = RunResult();
          set.evaluation.found = RunResult();
        }
        r.input_sets[k].push_back(std::move(set));
      }
      if (!fresh) break;
    }
  };
  auto evaluate_round = [&](Round& r) {
    in_parallel(r.slots.size(), [&](size_t w, size_t k) {
      if (with_input_sets && takes_input_sets(r.slots[k].program)) {
        evaluate_input_sets(r, w, k);
        release(r.slots[k]);
        return;
      }
      r.slots[k].built = build(r.slots[k].program);
      r.slots[k].reference = run_on(*references[w], r.slots[k].built);
      // Unbatched: the runtime runs the program right away (a group of one).
      if (max_batch == 1) {
        evaluate_group({&r.slots[k]}, *runtimes[w], &counts[w], oracle);
        release(r.slots[k]);
      }
    });
    if (max_batch == 1) return;
    std::vector<Slot*> order;
    for (Slot& s : r.slots) order.push_back(&s);
    const auto groups = batch_groups(order, max_batch, options.batch_nodes);
    in_parallel(groups.size(), [&](size_t w, size_t g) {
      evaluate_group(groups[g], *runtimes[w], &counts[w], oracle);
      for (Slot* s : groups[g]) release(*s);
    });
  };
  Round current, next;
  for (bool more = generate(current); more;) {
    std::thread evaluator = thread_with_limit([&] { evaluate_round(current); });
    more = generate(next);
    evaluator.join();
    const auto enough = [&] {
      return options.stop_after_findings > 0 &&
             result.findings.size() >= options.stop_after_findings;
    };
    for (size_t k = 0; k < current.slots.size() && !enough(); ++k) {
      const size_t i = options.first_iteration + current.first + k;
      const Program& structure = current.slots[k].program;
      consider(
          i, 0, [&] { return current.shrinkables[k]; }, structure, current.slots[k].evaluation);
      for (const InputSetRun& set : current.input_sets[k]) {
        if (enough()) break;
        consider(
            i, set.j, [&] { return input_set_shrinkable(structure, i, set.j, set.keep_valid); },
            set.program, set.evaluation);
      }
    }
    if (options.stop_after_findings > 0 && result.findings.size() >= options.stop_after_findings)
      break;
    std::swap(current, next);
  }
  for (const BatchCounts& c : counts) {
    result.sessions += c.sessions;
    result.batches += c.batches;
    result.batched_programs += c.batched_programs;
    result.batch_splits += c.splits;
  }
  result.seconds = elapsed();
  return result;
}

nlohmann::ordered_json report_json(const FuzzResult& r, const FuzzOptions& options,
                                   const std::string& runtime_name,
                                   const std::string& runtime_version) {
  nlohmann::ordered_json j;
  j["kind"] = "seqconf-fuzz";
  j["runtime"] = runtime_name;
  j["runtime_version"] = runtime_version;
  // How to run it again and where its fixtures are (seqconf bundle reads both).
  j["runtime_spec"] = options.runtime_spec;
  j["out"] = options.out.empty() ? std::string() : std::filesystem::absolute(options.out).string();
  j["oracle"] = options.make_oracle ? options.oracle_name : std::string("reference");
  j["seed"] = r.seed;
  j["programs"] = r.programs;
  j["structures"] = r.structures;
  j["input_sets"] = std::max<size_t>(options.input_sets, 1);
  j["seconds"] = r.seconds;
  j["programs_per_second"] = r.seconds > 0 ? static_cast<double>(r.programs) / r.seconds : 0.0;
  j["agree_outputs"] = r.agree_outputs;
  j["agree_rejected"] = r.agree_rejected;
  j["not_supported"] = r.not_supported;
  j["not_supported_by_op"] = r.not_supported_by_op;
  j["not_judged"] = r.not_judged;
  j["programs_by_op"] = r.programs_by_op;
  j["agree_outputs_by_op"] = r.agree_outputs_by_op;
  j["agree_rejected_by_op"] = r.agree_rejected_by_op;
  // The share of executions both sides rejected, overall and per op (of the programs that hold
  // the op): what the campaign spent on rejections both sides agree on.
  nlohmann::ordered_json share = nlohmann::ordered_json::object();
  for (const auto& [op, n] : r.programs_by_op) {
    const auto it = r.agree_rejected_by_op.find(op);
    share[op] = n ? static_cast<double>(it == r.agree_rejected_by_op.end() ? 0 : it->second) /
                        static_cast<double>(n)
                  : 0.0;
  }
  j["rejected_by_both_share"] =
      r.programs ? static_cast<double>(r.agree_rejected) / static_cast<double>(r.programs) : 0.0;
  j["rejected_by_both_share_by_op"] = share;
  j["unshrunk_departures"] = r.unshrunk_departures;
  j["shrinks"] = r.shrinks;
  j["programs_by_context"] = r.programs_by_context;
  j["agree_outputs_by_context"] = r.agree_outputs_by_context;
  nlohmann::ordered_json unsupported = nlohmann::ordered_json::array();
  for (const auto& [key, message] : r.support.not_supported)
    unsupported.push_back(
        {{"node", key.first}, {"dtype", dtype_name(key.second)}, {"message", one_line(message)}});
  j["not_drawn_not_supported"] = unsupported;
  j["disagreements"] = r.disagreements;
  j["batch"] = {{"max_programs", std::max<size_t>(options.batch, 1)},
                {"max_nodes", options.batch_nodes},
                {"sessions", r.sessions},
                {"batches", r.batches},
                {"batched_programs", r.batched_programs},
                {"splits", r.batch_splits}};
  j["shrink_evaluations"] = r.shrink_evaluations;
  j["shrink_seconds"] = r.shrink_seconds;
  nlohmann::ordered_json by_op = nlohmann::ordered_json::object();
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const FuzzFinding& f : r.findings) {
    auto& count = by_op[f.op][f.kind];
    count = count.is_null() ? 1 : count.get<int>() + 1;
    list.push_back({{"fixture", f.folder},
                    {"id", f.id},
                    {"op", f.op},
                    {"kind", f.kind},
                    {"dtype", f.dtype},
                    {"description", f.description},
                    {"program", f.program},
                    {"nodes", f.nodes},
                    {"occurrences", f.occurrences},
                    {"first_iteration", f.first_iteration},
                    {"shrink_seconds", f.shrink_seconds},
                    {"input_set", f.input_set}});
  }
  j["findings_by_op"] = by_op;
  j["findings"] = list;
  j["reproduce"] = reproduce_command(options, r.programs);
  return j;
}

}  // namespace seqconf::difffuzz
