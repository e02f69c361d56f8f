// METIS / DIMACS10 graphs (.graph): "N M [fmt [ncon]]", then one adjacency line per vertex.
#include "fuzz_input.hpp"

GRB_FUZZ_TEXT_READER(grb::io::Format::metis, ".graph")
