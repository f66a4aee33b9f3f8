"""A reader of the C that 86Box's tables are written in: designated initializers
(`{ .name = "...", .cpu = { .package = CPU_PKG_SOCKET3, ... }, ... }`), the object-like
`#define`s and the `enum`s their values are made of, and the bodies of functions.

It is not a C compiler. It knows exactly what machine_table.c, cpu_table.c, machine.h
and cpu.h use: integer, float and string constants, `| & ~ << >> + - * /`, casts,
`&name` (a device's address: kept as its name), compound literals (`(const CPU[]) {
... }`), and the one function-like macro of the tables, CPU_BLOCK(...). Anything else
in an expression raises CError naming the file and line, so a table that grows a new
construct stops the sweep with a reason instead of reading it wrong.
"""

import functools
import re

__all__ = ["CError", "Ref", "Init", "Symbols", "tokens", "parse_array", "function_body",
           "string_literals"]


class CError(ValueError):
    """A construct the reader does not know, with where it is."""


class Ref(str):
    """`&name`: the address of an object, kept as the object's name."""


class Lazy:
    """An expression not evaluated yet: a table's fields the sweep does not read
    (keyboard controller parameters, say) may use constants of headers it does not
    read, and must not stop it."""

    def __init__(self, toks, symbols, where):
        self.toks, self.symbols, self.where = toks, symbols, where

    def value(self):
        return self.symbols.evaluate(self.toks, self.where)


def _value(v):
    return v.value() if isinstance(v, Lazy) else v


class Init:
    """One brace initializer: `fields` (designated, in order) and `items` (positional),
    each evaluated when it is read."""

    def __init__(self, line):
        self.line = line
        self.raw_fields = {}
        self.raw_items = []

    def get(self, name, default=None):
        if name not in self.raw_fields:
            return default
        v = self.raw_fields[name] = _value(self.raw_fields[name])
        return v

    @property
    def fields(self):
        return {k: self.get(k) for k in self.raw_fields}

    @property
    def items(self):
        self.raw_items = [_value(v) for v in self.raw_items]
        return self.raw_items

    def __repr__(self):
        return "Init(%r, %r)" % (self.raw_fields, self.raw_items)


TOKEN = re.compile(r"""
    (?P<space>[ \t\r\f\v]+) | (?P<newline>\n)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<char>'(?:[^'\\\n]|\\.)+')
  | (?P<number>(?:0[xX][0-9a-fA-F]+|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)[uUlLfF]*)
  | (?P<name>[A-Za-z_]\w*)
  | (?P<punct>\.\.\.|<<|>>|->|&&|\|\||[=!<>]=|[{}()\[\];,.=|&~+\-*/<>?:!%^])
  | (?P<hash>\#)
""", re.X | re.S)


class Tok:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line

    def __repr__(self):
        return "%s:%r@%d" % (self.kind, self.text, self.line)


def tokens(text, where="<source>"):
    """The tokens of text, comments dropped; a preprocessor line (a `#` first on its
    line) is one token of kind "directive" holding the whole line, continuations
    joined, so that #defines can be read and the initializers skip them."""
    out, pos, line, line_start = [], 0, 1, True
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise CError("%s:%d: cannot read %r" % (where, line, text[pos:pos + 20]))
        kind = m.lastgroup
        if kind == "hash" and line_start:
            end = pos
            while True:
                end = text.find("\n", end)
                if end < 0:
                    end = len(text)
                    break
                if text[end - 1] != "\\":
                    break
                end += 1
            body = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text[pos + 1:end], flags=re.S)
            out.append(Tok("directive", body.replace("\\\n", " ").strip(), line))
            line += text.count("\n", pos, end)
            pos = end
            continue
        if kind in ("newline",):
            line += 1
            line_start = True
        elif kind == "comment":
            line += m.group().count("\n")
        elif kind != "space":
            line_start = False
            out.append(Tok(kind, m.group(), line))
        pos = m.end()
    return out


ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}


def unquote(literal):
    body = literal[1:-1]
    return re.sub(r"\\(x[0-9a-fA-F]+|.)",
                  lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] == "x"
                  else ESCAPES.get(m.group(1), m.group(1)), body)


def number(text):
    text = text.rstrip("uUlL")
    if text.lower().startswith("0x"):
        return int(text, 16)
    if re.search(r"[.eE]", text) or text.endswith(("f", "F")):
        return float(text.rstrip("fF"))
    if len(text) > 1 and text.startswith("0"):
        return int(text, 8)
    return int(text)


class Symbols:
    """Constants by name: object-like #defines (evaluated when used) and enum members.
    A name nobody defined evaluates to itself, as a str, for the caller to judge
    (CPU types in a block list, chipset enum names before their enum is read)."""

    def __init__(self):
        self.defines = {}       # name -> token list (unevaluated)
        self.values = {}        # name -> value (enums, evaluated defines)
        self.macros = {"CPU_BLOCK": lambda args: list(args)}

    def read_header(self, text, where):
        toks = tokens(text, where)
        for t in toks:
            if t.kind == "directive":
                m = re.match(r"define\s+([A-Za-z_]\w*)(?!\()\s*(.*)$", t.text, re.S)
                if m and m.group(2).strip():
                    self.defines[m.group(1)] = tokens(m.group(2), where)
        i = 0
        while i < len(toks):
            if toks[i].text == "enum":
                j = i + 1
                if j < len(toks) and toks[j].kind == "name":
                    j += 1
                if j < len(toks) and toks[j].text == "{":
                    i = self._read_enum(toks, j + 1, where)
                    continue
            i += 1

    def _read_enum(self, toks, i, where):
        value = 0
        while toks[i].text != "}":
            if toks[i].kind == "directive":
                i += 1
                continue
            name = toks[i].text
            i += 1
            if toks[i].text == "=":
                expr, i = take_expression(toks, i + 1, (",", "}"))
                value = self.evaluate(expr, where)
            self.values[name] = value
            value += 1
            if toks[i].text == ",":
                i += 1
        return i + 1

    def lookup(self, name, where, depth=0):
        if name in self.values:
            return self.values[name]
        if name in self.defines:
            if depth > 32:
                raise CError("%s: #define %s is recursive" % (where, name))
            value = self.evaluate(self.defines[name], where, depth + 1)
            self.values[name] = value
            return value
        return name

    def evaluate(self, toks, where, depth=0):
        toks = [t for t in toks if t.kind != "directive"]
        if not toks:
            raise CError("%s: empty expression" % where)
        parser = ExprParser(toks, self, where, depth)
        value = parser.expression()
        if parser.pos != len(toks):
            t = toks[parser.pos]
            raise CError("%s:%d: unexpected %r in an expression" % (where, t.line, t.text))
        return value


class ExprParser:
    """Precedence climbing over C's constant expressions (the subset the tables use)."""

    BINARY = [("|",), ("^",), ("&",), ("<<", ">>"), ("+", "-"), ("*", "/", "%")]

    def __init__(self, toks, symbols, where, depth):
        self.toks, self.symbols, self.where, self.depth = toks, symbols, where, depth
        self.pos = 0

    def peek(self):
        return self.toks[self.pos].text if self.pos < len(self.toks) else None

    def fail(self, what):
        line = self.toks[min(self.pos, len(self.toks) - 1)].line
        raise CError("%s:%d: %s" % (self.where, line, what))

    def expression(self, level=0):
        if level == len(self.BINARY):
            return self.unary()
        left = self.expression(level + 1)
        while self.peek() in self.BINARY[level]:
            op = self.toks[self.pos].text
            self.pos += 1
            right = self.expression(level + 1)
            left = self.apply(op, left, right)
        return left

    def apply(self, op, a, b):
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
            self.fail("cannot compute %r %s %r" % (a, op, b))
        if op in "|^&<<>>%" and not (isinstance(a, int) and isinstance(b, int)):
            self.fail("%s on a fraction" % op)
        return {"|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b,
                "<<": lambda: a << b, ">>": lambda: a >> b, "+": lambda: a + b,
                "-": lambda: a - b, "*": lambda: a * b, "%": lambda: a % b,
                "/": lambda: a // b if isinstance(a, int) and isinstance(b, int)
                else a / b}[op]()

    def unary(self):
        t = self.peek()
        if t in ("-", "+", "~", "!"):
            self.pos += 1
            v = self.unary()
            if not isinstance(v, (int, float)):
                self.fail("cannot compute %s%r" % (t, v))
            return {"-": -v, "+": v, "~": ~v if isinstance(v, int) else None,
                    "!": int(not v)}[t]
        if t == "&":
            self.pos += 1
            tok = self.toks[self.pos]
            if tok.kind != "name":
                self.fail("& of something not named")
            self.pos += 1
            return Ref(tok.text)
        return self.primary()

    def primary(self):
        if self.pos >= len(self.toks):
            self.fail("expression ends early")
        tok = self.toks[self.pos]
        self.pos += 1
        if tok.kind == "number":
            return number(tok.text)
        if tok.kind == "string":
            text = unquote(tok.text)
            while self.pos < len(self.toks) and self.toks[self.pos].kind == "string":
                text += unquote(self.toks[self.pos].text)
                self.pos += 1
            return text
        if tok.kind == "char":
            return ord(unquote(tok.text))
        if tok.text == "(":
            if self.is_cast():
                while self.toks[self.pos].text != ")":
                    self.pos += 1
                self.pos += 1
                return self.unary()
            v = self.expression()
            if self.peek() != ")":
                self.fail("missing )")
            self.pos += 1
            return v
        if tok.kind == "name":
            if tok.text in ("NULL",):
                return None
            if self.peek() == "(" and tok.text in self.symbols.macros:
                self.pos += 1
                args = []
                while self.peek() != ")":
                    args.append(self.expression())
                    if self.peek() == ",":
                        self.pos += 1
                self.pos += 1
                return self.symbols.macros[tok.text](args)
            return self.symbols.lookup(tok.text, self.where, self.depth)
        self.fail("unexpected %r" % tok.text)

    TYPE_WORDS = {"const", "unsigned", "signed", "int", "char", "long", "short", "float",
                  "double", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t",
                  "int16_t", "int32_t", "int64_t", "uintptr_t", "size_t", "void"}

    def is_cast(self):
        """`(uint32_t)` and the like: a parenthesis of type words (and `*`)."""
        j, words = self.pos, 0
        while j < len(self.toks) and self.toks[j].text != ")":
            if self.toks[j].text not in self.TYPE_WORDS and self.toks[j].text != "*":
                return False
            words += 1
            j += 1
        return words > 0


def take_expression(toks, i, stops):
    """The tokens from i up to a stop token at parenthesis depth 0; and where it is."""
    start, depth = i, 0
    while i < len(toks):
        t = toks[i].text
        if depth == 0 and t in stops:
            break
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
        i += 1
    return toks[start:i], i


def parse_init(toks, i, symbols, where):
    """The brace initializer starting at toks[i] == "{": (Init, index after "}")."""
    init = Init(toks[i].line)
    i += 1
    while True:
        while toks[i].kind == "directive":
            i += 1
        if toks[i].text == "}":
            return init, i + 1
        name = None
        if toks[i].text == "." and toks[i + 1].kind == "name" and toks[i + 2].text == "=":
            name = toks[i + 1].text
            i += 3
        value, i = parse_value(toks, i, symbols, where)
        if name is None:
            init.raw_items.append(value)
        else:
            init.raw_fields[name] = value
        while toks[i].kind == "directive":
            i += 1
        if toks[i].text == ",":
            i += 1
        elif toks[i].text != "}":
            raise CError("%s:%d: expected , or } in an initializer, found %r"
                         % (where, toks[i].line, toks[i].text))


def parse_value(toks, i, symbols, where):
    if toks[i].text == "{":
        return parse_init(toks, i, symbols, where)
    if toks[i].text == "(":                 # a compound literal: (const CPU[]) { ... }
        j, depth = i, 0
        while True:
            depth += {"(": 1, ")": -1}.get(toks[j].text, 0)
            j += 1
            if depth == 0:
                break
        if toks[j].text == "{":
            return parse_init(toks, j, symbols, where)
    expr, i = take_expression(toks, i, (",", "}"))
    return Lazy(expr, symbols, where), i


@functools.lru_cache(maxsize=64)
def cached_tokens(text, where):
    """tokens(), once per text: the machine files are searched for many objects."""
    return tokens(text, where)


def parse_array(text, name, symbols, where):
    """The elements of the array `name` defined in text (`... name[] = { ... };`), as
    Init objects (or values)."""
    toks = cached_tokens(text, where)
    for i in range(len(toks) - 3):
        if (toks[i].text == name and toks[i + 1].text == "[" and toks[i + 2].text == "]"
                and toks[i + 3].text == "="):
            init, _ = parse_init(toks, i + 4, symbols, where)
            return init.items
    raise CError("%s: no array %s[] = { ... }" % (where, name))


def parse_object(text, name, symbols, where):
    """The initializer of a single object `... name = { ... };` (a device_t), or None."""
    toks = cached_tokens(text, where)
    for i in range(len(toks) - 2):
        if toks[i].text == name and toks[i + 1].text == "=" and toks[i + 2].text == "{":
            return parse_init(toks, i + 2, symbols, where)[0]
    return None


# A definition: the name at the start of a line (86Box puts the return type on the
# line above), its parameters (UNUSED(x) is a macro call inside them), a comment maybe,
# then the brace.
DEFINITION = re.compile(r"^(?:[A-Za-z_][\w \t*]*\n)?([A-Za-z_]\w*)\s*"
                        r"\((?:[^;{()]|\([^()]*\))*\)\s*(?://[^\n]*\n|/\*.*?\*/)?\s*\{",
                        re.M | re.S)


@functools.lru_cache(maxsize=128)
def function_starts(text):
    """{function name: where its body starts} for the definitions in text (86Box puts
    the return type on the line above the name)."""
    return {m.group(1): m.end() for m in DEFINITION.finditer(text)}


def function_body(text, name):
    """The text between the braces of the definition of function `name`, or None."""
    start = function_starts(text).get(name)
    if start is None:
        return None
    depth, i = 1, start
    while i < len(text) and depth:
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == '"':
            i = re.compile(r'"(?:[^"\\\n]|\\.)*"').match(text, i).end() - 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
        elif text.startswith("/*", i):
            i = text.find("*/", i) + 1
        i += 1
    return text[start:i - 1]


def string_literals(text):
    """Every string literal of a piece of C, comments left out."""
    return [unquote(t.text) for t in tokens(text) if t.kind == "string"]
