// IPC contact end to end (docs/contact.md): a box dropped on a plane and two boxes thrown at each
// other stay apart at every step (stats.csv min_distance > 0 while contacts are active), the
// drop bounces, momentum is exchanged in the collision, and bad input names its pointer.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/contact_scenes.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

using cli::contact_box;
using cli::contact_drop_scene;

TEST(ContactCli, ADroppedBoxStaysAboveThePlaneAndBounces) {
  for (const char* integrator : {"be", "bdf2"}) {
    TempDir tmp;
    const Result r =
        cli::run({"run", tmp.write("drop.json", contact_drop_scene(integrator)).string(), "-o",
                  (tmp / "out").string(), "--quiet"});
    ASSERT_EQ(r.code, 0) << r.describe();
    const auto contacts = cli::column(tmp / "out" / "stats.csv", "contacts");
    const auto distance = cli::column(tmp / "out" / "stats.csv", "min_distance");
    const auto py = cli::column(tmp / "out" / "energy.csv", "py");
    EXPECT_GT(*std::max_element(contacts.begin(), contacts.end()), 0.0) << integrator;
    for (double d : distance) EXPECT_GT(d, 0.0) << integrator;
    // Falling (py < 0) at the start, pushed back up by the contact (py > 0) later.
    EXPECT_LT(py.front(), 0.0);
    EXPECT_GT(*std::max_element(py.begin(), py.end()), 0.0) << integrator;
    EXPECT_NE(cli::lines(tmp / "out" / "energy.csv").at(0).find("contact"), std::string::npos);
  }
}

TEST(ContactCli, TwoBoxesThrownAtEachOtherStayApartAndRebound) {
  TempDir tmp;
  const json scene = cli::contact_pair_scene();
  const Result r = cli::run(
      {"run", tmp.write("pair.json", scene).string(), "-o", (tmp / "out").string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const auto contacts = cli::column(tmp / "out" / "stats.csv", "contacts");
  EXPECT_GT(*std::max_element(contacts.begin(), contacts.end()), 0.0);
  for (double d : cli::column(tmp / "out" / "stats.csv", "min_distance")) EXPECT_GT(d, 0.0);
  // The total momentum stays zero; the kinetic energy drops during the impact and part of it
  // comes back as the boxes separate (BE damps the rest).
  for (double px : cli::column(tmp / "out" / "energy.csv", "px")) EXPECT_NEAR(px, 0.0, 1e-6);
  const auto contact_energy = cli::column(tmp / "out" / "energy.csv", "contact");
  EXPECT_GT(*std::max_element(contact_energy.begin(), contact_energy.end()), 0.0);
  EXPECT_EQ(contact_energy.back(), 0.0);  // apart again at the end
}

TEST(ContactCli, BadInputNamesThePointer) {
  TempDir tmp;
  struct Case {
    std::string pointer, value, expected;
  };
  const std::vector<Case> cases = {
      {"/integrator/type", "\"si\"", "/integrator/type"},
      {"/contact/friction", "-0.3", "/contact/friction"},  // mu < 0
      {"/contact/dhat", "0", "/contact/dhat"},
      {"/obstacles/0/plane/stiffness", "1e5", "/obstacles/0/plane/stiffness"},
      {"/objects/0/mesh/transform/translate", "[0, -0.05, 0]", "starts on or below the contact"},
  };
  for (const Case& c : cases) {
    const Result r =
        cli::run({"run", tmp.write("bad.json", contact_drop_scene("be")).string(), "-o",
                  (tmp / "out").string(), "--force", "--set", c.pointer + "=" + c.value});
    EXPECT_EQ(r.code, 1) << c.pointer << "\n" << r.describe();
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.pointer << "\n" << r.err;
  }
  json overlapping = contact_drop_scene("be");
  overlapping["objects"].push_back(contact_box("second", {0.1, 0.02, 0}, {0, 0, 0}));
  const Result r = cli::run(
      {"run", tmp.write("overlap.json", overlapping).string(), "-o", (tmp / "out2").string()});
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_NE(r.err.find("touch or intersect at t = 0"), std::string::npos) << r.err;
}

}  // namespace
