// libgrove's streaming sessions (grove_session_*): the chunks a graph's layers have around moving
// sources, wanted and dropped by the caller's updates, placed on the session's worker threads
// through the graph's own chunk path (chunkPoints), handed over within a time budget.
#pragma once

#include "grove.h"

#include "CApiGraph.h"

#include <atomic>
#include <compare>
#include <condition_variable>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace grove::capi {

struct SessionSettings
{
    int workers = 1;
    int maxChunks = 16384;
    std::size_t memoryCap = std::size_t(64) << 20;
    double unloadMargin = 0;
};

// grove_session_options checked, the defaults filled in; false with `message` when bad.
bool readSessionOptions(const grove_session_options *opts, double chunk, SessionSettings &out, std::string &message);

class Session
{
public:
    // `layers`: the graph's layer indices; the graph's world has chunks
    Session(std::shared_ptr<GraphState> graph, std::vector<int> layers, const SessionSettings &settings);
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    // grove_session_update's work: 0, or -1 with `message` (nothing changed then).
    int update(const grove_source *sources, int count, long long budgetUs, grove_update_result &out, std::string &message);
    int wait(long long timeoutUs);
    void stats(grove_session_stats &out) const;
    // Cancels the work and joins the workers; later updates fail. Idempotent.
    void close();

private:
    struct Key
    {
        int layer = 0, i = 0, j = 0;
        auto operator<=>(const Key &) const = default;
    };
    enum class State { Queued, Computing, Ready, Resident };
    struct Entry
    {
        State state = State::Queued;
        double distance = 0;  // to the nearest source's centre: the queue's order
        std::shared_ptr<std::atomic<bool>> cancel;  // while computing
        std::vector<grove_point> points;            // while ready
    };
    // the chunks wanted, sorted, each with its distance to the nearest source's centre
    using Wants = std::vector<std::pair<std::pair<int, int>, double>>;

    struct ChunkBox
    {
        int i0, i1, j0, j1;  // inclusive, within the chunk range
    };
    // the chunks around a source's disc's bounding box
    ChunkBox boxOf(const grove_source &s) const;
    // false with `message` for a position or radius that is not a finite number, or sources whose
    // boxes hold far more than max_chunks: cheap, whatever the radii
    bool checkSources(const grove_source *sources, int count, std::string &message) const;
    // the checked sources' wants (sorted); false with `message` for more than max_chunks
    bool wantedChunks(const grove_source *sources, int count, Wants &wants, std::string &message) const;
    bool beyondMargin(const Key &k) const;
    void applyWants(const Wants &wants, std::vector<grove_chunk_ref> &unload);
    bool sameChunksWanted(const Wants &wants) const;
    void unloadBand(std::vector<grove_chunk_ref> &unload);
    void drop(std::map<Key, Entry>::iterator it);
    void work();
    bool idle() const;

    std::shared_ptr<GraphState> m_graph;
    std::vector<int> m_layers;
    SessionSettings m_s;
    double m_chunk;
    int m_i0, m_i1, m_j0, m_j1;  // the chunks there are: [m_i0, m_i1) x [m_j0, m_j1)

    mutable std::mutex m_mutex;
    std::condition_variable m_work;  // workers: a job or room
    std::condition_variable m_done;  // wait(): a chunk ready, or nothing to do
    std::map<Key, Entry> m_entries;
    std::vector<Key> m_queue;  // the queued entries, farthest first: workers take the back
    std::vector<grove_source> m_sources;
    // what applyWants last saw: the chunks wanted (sorted), and the resident chunks not wanted but
    // within the margin (the only ones a move that wants the same chunks can unload)
    std::vector<std::pair<int, int>> m_wanted;
    std::vector<Key> m_band;
    bool m_stop = false;
    std::string m_failure;  // a chunk that failed, told by the next update
    int m_computing = 0, m_ready = 0, m_resident = 0;
    std::size_t m_heldBytes = 0;
    long long m_delivered = 0, m_evicted = 0, m_cancelled = 0, m_updateUs = 0, m_workerUs = 0;
    // the last update's batch: the caller's until the next update
    std::vector<std::vector<grove_point>> m_batch;
    std::vector<grove_session_chunk> m_handed;
    std::vector<grove_chunk_ref> m_unload;
    std::size_t m_batchBytes = 0;
    std::vector<std::thread> m_threads;
};

// Session handles, numbers like graphs'.
grove_session *addSession(std::shared_ptr<Session> session);
std::shared_ptr<Session> findSession(grove_session *handle, std::string &message);
std::shared_ptr<Session> takeSession(grove_session *handle);

} // namespace grove::capi
