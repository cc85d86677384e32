#!/usr/bin/python3
"""The library's public symbols: the functions declared in its public header.

usage: public-symbols.py HEADER SYMBOLS_OUT VERSION_SCRIPT_OUT ABI_VERSION

SYMBOLS_OUT lists one name a line (objcopy --keep-global-symbols, for the
static library); VERSION_SCRIPT_OUT is the linker version script of the
shared library: these names global in version VMSA_<ABI_VERSION>, everything
else local.
The header's static inline functions (the wrappers that pass a struct's
size, docs/abi.md) are the caller's code, not symbols of the library.
"""
import re
import sys


def declared(header):
    text = open(header).read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#.*?(?<!\\)$", " ", text, flags=re.M | re.S)
    # static inline wrappers: their bodies hold no braces
    text = re.sub(r"\bstatic\s+inline\b[^;{]*\{[^{}]*\}", " ", text)
    # "type name(" at file scope; function-pointer typedefs read "(*name)(" and do not match
    names = re.findall(r"[\w\s\*]\b(vmsa_\w+)\s*\(", text)
    return sorted(set(names))


def main():
    header, sym_out, map_out, abi = sys.argv[1:5]
    names = declared(header)
    if not names:
        sys.exit("public-symbols: no vmsa_ function found in %s" % header)
    with open(sym_out, "w") as f:
        f.write("".join(n + "\n" for n in names))
    with open(map_out, "w") as f:
        f.write("VMSA_%s {\n  global:\n%s  local:\n    *;\n};\n" %
                (abi, "".join("    %s;\n" % n for n in names)))


if __name__ == "__main__":
    main()
