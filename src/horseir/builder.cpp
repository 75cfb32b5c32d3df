// hir::Builder: a Program value made statement by statement, with no HorseIR text in between.
// Literals carry the spelling the parser would have kept (Literal::text), so PrintProgram of a
// built program is the canonical text and ParseProgram of it gives the same values.
#include <climits>
#include <cmath>
#include <cstdio>

#include "horseir/internal.h"

namespace rndn::hir {

namespace {

bool ValidIdentifier(const std::string &s) {
    static const char *const kKeywords[] = {"module", "import", "global", "def", "kernel", "check_cast", "if",
                                            "else", "while", "repeat", "var", "return", "break", "continue", "null",
                                            "NaN", "Infinity"};
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    for (const char *k : kKeywords)
        if (s == k) return false;
    return true;
}

// Text inside quotes, with the escapes the lexer knows; newline and CR are escaped, other bytes
// are kept as they are.
std::string Quote(std::string_view s, char q) {
    std::string out(1, q);
    for (char c : s) {
        switch (c) {
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\\': out += "\\\\"; break;
            default:
                if (c == q) out += '\\';
                out += c;
        }
    }
    out += q;
    return out;
}

bool PlainSymbol(std::string_view s) {
    if (s.empty()) return true;  // "`" alone is the empty symbol
    if (!(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

// The literal spelling of element i (valid), or an error when HorseIR text cannot hold it.
Expected<std::string> ElementText(const Vector &v, int64_t i) {
    auto no_text = [&](const std::string &why) {
        return Status::Unsupported("a " + TypeToString(v.type) + " literal cannot hold " + why);
    };
    switch (v.type.kind) {
        case TypeKind::CHAR: {
            char c = static_cast<char>(v.Data<uint8_t>()[i]);
            return Quote(std::string_view(&c, 1), '\'');
        }
        case TypeKind::STR: return Quote(v.StringAt(i), '"');
        case TypeKind::INTERVAL: return Quote(IntervalText(v.Data<IntervalValue>()[i]), '"');
        case TypeKind::SYM: {
            std::string_view s = v.StringAt(i);
            if (PlainSymbol(s)) return "`" + std::string(s);
            return "`" + Quote(s, '"');
        }
        case TypeKind::F32:
        case TypeKind::F64:
            // NaN, Infinity and -Infinity are spelled as PostgreSQL prints them; the parser
            // reads these words back as float literals (the sign of a NaN is not kept)
            return FormatElement(v, i);
        case TypeKind::DEC64:
        case TypeKind::DEC128: {
            // the shortest exact spelling ("24" rather than "24.00"), as hand-written programs
            // and the translator write decimal constants
            std::string t = v.type.kind == TypeKind::DEC64 ? FormatDecimal(v.Data<int64_t>()[i], v.type.scale)
                                                           : FormatDecimal(v.Data<__int128>()[i], v.type.scale);
            if (t.find('.') != std::string::npos) {
                while (t.back() == '0') t.pop_back();
                if (t.back() == '.') t.pop_back();
            }
            if (t == "-0") t = "0";
            return t;
        }
        case TypeKind::DATE:
        case TypeKind::MONTH:
        case TypeKind::DT: {
            // PostgreSQL's infinities (INT32/INT64 extremes) are the words Infinity and -Infinity
            if (v.type.kind == TypeKind::DATE && (v.Data<int32_t>()[i] == INT32_MAX || v.Data<int32_t>()[i] == INT32_MIN))
                return v.Data<int32_t>()[i] == INT32_MAX ? std::string("Infinity") : std::string("-Infinity");
            if (v.type.kind == TypeKind::DT && (v.Data<int64_t>()[i] == INT64_MAX || v.Data<int64_t>()[i] == INT64_MIN))
                return v.Data<int64_t>()[i] == INT64_MAX ? std::string("Infinity") : std::string("-Infinity");
            std::string t = FormatElement(v, i);
            // the lexer reads exactly four year digits
            if (t.size() < 5 || t[4] != '-' || !std::isdigit(static_cast<unsigned char>(t[0]))) return no_text("the year of " + t);
            if (v.type.kind == TypeKind::DT) {  // microseconds: three more fraction digits (.uuuuuu)
                const int64_t us = v.Data<int64_t>()[i];
                const int64_t sub = us - (us / 1000 - ((us % 1000) < 0 ? 1 : 0)) * 1000;
                if (sub != 0) {
                    char b[8];
                    std::snprintf(b, sizeof b, "%03d", static_cast<int>(sub));
                    t += b;
                }
            }
            return t;
        }
        case TypeKind::MINUTE:
        case TypeKind::SECOND:
        case TypeKind::TIME: {
            int64_t x = v.type.kind == TypeKind::TIME ? v.Data<int64_t>()[i] : v.Data<int32_t>()[i];
            int64_t day = v.type.kind == TypeKind::TIME ? 86400000000LL : v.type.kind == TypeKind::SECOND ? 86400 : 1440;
            if (x < 0 || x >= day) return no_text("a time outside one day");
            if (v.type.kind == TypeKind::TIME && x % 1000 != 0) return no_text("sub-millisecond time");
            return FormatElement(v, i);
        }
        case TypeKind::BOOL:
        case TypeKind::I8:
        case TypeKind::I16:
        case TypeKind::I32:
        case TypeKind::I64: return FormatElement(v, i);
        default: return no_text("values of this type");
    }
}

template <class T>
std::shared_ptr<Vector> Scalar(const Type &t, T x) {
    auto v = MakeVector(t, 1);
    if (!v.ok()) return nullptr;
    (*v)->template Data<T>()[0] = x;
    return *v;
}

std::shared_ptr<Vector> StringScalar(TypeKind k, std::string_view s) {
    auto v = MakeVector(Type(k), 0);
    if (!v.ok()) return nullptr;
    (*v)->AppendString(s);
    return *v;
}

// Lines and columns of the printed text (printer.cpp's layout), so that checker messages about
// a built program point into PrintProgram's output.
class Locator {
public:
    void Program_(Program &p) {
        for (size_t m = 0; m < p.modules.size(); ++m) {
            if (m) ++line_;
            Module &mod = p.modules[m];
            mod.loc = {line_++, 1};
            for (auto [kind, idx] : mod.order) {
                if (kind == 0) mod.imports[static_cast<size_t>(idx)].loc = {line_++, 3};
                else if (kind == 1) mod.globals[static_cast<size_t>(idx)].loc = {line_++, 3};
                else Function_(mod.functions[static_cast<size_t>(idx)]);
            }
            ++line_;  // "}"
        }
    }

private:
    void Function_(Function &f) {
        f.loc = {line_, 3};
        for (auto &pa : f.params) pa.loc = {line_, 3};
        ++line_;
        Body(f.body, 2);
        ++line_;
    }
    void Body(std::vector<Stmt> &b, int depth) {
        for (auto &s : b) {
            Loc at{line_, depth * 2 + 1};
            s.loc = at;
            for (auto &t : s.targets) t.loc = at;
            SetExpr(s.expr, at);
            for (auto &o : s.operands) o.loc = at;
            ++line_;
            if (s.kind == Stmt::Kind::IF || s.kind == Stmt::Kind::WHILE || s.kind == Stmt::Kind::REPEAT) {
                Body(s.body, depth + 1);
                if (s.has_else) {
                    ++line_;  // "} else {"
                    Body(s.else_body, depth + 1);
                }
                ++line_;  // "}"
            }
        }
    }
    static void SetExpr(Expr &e, Loc at) {
        e.loc = at;
        e.callee.loc = at;
        e.operand.loc = at;
        for (auto &a : e.args) a.loc = at;
        if (e.inner) SetExpr(*e.inner, at);
    }
    int line_ = 1;
};

}  // namespace

Builder::Builder(std::string module_name, bool import_builtins) { BeginModule(std::move(module_name), import_builtins); }

void Builder::Fail(Status s) {
    if (status_.ok()) status_ = std::move(s);
}

bool Builder::CheckName(const std::string &name) {
    if (ValidIdentifier(name)) return true;
    Fail(Status::Internal("Builder: '" + name + "' is not a HorseIR name"));
    return false;
}

void Builder::BeginModule(std::string name, bool import_builtins) {
    if (!blocks_.empty()) Fail(Status::Internal("Builder: BeginModule inside an open block"));
    CheckName(name);
    Module m;
    m.name = std::move(name);
    program_.modules.push_back(std::move(m));
    function_ = -1;
    if (import_builtins) Import("Builtin");
}

void Builder::Import(std::string module, std::vector<std::string> names) {
    Module &m = program_.modules.back();
    hir::Import imp;
    imp.module = std::move(module);
    imp.star = names.empty();
    imp.names = std::move(names);
    m.order.emplace_back(0, static_cast<int>(m.imports.size()));
    m.imports.push_back(std::move(imp));
}

void Builder::Global(std::string name, Type type, Operand init) {
    CheckName(name);
    Module &m = program_.modules.back();
    hir::Global g;
    g.name = std::move(name);
    g.type = std::move(type);
    g.init = std::move(init);
    m.order.emplace_back(1, static_cast<int>(m.globals.size()));
    m.globals.push_back(std::move(g));
}

void Builder::BeginFunction(std::string name, std::vector<Type> returns, bool kernel) {
    if (!blocks_.empty()) Fail(Status::Internal("Builder: BeginFunction inside an open block"));
    CheckName(name);
    Module &m = program_.modules.back();
    Function f;
    f.name = std::move(name);
    f.returns = std::move(returns);
    f.is_kernel = kernel;
    function_ = static_cast<int>(m.functions.size());
    m.order.emplace_back(2, function_);
    m.functions.push_back(std::move(f));
    blocks_.clear();
    block_bodies_.clear();
}

std::vector<Stmt> &Builder::Body() {
    static std::vector<Stmt> sink;  // statements outside any function go nowhere (error recorded)
    if (!block_bodies_.empty()) return *block_bodies_.back();
    if (function_ < 0) {
        Fail(Status::Internal("Builder: a statement outside a function (call BeginFunction)"));
        sink.clear();
        return sink;
    }
    return program_.modules.back().functions[static_cast<size_t>(function_)].body;
}

void Builder::Add(Stmt s) { Body().push_back(std::move(s)); }

Operand Builder::Param(std::string name, Type type) {
    CheckName(name);
    if (function_ < 0) {
        Fail(Status::Internal("Builder: Param outside a function"));
        return Name(name);
    }
    hir::Param p;
    p.name = name;
    p.type = std::move(type);
    program_.modules.back().functions[static_cast<size_t>(function_)].params.push_back(std::move(p));
    return Name(std::move(name));
}

Operand Builder::Assign(std::string name, Type declared, Expr e) {
    return AssignMany({{std::move(name), std::move(declared)}}, std::move(e))[0];
}

std::vector<Operand> Builder::AssignMany(std::vector<std::pair<std::string, Type>> targets, Expr e) {
    Stmt s;
    s.kind = Stmt::Kind::ASSIGN;
    std::vector<Operand> out;
    for (auto &[name, type] : targets) {
        CheckName(name);
        Target t;
        t.name = name;
        t.declares = true;
        t.type = std::move(type);
        s.targets.push_back(std::move(t));
        out.push_back(Name(name));
    }
    if (targets.empty()) Fail(Status::Internal("Builder: an assignment needs a target"));
    s.expr = std::move(e);
    Add(std::move(s));
    return out;
}

void Builder::Set(std::string name, Expr e) {
    CheckName(name);
    Stmt s;
    s.kind = Stmt::Kind::ASSIGN;
    Target t;
    t.name = std::move(name);
    s.targets.push_back(std::move(t));
    s.expr = std::move(e);
    Add(std::move(s));
}

Operand Builder::Temp(Expr e, Type declared) { return Assign("t" + std::to_string(temp_++), std::move(declared), std::move(e)); }

void Builder::Declare(std::vector<std::string> names, Type type) {
    Stmt s;
    s.kind = Stmt::Kind::VAR;
    for (auto &n : names) {
        CheckName(n);
        Target t;
        t.name = std::move(n);
        t.declares = true;
        t.type = type;
        s.targets.push_back(std::move(t));
    }
    Add(std::move(s));
}

void Builder::Eval(Expr e) {
    Stmt s;
    s.kind = Stmt::Kind::EXPR;
    s.expr = std::move(e);
    Add(std::move(s));
}

void Builder::Return(std::vector<Operand> values) {
    Stmt s;
    s.kind = Stmt::Kind::RETURN;
    s.operands = std::move(values);
    Add(std::move(s));
}

void Builder::Break() {
    Stmt s;
    s.kind = Stmt::Kind::BREAK;
    Add(std::move(s));
}

void Builder::Continue() {
    Stmt s;
    s.kind = Stmt::Kind::CONTINUE;
    Add(std::move(s));
}

void Builder::BeginIf(Operand cond) {
    Stmt s;
    s.kind = Stmt::Kind::IF;
    s.operands.push_back(std::move(cond));
    std::vector<Stmt> &b = Body();
    b.push_back(std::move(s));
    blocks_.emplace_back(&b.back(), false);
    block_bodies_.push_back(&b.back().body);
}

void Builder::Else() {
    if (blocks_.empty() || blocks_.back().first->kind != Stmt::Kind::IF || blocks_.back().second) {
        Fail(Status::Internal("Builder: Else without an open if"));
        return;
    }
    blocks_.back().second = true;
    blocks_.back().first->has_else = true;
    block_bodies_.back() = &blocks_.back().first->else_body;
}

void Builder::BeginWhile(Operand cond) {
    Stmt s;
    s.kind = Stmt::Kind::WHILE;
    s.operands.push_back(std::move(cond));
    std::vector<Stmt> &b = Body();
    b.push_back(std::move(s));
    blocks_.emplace_back(&b.back(), false);
    block_bodies_.push_back(&b.back().body);
}

void Builder::BeginRepeat(Operand count) {
    Stmt s;
    s.kind = Stmt::Kind::REPEAT;
    s.operands.push_back(std::move(count));
    std::vector<Stmt> &b = Body();
    b.push_back(std::move(s));
    blocks_.emplace_back(&b.back(), false);
    block_bodies_.push_back(&b.back().body);
}

void Builder::End() {
    if (blocks_.empty()) {
        Fail(Status::Internal("Builder: End without an open block"));
        return;
    }
    blocks_.pop_back();
    block_bodies_.pop_back();
}

Expr Builder::Call(Builtin b, std::vector<Operand> args) const {
    Expr e;
    e.kind = Expr::Kind::CALL;
    e.callee = Fn(b);
    e.args = std::move(args);
    return e;
}

Expr Builder::CallUser(std::string module, std::string name, std::vector<Operand> args) const {
    Expr e;
    e.kind = Expr::Kind::CALL;
    e.callee.kind = Operand::Kind::FUNC;
    e.callee.module = std::move(module);
    e.callee.name = std::move(name);
    e.args = std::move(args);
    return e;
}

Expr Builder::Cast(Expr inner, Type to) {
    Expr e;
    e.kind = Expr::Kind::CAST;
    e.inner = std::make_shared<Expr>(std::move(inner));
    e.cast_type = std::move(to);
    return e;
}

Expr Builder::Use(Operand o) {
    Expr e;
    e.kind = Expr::Kind::OPERAND;
    e.operand = std::move(o);
    return e;
}

Operand Builder::Name(std::string name) {
    Operand o;
    o.kind = Operand::Kind::NAME;
    o.name = std::move(name);
    return o;
}

Operand Builder::Fn(Builtin b) {
    Operand o;
    o.kind = Operand::Kind::FUNC;
    o.name = BuiltinName(b);
    return o;
}

Operand Builder::Literal(std::shared_ptr<const Vector> value) {
    Operand o;
    o.kind = Operand::Kind::LITERAL;
    if (!value) {
        Fail(Status::OutOfMemory("Builder: out of memory for a literal"));
        return o;
    }
    const Vector &v = *value;
    if (!IsBasic(v.type.kind) || v.type.kind == TypeKind::COMPLEX) {
        Fail(Status::Unsupported("Builder: no literal of type " + TypeToString(v.type)));
        return o;
    }
    if (IsDecimal(v.type.kind) && v.type.scale == Type::kUnknownScale) {
        Fail(Status::Internal("Builder: a decimal literal needs a fixed scale"));
        return o;
    }
    if (v.length < 1) {
        Fail(Status::Internal("Builder: a literal has at least one element"));
        return o;
    }
    o.literal.type = v.type;
    for (int64_t i = 0; i < v.length; ++i) {
        if (!v.IsValid(i)) {
            o.literal.text.push_back("null");
            continue;
        }
        auto t = ElementText(v, i);
        if (!t.ok()) {
            Fail(t.status());
            return o;
        }
        o.literal.text.push_back(std::move(*t));
    }
    o.literal.value = std::move(value);
    return o;
}

Operand Builder::Bool(bool v) { return Literal(Scalar<uint8_t>(TypeKind::BOOL, v ? 1 : 0)); }
Operand Builder::Char(char v) { return Literal(Scalar<uint8_t>(TypeKind::CHAR, static_cast<uint8_t>(v))); }
Operand Builder::I8(int8_t v) { return Literal(Scalar<int8_t>(TypeKind::I8, v)); }
Operand Builder::I16(int16_t v) { return Literal(Scalar<int16_t>(TypeKind::I16, v)); }
Operand Builder::I32(int32_t v) { return Literal(Scalar<int32_t>(TypeKind::I32, v)); }
Operand Builder::I64(int64_t v) { return Literal(Scalar<int64_t>(TypeKind::I64, v)); }
Operand Builder::F32(float v) { return Literal(Scalar<float>(TypeKind::F32, v)); }
Operand Builder::F64(double v) { return Literal(Scalar<double>(TypeKind::F64, v)); }
Operand Builder::Str(std::string_view v) { return Literal(StringScalar(TypeKind::STR, v)); }
Operand Builder::Sym(std::string_view v) { return Literal(StringScalar(TypeKind::SYM, v)); }
Operand Builder::Date(int32_t d) { return Literal(Scalar<int32_t>(TypeKind::DATE, d)); }
Operand Builder::Month(int32_t m) { return Literal(Scalar<int32_t>(TypeKind::MONTH, m)); }
Operand Builder::Minute(int32_t m) { return Literal(Scalar<int32_t>(TypeKind::MINUTE, m)); }
Operand Builder::Second(int32_t s) { return Literal(Scalar<int32_t>(TypeKind::SECOND, s)); }
Operand Builder::Time(int64_t us) { return Literal(Scalar<int64_t>(TypeKind::TIME, us)); }
Operand Builder::Dt(int64_t us) { return Literal(Scalar<int64_t>(TypeKind::DT, us)); }
Operand Builder::Dec64(int64_t unscaled, int32_t scale) {
    if (scale < 0 || scale > 18) {
        Fail(Status::Internal("Builder: dec64 scale " + std::to_string(scale) + " out of range"));
        return Operand();
    }
    return Literal(Scalar<int64_t>(Type::Decimal(TypeKind::DEC64, scale), unscaled));
}
Operand Builder::Dec128(__int128 unscaled, int32_t scale) {
    if (scale < 0 || scale > 38) {
        Fail(Status::Internal("Builder: dec128 scale " + std::to_string(scale) + " out of range"));
        return Operand();
    }
    return Literal(Scalar<__int128>(Type::Decimal(TypeKind::DEC128, scale), unscaled));
}
Operand Builder::Null(Type type) {
    auto v = MakeVector(type, 1);
    if (!v.ok()) {
        Fail(v.status());
        return Operand();
    }
    if (IsString(type.kind)) (*v)->offsets.assign(2, 0);
    (*v)->SetNull(0);
    return Literal(*v);
}
Operand Builder::Syms(const std::vector<std::string> &v) {
    auto x = MakeVector(Type(TypeKind::SYM), 0);
    if (!x.ok()) {
        Fail(x.status());
        return Operand();
    }
    for (const auto &s : v) (*x)->AppendString(s);
    return Literal(*x);
}
Operand Builder::I64s(const std::vector<int64_t> &v) {
    auto x = MakeVector(Type(TypeKind::I64), static_cast<int64_t>(v.size()));
    if (!x.ok()) {
        Fail(x.status());
        return Operand();
    }
    for (size_t i = 0; i < v.size(); ++i) (*x)->Data<int64_t>()[i] = v[i];
    return Literal(*x);
}
Operand Builder::Bools(const std::vector<bool> &v) {
    auto x = MakeVector(Type(TypeKind::BOOL), static_cast<int64_t>(v.size()));
    if (!x.ok()) {
        Fail(x.status());
        return Operand();
    }
    for (size_t i = 0; i < v.size(); ++i) (*x)->Data<uint8_t>()[i] = v[i] ? 1 : 0;
    return Literal(*x);
}

Expected<Program> Builder::Finish() {
    if (!blocks_.empty()) Fail(Status::Internal("Builder: " + std::to_string(blocks_.size()) + " block(s) not closed (End)"));
    if (!status_.ok()) return status_;
    Locator().Program_(program_);
    Program out = std::move(program_);
    program_ = Program();
    function_ = -1;
    return out;
}

}  // namespace rndn::hir
