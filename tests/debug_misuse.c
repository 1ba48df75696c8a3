/* tests/debug_misuse.c - CT_DEBUG catches handle misuse where it happens
 * (issue 12 item 13). Built with -DCT_DEBUG, with and without
 * AddressSanitizer, by tests/run_all.sh; each mode is one misuse, and the
 * run must stop at it with a clear message (exit status non-zero):
 *   double   ct_release twice
 *   scope    ct_release of a tensor its CT_SCOPE owns (released again at the end)
 *   retain   ct_retain of a released handle
 *   use      an op on a released handle (AddressSanitizer reports it)
 *   handler  the same misuse with an error handler set: reported to the
 *            handler, nothing freed twice, the program goes on (exit 0) */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <stdio.h>
#include <string.h>

static int heard;
static void on_error(ct_status code, const char *message, void *user) {
  (void)user;
  if (code == CT_ERR_STATE && strstr(message, "already released")) heard++;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  ct_tensor *t = ct_zeros(CT_DIMS(4), CT_F32);
  if (!strcmp(mode, "double")) {
    ct_release(t);
    ct_release(t);
  } else if (!strcmp(mode, "scope")) {
    CT_SCOPE {
      ct_tensor *u = ct_add(t, t);
      ct_release(u);
    }
    ct_release(t);
  } else if (!strcmp(mode, "retain")) {
    ct_release(t);
    ct_retain(t);
  } else if (!strcmp(mode, "use")) {
    ct_release(t);
    ct_release(ct_add(t, t));
  } else if (!strcmp(mode, "handler")) {
    ct_set_error_handler(on_error, NULL);
    ct_release(t);
    ct_release(t);
    ct_clear_error();
    printf("handler heard %d misuse\n", heard);
    return heard == 1 ? 0 : 1;
  } else {
    fprintf(stderr, "usage: debug_misuse double|scope|retain|use|handler\n");
    return 2;
  }
  printf("misuse '%s' was not caught\n", mode);
  return 0;
}
