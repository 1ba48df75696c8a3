/* ctorch/optim.h - optimizers (SGD, Adam, AdamW, RMSprop), gradient clipping and learning-rate schedules.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * A thin layer over the ops, as torch.optim: each step runs the same
 * sequence of in-place tensor ops as PyTorch 1.13's single-tensor
 * implementations (foreach=False), under no-grad, so a trajectory follows
 * PyTorch's to rounding and runs on any device the parameters live on. The
 * optimizer's state (momentum buffers, moments, step counts) is allocated
 * at the first step that sees a gradient; later steps allocate only
 * temporaries, which come from the block cache (no system allocation in a
 * steady training loop).
 *
 *   ct_optim_opts o = ct_adamw_defaults(1e-3);
 *   ct_optim *opt = ct_optim_new(CT_OPTIM_ADAMW, nparams, params, &o);
 *   for (...) { ct_optim_zero_grad(opt); loss = ...; ct_backward(loss); ct_optim_step(opt); }
 *
 * zero_grad drops the gradients (set_to_none, PyTorch 2's default);
 * ct_optim_zero_grad_ex(opt, false) zeroes them in place as 1.13 did.
 *   ct_optim_free(opt);
 *
 * Parameters are borrowed (the caller keeps them alive); parameters whose
 * grad is NULL are skipped, as in PyTorch. Parameter groups: each group has
 * its own options (ct_optim_add_group); schedules set a group's lr.
 */
#ifndef CT_OPTIM_H
#define CT_OPTIM_H

#include "generated/functions.h"
#include "guard.h"

CT_EXTERN_C_BEGIN

typedef enum ct_optim_kind { CT_OPTIM_SGD, CT_OPTIM_ADAM, CT_OPTIM_ADAMW, CT_OPTIM_RMSPROP } ct_optim_kind;

/* One group's hyper-parameters, with torch.optim's names; the *_defaults
 * functions give PyTorch's defaults. */
typedef struct ct_optim_opts {
  double lr;
  double weight_decay;   /* SGD, Adam, RMSprop: added to the gradient; AdamW: decoupled (param *= 1 - lr * wd) */
  double momentum;       /* SGD, RMSprop */
  double dampening;      /* SGD */
  bool nesterov;         /* SGD (needs momentum > 0 and dampening 0) */
  double beta1, beta2;   /* Adam, AdamW */
  double eps;            /* Adam, AdamW, RMSprop */
  bool amsgrad;          /* Adam, AdamW */
  double alpha;          /* RMSprop's smoothing constant */
  bool centered;         /* RMSprop */
  bool maximize;         /* ascend instead of descend */
} ct_optim_opts;
CTDEF ct_optim_opts ct_sgd_defaults(double lr);     /* momentum 0, dampening 0, weight decay 0 */
CTDEF ct_optim_opts ct_adam_defaults(double lr);    /* betas (0.9, 0.999), eps 1e-8, weight decay 0 */
CTDEF ct_optim_opts ct_adamw_defaults(double lr);   /* as Adam, weight decay 0.01 */
CTDEF ct_optim_opts ct_rmsprop_defaults(double lr); /* alpha 0.99, eps 1e-8 */

typedef struct ct_optim ct_optim;
/* An optimizer over params[0..n) (one group with opts). NULL on error
 * (invalid options: a negative lr, betas outside [0, 1), nesterov without
 * momentum, ...), with the error set. */
CTDEF ct_optim *ct_optim_new(ct_optim_kind kind, int n, ct_tensor *const *params, const ct_optim_opts *opts);
/* Another parameter group with its own options; returns its index. */
CTDEF int ct_optim_add_group(ct_optim *o, int n, ct_tensor *const *params, const ct_optim_opts *opts);
CTDEF ct_status ct_optim_step(ct_optim *o);
/* Drops every parameter's gradient (.grad becomes NULL: PyTorch 2's
 * default, set_to_none=True): the next backward stores its gradients
 * directly instead of adding them to zeros, and a parameter it does not
 * reach is skipped by the next step. */
CTDEF ct_status ct_optim_zero_grad(ct_optim *o);
/* set_to_none false: zeroes the gradients in place instead (PyTorch 1.13's
 * default; the tensors are kept and the next backward adds into them). */
CTDEF ct_status ct_optim_zero_grad_ex(ct_optim *o, bool set_to_none);
CTDEF int ct_optim_num_groups(const ct_optim *o);
CTDEF double ct_optim_lr(const ct_optim *o, int group);
CTDEF ct_status ct_optim_set_lr(ct_optim *o, int group, double lr);
CTDEF void ct_optim_free(ct_optim *o);

/* torch.nn.utils.clip_grad_norm_: scales every gradient by max_norm /
 * (total_norm + 1e-6) when the total norm (of the gradients' norms, order
 * norm_type; INFINITY for the max) exceeds max_norm. The total norm goes to
 * *total (may be NULL). */
CTDEF ct_status ct_clip_grad_norm_(int n, ct_tensor *const *params, double max_norm, double norm_type, double *total);
/* torch.nn.utils.clip_grad_value_: clamps every gradient to [-clip, clip]. */
CTDEF ct_status ct_clip_grad_value_(int n, ct_tensor *const *params, double clip);

/* Learning-rate schedules as closed forms of the epoch (torch.optim.lr_scheduler):
 *   step:   base * gamma^floor(epoch / step_size)                         (StepLR)
 *   cosine: eta_min + (base - eta_min) (1 + cos(pi epoch / t_max)) / 2    (CosineAnnealingLR)
 *   linear: base * (start + (end - start) min(epoch, total) / total)      (LinearLR: warm-up)
 * Set them with ct_optim_set_lr before each epoch's steps. */
CTDEF double ct_lr_step(double base, int64_t epoch, int64_t step_size, double gamma);
CTDEF double ct_lr_cosine(double base, int64_t epoch, int64_t t_max, double eta_min);
CTDEF double ct_lr_linear(double base, int64_t epoch, double start_factor, double end_factor, int64_t total_iters);

CT_EXTERN_C_END
#endif /* CT_OPTIM_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPTIM_IMPL)
#define CT__OPTIM_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

typedef struct ct__optim_param {
  ct_tensor *param;                            /* borrowed */
  int group;
  int64_t step;                                /* Adam, AdamW: steps taken with a gradient */
  ct_tensor *buf, *exp_avg, *exp_avg_sq, *max_sq; /* state, made at the first step (NULL until then) */
} ct__optim_param;

struct ct_optim {
  ct_optim_kind kind;
  int ngroups, nparams, cap;
  ct_optim_opts *groups;
  ct__optim_param *params;
};

CTDEF ct_optim_opts ct_sgd_defaults(double lr) {
  ct_optim_opts o;
  memset(&o, 0, sizeof o);
  o.lr = lr;
  return o;
}
CTDEF ct_optim_opts ct_adam_defaults(double lr) {
  ct_optim_opts o = ct_sgd_defaults(lr);
  o.beta1 = 0.9, o.beta2 = 0.999, o.eps = 1e-8;
  return o;
}
CTDEF ct_optim_opts ct_adamw_defaults(double lr) {
  ct_optim_opts o = ct_adam_defaults(lr);
  o.weight_decay = 1e-2;
  return o;
}
CTDEF ct_optim_opts ct_rmsprop_defaults(double lr) {
  ct_optim_opts o = ct_sgd_defaults(lr);
  o.alpha = 0.99, o.eps = 1e-8;
  return o;
}

/* torch.optim's argument checks */
static ct_status ct__optim_check(ct_optim_kind kind, const ct_optim_opts *o) {
  static const char *fn = "ct_optim";
  if (!o) return ct__fail_null(fn, "opts");
  if (!(o->lr >= 0)) return ct_fail(CT_ERR_INVALID, fn, "Invalid learning rate: %g", o->lr);
  if (!(o->weight_decay >= 0)) return ct_fail(CT_ERR_INVALID, fn, "Invalid weight_decay value: %g", o->weight_decay);
  if (!(o->momentum >= 0)) return ct_fail(CT_ERR_INVALID, fn, "Invalid momentum value: %g", o->momentum);
  if (kind == CT_OPTIM_SGD && o->nesterov && (o->momentum <= 0 || o->dampening != 0))
    return ct_fail(CT_ERR_INVALID, fn, "Nesterov momentum requires a momentum and zero dampening");
  if (kind == CT_OPTIM_ADAM || kind == CT_OPTIM_ADAMW) {
    if (!(o->eps >= 0)) return ct_fail(CT_ERR_INVALID, fn, "Invalid epsilon value: %g", o->eps);
    if (!(o->beta1 >= 0 && o->beta1 < 1)) return ct_fail(CT_ERR_INVALID, fn, "Invalid beta parameter at index 0: %g", o->beta1);
    if (!(o->beta2 >= 0 && o->beta2 < 1)) return ct_fail(CT_ERR_INVALID, fn, "Invalid beta parameter at index 1: %g", o->beta2);
  }
  if (kind == CT_OPTIM_RMSPROP) {
    if (!(o->eps >= 0)) return ct_fail(CT_ERR_INVALID, fn, "Invalid epsilon value: %g", o->eps);
    if (!(o->alpha >= 0)) return ct_fail(CT_ERR_INVALID, fn, "Invalid alpha value: %g", o->alpha);
  }
  if ((unsigned)kind > CT_OPTIM_RMSPROP) return ct_fail(CT_ERR_INVALID, fn, "unknown optimizer kind %d", (int)kind);
  return CT_OK;
}

CTDEF int ct_optim_add_group(ct_optim *o, int n, ct_tensor *const *params, const ct_optim_opts *opts) {
  static const char *fn = "ct_optim_add_group";
  ct_optim_opts *g;
  int i, j;
  if (!o) return ct__fail_null(fn, "optimizer"), -1;
  if (ct__optim_check(o->kind, opts) != CT_OK) return -1;
  if (n < 0 || (n > 0 && !params)) return ct_fail(CT_ERR_INVALID, fn, "%d parameters at %p", n, (const void *)params), -1;
  for (i = 0; i < n; i++) {
    if (!params[i]) return ct_fail(CT_ERR_NULL, fn, "parameter %d is NULL", i), -1;
    if (!ct_dtype_is_floating((ct_dtype)params[i]->dtype))
      return ct_fail(CT_ERR_DTYPE, fn, "parameter %d is %s: optimizers take floating tensors", i, ct_dtype_name((ct_dtype)params[i]->dtype)), -1;
    for (j = 0; j < o->nparams; j++)
      if (o->params[j].param == params[i])
        return ct_fail(CT_ERR_INVALID, fn, "some parameters appear in more than one parameter group"), -1;
    for (j = 0; j < i; j++)
      if (params[j] == params[i]) return ct_fail(CT_ERR_INVALID, fn, "parameter %d appears twice in the group", i), -1;
  }
  if (!(g = (ct_optim_opts *)CT_REALLOC(o->groups, sizeof *g * (size_t)(o->ngroups + 1))))
    return ct_fail(CT_ERR_OOM, fn, "out of memory"), -1;
  o->groups = g;
  if (o->nparams + n > o->cap) {
    int cap = o->nparams + n + 8;
    ct__optim_param *p = (ct__optim_param *)CT_REALLOC(o->params, sizeof *p * (size_t)cap);
    if (!p) return ct_fail(CT_ERR_OOM, fn, "out of memory"), -1;
    o->params = p, o->cap = cap;
  }
  o->groups[o->ngroups] = *opts;
  for (i = 0; i < n; i++) {
    ct__optim_param *p = &o->params[o->nparams++];
    memset(p, 0, sizeof *p);
    p->param = params[i];
    p->group = o->ngroups;
  }
  return o->ngroups++;
}

CTDEF ct_optim *ct_optim_new(ct_optim_kind kind, int n, ct_tensor *const *params, const ct_optim_opts *opts) {
  ct_optim *o;
  if (ct__optim_check(kind, opts) != CT_OK) return NULL;
  if (!(o = (ct_optim *)CT_MALLOC(sizeof *o))) return ct_fail(CT_ERR_OOM, "ct_optim_new", "out of memory"), (ct_optim *)NULL;
  memset(o, 0, sizeof *o);
  o->kind = kind;
  if (ct_optim_add_group(o, n, params, opts) < 0) {
    ct_optim_free(o);
    return NULL;
  }
  return o;
}

CTDEF void ct_optim_free(ct_optim *o) {
  int i;
  if (!o) return;
  for (i = 0; i < o->nparams; i++) {
    ct_release(o->params[i].buf);
    ct_release(o->params[i].exp_avg);
    ct_release(o->params[i].exp_avg_sq);
    ct_release(o->params[i].max_sq);
  }
  CT_FREE(o->params);
  CT_FREE(o->groups);
  CT_FREE(o);
}

CTDEF int ct_optim_num_groups(const ct_optim *o) { return o ? o->ngroups : 0; }
CTDEF double ct_optim_lr(const ct_optim *o, int group) {
  return o && group >= 0 && group < o->ngroups ? o->groups[group].lr : NAN;
}
CTDEF ct_status ct_optim_set_lr(ct_optim *o, int group, double lr) {
  if (!o) return ct__fail_null("ct_optim_set_lr", "optimizer");
  if (group < 0 || group >= o->ngroups) return ct_fail(CT_ERR_INDEX, "ct_optim_set_lr", "group %d of %d", group, o->ngroups);
  if (!(lr >= 0)) return ct_fail(CT_ERR_INVALID, "ct_optim_set_lr", "Invalid learning rate: %g", lr);
  o->groups[group].lr = lr;
  return CT_OK;
}

/* A zero tensor like t (state): a new reference, not tracked by a scope. */
static ct_tensor *ct__optim_zeros_like(ct_tensor *t) {
  ct_tensor *z = ct__empty("ct_optim_step", t->ndim, t->sizes, (ct_dtype)t->dtype, t->device);
  if (z && ct_fill_(z, ct_int(0)) != CT_OK) ct_release(z), z = NULL;
  return z;
}

/* One parameter's update (under no-grad, inside a scope for temporaries). */
static ct_status ct__optim_update(ct_optim *o, ct__optim_param *p, const ct_optim_opts *g) {
  ct_tensor *param = p->param, *grad = ct_grad(param), *d;
  if (g->maximize && !(grad = ct_neg(grad))) return ct_last_error();
  switch (o->kind) {
  case CT_OPTIM_SGD:
    d = grad;
    if (g->weight_decay != 0 && !(d = ct_add_ex(d, param, ct_float(g->weight_decay)))) return ct_last_error();
    if (g->momentum != 0) {
      if (!p->buf) { /* (state: a new reference outside any scope) */
        if (!(p->buf = ct__optim_zeros_like(d)) || ct_copy_(p->buf, d) != CT_OK) return ct_last_error();
      } else if (ct_mul_scalar_(p->buf, ct_float(g->momentum)) != CT_OK ||
                 ct_add_ex_(p->buf, d, ct_float(1 - g->dampening)) != CT_OK) {
        return ct_last_error();
      }
      if (g->nesterov) {
        if (!(d = ct_add_ex(d, p->buf, ct_float(g->momentum)))) return ct_last_error();
      } else {
        d = p->buf;
      }
    }
    return ct_add_ex_(param, d, ct_float(-g->lr));
  case CT_OPTIM_ADAM:
  case CT_OPTIM_ADAMW: {
    double bc1, bc2, step_size;
    ct_tensor *denom, *sq;
    if (!p->exp_avg) {
      if (!(p->exp_avg = ct__optim_zeros_like(param)) || !(p->exp_avg_sq = ct__optim_zeros_like(param)) ||
          (g->amsgrad && !(p->max_sq = ct__optim_zeros_like(param))))
        return ct_last_error();
    }
    p->step++;
    if (o->kind == CT_OPTIM_ADAMW) {
      if (ct_mul_scalar_(param, ct_float(1 - g->lr * g->weight_decay)) != CT_OK) return ct_last_error();
    } else if (g->weight_decay != 0 && !(grad = ct_add_ex(grad, param, ct_float(g->weight_decay)))) {
      return ct_last_error();
    }
    if (ct_mul_scalar_(p->exp_avg, ct_float(g->beta1)) != CT_OK || ct_add_ex_(p->exp_avg, grad, ct_float(1 - g->beta1)) != CT_OK ||
        ct_mul_scalar_(p->exp_avg_sq, ct_float(g->beta2)) != CT_OK ||
        ct_addcmul_ex_(p->exp_avg_sq, grad, grad, ct_float(1 - g->beta2)) != CT_OK)
      return ct_last_error();
    bc1 = 1 - pow(g->beta1, (double)p->step);
    bc2 = 1 - pow(g->beta2, (double)p->step);
    step_size = g->lr / bc1;
    sq = p->exp_avg_sq;
    if (g->amsgrad) {
      if (ct_maximum_out(p->max_sq, p->max_sq, p->exp_avg_sq) != CT_OK) return ct_last_error();
      sq = p->max_sq;
    }
    if (!(denom = ct_div_scalar(ct_sqrt(sq), ct_float(sqrt(bc2)))) || ct_add_scalar_(denom, ct_float(g->eps)) != CT_OK)
      return ct_last_error();
    return ct_addcdiv_ex_(param, p->exp_avg, denom, ct_float(-step_size));
  }
  case CT_OPTIM_RMSPROP: {
    ct_tensor *avg;
    if (!p->exp_avg_sq) { /* square_avg; exp_avg is grad_avg (centered); buf the momentum buffer */
      if (!(p->exp_avg_sq = ct__optim_zeros_like(param)) || (g->centered && !(p->exp_avg = ct__optim_zeros_like(param))) ||
          (g->momentum > 0 && !(p->buf = ct__optim_zeros_like(param))))
        return ct_last_error();
    }
    if (g->weight_decay != 0 && !(grad = ct_add_ex(grad, param, ct_float(g->weight_decay)))) return ct_last_error();
    if (ct_mul_scalar_(p->exp_avg_sq, ct_float(g->alpha)) != CT_OK ||
        ct_addcmul_ex_(p->exp_avg_sq, grad, grad, ct_float(1 - g->alpha)) != CT_OK)
      return ct_last_error();
    if (g->centered) {
      if (ct_mul_scalar_(p->exp_avg, ct_float(g->alpha)) != CT_OK || ct_add_ex_(p->exp_avg, grad, ct_float(1 - g->alpha)) != CT_OK ||
          !(avg = ct_addcmul_ex(p->exp_avg_sq, p->exp_avg, p->exp_avg, ct_float(-1))) || ct_sqrt_(avg) != CT_OK)
        return ct_last_error();
    } else if (!(avg = ct_sqrt(p->exp_avg_sq))) {
      return ct_last_error();
    }
    if (ct_add_scalar_(avg, ct_float(g->eps)) != CT_OK) return ct_last_error();
    if (g->momentum > 0) {
      if (ct_mul_scalar_(p->buf, ct_float(g->momentum)) != CT_OK || ct_addcdiv_(p->buf, grad, avg) != CT_OK) return ct_last_error();
      return ct_add_ex_(param, p->buf, ct_float(-g->lr));
    }
    return ct_addcdiv_ex_(param, grad, avg, ct_float(-g->lr));
  }
  }
  return ct_fail(CT_ERR_STATE, "ct_optim_step", "unknown optimizer kind %d", (int)o->kind);
}

CTDEF ct_status ct_optim_step(ct_optim *o) {
  ct_status st = CT_OK;
  int i;
  if (!o) return ct__fail_null("ct_optim_step", "optimizer");
  CT_NO_GRAD {
    for (i = 0; i < o->nparams && st == CT_OK; i++) {
      ct__optim_param *p = &o->params[i];
      if (!ct_grad(p->param)) continue;
      CT_SCOPE { st = ct__optim_update(o, p, &o->groups[p->group]); }
    }
  }
  return st;
}

CTDEF ct_status ct_optim_zero_grad_ex(ct_optim *o, bool set_to_none) {
  int i;
  ct_status st = CT_OK;
  if (!o) return ct__fail_null("ct_optim_zero_grad", "optimizer");
  CT_NO_GRAD { /* (a gradient made with create_graph is zeroed, not recorded) */
    for (i = 0; i < o->nparams && st == CT_OK; i++) {
      ct_tensor *g = ct_grad(o->params[i].param);
      if (g) st = set_to_none ? ct_set_grad(o->params[i].param, NULL) : ct_fill_(g, ct_int(0));
    }
  }
  return st;
}
CTDEF ct_status ct_optim_zero_grad(ct_optim *o) { return ct_optim_zero_grad_ex(o, true); }

CTDEF ct_status ct_clip_grad_norm_(int n, ct_tensor *const *params, double max_norm, double norm_type, double *total) {
  static const char *fn = "ct_clip_grad_norm_";
  double norm = 0;
  int i;
  ct_status st = CT_OK;
  if (n < 0 || (n > 0 && !params)) return ct_fail(CT_ERR_INVALID, fn, "%d parameters at %p", n, (const void *)params);
  if (!(norm_type > 0) && !isinf(norm_type)) return ct_fail(CT_ERR_INVALID, fn, "norm_type must be positive, got %g", norm_type);
  CT_NO_GRAD {
    CT_SCOPE { /* the norm of the gradients' norms, as PyTorch (accumulated in double here) */
      for (i = 0; i < n && st == CT_OK; i++) {
        ct_tensor *g = params[i] ? ct_grad(params[i]) : NULL, *gn;
        double v;
        if (!g) continue;
        if (!(gn = ct_linalg_vector_norm(g, ct_float(norm_type), 0, NULL, false)) || ct_item(gn, &v) != CT_OK) {
          st = ct_last_error();
          break;
        }
        if (isinf(norm_type)) norm = v > norm || v != v ? v : norm;
        else norm += pow(v, norm_type);
      }
    }
    if (st == CT_OK && !isinf(norm_type)) norm = pow(norm, 1 / norm_type);
    if (st == CT_OK && max_norm / (norm + 1e-6) < 1) {
      double coef = max_norm / (norm + 1e-6);
      for (i = 0; i < n && st == CT_OK; i++) {
        ct_tensor *g = params[i] ? ct_grad(params[i]) : NULL;
        if (g) st = ct_mul_scalar_(g, ct_float(coef));
      }
    }
  }
  if (total) *total = norm;
  return st;
}

CTDEF ct_status ct_clip_grad_value_(int n, ct_tensor *const *params, double clip) {
  int i;
  ct_status st = CT_OK;
  if (n < 0 || (n > 0 && !params)) return ct_fail(CT_ERR_INVALID, "ct_clip_grad_value_", "%d parameters at %p", n, (const void *)params);
  CT_NO_GRAD {
    for (i = 0; i < n && st == CT_OK; i++) {
      ct_tensor *g = params[i] ? ct_grad(params[i]) : NULL;
      if (g) st = ct_clamp_(g, ct_float(-clip), ct_float(clip));
    }
  }
  return st;
}

CTDEF double ct_lr_step(double base, int64_t epoch, int64_t step_size, double gamma) {
  int64_t decays = step_size > 0 ? epoch / step_size : 0; /* (whole steps) */
  return base * pow(gamma, (double)decays);
}
CTDEF double ct_lr_cosine(double base, int64_t epoch, int64_t t_max, double eta_min) {
  if (t_max <= 0) return base;
  return eta_min + (base - eta_min) * (1 + cos(3.14159265358979323846 * (double)epoch / (double)t_max)) / 2;
}
CTDEF double ct_lr_linear(double base, int64_t epoch, double start_factor, double end_factor, int64_t total_iters) {
  double t = total_iters > 0 ? (double)(epoch < total_iters ? epoch : total_iters) / (double)total_iters : 1;
  return base * (start_factor + (end_factor - start_factor) * t);
}

CT_EXTERN_C_END
#endif /* CT__OPTIM_IMPL */
