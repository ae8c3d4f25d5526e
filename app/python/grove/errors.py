"""Grove's exceptions: each carries libgrove's message as it is, located where libgrove locates it."""
import re

# one problem as grove-cli prints it: "NAME:LINE:COL: error: MESSAGE (at PATH)"
_LOCATED = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning): (?P<message>.*)$")


class Problem:
    """One located problem of a message: file, line, column (1-based; 0 when not located), severity, text."""

    __slots__ = ("file", "line", "column", "severity", "message")

    def __init__(self, file, line, column, severity, message):
        self.file, self.line, self.column, self.severity, self.message = file, line, column, severity, message

    def __repr__(self):
        return f"Problem({self.file!r}, {self.line}, {self.column}, {self.severity!r}, {self.message!r})"


class GroveError(Exception):
    """A libgrove call failed. str(e) and e.message are libgrove's message, one problem a line."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message

    @property
    def problems(self):
        """The message's located lines ("NAME:LINE:COL: error: ...") as Problem objects."""
        found = []
        for line in self.message.splitlines():
            m = _LOCATED.match(line)
            if m:
                found.append(Problem(m["file"], int(m["line"]), int(m["column"]), m["severity"], m["message"]))
        return found


class LibraryNotFoundError(GroveError, OSError):
    """libgrove.so could not be loaded; the message names every place that was tried."""


class GraphError(GroveError):
    """The graph did not open: its YAML, a node, a param, an override or its evaluation has a problem."""


class ClosedError(GroveError):
    """The graph (or what belongs to it) was used after close()."""


class CancelledError(GroveError):
    """The call was cancelled: Graph.cancel(), or the graph was closed while the call ran."""


class UnknownLayerError(GroveError, KeyError):
    """No exported layer has that name or node id."""

    def __str__(self):  # KeyError would quote the message
        return self.message


class RegionError(GroveError, ValueError):
    """libgrove refused a region or chunk: NaN or inverted bounds, beyond an endless world's chunk range,
    more points than the limit, a world without chunks."""


def raise_for(message, default=GroveError):
    """Raises the GroveError subclass that libgrove's message stands for."""
    if message == "cancelled":
        raise CancelledError(message)
    if message.startswith("not an open graph"):
        raise ClosedError(message)
    if message.startswith("no exported layer"):
        raise UnknownLayerError(message)
    raise default(message)
