// The bits of a value and back, for code that must see or set the exact encoding of a floating
// value (NaN payloads, -0.0, subnormals).
#pragma once

#include <cstring>
#include <type_traits>

namespace seqconf {

// The object representation of `from` as a `To` of the same size, as C++20's std::bit_cast: a
// float's bits, or the float that given bits encode.
template <class To, class From>
To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> &&
                std::is_trivially_copyable_v<From>);
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

}  // namespace seqconf
