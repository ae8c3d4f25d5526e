// libgrove's handles: numbers, never addresses, so a closed or made-up handle is not found
// (an error), whatever memory it had. One registry per kind of handle (graphs, sessions).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace grove::capi {

template<typename T>
class HandleRegistry
{
public:
    // `first`: the first handle, so that the kinds' numbers differ
    explicit HandleRegistry(std::uintptr_t first) : m_next(first) {}

    std::uintptr_t add(std::shared_ptr<T> value)
    {
        std::lock_guard lock(m_mutex);
        const std::uintptr_t handle = m_next++;
        m_items.emplace(handle, std::move(value));
        return handle;
    }
    // Null when `handle` is not open.
    std::shared_ptr<T> find(std::uintptr_t handle) const
    {
        std::lock_guard lock(m_mutex);
        auto it = m_items.find(handle);
        return it == m_items.end() ? nullptr : it->second;
    }
    // Takes the value out (null when not open): the handle is no longer valid.
    std::shared_ptr<T> take(std::uintptr_t handle)
    {
        std::lock_guard lock(m_mutex);
        auto it = m_items.find(handle);
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
};

} // namespace grove::capi
