// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/sa/detail/esais/chained_reader.hpp: reads external vectors one after the other,
// as one sequence (the S* LCP search's rounds read the pairs still growing, then those that failed
// at a wider window, without copying them into one vector). Empty parts are passed over.
//
//   chained_reader<vec> in({&a, &b});
//   for (; !in.empty(); ++in) use(*in);
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace emflow::pipelines::sa::detail::esais {

//! Reads external vectors one after the other.
template <class Vector>
class chained_reader {
public:
    //! Over parts (non-null, outliving the reader), in order.
    explicit chained_reader(std::vector<const Vector*> parts) : parts_(std::move(parts)) {
        open_next();
    }
    //! Every part read.
    bool empty() const { return !reader_; }
    //! The current element.
    const typename Vector::value_type& operator*() const { return **reader_; }
    //! Advances by one.
    chained_reader& operator++() {
        ++*reader_;
        if (reader_->empty()) open_next();
        return *this;
    }

private:
    void open_next() {
        reader_.reset();
        while (next_ < parts_.size() && parts_[next_]->empty()) ++next_;
        if (next_ < parts_.size()) reader_ = std::make_unique<reader>(*parts_[next_++]);
    }
    using reader = typename Vector::bufreader_type;
    std::vector<const Vector*> parts_;
    std::size_t next_ = 0;
    std::unique_ptr<reader> reader_;
};

}  // namespace emflow::pipelines::sa::detail::esais
