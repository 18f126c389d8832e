#include "sim/run_status.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace simrun {
namespace {

// The names are the interface contract's run.json "status" values.
TEST(RunStatus, NamesAreTheContractsAndReadBack) {
  const std::pair<RunStatus, const char*> cases[] = {{RunStatus::kFinished, "finished"},
                                                     {RunStatus::kDiverged, "diverged"},
                                                     {RunStatus::kFailed, "failed"},
                                                     {RunStatus::kInterrupted, "interrupted"}};
  for (const auto& [status, name] : cases) {
    EXPECT_EQ(to_string(status), name);
    EXPECT_EQ(run_status_from_string(name), status);
    std::ostringstream printed;
    printed << status;
    EXPECT_EQ(printed.str(), name);
  }
  EXPECT_FALSE(run_status_from_string("running").has_value());
}

}  // namespace
}  // namespace simrun
