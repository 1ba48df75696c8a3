#!/usr/bin/python3
"""tests/gen_safetensors_fixtures.py - safetensors files written in Python for tests/test_safetensors.c.

Run with Debian's python3-torch (PyTorch 1.13): /usr/bin/python3 tests/gen_safetensors_fixtures.py
PyTorch 1.13 has no safetensors package, so the format is written here by
hand (struct, json), following the reference library (huggingface/safetensors,
`serialize`): tensors sorted by the format's dtype order, descending, then by
name; offsets contiguous from 0; compact JSON, "__metadata__" first (its keys
sorted), padded with spaces to a multiple of 8. The tensors' bytes come from
torch (numpy's tobytes, little-endian). Writes into tests/fixtures/safetensors/:

  all_dtypes.safetensors  every ctorch dtype (special values: -0, inf, nan,
                          subnormals, integer limits), a 0-dim and two
                          zero-size tensors, metadata with escapes and
                          non-ASCII text; the C test compares each tensor's
                          bytes with tests/fixtures/safetensors_cases.h
  unaligned.safetensors   as an older or hand-rolled writer may do: an
                          unpadded, indented header with \\u escapes
                          (surrogate pairs too), fields in another order and
                          an unknown field, tensors in name order so that an
                          F32 sits at an odd offset (the C reader must copy
                          it), an I16 tensor (no ctorch dtype) and a BOOL
                          tensor holding the byte 2
  expected_c.safetensors  the layout ct_safetensors_save must reproduce byte
                          for byte from tensors the C test builds itself

and tests/fixtures/safetensors_cases.h (the expected tensors and metadata).

  --check FILE   reads FILE (e.g. one ct_safetensors_save wrote) with the
                 independent reader below and checks that it holds the
                 tensors of expected_c.safetensors in the reference layout.
"""
import json
import os
import struct
import sys

import numpy as np
import torch

# the format's dtypes in the reference library's enum order (its layout rank)
RANK = ["BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0", "I16", "U16", "F16", "BF16", "I32",
        "U32", "F32", "C64", "F64", "I64", "U64"]
TORCH = {torch.bool: "BOOL", torch.uint8: "U8", torch.int8: "I8", torch.int16: "I16", torch.float16: "F16",
         torch.bfloat16: "BF16", torch.int32: "I32", torch.float32: "F32", torch.float64: "F64", torch.int64: "I64"}
CT = {"BOOL": "CT_BOOL", "U8": "CT_U8", "F16": "CT_F16", "BF16": "CT_BF16", "I32": "CT_I32", "F32": "CT_F32",
      "F64": "CT_F64", "I64": "CT_I64"}


def tensor_bytes(t):
    t = t.contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().astype("<i2").tobytes()
    a = t.numpy()
    return a.astype(a.dtype.newbyteorder("<")).tobytes()


def serialize(tensors, metadata=None):
    """tensors: list of (name, dtype string, shape, bytes). The reference layout."""
    order = sorted(tensors, key=lambda x: (-RANK.index(x[1]), x[0].encode("utf-8")))
    header, at = {}, 0
    if metadata:
        header["__metadata__"] = {k: metadata[k] for k in sorted(metadata, key=lambda k: k.encode("utf-8"))}
    for name, dt, shape, data in order:
        header[name] = {"dtype": dt, "shape": list(shape), "data_offsets": [at, at + len(data)]}
        at += len(data)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(d for _, _, _, d in order)


def of(name, t):
    return (name, TORCH[t.dtype], tuple(t.shape), tensor_bytes(t))


def all_dtypes():
    inf, nan = float("inf"), float("nan")
    ts = [
        of("f32", torch.arange(6, dtype=torch.float32).reshape(2, 3) * 0.5 - 1.25),
        of("f64", torch.tensor([1 / 3, -2.5e300, 5e-324], dtype=torch.float64)),
        of("f16", torch.tensor([[1.5, -0.0], [65504.0, inf]], dtype=torch.float16)),
        of("bf16", torch.tensor([1.0, -3.140625, nan, 1e-40, -inf], dtype=torch.bfloat16)),
        of("i64", torch.tensor([[-2**63, -1], [0, 2**63 - 1]], dtype=torch.int64)),
        of("i32", torch.tensor([-2**31, 7, 2**31 - 1], dtype=torch.int32)),
        of("u8", torch.tensor([0, 1, 128, 255], dtype=torch.uint8)),
        of("bool", torch.tensor([[True, False, True], [False, False, True]])),
        of("scalar", torch.tensor(3.5, dtype=torch.float32)),
        of("empty", torch.zeros(0, 3, dtype=torch.float32)),
        of("empty_i64", torch.zeros(2, 0, dtype=torch.int64)),
        of("layer.0/w\u00e9", torch.tensor([[-1, 2]], dtype=torch.int32)),
    ]
    meta = {"format": "pt", "note": "quote \" backslash \\ newline \n tab \t ctrl \x01 \u00e9 \u2713 \U0001F600", "empty": ""}
    return ts, meta


def unaligned():
    """An unpadded, indented header, tensors in name order; returns the file and the tensors it holds."""
    a = torch.tensor([7, 8, 9], dtype=torch.uint8)
    b = torch.tensor([1.25, -2.0], dtype=torch.float32)
    c = torch.tensor([-300, 300], dtype=torch.int16)
    d = bytes([0, 1, 2])
    e = torch.tensor([[1.5], [-0.25]], dtype=torch.float64)
    name_b = "b_f32\u00e9\U0001F600"
    parts = [("a_u8", "U8", [3], tensor_bytes(a)), (name_b, "F32", [2], tensor_bytes(b)),
             ("c_i16", "I16", [2], tensor_bytes(c)), ("d_bool", "BOOL", [3], d), ("e_f64", "F64", [2, 1], tensor_bytes(e))]
    header, at = {}, 0
    for i, (name, dt, shape, data) in enumerate(parts):
        if i % 2:  # fields in another order, and an unknown field the reader must skip
            header[name] = {"data_offsets": [at, at + len(data)], "extra": {"nested": [1, -2.5e3, True, None, "s"]},
                            "shape": shape, "dtype": dt}
        else:
            header[name] = {"dtype": dt, "shape": shape, "data_offsets": [at, at + len(data)]}
        at += len(data)
    header["__metadata__"] = {"writer": "hand \u00e9\U0001F600"}
    text = json.dumps(header, indent=1, ensure_ascii=True).encode("utf-8")
    while (8 + len(text) + 3) % 4 == 0 or (8 + len(text) + 18) % 8 == 0:
        text += b"\n"  # (whitespace) so that the F32 and the F64 sit at misaligned file offsets
    blob = struct.pack("<Q", len(text)) + text + b"".join(p[3] for p in parts)
    return blob, parts, header["__metadata__"]


def expected_c():
    """What tests/test_safetensors.c builds and saves (keep the two in step)."""
    w = torch.arange(6, dtype=torch.float32).reshape(2, 3) * 0.5 - 1
    ts = [
        of("weight", w),
        of("weight_t", w.t()),
        of("bias", torch.tensor([0.25, -0.5, 1.0], dtype=torch.float64)),
        of("step", torch.tensor(1000000007, dtype=torch.int64)),
        of("ids", torch.tensor([-2, -1, 0, 2**31 - 1], dtype=torch.int32)),
        of("half", torch.tensor([0.5, -2.0], dtype=torch.float16)),
        of("brain", torch.tensor([1.0, -0.5], dtype=torch.bfloat16)),
        of("pixels", torch.tensor([[0, 255], [17, 3]], dtype=torch.uint8)),
        of("mask", torch.tensor([True, False, True])),
        of("none", torch.zeros(0, dtype=torch.float32)),
    ]
    meta = {"format": "pt", "b": "x\"y\\z\n\t\x01\u00e9"}
    return ts, meta


def c_string(s):
    out = []
    for byte in s.encode("utf-8"):
        ch = chr(byte)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif 0x20 <= byte < 0x7F and ch != "?":
            out.append(ch)
        else:
            out.append("\\%03o" % byte)
    return '"' + "".join(out) + '"'


def c_bytes(b):
    return "{" + ", ".join("0x%02x" % x for x in b) + "}" if b else "{0}"


def header_file(sets):
    lines = ["/* tests/fixtures/safetensors_cases.h - GENERATED by tests/gen_safetensors_fixtures.py with PyTorch %s; do not edit. */"
             % torch.__version__,
             "typedef struct st_case_tensor {",
             "  const char *name;",
             "  const char *format_dtype;",
             "  int dtype;        /* ct_dtype, CT_DTYPE_NONE for a format dtype ctorch lacks */",
             "  int ndim;",
             "  int64_t sizes[4];",
             "  size_t nbytes;",
             "  const unsigned char *bytes; /* as stored in the file (little-endian) */",
             "} st_case_tensor;",
             "typedef struct st_case_meta {",
             "  const char *key, *value;",
             "} st_case_meta;"]
    for tag, tensors, meta in sets:
        for i, (_, _, _, data) in enumerate(tensors):
            lines.append("static const unsigned char st_%s_bytes%d[] = %s;" % (tag, i, c_bytes(data)))
        lines.append("static const st_case_tensor st_%s_tensors[] = {" % tag)
        for i, (name, dt, shape, data) in enumerate(tensors):
            sizes = ", ".join(str(s) for s in shape) if shape else "0"
            lines.append("    {%s, \"%s\", %s, %d, {%s}, %d, st_%s_bytes%d}," % (c_string(name), dt, CT.get(dt, "CT_DTYPE_NONE"),
                                                                              len(shape), sizes, len(data), tag, i))
        lines.append("};")
        lines.append("static const st_case_meta st_%s_meta[] = {" % tag)
        for k in sorted(meta, key=lambda k: k.encode("utf-8")):
            lines.append("    {%s, %s}," % (c_string(k), c_string(meta[k])))
        lines.append("};")
    return "\n".join(lines) + "\n"


def read(blob):
    """An independent reader: (header dict, data bytes)."""
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    return header, blob[8 + n:], n


def check(path):
    with open(path, "rb") as f:
        blob = f.read()
    header, data, n = read(blob)
    ts, meta = expected_c()
    want = {name: (dt, list(shape), b) for name, dt, shape, b in ts}
    problems = []
    if n % 8:
        problems.append("header length %d is not a multiple of 8" % n)
    if header.get("__metadata__") != meta:
        problems.append("metadata %r, expected %r" % (header.get("__metadata__"), meta))
    got = {k: v for k, v in header.items() if k != "__metadata__"}
    if set(got) != set(want):
        problems.append("tensors %s, expected %s" % (sorted(got), sorted(want)))
    for name, info in got.items():
        if name not in want:
            continue
        dt, shape, b = want[name]
        begin, end = info["data_offsets"]
        if info["dtype"] != dt or info["shape"] != shape or data[begin:end] != b:
            problems.append("tensor %s: %s %s %r, expected %s %s %r" % (name, info["dtype"], info["shape"], data[begin:end], dt, shape, b))
    if blob != serialize(ts, meta):
        problems.append("the bytes differ from the reference layout")
    for p in problems:
        print("FAIL", p)
    print("%s: %s" % (path, "ok" if not problems else "%d problems" % len(problems)))
    return not problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(0 if check(sys.argv[2]) else 1)
    out = os.path.join(here, "fixtures", "safetensors")
    os.makedirs(out, exist_ok=True)
    ts, meta = all_dtypes()
    with open(os.path.join(out, "all_dtypes.safetensors"), "wb") as f:
        f.write(serialize(ts, meta))
    blob, parts, umeta = unaligned()
    with open(os.path.join(out, "unaligned.safetensors"), "wb") as f:
        f.write(blob)
    cts, cmeta = expected_c()
    with open(os.path.join(out, "expected_c.safetensors"), "wb") as f:
        f.write(serialize(cts, cmeta))
    # the reference library's own test vectors, as a cross-check of serialize()
    attn = torch.arange(6, dtype=torch.float32)
    assert serialize([("attn.0", "F32", (1, 2, 3), tensor_bytes(attn))])[:8] == struct.pack("<Q", 64)
    assert serialize([], {"framework": "pt"}) == struct.pack("<Q", 40) + b'{"__metadata__":{"framework":"pt"}}' + b" " * 5
    sorted_names = sorted(ts, key=lambda x: x[0].encode("utf-8"))
    with open(os.path.join(here, "fixtures", "safetensors_cases.h"), "w") as f:
        f.write(header_file([("all", sorted_names, meta), ("unaligned", sorted(parts, key=lambda x: x[0].encode("utf-8")), umeta)]))


if __name__ == "__main__":
    main()
