"""A scripted OpenAI-compatible chat server on 127.0.0.1, for tests of the VLM judge and the LLM
writer. It speaks real HTTP (stdlib ``http.server`` in a thread, ephemeral port)."""

from __future__ import annotations

import base64
import io
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from PIL import Image

from rewards.common.loopback_server import JSONHandler, LoopbackServer


@dataclass
class Reply:
    """What the server sends for one request: ``status``, a body (a dict is sent as JSON),
    extra headers, and a delay in seconds before answering."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


def ok(content: str | None) -> Reply:
    """A 200 chat-completion response whose message text is ``content``."""
    return Reply(
        200,
        {
            "id": "x",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        },
    )


@dataclass
class Seen:
    """One request the server received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def text(self) -> str:
        """The user message's text part."""
        return next(p["text"] for p in self.body["messages"][-1]["content"] if p["type"] == "text")

    @property
    def image(self) -> Image.Image:
        """The user message's image, decoded from its data URL."""
        url = next(p["image_url"]["url"] for p in self.body["messages"][-1]["content"] if p["type"] == "image_url")
        assert url.startswith("data:image/png;base64,"), url[:40]
        return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))


class ChatServer:
    """Serves ``POST /v1/chat/completions`` with ``respond(seen, n)`` -> :class:`Reply`, where
    ``n`` counts requests from 0, and ``GET /v1/models`` (503 for the first ``models_not_ready``
    calls: a server still loading). Use as a context manager; ``base_url`` ends in ``/v1``."""

    def __init__(self, respond: Callable[[Seen, int], Reply], models_not_ready: int = 0):
        self.respond = respond
        self.models_not_ready = models_not_ready
        self.model_gets = 0  # GET /v1/models so far; the first ``models_not_ready`` answer 503 (loading)
        self.seen: list[Seen] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        server = self

        class Handler(JSONHandler):
            def do_POST(self):
                seen = Seen(self.path, dict(self.headers), self.read_json())
                with server._lock:
                    n = len(server.seen)
                    server.seen.append(seen)
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    reply = server.respond(seen, n)
                    time.sleep(reply.delay_s)
                finally:
                    # out of flight before the reply is sent: once the client has its reply it may
                    # send its next request before this thread runs again (a false 4 of 3 under load)
                    with server._lock:
                        server.in_flight -= 1
                try:
                    self.send_json(reply.status, reply.body, reply.headers)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and hung up

            def do_GET(self):
                with server._lock:
                    server.model_gets += 1
                    ready = server.model_gets > server.models_not_ready
                found = self.path.rstrip("/").endswith("/models")
                status = (200 if ready else 503) if found else 404
                listing = {"object": "list", "data": [{"id": "m", "object": "model"}]}
                self.send_json(status, listing if found else {})

        self._server = LoopbackServer(Handler, poll_s=0.02)
        self.base_url = self._server.url + "/v1"

    def __enter__(self) -> "ChatServer":
        self._server.__enter__()
        return self

    def __exit__(self, *exc):
        self._server.close()
