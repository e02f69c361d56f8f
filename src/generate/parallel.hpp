// Splitting a range of counter-based work over host threads. The generators' output is a pure
// function of the index, so the split only changes speed, never the result.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace grb::generate::detail {

/// Calls body(begin, end) on disjoint chunks covering [0, count), on up to
/// hardware_concurrency threads; small ranges run on the calling thread.
template <class Body>
void parallel_for(std::uint64_t count, Body body) {
  constexpr std::uint64_t minimum_chunk = 1 << 16;
  const std::uint64_t hardware = std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t nthreads = std::min(hardware, (count + minimum_chunk - 1) / minimum_chunk);
  if (nthreads <= 1) {
    body(std::uint64_t{0}, count);
    return;
  }
  std::vector<std::thread> threads;
  threads.reserve(nthreads - 1);
  const std::uint64_t chunk = (count + nthreads - 1) / nthreads;
  for (std::uint64_t t = 1; t < nthreads; ++t) {
    const std::uint64_t begin = std::min(count, t * chunk);
    const std::uint64_t end = std::min(count, begin + chunk);
    threads.emplace_back([=] { body(begin, end); });
  }
  body(std::uint64_t{0}, std::min(count, chunk));
  for (auto& thread : threads) thread.join();
}

}  // namespace grb::generate::detail
