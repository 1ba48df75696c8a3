#!/bin/sh
# bench/run.sh - build and run the benchmarks (make bench).
# For each NAME in $BENCH_NAMES (default "dispatch autograd blis startup models ggml_mlp") it builds
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
# NAME ggml_mlp (bench/ggml_mlp.c: ggml's training step for the MLP of the
# blis `linear` section) is plain C against ggml, not ctorch: it is built and
# run only when GGML_DIR names a ggml checkout (github.com/ggml-org/ggml) whose
# CMake build, GGML_BUILD (default $GGML_DIR/build), holds libggml,
# libggml-cpu and libggml-base (static .a, or shared .so); otherwise it is
# skipped with a note. Build ggml with, e.g.,
#   cmake -S $GGML_DIR -B $GGML_DIR/build -DCMAKE_BUILD_TYPE=Release \
#     -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=ON -DGGML_OPENMP=OFF \
#     -DGGML_BUILD_TESTS=OFF -DGGML_BUILD_EXAMPLES=OFF
#   cmake --build $GGML_DIR/build -j2
# and run it alone with `GGML_DIR=... BENCH_NAMES=ggml_mlp sh bench/run.sh`.
#
# Environment: CC, CXX, BUILD (default build), BENCH_NAMES, GGML_DIR,
# GGML_BUILD, TORCH_INC
# (default /usr/include), TORCH_LIB (default /usr/lib/x86_64-linux-gnu, else
# the directory of libtorch_cpu.so that the linker finds). The programs read
# their own knobs, passed through: BENCH_REPEATS, BENCH_CALLS, ... (see the
# header of each bench/NAME.c).
set -eu

cd "$(dirname "$0")/.."
CC=${CC:-cc}
CXX=${CXX:-c++}
BUILD=${BUILD:-build}
BENCH_NAMES=${BENCH_NAMES:-dispatch autograd blis startup models ggml_mlp}
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

# ggml_mlp: plain C against ggml's headers and libraries (no ctorch, no
# libtorch), with bench/blis.c's flags so its hand-written reference matches.
# Returns 2 (skip, with a note) when ggml is not there, 1 if the build fails.
build_ggml() {
  if [ -z "${GGML_DIR:-}" ]; then
    echo "skipping bench_ggml_mlp: GGML_DIR not set (a ggml checkout built with CMake; see bench/ggml_mlp.c)"
    return 2
  fi
  gbuild=${GGML_BUILD:-$GGML_DIR/build}
  glibs=
  for d in "$gbuild/src" "$gbuild" "$gbuild/lib" "$gbuild/bin"; do
    if [ -f "$d/libggml.a" ] && [ -f "$d/libggml-cpu.a" ] && [ -f "$d/libggml-base.a" ]; then
      glibs="$d/libggml.a $d/libggml-cpu.a $d/libggml-base.a"
      # a ggml built with OpenMP (its default) needs libgomp
      if nm "$d/libggml-cpu.a" 2>/dev/null | grep -q ' U \(GOMP_\|omp_\)'; then glibs="$glibs -fopenmp"; fi
      break
    fi
    if [ -e "$d/libggml.so" ] && [ -e "$d/libggml-base.so" ]; then
      glibs="-L$d -Wl,-rpath,$d -lggml -lggml-base"
      [ -e "$d/libggml-cpu.so" ] && glibs="$glibs -lggml-cpu"
      break
    fi
  done
  if [ ! -f "$GGML_DIR/include/ggml-opt.h" ] || [ -z "$glibs" ]; then
    echo "skipping bench_ggml_mlp: no ggml build under GGML_DIR=$GGML_DIR (looked for $GGML_DIR/include/ggml-opt.h and libggml, libggml-cpu, libggml-base in $gbuild/src, $gbuild, $gbuild/lib, $gbuild/bin)"
    return 2
  fi
  echo "building $BUILD/bench_ggml_mlp (ggml from $GGML_DIR, $CC -O3)"
  # shellcheck disable=SC2086
  $CC -std=c11 -O3 -ffp-contract=fast -Wall -Wextra -isystem "$GGML_DIR/include" -o "$BUILD/bench_ggml_mlp" bench/ggml_mlp.c \
    $glibs -lstdc++ -lm -lpthread || return 1
  return 0
}

built=
failed=
for name in $BENCH_NAMES; do
  if [ ! -f "bench/$name.c" ]; then
    echo "skipping bench_$name: bench/$name.c not found"
    continue
  fi
  if [ "$name" = ggml_mlp ]; then
    rc=0
    build_ggml || rc=$?
    case $rc in
      0) built="$built $name" ;;
      2) ;;
      *) echo "bench_ggml_mlp: build failed"; failed="$failed $name" ;;
    esac
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
  case $BUILD in /*) prog=$BUILD/bench_$name ;; *) prog=./$BUILD/bench_$name ;; esac
  "$prog" || {
    echo "bench_$name: exited with status $?"
    failed="$failed $name"
  }
done

if [ -n "$failed" ]; then
  echo
  echo "failed:$failed"
  exit 1
fi
