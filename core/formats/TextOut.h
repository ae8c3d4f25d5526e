// The exports' one buffer writer: a record at a time, appended to a string whose room for the
// whole export is reserved up front, or, with a sink, handed to the sink a megabyte at a time (an
// export written straight into its file never holds its whole text). Every text and binary export
// writes through it (JSON, CSV, Tiled, glTF, Godot, Unreal), so none builds a string per number.
#pragma once

#include "core/base/DecimalDigits.h"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

namespace grove {

// Where an export's text goes as it is written, a piece at a time, in order.
using TextSink = std::function<void(std::string_view)>;

// room() gives a scratch buffer for a known most, the writers fill it through a pointer,
// commit() appends what they wrote. The string's capacity is reserved for the expected size up
// front, never zero-filled (a resize would write every byte twice, and a short estimate would
// copy the whole text to grow it). With a sink, the string (all of it, what its owner appended
// before included) goes to the sink and is emptied whenever it passes a megabyte; what is left at
// the end stays in it for its owner to write last.
class TextOut
{
public:
    TextOut(std::string &text, std::size_t expected, const TextSink *sink = nullptr);
    TextOut(const TextOut &) = delete;
    TextOut &operator=(const TextOut &) = delete;

    char *room(std::size_t most)
    {
        if (m_scratch.size() < most)
            m_scratch.resize(most);
        return m_scratch.data();
    }
    void commit(const char *end)
    {
        m_text.append(m_scratch.data(), static_cast<std::size_t>(end - m_scratch.data()));
        if (m_sink && m_text.size() >= kPiece)
            drain();
    }
    void add(std::string_view s)
    {
        m_text.append(s);
        if (m_sink && m_text.size() >= kPiece)
            drain();
    }
    // add() for a text made elsewhere (formatInPieces'): with a sink it goes straight on, after
    // what is waiting, not through the string.
    void pass(std::string_view s)
    {
        if (!m_sink)
            return add(s);
        if (!m_text.empty())
            drain();
        (*m_sink)(s);
    }

    static constexpr std::size_t kPiece = std::size_t(1) << 20;
    static constexpr std::size_t kHugeText = std::size_t(16) << 20;  // room from which the text asks for huge pages

    static char *put(char *p, std::string_view s)
    {
        std::memcpy(p, s.data(), s.size());
        return p + s.size();
    }

private:
    void drain()
    {
        (*m_sink)(m_text);
        m_text.clear();
    }

    std::string &m_text;
    std::string m_scratch;
    const TextSink *m_sink;
};

// Reserves room for `more` bytes after what `text` holds, asking for huge pages from kHugeText
// up (the room is about to be written whole): TextOut's reservation, and the glTF's final buffer.
void reserveText(std::string &text, std::size_t more);

// Writes items [0, count) through `out`: format(piece, begin, end) writes items [begin, end)
// into the TextOut it is handed. On one thread (or a small count) that is `out` itself, in one
// call. On more (0: every core), the items are cut into pieces of kFormatPiece, made a round at
// a time (two pieces a thread) into strings of their own, `bytesEach` reserved an item, and
// passed on in order, each round while the next is made (`out`'s sink is called from one worker
// at a time, never at once): the same bytes for any thread count, and never more than two
// rounds' text held at once.
using PieceFormat = std::function<void(TextOut &piece, std::size_t begin, std::size_t end)>;
inline constexpr std::size_t kFormatPiece = 8192;
void formatInPieces(TextOut &out, std::size_t count, int threads, std::size_t bytesEach, const PieceFormat &format);

// A string literal, its length known at compile time.
template<std::size_t N>
char *lit(char *p, const char (&s)[N])
{
    std::memcpy(p, s, N - 1);
    return p + N - 1;
}

// A whole number in decimal (at most 20 characters).
inline char *whole(char *p, std::uint64_t v) { return decimalDigits(p, v); }

// The most characters floatText writes: a sign, nine digits, a point and an exponent.
inline constexpr std::size_t kMaxFloatChars = 24;

// A float as the shortest text that reads back as the same float; 0 for NaN and infinities
// (what an engine can load), and never "-0".
char *floatText(char *p, float v);

// Four little-endian bytes (glTF's binary chunk).
inline char *littleEndian32(char *p, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        *p++ = static_cast<char>((v >> (8 * i)) & 0xFF);
    return p;
}

} // namespace grove
