"""What a local client can make the sidecar hold: the floods of the image part's worst local load, each sampling
memory through a callback every 100 ms while it runs. Every connection goes to 127.0.0.1."""
import concurrent.futures
import selectors
import socket
import time

from . import http_client


def _hold(sel, socks, hold_s, sample, on_ready):
    """Runs `sel` for `hold_s` seconds, calling on_ready(key, events) for each ready socket and sample() every
    100 ms; then closes `socks` and `sel`."""
    end = time.monotonic() + hold_s
    next_sample = 0
    while time.monotonic() < end:
        for key, ev in sel.select(0.05):
            on_ready(key, ev)
        if time.monotonic() >= next_sample:
            sample()
            next_sample = time.monotonic() + 0.1
    for s in socks:
        s.close()
    sel.close()


def long_poll_flood(port, path, etag, count, hold_s, sample):
    """Opens `count` long polls (one connection each) from one selector and holds them `hold_s` seconds,
    calling sample() every 100 ms; returns (answered 503 too-many-long-polls, closed by the server)."""
    from urllib.parse import quote
    req = (f"GET {path}?waitForChange=true&timeoutSeconds=120&lastEtag={quote(etag, safe='')} HTTP/1.1\r\n"
           "Host: localhost\r\n\r\n").encode()
    sel = selectors.DefaultSelector()
    socks, counts = [], {"refused": 0, "closed": 0}
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        sel.register(s, selectors.EVENT_WRITE)
        socks.append(s)

    def on_ready(key, ev):
        s = key.fileobj
        try:
            if ev & selectors.EVENT_WRITE:
                s.send(req)
                sel.modify(s, selectors.EVENT_READ)
            else:
                data = s.recv(65536)
                if b"too-many-long-polls" in data:
                    counts["refused"] += 1
                elif not data:
                    counts["closed"] += 1
                sel.unregister(s)
        except OSError:
            counts["closed"] += 1
            sel.unregister(s)
    _hold(sel, socks, hold_s, sample, on_ready)
    return counts["refused"], counts["closed"]


def silent_connections(ports, count, hold_s, sample):
    """Opens `count` connections to each port that never send a byte, holds them `hold_s` seconds calling sample()
    every 100 ms, and returns how many the server closed, per port."""
    sel = selectors.DefaultSelector()
    socks, closed = [], {p: 0 for p in ports}
    for p in ports:
        for _ in range(count):
            s = socket.socket()
            try:
                s.connect(("127.0.0.1", p))
            except OSError:
                closed[p] += 1
                s.close()
                continue
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ, p)
            socks.append(s)

    def on_ready(key, _):
        try:
            data = key.fileobj.recv(1)
        except OSError:
            data = b""
        if not data:
            closed[key.data] += 1
            sel.unregister(key.fileobj)
    _hold(sel, socks, hold_s, sample, on_ready)
    return closed


def dense_stream():
    """A valid metadata stream of about 1 MB (under dra.metadata.max-file-size): one request, many devices."""
    devices = []
    size = 0
    while size < 990_000:
        d = ('{"driver":"gpu.example.com","pool":"p","name":"gpu-%d","attributes":{%s}}'
             % (len(devices), ",".join('"a%d":{"string":"xxxxxxxx"}' % a for a in range(8))))
        devices.append(d)
        size += len(d) + 1
    return ('{"kind":"DeviceMetadata","apiVersion":"metadata.resource.k8s.io/v1beta1","metadata":{"name":"c",'
            '"namespace":"n","uid":"u","generation":1},"requests":[{"name":"r","devices":[%s]}]}'
            % ",".join(devices)).encode()


def validate_flood(port, count, sample):
    """POSTs `count` dense 1 MB streams to /validate at once, calling sample() every 100 ms until all are
    answered; returns the answers by status (-1: closed unanswered)."""
    body = dense_stream()
    statuses = {}
    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        futures = [pool.submit(http_client.post, port, "/validate", body) for _ in range(count)]
        while not all(f.done() for f in futures):
            sample()
            time.sleep(0.1)
        for f in futures:
            statuses[f.result()[0]] = statuses.get(f.result()[0], 0) + 1
    return dict(sorted(statuses.items()))


def pipelined_flood(port, path, connections, megabytes, sample):
    """Sends `megabytes` MB of pipelined GETs of `path` on each of `connections` connections and reads no answer,
    calling sample() every 100 ms until every sender is done (a sender gives up when the server stops reading for
    2 s); returns the MB the server took in all."""
    burst = f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode() * 1000
    taken = [0] * connections

    def send(i):
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.settimeout(2.0)
            try:
                for _ in range(megabytes * 1048576 // len(burst)):
                    s.sendall(burst)
                    taken[i] += len(burst)
            except OSError:
                pass
    with concurrent.futures.ThreadPoolExecutor(connections) as pool:
        futures = [pool.submit(send, i) for i in range(connections)]
        while not all(f.done() for f in futures):
            sample()
            time.sleep(0.1)
    return round(sum(taken) / 1048576)
