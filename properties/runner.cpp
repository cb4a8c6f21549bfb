#include "properties/runner.h"

#include <chrono>
#include <cstdlib>

#include <rapidcheck/detail/Configuration.h>
#include <rapidcheck/detail/TestListener.h>

namespace seqconf::properties {

namespace {

class CountingListener : public rc::detail::TestListener {
 public:
  explicit CountingListener(PropertyRun& run) : run_(run) {}
  void onTestCaseFinished(const rc::detail::CaseDescription& d) override {
    using T = rc::detail::CaseResult::Type;
    if (d.result.type == T::Discard) {
      ++run_.discards;
      return;
    }
    ++run_.cases;
    if (d.result.type == T::Success) ++run_.classification[d.tags];
  }
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}

 private:
  PropertyRun& run_;
};

}  // namespace

void apply_default_budget() {
  const char* env = std::getenv("RC_PARAMS");
  std::string params = env ? env : "";
  if (params.find("max_success") != std::string::npos) return;
  params += (params.empty() ? "" : " ") + std::string("max_success=") +
            std::to_string(kDefaultMaxSuccess);
  setenv("RC_PARAMS", params.c_str(), 1);
}

rc::detail::TestParams configured_params() { return rc::detail::configuration().testParams; }

PropertyRun run_property(const PropertyDef& def, const OpSet& ops,
                         const rc::detail::TestParams& params) {
  PropertyRun run;
  run.id = def.id;
  run.spec = def.spec;
  run.seed = params.seed;
  run.max_success = params.maxSuccess;
  rc::detail::TestMetadata metadata;
  metadata.id = def.id;
  metadata.description = def.id;
  CountingListener listener(run);
  const auto check = def.check;
  const auto start = std::chrono::steady_clock::now();
  const auto result =
      rc::detail::checkTestable([check, ops] { check(ops); }, metadata, params, listener);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (result.is<rc::detail::FailureResult>()) {
    const auto& f = result.get<rc::detail::FailureResult>();
    run.result = PropertyRun::Result::failed;
    run.message = f.description;
    run.counterexample = f.counterExample;
    rc::detail::Configuration config;
    config.testParams = params;
    config.reproduce[def.id] = f.reproduce;
    run.reproduce = rc::detail::configToMinimalString(config);
  } else if (result.is<rc::detail::GaveUpResult>()) {
    run.result = PropertyRun::Result::gave_up;
    run.message = result.get<rc::detail::GaveUpResult>().description;
  } else if (result.is<rc::detail::Error>()) {
    run.result = PropertyRun::Result::error;
    run.message = result.get<rc::detail::Error>().description;
  }
  return run;
}

const char* result_name(PropertyRun::Result r) {
  switch (r) {
    case PropertyRun::Result::passed:
      return "passed";
    case PropertyRun::Result::failed:
      return "failed";
    case PropertyRun::Result::gave_up:
      return "gave_up";
    default:
      return "error";
  }
}

nlohmann::json to_json(const PropertyRun& run) {
  nlohmann::json j;
  j["id"] = run.id;
  j["spec"] = run.spec;
  j["result"] = result_name(run.result);
  j["passed"] = run.result == PropertyRun::Result::passed;
  j["cases"] = run.cases;
  j["discards"] = run.discards;
  j["seed"] = std::to_string(run.seed);  // a string: 64-bit seeds exceed JSON's safe integers
  j["max_success"] = run.max_success;
  j["seconds"] = run.seconds;
  nlohmann::json classes = nlohmann::json::array();
  for (const auto& [tags, count] : run.classification) {
    // RapidCheck shows string tags quoted; the report keeps the text.
    std::vector<std::string> plain;
    for (const auto& t : tags)
      plain.push_back(
          t.size() >= 2 && t.front() == '"' && t.back() == '"' ? t.substr(1, t.size() - 2) : t);
    classes.push_back({{"tags", plain}, {"count", count}});
  }
  j["classification"] = classes;
  if (run.result == PropertyRun::Result::passed) {
    j["failure"] = nullptr;
  } else {
    nlohmann::json ce = nlohmann::json::array();
    for (const auto& [type, value] : run.counterexample)
      ce.push_back({{"type", type}, {"value", value}});
    j["failure"] = {
        {"message", run.message},
        {"counterexample", ce},
        {"reproduce", run.reproduce.empty() ? "" : "RC_PARAMS=\"" + run.reproduce + "\""}};
  }
  return j;
}

}  // namespace seqconf::properties
