"""A small JSON HTTP server in a thread (stdlib ``http.server``), the one base of the servers the
project starts itself: the judge server (``python -m rewards.judges.serve``), the oracle VLM
(``documents.engines.oracle``) and the tests' scripted chat server (``tests/chat_server.py``).

Subclass :class:`JSONHandler` with ``do_GET`` / ``do_POST`` that call :meth:`JSONHandler.read_json`
and :meth:`JSONHandler.send_json`, and serve it with :class:`LoopbackServer`::

    class Handler(JSONHandler):
        def do_POST(self):
            self.send_json(200, {"echo": self.read_json()})

    with LoopbackServer(Handler) as server:       # 127.0.0.1, an ephemeral port
        requests.post(server.url + "/x", json={"a": 1})
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class JSONHandler(BaseHTTPRequestHandler):
    """A request handler that reads and writes JSON bodies and logs nothing per request."""

    def read_json(self) -> Any:
        """The request body parsed as JSON (``Content-Length`` bytes; an empty body is None).

        Raises:
            ValueError: the body is not JSON (``json.JSONDecodeError``) or not UTF-8.
        """
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
        return json.loads(raw) if raw else None

    def send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        """Answer with ``status`` and ``payload``: str or bytes are sent as they are, anything
        else as JSON (numpy and torch numbers as plain ones); ``headers`` are added after
        ``Content-Type`` and ``Content-Length``."""
        data = payload if isinstance(payload, (str, bytes)) else json.dumps(payload, default=_jsonable)
        data = data.encode() if isinstance(data, str) else data
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass  # one line per request would drown the caller's own log


def _jsonable(value: Any) -> Any:
    """A value ``json`` cannot write as a plain one: numpy and torch scalars and arrays by
    ``.item()`` / ``.tolist()``, sets as sorted lists, anything else as its ``str``."""
    for method in ("item", "tolist"):
        try:
            return getattr(value, method)()
        except (AttributeError, TypeError, ValueError):
            continue
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    return str(value)


class LoopbackServer:
    """A ``ThreadingHTTPServer`` for ``handler`` on ``host:port`` (port 0: an ephemeral one).

    ``url`` is ``http://<host>:<port>`` with the port bound. Use as a context manager (serves in a
    daemon thread until exit), or call :meth:`serve_forever` to serve in this thread (a console
    script) and :meth:`close` to stop.

    Args:
        handler: the request handler class.
        host: the interface to bind; the default serves this machine only.
        port: the TCP port; 0 lets the system pick a free one.
        poll_s: how often the serving loop checks for shutdown, in seconds.

    Raises:
        OSError: the port is taken or the host cannot be bound.
    """

    def __init__(
        self, handler: type[BaseHTTPRequestHandler], host: str = "127.0.0.1", port: int = 0, poll_s: float = 0.05
    ):
        self.httpd = ThreadingHTTPServer((host, port), handler)
        self.httpd.daemon_threads = True
        self.host, self.port = host, self.httpd.server_address[1]
        self.url = f"http://{host}:{self.port}"
        self.poll_s = poll_s
        self._thread = threading.Thread(target=self.httpd.serve_forever, args=(poll_s,), daemon=True)

    def serve_forever(self) -> None:
        """Serve in the calling thread until :meth:`close` is called from another one (or Ctrl-C)."""
        self.httpd.serve_forever(self.poll_s)

    def close(self) -> None:
        """Stop serving (when the thread serves) and release the port."""
        if self._thread.is_alive():
            self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> "LoopbackServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
