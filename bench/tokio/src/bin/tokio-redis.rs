// tokio-redis: Tokio's contender in the capstone's race (scripts/bench
// --server). A Redis-protocol server of the capstone's shape, written the
// way a Tokio user would: a task per connection on a multi-thread runtime,
// replies gathered in a buffer and written once per read, the keyspace
// split over 16 shards behind std mutexes (capstone/db.hpp). It reads and
// writes with readable()/try_read and writable()/try_write, Tokio's net
// feature alone (AsyncReadExt would need io-util and the bytes crate).
//
// It serves what redis-benchmark sends (PING, inline or as an array, SET,
// GET, INCR, and the CONFIG GET it asks at start) and answers anything else
// with an error; it is a contender, not the capstone. Its command line is
// the course's servers': --bind HOST:PORT (port 0: any) and --workers N; it
// prints "listening on HOST:PORT" and exits 0 on SIGTERM.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use tokio::net::{TcpListener, TcpStream};

const USAGE: &str = "usage: tokio-redis [--bind HOST:PORT] [--workers N]";
const SHARDS: usize = 16;
// A request larger than this closes the connection (the capstone's limit
// is larger; redis-benchmark's requests are a few dozen bytes).
const MAX_REQUEST: usize = 1 << 20;

struct Db {
    shards: Vec<Mutex<HashMap<Vec<u8>, Vec<u8>>>>,
}

impl Db {
    fn new() -> Self {
        Db {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }

    fn shard(&self, key: &[u8]) -> &Mutex<HashMap<Vec<u8>, Vec<u8>>> {
        let mut hasher = DefaultHasher::new();
        key.hash(&mut hasher);
        &self.shards[(hasher.finish() as usize) % SHARDS]
    }
}

// One request parsed from the front of `buf`: its arguments and its length,
// None when it is not all there yet, Err when it is malformed.
fn parse(buf: &[u8]) -> Result<Option<(Vec<&[u8]>, usize)>, &'static str> {
    if buf.is_empty() {
        return Ok(None);
    }
    if buf[0] != b'*' {
        // An inline command: one line, words split by spaces.
        let Some(end) = find_crlf(buf, 0) else { return Ok(None) };
        let words = buf[..end].split(|b| *b == b' ').filter(|w| !w.is_empty()).collect();
        return Ok(Some((words, end + 2)));
    }
    let Some(end) = find_crlf(buf, 1) else { return Ok(None) };
    let count = number(&buf[1..end])
        .filter(|n| *n <= MAX_REQUEST)
        .ok_or("Protocol error: invalid multibulk length")?;
    let mut at = end + 2;
    let mut args = Vec::with_capacity(count.min(64));
    for _ in 0..count {
        if at >= buf.len() {
            return Ok(None);
        }
        if buf[at] != b'$' {
            return Err("Protocol error: expected '$'");
        }
        let Some(end) = find_crlf(buf, at + 1) else {
            return Ok(None);
        };
        let len = number(&buf[at + 1..end])
            .filter(|n| *n <= MAX_REQUEST)
            .ok_or("Protocol error: invalid bulk length")?;
        let start = end + 2;
        if buf.len() < start + len + 2 {
            return Ok(None);
        }
        args.push(&buf[start..start + len]);
        at = start + len + 2;
    }
    Ok(Some((args, at)))
}

fn find_crlf(buf: &[u8], from: usize) -> Option<usize> {
    buf[from..].windows(2).position(|w| w == b"\r\n").map(|p| from + p)
}

fn number(digits: &[u8]) -> Option<usize> {
    std::str::from_utf8(digits).ok()?.parse().ok()
}

fn bulk(out: &mut Vec<u8>, value: &[u8]) {
    write!(out, "${}\r\n", value.len()).unwrap();
    out.extend_from_slice(value);
    out.extend_from_slice(b"\r\n");
}

fn run(db: &Db, args: &[&[u8]], out: &mut Vec<u8>) {
    let Some(name) = args.first() else { return };
    let name = name.to_ascii_lowercase();
    match (name.as_slice(), args.len()) {
        (b"ping", 1) => out.extend_from_slice(b"+PONG\r\n"),
        (b"ping", 2) => bulk(out, args[1]),
        (b"set", 3) => {
            db.shard(args[1])
                .lock()
                .unwrap()
                .insert(args[1].to_vec(), args[2].to_vec());
            out.extend_from_slice(b"+OK\r\n");
        }
        (b"get", 2) => match db.shard(args[1]).lock().unwrap().get(args[1]) {
            Some(value) => bulk(out, value),
            None => out.extend_from_slice(b"$-1\r\n"),
        },
        (b"incr", 2) => {
            let mut shard = db.shard(args[1]).lock().unwrap();
            let current = match shard.get(args[1]) {
                None => Some(0i64),
                Some(value) => std::str::from_utf8(value).ok().and_then(|s| s.parse::<i64>().ok()),
            };
            match current.and_then(|n| n.checked_add(1)) {
                Some(n) => {
                    shard.insert(args[1].to_vec(), n.to_string().into_bytes());
                    write!(out, ":{n}\r\n").unwrap();
                }
                None => out.extend_from_slice(b"-ERR value is not an integer or out of range\r\n"),
            }
        }
        (b"config", n) if n >= 3 && args[1].eq_ignore_ascii_case(b"get") => {
            // redis-benchmark asks for save and appendonly; nothing persists.
            let known: [(&[u8], &[u8]); 2] = [(b"save", b""), (b"appendonly", b"no")];
            let pairs: Vec<_> = known
                .iter()
                .filter(|(key, _)| args[2..].iter().any(|a| *a == b"*" || a.eq_ignore_ascii_case(key)))
                .collect();
            write!(out, "*{}\r\n", 2 * pairs.len()).unwrap();
            for (key, value) in pairs {
                bulk(out, key);
                bulk(out, value);
            }
        }
        (b"command", _) => out.extend_from_slice(b"*0\r\n"),
        _ => {
            let shown = String::from_utf8_lossy(&args[0][..args[0].len().min(128)]).into_owned();
            write!(out, "-ERR unknown command '{shown}', or wrong number of arguments\r\n").unwrap();
        }
    }
}

// Reads once, waiting until the socket has something: 0 at the end.
async fn read(stream: &TcpStream, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        stream.readable().await?;
        match stream.try_read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            result => return result,
        }
    }
}

async fn write_all(stream: &TcpStream, mut bytes: &[u8]) -> std::io::Result<()> {
    while !bytes.is_empty() {
        stream.writable().await?;
        match stream.try_write(bytes) {
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

async fn serve(stream: TcpStream, db: Arc<Db>) {
    let _ = stream.set_nodelay(true);
    let mut buf = vec![0u8; 16 * 1024];
    let mut filled = 0;
    let mut out = Vec::with_capacity(16 * 1024);
    loop {
        if filled == buf.len() {
            if buf.len() >= MAX_REQUEST {
                return;
            }
            buf.resize(buf.len() * 2, 0);
        }
        let n = match read(&stream, &mut buf[filled..]).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        filled += n;
        let mut used = 0;
        loop {
            match parse(&buf[used..filled]) {
                Ok(Some((args, len))) => {
                    run(&db, &args, &mut out);
                    used += len;
                }
                Ok(None) => break,
                Err(message) => {
                    write!(out, "-ERR {message}\r\n").unwrap();
                    let _ = write_all(&stream, &out).await;
                    return;
                }
            }
        }
        buf.copy_within(used..filled, 0);
        filled -= used;
        if !out.is_empty() {
            if write_all(&stream, &out).await.is_err() {
                return;
            }
            out.clear();
        }
    }
}

fn options(args: &[String]) -> Result<(String, usize), String> {
    let mut bind = "127.0.0.1:6379".to_string();
    let mut workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut i = 0;
    while i < args.len() {
        let value = || args.get(i + 1).ok_or(format!("{} needs a value", args[i]));
        match args[i].as_str() {
            "--bind" => bind = value()?.clone(),
            "--workers" => {
                workers = value()?.parse().map_err(|_| "--workers wants a number".to_string())?;
                if workers == 0 {
                    return Err("--workers must be at least 1".into());
                }
            }
            other => return Err(format!("unknown option {other}")),
        }
        i += 2;
    }
    Ok((bind, workers))
}

// SIGTERM, taken synchronously by a thread of its own (Tokio's signal
// feature would need one more crate): blocked here, before any thread
// starts, so that every thread inherits the mask and only sigwait sees it.
fn exit_on_sigterm() {
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGTERM);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        std::thread::spawn(move || {
            let mut signal = 0;
            libc::sigwait(&set, &mut signal);
            std::process::exit(0);
        });
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (bind, workers) = match options(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tokio-redis: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    exit_on_sigterm();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build();
    let runtime = runtime.expect("a Tokio runtime");
    runtime.block_on(async move {
        let listener = match TcpListener::bind(&bind).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("tokio-redis: cannot listen on {bind}: {e}");
                return ExitCode::from(1);
            }
        };
        println!("listening on {}", listener.local_addr().unwrap());
        let _ = std::io::stdout().flush();
        let db = Arc::new(Db::new());
        loop {
            if let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, db.clone()));
            }
        }
    })
}
