// The cuda backend against the cpu backend (the reference semantics): every operation on random
// inputs of many shapes (empty, 1x1, rectangular, a dense 'celebrity' row and column), with every
// mask kind, replace and accumulate, and every mxv strategy. Skipped, visibly, without a GPU.
#include <doctest/doctest.h>

#include <grb/grb.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support.hpp"

namespace {

using grb::Backend;
using grb::Index;

bool skip_without_cuda() {
  if (grb::cuda_available()) return false;
  MESSAGE("cuda backend not available here: cuda-vs-cpu cases SKIPPED");
  return true;
}

using grb::test::in_shard;  // the long loops (mxv, matrix operations) are split by GRB_TEST_SHARD

struct Shape {
  Index nrows, ncols;
  double density;
  bool celebrity;  // row 0 and column 0 full
};

const std::vector<Shape> all_shapes = {
    {0, 0, 0.0, false},   {1, 1, 1.0, false},   {1, 1, 0.0, false},  {7, 5, 0.3, false},
    {40, 40, 0.1, false}, {64, 33, 0.05, true}, {300, 300, 0.02, true}, {1000, 800, 0.004, false},
};
/// Under compute-sanitizer (GRB_SANITIZER set) the small shapes only: every kernel still runs.
const std::vector<Shape> shapes(all_shapes.begin(),
                                all_shapes.end() - (std::getenv("GRB_SANITIZER") ? 2 : 0));

template <class T>
T random_value(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, bool>) return std::uniform_int_distribution<int>(0, 3)(rng) != 0;
  else if constexpr (std::is_floating_point_v<T>) return std::uniform_real_distribution<T>(-4, 9)(rng);
  else return static_cast<T>(std::uniform_int_distribution<int>(0, 20)(rng));
}

template <class T>
grb::Matrix<T> random_matrix(const Shape& shape, std::mt19937_64& rng) {
  std::vector<Index> rows, cols;
  std::vector<T> values;
  std::bernoulli_distribution keep(shape.density);
  for (Index i = 0; i < shape.nrows; ++i)
    for (Index j = 0; j < shape.ncols; ++j)
      if (keep(rng) || (shape.celebrity && (i == 0 || j == 0))) {
        rows.push_back(i), cols.push_back(j), values.push_back(random_value<T>(rng));
      }
  grb::Matrix<T> a(shape.nrows, shape.ncols, Backend::cpu);
  a.build(rows, cols, values);
  return a;
}

template <class T>
grb::Vector<T> random_vector(Index size, double density, std::mt19937_64& rng) {
  std::vector<Index> indices;
  std::vector<T> values;
  std::bernoulli_distribution keep(density);
  for (Index i = 0; i < size; ++i)
    if (keep(rng)) indices.push_back(i), values.push_back(random_value<T>(rng));
  grb::Vector<T> v(size, Backend::cpu);
  v.build(indices, values);
  return v;
}

template <class T>
bool close(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isinf(x) || std::isinf(y)) return x == y;
    return std::fabs(x - y) <= 1e-9 * (1 + std::fabs(x) + std::fabs(y));
  } else {
    return x == y;
  }
}

/// The same entries (values compared only when `compare_values`: `any` results may differ).
template <class T>
void check_same(const grb::Vector<T>& cpu, const grb::Vector<T>& cuda, bool compare_values = true) {
  REQUIRE(cuda.backend() == Backend::cuda);
  CHECK(cpu.size() == cuda.size());
  std::vector<Index> ci, gi;
  std::vector<T> cv, gv;
  cpu.extract_tuples(ci, cv);
  cuda.extract_tuples(gi, gv);
  INFO("cpu " << ci.size() << " entries (nvals " << cpu.nvals() << "), cuda " << gi.size()
              << " entries (nvals " << cuda.nvals() << ", "
              << (cuda.format() == grb::VectorFormat::dense ? "dense" : "sparse") << ")");
  if (!ci.empty() && !gi.empty()) INFO("first index cpu " << ci[0] << ", cuda " << gi[0]);
  REQUIRE(ci == gi);
  if (!compare_values) return;
  for (std::size_t e = 0; e < cv.size(); ++e) {
    INFO("index " << ci[e] << ": cpu " << cv[e] << ", cuda " << gv[e]);
    CHECK(close<T>(cv[e], gv[e]));
  }
}

template <class T>
void check_same(const grb::Matrix<T>& cpu, const grb::Matrix<T>& cuda, bool compare_values = true) {
  REQUIRE(cuda.backend() == Backend::cuda);
  CHECK(cpu.nrows() == cuda.nrows());
  CHECK(cpu.ncols() == cuda.ncols());
  std::vector<Index> cr, cc, gr, gc;
  std::vector<T> cv, gv;
  cpu.extract_tuples(cr, cc, cv);
  cuda.extract_tuples(gr, gc, gv);
  INFO("cpu " << cr.size() << " entries, cuda " << gr.size() << " entries");
  REQUIRE(cr == gr);
  REQUIRE(cc == gc);
  if (!compare_values) return;
  for (std::size_t e = 0; e < cv.size(); ++e) {
    INFO("entry (" << cr[e] << ", " << cc[e] << "): cpu " << cv[e] << ", cuda " << gv[e]);
    CHECK(close<T>(cv[e], gv[e]));
  }
}

/// The mask kinds: none, valued, structural, complemented structural, complemented valued.
struct MaskKind {
  const char* name;
  bool use_mask, structural, complement, replace;
};
const std::vector<MaskKind> mask_kinds = {
    {"none", false, false, false, false},        {"none, complemented", false, false, true, true},
    {"valued", true, false, false, false},       {"valued, replace", true, false, false, true},
    {"structural", true, true, false, false},    {"!structural, replace", true, true, true, true},
    {"!valued", true, false, true, false},
};

grb::Descriptor descriptor_for(const MaskKind& kind, grb::MxvStrategy strategy = grb::MxvStrategy::automatic) {
  grb::Descriptor desc;
  desc.structural_mask = kind.structural;
  desc.complement_mask = kind.complement;
  desc.replace = kind.replace;
  desc.strategy = strategy;
  return desc;
}

/// Runs `operation(output, mask or no_mask, desc, backend)` on a cpu copy and a cuda copy of
/// `output` and compares the results. `mask` may be null when `kind` uses none.
template <class Output, class MaskObject, class Operation>
void differential(const Output& output, const MaskObject* mask, const MaskKind& kind,
                  const grb::Descriptor& desc, Operation operation, bool compare_values = true) {
  INFO("mask " << std::string(kind.name));
  Output cpu = output;
  Output cuda = output.to(Backend::cuda);
  if (!kind.use_mask) {
    operation(cpu, grb::no_mask, desc, Backend::cpu);
    operation(cuda, grb::no_mask, desc, Backend::cuda);
  } else {
    REQUIRE(mask != nullptr);
    operation(cpu, *mask, desc, Backend::cpu);
    operation(cuda, mask->to(Backend::cuda), desc, Backend::cuda);
  }
  check_same(cpu, cuda, compare_values);
}

/// An index-unary operator (GrB_IndexUnaryOp): x + i + 2j.
struct IndexSum {
  GRB_HOST_DEVICE double operator()(double x, Index i, Index j) const { return x + i + 2.0 * j; }
};

/// An input on the backend an operation runs on.
template <class X>
X on(const X& x, Backend backend) {
  return x.to(backend);
}

}  // namespace

TEST_CASE("cuda memory: pooled arrays round-trip, out-of-memory is grb::OutOfMemory") {
  if (skip_without_cuda()) return;
  std::vector<std::uint64_t> values(1000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = i * i;
  auto device = grb::detail::Array<std::uint64_t>::from(std::span<const std::uint64_t>(values), Backend::cuda);
  CHECK(device.to_vector() == values);
  try {
    grb::detail::Array<std::uint8_t> huge(std::size_t{1} << 50, Backend::cuda);
    FAIL("a 1 PiB device allocation succeeded");
  } catch (const grb::OutOfMemory& error) {
    CHECK(error.requested_bytes() == (std::size_t{1} << 50));
    CHECK(error.free_bytes() > 0);
    CHECK(std::string(error.what()).find("bytes") != std::string::npos);
  }
  // The backend stays usable after the failure.
  CHECK(device.to(Backend::cuda).to_vector() == values);
}

TEST_CASE("cuda memory: freed blocks are kept for the next allocation of their class") {
  if (skip_without_cuda()) return;
  grb::detail::release_kept_device_blocks();
  REQUIRE(grb::detail::kept_device_bytes() == 0);
  // A small block (a power-of-two class) and a large one (eight classes per power of two): each
  // kept when freed, and handed out again (the same block) for an allocation of its size.
  for (const std::size_t bytes : {std::size_t{1000}, std::size_t{(3u << 20) + 5}}) {
    INFO("bytes " << bytes);
    grb::detail::release_kept_device_blocks();
    const void* first = nullptr;
    {
      grb::detail::Array<std::uint8_t> block(bytes, Backend::cuda);
      first = block.data();
    }
    CHECK(grb::detail::kept_device_bytes() >= bytes);
    grb::detail::Array<std::uint8_t> again(bytes, Backend::cuda);
    CHECK(static_cast<const void*>(again.data()) == first);
    CHECK(grb::detail::kept_device_bytes() == 0);
    // The block works: a round trip through it.
    std::vector<std::uint8_t> values(bytes);
    for (std::size_t i = 0; i < bytes; ++i) values[i] = static_cast<std::uint8_t>(i * 7);
    auto filled = grb::detail::Array<std::uint8_t>::from(std::span<const std::uint8_t>(values),
                                                         Backend::cuda);
    CHECK(filled.to_vector() == values);
  }
  // Five large blocks of one size: four are kept, the fifth goes back to the pool.
  grb::detail::release_kept_device_blocks();
  {
    std::vector<grb::detail::Array<std::uint8_t>> blocks;
    for (int b = 0; b < 5; ++b) blocks.emplace_back(std::size_t{2} << 20, Backend::cuda);
  }
  CHECK(grb::detail::kept_device_bytes() == 4 * (std::size_t{2} << 20));
  grb::detail::release_kept_device_blocks();
  CHECK(grb::detail::kept_device_bytes() == 0);
  // Large blocks are kept by class, eight per power of two: a block freed by an array of 3 MiB
  // and 5 bytes (class 3.25 MiB) serves one of 3.1 MiB, not one of 3.3 MiB (class 3.5 MiB).
  const void* first = nullptr;
  {
    grb::detail::Array<std::uint8_t> block((std::size_t{3} << 20) + 5, Backend::cuda);
    first = block.data();
  }
  CHECK(grb::detail::kept_device_bytes() == (std::size_t{13} << 18));
  {
    grb::detail::Array<std::uint8_t> larger((std::size_t{3} << 20) + (std::size_t{300} << 10),
                                            Backend::cuda);
    CHECK(static_cast<const void*>(larger.data()) != first);
    CHECK(grb::detail::kept_device_bytes() == (std::size_t{13} << 18));
  }
  grb::detail::Array<std::uint8_t> same_class((std::size_t{3} << 20) + (std::size_t{100} << 10),
                                              Backend::cuda);
  CHECK(static_cast<const void*>(same_class.data()) == first);
  grb::detail::release_kept_device_blocks();
  CHECK(grb::detail::kept_device_bytes() == 0);
}

TEST_CASE("cuda pull: after the matrix changes, a pull reads its new rows") {
  if (skip_without_cuda()) return;
  // The stopping pull reads a 32-bit copy of the row offsets, cached with the matrix
  // (Matrix::narrow_offsets): a change of the entries must drop it.
  std::mt19937_64 rng(5);
  const Index n = 1000;
  grb::Matrix<bool> cpu = random_matrix<bool>(Shape{n, n, 0.004, false}, rng);
  grb::Matrix<bool> gpu = cpu.to(Backend::cuda);
  const auto u = random_vector<bool>(n, 0.05, rng);
  const auto mask = random_vector<bool>(n, 0.3, rng);
  const grb::Descriptor pull{.replace = true, .structural_mask = true, .complement_mask = true,
                             .strategy = grb::MxvStrategy::pull};
  auto product = [&](const grb::Matrix<bool>& a, Backend backend) {
    grb::Vector<bool> w(n, backend);
    grb::vxm(w, mask.to(backend), grb::no_accum, grb::any_pair<bool>{}, u.to(backend), a, pull);
    return w;
  };
  const grb::Vector<bool> before = product(cpu, Backend::cpu);
  check_same(before, product(gpu, Backend::cuda));
  // A new entry from an input of u to an output that the mask allows and nothing reached: the
  // output appears only where the pull reads the new rows.
  std::vector<Index> inputs, masked, reached;
  std::vector<bool> ignored;
  u.extract_tuples(inputs, ignored);
  mask.extract_tuples(masked, ignored);
  before.extract_tuples(reached, ignored);
  REQUIRE(!inputs.empty());
  Index output = 0;
  while (std::find(masked.begin(), masked.end(), output) != masked.end() ||
         std::find(reached.begin(), reached.end(), output) != reached.end())
    ++output;
  REQUIRE(output < n);
  cpu.set_element(inputs.front(), output, true);
  gpu.set_element(inputs.front(), output, true);
  const grb::Vector<bool> after = product(cpu, Backend::cpu);
  CHECK(after.nvals() == before.nvals() + 1);
  check_same(after, product(gpu, Backend::cuda));
}

TEST_CASE("cuda vector formats and transpose match the cpu for every element size") {
  if (skip_without_cuda()) return;
  std::mt19937_64 rng(11);
  for (const Shape& shape : shapes) {
    INFO("shape " << shape.nrows << " x " << shape.ncols);
    auto check_transpose = [&](auto tag) {
      using T = decltype(tag);
      auto a = random_matrix<T>(shape, rng);
      auto g = a.to(Backend::cuda);
      check_same(grb::Matrix<T>(a.csc().to(Backend::cpu)), grb::Matrix<T>(g.csc().to(Backend::cuda)));
    };
    check_transpose(bool{});
    check_transpose(std::int16_t{});
    check_transpose(float{});
    check_transpose(double{});
    auto v = random_vector<double>(shape.nrows, 0.5, rng);
    auto g = v.to(Backend::cuda);
    g.make_dense();
    g.make_sparse();
    check_same(v, g);
  }
}

TEST_CASE("cuda mxv and vxm match the cpu: semirings, masks, strategies, shapes") {
  if (skip_without_cuda()) return;
  std::mt19937_64 rng(42);
  const std::vector<grb::MxvStrategy> strategies = {grb::MxvStrategy::automatic,
                                                    grb::MxvStrategy::push, grb::MxvStrategy::pull};
  std::size_t combination = 0;  // of shape and input density
  for (const Shape& shape : shapes) {
    INFO("shape " << shape.nrows << " x " << shape.ncols);
    const auto a = random_matrix<double>(shape, rng);
    const auto pattern = grb::pattern(a);
    for (double density : {0.0, 0.05, 0.5, 1.0}) {
      if (!in_shard(combination++)) continue;
      INFO("input density " << density);
      const auto u = random_vector<double>(shape.ncols, density, rng);   // for mxv
      const auto x = random_vector<double>(shape.nrows, density, rng);   // for vxm
      const auto ub = random_vector<bool>(shape.ncols, density, rng);
      const auto xb = random_vector<bool>(shape.nrows, density, rng);
      const auto mask_rows = random_vector<bool>(shape.nrows, 0.4, rng);
      const auto mask_cols = random_vector<bool>(shape.ncols, 0.4, rng);
      const auto old_rows = random_vector<double>(shape.nrows, 0.3, rng);
      const auto old_cols = random_vector<double>(shape.ncols, 0.3, rng);
      for (grb::MxvStrategy strategy : strategies) {
        INFO("strategy " << int(strategy));
        for (const MaskKind& kind : mask_kinds) {
          const auto desc = descriptor_for(kind, strategy);
          differential(old_rows, &mask_rows, kind, desc,
                       [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                         grb::mxv(w, mask, grb::no_accum, grb::plus_times<double>{}, on(a, b), on(u, b), d);
                       });
          differential(old_cols, &mask_cols, kind, desc,
                       [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                         grb::vxm(w, mask, grb::min<double>{}, grb::min_plus<double>{}, on(x, b), on(a, b), d);
                       });
          // BFS-shaped: boolean frontier, lor_land and any_pair, structural complemented masks.
          grb::Vector<bool> reached_cols(shape.ncols, Backend::cpu);
          differential(reached_cols, &mask_cols, kind, desc,
                       [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                         grb::vxm(w, mask, grb::no_accum, grb::lor_land<bool>{}, on(xb, b), on(pattern, b), d);
                       });
          grb::Vector<bool> reached_rows(shape.nrows, Backend::cpu);
          differential(reached_rows, &mask_rows, kind, desc,
                       [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                         grb::mxv(w, mask, grb::no_accum, grb::any_pair<bool>{}, on(pattern, b), on(ub, b), d);
                       });
          // BFS parents: any frontier vertex that reaches j is a valid answer, so the pattern
          // is compared; min_secondi (the smallest one) is compared by value.
          grb::Vector<std::int64_t> parents(shape.ncols, Backend::cpu);
          differential(parents, &mask_cols, kind, desc,
                       [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                         grb::vxm(w, mask, grb::no_accum, grb::any_secondi<std::int64_t>{}, on(xb, b), on(pattern, b), d);
                       },
                       false);
          differential(parents, &mask_cols, kind, desc,
                       [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                         grb::vxm(w, mask, grb::no_accum, grb::min_secondi<std::int64_t>{}, on(xb, b), on(pattern, b), d);
                       });
        }
      }
      // Transposed inputs, and the cuSPARSE strategy (plus_times on double).
      grb::Descriptor transposed;
      transposed.transpose_first = true;
      differential(old_cols, &mask_cols, mask_kinds[0], transposed,
                   [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                     grb::mxv(w, mask, grb::no_accum, grb::min_second<double>{}, on(a, b), on(x, b), d);
                   });
      for (const MaskKind& kind : mask_kinds) {
        differential(old_rows, &mask_rows, kind,
                     descriptor_for(kind, grb::MxvStrategy::cusparse),
                     [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                       grb::mxv(w, mask, grb::plus<double>{}, grb::plus_times<double>{}, on(a, b), on(u, b), d);
                     });
      }
    }
  }
}

TEST_CASE("cuda pull splits rows longer than a chunk over blocks, and matches the cpu") {
  if (skip_without_cuda()) return;
  // Rows around the split length (2048): one entry short of it, at it, one past it, two chunks
  // and a bit, a full row of 9000; column 0 is full too (3000 entries: vxm pulls columns).
  // The other rows hold a few random entries, so the short-row groups run beside the split.
  std::mt19937_64 rng(7);
  const Index nrows = 3000, ncols = 9000;
  const std::vector<Index> long_rows = {2047, 2048, 2049, 4097, 9000};
  std::vector<Index> rows, cols;
  std::vector<std::int64_t> values;
  std::uniform_int_distribution<Index> column(1, ncols - 1);
  for (Index i = 0; i < nrows; ++i) {
    std::vector<Index> picked{0};
    if (i < long_rows.size()) {
      for (Index j = 1; j < long_rows[i]; ++j) picked.push_back(j);
    } else {
      for (int k = 0; k < 3; ++k) picked.push_back(column(rng));
      std::sort(picked.begin(), picked.end());
      picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
    }
    for (Index j : picked) rows.push_back(i), cols.push_back(j), values.push_back(int(j % 7) - 2);
  }
  grb::Matrix<std::int64_t> a(nrows, ncols, Backend::cpu);
  a.build(rows, cols, values);
  const auto a_double = grb::Matrix<double>(grb::Csr<double>{
      nrows, ncols, a.csr().row_offsets.clone(), a.csr().col_indices.clone(),
      grb::detail::Array<double>::from(std::vector<double>(values.begin(), values.end()), Backend::cpu)});
  const auto mask_rows = random_vector<bool>(nrows, 0.4, rng);
  const auto mask_cols = random_vector<bool>(ncols, 0.4, rng);
  for (double density : {0.3, 1.0}) {
    INFO("input density " << density);
    const auto u = random_vector<std::int64_t>(ncols, density, rng);
    const auto ud = random_vector<double>(ncols, density, rng);
    const auto x = random_vector<std::int64_t>(nrows, density, rng);
    const grb::Vector<std::int64_t> old_rows(nrows, Backend::cpu);
    const grb::Vector<std::int64_t> old_cols(ncols, Backend::cpu);
    const grb::Vector<double> old_rows_double(nrows, Backend::cpu);
    for (grb::MxvStrategy strategy : {grb::MxvStrategy::automatic, grb::MxvStrategy::pull}) {
      for (const MaskKind& kind : mask_kinds) {
        const auto desc = descriptor_for(kind, strategy);
        // Integers: the split changes the order of the additions, not the sums.
        differential(old_rows, &mask_rows, kind, desc,
                     [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                       grb::mxv(w, mask, grb::no_accum, grb::plus_times<std::int64_t>{}, on(a, b), on(u, b), d);
                     });
        differential(old_cols, &mask_cols, kind, desc,
                     [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                       grb::vxm(w, mask, grb::no_accum, grb::plus_times<std::int64_t>{}, on(x, b), on(a, b), d);
                     });
        differential(old_rows_double, &mask_rows, kind, desc,
                     [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                       grb::mxv(w, mask, grb::no_accum, grb::plus_times<double>{}, on(a_double, b), on(ud, b), d);
                     });
        // min has a terminal (the type's lowest value) that these rows never reach: they are read
        // whole, so the long ones are split too (FastSV's min.second; SSSP's min.plus).
        differential(old_rows, &mask_rows, kind, desc,
                     [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                       grb::mxv(w, mask, grb::min<std::int64_t>{}, grb::min_second<std::int64_t>{}, on(a, b), on(u, b), d);
                     });
        differential(old_cols, &mask_cols, kind, desc,
                     [&](auto& w, const auto& mask, const grb::Descriptor& d, Backend b) {
                       grb::vxm(w, mask, grb::no_accum, grb::min_plus<std::int64_t>{}, on(x, b), on(a, b), d);
                     });
      }
    }
  }
}

TEST_CASE("cuda any-push of 10 000 outputs: stored dense, bitmap-sorted, radix-sorted") {
  if (skip_without_cuda()) return;
  // u has 10 entries; row k of A reaches 1 000 outputs of its own, spread over the whole range,
  // so the push finds 10 000 distinct outputs, each from one k: w(o) = k under any.secondi.
  // The sizes put that list above n / 16 (the result is stored dense), between n / 1024 and
  // n / 16 (put in order through a bitmap) and below n / 1024 (the radix sort's multi-pass path).
  for (const Index n : {Index{1} << 17, Index{1} << 18, Index{1} << 24}) {
    INFO("n = " << n);
    const Index spread = n / 10000;
    std::vector<Index> rows, cols;
    for (Index k = 0; k < 10; ++k)
      for (Index j = 0; j < 1000; ++j) rows.push_back(k), cols.push_back((j * 10 + k) * spread);
    grb::Matrix<std::int32_t> a(n, n, Backend::cpu);
    a.build(rows, cols, std::vector<std::int32_t>(rows.size(), 1));
    grb::Vector<Index> u(n, Backend::cpu);
    for (Index k = 0; k < 10; ++k) u.set_element(k, k);
    const grb::Descriptor push{.strategy = grb::MxvStrategy::push};
    grb::Vector<Index> expected(n, Backend::cpu), got(n, Backend::cuda);
    grb::vxm(expected, grb::no_mask, grb::no_accum, grb::any_secondi<Index>{}, u, a, push);
    grb::vxm(got, grb::no_mask, grb::no_accum, grb::any_secondi<Index>{}, u.to(Backend::cuda),
             a.to(Backend::cuda), push);
    std::vector<Index> want_indices, got_indices, want_values, got_values;
    expected.extract_tuples(want_indices, want_values);
    got.to(Backend::cpu).extract_tuples(got_indices, got_values);
    REQUIRE(want_indices.size() == 10000);
    CHECK(got_indices == want_indices);
    CHECK(got_values == want_values);
    for (std::size_t e = 0; e < want_indices.size(); e += 997)
      CHECK(want_values[e] == (want_indices[e] / spread) % 10);
  }
}

TEST_CASE("cuda push results left unsorted read as sorted vectors everywhere") {
  if (skip_without_cuda()) return;
  // A push leaves its outputs in the order it found them (Vector::adopt_unsorted). Every reader
  // that needs index order must get it: copies, masks, searches, merges, host transfer. u has 8
  // entries whose rows reach 250 outputs each, at random positions, so the found order is far
  // from sorted.
  const Index n = Index{1} << 20;
  std::mt19937_64 rng(11);
  std::vector<Index> targets(n);
  for (Index i = 0; i < n; ++i) targets[i] = i;
  std::shuffle(targets.begin(), targets.end(), rng);
  std::vector<Index> rows, cols;
  for (Index k = 0; k < 8; ++k)
    for (Index j = 0; j < 250; ++j) rows.push_back(k), cols.push_back(targets[k * 250 + j]);
  grb::Matrix<std::int32_t> a(n, n, Backend::cpu);
  a.build(rows, cols, std::vector<std::int32_t>(rows.size(), 1));
  grb::Vector<Index> u(n, Backend::cpu);
  for (Index k = 0; k < 8; ++k) u.set_element(k, k);
  const grb::Descriptor push{.strategy = grb::MxvStrategy::push};
  const grb::Matrix<std::int32_t> a_cuda = a.to(Backend::cuda);
  grb::Vector<Index> want(n, Backend::cpu), got(n, Backend::cuda);
  grb::vxm(want, grb::no_mask, grb::no_accum, grb::any_secondi<Index>{}, u, a, push);
  grb::vxm(got, grb::no_mask, grb::no_accum, grb::any_secondi<Index>{}, u.to(Backend::cuda),
           a_cuda, push);
  REQUIRE(got.format() == grb::VectorFormat::sparse);
  REQUIRE(got.nvals() == 2000);
  // The test is only worth something if the stored order is not sorted already.
  const auto stored = got.unsorted_indices().to_vector();
  REQUIRE_FALSE(std::is_sorted(stored.begin(), stored.end()));

  const auto same = [](const grb::Vector<Index>& expected, const grb::Vector<Index>& actual) {
    std::vector<Index> want_indices, want_values, got_indices, got_values;
    expected.extract_tuples(want_indices, want_values);
    actual.extract_tuples(got_indices, got_values);
    CHECK(got_indices == want_indices);
    CHECK(got_values == want_values);
  };
  SUBCASE("a copy, then the original, read back") {
    const grb::Vector<Index> copy = got;
    same(want, copy);
    same(want, got);
    CHECK(got.extract_element(targets[3 * 250 + 7]) == Index{3});
  }
  SUBCASE("as a valued mask, merged, and as an assign's searched source") {
    const grb::Vector<Index> other_cpu = grb::Vector<Index>::full(n, 5, Backend::cpu);
    const grb::Vector<Index> other = other_cpu.to(Backend::cuda);
    grb::Vector<Index> masked_want(n, Backend::cpu), masked_got(n, Backend::cuda);
    grb::apply(masked_want, want, grb::no_accum, grb::identity<Index>{}, other_cpu);
    grb::apply(masked_got, got, grb::no_accum, grb::identity<Index>{}, other);
    same(masked_want, masked_got);
    grb::Vector<Index> sum_want(n, Backend::cpu), sum_got(n, Backend::cuda);
    grb::ewise_add(sum_want, grb::no_mask, grb::no_accum, grb::plus<Index>{}, want, want);
    grb::ewise_add(sum_got, grb::no_mask, grb::no_accum, grb::plus<Index>{}, got, got);
    same(sum_want, sum_got);
    // A full mask: every position looks its value up in the (sorted) source.
    grb::Vector<Index> put_want = other_cpu, put_got = other;
    const grb::Descriptor structural{.structural_mask = true};
    grb::assign(put_want, other_cpu, grb::no_accum, want, grb::all, structural);
    grb::assign(put_got, other, grb::no_accum, got, grb::all, structural);
    same(put_want, put_got);
  }
  SUBCASE("a BFS level's assigns: the frontier as mask and source, and as mask of a scalar") {
    grb::Vector<Index> parent_want = grb::Vector<Index>::full(n, 9, Backend::cpu);
    grb::Vector<Index> parent_got = parent_want.to(Backend::cuda);
    grb::Vector<std::int32_t> level_want(n, Backend::cpu), level_got(n, Backend::cuda);
    const grb::Descriptor where_present{.structural_mask = true};
    grb::assign(parent_want, want, grb::no_accum, want, grb::all, where_present);
    grb::assign(parent_got, got, grb::no_accum, got, grb::all, where_present);
    grb::assign(level_want, want, grb::no_accum, std::int32_t{4}, grb::all, where_present);
    grb::assign(level_got, got, grb::no_accum, std::int32_t{4}, grb::all, where_present);
    same(parent_want, parent_got);
    CHECK(level_got.nvals() == 2000);
    std::vector<Index> want_indices, got_indices;
    std::vector<std::int32_t> want_values, got_values;
    level_want.extract_tuples(want_indices, want_values);
    level_got.extract_tuples(got_indices, got_values);
    CHECK(got_indices == want_indices);
    CHECK(got_values == want_values);
  }
}

TEST_CASE("cuda in-place assigns over a dense mask match the cpu, four positions at a time") {
  if (skip_without_cuda()) return;
  // A BFS level's assigns over a dense frontier (the mask's values as the source: parents; a
  // scalar: levels), and a searched source that lacks some masked positions (they are deleted),
  // into dense targets of 1-, 4- and 8-byte values. The kernel takes four consecutive positions a
  // thread; sizes 4k + 1..3 leave the rest to single positions.
  std::mt19937_64 rng(23);
  const grb::Descriptor where_present{.structural_mask = true};
  const auto same = [](const auto& want, const auto& got) {
    auto want_indices = std::vector<Index>(), got_indices = std::vector<Index>();
    using T = typename std::decay_t<decltype(want)>::value_type;
    std::vector<T> want_values, got_values;
    want.extract_tuples(want_indices, want_values);
    got.extract_tuples(got_indices, got_values);
    CHECK(got.nvals() == want.nvals());
    CHECK(got_indices == want_indices);
    CHECK(got_values == want_values);
  };
  const auto on_cuda_dense = [](const auto& v) {
    auto dense = v.to(Backend::cuda);
    dense.make_dense();
    return dense;
  };
  for (Index size : {1u, 3u, 4u, 1003u, 4097u, 65538u}) {
    INFO("size " << size);
    const auto frontier = random_vector<Index>(size, 0.5, rng);
    const auto frontier_cuda = on_cuda_dense(frontier);
    REQUIRE(frontier_cuda.format() == grb::VectorFormat::dense);

    auto parent_want = random_vector<Index>(size, 0.3, rng);
    auto parent_got = on_cuda_dense(parent_want);
    grb::assign(parent_want, frontier, grb::no_accum, frontier, grb::all, where_present);
    grb::assign(parent_got, frontier_cuda, grb::no_accum, frontier_cuda, grb::all, where_present);
    same(parent_want, parent_got);

    auto level_want = random_vector<std::int32_t>(size, 0.3, rng);
    auto level_got = on_cuda_dense(level_want);
    grb::assign(level_want, frontier, grb::no_accum, std::int32_t{7}, grb::all, where_present);
    grb::assign(level_got, frontier_cuda, grb::no_accum, std::int32_t{7}, grb::all, where_present);
    same(level_want, level_got);

    auto seen_want = random_vector<bool>(size, 0.3, rng);
    auto seen_got = on_cuda_dense(seen_want);
    grb::assign(seen_want, frontier, grb::no_accum, true, grb::all, where_present);
    grb::assign(seen_got, frontier_cuda, grb::no_accum, true, grb::all, where_present);
    same(seen_want, seen_got);

    const auto source = random_vector<double>(size, 0.6, rng);
    auto put_want = random_vector<double>(size, 0.3, rng);
    auto put_got = on_cuda_dense(put_want);
    grb::assign(put_want, frontier, grb::no_accum, source, grb::all, where_present);
    grb::assign(put_got, frontier_cuda, grb::no_accum, on_cuda_dense(source), grb::all,
                where_present);
    same(put_want, put_got);
  }
}

TEST_CASE("cuda element-wise vector operations match the cpu") {
  if (skip_without_cuda()) return;
  std::mt19937_64 rng(7);
  for (Index size : {0u, 1u, 17u, 1000u, 5000u}) {
    INFO("size " << size);
    for (double density : {0.0, 0.03, 0.4, 1.0}) {
      INFO("density " << density);
      const auto u = random_vector<double>(size, density, rng);
      const auto v = random_vector<double>(size, 0.5, rng);
      const auto mask = random_vector<std::int32_t>(size, 0.5, rng);
      const auto old = random_vector<double>(size, 0.3, rng);
      for (const MaskKind& kind : mask_kinds) {
        const auto desc = descriptor_for(kind);
        auto run = [&](int line, auto operation) {
        INFO("operation at line " << line);
          differential(old, &mask, kind, desc, operation);
        };
        run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend b) {
          grb::ewise_add(w, m, grb::no_accum, grb::min<double>{}, on(u, b), on(v, b), d);
        });
        run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend b) {
          grb::ewise_mult(w, m, grb::plus<double>{}, grb::times<double>{}, on(u, b), on(v, b), d);
        });
        run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend b) {
          grb::apply(w, m, grb::no_accum, grb::ainv<double>{}, on(u, b), d);
        });
        run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend b) {
          grb::apply(w, m, grb::no_accum, IndexSum{}, on(u, b), d);
        });
        run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend b) {
          grb::select(w, m, grb::max<double>{}, grb::value_gt<double>{2.0}, on(u, b), d);
        });
        run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend) {
          grb::assign(w, m, grb::no_accum, 3.5, grb::all, d);
        });
        // Index lists: unsorted, with a repeat (the last position wins).
        std::vector<Index> ids;
        for (Index i = 0; i < size; i += 3) ids.push_back(size - 1 - i);
        if (!ids.empty()) ids.push_back(ids.front());
        const auto source = random_vector<double>(Index(ids.size()), 0.6, rng);
        run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend b) {
          grb::assign(w, m, grb::plus<double>{}, on(source, b), grb::IndexList(ids), d);
        });
        run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend b) {
          grb::assign(w, m, grb::no_accum, on(source, b), grb::IndexList(ids), d);
        });
        run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend) {
          grb::assign(w, m, grb::min<double>{}, -1.0, grb::IndexList(ids), d);
        });
      }
      // extract: w has the list's size; masks of that size.
      std::vector<Index> picks;
      for (Index i = 0; i < size; i += 2) picks.push_back((i * 7) % size);
      const auto small_old = random_vector<double>(Index(picks.size()), 0.3, rng);
      const auto small_mask = random_vector<bool>(Index(picks.size()), 0.5, rng);
      for (const MaskKind& kind : mask_kinds) {
        differential(small_old, &small_mask, kind, descriptor_for(kind),
                     [&](auto& w, const auto& m, const grb::Descriptor& d, Backend b) {
                       grb::extract(w, m, grb::no_accum, on(u, b), grb::IndexList(picks), d);
                     });
      }
      const auto ug = u.to(Backend::cuda);
      CHECK(close(grb::reduce(grb::plus_monoid<double>{}, u), grb::reduce(grb::plus_monoid<double>{}, ug)));
      CHECK(grb::reduce(grb::min_monoid<double>{}, u) == grb::reduce(grb::min_monoid<double>{}, ug));
      auto dense = ug;
      dense.make_dense();
      CHECK(grb::reduce(grb::max_monoid<double>{}, u) == grb::reduce(grb::max_monoid<double>{}, dense));
    }
  }
}

TEST_CASE("cuda matrix operations match the cpu") {
  if (skip_without_cuda()) return;
  std::mt19937_64 rng(5);
  std::size_t combination = 0;  // of shape and mask kind (GRB_TEST_SHARD)
  for (const Shape& shape : shapes) {
    INFO("shape " << shape.nrows << " x " << shape.ncols);
    const auto a = random_matrix<double>(shape, rng);
    const auto b = random_matrix<double>(shape, rng);
    const auto old = random_matrix<double>({shape.nrows, shape.ncols, 0.1, false}, rng);
    const auto mask = random_matrix<bool>({shape.nrows, shape.ncols, 0.5, false}, rng);
    const Shape square{shape.ncols, shape.ncols, shape.density, shape.celebrity};
    const auto c = random_matrix<double>(square, rng);
    grb::Matrix<double> c_t(square.ncols, square.nrows, Backend::cpu);
    grb::transpose(c_t, grb::no_mask, grb::no_accum, c);
    for (const MaskKind& kind : mask_kinds) {
      if (!in_shard(combination++)) continue;
      const auto desc = descriptor_for(kind);
      auto run = [&](int line, auto operation) {
        INFO("operation at line " << line);
        differential(old, &mask, kind, desc, operation);
      };
      run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
        grb::ewise_add(w, m, grb::no_accum, grb::plus<double>{}, on(a, be), on(b, be), d);
      });
      run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
        grb::ewise_mult(w, m, grb::min<double>{}, grb::times<double>{}, on(a, be), on(b, be), d);
      });
      run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
        grb::apply(w, m, grb::plus<double>{}, grb::abs<double>{}, on(a, be), d);
      });
      run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
        grb::select(w, m, grb::no_accum, grb::tril{-1}, on(a, be), d);
      });
      // An index-unary apply: the value plus its row and column.
      run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
        grb::apply(w, m, grb::no_accum, IndexSum{}, on(a, be), d);
      });
      run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
        grb::mxm(w, m, grb::no_accum, grb::plus_times<double>{}, on(a, be), on(c, be), d);
      });
      run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
        grb::mxm(w, m, grb::plus<double>{}, grb::min_plus<double>{}, on(a, be), on(c, be), d);
      });
      // mxm's pull strategy (masked dot products; push where the mask is complemented or absent),
      // a positional multiply and a transposed B included.
      for (bool transposed : {false, true}) {
        grb::Descriptor pull = desc;
        pull.strategy = grb::MxvStrategy::pull;
        pull.transpose_second = transposed;
        const auto& right = transposed ? c_t : c;
        differential(old, &mask, kind, pull,
                     [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
                       grb::mxm(w, m, grb::no_accum, grb::plus_times<double>{}, on(a, be), on(right, be), d);
                     });
        differential(old, &mask, kind, pull,
                     [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
                       grb::mxm(w, m, grb::max<double>{}, grb::min_secondi<double>{}, on(a, be), on(right, be), d);
                     });
      }
      std::vector<Index> rows, cols;
      for (Index i = 0; i < shape.nrows; i += 2) rows.push_back(shape.nrows - 1 - i);
      for (Index j = 0; j < shape.ncols; j += 3) cols.push_back(j);
      if (!cols.empty()) cols.push_back(cols.front());
      const auto source = random_matrix<double>({Index(rows.size()), Index(cols.size()), 0.4, false}, rng);
      run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
        grb::assign(w, m, grb::no_accum, on(source, be), grb::IndexList(rows), grb::IndexList(cols), d);
      });
      run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
        grb::assign(w, m, grb::plus<double>{}, on(source, be), grb::IndexList(rows), grb::IndexList(cols), d);
      });
      run(__LINE__, [&](auto& w, const auto& m, const grb::Descriptor& d, Backend) {
        grb::assign(w, m, grb::max<double>{}, 2.0, grb::IndexList(rows), grb::all, d);
      });
    }
    // Shape-changing operations, unmasked and with a complemented empty mask.
    const auto old_t = random_matrix<double>({shape.ncols, shape.nrows, 0.1, false}, rng);
    for (const MaskKind& kind : {mask_kinds[0], mask_kinds[1]}) {
      differential(old_t, (grb::Matrix<bool>*)nullptr, kind, descriptor_for(kind),
                   [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
                     grb::transpose(w, m, grb::plus<double>{}, on(a, be), d);
                   });
      std::vector<Index> rows, cols;
      for (Index i = 0; i < shape.nrows; i += 2) rows.push_back((i * 5) % shape.nrows);
      for (Index j = shape.ncols; j-- > 0;) cols.push_back(j);
      grb::Matrix<double> out(Index(rows.size()), Index(cols.size()), Backend::cpu);
      differential(out, (grb::Matrix<bool>*)nullptr, kind, descriptor_for(kind),
                   [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
                     grb::extract(w, m, grb::no_accum, on(a, be), grb::IndexList(rows), grb::IndexList(cols), d);
                   });
      if (shape.ncols > 0) {
        grb::Vector<double> column(Index(rows.size()), Backend::cpu);
        differential(column, (grb::Vector<bool>*)nullptr, kind, descriptor_for(kind),
                     [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
                       grb::extract(w, m, grb::no_accum, on(a, be), grb::IndexList(rows), shape.ncols - 1, d);
                     });
      }
      grb::Vector<double> sums(shape.nrows, Backend::cpu);
      differential(sums, (grb::Vector<bool>*)nullptr, kind, descriptor_for(kind),
                   [&](auto& w, const auto& m, const grb::Descriptor& d, Backend be) {
                     grb::reduce(w, m, grb::no_accum, grb::plus_monoid<double>{}, on(a, be), d);
                   });
    }
    const auto ag = a.to(Backend::cuda);
    CHECK(close(grb::reduce(grb::plus_monoid<double>{}, a), grb::reduce(grb::plus_monoid<double>{}, ag)));
    CHECK(grb::reduce(grb::min_monoid<double>{}, a) == grb::reduce(grb::min_monoid<double>{}, ag));
  }
}

TEST_CASE("cuda operations refuse mismatched dimensions and mixed backends") {
  if (skip_without_cuda()) return;
  grb::Matrix<double> a(3, 4, Backend::cuda);
  grb::Vector<double> u(3, Backend::cuda), w(3, Backend::cuda);
  CHECK_THROWS_AS(grb::mxv(w, grb::no_mask, grb::no_accum, grb::plus_times<double>{}, a, u),
                  grb::DimensionMismatch);
  grb::Vector<double> host(4, Backend::cpu);
  CHECK_THROWS_AS(grb::mxv(w, grb::no_mask, grb::no_accum, grb::plus_times<double>{}, a, host),
                  grb::BackendMismatch);
  grb::Vector<int> ints(4, Backend::cuda);
  grb::Vector<int> out(3, Backend::cuda);
  grb::Matrix<int> ai(3, 4, Backend::cuda);
  grb::Descriptor desc;
  desc.strategy = grb::MxvStrategy::cusparse;
  CHECK_THROWS_AS(grb::mxv(out, grb::no_mask, grb::no_accum, grb::plus_times<int>{}, ai, ints, desc),
                  grb::InvalidValue);
}
