/* tests/test_ops_binary.c - direct tests of gen/ops/binary.spec beyond the PyTorch
 * fixtures (tests/cases_binary.py, run by tests/test_opcases.c). */
