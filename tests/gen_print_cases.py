#!/usr/bin/python3
"""Generate tests/fixtures/print_cases.h: tensors and the text PyTorch prints for them.

Run with a Python that has torch (Debian's torch 1.13 lives under /usr/bin/python3):

    /usr/bin/python3 tests/gen_print_cases.py

Each case is built here exactly as tests/test_print.c rebuilds it in C (the
same element values, converted to the same dtype, the same shape and the same
transpose), and its expected text is repr(tensor) from torch.
"""
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "print_cases.h")

DTYPES = {
    torch.float32: "CT_F32",
    torch.float64: "CT_F64",
    torch.float16: "CT_F16",
    torch.bfloat16: "CT_BF16",
    torch.int64: "CT_I64",
    torch.int32: "CT_I32",
    torch.uint8: "CT_U8",
    torch.bool: "CT_BOOL",
}

CASES = []


def case(name, values, dtype=torch.float32, shape=None, transpose=None, meta=False):
    """values: a flat list or a tensor (flattened, row-major); shape defaults to 1-D."""
    if isinstance(values, torch.Tensor):
        values = values.flatten().tolist()
    values = list(values)
    if shape is None:
        shape = (len(values),)
    if meta:
        t = torch.empty(shape, dtype=dtype, device="meta")
        flat = []
    else:
        if dtype.is_floating_point:
            base = torch.tensor(values, dtype=torch.float64).to(dtype)
            flat = base.double().tolist()  # the values after rounding to dtype
        else:
            base = torch.tensor(values, dtype=torch.int64).to(dtype)
            flat = base.long().tolist()
        t = base.reshape(shape)
    if transpose is not None:
        t = t.transpose(*transpose)
    CASES.append(dict(name=name, dtype=dtype, shape=tuple(shape), transpose=transpose, meta=meta,
                      values=flat, expected=repr(t)))


def build_cases():
    g = torch.Generator().manual_seed(1234)

    def randn(*shape, scale=1.0):
        return (torch.randn(*shape, generator=g) * scale).float()

    # ---- integer mode (floats that are whole numbers) ----
    case("int_mode_2x2", [1, 2, 3, 4], shape=(2, 2))
    case("int_mode_neg_zero", [-0.0, 1, -2, 30])
    case("int_mode_all_zero", [0, 0, 0])
    case("int_mode_large", [12345678, -3, 0])
    case("int_mode_sci_ratio", [1, 2000])
    case("int_mode_sci_big", [2e8, 3e8])
    # ---- fixed mode, precision 4 ----
    case("fixed_basic", [0.5, 1.25, -3.75])
    case("fixed_rounding", [9.99996, 1.00004, 0.12345])
    case("fixed_with_zero", [0.0, 0.5, -0.0])
    case("fixed_randn_3x4", randn(3, 4), shape=(3, 4))
    case("fixed_ratio_under_1000", [0.001, 0.9])
    case("fixed_big", [99999999.5, 1.5e5])
    # ---- scientific mode ----
    case("sci_ratio", [1e5, 1.0, 2.5])
    case("sci_small", [1e-5, 0.5])
    case("sci_tiny_only", [5e-5, -7e-5])
    case("sci_max", [1.5e8, 2.25e8])
    case("sci_mixed_sign_2x3", [1e-10, -1e10, 3.5, 0.0, -2.75e-3, 6e6], shape=(2, 3))
    case("sci_f64_extreme", [1e300, -1e-300, 2.5], dtype=torch.float64)
    case("sci_magnitudes", [123456.7, 0.001, -42.0])
    # ---- non-finite ----
    case("nan_inf_fixed", [float("nan"), float("inf"), -float("inf"), 1.5])
    case("nan_int_mode", [float("nan"), 1, 2])
    case("nonfinite_only", [float("nan"), float("inf"), -float("inf")])
    case("nan_sci", [float("nan"), 1e-5, 0.0, -float("inf")])
    # ---- integer and bool dtypes ----
    case("int64", [1, -20, 300, 0], dtype=torch.int64)
    case("int64_extremes", [-(2 ** 63), 2 ** 63 - 1, 7], dtype=torch.int64)
    case("int32", [5, -6, 70000], dtype=torch.int32)
    case("uint8_2x3", [0, 1, 2, 253, 254, 255], dtype=torch.uint8, shape=(2, 3))
    case("bool", [1, 0, 1, 1], dtype=torch.bool)
    case("bool_2x2", [0, 0, 1, 0], dtype=torch.bool, shape=(2, 2))
    # ---- other float dtypes ----
    case("f64_fixed", [0.1, -0.2, 1.0 / 3.0], dtype=torch.float64)
    case("f64_int_mode", [1, 2, 3], dtype=torch.float64)
    case("f16", [0.1, 0.2, 65504.0, -1.5], dtype=torch.float16)
    case("f16_int_mode_2x2", [1, -2, 3, 2048], dtype=torch.float16, shape=(2, 2))
    case("bf16", [1.0 / 3.0, 100.5, -7.25], dtype=torch.bfloat16)
    case("bf16_sci", [1e-6, 3e10], dtype=torch.bfloat16)
    # ---- 0-dim ----
    case("scalar_fixed", [3.5], shape=())
    case("scalar_int_mode", [-2.0], shape=())
    case("scalar_zero", [0.0], shape=())
    case("scalar_nan", [float("nan")], shape=())
    case("scalar_sci", [1e-7], shape=())
    case("scalar_int64", [42], dtype=torch.int64, shape=())
    case("scalar_bool", [1], dtype=torch.bool, shape=())
    case("scalar_f64", [2.5], dtype=torch.float64, shape=())
    case("scalar_u8", [200], dtype=torch.uint8, shape=())
    # ---- empty ----
    case("empty_1d", [], shape=(0,))
    case("empty_0x3", [], shape=(0, 3))
    case("empty_2x0x3", [], shape=(2, 0, 3))
    case("empty_int64", [], dtype=torch.int64, shape=(0,))
    case("empty_f64_3x0", [], dtype=torch.float64, shape=(3, 0))
    case("empty_bool", [], dtype=torch.bool, shape=(0,))
    # ---- higher rank and views ----
    case("rank3_2x3x4", list(range(-12, 12)), shape=(2, 3, 4))
    case("rank3_fixed", randn(2, 2, 3), shape=(2, 2, 3))
    case("rank4_2x1x2x2", [0.5 * i for i in range(8)], shape=(2, 1, 2, 2))
    case("transposed_2x3", [0.5 * i for i in range(6)], shape=(2, 3), transpose=(0, 1))
    case("transposed_int_3x4", list(range(12)), dtype=torch.int32, shape=(3, 4), transpose=(0, 1))
    case("transposed_rank3", list(range(24)), shape=(2, 3, 4), transpose=(0, 2))
    case("single_element", [5.0])
    case("column_3x1", [1.5, -2.5, 3.5], shape=(3, 1))
    # ---- line wrapping at linewidth 80 ----
    case("wrap_1d_randn", randn(30))
    case("wrap_2d_randn", randn(3, 20), shape=(3, 20))
    case("wrap_int64", list(range(-25, 25)), dtype=torch.int64)
    case("wrap_fixed_wide", randn(20, scale=1e6))
    case("wrap_sci", [1e5] + randn(19).tolist())
    case("wrap_bool", [i % 3 == 0 for i in range(40)], dtype=torch.bool)
    case("wrap_f64_suffix_newline", randn(16).double(), dtype=torch.float64)
    case("wrap_int32_suffix_same_line", list(range(10)), dtype=torch.int32)
    case("wrap_int32_suffix_newline", list(range(100, 124)), dtype=torch.int32)
    case("wrap_rank3", randn(2, 2, 12), shape=(2, 2, 12))
    # ---- summarisation: numel > 1000, edgeitems 3 ----
    case("summary_1d", [0.5 * i for i in range(2000)])
    case("summary_1d_int", list(range(1001)), dtype=torch.int64)
    vals = [float(i) for i in range(1001)]
    vals[500] = 1e9  # hidden by the summary: must not switch to scientific mode
    vals[3] = 0.25  # hidden as well: must not leave integer mode
    case("summary_hidden_values", vals)
    case("summary_2d_40x40", list(range(1600)), shape=(40, 40))
    case("summary_2d_3x400", randn(3, 400), shape=(3, 400))
    case("summary_2d_400x3", randn(400, 3), shape=(400, 3))
    case("summary_3d_12x12x12", [i * 0.25 - 100 for i in range(1728)], shape=(12, 12, 12))
    case("summary_transposed", list(range(1200)), shape=(30, 40), transpose=(0, 1))
    case("summary_bool", [i % 2 for i in range(1024)], dtype=torch.bool, shape=(32, 32))
    case("summary_f16", [i * 0.125 for i in range(1100)], dtype=torch.float16)
    case("summary_sci", randn(50, 50, scale=1e5), shape=(50, 50))
    # ---- meta tensors ----
    case("meta_2x3", [], shape=(2, 3), meta=True)
    case("meta_int64", [], dtype=torch.int64, shape=(4,), meta=True)
    case("meta_f16_scalar", [], dtype=torch.float16, shape=(), meta=True)
    case("meta_empty", [], shape=(0, 5), meta=True)


# Tensors the C tests build with library calls (ct_arange, ct_reshape, ct_to_dtype...)
# rather than from an array: name -> the same tensor in torch.
def api_cases():
    f16src = torch.tensor([0.1, 0.2, 65504.0, -1.5], dtype=torch.float32)
    return [
        ("arange_2x3", torch.arange(0.0, 6.0, 1.0, dtype=torch.float32).reshape(2, 3)),
        ("arange_2x3_t", torch.arange(0.0, 6.0, 1.0, dtype=torch.float32).reshape(2, 3).transpose(0, 1)),
        ("arange_int64", torch.arange(0, 10, 1, dtype=torch.int64)),
        ("arange_fixed", torch.arange(-1.0, 1.0, 0.25, dtype=torch.float32)),
        ("arange_summary_f64", torch.arange(0.0, 1.0, 0.0005, dtype=torch.float64)),
        ("to_f16", f16src.to(torch.float16)),
        ("to_bf16", f16src.to(torch.bfloat16)),
        ("to_f64", f16src.to(torch.float64)),
    ]


def c_string(s):
    out = []
    for line in s.split("\n"):
        out.append(line.replace("\\", "\\\\").replace('"', '\\"'))
    parts = ['"' + p + ('\\n"' if i < len(out) - 1 else '"') for i, p in enumerate(out)]
    return "\n    ".join(parts)


def c_double(x):
    if math.isnan(x):
        return "NAN"
    if math.isinf(x):
        return "INFINITY" if x > 0 else "-INFINITY"
    r = repr(float(x))
    if r in ("0.0", "-0.0"):
        return r
    return r


def c_int64(x):
    if x == -(2 ** 63):
        return "(-INT64_C(9223372036854775807) - 1)"
    return "INT64_C(%d)" % x


def wrap_items(items, per_line=8, indent="    "):
    lines = []
    for i in range(0, len(items), per_line):
        lines.append(indent + ", ".join(items[i:i + per_line]) + ",")
    return "\n".join(lines)


def main():
    build_cases()
    out = []
    out.append("/* Generated by tests/gen_print_cases.py with torch %s; do not edit. */" % torch.__version__)
    out.append("/* Regenerate: /usr/bin/python3 tests/gen_print_cases.py */")
    out.append("#ifndef CT_TEST_PRINT_CASES_H")
    out.append("#define CT_TEST_PRINT_CASES_H")
    out.append("")
    out.append("typedef struct print_case {")
    out.append("  const char *name;")
    out.append("  ct_dtype dtype;")
    out.append("  int ndim;")
    out.append("  int64_t sizes[8];")
    out.append("  int transpose0, transpose1; /* dims swapped after building; -1: none */")
    out.append("  int meta;                   /* an uninitialised meta tensor */")
    out.append("  int64_t numel;")
    out.append("  const double *fvals;        /* row-major values (float dtypes) */")
    out.append("  const int64_t *ivals;       /* row-major values (integer and bool dtypes) */")
    out.append("  const char *expected;       /* repr(tensor) in PyTorch */")
    out.append("} print_case;")
    out.append("")
    for i, c in enumerate(CASES):
        if not c["values"]:
            continue
        if c["dtype"].is_floating_point:
            out.append("static const double print_case_%d_values[] = {" % i)
            out.append(wrap_items([c_double(v) for v in c["values"]]))
        else:
            out.append("static const int64_t print_case_%d_values[] = {" % i)
            out.append(wrap_items([c_int64(int(v)) for v in c["values"]]))
        out.append("};")
    out.append("")
    out.append("static const print_case print_cases[] = {")
    for i, c in enumerate(CASES):
        shape = c["shape"]
        sizes = "{" + ", ".join(str(s) for s in shape) + "}" if shape else "{0}"
        numel = 1
        for s in shape:
            numel *= s
        tr = c["transpose"] or (-1, -1)
        has = bool(c["values"])
        fl = c["dtype"].is_floating_point
        fv = "print_case_%d_values" % i if has and fl else "NULL"
        iv = "print_case_%d_values" % i if has and not fl else "NULL"
        out.append("  {\"%s\", %s, %d, %s, %d, %d, %d, %d, %s, %s,\n    %s}," % (
            c["name"], DTYPES[c["dtype"]], len(shape), sizes, tr[0], tr[1], int(c["meta"]), numel, fv, iv,
            c_string(c["expected"])))
    out.append("};")
    out.append("")
    out.append("/* repr of tensors the tests build with library calls */")
    for name, t in api_cases():
        out.append("static const char print_expected_%s[] =\n    %s;" % (name, c_string(repr(t))))
    out.append("")
    out.append("#endif /* CT_TEST_PRINT_CASES_H */")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(out) + "\n")
    print("wrote %d cases to %s" % (len(CASES), os.path.relpath(OUT)), file=sys.stderr)


if __name__ == "__main__":
    main()
