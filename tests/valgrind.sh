#!/bin/sh
# valgrind memcheck over the whole unity suite (tests/main.c) and the
# examples: no invalid read or write, no use of uninitialised memory, no leak
# (definite, indirect or possible). Built without the block cache
# (CT_CPU_CACHE_LIMIT=0), so every free reaches the system allocator and
# valgrind sees each use after free. `make test-valgrind`; tests/run_all.sh
# runs it too. tests/valgrind.supp lists glibc's own reports (a joined
# thread's cached stack). Ends with "N passed, N failed[, N skipped]": the suite's tests,
# one test per example, and one more failure if valgrind reported anything.
set -u
cd "$(dirname "$0")/.."
mkdir -p build
if ! command -v valgrind > /dev/null 2>&1; then
  echo "valgrind not installed"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
WARN="-Wall -Wextra -Wpedantic -Werror"
CFLAGS_VG="-std=c11 $WARN -O1 -g -DCT_CPU_CACHE_LIMIT=0 -DCT_TEST_VALGRIND -I."
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible
    --errors-for-leak-kinds=definite,indirect,possible --track-origins=yes --suppressions=tests/valgrind.supp"
passed=0 failed=0 skipped=0

# the examples share one implementation object (their own CTORCH_IMPLEMENTATION becomes declarations)
printf '#define CTORCH_IMPLEMENTATION\n#include "ctorch.h"\n' > build/vg_impl.c
gcc $CFLAGS_VG -c -o build/vg_impl.o build/vg_impl.c > build/vg_impl.log 2>&1 || { echo "FAIL implementation under valgrind flags: build"; tail -n 30 build/vg_impl.log; }
for ex in demo custom_op; do
  if gcc $CFLAGS_VG -DCT__DECLARATIONS_ONLY -o "build/vg_$ex" "examples/$ex.c" build/vg_impl.o -lm -lpthread > "build/vg_$ex.log" 2>&1 &&
    $VG --log-file="build/vg_$ex.vg" "./build/vg_$ex" > /dev/null 2>> "build/vg_$ex.log"; then
    echo "ok   examples/$ex.c under valgrind"; passed=$((passed + 1))
  else
    echo "FAIL examples/$ex.c under valgrind"; tail -n 20 "build/vg_$ex.log"; head -n 60 "build/vg_$ex.vg" 2> /dev/null
    failed=$((failed + 1))
  fi
done

if ! gcc $CFLAGS_VG -Itests -o build/tests-valgrind tests/main.c -lm -lpthread > build/vg_suite.log 2>&1; then
  echo "FAIL suite under valgrind: build"; tail -n 30 build/vg_suite.log
  echo "$passed passed, $((failed + 1)) failed"
  exit 1
fi
$VG --log-file=build/vg_suite.vg ./build/tests-valgrind > build/vg_suite.log 2>&1
rc=$?
grep -E '^(FAIL|SKIP)|^    ' build/vg_suite.log | head -n 40
line=$(tail -n 1 build/vg_suite.log)
p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
s=$(echo "$line" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
if [ -z "$p" ] || [ -z "$f" ]; then
  echo "FAIL suite under valgrind: no summary line (crashed?)"; tail -n 20 build/vg_suite.log
  failed=$((failed + 1))
else
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
fi
if [ "$rc" -eq 99 ] || [ -s build/vg_suite.vg ]; then
  echo "FAIL valgrind memcheck reported errors in the suite:"; head -n 80 build/vg_suite.vg
  failed=$((failed + 1))
fi
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
