/* examples/train.c - an MLP (2-64-64-3) learns three interleaved spirals.
 *
 * nn modules, AdamW with a cosine schedule, shuffled mini-batches; a
 * progress line every 25 epochs (step, loss, accuracy, steps/s); the
 * weights saved as safetensors (examples/infer.c runs them) and the loss
 * curve written as an SVG.
 *   make examples && ./build/examples/train [weights.safetensors] [loss.svg] [epochs, default 200]
 * (exit status 0 when the accuracy reaches 95%) */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { PER_CLASS = 300, CLASSES = 3, N = PER_CLASS * CLASSES, BATCH = 64, MAX_EPOCHS = 1000 };

static double now(void) { return (double)clock() / CLOCKS_PER_SEC; } /* processor time: the program is single-threaded */

/* class c: r in [0, 1), angle 4 (c + r) + noise; the data is made with ctorch's generator */
static void make_spirals(ct_tensor **x, ct_tensor **y) {
  ct_tensor *noise = ct_randn(CT_DIMS(N));
  *x = ct_empty(CT_DIMS(N, 2), CT_F32), *y = ct_empty(CT_DIMS(N), CT_I64);
  for (int64_t i = 0; i < N; i++) {
    int64_t cls = i / PER_CLASS; /* (integer division: the class) */
    double r = (double)(i % PER_CLASS) / PER_CLASS, t = 4.0 * ((double)cls + r) + 0.2 * ct_get(noise, i);
    ct_set(*x, 2 * i, r * sin(t)), ct_set(*x, 2 * i + 1, r * cos(t)), ct_set(*y, i, (double)cls);
  }
  ct_release(noise);
}

static double accuracy(ct_module *net, ct_tensor *x, ct_tensor *y) {
  double acc = 0;
  ct_module_eval(net);
  CT_NO_GRAD CT_SCOPE { acc = ct_get(ct_mean(ct_to_dtype(ct_eq(ct_argmax(ct_module_forward(net, x), 1, false), y), CT_F32)), 0); }
  ct_module_train(net, true);
  return acc;
}

static void write_svg(const char *path, const double *loss, int n) {
  FILE *f = fopen(path, "w");
  double top = 1e-12;
  int i;
  for (i = 0; f && i < n; i++) top = loss[i] > top ? loss[i] : top;
  if (f) fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"360\">\n<rect width=\"640\" height=\"360\" fill=\"white\"/>\n"
             "<text x=\"40\" y=\"24\" font-family=\"sans-serif\">training loss per epoch (max %.3f)</text>\n"
             "<polyline fill=\"none\" stroke=\"steelblue\" stroke-width=\"2\" points=\"", top);
  for (i = 0; f && i < n; i++) fprintf(f, "%.1f,%.1f ", 40 + 580.0 * i / (n - 1), 340 - 300 * loss[i] / top);
  if (f) fprintf(f, "\"/>\n<line x1=\"40\" y1=\"340\" x2=\"620\" y2=\"340\" stroke=\"black\"/>\n</svg>\n"), fclose(f);
}

int main(int argc, char **argv) {
  const char *weights = argc > 1 ? argv[1] : "build/spiral.safetensors", *svg = argc > 2 ? argv[2] : "build/spiral_loss.svg";
  int epochs = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 200;
  static double epoch_loss[MAX_EPOCHS];
  ct_tensor *x, *y, *const *params;
  ct_module *net;
  ct_optim *opt;
  ct_optim_opts opts = ct_adamw_defaults(1e-2);
  int n_params, epoch, step = 0;
  double start = now(), acc;

  if (epochs < 2 || epochs > MAX_EPOCHS) return fprintf(stderr, "train: epochs must be in [2, %d]\n", MAX_EPOCHS), 1;
  ct_manual_seed_all(0);
  make_spirals(&x, &y);
  net = ct_nn_sequential(5, (ct_module *[]){ct_nn_linear(2, 64, true), ct_nn_relu(), ct_nn_linear(64, 64, true), ct_nn_relu(),
                                            ct_nn_linear(64, CLASSES, true)});
  params = ct_module_parameters(net, &n_params);
  opt = params ? ct_optim_new(CT_OPTIM_ADAMW, n_params, params, &opts) : NULL;
  if (!opt) return fprintf(stderr, "train: %s\n", ct_last_error_message()), 1;

  for (epoch = 0; epoch < epochs; epoch++) {
    ct_optim_set_lr(opt, 0, ct_lr_cosine(1e-2, epoch, epochs, 1e-4));
    epoch_loss[epoch] = 0;
    CT_SCOPE {
      ct_tensor *perm = ct_randperm(N);
      int64_t at;
      for (at = 0; at < N && ct_last_error() == CT_OK; at += BATCH, step++) CT_SCOPE { /* (a break here would only leave the scope) */
        ct_tensor *idx = ct_narrow(perm, 0, at, at + BATCH < N ? BATCH : N - at);
        ct_tensor *loss = ct_cross_entropy(ct_module_forward(net, ct_index_select(x, 0, idx)), ct_index_select(y, 0, idx), NULL, 1, -100, 0);
        ct_optim_zero_grad(opt);
        if (ct_backward(loss) == CT_OK && ct_optim_step(opt) == CT_OK) epoch_loss[epoch] += ct_get(loss, 0) * (double)idx->numel / N;
      }
    }
    if (ct_last_error() != CT_OK) return fprintf(stderr, "train: %s\n", ct_last_error_message()), 1;
    if ((epoch + 1) % 25 == 0 || epoch + 1 == epochs)
      printf("epoch %3d  step %5d  loss %.4f  accuracy %5.1f%%  %6.0f steps/s\n", epoch + 1, step, epoch_loss[epoch],
             100 * accuracy(net, x, y), step / (now() - start));
  }
  acc = accuracy(net, x, y);
  printf("trained %d parameters in %.2f s: accuracy %.1f%%\n", (int)ct_module_parameter_numel(net), now() - start, 100 * acc);

  if (ct_module_save(net, weights) != CT_OK) return fprintf(stderr, "train: %s\n", ct_last_error_message()), 1;
  write_svg(svg, epoch_loss, epochs);
  printf("wrote %s and %s\n", weights, svg);
  ct_optim_free(opt), ct_module_free(net), ct_release(x), ct_release(y);
  return acc > 0.95 ? 0 : 1;
}
