#!/usr/bin/env python3
"""A double of the GitHub and GitLab REST APIs on 127.0.0.1, for the pull-request comment tests.

usage: api.py --log DIR --token-sha256 HEX [--seed FILE] [--pull N=SHA]... [--lifetime SECONDS]

Prints the ephemeral port it listens on (one line on stdout), then keeps the
comments of pull requests and merge requests in memory, as the real services do:

  GitHub   POST  /repos/O/R/statuses/SHA              a commit status
           GET   /repos/O/R/pulls/N                   {"number", "head": {"sha"}} (--pull N=SHA)
           GET   /repos/O/R/issues/N/comments         ?per_page, page (oldest first)
           POST  /repos/O/R/issues/N/comments         {"body"}, written by github-actions[bot]
           PATCH /repos/O/R/issues/comments/ID        {"body"}
  GitLab   POST  /api/v4/projects/P/statuses/SHA
           GET   /api/v4/user                         the token's user, id 42
           GET   /api/v4/projects/P/merge_requests/I/notes   ?per_page, page, sort (newest first
                                                              unless sort=asc, as GitLab)
           POST  /api/v4/projects/P/merge_requests/I/notes   {"body"}, written by user 42
           PUT   /api/v4/projects/P/merge_requests/I/notes/ID

Every request needs the token (GitHub: 'Authorization: Bearer T', GitLab:
'PRIVATE-TOKEN: T') whose SHA-256 is --token-sha256, else 401. GitHub's answers
carry raw UTF-8, GitLab's escape everything past ASCII (surrogate pairs too), so
both spellings are read. --seed FILE holds comments already there:
{"github": {"O/R#N": [{"body": ..., "user": {"login": ..., "type": "User"}}]},
 "gitlab": {"P#I": [{"body": ..., "author": {"id": 5}}]}}.

Each request is logged as DIR/N.json (method, path, headers with the token as
its SHA-256) and DIR/N.body; the comments as they are after each change in
DIR/state.json. Exits after SECONDS.
"""
import argparse
import hashlib
import json
import os
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

BOT = {"login": "github-actions[bot]", "id": 41898282, "type": "Bot"}
GITLAB_USER = {"id": 42, "username": "project_17_bot_0123", "name": "scalegate"}


class State:
    def __init__(self, seed, pulls, log):
        self.lock = threading.Lock()
        self.next_id = 1000
        self.threads = {"github": {}, "gitlab": {}}
        self.pulls = pulls
        self.log = log
        self.received = 0
        for service, threads in seed.items():
            for key, comments in threads.items():
                for c in comments:
                    self.add(service, key, dict(c))

    def add(self, service, key, comment):
        self.next_id += 1
        comment["id"] = self.next_id
        self.threads[service].setdefault(key, []).append(comment)
        return comment

    def find(self, service, key, cid):
        for c in self.threads[service].get(key, []):
            if c["id"] == cid:
                return c
        return None

    def save(self):
        path = os.path.join(self.log, "state.json")
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(self.threads, f, ensure_ascii=False, indent=1)
        os.replace(path + ".tmp", path)


def page(items, query):
    per = int(query.get("per_page", ["30"])[0])
    n = int(query.get("page", ["1"])[0])
    return items[(n - 1) * per:n * per]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def answer(self, status, value, ascii_only):
        payload = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def record(self, body):
        st = self.server.state
        with st.lock:
            st.received += 1
            n = st.received
        headers = {}
        for name, value in self.headers.items():
            if name.lower() in ("authorization", "private-token"):
                value = "sha256:" + hashlib.sha256(value.encode()).hexdigest()
            headers[name] = value
        with open(os.path.join(st.log, "%d.body" % n), "wb") as f:
            f.write(body)
        with open(os.path.join(st.log, "%d.json" % n), "w", encoding="utf-8") as f:
            json.dump({"n": n, "method": self.command, "path": self.path, "headers": headers}, f)

    def authorized(self, gitlab):
        want = self.server.token_sha256
        got = self.headers.get("PRIVATE-TOKEN") if gitlab else self.headers.get("Authorization")
        if gitlab:
            return got is not None and hashlib.sha256(got.encode()).hexdigest() == want
        return (got or "").startswith("Bearer ") and \
            hashlib.sha256(got[7:].encode()).hexdigest() == want

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        self.record(raw)
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        gitlab = url.path.startswith("/api/v4/")
        if not self.authorized(gitlab):
            return self.answer(401, {"message": "Bad credentials"}, gitlab)
        body = json.loads(raw) if raw else {}
        st = self.server.state
        with st.lock:
            status, value = (self.gitlab if gitlab else self.github)(url.path, query, body)
            if self.command in ("POST", "PATCH", "PUT"):
                st.save()
        self.answer(status, value, gitlab)

    def github(self, path, query, body):
        st, m = self.server.state, self.command
        if re.fullmatch(r"/repos/[^/]+/[^/]+/statuses/\w+", path) and m == "POST":
            return 201, {"state": body.get("state")}
        r = re.fullmatch(r"/repos/([^/]+/[^/]+)/pulls/(\d+)", path)
        if r and m == "GET":
            sha = st.pulls.get(r.group(2))
            if sha is None:
                return 404, {"message": "Not Found"}
            return 200, {"number": int(r.group(2)), "state": "open", "head": {"sha": sha}}
        r = re.fullmatch(r"/repos/([^/]+/[^/]+)/issues/(\d+)/comments", path)
        if r:
            key = "%s#%s" % (r.group(1), r.group(2))
            if m == "GET":
                return 200, page(st.threads["github"].get(key, []), query)
            if m == "POST":
                return 201, st.add("github", key, {"body": body["body"], "user": dict(BOT)})
        r = re.fullmatch(r"/repos/([^/]+/[^/]+)/issues/comments/(\d+)", path)
        if r and m == "PATCH":
            for key, comments in st.threads["github"].items():
                c = st.find("github", key, int(r.group(2)))
                if c and key.startswith(r.group(1) + "#"):
                    c["body"] = body["body"]
                    return 200, c
            return 404, {"message": "Not Found"}
        return 404, {"message": "no route %s %s" % (m, path)}

    def gitlab(self, path, query, body):
        st, m = self.server.state, self.command
        if re.fullmatch(r"/api/v4/projects/[^/]+/statuses/\w+", path) and m == "POST":
            return 201, {"status": body.get("state")}
        if path == "/api/v4/user" and m == "GET":
            return 200, GITLAB_USER
        r = re.fullmatch(r"/api/v4/projects/([^/]+)/merge_requests/(\d+)/notes(?:/(\d+))?", path)
        if not r:
            return 404, {"message": "404 Not Found: %s %s" % (m, path)}
        key = "%s#%s" % (unquote(r.group(1)), r.group(2))
        if r.group(3) is None and m == "GET":
            notes = st.threads["gitlab"].get(key, [])
            if query.get("sort", ["desc"])[0] != "asc":
                notes = list(reversed(notes))
            return 200, page(notes, query)
        if r.group(3) is None and m == "POST":
            return 201, st.add("gitlab", key, {"body": body["body"], "system": False,
                                               "author": dict(GITLAB_USER)})
        c = st.find("gitlab", key, int(r.group(3) or 0))
        if c is None:
            return 404, {"message": "404 Not found"}
        if m == "PUT":
            if c["author"]["id"] != GITLAB_USER["id"]:
                return 403, {"message": "403 Forbidden"}
            c["body"] = body["body"]
            return 200, c
        return 405, {"message": "405 Method Not Allowed"}

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = handle_any


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--token-sha256", required=True)
    ap.add_argument("--seed")
    ap.add_argument("--pull", action="append", default=[], metavar="N=SHA")
    ap.add_argument("--lifetime", type=float, default=60)
    args = ap.parse_args()

    seed = json.load(open(args.seed, encoding="utf-8")) if args.seed else {}
    pulls = dict(p.split("=", 1) for p in args.pull)
    os.makedirs(args.log, exist_ok=True)
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.token_sha256 = args.token_sha256
    srv.state = State(seed, pulls, args.log)
    srv.state.save()
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    print(srv.server_address[1], flush=True)
    time.sleep(args.lifetime)
    srv.shutdown()


if __name__ == "__main__":
    main()
