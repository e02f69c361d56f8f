// LDBC Graphalytics: one input holds NAME.properties, NAME.v and NAME.e (NAME is "g"), split
// at the byte 0x1e (ASCII record separator):
//   PROPERTIES \x1e VERTICES \x1e EDGES   three parts: read through g.properties
//   VERTICES \x1e EDGES                   two parts: no properties file, read as g
//   VERTICES                              one part: g.e is empty
// Bytes after a third separator stay in the edge file. Properties keys are graph.g.*.
#include <string_view>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::string_view parts[3];
  std::size_t count = 0;
  for (; count < 2; ++count) {
    const std::size_t split = rest.find('\x1e');
    if (split == std::string_view::npos) break;
    parts[count] = rest.substr(0, split);
    rest.remove_prefix(split + 1);
  }
  parts[count++] = rest;

  const auto properties = grb_fuzz::work_file("g.properties");
  const auto vertices = grb_fuzz::work_file("g.v");
  const auto edges = grb_fuzz::work_file("g.e");
  const bool with_properties = count == 3;
  const std::string_view* files = with_properties ? parts + 1 : parts;
  if (with_properties) grb_fuzz::write_file(properties, parts[0]);
  else grb_fuzz::remove_file(properties);
  grb_fuzz::write_file(vertices, files[0]);
  grb_fuzz::write_file(edges, count == 1 ? std::string_view() : files[1]);
  grb_fuzz::read_and_check(with_properties ? properties : grb_fuzz::work_file("g"),
                           grb::io::Format::ldbc, size % 2 == 1);
  return 0;
}
