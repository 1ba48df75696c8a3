/* tests/test_ops_nn.c - direct tests of gen/ops/nn.spec beyond the PyTorch
 * fixtures (tests/cases_nn.py, run by tests/test_opcases.c). */
