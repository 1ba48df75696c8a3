#!/bin/sh
# Binary size of a program built from the header (issue 14's measure):
# static, -Os, -ffunction-sections -fdata-sections -Wl,--gc-sections,
# stripped. Prints the empty static program, the tiny-MLP inference probe
# (bench/size_infer.c) and the training probe (bench/size_train.c), each
# with what ctorch adds over the empty one, and the inference probe built
# inference-only (-DCT_NO_AUTOGRAD). CFLAGS_EXTRA adds flags (e.g.
# opt-out macros). Usage: sh bench/size.sh [cc]
set -eu
cd "$(dirname "$0")/.."
CC=${1:-${CC:-gcc}}
out=build/size
mkdir -p "$out"
FLAGS="-std=c11 -static -Os -ffunction-sections -fdata-sections -Wl,--gc-sections -s ${CFLAGS_EXTRA:-}"
printf 'int main(void) { return 0; }\n' > "$out/empty.c"
$CC $FLAGS -o "$out/empty" "$out/empty.c"
empty=$(wc -c < "$out/empty")
echo "$CC, $(uname -m); flags: $FLAGS"
printf '%-42s %9d bytes\n' "empty static program" "$empty"
# the two probes, then the inference one built inference-only (CT_NO_AUTOGRAD: no autograd kernel,
# derivative formula or engine linked; README "Binary size")
for probe in size_infer size_train size_infer:-DCT_NO_AUTOGRAD; do
  src=${probe%%:*} extra=
  [ "$src" = "$probe" ] || extra=${probe#*:}
  bin="$out/$src${extra:+_no_autograd}"
  $CC $FLAGS $extra -I. -o "$bin" "bench/$src.c" -lm -lpthread
  "./$bin" > /dev/null
  n=$(wc -c < "$bin")
  awk -v name="bench/$src.c${extra:+ $extra}" -v n="$n" -v e="$empty" \
    'BEGIN { printf "%-42s %9d bytes (%.2f MB; ctorch adds %.2f MB)\n", name, n, n / 1e6, (n - e) / 1e6 }'
done
