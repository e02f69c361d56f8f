// 9th DIMACS shortest-path graphs (.gr): "c" comments, "p sp N M", "a u v w" arcs.
#include "fuzz_input.hpp"

GRB_FUZZ_TEXT_READER(grb::io::Format::dimacs, ".gr")
