// Uses the installed grb as a user would: the core API, a generator (compiled into libgrb), the
// linear-algebra BFS and its validator (compiled into libgrb_algorithms).
#include <grb/generate.hpp>
#include <grb/grb.hpp>

#include <cstdio>
#include <vector>

#include "bfs/linear_algebra.hpp"
#include "validate/validate.hpp"

int main() {
  // The path 0 - 1 - 2 - 3, stored both ways, and an isolated vertex 4.
  const std::vector<grb::Index> rows{0, 1, 1, 2, 2, 3}, cols{1, 0, 2, 1, 3, 2};
  grb::Matrix<bool> path(5, 5, grb::Backend::cpu);
  path.build(rows, cols, std::vector<bool>(rows.size(), true));
  const grb::algorithms::BfsResult searched = grb::algorithms::bfs(path, 0);
  const std::vector<std::int32_t> expected{0, 1, 2, 3};
  for (grb::Index v = 0; v < 4; ++v) {
    if (searched.level.extract_element(v) != expected[v]) {
      std::fprintf(stderr, "consumer: vertex %u has the wrong level\n", v);
      return 1;
    }
  }
  if (searched.level.extract_element(4)) {
    std::fprintf(stderr, "consumer: the isolated vertex 4 was reached\n");
    return 1;
  }

  const grb::Matrix<double> grid = grb::generate::grid(16);
  const grb::Index center = 8 * 16 + 8;
  const grb::algorithms::BfsResult result = grb::algorithms::bfs(grb::pattern(grid), center);
  std::vector<grb::Index> indices;
  std::vector<std::int32_t> values;
  std::vector<grb::Index> parent_indices, parent_values;
  result.level.extract_tuples(indices, values);
  result.parent.extract_tuples(parent_indices, parent_values);
  std::vector<std::int32_t> level(grid.nrows(), grb::validate::unreached_level);
  std::vector<grb::Index> parent(grid.nrows(), grb::no_index);
  for (std::size_t e = 0; e < indices.size(); ++e) level[indices[e]] = values[e];
  for (std::size_t e = 0; e < parent_indices.size(); ++e)
    parent[parent_indices[e]] = parent_values[e];
  const grb::validate::Result check = grb::validate::bfs(grid, center, level, parent);
  if (!check) {
    std::fprintf(stderr, "consumer: BFS on a grid failed validation: %s\n", check.message.c_str());
    return 1;
  }
  std::printf("consumer: ok (grid BFS reached %zu of %u vertices)\n", indices.size(), grid.nrows());
  return 0;
}
