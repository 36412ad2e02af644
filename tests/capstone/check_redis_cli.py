#!/usr/bin/env python3
"""Checks the capstone's Redis-protocol servers with the real redis-cli.

    check_redis_cli.py --server NAME=PATH[ OPTIONS] ... [--reference]

    e.g. --server rt-redis=build/capstone/rt-redis
         --server "rt-redis-current-thread=build/capstone/rt-redis --current-thread"

Each server is started with `--bind 127.0.0.1:0`; the port comes from the
one line it prints, `listening on 127.0.0.1:PORT`. Then, with Debian's
redis-cli (redis-tools) and raw sockets:

  commands     every command, with the replies and errors Redis gives
  pipeline     many commands on redis-cli's stdin, `redis-cli --pipe`, and
               a raw pipeline whose replies must come back whole and in order
  subscriber   a `redis-cli subscribe` process receives what another
               publishes; once it is gone, nobody receives
  malformed    protocol errors are answered with Redis's error and the
               connection is closed, as Redis closes it; a bad command is
               answered and its connection goes on; the server answers the
               next client
  disconnect   clients that vanish mid-request (a close, a reset, a
               pipeline never read) leave the server serving
  expiry       SET EX and PX, observed through TTL and PTTL until the key
               is gone; a key nobody reads is purged (DBSIZE falls)
  connections  2,000 connections open at once, each answered
  shutdown     SIGTERM, and SIGINT, with clients connected: the server
               answers what it has read, closes them, and exits 0

--reference runs the same checks (but the shutdown, which is the course's
own design) against redis-server, when it is installed, so that every
expectation here is Redis's own behaviour. Time is only ever polled for,
with generous deadlines: nothing sleeps to synchronise.

Exits 77 (meson's "skipped") when redis-cli is not installed.
"""
import argparse
import os
import re
import resource
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time

DEADLINE = 30.0  # seconds for anything to happen that should take milliseconds
CONNECTIONS = 2000


class CheckFailed(Exception):
    pass


def expect(what, got, wanted):
    if got != wanted:
        raise CheckFailed(f"{what}: got {got!r}, expected {wanted!r}")


def until(what, condition, timeout=DEADLINE):
    """Polls `condition` until it returns something true; fails after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise CheckFailed(f"{what}: still not so after {timeout:.0f} s")
        time.sleep(0.01)


class Server:
    """A server under test: a process we started, or a redis-server."""

    def __init__(self, name, argv, port=None):
        self.name = name
        # redis-server logs to stdout; ours print one line there.
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE if port is None else subprocess.DEVNULL, text=True)
        if port is None:
            line = self._first_line()
            match = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", line)
            if not match:
                self.process.kill()
                self.process.wait()
                raise CheckFailed(f"{name} printed {line!r}, not 'listening on 127.0.0.1:PORT'")
            port = int(match[1])
        self.port = port
        if name == "redis-server":
            until("redis-server accepts connections", self._accepts)

    def _first_line(self):
        selector = selectors.DefaultSelector()
        selector.register(self.process.stdout, selectors.EVENT_READ)
        if not selector.select(DEADLINE):
            self.process.kill()
            self.process.wait()
            raise CheckFailed(f"{self.name} printed nothing in {DEADLINE:.0f} s")
        return self.process.stdout.readline()

    def _accepts(self):
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=DEADLINE).close()
            return True
        except ConnectionRefusedError:
            return False

    def cli(self, *args, stdin=None):
        """redis-cli's output for one command (or for what `stdin` holds)."""
        result = subprocess.run(["redis-cli", "-p", str(self.port), *args], input=stdin,
                                capture_output=True, text=True, timeout=DEADLINE)
        if result.returncode != 0:
            raise CheckFailed(f"redis-cli {' '.join(args)} exited {result.returncode}: {result.stderr.strip()}")
        return result.stdout.rstrip("\n")

    def connect(self):
        return socket.create_connection(("127.0.0.1", self.port), timeout=DEADLINE)

    def stop(self, signo=signal.SIGTERM):
        """Sends `signo`; the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signo)
        try:
            return self.process.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise CheckFailed(f"{self.name} did not exit within {DEADLINE:.0f} s of signal {signo}")


def receive_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            break
        data += chunk
    return data


def receive_until_closed(sock):
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return data + b"<reset>"
        if not chunk:
            return data
        data += chunk


def exchange(sock, request, reply):
    """Sends `request` and checks that exactly `reply` comes back."""
    sock.sendall(request)
    expect(f"the reply to {request!r}", receive_exactly(sock, len(reply)), reply)


# ---------------------------------------------------------------- the checks

def check_commands(s):
    s.cli("DEL", "k", "n", "big", "p")
    expect("PING", s.cli("PING"), "PONG")
    expect("PING message", s.cli("PING", "hi there"), "hi there")
    expect("ECHO", s.cli("ECHO", "hello world"), "hello world")
    expect("GET of nothing", s.cli("GET", "k"), "")
    expect("SET", s.cli("SET", "k", "v"), "OK")
    expect("GET", s.cli("GET", "k"), "v")
    expect("SET NX on a key", s.cli("SET", "k", "w", "NX"), "")
    expect("SET XX GET", s.cli("SET", "k", "w", "XX", "GET"), "v")
    expect("GET after SET XX", s.cli("GET", "k"), "w")
    expect("SET with a bad option", s.cli("SET", "k", "v", "EX", "0"), "ERR invalid expire time in 'set' command")
    expect("EXISTS", s.cli("EXISTS", "k", "nope", "k"), "2")
    expect("INCR", s.cli("INCR", "n"), "1")
    expect("INCRBY", s.cli("INCRBY", "n", "41"), "42")
    expect("DECR", s.cli("DECR", "n"), "41")
    expect("DECRBY", s.cli("DECRBY", "n", "40"), "1")
    expect("INCR of a string", s.cli("INCR", "k"), "ERR value is not an integer or out of range")
    s.cli("SET", "big", "9223372036854775807")
    expect("INCR past the top", s.cli("INCR", "big"), "ERR increment or decrement would overflow")
    expect("EXPIRE", s.cli("EXPIRE", "k", "100"), "1")
    ttl = int(s.cli("TTL", "k"))
    if not 0 < ttl <= 100:
        raise CheckFailed(f"TTL after EXPIRE 100: {ttl}")
    pttl = int(s.cli("PTTL", "k"))
    if not 0 < pttl <= 100_000:
        raise CheckFailed(f"PTTL after EXPIRE 100: {pttl}")
    expect("EXPIRE NX on a key that expires", s.cli("EXPIRE", "k", "5", "NX"), "0")
    expect("EXPIRE of nothing", s.cli("EXPIRE", "nope", "100"), "0")
    expect("TTL of nothing", s.cli("TTL", "nope"), "-2")
    s.cli("SET", "p", "1")
    expect("TTL of a key that does not expire", s.cli("TTL", "p"), "-1")
    expect("PEXPIRE", s.cli("PEXPIRE", "p", "100000"), "1")
    before = int(s.cli("DBSIZE"))
    expect("DEL", s.cli("DEL", "k", "p", "nope"), "2")
    expect("DBSIZE after DEL", int(s.cli("DBSIZE")), before - 2)
    expect("PUBLISH to nobody", s.cli("PUBLISH", "nobody", "x"), "0")
    expect("CONFIG GET appendonly", s.cli("CONFIG", "GET", "appendonly"), "appendonly\nno")
    expect("an unknown command", s.cli("NOSUCH", "a", "b"), "ERR unknown command 'NOSUCH', with args beginning with: 'a' 'b' ")
    expect("a wrong number of arguments", s.cli("GET"), "ERR wrong number of arguments for 'get' command")
    with s.connect() as sock:
        exchange(sock, b"*1\r\n$4\r\nQUIT\r\n", b"+OK\r\n")
        expect("after QUIT", receive_until_closed(sock), b"")


def check_pipeline(s):
    lines = "".join(f"SET pipe:{i} {i}\n" for i in range(1000)) + "GET pipe:999\n" + "INCR pipe:count\n" * 100
    s.cli("DEL", "pipe:count")
    wanted = "\n".join(["OK"] * 1000 + ["999"] + [str(i) for i in range(1, 101)])
    expect("1,100 commands on redis-cli's stdin", s.cli(stdin=lines), wanted)

    protocol = "".join(f"*3\r\n$3\r\nSET\r\n${len(f'raw:{i}')}\r\nraw:{i}\r\n$1\r\nv\r\n" for i in range(10000))
    out = s.cli("--pipe", stdin=protocol)
    if "errors: 0, replies: 10000" not in out:
        raise CheckFailed(f"redis-cli --pipe of 10,000 SETs said: {out!r}")

    with s.connect() as sock:
        request = b"*3\r\n$3\r\nSET\r\n$2\r\npk\r\n$1\r\n0\r\n" + b"*2\r\n$4\r\nINCR\r\n$2\r\npk\r\n" * 16 + b"PING\r\n" * 16
        reply = b"+OK\r\n" + b"".join(b":%d\r\n" % i for i in range(1, 17)) + b"+PONG\r\n" * 16
        exchange(sock, request, reply)


def check_subscriber(s):
    subscriber, lines = subscribe(s, "news")
    try:
        expect("PUBLISH to one subscriber", s.cli("PUBLISH", "news", "hello"), "1")
        expect("what the subscriber received", lines.read(3), ["message", "news", "hello"])
    finally:
        subscriber.terminate()
        subscriber.wait()
    until("PUBLISH reaching nobody once the subscriber has gone", lambda: s.cli("PUBLISH", "news", "x") == "0")

    with s.connect() as sock:
        exchange(sock, b"SUBSCRIBE a b\r\n",
                 b"*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n*3\r\n$9\r\nsubscribe\r\n$1\r\nb\r\n:2\r\n")
        exchange(sock, b"PING\r\n", b"*2\r\n$4\r\npong\r\n$0\r\n\r\n")
        expect("PUBLISH to b", s.cli("PUBLISH", "b", "m"), "1")
        message = b"*3\r\n$7\r\nmessage\r\n$1\r\nb\r\n$1\r\nm\r\n"
        expect("the message", receive_exactly(sock, len(message)), message)
        # By name, then all that are left (Redis names those in no
        # particular order: here there is one).
        exchange(sock, b"UNSUBSCRIBE b\r\n", b"*3\r\n$11\r\nunsubscribe\r\n$1\r\nb\r\n:1\r\n")
        exchange(sock, b"UNSUBSCRIBE\r\n", b"*3\r\n$11\r\nunsubscribe\r\n$1\r\na\r\n:0\r\n")
        exchange(sock, b"PING\r\n", b"+PONG\r\n")


class Lines:
    """The lines a process prints, as they come (read unbuffered, so that
    waiting for the next one never misses what a buffer already holds)."""

    def __init__(self, process):
        self.process = process
        self.pending = b""

    def read(self, count):
        fd = self.process.stdout.fileno()
        lines = []
        deadline = time.monotonic() + DEADLINE
        while len(lines) < count:
            if b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                lines.append(line.decode())
                continue
            ready = selectors.DefaultSelector()
            ready.register(fd, selectors.EVENT_READ)
            if not ready.select(max(0.0, deadline - time.monotonic())):
                raise CheckFailed(f"the subscriber printed {lines!r}, then nothing for {DEADLINE:.0f} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise CheckFailed(f"the subscriber exited after printing {lines!r}")
            self.pending += chunk
        return lines


def subscribe(s, channel):
    """A `redis-cli subscribe` process, once it has said it is subscribed."""
    process = subprocess.Popen(["redis-cli", "-p", str(s.port), "subscribe", channel],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    lines = Lines(process)
    try:
        expect("the subscribe reply redis-cli shows", lines.read(3), ["subscribe", channel, "1"])
    except CheckFailed:
        process.terminate()
        process.wait()
        raise
    return process, lines


def check_malformed(s):
    for request, reply in [
        (b"*x\r\n", b"-ERR Protocol error: invalid multibulk length\r\n"),
        (b"*1\r\n$4\r\nPING\r\n*1\r\nX\r\n", b"+PONG\r\n-ERR Protocol error: expected '$', got 'X'\r\n"),
        (b"*1\r\n$-5\r\n", b"-ERR Protocol error: invalid bulk length\r\n"),
        (b'SET "a b\r\n', b"-ERR Protocol error: unbalanced quotes in request\r\n"),
        # A NUL byte hides the line's end (Redis looks for it as in a C
        # string): nothing is answered until the line passes 64 KB. Exactly
        # one byte past, so that the server has read all of it when it closes.
        (b"\0GET k\r\nPING\r\n".ljust(64 * 1024 + 1, b"x"), b"-ERR Protocol error: too big inline request\r\n"),
    ]:
        with s.connect() as sock:
            sock.sendall(request)
            expect(f"what {request!r} gets before the connection closes", receive_until_closed(sock), reply)
    with s.connect() as sock:
        # A well-formed request that is not a good command: answered, and
        # the connection goes on, as with Redis.
        exchange(sock, b"*2\r\n$3\r\nSET\r\n$1\r\nk\r\n", b"-ERR wrong number of arguments for 'set' command\r\n")
        exchange(sock, b"*0\r\n\r\nPING\r\n", b"+PONG\r\n")
    expect("the next client, after the malformed ones", s.cli("PING"), "PONG")


def check_disconnect(s):
    s.cli("DEL", "gone")
    with s.connect() as sock:
        sock.sendall(b"*3\r\n$3\r\nSET\r\n$4\r\ngone\r\n$5\r\nhal")  # and away
    reset = s.connect()
    reset.sendall(b"*2\r\n$4\r\nECHO\r\n$100\r\nabc")
    reset.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    reset.close()  # a reset, not a close
    with s.connect() as sock:
        sock.sendall(b"PING\r\n" * 100_000)  # replies it will never read
    expect("the next client, after three that vanished", s.cli("PING"), "PONG")
    expect("the half-sent SET", s.cli("GET", "gone"), "")


def check_expiry(s):
    s.cli("DEL", "e1", "e2", "e3")
    expect("SET PX", s.cli("SET", "e1", "v", "PX", "300"), "OK")
    pttl = int(s.cli("PTTL", "e1"))
    if not 0 <= pttl <= 300:
        raise CheckFailed(f"PTTL right after SET PX 300: {pttl}")
    until("the key set with PX 300 to be gone", lambda: s.cli("GET", "e1") == "")
    expect("its TTL then", s.cli("TTL", "e1"), "-2")

    expect("SET EX", s.cli("SET", "e2", "v", "EX", "1"), "OK")
    ttl = int(s.cli("TTL", "e2"))
    if ttl not in (0, 1):
        raise CheckFailed(f"TTL right after SET EX 1: {ttl}")
    until("TTL of the key set with EX 1 to reach -2", lambda: s.cli("TTL", "e2") == "-2")

    # Nobody reads e3: only the server's purge can remove it.
    before = int(s.cli("DBSIZE"))
    s.cli("SET", "e3", "v", "PX", "100")
    until("the purge to remove the key set with PX 100", lambda: int(s.cli("DBSIZE")) == before)


def check_connections(s):
    count = min(CONNECTIONS, resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 100)
    if count < CONNECTIONS:
        print(f"  (only {count} connections: the file descriptor limit is low)")
    sockets = []
    try:
        for _ in range(count):
            sockets.append(s.connect())
        for sock in sockets:
            sock.sendall(b"PING\r\n")
        answered = 0
        for sock in sockets:
            answered += receive_exactly(sock, 7) == b"+PONG\r\n"
        expect(f"connections of {count} open at once that got +PONG", answered, count)
    finally:
        for sock in sockets:
            sock.close()
    expect("PING once they have closed", s.cli("PING"), "PONG")


def check_shutdown(start, signo):
    s = start()
    subscriber = None
    try:
        subscriber, _ = subscribe(s, "news")
        with s.connect() as idle, s.connect() as busy:
            exchange(idle, b"PING\r\n", b"+PONG\r\n")
            exchange(busy, b"PING\r\n", b"+PONG\r\n")
            # Sent before the signal, never waited for: a request whole,
            # then one cut short.
            busy.sendall(b"*2\r\n$4\r\nECHO\r\n$4\r\nlast\r\n*1\r\n$4\r\nPI")
            status = s.stop(signo)
            expect(f"the exit status after {signal.Signals(signo).name}", status, 0)
            expect("what the idle client read", receive_until_closed(idle), b"")
            expect("what the busy client read", receive_until_closed(busy), b"$4\r\nlast\r\n")
        subscriber.wait(timeout=DEADLINE)  # redis-cli saw its connection close
    finally:
        if subscriber and subscriber.poll() is None:
            subscriber.terminate()
            subscriber.wait()
        if s.process.poll() is None:
            s.process.kill()
            s.process.wait()
    try:
        socket.create_connection(("127.0.0.1", s.port), timeout=DEADLINE).close()
        raise CheckFailed("a connection was accepted after the server exited")
    except ConnectionRefusedError:
        pass


# ---------------------------------------------------------------- running

def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_checks(name, start, with_shutdown):
    checks = [("commands", check_commands), ("pipeline", check_pipeline), ("subscriber", check_subscriber),
              ("malformed", check_malformed), ("disconnect", check_disconnect), ("expiry", check_expiry),
              ("connections", check_connections)]
    failures = 0
    try:
        server = start()
    except CheckFailed as failure:
        print(f"FAIL {name}: {failure}")
        return 1
    try:
        for check_name, check in checks:
            began = time.monotonic()
            try:
                check(server)
                print(f"ok   {name} {check_name} ({time.monotonic() - began:.1f} s)")
            except (CheckFailed, OSError, subprocess.TimeoutExpired) as failure:
                failures += 1
                print(f"FAIL {name} {check_name}: {failure}")
    finally:
        if server.process.poll() is None:
            server.process.send_signal(signal.SIGTERM)
            try:
                server.process.wait(timeout=DEADLINE)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait()
    if with_shutdown:
        for signo in (signal.SIGTERM, signal.SIGINT):
            label = f"shutdown on {signal.Signals(signo).name}"
            try:
                check_shutdown(start, signo)
                print(f"ok   {name} {label}")
            except (CheckFailed, OSError, subprocess.TimeoutExpired) as failure:
                failures += 1
                print(f"FAIL {name} {label}: {failure}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", action="append", default=[], metavar="NAME=PATH[ OPTIONS]",
                        help="a server to check, and the options to start it with")
    parser.add_argument("--reference", action="store_true", help="check redis-server too, when installed")
    args = parser.parse_args()
    if shutil.which("redis-cli") is None:
        print("check_redis_cli: skipped: redis-cli is not installed (Debian: apt-get install redis-tools)")
        return 77
    # Both this process and the servers it starts (which inherit the
    # limit) hold a descriptor per connection.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CONNECTIONS + 1000
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))

    failures = 0
    servers = []
    for spec in args.server:
        # NAME=PATH, then any options for the server: "rt-redis=/x/rt-redis --current-thread"
        name, _, command = spec.partition("=")
        path, *options = command.split(" --")
        servers.append((name, [path] + ["--" + option for option in options]))
    if args.reference:
        if shutil.which("redis-server"):
            failures += run_checks("redis-server", start_redis_server, with_shutdown=False)
        else:
            print("check_redis_cli: no redis-server installed, so no reference run")
    for name, command in servers:
        failures += run_checks(name, lambda c=command, n=name: Server(n, c + ["--bind", "127.0.0.1:0"]),
                               with_shutdown=True)
    print(f"check_redis_cli: {failures} failed" if failures else "check_redis_cli: every check passed")
    return 1 if failures else 0


def start_redis_server():
    port = free_port()
    return Server("redis-server", ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                   "--appendonly", "no", "--loglevel", "warning"], port=port)


if __name__ == "__main__":
    sys.exit(main())
