#pragma once
/// A private temporary folder for scene files written by a test; removed afterwards.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "core/error.hpp"

namespace simrun::test {

class SceneFolder {
 public:
  SceneFolder() {
    static std::atomic<int> counter{0};
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string test = info ? std::string(info->test_suite_name()) + "_" + info->name() : "x";
    m_root =
        std::filesystem::temp_directory_path() / ("simrun_scene_" + std::to_string(::getpid()) +
                                                  "_" + std::to_string(counter++) + "_" + test);
    std::filesystem::remove_all(m_root);
    std::filesystem::create_directories(m_root);
  }
  ~SceneFolder() {
    std::error_code ec;
    std::filesystem::remove_all(m_root, ec);
  }
  SceneFolder(const SceneFolder&) = delete;
  SceneFolder& operator=(const SceneFolder&) = delete;

  /// Writes `text` to root/relative (creating folders) and returns the full path.
  std::filesystem::path write(const std::string& relative, const std::string& text) const {
    const std::filesystem::path p = m_root / relative;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p;
  }
  const std::filesystem::path& root() const { return m_root; }

 private:
  std::filesystem::path m_root;
};

/// A small valid scene; `material` is spliced in as the object's material JSON.
inline std::string minimal_scene(
    const std::string& material = R"({"model": "linear", "E": 1e6, "nu": 0.3, "density": 1000})") {
  return R"({
  "time": {"dt": 0.01, "steps": 10},
  "objects": [{
    "mesh": {"box": {"size": [1, 0.1, 0.1], "cells": [4, 1, 1]}},
    "material": )" +
         material + R"(,
    "dirichlet": [{"select": {"side": "-x"}}]
  }]
})";
}

/// The message of the InputError that `f` throws; a test failure (and "") when it throws none.
inline std::string input_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError";
  return "";
}

}  // namespace simrun::test
