#!/bin/sh
# bench/run.sh - build and run the benchmarks (make bench).
# For each NAME in $BENCH_NAMES (default "dispatch autograd blis startup models") it builds
# build/bench_NAME from bench/NAME.c (ctorch, $CC) and, when libtorch is
# installed, bench/NAME_torch.cpp ($CXX), linked together so one run measures
# both side by side; then it runs the programs in turn. The libtorch object is
# cached as build/bench_NAME_torch.o and rebuilt only when its .cpp changes.
# Without libtorch (or when a NAME's .cpp is missing, does not compile or does
# not link) it builds the ctorch-only variant (-DCT_BENCH_NO_TORCH) instead.
# A NAME whose bench/NAME.c is missing is skipped with a note; one that fails
# to build or run does not stop the others, but the script then exits 1.
# NAMEs blis and models also link the BLIS backend (make blis;
# build/cpu_blis.o) and BLIS itself (backends/cpu_blis/find-blis.sh); without
# BLIS they are skipped with a note. `BENCH_NAMES=blis make bench` runs only
# that one; the blis program takes a section list as its argument
# (./build/bench_blis gemm,mlp). `BENCH_NAMES=models make bench`: a small CNN
# and a transformer block vs libtorch and hand-written C (./build/bench_models
# cnn,tf,ops; ./build/bench_models prof ... for profiling one side).
#
# Environment: CC, CXX, BUILD (default build), BENCH_NAMES, TORCH_INC
# (default /usr/include), TORCH_LIB (default /usr/lib/x86_64-linux-gnu, else
# the directory of libtorch_cpu.so that the linker finds). The programs read
# their own knobs, passed through: BENCH_REPEATS, BENCH_CALLS, ... (see the
# header of each bench/NAME.c).
set -eu

cd "$(dirname "$0")/.."
CC=${CC:-cc}
CXX=${CXX:-c++}
BUILD=${BUILD:-build}
BENCH_NAMES=${BENCH_NAMES:-dispatch autograd blis startup models}
TORCH_INC=${TORCH_INC:-/usr/include}
if [ -z "${TORCH_LIB:-}" ]; then
  TORCH_LIB=/usr/lib/x86_64-linux-gnu
  if [ ! -e "$TORCH_LIB/libtorch_cpu.so" ] && command -v "$CXX" >/dev/null 2>&1; then
    # -print-file-name echoes the bare name back when the linker cannot find it.
    found=$($CXX -print-file-name=libtorch_cpu.so 2>/dev/null || true)
    case $found in
      */libtorch_cpu.so) TORCH_LIB=$(cd "$(dirname "$found")" && pwd -P) ;;
    esac
  fi
fi
CFLAGS_BENCH="-std=c11 -O2 -Wall -Wextra -I."
CXXFLAGS_BENCH="-std=c++17 -O2 -D_GLIBCXX_USE_CXX11_ABI=1 -I$TORCH_INC -I$TORCH_INC/torch/csrc/api/include"
mkdir -p "$BUILD"

# Is libtorch here? Headers and the shared libraries it links against.
have_torch=no
why_torch="libtorch not found (looked for $TORCH_INC/ATen/ATen.h and $TORCH_LIB/libtorch_cpu.so)"
if [ -f "$TORCH_INC/ATen/ATen.h" ] && [ -f "$TORCH_INC/torch/csrc/api/include/torch/version.h" ] &&
   [ -e "$TORCH_LIB/libtorch_cpu.so" ] && [ -e "$TORCH_LIB/libtorch.so" ] && [ -e "$TORCH_LIB/libc10.so" ] &&
   command -v "$CXX" >/dev/null 2>&1; then
  have_torch=yes
fi

# Extra compile flags and link inputs per NAME (the BLIS benchmark).
xcflags=
xlibs=
extra_for() {
  xcflags=
  xlibs=
  if [ "$1" = blis ] || [ "$1" = models ]; then
    xcflags="-O3 -ffp-contract=fast -Wno-maybe-uninitialized $(sh backends/cpu_blis/find-blis.sh cflags | sed 's/-I/-isystem /g')"
    xlibs="$BUILD/cpu_blis.o $(sh backends/cpu_blis/find-blis.sh libs)"
  fi
}

# build_one NAME: builds $BUILD/bench_NAME; returns nonzero if it could not.
build_one() {
  name=$1
  extra_for "$name"
  src="bench/$name.c"
  cpp="bench/${name}_torch.cpp"
  out="$BUILD/bench_$name"
  use_torch=$have_torch
  why=$why_torch
  if [ "$use_torch" = yes ] && [ ! -f "$cpp" ]; then
    use_torch=no
    why="$cpp not found"
  fi
  if [ "$use_torch" = yes ]; then
    obj="$BUILD/bench_${name}_torch.o"
    # The torch TU is slow to compile: rebuild it only when its source changed.
    if [ ! -f "$obj" ] || [ -n "$(find "$cpp" -newer "$obj")" ]; then
      echo "building $obj (libtorch, $CXX)"
      if ! $CXX $CXXFLAGS_BENCH -c -o "$obj" "$cpp"; then
        rm -f "$obj"
        why="libtorch found but $cpp did not compile"
        use_torch=no
      fi
    fi
  fi
  if [ "$use_torch" = yes ]; then
    echo "building $out (ctorch with $CC -O2, libtorch from $TORCH_LIB)"
    $CC $CFLAGS_BENCH $xcflags -c -o "$BUILD/bench_${name}_ct.o" "$src" || return 1
    if ! $CXX -o "$out" "$BUILD/bench_${name}_ct.o" "$obj" $xlibs \
        -L"$TORCH_LIB" -Wl,-rpath,"$TORCH_LIB" -Wl,--no-as-needed -ltorch -ltorch_cpu -lc10 -Wl,--as-needed \
        -lm -lpthread; then
      why="libtorch found but linking bench_$name against it failed"
      use_torch=no
    fi
  fi
  if [ "$use_torch" = no ]; then
    echo "$why: building the ctorch-only $out"
    $CC $CFLAGS_BENCH $xcflags -DCT_BENCH_NO_TORCH -o "$out" "$src" $xlibs -lm -lpthread || return 1
  fi
  return 0
}

built=
failed=
for name in $BENCH_NAMES; do
  if [ ! -f "bench/$name.c" ]; then
    echo "skipping bench_$name: bench/$name.c not found"
    continue
  fi
  if [ "$name" = blis ] || [ "$name" = models ]; then
    if ! why_blis=$(sh backends/cpu_blis/find-blis.sh check 2>&1); then
      echo "skipping bench_$name: $(echo "$why_blis" | head -n 1)"
      continue
    fi
    make -s blis || { echo "bench_$name: make blis failed"; failed="$failed $name"; continue; }
  fi
  if build_one "$name"; then
    built="$built $name"
  else
    echo "bench_$name: build failed"
    failed="$failed $name"
  fi
done

for name in $built; do
  echo
  "./$BUILD/bench_$name" || {
    echo "bench_$name: exited with status $?"
    failed="$failed $name"
  }
done

if [ -n "$failed" ]; then
  echo
  echo "failed:$failed"
  exit 1
fi
