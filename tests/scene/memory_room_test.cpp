// The room a process's cgroups leave (scene/memory_estimate.hpp), read from fake cgroup trees:
// v2 (memory.max over the cgroup and its ancestors), v1's memory controller
// (memory.limit_in_bytes, likewise), both at once, no limit, and a container that sees its cgroup
// as the hierarchy's root. tests/app/memory_cgroup_test.cpp checks a real cgroup.
#include <gtest/gtest.h>

#include <cmath>

#include "scene/memory_estimate.hpp"
#include "scene/scene_test_files.hpp"

namespace simrun {
namespace {

using test::SceneFolder;

double room(const SceneFolder& tree, const std::string& self_cgroup) {
  tree.write("proc_self_cgroup", self_cgroup);
  return detail::cgroup_room(tree.root() / "proc_self_cgroup", tree.root() / "v2",
                             tree.root() / "v1");
}

TEST(CgroupRoom, V2TakesTheLeastRoomOverTheCgroupAndItsAncestors) {
  SceneFolder tree;
  // The job's cgroup has no limit of its own; its parent (the Slurm job) allows 1 GB, of which
  // 700 MB are used with 50 MB of reclaimable file cache; the slice above allows plenty.
  tree.write("v2/slice/memory.max", "8000000000\n");
  tree.write("v2/slice/memory.current", "1000000000\n");
  tree.write("v2/slice/job/memory.max", "1000000000\n");
  tree.write("v2/slice/job/memory.current", "700000000\n");
  tree.write("v2/slice/job/memory.stat",
             "anon 650000000\nactive_file 20000000\ninactive_file "
             "30000000\n");
  tree.write("v2/slice/job/step/memory.max", "max\n");
  tree.write("v2/slice/job/step/memory.current", "690000000\n");
  EXPECT_DOUBLE_EQ(room(tree, "0::/slice/job/step\n"), 1e9 - 7e8 + 5e7);
}

TEST(CgroupRoom, V1TakesTheLeastRoomOverTheCgroupAndItsAncestorsToo) {
  SceneFolder tree;
  // Slurm's v1 layout: the job's cgroup holds the limit and counts every step's usage; the
  // step's cgroup has no limit (v1 writes ~2^63 then) and uses less.
  tree.write("v1/job/memory.limit_in_bytes", "2000000000\n");
  tree.write("v1/job/memory.usage_in_bytes", "1500000000\n");
  tree.write("v1/job/memory.stat",
             "cache 1\ninactive_file 5\ntotal_active_file 10000000\n"
             "total_inactive_file 40000000\n");
  tree.write("v1/job/step/memory.limit_in_bytes", "9223372036854771712\n");
  tree.write("v1/job/step/memory.usage_in_bytes", "300000000\n");
  EXPECT_DOUBLE_EQ(room(tree, "12:pids:/job/step\n4:cpu,memory:/job/step\n1:name=systemd:/job\n"),
                   2e9 - 1.5e9 + 5e7);
}

TEST(CgroupRoom, ACgroupWithoutALimitLeavesTheRoomUnknown) {
  SceneFolder tree;
  tree.write("v1/job/memory.limit_in_bytes", "9223372036854771712\n");
  tree.write("v1/job/memory.usage_in_bytes", "1500000000\n");
  tree.write("v2/job/memory.max", "max\n");
  tree.write("v2/job/memory.current", "1500000000\n");
  EXPECT_TRUE(std::isnan(room(tree, "4:memory:/job\n0::/job\n")));
  EXPECT_TRUE(std::isnan(room(tree, "")));
}

TEST(CgroupRoom, HybridSystemsTakeTheLeastOfV1AndV2) {
  SceneFolder tree;
  tree.write("v1/job/memory.limit_in_bytes", "3000000000\n");
  tree.write("v1/job/memory.usage_in_bytes", "1000000000\n");
  tree.write("v2/job/memory.max", "1500000000\n");
  tree.write("v2/job/memory.current", "1000000000\n");
  EXPECT_DOUBLE_EQ(room(tree, "4:memory:/job\n0::/job\n"), 5e8);
}

TEST(CgroupRoom, AContainerThatSeesItsCgroupAsTheRootReadsTheRoot) {
  SceneFolder tree;
  // /proc/self/cgroup names the host's path, which the container's mount does not have.
  tree.write("v1/memory.limit_in_bytes", "4000000000\n");
  tree.write("v1/memory.usage_in_bytes", "1000000000\n");
  EXPECT_DOUBLE_EQ(room(tree, "4:memory:/docker/0123abcd\n"), 3e9);
}

}  // namespace
}  // namespace simrun
