#!/usr/bin/env bash
# Real-browser test of the HTML report: builds a report of the default
# scenario, opens it in headless Chromium (Debian's package, installed here
# when missing), and fails on any console error or any image that did not
# load. The screenshot is kept as a test artifact:
# $CARGO_TARGET_DIR/test-artifacts/report-screenshot.png.
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${CARGO_TARGET_DIR:-target}"
bin="$target/release/empires"
artifacts="$target/test-artifacts"
mkdir -p "$artifacts"

if ! command -v chromium >/dev/null 2>&1; then
    echo "installing Debian's chromium"
    sudo_cmd=""
    if [ "$(id -u)" != 0 ]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null 2>&1
fi
test -x "$bin" || cargo build --release --locked

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bin" run --campaigns 500 --rotate-seats --detail seasons --quiet --out "$work/run" >/dev/null
"$bin" report "$work/run" --out "$work/report" >/dev/null

# Flags for a closed network and a root user (see the machine notes).
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --user-data-dir="$work/profile" --allow-file-access-from-files)
page="file://$work/report/index.html"
chromium "${flags[@]}" --enable-logging=stderr --v=0 --virtual-time-budget=10000 --dump-dom "$page" \
    > "$work/dom.html" 2> "$work/chromium.log" || true
chromium "${flags[@]}" --window-size=1000,4000 --virtual-time-budget=10000 \
    --screenshot="$artifacts/report-screenshot.png" "$page" > /dev/null 2>&1 || true

fail=0
images="$(sed -n 's/.*<body data-images="\([^"]*\)".*/\1/p' "$work/dom.html" | head -n 1)"
expected="$(grep -o '<img ' "$work/report/index.html" | wc -l)"
echo "images: ${images:-none reported} (page has $expected)"
if [ "$images" != "ok $expected" ]; then
    echo "FAIL: not every image loaded"; fail=1
fi
# Chromium logs every console message as a CONSOLE line, without its level
# (console.error and uncaught exceptions alike). The page logs nothing, so
# any CONSOLE line is a failure.
if grep -q 'CONSOLE' "$work/chromium.log"; then
    echo "FAIL: console messages:"; grep 'CONSOLE' "$work/chromium.log"; fail=1
fi
if [ ! -s "$artifacts/report-screenshot.png" ]; then
    echo "FAIL: no screenshot"; fail=1
fi
echo "screenshot: $artifacts/report-screenshot.png"
exit "$fail"
