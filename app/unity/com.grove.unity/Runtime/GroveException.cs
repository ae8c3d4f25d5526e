// Grove's exceptions: each carries libgrove's message as it is, located where libgrove locates it
// ("NAME:LINE:COL: error: MESSAGE (at PATH)", one problem a line). Unity-free.
using System;
using System.Collections.Generic;
using System.Globalization;

namespace Grove
{
    /// <summary>One located problem of a message; Line and Column are 1-based.</summary>
    public sealed class GroveProblem
    {
        public string File { get; private set; }
        public int Line { get; private set; }
        public int Column { get; private set; }
        public string Severity { get; private set; }
        public string Message { get; private set; }

        public GroveProblem(string file, int line, int column, string severity, string message)
        {
            File = file;
            Line = line;
            Column = column;
            Severity = severity;
            Message = message;
        }

        public override string ToString()
        {
            return File + ":" + Line + ":" + Column + ": " + Severity + ": " + Message;
        }

        /// <summary>The problem a line states, or null when the line is not "NAME:LINE:COL: error|warning: ...".</summary>
        public static GroveProblem Parse(string line)
        {
            foreach (string severity in new[] { "error", "warning" })
            {
                string marker = ": " + severity + ": ";
                int at = line.IndexOf(marker, StringComparison.Ordinal);
                if (at < 0)
                    continue;
                // NAME may hold colons (a Windows path): LINE and COL are the last two fields before the marker
                int colon2 = line.LastIndexOf(':', at - 1);
                int colon1 = colon2 > 0 ? line.LastIndexOf(':', colon2 - 1) : -1;
                int lineNumber, column;
                if (colon1 <= 0
                    || !int.TryParse(line.Substring(colon1 + 1, colon2 - colon1 - 1), NumberStyles.None, CultureInfo.InvariantCulture, out lineNumber)
                    || !int.TryParse(line.Substring(colon2 + 1, at - colon2 - 1), NumberStyles.None, CultureInfo.InvariantCulture, out column))
                    continue;
                return new GroveProblem(line.Substring(0, colon1), lineNumber, column, severity, line.Substring(at + marker.Length));
            }
            return null;
        }
    }

    /// <summary>A libgrove call failed; Message is libgrove's message, one problem a line.</summary>
    public class GroveException : Exception
    {
        public GroveException(string message) : base(message) { }

        /// <summary>The message's located lines.</summary>
        public IList<GroveProblem> Problems
        {
            get
            {
                var found = new List<GroveProblem>();
                foreach (string line in Message.Split('\n'))
                {
                    GroveProblem problem = GroveProblem.Parse(line.TrimEnd('\r'));
                    if (problem != null)
                        found.Add(problem);
                }
                return found;
            }
        }
    }

    /// <summary>The graph did not open: its YAML, a node, a param, an override or its evaluation has a problem.</summary>
    public sealed class GroveGraphException : GroveException
    {
        public GroveGraphException(string message) : base(message) { }
    }

    /// <summary>The call was cancelled: Cancel(), or the graph was disposed while it ran.</summary>
    public sealed class GroveCancelledException : GroveException
    {
        public GroveCancelledException(string message) : base(message) { }
    }

    /// <summary>No exported layer has that name or node id.</summary>
    public sealed class GroveUnknownLayerException : GroveException
    {
        public GroveUnknownLayerException(string message) : base(message) { }
    }

    static class GroveErrors
    {
        /// <summary>The exception libgrove's message stands for.</summary>
        public static Exception For(string message)
        {
            if (message == "cancelled")
                return new GroveCancelledException(message);
            if (message.StartsWith("not an open ", StringComparison.Ordinal))
                return new ObjectDisposedException("Grove", message);
            if (message.StartsWith("no exported layer", StringComparison.Ordinal))
                return new GroveUnknownLayerException(message);
            return new GroveException(message);
        }
    }
}
