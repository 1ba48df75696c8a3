/* tests/test_ops_linalg.c - direct tests of gen/ops/linalg.spec beyond the PyTorch
 * fixtures (tests/cases_linalg.py, run by tests/test_opcases.c). */
