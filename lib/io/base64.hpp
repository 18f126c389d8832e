#pragma once
/// Base64 (RFC 4648, standard alphabet, '=' padding) for VTK's inline binary data arrays.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simrun {

/// Encodes `size` bytes starting at `data`; the result length is 4 * ceil(size / 3).
std::string base64_encode(const void* data, std::size_t size);

/// Encodes the bytes of a string ("foo" -> "Zm9v").
inline std::string base64_encode(std::string_view bytes) {
  return base64_encode(bytes.data(), bytes.size());
}

/// Decodes standard, padded base64; whitespace is skipped. Throws std::invalid_argument on any
/// other character outside the alphabet or on a length that is not a multiple of 4.
std::vector<std::uint8_t> base64_decode(std::string_view text);

}  // namespace simrun
