// SPDX-License-Identifier: BSL-1.0
// The verifier behind every benchmark run: it must reject wrong order, lost, duplicated, foreign
// and corrupted items, and accept exactly the pushed multiset in pop order.
#include "verifier.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace pq_bench;

namespace {

key_checksum checksum_of(const std::vector<std::uint64_t>& keys) {
    key_checksum c;
    for (std::uint64_t k : keys) c.add(k);
    return c;
}

template <class T>
void pop_all(pop_verifier& v, const std::vector<std::uint64_t>& keys) {
    for (std::uint64_t k : keys) v.accept(make_item<T>(k));
}

}  // namespace

TEST_CASE("pop_verifier accepts the pushed keys in ascending order, duplicates included") {
    pop_verifier v;
    pop_all<item_24>(v, {1, 2, 2, 7, 9});
    CHECK_NOTHROW(v.finish(checksum_of({9, 2, 7, 1, 2})));
    CHECK(v.count() == 5);
}

TEST_CASE("pop_verifier rejects a key smaller than its predecessor") {
    pop_verifier v;
    v.accept(make_item<item_8>(5));
    CHECK_THROWS_AS(v.accept(make_item<item_8>(4)), verification_error);
}

TEST_CASE("pop_verifier rejects a lost, a duplicated and a foreign item") {
    const key_checksum pushed = checksum_of({1, 2, 3, 4});
    pop_verifier lost, duplicated, foreign;
    pop_all<item_8>(lost, {1, 2, 4});
    pop_all<item_8>(duplicated, {1, 2, 2, 3, 4});
    pop_all<item_8>(foreign, {1, 2, 3, 5});
    CHECK_THROWS_AS(lost.finish(pushed), verification_error);
    CHECK_THROWS_AS(duplicated.finish(pushed), verification_error);
    CHECK_THROWS_AS(foreign.finish(pushed), verification_error);
}

TEST_CASE("pop_verifier rejects a swapped pair of duplicates' partners: same count, other keys") {
    pop_verifier v;
    pop_all<item_8>(v, {1, 1, 4, 4});
    CHECK_THROWS_AS(v.finish(checksum_of({1, 2, 3, 4})), verification_error);
}

TEST_CASE("pop_verifier rejects a corrupted payload") {
    pop_verifier v;
    item_24 it = make_item<item_24>(42);
    it.payload[1] ^= 1;
    CHECK_THROWS_AS(v.accept(it), verification_error);
}

TEST_CASE("key_sequence is ascending from min_key or random within the key range") {
    const key_sequence asc{false, 7};
    CHECK(asc(0) == min_key);
    CHECK(asc(41) == min_key + 41);
    const key_sequence rnd{true, 7};
    for (std::uint64_t i = 0; i < 1000; ++i) {
        CHECK(rnd(i) >= min_key);
        CHECK(rnd(i) <= max_key);
    }
    CHECK(rnd(3) != key_sequence{true, 8}(3));
}
