"""Headless Chromium as a layout engine: render HTML to a PNG and read text boxes from the DOM.

One browser process (Debian's ``chromium``) is driven over the DevTools protocol on a pipe
(``--remote-debugging-pipe``: the browser reads commands from fd 3 and writes replies to fd 4,
one JSON message per NUL-terminated frame), so no port is opened and nothing but the standard
library is needed. Per page: the viewport is set to W x H CSS pixels at device scale 1, the HTML
is loaded from a file, the fonts are awaited, a script in the page returns every element's text
and boxes (``Range.getBoundingClientRect`` of the element's contents, CSS pixels = image pixels
at scale 1), and the viewport is captured as a PNG.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from PIL import Image

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--font-render-hinting=none",
)
"""Command-line flags of every launch (besides ``--user-data-dir``, ``--window-size`` and the pipe)."""

BOXES_JS = """
(() => {
  const out = [];
  for (const el of document.querySelectorAll('[data-eid]')) {
    const r = document.createRange();
    r.selectNodeContents(el);
    const b = r.getBoundingClientRect();
    const lines = Array.from(r.getClientRects()).filter(q => q.width > 0 && q.height > 0)
      .map(q => [q.left, q.top, q.right, q.bottom]);
    const cs = getComputedStyle(el);
    const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    const covered = !(hit && (el.contains(hit) || hit.contains(el)));
    out.push({eid: el.dataset.eid, text: el.innerText, box: [b.left, b.top, b.right, b.bottom], lines: lines,
              color: cs.color, font: cs.fontFamily, size: parseFloat(cs.fontSize), weight: cs.fontWeight,
              covered: covered});
  }
  return JSON.stringify(out);
})()
"""
"""The script whose value is the JSON list of ``{eid, text, box, lines, color, font, size, weight,
``covered``} of every element carrying ``data-eid`` (``covered``: another element is drawn over its
centre; boxes in CSS pixels, [left, top, right, bottom])."""


class BrowserError(RuntimeError):
    """Chromium is missing, did not start, or a protocol command failed (one line, naming it)."""


def chromium_path() -> str | None:
    """The path of Debian's ``chromium`` (or ``chromium-browser``), or None when neither is installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium process; use as a context manager.

    Args:
        width, height: the window size in pixels (pages may set their own viewport per render).
        timeout_s: seconds to wait for any one protocol reply.

    Raises:
        BrowserError: chromium is not installed or does not answer.
    """

    def __init__(self, width: int = 1280, height: int = 720, timeout_s: float = 60.0):
        exe = chromium_path()
        if exe is None:
            raise BrowserError("chromium is not installed (apt-get install -y chromium)")
        self.timeout_s = timeout_s
        self._profile = tempfile.mkdtemp(prefix="engine-docs-chromium-")
        self._pages = Path(tempfile.mkdtemp(prefix="engine-docs-html-"))
        cmd_r, self._cmd_w = os.pipe()
        self._resp_r, resp_w = os.pipe()

        def child_fds() -> None:  # the pipe ends onto fds 3 and 4, via fds no pipe end can be
            high_r, high_w = os.dup2(cmd_r, 200), os.dup2(resp_w, 201)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        args = [exe, *FLAGS, f"--user-data-dir={self._profile}", f"--window-size={width},{height}"]
        args += ["--remote-debugging-pipe", "about:blank"]
        self._proc = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=child_fds, close_fds=False,  # fds 3, 4 inherited (dup2); the rest are close-on-exec
        )  # fmt: skip
        os.close(cmd_r)
        os.close(resp_w)
        self._buf = b""
        self._next_id = 0
        self._session = None
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable")

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one protocol command (to the page once attached) and return its ``result``.

        Raises:
            BrowserError: the browser replied with an error, closed the pipe or timed out.
        """
        self._next_id += 1
        msg: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if self._session is not None and not method.startswith("Target."):
            msg["sessionId"] = self._session
        os.write(self._cmd_w, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"chromium: {method} failed: {reply['error'].get('message')}")
                return reply.get("result", {})

    def _read(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout_s
        while b"\0" not in self._buf:
            if time.monotonic() > deadline:
                raise BrowserError(f"chromium: no reply within {self.timeout_s:.0f} s")
            chunk = os.read(self._resp_r, 1 << 20)
            if not chunk:
                raise BrowserError("chromium: the browser closed its pipe")
            self._buf += chunk
        frame, self._buf = self._buf.split(b"\0", 1)
        return json.loads(frame)

    def render(self, html: str, width: int, height: int) -> tuple[Image.Image, list[dict[str, Any]]]:
        """Lay out ``html`` in a ``width`` x ``height`` viewport (device scale 1).

        Returns:
            (the viewport as an RGB image of ``width`` x ``height`` pixels, the ``BOXES_JS`` records
            of its ``data-eid`` elements, boxes in image pixels).
        """
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self.send("Emulation.setDeviceMetricsOverride", metrics)
        self._renders = getattr(self, "_renders", 0) + 1
        page = self._pages / f"page{self._renders}.html"
        page.write_text(html, encoding="utf-8")
        self.send("Page.navigate", {"url": page.as_uri()})
        ready = f"location.href === {json.dumps(page.as_uri())} && document.readyState === 'complete'"
        ready += " && document.fonts.status === 'loaded'"
        for _ in range(200):
            if self.send("Runtime.evaluate", {"expression": ready, "returnByValue": True})["result"].get("value"):
                break
            time.sleep(0.02)
        else:
            raise BrowserError("chromium: the page did not finish loading")
        value = self.send("Runtime.evaluate", {"expression": BOXES_JS, "returnByValue": True})["result"]["value"]
        shot = self.send("Page.captureScreenshot", {"format": "png", "fromSurface": True})["data"]
        image = Image.open(io.BytesIO(base64.b64decode(shot))).convert("RGB")
        if image.size != (width, height):
            raise BrowserError(f"chromium: screenshot is {image.size}, wanted {(width, height)}")
        return image, json.loads(value)

    def close(self) -> None:
        """End the browser process (it started it) and remove its profile and page folders."""
        try:
            os.close(self._cmd_w)
        except OSError:
            pass
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        os.close(self._resp_r)
        shutil.rmtree(self._profile, ignore_errors=True)
        shutil.rmtree(self._pages, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
