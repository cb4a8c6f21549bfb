#include "bundle/bundle.h"

#include <algorithm>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "bundle/control.h"
#include "bundle/expected.h"
#include "bundle/files.h"
#include "bundle/javascript.h"
#include "bundle/readme.h"
#include "bundle/repro_js.h"
#include "bundle/rerun.h"
#include "bundle/source.h"
#include "cases/case.h"
#include "harness/localize.h"
#include "reference/error.h"
#include "reference/proto.h"
#include "runtimes/memcheck.h"
#include "runtimes/onnxruntime_errors.h"

namespace seqconf::bundle {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

std::string javascript_package(const std::string& runtime_name) {
  if (runtime_name == "onnxruntime") return "onnxruntime-node";
  if (runtime_name == "onnxruntime-web") return "onnxruntime-web";
  return {};
}

std::vector<Bundled> write_bundles(const BundleOptions& o, std::ostream& log) {
  const Source s = read_source(o);
  std::vector<std::string> notes;
  const std::vector<Case> cases = select_cases(s.selection, &notes);
  std::map<std::string, const Case*> by_id;
  for (const Case& c : cases) by_id[c.id] = &c;

  Rerunner rerunner(o.runtime.empty() ? s.runtime_spec : o.runtime, o.timeout_ms);
  const std::string package = javascript_package(s.runtime_name);

  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) throw Error(ErrorCode::io_error, "cannot create " + o.out.string() + ": " + ec.message());

  std::vector<Bundled> result;
  for (const reports::Departure& d : s.departures) {
    if (!o.departures.empty() &&
        std::none_of(o.departures.begin(), o.departures.end(),
                     [&](const std::string& g) { return id_matches(g, d.id); }))
      continue;
    if (!d.run) continue;
    Bundled b;
    b.departure = d.id;
    b.folder = o.out / folder_name(d.id);

    // The candidates: the departure's cases a JavaScript API runs best, then the shortest ids.
    std::vector<std::pair<std::tuple<int, size_t, std::string>, const Case*>> ranked;
    std::vector<std::string> ids = d.case_ids;
    std::stable_sort(ids.begin(), ids.end(), [](const auto& a, const auto& b) {
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    if (ids.size() > 200) ids.resize(200);
    for (const auto& id : ids) {
      const auto it = by_id.find(id);
      if (it == by_id.end() || !it->second->load_error.empty()) continue;
      int fit = 2;
      if (!package.empty()) {
        try {
          fit = javascript_fit(read_model(it->second->dir / "model.onnx"));
        } catch (const std::exception&) {
          continue;
        }
      }
      ranked.push_back({{package.empty() ? 0 : fit, id.size(), id}, it->second});
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    if (ranked.empty()) {
      b.note = "none of its cases could be found or loaded (is the corpus of the report here?)";
      log << "skipped " << d.id << ": " << b.note << "\n";
      result.push_back(b);
      continue;
    }

    // The first candidate whose strings JavaScript can pass (at most a few tried).
    const Case* chosen = nullptr;
    LoadedCase lc;
    int fit = 2;
    for (size_t k = 0; k < ranked.size() && k < 8; ++k) {
      try {
        LoadedCase l = load_case(*ranked[k].second);
        bool utf8 = true;
        for (const auto& ds : l.data_sets)
          for (const auto& v : ds.inputs) utf8 = utf8 && strings_are_utf8(v);
        if (!chosen || (utf8 && fit == 2 && std::get<0>(ranked[k].first) < 2) || k == 0) {
          chosen = ranked[k].second;
          lc = std::move(l);
          fit = package.empty() ? 2 : (utf8 ? std::get<0>(ranked[k].first) : 2);
        }
        if (fit < 2 || package.empty()) break;
      } catch (const std::exception&) {
        continue;
      }
    }
    if (!chosen) {
      b.note = "its cases could not be loaded";
      result.push_back(b);
      continue;
    }
    b.case_id = chosen->id;
    const std::vector<Expected> expected = expectations_of(*chosen, lc, s.meaning);

    // The runtime again: the first data set on which it departs.
    // What memcheck reported of the case in the report's run, if it ran under it.
    std::optional<MemoryError> memory_error;
    if (const auto it = s.record.find(chosen->id); it != s.record.end())
      memory_error = it->second->outcome.memory_error;
    Rerun again = rerunner.run(*chosen, lc, expected, memory_error);
    b.rerun = again.rerun;
    b.reproduced = again.reproduced;
    b.note = again.note;
    b.declined = again.declined;
    memory_error = again.memory_error;
    // The data set it departed on again, or else the first the spec's meaning was found for.
    size_t pick = again.pick;
    if (!again.reproduced && expected.at(pick).not_judged)
      for (size_t k = 0; k < expected.size(); ++k)
        if (!expected[k].not_judged) {
          pick = k;
          break;
        }
    const auto& results = again.results;
    std::string what_it_did = again.what_it_did;
    if (what_it_did.empty()) {
      const auto it = s.message.find(chosen->id);
      what_it_did = it != s.message.end() && !it->second.empty() ? it->second : d.what;
    }

    // No folder holds a case without the spec's meaning: it would tell the runtime's team to do
    // what the reference could not work out.
    if (expected.at(pick).not_judged) {
      b.note = "not bundled: the spec's meaning of " + chosen->id + " " +
               lc.data_sets.at(pick).name + " was not found: " + expected.at(pick).why;
      log << "skipped " << d.id << ": " << b.note << "\n";
      result.push_back(b);
      continue;
    }
    fs::remove_all(b.folder, ec);
    fs::create_directories(b.folder / "test_data_set_0", ec);
    fs::create_directories(b.folder / "actual", ec);
    if (ec) throw Error(ErrorCode::io_error, "cannot create " + b.folder.string());
    const DataSet& ds = lc.data_sets.at(pick);
    const Expected& e = expected.at(pick);
    write_bytes(b.folder / "model.onnx", read_bytes(chosen->dir / "model.onnx"));
    const auto inputs = graph_inputs(lc.model.graph());
    for (size_t k = 0; k < ds.inputs.size(); ++k)
      write_bytes(b.folder / "test_data_set_0" / ("input_" + std::to_string(k) + ".pb"),
                  read_bytes(chosen->dir / ds.name / ("input_" + std::to_string(k) + ".pb")));
    for (size_t k = 0; k < e.outputs.size(); ++k)
      write_bytes(b.folder / "test_data_set_0" / ("output_" + std::to_string(k) + ".pb"),
                  value_to_bytes(e.outputs[k], TensorEncoding::raw_data,
                                 lc.model.graph().output(static_cast<int>(k)).name()));

    ordered_json values;
    values["departure"] = d.id;
    values["case"] = chosen->id;
    values["data_set"] = ds.name;
    if (memory_error)
      values["memory_error"] = {{"kind", memory_error->kind},
                                {"description", memory_error->description},
                                {"frames", memory_error->frames}};
    ordered_json in = ordered_json::array();
    for (size_t k = 0; k < ds.inputs.size(); ++k)
      in.push_back({{"name", k < inputs.size() ? inputs[k]->name() : std::string()},
                    {"value", value_json(ds.inputs[k])}});
    values["inputs"] = in;
    if (e.rejected) {
      values["expected"] = {{"rejected", e.why}};
    } else {
      ordered_json outs = ordered_json::array();
      for (size_t k = 0; k < e.outputs.size(); ++k)
        outs.push_back({{"name", lc.model.graph().output(static_cast<int>(k)).name()},
                        {"value", value_json(e.outputs[k])}});
      values["expected"] = {{"outputs", outs}};
    }
    if (results[pick]) {
      const RunResult& r = *results[pick];
      if (r.ok) {
        ordered_json outs = ordered_json::array();
        for (size_t k = 0; k < r.outputs.size(); ++k) {
          const std::string name = static_cast<int>(k) < lc.model.graph().output_size()
                                       ? lc.model.graph().output(static_cast<int>(k)).name()
                                       : std::string();
          outs.push_back({{"name", name}, {"value", value_json(r.outputs[k])}});
          write_bytes(b.folder / "actual" / ("output_" + std::to_string(k) + ".pb"),
                      value_to_bytes(r.outputs[k], TensorEncoding::raw_data, name));
        }
        values["actual"] = {{"outputs", outs}};
      } else {
        values["actual"] = {{"error",
                             {{"kind", std::string(run_error_kind_name(r.error.kind))},
                              {"message", r.error.message}}}};
        write_bytes(b.folder / "actual" / "error.txt", error_text(r.error) + "\n");
      }
    } else {
      values["actual"] = {{"from_report", what_it_did}};
      write_bytes(b.folder / "actual" / "error.txt", "from the report: " + what_it_did + "\n");
    }
    std::string control_id, no_control;
    if (!package.empty()) {
      ordered_json repro = repro_json(lc.model, ds, e, chosen->comparison, package,
                                      s.runtime_version, o.timeout_ms, b.folder);
      // What shows that the runtime could have done what the spec says: a case of its kind that
      // it runs, before the departing model.
      if (auto control = choose_control(s, by_id, d, *chosen, fit, &no_control)) {
        repro["control"] =
            control_json(*control->c, control->lc.model,
                         control->lc.data_sets.at(control->data_set), control->expected, b.folder);
        control_id = control->c->id;
      } else {
        repro["no_control"] = no_control;
      }
      // A memory error shows under valgrind memcheck only: repro.js runs the model under it.
      if (memory_error) {
        repro["memcheck"] = {{"kind", memory_error->kind},
                             {"suppressions", "memcheck.supp"},
                             {"slowdown", kMemcheckSlowdown}};
        write_bytes(b.folder / "memcheck.supp", std::string(kReproSupp));
      }
      // The models as written: a damaged or replaced file is not the case.
      ordered_json files = ordered_json::object();
      std::vector<std::string> names;
      for (const auto& entry : fs::directory_iterator(b.folder))
        if (entry.path().extension() == ".onnx") names.push_back(entry.path().filename().string());
      std::sort(names.begin(), names.end());
      for (const auto& name : names) files[name] = sha256_hex(read_bytes(b.folder / name));
      repro["sha256"] = files;
      values["repro"] = std::move(repro);
      write_bytes(b.folder / "repro.js", std::string(kReproJs));
      fs::permissions(b.folder / "repro.js",
                      fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                      fs::perm_options::add, ec);
      // How repro.js reads ONNX Runtime's errors: the table seqconf reads them by.
      write_bytes(b.folder / "onnxruntime_errors.js", std::string(onnxruntime_errors_js()));
      write_bytes(b.folder / "onnxruntime_errors.json", std::string(onnxruntime_errors_json()));
      b.repro_js = true;
    }
    // A departure localized to a node (harness/localize.h): that node alone, on the runtime's
    // own values, is the smallest model for the runtime's team; the whole model stays beside it.
    std::string node_readme;
    if (const auto it = s.record.find(chosen->id);
        it != s.record.end() && it->second->outcome.localization &&
        it->second->outcome.localization->kind == "node" && rerunner.runtime()) {
      const Localization l = localize(lc.model, ds.inputs, *rerunner.runtime(),
                                      {s.meaning.policy, s.meaning.host, chosen->source});
      if (l.kind == "node" && l.repro) {
        const fs::path node = b.folder / "node";
        fs::create_directories(node / "test_data_set_0", ec);
        write_bytes(node / "model.onnx", model_bytes(l.repro->model));
        const onnx::GraphProto& ng = l.repro->model.graph();
        for (size_t k = 0; k < l.repro->inputs.size(); ++k)
          write_bytes(node / "test_data_set_0" / ("input_" + std::to_string(k) + ".pb"),
                      value_to_bytes(l.repro->inputs[k], TensorEncoding::raw_data,
                                     ng.input(static_cast<int>(k)).name()));
        for (size_t k = 0; k < l.repro->spec_outputs.size(); ++k)
          write_bytes(node / "test_data_set_0" / ("output_" + std::to_string(k) + ".pb"),
                      value_to_bytes(l.repro->spec_outputs[k], TensorEncoding::raw_data,
                                     ng.output(static_cast<int>(k)).name()));
        values["node"] = {{"label", l.label},     {"op", l.op},      {"version", l.version},
                          {"got", l.got},         {"spec", l.spec},  {"runtime", l.runtime},
                          {"message", l.message}, {"folder", "node"}};
        node_readme = "\n## The node at fault\n\n" + l.label +
                      " departs on the runtime's own values: it got " + l.got +
                      "; the spec gives " + l.spec + "; the runtime gave " + l.runtime + " (" +
                      l.message +
                      "). `node/` holds that node alone as a model, with the values "
                      "the runtime gave it as `test_data_set_0/input_*.pb` and what the spec gives "
                      "for them as `output_*.pb`: the smallest model that shows the departure. The "
                      "whole model is `model.onnx`.\n";
      }
    }
    write_bytes(b.folder / "values.json",
                values.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");

    Written w{&d,
              chosen,
              b.folder,
              ds.name,
              clipped(what_it_did),
              b.rerun,
              b.reproduced,
              fit,
              package,
              e,
              std::max(o.timeout_ms, 1000) / 1000,
              memory_error,
              control_id,
              no_control};
    write_bytes(b.folder / "README.md", readme(s, w) + node_readme);
    log << (b.reproduced ? "wrote "
                         : "wrote (" + (b.note.empty() ? std::string("?") : b.note) + ") ")
        << b.folder.string() << "  <- " << chosen->id << "\n";
    result.push_back(std::move(b));
  }
  for (const auto& n : notes) log << "note: " << n << "\n";
  return result;
}

}  // namespace seqconf::bundle
