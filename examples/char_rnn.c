/* examples/char_rnn.c - a character-level LSTM learns a sonnet, then writes.
 *
 * Embedding -> LSTM -> Linear, trained with Adam and gradient clipping on
 * random windows of the text below (Shakespeare's sonnet 18, public
 * domain), then sampled one character at a time, carrying the LSTM's state
 * from step to step.
 *   ./build/examples/char_rnn [steps]
 * (exit status 0 when the loss falls below 1 nat per character; a run of
 * fewer than 100 steps is a smoke run: it only has to finish) */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char text[] =
    "Shall I compare thee to a summer's day?\n"
    "Thou art more lovely and more temperate:\n"
    "Rough winds do shake the darling buds of May,\n"
    "And summer's lease hath all too short a date;\n"
    "Sometime too hot the eye of heaven shines,\n"
    "And often is his gold complexion dimm'd;\n"
    "And every fair from fair sometime declines,\n"
    "By chance or nature's changing course untrimm'd;\n"
    "But thy eternal summer shall not fade,\n"
    "Nor lose possession of that fair thou ow'st;\n"
    "Nor shall death brag thou wander'st in his shade,\n"
    "When in eternal lines to time thou grow'st:\n"
    "So long as men can breathe or eyes can see,\n"
    "So long lives this, and this gives life to thee.\n";

enum { SEQ = 32, BATCH = 16, EMBED = 32, HIDDEN = 128 };
static char vocab[96];
static int nvocab;

static int64_t code_of(char ch) { return (int64_t)(strchr(vocab, ch) - vocab); }

/* next-character logits for every position of tokens (N, L) -> (N, L, V); *h, *c: the state in and out (NULL: zeros) */
static ct_tensor *run(ct_module *model, ct_tensor *tokens, ct_tensor **h, ct_tensor **c) {
  ct_tensor *h_in = h ? *h : NULL, *c_in = c ? *c : NULL;
  ct_tensor *out = ct_nn_lstm_forward(ct_module_child(model, "lstm"), ct_module_forward(ct_module_child(model, "embed"), tokens), h_in,
                                      c_in, h, c);
  return ct_module_forward(ct_module_child(model, "head"), out);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 200, step, i, n_params;
  int64_t len = (int64_t)strlen(text);
  ct_rnn_opts ro = ct_rnn_defaults();
  ct_optim_opts adam = ct_adam_defaults(3e-3);
  ct_module *model = ct_module_new("CharRNN", NULL, NULL, NULL);
  ct_tensor *data, *const *params;
  ct_optim *opt;
  double loss_avg = 0;

  for (i = 0; i < len; i++)
    if (!strchr(vocab, text[i])) vocab[nvocab++] = text[i];
  data = ct_empty(CT_DIMS(len), CT_I64);
  for (i = 0; data && i < len; i++) ((int64_t *)ct_data_ptr(data))[i] = code_of(text[i]);
  ct_manual_seed_all(0);
  ro.batch_first = true;
  if (!model || !ct_module_add(model, "embed", ct_nn_embedding(nvocab, EMBED, CT_NN_NO_PADDING_IDX)) ||
      !ct_module_add(model, "lstm", ct_nn_lstm(EMBED, HIDDEN, &ro)) || !ct_module_add(model, "head", ct_nn_linear(HIDDEN, nvocab, true)))
    return fprintf(stderr, "char_rnn: %s\n", ct_last_error_message()), 1;
  params = ct_module_parameters(model, &n_params);
  opt = ct_optim_new(CT_OPTIM_ADAM, n_params, params, &adam);
  printf("%lld characters, %d distinct; %lld parameters\n", (long long)len, nvocab, (long long)ct_module_parameter_numel(model));

  for (step = 1; opt && step <= steps && ct_last_error() == CT_OK; step++) CT_SCOPE {
    /* BATCH random windows: inputs text[s .. s + SEQ), targets text[s + 1 .. s + SEQ] */
    ct_tensor *starts = ct_randint(0, len - SEQ - 1, CT_DIMS(BATCH, 1));
    ct_tensor *pos = ct_add(starts, ct_arange(0, SEQ, 1, CT_I64));
    ct_tensor *x = ct_index(data, 1, (ct_tensor *[]){pos}), *y = ct_index(data, 1, (ct_tensor *[]){ct_add_scalar(pos, ct_int(1))});
    ct_tensor *logits = run(model, x, NULL, NULL);
    ct_tensor *loss = ct_cross_entropy(ct_flatten(logits, 0, 1), ct_flatten(y, 0, 1), NULL, 1, -100, 0);
    ct_optim_zero_grad(opt);
    if (ct_backward(loss) != CT_OK || ct_clip_grad_norm_(n_params, params, 1.0, 2, NULL) != CT_OK || ct_optim_step(opt) != CT_OK) continue;
    loss_avg = step == 1 ? ct_get(loss, 0) : 0.9 * loss_avg + 0.1 * ct_get(loss, 0);
    if (step % 50 == 0) printf("step %4d  loss %.3f\n", step, loss_avg);
  }
  if (!opt || ct_last_error() != CT_OK) return fprintf(stderr, "char_rnn: %s\n", ct_last_error_message()), 1;

  /* sampling at temperature 0.7: the prompt first, then one character at a time */
  ct_module_eval(model);
  printf("---- sample ----\nShall");
  CT_NO_GRAD CT_SCOPE {
    ct_tensor *h = NULL, *c = NULL, *tok = ct_empty(CT_DIMS(1, 5), CT_I64);
    for (i = 0; i < 5; i++) ct_set(tok, i, (double)code_of("Shall"[i]));
    for (i = 0; i < 240; i++) {
      ct_tensor *logits = run(model, tok, &h, &c), *last = ct_select(ct_select(logits, 0, 0), 0, logits ? logits->sizes[1] - 1 : 0);
      ct_tensor *p = ct_softmax(ct_div_scalar(last, ct_float(0.7)), 0, CT_DTYPE_NONE);
      double u = ct_get(ct_rand(CT_DIMS(1)), 0), acc = 0;
      int k;
      if (!p) break;
      k = 0;
      while (k < nvocab - 1 && (acc += ct_get(p, k)) < u) k++;
      putchar(vocab[k]);
      tok = ct_full(CT_DIMS(1, 1), ct_int(k), CT_I64);
    }
  }
  printf("\n----\n");
  ct_optim_free(opt);
  ct_module_free(model);
  ct_release(data);
  return loss_avg < 1.0 || steps < 100 ? 0 : 1;
}
