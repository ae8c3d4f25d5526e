// libgrove's error convention: the caller's buffer and the thread's last error.
#include "CApiErrors.h"

#include <cstring>

namespace grove::capi {

namespace {
thread_local std::string t_lastError;
}

void report(char *error, std::size_t size, const char *message) noexcept
{
    const std::size_t length = std::strlen(message);
    try {
        t_lastError.assign(message, length);
    } catch (...) {
        t_lastError.clear();
    }
    if (!error || size == 0)
        return;
    std::size_t n = length < size - 1 ? length : size - 1;
    if (n < length)
        while (n > 0 && (static_cast<unsigned char>(message[n]) & 0xC0) == 0x80)
            --n;
    std::memcpy(error, message, n);
    error[n] = '\0';
}

void clearError(char *error, std::size_t size) noexcept
{
    if (error && size > 0)
        error[0] = '\0';
}

const char *lastError() noexcept
{
    return t_lastError.c_str();
}

} // namespace grove::capi
