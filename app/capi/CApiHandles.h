// libgrove's handles: numbers, never addresses, so a closed or made-up handle is not found
// (an error), whatever memory it had. One registry per kind of handle (graphs, sessions): the C
// handle type `Handle` stands for a `T`.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace grove::capi {

template<typename T, typename Handle>
class HandleRegistry
{
public:
    // `first`: the first handle, so that the kinds' numbers differ; `noun` and `opener` name the
    // kind in find's messages ("session", "grove_session_open")
    HandleRegistry(std::uintptr_t first, const char *noun, const char *opener) : m_next(first), m_noun(noun), m_opener(opener) {}

    Handle *add(std::shared_ptr<T> value)
    {
        std::lock_guard lock(m_mutex);
        const std::uintptr_t handle = m_next++;
        m_items.emplace(handle, std::move(value));
        return reinterpret_cast<Handle *>(handle);
    }
    // The value behind a handle a caller passed; null with `message` for NULL or a handle not open.
    std::shared_ptr<T> find(Handle *handle, std::string &message) const
    {
        if (!handle) {
            message = "the " + m_noun + " is NULL";
            return nullptr;
        }
        std::shared_ptr<T> value;
        {
            std::lock_guard lock(m_mutex);
            auto it = m_items.find(reinterpret_cast<std::uintptr_t>(handle));
            if (it != m_items.end())
                value = it->second;
        }
        if (!value)
            message = "not an open " + m_noun + " (closed already, or not from " + m_opener + ")";
        return value;
    }
    // Takes the value out (null when not open): the handle is no longer valid.
    std::shared_ptr<T> take(Handle *handle)
    {
        std::lock_guard lock(m_mutex);
        auto it = m_items.find(reinterpret_cast<std::uintptr_t>(handle));
        if (it == m_items.end())
            return nullptr;
        std::shared_ptr<T> value = std::move(it->second);
        m_items.erase(it);
        return value;
    }

private:
    mutable std::mutex m_mutex;
    std::map<std::uintptr_t, std::shared_ptr<T>> m_items;
    std::uintptr_t m_next;
    const std::string m_noun, m_opener;
};

} // namespace grove::capi
