/* ctorch.c - the whole implementation as one translation unit, for the
 * prebuilt libraries (make lib: build/libctorch.a and build/libctorch.so;
 * make install). A program that links libctorch includes ctorch.h without
 * CTORCH_IMPLEMENTATION, and builds in a second instead of compiling the
 * library itself. */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"
