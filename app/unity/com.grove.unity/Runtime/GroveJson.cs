// A small JSON reader for Grove's exports: objects (Dictionary<string, object>, keys in order of
// appearance are not kept), arrays (List<object>), strings, true/false/null, and numbers kept as
// GroveJsonNumber, whose ToDouble() is correctly rounded (the nearest double, ties to even), so a
// grove-cli export reads back to the exact doubles libgrove holds. Errors name line and column.
// Unity-free: the Editor's importer uses it, the Mono test checks it.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Numerics;
using System.Text;

namespace Grove
{
    /// <summary>A JSON number as written; converted on request.</summary>
    public sealed class GroveJsonNumber
    {
        public string Text { get; private set; }

        public GroveJsonNumber(string text)
        {
            Text = text;
        }

        public override string ToString()
        {
            return Text;
        }

        public long ToInt64()
        {
            return long.Parse(Text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
        }

        /// <summary>The double nearest the decimal (ties to even), whatever the culture and the platform's parser.</summary>
        public double ToDouble()
        {
            return GroveDecimal.ToDouble(Text);
        }
    }

    static class GroveDecimal
    {
        public static double ToDouble(string text)
        {
            int at = 0;
            bool negative = at < text.Length && text[at] == '-';
            if (negative)
                ++at;
            var digits = new StringBuilder();
            int exponent = 0;
            for (; at < text.Length && char.IsDigit(text[at]); ++at)
                digits.Append(text[at]);
            if (at < text.Length && text[at] == '.')
                for (++at; at < text.Length && char.IsDigit(text[at]); ++at, --exponent)
                    digits.Append(text[at]);
            if (at < text.Length && (text[at] == 'e' || text[at] == 'E'))
                exponent += int.Parse(text.Substring(at + 1), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
            else if (at != text.Length || digits.Length == 0)
                throw new FormatException("not a number: " + text);
            BigInteger mantissa = BigInteger.Parse(digits.ToString(), CultureInfo.InvariantCulture);
            double magnitude = mantissa.IsZero ? 0.0 : Nearest(mantissa, exponent);
            return negative ? -magnitude : magnitude;
        }

        // mantissa * 10^exponent, rounded once to 53 bits
        static double Nearest(BigInteger mantissa, int exponent)
        {
            if (exponent >= 0)
                return Round(mantissa * BigInteger.Pow(10, exponent), false, 0);
            BigInteger divisor = BigInteger.Pow(10, -exponent);
            int shift = 55 + BitLength(divisor) - BitLength(mantissa); // the quotient gets at least 54 bits
            BigInteger numerator = shift > 0 ? mantissa << shift : mantissa;
            BigInteger denominator = shift < 0 ? divisor << -shift : divisor;
            BigInteger remainder;
            BigInteger quotient = BigInteger.DivRem(numerator, denominator, out remainder);
            return Round(quotient, !remainder.IsZero, -shift);
        }

        // (q + a fraction, nonzero when sticky) * 2^power to the nearest double
        static double Round(BigInteger q, bool sticky, int power)
        {
            int drop = BitLength(q) - 53;
            BigInteger kept = q;
            if (drop > 0)
            {
                kept = q >> drop;
                BigInteger dropped = q - (kept << drop);
                BigInteger half = BigInteger.One << (drop - 1);
                int versusHalf = dropped.CompareTo(half);
                if (versusHalf > 0 || (versusHalf == 0 && (sticky || !kept.IsEven)))
                    kept += 1;
                if (BitLength(kept) > 53)
                {
                    kept >>= 1;
                    ++drop;
                }
                power += drop;
            }
            else
            {
                kept <<= -drop;
                power += drop;
            }
            long biased = power + 52 + 1023; // kept is 1.xxx * 2^52
            if (biased < 1 || biased > 2046)
                throw new FormatException("a number beyond the normal doubles");
            long bits = (biased << 52) | ((long)kept & ((1L << 52) - 1));
            return BitConverter.Int64BitsToDouble(bits);
        }

        static int BitLength(BigInteger value)
        {
            byte[] bytes = value.ToByteArray(); // little-endian two's complement, value >= 0
            int top = bytes.Length - 1;
            while (top > 0 && bytes[top] == 0)
                --top;
            int bits = top * 8;
            for (int b = bytes[top]; b != 0; b >>= 1)
                ++bits;
            return bits;
        }
    }

    public static class GroveJson
    {
        /// <summary>The value the text holds; FormatException "LINE:COL: ..." on anything else.</summary>
        public static object Parse(string text)
        {
            if (text == null)
                throw new ArgumentNullException("text");
            var reader = new Reader(text);
            object value = reader.Value();
            reader.SkipSpace();
            if (reader.At < text.Length)
                throw reader.Error("text after the value");
            return value;
        }

        sealed class Reader
        {
            readonly string text;
            public int At;

            public Reader(string text)
            {
                this.text = text;
            }

            public FormatException Error(string what)
            {
                int line = 1, column = 1;
                for (int k = 0; k < At && k < text.Length; ++k, ++column)
                    if (text[k] == '\n')
                    {
                        ++line;
                        column = 0;
                    }
                return new FormatException(line + ":" + column + ": " + what);
            }

            public void SkipSpace()
            {
                while (At < text.Length && (text[At] == ' ' || text[At] == '\t' || text[At] == '\n' || text[At] == '\r'))
                    ++At;
            }

            void Expect(char c)
            {
                SkipSpace();
                if (At >= text.Length || text[At] != c)
                    throw Error("expected '" + c + "'");
                ++At;
            }

            bool Next(char c)
            {
                SkipSpace();
                if (At < text.Length && text[At] == c)
                {
                    ++At;
                    return true;
                }
                return false;
            }

            public object Value()
            {
                SkipSpace();
                if (At >= text.Length)
                    throw Error("expected a value");
                char c = text[At];
                if (c == '{')
                    return Object();
                if (c == '[')
                    return Array();
                if (c == '"')
                    return String();
                if (c == '-' || (c >= '0' && c <= '9'))
                    return Number();
                foreach (string word in new[] { "true", "false", "null" })
                    if (string.CompareOrdinal(text, At, word, 0, word.Length) == 0)
                    {
                        At += word.Length;
                        return word == "null" ? null : (object)(word == "true");
                    }
                throw Error("unexpected '" + c + "'");
            }

            Dictionary<string, object> Object()
            {
                Expect('{');
                var members = new Dictionary<string, object>();
                if (Next('}'))
                    return members;
                do
                {
                    SkipSpace();
                    if (At >= text.Length || text[At] != '"')
                        throw Error("expected a key");
                    string key = String();
                    Expect(':');
                    members[key] = Value();
                } while (Next(','));
                Expect('}');
                return members;
            }

            List<object> Array()
            {
                Expect('[');
                var items = new List<object>();
                if (Next(']'))
                    return items;
                do
                    items.Add(Value());
                while (Next(','));
                Expect(']');
                return items;
            }

            GroveJsonNumber Number()
            {
                int start = At;
                if (text[At] == '-')
                    ++At;
                while (At < text.Length && "0123456789.eE+-".IndexOf(text[At]) >= 0)
                    ++At;
                string number = text.Substring(start, At - start);
                try
                {
                    GroveDecimal.ToDouble(number); // refuse what is not a number here, where it is located
                }
                catch (FormatException e)
                {
                    At = start;
                    throw Error(e.Message);
                }
                return new GroveJsonNumber(number);
            }

            string String()
            {
                ++At; // the opening quote
                var s = new StringBuilder();
                while (true)
                {
                    if (At >= text.Length)
                        throw Error("a string without its closing quote");
                    char c = text[At++];
                    if (c == '"')
                        return s.ToString();
                    if (c != '\\')
                    {
                        s.Append(c);
                        continue;
                    }
                    if (At >= text.Length)
                        throw Error("a string without its closing quote");
                    char e = text[At++];
                    int simple = "\"\\/bfnrt".IndexOf(e);
                    if (simple >= 0)
                        s.Append("\"\\/\b\f\n\r\t"[simple]);
                    else if (e == 'u' && At + 4 <= text.Length)
                    {
                        s.Append((char)int.Parse(text.Substring(At, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture));
                        At += 4;
                    }
                    else
                        throw Error("a bad escape '\\" + e + "'");
                }
            }
        }
    }
}
