#include "reference/dtype.h"

#include <cmath>
#include <cstring>

namespace seqconf {

namespace {
uint32_t bits_of(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}
float float_of(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
}  // namespace

float float16_to_float(Float16 h) {
  const uint32_t sign = (h.bits & 0x8000u) << 16;
  const uint32_t exp = (h.bits >> 10) & 0x1fu;
  const uint32_t mant = h.bits & 0x3ffu;
  uint32_t out;
  if (exp == 0) {
    if (mant == 0) {
      out = sign;
    } else {  // subnormal: value = mant * 2^-24
      out = bits_of(std::ldexp(static_cast<float>(mant), -24)) | sign;
    }
  } else if (exp == 31) {
    out = sign | 0x7f800000u | (mant << 13);
  } else {
    out = sign | ((exp + 112) << 23) | (mant << 13);
  }
  return float_of(out);
}

Float16 float_to_float16(float f) {
  const uint32_t x = bits_of(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t exp = (x >> 23) & 0xffu;
  uint32_t mant = x & 0x7fffffu;
  if (exp == 255) return {static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u))};
  const int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return {static_cast<uint16_t>(sign | 0x7c00u)};
  if (e <= 0) {
    if (e < -10) return {sign};
    mant |= 0x800000u;
    const int shift = 14 - e;
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1);
    const uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return {static_cast<uint16_t>(sign | half)};
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;
  return {static_cast<uint16_t>(sign | half)};
}

float bfloat16_to_float(BFloat16 b) { return float_of(static_cast<uint32_t>(b.bits) << 16); }

BFloat16 float_to_bfloat16(float f) {
  const uint32_t x = bits_of(f);
  // NaN: keep the sign and the upper payload bits, and set the quiet bit so that truncating a
  // payload held only in the lower 16 bits cannot turn the NaN into an infinity.
  if ((x & 0x7fffffffu) > 0x7f800000u) return {static_cast<uint16_t>((x >> 16) | 0x0040u)};
  // Round to nearest even on the 16 bits dropped; a carry into the exponent is correct (up to
  // infinity for the largest finite values).
  const uint32_t rounded = x + 0x7fffu + ((x >> 16) & 1u);
  return {static_cast<uint16_t>(rounded >> 16)};
}

bool is_supported(DataType d) {
  for (DataType t : kCarriedDataTypes)
    if (t == d) return true;
  return false;
}

bool is_any_tensor_type(DataType d) {
  for (DataType t : kAllDataTypes)
    if (t == d) return true;
  return false;
}

bool is_floating(DataType d) {
  return d == DataType::bfloat16 || d == DataType::float16 || d == DataType::float32 ||
         d == DataType::float64 || d == DataType::complex64 || d == DataType::complex128;
}

size_t element_size(DataType d) {
  if (!is_supported(d) || d == DataType::string) return 0;
  return visit_dtype(d, [](auto tag) { return sizeof(typename decltype(tag)::type); });
}

std::string_view dtype_name(DataType d) {
  switch (d) {
    case DataType::bool_:
      return "bool";
    case DataType::int8:
      return "int8";
    case DataType::int16:
      return "int16";
    case DataType::int32:
      return "int32";
    case DataType::int64:
      return "int64";
    case DataType::uint8:
      return "uint8";
    case DataType::uint16:
      return "uint16";
    case DataType::uint32:
      return "uint32";
    case DataType::uint64:
      return "uint64";
    case DataType::float16:
      return "float16";
    case DataType::float32:
      return "float";
    case DataType::float64:
      return "double";
    case DataType::complex64:
      return "complex64";
    case DataType::complex128:
      return "complex128";
    case DataType::string:
      return "string";
    case DataType::bfloat16:
      return "bfloat16";
    default:
      return "undefined";
  }
}

std::optional<DataType> dtype_from_name(std::string_view name) {
  for (DataType t : kCarriedDataTypes)
    if (dtype_name(t) == name) return t;
  return std::nullopt;
}

std::string dtype_name_any(int32_t v) {
  static const char* const names[] = {
      "undefined",      "float",      "uint8",          "int8",       "uint16",   "int16",
      "int32",          "int64",      "string",         "bool",       "float16",  "double",
      "uint32",         "uint64",     "complex64",      "complex128", "bfloat16", "float8e4m3fn",
      "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "uint4",      "int4"};
  if (v >= 0 && v < static_cast<int32_t>(sizeof(names) / sizeof(names[0]))) return names[v];
  return "type " + std::to_string(v);
}

}  // namespace seqconf
