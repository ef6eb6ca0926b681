"""The app of the node-fault tests and of the soak: requests a resource of the sidecar in a loop, as an app that
reads its devices would, and records every answer, so that the test reads afterwards what the app saw.

    python3 -c "<this file>" <path> <out-file> <gets-per-second> <long-pollers>

<path> is requested on http://127.0.0.1:8089 (the sidecar's API in the pod), or, where node mode's injection gave
the container DRA_METADATA_URL, on that URL with the container's token (/var/run/secrets/dra-metadata/token, read
for each request), each time on a new connection:
- one thread sends a plain GET every 1/<gets-per-second> s (on a fixed schedule: a slow answer is not followed by
  a burst);
- <long-pollers> threads (0 for none) each long-poll it without end (`waitForChange=true&lastEtag=<the ETag of
  its last answer>&timeoutSeconds=30`): each answer comes at the next change.

Each answer is one line of <out-file>, written whole (line-buffered, one writer at a time):
    <kind> <sent, ns since the epoch> <answered, ns> <status> <generation> <digest>
kind `get`, or `poll<i>` for long poller i (each kind's lines are in the order it sent them); status the HTTP status, or 0 when no answer came (refused, reset, or none within 40 s);
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
GENERATION = re.compile(rb'"generation":\s*(\d+)')
AGENT = urllib.parse.urlsplit(os.environ.get("DRA_METADATA_URL", "http://127.0.0.1:8089"))
TOKEN = "/var/run/secrets/dra-metadata/token"
LOCK = threading.Lock()
OUT_FILE = open(OUT, "a", buffering=1)


def ask(path):
    """One request on a new connection: (status, body, etag); status 0 when no answer came."""
    conn = http.client.HTTPConnection(AGENT.hostname, AGENT.port or 80, timeout=40)
    try:
        headers = {}
        if "DRA_METADATA_URL" in os.environ:
            with open(TOKEN) as token:
                headers["Authorization"] = "Bearer " + token.read().strip()
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response.read(), response.getheader("ETag")
    except (OSError, http.client.HTTPException):
        return 0, b"", None
    finally:
        conn.close()


def record(kind, sent, status, body):
    found = GENERATION.search(body)
    generation = found.group(1).decode() if found else "-"
    digest = hashlib.sha256(GENERATION.sub(b'"generation":0', body)).hexdigest()[:12] if body else "-"
    line = f"{kind} {sent} {time.time_ns()} {status} {generation} {digest}\n"
    with LOCK:
        OUT_FILE.write(line)


def gets():
    period = 1.0 / RATE
    next_at = time.monotonic()
    while True:
        sent = time.time_ns()
        status, body, _ = ask(PATH)
        record("get", sent, status, body)
        next_at += period
        pause = next_at - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        else:
            next_at = time.monotonic()


def long_polls(kind):
    etag = None
    while True:
        sent = time.time_ns()
        query = "?waitForChange=true&timeoutSeconds=30" + (f"&lastEtag={urllib.parse.quote(etag)}" if etag else "")
        status, body, answered_etag = ask(PATH + query)
        record(kind, sent, status, body)
        if status == 200:
            etag = answered_etag
        else:
            time.sleep(0.05)   # the sidecar not answering: no tight loop


for i in range(POLLERS):
    threading.Thread(target=long_polls, args=(f"poll{i}",), daemon=True).start()
gets()
