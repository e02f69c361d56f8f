// What the tests share: the backends to run on, and where the test graphs are.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "grb/types.hpp"

namespace grb::test {

/// Every backend usable here: cpu always, cuda when built and a GPU is present.
inline std::vector<Backend> backends() { return available_backends(); }

inline std::string backend_summary() {
  std::string summary = "cpu";
  if (cuda_available()) summary += ", cuda";
  else summary += " (cuda cases SKIPPED: " +
                  std::string(GRB_WITH_CUDA ? "no GPU on this machine" : "built without CUDA") + ")";
  return summary;
}

/// GRB_TEST_SHARD=k/n keeps only the k-th of n parts of a long loop (items k, k + n, ...; k from
/// 0), so that compute-sanitizer's slow tools can take the parts in parallel processes.
inline bool in_shard(std::size_t item) {
  const char* setting = std::getenv("GRB_TEST_SHARD");
  if (setting == nullptr || *setting == '\0') return true;
  unsigned part = 0, parts = 1;
  if (std::sscanf(setting, "%u/%u", &part, &parts) != 2 || parts == 0 || part >= parts)
    throw std::invalid_argument("GRB_TEST_SHARD must be k/n with k < n, not '" +
                                std::string(setting) + "'");
  return item % parts == part;
}

/// The test graphs: $GRB_DATA_DIR, else tests/data in the source tree.
inline std::filesystem::path data_dir() {
  if (const char* dir = std::getenv("GRB_DATA_DIR")) return dir;
  return GRB_DEFAULT_DATA_DIR;
}

/// A file under the data directory; fails the calling test (not skips) when it is missing.
inline std::filesystem::path data_file(const std::string& relative) {
  auto path = data_dir() / relative;
  if (!std::filesystem::exists(path))
    throw std::runtime_error("test data missing: " + path.string() +
                             " (set GRB_DATA_DIR to a folder laid out as tests/data)");
  return path;
}

}  // namespace grb::test

/// Runs the enclosed block once per available backend, each as a doctest subcase.
#define GRB_FOR_EACH_BACKEND(backend_variable)                                         \
  for (::grb::Backend backend_variable : ::grb::test::backends())                      \
    DOCTEST_SUBCASE(std::string(::grb::to_string(backend_variable)).c_str())
