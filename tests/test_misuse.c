/* tests/test_misuse.c - CT_DEBUG catches handle misuse where it happens
 * (issue 12 item 13). Not a registered test: each mode is one misuse that
 * must stop the program, so tests/run_all.sh runs the CT_DEBUG + ASan suite
 * binary once per mode (`tests-sanitizers-debug --misuse MODE`) and checks
 * that it stopped at the misuse with a clear message (exit status non-zero):
 *   double   ct_release twice
 *   scope    ct_release of a tensor its CT_SCOPE owns (released again at the end)
 *   retain   ct_retain of a released handle
 *   use      an op on a released handle (AddressSanitizer reports it)
 *   handler  the same misuse with an error handler set: reported to the
 *            handler, nothing freed twice, the program goes on (exit 0) */

#ifdef CT_DEBUG
static int misuse_heard;
static void misuse_on_error(ct_status code, const char *message, void *user) {
  (void)user;
  if (code == CT_ERR_STATE && strstr(message, "already released")) misuse_heard++;
}
#endif

#ifndef CT_DEBUG
static int harness_misuse(const char *mode) {
  (void)mode;
  fprintf(stderr, "--misuse needs a CT_DEBUG build (without it a misuse is undefined behaviour)\n");
  return 2;
}
#else
static int harness_misuse(const char *mode) {
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
    ct_set_error_handler(misuse_on_error, NULL);
    ct_release(t);
    ct_release(t);
    ct_clear_error();
    ct_set_error_handler(NULL, NULL);
    printf("handler heard %d misuse\n", misuse_heard);
    return misuse_heard == 1 ? 0 : 1;
  } else {
    ct_release(t);
    fprintf(stderr, "usage: --misuse double|scope|retain|use|handler\n");
    return 2;
  }
  printf("misuse '%s' was not caught\n", mode);
  return 0;
}
#endif
