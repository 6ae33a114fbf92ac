"""A judge served over HTTP: any judge of ``conf/judge/*.yaml`` answers rubric checks on posted
images, so the GPU that holds a VLM judge (or the CPUs that run OCR) can serve several trainers,
as Flow-Factory's reward servers do (X-GenGroup/Flow-Factory 696af07,
``src/flow_factory/rewards/my_reward_remote.py``: a client that POSTs base64 images; our protocol
and code are our own).

    python -m rewards.judges.serve judge=layout port=8100
    python -m rewards.judges.serve judge=ocr host=0.0.0.0 port=8100 api_key_env=JUDGE_SERVER_KEY

Endpoints (the bodies: ``rewards.judges.wire``):

- ``GET /health``: ``{"status": "ok", "judge": <name>}``, for a client waiting for the server.
- ``POST /judge``: images, prompts and checks in; one verdict per check out. The reward is
  computed by the client (``rewards.reward_fns.RubricReward`` over ``rewards.judges.http_judge``),
  so the HTTP reward is the in-process reward of the same judge.

Requests are judged one at a time (a lock: judges such as a local VLM are not thread-safe); a
health check is answered while a batch is judged. A judge that raises answers 500 with one line
naming the error; the client then withholds those checks (no reward for those samples).
"""

from __future__ import annotations

import hmac
import logging
import sys
import threading
from typing import Any

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

from rewards.common.components import build_component
from rewards.common.loopback_server import JSONHandler, LoopbackServer
from rewards.common.one_line import one_line
from rewards.common.secrets import read_api_key, redact
from rewards.common.task import run_console_script, task_wrapper
from rewards.judges.base import Judge
from rewards.judges.wire import check_from_dict, image_from_data_url

logger = logging.getLogger(__name__)


class JudgeServer:
    """Serves ``judge`` on ``host:port``; use as a context manager (serves in a thread) or call
    :meth:`serve_forever`. ``url`` is ``http://<host>:<port>`` with the port bound.

    Args:
        judge: any :class:`rewards.judges.base.Judge`.
        host: the interface to bind (127.0.0.1: this machine only; 0.0.0.0: every interface).
        port: the TCP port; 0 picks a free one.
        api_key_env: the environment variable holding the key clients must send as
            ``Authorization: Bearer <key>``; None or unset: no key asked.
        name: what ``/health``, the replies and the log call the judge (``python -m
            rewards.judges.serve`` passes the config name, e.g. ``layout``, not the class of the
            judge it builds, which for most configs is a router); None: ``judge.name``.

    Attributes:
        requests: ``POST /judge`` requests answered (any status).

    Raises:
        OSError: the port cannot be bound.
        ValueError: a key with whitespace or a control character inside it, or ``api_key_env``
            naming a variable that is unset or empty (one line naming the variable, never the key).
    """

    def __init__(
        self,
        judge: Judge,
        host: str = "127.0.0.1",
        port: int = 0,
        api_key_env: str | None = None,
        name: str | None = None,
    ):
        self.judge = judge
        self.name = name or judge.name
        self.requests = 0
        self._key = read_api_key(api_key_env)
        if api_key_env and self._key is None:  # a server meant to ask for a key must not serve without one
            raise ValueError(f"api_key_env={api_key_env}: the variable is unset or empty")
        self._lock = threading.Lock()
        server = self

        class Handler(JSONHandler):
            def do_GET(self):
                found = self.path.rstrip("/") == "/health"
                self.send_json(200 if found else 404, {"status": "ok", "judge": server.name} if found else {})

            def do_POST(self):
                status, payload = server.answer(self.path, self.headers.get("Authorization", ""), self.read_body())
                self.send_json(status, payload)

            def read_body(self) -> Any:
                try:
                    return self.read_json()
                except ValueError:
                    return None

        self._server = LoopbackServer(Handler, host=host, port=port)
        self.url = self._server.url

    def answer(self, path: str, authorization: str, body: Any) -> tuple[int, dict[str, Any]]:
        """(status, JSON answer) of one ``POST`` to ``path`` (see the module docstring)."""
        with self._lock:
            self.requests += 1
        if path.rstrip("/") != "/judge":
            return 404, {"error": f"no endpoint {path}; POST /judge"}
        if self._key and not hmac.compare_digest(authorization.encode(), f"Bearer {self._key}".encode()):
            return 401, {"error": "missing or wrong API key (Authorization: Bearer <key>)"}
        try:
            images, prompts, checks = _parse(body)
        except (ValueError, TypeError, KeyError) as e:
            return 400, {"error": one_line(f"bad request: {e}", limit=300)}
        try:
            with self._lock:
                verdicts = self.judge.judge(images, prompts, checks)
        except Exception as e:  # the judge's own failure: the client withholds these checks
            logger.exception("judge %s failed on a request", self.name)
            return 500, {"error": redact(one_line(f"judge {self.name}: {type(e).__name__}: {e}", limit=300))}
        return 200, {"judge": self.name, "verdicts": [[v.to_dict() for v in row] for row in verdicts]}

    def serve_forever(self) -> None:
        """Serve in this thread until Ctrl-C."""
        self._server.serve_forever()

    def __enter__(self) -> "JudgeServer":
        self._server.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Stop serving and release the port."""
        self._server.close()


def _parse(body: Any) -> tuple[list, list[str], list[list]]:
    """(images, prompts, checks) of a ``POST /judge`` body. Raises ValueError, TypeError or
    KeyError naming what is wrong."""
    if not isinstance(body, dict):
        raise ValueError("the body must be a JSON object with images, prompts and checks")
    missing = [k for k in ("images", "prompts", "checks") if k not in body]
    if missing:
        raise ValueError(f"missing field {missing[0]!r}; the body must hold images, prompts and checks")
    images, prompts, checks = body["images"], body["prompts"], body["checks"]
    if not (isinstance(images, list) and isinstance(prompts, list) and isinstance(checks, list)):
        raise ValueError("images, prompts and checks must be lists")
    if not len(images) == len(prompts) == len(checks):
        raise ValueError(f"{len(images)} images, {len(prompts)} prompts and {len(checks)} check lists")
    if not all(isinstance(p, str) for p in prompts) or not all(isinstance(cs, list) for cs in checks):
        raise ValueError("prompts must be strings and checks lists of checks")
    return [image_from_data_url(u) for u in images], prompts, [[check_from_dict(c) for c in cs] for cs in checks]


@hydra.main(config_path="pkg://conf", config_name="serve_judge", version_base="1.3")
@task_wrapper
def _main(cfg: DictConfig) -> int:
    try:
        judge = build_component(cfg, "judge")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        name = HydraConfig.get().runtime.choices.get("judge")  # the config's name: layout, ocr_vlm, ...
        server = JudgeServer(judge, host=cfg.host, port=cfg.port, api_key_env=cfg.api_key_env, name=name)
    except (OSError, ValueError, OverflowError, TypeError) as e:  # a port out of 0-65535 or not a number
        print(f"error: cannot serve on {cfg.host}:{cfg.port}: {one_line(str(e))}", file=sys.stderr)
        return 2
    print(f"serving judge {server.name} at {server.url} (POST /judge, GET /health); Ctrl-C stops", flush=True)
    try:
        server.serve_forever()
    finally:
        server.close()
    return 0


def main() -> None:
    """Entry point: option errors exit 2 in one line before Hydra runs (``rewards.common.task``)."""
    run_console_script(_main, config_name="serve_judge")


if __name__ == "__main__":
    main()
