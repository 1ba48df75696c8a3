/* tests/test_opcases.c - every op against PyTorch: the cases written by
 * tests/cases_AREA.py (tests/opcases.py) into tests/fixtures/cases_AREA.h. */
#include "fixtures/cases_unary.h"
#include "fixtures/cases_binary.h"
#include "fixtures/cases_reduce.h"
#include "fixtures/cases_linalg.h"
#include "fixtures/cases_shape.h"
#include "fixtures/cases_nn.h"
#include "fixtures/cases_conv.h"
#include "fixtures/cases_random.h"
