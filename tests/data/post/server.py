#!/usr/bin/env python3
"""A scripted HTTP server on 127.0.0.1 for the 'scalegate post' tests.

usage: server.py --log DIR [--respond SPEC] [--max-requests N] [--lifetime SECONDS]
                 [--tls CERT KEY]

Prints the ephemeral port it listens on (one line on stdout), then answers the
requests in turn with the items of SPEC, a comma-separated list (the last one
repeats):

    200            that status, with a small JSON body
    503+ra=1       503 with 'Retry-After: 1'
    401+echo       401 whose body quotes the credentials it received
    hang           read the request, never answer

Each request is logged before it is answered, as DIR/N.json (method, path,
headers, the arrival time in seconds since the server started) and DIR/N.body
(the body as received), N counting from 1. The values of Authorization and
PRIVATE-TOKEN are logged as their SHA-256, so that the log never holds a token.
Exits after N requests (a hung one counts when it arrives) or SECONDS, whichever
comes first. With --tls it speaks HTTPS with that certificate and key.
"""
import argparse
import hashlib
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET_HEADERS = {"authorization", "private-token"}
START = time.monotonic()


def parse_spec(spec):
    items = []
    for word in spec.split(","):
        parts = word.strip().split("+")
        item = {"hang": parts[0] == "hang", "status": 0 if parts[0] == "hang" else int(parts[0]),
                "retry_after": None, "echo": False}
        for mod in parts[1:]:
            if mod.startswith("ra="):
                item["retry_after"] = mod[3:]
            elif mod == "echo":
                item["echo"] = True
            else:
                raise SystemExit("server.py: unknown modifier '%s'" % mod)
        items.append(item)
    return items


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def handle_any(self):
        srv = self.server
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with srv.lock:
            srv.received += 1
            n = srv.received
        item = srv.items[min(n, len(srv.items)) - 1]
        headers, secrets = {}, []
        for name, value in self.headers.items():
            if name.lower() in SECRET_HEADERS:
                secrets.append(value)
                value = "sha256:" + hashlib.sha256(value.encode("utf-8",
                                                                "surrogateescape")).hexdigest()
            headers[name] = value
        record = {"n": n, "method": self.command, "path": self.path, "headers": headers,
                  "time": round(time.monotonic() - START, 3)}
        with open(os.path.join(srv.log, "%d.body" % n), "wb") as f:
            f.write(body)
        with open(os.path.join(srv.log, "%d.json" % n), "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1)
        if item["hang"]:
            srv.done()
            time.sleep(max(0.0, srv.deadline - time.monotonic()) + 5)
            return
        status = item["status"]
        if item["echo"]:
            text = {"message": "Bad credentials: %s" % " ".join(secrets),
                    "documentation_url": "https://docs.example.com/auth"}
        else:
            text = {"status": status, "n": n}
        payload = json.dumps(text).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        if item["retry_after"] is not None:
            self.send_header("Retry-After", item["retry_after"])
        self.end_headers()
        self.wfile.write(payload)
        self.wfile.flush()
        srv.done()

    do_POST = do_GET = do_PUT = do_PATCH = do_DELETE = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def done(self):
        with self.lock:
            self.completed += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--respond", default="200")
    ap.add_argument("--max-requests", type=int, default=1)
    ap.add_argument("--lifetime", type=float, default=20)
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    args = ap.parse_args()

    srv = Server(("127.0.0.1", 0), Handler)
    if args.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.tls[0], args.tls[1])
        # The handshake happens in the handler's thread, so a client that refuses the
        # certificate cannot block the loop.
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True, do_handshake_on_connect=False)
    srv.items = parse_spec(args.respond)
    srv.log = args.log
    srv.lock = threading.Lock()
    srv.received = srv.completed = 0
    srv.deadline = time.monotonic() + args.lifetime
    srv.timeout = 0.05
    os.makedirs(args.log, exist_ok=True)
    print(srv.server_address[1], flush=True)
    while time.monotonic() < srv.deadline:
        with srv.lock:
            if srv.completed >= args.max_requests:
                break
        srv.handle_request()
    # Let the last answer reach the client before the process goes.
    time.sleep(0.1)
    srv.server_close()
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
