/* tests/test_opcheck.c - ct_opcheck over every op in gen/ops.spec, and
 * gradcheck / gradgradcheck of every differentiable one.
 *
 * Each functional op gets sample arguments below; opcheck then checks the
 * typed frontend against the boxed call, the meta function against the
 * kernel, the in-place and out= variants against the functional op, and the
 * derivative with gradcheck (float64 copies of the tensor arguments).
 * `ops_all_covered` proves no registered built-in is left out. */

/* deterministic sample tensors, float32 like users' data */
static ct_tensor *oc_tensor(int ndim, const int64_t *sizes, double lo, double hi, unsigned seed) {
  ct_tensor *t = ct_empty(ndim, sizes, CT_F32);
  int64_t k;
  uint32_t s = seed * 2654435761u + 12345u;
  for (k = 0; t && k < t->numel; k++) {
    double u;
    s = s * 1664525u + 1013904223u;
    u = (double)(s >> 8) / 16777216.0;
    ct_set(t, k, lo + (hi - lo) * u);
  }
  return t;
}
/* values in [0.2, 1] with random sign: away from relu's kink and from 0 */
static ct_tensor *oc_signed(int ndim, const int64_t *sizes, unsigned seed) {
  ct_tensor *t = oc_tensor(ndim, sizes, 0.2, 1.0, seed);
  int64_t k;
  for (k = 0; t && k < t->numel; k++)
    if ((k * 7 + seed) % 3 == 0) ct_set(t, k, -ct_get(t, k));
  return t;
}

#define OC_T(t) ct_value_tensor(t)
#define OC_I(i) ct_value_int(i)
#define OC_S(x) ct_value_scalar(x)
/* int lists live in a static pool: the cases outlive the function that builds them */
static int64_t oc_pool[128];
static int oc_pool_n;
static ct_value oc_list(const int64_t *v, int n) {
  int i, at = oc_pool_n;
  for (i = 0; i < n; i++) oc_pool[oc_pool_n++] = v[i];
  return ct_value_int_list(oc_pool + at, n);
}
#define OC_L(...) oc_list((const int64_t[]){__VA_ARGS__}, (int)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define OC_B(b) ct_value_bool(b)
#define OC_D(d) ct_value_dtype(d)
#define OC_V(d) ct_value_device(d)

typedef struct oc_case {
  const char *op;
  int nargs;
  ct_value args[8];
  int skip_gradcheck; /* derivative not implemented: say why in a comment */
} oc_case;

static int oc_run(const oc_case *c, int gradgrad) {
  ct_opcheck_opts o;
  memset(&o, 0, sizeof o);
  o.skip_gradcheck = c->skip_gradcheck != 0;
  o.gradgradcheck = gradgrad != 0;
  if (ct_opcheck(c->op, c->nargs, c->args, &o) != CT_OK) {
    harness_fail(__FILE__, __LINE__, "opcheck %s: %s", c->op, ct_last_error_message());
    ct_clear_error();
    return 0;
  }
  return 1;
}

/* The cases; tensors live in the caller's scope. */
static int oc_cases(oc_case *cs) {
  ct_tensor *A = oc_signed(CT_DIMS(2, 3), 1), *B = oc_signed(CT_DIMS(3), 2), *C = oc_signed(CT_DIMS(2, 1), 3);
  ct_tensor *P = oc_tensor(CT_DIMS(2, 3), 0.5, 1.5, 4), *M = oc_signed(CT_DIMS(3, 4), 5), *v = oc_signed(CT_DIMS(3), 6);
  ct_tensor *A3 = oc_signed(CT_DIMS(2, 3, 4), 7), *S = oc_signed(CT_DIMS(2, 1, 3), 8), *G = oc_signed(CT_DIMS(2, 3), 9);
  ct_tensor *At = ct_t(oc_signed(CT_DIMS(3, 2), 10)), *G2 = oc_signed(CT_DIMS(2), 11), *Gs = oc_signed(CT_DIMS(2, 2), 12);
  int n = 0;
  oc_pool_n = 0;
#define OC(name, ...)                                                                        \
  do {                                                                                       \
    const ct_value oc_args_[] = {__VA_ARGS__};                                               \
    _Static_assert(sizeof oc_args_ <= sizeof cs[0].args, "OC: too many arguments");         \
    cs[n].op = name, cs[n].skip_gradcheck = 0, cs[n].nargs = (int)(sizeof oc_args_ / sizeof oc_args_[0]); \
    memcpy(cs[n].args, oc_args_, sizeof oc_args_);                                           \
    n++;                                                                                     \
  } while (0)
  OC("add.Tensor", OC_T(A), OC_T(B), OC_S(ct_int(2)));
  OC("add.Scalar", OC_T(A), OC_S(ct_float(1.5)), OC_S(ct_int(2)));
  OC("sub.Tensor", OC_T(A), OC_T(C), OC_S(ct_float(0.5)));
  OC("sub.Scalar", OC_T(A), OC_S(ct_float(0.5)), OC_S(ct_int(1)));
  OC("mul.Tensor", OC_T(A), OC_T(B));
  OC("mul.Scalar", OC_T(A), OC_S(ct_float(3)));
  OC("div.Tensor", OC_T(A), OC_T(P));
  OC("div.Scalar", OC_T(A), OC_S(ct_float(2)));
  OC("neg", OC_T(A));
  OC("relu", OC_T(A));
  OC("threshold_backward", OC_T(G), OC_T(A), OC_S(ct_int(0)));
  OC("exp", OC_T(A));
  OC("tanh", OC_T(A));
  OC("sigmoid", OC_T(A));
  OC("sum", OC_T(A), OC_D(CT_DTYPE_NONE));
  OC("sum.dim_IntList", OC_T(A3), OC_L(1), OC_B(false), OC_D(CT_DTYPE_NONE));
  OC("mean", OC_T(A), OC_D(CT_DTYPE_NONE));
  OC("mean.dim", OC_T(A3), OC_L(0, 2), OC_B(true), OC_D(CT_DTYPE_NONE));
  OC("mm", OC_T(A), OC_T(M));
  OC("matmul", OC_T(v), OC_T(M));
  OC("clone", OC_T(At));
  OC("contiguous", OC_T(At));
  OC("_to_copy", OC_T(A), OC_D(CT_F64), OC_V(CT_NO_DEVICE), OC_B(false));
  OC("_to_copy", OC_T(A), OC_D(CT_DTYPE_NONE), OC_V(CT_CPU), OC_B(true));
  OC("to.device", OC_T(A), OC_V(CT_CPU), OC_D(CT_F64), OC_B(false), OC_B(false));
  OC("to.device", OC_T(A), OC_V(CT_CPU), OC_D(CT_DTYPE_NONE), OC_B(false), OC_B(true));
  OC("to.dtype", OC_T(A), OC_D(CT_F64));
  OC("zeros", OC_L(2, 3), OC_D(CT_DTYPE_NONE), OC_V(CT_NO_DEVICE));
  OC("ones", OC_L(4), OC_D(CT_I32), OC_V(CT_CPU));
  OC("full", OC_L(2, 2), OC_S(ct_int(7)), OC_D(CT_DTYPE_NONE), OC_V(CT_CPU));
  OC("scalar_tensor", OC_S(ct_float(2.5)), OC_D(CT_F64), OC_V(CT_NO_DEVICE));
  OC("view", OC_T(A), OC_L(3, 2));
  OC("reshape", OC_T(At), OC_L(6));
  OC("transpose.int", OC_T(A3), OC_I(0), OC_I(2));
  OC("t", OC_T(A));
  OC("permute", OC_T(A3), OC_L(2, 0, 1));
  OC("expand", OC_T(C), OC_L(2, 3), OC_B(false));
  OC("broadcast_to", OC_T(B), OC_L(2, 3));
  OC("unsqueeze", OC_T(A), OC_I(1));
  OC("squeeze", OC_T(S));
  OC("squeeze.dim", OC_T(S), OC_I(1));
  OC("flatten.using_ints", OC_T(A3), OC_I(1), OC_I(-1));
  OC("select.int", OC_T(A), OC_I(1), OC_I(2));
  OC("select_backward", OC_T(G2), OC_L(2, 3), OC_I(1), OC_I(2));
  OC("slice.Tensor", OC_T(A), OC_I(1), OC_I(0), OC_I(3), OC_I(2));
  OC("slice_backward", OC_T(Gs), OC_L(2, 3), OC_I(1), OC_I(0), OC_I(3), OC_I(2));
  OC("narrow", OC_T(A), OC_I(1), OC_I(1), OC_I(2));
  OC("as_strided", OC_T(A), OC_L(2, 2), OC_L(3, 1), OC_I(1));
  OC("alias", OC_T(A));
  OC("detach", OC_T(A));
#undef OC
  return n;
}

TEST(ops_opcheck_every_op) {
  CT_SCOPE {
    oc_case cs[64];
    int n = oc_cases(cs), i, ok = 0;
    for (i = 0; i < n; i++) ok += oc_run(&cs[i], 0);
    CHECK(ok == n);
  }
}

/* second order for the ops with non-trivial second derivatives */
TEST(ops_gradgradcheck) {
  static const char *const which[] = {"mul.Tensor", "div.Tensor", "exp", "tanh", "sigmoid", "mm", "matmul", "add.Tensor", "sum.dim_IntList"};
  CT_SCOPE {
    oc_case cs[64];
    int n = oc_cases(cs), i, j;
    for (j = 0; j < (int)(sizeof which / sizeof which[0]); j++)
      for (i = 0; i < n; i++)
        if (!strcmp(cs[i].op, which[j])) oc_run(&cs[i], 1);
  }
}

/* copy_ and fill_ exist only in-place: gradcheck them through a function */
static ct_tensor *oc_copy_fn(ct_tensor *const *in, void *ctx) {
  ct_tensor *dst = ct_mul_scalar(in[0], ct_int(2)); /* a non-leaf to write into */
  (void)ctx;
  if (ct_copy_(dst, in[1]) != CT_OK) return NULL; /* in[1] broadcasts */
  return ct_mul(dst, in[0]);
}
static ct_tensor *oc_fill_fn(ct_tensor *const *in, void *ctx) {
  ct_tensor *dst = ct_mul_scalar(in[0], ct_int(2));
  (void)ctx;
  if (ct_fill_(dst, ct_float(0.5)) != CT_OK) return NULL;
  return ct_add(dst, in[0]);
}
TEST(ops_gradcheck_inplace_only_ops) {
  CT_SCOPE {
    ct_tensor *a = ct_to_dtype(oc_signed(CT_DIMS(2, 3), 21), CT_F64), *b = ct_to_dtype(oc_signed(CT_DIMS(3), 22), CT_F64);
    ct_tensor *in[2];
    a = ct_clone(a), b = ct_clone(b);
    CHECK_OK(ct_set_requires_grad(a, true));
    CHECK_OK(ct_set_requires_grad(b, true));
    in[0] = a, in[1] = b;
    CHECK_OK(ct_gradcheck(oc_copy_fn, NULL, 2, in, NULL));
    CHECK_OK(ct_gradcheck(oc_fill_fn, NULL, 1, in, NULL));
  }
}

/* Every registered built-in is checked above, directly or as a variant. */
static int opc_covers(const char *name); /* tests/test_opcases.c */

/* Every registered built-in is opchecked: by a sample below, by a PyTorch
 * case (tests/test_opcases.c), or as the in-place / out= variant of one. */
TEST(ops_all_covered) {
  CT_SCOPE {
    enum { NOPS = CT__NUM_BUILTIN_OPS }; /* (the built-ins come first, in spec order: ct_op_at) */
    oc_case cs[64];
    static char covered[NOPS];
    int n = oc_cases(cs), i, j, k, missing = 0;
    memset(covered, 0, sizeof covered);
    for (i = 0; i < NOPS; i++) {
      const ct_op *op = ct_op_at(i);
      /* (empty's values are uninitialised: tests/test_device.c device_factories_backend_select checks it,
       * tests/test_core.c factories_like_and_new empty_like and new_empty;
       * pinning needs a device with pinned memory: device_pinned_memory there checks values and gradients) */
      int found = !strcmp(op->full_name, "copy_") || !strcmp(op->full_name, "fill_.Scalar") ||
                  !strcmp(op->full_name, "empty.memory_format") || !strcmp(op->full_name, "empty_like") ||
                  !strcmp(op->full_name, "new_empty") || !strcmp(op->full_name, "_pin_memory") ||
                  !strcmp(op->full_name, "pin_memory") || opc_covers(op->full_name);
      for (j = 0; j < n && !found; j++) found = ct_op_find(cs[j].op) == op;
      if (!found) continue;
      covered[i] = 1;
      {
        const ct_op *v0 = ct__find_variant(op, 0), *v1 = ct__find_variant(op, 1); /* (once per op: a lookup by name) */
        for (k = 0; k < NOPS; k++) { /* its variants */
          const ct_op *v = ct_op_at(k);
          if (v0 == v || v1 == v) covered[k] = 1;
        }
      }
    }
    for (i = 0; i < NOPS; i++)
      if (!covered[i]) {
        harness_fail(__FILE__, __LINE__, "op %s is not covered by opcheck", ct_op_at(i)->full_name);
        missing++;
      }
    CHECK(missing == 0);
  }
}

/* opcheck reports a broken op: a meta function with the wrong shape */
static ct_tensor *oc_bad_cpu(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_mul_scalar(self, ct_int(2));
}
static ct_tensor *oc_bad_meta(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_sum(self); /* wrong: 0-dim */
}
TEST(ops_opcheck_catches_bad_meta) {
  ct_op_def d;
  memset(&d, 0, sizeof d);
  d.schema = "octest::bad_meta(Tensor self) -> Tensor";
  d.cpu = CT_FN(oc_bad_cpu);
  d.meta = CT_FN(oc_bad_meta);
  CHECK(ct_define_op(&d, NULL) != NULL);
  CT_SCOPE {
    ct_tensor *a = oc_signed(CT_DIMS(2, 3), 31);
    CHECK_ERR(ct_opcheck("octest::bad_meta", 1, (ct_value[]){ct_value_tensor(a)}, NULL), CT_ERR_STATE,
              "meta function and kernel disagree");
  }
}
