// SPDX-License-Identifier: BSL-1.0
// tests/nodes/file_misuse_test.cpp: misuse of file_sink that would lose its output is loud: a
// complete output destroyed without commit() is reported on stderr (and nothing else is), and
// materialize() into a temporary file_sink does not compile (detected here by SFINAE).
#include <catch2/catch.hpp>

#include <emflow/flow.hpp>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_env.hpp"

using namespace emflow;

namespace {

using source = decltype(streamify(std::declval<const std::vector<std::uint32_t>&>()));

//! True if materialize(source, Sink) compiles (Sink as the argument's type: T& or T).
template <class Sink, class = void>
struct materializable : std::false_type {};
template <class Sink>
struct materializable<
    Sink, std::void_t<decltype(materialize(std::declval<source&>(), std::declval<Sink>()))>>
    : std::true_type {};

//! A push sink that needs no commit: a temporary one is fine.
struct counting_sink {
    using value_type = std::uint32_t;
    std::size_t* count;
    void start(run_context&) {}
    void push_batch(const std::uint32_t*, std::size_t n) { *count += n; }
    void push_stop() {}
};

static_assert(!materializable<file_sink<std::uint32_t>>::value,
              "a temporary file_sink could never be committed");
static_assert(materializable<file_sink<std::uint32_t>&>::value);
static_assert(materializable<counting_sink>::value);

//! What a scope writes to std::cerr.
class captured_cerr {
public:
    captured_cerr() : old_(std::cerr.rdbuf(text_.rdbuf())) {}
    ~captured_cerr() { std::cerr.rdbuf(old_); }
    std::string text() const { return text_.str(); }

private:
    std::ostringstream text_;
    std::streambuf* old_;
};

}  // namespace

TEST_CASE("file_sink: a complete output destroyed without commit is reported", "[nodes]") {
    emflow_test::configure_test_disks();
    emflow_test::scoped_test_dir dir;
    const std::string path = (dir.path() / "out.bin").string();
    const std::vector<std::uint32_t> v(5000, 3);
    captured_cerr err;
    { file_sink<std::uint32_t> out(path); }  // no data: nothing to lose
    CHECK(err.text().empty());
    {
        file_sink<std::uint32_t> out(path);
        materialize(streamify(v), out);
    }
    CHECK(err.text().find("'" + path + "' destroyed without commit()") != std::string::npos);
    CHECK(err.text().find("5000 elements") != std::string::npos);
    CHECK(dir.entries() == 0);
}

TEST_CASE("file_sink: committed, discarded, failed or unwound sinks are not reported", "[nodes]") {
    emflow_test::configure_test_disks();
    emflow_test::scoped_test_dir dir;
    const std::string path = (dir.path() / "out.bin").string();
    const std::vector<std::uint32_t> v(5000, 3);
    captured_cerr err;
    {
        file_sink<std::uint32_t> out(path);
        materialize(streamify(v), out);
        out.commit();
    }
    {
        file_sink<std::uint32_t> out(path + ".dropped");
        materialize(streamify(v), out);
        out.discard();
    }
    {
        file_sink<std::uint32_t> out(path + ".failed");  // the run failed: its exception tells
        CHECK_THROWS_AS(materialize(streamify(v) | transform([](std::uint32_t x) -> std::uint32_t {
                                        throw std::runtime_error("producer failed");
                                        return x;
                                    }),
                                    out),
                        std::runtime_error);
    }
    try {
        file_sink<std::uint32_t> out(path + ".unwound");
        materialize(streamify(v), out);
        throw std::runtime_error("after the run, before commit");  // destroyed while unwinding
    } catch (const std::runtime_error&) {
    }
    CHECK(err.text().empty());
    CHECK(dir.entries() == 1);  // out.bin only
}
