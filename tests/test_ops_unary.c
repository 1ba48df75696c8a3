/* tests/test_ops_unary.c - direct tests of gen/ops/unary.spec beyond the PyTorch
 * fixtures (tests/cases_unary.py, run by tests/test_opcases.c). */
