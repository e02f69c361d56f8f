// grb's binary CSR (.grb) with a correct checksum: the input's last 8 bytes are replaced by the
// FNV-1a checksum (over 8-byte little-endian words, the last one zero-padded) of the bytes
// before them, so that the fuzzer explores the header and CSR structure checks behind it.
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  if (size >= 8) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (std::size_t at = 0; at < size - 8; at += 8) {
      std::uint64_t word = 0;  // little-endian host (x86-64, arm64), as the format is
      std::memcpy(&word, bytes.data() + at, std::min<std::size_t>(8, size - 8 - at));
      hash = (hash ^ word) * 0x100000001b3ull;
    }
    std::memcpy(bytes.data() + size - 8, &hash, 8);
  }
  const auto path = grb_fuzz::work_file("g.grb");
  grb_fuzz::write_file(path, bytes.data(), bytes.size());
  grb_fuzz::read_and_check(path, grb::io::Format::binary, size % 2 == 1);
  return 0;
}
