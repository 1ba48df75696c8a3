/* tests/test_ops_reduce.c - direct tests of gen/ops/reduce.spec beyond the PyTorch
 * fixtures (tests/cases_reduce.py, run by tests/test_opcases.c). */
