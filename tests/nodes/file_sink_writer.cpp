// SPDX-License-Identifier: BSL-1.0
// tests/nodes/file_sink_writer.cpp: helper of file_kill_test: writes through a file_sink into
// argv[1], says "writing" on stdout once 4 MiB went in, then waits mid-output to be killed.
#include <emflow/flow.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: file_sink_writer OUTPUT\n");
        return 2;
    }
    emflow::file_sink<std::uint64_t> out(argv[1]);
    std::uint64_t i = 0;
    emflow::materialize(emflow::generate(std::uint64_t(1) << 30,
                                         [&i] {
                                             if (++i == (std::uint64_t(1) << 19)) {
                                                 std::printf("writing\n");
                                                 std::fflush(stdout);
                                                 for (;;) ::pause();  // killed here
                                             }
                                             return i;
                                         }),
                        out);
    out.commit();  // never reached
    return 1;
}
