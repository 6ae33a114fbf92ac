"""Every Pillow mode a file can hold becomes the right 8-bit RGB page (rewards/common/images.py).

Each case writes a real file, reads it back with ``open_image`` and checks pixel values
computed by hand: 16-bit v -> round(v * 255 / 65535), alpha a over white -> 255 - a for black
ink (alpha compositing, out = ink * a/255 + background * (1 - a/255)).
"""

import os
import socket
import threading

import numpy as np
import pytest
from PIL import Image

from rewards.common.images import ImageError, open_image, to_rgb


def px(image, xy):
    return tuple(int(v) for v in np.asarray(image)[xy[1], xy[0]])


def saved(tmp_path, image, name, **kw):
    path = tmp_path / name
    image.save(path, **kw)
    return path


def test_bilevel_and_gray(tmp_path):
    one = Image.new("1", (4, 4), 1)
    one.putpixel((1, 1), 0)
    rgb = open_image(saved(tmp_path, one, "one.png"))
    assert rgb.mode == "RGB" and px(rgb, (0, 0)) == (255, 255, 255) and px(rgb, (1, 1)) == (0, 0, 0)
    gray = Image.new("L", (4, 4), 77)
    assert px(open_image(saved(tmp_path, gray, "l.png")), (2, 2)) == (77, 77, 77)


def test_gray_alpha_is_composited_on_white(tmp_path):
    a = np.zeros((4, 4, 2), np.uint8)  # black ink everywhere, alpha decides what shows
    a[0, 0, 1] = 255
    a[0, 1, 1] = 128
    rgb = open_image(saved(tmp_path, Image.fromarray(a, "LA"), "la.png"))
    assert px(rgb, (0, 0)) == (0, 0, 0)  # opaque ink
    assert px(rgb, (1, 0)) == (127, 127, 127)  # 255 * (1 - 128/255) = 127
    assert px(rgb, (3, 3)) == (255, 255, 255)  # transparent: the white page, not black


def test_palette_with_and_without_transparency(tmp_path):
    pal = Image.new("P", (4, 4), 0)
    pal.putpalette([0, 0, 0, 255, 0, 0] + [0] * 762)  # index 0 black, 1 red
    pal.putpixel((1, 1), 1)
    plain = open_image(saved(tmp_path, pal, "p.png"))
    assert px(plain, (0, 0)) == (0, 0, 0) and px(plain, (1, 1)) == (255, 0, 0)
    clear = open_image(saved(tmp_path, pal, "p_t.png", transparency=0))  # black index is transparent
    assert px(clear, (0, 0)) == (255, 255, 255) and px(clear, (1, 1)) == (255, 0, 0)
    gif = open_image(saved(tmp_path, pal, "p_t.gif", transparency=0))
    assert px(gif, (0, 0)) == (255, 255, 255) and px(gif, (1, 1)) == (255, 0, 0)


def test_rgb_and_rgba_on_white_or_a_given_background(tmp_path):
    rgb = Image.new("RGB", (4, 4), (10, 200, 30))
    assert px(open_image(saved(tmp_path, rgb, "rgb.png")), (3, 0)) == (10, 200, 30)
    a = np.zeros((4, 4, 4), np.uint8)  # a transparent page stored as (0, 0, 0, 0) ...
    a[2, 2] = (0, 0, 0, 255)  # ... with one opaque black text pixel
    a[0, 3] = (255, 0, 0, 64)
    path = saved(tmp_path, Image.fromarray(a, "RGBA"), "rgba.png")
    out = open_image(path)
    assert px(out, (0, 0)) == (255, 255, 255) and px(out, (2, 2)) == (0, 0, 0)
    assert px(out, (3, 0)) == (255, 191, 191)  # red at 64/255 over white: 255 - 64 = 191 in G and B
    assert px(open_image(path, background=(0, 0, 128)), (0, 0)) == (0, 0, 128)


def test_16_bit_gray_png_maps_by_range_not_clipped(tmp_path):
    a = np.array([[0, 257 * 128, 65535, 10400]], np.uint16)
    im = Image.fromarray(a)
    assert im.mode == "I;16"
    rgb = open_image(saved(tmp_path, im, "g16.png"))
    assert [px(rgb, (x, 0))[0] for x in range(4)] == [0, 128, 255, 40]  # 10400 * 255 / 65535 = 40.47
    assert px(rgb, (3, 0)) == (40, 40, 40)
    tif = open_image(saved(tmp_path, im, "g16.tiff"))
    assert [px(tif, (x, 0))[0] for x in range(4)] == [0, 128, 255, 40]


def test_16_bit_gray_with_a_transparent_level(tmp_path):
    a = np.array([[0, 65535, 0]], np.uint16)
    im = Image.fromarray(a)
    im.info["transparency"] = 0
    assert [px(to_rgb(im), (x, 0)) for x in range(3)] == [(255, 255, 255), (255, 255, 255), (255, 255, 255)]
    a[0, 0] = 1000  # not the transparent level: 1000 * 255 / 65535 = 3.89
    im = Image.fromarray(a)
    im.info["transparency"] = 0
    assert px(to_rgb(im), (0, 0)) == (4, 4, 4)


@pytest.mark.parametrize(
    "values, expected",
    [
        ([0, 100, 255], [0, 100, 255]),  # fits 8 bits: kept
        ([0, 257 * 100, 65535], [0, 100, 255]),  # fits 16 bits: / 257
    ],
)
def test_32_bit_integer_tiff_maps_by_the_range_it_fits(tmp_path, values, expected):
    im = Image.fromarray(np.array([values], np.int32))
    assert im.mode == "I"
    out = open_image(saved(tmp_path, im, "i.tiff"))
    assert [px(out, (x, 0))[0] for x in range(3)] == expected


def test_float_tiff_in_0_1_and_refused_outside_every_range(tmp_path):
    im = Image.fromarray(np.array([[0.0, 0.25, 1.0]], np.float32))
    assert im.mode == "F"
    out = open_image(saved(tmp_path, im, "f.tiff"))
    assert [px(out, (x, 0))[0] for x in range(3)] == [0, 64, 255]  # 0.25 * 255 = 63.75
    bad = saved(tmp_path, Image.fromarray(np.array([[-5.0, 1e6]], np.float32)), "bad.tiff")
    with pytest.raises(ImageError) as e:
        open_image(bad)
    assert str(e.value) == (
        f"cannot read image {bad} (mode F pixel values span -5..1e+06 (or are NaN): "
        "only 0..1, 0..255 or 0..65535 can be mapped to 8 bits)"
    )
    nan = Image.fromarray(np.array([[np.nan, 0.5]], np.float32))
    with pytest.raises(ImageError, match="are NaN"):
        to_rgb(nan)


def test_cmyk_tiff_and_jpeg(tmp_path):
    a = np.array([[[0, 0, 0, 0], [255, 0, 0, 0], [0, 0, 0, 255]]], np.uint8)  # white, cyan, black
    cmyk = Image.fromarray(a, "CMYK")
    out = open_image(saved(tmp_path, cmyk, "cmyk.tiff"))
    assert [px(out, (x, 0)) for x in range(3)] == [(255, 255, 255), (0, 255, 255), (0, 0, 0)]
    big = Image.new("CMYK", (16, 16), (255, 0, 0, 0))
    jpg = open_image(saved(tmp_path, big, "cmyk.jpg", quality=95))
    assert np.abs(np.asarray(jpg, np.int16) - (0, 255, 255)).max() <= 3


def test_jpeg_webp_tiff_rgb(tmp_path):
    page = Image.new("RGB", (16, 16), (200, 30, 60))
    jpg = open_image(saved(tmp_path, page, "a.jpg", quality=95))
    assert np.abs(np.asarray(jpg, np.int16) - (200, 30, 60)).max() <= 3
    webp = open_image(saved(tmp_path, page, "a.webp", lossless=True))
    assert px(webp, (5, 5)) == (200, 30, 60)
    a = np.zeros((4, 4, 4), np.uint8)
    a[1, 1] = (0, 0, 0, 255)
    webp_alpha = open_image(saved(tmp_path, Image.fromarray(a, "RGBA"), "alpha.webp", lossless=True))
    assert px(webp_alpha, (0, 0)) == (255, 255, 255) and px(webp_alpha, (1, 1)) == (0, 0, 0)
    assert px(open_image(saved(tmp_path, page, "a.tiff")), (0, 0)) == (200, 30, 60)


def test_exif_orientation_is_applied(tmp_path):
    im = Image.new("RGB", (8, 4), "white")
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to display
    out = open_image(saved(tmp_path, im, "rot.jpg", exif=exif))
    assert out.size == (4, 8)


def test_unreadable_files_are_one_line_errors(tmp_path):
    good = saved(tmp_path, Image.new("RGB", (64, 64), "white"), "whole.png")
    cut = tmp_path / "cut.png"
    cut.write_bytes(good.read_bytes()[:60])
    for path, start in [
        (cut, f"cannot read image {cut} ("),
        (tmp_path / "none.png", f"image not found: {tmp_path / 'none.png'}"),
        (tmp_path, f"cannot read image {tmp_path} (a folder, not a file)"),
    ]:
        with pytest.raises(ImageError) as e:
            open_image(path)
        assert str(e.value).startswith(start) and "\n" not in str(e.value)


def test_a_fifo_socket_or_device_is_refused_without_being_opened(tmp_path):
    """A FIFO blocks whoever opens it for reading until a writer comes (issue 18: the whole run
    hung). It is refused from ``stat`` alone; so are a socket and a character device."""
    fifo = tmp_path / "page.png"
    os.mkfifo(fifo)
    caught: list[BaseException] = []
    reader = threading.Thread(target=lambda: caught.append(pytest.raises(ImageError, open_image, fifo).value))
    reader.start()
    reader.join(timeout=10)
    hung = reader.is_alive()
    if hung:  # the unfixed reader blocks in open(): a writer that closes at once lets it go
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join()
    assert not hung, "open_image blocked on a FIFO"
    assert str(caught[0]) == f"cannot read image {fifo} (a FIFO, not a file)"

    sock_path = tmp_path / "page.sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(sock_path))
        with pytest.raises(ImageError, match=r"^cannot read image .*page\.sock \(a socket, not a file\)$"):
            open_image(sock_path)
    with pytest.raises(ImageError, match=r"^cannot read image /dev/null \(a character device, not a file\)$"):
        open_image("/dev/null")
    link = tmp_path / "link.png"
    link.symlink_to(fifo)  # a link is followed, as opening would
    with pytest.raises(ImageError, match=r"\(a FIFO, not a file\)$"):
        open_image(link)


def test_the_remaining_modes():
    pa = Image.new("PA", (2, 1))
    pa.putpalette([0, 0, 0] * 256)
    pa.putpixel((0, 0), (0, 255))  # black, opaque; (1, 0) stays black at alpha 0
    assert [px(to_rgb(pa), (x, 0)) for x in range(2)] == [(0, 0, 0), (255, 255, 255)]
    premultiplied = Image.new("RGBa", (1, 1), (100, 0, 0, 128))  # red 200 at alpha 128, premultiplied
    r = px(to_rgb(premultiplied), (0, 0))
    assert abs(r[0] - round(200 * 128 / 255 + 255 * 127 / 255)) <= 1 and abs(r[1] - 127) <= 1
    big_endian = Image.frombytes("I;16B", (2, 1), bytes([0xFF, 0xFF, 0x80, 0x80]))  # 65535, 32896
    assert [px(to_rgb(big_endian), (x, 0))[0] for x in range(2)] == [255, 128]
    ycc = Image.new("YCbCr", (1, 1), (255, 128, 128))  # luma 255, no chroma: white
    assert px(to_rgb(ycc), (0, 0)) == (255, 255, 255)
    assert px(to_rgb(Image.new("HSV", (1, 1), (0, 255, 255))), (0, 0)) == (255, 0, 0)
    assert px(to_rgb(Image.new("RGBX", (1, 1), (1, 2, 3, 0))), (0, 0)) == (1, 2, 3)
    with pytest.raises(ImageError, match=r"^cannot convert mode La to RGB \(ValueError: conversion from La"):
        to_rgb(Image.new("La", (1, 1)))
