// Edge lists through the parallel reader (src/io/text_pieces), cut into pieces from 8 bytes on
// (GRB_FUZZ_PARALLEL_PIECES, see fuzz_input.hpp).
#define GRB_FUZZ_PARALLEL_PIECES
#include "fuzz_input.hpp"

GRB_FUZZ_TEXT_READER(grb::io::Format::edge_list, ".txt")
