// Lexer and recursive-descent parser for HorseIR text (rNdN dialect plus the rndn extensions
// of README.md).  Every error is a PARSE_ERROR "file:line:col: message"; nothing here aborts.
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "horseir/internal.h"

namespace rndn::hir {

namespace {

enum class Tok : uint8_t { END, IDENT, INT, FLOAT, COMPLEX, CHAR, STRING, SYMBOL, MONTH, DATE, MINUTE, SECOND, TIME, DATETIME, PUNCT };

const char *TokName(Tok t) {
    static const char *names[] = {"end of input", "identifier", "integer", "float", "complex", "char literal", "string literal",
                                  "symbol", "month", "date", "minute", "second", "time", "datetime", "punctuation"};
    return names[static_cast<int>(t)];
}

struct Token {
    Tok kind = Tok::END;
    std::string text;  // source spelling (punctuation: the character)
    Loc loc;
};

bool IsIdStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// The words a float literal may be instead of digits: NaN:f64, Infinity:f64, -Infinity:f32.
bool FloatWord(const std::string &s) { return s == "NaN" || s == "Infinity"; }

class Lexer {
public:
    Lexer(std::string_view text, std::string_view file) : s_(text), file_(file) {}

    Status Run(std::vector<Token> &out) {
        for (;;) {
            PollCancel(static_cast<int64_t>(out.size()));
            RNDN_RETURN_IF_ERROR(SkipSpace());
            Token t;
            t.loc = Loc{line_, col_};
            if (p_ >= s_.size()) {
                out.push_back(t);
                return Status::Ok();
            }
            RNDN_RETURN_IF_ERROR(Next(t));
            out.push_back(std::move(t));
        }
    }

private:
    Status Error(Loc loc, const std::string &m) const {
        return Status::ParseError(std::string(file_) + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ": " + m);
    }
    char At(size_t k) const { return p_ + k < s_.size() ? s_[p_ + k] : '\0'; }
    void Advance(size_t n) {
        for (size_t i = 0; i < n && p_ < s_.size(); ++i) {
            if (s_[p_] == '\n') {
                ++line_;
                col_ = 1;
            } else {
                ++col_;
            }
            ++p_;
        }
    }
    Status SkipSpace() {
        for (;;) {
            char c = At(0);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                Advance(1);
            } else if (c == '/' && At(1) == '/') {
                while (p_ < s_.size() && s_[p_] != '\n') Advance(1);
            } else if (c == '/' && At(1) == '*') {
                Loc start{line_, col_};
                Advance(2);
                while (p_ < s_.size() && !(At(0) == '*' && At(1) == '/')) Advance(1);
                if (p_ >= s_.size()) return Error(start, "unterminated block comment");
                Advance(2);
            } else {
                return Status::Ok();
            }
        }
    }
    // Number of digits starting at offset k.
    size_t Digits(size_t k) const {
        size_t n = 0;
        while (IsDigit(At(k + n))) ++n;
        return n;
    }
    // Tries the calendar patterns at offset k; returns the token length or 0.
    size_t Calendar(size_t k, Tok *kind) const {
        auto digits_exact = [&](size_t off, size_t n) {
            for (size_t i = 0; i < n; ++i)
                if (!IsDigit(At(off + i))) return false;
            return !IsDigit(At(off + n));
        };
        if (digits_exact(k, 4) && At(k + 4) == '-' && digits_exact(k + 5, 2)) {
            if (At(k + 7) == '-' && digits_exact(k + 8, 2)) {
                if (At(k + 10) == 'T' && digits_exact(k + 11, 2) && At(k + 13) == ':' && digits_exact(k + 14, 2) && At(k + 16) == ':' &&
                    digits_exact(k + 17, 2) && At(k + 19) == '.') {
                    // milliseconds (.mmm) or microseconds (.uuuuuu)
                    if (digits_exact(k + 20, 3)) {
                        *kind = Tok::DATETIME;
                        return 23;
                    }
                    if (digits_exact(k + 20, 6)) {
                        *kind = Tok::DATETIME;
                        return 26;
                    }
                }
                *kind = Tok::DATE;
                return 10;
            }
            *kind = Tok::MONTH;
            return 7;
        }
        if (digits_exact(k, 2) && At(k + 2) == ':' && digits_exact(k + 3, 2)) {
            if (At(k + 5) == ':' && digits_exact(k + 6, 2)) {
                if (At(k + 8) == '.' && digits_exact(k + 9, 3)) {
                    *kind = Tok::TIME;
                    return 12;
                }
                *kind = Tok::SECOND;
                return 8;
            }
            *kind = Tok::MINUTE;
            return 5;
        }
        return 0;
    }
    // Length of an INT or FLOAT (unsigned) starting at offset k; 0 if none.
    size_t Number(size_t k, bool *is_float) const {
        size_t n = Digits(k);
        *is_float = false;
        if (At(k + n) == '.' && (n > 0 || IsDigit(At(k + n + 1)))) {
            *is_float = true;
            n += 1 + Digits(k + n + 1);
        }
        if (n == 0) return 0;
        if ((At(k + n) == 'e' || At(k + n) == 'E')) {
            size_t m = 1;
            if (At(k + n + 1) == '+' || At(k + n + 1) == '-') ++m;
            size_t d = Digits(k + n + m);
            if (d > 0) {
                *is_float = true;
                n += m + d;
            }
        }
        return n;
    }
    Status ReadQuoted(char quote, Token &t) {
        // p_ at the opening quote; keep the spelling, validate escapes.
        size_t start = p_;
        Advance(1);
        for (;;) {
            char c = At(0);
            if (p_ >= s_.size() || c == '\n') return Error(t.loc, "unterminated literal");
            if (c == '\\') {
                char e = At(1);
                if (!(e == 'a' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't' || e == 'v' || e == '\\' || e == '"' || e == '\''))
                    return Error(Loc{line_, col_}, "invalid escape sequence");
                Advance(2);
                continue;
            }
            Advance(1);
            if (c == quote) break;
        }
        t.text = std::string(s_.substr(start, p_ - start));
        return Status::Ok();
    }
    Status Next(Token &t) {
        char c = At(0);
        if (IsIdStart(c)) {
            size_t n = 1;
            while (IsIdChar(At(n))) ++n;
            t.kind = Tok::IDENT;
            t.text = std::string(s_.substr(p_, n));
            Advance(n);
            return Status::Ok();
        }
        if (c == '"') {
            t.kind = Tok::STRING;
            return ReadQuoted('"', t);
        }
        if (c == '\'') {
            t.kind = Tok::CHAR;
            return ReadQuoted('\'', t);
        }
        if (c == '`') {
            t.kind = Tok::SYMBOL;
            if (At(1) == '"') {
                size_t start = p_;
                Advance(1);
                Token inner;
                inner.loc = t.loc;
                RNDN_RETURN_IF_ERROR(ReadQuoted('"', inner));
                t.text = std::string(s_.substr(start, p_ - start));
                return Status::Ok();
            }
            size_t n = 1;
            if (IsIdStart(At(1))) {
                while (IsIdChar(At(n))) ++n;
            }
            t.text = std::string(s_.substr(p_, n));
            Advance(n);
            return Status::Ok();
        }
        bool sign = (c == '+' || c == '-') && (IsDigit(At(1)) || (At(1) == '.' && IsDigit(At(2))));
        if (IsDigit(c) || sign || (c == '.' && IsDigit(At(1)))) {
            size_t k = sign ? 1 : 0;
            Tok cal;
            size_t cl = sign ? 0 : Calendar(0, &cal);
            if (cl) {
                t.kind = cal;
                t.text = std::string(s_.substr(p_, cl));
                Advance(cl);
                return Status::Ok();
            }
            bool is_float;
            size_t n = Number(k, &is_float);
            if (n == 0) return Error(t.loc, "malformed number");
            size_t len = k + n;
            // leading zeros are not allowed in the integer part ("007")
            if (At(k) == '0' && IsDigit(At(k + 1))) return Error(t.loc, "leading zeros are not allowed in a number");
            t.kind = is_float ? Tok::FLOAT : Tok::INT;
            // complex: NUMBER i | NUMBER [+-] NUMBER i
            if (At(len) == 'i' && !IsIdChar(At(len + 1))) {
                t.kind = Tok::COMPLEX;
                len += 1;
            } else if ((At(len) == '+' || At(len) == '-')) {
                bool f2;
                size_t m = Number(len + 1, &f2);
                if (m > 0 && At(len + 1 + m) == 'i' && !IsIdChar(At(len + 2 + m))) {
                    t.kind = Tok::COMPLEX;
                    len += 1 + m + 1;
                }
            }
            if (IsIdStart(At(len)) && t.kind != Tok::COMPLEX) return Error(t.loc, "malformed number");
            t.text = std::string(s_.substr(p_, len));
            Advance(len);
            return Status::Ok();
        }
        static const std::string_view kPunct = "(){}[]<>=:+-?;,@.*/";
        if (kPunct.find(c) != std::string_view::npos) {
            t.kind = Tok::PUNCT;
            t.text = std::string(1, c);
            Advance(1);
            return Status::Ok();
        }
        return Error(t.loc, std::string("unexpected character '") + (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "\\x" + std::to_string(static_cast<unsigned char>(c))) + "'");
    }

    std::string_view s_;
    std::string_view file_;
    size_t p_ = 0;
    int line_ = 1, col_ = 1;
};

const char *const kKeywords[] = {"module", "import", "global", "def", "kernel", "check_cast", "if", "else", "while",
                                 "repeat", "var", "return", "break", "continue"};
const char *const kTypeKeywords[] = {"bool", "char", "i8", "i16", "i32", "i64", "f32", "f64", "complex", "sym", "str", "month",
                                     "date", "dt", "minute", "second", "time", "func", "list", "dict", "enum", "table", "ktable",
                                     "dec64", "dec128"};

bool IsKeyword(const std::string &s) {
    for (const char *k : kKeywords)
        if (s == k) return true;
    for (const char *k : kTypeKeywords)
        if (s == k) return true;
    return false;
}

// Unescapes the body of a quoted literal (quotes included in `t`).
std::string Unquote(std::string_view t) {
    std::string out;
    for (size_t i = 1; i + 1 < t.size(); ++i) {
        char c = t[i];
        if (c == '\\' && i + 2 < t.size() + 1) {
            char e = t[++i];
            switch (e) {
                case 'a': c = '\a'; break;
                case 'b': c = '\b'; break;
                case 'f': c = '\f'; break;
                case 'n': c = '\n'; break;
                case 'r': c = '\r'; break;
                case 't': c = '\t'; break;
                case 'v': c = '\v'; break;
                default: c = e; break;
            }
        }
        out.push_back(c);
    }
    return out;
}

class Parser {
public:
    Parser(std::vector<Token> toks, std::string_view file) : t_(std::move(toks)), file_(file) {}

    Expected<Program> Run() {
        Program prog;
        prog.filename = std::string(file_);
        while (Peek().kind != Tok::END) {
            Module m;
            RNDN_RETURN_IF_ERROR(ParseModule(m));
            prog.modules.push_back(std::move(m));
        }
        return prog;
    }

private:
    const Token &Peek(size_t k = 0) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
    const Token &Take() {
        const Token &t = t_[i_];
        if (i_ + 1 < t_.size()) ++i_;
        return t;
    }
    bool IsP(char c, size_t k = 0) const { return Peek(k).kind == Tok::PUNCT && Peek(k).text[0] == c; }
    bool IsId(const char *s, size_t k = 0) const { return Peek(k).kind == Tok::IDENT && Peek(k).text == s; }
    Status Error(const Token &t, const std::string &m) const {
        return Status::ParseError(std::string(file_) + ":" + std::to_string(t.loc.line) + ":" + std::to_string(t.loc.col) + ": " + m);
    }
    Status Unexpected(const std::string &what) const {
        const Token &t = Peek();
        std::string got = t.kind == Tok::END ? "end of input" : "'" + t.text + "'";
        return Error(t, "expected " + what + ", found " + got);
    }
    Status Expect(char c) {
        if (!IsP(c)) return Unexpected(std::string("'") + c + "'");
        Take();
        return Status::Ok();
    }
    Status ExpectId(const char *kw) {
        if (!IsId(kw)) return Unexpected(std::string("'") + kw + "'");
        Take();
        return Status::Ok();
    }
    // A name (identifier that is not a keyword).
    Status Name(std::string &out, Loc *loc = nullptr) {
        if (Peek().kind != Tok::IDENT) return Unexpected("identifier");
        if (IsKeyword(Peek().text)) return Error(Peek(), "'" + Peek().text + "' is a keyword and cannot be used as a name");
        if (loc) *loc = Peek().loc;
        out = Take().text;
        return Status::Ok();
    }
    // A name after '@', '@X.' or 'import X.': type keywords allowed.
    Status FuncName(std::string &out) {
        if (Peek().kind != Tok::IDENT) return Unexpected("function name");
        out = Take().text;
        return Status::Ok();
    }

    Status EnterDepth() {
        if (++depth_ > 200) return Error(Peek(), "nesting too deep");
        return Status::Ok();
    }

    Status ParseModule(Module &m) {
        m.loc = Peek().loc;
        RNDN_RETURN_IF_ERROR(ExpectId("module"));
        RNDN_RETURN_IF_ERROR(Name(m.name));
        RNDN_RETURN_IF_ERROR(Expect('{'));
        while (!IsP('}')) {
            if (Peek().kind == Tok::END) return Unexpected("'}'");
            if (IsId("import")) {
                Import imp;
                imp.loc = Take().loc;
                RNDN_RETURN_IF_ERROR(Name(imp.module));
                RNDN_RETURN_IF_ERROR(Expect('.'));
                if (IsP('*')) {
                    Take();
                    imp.star = true;
                } else if (IsP('{')) {
                    Take();
                    for (;;) {
                        std::string n;
                        RNDN_RETURN_IF_ERROR(FuncName(n));
                        imp.names.push_back(n);
                        if (IsP(',')) {
                            Take();
                            continue;
                        }
                        break;
                    }
                    RNDN_RETURN_IF_ERROR(Expect('}'));
                } else {
                    std::string n;
                    RNDN_RETURN_IF_ERROR(FuncName(n));
                    imp.names.push_back(n);
                }
                RNDN_RETURN_IF_ERROR(Expect(';'));
                m.order.emplace_back(0, static_cast<int>(m.imports.size()));
                m.imports.push_back(std::move(imp));
            } else if (IsId("global")) {
                Global g;
                g.loc = Take().loc;
                RNDN_RETURN_IF_ERROR(Name(g.name));
                RNDN_RETURN_IF_ERROR(Expect(':'));
                RNDN_RETURN_IF_ERROR(ParseType(g.type));
                RNDN_RETURN_IF_ERROR(Expect('='));
                RNDN_RETURN_IF_ERROR(ParseOperand(g.init));
                RNDN_RETURN_IF_ERROR(Expect(';'));
                m.order.emplace_back(1, static_cast<int>(m.globals.size()));
                m.globals.push_back(std::move(g));
            } else if (IsId("def") || IsId("kernel")) {
                Function f;
                f.loc = Peek().loc;
                f.is_kernel = Take().text == "kernel";
                RNDN_RETURN_IF_ERROR(Name(f.name));
                RNDN_RETURN_IF_ERROR(Expect('('));
                if (!IsP(')')) {
                    for (;;) {
                        Param p;
                        RNDN_RETURN_IF_ERROR(Name(p.name, &p.loc));
                        RNDN_RETURN_IF_ERROR(Expect(':'));
                        RNDN_RETURN_IF_ERROR(ParseType(p.type));
                        f.params.push_back(std::move(p));
                        if (IsP(',')) {
                            Take();
                            continue;
                        }
                        break;
                    }
                }
                RNDN_RETURN_IF_ERROR(Expect(')'));
                if (IsP(':')) {
                    Take();
                    for (;;) {
                        Type t;
                        RNDN_RETURN_IF_ERROR(ParseType(t));
                        f.returns.push_back(std::move(t));
                        if (IsP(',')) {
                            Take();
                            continue;
                        }
                        break;
                    }
                }
                RNDN_RETURN_IF_ERROR(ParseBlock(f.body));
                m.order.emplace_back(2, static_cast<int>(m.functions.size()));
                m.functions.push_back(std::move(f));
            } else {
                return Unexpected("'import', 'global', 'def' or 'kernel'");
            }
        }
        Take();
        return Status::Ok();
    }

    Status ParseType(Type &t) {
        RNDN_RETURN_IF_ERROR(EnterDepth());
        Status st = ParseTypeInner(t);
        --depth_;
        return st;
    }
    Status ParseTypeInner(Type &t) {
        if (IsP('?')) {
            Take();
            t = Type(TypeKind::WILDCARD);
            return Status::Ok();
        }
        if (Peek().kind != Tok::IDENT) return Unexpected("type");
        const Token &tok = Take();
        const std::string &n = tok.text;
        for (int k = 0; k <= static_cast<int>(TypeKind::KTABLE); ++k) {
            TypeKind kind = static_cast<TypeKind>(k);
            if (kind == TypeKind::WILDCARD || n != TypeKindName(kind)) continue;
            t = Type(kind);
            if (IsDecimal(kind)) {
                RNDN_RETURN_IF_ERROR(Expect('<'));
                if (IsP('?')) {
                    Take();
                    t.scale = Type::kUnknownScale;
                } else {
                    if (Peek().kind != Tok::INT) return Unexpected("decimal scale");
                    long v = std::strtol(Peek().text.c_str(), nullptr, 10);
                    if (v < 0 || v > 38) return Error(Peek(), "decimal scale must be between 0 and 38");
                    Take();
                    t.scale = static_cast<int32_t>(v);
                }
                return Expect('>');
            }
            if (kind == TypeKind::LIST || kind == TypeKind::DICT || kind == TypeKind::ENUM) {
                RNDN_RETURN_IF_ERROR(Expect('<'));
                for (;;) {
                    Type p;
                    RNDN_RETURN_IF_ERROR(ParseType(p));
                    t.params.push_back(std::move(p));
                    if (IsP(',')) {
                        Take();
                        continue;
                    }
                    break;
                }
                RNDN_RETURN_IF_ERROR(Expect('>'));
                if (kind == TypeKind::DICT && t.params.size() != 2) return Error(tok, "dict takes two type parameters");
                if (kind == TypeKind::ENUM && t.params.size() != 1) return Error(tok, "enum takes one type parameter");
            }
            return Status::Ok();
        }
        return Error(tok, "unknown type '" + n + "'");
    }

    Status ParseBlock(std::vector<Stmt> &body) {
        RNDN_RETURN_IF_ERROR(Expect('{'));
        while (!IsP('}')) {
            if (Peek().kind == Tok::END) return Unexpected("'}'");
            Stmt s;
            RNDN_RETURN_IF_ERROR(ParseStmt(s));
            body.push_back(std::move(s));
        }
        Take();
        return Status::Ok();
    }
    Status ParseBody(std::vector<Stmt> &body) {
        if (IsP('{')) return ParseBlock(body);
        Stmt s;
        RNDN_RETURN_IF_ERROR(ParseStmt(s));
        body.push_back(std::move(s));
        return Status::Ok();
    }

    Status ParseStmt(Stmt &s) {
        if ((++statements_ & 0xff) == 0) PollCancelNow();
        RNDN_RETURN_IF_ERROR(EnterDepth());
        Status st = ParseStmtInner(s);
        --depth_;
        return st;
    }
    Status ParseStmtInner(Stmt &s) {
        s.loc = Peek().loc;
        if (IsId("if") || IsId("while") || IsId("repeat")) {
            std::string kw = Take().text;
            s.kind = kw == "if" ? Stmt::Kind::IF : kw == "while" ? Stmt::Kind::WHILE : Stmt::Kind::REPEAT;
            RNDN_RETURN_IF_ERROR(Expect('('));
            Operand cond;
            RNDN_RETURN_IF_ERROR(ParseOperand(cond));
            s.operands.push_back(std::move(cond));
            RNDN_RETURN_IF_ERROR(Expect(')'));
            RNDN_RETURN_IF_ERROR(ParseBody(s.body));
            if (s.kind == Stmt::Kind::IF && IsId("else")) {
                Take();
                s.has_else = true;
                RNDN_RETURN_IF_ERROR(ParseBody(s.else_body));
            }
            return Status::Ok();
        }
        if (IsId("return")) {
            Take();
            s.kind = Stmt::Kind::RETURN;
            if (!IsP(';')) {
                for (;;) {
                    Operand o;
                    RNDN_RETURN_IF_ERROR(ParseOperand(o));
                    s.operands.push_back(std::move(o));
                    if (IsP(',')) {
                        Take();
                        continue;
                    }
                    break;
                }
            }
            return Expect(';');
        }
        if (IsId("break") || IsId("continue")) {
            s.kind = Take().text == "break" ? Stmt::Kind::BREAK : Stmt::Kind::CONTINUE;
            return Expect(';');
        }
        if (IsId("var")) {
            Take();
            std::vector<Target> names;
            for (;;) {
                Target t;
                RNDN_RETURN_IF_ERROR(Name(t.name, &t.loc));
                t.declares = true;
                names.push_back(std::move(t));
                if (IsP(',')) {
                    Take();
                    continue;
                }
                break;
            }
            RNDN_RETURN_IF_ERROR(Expect(':'));
            Type ty;
            RNDN_RETURN_IF_ERROR(ParseType(ty));
            for (auto &t : names) t.type = ty;
            s.targets = std::move(names);
            if (IsP('=')) {  // extension: var x:T = e;  (single name)
                if (s.targets.size() != 1) return Error(Peek(), "'var' with '=' declares exactly one name");
                Take();
                s.kind = Stmt::Kind::ASSIGN;
                RNDN_RETURN_IF_ERROR(ParseExpr(s.expr));
                return Expect(';');
            }
            s.kind = Stmt::Kind::VAR;
            return Expect(';');
        }
        // Assignment: Target {, Target} = Expr ;   or expression statement.
        if (Peek().kind == Tok::IDENT && !IsKeyword(Peek().text) &&
            (IsP(':', 1) || IsP('=', 1) || IsP(',', 1) || (IsP('.', 1) && Peek(2).kind == Tok::IDENT && (IsP('=', 3) || IsP(',', 3))))) {
            s.kind = Stmt::Kind::ASSIGN;
            for (;;) {
                Target t;
                RNDN_RETURN_IF_ERROR(Name(t.name, &t.loc));
                if (IsP('.')) {
                    Take();
                    t.module = t.name;
                    RNDN_RETURN_IF_ERROR(Name(t.name));
                } else if (IsP(':')) {
                    Take();
                    t.declares = true;
                    RNDN_RETURN_IF_ERROR(ParseType(t.type));
                }
                s.targets.push_back(std::move(t));
                if (IsP(',')) {
                    Take();
                    continue;
                }
                break;
            }
            RNDN_RETURN_IF_ERROR(Expect('='));
            RNDN_RETURN_IF_ERROR(ParseExpr(s.expr));
            return Expect(';');
        }
        s.kind = Stmt::Kind::EXPR;
        RNDN_RETURN_IF_ERROR(ParseExpr(s.expr));
        return Expect(';');
    }

    Status ParseExpr(Expr &e) {
        RNDN_RETURN_IF_ERROR(EnterDepth());
        Status st = ParseExprInner(e);
        --depth_;
        return st;
    }
    Status ParseExprInner(Expr &e) {
        e.loc = Peek().loc;
        if (IsId("check_cast")) {
            Take();
            e.kind = Expr::Kind::CAST;
            RNDN_RETURN_IF_ERROR(Expect('('));
            e.inner = std::make_shared<Expr>();
            RNDN_RETURN_IF_ERROR(ParseExpr(*e.inner));
            RNDN_RETURN_IF_ERROR(Expect(','));
            RNDN_RETURN_IF_ERROR(ParseType(e.cast_type));
            return Expect(')');
        }
        if (IsP('@') && !IsP(':', FuncRefLength())) {
            // a call if '(' follows the function reference
            size_t n = FuncRefLength();
            if (IsP('(', n)) {
                e.kind = Expr::Kind::CALL;
                RNDN_RETURN_IF_ERROR(ParseFuncRef(e.callee));
                RNDN_RETURN_IF_ERROR(Expect('('));
                if (!IsP(')')) {
                    for (;;) {
                        Operand o;
                        RNDN_RETURN_IF_ERROR(ParseOperand(o));
                        e.args.push_back(std::move(o));
                        // concatenated function literals "@lt@eq": two arguments
                        if (IsP(',')) {
                            Take();
                            continue;
                        }
                        if (IsP('@')) continue;
                        break;
                    }
                }
                return Expect(')');
            }
        }
        e.kind = Expr::Kind::OPERAND;
        return ParseOperand(e.operand);
    }
    // Tokens in "@name" or "@mod.name".
    size_t FuncRefLength() const {
        if (!IsP('@')) return 0;
        if (IsP('.', 2)) return 4;
        return 2;
    }
    Status ParseFuncRef(Operand &o) {
        o.kind = Operand::Kind::FUNC;
        o.loc = Peek().loc;
        RNDN_RETURN_IF_ERROR(Expect('@'));
        RNDN_RETURN_IF_ERROR(FuncName(o.name));
        if (IsP('.')) {
            Take();
            o.module = o.name;
            RNDN_RETURN_IF_ERROR(FuncName(o.name));
        }
        return Status::Ok();
    }

    Status ParseOperand(Operand &o) {
        o.loc = Peek().loc;
        if (IsP('@')) {
            RNDN_RETURN_IF_ERROR(ParseFuncRef(o));
            if (IsP(':') && IsId("func", 1)) {
                Take();
                Take();
                o.func_suffix = true;
            }
            return Status::Ok();
        }
        if (IsP('(')) {
            Take();
            o.kind = Operand::Kind::LITERAL;
            std::vector<Token> elems;
            for (;;) {
                Token t;
                RNDN_RETURN_IF_ERROR(ParseScalar(t));
                elems.push_back(std::move(t));
                if (IsP(',')) {
                    Take();
                    continue;
                }
                break;
            }
            RNDN_RETURN_IF_ERROR(Expect(')'));
            RNDN_RETURN_IF_ERROR(Expect(':'));
            RNDN_RETURN_IF_ERROR(ParseType(o.literal.type));
            return BuildLiteral(o.literal, elems);
        }
        if (Peek().kind == Tok::IDENT && !((Peek().text == "null" || FloatWord(Peek().text)) && IsP(':', 1))) {
            RNDN_RETURN_IF_ERROR(Name(o.name));
            o.kind = Operand::Kind::NAME;
            if (IsP('.') && Peek(1).kind == Tok::IDENT) {
                Take();
                o.module = o.name;
                RNDN_RETURN_IF_ERROR(Name(o.name));
            }
            return Status::Ok();
        }
        o.kind = Operand::Kind::LITERAL;
        Token t;
        RNDN_RETURN_IF_ERROR(ParseScalar(t));
        RNDN_RETURN_IF_ERROR(Expect(':'));
        RNDN_RETURN_IF_ERROR(ParseType(o.literal.type));
        return BuildLiteral(o.literal, {t});
    }

    Status ParseScalar(Token &t) {
        // sign as a separate token
        if ((IsP('-') || IsP('+')) && (Peek(1).kind == Tok::INT || Peek(1).kind == Tok::FLOAT || Peek(1).kind == Tok::COMPLEX ||
                                       (Peek(1).kind == Tok::IDENT && Peek(1).text == "Infinity"))) {
            std::string sign = Take().text;
            t = Take();
            if (t.text[0] == '-' || t.text[0] == '+') return Error(t, "two signs in a number");
            t.text = sign + t.text;
            return Status::Ok();
        }
        Tok k = Peek().kind;
        if (k == Tok::IDENT && (Peek().text == "null" || FloatWord(Peek().text))) {
            t = Take();
            return Status::Ok();
        }
        if (k == Tok::END || k == Tok::PUNCT || k == Tok::IDENT) return Unexpected("literal");
        t = Take();
        return Status::Ok();
    }

    Status BuildLiteral(Literal &lit, const std::vector<Token> &elems) {
        const Type &ty = lit.type;
        if (!IsBasic(ty.kind)) return Error(elems[0], "'" + TypeToString(ty) + "' is not a literal type");
        if (ty.kind == TypeKind::COMPLEX) {
            for (const auto &e : elems)
                if (e.kind != Tok::COMPLEX && e.kind != Tok::INT && e.kind != Tok::FLOAT && e.text != "null")
                    return Error(e, "complex literal expected");
            lit.text.clear();
            for (const auto &e : elems) lit.text.push_back(e.text);
            auto v = MakeVector(ty, 0);  // complex values are not materialised
            if (!v.ok()) return v.status();
            return Status::Ok();
        }
        if (IsDecimal(ty.kind) && ty.scale == Type::kUnknownScale) return Error(elems[0], "a decimal literal needs a scale");
        std::shared_ptr<Vector> v;
        if (IsString(ty.kind)) {
            RNDN_ASSIGN_OR_RETURN(v, MakeVector(ty, 0));
        } else {
            RNDN_ASSIGN_OR_RETURN(v, MakeVector(ty, static_cast<int64_t>(elems.size())));
        }
        for (size_t i = 0; i < elems.size(); ++i) {
            const Token &e = elems[i];
            lit.text.push_back(e.text);
            int64_t idx = static_cast<int64_t>(i);
            if (e.kind == Tok::IDENT && e.text == "null") {
                if (IsString(ty.kind)) v->AppendString("");
                v->SetNull(idx);
                continue;
            }
            RNDN_RETURN_IF_ERROR(StoreElement(*v, idx, e));
        }
        lit.value = v;
        return Status::Ok();
    }

    Status StoreElement(Vector &v, int64_t i, const Token &e) {
        TypeKind k = v.type.kind;
        auto mismatch = [&]() { return Error(e, std::string(TokName(e.kind)) + " cannot be a " + TypeToString(v.type) + " literal"); };
        auto int_value = [&](int64_t lo, int64_t hi, int64_t *out) -> Status {
            if (e.kind != Tok::INT) return mismatch();
            errno = 0;
            char *end = nullptr;
            long long x = std::strtoll(e.text.c_str(), &end, 10);
            if (errno == ERANGE || x < lo || x > hi) return Error(e, "literal " + e.text + " is out of range for " + TypeToString(v.type));
            *out = x;
            return Status::Ok();
        };
        int64_t x = 0;
        switch (k) {
            case TypeKind::BOOL:
                RNDN_RETURN_IF_ERROR(int_value(0, 1, &x));
                v.Data<uint8_t>()[i] = static_cast<uint8_t>(x);
                return Status::Ok();
            case TypeKind::I8:
                RNDN_RETURN_IF_ERROR(int_value(INT8_MIN, INT8_MAX, &x));
                v.Data<int8_t>()[i] = static_cast<int8_t>(x);
                return Status::Ok();
            case TypeKind::I16:
                RNDN_RETURN_IF_ERROR(int_value(INT16_MIN, INT16_MAX, &x));
                v.Data<int16_t>()[i] = static_cast<int16_t>(x);
                return Status::Ok();
            case TypeKind::I32:
                RNDN_RETURN_IF_ERROR(int_value(INT32_MIN, INT32_MAX, &x));
                v.Data<int32_t>()[i] = static_cast<int32_t>(x);
                return Status::Ok();
            case TypeKind::I64:
                RNDN_RETURN_IF_ERROR(int_value(INT64_MIN, INT64_MAX, &x));
                v.Data<int64_t>()[i] = x;
                return Status::Ok();
            case TypeKind::F32:
            case TypeKind::F64: {
                if (e.kind == Tok::IDENT) {  // NaN, Infinity, -Infinity (as the printer spells them)
                    const double w = e.text == "NaN" ? std::numeric_limits<double>::quiet_NaN()
                                     : e.text == "Infinity" || e.text == "+Infinity" ? std::numeric_limits<double>::infinity()
                                     : e.text == "-Infinity" ? -std::numeric_limits<double>::infinity()
                                                              : 0.0;
                    if (w == 0.0) return mismatch();
                    if (k == TypeKind::F32) v.Data<float>()[i] = static_cast<float>(w);
                    else v.Data<double>()[i] = w;
                    return Status::Ok();
                }
                if (e.kind != Tok::INT && e.kind != Tok::FLOAT) return mismatch();
                double d = std::strtod(e.text.c_str(), nullptr);
                if (k == TypeKind::F32) v.Data<float>()[i] = std::strtof(e.text.c_str(), nullptr);
                else v.Data<double>()[i] = d;
                return Status::Ok();
            }
            case TypeKind::DEC64:
            case TypeKind::DEC128: {
                if (e.kind != Tok::INT && e.kind != Tok::FLOAT) return mismatch();
                if (e.text.find_first_of("eE") != std::string::npos) return Error(e, "exponent form is not allowed in a decimal literal");
                auto d = ParseDecimal(e.text, v.type.scale);
                if (!d.ok()) return Error(e, d.status().message());
                if (k == TypeKind::DEC64) {
                    if (*d > INT64_MAX || *d < INT64_MIN) return Error(e, "literal " + e.text + " is out of range for dec64");
                    v.Data<int64_t>()[i] = static_cast<int64_t>(*d);
                } else {
                    v.Data<__int128>()[i] = *d;
                }
                return Status::Ok();
            }
            case TypeKind::CHAR: {
                if (e.kind != Tok::CHAR) return mismatch();
                std::string s = Unquote(e.text);
                if (s.size() != 1) return Error(e, "a char literal holds exactly one character");
                v.Data<uint8_t>()[i] = static_cast<uint8_t>(s[0]);
                return Status::Ok();
            }
            case TypeKind::STR:
                if (e.kind != Tok::STRING) return mismatch();
                v.AppendString(Unquote(e.text));
                return Status::Ok();
            case TypeKind::INTERVAL: {  // "<months>m <days>d <microseconds>us"
                if (e.kind != Tok::STRING) return mismatch();
                if (!ParseIntervalText(Unquote(e.text), &v.Data<IntervalValue>()[i]))
                    return Error(e, "an interval literal is \"<months>m <days>d <microseconds>us\", not " + e.text);
                return Status::Ok();
            }
            case TypeKind::SYM:
                if (e.kind != Tok::SYMBOL) return mismatch();
                if (e.text.size() > 1 && e.text[1] == '"') v.AppendString(Unquote(e.text.substr(1)));
                else v.AppendString(e.text.substr(1));
                return Status::Ok();
            case TypeKind::DATE:
            case TypeKind::MONTH:
            case TypeKind::DT: {
                if (e.kind == Tok::IDENT && k != TypeKind::MONTH) {  // Infinity:dt, -Infinity:date (PostgreSQL's infinities)
                    const bool pos = e.text == "Infinity" || e.text == "+Infinity", neg = e.text == "-Infinity";
                    if (!pos && !neg) return mismatch();
                    if (k == TypeKind::DATE) v.Data<int32_t>()[i] = pos ? INT32_MAX : INT32_MIN;
                    else v.Data<int64_t>()[i] = pos ? INT64_MAX : INT64_MIN;
                    return Status::Ok();
                }
                Tok want = k == TypeKind::DATE ? Tok::DATE : k == TypeKind::MONTH ? Tok::MONTH : Tok::DATETIME;
                if (e.kind != want) return mismatch();
                int y = std::atoi(e.text.substr(0, 4).c_str()), m = std::atoi(e.text.substr(5, 2).c_str());
                int d = k == TypeKind::MONTH ? 1 : std::atoi(e.text.substr(8, 2).c_str());
                static const int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
                bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
                if (m < 1 || m > 12 || d < 1 || d > kDays[m - 1] || (m == 2 && d == 29 && !leap))
                    return Error(e, "invalid calendar value " + e.text);
                if (k == TypeKind::MONTH) {
                    v.Data<int32_t>()[i] = (y - 2000) * 12 + (m - 1);
                } else if (k == TypeKind::DATE) {
                    v.Data<int32_t>()[i] = DaysFromCivil(y, m, d);
                } else {
                    int hh = std::atoi(e.text.substr(11, 2).c_str()), mi = std::atoi(e.text.substr(14, 2).c_str()),
                        ss = std::atoi(e.text.substr(17, 2).c_str()), ms = std::atoi(e.text.substr(20, 3).c_str());
                    const int us = e.text.size() == 26 ? std::atoi(e.text.substr(23, 3).c_str()) : 0;
                    if (hh > 23 || mi > 59 || ss > 59) return Error(e, "invalid calendar value " + e.text);
                    v.Data<int64_t>()[i] =
                        (static_cast<int64_t>(DaysFromCivil(y, m, d)) * 86400000LL + hh * 3600000LL + mi * 60000LL + ss * 1000LL + ms) * 1000LL + us;
                }
                return Status::Ok();
            }
            case TypeKind::MINUTE:
            case TypeKind::SECOND:
            case TypeKind::TIME: {
                Tok want = k == TypeKind::MINUTE ? Tok::MINUTE : k == TypeKind::SECOND ? Tok::SECOND : Tok::TIME;
                if (e.kind != want) return mismatch();
                int hh = std::atoi(e.text.substr(0, 2).c_str()), mi = std::atoi(e.text.substr(3, 2).c_str());
                int ss = k == TypeKind::MINUTE ? 0 : std::atoi(e.text.substr(6, 2).c_str());
                int ms = k == TypeKind::TIME ? std::atoi(e.text.substr(9, 3).c_str()) : 0;
                if (hh > 23 || mi > 59 || ss > 59) return Error(e, "invalid calendar value " + e.text);
                if (k == TypeKind::MINUTE) v.Data<int32_t>()[i] = hh * 60 + mi;
                else if (k == TypeKind::SECOND) v.Data<int32_t>()[i] = hh * 3600 + mi * 60 + ss;
                else v.Data<int64_t>()[i] = (hh * 3600000LL + mi * 60000LL + ss * 1000LL + ms) * 1000LL;
                return Status::Ok();
            }
            default: return mismatch();
        }
    }

    std::vector<Token> t_;
    uint32_t statements_ = 0;  // parsed so far (a cancel is polled every 256)
    std::string_view file_;
    size_t i_ = 0;
    int depth_ = 0;
};

}  // namespace

Expected<Program> ParseProgram(std::string_view text, std::string_view filename) {
    std::vector<Token> toks;
    Lexer lex(text, filename);
    RNDN_RETURN_IF_ERROR(lex.Run(toks));
    Parser p(std::move(toks), filename);
    return p.Run();
}

}  // namespace rndn::hir
