// bench/models_torch.cpp - the libtorch side of bench/models.c: a small CNN
// and a transformer encoder block, forward (no grad) and a training step,
// written the way a PyTorch user writes them (F.conv2d / F.max_pool2d /
// F.linear / F.cross_entropy; the transformer as PyTorch 1.13's
// nn.TransformerEncoderLayer does it op by op, and also through the fused
// at::_transformer_encoder_layer_fwd that Python's module uses for an eval
// forward under no_grad). Weights and data come from the C side (ctorch's
// initial weights), so both sides do the same work; each run function
// returns elapsed ns for `calls` calls and writes a checksum of its last
// result. C linkage.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/grad_mode.h>
#include <torch/version.h>

#include <time.h>

#include <cmath>
#include <string>
#include <vector>

namespace {
int cpu_clock = 1;
double now_ns() {
  struct timespec ts;
  clock_gettime(cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
at::Tensor from(const float *p, std::vector<int64_t> sizes, bool grad) {
  at::Tensor t = at::from_blob(const_cast<float *>(p), sizes, at::TensorOptions().dtype(at::kFloat)).clone();
  if (grad) t.requires_grad_(true);
  return t;
}
double abs_sum(const at::Tensor &t) { return t.detach().abs().sum().item<double>(); }

// SGD as torch.optim.SGD (lr, no momentum): p -= lr * grad; zero_grad zeroes the grads
void zero_grad(std::vector<at::Tensor> &ps) {
  at::NoGradGuard g;
  for (auto &p : ps)
    if (p.grad().defined()) p.mutable_grad().zero_();
}
void sgd_step(std::vector<at::Tensor> &ps, double lr) {
  at::NoGradGuard g;
  for (auto &p : ps)
    if (p.grad().defined()) p.add_(p.grad(), -lr);
}
double grad_checksum(const std::vector<at::Tensor> &ps) {
  double s = 0;
  for (auto &p : ps) s += abs_sum(p.grad());
  return s;
}

struct Cnn {
  at::Tensor w1, b1, w2, b2, w3, b3, x[2], y[2];
  std::vector<at::Tensor> params;
  at::Tensor forward(const at::Tensor &in) {
    at::Tensor h = at::relu(at::conv2d(in, w1, b1, {1, 1}, {1, 1}));
    h = at::max_pool2d(h, {2, 2});
    h = at::relu(at::conv2d(h, w2, b2, {1, 1}, {1, 1}));
    h = at::max_pool2d(h, {2, 2});
    return at::linear(h.flatten(1), w3, b3);
  }
} cnn;

struct Tf {
  at::Tensor in_w, in_b, out_w, out_b, l1w, l1b, l2w, l2b, n1w, n1b, n2w, n2b, x[2], y[2];
  std::vector<at::Tensor> params;
  int64_t E = 64, H = 4;
  // nn.TransformerEncoderLayer (post-norm, relu, batch_first) of PyTorch 1.13 with
  // F.multi_head_attention_forward (packed in-projection, need_weights=False)
  at::Tensor forward(const at::Tensor &src, bool training) {
    int64_t hd = E / H;
    at::Tensor q = src.transpose(1, 0);  // (L, N, E)
    int64_t L = q.size(0), N = q.size(1);
    at::Tensor proj = at::linear(q, in_w, in_b);
    proj = proj.unflatten(-1, {3, E}).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous();
    at::Tensor qq = proj[0], kk = proj[1], vv = proj[2];
    qq = qq.contiguous().view({L, N * H, hd}).transpose(0, 1);
    kk = kk.contiguous().view({L, N * H, hd}).transpose(0, 1);
    vv = vv.contiguous().view({L, N * H, hd}).transpose(0, 1);
    qq = qq / std::sqrt((double)hd);
    at::Tensor attn = at::softmax(at::bmm(qq, kk.transpose(-2, -1)), -1);
    at::Tensor o = at::bmm(attn, vv);
    o = o.transpose(0, 1).contiguous().view({L * N, E});
    o = at::linear(o, out_w, out_b).view({L, N, E}).transpose(1, 0);
    at::Tensor x = at::layer_norm(src + at::dropout(o, 0.0, training), {E}, n1w, n1b, 1e-5);
    at::Tensor f = at::linear(at::dropout(at::relu(at::linear(x, l1w, l1b)), 0.0, training), l2w, l2b);
    return at::layer_norm(x + at::dropout(f, 0.0, training), {E}, n2w, n2b, 1e-5);
  }
  at::Tensor fast(const at::Tensor &src) {
    return at::_transformer_encoder_layer_fwd(src, E, H, in_w, in_b, out_w, out_b, false, false, 1e-5, n1w, n1b, n2w, n2b, l1w, l1b,
                                              l2w, l2b);
  }
} tf;

// isolated ops at the models' shapes (batch 1 and 32)
struct Ops {
  bool ready = false;
  at::Tensor cx, c1w, c1b, c2x, c2w, c2b, p1x, g2, g1, fx, fw, fb, tx, tw, tb, q, kt, s, lx, lw, lb;
  void init(int B) {
    auto o = at::TensorOptions().dtype(at::kFloat);
    cx = at::randn({B, 3, 32, 32}, o), c1w = at::randn({16, 3, 3, 3}, o), c1b = at::randn({16}, o);
    c2x = at::randn({B, 16, 16, 16}, o), c2w = at::randn({32, 16, 3, 3}, o), c2b = at::randn({32}, o);
    p1x = at::randn({B, 16, 32, 32}, o), g2 = at::randn({B, 32, 16, 16}, o), g1 = at::randn({B, 16, 32, 32}, o);
    fx = at::randn({B, 2048}, o), fw = at::randn({10, 2048}, o), fb = at::randn({10}, o);
    tx = at::randn({B * 32, 64}, o), tw = at::randn({192, 64}, o), tb = at::randn({192}, o);
    q = at::randn({B * 4, 32, 16}, o), kt = at::randn({B * 4, 16, 32}, o), s = at::randn({B * 4, 32, 32}, o);
    lx = at::randn({B, 32, 64}, o), lw = at::randn({64}, o), lb = at::randn({64}, o);
    ready = true;
  }
} ops[2];
}  // namespace

extern "C" void torch_models_setup(int threads, int cpu) {
  at::set_num_threads(threads);
  cpu_clock = cpu;
}
extern "C" const char *torch_models_version(void) {
  static std::string v = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
                         std::to_string(TORCH_VERSION_PATCH);
  return v.c_str();
}

// p: w1, b1, w2, b2, w3, b3 (PyTorch's layouts); x [maxb, 3, 32, 32]; labels [maxb]
extern "C" void torch_cnn_init(const float *const *p, const float *x, const int64_t *labels, int maxb) {
  cnn.w1 = from(p[0], {16, 3, 3, 3}, true), cnn.b1 = from(p[1], {16}, true);
  cnn.w2 = from(p[2], {32, 16, 3, 3}, true), cnn.b2 = from(p[3], {32}, true);
  cnn.w3 = from(p[4], {10, 32 * 8 * 8}, true), cnn.b3 = from(p[5], {10}, true);
  cnn.params = {cnn.w1, cnn.b1, cnn.w2, cnn.b2, cnn.w3, cnn.b3};
  cnn.x[0] = from(x, {1, 3, 32, 32}, false), cnn.x[1] = from(x, {maxb, 3, 32, 32}, false);
  auto lo = at::TensorOptions().dtype(at::kLong);
  cnn.y[0] = at::from_blob(const_cast<int64_t *>(labels), {1}, lo).clone();
  cnn.y[1] = at::from_blob(const_cast<int64_t *>(labels), {maxb}, lo).clone();
}
extern "C" double torch_cnn_forward(int batch, long calls, double *checksum) {
  const at::Tensor &x = cnn.x[batch == 1 ? 0 : 1];
  at::NoGradGuard g;
  at::Tensor y;
  double t0 = now_ns();
  for (long i = 0; i < calls; i++) y = cnn.forward(x);
  double t = now_ns() - t0;
  if (checksum) *checksum = abs_sum(y);
  return t;
}
extern "C" double torch_cnn_train(int batch, long calls, double *checksum) {
  int k = batch == 1 ? 0 : 1;
  at::Tensor loss;
  double t0 = now_ns();
  for (long i = 0; i < calls; i++) {
    zero_grad(cnn.params);
    loss = at::cross_entropy_loss(cnn.forward(cnn.x[k]), cnn.y[k]);
    loss.backward();
    sgd_step(cnn.params, 0.01);
  }
  double t = now_ns() - t0;
  if (checksum) *checksum = loss.item<double>() + grad_checksum(cnn.params);
  return t;
}

// p: the state dict of nn.TransformerEncoderLayer in its order:
// self_attn.in_proj_weight, .in_proj_bias, self_attn.out_proj.weight, .bias,
// linear1.weight, .bias, linear2.weight, .bias, norm1.weight, .bias, norm2.weight, .bias
extern "C" void torch_tf_init(const float *const *p, int64_t E, int64_t H, int64_t F, int64_t L, const float *x, const float *y,
                              int maxb) {
  tf.E = E, tf.H = H;
  tf.in_w = from(p[0], {3 * E, E}, true), tf.in_b = from(p[1], {3 * E}, true);
  tf.out_w = from(p[2], {E, E}, true), tf.out_b = from(p[3], {E}, true);
  tf.l1w = from(p[4], {F, E}, true), tf.l1b = from(p[5], {F}, true);
  tf.l2w = from(p[6], {E, F}, true), tf.l2b = from(p[7], {E}, true);
  tf.n1w = from(p[8], {E}, true), tf.n1b = from(p[9], {E}, true);
  tf.n2w = from(p[10], {E}, true), tf.n2b = from(p[11], {E}, true);
  tf.params = {tf.in_w, tf.in_b, tf.out_w, tf.out_b, tf.l1w, tf.l1b, tf.l2w, tf.l2b, tf.n1w, tf.n1b, tf.n2w, tf.n2b};
  tf.x[0] = from(x, {1, L, E}, false), tf.x[1] = from(x, {maxb, L, E}, false);
  tf.y[0] = from(y, {1, L, E}, false), tf.y[1] = from(y, {maxb, L, E}, false);
}
// fast: 0 the module's ops, 1 at::_transformer_encoder_layer_fwd (Python's eval fast path)
extern "C" double torch_tf_forward(int batch, int fast, long calls, double *checksum) {
  const at::Tensor &x = tf.x[batch == 1 ? 0 : 1];
  at::NoGradGuard g;
  at::Tensor y;
  double t0 = now_ns();
  for (long i = 0; i < calls; i++) y = fast ? tf.fast(x) : tf.forward(x, false);
  double t = now_ns() - t0;
  if (checksum) *checksum = abs_sum(y);
  return t;
}
extern "C" double torch_tf_train(int batch, long calls, double *checksum) {
  int k = batch == 1 ? 0 : 1;
  at::Tensor loss;
  double t0 = now_ns();
  for (long i = 0; i < calls; i++) {
    zero_grad(tf.params);
    loss = at::mse_loss(tf.forward(tf.x[k], true), tf.y[k]);
    loss.backward();
    sgd_step(tf.params, 0.01);
  }
  double t = now_ns() - t0;
  if (checksum) *checksum = loss.item<double>() + grad_checksum(tf.params);
  return t;
}

// one isolated op, no grad; see bench/models.c's op list for `which`
extern "C" double torch_op(int which, int batch, long calls) {
  int k = batch == 1 ? 0 : 1;
  Ops &o = ops[k];
  if (!o.ready) o.init(batch);
  at::NoGradGuard g;
  double t0 = now_ns();
  for (long i = 0; i < calls; i++) {
    at::Tensor r;
    switch (which) {
      case 0: r = at::conv2d(o.cx, o.c1w, o.c1b, {1, 1}, {1, 1}); break;
      case 1: r = at::conv2d(o.c2x, o.c2w, o.c2b, {1, 1}, {1, 1}); break;
      case 2: r = at::max_pool2d(o.p1x, {2, 2}); break;
      case 3: r = std::get<0>(at::convolution_backward(o.g2, o.c2x, o.c2w, c10::nullopt, {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 1,
                                                       {true, true, false}));
        break;
      case 4: r = std::get<1>(at::convolution_backward(o.g1, o.cx, o.c1w, c10::nullopt, {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 1,
                                                       {false, true, false}));
        break;
      case 5: r = at::linear(o.fx, o.fw, o.fb); break;
      case 6: r = at::linear(o.tx, o.tw, o.tb); break;
      case 7: r = at::bmm(o.q, o.kt); break;
      case 8: r = at::softmax(o.s, -1); break;
      default: r = at::layer_norm(o.lx, {64}, o.lw, o.lb, 1e-5); break;
    }
  }
  return now_ns() - t0;
}
