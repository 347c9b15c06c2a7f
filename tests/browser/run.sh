#!/usr/bin/env bash
# Real-browser test of the HTML pages: builds a report of the default
# scenario and a replay page (`play --html`), opens them in headless
# Chromium (Debian's package, installed here when missing), and fails on
# any console message, any image that did not load, or a replay frame the
# page's script did not find. The screenshots are kept as test artifacts:
# $CARGO_TARGET_DIR/test-artifacts/report-screenshot.png and
# replay-screenshot.png.
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

# The replay page of one campaign: its script must find every season's
# frame, log nothing, and step through the seasons with the keys.
"$bin" play --seed 7 --html "$work/replay" >/dev/null
replay="file://$work/replay/index.html"
chromium "${flags[@]}" --enable-logging=stderr --v=0 --virtual-time-budget=10000 --dump-dom "$replay" \
    > "$work/replay-dom.html" 2> "$work/replay-chromium.log" || true
chromium "${flags[@]}" --window-size=1400,1250 --virtual-time-budget=10000 \
    --screenshot="$artifacts/replay-screenshot.png" "$replay" > /dev/null 2>&1 || true
frames="$(sed -n 's/.*<body data-frames="\([^"]*\)".*/\1/p' "$work/replay-dom.html" | head -n 1)"
expected="$(grep -o '<section class="frame"' "$work/replay/index.html" | wc -l)"
echo "replay frames: ${frames:-none reported} (page has $expected)"
if [ "$expected" -lt 2 ] || [ "$frames" != "ok $expected" ]; then
    echo "FAIL: the replay page's script did not find every frame"; fail=1
fi
if grep -q 'CONSOLE' "$work/replay-chromium.log"; then
    echo "FAIL: console messages on the replay page:"; grep 'CONSOLE' "$work/replay-chromium.log"; fail=1
fi
# A copy of the page with a probe after its script: it presses keys and
# records which frames are visible after each (exactly one, the right one).
probe='<script>
(function () {
  function shown() {
    var f = document.querySelectorAll("section.frame"), v = [];
    for (var i = 0; i < f.length; i++) if (!f[i].hidden) v.push(i);
    return v.join(",");
  }
  function press(k) { document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true})); return shown(); }
  var r = [shown(), press("ArrowRight"), press("ArrowRight"), press("ArrowLeft"), press("End"),
           press("ArrowRight"), press("Home"), press("ArrowLeft")];
  document.body.setAttribute("data-probe", r.join(" "));
})();
</script>'
{ sed '/^<\/body>$/,$d' "$work/replay/index.html"; printf '%s\n</body>\n</html>\n' "$probe"; } > "$work/replay/probe.html"
chromium "${flags[@]}" --enable-logging=stderr --v=0 --virtual-time-budget=10000 --dump-dom \
    "file://$work/replay/probe.html" > "$work/probe-dom.html" 2> "$work/probe-chromium.log" || true
steps="$(sed -n 's/.*data-probe="\([^"]*\)".*/\1/p' "$work/probe-dom.html" | head -n 1)"
last=$((expected - 1))
want="0 1 2 1 $last $last 0 0"
echo "replay keys: ${steps:-none reported} (want $want)"
if [ "$steps" != "$want" ]; then
    echo "FAIL: the arrow, Home and End keys do not step through the seasons"; fail=1
fi
if grep -q 'CONSOLE' "$work/probe-chromium.log"; then
    echo "FAIL: console messages while stepping:"; grep 'CONSOLE' "$work/probe-chromium.log"; fail=1
fi
if [ ! -s "$artifacts/replay-screenshot.png" ]; then
    echo "FAIL: no replay screenshot"; fail=1
fi
echo "screenshot: $artifacts/replay-screenshot.png"
exit "$fail"
