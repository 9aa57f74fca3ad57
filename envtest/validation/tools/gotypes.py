#!/usr/bin/env python3
"""Writes the Go type model of kube's internal core types (as go-cmp sees them) as Rust tables.

Usage: gotypes.py <kubernetes source> core.PodSpec core.PersistentVolumeClaimSpec \
           core.PersistentVolumeSource core.EphemeralContainer > ../src/gocmp/tables.rs
then `cargo fmt`. Each struct reachable from the roots is read from
pkg/apis/core/types.go (fields in declaration order) and its fields' JSON names from
the v1 types they are converted from (staging/src/k8s.io/api/core/v1/types.go).
"""
import re, sys, os
K = sys.argv[1]
SRC = {
    'core': [K + '/pkg/apis/core/types.go'],
    'v1': [K + '/staging/src/k8s.io/api/core/v1/types.go'],
    'metav1': [K + '/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go'],
}
def parse(files):
    structs, named = {}, {}
    for f in files:
        text = open(f).read()
        text = re.sub(r'//[^\n]*', '', text)
        for m in re.finditer(r'^type (\w+) struct \{(.*?)^\}', text, re.S | re.M):
            fields = []
            for line in m.group(2).split('\n'):
                line = line.strip()
                if not line: continue
                tag = ''
                t = re.search(r'`(.*)`', line)
                if t:
                    tag = t.group(1); line = line[:t.start()].strip()
                parts = line.split(None, 1)
                js = re.search(r'json:"([^"]*)"', tag)
                jname = js.group(1).split(',')[0] if js else None
                if len(parts) == 1:
                    fields.append((parts[0].split('.')[-1], parts[0], True, jname))
                else:
                    fields.append((parts[0], parts[1], False, jname))
            structs[m.group(1)] = fields
        for m in re.finditer(r'^type (\w+) ([^\s{][^\n]*)$', text, re.M):
            if not m.group(2).startswith('struct'):
                named[m.group(1)] = m.group(2).strip()
    return structs, named
core_s, core_n = parse(SRC['core'])
v1_s, v1_n = parse(SRC['v1'])
meta_s, meta_n = parse(SRC['metav1'])
SPECIAL = {'resource.Quantity', 'intstr.IntOrString'}
out_structs, out_named, warnings = {}, {}, []
def split_map(expr):
    """The key and value type expressions of `map[K]V`."""
    depth = 0
    for i, c in enumerate(expr):
        if c == '[': depth += 1
        if c == ']':
            depth -= 1
            if depth == 0: break
    return expr[4:i], expr[i+1:]
def qualify(expr, pkg):
    """The Go type expression with its names qualified as reflect prints them ("core.X", "v1.X")."""
    if expr.startswith('*'): return '*' + qualify(expr[1:], pkg)
    if expr.startswith('[]'): return '[]' + qualify(expr[2:], pkg)
    if expr.startswith('map['):
        key, value = split_map(expr)
        return 'map[' + qualify(key, pkg) + ']' + qualify(value, pkg)
    if expr in ('string', 'bool', 'int', 'int32', 'int64', 'float64', 'byte', 'uint8', 'uint16'): return expr
    if '.' in expr:
        p, n = expr.split('.')
        if p == 'metav1': return 'v1.' + n
        return expr
    return pkg + '.' + expr
def visit(expr):
    if expr.startswith('*'): return visit(expr[1:])
    if expr.startswith('[]'): return visit(expr[2:])
    if expr.startswith('map['):
        key, value = split_map(expr)
        visit(key); return visit(value)
    if '.' not in expr or expr in SPECIAL: return
    if expr in out_structs or expr in out_named: return
    p, n = expr.split('.')
    if p == 'core':
        structs, named, jsrc = core_s, core_n, v1_s
    elif p == 'v1':
        structs, named, jsrc = meta_s, meta_n, meta_s
    else:
        warnings.append('unknown ' + expr); return
    if n in structs:
        fields = []
        out_structs[expr] = fields
        vf = {f[0]: f for f in jsrc.get(n, [])}
        for (name, ty, inline, jname) in structs[n]:
            q = qualify(ty, 'core' if p == 'core' else 'v1')
            if inline:
                js = ''
            elif p == 'v1':
                js = jname
            elif name in vf:
                js = '' if vf[name][2] else vf[name][3]
            elif expr == 'core.PodSecurityContext' and name in {f[0] for f in v1_s['PodSpec']}:
                # Convert_v1_PodSpec_To_core_PodSpec moves the host namespace
                # fields of the pod's spec into its security context.
                js = [f for f in v1_s['PodSpec'] if f[0] == name][0][3]
            else:
                js = None
                warnings.append(f'{expr}.{name}: no v1 field')
            fields.append((name, js, q))
            visit(q)
    elif n in named:
        q = qualify(named[n], p)
        out_named[expr] = q
        visit(q)
    else:
        warnings.append('unresolved ' + expr)
for root in sys.argv[2:]:
    visit(root)
for w in warnings: print('warning:', w, file=sys.stderr)
print('//! kube-apiserver 1.32\'s internal types as go-cmp walks them: each struct\'s fields in')
print('//! declaration order with the v1 JSON name each is converted from (`""` for an')
print('//! embedded struct, whose fields sit in the same JSON object), and each named')
print('//! non-struct type with its underlying type. Written by')
print('//! `envtest/validation/tools/gotypes.py` from kube\'s source; do not edit by hand.')
print()
if any(js is None for fields in out_structs.values() for (_, js, _) in fields):
    sys.exit('a field has no v1 JSON name: see the warnings above')
print('/// A struct: its name and its fields (Go name, v1 JSON name, Go type).')
print("pub(super) type Struct = (&'static str, &'static [(&'static str, &'static str, &'static str)]);")
print()
print('pub(super) const STRUCTS: &[Struct] = &[')
for name, fields in out_structs.items():
    print(f'    ("{name}", &[')
    for (f, js, ty) in fields:
        print(f'        ("{f}", "{js}", "{ty}"),')
    print('    ]),')
print('];')
print('pub(super) const NAMED: &[(&str, &str)] = &[')
for name, ty in out_named.items():
    print(f'    ("{name}", "{ty}"),')
print('];')
