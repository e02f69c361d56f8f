// assign (GrB_assign) of vectors, matrices and scalars into a region of the output, against the
// dense reference: every write case, index lists that are all / sorted / shuffled / repeated
// (repeats fold through the accumulator), transposed sources, aliasing and errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include <grb/grb.hpp>

#include "operations_reference.hpp"
#include "support.hpp"

using grb::Index;
using namespace grb::test;

namespace {

/// A random index list into [0, dimension): all of it, a shuffled subset, or with repeats.
struct RandomList {
  bool all = false;
  std::vector<Index> ids;

  grb::IndexList list() const { return all ? grb::IndexList(grb::all) : grb::IndexList(ids); }
  Index size(Index dimension) const { return all ? dimension : Index(ids.size()); }
  Index operator()(Index p) const { return all ? p : ids[p]; }
};

inline RandomList random_list(std::mt19937& rng, Index dimension, bool repeats) {
  RandomList list;
  const int kind = int(rng() % 3);
  if (kind == 0 || dimension == 0) {
    list.all = kind == 0;
    return list;
  }
  for (Index i = 0; i < dimension; ++i)
    if (chance(rng, 0.5)) list.ids.push_back(i);
  if (repeats)
    for (int r = 0; r < 3; ++r) list.ids.push_back(Index(rng() % dimension));
  std::shuffle(list.ids.begin(), list.ids.end(), rng);
  return list;
}

/// Z: the output with the region overwritten (no accum) or folded with accum, in list order.
template <class W, class S, class Accum>
DenseVector<W> assigned(const DenseVector<W>& old, const DenseVector<S>& source, const RandomList& list,
                        bool accumulate, Accum accum) {
  DenseVector<W> z = old;
  const Index count = list.size(old.size);
  if (!accumulate)
    for (Index p = 0; p < count; ++p) z.clear(list(p));
  for (Index p = 0; p < count; ++p) {
    if (!source.has(p)) continue;
    const Index i = list(p);
    if (accumulate && z.has(i)) z.set(i, static_cast<W>(accum(z.value[i], static_cast<W>(source.value[p]))));
    else z.set(i, static_cast<W>(source.value[p]));
  }
  return z;
}

template <class W, class S, class Accum>
DenseMatrix<W> assigned(const DenseMatrix<W>& old, const DenseMatrix<S>& source, const RandomList& rows,
                        const RandomList& cols, bool accumulate, Accum accum) {
  DenseMatrix<W> z = old;
  const Index nr = rows.size(old.nrows), nc = cols.size(old.ncols);
  if (!accumulate)
    for (Index p = 0; p < nr; ++p)
      for (Index q = 0; q < nc; ++q) z.clear(rows(p), cols(q));
  for (Index p = 0; p < nr; ++p)
    for (Index q = 0; q < nc; ++q) {
      if (!source.has(p, q)) continue;
      const Index i = rows(p), j = cols(q);
      const W value = static_cast<W>(source.get(p, q));
      z.set(i, j, accumulate && z.has(i, j) ? static_cast<W>(accum(z.get(i, j), value)) : value);
    }
  return z;
}

/// Every write case: out<mask, replace> = Z (the accumulator already went into Z).
template <class W, class MakeZ, class Run>
void check_assign_cases(grb::Backend backend, std::mt19937& rng, Index n, MakeZ make_z, Run run) {
  for (const WriteCase& c : all_write_cases()) {
    const auto old = random_vector<W>(rng, n, 0.5);
    const auto mask = random_vector<int>(rng, n, 0.5, 0, 2);
    grb::Vector<W> w = to_grb(old, backend, chance(rng, 0.5));
    const grb::Vector<int> mask_object = to_grb(mask, backend, chance(rng, 0.5));
    with_modifiers(c, mask_object, std::minus<W>{},
                   [&](const auto& m, const auto& a) { run(w, m, a, c.descriptor()); });
    WriteCase final_write = c;
    final_write.accumulate = false;
    INFO(c.name());
    const auto expected = expected_write(final_write, old, mask, std::minus<W>{}, make_z(old, c.accumulate));
    const std::string diff = difference(to_dense(w), expected);
    CHECK_MESSAGE(diff.empty(), diff);
  }
}

template <class W, class MakeZ, class Run>
void check_assign_cases(grb::Backend backend, std::mt19937& rng, Index m, Index n, MakeZ make_z, Run run) {
  for (const WriteCase& c : all_write_cases()) {
    const auto old = random_matrix<W>(rng, m, n, 0.5);
    const auto mask = random_matrix<int>(rng, m, n, 0.5, 0, 2);
    grb::Matrix<W> out = to_grb(old, backend);
    const grb::Matrix<int> mask_object = to_grb(mask, backend);
    with_modifiers(c, mask_object, std::minus<W>{},
                   [&](const auto& mk, const auto& a) { run(out, mk, a, c.descriptor()); });
    WriteCase final_write = c;
    final_write.accumulate = false;
    INFO(c.name());
    const auto expected = expected_write(final_write, old, mask, std::minus<W>{}, make_z(old, c.accumulate));
    const std::string diff = difference(to_dense(out), expected);
    CHECK_MESSAGE(diff.empty(), diff);
  }
}

}  // namespace

TEST_CASE("assign: vector and scalar into a vector region") {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(4);
    for (auto [unused, n] : test_shapes())
      for (bool repeats : {false, true})
        for (int trial = 0; trial < 3; ++trial) {
          const RandomList list = random_list(rng, n, repeats);
          const Index count = list.size(n);
          const auto source = random_vector<double>(rng, count, 0.6, -3, 3);
          const auto source_object = to_grb(source, backend, chance(rng, 0.5));
          INFO("n ", n, " list of ", count, (list.all ? " (all)" : ""), " repeats ", repeats);
          check_assign_cases<int>(
              backend, rng, n,
              [&](const DenseVector<int>& old, bool accumulate) {
                return assigned(old, source, list, accumulate, std::minus<int>{});
              },
              [&](auto& w, const auto& mask, const auto& acc, const auto& desc) {
                grb::assign(w, mask, acc, source_object, list.list(), desc);
              });
          DenseVector<int> full(count);
          for (Index p = 0; p < count; ++p) full.set(p, 7);
          check_assign_cases<int>(
              backend, rng, n,
              [&](const DenseVector<int>& old, bool accumulate) {
                return assigned(old, full, list, accumulate, std::minus<int>{});
              },
              [&](auto& w, const auto& mask, const auto& acc, const auto& desc) {
                grb::assign(w, mask, acc, 7, list.list(), desc);
              });
        }
  }
}

TEST_CASE("assign: matrix and scalar into a matrix region, transposed source") {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(40);
    for (auto [m, n] : test_shapes()) {
      if (m > 40 || n > 40) continue;
      for (bool repeats : {false, true})
        for (bool transposed : {false, true}) {
          const RandomList rows = random_list(rng, m, repeats), cols = random_list(rng, n, repeats);
          const auto source = random_matrix<int>(rng, rows.size(m), cols.size(n), 0.5, -3, 3);
          const auto source_object = to_grb(transposed ? source.transposed() : source, backend);
          INFO(m, "x", n, " region ", rows.size(m), "x", cols.size(n), " repeats ", repeats,
               " transposed ", transposed);
          check_assign_cases<int>(
              backend, rng, m, n,
              [&](const DenseMatrix<int>& old, bool accumulate) {
                return assigned(old, source, rows, cols, accumulate, std::minus<int>{});
              },
              [&](auto& c, const auto& mask, const auto& acc, grb::Descriptor desc) {
                desc.transpose_first = transposed;
                grb::assign(c, mask, acc, source_object, rows.list(), cols.list(), desc);
              });
          DenseMatrix<int> full(rows.size(m), cols.size(n));
          for (Index p = 0; p < full.nrows; ++p)
            for (Index q = 0; q < full.ncols; ++q) full.set(p, q, -5);
          check_assign_cases<int>(
              backend, rng, m, n,
              [&](const DenseMatrix<int>& old, bool accumulate) {
                return assigned(old, full, rows, cols, accumulate, std::minus<int>{});
              },
              [&](auto& c, const auto& mask, const auto& acc, const auto& desc) {
                grb::assign(c, mask, acc, -5, rows.list(), cols.list(), desc);
              });
        }
    }
  }
}

TEST_CASE("assign by hand: repeated indices fold through min (FastSV hooking)") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Vector<Index> parent = grb::Vector<Index>::full(4, 3, backend);
    grb::Vector<Index> candidates(3, backend);
    candidates.build(std::vector<Index>{0, 1, 2}, std::vector<Index>{2, 0, 1});
    const std::vector<Index> targets{1, 1, 1};
    grb::assign(parent, grb::no_mask, grb::min<Index>{}, candidates, targets);
    CHECK(to_dense(parent).value == std::vector<Index>{3, 0, 3, 3});
  }
}

/// w(ids) accum= source, folded on the host in source order: the reference for many repeats.
template <class T, class Accum>
std::vector<std::optional<T>> fold_in_order(std::vector<std::optional<T>> w,
                                            const std::vector<Index>& ids,
                                            const std::vector<T>& source, Accum accum) {
  for (std::size_t k = 0; k < ids.size(); ++k) {
    std::optional<T>& target = w[ids[k]];
    if constexpr (std::is_same_v<Accum, grb::NoAccum>) target = source[k];
    else target = target ? static_cast<T>(accum(*target, source[k])) : source[k];
  }
  return w;
}

template <class T>
std::vector<std::optional<T>> entries_of(const grb::Vector<T>& v) {
  std::vector<Index> indices;
  std::vector<T> values;
  v.extract_tuples(indices, values);
  std::vector<std::optional<T>> entries(v.size());
  for (std::size_t k = 0; k < indices.size(); ++k) entries[indices[k]] = values[k];
  return entries;
}

TEST_CASE("assign: thousands of entries sent to a few indices fold as in source order") {
  // FastSV sends most of a component's vertices to one index; the cuda backend folds such runs
  // first where the accumulator allows any order (min, max, logical, integer plus and times).
  std::mt19937 rng(7);
  constexpr Index size = 64;
  std::vector<Index> ids;
  for (int k = 0; k < 5000; ++k) ids.push_back(k % 7 == 0 ? Index(rng() % size) : Index(k % 3));
  std::vector<std::int64_t> integers(ids.size());
  std::vector<double> reals(ids.size());
  for (std::size_t k = 0; k < ids.size(); ++k) {
    integers[k] = std::int64_t(rng() % 2001) - 1000;
    reals[k] = double(rng() % 1000) / 7.0;
  }
  std::vector<std::optional<std::int64_t>> old_integers(size);
  std::vector<std::optional<double>> old_reals(size);
  for (Index i = 0; i < size; i += 2) old_integers[i] = std::int64_t(i) - 30, old_reals[i] = i / 3.0;

  // Signed zeros and NaN: min and max return their first operand on a tie or a NaN, so on
  // floating point they fold only in source order (compared bit for bit: NaN != NaN).
  std::vector<double> specials(ids.size());
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const double choices[] = {std::numeric_limits<double>::quiet_NaN(), -0.0, 0.0, reals[k]};
    specials[k] = choices[rng() % 4];
  }
  const auto bits = [](const auto& entries) {
    std::vector<std::optional<std::uint64_t>> out;
    for (const auto& entry : entries)
      out.push_back(entry ? std::optional(std::bit_cast<std::uint64_t>(*entry)) : std::nullopt);
    return out;
  };
  {  // the order shows: folded backwards, some index ends with other bits
    const std::vector<Index> backward_ids(ids.rbegin(), ids.rend());
    const std::vector<double> backward(specials.rbegin(), specials.rend());
    CHECK(bits(fold_in_order(old_reals, backward_ids, backward, grb::min<double>{})) !=
          bits(fold_in_order(old_reals, ids, specials, grb::min<double>{})));
  }

  GRB_FOR_EACH_BACKEND(backend) {
    auto check = [&](const auto& old, const auto& source, auto accum) {
      using T = typename std::decay_t<decltype(source)>::value_type;
      grb::Vector<T> w(size, backend);
      std::vector<Index> present;
      std::vector<T> values;
      for (Index i = 0; i < size; ++i)
        if (old[i]) present.push_back(i), values.push_back(*old[i]);
      w.build(present, values);
      grb::Vector<T> s(Index(source.size()), backend);
      std::vector<Index> positions(source.size());
      for (std::size_t k = 0; k < positions.size(); ++k) positions[k] = Index(k);
      s.build(positions, source);
      grb::assign(w, grb::no_mask, accum, s, ids);
      CHECK(bits(entries_of(w)) == bits(fold_in_order(old, ids, source, accum)));
    };
    check(old_integers, integers, grb::min<std::int64_t>{});
    check(old_integers, integers, grb::max<std::int64_t>{});
    check(old_integers, integers, grb::plus<std::int64_t>{});
    check(old_integers, integers, grb::minus<std::int64_t>{});  // order matters: folded in order
    check(old_integers, integers, grb::no_accum);                // the last one wins
    check(old_reals, reals, grb::min<double>{});
    check(old_reals, reals, grb::second<double>{});
    check(old_reals, specials, grb::min<double>{});
    check(old_reals, specials, grb::max<double>{});
  }
}

TEST_CASE("assign: aliasing, index and dimension errors") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Vector<int> w(4, backend);
    w.build(std::vector<Index>{0, 3}, std::vector<int>{1, 2});
    grb::assign(w, w, grb::plus<int>{}, w, grb::all);  // w<w> += w
    CHECK(to_dense(w).value == std::vector<int>{2, 0, 0, 4});
    const std::vector<Index> outside{0, 4};
    CHECK_THROWS_WITH_AS(grb::assign(w, grb::no_mask, grb::no_accum, 1, outside),
                         doctest::Contains("assign"), grb::IndexOutOfBounds);
    grb::Vector<int> three(3, backend);
    CHECK_THROWS_AS(grb::assign(w, grb::no_mask, grb::no_accum, three, grb::all), grb::DimensionMismatch);
    grb::Matrix<int> c(3, 3, backend), a(2, 2, backend);
    const std::vector<Index> two{0, 2}, bad{0, 3};
    CHECK_NOTHROW(grb::assign(c, grb::no_mask, grb::no_accum, a, two, two));
    CHECK_THROWS_AS(grb::assign(c, grb::no_mask, grb::no_accum, a, two, bad), grb::IndexOutOfBounds);
    CHECK_THROWS_AS(grb::assign(c, grb::no_mask, grb::no_accum, a, grb::all, two), grb::DimensionMismatch);
  }
}
