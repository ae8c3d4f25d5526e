// libgrove's streaming sessions from C (grove.h's grove_session_*): arguments checked, every
// exception turned into a message (CApiErrors.h), the work in CApiSession.
#include "grove.h"

#include "CApiErrors.h"
#include "CApiGraph.h"
#include "CApiSession.h"

#include "core/base/Diagnostic.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using namespace grove;
using namespace grove::capi;

namespace {

// The layers a session streams, as graph indices; false with `message` for a NULL, unknown or repeated name.
bool sessionLayers(const GraphState &s, const char *const *layers, int count, std::vector<int> &out, std::string &message)
{
    if (count < 1) {
        message = "layer_count must be at least 1, got " + std::to_string(count);
        return false;
    }
    if (!layers) {
        message = "layers is NULL but layer_count is " + std::to_string(count);
        return false;
    }
    for (int k = 0; k < count; ++k) {
        if (!layers[k]) {
            message = "layers[" + std::to_string(k) + "] is NULL";
            return false;
        }
        const int index = findLayer(s, layers[k]);
        if (index < 0) {
            message = "layers[" + std::to_string(k) + "]: " + unknownLayer(s, layers[k]);
            return false;
        }
        if (std::find(out.begin(), out.end(), index) != out.end()) {
            message = "layers[" + std::to_string(k) + "]: layer " + quote(layers[k]) + " is listed twice";
            return false;
        }
        out.push_back(index);
    }
    return true;
}

// A call on an open session returning an int (-1 on failure): guarded, the handle checked, then
// `body(session, message)`.
template<typename Body>
int onSession(grove_session *session, Body body) noexcept
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        std::shared_ptr<Session> s = findSession(session, message);
        return s ? body(*s, message) : -1;
    });
}

} // namespace

extern "C" {

grove_session *grove_session_open(grove_graph *graph, const char *const *layers, int layer_count,
                                  const grove_session_options *opts, char *error, size_t error_size)
{
    return guarded<grove_session *>(error, error_size, nullptr, [&](std::string &message) -> grove_session * {
        std::shared_ptr<GraphState> s = acquire(graph, message);
        if (!s)
            return nullptr;
        if (s->world.chunk <= 0) {
            message = "the graph's world has no chunks (world.chunk): a session streams chunks; ask grove_points_in_region";
            return nullptr;
        }
        std::vector<int> indices;
        if (!sessionLayers(*s, layers, layer_count, indices, message))
            return nullptr;
        SessionSettings settings;
        if (!readSessionOptions(opts, s->world.chunk, settings, message))
            return nullptr;
        return addSession(std::make_shared<Session>(std::move(s), std::move(indices), settings));
    });
}

int grove_session_update(grove_session *session, const grove_source *sources, int source_count, long long budget_us,
                         grove_update_result *out)
{
    return onSession(session, [&](Session &s, std::string &message) {
        if (!out) {
            message = "out is NULL";
            return -1;
        }
        return s.update(sources, source_count, budget_us, *out, message);
    });
}

int grove_session_wait(grove_session *session, long long timeout_us)
{
    return onSession(session, [&](Session &s, std::string &message) {
        if (timeout_us < 0) {
            message = "timeout_us is negative (" + std::to_string(timeout_us) + ")";
            return -1;
        }
        return s.wait(timeout_us);
    });
}

int grove_session_get_stats(grove_session *session, grove_session_stats *out)
{
    return onSession(session, [&](Session &s, std::string &message) {
        if (!out) {
            message = "out is NULL";
            return -1;
        }
        s.stats(*out);
        return 0;
    });
}

void grove_session_close(grove_session *session)
{
    if (!session)
        return;
    try {
        if (std::shared_ptr<Session> s = takeSession(session))
            s->close();  // joined here; the memory goes with the last reference
    } catch (...) {
    }
}

} // extern "C"
