// SPDX-License-Identifier: BSL-1.0
// Tests of emflow/algorithm/background_tasks.hpp: slots bound the tasks, wait() runs them all, the
// first exception is kept and reported.
#include <emflow/algorithm/background_tasks.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>

using emflow::algorithm::background_tasks;

TEST_CASE("background_tasks: slots bound the running tasks and are freed when tasks end",
          "[background_tasks]") {
    background_tasks tasks;
    CHECK_FALSE(tasks.opened());
    tasks.open(2);
    CHECK(tasks.opened());
    std::atomic<int> ran{0};
    REQUIRE(tasks.take_slot());
    REQUIRE(tasks.take_slot());
    CHECK_FALSE(tasks.take_slot());  // both taken, no task has ended
    for (int i = 0; i < 2; ++i) tasks.run([&] { ++ran; }, [] {});
    tasks.wait();
    CHECK(ran.load() == 2);
    CHECK(tasks.take_slot());  // freed again
    tasks.run([&] { ++ran; }, [] {});
    tasks.wait();
    CHECK(ran.load() == 3);
    CHECK(tasks.error() == nullptr);
    tasks.close();
    CHECK_FALSE(tasks.opened());
    CHECK_FALSE(tasks.take_slot());
}

TEST_CASE("background_tasks: the first exception is kept, the failure callback runs",
          "[background_tasks]") {
    background_tasks tasks;
    tasks.open(3);
    std::atomic<int> failures{0};
    for (int i = 0; i < 3; ++i) {
        REQUIRE(tasks.take_slot());
        tasks.run([] { throw std::runtime_error("task failed"); }, [&] { ++failures; });
    }
    tasks.wait();
    CHECK(failures.load() == 3);
    REQUIRE(tasks.error() != nullptr);
    CHECK_THROWS_WITH(std::rethrow_exception(tasks.take_error()), "task failed");
    CHECK(tasks.error() == nullptr);
    CHECK(tasks.take_slot());  // slots of failed tasks are freed too
}
