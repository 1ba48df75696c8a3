/* fuzz/diff_common.h - the differential fuzzer's program and result types,
 * shared by its three translation units (see fuzz/differential.c for the
 * design). Nothing here depends on ctorch: the two ctorch instances never
 * see each other's types. */
#ifndef DF_COMMON_H
#define DF_COMMON_H
#include <stdint.h>

#define DF_MAXINIT 4
#define DF_MAXSTEPS 16
#define DF_MAXIN 4
#define DF_NSLOT 6

enum df_op {
  DF_MM,
  DF_MATMUL,
  DF_ADDMM,
  DF_LINEAR,
  DF_BMM,
  DF_BADDBMM,
  DF_MV,
  DF_DOT,
  DF_ADD,
  DF_SUB,
  DF_MUL,
  DF_RELU,
  DF_EXP,
  DF_SIGMOID,
  DF_TANH,
  DF_SUM,
  DF_MEAN,
  DF_SOFTMAX,
  DF_LOG_SOFTMAX,
  DF_THRESHOLD_BACKWARD,
  DF_NOPS
};

/* dtypes as numbers (ctorch's order: f32 f64 f16 bf16 i64 i32 u8 bool) */
enum { DF_F32, DF_F64, DF_F16, DF_BF16, DF_I64, DF_I32, DF_U8, DF_BOOL };

typedef struct df_init {
  int nd;
  int64_t sizes[3];
  int dtype;
  uint32_t seed;
  int mode; /* contents: see df_value() */
  int view; /* 0 none, 1 transposed, 2 every other row (slice step 2), 3 expanded from a size-1 dim */
} df_init;

typedef struct df_step {
  int op, form; /* form: 0 functional, 1 in-place, 2 out= */
  int a, dst;   /* slots */
  int b;        /* slot of the second operand, or -1: a new one shaped to fit */
  int64_t m, k, n; /* sizes of new operands: [m, k] x [k, n] */
  int transb;   /* the new matrix operand is a transposed view */
  int dim, keep, flag;
  int alpha_i, beta_i; /* indices into df_scalars */
  uint32_t seed;
  int dtype_arg; /* softmax's dtype= : -1 none */
} df_step;

typedef struct df_prog {
  int ninit, nsteps;
  int force_blis; /* 1: BLIS for every product size, 2: the plain-C kernel for every size, 0: default crossover */
  df_init init[DF_MAXINIT];
  df_step steps[DF_MAXSTEPS];
} df_prog;

/* A tensor's value, exported from either instance: logical row-major order. */
typedef struct df_val {
  int present; /* 0: no tensor (NULL argument) */
  int dtype, ndim;
  int64_t sizes[8], numel;
  double *f;          /* numel values widened to double (exact for every float dtype) */
  unsigned char *raw; /* numel elements in the tensor's own dtype */
} df_val;

/* The result of one step on one side. */
typedef struct df_res {
  int status; /* 0 OK, else the ctorch status */
  char message[256];
  df_val out;
} df_res;

static const double df_scalars[] = {1.0, 2.0, -1.0, 0.5, 0.0, -3.0, 1e-3, 7.25};
#define DF_NSCALARS 8

/* one side (two implementations, one per ctorch instance) */
void df_ref_begin(const df_prog *p);
void df_ref_step(const df_prog *p, int k, df_val *ins, int *nin, df_res *res);
void df_ref_end(void);
void df_blis_begin(const df_prog *p);
void df_blis_step(const df_prog *p, int k, df_val *ins, int *nin, df_res *res);
void df_blis_end(void);
int64_t df_ref_live(void);  /* live tensors of each instance (leak check) */
int64_t df_blis_live(void);
int df_blis_registered(void); /* 1 when the BLIS backend holds its kernels */
int64_t df_blis_set_small_flops(int64_t v);
/* The float64 recomputation (reference instance): the step's op, functional
 * form, on float64 copies of `ins`; and the same op on |ins| (with |alpha|,
 * |beta| at least 1), the magnitude the error bounds scale with. *common:
 * the dtype a pointwise op computes in (its inputs are rounded to it first),
 * -1 if not known. 0 on success. */
int df_ref_oracle(const df_step *s, const df_val *ins, int nin, df_val *res, df_val *mag, int *common);
const char *df_ref_message(void);
void df_val_free(df_val *v);

#endif
