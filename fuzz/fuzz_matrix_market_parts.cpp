// Matrix Market cut into parts, as the distributed reader's ranks read it
// (io::read_matrix_market_part, grb/distributed/read_graph.hpp): the input read in 1 to 4 parts
// (from its length), each part's entries checked (ids in range, one value per entry in a
// weighted file). Where every part was parsed and their entry lines add up to the size line's
// count, the parts together must hold exactly the positions of the whole-file reader's matrix,
// when that reader accepts the file too.
#include <algorithm>
#include <utility>
#include <vector>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const grb_fuzz::fs::path path = grb_fuzz::work_file("g.mtx");
  grb_fuzz::write_file(path, data, size);
  const std::size_t parts = 1 + size % 4;
  std::vector<std::pair<grb::Index, grb::Index>> positions;
  bool complete = true;
  std::uint64_t lines = 0, declared = 0;
  try {
    for (std::size_t part = 0; part < parts; ++part) {
      const grb::io::MatrixMarketPart piece = grb::io::read_matrix_market_part(path, part, parts);
      if (piece.cols.size() != piece.rows.size() ||
          (piece.weighted && piece.parsed && piece.values.size() != piece.rows.size()))
        grb_fuzz::broken("a part's columns differ in number");
      for (std::size_t k = 0; k < piece.rows.size(); ++k) {
        if (piece.rows[k] >= piece.nrows || piece.cols[k] >= piece.ncols)
          grb_fuzz::broken("a part's entry is out of range");
        positions.emplace_back(piece.rows[k], piece.cols[k]);
      }
      complete = complete && piece.parsed;
      lines += piece.lines;
      declared = piece.declared_entries;
    }
  } catch (const grb::Error&) {
    return 0;
  }
  if (!complete || lines != declared) return 0;
  grb::io::Graph whole;
  try {
    whole = grb::io::read_matrix_market_graph(path);
  } catch (const grb::Error&) {
    return 0;  // e.g. its memory check, which counts the whole matrix
  }
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  const grb::Csr<double>& csr = whole.matrix.csr();
  if (positions.size() != csr.nvals()) grb_fuzz::broken("the parts hold other entries than the file");
  std::size_t k = 0;
  for (grb::Index i = 0; i < csr.nrows; ++i)
    for (grb::Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1]; ++e, ++k)
      if (positions[k] != std::pair{i, csr.col_indices[e]})
        grb_fuzz::broken("the parts hold other entries than the file");
  return 0;
}
