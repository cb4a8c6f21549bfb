// Property-based checks of the reference operators. Each property is a function of an OpSet;
// tests/properties/properties_test.cpp runs each one as an RC_GTEST_PROP on the reference,
// tests/properties/mutants_test.cpp runs it on broken variants and expects a counterexample,
// report_main.cpp writes a JSON report of a run.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "properties/op_set.h"

namespace seqconf::properties {

struct PropertyDef {
  std::string id;    // "Suite/Name", the same as the RC_GTEST_PROP that runs it
  std::string spec;  // the spec sentence the property rests on
  std::function<void(const OpSet&)> check;  // one case: draws its inputs, asserts
};

// Every property, in a stable order.
const std::vector<PropertyDef>& all_properties();
// The property with this id; throws std::out_of_range when there is none.
const PropertyDef& property(const std::string& id);

// Per-group registration, one file each.
void add_position_properties(std::vector<PropertyDef>& out);
void add_split_properties(std::vector<PropertyDef>& out);
void add_map_properties(std::vector<PropertyDef>& out);
void add_value_properties(std::vector<PropertyDef>& out);
void add_concat_properties(std::vector<PropertyDef>& out);

}  // namespace seqconf::properties
