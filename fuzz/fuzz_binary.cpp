// grb's binary CSR (.grb), the input as the file's bytes. The checksum turns away nearly every
// mutation early; fuzz_binary_checksum gets past it.
#include "fuzz_input.hpp"

GRB_FUZZ_TEXT_READER(grb::io::Format::binary, ".grb")
