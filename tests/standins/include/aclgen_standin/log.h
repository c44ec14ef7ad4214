// aclgen's stand-in logging, shared by its opdev/op_log.h and log/log.h stand-ins (not CANN's headers): OP_LOGE and its kin.
// The first argument is a status code in op_api code and a node name in op_host code: both are taken.
// Messages go to stderr only where ACLGEN_STANDIN_LOG is set (the tests run thousands of rejections).
#ifndef ACLGEN_STANDIN_LOG_H_
#define ACLGEN_STANDIN_LOG_H_

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace aclgen_standin {
inline void VLog(const char* level, const char* fmt, va_list args)
{
    if (std::getenv("ACLGEN_STANDIN_LOG") == nullptr) {
        return;
    }
    std::fprintf(stderr, "[%s] ", level);
    std::vfprintf(stderr, fmt, args);
    std::fputc('\n', stderr);
}
__attribute__((format(printf, 3, 4))) inline void Log(const char* level, int64_t, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    VLog(level, fmt, args);
    va_end(args);
}
__attribute__((format(printf, 3, 4))) inline void Log(const char* level, const char*, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    VLog(level, fmt, args);
    va_end(args);
}
} // namespace aclgen_standin

#define OP_LOGE(who, ...) ::aclgen_standin::Log("ERROR", who, __VA_ARGS__)
#define OP_LOGW(who, ...) ::aclgen_standin::Log("WARN", who, __VA_ARGS__)
#define OP_LOGI(who, ...) ::aclgen_standin::Log("INFO", who, __VA_ARGS__)
#define OP_LOGD(who, ...) ::aclgen_standin::Log("DEBUG", who, __VA_ARGS__)

#endif
