#!/bin/sh
# The whole test matrix, as CI runs it (make test). Each configuration builds
# the unity-build suite (tests/main.c) and runs it; compile-only checks count
# as one test each. The last line sums everything: "N passed, N failed[, N skipped]".
#   gcc and clang, -std=c11 -Wall -Wextra -Wpedantic -Werror, -O2
#   AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer (gcc)
#   the amalgamated dist/ctorch.h
#   valgrind memcheck (tests/valgrind.sh: the suite and the examples)
#   C++ (g++, clang++): the implementation compiled as C++17; tests/cpp_smoke.cpp
#   (every public macro, CT_DEFINE_OP from C++) as C++11, C++14 and C++17
#   CT_STATIC embedding; the single-file build (dist/ctorch.h alone: the amalgamated suite, run-examples' single_file)
#   the BLIS backend (tests/blis_backend.c) in every way a user links it:
#   static archive, shared library, amalgamated header + backend object
#   (skipped with a message when BLIS is not installed)
#   static analysis: make lint (clang-tidy + cppcheck; skipped when either is
#   not installed)
#   the fuzzers, a bounded run each (make fuzz-ci; skipped without libFuzzer,
#   whose corpora are then replayed by standalone builds)
set -u
cd "$(dirname "$0")/.."
mkdir -p build
WARN="-Wall -Wextra -Wpedantic -Werror"
passed=0 failed=0 skipped=0
CHECK_LOG=build/check.log

tally() { # $1: name, $2: log file holding a suite run
  line=$(tail -n 1 "$2")
  p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
  f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
  s=$(echo "$line" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
  if [ -z "$p" ] || [ -z "$f" ]; then
    echo "FAIL $1: no summary line (crashed?)"; tail -n 20 "$2"; failed=$((failed + 1)); return
  fi
  grep -E '^(FAIL|SKIP)|^    ' "$2" | head -n 40
  echo "== $1: $line"
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
}

check() { # $1: name, rest: command; counts as one test (its seconds follow the name)
  name=$1; shift
  t0=$(date +%s)
  if "$@" > "$CHECK_LOG" 2>&1; then
    echo "ok   $name ($(( $(date +%s) - t0 )) s)"; passed=$((passed + 1))
  else
    echo "FAIL $name ($(( $(date +%s) - t0 )) s)"; tail -n 20 "$CHECK_LOG"; failed=$((failed + 1))
  fi
}

suite() { # $1: name, $2: compiler, $3: include dir, rest: flags
  name=$1 cc=$2 inc=$3; shift 3
  if ! command -v "$cc" > /dev/null 2>&1; then
    echo "SKIP $name: $cc not installed"; skipped=$((skipped + 1)); return
  fi
  t0=$(date +%s)
  if ! $cc -std=c11 $WARN "$@" -I"$inc" -Itests -o "build/tests-$name" tests/main.c -lm -lpthread > "build/$name.log" 2>&1; then
    echo "FAIL $name: build"; tail -n 30 "build/$name.log"; failed=$((failed + 1)); return
  fi
  t1=$(date +%s)
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "./build/tests-$name" > "build/$name.log" 2>&1
  tally "$name" "build/$name.log"
  echo "   ($name: build $((t1 - t0)) s, run $(( $(date +%s) - t1 )) s)"
}

# generated code: regenerate into a scratch tree and compare with what is checked in
gen_fresh() {
  rm -rf build/genchk && mkdir -p build/genchk/gen build/genchk/ctorch/generated build/genchk/docs &&
    cp -r gen/. build/genchk/gen/ && cp README.md build/genchk/ && mkdir -p build/genchk/backends/cpu_blis build/genchk/backends/cuda &&
    cp backends/cpu_blis/cpu_blis.c build/genchk/backends/cpu_blis/ && cp backends/cuda/cuda_device.c build/genchk/backends/cuda/ &&
    ${CC:-cc} -std=c11 $WARN -Wno-unused-function -O1 -o build/ctgen-check gen/ctgen.c &&
    ./build/ctgen-check build/genchk 2>/dev/null &&
    diff -r build/genchk/ctorch/generated ctorch/generated && diff build/genchk/docs/ops.md docs/ops.md &&
    diff build/genchk/docs/coverage.md docs/coverage.md &&
    diff build/genchk/README.md README.md
}
blis_run() { # $1: name, rest: build command
  name=$1; shift
  if "$@" > "$CHECK_LOG" 2>&1 && "./build/$name" > "build/$name.log" 2>&1; then
    echo "ok   BLIS backend: $name ($(tail -n 1 "build/$name.log"))"; passed=$((passed + 1))
  else
    echo "FAIL BLIS backend: $name"; tail -n 20 "$CHECK_LOG"; [ -f "build/$name.log" ] && tail -n 20 "build/$name.log"
    failed=$((failed + 1))
  fi
}

# ---- lane 2: the long-running checks (valgrind, BLIS, CUDA, fuzzers) run
# beside lane 1 on the second core; their output follows lane 1's, their
# counts join the summary ----
lane2() {
passed=0 failed=0 skipped=0
CHECK_LOG=build/check-lane2.log
# the prebuilt library (make lib) first: the BLIS programs below link it, and
# lane 1's make install waits for it instead of compiling it a second time
check "the prebuilt library builds (make lib: build/libctorch.a, build/libctorch.so)" make -s lib
touch build/lib.done
# valgrind memcheck over the suite and the examples, without the block cache
t0=$(date +%s)
sh tests/valgrind.sh > build/valgrind.log 2>&1
tally "valgrind memcheck" build/valgrind.log
echo "   (valgrind memcheck: $(( $(date +%s) - t0 )) s)"

# ThreadSanitizer (parallel loops, concurrent backward and dispatch, first use) and the
# inference-only build: here, beside lane 1's longer list
check "parallel loops under ThreadSanitizer" sh -c \
  "gcc -std=c11 $WARN $TSAN -I. -c -o build/impl-tsan.o build/impl.c &&
   gcc -std=c11 $WARN $TSAN $SHARED -I. -o build/parallel_tsan tests/parallel.c build/impl-tsan.o -lm -lpthread &&
   TSAN_OPTIONS=halt_on_error=1 ./build/parallel_tsan"
check "concurrent backward into one leaf under ThreadSanitizer" sh -c \
  "gcc -std=c11 $WARN $TSAN $SHARED -I. -o build/concurrent_backward_tsan tests/concurrent_backward.c build/impl-tsan.o -lm -lpthread &&
   TSAN_OPTIONS=halt_on_error=1 ./build/concurrent_backward_tsan"
check "8 threads dispatching, recording and differentiating while ops are registered, under ThreadSanitizer" sh -c \
  "gcc -std=c11 $WARN $TSAN $SHARED -I. -o build/concurrent_dispatch_tsan tests/concurrent_dispatch.c build/impl-tsan.o -lm -lpthread &&
   TSAN_OPTIONS=halt_on_error=1 ./build/concurrent_dispatch_tsan"
# CT_NO_AUTOGRAD (inference only): warning-free with gcc and clang, and the ops compute without autograd
check "the inference-only build (CT_NO_AUTOGRAD, tests/no_autograd.c) with gcc and clang" sh -c \
  "gcc -std=c11 $WARN -I. -o build/no_autograd_gcc tests/no_autograd.c -lm -lpthread && ./build/no_autograd_gcc &&
   clang -std=c11 $WARN -I. -o build/no_autograd_clang tests/no_autograd.c -lm -lpthread && ./build/no_autograd_clang"
check "8 threads racing to the first use of built-in ops (each defined once, in spec order), under ThreadSanitizer" sh -c \
  "gcc -std=c11 $WARN $TSAN $SHARED -I. -o build/first_use_tsan tests/first_use.c build/impl-tsan.o -lm -lpthread &&
   TSAN_OPTIONS=halt_on_error=1 ./build/first_use_tsan"
# The BLIS backend, linked three ways; each run checks that the backend
# registered itself and beats the reference kernels (tests/blis_backend.c).
if why=$(sh backends/cpu_blis/find-blis.sh check 2>&1); then
  BLIS_LIBS_FOUND=$(sh backends/cpu_blis/find-blis.sh libs)
  if make -s blis > build/blis-build.log 2>&1; then
    # with the prebuilt library (make lib, built first in this lane): static archives, then shared libraries
    blis_run blis_static sh -c "gcc -std=c11 $WARN -O2 $SHARED -I. -o build/blis_static tests/blis_backend.c build/libctorch.a -Wl,-u,ct_cpu_blis_anchor build/libctorch_blis.a $BLIS_LIBS_FOUND -lm -lpthread"
    blis_run blis_shared sh -c "gcc -std=c11 $WARN -O2 $SHARED -I. -o build/blis_shared tests/blis_backend.c -Lbuild -Wl,--no-as-needed -lctorch -lctorch_blis -Wl,--as-needed -Wl,-rpath,$(pwd)/build $BLIS_LIBS_FOUND -lm -lpthread"
    # the program's own implementation unit: from the amalgamated header with the backend object (and, below, with clang and the static archive)
    blis_run blis_amalgamated sh -c "gcc -std=c11 $WARN -O1 -Idist -o build/blis_amalgamated tests/blis_backend.c build/cpu_blis.o $BLIS_LIBS_FOUND -lm"
    # the whole suite (PyTorch fixtures included) with the backend's kernels in place
    if gcc -std=c11 $WARN -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itests -o build/tests-blis \
        tests/main.c build/cpu_blis.o $BLIS_LIBS_FOUND -lm -lpthread > build/blis-suite.log 2>&1; then
      ASAN_OPTIONS=detect_leaks=1 ./build/tests-blis > build/blis-suite.log 2>&1
      tally "suite with the BLIS backend (ASan+UBSan)" build/blis-suite.log
    else
      echo "FAIL suite with the BLIS backend: build"; tail -n 30 build/blis-suite.log; failed=$((failed + 1))
    fi
    blis_run steady_state_mallocs_blis sh -c "gcc -std=c11 $WARN -O1 $SHARED -I. -o build/steady_state_mallocs_blis tests/steady_state_mallocs.c build/libctorch.a build/cpu_blis.o $BLIS_LIBS_FOUND -lm -lpthread"
    command -v clang > /dev/null 2>&1 && blis_run blis_clang_static sh -c "clang -std=c11 $WARN -O1 -I. -o build/blis_clang_static tests/blis_backend.c -Wl,-u,ct_cpu_blis_anchor build/libctorch_blis.a $BLIS_LIBS_FOUND -lm"
  else
    echo "FAIL BLIS backend: make blis"; tail -n 30 build/blis-build.log; failed=$((failed + 1))
  fi
else
  echo "SKIP BLIS backend (static, shared, amalgamated): $(echo "$why" | head -n 1)"; skipped=$((skipped + 3))
fi

# The CUDA backend (backends/cuda): its C unit and its kernels always compile
# where nvcc is installed (warnings as errors); the suite built with it
# (make test-cuda) runs here too: without a GPU the backend loads with zero
# devices, cuda_without_a_device checks the errors and the GPU tests skip.
if command -v "${NVCC:-nvcc}" > /dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  # (one GPU generation and -O1 here: the check is that it compiles and that
  # the suite runs without a GPU; make cuda builds every generation)
  if make -s cuda CUDA_ARCH=90 > build/cuda-build.log 2>&1; then
    echo "ok   CUDA backend builds (make cuda: cc and nvcc, warnings as errors)"; passed=$((passed + 1))
    make -s test-cuda CUDA_TESTS=cuda CUDA_OPT=-O1 > build/cuda-suite.log 2>&1
    tally "suite with the CUDA backend (make test-cuda)" build/cuda-suite.log
    # make install takes the built backend; linking through ctorch-cuda.pc registers it (zero devices here)
    pre=$(pwd)/build/prefix-cuda
    rm -rf "$pre"
    if make -s install PREFIX="$pre" > build/cuda-install.log 2>&1 && [ -f "$pre/lib/pkgconfig/ctorch-cuda.pc" ] &&
      PKG_CONFIG_PATH="$pre/lib/pkgconfig" sh -c 'cc -std=c11 -Wall -Wextra -Werror -o build/linked_cuda examples/linked.c $(pkg-config --cflags --libs ctorch-cuda)' >> build/cuda-install.log 2>&1 &&
      ./build/linked_cuda > build/linked_cuda.out 2>&1 && grep -qi "cuda" build/linked_cuda.out &&
      make -s uninstall PREFIX="$pre" > /dev/null && [ -z "$(find "$pre" -type f)" ]; then
      echo "ok   make install with the CUDA backend: linked through ctorch-cuda.pc, it registers"; passed=$((passed + 1))
    else
      echo "FAIL make install with the CUDA backend"; tail -n 20 build/cuda-install.log; failed=$((failed + 1))
    fi
  else
    echo "FAIL CUDA backend: make cuda"; tail -n 30 build/cuda-build.log; failed=$((failed + 1))
  fi
else
  echo "SKIP CUDA backend (make cuda, make test-cuda): nvcc not installed"; skipped=$((skipped + 1))
fi

# The fuzzers (fuzz/README.md): each from its checked-in corpus, then a fixed seed and number of inputs
# (every corpus file replayed first), with libFuzzer (clang + compiler-rt);
# without it the corpora still go through the standalone builds.
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > build/fuzz_probe.c
if command -v clang > /dev/null 2>&1 && clang -fsanitize=fuzzer -o build/fuzz_probe build/fuzz_probe.c > /dev/null 2>&1; then
  check "fuzzers: a bounded run of each from its corpus (make fuzz-ci)" sh -c "make -s -j2 fuzz FUZZ_CFLAGS=\"-std=c11 $WARN -O1 -I.\" && make -s fuzz-ci FUZZ_CFLAGS=\"-std=c11 $WARN -O1 -I.\""
else
  echo "SKIP fuzzers (make fuzz-ci): clang with libFuzzer (libclang-rt-14-dev) not installed"; skipped=$((skipped + 1))
  check "fuzz corpora replayed by the standalone fuzzers (make fuzz-replay)" make -s fuzz-replay
fi

echo "$passed $failed $skipped" > build/lane2.counts
echo "(lane 2 took $(( $(date +%s) - lane_start )) s)"
}
rm -f build/lane2.counts build/lib.done
SHARED="-DCT__DECLARATIONS_ONLY"
TSAN="-O1 -g -fsanitize=thread"
printf '#define CTORCH_IMPLEMENTATION\n#include "ctorch.h"\n' > build/impl.c
lane_start=$(date +%s)
lane2 > build/lane2.out 2>&1 &
lane2_pid=$!

# ---- lane 1 ----
check "generated code is up to date (make gen)" gen_fresh
sh tools/amalgamate.sh > build/amalgamated.h || failed=$((failed + 1))
check "dist/ctorch.h is up to date (make amalgamate)" cmp -s build/amalgamated.h dist/ctorch.h

# (no -g at -O2: debug information adds a fifth to the build; the sanitizer builds keep it)
suite gcc gcc . -O2
suite clang clang . -O2
# CT_DEBUG: no block caching, quarantined released handles (ctorch/base.h); the
# BLIS run below keeps ASan on the caching allocator
suite sanitizers-debug gcc . -O1 -g -DCT_DEBUG -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
suite amalgamated gcc dist -O0

# C++: the implementation (ctorch.c) compiled as C++17 once per compiler, then
# tests/cpp_smoke.cpp (every public macro, custom ops with CT_DEFINE_OP) as
# C++11, C++14 and C++17 against it; each of its checks counts
cxx_suite() { # $1: compiler, $2: standard
  log="build/cpp_smoke_$1_$2.log"
  if ! $1 -std="$2" $WARN -DCT__DECLARATIONS_ONLY -I. -o "build/cpp_smoke_$1_$2" tests/cpp_smoke.cpp "build/impl-$1.o" -lpthread > "$log" 2>&1; then
    echo "FAIL C++ $1 -std=$2: build"; tail -n 30 "$log"; failed=$((failed + 1)); return
  fi
  "./build/cpp_smoke_$1_$2" > "$log" 2>&1
  tally "C++ $1 -std=$2 (tests/cpp_smoke.cpp)" "$log"
}
for cxx in g++ clang++; do
  if ! command -v $cxx > /dev/null 2>&1; then
    echo "SKIP C++ ($cxx not installed)"; skipped=$((skipped + 1)); continue
  fi
  if $cxx -std=c++17 $WARN -I. -x c++ -c -o "build/impl-$cxx.o" ctorch.c > "build/impl-$cxx.log" 2>&1; then
    echo "ok   the implementation compiles as C++17 ($cxx)"; passed=$((passed + 1))
    for std in c++11 c++14 c++17; do cxx_suite $cxx $std; done
  else
    echo "FAIL the implementation as C++17 ($cxx)"; tail -n 30 "build/impl-$cxx.log"; failed=$((failed + 1))
  fi
done
# every macro the headers define for users (not CT__/ct__, not include guards) is used by tests/cpp_smoke.cpp's code
public_macros_in_cpp() {
  missing=""
  for m in $(sed -n 's/^#define \(CT_[A-Z0-9_]*\|ct_[a-z0-9_]*\).*/\1/p' ctorch.h ctorch/*.h ctorch/ops/*.h ctorch/generated/*.h |
    grep -v '^CT__\|^ct__\|_H$' | sort -u); do
    sed 's://.*$::' tests/cpp_smoke.cpp | grep -qw "$m" || missing="$missing $m"
  done
  [ -z "$missing" ] || { echo "not used in tests/cpp_smoke.cpp:$missing"; return 1; }
}
check "every public macro is exercised from C++ (tests/cpp_smoke.cpp)" public_macros_in_cpp
check "CT_STATIC embedding compiles warning-free" sh -c \
  "printf '#define CT_STATIC\n#define CTORCH_IMPLEMENTATION\n#include \"ctorch.h\"\nint main(void){ct_tensor *t = ct_zeros(CT_DIMS(2), CT_F32); ct_release(t); return 0;}\n' > build/static.c && gcc -std=c11 $WARN -I. -o build/static build/static.c -lm && ./build/static"
# The small programs below define CTORCH_IMPLEMENTATION; where several share
# flags, the implementation is compiled once (build/impl-NAME.o) and they
# are built against the declarations (CT__DECLARATIONS_ONLY) and linked to it.
# (build/impl.c is written before lane 2 starts: both lanes compile it)
ASAN="-g -fsanitize=address,undefined -fno-sanitize-recover=all"
check "custom-op example (CT_DEFINE_OP) passes opcheck under ASan+UBSan+LSan" sh -c \
  "gcc -std=c11 $WARN $ASAN -I. -c -o build/impl-asan.o build/impl.c &&
   gcc -std=c11 $WARN $ASAN $SHARED -I. -o build/custom_op_asan examples/custom_op.c build/impl-asan.o -lm && ./build/custom_op_asan > /dev/null"
check "custom-op example builds with clang and runs" sh -c \
  "clang -std=c11 $WARN -I. -o build/custom_op_clang examples/custom_op.c -lm && ./build/custom_op_clang > /dev/null"
check "demo is clean under ASan+UBSan+LSan" sh -c \
  "gcc -std=c11 $WARN $ASAN $SHARED -I. -o build/demo_asan examples/demo.c build/impl-asan.o -lm && ./build/demo_asan > /dev/null"
check "examples (train, infer, profile, char_rnn, single_file) are clean under ASan+UBSan+LSan" sh -c \
  "for e in train infer profile char_rnn single_file; do gcc -std=c11 $WARN $ASAN $SHARED -I. -o build/\$e-asan examples/\$e.c build/impl-asan.o -lm || exit 1; done &&
   ./build/train-asan build/asan_spiral.safetensors build/asan_loss.svg 30 > /dev/null && ./build/infer-asan build/asan_spiral.safetensors > /dev/null &&
   ./build/profile-asan > /dev/null && ./build/char_rnn-asan 20 > /dev/null && ./build/single_file-asan > /dev/null"

# ct_parallel_for, the thread knob and determinism (no backend needed):
# threads, ThreadSanitizer, CT_NO_THREADS.
check "parallel loops: coverage, fixed chunks, determinism for 1/2/3 threads" sh -c \
  "gcc -std=c11 $WARN -O1 -I. -c -o build/impl-o1.o build/impl.c &&
   gcc -std=c11 $WARN -O1 $SHARED -I. -o build/parallel tests/parallel.c build/impl-o1.o -lm -lpthread && ./build/parallel"
check "examples build and run: make run-examples (train, infer, demo, custom_op, profile, char_rnn, single_file)" sh -c \
  "rm -f build/examples/demo build/examples/train build/examples/infer build/examples/custom_op build/examples/profile build/examples/char_rnn &&
   make -s run-examples CFLAGS=-O1 EXAMPLES_IMPL=build/impl-o1.o > build/run-examples.log 2>&1 || { tail -n 40 build/run-examples.log; exit 1; }"
# CT_DEBUG stops at each handle misuse with a clear message: the CT_DEBUG +
# ASan suite binary commits one misuse per run (tests/test_misuse.c)
misuse() { # $1: mode, $2: text the report must hold
  if ./build/tests-sanitizers-debug --misuse "$1" > build/misuse.log 2>&1; then echo "$1 was not caught"; return 1; fi
  grep -q "$2" build/misuse.log || { cat build/misuse.log; return 1; }
}
if [ -x build/tests-sanitizers-debug ]; then
  check "CT_DEBUG (+ ASan) reports a misuse to the error handler and goes on" ./build/tests-sanitizers-debug --misuse handler
  for m in double:already scope:CT_SCOPE retain:already use:use-after-poison; do
    check "CT_DEBUG (+ ASan) stops at the misuse: ${m%%:*}" misuse "${m%%:*}" "${m#*:}"
  done
fi
# every malloc/calloc/realloc of the process counted (glibc), not only ctorch's counter
check "steady state makes no allocation at all: MLP training step, transformer block (tests/steady_state_mallocs.c)" sh -c \
  "gcc -std=c11 $WARN -O1 $SHARED -I. -o build/steady_state_mallocs tests/steady_state_mallocs.c build/impl-o1.o -lm -lpthread && ./build/steady_state_mallocs"
check "CT_NO_THREADS build compiles warning-free (no -lpthread) and passes the parallel-loop tests" sh -c \
  "gcc -std=c11 $WARN -DCT_NO_THREADS -I. -o build/parallel_nt tests/parallel.c -lm && ./build/parallel_nt"

# The prebuilt library as users install it: make install into a scratch
# prefix, examples/linked.c built against the installed copy with nothing but
# pkg-config (ctorch, and ctorch-blis when BLIS is there: the backend must
# register) and with CMake's find_package, then make uninstall leaves nothing.
installed() {
  pre=$(pwd)/build/prefix
  n=0; while [ ! -f build/lib.done ] && [ $n -lt 900 ]; do sleep 2; n=$((n + 2)); done # lane 2's make lib
  rm -rf "$pre" build/cmake-linked
  make -s install PREFIX="$pre" INSTALL_CUDA=no > build/install.log 2>&1 || { cat build/install.log; return 1; }
  export PKG_CONFIG_PATH="$pre/lib/pkgconfig"
  # shellcheck disable=SC2046
  cc -std=c11 $WARN -o build/linked_pc examples/linked.c $(pkg-config --cflags --libs ctorch) && ./build/linked_pc || return 1
  if [ -f "$pre/lib/pkgconfig/ctorch-blis.pc" ]; then
    # shellcheck disable=SC2046
    cc -std=c11 $WARN -o build/linked_blis examples/linked.c $(pkg-config --cflags --libs ctorch-blis) &&
      ./build/linked_blis | grep -q "cpu_blis" || { echo "the BLIS backend did not register through ctorch-blis.pc"; return 1; }
  fi
  if command -v cmake > /dev/null 2>&1; then
    cmake -S examples/cmake -B build/cmake-linked -DCMAKE_PREFIX_PATH="$pre" > build/cmake.log 2>&1 &&
      cmake --build build/cmake-linked >> build/cmake.log 2>&1 && ./build/cmake-linked/linked > build/cmake-linked.out ||
      { cat build/cmake.log build/cmake-linked.out; return 1; }
    if [ -f "$pre/lib/pkgconfig/ctorch-blis.pc" ] && ! grep -q cpu_blis build/cmake-linked.out; then
      echo "the BLIS backend did not register through ctorch::blis"; cat build/cmake-linked.out; return 1
    fi
  else
    echo "(cmake not installed: find_package not checked)"
  fi
  make -s uninstall PREFIX="$pre" > /dev/null && [ -z "$(find "$pre" -type f)" ] || { echo "make uninstall left:"; find "$pre" -type f; return 1; }
}
if command -v pkg-config > /dev/null 2>&1; then
  check "make install: a program built against the installed library with pkg-config and with CMake, then make uninstall" installed
else
  echo "SKIP make install check: pkg-config not installed"; skipped=$((skipped + 1))
fi

# Static analysis: clang-tidy (.clang-tidy) and cppcheck (tools/cppcheck.supp),
# any finding fails (make lint). Skipped, not failed, without the tools.
if command -v "${CLANG_TIDY:-clang-tidy}" > /dev/null 2>&1 && command -v "${CPPCHECK:-cppcheck}" > /dev/null 2>&1; then
  check "static analysis: clang-tidy and cppcheck clean (make lint)" make -s lint
else
  echo "SKIP static analysis (make lint): clang-tidy or cppcheck not installed"; skipped=$((skipped + 1))
fi

echo "(lane 1 took $(( $(date +%s) - lane_start )) s)"
wait "$lane2_pid"
cat build/lane2.out
if read -r p2 f2 s2 < build/lane2.counts; then
  passed=$((passed + p2)); failed=$((failed + f2)); skipped=$((skipped + s2))
else
  echo "FAIL lane 2 (valgrind, BLIS, CUDA, fuzzers) ended without its counts"; failed=$((failed + 1))
fi

if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
