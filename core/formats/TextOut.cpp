#include "core/formats/TextOut.h"

#include "core/base/HugePages.h"

#include <algorithm>
#include <cmath>

namespace grove {

TextOut::TextOut(std::string &text, std::size_t expected, const TextSink *sink) : m_text(text), m_sink(sink)
{
    if (sink)  // a piece, and room for the record that passes it
        expected = std::min(expected, 2 * kPiece);
    if (m_text.capacity() - m_text.size() < expected)
        m_text.reserve(m_text.size() + expected);
    // a big export's text fills hundreds of megabytes it has just reserved
    if (m_text.capacity() - m_text.size() >= kHugeText)
        adviseHugePages(m_text.data() + m_text.size(), m_text.capacity() - m_text.size());
}

char *floatText(char *p, float v)
{
    if (!std::isfinite(v) || v == 0)
        return lit(p, "0");  // no "nan", "inf" or "-0"
    // A whole number below 10^4 is its digits: to_chars's shortest form, since its scientific
    // form is never shorter there. Engines' transforms are mostly 0 and 1 (no rotation, scale 1),
    // and these take a tenth of to_chars's time.
    if (std::fabs(v) < 10000 && v == std::trunc(v)) {
        if (v < 0)
            *p++ = '-';
        return whole(p, static_cast<std::uint64_t>(std::fabs(v)));
    }
    return std::to_chars(p, p + kMaxFloatChars, v).ptr;
}

} // namespace grove
