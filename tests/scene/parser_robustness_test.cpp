// Regression tests for faults that fuzzing found in the scene parser, `--set` and the E-field
// reader (docs/fuzzing.md). Each input once crashed, escaped as an internal error, read without
// bound or was silently accepted; each must now be an InputError naming the file and the line or
// JSON pointer. Inputs are tiny files in tests/data/fuzz/ or are generated here.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "io/read_scalar_field.hpp"
#include "scene/json_file.hpp"
#include "scene/json_schema_validator.hpp"
#include "scene/parse_scene.hpp"
#include "scene/scene_overrides.hpp"
#include "scene_test_files.hpp"
#include "support/test_paths.hpp"

namespace simrun {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::input_error_of;
using test::minimal_scene;
using test::SceneFolder;

fs::path fuzz_data(const std::string& name) { return fs::path(SIMRUN_TEST_DATA) / "fuzz" / name; }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// `depth` arrays inside each other: [[[...]]].
std::string nested_arrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

// Found: nlohmann's out_of_range 406 escaped as "internal error" (exit 3).
TEST(ParserRobustness, NumberOutOfDoubleRangeNamesLinePointerAndToken) {
  const fs::path file = fuzz_data("number_1e400.json");
  const std::string msg = input_error_of([&] { parse_scene(file); });
  EXPECT_TRUE(contains(msg, file.string() + ":2:18: /time/dt: number out of the range of a double"))
      << msg;
  EXPECT_TRUE(contains(msg, "1e400")) << msg;
  // In an array the pointer names the element; a long integer overflows the same way.
  SceneFolder dir;
  const auto in_array =
      dir.write("g.json", "{\"gravity\": [0, -1e999, 0],\n \"x\": 1" + std::string(400, '0') + "}");
  EXPECT_TRUE(contains(input_error_of([&] { read_json_file(in_array); }),
                       "g.json:1:17: /gravity/1: number out of the range of a double: -1e999"));
}

// Found: an array nested 10^5 deep as a value overflowed the stack (SIGSEGV, no message) while
// the validator formatted its message (and would have in merging, copying, comparing).
TEST(ParserRobustness, DeepNestingIsRejectedAtParseTimeWithLineAndColumn) {
  SceneFolder dir;
  const auto file = dir.write("deep.json", "{\"name\": " + nested_arrays(100000) + "}");
  const std::string msg = input_error_of([&] { parse_scene(file); });
  EXPECT_TRUE(contains(msg, file.string() + ":1:73: JSON nested deeper than 64 levels")) << msg;
  EXPECT_LT(msg.size(), 600u);
  // 64 levels are fine for the parser (the validator then reports the wrong type).
  const auto ok = dir.write("ok.json", "{\"name\": " + nested_arrays(63) + "}");
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(ok); }), "/name: expected string"));
}

TEST(ParserRobustness, DeepNestingFromSetIsRejected) {
  SceneFolder dir;
  const auto file = dir.write("s.json", minimal_scene());
  const std::string msg =
      input_error_of([&] { parse_scene(file, {"/name=" + nested_arrays(60000)}); });
  EXPECT_TRUE(contains(msg, "--set /name=")) << msg.substr(0, 300);
  EXPECT_TRUE(contains(msg, "nested deeper than 64 levels")) << msg.substr(0, 300);
  EXPECT_LT(msg.size(), 600u);
}

// The validator's message formatting itself renders a bounded prefix of a value instead of
// dumping all of it (recursively, whatever its depth or size).
TEST(ParserRobustness, ValueDescriptionIsBoundedForDeepAndLargeValues) {
  json deep = json::array();
  for (int i = 0; i < 100000; ++i) {
    json outer = json::array();
    outer.push_back(std::move(deep));
    deep = std::move(outer);
  }
  const std::string text = describe_json_value(deep);
  EXPECT_EQ(text.rfind("array [[[[", 0), 0u) << text;
  EXPECT_TRUE(contains(text, "...")) << text;
  EXPECT_LT(text.size(), 60u) << text;

  const json big = json::array({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18});
  EXPECT_EQ(describe_json_value(big), "array [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18]");
  json wide = json::array();
  for (int i = 0; i < 100000; ++i) wide.push_back(i);
  const auto violations =
      JsonSchemaValidator(json::parse(R"({"type": "array", "maxItems": 3})")).validate(wide);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_TRUE(contains(violations[0].message, "expected at most 3 item(s), found 100000: [0,1,2,"))
      << violations[0].message.substr(0, 200);
  EXPECT_LT(violations[0].message.size(), 200u);
}

// Found: "extends": "/dev/zero" read until memory ran out.
TEST(ParserRobustness, ExtendsOfADeviceIsRejectedWithoutReading) {
  const fs::path file = fuzz_data("extends_dev_zero.json");
  const std::string msg = input_error_of([&] { parse_scene(file); });
  EXPECT_TRUE(contains(msg, file.string() + ": /extends: /dev/zero is not a regular file")) << msg;
  EXPECT_TRUE(contains(input_error_of([] { read_json_file("/dev/zero"); }),
                       "/dev/zero: not a regular file"));
}

TEST(ParserRobustness, SceneFileOverTheSizeCapIsRejectedWithoutReading) {
  SceneFolder dir;
  const auto file = dir.write("big.json", "");
  fs::resize_file(file, std::uintmax_t{64} << 20);  // sparse
  const std::string msg = input_error_of([&] { parse_scene(file); });
  EXPECT_TRUE(contains(msg, "big.json: 67108864 bytes, more than the limit")) << msg;
}

TEST(ParserRobustness, ExtendsChainsAreBounded) {
  SceneFolder dir;
  const auto name = [](int i) {
    return std::string("s").append(std::to_string(i)).append(".json");
  };
  for (int i = 0; i < 40; ++i) dir.write(name(i), R"({"extends": ")" + name(i + 1) + R"("})");
  dir.write("s40.json", minimal_scene());
  const std::string msg = input_error_of([&] { parse_scene(dir.root() / "s0.json"); });
  EXPECT_TRUE(contains(msg, "s31.json: /extends: more than 32 scene files extend each other"))
      << msg;
  // A chain of 32 files is fine.
  EXPECT_NO_THROW(parse_scene(dir.root() / "s9.json"));
}

// Found: nlohmann ends its input at a NUL byte, so whatever followed one was silently ignored.
TEST(ParserRobustness, NulByteInSceneTextIsRejected) {
  const fs::path file = fuzz_data("nul_after_object.json");
  const std::string msg = input_error_of([&] { parse_scene(file); });
  EXPECT_TRUE(contains(msg, file.string() + ":8:1: unexpected NUL byte")) << msg;
  const std::string set = std::string("/time/dt=0.01") + '\0' + "5";
  EXPECT_TRUE(contains(input_error_of([&] { parse_override(set); }), "unexpected NUL byte"));
}

// Found by fuzz_set: an empty (or otherwise non-index) token inside an array made
// json::contains throw out_of_range 404 from apply_override (exit 3, "internal error").
TEST(ParserRobustness, SetPathThroughAnArrayWithANonIndexTokenIsAnInputError) {
  SceneFolder dir;
  const auto file = dir.write("s.json", minimal_scene());
  const std::string msg =
      input_error_of([&] { parse_scene(file, {"/objects/0/dirichlet//0/motion=1"}); });
  EXPECT_TRUE(contains(msg,
                       "--set /objects/0/dirichlet//0/motion: /objects/0/dirichlet/ does not "
                       "exist in the scene; /objects/0/dirichlet is an array of 1 item(s)"))
      << msg;
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(file, {"/objects/x/y/z=1"}); }),
                       "/objects/x does not exist in the scene; /objects is an array of 1"));
}

TEST(ParserRobustness, ElementFieldReadsAreBoundedAndChecked) {
  SceneFolder dir;
  EXPECT_TRUE(contains(input_error_of([] { read_scalar_field("/dev/zero", 3); }),
                       "/dev/zero' does not exist or is not a regular file"));
  // Found by reading: "inf" passed both the number check and the E > 0 check.
  const auto inf = dir.write("inf.txt", "1e5\ninf\n2e5\n");
  EXPECT_TRUE(contains(input_error_of([&] { read_scalar_field(inf, 3); }),
                       "inf.txt:2: expected a number, found 'inf'"));
  const auto nul = dir.write("nul.txt", std::string("1e5\n2e5\0\n3e5\n", 12));
  EXPECT_TRUE(contains(input_error_of([&] { read_scalar_field(nul, 3); }),
                       "nul.txt:2: unexpected NUL byte"));
  // A field needs ~25 bytes a value; far more is rejected from its size before reading.
  const auto big = dir.write("big.txt", "");
  fs::resize_file(big, std::uintmax_t{64} << 20);
  const std::string msg = input_error_of([&] { read_scalar_field(big, 3); });
  EXPECT_TRUE(contains(msg, "big.txt")) << msg;
  EXPECT_TRUE(contains(msg, "67108864 bytes, more than the limit")) << msg;
  // Too many values stop the reading at the first extra one.
  const auto many = dir.write("many.txt", "1\n2\n3\n4\n5\n");
  EXPECT_TRUE(contains(input_error_of([&] { read_scalar_field(many, 3); }),
                       "many.txt:4: expected 3 values (one per element), found more"));
  // strtod reads hexadecimal: "0x10" was 16 Pa. A subnormal value is a number (too small to be
  // a modulus, which the E > 0 check does not judge); an overflowing one is not.
  const auto hex = dir.write("hex.txt", "1e5\n-0X10\n2e5\n");
  EXPECT_TRUE(contains(input_error_of([&] { read_scalar_field(hex, 3); }),
                       "hex.txt:2: expected a number, found '-0X10'"));
  EXPECT_EQ(read_scalar_field(dir.write("tiny.txt", "1e5 1e-320 2e5"), 3)[1], 1e-320);
  EXPECT_TRUE(
      contains(input_error_of([&] { read_scalar_field(dir.write("o.txt", "1 1e400 2"), 3); }),
               "expected a number, found '1e400'"));
}

}  // namespace
}  // namespace simrun
