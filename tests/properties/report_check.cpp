// properties_report_check PATH [MIN_PROPERTIES]: the report exists, is valid JSON, and every
// property entry carries the keys the report promises. Exit 0 when it does, 1 otherwise.
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "report check: " << what << "\n";
    ++failures;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: properties_report_check PATH [MIN_PROPERTIES]\n";
    return 1;
  }
  const size_t min_properties = argc > 2 ? std::stoul(argv[2]) : 1;
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "report check: " << argv[1] << " was not written\n";
    return 1;
  }
  nlohmann::json r;
  try {
    r = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    std::cerr << "report check: not valid JSON: " << e.what() << "\n";
    return 1;
  }
  for (const char* key : {"report", "generated_at", "rapidcheck", "summary", "properties"})
    expect(r.contains(key), std::string("missing top-level key ") + key);
  if (failures) return 1;
  expect(r["rapidcheck"].contains("seed") && r["rapidcheck"].contains("max_success"),
         "rapidcheck lacks seed or max_success");
  const auto& props = r["properties"];
  expect(props.is_array() && props.size() >= min_properties,
         "fewer than " + std::to_string(min_properties) + " properties");
  size_t passed = 0;
  for (const auto& p : props) {
    const std::string id = p.value("id", "?");
    for (const char* key : {"id", "spec", "result", "passed", "cases", "discards", "seed",
                            "max_success", "seconds", "classification", "failure"})
      expect(p.contains(key), id + ": missing key " + key);
    if (!p.contains("cases") || !p.contains("classification") || !p.contains("failure")) continue;
    expect(p["cases"].is_number_integer() && p["cases"].get<int>() > 0, id + ": no case ran");
    for (const auto& c : p["classification"])
      expect(c.contains("tags") && c["tags"].is_array() && c.contains("count"),
             id + ": classification entry without tags/count");
    if (p["passed"].get<bool>()) {
      ++passed;
      expect(p["failure"].is_null(), id + ": passed but has a failure");
    } else {
      for (const char* key : {"message", "counterexample", "reproduce"})
        expect(p["failure"].contains(key), id + ": failure lacks " + key);
    }
  }
  expect(r["summary"].value("properties", -1) == static_cast<int>(props.size()),
         "summary.properties differs from the number of entries");
  expect(r["summary"].value("passed", -1) == static_cast<int>(passed),
         "summary.passed differs from the entries");
  if (failures == 0)
    std::cout << "report " << argv[1] << ": " << props.size() << " properties, " << passed
              << " passed\n";
  return failures == 0 ? 0 : 1;
}
