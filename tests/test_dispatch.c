/* tests/test_dispatch.c - key sets, thread-local state, schemas, registration,
 * fallthrough, boxed fallbacks, redispatch, boxed calls. */
#include <pthread.h>

TEST(keyset_priority_is_the_highest_bit) {
  ct_keyset ks = ct_keyset_of(CT_KEY_CPU) | ct_keyset_of(CT_KEY_AUTOGRAD_CPU) | ct_keyset_of(CT_KEY_PROFILER);
  char buf[128];
  CHECK(ct_keyset_highest(ks) == CT_KEY_PROFILER);
  CHECK(ct_keyset_highest(ks & ct_keys_below(CT_KEY_PROFILER)) == CT_KEY_AUTOGRAD_CPU);
  CHECK(ct_keyset_highest(ks & ct_keys_below(CT_KEY_AUTOGRAD_CPU)) == CT_KEY_CPU);
  CHECK(ct_keyset_highest(0) == CT_KEY_UNDEFINED);
  CHECK(ct_autograd_key_for(CT_KEY_CUDA) == CT_KEY_AUTOGRAD_CUDA);
  CHECK((CT_BACKEND_KEYS & CT_FUNCTIONALITY_KEYS) == 0);
  CHECK(ct_keyset_highest(CT_BACKEND_KEYS) < ct_keyset_highest(CT_AUTOGRAD_KEYS & (0 - CT_AUTOGRAD_KEYS)));
  CHECK(!strcmp(ct_keyset_format(ks, buf, sizeof buf), "CPU, AutogradCPU, Profiler"));
  CHECK(!strcmp(ct_key_name(CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD), "CompositeImplicitAutograd"));
  /* Meta is the highest backend (c10's order): it wins over any real device */
  CHECK(ct_keyset_highest(ct_keyset_of(CT_KEY_CPU) | ct_keyset_of(CT_KEY_META)) == CT_KEY_META);
  CHECK(ct_keyset_highest(ct_keyset_of(CT_KEY_CUDA) | ct_keyset_of(CT_KEY_PRIVATEUSE3) | ct_keyset_of(CT_KEY_META)) == CT_KEY_META);
  CHECK(ct_autograd_key_for(CT_KEY_META) == CT_KEY_AUTOGRAD_META);
  CHECK(ct_autograd_key_for(CT_KEY_META) > ct_autograd_key_for(CT_KEY_PRIVATEUSE3));
}

/* With Meta in the thread's included keys, a call on CPU tensors is
 * dispatched to the Meta kernel first (c10: Meta wins over other backends). */
TEST(meta_key_wins_over_cpu) {
  CT_SCOPE {
    ct_tensor *m = ct_empty_opts(CT_DIMS(2, 3), ct_opts(CT_F32, ct_device_make(CT_DEVICE_META, 0)));
    ct_tensor *c0 = ct_scalar_tensor(ct_float(2), CT_F32), *r;
    ct_keyset chosen = 0;
    const ct_op *add = ct_op_find("add.Tensor");
    r = ct_add(c0, m); /* a 0-dim CPU tensor goes with a meta tensor, as in PyTorch */
    CHECK(r && r->device.type == CT_DEVICE_META && r->ndim == 2);
    CHECK(add && ct_dispatch_lookup(add, ct_keyset_of(CT_KEY_CPU) | ct_keyset_of(CT_KEY_META), &chosen) &&
          ct_keyset_highest(chosen) == CT_KEY_META);
  }
}

static void *dispatch_thread_body(void *arg) {
  ct_keyset *seen = (ct_keyset *)arg;
  seen[0] = ct_local_keys_get().included; /* a new thread starts from the default */
  CT_INCLUDE_KEYS(ct_keyset_of(CT_KEY_CUSTOM4)) { seen[1] = ct_dispatch_keys(0); }
  return NULL;
}

TEST(thread_local_key_state_is_per_thread) {
  pthread_t th;
  ct_keyset seen[2] = {1, 0};
  CT_INCLUDE_KEYS(ct_keyset_of(CT_KEY_CUSTOM3)) {
    CHECK(ct_dispatch_keys(ct_keyset_of(CT_KEY_CPU)) == (ct_keyset_of(CT_KEY_CPU) | ct_keyset_of(CT_KEY_CUSTOM3)));
    CHECK(pthread_create(&th, NULL, dispatch_thread_body, seen) == 0);
    pthread_join(th, NULL);
    CT_EXCLUDE_KEYS(ct_keyset_of(CT_KEY_CUSTOM3)) { CHECK(ct_dispatch_keys(0) == 0); } /* exclude beats include */
  }
  CHECK(seen[0] == 0 && seen[1] == ct_keyset_of(CT_KEY_CUSTOM4));
  CHECK(ct_local_keys_get().included == 0);
  ct_global_keys_set(ct_keyset_of(CT_KEY_TRACER));
  CHECK(ct_dispatch_keys(0) == ct_keyset_of(CT_KEY_TRACER));
  ct_global_keys_set(0);
}

TEST(schema_parser) {
  ct_schema s;
  CHECK_OK(ct_schema_parse("sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", &s));
  CHECK(!strcmp(s.name, "sum") && !strcmp(s.overload, "dim_IntList") && s.nargs == 4 && s.nrets == 1);
  CHECK(s.args[1].type == CT_TYPE_INT_LIST && s.args[1].optional && s.args[1].list_size == 1);
  CHECK(!strcmp(s.args[2].default_value, "False") && !s.args[2].kwarg_only && s.args[3].kwarg_only);
  CHECK(!strcmp(s.signature, "T,I,b,D->T"));
  CHECK_OK(ct_schema_parse("myns::split(Tensor(a) self, int[] sizes) -> (Tensor(a) first, Tensor second)", &s));
  CHECK(!strcmp(s.name, "myns::split") && s.args[0].alias == 'a' && !s.args[0].is_write && s.nrets == 2);
  CHECK(!strcmp(s.rets[0].name, "first"));
  CHECK_OK(ct_schema_parse("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", &s));
  CHECK(s.args[0].is_write && !strcmp(s.signature, "Tw,T,S->Tw"));
  CHECK_OK(ct_schema_parse("noop() -> ()", &s));
  CHECK(s.nargs == 0 && s.nrets == 0);
  CHECK_ERR(ct_schema_parse("bad(Tensor self -> Tensor", &s), CT_ERR_SCHEMA, "at offset 16");
  CHECK_ERR(ct_schema_parse("bad(Tensr self) -> Tensor", &s), CT_ERR_SCHEMA, "unknown type");
}

/* A user op: dt::twice(Tensor self) -> Tensor, with kernels at several keys. */
static char dispatch_log[64];
static void dispatch_log_add(char c) {
  size_t n = strlen(dispatch_log);
  if (n + 1 < sizeof dispatch_log) dispatch_log[n] = c, dispatch_log[n + 1] = '\0';
}
static ct_op *dispatch_op(const char *schema, const char *name) {
  ct_op *op = ct_op_find(name);
  ct_clear_error();
  return op ? op : ct_def(schema);
}
typedef ct_tensor *(*dispatch_fn1)(ct_keyset, ct_tensor *);
/* A backend kernel computes directly: calling ct_add here would dispatch again
 * and meet the thread's included keys, as a PyTorch kernel would. */
static ct_tensor *dispatch_twice_cpu(ct_keyset ks, ct_tensor *self) {
  ct_tensor *out = NULL;
  int64_t i;
  (void)ks;
  /* the factory is dispatched too: past the custom keys these tests include, which have no kernel for it */
  CT_EXCLUDE_KEYS(ct_keyset_of(CT_KEY_CUSTOM1) | ct_keyset_of(CT_KEY_CUSTOM3) | ct_keyset_of(CT_KEY_CUSTOM4)) out = ct_empty_like(self);
  dispatch_log_add('C');
  for (i = 0; out && i < self->numel; i++) ct_set(out, i, 2 * ct_get(self, i));
  return out;
}
/* a typed kernel that does its part and redispatches below its key, typed */
static ct_tensor *dispatch_twice_custom3(ct_keyset ks, ct_tensor *self) {
  ct_keyset below;
  const ct_kernel *k;
  const ct_op *op = ct_op_find("dt::twice");
  dispatch_log_add('A');
  k = ct_dispatch_lookup(op, ks & ct_keys_below(CT_KEY_CUSTOM3), &below);
  if (!k) return NULL;
  if (k->unboxed) return ((dispatch_fn1)k->unboxed)(below, self);
  {
    ct_value buf[4];
    ct_stack s;
    ct_tensor *r = NULL;
    ct_stack_init(&s, buf, 4);
    ct_stack_push(&s, ct_value_tensor(self));
    if (k->boxed(k, op, below, &s) == CT_OK) {
      ct_value v = ct_stack_pop(&s);
      r = v.v.tensor;
    }
    ct_stack_free(&s);
    return r;
  }
}
/* a boxed kernel at Custom1 that redispatches boxed */
static ct_status dispatch_boxed_custom1(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack) {
  (void)self;
  dispatch_log_add('B');
  return ct_redispatch_boxed(op, ks & ct_keys_below(CT_KEY_CUSTOM1), stack);
}

TEST(redispatch_chain_through_three_keys) {
  ct_op *op = dispatch_op("dt::twice(Tensor self) -> Tensor", "dt::twice");
  ct_tensor *x = ct_full(CT_DIMS(3), ct_float(1.5), CT_F32), *y = NULL;
  ct_value buf[4];
  ct_stack s;
  CHECK(op != NULL);
  CHECK_OK(ct_impl("dt::twice", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(dispatch_twice_cpu))));
  CHECK_OK(ct_impl("dt::twice", CT_KEY_CUSTOM3, ct_kernel_unboxed(CT_FN(dispatch_twice_custom3))));
  CHECK_OK(ct_impl("dt::twice", CT_KEY_CUSTOM1, ct_kernel_boxed(dispatch_boxed_custom1, NULL)));
  /* typed call through the dispatcher: Custom3 (typed) -> Custom1 (boxed) -> CPU (typed) */
  dispatch_log[0] = '\0';
  CT_INCLUDE_KEYS(ct_keyset_of(CT_KEY_CUSTOM3) | ct_keyset_of(CT_KEY_CUSTOM1)) {
    ct_keyset ks;
    const ct_kernel *k = ct_dispatch_lookup(op, ct_dispatch_keys(x->keys), &ks);
    y = k ? ((dispatch_fn1)k->unboxed)(ks, x) : NULL;
  }
  CHECK(!strcmp(dispatch_log, "ABC"));
  CHECK(y && ct_get(y, 2) == 3);
  ct_release(y);
  /* the same through a boxed call; without the custom keys only the CPU kernel runs */
  dispatch_log[0] = '\0';
  ct_stack_init(&s, buf, 4);
  ct_stack_push(&s, ct_value_tensor(x));
  CHECK_OK(ct_call_boxed(op, &s));
  CHECK(s.size == 1 && s.items[0].tag == CT_VALUE_TENSOR && s.items[0].owned && ct_get(s.items[0].v.tensor, 0) == 3);
  ct_stack_free(&s);
  CHECK(!strcmp(dispatch_log, "C"));
  ct_release(x);
  CHECK_OK(ct_impl_remove("dt::twice", CT_KEY_CUSTOM3));
  CHECK_OK(ct_impl_remove("dt::twice", CT_KEY_CUSTOM1));
  CHECK_OK(ct_impl_remove("dt::twice", CT_KEY_CPU));
}

/* A boxed fallback that counts every op call, whatever its signature. */
static int dispatch_count;
static ct_status dispatch_counting_fallback(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack) {
  (*(int *)self->user)++;
  return ct_redispatch_boxed(op, ks & ct_keys_below(CT_KEY_CUSTOM2), stack);
}

TEST(boxed_fallback_sees_every_op) {
  ct_tensor *a = ct_full(CT_DIMS(2, 2), ct_float(2), CT_F32), *b = ct_ones(CT_DIMS(2), CT_F32);
  ct_tensor *r1 = NULL, *r2 = NULL, *r3 = NULL, *r4 = NULL, *r5 = NULL;
  int64_t dims[1] = {0};
  dispatch_count = 0;
  CHECK_OK(ct_fallback(CT_KEY_CUSTOM2, ct_kernel_boxed(dispatch_counting_fallback, &dispatch_count)));
  CT_INCLUDE_KEYS(ct_keyset_of(CT_KEY_CUSTOM2)) {
    r1 = ct_add_ex(a, b, ct_int(3));     /* T,T,S->T */
    r2 = ct_mm(a, a);                    /* T,T->T */
    r3 = ct_sum_dim(a, 1, dims, true);   /* T,I,b,D->T */
    r4 = ct_mul_scalar(a, ct_float(0.5)); /* T,S->T */
    CHECK_OK(ct_relu_(a));               /* Tw->Tw */
    CHECK_OK(ct_add_out(r4, a, b));      /* T,T,S,Tw->Tw */
    r5 = ct_exp(b);
  }
  CHECK(dispatch_count == 7);
  CHECK(r1 && ct_get(r1, 0) == 5);
  CHECK(r2 && ct_get(r2, 0) == 8);
  CHECK(r3 && r3->ndim == 2 && ct_get(r3, 1) == 4);
  CHECK(r4 && ct_get(r4, 3) == 3);
  CHECK(r5 && fabs(ct_get(r5, 0) - exp(1.0)) < 1e-6);
  CHECK_OK(ct_fallback_remove(CT_KEY_CUSTOM2));
  CT_INCLUDE_KEYS(ct_keyset_of(CT_KEY_CUSTOM2)) { /* fallback gone: Custom2 has no kernel */
    CHECK_ERR(ct_add(b, b), CT_ERR_NO_KERNEL, "no kernel for op 'add.Tensor' at key Custom2; registered: CPU, "); /* (and PrivateUse1 once tdev has set its pointwise loop) */
  }
  CHECK(dispatch_count == 7);
  ct_release(r1), ct_release(r2), ct_release(r3), ct_release(r4), ct_release(r5), ct_release(a), ct_release(b);
}

TEST(fallthrough_per_op_and_global) {
  ct_op *op = dispatch_op("dt::fall(Tensor self) -> Tensor", "dt::fall");
  ct_tensor *x = ct_ones(CT_DIMS(2), CT_F32), *y = NULL;
  char dump[2048];
  CHECK(op != NULL);
  CHECK_OK(ct_impl("dt::fall", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(dispatch_twice_cpu))));
  CT_INCLUDE_KEYS(ct_keyset_of(CT_KEY_CUSTOM4)) {
    /* Custom4 has no kernel, no fallback and is not fallthrough: a clear error */
    CHECK_ERR(ct_dispatch_lookup(op, ct_dispatch_keys(x->keys), NULL), CT_ERR_NO_KERNEL,
              "no kernel for op 'dt::fall' at key Custom4; registered: CPU");
    CHECK_OK(ct_fallthrough("dt::fall", CT_KEY_CUSTOM4)); /* this op skips it */
    CHECK(!(ct_op_table(op)->mask & ct_keyset_of(CT_KEY_CUSTOM4)));
    {
      ct_keyset ks;
      const ct_kernel *k = ct_dispatch_lookup(op, ct_dispatch_keys(x->keys), &ks);
      CHECK(k && ct_keyset_highest(ks) == CT_KEY_CPU);
      y = k ? ((dispatch_fn1)k->unboxed)(ks, x) : NULL;
    }
    CHECK_OK(ct_impl_remove("dt::fall", CT_KEY_CUSTOM4));
    CHECK_OK(ct_fallthrough(NULL, CT_KEY_CUSTOM4)); /* every op skips it */
    CHECK(ct_dispatch_lookup(op, ct_dispatch_keys(x->keys), NULL) != NULL);
    CHECK_ERR(ct_fallback(CT_KEY_CUSTOM4, ct_kernel_boxed(dispatch_counting_fallback, &dispatch_count)),
              CT_ERR_REGISTRATION, "already has a fallback");
    CHECK_OK(ct_fallback_remove(CT_KEY_CUSTOM4));
  }
  CHECK(y && ct_get(y, 0) == 2);
  ct_op_dump(op, dump, sizeof dump);
  CHECK(strstr(dump, "CPU") && strstr(dump, "unboxed (user)") && strstr(dump, "AutogradCPU"));
  ct_release(x), ct_release(y);
  CHECK_OK(ct_impl_remove("dt::fall", CT_KEY_CPU));
}

static ct_tensor *dispatch_composite(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  dispatch_log_add('I');
  return ct_mul(self, self);
}
static ct_tensor *dispatch_explicit(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  dispatch_log_add('E');
  return ct_neg(self);
}

TEST(alias_keys_fill_backend_and_autograd_slots) {
  ct_op *op = dispatch_op("dt::sq(Tensor self) -> Tensor", "dt::sq");
  ct_tensor *x = ct_full(CT_DIMS(1), ct_float(3), CT_F32), *y;
  ct_keyset ks;
  const ct_kernel *k;
  CHECK(op != NULL);
  CHECK_OK(ct_impl("dt::sq", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, ct_kernel_unboxed(CT_FN(dispatch_composite))));
  CHECK(ct_op_table(op)->kernels[CT_KEY_CPU].unboxed == CT_FN(dispatch_composite));
  CHECK(ct_op_table(op)->kernels[CT_KEY_CUDA].unboxed == CT_FN(dispatch_composite));
  CHECK(ct_op_table(op)->kernels[CT_KEY_AUTOGRAD_CPU].unboxed == CT_FN(dispatch_composite));
  CHECK_OK(ct_impl("dt::sq", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, ct_kernel_unboxed(CT_FN(dispatch_explicit))));
  CHECK(ct_op_table(op)->kernels[CT_KEY_CPU].unboxed == CT_FN(dispatch_explicit)); /* explicit beats implicit on backends */
  CHECK(ct_op_table(op)->kernels[CT_KEY_AUTOGRAD_CPU].unboxed == NULL); /* the backend kernel needs a real autograd kernel */
  CHECK_ERR(ct_impl("dt::sq", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, ct_kernel_unboxed(CT_FN(dispatch_explicit))),
            CT_ERR_REGISTRATION, "already has a kernel at key CompositeExplicitAutograd");
  dispatch_log[0] = '\0';
  k = ct_dispatch_lookup(op, ct_dispatch_keys(x->keys), &ks);
  y = k ? ((dispatch_fn1)k->unboxed)(ks, x) : NULL;
  CHECK(y && ct_get(y, 0) == -3 && !strcmp(dispatch_log, "E"));
  ct_release(y), ct_release(x);
  CHECK_OK(ct_impl_remove("dt::sq", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD));
  CHECK_OK(ct_impl_remove("dt::sq", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD));
}

TEST(boxed_calls_of_builtins_match_unboxed) {
  ct_op *add = ct_op_find("add.Tensor"), *sum = ct_op_find("sum.dim_IntList");
  ct_tensor *a = ct_arange(0, 6, 1, CT_F32), *b = ct_full(CT_DIMS(6), ct_float(0.5), CT_F32), *u = ct_add_ex(a, b, ct_int(2));
  ct_value buf[8];
  ct_stack s;
  ct_value r;
  int64_t dims[1] = {0};
  int i;
  CHECK(add && sum && !strcmp(add->schema.signature, "T,T,S->T"));
  ct_stack_init(&s, buf, 8);
  ct_stack_push(&s, ct_value_tensor(a));
  ct_stack_push(&s, ct_value_tensor(b));
  ct_stack_push(&s, ct_value_int(2)); /* an int where a Scalar is expected is accepted */
  CHECK_OK(ct_call_boxed(add, &s));
  r = ct_stack_pop(&s);
  CHECK(r.tag == CT_VALUE_TENSOR && r.owned);
  for (i = 0; i < 6; i++) CHECK(ct_get(r.v.tensor, i) == ct_get(u, i));
  ct_release(r.v.tensor);
  ct_stack_push(&s, ct_value_tensor(a));
  ct_stack_push(&s, ct_value_int_list(dims, 1));
  ct_stack_push(&s, ct_value_bool(false));
  ct_stack_push(&s, ct_value_none());
  CHECK_OK(ct_call_boxed(sum, &s));
  CHECK(s.size == 1 && ct_get(s.items[0].v.tensor, 0) == 15);
  ct_stack_free(&s);
  ct_release(a), ct_release(b), ct_release(u);
}

TEST(unboxed_kernel_without_adapter_is_reachable_typed_only) {
  ct_op *op = dispatch_op("dt::odd(Tensor self, float x, int y) -> Tensor", "dt::odd");
  ct_tensor *x = ct_ones(CT_DIMS(1), CT_F32);
  ct_value buf[4];
  ct_stack s;
  CHECK(op && !strcmp(op->schema.signature, "T,f,i->T"));
  CHECK_OK(ct_impl("dt::odd", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(dispatch_twice_cpu))));
  ct_stack_init(&s, buf, 4);
  ct_stack_push(&s, ct_value_tensor(x));
  ct_stack_push(&s, ct_value_double(1));
  ct_stack_push(&s, ct_value_int(1));
  CHECK_ERR(ct_call_boxed(op, &s), CT_ERR_UNSUPPORTED, "no boxing adapter for signature 'T,f,i->T'");
  ct_stack_free(&s);
  ct_release(x);
  CHECK_OK(ct_impl_remove("dt::odd", CT_KEY_CPU));
}

TEST(inplace_and_out_variants_bump_versions) {
  ct_tensor *a = ct_ones(CT_DIMS(3), CT_F32), *out = ct_empty(CT_DIMS(0), CT_F32), *v = ct_view(a, CT_DIMS(3));
  uint32_t v0 = a->storage->version;
  CHECK_OK(ct_add_(a, a));
  CHECK(a->storage->version == v0 + 1 && v->storage->version == v0 + 1);
  CHECK_OK(ct_mul_out(out, a, a)); /* an empty out= tensor is resized */
  CHECK(out->ndim == 1 && out->sizes[0] == 3 && ct_get(out, 2) == 4 && out->storage->version >= 1);
  ct_release(a), ct_release(out), ct_release(v);
}

/* ct_op_count / ct_op_at walk every defined op; a new def is the last one */
TEST(dispatch_op_iteration) {
  int64_t n = ct_op_count(), i, found = 0;
  ct_op *mine;
  CHECK(n > 500);
  for (i = 0; i < n; i++) found += ct_op_at(i) == ct_op_find("mm");
  CHECK(found == 1);
  CHECK(ct_op_at(-1) == NULL && ct_op_at(n) == NULL);
  mine = ct_def("test_iter_op(Tensor self) -> Tensor");
  CHECK(mine && ct_op_count() == n + 1 && ct_op_at(n) == mine);
  ct_clear_error();
}
