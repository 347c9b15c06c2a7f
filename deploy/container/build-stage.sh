#!/bin/sh
# The build stage of `Containerfile`: compile the binary and stage it in
# $OUT for the runtime image. CI runs this script directly (`.ci/run`), so
# the image's build is tested even on a machine that cannot pull the
# container base images.
#
#   PROFILE=dist|release   the cargo profile (default dist)
#   OUT=DIR                where the binary is staged (default ./out)
#   CARGO_TARGET_DIR       honoured, as by cargo
set -eu
cd "$(dirname "$0")/../.."
profile="${PROFILE:-dist}"
out="${OUT:-out}"
target="${CARGO_TARGET_DIR:-target}"

cargo build --profile "$profile" --locked --bin empires
mkdir -p "$out"
# `release` builds land in target/release, other profiles in target/NAME.
cp "$target/$profile/empires" "$out/empires.tmp"
mv "$out/empires.tmp" "$out/empires"

# The runtime image is Debian slim, which has the C library and libgcc but
# no fontconfig, freetype or OpenSSL: the binary may link only these.
allowed='linux-vdso.so|libc.so|libm.so|libgcc_s.so|ld-linux|libpthread.so|libdl.so|librt.so'
if command -v ldd >/dev/null 2>&1; then
    extra=$(ldd "$out/empires" | grep -Ev "$allowed" || true)
    if [ -n "$extra" ]; then
        echo "build-stage: the binary links libraries the slim image lacks:" >&2
        echo "$extra" >&2
        exit 1
    fi
fi
"$out/empires" --version
