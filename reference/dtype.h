// Element types of ONNX tensors, with the numbering of onnx::TensorProto_DataType.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "reference/error.h"

namespace seqconf {

enum class DataType : int32_t {
  undefined = 0,
  float32 = 1,
  uint8 = 2,
  int8 = 3,
  uint16 = 4,
  int16 = 5,
  int32 = 6,
  int64 = 7,
  string = 8,
  bool_ = 9,
  float16 = 10,
  float64 = 11,
  uint32 = 12,
  uint64 = 13,
  complex64 = 14,
  complex128 = 15,
};

// The 15 tensor types every sequence operator accepts (SPEC: "all tensor types").
inline constexpr std::array<DataType, 15> kAllDataTypes = {
    DataType::bool_,     DataType::int8,       DataType::int16,   DataType::int32,
    DataType::int64,     DataType::uint8,      DataType::uint16,  DataType::uint32,
    DataType::uint64,    DataType::float16,    DataType::float32, DataType::float64,
    DataType::complex64, DataType::complex128, DataType::string};

// float16 is kept bit-exact: the 16 bits of IEEE 754 binary16.
struct Float16 {
  uint16_t bits = 0;
  friend bool operator==(Float16 a, Float16 b) { return a.bits == b.bits; }
  friend bool operator!=(Float16 a, Float16 b) { return a.bits != b.bits; }
};
float float16_to_float(Float16 h);
Float16 float_to_float16(float f);  // round to nearest even

// Storage type of one element. bool is stored as one byte holding 0 or 1.
template <DataType D>
struct StorageOf;
template <>
struct StorageOf<DataType::bool_> {
  using type = uint8_t;
};
template <>
struct StorageOf<DataType::int8> {
  using type = int8_t;
};
template <>
struct StorageOf<DataType::int16> {
  using type = int16_t;
};
template <>
struct StorageOf<DataType::int32> {
  using type = int32_t;
};
template <>
struct StorageOf<DataType::int64> {
  using type = int64_t;
};
template <>
struct StorageOf<DataType::uint8> {
  using type = uint8_t;
};
template <>
struct StorageOf<DataType::uint16> {
  using type = uint16_t;
};
template <>
struct StorageOf<DataType::uint32> {
  using type = uint32_t;
};
template <>
struct StorageOf<DataType::uint64> {
  using type = uint64_t;
};
template <>
struct StorageOf<DataType::float16> {
  using type = Float16;
};
template <>
struct StorageOf<DataType::float32> {
  using type = float;
};
template <>
struct StorageOf<DataType::float64> {
  using type = double;
};
template <>
struct StorageOf<DataType::complex64> {
  using type = std::complex<float>;
};
template <>
struct StorageOf<DataType::complex128> {
  using type = std::complex<double>;
};
template <>
struct StorageOf<DataType::string> {
  using type = std::string;
};
template <DataType D>
using storage_t = typename StorageOf<D>::type;

template <DataType D>
struct DataTypeTag {
  static constexpr DataType value = D;
  using type = storage_t<D>;
};

// Any integer value of the ONNX enum, including types this suite does not carry (bfloat16, ...).
std::string dtype_name_any(int32_t onnx_elem_type);

// Calls f(DataTypeTag<D>{}) for the runtime type d; one switch for the whole suite.
// d must be one of kAllDataTypes (callers validate first); any other value throws
// Error(unsupported_type).
template <class F>
decltype(auto) visit_dtype(DataType d, F&& f) {
  switch (d) {
    case DataType::bool_:
      return f(DataTypeTag<DataType::bool_>{});
    case DataType::int8:
      return f(DataTypeTag<DataType::int8>{});
    case DataType::int16:
      return f(DataTypeTag<DataType::int16>{});
    case DataType::int32:
      return f(DataTypeTag<DataType::int32>{});
    case DataType::int64:
      return f(DataTypeTag<DataType::int64>{});
    case DataType::uint8:
      return f(DataTypeTag<DataType::uint8>{});
    case DataType::uint16:
      return f(DataTypeTag<DataType::uint16>{});
    case DataType::uint32:
      return f(DataTypeTag<DataType::uint32>{});
    case DataType::uint64:
      return f(DataTypeTag<DataType::uint64>{});
    case DataType::float16:
      return f(DataTypeTag<DataType::float16>{});
    case DataType::float32:
      return f(DataTypeTag<DataType::float32>{});
    case DataType::float64:
      return f(DataTypeTag<DataType::float64>{});
    case DataType::complex64:
      return f(DataTypeTag<DataType::complex64>{});
    case DataType::complex128:
      return f(DataTypeTag<DataType::complex128>{});
    case DataType::string:
      return f(DataTypeTag<DataType::string>{});
    default:
      break;
  }
  const auto v = static_cast<int32_t>(d);
  throw Error(ErrorCode::unsupported_type,
              "visit_dtype: element type " + std::to_string(v) + " (" + dtype_name_any(v) +
                  ") is not one of the 15 tensor types the sequence operators accept");
}

bool is_supported(DataType d);
bool is_floating(DataType d);  // float16, float32, float64, complex64, complex128
// Bytes per element; 0 for string.
size_t element_size(DataType d);
// Spec name of the type ("float", "float16", "bool", "string", ...), as in tensor(float).
std::string_view dtype_name(DataType d);
std::optional<DataType> dtype_from_name(std::string_view name);

}  // namespace seqconf
