// Numbers as text in every locale (core/base/NumberText.h), and the powers whose bits Grove owns
// (core/math/ExactPower.h). The German-locale cases set de_DE.UTF-8 themselves (skipped where it is
// not generated; tests/run.sh generates it) as the editor's QApplication adopts a designer's.
#include "TestSupport.h"

#include "core/math/ExactHypot.h"
#include "core/math/ExactPower.h"
#include "core/math/ExactTrig.h"
#include "core/formats/TextOut.h"
#include "core/graph/Expectation.h"
#include "core/base/NumberText.h"
#include "core/base/ShortestDigits.h"
#include "core/base/TextEscape.h"
#include "core/formats/PointsFile.h"

#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string_view>
#include <vector>

using namespace grove;
using namespace grove::test;

namespace {

// Switches the C locale (strtod's, printf's) to German for one test, and back.
class GermanLocale
{
public:
    GermanLocale() : m_old(std::setlocale(LC_ALL, nullptr)) { m_ok = std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr; }
    ~GermanLocale() { std::setlocale(LC_ALL, m_old.c_str()); }
    bool ok() const { return m_ok && std::strcmp(std::localeconv()->decimal_point, ",") == 0; }

private:
    std::string m_old;
    bool m_ok = false;
};

double ulpsApart(double a, long double want)
{
    const double w = static_cast<double>(want);
    if (a == w)
        return 0;
    return static_cast<double>(std::fabs(static_cast<long double>(a) - want)) / (std::nextafter(std::fabs(w), HUGE_VAL) - std::fabs(w));
}

// The Taylor series of unitVector summed to its full 30 terms, as written before it learned to
// stop early: the bits every earlier Grove gave (the fast method's directions, engines' rotations).
std::pair<double, double> fullSeries(double t)
{
    const double turns8 = t * 8;
    const int octant = static_cast<int>(std::floor(turns8 + 0.5)) & 7;
    const double x = (turns8 - std::floor(turns8 + 0.5)) * 0.78539816339744830962;
    double c = 0, s = 0, term = 1;
    for (int n = 0; n < 30; ++n) {
        if (n % 2 == 0)
            c = (n & 2) ? c - term : c + term;
        else
            s = (n & 2) ? s - term : s + term;
        term = term * x / (n + 1);
    }
    const double h = 0.70710678118654752440;
    const double rotated[8][2] = {{c, s}, {(c - s) * h, (c + s) * h}, {-s, c}, {(-c - s) * h, (c - s) * h},
                                  {-c, -s}, {(s - c) * h, (-c - s) * h}, {s, -c}, {(c + s) * h, (s - c) * h}};
    return {rotated[octant][0], rotated[octant][1]};
}

bool sameBits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

} // namespace

class TestNumbers : public QObject
{
    Q_OBJECT

private slots:
    void parseTakesTheGraphsNotationOnly_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<double>("value");
        QTest::newRow("0.98") << "0.98" << true << 0.98;
        QTest::newRow(".5") << ".5" << true << 0.5;
        QTest::newRow("5.") << "5." << true << 5.0;
        QTest::newRow("-1e-3") << "-1e-3" << true << -1e-3;
        QTest::newRow("+2E+2") << "+2E+2" << true << 200.0;
        QTest::newRow(".inf") << ".inf" << true << std::numeric_limits<double>::infinity();
        QTest::newRow("1e999") << "1e999" << true << std::numeric_limits<double>::infinity();
        QTest::newRow("0,98") << "0,98" << false << 0.0;
        QTest::newRow("1.234,5") << "1.234,5" << false << 0.0;
        QTest::newRow("space") << " 1" << false << 0.0;
        QTest::newRow("hex") << "0x10" << false << 0.0;
        QTest::newRow("inf") << "inf" << false << 0.0;
        QTest::newRow("empty") << "" << false << 0.0;
        QTest::newRow("e5") << "e5" << false << 0.0;
    }
    void parseTakesTheGraphsNotationOnly()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(double, value);
        double v = 0;
        QCOMPARE(parseNumber(text.toStdString(), v), ok);
        if (ok)
            QCOMPARE(v, value);
    }

    void printedNumbersReadBackExactly()
    {
        for (double v : {0.1, 0.98, 1e-7, 123456789.125, 5e-324, 1.7976931348623157e308, -2.5e21}) {
            double back = 0;
            QVERIFY(parseNumber(formatNumber(v), back));
            QCOMPARE(std::bit_cast<std::uint64_t>(back), std::bit_cast<std::uint64_t>(v));
        }
        QCOMPARE(formatFixed(0.98, 2), std::string("0.98"));
        QCOMPARE(formatFixed(2.0 / 3, 4), std::string("0.6667"));
        QCOMPARE(formatFixed(1234567.5, 0), std::string("1234568"));
        QCOMPARE(formatFixed(-std::numeric_limits<double>::infinity(), 2), std::string("-inf"));
    }

    // What a designer in Germany met: the valley preset's expectations refused, its layers not run.
    void germanLocaleReadsAndWritesTheSameNumbers()
    {
        GermanLocale german;
        if (!german.ok())
            QSKIP("the de_DE.UTF-8 locale is not generated here (tests/run.sh runs locale-gen for it)");
        std::string error;
        const auto e = parseExpectation("coverage >= 0.98", &error);
        QVERIFY2(e, error.c_str());
        QCOMPARE(e->value, 0.98);
        QCOMPARE(formatFixed(0.98, 2), std::string("0.98"));
        QCOMPARE(formatNumber(1234.5), std::string("1234.5"));
        double v = 0;
        QVERIFY(!parseNumber("0,98", v));

        const LoadResult valley = loadGraphFile(sourceDir() + "/presets/valley.grove.yaml", registry());
        QCOMPARE(QString::fromStdString(formatAll(valley.diagnostics)), QString());

        QTemporaryDir dir;
        const std::string csv = dir.filePath("points.csv").toStdString();
        writeFile(csv, "x,y,r\n12.5,3.25,1.5\n");
        PointsFileOptions options;
        const PointsLoad points = loadPointsFile(csv, options);
        QVERIFY2(points.ok(), points.error.c_str());
        QCOMPARE(points.points.size(), size_t(1));
        QCOMPARE(points.points[0].x, 12.5);
        QCOMPARE(points.points[0].y, 3.25);
        QCOMPARE(points.points[0].r, 1.5);
    }

    // radial_falloff's and math's fractional powers: Grove's own operations, near the true value,
    // and these exact bits (a change here moves island_world's and island_groups' points)
    void fractionalPowersAreGrovesOwnBits()
    {
        double worst = 0;
        for (int i = 1; i <= 4000; ++i) {
            const double t = i / 4001.0;
            for (double e : {1.2, 0.5, 2.75, 7.3, 0.01, 999.5}) {
                const long double want = std::pow(static_cast<long double>(t), static_cast<long double>(e));
                // the error grows with |e ln t| (ln's few ulp times e, then e^y's few ulp)
                const double scale = 1 + std::fabs(e * std::log(t));
                if (want > 1e-300L)
                    worst = std::max(worst, ulpsApart(exactPower(t, e), want) / scale);
            }
        }
        QVERIFY2(worst <= 4, qPrintable(QString("%1 ulp per unit of |e ln t| from powl").arg(worst)));
        QCOMPARE(exactPower(0.5, 1.2), 0.43527528164806206);
        QCOMPARE(std::bit_cast<std::uint64_t>(exactPower(0.3, 1.2)), std::bit_cast<std::uint64_t>(0.23580092567898681));
        QCOMPARE(exactExp(1.0), 2.7182818284590455);  // e, one ulp above
        // whole exponents stay repeated squaring; the special values are C's
        QCOMPARE(exactPower(3, 4), 81.0);
        QCOMPARE(exactPower(-2, 3), -8.0);
        QCOMPARE(exactPower(0, 0.5), 0.0);
        QCOMPARE(exactPower(0, -0.5), std::numeric_limits<double>::infinity());
        QVERIFY(std::isnan(exactPower(-2, 0.5)));
        QCOMPARE(exactPower(1, std::numeric_limits<double>::quiet_NaN()), 1.0);
        QCOMPARE(exactPower(0.5, std::numeric_limits<double>::infinity()), 0.0);
        QCOMPARE(exactPower(-2, 1025), -std::numeric_limits<double>::infinity());
        QCOMPARE(exactPower(std::numeric_limits<double>::infinity(), 0.5), std::numeric_limits<double>::infinity());
    }
    // a row's powers four at a time (radial_falloff's rows): each exactPower's bits, whatever a
    // block of four holds (0, 1, negatives, subnormals, infinities, NaN beside ordinary bases)
    void powersFourAtATimeAreExactPowersBits()
    {
        std::mt19937_64 random(11);
        std::uniform_real_distribution<double> unit(0, 1);
        const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
        const double odd[] = {0.0, 1.0, -0.75, 3e-310, inf, nan, 1e300, 5e-324};
        int blocksInLanes = 0;
        for (int round = 0; round < 20000; ++round) {
            const double exponents[] = {1.2, 0.5, 7.3, -2.5, 2.0, 999.5, inf, nan, unit(random) * 6 - 1};
            const double e = exponents[round % 9];
            double base[23], out[23];
            for (double &b : base)
                b = random() % 6 == 0 ? odd[random() % 8] : unit(random) * (round % 2 ? 1 : 50);
            exactPowers(base, e, out, 23);
            for (int i = 0; i < 23; ++i)
                QVERIFY2(std::bit_cast<std::uint64_t>(out[i]) == std::bit_cast<std::uint64_t>(exactPower(base[i], e))
                             || (std::isnan(out[i]) && std::isnan(exactPower(base[i], e))),
                         qPrintable(QString("%1 ^ %2").arg(base[i], 0, 'g', 17).arg(e, 0, 'g', 17)));
            // the blocks of four that go through the lanes: a fractional exponent, and four
            // positive finite bases other than 1
            const auto inLanes = [](double b) { return b > 0 && std::isfinite(b) && b != 1; };
            if (std::isfinite(e) && e != std::floor(e))
                for (int i = 0; i + 4 <= 23; i += 4)
                    blocksInLanes += inLanes(base[i]) && inLanes(base[i + 1]) && inLanes(base[i + 2])
                                     && inLanes(base[i + 3]);
        }
        QVERIFY2(blocksInLanes > 30000, qPrintable(QString::number(blocksInLanes)));  // of 100,000: about 43,000
    }
    // cos and sin from Grove's own series: the same bits as the full 30 terms for any angle
    // (near octant edges, tiny and zero angles too), and within 2^-51 of libm's
    void trigStopsEarlyWithTheSameBits()
    {
        std::mt19937_64 random(7);
        std::vector<double> turns = {0.0, -0.0, 0.5, 0.25, 1.0 / 3, 0.999999999999};
        for (int k = 0; k <= 8; ++k)
            for (int e = 1; e < 1075; e += 7) {
                turns.push_back(k / 8.0 + std::ldexp(1.0, -e));
                turns.push_back(k / 8.0 - std::ldexp(1.0, -e));
            }
        for (int i = 0; i < 200000; ++i)
            turns.push_back(std::ldexp(static_cast<double>(random() >> 11), -53 - static_cast<int>(random() % 4 == 0 ? random() % 900 : 0)));
        int differ = 0;
        double worst = 0;
        for (double t : turns) {
            const auto [c, s] = unitVector(t);
            const auto [wantC, wantS] = fullSeries(t);
            if (!sameBits(c, wantC) || !sameBits(s, wantS))
                ++differ;
            if (t >= 0 && t < 1) {
                const long double a = 2 * 3.14159265358979323846264338327950288L * t;
                worst = std::max({worst, static_cast<double>(std::fabs(c - std::cos(a))),
                                  static_cast<double>(std::fabs(s - std::sin(a)))});
            }
        }
        QCOMPARE(differ, 0);
        QVERIFY2(worst <= 0x1p-51, qPrintable(QString("%1 from libm's long double cos and sin").arg(worst)));
        QVERIFY(sameBits(unitVector(0).second, 0.0));  // +0, not -0
        QCOMPARE(unitVectorDegrees(90).second, 1.0);
    }

    // The digits every export's numbers are written with (core/base/ShortestDigits.h) against
    // another implementation's: std::to_chars' shortest scientific form (the standard library's
    // Ryu), on random bit patterns of every exponent, subnormals, and each power of two with its
    // neighbours (where the rounding interval is lopsided). A wrong table entry, bound or tie
    // rule shows as a different digit string here.
    void shortestDigitsAreTheStandardLibrarys()
    {
        auto viaToChars = [](double v) {
            char sci[40];
            const char *const end = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific).ptr;
            const char *p = sci;
            std::uint64_t digits = static_cast<std::uint64_t>(*p++ - '0');
            int fractionDigits = 0;
            if (*p == '.')
                for (++p; *p != 'e'; ++p, ++fractionDigits)
                    digits = digits * 10 + static_cast<std::uint64_t>(*p - '0');
            int exponent = 0;
            std::from_chars(p + 1 + (p[1] == '+'), end, exponent);
            return std::pair{digits, exponent - fractionDigits};
        };
        std::vector<double> values;  // each checked below; the first difference fails the test
        std::mt19937_64 random(11);
        for (int i = 0; i < 400000; ++i) {
            std::uint64_t bits = random() & ~(std::uint64_t(1) << 63);
            if (i % 2)  // an exponent from the whole range, subnormals included, at equal odds
                bits = (bits & ((std::uint64_t(1) << 52) - 1)) | (random() % 2047) << 52;
            const double v = std::bit_cast<double>(bits);
            if (std::isfinite(v) && v > 0)
                values.push_back(v);
        }
        for (int e = -1074; e <= 1023; ++e)
            for (int step = -2; step <= 2; ++step) {
                const double v = std::bit_cast<double>(std::bit_cast<std::uint64_t>(std::ldexp(1.0, e)) + static_cast<std::uint64_t>(step));
                if (std::isfinite(v) && v > 0)
                    values.push_back(v);
            }
        values.insert(values.end(), {1e-6, 1e21, 0.1, 0.3, 5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, 9007199254740993.0});
        for (const double v : values) {
            const ShortestDigits got = shortestDigits(v);
            const auto [digits, exponent] = viaToChars(v);
            if (got.digits != digits || got.exponent != exponent)
                QFAIL(qPrintable(QString("%1: %2e%3, std::to_chars %4e%5").arg(v, 0, 'g', 17).arg(got.digits)
                                     .arg(got.exponent).arg(digits).arg(exponent)));
        }
        // and as writeNumber lays them out, JavaScript's way
        QCOMPARE(formatNumber(0.1 + 0.2), std::string("0.30000000000000004"));
        QCOMPARE(formatNumber(-1e-7), std::string("-1e-7"));
        QCOMPARE(formatNumber(0.000001), std::string("0.000001"));
        QCOMPARE(formatNumber(1.5e21), std::string("1.5e+21"));
        QCOMPARE(formatNumber(123456789012345680000.0), std::string("123456789012345680000"));
        QCOMPARE(formatNumber(5e-324), std::string("5e-324"));
    }

    // Every layout writeNumber makes (writeNumber is what the exports write each number with),
    // against ECMAScript's Number::toString steps written out here from std::to_chars's shortest
    // digits: coordinates of every size, fractions, whole numbers, and random bits, each sign.
    // writeNumber may write scratch bytes past its text, never past kMaxNumberChars.
    void numbersAreLaidOutAsJavaScriptDoes()
    {
        const auto javaScript = [](double v) {
            std::string out = v < 0 ? "-" : "";
            char sci[40];
            char *end = std::to_chars(sci, sci + sizeof sci, std::fabs(v), std::chars_format::scientific).ptr;
            const std::string text(sci, static_cast<std::size_t>(end - sci));
            const std::size_t e = text.find('e');
            std::string digits = text.substr(0, 1) + (text[1] == '.' ? text.substr(2, e - 2) : "");
            const int n = std::stoi(text.substr(e + 1)) + 1;  // v = 0.digits x 10^n
            const int k = static_cast<int>(digits.size());
            if (k <= n && n <= 21)
                return out + digits + std::string(static_cast<std::size_t>(n - k), '0');
            if (0 < n && n <= 21)
                return out + digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(static_cast<std::size_t>(n));
            if (-6 < n && n <= 0)
                return out + "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
            const int exponent = n - 1;
            return out + digits.substr(0, 1) + (k > 1 ? "." + digits.substr(1) : "") + "e" + (exponent >= 0 ? "+" : "-")
                   + std::to_string(std::abs(exponent));
        };
        std::vector<double> values;
        std::mt19937_64 random(5);
        std::uniform_real_distribution<double> unit(0, 1);
        for (int i = 0; i < 200000; ++i) {
            values.push_back(unit(random) * std::pow(10.0, static_cast<int>(random() % 40) - 20));  // 1e-20 to 1e20
            values.push_back(std::floor(unit(random) * 16384) + std::floor(unit(random) * 1000) / 1000);  // x.yyy
            values.push_back(std::bit_cast<double>(random() & ~(std::uint64_t(1) << 63)));
        }
        for (double p = 1e-7; p < 1e22; p *= 10)
            values.insert(values.end(), {p, p * 1.5, p * 0.999999999999, std::nextafter(p, 0.0), std::nextafter(p, HUGE_VAL)});
        for (const double v : values)
            for (const double signed_ : {v, -v}) {
                if (!std::isfinite(signed_) || signed_ == 0)
                    continue;
                char buf[kMaxNumberChars + 8];
                std::memset(buf, '#', sizeof buf);
                const std::string got(buf, static_cast<std::size_t>(writeNumber(buf, signed_) - buf));
                const std::string want = javaScript(signed_);
                if (got != want || std::string_view(buf + kMaxNumberChars, 8) != "########")
                    QFAIL(qPrintable(QString("%1: wrote %2, JavaScript writes %3").arg(signed_, 0, 'g', 17)
                                         .arg(QString::fromStdString(got)).arg(QString::fromStdString(want))));
            }
    }

    // The exports' whole numbers (ids, counts, the digits of every coordinate) are written eight
    // digits at a time (core/base/DecimalDigits.h): std::to_chars's text for every length.
    void wholeNumbersAreToCharsText()
    {
        std::vector<std::uint64_t> values;
        for (std::uint64_t v = 0; v < 1000000; ++v)
            values.push_back(v);
        std::uint64_t power = 1;
        for (int i = 0; i < 20; ++i, power *= 10)
            for (const std::uint64_t v : {power - 1, power, power + 1, 2 * power - 1, power + power / 2})
                values.push_back(v);
        values.push_back(std::numeric_limits<std::uint64_t>::max());
        std::mt19937_64 random(5);
        for (int i = 0; i < 1000000; ++i)  // every bit width at equal odds
            values.push_back(random() >> (random() % 64));
        for (const std::uint64_t v : values) {
            char got[24], want[24];
            const std::string_view ours(got, static_cast<std::size_t>(whole(got, v) - got));
            const std::string_view theirs(want, static_cast<std::size_t>(std::to_chars(want, want + sizeof want, v).ptr - want));
            if (ours != theirs)
                QFAIL(qPrintable(QString("%1 written as %2").arg(v).arg(QString::fromLatin1(ours.data(), static_cast<int>(ours.size())))));
            QCOMPARE(decimalLength(v), static_cast<int>(theirs.size()));
        }
        // whole doubles, negative ones too, and the digits of the rest (node's String(v))
        QCOMPARE(formatNumber(-9007199254740991.0), std::string("-9007199254740991"));
        QCOMPARE(formatNumber(-100000000.0), std::string("-100000000"));
        QCOMPARE(formatNumber(10000000000000000.0), std::string("10000000000000000"));
        QCOMPARE(formatNumber(-0.0), std::string("-0"));
        QCOMPARE(formatNumber(12345678.900000002), std::string("12345678.900000002"));
        QCOMPARE(formatNumber(1234567.8901234567), std::string("1234567.8901234567"));
        QCOMPARE(formatNumber(1.0000000000000002), std::string("1.0000000000000002"));
    }

    // a path's length and every distance: Grove's own hypot (core/math/ExactHypot.h) within one
    // ulp of the true value for every size of input, with std::hypot's special values; and on
    // x86_64 with glibc 2.35 or later, the very bits of its hypot, so exports pinned before Grove
    // owned these bits keep them (a plain sqrt(x*x + y*y) differs there on about one pair in six)
    void hypotIsWithinAnUlpAndGlibcsX86Bits()
    {
        std::mt19937_64 random(11);
        std::uniform_real_distribution<double> coordinate(-4096, 4096);
        const auto anyBits = [&] {
            double v;
            do
                v = std::bit_cast<double>(random());
            while (!std::isfinite(v));
            return v;
        };
        std::vector<std::pair<double, double>> pairs;
        for (int i = 0; i < 400000; ++i) {
            pairs.emplace_back(coordinate(random), coordinate(random));  // lengths along paths
            pairs.emplace_back(anyBits(), anyBits());                   // every exponent, subnormals
            const double x = coordinate(random);                        // near-equal and lopsided
            pairs.emplace_back(x, std::ldexp(std::nextafter(x, 0.0), static_cast<int>(random() % 61) - 30));
            pairs.emplace_back(std::ldexp(coordinate(random), 1000 - static_cast<int>(random() % 40)),
                               std::ldexp(coordinate(random), 1000 - static_cast<int>(random() % 40)));
            pairs.emplace_back(std::ldexp(coordinate(random), -1010 - static_cast<int>(random() % 40)),
                               std::ldexp(coordinate(random), -1010 - static_cast<int>(random() % 40)));
        }
        double worst = 0;
        int notGlibcs = 0;
        for (const auto &[x, y] : pairs) {
            const double h = exactHypot(x, y);
            const long double want = std::sqrt(static_cast<long double>(x) * x + static_cast<long double>(y) * y);
            if (std::isnormal(h))
                worst = std::max(worst, ulpsApart(h, want));
            if (!sameBits(h, std::hypot(x, y)))
                ++notGlibcs;
        }
        QVERIFY2(worst <= 1, qPrintable(QString("%1 ulp from the long double root").arg(worst)));
#if defined(__x86_64__) && defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 35)
        QCOMPARE(notGlibcs, 0);
#else
        qInfo("%d of %zu pairs differ from this machine's std::hypot", notGlibcs, pairs.size());
#endif
        const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
        QCOMPARE(exactHypot(3, -4), 5.0);
        QCOMPARE(exactHypot(-0.0, 0.0), 0.0);
        QCOMPARE(exactHypot(1e308, 1e308), 1.4142135623730951e308);  // no overflow on the way
        QCOMPARE(exactHypot(3e-320, 4e-320), 5e-320);                 // nor underflow
        QCOMPARE(exactHypot(1.0, 0x1p-60), 1.0);
        QCOMPARE(exactHypot(nan, -inf), inf);
        QVERIFY(std::isnan(exactHypot(nan, 1)));
    }

    // engines' floats: the shortest text that reads back the same float, as to_chars gives it;
    // whole numbers take a short path and must agree with to_chars to the byte
    void floatTextIsShortestAndReadsBack()
    {
        auto viaToChars = [](float v) {
            char buf[64];
            return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
        };
        auto text = [](float v) {
            char buf[kMaxFloatChars];
            return std::string(buf, floatText(buf, v));
        };
        for (int i = -20000; i <= 20000; ++i)
            QCOMPARE(text(static_cast<float>(i)), i == 0 ? std::string("0") : viaToChars(static_cast<float>(i)));
        std::mt19937 random(3);
        for (int i = 0; i < 100000; ++i) {
            const float v = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
            if (!std::isfinite(v) || v == 0)
                continue;
            const std::string got = text(v);
            QCOMPARE(got, viaToChars(v));
            float back = 0;
            std::from_chars(got.data(), got.data() + got.size(), back);
            QVERIFY(sameBits(back, v));
        }
        QCOMPARE(text(-0.0f), std::string("0"));
        QCOMPARE(text(std::numeric_limits<float>::quiet_NaN()), std::string("0"));
        QCOMPARE(text(-std::numeric_limits<float>::infinity()), std::string("0"));
        QCOMPARE(text(1e4f), std::string("10000"));
        QCOMPARE(text(1e6f), std::string("1e+06"));
        QCOMPARE(text(-2.5f), std::string("-2.5"));
    }
};

QTEST_MAIN(TestNumbers)
#include "tst_numbers.moc"
