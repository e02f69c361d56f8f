// gzip-compressed text (.txt.gz, an edge list): the target compresses the input with zlib, so
// that the fuzzer explores the text behind LineReader's inflating source (fuzz_gzip_raw
// explores the compressed bytes themselves).
#include <zlib.h>

#include <cstdlib>
#include <vector>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  z_stream stream{};
  // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    std::abort();
  std::vector<std::uint8_t> compressed(deflateBound(&stream, size) + 32);
  stream.next_in = const_cast<Bytef*>(data);
  stream.avail_in = static_cast<uInt>(size);
  stream.next_out = compressed.data();
  stream.avail_out = static_cast<uInt>(compressed.size());
  if (deflate(&stream, Z_FINISH) != Z_STREAM_END) std::abort();
  compressed.resize(stream.total_out);
  deflateEnd(&stream);

  const auto path = grb_fuzz::work_file("g.txt.gz");
  grb_fuzz::write_file(path, compressed.data(), compressed.size());
  grb_fuzz::read_and_check(path, grb::io::Format::edge_list, size % 2 == 1);
  return 0;
}
