"""A judge that asks a judge server (``python -m rewards.judges.serve``) over HTTP.

``RubricReward(judge=HTTPJudge(base_url=...))`` is the rubric reward of the served judge: the
server returns the verdicts, the client scores them, so the reward equals the in-process
``RubricReward`` of that judge on the same images (``conf/rewards/rubric_http.yaml``).

Failures follow the judge contract (``rewards.judges.base.Judge``): a request that still fails
after the retries (an HTTP error such as the server's 500, a refused connection, a timeout, an
answer that is not the checks sent) gives every check of its images a ``withheld`` verdict with
``call_failed=True`` and the reason ``request failed: <one line>``, logged once per failed
request. ``RubricReward`` then gives those samples None; in training a sample that no reward scored
counts 0 in the total (``combine_rewards``, as in trl), and a step where no sample got a reward
stops the run (``training.diffusion.scoring.NoReward``).
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

import requests
from PIL import Image

from rewards.common.one_line import one_line
from rewards.common.secrets import read_api_key, redact
from rewards.judges.wire import check_to_dict, image_to_data_url, verdicts_from_json
from rewards.models.openai_client import describe_error, retrying_session
from rewards.rubric import Check, Verdict, withheld

logger = logging.getLogger(__name__)


class HTTPJudge:
    """Sends images and their checks to a judge server and returns its verdicts.

    Args:
        base_url: the server's root, e.g. ``http://127.0.0.1:8100``; requests go to
            ``{base_url}/judge``.
        api_key_env: the environment variable holding the key the server asks for (sent as
            ``Authorization: Bearer <key>``); None or unset: no header.
        batch_size: images per request (requests run on ``max_concurrency`` threads; the server
            judges one request at a time). A failed request withholds the checks of its images only.
        timeout_s: connect and read timeout of one attempt, in seconds.
        max_retries, backoff_s, max_retry_wait_s: retries on 429/5xx, connection errors and
            timeouts, as the VLM judge's client (``rewards.models.openai_client``).
        max_concurrency: requests in flight at once.
        name: the judge's name in the withheld verdicts of failed requests (the server's verdicts
            carry the served judge's own name).

    Raises:
        ValueError: a ``base_url`` without http:// or https://, ``batch_size`` or
            ``max_concurrency`` below 1, or a malformed key (``read_api_key``).
    """

    def __init__(
        self,
        base_url: str,
        api_key_env: str | None = None,
        batch_size: int = 4,
        timeout_s: float = 120.0,
        max_retries: int = 2,
        backoff_s: float = 1.0,
        max_retry_wait_s: float = 30.0,
        max_concurrency: int = 1,
        name: str = "http_judge",
    ):
        if not str(base_url).startswith(("http://", "https://")):
            raise ValueError(f"judge.base_url must start with http:// or https://, got {base_url!r}")
        if batch_size < 1 or max_concurrency < 1:
            raise ValueError(f"batch_size and max_concurrency must be >= 1, got {batch_size}, {max_concurrency}")
        self.url = str(base_url).rstrip("/") + "/judge"
        self.batch_size, self.timeout_s, self.max_retries = batch_size, timeout_s, max_retries
        self.max_concurrency, self.name = max_concurrency, name
        self._session = retrying_session(
            max_retries=max_retries,
            backoff_s=backoff_s,
            max_retry_wait_s=max_retry_wait_s,
            pool_size=max_concurrency,
            api_key=read_api_key(api_key_env),
        )

    def cache_identity(self) -> dict[str, Any]:
        """What the verdicts depend on (``rewards.judges.cache``): the server's address; the served
        judge's own options are the server's to keep fixed."""
        return {"class": "rewards.judges.http_judge.HTTPJudge", "url": self.url}

    def can_answer(self, check: Check) -> bool:
        """True: the served judge withholds what it cannot decide."""
        return True

    def judge(
        self, images: Sequence[Image.Image], prompts: Sequence[str], checks: Sequence[Sequence[Check]]
    ) -> list[list[Verdict]]:
        """Answer ``checks[i]`` about ``images[i]`` through the server; see the module docstring.

        Raises:
            ValueError: ``images``, ``prompts`` and ``checks`` differ in length.
        """
        if not len(images) == len(prompts) == len(checks):
            raise ValueError(
                f"{self.name}: got {len(images)} images, {len(prompts)} prompts, {len(checks)} check lists"
            )
        batches = []
        for start in range(0, len(images), self.batch_size):
            end = start + self.batch_size
            batches.append((list(images[start:end]), list(prompts[start:end]), [list(cs) for cs in checks[start:end]]))
        with ThreadPoolExecutor(max_workers=self.max_concurrency) as pool:
            answers = list(pool.map(lambda b: self._ask(*b), batches))
        return [row for rows in answers for row in rows]

    def _ask(self, images: list[Image.Image], prompts: list[str], checks: list[list[Check]]) -> list[list[Verdict]]:
        """One request: the server's verdicts, or every check withheld with the failure's reason."""
        body = {
            "images": [image_to_data_url(im) for im in images],
            "prompts": prompts,
            "checks": [[check_to_dict(c) for c in cs] for cs in checks],
        }
        try:
            resp = self._session.post(self.url, json=body, timeout=self.timeout_s)
            if resp.status_code != 200:
                raise ValueError(f"HTTP {resp.status_code} {resp.reason}: {_error_of(resp)}")
            return verdicts_from_json(resp.json().get("verdicts"), checks)
        except requests.RequestException as e:
            reason = f"{describe_error(e)} (after {self.max_retries} retries)"
        except (ValueError, TypeError, AttributeError) as e:  # a non-200, or an answer that is not ours
            reason = str(e)
        reason = redact(one_line(f"{self.url}: {reason}", limit=300))
        logger.warning("%s: no verdicts for %d image(s): %s", self.name, len(images), reason)
        return [[withheld(c, self.name, f"request failed: {reason}", call_failed=True) for c in cs] for cs in checks]


def _error_of(resp: requests.Response) -> str:
    """The server's ``error`` field, else the start of the body."""
    try:
        error = resp.json().get("error")
    except (ValueError, AttributeError):
        error = None
    return str(error) if error else " ".join(resp.text.split())[:200]
