#!/bin/sh
# Writes the single-file ctorch.h to stdout: ctorch.h's documentation, then
# every component's declarations, then every component's implementation,
# with the local #include lines dropped. Components are listed in ctorch.h
# on the "ctorch:components" line and concatenated in that order.
set -eu
cd "$(dirname "$0")/.."
components=$(sed -n 's|^/\* ctorch:components \(.*\) \*/$|\1|p' ctorch.h)
[ -n "$components" ] || { echo "amalgamate: no ctorch:components line in ctorch.h" >&2; exit 1; }
marker='/* ==== implementation ==== */'
for c in $components; do
  grep -qxF "$marker" "ctorch/$c.h" || { echo "amalgamate: ctorch/$c.h has no implementation marker" >&2; exit 1; }
done

# the documentation block of ctorch.h (up to the components line)
sed -n '1,/^\/\* ctorch:components/p' ctorch.h | sed '$d'
echo "/* Single-file build: generated from ctorch.h and the ctorch/ components by tools/amalgamate.sh; do not edit. */"
echo "#ifndef CTORCH_H"
echo "#define CTORCH_H"
for c in $components; do
  echo "/* ---- ctorch/$c.h ---- */"
  awk -v m="$marker" '$0 == m { exit } !/^#include "/' "ctorch/$c.h"
done
echo "#endif /* CTORCH_H */"
echo
echo "#if defined(CTORCH_IMPLEMENTATION) && !defined(CT__IMPLEMENT)"
echo "#define CT__IMPLEMENT"
for c in $components; do
  echo "/* ---- ctorch/$c.h: implementation ---- */"
  awk -v m="$marker" 'seen && !/^#include "/ { print } $0 == m { seen = 1 }' "ctorch/$c.h"
done
echo "#endif /* CTORCH_IMPLEMENTATION */"
