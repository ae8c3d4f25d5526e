// CSV as RFC 4180 writes it, read one record at a time: every CSV Grove reads (points files,
// its own CSV exports) goes through this one reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace grove {

// Where the bytes come from, one at a time (a text in memory, or a stream read as it is parsed).
class CsvInput
{
public:
    virtual ~CsvInput() = default;
    virtual int peek() = 0;  // the next byte, or -1 at the end
    virtual int get() = 0;   // the same, and past it
    // Why the input ended before its end (a size bound, say); "" when it did not.
    virtual std::string stopped() const { return {}; }
};

// A text already in memory.
class CsvText final : public CsvInput
{
public:
    explicit CsvText(std::string_view text) : m_text(text) {}
    int peek() override { return m_at < m_text.size() ? static_cast<unsigned char>(m_text[m_at]) : -1; }
    int get() override { return m_at < m_text.size() ? static_cast<unsigned char>(m_text[m_at++]) : -1; }

private:
    std::string_view m_text;
    std::size_t m_at = 0;
};

// Records of fields separated by commas and ended by LF, CRLF or CR. A field in double quotes
// may hold commas, line breaks (kept as written) and quotes (doubled: "a ""b"""). A UTF-8 byte
// order mark before the first record is skipped. No field may grow past maxFieldBytes: the
// reader stops there with an error, having held no more. Errors say where, as "LINE:COLUMN"
// (1-based, columns in bytes).
class CsvReader
{
public:
    static constexpr std::size_t kMaxFieldBytes = std::size_t(64) << 20;

    explicit CsvReader(CsvInput &input, std::size_t maxFieldBytes = kMaxFieldBytes);

    // The next record's fields (a blank line gives one empty field); false at the end of the
    // input, or on an error (then error() says what and where).
    bool next(std::vector<std::string> &fields);

    // "LINE:COLUMN: what" of the error that stopped the reader (or the input's own reason for
    // stopping, as it gave it); empty when none.
    const std::string &error() const { return m_error; }
    std::uint64_t errorLine() const { return m_errorLine; }
    std::uint64_t errorColumn() const { return m_errorColumn; }
    std::string errorMessage() const { return m_errorMessage; }

    // Where the record next() returned last starts: its line, and "LINE:COLUMN".
    std::uint64_t recordLine() const { return m_recordLine; }
    std::string recordStart() const;

private:
    int get();
    bool fail(std::uint64_t line, std::uint64_t column, const std::string &message);

    CsvInput &m_input;
    std::size_t m_maxFieldBytes;
    bool m_started = false;
    std::uint64_t m_line = 1, m_column = 1;
    bool m_afterCr = false;
    std::uint64_t m_recordLine = 1, m_recordColumn = 1;
    std::string m_error, m_errorMessage;
    std::uint64_t m_errorLine = 0, m_errorColumn = 0;
};

} // namespace grove
