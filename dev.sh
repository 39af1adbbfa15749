#!/usr/bin/env bash
# The book's two commands, from a fresh clone on a fresh machine:
#
#   ./dev.sh serve [options of build.py serve]   build the book and serve it
#   ./dev.sh test  [pytest arguments]            run the tests (all of them without arguments)
#
# Both install what they need first: the system programs (with apt-get when run as root on
# Debian or Ubuntu; otherwise the command to run is printed), then the exact package versions of
# requirements/test.txt into the virtual environment .venv/ ($TBOOK_VENV), so that what runs is
# what that lock file says, never whatever a machine happens to have installed.
set -euo pipefail
cd "$(dirname "$0")"
VENV=${TBOOK_VENV:-.venv}
LOCK=requirements/test.txt

# npm fetches the Pyodide runtime on the first build (its Node.js also precompiles the runtime's
# modules); the tests drive Chromium (its headless shell: the same engine for less CPU than the
# whole browser, which prints the PDF), Firefox and WebKit (WebKitWebDriver, under Xvfb), need
# the CJK fonts to lay out the Chinese pages, and check the EPUB with epubcheck. (xauth:
# xvfb-run needs it, and it is only a recommendation of xvfb's.)
SERVE_PACKAGES="npm"
TEST_PACKAGES="npm chromium chromium-headless-shell fonts-noto-cjk epubcheck firefox-esr webkit2gtk-driver xvfb xauth"

# Whether what a Debian package brings is here, by its program rather than by dpkg: Node.js from
# elsewhere carries its own npm, and the Debian package would clash with it.
present() {
  case $1 in
    fonts-noto-cjk) [ -n "$(fc-list "Noto Sans CJK SC" 2>/dev/null)" ] ;;
    webkit2gtk-driver) command -v WebKitWebDriver >/dev/null ;;
    xvfb) command -v xvfb-run >/dev/null ;;
    python3-venv) python3 -c "import ensurepip, venv" 2>/dev/null ;;
    *) command -v "$1" >/dev/null ;;  # npm, chromium(-headless-shell), epubcheck, firefox-esr, xauth
  esac
}

system_packages() {
  local missing="" p
  for p in python3-venv "$@"; do present "$p" || missing="$missing $p"; done
  [ -z "$missing" ] && return 0
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "dev.sh: installing$missing (apt-get)"
    apt-get update -q
    # What the packages need, not what they recommend: the recommendations (media codecs,
    # printing, Samba, ImageMagick, ...) were 224 of 360 packages, and half the install's time
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing </dev/null
  elif command -v apt-get >/dev/null; then
    echo "dev.sh: missing$missing. Install them, then run this again:" >&2
    echo "    sudo apt-get install -y --no-install-recommends$missing" >&2
    exit 1
  else
    echo "dev.sh: missing$missing (Debian's package names). Install their programs with" \
         "this system's package manager, then run this again." >&2
    exit 1
  fi
}

# The pinned packages, installed again only when the lock file or pyproject.toml changed since
# the last install into this environment. They are installed with uv (from PyPI, pinned here):
# the same versions as pip would install from the lock, in 8 s instead of pip's 26-47 s
# (measured on this project's 2-core CI machine, download caches cold and warm). Compiled to
# bytecode at install, as pip does: every test process and every Python the tests start imports
# them, and where nothing writes bytecode (PYTHONDONTWRITEBYTECODE, as on the CI machine) each
# would compile them again (1.6 s instead of 0.65 s for the tests' main imports). Where uv has
# no build for the machine, pip installs them.
UV="uv==0.13.8"
python_packages() {
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  local stamp="$VENV/.tbook-installed" want
  want=$(cat "$LOCK" pyproject.toml | cksum)
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return 0
  echo "dev.sh: installing $LOCK into $VENV"
  if "$VENV/bin/python" -m pip install -q "$UV"; then
    "$VENV/bin/uv" pip install -q --compile-bytecode --python "$VENV/bin/python" -c "$LOCK" -e '.[test]'
  else
    "$VENV/bin/python" -m pip install -q -c "$LOCK" -e '.[test]'
  fi
  echo "$want" > "$stamp"
}

case ${1:-} in
  serve) shift; system_packages $SERVE_PACKAGES; python_packages
         exec "$VENV/bin/python" build.py serve "$@" ;;
  test)  shift; system_packages $TEST_PACKAGES; python_packages
         exec "$VENV/bin/python" -m pytest "$@" ;;
  *)     echo "usage: ./dev.sh serve [build.py serve options] | ./dev.sh test [pytest arguments]" >&2
         exit 2 ;;
esac
