// Helpers shared by the per-operator catalogs (not part of the catalog's interface).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "generators/catalog/catalog.h"
#include "reference/spec_clauses.h"

namespace seqconf::catalog::detail {

// The element types of the cases that vary something other than the element type: a float,
// an integer and string.
inline constexpr std::array<DataType, 3> kRepresentativeTypes = {DataType::float32, DataType::int64,
                                                                 DataType::string};

// A clause's sentence in double quotes, without its final period (for notes that quote it).
std::string spec_quote(std::string_view id);

// The first n of the sequence elements used throughout: shapes [2], [], [2,3], [0,2,1],
// [1,2,1,2] (rank 1, scalar, rank 2, zero-size rank 3, rank 4), element i with keys from
// 20*i + 1.
std::vector<KeyTensor> mixed_elements(size_t n);
std::string shapes_string(const std::vector<KeyTensor>& ts);
std::string dims_string(const Shape& s);  // "2x3"; "scalar" for []

CatalogCase start_case(const std::string& op, int opset, DataType dtype);
std::string type_label(DataType d);  // dtype_name as a std::string

// A type other than d, for element-type mismatches.
DataType other_type(DataType d);

}  // namespace seqconf::catalog::detail
