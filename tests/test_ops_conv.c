/* tests/test_ops_conv.c - direct tests of gen/ops/conv.spec beyond the PyTorch
 * fixtures (tests/cases_conv.py, run by tests/test_opcases.c). */
