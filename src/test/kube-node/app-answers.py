"""The app of the node-fault tests and of the soak: requests a resource of the sidecar in a loop, as an app that
reads its devices would, and records every answer, so that the test reads afterwards what the app saw.

    python3 -c "<this file>" <path> <out-file> <gets-per-second> <long-pollers> [<keep-alive>]

<path> is requested on http://127.0.0.1:8089 (the sidecar's API in the pod), or, where node mode's injection gave
the container DRA_METADATA_URL, on that URL with the container's token (/var/run/secrets/dra-metadata/token, read
for each request), each time on a new connection:
- one thread sends a plain GET every 1/<gets-per-second> s (on a fixed schedule: a slow answer is not followed by
  a burst);
- <long-pollers> threads (0 for none) each long-poll it without end (`waitForChange=true&lastEtag=<the ETag of
  its last answer>&timeoutSeconds=30`): each answer comes at the next change.
With <keep-alive> 1, one more thread sends the same plain GETs at the same rate on one kept-alive connection, as an
HTTP client library does: a new connection once the server closed it (`Connection: close`, or closed while idle),
and a GET that the kept connection lost before any answer sent again once on a new one (what RFC 9110 allows for an
idempotent request, and clients such as Go's net/http and urllib3 do); the long pollers do the same.

Each answer is one line of <out-file>, written whole (line-buffered, one writer at a time):
    <kind> <sent, ns since the epoch> <answered, ns> <status> <generation> <digest>
kind `get`, `keep` (the kept-alive connection's), or `poll<i>` for long poller i (each kind's lines are in the
order it sent them); status the HTTP status, or 0 when no answer came (refused, reset, or none within 40 s);
generation the body's first "generation" (`-` when none); digest the first 12 hex digits of the SHA-256 of the
body with every generation number replaced by 0 (so that every whole answer of one file has the same digest,
whatever its generation, and a torn or different one has another). Stops at SIGTERM (the pod's deletion).
"""
import hashlib
import http.client
import os
import re
import sys
import threading
import time
import urllib.parse

PATH, OUT, RATE, POLLERS = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
KEEP_ALIVE = len(sys.argv) > 5 and sys.argv[5] == "1"
GENERATION = re.compile(rb'"generation":\s*(\d+)')
AGENT = urllib.parse.urlsplit(os.environ.get("DRA_METADATA_URL", "http://127.0.0.1:8089"))
TOKEN = "/var/run/secrets/dra-metadata/token"
LOCK = threading.Lock()
OUT_FILE = open(OUT, "a", buffering=1)


def connection():
    return http.client.HTTPConnection(AGENT.hostname, AGENT.port or 80, timeout=40)


def headers():
    if "DRA_METADATA_URL" not in os.environ:
        return {}
    with open(TOKEN) as token:
        return {"Authorization": "Bearer " + token.read().strip()}


def ask(path):
    """One request on a new connection: (status, body, etag); status 0 when no answer came."""
    conn = connection()
    try:
        conn.request("GET", path, headers=headers())
        response = conn.getresponse()
        return response.status, response.read(), response.getheader("ETag")
    except (OSError, http.client.HTTPException):
        return 0, b"", None
    finally:
        conn.close()


class Kept:
    """A kept-alive connection: ask() sends on it, and once more on a new one when it was lost before any answer."""

    def __init__(self):
        self.conn = None

    def ask(self, path):
        for attempt in (1, 2):
            reused = self.conn is not None
            if self.conn is None:
                self.conn = connection()
            try:
                self.conn.request("GET", path, headers=headers())
                response = self.conn.getresponse()
                body = response.read()
                if response.will_close:
                    self.close()
                return response.status, body, response.getheader("ETag")
            except (OSError, http.client.HTTPException):
                self.close()
                if not reused or attempt == 2:
                    return 0, b"", None
        return 0, b"", None

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def record(kind, sent, status, body):
    found = GENERATION.search(body)
    generation = found.group(1).decode() if found else "-"
    digest = hashlib.sha256(GENERATION.sub(b'"generation":0', body)).hexdigest()[:12] if body else "-"
    line = f"{kind} {sent} {time.time_ns()} {status} {generation} {digest}\n"
    with LOCK:
        OUT_FILE.write(line)


def gets(kind, asker):
    period = 1.0 / RATE
    next_at = time.monotonic()
    while True:
        sent = time.time_ns()
        status, body, _ = asker(PATH)
        record(kind, sent, status, body)
        next_at += period
        pause = next_at - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        else:
            next_at = time.monotonic()


def long_polls(kind):
    etag = None
    kept = Kept()
    while True:
        sent = time.time_ns()
        query = "?waitForChange=true&timeoutSeconds=30" + (f"&lastEtag={urllib.parse.quote(etag)}" if etag else "")
        status, body, answered_etag = kept.ask(PATH + query)
        record(kind, sent, status, body)
        if status == 200:
            etag = answered_etag
        else:
            time.sleep(0.05)   # the sidecar not answering: no tight loop


for i in range(POLLERS):
    threading.Thread(target=long_polls, args=(f"poll{i}",), daemon=True).start()
if KEEP_ALIVE:
    threading.Thread(target=gets, args=("keep", Kept().ask), daemon=True).start()
gets("get", ask)
