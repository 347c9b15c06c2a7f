#!/usr/bin/env bash
# Real-browser test of the HTML pages: builds a report of the default
# scenario and a replay page (`play --html`), opens them in headless
# Chromium (Debian's package, installed here when missing), and fails on
# any console message, any image that did not load, or a replay frame the
# page's script did not find. Every other page kind (compare, sweep,
# experiments, ladder, metagame, deviate, tune, styles, sensitivity, tables) is
# built small and must state its answer, load its images, log nothing and
# keep every block inside the page. The screenshots are kept as test
# artifacts in $CARGO_TARGET_DIR/test-artifacts/ (report-, replay-,
# KIND-screenshot.png).
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

# Every other kind of page, made small: each must open with its answer
# (the three questions' pages with their verdict and its criterion),
# load every image, log nothing, and keep every block inside the page
# (the pages record what sticks out on <body data-overflow>).
pages=(
    "compare|compare --vary costs.capture=3 --campaigns 50"
    "sweep|sweep --values costs.capture=1..3 --campaigns 30"
    "heatmap|sweep --values costs.capture=1..2 --values costs.pillage=1..2 --campaigns 20"
    "mine-vs-pillage|experiment mine-vs-pillage --campaigns 20 --loss-campaigns 20 --readings-campaigns 0"
    "restrict|experiment restrict --forbid mine --levels random,balanced --campaigns 40"
    "ladder|ladder --strategies random,balanced,miner --campaigns 40 --bootstrap 100"
    "metagame|metagame --strategies random,balanced --campaigns 20 --bootstrap 100"
    "deviate|deviate --strategy balanced --keys mine,pillage --campaigns 40"
    "probe|probe --strategy balanced --topics mine,pillage --campaigns 40"
    "tune|tune --keys capture,mine --generations 1 --population 3 --campaigns-per-eval 4 --eval-campaigns 8"
    "styles|styles --starts balanced,warlord --keys attack,mine --generations 2 --campaigns-per-eval 8 --emitters 1 --population 3 --eval-campaigns 8"
    "sensitivity|(its metric has spaces: run below)"
    "tables|tables"
)
for entry in "${pages[@]}"; do
    kind="${entry%%|*}"; args="${entry#*|}"
    dir="$work/page-$kind"
    if [ "$kind" = sensitivity ]; then
        "$bin" sensitivity --metric "mean empire size" --inputs costs.capture,economy.pillage.mult \
            --trajectories 2 --campaigns 20 --quiet --out "$dir" >/dev/null 2>&1 || { echo "FAIL: $kind did not run"; fail=1; continue; }
    else
        # shellcheck disable=SC2086
        "$bin" $args --out "$dir" >/dev/null 2>&1 || { echo "FAIL: $kind did not run"; fail=1; continue; }
    fi
    chromium "${flags[@]}" --enable-logging=stderr --v=0 --virtual-time-budget=10000 --dump-dom \
        "file://$dir/index.html" > "$dir.dom" 2> "$dir.log" || true
    chromium "${flags[@]}" --window-size=1000,3000 --virtual-time-budget=10000 \
        --screenshot="$artifacts/$kind-screenshot.png" "file://$dir/index.html" > /dev/null 2>&1 || true
    imgs="$(sed -n 's/.*data-images="\([^"]*\)".*/\1/p' "$dir.dom" | head -n 1)"
    want_imgs="ok $(grep -o '<img ' "$dir/index.html" | wc -l)"
    over="$(sed -n 's/.*data-overflow="\([^"]*\)".*/\1/p' "$dir.dom" | head -n 1)"
    scrolled="$(sed -n 's/.*data-scrolled="\([^"]*\)".*/\1/p' "$dir.dom" | head -n 1)"
    answer="$(grep -c '<p class="answer">[^<]' "$dir/index.html" || true)"
    echo "$kind: images ${imgs:-none} (want $want_imgs), overflow ${over:-unknown}, tables scrolled ${scrolled:-unknown}, answer $answer"
    [ "$imgs" = "$want_imgs" ] || { echo "FAIL: $kind: not every image loaded"; fail=1; }
    [ "$over" = none ] || { echo "FAIL: $kind: blocks stick out of the page: $over"; fail=1; }
    [ "$answer" = 1 ] || { echo "FAIL: $kind: the page states no answer"; fail=1; }
    # The table of every metric fits its page, its verdict column in view.
    if [ "$kind" = compare ] && [ "$scrolled" != 0 ]; then
        echo "FAIL: compare: $scrolled tables wider than the page (their last columns hidden until scrolled)"; fail=1
    fi
    # The three questions' pages open with their verdict and its criterion,
    # in the rendered page (the DOM Chromium built), first thing on screen.
    lead=""; criterion=""
    case "$kind" in
        mine-vs-pillage) lead="Question 1, is a mine worth more than a pillage"; criterion="Holm 5% family-wise" ;;
        tables) lead="Question 2, are the combat tables fair?"; criterion="Criterion: fair means" ;;
        compare) lead="Question 3, did the change shift the balance?"; criterion="family-wise error 5%" ;;
        sweep|heatmap) lead="Question 3, did the change shift the balance?"; criterion="false discovery rate 5%" ;;
    esac
    if [ -n "$lead" ]; then
        first="$(grep -o '<p class="answer">[^<]*' "$dir.dom" | head -n 1 | sed 's/<p class="answer">//')"
        before="$(sed -n '/<p class="answer">/q;p' "$dir.dom" | grep -c '<h2>\|<img ' || true)"
        echo "$kind: verdict ${first:0:60}..."
        case "$first" in "$lead"*) ;; *) echo "FAIL: $kind: the page does not open with its verdict"; fail=1 ;; esac
        case "$first" in *"$criterion"*) ;; *) echo "FAIL: $kind: the verdict states no criterion ($criterion)"; fail=1 ;; esac
        [ "$before" = 0 ] || { echo "FAIL: $kind: something comes before the verdict"; fail=1; }
    fi
    if grep -q 'CONSOLE' "$dir.log"; then echo "FAIL: $kind: console messages:"; grep 'CONSOLE' "$dir.log"; fail=1; fi
done
# The run report, checked above for images and console, must not overflow either.
over="$(sed -n 's/.*data-overflow="\([^"]*\)".*/\1/p' "$work/dom.html" | head -n 1)"
echo "report: overflow ${over:-unknown}"
[ "$over" = none ] || { echo "FAIL: the run report sticks out of the page: $over"; fail=1; }
exit "$fail"
