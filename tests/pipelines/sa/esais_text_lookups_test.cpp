// SPDX-License-Identifier: BSL-1.0
// The S* LCP search's scanners (esais/text_lookups.hpp) against the text itself: bytes and
// fingerprints at look-ups sorted by position, overlapping, repeated, rolling (gaps up to the
// window) and jumping (wider gaps), at the end of the text; look-ups past the end are an error.
// Also the reader of chained external vectors (esais/chained_reader.hpp) with empty parts.
#include <catch2/catch.hpp>

#include <emflow/pipelines/sa/detail/esais/chained_reader.hpp>
#include <emflow/pipelines/sa/detail/esais/text_lookups.hpp>
#include <emflow/uint40.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <random>
#include <stdexcept>
#include <vector>

#include "test_env.hpp"

using namespace emflow;
using namespace emflow::pipelines::sa;
using namespace emflow::pipelines::sa::detail::esais;

namespace {

//! A look-up: a position and who asks.
struct lookup {
    std::uint64_t pos;  //!< the position
    std::uint64_t who;  //!< who asks
};

//! A look-up answered with what it found.
template <class Found>
struct answer {
    std::uint64_t who;  //!< who asked
    Found found;        //!< what it found
};

const auto pos_of = [](const lookup& q) { return q.pos; };

//! make for the nodes: the answer to q.
template <class Found>
answer<Found> answer_of(const lookup& q, const Found& f) {
    return {q.who, f};
}

//! bytes_at over look-ups q in text t.
std::vector<answer<next_bytes>> bytes_of(const std::vector<lookup>& q,
                                         const std::vector<std::uint8_t>& t) {
    std::vector<answer<next_bytes>> got;
    materialize(bytes_at(streamify(q), streamify(t), pos_of, answer_of<next_bytes>),
                std::back_inserter(got));
    return got;
}

//! windows_at over look-ups q in text t with windows of w bytes under bases.
std::vector<answer<window_prints>> windows_of(const std::vector<lookup>& q,
                                              const std::vector<std::uint8_t>& t, std::uint64_t w,
                                              std::array<std::uint64_t, 2> bases) {
    std::vector<answer<window_prints>> got;
    materialize(windows_at(streamify(q), streamify(t), streamify(t), w, bases, pos_of,
                           answer_of<window_prints>),
                std::back_inserter(got));
    return got;
}

//! Sorted look-ups into a text of n bytes at positions up to last: each gap drawn from a mix of
//! zero (repeats), small ones (overlaps, rolls) and gaps up to jump.
std::vector<lookup> random_lookups(std::uint64_t last, std::uint64_t jump, std::mt19937_64& rng) {
    std::vector<lookup> q;
    for (std::uint64_t p = rng() % 3; p <= last;) {
        q.push_back({p, q.size()});
        switch (rng() % 4) {
            case 0:
                break;
            case 1:
                p += 1 + rng() % 8;
                break;
            default:
                p += rng() % (jump + 1);
                break;
        }
    }
    return q;
}

//! The fingerprint of t[p, p + w) under base, from its bytes.
std::uint64_t fingerprint_of(const std::vector<std::uint8_t>& t, std::uint64_t p, std::uint64_t w,
                             std::uint64_t base) {
    std::uint64_t g = 0;
    for (std::uint64_t i = p; i < p + w; ++i)
        g = fingerprint::reduce(fingerprint::mul_mod(g, base) + t[i] + 1);
    return g;
}

//! A text over sigma symbols (0xFF among them) of n bytes.
std::vector<std::uint8_t> text_of(std::size_t n, unsigned sigma, std::mt19937_64& rng) {
    std::vector<std::uint8_t> t(n);
    for (auto& c : t) c = std::uint8_t(255 - rng() % sigma);
    return t;
}

}  // namespace

TEST_CASE("text look-ups: bytes at sorted positions, to the end of the text", "[sa][esais]") {
    const auto seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    for (std::size_t n : {0, 1, 31, 32, 33, 5000}) {
        INFO("n = " << n);
        const auto t = text_of(n, 3, rng);
        auto q = random_lookups(n, 100, rng);  // positions up to n: those at n have no bytes
        const auto got = bytes_of(q, t);
        REQUIRE(got.size() == q.size());
        for (std::size_t i = 0; i < q.size(); ++i) {
            const std::uint64_t p = q[i].pos;
            INFO("look-up " << i << " at " << p);
            REQUIRE(got[i].who == q[i].who);
            const std::uint64_t have = std::min<std::uint64_t>(bytes_round, n - p);
            REQUIRE(got[i].found.have == have);
            next_bytes want{};
            for (std::uint64_t k = 0; k < have; ++k)
                want.words[k / 8] |= std::uint64_t(t[p + k]) << (56 - 8 * (k % 8));
            for (std::size_t w = 0; w < bytes_round / 8; ++w)
                CHECK(std::uint64_t(got[i].found.words[w]) == std::uint64_t(want.words[w]));
        }
    }
}

TEST_CASE("text look-ups: what they find packs after a 5-byte index", "[sa][esais]") {
    struct bytes_after {
        emflow::uint40 who;
        next_bytes found;
    };
    struct prints_after {
        emflow::uint40 who;
        window_prints found;
    };
    CHECK(sizeof(bytes_after) == 5 + bytes_round + 1);
    CHECK(sizeof(prints_after) == 5 + 2 * 8);
}

TEST_CASE("text look-ups: common bytes of two answers", "[sa][esais]") {
    const std::vector<std::uint8_t> t = {1, 2, 3, 4, 5, 1, 2, 3, 9, 1, 2, 3, 4, 5};
    const std::vector<lookup> q = {{0, 0}, {5, 1}, {9, 2}, {13, 3}, {14, 4}};
    const auto a = bytes_of(q, t);
    REQUIRE(a.size() == 5);
    CHECK(common_bytes(a[0].found, a[1].found) == 3);  // differ at the fourth byte
    CHECK(common_bytes(a[0].found, a[2].found) == 5);  // the second ends the text
    CHECK(common_bytes(a[1].found, a[1].found) == 9);
    CHECK(common_bytes(a[3].found, a[0].found) == 0);
    CHECK(common_bytes(a[4].found, a[4].found) == 0);  // at the end: no bytes
}

TEST_CASE("text look-ups: a look-up past the end of the text is an error", "[sa][esais]") {
    const std::vector<std::uint8_t> t(100, 7);
    const std::vector<lookup> past = {{3, 0}, {101, 1}};
    CHECK_THROWS_AS(bytes_of(past, t), std::logic_error);
    // 92 + 9 > 100: reached by a jump (a fresh window) and by rolling from 88
    for (const auto& window_past :
         {std::vector<lookup>{{3, 0}, {92, 1}}, std::vector<lookup>{{88, 0}, {92, 1}}}) {
        CHECK_THROWS_AS(windows_of(window_past, t, 9, {1000003, 99991}), std::logic_error);
    }
}

TEST_CASE("text look-ups: window fingerprints rolled and jumped", "[sa][esais]") {
    const auto seed = emflow_test::test_seed();
    std::mt19937_64 rng(seed);
    std::random_device entropy;
    const std::array<std::uint64_t, 2> bases = {fingerprint::random_base(entropy),
                                                fingerprint::random_base(entropy)};
    INFO("bases " << bases[0] << ", " << bases[1]);
    for (std::uint64_t w : {1, 2, 32, 64, 1000}) {
        for (unsigned sigma : {1, 2, 256}) {
            INFO("w = " << w << ", sigma = " << sigma);
            const std::size_t n = 20000;
            const auto t = text_of(n, sigma, rng);
            // gaps up to 3w: rolls (gap <= w) and jumps (gap > w); the last window ends the text
            auto q = random_lookups(n - w, 3 * w, rng);
            q.push_back({n - w, q.size()});
            const auto got = windows_of(q, t, w, bases);
            REQUIRE(got.size() == q.size());
            for (std::size_t i = 0; i < q.size(); ++i) {
                INFO("look-up " << i << " at " << q[i].pos);
                REQUIRE(got[i].who == q[i].who);
                CHECK(std::uint64_t(got[i].found.x) == fingerprint_of(t, q[i].pos, w, bases[0]));
                CHECK(std::uint64_t(got[i].found.y) == fingerprint_of(t, q[i].pos, w, bases[1]));
            }
        }
    }
}

TEST_CASE("chained reader: parts in order, empty ones passed over", "[sa][esais]") {
    emflow_test::configure_test_disks();
    using vec = stxxl::VECTOR_GENERATOR<std::uint64_t>::result;
    vec empty1, a, empty2, empty3, b, empty4;
    for (std::uint64_t x = 0; x < 100000; ++x) a.push_back(x);  // several blocks
    b.push_back(100000);
    b.push_back(100001);
    auto read = [](std::vector<const vec*> parts) {
        std::vector<std::uint64_t> out;
        for (chained_reader<vec> r(std::move(parts)); !r.empty(); ++r) out.push_back(*r);
        return out;
    };
    const auto all = read({&empty1, &a, &empty2, &empty3, &b, &empty4});
    REQUIRE(all.size() == 100002);
    for (std::uint64_t x = 0; x < all.size(); ++x) REQUIRE(all[x] == x);
    CHECK(read({}).empty());
    CHECK(read({&empty1, &empty2}).empty());
    CHECK(read({&b, &empty1}) == std::vector<std::uint64_t>{100000, 100001});
}
