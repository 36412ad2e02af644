// The standard headers a runtime's files include most, precompiled once
// per runtime library that compiles file by file (a student's chapter):
// nearly all of what the compiler reads for one of the runtime's files is
// these headers, so each file then compiles in about two thirds of
// the time (chapter 09's two runtimes: 109 CPU-s against 167). Force-
// included by meson (cpp_pch in src/meson.build); a file still includes
// what it uses, since the solutions compile as one unit without it.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <concepts>
#include <condition_variable>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>
