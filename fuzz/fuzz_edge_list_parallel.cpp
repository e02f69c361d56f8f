// Edge lists through the parallel reader (text of 1 MiB and more, src/io/text_pieces): the
// input is padded past 2 MiB by a long comment line and repeated after it (read_padded).
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return grb_fuzz::read_padded(grb::io::Format::edge_list, ".txt", 0, '#', data, size);
}
