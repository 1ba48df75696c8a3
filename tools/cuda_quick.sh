#!/bin/sh
# A shorter GPU check than tools/cuda_check.sh: build the backend and the
# CUDA-linked suite, run the GPU tests and the whole suite (no benchmark,
# no ASan build). Usage: sh tools/cuda_quick.sh [outdir]
set -u
out=${1:-build/cuda-quick}
mkdir -p "$out" build
arch=${CUDA_ARCH:-90}
step() { # $1: name, $2: seconds, rest: command
  name=$1 secs=$2; shift 2
  start=$(date +%s)
  timeout "$secs" "$@" > "$out/$name.log" 2>&1
  rc=$?
  echo "== $name: rc $rc, $(( $(date +%s) - start )) s; $(tail -n 1 "$out/$name.log")" | tee -a "$out/summary.txt"
  grep -E '^(FAIL|    )' "$out/$name.log" | head -n 40
}
step build 150 make -s cuda CUDA_ARCH="$arch"
LF="-Wl,-u,ct_cuda_anchor build/libctorch_cuda.a $(make -s cuda-flags | sed -n 's/^static: *-Wl,-u,ct_cuda_anchor build\/libctorch_cuda.a //p') -lm"
step build-tests 150 cc -std=c11 -Wall -Wextra -Wpedantic -Werror -I. -Itests -Ibackends/cuda -O1 -g -DCT_TEST_CUDA -o build/tests-cuda tests/main.c $LF
step test-cuda-gpu 75 ./build/tests-cuda cuda
step test-cuda-all 90 ./build/tests-cuda
