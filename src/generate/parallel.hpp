// Splitting counter-based work over host threads. The generators' output is a pure function of
// the index, so the split only changes speed, never the result.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace grb::generate::detail {

struct Range {
  std::uint64_t begin, end;
};

/// [0, count) cut into at most hardware_concurrency equal ranges of at least `grain` items
/// (always at least one range).
inline std::vector<Range> split(std::uint64_t count, std::uint64_t grain) {
  const std::uint64_t hardware = std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t parts =
      std::max<std::uint64_t>(1, std::min(hardware, count / std::max<std::uint64_t>(grain, 1)));
  std::vector<Range> ranges(parts);
  for (std::uint64_t p = 0; p < parts; ++p) ranges[p] = {count * p / parts, count * (p + 1) / parts};
  return ranges;
}

/// Calls task(i) for every i in [0, ntasks), each on its own thread (task 0 on the caller's).
template <class Task>
void run_parallel(std::size_t ntasks, Task task) {
  std::vector<std::thread> threads;
  threads.reserve(ntasks > 0 ? ntasks - 1 : 0);
  for (std::size_t i = 1; i < ntasks; ++i) threads.emplace_back([&task, i] { task(i); });
  if (ntasks > 0) task(0);
  for (auto& thread : threads) thread.join();
}

/// Calls body(begin, end) on disjoint ranges covering [0, count), in parallel.
template <class Body>
void parallel_for(std::uint64_t count, Body body, std::uint64_t grain = 1 << 16) {
  const std::vector<Range> ranges = split(count, grain);
  run_parallel(ranges.size(), [&](std::size_t i) { body(ranges[i].begin, ranges[i].end); });
}

}  // namespace grb::generate::detail
