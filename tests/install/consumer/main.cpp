// A program outside the emflow tree, built against an installed emflow.
#include <emflow/external_memory.hpp>
#include <stxxl/vector>

#include <iostream>

int main() {
    emflow::configure_external_memory();
    stxxl::VECTOR_GENERATOR<int>::result v;
    for (int i = 0; i < 1000000; ++i) v.push_back(i);
    long long sum = 0;
    for (auto it = v.cbegin(); it != v.cend(); ++it) sum += *it;
    const bool ok = sum == 999999LL * 1000000LL / 2;
    std::cout << "consumer: sum " << sum << (ok ? " ok" : " WRONG") << "\n";
    return ok ? 0 : 1;
}
