// SPDX-License-Identifier: BSL-1.0
// Tests of emflow/algorithm/cooperative_section.hpp: turns exclude each other, a thread waiting for
// its turn runs iterations of the running turn's loop, exceptions reach the turn's owner.
#include <emflow/algorithm/cooperative_section.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

using emflow::algorithm::cooperative_section;

namespace {

//! Spreads a loop over the calling thread only.
const auto caller_only = [](auto&& claim) { claim(); };

}  // namespace

TEST_CASE("cooperative_section: turns exclude each other, loops run every iteration once",
          "[cooperative_section]") {
    cooperative_section s;
    long counter = 0;  // not atomic: only turns touch it
    std::vector<std::atomic<int>> hits(64);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int r = 0; r < 200; ++r)
                s.run([&] {
                    const long before = counter;
                    s.for_each(
                        hits.size(), [&](std::size_t i) { ++hits[i]; }, caller_only);
                    counter = before + 1;
                });
        });
    for (auto& t : threads) t.join();
    CHECK(counter == 800);
    for (auto& h : hits) CHECK(h.load() == 800);
}

TEST_CASE(
    "cooperative_section: a thread waiting for its turn runs the running turn's "
    "iterations",
    "[cooperative_section]") {
    cooperative_section s;
    std::mutex m;
    std::condition_variable cv;
    bool turn_started = false, helper_ran = false;
    std::thread::id owner_id;
    std::thread owner([&] {
        owner_id = std::this_thread::get_id();
        s.run([&] {
            {
                std::lock_guard<std::mutex> lock(m);
                turn_started = true;
            }
            cv.notify_all();
            // Iteration 0 (the owner's) waits until another thread ran iteration 1; without
            // helping nobody would, so give up after a while instead of hanging.
            s.for_each(
                2,
                [&](std::size_t i) {
                    std::unique_lock<std::mutex> lock(m);
                    if (std::this_thread::get_id() != owner_id) {
                        helper_ran = true;
                        cv.notify_all();
                    } else if (i == 0) {
                        cv.wait_for(lock, std::chrono::seconds(60), [&] { return helper_ran; });
                    }
                },
                caller_only);
        });
    });
    {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return turn_started; });
    }
    bool own_turn = false;
    std::thread helper([&] { s.run([&] { own_turn = true; }); });
    owner.join();
    helper.join();
    CHECK(helper_ran);
    CHECK(own_turn);
}

TEST_CASE("cooperative_section: exceptions reach the turn's owner, the section stays usable",
          "[cooperative_section]") {
    cooperative_section s;
    CHECK_THROWS_WITH(s.run([] { throw std::runtime_error("in the turn"); }), "in the turn");
    std::atomic<int> ran{0};
    CHECK_THROWS_WITH(s.run([&] {
        s.for_each(
            16,
            [&](std::size_t i) {
                ++ran;
                if (i == 3) throw std::runtime_error("in an iteration");
            },
            caller_only);
    }),
                      "in an iteration");
    CHECK(ran.load() == 16);  // the other iterations still ran
    bool again = false;
    s.run([&] { again = true; });
    CHECK(again);
}

TEST_CASE("cooperative_section: a loop outside a turn runs on the caller",
          "[cooperative_section]") {
    cooperative_section s;
    std::vector<int> hits(10, 0);
    s.for_each(
        hits.size(), [&](std::size_t i) { ++hits[i]; }, caller_only);
    for (int h : hits) CHECK(h == 1);
}
