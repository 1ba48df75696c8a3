/* tests/test_ops_random.c - direct tests of gen/ops/random.spec beyond the PyTorch
 * fixtures (tests/cases_random.py, run by tests/test_opcases.c). */
