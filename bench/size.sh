#!/bin/sh
# Binary size of a program built from the header (issue 14's measure):
# static, -Os, -ffunction-sections -fdata-sections -Wl,--gc-sections,
# stripped. Prints the empty static program, the tiny-MLP inference probe
# (bench/size_infer.c) and the training probe (bench/size_train.c), each
# with what ctorch adds over the empty one. CFLAGS_EXTRA adds flags (e.g.
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
printf '%-28s %9d bytes\n' "empty static program" "$empty"
for probe in size_infer size_train; do
  $CC $FLAGS -I. -o "$out/$probe" "bench/$probe.c" -lm -lpthread
  "./$out/$probe" > /dev/null
  n=$(wc -c < "$out/$probe")
  awk -v name="bench/$probe.c" -v n="$n" -v e="$empty" \
    'BEGIN { printf "%-28s %9d bytes (%.2f MB; ctorch adds %.2f MB)\n", name, n, n / 1e6, (n - e) / 1e6 }'
done
