/* tests/test_schema.c - the schema parser (ctorch/schema.h) is strict: every
 * malformed schema is refused with CT_ERR_SCHEMA naming the offset and what
 * was expected there; valid ones in PyTorch's native_functions.yaml style
 * parse. (Every schema in the spec files is parsed by `make gen` and again by
 * ct__init, so the built-in ones are covered there.) */
#include "harness.h"

typedef struct schema_bad_case {
  const char *schema;
  int offset;          /* where the error is reported */
  const char *message; /* a substring of the reason */
} schema_bad_case;

static const schema_bad_case schema_bad_cases[] = {
    /* names */
    {"::k(Tensor a) -> Tensor", 0, "expected an operator name"},
    {"px::(Tensor a) -> Tensor", 4, "expected an operator name after 'px::'"},
    {"a::b::c(Tensor a) -> Tensor", 4, "expected one namespace"},
    {"ns:k(Tensor a) -> Tensor", 2, "expected '::'"},
    {"f.(Tensor a) -> Tensor", 2, "expected an overload name after '.'"},
    {"f..x(Tensor a) -> Tensor", 2, "expected an overload name"},
    {"f.x.y(Tensor a) -> Tensor", 3, "expected '(' after the operator name"},
    {"1f(Tensor a) -> Tensor", 0, "expected an operator name"},
    {"(Tensor a) -> Tensor", 0, "expected an operator name"},
    {"", 0, "expected an operator name"},
    {"f-g(Tensor a) -> Tensor", 1, "expected '(' after the operator name"},
    {"f", 1, "expected '(' after the operator name, found the end of the schema"},
    {"ns ::f(Tensor a) -> Tensor", 3, "expected '(' after the operator name"},
    /* arguments */
    {"f(Tensor 1a) -> Tensor", 9, "expected an argument name"},
    {"f(Tensor) -> Tensor", 8, "expected an argument name"},
    {"f(Tensor a,) -> Tensor", 11, "expected an argument after ','"},
    {"f(,Tensor a) -> Tensor", 2, "expected a type"},
    {"f(Tensor a Tensor b) -> Tensor", 11, "expected ',' or ')' after argument 'a'"},
    {"f(Tensor a, Tensor a) -> Tensor", 19, "duplicate argument name 'a'"},
    {"f(Tensr a) -> Tensor", 2, "unknown type 'Tensr'"},
    {"f(Tensor a, *) -> Tensor", 13, "'*' must be followed by keyword-only arguments"},
    {"f(*, Tensor a, *, Tensor b) -> Tensor", 15, "'*' given twice"},
    {"f(Tensor a -> Tensor", 11, "expected ',' or ')'"},
    {"f(int(a!) n) -> int", 2, "alias annotation on a non-tensor"},
    {"f(Tensor(A) a) -> Tensor", 9, "expected an alias letter"},
    {"f(Tensor(a!x) a) -> Tensor", 11, "expected ')' after alias annotation"},
    {"f(Tensor(a!)? a) -> Tensor(a!)", 2, "cannot be optional"},
    {"f(float[2] a) -> Tensor", 2, "only int[], float[] and Tensor[] lists are supported, not float[N]"},
    {"f(bool[] a) -> Tensor", 2, "only int[], float[] and Tensor[] lists are supported, not bool[]"},
    {"f(Tensor?[] a) -> Tensor", 9, "lists of optionals"},
    {"f(int[99999999999999999999] a) -> Tensor", 6, "list size must be in [1, 64]"},
    {"f(int[0] a) -> Tensor", 6, "list size must be in [1, 64]"},
    {"f(int[65] a) -> Tensor", 6, "list size must be in [1, 64]"},
    {"f(int[2x] a) -> Tensor", 7, "expected a list size or ']'"},
    {"f(Tensor[2] a) -> Tensor", 2, "Tensor lists cannot be sized"},
    /* defaults */
    {"f(float x=abc) -> Tensor", 10, "invalid default 'abc' for float argument 'x'"},
    {"f(int x=1.5e) -> Tensor", 8, "invalid default '1.5e' for int argument 'x'"},
    {"f(float x=1.5e) -> Tensor", 10, "invalid default '1.5e' for float argument 'x'"},
    {"f(float x=1e400) -> Tensor", 10, "out of range"},
    {"f(float x=1e-400) -> Tensor", 10, "out of range"},
    {"f(float x=infinity) -> Tensor", 10, "expected a number, inf, -inf or nan"},
    {"f(float x=-nan) -> Tensor", 10, "invalid default '-nan'"},
    {"f(float x=.) -> Tensor", 10, "invalid default '.'"},
    {"f(float x=1.5.2) -> Tensor", 10, "invalid default '1.5.2'"},
    {"f(int[] a=]) -> Tensor", 10, "expected a default value for 'a', found ']'"},
    {"f(int[] a=[1, 2) -> Tensor", 15, "expected ',' or ']' in the list default of 'a'"},
    {"f(int[2] a=[1,]) -> Tensor", 14, "expected an integer in the list default of 'a'"},
    {"f(int[2] a=[1, 2, 3]) -> Tensor", 11, "has 3 values, int[2] takes 2"},
    {"f(int[] a=1) -> Tensor", 10, "needs a sized list"},
    {"f(int[2] a=[1, x]) -> Tensor", 15, "expected an integer in the list default"},
    {"f(int x=99999999999999999999) -> Tensor", 8, "out of range for int64"},
    {"f(int x=9223372036854775808) -> Tensor", 8, "out of range for int64"},
    {"f(int x=-9223372036854775809) -> Tensor", 8, "out of range for int64"},
    {"f(int[2] a=[1, 99999999999999999999]) -> Tensor", 15, "out of range for int64"},
    {"f(int x=+1) -> Tensor", 8, "invalid default '+1'"},
    {"f(int x=01) -> Tensor", 8, "invalid default '01'"},
    {"f(int x=0x10) -> Tensor", 8, "invalid default '0x10'"},
    {"f(int x=1.0) -> Tensor", 8, "expected an integer"},
    {"f(int x=True) -> Tensor", 8, "expected an integer"},
    {"f(int x=None) -> Tensor", 8, "whose type int is not optional"},
    {"f(Tensor x=None) -> Tensor", 11, "whose type Tensor is not optional"},
    {"f(Tensor? x=1) -> Tensor", 12, "expected None"},
    {"f(Generator? g=0) -> Tensor", 15, "expected None"},
    {"f(Device? d=cpu) -> Tensor", 12, "expected None"},
    {"f(Device d=None) -> Tensor", 11, "whose type Device is not optional"},
    {"f(bool b=true) -> Tensor", 9, "expected True or False"},
    {"f(bool b=1) -> Tensor", 9, "expected True or False"},
    {"f(bool b=None) -> Tensor", 9, "not optional"},
    {"f(str s=abc) -> Tensor", 8, "expected a quoted string"},
    {"f(str s='abc) -> Tensor", 8, "unterminated string default"},
    {"f(str s='a\\b') -> Tensor", 10, "unsupported character in the string default"},
    {"f(float x='1') -> Tensor", 10, "a string default for float argument"},
    {"f(ScalarType d=float32) -> Tensor", 15, "expected float, double, half"},
    {"f(Scalar s=abc) -> Tensor", 11, "expected a number, True, False, inf, -inf or nan"},
    {"f(int x=) -> Tensor", 8, "expected a default value for 'x', found ')'"},
    {"f(int x=1 2) -> Tensor", 10, "expected ',' or ')' after argument 'x'"},
    {"f(Tensor[] t=[a]) -> Tensor", 14, "a Tensor[] default must be []"},
    {"f(int x=[1]) -> Tensor", 8, "a list default for int argument 'x'"},
    /* returns */
    {"f(Tensor a) Tensor", 12, "expected '->'"},
    {"f(Tensor a)", 11, "expected '->', found the end of the schema"},
    {"f(Tensor a) ->", 14, "expected a type, found the end of the schema"},
    {"f(Tensor a) -> (Tensor, Tensor", 30, "expected ',' or ')' in the returns"},
    {"f(Tensor a) -> Tensor a b", 24, "unexpected text after the returns"},
    {"f(Tensor a) -> Tensor)", 21, "unexpected text after the returns"},
    {"f(Tensor a) -> (Tensor x, Tensor x)", 33, "duplicate return name 'x'"},
    {"f(Tensor a) -> (Tensor x=1)", 24, "returns cannot have defaults"},
    {"f(Tensor(a!) a) -> Tensor(b!)", 29, "annotated Tensor(b!), but no argument is"},
    {"f(Tensor(a) a) -> Tensor(a!)", 28, "annotated Tensor(a!), but no argument is"},
    {"f(Tensor a) -> (Tensor, Tensor, Tensor, Tensor, Tensor)", 48, "too many returns"},
    {"f(Tensor a) -> Tensr", 15, "unknown type"},
    {"f(Tensor a) -> Tensor\x01", 21, "unexpected text after the returns: byte 0x01"},
};

TEST(schema_rejects_malformed) {
  size_t i;
  for (i = 0; i < sizeof schema_bad_cases / sizeof schema_bad_cases[0]; i++) {
    const schema_bad_case *c = &schema_bad_cases[i];
    ct_schema s;
    char at[32];
    ct_status st;
    ct_clear_error();
    memset(&s, 0x5a, sizeof s);
    st = ct_schema_parse(c->schema, &s);
    snprintf(at, sizeof at, "at offset %d:", c->offset);
    if (st != CT_ERR_SCHEMA || !strstr(ct_last_error_message(), at) || !strstr(ct_last_error_message(), c->message))
      harness_fail(__FILE__, __LINE__, "schema '%s': expected CT_ERR_SCHEMA %s ... %s, got %s \"%s\"", c->schema, at, c->message,
                   ct_status_name(st), ct_last_error_message());
    CHECK(s.nargs == 0 && s.nrets == 0 && !s.name[0]); /* nothing half-parsed is left behind */
    ct_clear_error();
  }
}

/* ct_def refuses the same schemas */
TEST(schema_def_rejects_malformed) {
  CHECK_ERR(ct_def("errtest::m1(float x=abc) -> Tensor"), CT_ERR_SCHEMA, "invalid default 'abc'");
  CHECK_ERR(ct_def("::m2(Tensor a) -> Tensor"), CT_ERR_SCHEMA, "expected an operator name");
  CHECK_ERR(ct_def("errtest::m3(int[99999999999999999999] a) -> Tensor"), CT_ERR_SCHEMA, "list size");
  CHECK(ct_op_find("errtest::m1") == NULL); /* nothing was registered */
  ct_clear_error();
}

typedef struct schema_good_case {
  const char *schema, *signature;
} schema_good_case;

static const schema_good_case schema_good_cases[] = {
    {"add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", "T,T,S->T"},
    {"add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", "T,T,S,Tw->Tw"},
    {"sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", "T,I,b,D->T"},
    {"max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, "
     "Tensor(b!) indices)",
     "T,i,b,Tw,Tw->Tw,Tw"},
    {"split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]", NULL}, /* wildcard alias: refused below */
    {"max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> "
     "Tensor",
     "T,I,I,I,I,b->T"},
    {"conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=[0, 0], SymInt[2] dilation=[1,1], "
     "SymInt groups=1) -> Tensor",
     "T,T,T?,I,I,I,i->T"},
    {"nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100) -> Tensor",
     "T,T,T?,i,i->T"},
    {"smooth_l1_loss(Tensor self, Tensor target, int reduction=Sum, float beta=1.0) -> Tensor", "T,T,i,f->T"},
    {"layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool "
     "cudnn_enable=True) -> Tensor",
     "T,I,T?,T?,f,b->T"},
    {"clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", "T,S?,S?->T"},
    {"nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor", "T,f?,f?,f?->T"},
    {"f(float a=inf, float b=-inf, float c=nan, float d=.5, float e=1., float f=-2.5E+3, float g=0) -> ()", "f,f,f,f,f,f,f->"},
    {"g(Scalar a=True, Scalar b=-1, Scalar c=0.01, Scalar d=1e-3, int e=-9223372036854775808, int f=9223372036854775807) -> ()",
     "S,S,S,S,i,i->"},
    {"pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? value=None) -> Tensor", "T,I,s,f?->T"},
    {"cross_entropy(Tensor self, str reduction='mean', ScalarType dtype=long, ScalarType? out_dtype=None) -> Tensor", "T,s,D,D->T"},
    {"cat(Tensor[] tensors, int dim=0) -> Tensor", "L,i->T"},
    {"stack(Tensor[] tensors=[], int[]? sizes=None, int[] strides=[]) -> Tensor", "L,I,I->T"},
    {"rand(SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", "I,G,D->T"},
    {"myns::my_op.overload_1(Tensor(a!) self, *, Tensor(b!) out) -> (Tensor(a!), Tensor(b!))", "Tw,Tw->Tw,Tw"},
    {"noop() -> ()", "->"},
    {"_to_copy(Tensor self, *, ScalarType? dtype=None, Device? device=None, bool non_blocking=False) -> Tensor", "T,D,V,b->T"},
    {"  spaced . x ( Tensor  self , int[ 2 ] k = [ 1 , 2 ] ) -> Tensor", NULL}, /* spaces inside tokens: refused */
    {"  spaced.x( Tensor  self ,\n\tint[2]  k = [ 1 , 2 ] )->( Tensor r )  ", "T,I->T"},
    {"f(*, Tensor a) -> Tensor out", "T->T"},
    {"__and__.Tensor(Tensor self, Tensor other) -> Tensor", "T,T->T"},
    {"view(Tensor(a) self, SymInt[] size) -> Tensor(a)", "T,I->T"},
    {"unbind.int(Tensor(a) self, int dim=0) -> Tensor[]", "T,i->L"},
    {"full(int[64] size, Scalar fill_value) -> Tensor", "I,S->T"},
};

TEST(schema_parses_valid) {
  size_t i;
  for (i = 0; i < sizeof schema_good_cases / sizeof schema_good_cases[0]; i++) {
    const schema_good_case *c = &schema_good_cases[i];
    ct_schema s;
    ct_status st;
    ct_clear_error();
    st = ct_schema_parse(c->schema, &s);
    if (!c->signature) {
      if (st != CT_ERR_SCHEMA) harness_fail(__FILE__, __LINE__, "schema '%s': expected CT_ERR_SCHEMA", c->schema);
    } else if (st != CT_OK) {
      harness_fail(__FILE__, __LINE__, "schema '%s': %s", c->schema, ct_last_error_message());
    } else if (strcmp(s.signature, c->signature) != 0) {
      harness_fail(__FILE__, __LINE__, "schema '%s': signature %s, expected %s", c->schema, s.signature, c->signature);
    }
    ct_clear_error();
  }
}

TEST(schema_fields) {
  ct_schema s;
  CHECK_OK(ct_schema_parse("myns::op.ov(Tensor(a!) self, int[2] k=[3, 4], float e=-1e-05, str m='x', *, bool f=True) -> "
                           "Tensor(a!) result",
                           &s));
  CHECK(!strcmp(s.name, "myns::op") && !strcmp(s.overload, "ov") && s.nargs == 5 && s.nrets == 1);
  CHECK(s.args[0].is_write && s.args[0].alias == 'a' && s.rets[0].is_write && !strcmp(s.rets[0].name, "result"));
  CHECK(s.args[1].list_size == 2 && !strcmp(s.args[1].default_value, "[3, 4]"));
  CHECK(!strcmp(s.args[2].default_value, "-1e-05") && !strcmp(s.args[3].default_value, "'x'"));
  CHECK(s.args[4].kwarg_only && !s.args[3].kwarg_only && !strcmp(s.args[4].default_value, "True"));
  /* the longest names fit; one more character does not */
  CHECK_OK(ct_schema_parse("a123456789012345678901234567890123456789012345678901234567890ab(Tensor x) -> Tensor", &s));
  CHECK_ERR(ct_schema_parse("a123456789012345678901234567890123456789012345678901234567890abc(Tensor x) -> Tensor", &s),
            CT_ERR_SCHEMA, "too long");
  CHECK_ERR(ct_schema_parse("f(Tensor a1234567890123456789012345678901) -> Tensor", &s), CT_ERR_SCHEMA,
            "argument name too long (at most 31 characters)");
  CHECK_ERR(ct_schema_parse("f(int[] x=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) -> Tensor", &s), CT_ERR_SCHEMA,
            "default value of 'x' too long");
  /* long schemas: the message shows the text around the offset and always keeps the reason */
  CHECK_ERR(ct_schema_parse("f(Tensor a0, Tensor a1, Tensor a2, Tensor a3, Tensor a4, Tensor a5, Tensor a6, Tensor a7, Tensor a8, "
                            "Tensor a9, Tensor b0, Tensor b1, Tensor b2, float x=abc) -> Tensor",
                            &s),
            CT_ERR_SCHEMA, "invalid default 'abc' for float argument 'x'");
  CHECK_ERR(ct_schema_parse(NULL, &s), CT_ERR_NULL, "schema");
  CHECK_ERR(ct_schema_parse("f() -> ()", NULL), CT_ERR_NULL, "out");
}

/* Generated out= frontends take their out (ctgen's check_frontends refuses a
 * spec whose short or _ex form would drop a written argument):
 * ct_embedding_out used to be generated without `out` and could only fail. */
TEST(generated_embedding_out) {
  CT_SCOPE {
    const float w[] = {0, 1, 10, 11, 20, 21};
    const int64_t idx[] = {2, 0, 2};
    ct_tensor *weight = ct_from_array(CT_DIMS(3, 2), CT_F32, w);
    ct_tensor *indices = ct_from_array(CT_DIMS(3), CT_I64, idx);
    ct_tensor *out = ct_empty(CT_DIMS(0), CT_F32), *out2 = ct_zeros(CT_DIMS(3, 2), CT_F32);
    CHECK_OK(ct_embedding_out(out, weight, indices));
    CHECK(out->ndim == 2 && out->sizes[0] == 3 && out->sizes[1] == 2);
    CHECK(ct_get(out, 0) == 20 && ct_get(out, 1) == 21 && ct_get(out, 2) == 0 && ct_get(out, 5) == 21);
    CHECK_OK(ct_embedding_out_ex(out2, weight, indices, 0, false, false));
    CHECK(ct_get(out2, 0) == 20 && ct_get(out2, 3) == 1);
    CHECK_ERR(ct_embedding_out(NULL, weight, indices), CT_ERR_NULL, "argument 'out' is NULL");
    CHECK_ERR(ct_embedding_out(ct_empty(CT_DIMS(3, 2), CT_I64), weight, indices), CT_ERR_DTYPE, "embedding");
  }
}

/* A few more out= short forms whose out comes after defaulted keyword arguments. */
TEST(generated_out_short_forms) {
  CT_SCOPE {
    const float xs[] = {1, 2, 3, 4};
    ct_tensor *x = ct_from_array(CT_DIMS(1, 1, 2, 2), CT_F32, xs), *o = ct_empty(CT_DIMS(0), CT_F32);
    const int64_t k[] = {2, 2}, z[] = {0, 0}, one[] = {1, 1};
    double v = 0;
    CHECK_OK(ct_add_out(o, x, x));
    CHECK(o->numel == 4 && ct_get(o, 3) == 8);
    CHECK_OK(ct_avg_pool2d_out(o, x, 2, k, 0, NULL, 2, z, false, true, CT_INT_NONE));
    CHECK(o->numel == 1 && ct_item(o, &v) == CT_OK && v == 2.5);
    CHECK_OK(ct_adaptive_avg_pool2d_out(o, x, 2, one));
    CHECK(o->numel == 1 && ct_item(o, &v) == CT_OK && v == 2.5);
    CHECK_OK(ct_mse_loss_out(o, x, ct_zeros_like(x), 1));
    CHECK(ct_item(o, &v) == CT_OK && v == 7.5);
  }
}

/* The built-in ops are defined from the generator's pre-parsed tables (no
 * parsing at start-up): their schemas equal what the parser makes of the
 * spec's text, field by field, across every feature of the grammar. */
TEST(generated_schemas_are_pre_parsed_exactly) {
  static const char *texts[] = {
      "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      "clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor",
      "convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, "
      "int[] output_padding, int groups) -> Tensor",
      "empty.memory_format(int[] size, *, ScalarType? dtype=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "native_dropout(Tensor input, float p, bool train, *, Generator? generator=None) -> (Tensor output, Tensor mask)",
      "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> "
      "(Tensor(a!) values, Tensor(b!) indices)",
      "index.Tensor_out(Tensor self, Tensor[] indices, *, Tensor(a!) out) -> Tensor(a!)",
  };
  size_t t;
  for (t = 0; t < sizeof texts / sizeof texts[0]; t++) {
    ct_schema want;
    const ct_op *op;
    char full[100];
    int i;
    CHECK_OK(ct_schema_parse(texts[t], &want));
    snprintf(full, sizeof full, "%s%s%s", want.name, want.overload[0] ? "." : "", want.overload);
    op = ct_op_find(full);
    CHECK(op != NULL);
    if (!op) continue;
    CHECK(!strcmp(op->schema.name, want.name) && !strcmp(op->schema.overload, want.overload));
    CHECK(!strcmp(op->schema.signature, want.signature));
    CHECK(op->schema.nargs == want.nargs && op->schema.nrets == want.nrets);
    for (i = 0; i < want.nargs + want.nrets && op->schema.nargs == want.nargs && op->schema.nrets == want.nrets; i++) {
      const ct_arg *a = i < want.nargs ? &op->schema.args[i] : &op->schema.rets[i - want.nargs];
      const ct_arg *b = i < want.nargs ? &want.args[i] : &want.rets[i - want.nargs];
      CHECK(a->type == b->type && a->optional == b->optional && a->is_write == b->is_write && a->alias == b->alias &&
            a->kwarg_only == b->kwarg_only && a->list_size == b->list_size && !strcmp(a->name, b->name) &&
            !strcmp(a->default_value, b->default_value));
    }
  }
}
