// libgrove's streaming sessions: wants from the sources, a nearest-first queue for the workers,
// hand-over within the caller's budget, unloads past the margin. The chunks are placed by
// chunkPoints (the graph's own chunk path and cache), never by code of the session's own.
#include "CApiSession.h"

#include "CApiHandles.h"

#include "core/base/Diagnostic.h"
#include "core/base/Value.h"
#include "core/math/ExactHypot.h"
#include "core/sampling/ChunkedLayer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

namespace grove::capi {

namespace {

using Clock = std::chrono::steady_clock;

long long microsSince(Clock::time_point t)
{
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t).count();
}

// A number for a message; NaN and the infinities as a C programmer writes them.
std::string messageNumber(double v)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    return formatNumber(v);
}

// The distance from (x, y) to chunk (i, j)'s square (0 inside it).
double toSquare(double x, double y, double c, int i, int j)
{
    const double dx = std::max({i * c - x, 0.0, x - (i + 1) * c});
    const double dy = std::max({j * c - y, 0.0, y - (j + 1) * c});
    return exactHypot(dx, dy);
}

// floor(v / c) clamped to [lo, hi], computed in doubles so that no value overflows an int.
int clampedIndex(double v, double c, int lo, int hi)
{
    return static_cast<int>(std::clamp(std::floor(v / c), static_cast<double>(lo), static_cast<double>(hi)));
}

constexpr int kMaxWorkers = 256;
constexpr int kMaxChunksLimit = 1 << 20;
constexpr int kMaxSources = 4096;  // copied each update: a count past any engine's players is a mistake

} // namespace

bool readSessionOptions(const grove_session_options *opts, double chunk, SessionSettings &out, std::string &message)
{
    const unsigned cores = std::thread::hardware_concurrency();
    out.workers = std::clamp(static_cast<int>(cores) - 1, 1, 8);
    out.unloadMargin = chunk / 2;
    if (!opts)
        return true;
    if (opts->workers < 0 || opts->workers > kMaxWorkers) {
        message = "workers must be 0 (the default) to " + std::to_string(kMaxWorkers) + ", got " + std::to_string(opts->workers);
        return false;
    }
    if (opts->max_chunks < 0 || opts->max_chunks > kMaxChunksLimit) {
        message = "max_chunks must be 0 (the default) to " + std::to_string(kMaxChunksLimit) + ", got "
                  + std::to_string(opts->max_chunks);
        return false;
    }
    if (opts->memory_cap < 0) {
        message = "memory_cap is negative (" + std::to_string(opts->memory_cap) + ")";
        return false;
    }
    if (!std::isfinite(opts->unload_margin) || opts->unload_margin < 0) {
        message = "unload_margin must be a finite number >= 0, got " + messageNumber(opts->unload_margin);
        return false;
    }
    if (opts->workers > 0)
        out.workers = opts->workers;
    if (opts->max_chunks > 0)
        out.maxChunks = opts->max_chunks;
    if (opts->memory_cap > 0)
        out.memoryCap = static_cast<std::size_t>(opts->memory_cap);
    if (opts->unload_margin > 0)
        out.unloadMargin = opts->unload_margin;
    return true;
}

Session::Session(std::shared_ptr<GraphState> graph, std::vector<int> layers, const SessionSettings &settings)
    : m_graph(std::move(graph)), m_layers(std::move(layers)), m_s(settings), m_chunk(m_graph->world.chunk)
{
    const World &w = m_graph->world;
    if (w.endless) {
        m_i0 = m_j0 = -kChunkRange;
        m_i1 = m_j1 = kChunkRange;
    } else {  // a finite world's chunks: those its rectangle [0, width) x [0, height) meets
        m_i0 = m_j0 = 0;
        m_i1 = static_cast<int>(std::min(std::ceil(w.width / m_chunk), static_cast<double>(kChunkRange)));
        m_j1 = static_cast<int>(std::min(std::ceil(w.height / m_chunk), static_cast<double>(kChunkRange)));
    }
    try {
        for (int k = 0; k < m_s.workers; ++k)
            m_threads.emplace_back([this] { work(); });
    } catch (...) {
        close();  // the threads started so far are joined before the failure is told
        throw;
    }
}

Session::~Session()
{
    close();
}

void Session::close()
{
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        for (auto &[key, e] : m_entries)
            if (e.cancel)
                e.cancel->store(true);
        threads.swap(m_threads);
    }
    m_work.notify_all();
    m_done.notify_all();
    for (std::thread &t : threads)
        t.join();
}

Session::ChunkBox Session::boxOf(const grove_source &s) const
{
    return {clampedIndex(s.x - s.radius, m_chunk, m_i0, m_i1 - 1), clampedIndex(s.x + s.radius, m_chunk, m_i0, m_i1 - 1),
            clampedIndex(s.y - s.radius, m_chunk, m_j0, m_j1 - 1), clampedIndex(s.y + s.radius, m_chunk, m_j0, m_j1 - 1)};
}

bool Session::checkSources(const grove_source *sources, int count, std::string &message) const
{
    // each source's box of chunks is bounded first, so a huge radius costs nothing
    double boxes = 0;
    for (int k = 0; k < count; ++k) {
        const grove_source &s = sources[k];
        const std::string which = "source " + std::to_string(k) + " ";
        if (!std::isfinite(s.x) || !std::isfinite(s.y)) {
            message = which + "is at (" + messageNumber(s.x) + ", " + messageNumber(s.y) + "): positions must be finite numbers";
            return false;
        }
        if (!(s.radius >= 0) || !std::isfinite(s.radius)) {
            message = which + "has radius " + messageNumber(s.radius) + ": radii must be finite numbers >= 0";
            return false;
        }
        const ChunkBox b = boxOf(s);
        boxes += (b.i1 - b.i0 + 1.0) * (b.j1 - b.j0 + 1.0);
        if (boxes > 2.0 * m_s.maxChunks + 16) {
            message = which + "(radius " + messageNumber(s.radius) + ") takes the sources to about " + messageNumber(std::floor(boxes * 0.785))
                      + " chunks of " + messageNumber(m_chunk) + ", more than max_chunks " + std::to_string(m_s.maxChunks)
                      + " (grove_session_options): use smaller radii or raise max_chunks";
            return false;
        }
    }
    return true;
}

bool Session::wantedChunks(const grove_source *sources, int count, Wants &wants, std::string &message) const
{
    for (int k = 0; k < count; ++k) {
        const grove_source &s = sources[k];
        const ChunkBox b = boxOf(s);
        for (int i = b.i0; i <= b.i1; ++i)  // in key order: one source's wants come sorted
            for (int j = b.j0; j <= b.j1; ++j)
                if (toSquare(s.x, s.y, m_chunk, i, j) <= s.radius)
                    wants.push_back({{i, j}, exactHypot((i + 0.5) * m_chunk - s.x, (j + 0.5) * m_chunk - s.y)});
    }
    if (count > 1) {  // the sources' wants merged: each chunk once, at its nearest source's distance
        std::sort(wants.begin(), wants.end());
        wants.erase(std::unique(wants.begin(), wants.end(), [](const auto &a, const auto &b) { return a.first == b.first; }),
                    wants.end());
    }
    if (wants.size() > static_cast<std::size_t>(m_s.maxChunks)) {
        message = "the sources want " + std::to_string(wants.size()) + " chunks of " + messageNumber(m_chunk) + ", more than max_chunks "
                  + std::to_string(m_s.maxChunks) + " (grove_session_options): use smaller radii or raise max_chunks";
        return false;
    }
    return true;
}

bool Session::beyondMargin(const Key &k) const
{
    for (const grove_source &s : m_sources)
        if (toSquare(s.x, s.y, m_chunk, k.i, k.j) <= s.radius + m_s.unloadMargin)
            return false;
    return true;
}

void Session::drop(std::map<Key, Entry>::iterator it)
{
    Entry &e = it->second;
    if (e.state == State::Computing)
        e.cancel->store(true);  // the worker sees its entry gone and keeps nothing
    if (e.state == State::Ready) {
        m_heldBytes -= e.points.size() * sizeof(grove_point);
        --m_ready;
    }
    ++m_cancelled;
    m_entries.erase(it);
}

void Session::applyWants(const Wants &wants, std::vector<grove_chunk_ref> &unload)
{
    m_band.clear();
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        const std::pair<int, int> ij{it->first.i, it->first.j};
        auto w = std::lower_bound(wants.begin(), wants.end(), ij, [](const auto &a, const auto &b) { return a.first < b; });
        if (w != wants.end() && w->first == ij) {
            it->second.distance = w->second;
            ++it;
        } else if (it->second.state != State::Resident) {
            drop(it++);
        } else if (beyondMargin(it->first)) {
            unload.push_back({it->first.layer, it->first.i, it->first.j});
            --m_resident;
            ++m_evicted;
            it = m_entries.erase(it);
        } else {
            m_band.push_back(it->first);  // resident within the margin: kept, so a source on a border does not make it flap
            ++it;
        }
    }
    m_wanted.clear();
    for (const auto &w : wants)
        m_wanted.push_back(w.first);
    std::vector<int> layers = m_layers;
    std::sort(layers.begin(), layers.end());
    auto hint = m_entries.begin();  // keys ascend: each insertion lands at the hint
    for (int layer : layers)
        for (const auto &[ij, d] : wants) {
            hint = m_entries.try_emplace(hint, Key{layer, ij.first, ij.second});
            hint->second.distance = d;
            ++hint;
        }
    std::vector<std::pair<double, Key>> queued;  // farthest first, ties in reverse key order
    for (const auto &[key, e] : m_entries)
        if (e.state == State::Queued)
            queued.emplace_back(e.distance, key);
    std::sort(queued.begin(), queued.end(), [](const auto &a, const auto &b) { return b < a; });
    m_queue.clear();
    for (const auto &q : queued)
        m_queue.push_back(q.second);
}

bool Session::sameChunksWanted(const Wants &wants) const
{
    return wants.size() == m_wanted.size()
           && std::equal(wants.begin(), wants.end(), m_wanted.begin(), [](const auto &w, const auto &k) { return w.first == k; });
}

void Session::unloadBand(std::vector<grove_chunk_ref> &unload)
{
    std::erase_if(m_band, [&](const Key &k) {
        if (!beyondMargin(k))
            return false;
        unload.push_back({k.layer, k.i, k.j});
        --m_resident;
        ++m_evicted;
        m_entries.erase(k);
        return true;
    });
}

int Session::update(const grove_source *sources, int count, long long budgetUs, grove_update_result &out, std::string &message)
{
    const Clock::time_point start = Clock::now();
    if (count < 0 || count > kMaxSources) {
        message = "source_count must be 0 to " + std::to_string(kMaxSources) + ", got " + std::to_string(count);
        return -1;
    }
    if (count > 0 && !sources) {
        message = "sources is NULL but source_count is " + std::to_string(count);
        return -1;
    }
    if (budgetUs < 0) {
        message = "budget_us is negative (" + std::to_string(budgetUs) + ")";
        return -1;
    }
    std::vector<grove_source> now(sources, sources + count);
    if (!checkSources(now.data(), count, message))
        return -1;
    const auto same = [](const grove_source &a, const grove_source &b) { return a.x == b.x && a.y == b.y && a.radius == b.radius; };
    const auto moved = [&] { return now.size() != m_sources.size() || !std::equal(now.begin(), now.end(), m_sources.begin(), same); };
    // the wants only when the sources moved (an engine updates every frame, mostly standing still);
    // computed outside the lock, so the workers are not kept waiting for them
    Wants wants;
    std::vector<std::vector<grove_point>> old;  // the last batch, freed outside the lock
    std::unique_lock lock(m_mutex);
    bool changed = moved();
    if (changed) {
        lock.unlock();
        if (!wantedChunks(now.data(), count, wants, message))
            return -1;
        lock.lock();
        changed = moved();  // as they were while the wants were computed
    }
    if (m_stop) {
        message = "the session is closed";
        return -1;
    }
    if (m_graph->closed.load()) {
        for (auto it = m_entries.begin(); it != m_entries.end();)
            if (it->second.state == State::Resident)
                ++it;
            else
                drop(it++);
        m_queue.clear();
        message = "the session's graph was closed (grove_close): close the session too";
        return -1;
    }
    if (!m_failure.empty()) {
        message = m_failure;
        m_failure.clear();
        m_sources.clear();  // the failed chunk is wanted again by the next update
        m_wanted.clear();
        return -1;
    }
    old.swap(m_batch);
    m_heldBytes -= m_batchBytes;
    m_batchBytes = 0;
    m_handed.clear();
    m_unload.clear();
    if (changed) {
        m_sources = std::move(now);
        // the same chunks wanted (most frames of a moving source): only the margin's chunks may
        // unload; the queue keeps its order until the wanted chunks change
        if (sameChunksWanted(wants))
            unloadBand(m_unload);
        else
            applyWants(wants, m_unload);
    }
    if (changed || !old.empty())
        m_work.notify_all();  // new jobs, or room after the last batch went
    if (m_ready > 0) {
        std::vector<std::map<Key, Entry>::iterator> ready;
        for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
            if (it->second.state == State::Ready)
                ready.push_back(it);
        std::stable_sort(ready.begin(), ready.end(), [](auto a, auto b) { return a->second.distance < b->second.distance; });
        for (auto it : ready) {
            Entry &e = it->second;
            m_batchBytes += e.points.size() * sizeof(grove_point);
            m_handed.push_back({it->first.layer, it->first.i, it->first.j, nullptr, static_cast<long long>(e.points.size())});
            m_batch.push_back(std::move(e.points));
            e.points = {};
            e.state = State::Resident;
            --m_ready;
            ++m_resident;
            ++m_delivered;
            if (budgetUs > 0 && microsSince(start) >= budgetUs)
                break;
        }
        for (std::size_t k = 0; k < m_handed.size(); ++k)  // the batch's vectors have stopped moving
            m_handed[k].points = m_batch[k].empty() ? nullptr : m_batch[k].data();
    }
    out.ready = m_handed.empty() ? nullptr : m_handed.data();
    out.ready_count = static_cast<int>(m_handed.size());
    out.unload = m_unload.empty() ? nullptr : m_unload.data();
    out.unload_count = static_cast<int>(m_unload.size());
    out.pending = static_cast<int>(m_entries.size()) - m_resident;
    m_updateUs += microsSince(start);
    return 0;
}

bool Session::idle() const
{
    return m_queue.empty() && m_computing == 0;
}

int Session::wait(long long timeoutUs)
{
    std::unique_lock lock(m_mutex);
    m_done.wait_for(lock, std::chrono::microseconds(std::min(timeoutUs, 10'000'000'000'000LL)), [this] {
        return m_stop || m_ready > 0 || idle() || m_heldBytes >= m_s.memoryCap || m_graph->closed.load()
               || !m_failure.empty();
    });
    return m_ready;
}

void Session::stats(grove_session_stats &out) const
{
    std::lock_guard lock(m_mutex);
    out.queued = static_cast<int>(m_queue.size());
    out.computing = m_computing;
    out.ready = m_ready;
    out.resident = m_resident;
    out.delivered = m_delivered;
    out.evicted = m_evicted;
    out.cancelled = m_cancelled;
    out.update_us = m_updateUs;
    out.worker_us = m_workerUs;
    out.bytes_held = static_cast<long long>(m_heldBytes);
    out.memory_cap = static_cast<long long>(m_s.memoryCap);
}

void Session::work()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_work.wait(lock, [this] {
            return m_stop || (!m_queue.empty() && m_heldBytes < m_s.memoryCap && !m_graph->closed.load());
        });
        if (m_stop)
            return;
        const Key key = m_queue.back();
        std::shared_ptr<std::atomic<bool>> flag;
        try {
            flag = std::make_shared<std::atomic<bool>>(false);
        } catch (...) {
            m_work.wait_for(lock, std::chrono::milliseconds(10));  // out of memory: try again later
            continue;
        }
        m_queue.pop_back();
        Entry &taken = m_entries.at(key);  // the queue holds exactly the queued entries
        taken.state = State::Computing;
        taken.cancel = flag;
        ++m_computing;
        lock.unlock();
        const Clock::time_point start = Clock::now();
        std::vector<grove_point> points;
        std::string problem;
        bool ok = false;
        try {
            ok = chunkPoints(*m_graph, key.layer, key.i, key.j, flag.get(), points, problem);
        } catch (const std::bad_alloc &) {
            problem = "out of memory";
        } catch (const std::exception &ex) {
            problem = std::string("internal error: ") + ex.what();
        }
        lock.lock();
        --m_computing;
        m_workerUs += microsSince(start);
        auto it = m_entries.find(key);
        if (it != m_entries.end() && it->second.cancel == flag) {  // still wanted: not dropped meanwhile
            it->second.cancel.reset();
            if (ok) {
                m_heldBytes += points.size() * sizeof(grove_point);
                it->second.points = std::move(points);
                it->second.state = State::Ready;
                ++m_ready;
            } else {
                if (flag->load())  // the session closing
                    ++m_cancelled;
                else  // a failure, no cancellation: the next update tells it and wants the chunk again
                    m_failure = "layer " + quote(m_graph->layers[static_cast<std::size_t>(key.layer)].name) + ", chunk ("
                                + std::to_string(key.i) + ", " + std::to_string(key.j) + "): " + problem;
                m_entries.erase(it);
            }
        }
        m_done.notify_all();
    }
}

namespace {

HandleRegistry<Session, grove_session> &sessions()
{
    // never destroyed, as the graphs'
    static auto *r = new HandleRegistry<Session, grove_session>(std::uintptr_t(1) << 30, "session", "grove_session_open");
    return *r;
}

} // namespace

grove_session *addSession(std::shared_ptr<Session> session)
{
    return sessions().add(std::move(session));
}

std::shared_ptr<Session> findSession(grove_session *handle, std::string &message)
{
    return sessions().find(handle, message);
}

std::shared_ptr<Session> takeSession(grove_session *handle)
{
    return sessions().take(handle);
}

} // namespace grove::capi
