"""Erasing text from its background, and compositing new text over it.

The background under a box is modelled from a ring of pixels around it by a per-channel least-
squares plane ``c + a x + b y`` (flat fills and linear gradients are reproduced exactly), refitted
twice without the ring pixels that are far from the fit (a neighbouring glyph, the edge of a badge),
started once from the ring loosely around its median and once tightly; the plane that reproduces
more of the ring wins (a chart's grey axes two rows under a title tilted the loose one: the erased
glyphs came out grey and the rows under them were kept as a rule). Only pixels of the box that
differ from the model (the old glyphs and their anti-aliased fringe, dilated by one pixel, less the
pixels of that fringe already within ``SAME`` of the model: the page's own background, which a
replacement would only shift by a level of rounding) are replaced, so untouched background keeps its
noise and texture, and there is no halo of a flat rectangle. A rule that crosses the box (a
gridline, an axis or frame line: a row or column of foreground over ``RULE_SHARE`` of the box that
goes on past both its sides, or a row that goes on ``RULE_REACH`` box heights past one side) is not
text and is kept (``rules_through``): a title's fix erased the axis frame line under it, a line
label's fix the gridline over it, and a left-aligned chart title's fix the top spine starting under
its first letter.
"""

from __future__ import annotations

import numpy as np

TOLERANCE = 10.0
"""Largest per-channel difference (0-255) from the background model still counted as background."""
RULE_SHARE = 0.9
"""Least share of a box's row (column) in the foreground for the row (column) to be a rule."""
SAME = 2
"""Largest per-channel difference (0-255) of a pixel from the rounded background model at which the
erase leaves it as it is: it is background already, and replacing it only re-rounds the plane.
The plane fitted to a ring that holds a callout's arrow came out 254.2 over a white page (255):
the one-pixel fringe above the old glyphs' tops, a row outside the engine's box, was written 254
(27 px of dev matplotlib-line-22, changes of one level). Old ink this close to the background is
not seen; every pixel further off it is replaced as before. Only a pixel of the ring's most common
colour (the page's own, ``_ring_mode``) is left: an old glyph's faint fringe, 254 on a white page
the model has right, is still replaced (a rewritten title's old parentheses left their tails).
The same held for a value label's erase, which shifted the page's (251, 250, 247) a row above it
to the model's (250, 249, 246): 10 pixels changed outside the element, one level each."""


def clip_box(box, w: int, h: int) -> tuple[int, int, int, int]:
    """``box`` (x0, y0, x1, y1) rounded outward and clipped to a w x h image."""
    return (
        max(0, int(np.floor(box[0]))),
        max(0, int(np.floor(box[1]))),
        min(w, int(np.ceil(box[2]))),
        min(h, int(np.ceil(box[3]))),
    )


def background_model(arr: np.ndarray, box, ring: int = 3) -> np.ndarray | None:
    """float32 (h, w, 3): the modelled background inside ``box`` (clipped), or None when the
    ring around it is empty (the box covers the image).

    Args:
        arr: uint8 (H, W, 3) image.
        box: (x0, y0, x1, y1) pixels.
        ring: width in pixels of the band around ``box`` the plane is fitted to.
    """
    H, W = arr.shape[:2]
    x0, y0, x1, y1 = clip_box(box, W, H)
    (X0, Y0, X1, Y1), mask = _ring(arr, (x0, y0, x1, y1), ring)
    ys, xs = np.nonzero(mask)
    if len(ys) < 3:
        return None
    vals = arr[Y0:Y1, X0:X1][mask].astype(np.float64)  # (M, 3)
    # Coordinates relative to the box centre keep the system well conditioned.
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    A = np.stack([np.ones(len(xs)), xs + X0 - cx, ys + Y0 - cy], 1)
    # Start from the median colour (the majority of the ring is background), once loosely (a steep
    # gradient's ring spreads far from its median) and once tightly (another fill along one side
    # of the ring, as a chart's grey axes two rows under a title, tilted the loose plane by 14 levels
    # over the box); the plane that reproduces more of the ring to within half the tolerance wins.
    fits = [_plane(A, vals, start) for start in (3 * TOLERANCE, TOLERANCE)]
    coef = max(fits, key=lambda c: int((np.abs(A @ c - vals).max(1) <= TOLERANCE / 2).sum()))
    gy, gx = np.mgrid[y0:y1, x0:x1]
    B = np.stack([np.ones(gx.size), gx.ravel() - cx, gy.ravel() - cy], 1)
    return (B @ coef).reshape(y1 - y0, x1 - x0, 3).astype(np.float32)


def _ring(arr: np.ndarray, box, ring: int) -> tuple[tuple[int, int, int, int], np.ndarray]:
    """(the box grown by ``ring`` px and clipped to ``arr``, bool mask over it of the band around
    ``box``: ``box`` (clipped, integer) itself left out)."""
    H, W = arr.shape[:2]
    x0, y0, x1, y1 = box
    X0, Y0, X1, Y1 = max(0, x0 - ring), max(0, y0 - ring), min(W, x1 + ring), min(H, y1 + ring)
    mask = np.ones((Y1 - Y0, X1 - X0), bool)
    mask[y0 - Y0 : y1 - Y0, x0 - X0 : x1 - X0] = False
    return (X0, Y0, X1, Y1), mask


def _ring_mode(arr: np.ndarray, box, ring: int) -> np.ndarray:
    """(3,) the most common colour of the ``ring`` px band around ``box`` (clipped, ``_ring``): the
    page's own colour where the band is mostly page."""
    (X0, Y0, X1, Y1), mask = _ring(arr, box, ring)
    colours, counts = np.unique(arr[Y0:Y1, X0:X1][mask].reshape(-1, 3), axis=0, return_counts=True)
    return colours[np.argmax(counts)].astype(np.float32)


def _plane(A: np.ndarray, vals: np.ndarray, start: float) -> np.ndarray:
    """Coefficients (3, 3) of the per-channel plane ``A @ coef`` fitted by least squares to the ring
    pixels ``vals`` (M, 3) within ``start`` of their median, then refitted twice to those within
    ``TOLERANCE`` (or three median residuals) of the fit."""
    keep = np.abs(vals - np.median(vals, 0)).max(1) <= start
    if keep.sum() < 3:
        keep[:] = True
    coef = None
    for _ in range(3):
        coef, *_ = np.linalg.lstsq(A[keep], vals[keep], rcond=None)
        resid = np.abs(A @ coef - vals).max(1)
        new_keep = resid <= max(TOLERANCE, 3 * float(np.median(resid[keep])))
        if new_keep.sum() < 3 or (new_keep == keep).all():
            break
        keep = new_keep
    return coef


def rules_through(arr: np.ndarray, box, model: np.ndarray, fg: np.ndarray) -> np.ndarray:
    """bool (h, w) of ``box`` (clipped, x0, y0, x1, y1): its rows and columns that a rule crosses:
    foreground (``fg``, bool (h, w)) over ``RULE_SHARE`` of the row (column), and the pixels two
    past the box on both sides of it off the background ``model`` (float (h, w, 3)) too, or (rows)
    every pixel ``RULE_REACH`` box heights past one side off it (``_goes_on``)."""
    H, W = arr.shape[:2]
    x0, y0, x1, y1 = box
    out = np.zeros_like(fg)
    if x0 >= 2 and x1 + 2 <= W:
        rows = np.flatnonzero(fg.mean(1) >= RULE_SHARE)
        left = np.abs(arr[y0 + rows, x0 - 2].astype(np.float32) - model[rows, 0]).max(1) > TOLERANCE
        right = np.abs(arr[y0 + rows, x1 + 1].astype(np.float32) - model[rows, -1]).max(1) > TOLERANCE
        # a frame line that starts under the text's first letter (a title set flush with its axes' left
        # edge: loc="left") goes on past one side only, but far: RULE_REACH box heights
        reach = max(8, round(RULE_REACH * (y1 - y0)))
        far_left = _goes_on(arr, y0 + rows, np.arange(x0 - reach, x0), model[rows, 0])
        far_right = _goes_on(arr, y0 + rows, np.arange(x1, x1 + reach), model[rows, -1])
        out[rows[(left & right) | far_left | far_right]] = True
    if y0 >= 2 and y1 + 2 <= H:
        cols = np.flatnonzero(fg.mean(0) >= RULE_SHARE)
        top = np.abs(arr[y0 - 2, x0 + cols].astype(np.float32) - model[0, cols]).max(1) > TOLERANCE
        bottom = np.abs(arr[y1 + 1, x0 + cols].astype(np.float32) - model[-1, cols]).max(1) > TOLERANCE
        out[:, cols[top & bottom]] = True
    return out


RULE_REACH = 2.0
"""How far (box heights) past one side of the box a row of foreground must go on to be a rule when it
does not go past the other (``rules_through``)."""


def _goes_on(arr: np.ndarray, ys: np.ndarray, xs: np.ndarray, model: np.ndarray) -> np.ndarray:
    """bool (len(ys),): whether row ``ys[i]`` of ``arr`` is off ``model[i]`` (RGB) by more than
    ``TOLERANCE`` at every column of ``xs`` (False where ``xs`` leaves the image)."""
    if len(ys) == 0 or xs.min() < 0 or xs.max() >= arr.shape[1]:
        return np.zeros(len(ys), bool)
    strip = arr[ys][:, xs].astype(np.float32)  # (n, k, 3)
    return (np.abs(strip - model[:, None, :]).max(2) > TOLERANCE).all(1)


def erase(arr: np.ndarray, box, ring: int = 3, keep: np.ndarray | None = None) -> np.ndarray:
    """Replace the foreground pixels of ``box`` by the modelled background, in place; a pixel
    of the page's own colour within ``SAME`` levels of the model is background and is left.

    Args:
        arr: uint8 (H, W, 3) image, modified.
        box: (x0, y0, x1, y1) pixels, the text's box with its padding.
        keep: bool (H, W), pixels never replaced (another line's ink under the padding).

    Returns:
        bool (H, W): the pixels replaced.
    """
    H, W = arr.shape[:2]
    changed = np.zeros((H, W), bool)
    x0, y0, x1, y1 = clip_box(box, W, H)
    model = background_model(arr, (x0, y0, x1, y1), ring)
    if model is None or x1 <= x0 or y1 <= y0:
        return changed
    patch = arr[y0:y1, x0:x1].astype(np.float32)
    fg = np.abs(patch - model).max(2) > TOLERANCE
    rule = rules_through(arr, (x0, y0, x1, y1), model, fg)  # a gridline or frame line is kept
    fg &= ~rule
    grown = fg.copy()  # one-pixel dilation catches the anti-aliased fringe
    grown[1:] |= fg[:-1]
    grown[:-1] |= fg[1:]
    grown[:, 1:] |= fg[:, :-1]
    grown[:, :-1] |= fg[:, 1:]
    grown &= ~rule
    if keep is not None:
        grown &= ~keep[y0:y1, x0:x1]
    new = np.clip(np.rint(model), 0, 255).astype(np.uint8)
    page = _ring_mode(arr, (x0, y0, x1, y1), ring)
    grown &= (np.abs(patch - new).max(2) > SAME) | (patch != page).any(2)  # the page's own colour: left (``SAME``)
    arr[y0:y1, x0:x1][grown] = new[grown]
    changed[y0:y1, x0:x1] = grown
    return changed


def composite(arr: np.ndarray, alpha: np.ndarray, origin: tuple[int, int], ink) -> np.ndarray:
    """Draw coverage ``alpha`` (float (h, w) in [0, 1]) in colour ``ink`` over ``arr`` with its
    top-left at ``origin`` (x, y), in place (alpha blending over what is there, so the erased
    background shows between glyphs). Returns the bool (H, W) mask of pixels changed."""
    H, W = arr.shape[:2]
    ox, oy = origin
    h, w = alpha.shape
    X0, Y0, X1, Y1 = max(0, ox), max(0, oy), min(W, ox + w), min(H, oy + h)
    changed = np.zeros((H, W), bool)
    if X1 <= X0 or Y1 <= Y0:
        return changed
    a = alpha[Y0 - oy : Y1 - oy, X0 - ox : X1 - ox, None]
    old = arr[Y0:Y1, X0:X1].astype(np.float32)
    new = np.clip(np.rint(old * (1 - a) + np.asarray(ink, np.float32) * a), 0, 255).astype(np.uint8)
    changed[Y0:Y1, X0:X1] = (new != arr[Y0:Y1, X0:X1]).any(2)
    arr[Y0:Y1, X0:X1] = new
    return changed
