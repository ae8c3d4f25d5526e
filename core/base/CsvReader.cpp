// CsvReader: one record at a time, a byte at a time, counting lines and columns as it goes.
#include "core/base/CsvReader.h"

namespace grove {

CsvReader::CsvReader(CsvInput &input, std::size_t maxFieldBytes) : m_input(input), m_maxFieldBytes(maxFieldBytes) {}

std::string CsvReader::recordStart() const
{
    return std::to_string(m_recordLine) + ":" + std::to_string(m_recordColumn);
}

int CsvReader::get()
{
    const int c = m_input.get();
    if (c < 0)
        return c;
    if (c == '\r' || (c == '\n' && !m_afterCr)) {
        ++m_line;
        m_column = 1;
    } else if (c != '\n') {
        ++m_column;
    }
    m_afterCr = c == '\r';
    return c;
}

bool CsvReader::fail(std::uint64_t line, std::uint64_t column, const std::string &message)
{
    m_errorLine = line;
    m_errorColumn = column;
    m_errorMessage = message;
    m_error = std::to_string(line) + ":" + std::to_string(column) + ": " + message;
    return false;
}

bool CsvReader::next(std::vector<std::string> &fields)
{
    fields.clear();
    if (!m_error.empty())
        return false;
    if (!m_started) {
        m_started = true;
        if (m_input.peek() == 0xEF) {  // a byte order mark, or else the first field's bytes
            std::string bom;
            while (bom.size() < 3 && m_input.peek() >= 0
                   && static_cast<char>(m_input.peek()) == "\xEF\xBB\xBF"[bom.size()])
                bom.push_back(static_cast<char>(m_input.get()));
            if (bom.size() < 3)
                fields.push_back(bom);  // not a mark: the start of the first field
            m_column += bom.size() < 3 ? bom.size() : 0;
        }
    }
    if (m_input.peek() < 0 && fields.empty()) {
        if (const std::string why = m_input.stopped(); !why.empty()) {
            m_error = m_errorMessage = why;
            return false;
        }
        return false;
    }
    m_recordLine = m_line;
    m_recordColumn = fields.empty() ? m_column : 1;
    std::string field = fields.empty() ? std::string() : std::move(fields.back());
    fields.clear();
    std::uint64_t fieldLine = m_recordLine, fieldColumn = m_recordColumn;
    std::uint64_t quoteLine = 0, quoteColumn = 0;
    bool quoted = false;
    const auto tooLong = [&] {
        fields.clear();
        return fail(fieldLine, fieldColumn, "a field longer than " + std::to_string(m_maxFieldBytes >> 20) + " MiB");
    };
    for (;;) {
        const std::uint64_t line = m_line, column = m_column;
        const int c = get();
        if (c < 0)
            break;
        if (quoted) {
            if (c != '"')
                field += static_cast<char>(c);
            else if (m_input.peek() == '"')
                field += static_cast<char>(get());
            else
                quoted = false;
        } else if (c == '"') {
            quoted = true;
            quoteLine = line;
            quoteColumn = column;
        } else if (c == ',') {
            fields.push_back(std::move(field));
            field.clear();
            fieldLine = m_line;
            fieldColumn = m_column;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && m_input.peek() == '\n')
                get();
            fields.push_back(std::move(field));
            return true;
        } else {
            field += static_cast<char>(c);
        }
        if (field.size() > m_maxFieldBytes)
            return tooLong();
    }
    if (const std::string why = m_input.stopped(); !why.empty()) {
        fields.clear();
        m_error = m_errorMessage = why;
        return false;
    }
    if (quoted) {
        fields.clear();
        return fail(quoteLine, quoteColumn, "a quoted field is never closed");
    }
    fields.push_back(std::move(field));
    return true;
}

} // namespace grove
