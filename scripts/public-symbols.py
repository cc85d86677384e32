#!/usr/bin/python3
"""The library's public symbols: the functions declared in its public header.

usage: public-symbols.py HEADER SYMBOLS_OUT VERSION_SCRIPT_OUT

SYMBOLS_OUT lists one name a line (objcopy --keep-global-symbols, for the
static library); VERSION_SCRIPT_OUT is the linker version script of the
shared library: these names global in version VMSA_0, everything else local.
"""
import re
import sys


def declared(header):
    text = open(header).read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#.*?(?<!\\)$", " ", text, flags=re.M | re.S)
    # "type name(" at file scope; function-pointer typedefs read "(*name)(" and do not match
    names = re.findall(r"[\w\s\*]\b(vmsa_\w+)\s*\(", text)
    return sorted(set(names))


def main():
    header, sym_out, map_out = sys.argv[1:4]
    names = declared(header)
    if not names:
        sys.exit("public-symbols: no vmsa_ function found in %s" % header)
    with open(sym_out, "w") as f:
        f.write("".join(n + "\n" for n in names))
    with open(map_out, "w") as f:
        f.write("VMSA_0 {\n  global:\n%s  local:\n    *;\n};\n" %
                "".join("    %s;\n" % n for n in names))


if __name__ == "__main__":
    main()
