#include "bundle/control.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "bundle/javascript.h"

namespace seqconf::bundle {

std::optional<Control> choose_control(const Source& s,
                                      const std::map<std::string, const Case*>& by_id,
                                      const reports::Departure& d, const Case& chosen, int fit,
                                      std::string* why_none) {
  const auto own = s.record.find(chosen.id);
  if (own == s.record.end()) {
    *why_none = "the report records no passing cases to take a control from (a fuzz report)";
    return std::nullopt;
  }
  const Outcome& o = own->second->outcome;
  const std::set<std::string> departing(d.case_ids.begin(), d.case_ids.end());
  // (different element type, -common prefix, id length, id) -> case
  std::vector<std::tuple<bool, long, size_t, std::string>> ranked;
  for (const auto& [id, record] : s.record) {
    const Outcome& c = record->outcome;
    if (c.status != Status::pass || c.op != o.op || c.context != o.context || departing.count(id))
      continue;
    const auto mismatch = std::mismatch(id.begin(), id.end(), chosen.id.begin(), chosen.id.end());
    ranked.emplace_back(c.dtype != o.dtype, -static_cast<long>(mismatch.first - id.begin()),
                        id.size(), id);
  }
  std::sort(ranked.begin(), ranked.end());
  // A control run the way the departing model runs (as it is, or lifted) first.
  std::optional<Control> other_fit;
  size_t tried = 0;
  for (const auto& candidate : ranked) {
    if (tried == 40) break;
    const auto it = by_id.find(std::get<3>(candidate));
    if (it == by_id.end() || !it->second->load_error.empty()) continue;
    ++tried;
    try {
      Control k;
      k.c = it->second;
      k.lc = load_case(*k.c);
      const int its_fit = javascript_fit(k.lc.model);
      if (its_fit == 2) continue;
      bool utf8 = true;
      for (const auto& ds : k.lc.data_sets)
        for (const auto& v : ds.inputs) utf8 = utf8 && strings_are_utf8(v);
      if (!utf8) continue;
      const std::vector<Expected> expected = expectations_of(*k.c, k.lc, s.meaning);
      const auto ok = std::find_if(expected.begin(), expected.end(),
                                   [](const Expected& e) { return !e.rejected && !e.not_judged; });
      if (ok == expected.end()) continue;
      k.data_set = static_cast<size_t>(ok - expected.begin());
      k.expected = *ok;
      if (its_fit == fit) return k;
      if (!other_fit) other_fit = std::move(k);
    } catch (const std::exception&) {
      continue;
    }
  }
  if (other_fit) return other_fit;
  *why_none = "no case of " + o.op + " in context " + o.context +
              " passed in the report's run, to show that the runtime runs its kind of model";
  return std::nullopt;
}

}  // namespace seqconf::bundle
