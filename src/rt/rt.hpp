// The whole public API in one include.
#pragma once

#include "rt/runtime.hpp"
#include "rt/task/join_error.hpp"
#include "rt/task/join_handle.hpp"
#include "rt/task/poll.hpp"
#include "rt/task/task.hpp"
#include "rt/task/waker.hpp"
#include "rt/task/yield_now.hpp"
//@ chapters sync..
#include "rt/sync/mpsc.hpp"
#include "rt/sync/mutex.hpp"
#include "rt/sync/notify.hpp"
#include "rt/sync/oneshot.hpp"
//@ end
#include "rt/todo.hpp"
