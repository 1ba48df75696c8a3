/* tests/harness.h - a tiny test runner for the ctorch suite.
 *
 * TEST(name) { ... } defines and registers a test (GCC/Clang constructors).
 * CHECK(cond) / CHECK_NEAR(a, b, tol) / CHECK_OK(status) / CHECK_ERR(expr, code, substring)
 * record a failure and keep going. Each test starts with no pending error and
 * must leave no live tensors behind (the runner checks ct_memory_stats). The
 * runner's last line is "N passed, N failed[, N skipped]".
 */
#ifndef CT_TEST_HARNESS_H
#define CT_TEST_HARNESS_H
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void harness_register(const char *name, const char *file, test_fn fn);
void harness_fail(const char *file, int line, const char *fmt, ...);
void harness_skip(const char *why);

#define TEST(name)                                                                                 \
  static void test_##name(void);                                                                   \
  __attribute__((constructor)) static void test_register_##name(void) {                            \
    harness_register(#name, __FILE__, test_##name);                                                \
  }                                                                                                \
  static void test_##name(void)

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) harness_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);     \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                                        \
  do {                                                                                               \
    double ct_a_ = (double)(a), ct_b_ = (double)(b);                                                 \
    if (!(fabs(ct_a_ - ct_b_) <= (tol) || (isnan(ct_a_) && isnan(ct_b_)) || ct_a_ == ct_b_))        \
      harness_fail(__FILE__, __LINE__, "CHECK_NEAR(%s, %s): %.9g vs %.9g", #a, #b, ct_a_, ct_b_);     \
  } while (0)

#define CHECK_OK(expr)                                                                               \
  do {                                                                                               \
    ct_status ct_s_ = (expr);                                                                        \
    if (ct_s_ != CT_OK)                                                                              \
      harness_fail(__FILE__, __LINE__, "%s returned %s: %s", #expr, ct_status_name(ct_s_),          \
                   ct_last_error_message());                                                         \
  } while (0)

/* expr must fail (NULL or negative status) with `code` and a message containing `needle`. */
#define CHECK_ERR(expr, code, needle)                                                                \
  do {                                                                                               \
    ct_clear_error();                                                                                \
    (void)(expr);                                                                                    \
    if (ct_last_error() != (code) || !strstr(ct_last_error_message(), (needle)))                     \
      harness_fail(__FILE__, __LINE__, "%s: expected %s containing \"%s\", got %s \"%s\"", #expr,    \
                   ct_status_name(code), needle, ct_status_name(ct_last_error()),                     \
                   ct_last_error_message());                                                         \
    ct_clear_error();                                                                                \
  } while (0)

#endif
