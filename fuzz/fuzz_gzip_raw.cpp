// gzip (.txt.gz, an edge list), the input as the compressed file's bytes: damaged headers,
// truncated streams, concatenated members, trailing garbage.
#include "fuzz_input.hpp"

GRB_FUZZ_TEXT_READER(grb::io::Format::edge_list, ".txt.gz")
