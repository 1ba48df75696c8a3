// bench/blis_torch.cpp - the libtorch side of bench/blis.c: the same MLP
// (32 -> 64 -> 64 -> 8, ReLU, f32) forward under NoGradGuard and training
// step (MSE, backward, SGD with p -= 0.01 * grad, grads zeroed), written
// the way a libtorch user would (at::addmm for each layer). C linkage; each
// run returns elapsed ns for `calls` calls. torch_blis_info says which BLAS
// libtorch was built for and which BLAS library is mapped into the process
// after a matmul ran (libblas.so.3 -> BLIS once libblis-dev is installed).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <ATen/core/grad_mode.h>
#include <torch/version.h>

#include <time.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

namespace {
int cpu_clock = 0;
double now_ns() {
  struct timespec ts;
  clock_gettime(cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
struct Model {
  at::Tensor w[3], b[3], x[2], y[2];
  bool ready = false;
  void init() {
    if (ready) return;
    auto o = at::TensorOptions().dtype(at::kFloat);
    int dims[4] = {32, 64, 64, 8};
    for (int i = 0; i < 3; i++) {
      w[i] = (at::randn({dims[i], dims[i + 1]}, o) * 0.1).requires_grad_(true);
      b[i] = (at::randn({dims[i + 1]}, o) * 0.1).requires_grad_(true);
    }
    x[0] = at::randn({1, 32}, o), x[1] = at::randn({64, 32}, o);
    y[0] = at::randn({1, 8}, o), y[1] = at::randn({64, 8}, o);
    ready = true;
  }
  at::Tensor forward(const at::Tensor &in) {
    at::Tensor h = at::relu(at::addmm(b[0], in, w[0]));
    h = at::relu(at::addmm(b[1], h, w[1]));
    return at::addmm(b[2], h, w[2]);
  }
} model;
std::string info;
}  // namespace

extern "C" void torch_blis_threads(int n) { at::set_num_threads(n); }
extern "C" void torch_blis_clock(int cpu) { cpu_clock = cpu; }

extern "C" const char *torch_blis_info(void) {
  model.init();
  {
    at::NoGradGuard g;
    at::Tensor a = at::randn({256, 256});
    at::Tensor c = at::mm(a, a);  // makes libtorch resolve its BLAS
    (void)c;
  }
  std::set<std::string> libs;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    auto p = line.find('/');
    if (p == std::string::npos) continue;
    std::string path = line.substr(p);
    if (path.find("blas") != std::string::npos || path.find("blis") != std::string::npos ||
        path.find("mkl") != std::string::npos || path.find("lapack") != std::string::npos)
      libs.insert(path);
  }
  std::string cfg = at::show_config(), blas = "?";
  auto q = cfg.find("BLAS_INFO=");
  if (q != std::string::npos) blas = cfg.substr(q + 10, cfg.find_first_of(",\n", q) - q - 10);
  info = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
         std::to_string(TORCH_VERSION_PATCH) + ", built with BLAS_INFO=" + blas + ", BLAS mapped:";
  for (const auto &l : libs) info += " " + l;
  return info.c_str();
}

extern "C" double torch_mlp_forward(int batch, long calls) {
  model.init();
  const at::Tensor &x = model.x[batch == 1 ? 0 : 1];
  at::NoGradGuard g;
  double t0 = now_ns();
  for (long i = 0; i < calls; i++) {
    at::Tensor y = model.forward(x);
    (void)y;
  }
  return now_ns() - t0;
}

extern "C" double torch_mlp_train(int batch, long calls) {
  model.init();
  int k = batch == 1 ? 0 : 1;
  double t0 = now_ns();
  for (long i = 0; i < calls; i++) {
    at::Tensor d = model.forward(model.x[k]) - model.y[k];
    at::Tensor loss = (d * d).mean();
    loss.backward();
    at::NoGradGuard g;
    for (int j = 0; j < 3; j++) {
      model.w[j].sub_(model.w[j].grad(), 0.01);
      model.b[j].sub_(model.b[j].grad(), 0.01);
      model.w[j].mutable_grad().zero_();
      model.b[j].mutable_grad().zero_();
    }
  }
  return now_ns() - t0;
}

// The MLP as PyTorch users write it: nn.Linear's layout (weights [out][in]),
// F.linear, F.mse_loss, SGD (p -= 0.01 * grad) with zero_grad(set_to_none).
namespace {
struct LinearModel {
  at::Tensor w[3], b[3];
  bool ready = false;
  void init() {
    if (ready) return;
    auto o = at::TensorOptions().dtype(at::kFloat);
    int dims[4] = {32, 64, 64, 8};
    for (int i = 0; i < 3; i++) {
      w[i] = (at::randn({dims[i + 1], dims[i]}, o) * 0.1).requires_grad_(true);
      b[i] = (at::randn({dims[i + 1]}, o) * 0.1).requires_grad_(true);
    }
    ready = true;
  }
  at::Tensor forward(const at::Tensor &in) {
    at::Tensor h = at::relu(at::linear(in, w[0], b[0]));
    h = at::relu(at::linear(h, w[1], b[1]));
    return at::linear(h, w[2], b[2]);
  }
} lmodel;
}  // namespace

extern "C" double torch_linear_train(int batch, long calls) {
  model.init();
  lmodel.init();
  int k = batch == 1 ? 0 : 1;
  double t0 = now_ns();
  for (long i = 0; i < calls; i++) {
    for (int j = 0; j < 3; j++) lmodel.w[j].mutable_grad().reset(), lmodel.b[j].mutable_grad().reset();
    at::Tensor loss = at::mse_loss(lmodel.forward(model.x[k]), model.y[k]);
    loss.backward();
    at::NoGradGuard g;
    for (int j = 0; j < 3; j++) {
      lmodel.w[j].add_(lmodel.w[j].grad(), -0.01);
      lmodel.b[j].add_(lmodel.b[j].grad(), -0.01);
    }
  }
  return now_ns() - t0;
}

extern "C" double torch_linear_forward(int batch, long calls) {
  model.init();
  lmodel.init();
  const at::Tensor &x = model.x[batch == 1 ? 0 : 1];
  at::NoGradGuard g;
  double t0 = now_ns();
  for (long i = 0; i < calls; i++) {
    at::Tensor y = lmodel.forward(x);
    (void)y;
  }
  return now_ns() - t0;
}

// 1M-element f32 activations and the softmax family (1024 rows of 1024):
// which 0 exp, 1 sigmoid, 2 tanh, 3 softmax(dim=-1), 4 log_softmax(dim=-1).
extern "C" double torch_act(int which, long calls) {
  static at::Tensor x;
  if (!x.defined()) x = at::randn({1024, 1024}, at::TensorOptions().dtype(at::kFloat));
  at::NoGradGuard g;
  double t0 = now_ns();
  for (long i = 0; i < calls; i++) {
    at::Tensor r;
    switch (which) {
      case 0: r = at::exp(x); break;
      case 1: r = at::sigmoid(x); break;
      case 2: r = at::tanh(x); break;
      case 3: r = at::softmax(x, -1); break;
      default: r = at::log_softmax(x, -1); break;
    }
  }
  return now_ns() - t0;
}
