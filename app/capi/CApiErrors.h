// libgrove's error convention, shared by every entry point: a failure's message goes to the
// caller's buffer and to the thread's last error (grove_last_error); nothing crosses the C ABI.
#pragma once

#include <cstddef>
#include <exception>
#include <new>
#include <string>

namespace grove::capi {

// A failure's message: to the caller's buffer (cut at a UTF-8 boundary) and the thread's last error.
void report(char *error, std::size_t size, const char *message) noexcept;
void clearError(char *error, std::size_t size) noexcept;
const char *lastError() noexcept;

// Runs `body` (which reports its own failures through `message`), turning any exception into a
// message: nothing crosses the C ABI.
template<typename R, typename Body>
R guarded(char *error, std::size_t size, R failed, Body body) noexcept
{
    std::string message;
    try {
        R value = body(message);
        if (message.empty()) {
            clearError(error, size);
            return value;
        }
    } catch (const std::bad_alloc &) {
        message = "out of memory";
    } catch (const std::exception &e) {
        message = std::string("internal error: ") + e.what();
    } catch (...) {
        message = "internal error";
    }
    if (message.empty())
        message = "internal error";
    report(error, size, message.c_str());
    return failed;
}

} // namespace grove::capi
