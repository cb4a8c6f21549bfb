// seqconf list: the case IDs of the generated corpus, its coverage, its static findings; with the
// coverage, the exported models (source exported).
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>

#include "cases/case.h"
#include "cases/data_dir.h"
#include "generators/catalog/catalog.h"
#include "harness/outcome.h"
#include "reference/error.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

struct ListOptions {
  std::string filter;
  bool folders = false;
  bool valid_only = false;
  bool reject_only = false;
  bool coverage = false;
  bool findings = false;
  bool inferred = false;
};

// An exact ID, or a prefix ending in '*' (a subtree: "SequenceAt/*",
// "SplitToSequence/split=list*").
bool matches(const std::string& id, const std::string& filter) {
  if (filter.empty()) return true;
  if (filter.back() == '*')
    return id.compare(0, filter.size() - 1, filter, 0, filter.size() - 1) == 0;
  return id == filter;
}

std::vector<const catalog::CatalogCase*> selected(const ListOptions& o) {
  std::vector<const catalog::CatalogCase*> v;
  for (const auto& c : catalog::all_cases()) {
    if (!matches(c.id(), o.filter)) continue;
    if (o.valid_only && c.must_reject()) continue;
    if (o.reject_only && !c.must_reject()) continue;
    v.push_back(&c);
  }
  return v;
}

// The case's graph context: its ID components are case.json's params, read as the loader reads
// them.
std::string catalog_context(const catalog::CatalogCase& c) {
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& p : c.params) params[p.key] = p.value;
  return context_of(params);
}

// The op column: the longest name, ConcatFromSequence, and two spaces.
constexpr int kOpWidth = 20;

// Cases (must-reject) by op, then by the key of a column.
using CountTable = std::map<std::string, std::map<std::string, std::pair<int, int>>>;

// One row per op: "cases(must-reject)" per column, then the row's total.
void print_count_table(const CountTable& table, const std::vector<std::string>& columns,
                       int width) {
  std::cout << std::left << std::setw(kOpWidth) << "op";
  for (const auto& column : columns) std::cout << std::setw(width) << column;
  std::cout << "total\n";
  for (const auto& [op, row] : table) {
    std::cout << std::setw(kOpWidth) << op;
    int total = 0, total_reject = 0;
    for (const auto& column : columns) {
      const auto it = row.find(column);
      const auto cell = it == row.end() ? std::pair<int, int>{0, 0} : it->second;
      total += cell.first;
      total_reject += cell.second;
      std::cout << std::setw(width)
                << (std::to_string(cell.first) + "(" + std::to_string(cell.second) + ")");
    }
    std::cout << total << "(" << total_reject << ")"
              << "\n";
  }
}

void print_coverage(const std::vector<const catalog::CatalogCase*>& cases) {
  // op x dtype and op x graph context: cases (must-reject).
  CountTable by_dtype, by_context;
  std::set<std::string> contexts;
  for (const auto* c : cases) {
    const std::string context = catalog_context(*c);
    contexts.insert(context);
    for (auto* cell :
         {&by_dtype[c->op][std::string(dtype_name(c->dtype))], &by_context[c->op][context]}) {
      ++cell->first;
      cell->second += c->must_reject();
    }
  }
  std::vector<std::string> dtypes;
  for (DataType d : kCarriedDataTypes) dtypes.emplace_back(dtype_name(d));
  std::cout << "cases per op x dtype (must-reject in parentheses)\n";
  print_count_table(by_dtype, dtypes, 11);
  size_t width = 11;
  for (const auto& context : contexts) width = std::max(width, context.size() + 2);
  std::cout << "\ncases per op x context (must-reject in parentheses; a case without a context "
               "param counts as "
            << kDefaultContext << ")\n";
  print_count_table(by_context, {contexts.begin(), contexts.end()}, static_cast<int>(width));
  // op x feature: each ID parameter value other than the dtype, with the number of types it
  // is crossed with.
  std::cout << "\nfeatures per op: cases, types covered, must-reject\n";
  std::map<std::string, std::map<std::string, std::tuple<int, std::set<DataType>, int>>> features;
  for (const auto* c : cases)
    for (const auto& p : c->params) {
      if (p.key == "dtype") continue;
      auto& f = features[c->op][p.key + "=" + p.value];
      ++std::get<0>(f);
      std::get<1>(f).insert(c->dtype);
      std::get<2>(f) += c->must_reject();
    }
  for (const auto& [op, fs] : features)
    for (const auto& [feature, f] : fs)
      std::cout << "  " << std::setw(kOpWidth) << op << std::setw(40) << feature << std::right
                << std::setw(5) << std::get<0>(f) << std::setw(5) << std::get<1>(f).size() << "/"
                << kCarriedDataTypes.size() << std::setw(5) << std::get<2>(f) << std::left << "\n";
  // Must-reject cases by error code; ambiguous cases.
  std::map<std::string, int> codes;
  int ambiguous = 0, rejects = 0;
  for (const auto* c : cases) {
    if (c->error) ++codes[std::string(error_code_name(*c->error))], ++rejects;
    ambiguous += c->ambiguous;
  }
  std::cout << "\nmust-reject cases by error code (" << rejects << ")\n";
  for (const auto& [code, n] : codes) std::cout << "  " << std::setw(28) << code << n << "\n";
  std::cout << "\nambiguous cases: " << ambiguous << "\ntotal cases: " << cases.size() << "\n";
}

// The exported source (fixtures/exported, cases/case.h): programs, models per operator, element
// type and opset, and the programs the exporter refused (its catalog.json).
void print_exported_coverage(const std::filesystem::path& root) {
  std::vector<Case> cases;
  try {
    cases = load_exported(root);
  } catch (const Error& e) {
    std::cout << "\nexported models: none (" << e.what() << ")\n";
    return;
  }
  std::set<std::string> programs;
  std::map<std::string, int> by_op, by_dtype, by_opset;
  for (const auto& c : cases) {
    programs.insert(c.producer.value("program", c.dir.parent_path().filename().string()));
    ++by_op[c.op];
    ++by_dtype[c.dtype.empty() ? "-" : c.dtype];
    ++by_opset["opset=" + std::to_string(c.opset)];
  }
  std::cout << "\nexported models (source exported, " << root.string() << "): " << programs.size()
            << " programs, " << cases.size() << " models\n";
  for (const auto* table : {&by_op, &by_dtype, &by_opset}) {
    std::cout << " ";
    for (const auto& [key, n] : *table) std::cout << " " << key << " " << n;
    std::cout << "\n";
  }
  std::ifstream in(root / "catalog.json");
  if (!in) return;
  const auto catalog = nlohmann::json::parse(in, nullptr, false);
  if (!catalog.is_object() || !catalog.contains("programs")) return;
  for (const auto& p : catalog.at("programs")) {
    if (!p.is_object() || !p.contains("opsets") || !p.at("opsets").is_object()) continue;
    std::vector<std::string> refused;
    std::string message;
    for (const auto& [opset, result] : p.at("opsets").items())
      if (result.is_object() && result.value("status", "") == "refused") {
        refused.push_back(opset);
        message = result.value("error", "");
      }
    if (refused.empty()) continue;
    std::cout << "  refused by the exporter: " << p.value("program", "?") << " at opset";
    for (const auto& v : refused) std::cout << " " << v;
    std::cout << ": " << terminal_safe(message) << "\n";
  }
}

int run_list(const ListOptions& o) {
  const auto cases = selected(o);
  if (o.coverage) {
    print_coverage(cases);
    print_exported_coverage(default_exported_root());
    return kExitOk;
  }
  if (o.findings) {
    for (const auto& f : catalog::static_findings())
      if (matches(f.substr(0, f.find(": ")), o.filter)) std::cout << f << "\n";
    return kExitOk;
  }
  if (o.inferred) {
    for (const auto* c : cases)
      for (const auto& t : catalog::static_check(*c).inferred)
        std::cout << c->id() << "\t" << t << "\n";
    return kExitOk;
  }
  for (const auto* c : cases) std::cout << (o.folders ? c->folder() : c->id()) << "\n";
  return kExitOk;
}

const CommandRegistrar kList(21, [](CLI::App& app) {
  auto opts = std::make_shared<ListOptions>();
  auto* cmd = app.add_subcommand("list", "List the cases of the generated corpus");
  cmd->add_option("--filter", opts->filter,
                  "An exact case ID, or a prefix ending in '*' (e.g. 'SequenceAt/*')");
  cmd->add_flag("--folders", opts->folders, "Print folder names instead of IDs");
  auto* valid = cmd->add_flag("--valid", opts->valid_only, "Only cases with expected outputs");
  cmd->add_flag("--must-reject", opts->reject_only, "Only must-reject cases")->excludes(valid);
  cmd->add_flag("--coverage", opts->coverage,
                "Print op x dtype, op x context and feature counts, and the exported models");
  cmd->add_flag("--findings", opts->findings,
                "Print static findings (checker, shape inference vs expected outputs)");
  cmd->add_flag("--inferred", opts->inferred,
                "Print the output types ONNX shape inference gives for the valid cases");
  cmd->callback([opts] { set_exit_code(run_list(*opts)); });
});

}  // namespace
}  // namespace seqconf::cli
