#!/bin/sh
# backends/cpu_blis/find-blis.sh cflags|libs|check - how to compile and link
# against BLIS. Order: $BLIS_CFLAGS / $BLIS_LIBS when set (both win over any
# search), then pkg-config blis, then the usual places: Debian's multiarch
# blis-openmp / blis-pthread / blis-serial subfolders (Debian 12's BLIS 0.9
# ships no blis.pc), /usr/include + /usr/lib, /usr/local. `check` exits 0
# when a program can actually be linked against it.
set -u
what=${1:-check}
multi=$( (${CC:-cc} -print-multiarch 2>/dev/null || dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null) | head -n 1)
cflags=${BLIS_CFLAGS:-}
libs=${BLIS_LIBS:-}
if [ -z "$cflags$libs" ] && pkg-config --exists blis 2>/dev/null; then
  cflags=$(pkg-config --cflags blis)
  libs=$(pkg-config --libs blis)
fi
if [ -z "$cflags$libs" ]; then
  for v in blis-openmp blis-pthread blis-serial ""; do
    for pre in /usr /usr/local; do
      inc=$pre/include${multi:+/$multi}${v:+/$v}
      lib=$pre/lib${multi:+/$multi}${v:+/$v}
      [ -f "$inc/blis.h" ] || { inc=$pre/include${v:+/$v}; [ -f "$inc/blis.h" ] || continue; }
      [ -e "$lib/libblis.so" ] || [ -e "$lib/libblis.a" ] || { lib=$pre/lib${v:+/$v}; [ -e "$lib/libblis.so" ] || [ -e "$lib/libblis.a" ] || continue; }
      cflags="-I$inc"
      libs="-L$lib -Wl,-rpath,$lib -lblis -lm -lpthread"
      case $v in blis-openmp) libs="$libs -fopenmp" ;; esac
      break 2
    done
  done
fi
case $what in
  cflags) echo "$cflags" ;;
  libs) echo "$libs" ;;
  check)
    [ -n "$cflags$libs" ] || { echo "BLIS not found (install libblis-dev, or set BLIS_CFLAGS and BLIS_LIBS)" >&2; exit 1; }
    tmp=${TMPDIR:-/tmp}/ct_find_blis_$$
    printf '#include <blis.h>\nint main(void){ bli_thread_set_num_threads(1); return 0; }\n' > "$tmp.c"
    if ${CC:-cc} $cflags -o "$tmp" "$tmp.c" $libs > "$tmp.log" 2>&1 && "$tmp"; then rm -f "$tmp" "$tmp.c" "$tmp.log"; exit 0; fi
    echo "BLIS found ($cflags $libs) but a test program does not build or run:" >&2; cat "$tmp.log" >&2
    rm -f "$tmp" "$tmp.c" "$tmp.log"; exit 1 ;;
  *) echo "usage: $0 cflags|libs|check" >&2; exit 2 ;;
esac
