# tests/php/npy_differential.py: the corpus of npy_differential.phpt. Writes valid .npy files
# in every descr spelling, version, byte order and layout, then header mutations (every byte of
# a few valid headers replaced by a few values, duplicated, reordered and extra keys, odd spacing,
# comments, 'L' suffixes, strings, numbers) and preamble corruptions; asks NumPy (np.load with
# default arguments) about each and writes manifest.tsv: name, verdict, detail.
#   verdict "load": detail = dtype name, shape (json) and md5 of the C-order little-endian bytes
#   verdict "refuse": NumPy raised; detail = the exception
#   verdict "skip": NumPy loads what gtc refuses by design (detail says why); gtc must throw
# Usage: /usr/bin/python3 npy_differential.py DIR
import hashlib, json, os, sys, warnings
import numpy as np

warnings.simplefilter('ignore')
out = sys.argv[1]
OURS = {'bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16', 'float32',
        'float64'}
files = []


def preamble(h, ver):
    if ver[0] == 1:
        return b'\x93NUMPY' + bytes(ver) + len(h).to_bytes(2, 'little')
    return b'\x93NUMPY' + bytes(ver) + len(h).to_bytes(4, 'little')


def padded(text, ver=(1, 0), enc='latin1'):
    h = text.encode(enc)
    pre = 10 if ver[0] == 1 else 12
    pad = (64 - (pre + len(h) + 1) % 64) % 64
    return h + b' ' * pad + b'\n'


def add(name, raw):
    files.append((name, raw))


def npy(text, data, ver=(1, 0), pad=True):
    h = padded(text, ver, 'utf8' if ver[0] == 3 else 'latin1') if pad else text
    if isinstance(h, str):
        h = h.encode('utf8' if ver[0] == 3 else 'latin1')
    return preamble(h, ver) + h + data


# ---- valid files: every descr spelling NumPy might accept, both byte orders, C and F order
codes = ['?', 'b', 'B', 'h', 'H', 'i', 'I', 'l', 'L', 'q', 'Q', 'p', 'P', 'f', 'd', 'e', 'g', 'F', 'D', 'c',
         'b1', 'i1', 'u1', 'i2', 'u2', 'i4', 'u4', 'i8', 'u8', 'f2', 'f4', 'f8', 'f16', 'c8', 'i16', 'b2', 'u3',
         'U1', 'S1', 'O', 'V4', 'M8', 'm8']
names = ['bool', 'bool_', 'bool8', 'int8', 'byte', 'uint8', 'ubyte', 'int16', 'short', 'uint16', 'ushort',
         'int32', 'intc', 'uint32', 'uintc', 'int64', 'int', 'int_', 'int0', 'intp', 'long', 'longlong',
         'uint64', 'uint', 'uint0', 'uintp', 'ulong', 'ulonglong', 'float32', 'single', 'float64', 'float',
         'double', 'float_', 'half', 'float16', 'Float32', 'INT8', 'complex', 'object', 'str', 'f4 ', ' f4',
         'f4,', '2f4', '(2,)f4', 'f4\x00', '<float32', '>int8', 'i4i4', '']
spellings = [o + c for c in codes for o in ['', '<', '>', '=', '|']] + names
for k, sp in enumerate(spellings):
    try:
        dt = np.dtype(sp)
        vals = np.arange(6).astype(dt) if dt.kind in 'biuf' and dt.names is None else None
    except Exception:
        vals = None
    data = vals.tobytes() if vals is not None else bytes(48)
    add(f'descr_{k}', npy("{'descr': %r, 'fortran_order': False, 'shape': (2, 3), }" % sp, data))
rng = np.random.default_rng(7)
for k, dt in enumerate(['<f4', '>f4', '<f8', '>f8', '|b1', '<i2', '>i2', '<u2', '>u8', '<i8', '>i4', '|u1', '|i1', '>u4']):
    for shape in [(), (0,), (5,), (2, 3), (3, 1, 4), (2, 0, 3), (1, 2, 1, 3, 1, 2, 1, 2)]:
        n = int(np.prod(shape))
        a = (rng.integers(0, 3, n) if dt.endswith('b1') else rng.integers(-50, 200, n)).astype(dt).reshape(shape)
        for fo in [False, True]:
            data = (a.T if fo else a).tobytes()  # Fortran data: the C bytes of the transpose
            for ver in [(1, 0), (2, 0), (3, 0)]:
                add(f'valid_{dt}_{len(shape)}_{"F" if fo else "C"}_{ver[0]}_{k}_{n}',
                    npy("{'descr': '%s', 'fortran_order': %s, 'shape': %r, }" % (dt, fo, shape), data, ver))
add('bool_bytes', npy("{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }", b'\x00\x01\x02\xff'))
add('trailing', npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", bytes(8) + b'junk'))
add('short_data', npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", bytes(8)))

# ---- header texts: spacing, comments, continuations, keys, values
f6 = np.arange(6, dtype='<f4').tobytes()
D, F, S = "'descr': '<f4'", "'fortran_order': False", "'shape': (2, 3)"
texts = [
    "{%s, %s, %s}" % (D, F, S), "{%s, %s, %s, }" % (S, F, D), "{%s,%s,%s}" % (F, D, S),
    "{%s, %s}" % (D, S), "{%s, %s, %s, 'extra': 1}" % (D, F, S), "{%s, %s, %s, 1: 2}" % (D, F, S),
    "{'descr': '<i4', %s, %s, %s}" % (F, S, D), "{%s, %s, %s, 'descr': '<i8'}" % (D, F, S),
    "{%s, %s, %s, 'shape': (6,)}" % (D, F, S), "{%s, 'fortran_order': True, %s, %s}" % (D, S, F),
    "  {%s, %s, %s}" % (D, F, S), "\t{%s, %s, %s}" % (D, F, S), "\n{%s, %s, %s}" % (D, F, S),
    "\n  {%s, %s, %s}" % (D, F, S), "\f{%s, %s, %s}" % (D, F, S), "\v{%s, %s, %s}" % (D, F, S),
    "{%s,\n %s,\n %s\n}" % (D, F, S), "{%s,\r\n %s,\r %s}" % (D, F, S), "{%s, # c\n %s, %s} # end" % (D, F, S),
    "{%s, \\\n %s, %s}" % (D, F, S), "{%s, %s, %s} \\\n" % (D, F, S), "{%s, %s, %s} \\" % (D, F, S),
    "{%s, %s, %s} # \\" % (D, F, S), "({%s, %s, %s})" % (D, F, S), "[{%s, %s, %s}]" % (D, F, S),
    "{%s, %s, %s};" % (D, F, S), "{%s, %s, %s}\n{}" % (D, F, S), "{%s %s, %s}" % (D, F, S),
    "{%s,, %s, %s}" % (D, F, S), "{,%s, %s, %s}" % (D, F, S), "{%s: %s, %s}" % (D, F, S), "",
    "{}", "()", "None", "'{}'", "{%s, %s, %s}}" % (D, F, S), "{%s, %s, %s" % (D, F, S),
    "{'des' 'cr': '<' 'f4', %s, %s}" % (F, S), "{u'descr': r'<f4', %s, %s}" % (F, S),
    "{b'descr': '<f4', %s, %s}" % (F, S), "{'descr': b'<f4', %s, %s}" % (F, S), "{'descr': '<f4' b'', %s, %s}" % (F, S),
    "{\"descr\": \"<f4\", %s, %s}" % (F, S), "{'''descr''': \"\"\"<f4\"\"\", %s, %s}" % (F, S),
    "{'descr': '\\x3cf4', %s, %s}" % (F, S), "{'descr': '\\074f4', %s, %s}" % (F, S),
    "{'descr': '\\u003cf4', %s, %s}" % (F, S), "{'descr': '\\N{LESS-THAN SIGN}f4', %s, %s}" % (F, S),
    "{'descr': '<f\\\n4', %s, %s}" % (F, S), "{'descr': '<f4\\x00', %s, %s}" % (F, S), "{'descr': f'<f4', %s, %s}" % (F, S),
    "{'descr': '<f4\n', %s, %s}" % (F, S), "{'descr': '<f4', %s, %s}" % (F, "'shape': [2, 3]"),
    "{%s, %s, 'shape': (2, 3,)}" % (D, F), "{%s, %s, 'shape': ((2), (3))}" % (D, F), "{%s, %s, 'shape': ((2, 3))}" % (D, F),
    "{%s, %s, 'shape': (2L, 3L)}" % (D, F), "{%s, %s, 'shape': (2 L, 3L L)}" % (D, F), "{%s, %s, 'shape': (2l, 3)}" % (D, F),
    "{%s, %s, 'shape': (2LL, 3)}" % (D, F), "{%s, %s, 'shape': (0x2, 0o3)}" % (D, F), "{%s, %s, 'shape': (0b10, 3)}" % (D, F),
    "{%s, %s, 'shape': (0x2L, 3)}" % (D, F), "{%s, %s, 'shape': (0_2, 3)}" % (D, F), "{%s, %s, 'shape': (2_0, 3)}" % (D, F),
    "{%s, %s, 'shape': (02, 3)}" % (D, F), "{%s, %s, 'shape': (+2, 3)}" % (D, F), "{%s, %s, 'shape': (- 2, 3)}" % (D, F),
    "{%s, %s, 'shape': (--2, 3)}" % (D, F), "{%s, %s, 'shape': (-(2), 3)}" % (D, F), "{%s, %s, 'shape': (+(+2), 3)}" % (D, F),
    "{%s, %s, 'shape': (+True, 3)}" % (D, F), "{%s, %s, 'shape': (True, 6)}" % (D, F), "{%s, %s, 'shape': (2.0, 3)}" % (D, F),
    "{%s, %s, 'shape': (2, 3j)}" % (D, F), "{%s, %s, 'shape': (2, 3e0)}" % (D, F), "{%s, %s, 'shape': (-1, 3)}" % (D, F),
    "{%s, %s, 'shape': (-0, 3)}" % (D, F), "{%s, %s, 'shape': (0x_2, 3)}" % (D, F), "{%s, %s, 'shape': (2__0, 3)}" % (D, F),
    "{%s, %s, 'shape': (2_, 3)}" % (D, F), "{%s, %s, 'shape': (0b2, 3)}" % (D, F), "{%s, %s, 'shape': 6}" % (D, F),
    "{%s, %s, 'shape': (6)}" % (D, F), "{%s, %s, 'shape': (99999999999999999999, 0)}" % (D, F),
    "{%s, %s, 'shape': (2, 3), 'shape': None}" % (D, F), "{%s, 'fortran_order': 0, %s}" % (D, S),
    "{%s, 'fortran_order': None, %s}" % (D, S), "{%s, 'fortran_order': 'False', %s}" % (D, S),
    "{%s, 'fortran_order': false, %s}" % (D, S), "{%s, 'fortran_order': (False), %s}" % (D, S),
    "{'descr': ('<f4', ()), %s, %s}" % (F, S), "{'descr': [('a', '<f4')], %s, %s}" % (F, S), "{'descr': None, %s, %s}" % (F, S),
    "{'descr': {'<f4': 1}, %s, %s}" % (F, S), "{'descr': ('<f4'), %s, %s}" % (F, S), "{'descr': ((('<f4'))), %s, %s}" % (F, S),
    "{%s, %s, %s, (1,): 2}" % (D, F, S), "{%s, %s, %s, [1]: 2}" % (D, F, S), "{%s, %s, %s, ...: 2}" % (D, F, S),
    "{%s, %s, %s}\xa0" % (D, F, S), "{%s, %s, 'shape': (2, 3), 'x': {1, 2}}" % (D, F), "{%s, %s, %s} " % (D, F, S) + "#" * 30,
    "{%s, %s, 'shape': %s}" % (D, F, '(' * 30 + '6,' + ')' * 30), "{%s, %s, 'shape': %s}" % (D, F, '(' * 70 + '6,' + ')' * 70),
    "{%s, %s, 'shape': %s}" % (D, F, '(' * 198 + '6,' + ')' * 198), "{%s, %s, 'shape': %s}" % (D, F, '(' * 199 + '6,' + ')' * 199),
    "{%s, %s, 'shape': (6,)}" % (D, F) + " " * 10100,
]
for k, t in enumerate(texts):
    for ver in [(1, 0), (2, 0), (3, 0)]:
        add(f'text_{k}_{ver[0]}', npy(t, f6, ver))
        add(f'textraw_{k}_{ver[0]}', npy(t.encode('utf8' if ver[0] == 3 else 'latin1'), f6, ver, pad=False))

# ---- single-byte mutations of valid headers at every position
reps = [b' ', b'\x00', b"'", b'"', b'0', b'1', b'9', b'L', b'#', b'\\', b',', b'(', b')', b'{', b'}', b':',
        b'-', b'\n', b'\t', b'\xff', b'x', b'>', b'T', b'2']
bases = [
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f6, (1, 0)),
    ("{'descr': '|u1', 'fortran_order': True, 'shape': (3, 2), }", bytes(range(6)), (3, 0)),
    ("{'shape': (12,), 'descr': '<i2', 'fortran_order': False}", f6, (2, 0)),
]
for b, (t, data, ver) in enumerate(bases):
    h = padded(t, ver)
    raw = preamble(h, ver) + h
    for pos in range(len(raw)):
        for r in reps:
            if raw[pos:pos + 1] != r:
                add(f'mut_{b}_{pos}_{r[0]}', raw[:pos] + r + raw[pos + 1:] + data)
    for pos in range(10, len(raw)):  # a byte deleted or inserted (the length field follows)
        h2 = h[:pos - len(raw) + len(h)] + h[pos - len(raw) + len(h) + 1:]
        add(f'del_{b}_{pos}', preamble(h2, ver) + h2 + data)
        h3 = h[:pos - len(raw) + len(h)] + b' ' + h[pos - len(raw) + len(h):]
        add(f'ins_{b}_{pos}', preamble(h3, ver) + h3 + data)
for k, n in enumerate([0, 1, 5, 9, 10, 11, 20]):
    add(f'cut_{k}', npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f6)[:n])

# The spellings gtc reads (runtime/core/npy.c); NumPy's dtype parser takes others by accident
# ('f4,', '1f4', '<f 4', control characters read as type numbers): gtc refuses those.
CODES = ['?', 'b1', 'b', 'i1', 'B', 'u1', 'h', 'i2', 'H', 'u2', 'i', 'i4', 'I', 'u4', 'l', 'q', 'p', 'i8',
         'L', 'Q', 'P', 'u8', 'e', 'f2', 'f', 'f4', 'd', 'f8']
SPELLED = set(names[:36]) | {o + c for c in CODES for o in ['', '<', '>', '=', '|']}


def header_dict(raw):
    """The header dict as np.load evaluates it."""
    import ast, io
    fp = io.BytesIO(raw)
    ver = np.lib.format.read_magic(fp)
    n = int.from_bytes(fp.read(2 if ver[0] == 1 else 4), 'little')
    text = fp.read(n).decode('utf8' if ver[0] == 3 else 'latin1')
    return ast.literal_eval(np.lib.format._filter_header(text) if ver[0] <= 2 else text)


manifest = []
for name, raw in files:
    path = os.path.join(out, name + '.npy')
    with open(path, 'wb') as f:
        f.write(raw)
    try:
        a = np.load(path)
    except BaseException as e:
        manifest.append((name, 'refuse', type(e).__name__))
        continue
    d, dt = header_dict(raw), a.dtype
    if '\\N{' in raw.decode('latin1'):
        why = 'a \\N{...} escape (gtc has no Unicode name table)'
    elif not isinstance(d['descr'], str):
        why = 'a descr that is not a string'
    elif d['descr'] not in SPELLED:
        why = 'descr %r, an accidental np.dtype spelling' % d['descr'] if dt.name in OURS else 'dtype %s' % dt
    elif any(x < 0 for x in d['shape']):
        why = 'a negative dimension, which NumPy reads as -1 (infer)'
    elif len(d['shape']) > 8 or any(x >= 2 ** 31 for x in d['shape']):
        why = "over gtc's limits"
    else:
        c = np.ascontiguousarray(a.view(np.uint8) != 0 if dt.name == 'bool' else a.astype(dt.newbyteorder('<')))
        manifest.append((name, 'load', '%s %s %s' % (dt.name, json.dumps(list(a.shape), separators=(',', ':')),
                                                     hashlib.md5(c.tobytes()).hexdigest())))
        continue
    manifest.append((name, 'skip', why))
with open(os.path.join(out, 'manifest.tsv'), 'w') as f:
    for m in manifest:
        f.write('\t'.join(m) + '\n')
