#!/usr/bin/env bash
# Install RubricLoop on a fresh Debian machine (Python >= 3.11): Debian's tesseract (the OCR judge)
# and DejaVu and Liberation fonts (the text editor) when missing, then a virtual environment in .venv with the
# project and its test tools (pytest, ruff, `transformers serve`). Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v tesseract >/dev/null 2>&1 || missing+=(tesseract-ocr)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
# Liberation (Arial/Times/Courier metrics): the text editor matches the type of text it rewrites among these
[ -e /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf ] || missing+=(fonts-liberation)
# a CJK face (1.6 MB): the text editor writes Chinese, Japanese and Korean strings, and a test renders them
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing+=(fonts-wqy-microhei)
# tesseract models for the non-Latin scripts benchmark questions quote (rewards/text/ocr/ocr_langs.py)
for lang in chi_sim jpn kor rus ell; do
  ls /usr/share/tesseract-ocr/*/tessdata/$lang.traineddata >/dev/null 2>&1 || missing+=("tesseract-ocr-${lang//_/-}")
done
# to build tesserocr (the fastocr extra) against Debian's tesseract: reads in this process, no start-up
# per read; optional: without them tesseract runs as a command
python=${PYTHON:-python3}
build=()
pkg-config --exists tesseract lept 2>/dev/null || build+=(libtesseract-dev libleptonica-dev pkg-config)
command -v g++ >/dev/null 2>&1 || build+=(g++)
headers=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -e "$headers/Python.h" ] || build+=(python3-dev)
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ${#build[@]} -gt 0 ]; then
  # optional: never asks for a password (sudo -n); without them tesseract runs as a command
  if [ -z "$sudo" ] || sudo -n true 2>/dev/null; then
    echo "setup: installing Debian packages to build tesserocr: ${build[*]}"
    { [ ${#missing[@]} -gt 0 ] || $sudo apt-get update -qq; } \
      && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${build[@]}" >/dev/null \
      || echo "setup: could not install ${build[*]}: tesseract will run as a command (the same reads, slower)"
  else
    echo "setup: to run tesseract in the process, install ${build[*]} (apt-get) and run this again"
  fi
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $($python --version)"
  "$python" -m venv .venv
  .venv/bin/pip install -q --upgrade pip
fi
# torch first and pinned: on a CPU machine this is the CPU wheel; a GPU user may install their own
# CUDA build of torch (<= 2.14.1) beforehand, and it is kept.
.venv/bin/python -c "import torch" 2>/dev/null || .venv/bin/pip install -q torch==2.13.0
# dev: pytest and ruff; serve: `transformers serve`, the real server tests/rewards/judges/test_transformers_serve.py starts
.venv/bin/pip install -q -e ".[dev,serve,cluster]"  # cluster: the submitit launcher (the tests run it locally)
# fastocr: tesserocr built here against the tesseract above (its PyPI wheel bundles another
# tesseract version, which rewards/text/ocr/tesseract_engine.py would not use); without it tesseract runs as a command
same_tesseract='from rewards.text.ocr import tesseract_engine as t; import sys; sys.exit(t.library_version() != t.command_version())'
.venv/bin/python -c "$same_tesseract" 2>/dev/null \
  || .venv/bin/pip install -q --force-reinstall --no-deps --no-binary tesserocr "tesserocr==2.8.0" \
  || echo "setup: tesserocr did not build: tesseract is run as a command (the same reads, slower)"
echo "setup: ok ($(.venv/bin/python -c 'import torch, diffusers; print("torch", torch.__version__, "diffusers", diffusers.__version__)'))"
