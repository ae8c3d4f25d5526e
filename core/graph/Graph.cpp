// Graph model helpers: lookups, link parsing and the stable topological order.
#include "core/graph/Graph.h"

#include <algorithm>
#include <queue>

namespace grove {

std::string World::wrapText() const
{
    return wrapX && wrapY ? "true" : wrapX ? "x" : wrapY ? "y" : "";
}

bool World::setWrap(const std::string &text)
{
    if (text != "true" && text != "false" && text != "x" && text != "y")
        return false;
    wrapX = text == "true" || text == "x";
    wrapY = text == "true" || text == "y";
    return true;
}

Link Link::parse(const std::string &text)
{
    Link link;
    auto dot = text.find('.');
    if (dot == std::string::npos) {
        link.node = text;
    } else {
        link.node = text.substr(0, dot);
        link.port = text.substr(dot + 1);
    }
    return link;
}

namespace {

// Entries sorted by key (a stable sort keeps duplicates in order): equal maps, equal results.
template<typename T>
std::vector<std::pair<std::string, T>> byKey(std::vector<std::pair<std::string, T>> entries)
{
    std::stable_sort(entries.begin(), entries.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    return entries;
}

} // namespace

bool Node::operator==(const Node &other) const
{
    return id == other.id && type == other.type && byKey(params) == byKey(other.params)
           && byKey(inputs) == byKey(other.inputs) && expect == other.expect;
}

bool Graph::operator==(const Graph &other) const
{
    if (name != other.name || notes != other.notes || world != other.world
        || layout != other.layout || nodes.size() != other.nodes.size() || groupInputs != other.groupInputs
        || groupOutputs != other.groupOutputs || exposed != other.exposed)
        return false;
    auto sorted = [](const std::vector<Node> &list) {
        std::vector<const Node *> out;
        out.reserve(list.size());
        for (const auto &n : list)
            out.push_back(&n);
        std::stable_sort(out.begin(), out.end(), [](const Node *a, const Node *b) { return a->id < b->id; });
        return out;
    };
    const auto mine = sorted(nodes), theirs = sorted(other.nodes);
    for (size_t i = 0; i < mine.size(); ++i)
        if (!(*mine[i] == *theirs[i]))
            return false;
    return true;
}

const Value *Node::param(const std::string &name) const
{
    for (const auto &[k, v] : params)
        if (k == name)
            return &v;
    return nullptr;
}

void Node::setParam(const std::string &name, Value value)
{
    for (auto &[k, v] : params)
        if (k == name) {
            v = std::move(value);
            return;
        }
    params.emplace_back(name, std::move(value));
}

const Link *Node::input(const std::string &port) const
{
    for (const auto &[k, v] : inputs)
        if (k == port)
            return &v;
    return nullptr;
}

void Node::setInput(const std::string &port, const Link &link)
{
    for (auto &[k, v] : inputs)
        if (k == port) {
            v = link;
            return;
        }
    inputs.emplace_back(port, link);
}

void Node::removeInput(const std::string &port)
{
    for (auto it = inputs.begin(); it != inputs.end(); ++it)
        if (it->first == port) {
            inputs.erase(it);
            return;
        }
}

int Graph::indexOf(const std::string &id) const
{
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].id == id)
            return static_cast<int>(i);
    return -1;
}

const Node *Graph::node(const std::string &id) const
{
    int i = indexOf(id);
    return i < 0 ? nullptr : &nodes[static_cast<size_t>(i)];
}

Node *Graph::node(const std::string &id)
{
    int i = indexOf(id);
    return i < 0 ? nullptr : &nodes[static_cast<size_t>(i)];
}

GraphIndex::GraphIndex(const Graph &graph)
{
    m_index.reserve(graph.nodes.size());
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        m_index.emplace(graph.nodes[i].id, static_cast<int>(i));  // first wins on duplicates
}

int GraphIndex::indexOf(const std::string &id) const
{
    auto it = m_index.find(id);
    return it == m_index.end() ? -1 : it->second;
}

std::vector<int> topologicalOrder(const Graph &graph, std::vector<char> *placedOut)
{
    const size_t n = graph.nodes.size();
    GraphIndex index(graph);
    std::vector<int> pending(n, 0);
    std::vector<std::vector<int>> consumers(n);
    for (size_t i = 0; i < n; ++i) {
        for (const auto &[port, link] : graph.nodes[i].inputs) {
            int src = index.indexOf(link.node);
            if (src < 0)
                continue;
            ++pending[i];
            consumers[static_cast<size_t>(src)].push_back(static_cast<int>(i));
        }
    }
    auto byId = [&](int a, int b) {
        const auto &ia = graph.nodes[static_cast<size_t>(a)].id;
        const auto &ib = graph.nodes[static_cast<size_t>(b)].id;
        return ia != ib ? ia > ib : a > b;  // min-heap on (id, index)
    };
    std::priority_queue<int, std::vector<int>, decltype(byId)> ready(byId);
    for (size_t i = 0; i < n; ++i)
        if (pending[i] == 0)
            ready.push(static_cast<int>(i));
    std::vector<int> order;
    order.reserve(n);
    std::vector<char> placed(n, 0);
    while (!ready.empty()) {
        int i = ready.top();
        ready.pop();
        order.push_back(i);
        placed[static_cast<size_t>(i)] = 1;
        for (int c : consumers[static_cast<size_t>(i)])
            if (--pending[static_cast<size_t>(c)] == 0)
                ready.push(c);
    }
    if (placedOut)
        *placedOut = placed;
    if (order.size() < n) {
        std::vector<int> rest;
        for (size_t i = 0; i < n; ++i)
            if (!placed[i])
                rest.push_back(static_cast<int>(i));
        std::sort(rest.begin(), rest.end(), [&](int a, int b) { return byId(b, a); });
        order.insert(order.end(), rest.begin(), rest.end());
    }
    return order;
}

bool isValidNodeId(const std::string &id)
{
    if (id.empty() || id.size() > 128 || !(id[0] >= 'a' && id[0] <= 'z'))
        return false;
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    return true;
}

std::vector<std::vector<std::string>> findCycles(const Graph &graph)
{
    const size_t n = graph.nodes.size();
    GraphIndex index(graph);
    // Whatever the topological order cannot place sits on or below a cycle.
    std::vector<char> done;
    topologicalOrder(graph, &done);
    std::vector<std::vector<int>> sources(n);
    for (size_t i = 0; i < n; ++i)
        for (const auto &[port, link] : graph.nodes[i].inputs)
            if (const int src = index.indexOf(link.node); src >= 0)
                sources[i].push_back(src);
    // Walk upstream through unfinished sources until a node repeats: that loop is a cycle.
    std::vector<std::vector<std::string>> cycles;
    std::vector<char> reported(n, 0);
    std::vector<int> seenAt(n, -1);
    for (size_t start = 0; start < n; ++start) {
        if (done[start] || reported[start])
            continue;
        std::vector<int> walk;
        int cur = static_cast<int>(start);
        while (cur >= 0 && seenAt[static_cast<size_t>(cur)] < 0 && !reported[static_cast<size_t>(cur)]) {
            seenAt[static_cast<size_t>(cur)] = static_cast<int>(walk.size());
            walk.push_back(cur);
            int next = -1;
            for (int s : sources[static_cast<size_t>(cur)])
                if (!done[static_cast<size_t>(s)]) {
                    next = s;
                    break;
                }
            cur = next;
        }
        if (cur >= 0 && !reported[static_cast<size_t>(cur)]) {
            std::vector<std::string> cycle;
            for (size_t k = static_cast<size_t>(seenAt[static_cast<size_t>(cur)]); k < walk.size(); ++k)
                cycle.push_back(graph.nodes[static_cast<size_t>(walk[k])].id);
            std::reverse(cycle.begin(), cycle.end());  // upstream first
            // start at the smallest id, so the message is the same whichever node was met first
            std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
            cycles.push_back(std::move(cycle));
        }
        for (int w : walk) {
            reported[static_cast<size_t>(w)] = 1;
            seenAt[static_cast<size_t>(w)] = -1;
        }
    }
    return cycles;
}

} // namespace grove
