// TransportationNetworks link files (NAME_net.tntp): "<KEY> value" metadata up to
// "<END OF METADATA>", then "~" headed link lines ending in ";". The weight column alternates
// with the input's length: length for sizes 0, 1 mod 4, free-flow time for 2, 3 (and
// symmetrize for odd sizes, as in every target).
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = grb_fuzz::work_file("g_net.tntp");
  grb_fuzz::write_file(path, data, size);
  grb::io::ReadOptions options;
  options.tntp_weight = size / 2 % 2 == 0 ? grb::io::TntpWeight::length
                                          : grb::io::TntpWeight::free_flow_time;
  grb_fuzz::read_and_check(path, grb::io::Format::tntp, size % 2 == 1, options);
  return 0;
}
