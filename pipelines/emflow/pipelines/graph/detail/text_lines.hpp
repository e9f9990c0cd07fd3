// SPDX-License-Identifier: BSL-1.0
// emflow/pipelines/graph/detail/text_lines.hpp: reads a text file line by line with line
// numbers, and parses unsigned fields with errors that name file and line.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

namespace emflow::pipelines::graph::detail {

//! The lines of a text file.
class text_lines {
public:
    //! Opens path; throws std::system_error naming it.
    explicit text_lines(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "r")) {
        if (!f_) throw std::system_error(errno, std::generic_category(), path);
    }
    ~text_lines() { std::fclose(f_); }
    text_lines(const text_lines&) = delete;
    text_lines& operator=(const text_lines&) = delete;

    //! Reads the next line into line() (without its end); false at the end of the file.
    bool next() {
        line_.clear();
        int c;
        bool any = false;
        while ((c = std::getc(f_)) != EOF) {
            any = true;
            if (c == '\n') break;
            line_.push_back(char(c));
        }
        if (std::ferror(f_)) throw std::system_error(errno, std::generic_category(), path_);
        if (!line_.empty() && line_.back() == '\r') line_.pop_back();
        if (any) ++number_;
        return any;
    }
    //! The current line.
    const std::string& line() const { return line_; }
    //! An error naming file and line: "path:line: what".
    std::runtime_error error(const std::string& what) const {
        return std::runtime_error(path_ + ":" + std::to_string(number_) + ": " + what);
    }

private:
    std::string path_;
    std::FILE* f_;
    std::string line_;
    std::uint64_t number_ = 0;
};

//! Splits a line into whitespace-separated fields and parses them.
class fields {
public:
    //! The fields of lines.line().
    explicit fields(const text_lines& lines) : lines_(lines), p_(lines.line().c_str()) {}
    //! True if no field is left.
    bool done() {
        skip();
        return *p_ == 0;
    }
    //! The next field as a string; an error if there is none.
    std::string word(const char* what) {
        skip();
        if (!*p_) throw lines_.error(std::string("missing ") + what);
        const char* b = p_;
        while (*p_ && *p_ != ' ' && *p_ != '\t') ++p_;
        return std::string(b, p_);
    }
    //! The next field as an unsigned integer at most max; errors name what.
    std::uint64_t number(const char* what, std::uint64_t max) {
        std::string w = word(what);
        if (w[0] == '-') throw lines_.error(std::string("negative ") + what + " '" + w + "'");
        errno = 0;
        char* end = nullptr;
        unsigned long long x = std::strtoull(w.c_str(), &end, 10);
        if (*end || w.empty())
            throw lines_.error(std::string("malformed ") + what + " '" + w + "'");
        if (errno == ERANGE || x > max)
            throw lines_.error(std::string(what) + " '" + w + "' too large (at most " +
                               std::to_string(max) + ")");
        return x;
    }
    //! The next field as a double.
    double real(const char* what) {
        std::string w = word(what);
        char* end = nullptr;
        double x = std::strtod(w.c_str(), &end);
        if (*end) throw lines_.error(std::string("malformed ") + what + " '" + w + "'");
        return x;
    }
    //! Throws unless every field was read.
    void expect_end() {
        if (!done()) throw lines_.error("unexpected extra field '" + word("field") + "'");
    }

private:
    void skip() {
        while (*p_ == ' ' || *p_ == '\t') ++p_;
    }
    const text_lines& lines_;
    const char* p_;
};

}  // namespace emflow::pipelines::graph::detail
