"""The lme provider protocol (docs/provider-protocol.md) served with the standard library, for the
bridges that put an open-source memory system behind it (mem0_bridge.py, mempalace_bridge.py).

A bridge installs the socket guard first (before importing its library), builds a backend with
reset / ingest / search, and calls `serve`. The server listens on 127.0.0.1 only, on the port given
(0: any free one), or on the unix socket LME_BRIDGE_SOCKET names (a bridge in a network namespace),
prints `lme-bridge listening on http://127.0.0.1:<port>` (or `unix:<path>`) on stdout once it
accepts requests, answers a health check's `x-lme-challenge` with an HMAC of it under
LME_BRIDGE_TOKEN (so lme knows the listener is its own child), and logs one line per ingest and search on stderr. Requests are handled one at a
time (the libraries' local stores are not safe to share between threads), except the health check.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import os
import socket
import socketserver
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Hosts a guarded process asked for beyond loopback (each refused).
REFUSED: list[str] = []
_MAX_BODY_BYTES = 256 * 1024 * 1024


def log(message: str) -> None:
    print(f"lme-bridge: {message}", file=sys.stderr, flush=True)


def _is_loopback(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if host is None:
        return True  # getaddrinfo(None, port): a local bind address
    text = str(host).strip("[]").split("%")[0]
    if text in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False


# C functions a ctypes call could reach the network through (looked up by name on a loaded library).
_NETWORK_SYMBOLS = frozenset(
    {"connect", "sendto", "sendmsg", "sendmmsg", "getaddrinfo", "gethostbyname", "gethostbyname2",
     "gethostbyname_r", "gethostbyaddr", "gethostbyaddr_r", "getnameinfo", "res_query", "res_search"}
)
# Audit events that start another program, which the guard could not see into.
_PROCESS_EVENTS = frozenset({"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn"})


def install_socket_guard() -> None:
    """Refuses (and records) every connection, datagram, name or address lookup beyond loopback, and
    every program start, in Python code: `socket.socket`'s methods are wrapped (connection refused,
    as a closed port answers), and an audit hook (sys.addaudithook, which cannot be removed and sees
    the C socket module's own calls: `_socket.socket().connect`, sendto, sendmsg, TCP Fast Open,
    gethostbyname(_ex), gethostbyaddr, getnameinfo) refuses the rest, with ctypes lookups of libc's
    network functions and subprocess, os.system, os.exec*, os.spawn* and posix_spawn. It cannot see
    a C extension that calls the C library itself: docs/bridges.md says what covers that."""

    def refuse(host: object, how: str) -> None:
        REFUSED.append(str(host))
        log(f"refused {how} {host} (the bridge runs without network)")

    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex
    original_getaddrinfo = socket.getaddrinfo

    def allowed(sock: socket.socket, address: object) -> bool:
        if getattr(socket, "AF_UNIX", None) is not None and sock.family == socket.AF_UNIX:
            return True
        host = address[0] if isinstance(address, tuple) else address
        if _is_loopback(host):
            return True
        refuse(host, "a connection to")
        return False

    def connect(self: socket.socket, address: object) -> None:
        if not allowed(self, address):
            raise ConnectionRefusedError(f"lme bridge: no network beyond loopback ({address!r})")
        return original_connect(self, address)

    def connect_ex(self: socket.socket, address: object) -> int:
        if not allowed(self, address):
            return 111  # ECONNREFUSED
        return original_connect_ex(self, address)

    def getaddrinfo(host, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not _is_loopback(host):
            refuse(host, "a name lookup of")
            raise socket.gaierror(socket.EAI_NONAME, f"lme bridge: no network beyond loopback ({host!r})")
        return original_getaddrinfo(host, *args, **kwargs)

    def audit(event: str, args: tuple) -> None:
        if event in ("socket.connect", "socket.sendto", "socket.sendmsg"):
            sock, address = args[0], args[1]
            if address is None or allowed(sock, address):
                return
            raise ConnectionRefusedError(f"lme bridge: no network beyond loopback ({address!r})")
        if event in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr"):
            if _is_loopback(args[0]):
                return
            refuse(args[0], "a name lookup of")
            raise socket.gaierror(socket.EAI_NONAME, f"lme bridge: no network beyond loopback ({args[0]!r})")
        if event == "socket.getnameinfo":
            host = args[0][0] if isinstance(args[0], tuple) and args[0] else args[0]
            if not _is_loopback(host):
                refuse(host, "an address lookup of")
                raise socket.gaierror(socket.EAI_NONAME, "lme bridge: no network beyond loopback")
        elif event == "ctypes.dlsym" and isinstance(args[1], str) and args[1] in _NETWORK_SYMBOLS:
            refuse(args[1], "a C call (ctypes) to")
            raise PermissionError(f"lme bridge: no network beyond loopback (ctypes {args[1]})")
        elif event in _PROCESS_EVENTS:
            refuse(args[0], "starting a program,")
            raise PermissionError(f"lme bridge: starts no program ({args[0]!r})")

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]
    sys.addaudithook(audit)


class BadRequest(Exception):
    """A request the protocol does not allow: answered 400 with this message."""


def _field(body: dict, name: str, kind: type, required: bool = True):  # type: ignore[no-untyped-def]
    value = body.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BadRequest(f"field {name} must be a {kind.__name__}")
    return value


def parse_sessions(body: dict) -> list[dict]:
    sessions = _field(body, "sessions", list)
    for index, session in enumerate(sessions):
        if not isinstance(session, dict) or not isinstance(session.get("session_id"), str):
            raise BadRequest(f"sessions[{index}].session_id must be a string")
        if not isinstance(session.get("turns"), list):
            raise BadRequest(f"sessions[{index}].turns must be a list")
        for turn in session["turns"]:
            if not isinstance(turn, dict) or not isinstance(turn.get("content"), str):
                raise BadRequest(f"sessions[{index}]: every turn needs a string content")
            if turn.get("role") not in ("user", "assistant"):
                raise BadRequest(f"sessions[{index}]: a turn's role must be user or assistant")
            if not isinstance(turn.get("turn_index"), int):
                raise BadRequest(f"sessions[{index}]: every turn needs an integer turn_index")
    return sessions


def serve(backend, name: str, version: str, port: int) -> None:  # type: ignore[no-untyped-def]
    """Serves the protocol over `backend` until the process is stopped: on 127.0.0.1:`port`, or on
    the unix socket LME_BRIDGE_SOCKET names."""
    lock = threading.Lock()
    token = os.environ.pop("LME_BRIDGE_TOKEN", "").encode()

    def health(_body: dict) -> dict:
        return {"status": "ok", "name": name, "version": version, "refused_connections": list(REFUSED)}

    def reset(body: dict) -> dict:
        backend.reset(_field(body, "namespace", str))
        return {"ok": True}

    def ingest(body: dict) -> dict:
        namespace = _field(body, "namespace", str)
        sessions = parse_sessions(body)
        started = time.perf_counter()
        backend.ingest(namespace, sessions)
        elapsed = (time.perf_counter() - started) * 1000
        turns = sum(len(session["turns"]) for session in sessions)
        log(f"ingest {len(sessions)} sessions, {turns} turns in {elapsed:.0f} ms")
        return {"ok": True, "ingest_ms": round(elapsed, 1)}

    def search(body: dict) -> dict:
        namespace = _field(body, "namespace", str)
        query = _field(body, "query", str)
        top_k = _field(body, "top_k", int)
        granularity = _field(body, "granularity", str, required=False) or "session"
        if top_k < 1:
            raise BadRequest("top_k must be at least 1")
        if granularity not in ("session", "turn"):
            raise BadRequest("granularity must be session or turn")
        started = time.perf_counter()
        hits = backend.search(namespace, query, top_k, granularity, body.get("query_date"))
        elapsed = (time.perf_counter() - started) * 1000
        log(f"search {len(hits)} hits in {elapsed:.0f} ms")
        return {"hits": hits[:top_k], "latency_ms": round(elapsed, 1)}

    routes = {
        ("GET", "/v1/health"): health,
        ("POST", "/v1/reset"): reset,
        ("POST", "/v1/ingest"): ingest,
        ("POST", "/v1/search"): search,
    }

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _reply(self, status: int, body: dict) -> None:
            data = json.dumps(body).encode("utf-8")
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _handle(self, method: str) -> None:
            route = routes.get((method, self.path.split("?")[0]))
            length = int(self.headers.get("content-length") or 0)
            if length > _MAX_BODY_BYTES:
                self._reply(413, {"error": {"message": "request body too large"}})
                self.close_connection = True
                return
            raw = self.rfile.read(length) if length else b""
            if route is None:
                self._reply(404, {"error": {"message": f"no route {method} {self.path}"}})
                return
            try:
                body = json.loads(raw) if raw else {}
                if not isinstance(body, dict):
                    raise BadRequest("the body must be a JSON object")
                if route is health:  # answers while an ingest runs
                    reply = route(body)
                    challenge = self.headers.get("x-lme-challenge")
                    if token and challenge:  # proves this is the process lme started (LME_BRIDGE_TOKEN)
                        reply["proof"] = hmac.new(token, challenge.encode(), hashlib.sha256).hexdigest()
                else:
                    with lock:
                        reply = route(body)
                self._reply(200, reply)
            except (BadRequest, json.JSONDecodeError) as error:
                self._reply(400, {"error": {"message": str(error)}})
            except Exception as error:  # the library's own failure: one line back to lme
                log(f"{method} {self.path} failed: {type(error).__name__}: {error}")
                self._reply(500, {"error": {"message": f"{type(error).__name__}: {error}"}})

        def do_GET(self) -> None:  # noqa: N802
            self._handle("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._handle("POST")

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            return  # one line per ingest and search is logged instead

    socket_path = os.environ.get("LME_BRIDGE_SOCKET")
    if socket_path:
        # In its own network namespace the bridge has no loopback lme can reach: a unix socket.
        class UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
            daemon_threads = True

        server = UnixServer(socket_path, Handler)
        print(f"lme-bridge listening on unix:{socket_path}", flush=True)
    else:
        server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        server.daemon_threads = True
        print(f"lme-bridge listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
