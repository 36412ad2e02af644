// The whole public API in one include.
#pragma once

#include "rt/runtime.hpp"
//@ chapters lifo-slot..
// Its workers have a LIFO slot, which rt::Builder::disable_lifo_slot()
// turns off: the tests of the ring (chapters 05, 06) turn it off.
#define RT_HAS_LIFO_SLOT 1
//@ end
#include "rt/task/join_error.hpp"
#include "rt/task/join_handle.hpp"
#include "rt/task/poll.hpp"
#include "rt/task/task.hpp"
#include "rt/task/context.hpp"
#include "rt/task/waker.hpp"
#include "rt/task/yield_now.hpp"
//@ chapters sync..
#include "rt/sync/mpsc.hpp"
#include "rt/sync/mutex.hpp"
#include "rt/sync/notify.hpp"
#include "rt/sync/oneshot.hpp"
//@ end
//@ chapters coop..
#include "rt/task/coop.hpp"
//@ end
//@ chapters reactor..
#include "rt/net.hpp"

// The runtime has an I/O driver (rt::Builder::enable_io) and rt::net.
#define RT_HAS_IO 1
//@ end
//@ chapters timers..
#include "rt/time.hpp"

// The runtime has timers (rt::Builder::enable_time) and rt::time.
#define RT_HAS_TIME 1
//@ end
//@ chapters blocking..
#include "rt/blocking/block_in_place.hpp"
#include "rt/blocking/spawn_blocking.hpp"

// The runtime has a blocking pool: rt::spawn_blocking, rt::block_in_place.
#define RT_HAS_BLOCKING 1
//@ end
//@ chapters capstone..
#include "rt/signal.hpp"
#include "rt/sync/cancellation_token.hpp"
#include "rt/task/join_set.hpp"
#include "rt/task/select.hpp"

// The runtime has what a service needs: rt::JoinSet, rt::select,
// rt::CancellationToken, rt::signal, and the metrics and trace of
// chapter 12.
#define RT_HAS_CAPSTONE 1
//@ end
#include "rt/todo.hpp"
