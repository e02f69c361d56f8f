// Matrix Market through the parallel reader (entries of 1 MiB and more, src/io/text_pieces):
// banner and size line (the input's first two lines), then the rest of the input, a ~2 MiB
// comment line, and the rest again (read_padded).
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return grb_fuzz::read_padded(grb::io::Format::matrix_market, ".mtx", 2, '%', data, size);
}
