#!/bin/sh
# One command for a GPU session: build the CUDA backend, its test suite and
# its benchmark (in parallel), run the GPU tests, the whole suite, the
# benchmark against cuBLAS and PyTorch; logs in OUTDIR. Usage:
#   sh tools/cuda_check.sh [outdir] [quick]   (the device tool: sh tools/cuda_check.sh $OUT)
# quick: the suite only (no benchmark, no ASan build), for short device sessions.
# Each step has a time limit, so that a hang cannot eat the session.
set -u
out=${1:-build/cuda-check}
quick=${2:-}
mkdir -p "$out" build
arch=${CUDA_ARCH:-90}
step() { # $1: name, $2: seconds, rest: command
  name=$1 secs=$2; shift 2
  start=$(date +%s)
  timeout "$secs" "$@" > "$out/$name.log" 2>&1
  rc=$?
  echo "== $name: rc $rc, $(( $(date +%s) - start )) s; $(tail -n 1 "$out/$name.log")" | tee -a "$out/summary.txt"
  # failures and the log's tail also go to stdout (a tool may bring back only what was printed)
  grep -E '^(FAIL|    )' "$out/$name.log" | head -n 40
  [ $rc -eq 0 ] || tail -n 15 "$out/$name.log"
}
{ nvidia-smi -L; nvcc --version | tail -n 1; python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'; } > "$out/machine.txt" 2>&1
step build 120 make -s cuda CUDA_ARCH="$arch"
CF="-std=c11 -Wall -Wextra -Wpedantic -Werror -I. -Itests -Ibackends/cuda"
LF="-Wl,-u,ct_cuda_anchor build/libctorch_cuda.a $(make -s cuda-flags | sed -n 's/^static: *-Wl,-u,ct_cuda_anchor build\/libctorch_cuda.a //p') -lm"
if [ "$quick" = quick ]; then
  step build-tests 150 cc $CF -O1 -g -DCT_TEST_CUDA -o build/tests-cuda tests/main.c $LF
else
  # the three programs compile at once (each is one large translation unit)
  ( cc $CF -O2 -g -DCT_TEST_CUDA -o build/tests-cuda tests/main.c $LF > "$out/build-tests.log" 2>&1 ) &
  ( cc $CF -O2 -isystem "${CUDA_HOME:-/usr/local/cuda}/include" -o build/bench_cuda bench/cuda.c $LF > "$out/build-bench.log" 2>&1 ) &
  ( cc $CF -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -DCT_TEST_CUDA \
       -o build/tests-cuda-asan tests/main.c $LF > "$out/build-asan.log" 2>&1 ) &
  ( python3 bench/cuda_torch.py > build/torch_cuda.txt 2> "$out/torch.err" ) &
  wait
fi
step test-cuda-gpu 75 ./build/tests-cuda cuda
grep -E '^(FAIL|    )' "$out/test-cuda-gpu.log" | head -n 100 > "$out/failures.txt"
if [ "$quick" != quick ]; then
  step bench-cuda 75 env CT_BENCH_TORCH=build/torch_cuda.txt ./build/bench_cuda
  step test-cuda-asan 60 env ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0 ./build/tests-cuda-asan cuda
fi
step test-cuda-all 90 ./build/tests-cuda
cat "$out/summary.txt"
