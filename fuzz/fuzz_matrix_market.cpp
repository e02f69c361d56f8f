// Matrix Market (.mtx): banner, size line, coordinate entries.
#include "fuzz_input.hpp"

GRB_FUZZ_TEXT_READER(grb::io::Format::matrix_market, ".mtx")
