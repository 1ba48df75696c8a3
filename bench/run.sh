#!/bin/sh
# bench/run.sh - build and run the dispatch-overhead benchmark (make bench).
# Builds build/bench_dispatch from bench/dispatch.c (ctorch, $CC) and, when
# libtorch is installed, bench/dispatch_torch.cpp ($CXX), linked together so
# one run measures both side by side. Without libtorch it builds the
# ctorch-only variant (-DCT_BENCH_NO_TORCH).
#
# Environment: CC, CXX, BUILD (default build), TORCH_INC (default
# /usr/include), TORCH_LIB (default /usr/lib/x86_64-linux-gnu, else the
# directory of libtorch_cpu.so that the linker finds), BENCH_REPEATS,
# BENCH_CALLS (passed to the program).
set -eu

cd "$(dirname "$0")/.."
CC=${CC:-cc}
CXX=${CXX:-c++}
BUILD=${BUILD:-build}
TORCH_INC=${TORCH_INC:-/usr/include}
TORCH_LIB=${TORCH_LIB:-/usr/lib/x86_64-linux-gnu}
CFLAGS_BENCH="-std=c11 -O2 -Wall -Wextra -I."
CXXFLAGS_BENCH="-std=c++17 -O2 -D_GLIBCXX_USE_CXX11_ABI=1 -I$TORCH_INC -I$TORCH_INC/torch/csrc/api/include"
mkdir -p "$BUILD"

# Is libtorch here? Headers and the shared libraries it links against.
have_torch=no
why="libtorch not found (looked for $TORCH_INC/ATen/ATen.h and $TORCH_LIB/libtorch_cpu.so)"
if [ -f "$TORCH_INC/ATen/ATen.h" ] && [ -f "$TORCH_INC/torch/csrc/api/include/torch/version.h" ] &&
   [ -e "$TORCH_LIB/libtorch_cpu.so" ] && [ -e "$TORCH_LIB/libc10.so" ] &&
   command -v "$CXX" >/dev/null 2>&1; then
  have_torch=yes
fi

out="$BUILD/bench_dispatch"
if [ "$have_torch" = yes ]; then
  obj="$BUILD/bench_dispatch_torch.o"
  # The torch TU is slow to compile: rebuild it only when its source changed.
  if [ ! -f "$obj" ] || [ -n "$(find bench/dispatch_torch.cpp -newer "$obj")" ]; then
    echo "building $obj (libtorch, $CXX)"
    if ! $CXX $CXXFLAGS_BENCH -c -o "$obj" bench/dispatch_torch.cpp; then
      rm -f "$obj"
      why="libtorch found but bench/dispatch_torch.cpp did not compile"
      have_torch=no
    fi
  fi
fi
if [ "$have_torch" = yes ]; then
  echo "building $out (ctorch with $CC -O2, libtorch from $TORCH_LIB)"
  $CC $CFLAGS_BENCH -c -o "$BUILD/bench_dispatch_ct.o" bench/dispatch.c
  if ! $CXX -o "$out" "$BUILD/bench_dispatch_ct.o" "$obj" \
      -L"$TORCH_LIB" -Wl,-rpath,"$TORCH_LIB" -Wl,--no-as-needed -ltorch -ltorch_cpu -lc10 -Wl,--as-needed \
      -lm -lpthread; then
    why="libtorch found but linking against it failed"
    have_torch=no
  fi
fi
if [ "$have_torch" = no ]; then
  echo "$why: building the ctorch-only variant"
  $CC $CFLAGS_BENCH -DCT_BENCH_NO_TORCH -o "$out" bench/dispatch.c -lm -lpthread
fi

exec "./$out"
