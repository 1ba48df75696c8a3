/* tests/test_ops_shape.c - direct tests of gen/ops/shape.spec beyond the PyTorch
 * fixtures (tests/cases_shape.py, run by tests/test_opcases.c). */
