"""The router: a judge that hands each check to the first configured judge able to answer it.

Typical order: ``[OCR judge, VLM judge]``, so exact-text checks are decided by code and the rest
by the VLM (GenOlympiad: "perception belongs to the VLM and arithmetic belongs to code").

Fall-through: when a judge returns ``withheld`` for a check (request failed, answer unreadable,
OCR unsure), the check goes on to the next judge in the list that can answer it. A check every
able judge withheld keeps a withheld verdict whose reason lists each judge's reason; a check no
judge can answer is withheld with "no judge could answer".

Cache: ``Router(judges, cache=<path>)`` (Hydra: ``judge.cache=<path>``) puts the routing behind a
:class:`rewards.judges.cache.CachedJudge`: the router's yes/no verdicts are kept in a SQLite
verdict cache keyed by image content, check, prompt and the configuration of every judge in the
list (``cache_identity``); cached checks are not routed again.
"""

from __future__ import annotations

from typing import Any, Sequence

from PIL import Image

from rewards.judges.base import Judge
from rewards.judges.cache import CachedJudge, judge_identity
from rewards.rubric import Check, Verdict, withheld


class Router:
    """Routes checks to judges, one batched ``judge()`` call per judge.

    Args:
        judges: tried in this order for every check; each must implement
            :class:`rewards.judges.base.Judge`.
        cache: path of a SQLite verdict cache file, or None (no cache).

    Attributes:
        cache: the :class:`rewards.judges.cache.VerdictCache` (``hits``, ``misses``), or None.

    Raises:
        ValueError: ``judges`` is empty, or ``cache`` cannot be opened as a verdict cache.
    """

    name = "router"

    def __init__(self, judges: Sequence[Judge], cache: str | None = None):
        self.judges = list(judges)
        if not self.judges:
            raise ValueError("Router: needs at least one judge")
        # the same routing, uncached, behind the cache: its identity is this router's
        self._cached = CachedJudge(Router(self.judges), cache) if cache else None
        self.cache = self._cached.cache if self._cached is not None else None

    def cache_identity(self) -> dict[str, Any]:
        """The identities of the judges, in order (``rewards.judges.cache.judge_identity``)."""
        return {"class": "Router", "judges": [judge_identity(j) for j in self.judges]}

    def can_answer(self, check: Check) -> bool:
        """True when any of the judges can answer ``check``."""
        return any(j.can_answer(check) for j in self.judges)

    def _route(self, images, prompts, checks) -> list[list[Verdict]]:
        """``judge`` without the cache: each judge in turn, on the checks still open."""
        answered: list[list[Verdict | None]] = [[None] * len(cs) for cs in checks]
        withheld_by: list[list[list[Verdict]]] = [[[] for _ in cs] for cs in checks]

        for judge in self.judges:
            # (image index, positions of its open checks this judge can answer)
            todo = [
                (i, [k for k, c in enumerate(cs) if answered[i][k] is None and judge.can_answer(c)])
                for i, cs in enumerate(checks)
            ]
            todo = [(i, ks) for i, ks in todo if ks]
            if not todo:
                continue
            results = judge.judge(
                [images[i] for i, _ in todo],
                [prompts[i] for i, _ in todo],
                [[checks[i][k] for k in ks] for i, ks in todo],
            )
            if len(results) != len(todo):
                raise ValueError(
                    f"router: judge {judge.name} returned {len(results)} verdict lists for {len(todo)} images"
                )
            for (i, ks), verdicts in zip(todo, results):
                if [v.check_id for v in verdicts] != [checks[i][k].id for k in ks]:
                    raise ValueError(f"router: judge {judge.name} returned verdicts for the wrong checks of image {i}")
                for k, v in zip(ks, verdicts):
                    if v.answer == "withheld":
                        withheld_by[i][k].append(v)
                    else:
                        answered[i][k] = v

        out = []
        for i, cs in enumerate(checks):
            row = []
            for k, c in enumerate(cs):
                tried = withheld_by[i][k]
                if answered[i][k] is not None:
                    row.append(answered[i][k])
                elif not tried:
                    why = f": {c.spec.note}" if c.spec is not None and c.spec.note else ""  # "negation: ..."
                    row.append(withheld(c, self.name, f"no judge could answer{why}"))
                elif len(tried) == 1:
                    row.append(tried[0])
                else:
                    reason = "; ".join(f"{v.judge}: {v.reason}" for v in tried)
                    failed = any(v.call_failed for v in tried)  # as the loop's former regex over the joined reasons
                    row.append(
                        Verdict(c.id, "withheld", tried[-1].judge, reason, tried[-1].evidence, call_failed=failed)
                    )
            out.append(row)
        return out

    def judge(
        self,
        images: Sequence[Image.Image],
        prompts: Sequence[str],
        checks: Sequence[Sequence[Check]],
    ) -> list[list[Verdict]]:
        """Answer ``checks[i]`` about ``images[i]``, in the original order.

        Each judge is called at most once, with only the images that still have checks it can
        answer and that no earlier judge answered yes/no.

        Raises:
            ValueError: the inputs differ in length, or a judge returned the wrong number of
                verdicts or verdicts for other checks (a bug in that judge).
        """
        if not len(images) == len(prompts) == len(checks):
            raise ValueError(f"router: got {len(images)} images, {len(prompts)} prompts, {len(checks)} check lists")
        if self._cached is not None:
            return self._cached.judge(images, prompts, checks)
        return self._route(images, prompts, checks)
