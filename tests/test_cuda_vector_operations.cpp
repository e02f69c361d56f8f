// The cuda backend against the cpu backend: device memory (the pool, kept blocks, out of
// memory), vector formats and transpose, pull after a matrix changes, push results left
// unsorted, in-place assigns and the element-wise vector operations. Skipped, visibly, without a
// GPU.
#include <doctest/doctest.h>

#include "cuda_cases.hpp"

using namespace grb::test::cuda_cases;

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
