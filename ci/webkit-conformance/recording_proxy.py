"""A recording HTTP proxy on 127.0.0.1 for the WebKit replay harness.

Every request the web view makes goes through it, so any host name works without DNS and
nothing leaves the machine. Plain `http`/`ws` requests arrive with an absolute URL; `https`/
`wss` ones arrive as `CONNECT host:port`, after which the proxy terminates TLS with a
throwaway self-signed certificate (the web view is told to ignore TLS errors) and reads the
requests inside. Each request is recorded with its scheme, host, port, path, method and
whether it carried a `Cookie` header; every answer is the same small HTML document (the
runner page the harness hands to it), never cached — except `/__redirect?to=URL` on any host,
a 302 to URL, for the navigation harness's server redirects, and a query with `__iframe=URL`,
whose page ends in a static `<iframe src=URL>` (the bridges harness: a frame that exists
with the page's JavaScript off).

Standard library only: it runs under Debian's system Python next to WebKitGTK.
"""
import html
import os
import socket
import socketserver
import ssl
import subprocess
import tempfile
import threading
import time
import urllib.parse


def make_certificate(folder):
    """A self-signed certificate for the TLS side; WebKit ignores TLS errors in the harness."""
    cert = os.path.join(folder, "proxy.pem")
    key = os.path.join(folder, "proxy.key")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=webpolicy-conformance", "-keyout", key, "-out", cert],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cert, key


class Recording:
    """The requests seen since the last `take`, thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._requests = []
        self.last_seen = time.monotonic()

    def add(self, request):
        with self._lock:
            self._requests.append(request)
            self.last_seen = time.monotonic()

    def take(self):
        with self._lock:
            requests, self._requests = self._requests, []
            return requests


def _read_head(stream):
    """The request line and headers (lower-case names), or None at end of stream."""
    line = stream.readline(65537)
    while line in (b"\r\n", b"\n"):
        line = stream.readline(65537)
    if not line:
        return None
    parts = line.decode("latin-1").rstrip("\r\n").split(" ")
    if len(parts) != 3:
        return None
    headers = {}
    while True:
        header = stream.readline(65537)
        if header in (b"\r\n", b"\n", b""):
            break
        name, _, value = header.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return parts[0], parts[1], headers


def _skip_body(stream, headers):
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int(stream.readline().split(b";")[0].strip() or b"0", 16)
            stream.read(size + 2)
            if size == 0:
                return
    length = int(headers.get("content-length", "0") or "0")
    if length:
        stream.read(length)


class _Handler(socketserver.StreamRequestHandler):
    def handle(self):
        try:
            head = _read_head(self.rfile)
            if head is None:
                return
            method, target, headers = head
            if method == "CONNECT":
                host, _, port = target.rpartition(":")
                self.wfile.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
                self.wfile.flush()
                tls = self.server.tls.wrap_socket(self.connection, server_side=True)
                stream = tls.makefile("rwb")
                self._serve(stream, "https", host, int(port), None)
                return
            self._serve(self.rfile, "http", None, None, head, out=self.wfile)
        except (OSError, ValueError, ssl.SSLError):
            pass

    def _serve(self, stream, scheme, host, port, head, out=None):
        """Records one request and answers it; every connection carries one request."""
        out = out or stream
        head = head or _read_head(stream)
        if head is None:
            return
        method, target, headers = head
        _skip_body(stream, headers)
        websocket = headers.get("upgrade", "").lower() == "websocket"
        if target.startswith("http://") or target.startswith("ws://"):
            rest = target.split("://", 1)[1]
            authority, slash, path = rest.partition("/")
            path = slash + path if slash else "/"
            request_host, _, request_port = authority.rpartition(":") if ":" in authority.rsplit("]", 1)[-1] else (authority, "", "")
            request_port = int(request_port) if request_port else 80
        elif host is None:
            # Asked directly, not as a proxy: the instance is the server itself (the roles
            # lane's server on 127.0.0.1); the Host header names it.
            path = target
            authority = headers.get("host", "")
            request_host, _, request_port = authority.rpartition(":") if ":" in authority.rsplit("]", 1)[-1] else (authority, "", "")
            request_port = int(request_port) if request_port else 80
        else:
            path = target
            request_host, request_port = host, port
        shown_scheme = ("wss" if scheme == "https" else "ws") if websocket else scheme
        self.server.recording.add({
            "scheme": shown_scheme, "host": request_host.lower(), "port": request_port,
            "path": path, "method": method, "cookie": headers.get("cookie"), "at": time.monotonic(),
        })
        if websocket:
            out.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            out.flush()
            return
        if path.startswith("/__redirect?to="):
            # A server redirect, for the navigation harness: 302 to the URL the query names.
            location = urllib.parse.unquote(path[len("/__redirect?to="):])
            out.write(("HTTP/1.1 302 Found\r\nLocation: %s\r\nCache-Control: no-store\r\nConnection: close\r\n"
                       "Content-Length: 0\r\n\r\n" % location).encode("latin-1"))
            out.flush()
            return
        page = self.server.page + _static_iframe(path)
        body = b"" if method == "HEAD" else page
        # One request per connection: all traffic goes to one proxy, and connections idling
        # in keep-alive (each tunnel bound to one origin) would make WebKit's network stack
        # wait for a free slot, about a second at a time.
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                   "Cache-Control: no-store\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n"
                   "Content-Length: %d\r\n\r\n" % len(page)).encode("ascii") + body)
        out.flush()


def _static_iframe(path):
    """The markup of the iframe a `__iframe=URL` query asks for, or nothing."""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)
    source = query.get("__iframe", [None])[0]
    if not source:
        return b""
    return ('<iframe src="%s"></iframe>' % html.escape(source, quote=True)).encode("utf-8")


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def start(page):
    """Starts the proxy on an ephemeral port; returns (port, recording, stop)."""
    folder = tempfile.mkdtemp(prefix="webpolicy-proxy-")
    cert, key = make_certificate(folder)
    server = _Server(("127.0.0.1", 0), _Handler)
    server.recording = Recording()
    server.page = page
    server.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.tls.load_cert_chain(cert, key)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server.server_address[1], server.recording, server.shutdown


if __name__ == "__main__":
    port, recording, stop = start(b"<!doctype html><p>ok")
    print("listening on 127.0.0.1:%d" % port)
    try:
        socket.socket().connect(("127.0.0.1", port))
        time.sleep(3600)
    except KeyboardInterrupt:
        stop()
