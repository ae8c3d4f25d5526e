#include "core/formats/TextOut.h"

#include "core/base/HugePages.h"
#include "core/base/ParallelFor.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace grove {

TextOut::TextOut(std::string &text, std::size_t expected, const TextSink *sink) : m_text(text), m_sink(sink)
{
    if (sink)  // a piece, and room for the record that passes it
        expected = std::min(expected, 2 * kPiece);
    reserveText(m_text, expected);
}

void reserveText(std::string &text, std::size_t more)
{
    if (text.capacity() - text.size() < more)
        text.reserve(text.size() + more);
    // a big export's text fills hundreds of megabytes it has just reserved
    if (text.capacity() - text.size() >= TextOut::kHugeText)
        adviseHugePages(text.data() + text.size(), text.capacity() - text.size());
}

void formatInPieces(TextOut &out, std::size_t count, int threads, std::size_t bytesEach, const PieceFormat &format)
{
    if (threads <= 0)
        threads = hardwareThreads();
    if (threads == 1 || count < 2 * kFormatPiece) {
        format(out, 0, count);
        return;
    }
    const std::size_t round = 2 * static_cast<std::size_t>(threads);
    // two rounds' texts, kept from round to round (allocated once): while one round is made, the
    // round before it is passed on (into its file) by whichever worker takes the work's item 0
    std::vector<std::string> texts(2 * round);
    std::size_t waiting = 0;  // the pieces of the round before, not yet passed on
    const auto passOn = [&](const std::string *made) {
        for (std::size_t k = 0; k < waiting; ++k)
            out.pass(made[k]);
    };
    for (std::size_t first = 0, r = 0; first < count; first += round * kFormatPiece, ++r) {
        const std::size_t pieces = std::min(round, (count - first + kFormatPiece - 1) / kFormatPiece);
        std::string *now = texts.data() + (r % 2) * round, *before = texts.data() + ((r + 1) % 2) * round;
        parallelFor(pieces + 1, threads, 1, [&](std::size_t item, std::size_t, int) {
            if (item == 0) {
                passOn(before);
                return true;
            }
            const std::size_t k = item - 1, begin = first + k * kFormatPiece, end = std::min(count, begin + kFormatPiece);
            now[k].clear();
            TextOut piece(now[k], (end - begin) * bytesEach);
            format(piece, begin, end);
            return true;
        });
        waiting = pieces;
        if (first + round * kFormatPiece >= count)
            passOn(now);  // the last round
    }
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
