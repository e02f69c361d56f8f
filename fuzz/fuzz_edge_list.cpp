// SNAP-style edge lists: "source destination [weight]" lines.
#include "fuzz_input.hpp"

GRB_FUZZ_TEXT_READER(grb::io::Format::edge_list, ".txt")
