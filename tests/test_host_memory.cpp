// Host arrays (src/memory.cpp): every allocation on a cache line; large ones on 2 MiB huge pages,
// advised MADV_HUGEPAGE so that filling them takes one page fault per 2 MiB, not per 4 KiB; and
// std::vectors resized onto huge pages (the generators' edge lists).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "grb/array.hpp"

namespace {

using Bytes = grb::detail::Array<std::uint8_t>;

std::uintptr_t address(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); }

/// The system's THP setting, e.g. "always [madvise] never"; empty where there is none.
std::string thp_setting() {
  std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(file, line);
  return line;
}

/// The "THPeligible" field of the mapping in /proc/self/smaps that holds `pointer`; -1 if none.
int thp_eligible(const void* pointer) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long long begin = 0, end = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx ", &begin, &end) == 2 && line.find(' ') > line.find('-'))
      inside = begin <= address(pointer) && address(pointer) < end;
    else if (inside && line.rfind("THPeligible:", 0) == 0)
      return std::stoi(line.substr(12));
  }
  return -1;
}

}  // namespace

TEST_CASE("host arrays: small ones on a cache line, large ones on a huge page, all usable") {
  for (std::size_t bytes : {std::size_t{1}, std::size_t{1000}, std::size_t{2} << 20,
                            (std::size_t{5} << 20) + 3}) {
    CAPTURE(bytes);
    Bytes array(bytes, grb::Backend::cpu);
    CHECK(address(array.data()) % grb::detail::host_alignment_for(bytes) == 0);
    CHECK(grb::detail::host_alignment_for(bytes) == (bytes >= (std::size_t{2} << 20) ? 2u << 20 : 64u));
    for (std::size_t i = 0; i < bytes; ++i) array.data()[i] = static_cast<std::uint8_t>(i * 7);
    std::uint64_t sum = std::accumulate(array.data(), array.data() + bytes, std::uint64_t{0});
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < bytes; ++i) expected += static_cast<std::uint8_t>(i * 7);
    CHECK(sum == expected);
  }
}

TEST_CASE("host arrays of 2 MiB and more are advised onto transparent huge pages") {
  const std::string setting = thp_setting();
  if (setting.empty() || setting.find("[never]") != std::string::npos) {
    MESSAGE("huge-page advice case SKIPPED: transparent huge pages are off or absent (\"" << setting
                                                                                        << "\")");
    return;
  }
  const std::size_t huge_page = std::size_t{2} << 20;
  Bytes large(4 * huge_page, grb::Backend::cpu);
  large.data()[0] = 1;  // mapped, so that smaps lists it
  CHECK(thp_eligible(large.data()) == 1);

  // A vector's storage is not huge-page aligned: its whole huge pages are advised, from the first
  // huge-page boundary inside it.
  std::vector<std::uint32_t> vector;
  grb::detail::resize_on_huge_pages(vector, huge_page);  // 8 MiB of zeros
  REQUIRE(vector.size() == huge_page);
  CHECK(std::accumulate(vector.begin(), vector.end(), std::uint64_t{0}) == 0);
  const std::uintptr_t boundary = (address(vector.data()) + huge_page - 1) / huge_page * huge_page;
  CHECK(thp_eligible(reinterpret_cast<const void*>(boundary)) == 1);
}
