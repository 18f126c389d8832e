#include "io/base64.hpp"

#include <array>
#include <stdexcept>

namespace simrun {

namespace {

constexpr std::string_view k_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Maps an alphabet character to its 6-bit value; -1 for characters outside the alphabet.
constexpr std::array<int, 256> make_decode_table() {
  std::array<int, 256> table{};
  table.fill(-1);
  for (std::size_t i = 0; i < k_alphabet.size(); ++i) {
    table[static_cast<unsigned char>(k_alphabet[i])] = static_cast<int>(i);
  }
  return table;
}

constexpr std::array<int, 256> k_decode = make_decode_table();

}  // namespace

std::string base64_encode(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t v = (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) |
                            std::uint32_t{bytes[i + 2]};
    out += k_alphabet[(v >> 18) & 63];
    out += k_alphabet[(v >> 12) & 63];
    out += k_alphabet[(v >> 6) & 63];
    out += k_alphabet[v & 63];
  }
  const std::size_t rest = size - i;
  if (rest > 0) {
    std::uint32_t v = std::uint32_t{bytes[i]} << 16;
    if (rest == 2) v |= std::uint32_t{bytes[i + 1]} << 8;
    out += k_alphabet[(v >> 18) & 63];
    out += k_alphabet[(v >> 12) & 63];
    out += rest == 2 ? k_alphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::vector<std::uint8_t> base64_decode(std::string_view text) {
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  std::uint32_t acc = 0;
  int count = 0;    // alphabet characters in the current quartet
  int padding = 0;  // '=' seen so far; only allowed at the very end
  for (const char c : text) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      ++padding;
      ++count;
      acc <<= 6;
    } else {
      const int value = k_decode[static_cast<unsigned char>(c)];
      if (value < 0 || padding > 0) {
        throw std::invalid_argument("base64_decode: unexpected character '" + std::string(1, c) +
                                    "'");
      }
      acc = (acc << 6) | static_cast<std::uint32_t>(value);
      ++count;
    }
    if (count == 4) {
      if (padding > 2) throw std::invalid_argument("base64_decode: too much padding");
      out.push_back(static_cast<std::uint8_t>(acc >> 16));
      if (padding < 2) out.push_back(static_cast<std::uint8_t>(acc >> 8));
      if (padding < 1) out.push_back(static_cast<std::uint8_t>(acc));
      acc = 0;
      count = 0;
    }
  }
  if (count != 0) throw std::invalid_argument("base64_decode: length is not a multiple of 4");
  return out;
}

}  // namespace simrun
