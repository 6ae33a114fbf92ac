"""An oracle VLM: an OpenAI-compatible chat server on 127.0.0.1 that answers each question from the
engine-drawn set's truth, for measuring what the mixed judge (``judge=ocr_vlm``) does with a
perfect VLM.

The server recognises the page by its pixels (SHA-256 of the decoded image's RGB bytes, per
variant of every document it was given) and the question by its text, and answers in the VLM
judge's protocols (``rewards.judges.vlm``): ``per_image`` (numbered statements, reply
``{"1": {"result": bool, "reason": str}, ...}``) and ``per_check`` (``Question: ...``, reply
``{"answer": "yes"|"no", "reason": str}``). A page or question it does not know is answered
false / "no" and counted in ``unknown``. ``GET /v1/models`` lists one model, "oracle".
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import threading
from typing import Any

from PIL import Image

from documents.engines.model import Doc
from rewards.common.loopback_server import JSONHandler, LoopbackServer

_STATEMENT = re.compile(r"^(\d+)\. (.*)$", re.M)


def pixel_key(image: Image.Image) -> str:
    """SHA-256 hex digest of the image's RGB bytes and size (the page's identity for the oracle)."""
    rgb = image.convert("RGB")
    return hashlib.sha256(repr(rgb.size).encode() + rgb.tobytes()).hexdigest()


class OracleServer:
    """Answers from ``docs``' truth; use as a context manager. ``base_url`` ends in ``/v1``.

    Attributes:
        requests: chat requests answered; questions: questions answered; unknown: questions
            (or pages) it had no truth for.
    """

    def __init__(self, docs: list[Doc]):
        self.truth: dict[str, dict[str, str]] = {}
        for d in docs:
            for variant, page in d.pages.items():
                with Image.open(page.image_path) as im:
                    self.truth[pixel_key(im)] = {q.question: q.answers[variant] for q in d.questions}
        self.requests = self.questions = self.unknown = 0
        self._lock = threading.Lock()
        server = self

        class Handler(JSONHandler):
            def do_POST(self):
                self.send_json(200, server.complete(self.read_json()))

            def do_GET(self):
                found = self.path.rstrip("/").endswith("/models")
                self.send_json(200 if found else 404, {"object": "list", "data": [{"id": "oracle", "object": "model"}]})

        self._server = LoopbackServer(Handler, poll_s=0.05)
        self.base_url = self._server.url + "/v1"

    def answer(self, page: str, question: str) -> bool:
        """The truth of ``question`` on the page with pixel key ``page`` (False, counted unknown, when unknown)."""
        with self._lock:
            self.questions += 1
            a = self.truth.get(page, {}).get(question.strip())
            if a is None:
                self.unknown += 1
        return a == "yes"

    def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        """The chat-completion reply to one request ``body`` (see module docstring)."""
        with self._lock:
            self.requests += 1
        parts = body["messages"][-1]["content"]
        text = next(p["text"] for p in parts if p["type"] == "text")
        url = next(p["image_url"]["url"] for p in parts if p["type"] == "image_url")
        page = pixel_key(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))))
        if "Question: " in text:
            question = text.split("Question: ", 1)[1].split("\nAnswer Yes or No.")[0]
            yes = self.answer(page, question)
            content = json.dumps({"answer": "yes" if yes else "no", "reason": "from the truth"})
        else:
            content = json.dumps(
                {n: {"result": self.answer(page, q), "reason": "from the truth"} for n, q in _STATEMENT.findall(text)}
            )
        choice = {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
        return {"id": "oracle", "object": "chat.completion", "choices": [choice]}

    def __enter__(self) -> "OracleServer":
        self._server.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._server.close()
