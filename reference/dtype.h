// Element types of ONNX tensors, with the numbering of onnx::TensorProto_DataType.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
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
  bfloat16 = 16,
};

// The 15 tensor types every sequence operator accepts: ONNX's all_tensor_types(), the list the
// type constraints "Constrain to any tensor type." of SequenceAt, SequenceErase, SequenceInsert,
// SequenceMap and SplitToSequence-11 expand to.
inline constexpr std::array<DataType, 15> kAllDataTypes = {
    DataType::bool_,     DataType::int8,       DataType::int16,   DataType::int32,
    DataType::int64,     DataType::uint8,      DataType::uint16,  DataType::uint32,
    DataType::uint64,    DataType::float16,    DataType::float32, DataType::float64,
    DataType::complex64, DataType::complex128, DataType::string};

// The 16 types the suite carries: the 15 and bfloat16, which SplitToSequence-24 adds (ONNX's
// all_tensor_types_ir4()) and which many supporting operators accept from opset 13 on.
inline constexpr std::array<DataType, 16> kCarriedDataTypes = {
    DataType::bool_,     DataType::int8,       DataType::int16,   DataType::int32,
    DataType::int64,     DataType::uint8,      DataType::uint16,  DataType::uint32,
    DataType::uint64,    DataType::float16,    DataType::float32, DataType::float64,
    DataType::complex64, DataType::complex128, DataType::string,  DataType::bfloat16};

// float16 is kept bit-exact: the 16 bits of IEEE 754 binary16.
struct Float16 {
  uint16_t bits = 0;
  friend bool operator==(Float16 a, Float16 b) { return a.bits == b.bits; }
  friend bool operator!=(Float16 a, Float16 b) { return a.bits != b.bits; }
};
float float16_to_float(Float16 h);
Float16 float_to_float16(float f);  // round to nearest even

// bfloat16 is kept bit-exact: the upper 16 bits of an IEEE 754 binary32 (1 sign, 8 exponent,
// 7 fraction bits).
struct BFloat16 {
  uint16_t bits = 0;
  friend bool operator==(BFloat16 a, BFloat16 b) { return a.bits == b.bits; }
  friend bool operator!=(BFloat16 a, BFloat16 b) { return a.bits != b.bits; }
};
float bfloat16_to_float(BFloat16 b);  // exact
BFloat16 float_to_bfloat16(float f);  // round to nearest even; a NaN stays a (quiet) NaN

// The two 16-bit floating types, computed in float: to_float / from_float pick the conversion.
template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;
inline float half_to_float(Float16 h) { return float16_to_float(h); }
inline float half_to_float(BFloat16 h) { return bfloat16_to_float(h); }
template <class T>
T half_from_float(float f) {
  if constexpr (std::is_same_v<T, Float16>)
    return float_to_float16(f);
  else
    return float_to_bfloat16(f);
}

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
struct StorageOf<DataType::bfloat16> {
  using type = BFloat16;
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

// Any integer value of the ONNX enum, including types this suite does not carry (float8, ...).
std::string dtype_name_any(int32_t onnx_elem_type);

// Calls f(DataTypeTag<D>{}) for the runtime type d; one switch for the whole suite.
// d must be one of kCarriedDataTypes (callers validate first); any other value throws
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
    case DataType::bfloat16:
      return f(DataTypeTag<DataType::bfloat16>{});
    default:
      break;
  }
  const auto v = static_cast<int32_t>(d);
  throw Error(ErrorCode::unsupported_type,
              "visit_dtype: element type " + std::to_string(v) + " (" + dtype_name_any(v) +
                  ") is not one of the 16 tensor types the suite carries");
}

bool is_supported(DataType d);  // one of kCarriedDataTypes
// One of kAllDataTypes: what "Constrain to any tensor type." of the sequence operators allows.
bool is_any_tensor_type(DataType d);
bool is_floating(DataType d);  // bfloat16, float16, float32, float64, complex64, complex128
// Bytes per element; 0 for string.
size_t element_size(DataType d);
// Spec name of the type ("float", "float16", "bool", "string", ...), as in tensor(float).
std::string_view dtype_name(DataType d);
std::optional<DataType> dtype_from_name(std::string_view name);

}  // namespace seqconf
