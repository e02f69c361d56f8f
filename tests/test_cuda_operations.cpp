// The cuda backend against the cpu backend (the reference semantics): mxv and vxm (every
// semiring kind, mask kind, replace and accumulate, every strategy, rows split over blocks) and
// the matrix operations, on random inputs of many shapes (empty, 1x1, rectangular, a dense
// 'celebrity' row and column), and the errors for mismatched objects. Skipped, visibly, without
// a GPU.
#include <doctest/doctest.h>

#include "cuda_cases.hpp"

using namespace grb::test::cuda_cases;

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
