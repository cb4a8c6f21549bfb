// seqconf list: the case IDs of the generated corpus, its coverage, its static findings.
#include <iomanip>
#include <iostream>
#include <map>
#include <set>

#include "generators/catalog/catalog.h"
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

void print_coverage(const std::vector<const catalog::CatalogCase*>& cases) {
  // op x dtype: cases (must-reject).
  std::map<std::string, std::map<DataType, std::pair<int, int>>> by_op;
  for (const auto* c : cases) {
    auto& cell = by_op[c->op][c->dtype];
    ++cell.first;
    cell.second += c->must_reject();
  }
  std::cout << "cases per op x dtype (must-reject in parentheses)\n";
  std::cout << std::left << std::setw(16) << "op";
  for (DataType d : kAllDataTypes) std::cout << std::setw(11) << dtype_name(d);
  std::cout << "total\n";
  for (const auto& [op, row] : by_op) {
    std::cout << std::setw(16) << op;
    int total = 0, total_reject = 0;
    for (DataType d : kAllDataTypes) {
      const auto it = row.find(d);
      const auto cell = it == row.end() ? std::pair<int, int>{0, 0} : it->second;
      total += cell.first;
      total_reject += cell.second;
      std::cout << std::setw(11)
                << (std::to_string(cell.first) + "(" + std::to_string(cell.second) + ")");
    }
    std::cout << total << "(" << total_reject << ")"
              << "\n";
  }
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
      std::cout << "  " << std::setw(16) << op << std::setw(40) << feature << std::right
                << std::setw(5) << std::get<0>(f) << std::setw(5) << std::get<1>(f).size() << "/15"
                << std::setw(5) << std::get<2>(f) << std::left << "\n";
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

int run_list(const ListOptions& o) {
  const auto cases = selected(o);
  if (o.coverage) {
    print_coverage(cases);
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
  cmd->add_flag("--coverage", opts->coverage, "Print op x dtype x feature counts");
  cmd->add_flag("--findings", opts->findings,
                "Print static findings (checker, shape inference vs expected outputs)");
  cmd->add_flag("--inferred", opts->inferred,
                "Print the output types ONNX shape inference gives for the valid cases");
  cmd->callback([opts] { set_exit_code(run_list(*opts)); });
});

}  // namespace
}  // namespace seqconf::cli
