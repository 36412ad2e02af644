//! The benchmark program for Tokio: the workloads of bench/workloads.hpp,
//! written as bench/course/*.hpp writes them for the course's runtimes, with
//! the command line and the one JSON line of bench/program.hpp, so that
//! scripts/bench can race it (`--runtimes tokio`, or `--contender
//! tokio=PATH`).
//!
//!   bench-tokio --workload ping_pong [--flavour multi_thread] [--workers 2]
//!       [--iterations 5] [--warmup 1] [--count-allocations] [--smoke]
//!
//! Where the course awaits a `Latch` (bench/course/latch.hpp), this awaits
//! one made of an atomic count and a `tokio::sync::Notify`; where it joins
//! handles in order, so does this. Exit status 3: a workload this build
//! cannot run (the echo rows without the `net` feature).

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::runtime::{Builder, Runtime};
use tokio::sync::{mpsc, oneshot, Notify};
use tokio::task::JoinHandle;

const RUNTIME: &str = "tokio";
const CANNOT_RUN: u8 = 3;

// ------------------------------------------------------------- shapes
// bench/workloads.hpp, number for number.

const WORKLOADS: [&str; 13] = [
    "spawn_many_local", "spawn_many_remote_idle", "spawn_many_remote_busy", "yield_many",
    "ping_pong", "ping_pong_upstream", "chained_spawn", "echo_1",
    "echo_10", "echo_100", "timers", "timeout_ready",
    "spawn_blocking",
];

#[derive(Clone, Copy, PartialEq)]
enum Flavour {
    CurrentThread,
    MultiThread,
}

impl Flavour {
    fn name(self) -> &'static str {
        match self {
            Flavour::CurrentThread => "current_thread",
            Flavour::MultiThread => "multi_thread",
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Size {
    Full,
    Smoke,
}

#[derive(Clone, Copy, PartialEq)]
enum Timing {
    Wall,
    Cpu,
}

fn spawn_count(flavour: Flavour) -> usize {
    if flavour == Flavour::CurrentThread { 1_000 } else { 10_000 }
}
const YIELD_TASKS: usize = 200;
const YIELDS_PER_TASK: usize = 1_000;
const PING_PONG_ROUND_TRIPS: usize = 100_000;
const UPSTREAM_PAIRS: usize = 1_000;
const CHAIN_LENGTH: usize = 1_000;
#[cfg_attr(not(feature = "net"), allow(dead_code))]
const ECHO_MESSAGE_BYTES: usize = 64;
fn echo_connections(workload: &str) -> usize {
    match workload {
        "echo_1" => 1,
        "echo_10" => 10,
        _ => 100,
    }
}
fn echo_round_trips(size: Size) -> usize {
    if size == Size::Full { 20_000 } else { 200 }
}
fn echo_round_trips_per_connection(workload: &str, size: Size) -> usize {
    echo_round_trips(size) / echo_connections(workload)
}
const TIMER_LONGEST_MS: u64 = 100;
fn timer_sleeps(size: Size) -> usize {
    if size == Size::Full { 100_000 } else { 1_000 }
}
fn timer_sleep_ms(i: usize) -> u64 {
    1 + i as u64 % TIMER_LONGEST_MS
}
const TIMEOUTS_PER_ITERATION: usize = 100_000;
fn tasks_per_flavour(flavour: Flavour, workers: usize) -> usize {
    if flavour == Flavour::CurrentThread { 1 } else { workers }
}
const BLOCKING_BATCH_SIZE: usize = 16;
const BLOCKING_BATCHES_PER_ITERATION: usize = 200;
// The share of task t of `tasks`: the remainder goes to the first tasks.
fn share_of(total: usize, t: usize, tasks: usize) -> usize {
    total / tasks + usize::from(t < total % tasks)
}

struct Shape {
    unit: &'static str,
    units: usize,
    timing: Timing,
}

fn shape_of(workload: &str, flavour: Flavour, size: Size) -> Shape {
    let wall = |unit, units| Shape { unit, units, timing: Timing::Wall };
    match workload {
        w if w.starts_with("spawn_many") => wall("task", spawn_count(flavour)),
        "yield_many" => wall("yield", YIELD_TASKS * YIELDS_PER_TASK),
        "ping_pong" => wall("round trip", PING_PONG_ROUND_TRIPS),
        "ping_pong_upstream" => wall("pair", UPSTREAM_PAIRS),
        "chained_spawn" => wall("spawn", CHAIN_LENGTH),
        w if w.starts_with("echo_") => {
            wall("round trip", echo_connections(w) * echo_round_trips_per_connection(w, size))
        }
        "timers" => Shape { unit: "sleep", units: timer_sleeps(size), timing: Timing::Cpu },
        "timeout_ready" => wall("timeout", TIMEOUTS_PER_ITERATION),
        "spawn_blocking" => wall("job", BLOCKING_BATCHES_PER_ITERATION * BLOCKING_BATCH_SIZE),
        _ => unreachable!("the command line admits only known workloads"),
    }
}

// ------------------------------------------------------- allocations
// bench/counting_allocator.cpp: while counting is off, one load of a flag.

struct CountingAllocator;

static COUNTING: AtomicBool = AtomicBool::new(false);
static COUNT: AtomicU64 = AtomicU64::new(0);

fn note_allocation() {
    // Relaxed: a tally read after the runtime handed every result back.
    if COUNTING.load(Ordering::Relaxed) {
        COUNT.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        unsafe { System.alloc_zeroed(layout) }
    }
    // A growth is an allocation, as a C++ container's growth is a new.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

// ------------------------------------------------------------- clocks

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, now: *mut Timespec) -> i32;
}

const CLOCK_PROCESS_CPUTIME_ID: i32 = 2; // Linux's value

// The CPU time of every thread of the process, as program.hpp's now_ns.
fn process_cpu_ns() -> i64 {
    let mut now = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec for the call to fill.
    unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    now.tv_sec * 1_000_000_000 + now.tv_nsec
}

// -------------------------------------------------------------- latch
// bench/course/latch.hpp: a count that tasks count down and one task awaits.

struct Latch {
    remaining: AtomicUsize,
    done: Notify,
}

impl Latch {
    fn new(count: usize) -> Arc<Latch> {
        Arc::new(Latch { remaining: AtomicUsize::new(count), done: Notify::new() })
    }
    fn count_down(&self) {
        // AcqRel: the last count_down sees what every earlier task wrote.
        if self.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.done.notify_one(); // stores a permit if no one waits yet
        }
    }
    async fn wait(&self) {
        while self.remaining.load(Ordering::Acquire) != 0 {
            self.done.notified().await;
        }
    }
}

// ----------------------------------------------------------- runtimes
// bench/course/runtime.hpp and make_timer_runtime.

#[derive(Clone, Copy)]
enum Drivers {
    None,
    #[cfg_attr(not(feature = "net"), allow(dead_code))]
    Io,
    All,
}

fn make_runtime(flavour: Flavour, workers: usize, drivers: Drivers) -> Runtime {
    let mut builder = match flavour {
        Flavour::CurrentThread => Builder::new_current_thread(),
        Flavour::MultiThread => {
            let mut b = Builder::new_multi_thread();
            b.worker_threads(workers);
            b
        }
    };
    match drivers {
        Drivers::None => {}
        Drivers::Io => {
            #[cfg(feature = "net")]
            builder.enable_io();
        }
        Drivers::All => {
            builder.enable_all();
        }
    }
    builder.build().expect("the runtime could not be built")
}

async fn join_all<T>(handles: Vec<JoinHandle<T>>) {
    for handle in handles {
        handle.await.expect("a task panicked");
    }
}

trait Workload {
    fn iteration(&mut self);
}

// --------------------------------------------------------- spawn_many

struct SpawnManyLocal {
    flavour: Flavour,
    runtime: Runtime,
}

impl Workload for SpawnManyLocal {
    fn iteration(&mut self) {
        let n = spawn_count(self.flavour);
        if self.flavour == Flavour::CurrentThread {
            // Spawn them all, then join each.
            self.runtime.block_on(async move {
                let handles: Vec<_> = (0..n).map(|_| tokio::spawn(async {})).collect();
                join_all(handles).await;
            });
        } else {
            // Each task counts down; wait for the last.
            let done = Latch::new(n);
            self.runtime.block_on(async move {
                for _ in 0..n {
                    let done = done.clone();
                    tokio::spawn(async move { done.count_down() }); // detached
                }
                done.wait().await;
            });
        }
    }
}

// Tokio's iter(): the task spawns its successor and ends, until told to stop.
fn spawn_forever(stop: Arc<AtomicBool>) {
    tokio::spawn(async move {
        // Relaxed: a request to stop, publishing nothing else.
        if !stop.load(Ordering::Relaxed) {
            spawn_forever(stop);
        }
    });
}

struct SpawnManyRemote {
    flavour: Flavour,
    stop: Arc<AtomicBool>,
    runtime: Runtime,
}

impl SpawnManyRemote {
    fn new(flavour: Flavour, workers: usize, busy: bool) -> Self {
        let runtime = make_runtime(flavour, workers, Drivers::None);
        let stop = Arc::new(AtomicBool::new(false));
        if busy {
            let _guard = runtime.enter();
            spawn_forever(stop.clone());
        }
        SpawnManyRemote { flavour, stop, runtime }
    }
}

impl Drop for SpawnManyRemote {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Workload for SpawnManyRemote {
    fn iteration(&mut self) {
        // From this thread, which is not one of the runtime's: a remote spawn.
        let handles: Vec<_> =
            (0..spawn_count(self.flavour)).map(|_| self.runtime.spawn(async {})).collect();
        self.runtime.block_on(join_all(handles));
    }
}

// --------------------------------------------------------- yield_many

struct YieldMany {
    runtime: Runtime,
}

impl Workload for YieldMany {
    fn iteration(&mut self) {
        let handles: Vec<_> = (0..YIELD_TASKS)
            .map(|_| {
                self.runtime.spawn(async {
                    for _ in 0..YIELDS_PER_TASK {
                        tokio::task::yield_now().await;
                    }
                })
            })
            .collect();
        self.runtime.block_on(join_all(handles));
    }
}

// ---------------------------------------------------------- ping_pong

async fn play_ping_pong(round_trips: usize) {
    let (ping_tx, mut ping_rx) = mpsc::channel::<usize>(1);
    let (pong_tx, mut pong_rx) = mpsc::channel::<usize>(1);
    let echoing = tokio::spawn(async move {
        while let Some(n) = ping_rx.recv().await {
            pong_tx.send(n).await.expect("ping_pong: the pinger left");
        }
    });
    let pinging = tokio::spawn(async move {
        for i in 0..round_trips {
            ping_tx.send(i).await.expect("ping_pong: the echo left");
            let back = pong_rx.recv().await;
            assert_eq!(back, Some(i), "ping_pong lost a message");
        }
        // ping_tx dropped here: the echo's recv() now ends
    });
    pinging.await.expect("the pinger panicked");
    echoing.await.expect("the echo panicked");
}

struct PingPong {
    runtime: Runtime,
}

impl Workload for PingPong {
    fn iteration(&mut self) {
        self.runtime.block_on(play_ping_pong(PING_PONG_ROUND_TRIPS));
    }
}

// ------------------------------------------------- ping_pong_upstream

async fn ask(done: Arc<Latch>) {
    let (question_tx, question_rx) = oneshot::channel::<i32>();
    let (reply_tx, reply_rx) = oneshot::channel::<i32>();
    tokio::spawn(async move {
        let _ = question_rx.await;
        let _ = reply_tx.send(0);
    }); // detached
    let _ = question_tx.send(0);
    let _ = reply_rx.await;
    done.count_down();
}

struct PingPongUpstream {
    runtime: Runtime,
}

impl Workload for PingPongUpstream {
    fn iteration(&mut self) {
        let done = Latch::new(UPSTREAM_PAIRS);
        self.runtime.block_on(async move {
            let spawner = done.clone();
            tokio::spawn(async move {
                for _ in 0..UPSTREAM_PAIRS {
                    tokio::spawn(ask(spawner.clone())); // detached
                }
            });
            done.wait().await;
        });
    }
}

// ------------------------------------------------------ chained_spawn

fn spawn_chain(done: Arc<Latch>, remaining: usize) {
    tokio::spawn(async move {
        if remaining == 0 {
            done.count_down();
        } else {
            spawn_chain(done, remaining - 1); // detached
        }
    });
}

struct ChainedSpawn {
    runtime: Runtime,
}

impl Workload for ChainedSpawn {
    fn iteration(&mut self) {
        let done = Latch::new(1);
        self.runtime.block_on(async move {
            spawn_chain(done.clone(), CHAIN_LENGTH);
            done.wait().await;
        });
    }
}

// --------------------------------------------------------------- echo
// bench/course/echo.hpp: Tokio's echo example, server and clients on one
// runtime, the connections opened once. Written on the readiness API of
// the net feature (readable/try_read, writable/try_write), which needs no
// more of Tokio than its net feature.

#[cfg(feature = "net")]
mod echo {
    use super::*;
    use std::io;
    use tokio::net::{TcpListener, TcpStream};

    async fn write_all(stream: &TcpStream, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            match stream.try_write(bytes) {
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => stream.writable().await?,
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    async fn read_some(stream: &TcpStream, buffer: &mut [u8]) -> io::Result<usize> {
        loop {
            match stream.try_read(buffer) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => stream.readable().await?,
                Err(e) => return Err(e),
            }
        }
    }

    async fn read_exact(stream: &TcpStream, mut buffer: &mut [u8]) -> io::Result<()> {
        while !buffer.is_empty() {
            let n = read_some(stream, buffer).await?;
            if n == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            buffer = &mut buffer[n..];
        }
        Ok(())
    }

    // The server's side of one connection: whatever comes in goes back out.
    async fn serve(stream: TcpStream) {
        let mut buffer = [0u8; 1024];
        loop {
            match read_some(&stream, &mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => {
                    if write_all(&stream, &buffer[..n]).await.is_err() {
                        return;
                    }
                }
            }
        }
    }

    async fn open_connections(connections: usize) -> io::Result<Vec<Arc<TcpStream>>> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let address = listener.local_addr()?;
        let accepting = tokio::spawn(async move {
            for _ in 0..connections {
                let (stream, _) = listener.accept().await?;
                stream.set_nodelay(true)?;
                tokio::spawn(serve(stream)); // detached: it ends when its client closes
            }
            io::Result::Ok(())
        });
        let mut clients = Vec::with_capacity(connections);
        for _ in 0..connections {
            let client = TcpStream::connect(address).await?;
            client.set_nodelay(true)?;
            clients.push(Arc::new(client));
        }
        accepting.await.expect("the acceptor panicked")?;
        Ok(clients)
    }

    async fn round_trips(client: Arc<TcpStream>, count: usize) {
        let mut message = [0u8; ECHO_MESSAGE_BYTES];
        let mut reply = [0u8; ECHO_MESSAGE_BYTES];
        for i in 0..count {
            message[0] = i as u8;
            write_all(&client, &message).await.expect("echo: write failed");
            read_exact(&client, &mut reply).await.expect("echo: read failed");
            assert_eq!(reply, message, "echo sent back other bytes");
        }
    }

    pub struct Echo {
        round_trips_each: usize,
        // Declared before runtime: closed before it shuts down.
        clients: Vec<Arc<TcpStream>>,
        runtime: Runtime,
    }

    impl Echo {
        pub fn new(workload: &str, flavour: Flavour, workers: usize, size: Size) -> io::Result<Echo> {
            let runtime = make_runtime(flavour, workers, Drivers::Io);
            let clients = runtime.block_on(open_connections(echo_connections(workload)))?;
            Ok(Echo { round_trips_each: echo_round_trips_per_connection(workload, size), clients, runtime })
        }
    }

    impl Workload for Echo {
        fn iteration(&mut self) {
            let each = self.round_trips_each;
            let clients = self.clients.clone();
            self.runtime.block_on(async move {
                let handles: Vec<_> =
                    clients.into_iter().map(|c| tokio::spawn(round_trips(c, each))).collect();
                join_all(handles).await;
            });
        }
    }
}

// ------------------------------------------------------------- timers
// bench/course/timers.hpp.

struct Timers {
    sleeps: usize,
    runtime: Runtime,
}

impl Workload for Timers {
    fn iteration(&mut self) {
        let sleeps = self.sleeps;
        let done = Latch::new(sleeps);
        // Spawned from block_on, as Tokio's time benchmarks spawn theirs.
        self.runtime.block_on(async move {
            for i in 0..sleeps {
                let done = done.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(timer_sleep_ms(i))).await;
                    done.count_down();
                }); // detached
            }
            done.wait().await;
        });
    }
}

async fn quick_job() -> usize {
    1
}

struct TimeoutReady {
    tasks: usize,
    runtime: Runtime,
}

impl Workload for TimeoutReady {
    fn iteration(&mut self) {
        let handles: Vec<_> = (0..self.tasks)
            .map(|t| {
                let count = share_of(TIMEOUTS_PER_ITERATION, t, self.tasks);
                self.runtime.spawn(async move {
                    for _ in 0..count {
                        let value = tokio::time::timeout(Duration::from_secs(1), quick_job()).await;
                        assert_eq!(value, Ok(1), "the timeout returned another value");
                    }
                })
            })
            .collect();
        self.runtime.block_on(join_all(handles));
    }
}

// ----------------------------------------------------- spawn_blocking
// bench/course/blocking.hpp: Tokio's benches/spawn_blocking.rs, the batch's
// handles awaited in order as the course's program awaits them.

async fn blocking_batches(batches: usize) {
    let mut batch = Vec::with_capacity(BLOCKING_BATCH_SIZE);
    for _ in 0..batches {
        for _ in 0..BLOCKING_BATCH_SIZE {
            batch.push(tokio::task::spawn_blocking(|| std::hint::black_box(0)));
        }
        for handle in batch.drain(..) {
            assert_eq!(handle.await.expect("a blocking job panicked"), 0);
        }
    }
}

struct SpawnBlocking {
    tasks: usize,
    runtime: Runtime,
}

impl Workload for SpawnBlocking {
    fn iteration(&mut self) {
        let handles: Vec<_> = (0..self.tasks)
            .map(|t| {
                let batches = share_of(BLOCKING_BATCHES_PER_ITERATION, t, self.tasks);
                self.runtime.spawn(blocking_batches(batches))
            })
            .collect();
        self.runtime.block_on(join_all(handles));
    }
}

// ------------------------------------------------------------ program

struct Options {
    workload: String,
    flavour: Flavour,
    workers: usize,
    iterations: usize,
    warmup: usize,
    count_allocations: bool,
    size: Size,
}

enum Made {
    Ready(Box<dyn Workload>),
    CannotRun(String),
}

fn make(o: &Options) -> Made {
    let (f, w) = (o.flavour, o.workers);
    let runtime = || make_runtime(f, w, Drivers::None);
    let timer_runtime = || make_runtime(f, w, Drivers::All);
    let workload: Box<dyn Workload> = match o.workload.as_str() {
        "spawn_many_local" => Box::new(SpawnManyLocal { flavour: f, runtime: runtime() }),
        "spawn_many_remote_idle" => Box::new(SpawnManyRemote::new(f, w, false)),
        "spawn_many_remote_busy" => Box::new(SpawnManyRemote::new(f, w, true)),
        "yield_many" => Box::new(YieldMany { runtime: runtime() }),
        "ping_pong" => Box::new(PingPong { runtime: runtime() }),
        "ping_pong_upstream" => Box::new(PingPongUpstream { runtime: runtime() }),
        "chained_spawn" => Box::new(ChainedSpawn { runtime: runtime() }),
        #[cfg(feature = "net")]
        name if name.starts_with("echo_") => match echo::Echo::new(name, f, w, o.size) {
            Ok(echo) => Box::new(echo),
            Err(e) => panic!("setting up {name} failed: {e}"),
        },
        #[cfg(not(feature = "net"))]
        name if name.starts_with("echo_") => {
            return Made::CannotRun("built without the net feature (cargo's --no-default-features)".into())
        }
        "timers" => Box::new(Timers { sleeps: timer_sleeps(o.size), runtime: timer_runtime() }),
        "timeout_ready" => Box::new(TimeoutReady { tasks: tasks_per_flavour(f, w), runtime: timer_runtime() }),
        "spawn_blocking" => Box::new(SpawnBlocking { tasks: tasks_per_flavour(f, w), runtime: timer_runtime() }),
        _ => return Made::CannotRun("no such workload here".into()),
    };
    Made::Ready(workload)
}

struct Measurement {
    ns: Vec<i64>,
    allocations: Option<u64>,
}

fn now_ns(timing: Timing, epoch: Instant) -> i64 {
    match timing {
        Timing::Wall => epoch.elapsed().as_nanos() as i64,
        Timing::Cpu => process_cpu_ns(),
    }
}

fn measure(workload: &mut dyn Workload, o: &Options) -> Measurement {
    let timing = shape_of(&o.workload, o.flavour, o.size).timing;
    let epoch = Instant::now();
    for _ in 0..o.warmup {
        workload.iteration();
    }
    let mut ns = Vec::with_capacity(o.iterations);
    for _ in 0..o.iterations {
        let start = now_ns(timing, epoch);
        workload.iteration();
        ns.push(now_ns(timing, epoch) - start);
    }
    let mut allocations = None;
    if o.count_allocations {
        COUNT.store(0, Ordering::Relaxed);
        COUNTING.store(true, Ordering::SeqCst); // before any allocation that follows
        workload.iteration();
        COUNTING.store(false, Ordering::SeqCst);
        allocations = Some(COUNT.load(Ordering::Relaxed));
    }
    Measurement { ns, allocations }
}

fn print_json(o: &Options, m: &Measurement) {
    let shape = shape_of(&o.workload, o.flavour, o.size);
    let workers = if o.flavour == Flavour::CurrentThread { 1 } else { o.workers };
    let ns: Vec<String> = m.ns.iter().map(|n| n.to_string()).collect();
    let allocations = m.allocations.map_or("null".to_string(), |a| a.to_string());
    println!(
        r#"{{"runtime": "{}", "workload": "{}", "flavour": "{}", "workers": {}, "unit": "{}", "units": {}, "clock": "{}", "ns": [{}], "allocations": {}}}"#,
        RUNTIME,
        o.workload,
        o.flavour.name(),
        workers,
        shape.unit,
        shape.units,
        if shape.timing == Timing::Wall { "wall" } else { "cpu" },
        ns.join(", "),
        allocations
    );
}

const USAGE: &str = "Runs one of the benchmark workloads on Tokio and prints one JSON line \
(scripts/bench runs this).
Usage: bench-tokio --workload NAME [--flavour current_thread|multi_thread] [--workers N]
       [--iterations N] [--warmup N] [--count-allocations] [--smoke]";

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        workload: String::new(),
        flavour: Flavour::CurrentThread,
        workers: 2,
        iterations: 5,
        warmup: 1,
        count_allocations: false,
        size: Size::Full,
    };
    let mut i = 0;
    while i < args.len() {
        // --option value, or --option=value, as CLI11 takes them.
        let (name, inline) = match args[i].split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (args[i].clone(), None),
        };
        let mut value = || -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            i += 1;
            args.get(i).cloned().ok_or(format!("{name} needs a value"))
        };
        let number = |text: String, low: usize, high: usize| -> Result<usize, String> {
            match text.parse::<usize>() {
                Ok(n) if (low..=high).contains(&n) => Ok(n),
                _ => Err(format!("{name}: {text} is not a number in {low}..{high}")),
            }
        };
        match name.as_str() {
            "--workload" => {
                let w = value()?;
                if !WORKLOADS.contains(&w.as_str()) {
                    return Err(format!("--workload: {w} is not one of {}", WORKLOADS.join(", ")));
                }
                o.workload = w;
            }
            "--flavour" => {
                o.flavour = match value()?.to_ascii_lowercase().as_str() {
                    "current_thread" => Flavour::CurrentThread,
                    "multi_thread" => Flavour::MultiThread,
                    other => return Err(format!("--flavour: {other} is not current_thread or multi_thread")),
                }
            }
            "--workers" => o.workers = number(value()?, 1, 1024)?,
            "--iterations" => o.iterations = number(value()?, 0, 1_000_000)?,
            "--warmup" => o.warmup = number(value()?, 0, 1_000_000)?,
            "--count-allocations" => o.count_allocations = true,
            "--smoke" => o.size = Size::Smoke,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option {other}")),
        }
        i += 1;
    }
    if o.workload.is_empty() {
        return Err("--workload is required".into());
    }
    Ok(o)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut workload = match make(&options) {
        Made::Ready(w) => w,
        Made::CannotRun(why) => {
            eprintln!("{RUNTIME} cannot run {} ({}): {why}", options.workload, options.flavour.name());
            return ExitCode::from(CANNOT_RUN);
        }
    };
    let m = measure(workload.as_mut(), &options);
    drop(workload); // the runtime shuts down cleanly before the report
    print_json(&options, &m);
    ExitCode::SUCCESS
}
