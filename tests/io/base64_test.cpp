#include "io/base64.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace simrun {
namespace {

// RFC 4648 section 10 test vectors.
TEST(Base64, EncodesRfc4648Vectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(Base64, DecodesRfc4648Vectors) {
  const auto as_string = [](const std::vector<std::uint8_t>& bytes) {
    return std::string(bytes.begin(), bytes.end());
  };
  EXPECT_EQ(as_string(base64_decode("")), "");
  EXPECT_EQ(as_string(base64_decode("Zg==")), "f");
  EXPECT_EQ(as_string(base64_decode("Zm8=")), "fo");
  EXPECT_EQ(as_string(base64_decode("Zm9v")), "foo");
  EXPECT_EQ(as_string(base64_decode("Zm9vYmFy")), "foobar");
  EXPECT_EQ(as_string(base64_decode("Zm9v\n  YmFy\n")), "foobar");  // whitespace is skipped
}

TEST(Base64, RoundTripsEveryByteValueAndLength) {
  std::vector<std::uint8_t> bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<std::uint8_t>(255 - i));
  for (std::size_t n = 0; n <= bytes.size(); n += 1) {
    const std::string text = base64_encode(bytes.data(), n);
    ASSERT_EQ(text.size(), (n + 2) / 3 * 4);
    const std::vector<std::uint8_t> back = base64_decode(text);
    ASSERT_EQ(back, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + n)) << "n = " << n;
  }
}

TEST(Base64, RejectsMalformedText) {
  EXPECT_THROW(base64_decode("Zm9"), std::invalid_argument);       // not a multiple of 4
  EXPECT_THROW(base64_decode("Zm9*"), std::invalid_argument);      // outside the alphabet
  EXPECT_THROW(base64_decode("Zg==Zm9v"), std::invalid_argument);  // data after padding
  EXPECT_THROW(base64_decode("Z==="), std::invalid_argument);      // too much padding
}

}  // namespace
}  // namespace simrun
