#!/usr/bin/env python3
"""A crude stand-in for the sidecar, only to test the benchmark harness itself
(bench/run.sh --stub bench/selftest_stub.py). Its figures mean nothing about the sidecar.

Serves GET /claims, /claims/<c>/<r>, /claims/<c>/<r>/drivers/<d> (with ETag and the long poll) on
127.0.0.1, and /q/health/started on the management port. Polls the files every 50 ms.
"""
import argparse
import glob
import hashlib
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

ap = argparse.ArgumentParser()
ap.add_argument("--root", required=True)
ap.add_argument("--http-port", type=int, required=True)
ap.add_argument("--mgmt-port", type=int, required=True)
args = ap.parse_args()

state = {}  # path -> (etag, body)
cond = threading.Condition()
ready = threading.Event()


def first_object(raw):
    obj, _ = json.JSONDecoder().raw_decode(raw.decode())
    return obj


def scan():
    out = {}
    for f in glob.glob(os.path.join(args.root, "resourceclaims/*/*/*-metadata.json")):
        parts = f.split("/")
        c, r, d = parts[-3], parts[-2], parts[-1][:-len("-metadata.json")]
        try:
            obj = first_object(open(f, "rb").read())
        except (ValueError, OSError):
            continue
        obj["apiVersion"] = "metadata.resource.k8s.io/v1beta1"
        drv = json.dumps(obj, separators=(",", ":")).encode()
        merged = dict(obj, metadata={k: obj["metadata"][k] for k in ("name", "namespace", "uid")})
        m = json.dumps(merged, separators=(",", ":")).encode()
        out[f"/claims/{c}/{r}/drivers/{d}"] = drv
        out[f"/claims/{c}/{r}"] = m
    claims = sorted({p.split("/")[2] for p in out})
    out["/claims"] = json.dumps({"claims": [{"name": c} for c in claims]}).encode()
    return {k: ('"' + hashlib.sha256(v).hexdigest()[:32] + '"', v) for k, v in out.items()}


def poller():
    global state
    while True:
        s = scan()
        with cond:
            if s != state:
                state = s
                cond.notify_all()
        ready.set()
        time.sleep(0.05)


class Api(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_GET(self):
        u = urlparse(self.path)
        q = parse_qs(u.query)
        with cond:
            cur = state.get(u.path)
            if cur and q.get("waitForChange") == ["true"] and q.get("lastEtag", [None])[0] == cur[0]:
                deadline = time.time() + float(q.get("timeoutSeconds", ["60"])[0])
                while state.get(u.path) == cur and time.time() < deadline:
                    cond.wait(deadline - time.time())
                cur = state.get(u.path)
        if not cur:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("ETag", cur[0])
        self.send_header("Content-Length", str(len(cur[1])))
        self.end_headers()
        self.wfile.write(cur[1])


class Mgmt(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_GET(self):
        up = ready.is_set()
        body = json.dumps({"status": "UP" if up else "DOWN"}).encode()
        self.send_response(200 if up else 503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


threading.Thread(target=poller, daemon=True).start()
threading.Thread(target=ThreadingHTTPServer(("127.0.0.1", args.mgmt_port), Mgmt).serve_forever, daemon=True).start()
ThreadingHTTPServer(("127.0.0.1", args.http_port), Api).serve_forever()
