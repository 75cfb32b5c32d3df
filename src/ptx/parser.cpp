// PTX text -> ptx::Module.
//
// Recursive descent over the token stream of lexer.cpp.  The first error stops parsing and is
// returned as PARSE_ERROR "file:line:col: message".  Name resolution: registers and function-scope
// variables live in a stack of '{ }' scopes; then parameters, module globals and functions.
// Undeclared names and undefined labels are recorded for the verifier, not rejected here.
#include <cstring>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ptx/internal.h"
#include "ptx/lexer.h"
#include "ptx/ptx.h"

namespace rndn::ptx {
namespace {

constexpr int kMaxInitDepth = 8;
constexpr size_t kMaxRegRange = 1u << 17;  // registers per function; keeps hostile input bounded

struct Scope {
    std::unordered_map<std::string, RegId> regs;
    std::unordered_map<std::string, uint32_t> vars;  // Function::vars index
};

class Parser {
public:
    Parser(std::vector<Token> toks, std::string_view file) : t_(std::move(toks)), file_(file) {}

    Expected<Module> Run() {
        m_.filename = std::string(file_);
        m_.target.clear();
        if (!ParseModuleBody()) return Status::ParseError(error_);
        return std::move(m_);
    }

private:
    // ---- token helpers ----
    const Token &Peek(size_t k = 0) const {
        size_t i = pos_ + k;
        return i < t_.size() ? t_[i] : t_.back();
    }
    const Token &Next() {
        const Token &t = Peek();
        if (pos_ + 1 < t_.size()) ++pos_;
        return t;
    }
    bool IsPunct(char c, size_t k = 0) const { return Peek(k).kind == Tok::PUNCT && Peek(k).punct == c; }
    bool IsDot(std::string_view w, size_t k = 0) const { return Peek(k).kind == Tok::DOTWORD && Peek(k).text == w; }
    bool AtEnd() const { return Peek().kind == Tok::END; }

    bool Fail(SourceLoc loc, const std::string &msg) {
        if (error_.empty()) error_ = LocPrefix(file_, loc) + msg;
        return false;
    }
    bool FailAt(const Token &t, const std::string &msg) { return Fail(t.loc, msg); }
    static std::string Describe(const Token &t) {
        switch (t.kind) {
        case Tok::END: return "end of input";
        case Tok::DOTWORD: return "'." + std::string(t.text) + "'";
        case Tok::STRING: return "string literal";
        default: return "'" + std::string(t.text) + "'";
        }
    }
    bool Expect(char c) {
        if (IsPunct(c)) {
            Next();
            return true;
        }
        return FailAt(Peek(), std::string("expected '") + c + "' but found " + Describe(Peek()));
    }
    bool ExpectUInt(uint64_t &v, const char *what) {
        if (Peek().kind != Tok::INT) return FailAt(Peek(), std::string("expected ") + what + " but found " + Describe(Peek()));
        v = Next().bits;
        return true;
    }
    bool ExpectU32(uint32_t &v, const char *what) {
        uint64_t x = 0;
        SourceLoc loc = Peek().loc;
        if (!ExpectUInt(x, what)) return false;
        if (x > 0xffffffffu) return Fail(loc, std::string(what) + " out of range");
        v = static_cast<uint32_t>(x);
        return true;
    }

    // ---- module ----
    bool ParseModuleBody() {
        bool saw_version = false;
        while (!AtEnd()) {
            const Token &t = Peek();
            if (t.kind != Tok::DOTWORD) return FailAt(t, "expected a directive but found " + Describe(t));
            if (!saw_version && t.text != "version" && t.text != "file")
                return FailAt(t, "a module must start with .version");
            if (t.text == "version") {
                Next();
                if (!ParseVersion()) return false;
                saw_version = true;
            } else if (t.text == "target") {
                Next();
                if (!ParseTarget()) return false;
            } else if (t.text == "address_size") {
                Next();
                uint32_t v = 0;
                SourceLoc loc = Peek().loc;
                if (!ExpectU32(v, "address size")) return false;
                if (v != 32 && v != 64) return Fail(loc, ".address_size must be 32 or 64");
                m_.address_size = v;
            } else if (t.text == "file") {
                Next();
                if (!SkipFileDirective()) return false;
            } else if (t.text == "loc") {
                return FailAt(t, ".loc outside a function body");
            } else if (t.text == "section") {
                // DWARF sections (-lineinfo / -G): skipped; the printer emits no debug info.
                Next();
                if (Peek().kind != Tok::DOTWORD && Peek().kind != Tok::IDENT) return FailAt(Peek(), "expected a section name");
                Next();
                if (!IsPunct('{')) return FailAt(Peek(), "expected '{' after the section name");
                SourceLoc open = Next().loc;
                int depth = 1;
                while (depth > 0) {
                    if (AtEnd()) return Fail(open, "unterminated .section block");
                    if (IsPunct('{')) ++depth;
                    if (IsPunct('}')) --depth;
                    Next();
                }
            } else if (t.text == "pragma") {
                Next();
                if (Peek().kind != Tok::STRING) return FailAt(Peek(), "expected a string after .pragma");
                Next();
                if (!Expect(';')) return false;
            } else {
                if (!ParseTopLevelDecl()) return false;
            }
        }
        if (!saw_version) return Fail(Peek().loc, "missing .version directive");
        if (m_.target.empty()) return Fail(Peek().loc, "missing .target directive");
        return true;
    }

    bool ParseVersion() {
        const Token &t = Peek();
        std::string_view txt = t.text;
        size_t dot = txt.find('.');
        if ((t.kind != Tok::F64 && t.kind != Tok::INT) || (t.kind == Tok::F64 && dot == std::string_view::npos))
            return FailAt(t, "expected a version number like 9.0");
        uint32_t major = 0, minor = 0;
        size_t i = 0;
        for (; i < txt.size() && txt[i] != '.'; ++i) {
            if (txt[i] < '0' || txt[i] > '9' || major > 1000) return FailAt(t, "malformed version number");
            major = major * 10 + static_cast<uint32_t>(txt[i] - '0');
        }
        if (i < txt.size()) ++i;
        if (i >= txt.size() && t.kind == Tok::F64) return FailAt(t, "malformed version number");
        for (; i < txt.size(); ++i) {
            if (txt[i] < '0' || txt[i] > '9' || minor > 1000) return FailAt(t, "malformed version number");
            minor = minor * 10 + static_cast<uint32_t>(txt[i] - '0');
        }
        Next();
        m_.version_major = major;
        m_.version_minor = minor;
        return true;
    }

    bool ParseTarget() {
        while (true) {
            const Token &t = Peek();
            if (t.kind != Tok::IDENT) return FailAt(t, "expected a target name like sm_90");
            // "debug" promises DWARF sections, which the parser skips: drop it as well.
            if (t.text != "debug") m_.target.emplace_back(t.text);
            Next();
            if (!IsPunct(',')) break;
            Next();
        }
        return true;
    }

    bool SkipFileDirective() {
        // .file N "name" [, timestamp, size]
        uint64_t v = 0;
        if (!ExpectUInt(v, "file number")) return false;
        if (Peek().kind != Tok::STRING) return FailAt(Peek(), "expected a file name string");
        Next();
        while (IsPunct(',')) {
            Next();
            if (!ExpectUInt(v, "number")) return false;
        }
        return true;
    }

    bool ParseLinkage(Linkage &lk) {
        lk = Linkage::NONE;
        while (Peek().kind == Tok::DOTWORD) {
            std::string_view w = Peek().text;
            Linkage l;
            if (w == "visible") l = Linkage::VISIBLE;
            else if (w == "extern") l = Linkage::EXTERN;
            else if (w == "weak") l = Linkage::WEAK;
            else if (w == "common") l = Linkage::COMMON;
            else break;
            if (lk != Linkage::NONE) return FailAt(Peek(), "more than one linkage directive");
            lk = l;
            Next();
        }
        return true;
    }

    bool ParseTopLevelDecl() {
        SourceLoc loc = Peek().loc;
        Linkage lk;
        if (!ParseLinkage(lk)) return false;
        if (IsDot("entry") || IsDot("func")) return ParseFunction(lk, loc);
        if (Peek().kind != Tok::DOTWORD) return FailAt(Peek(), "expected a declaration but found " + Describe(Peek()));
        StateSpace sp = SpaceFromWord(Peek().text);
        if (sp == StateSpace::GLOBAL || sp == StateSpace::CONST || sp == StateSpace::SHARED || sp == StateSpace::LOCAL) {
            std::vector<Variable> vars;
            if (!ParseVarDecl(vars, lk)) return false;
            for (Variable &v : vars) {
                if (m_.FindGlobal(v.name) != kNoId || m_.FindFunction(v.name) != kNoId)
                    return Fail(v.loc, "redefinition of '" + v.name + "'");
                m_.order.push_back(ModuleItem{ItemKind::GLOBAL, static_cast<uint32_t>(m_.globals.size())});
                m_.globals.push_back(std::move(v));
            }
            return true;
        }
        return FailAt(Peek(), "unsupported or unknown directive " + Describe(Peek()));
    }

    static StateSpace SpaceFromWord(std::string_view w) {
        uint8_t v = ModifierValue(ModGroup::SPACE, w);
        return static_cast<StateSpace>(v);
    }

    // ---- variables ----
    // [space] {.align N | .vN | .ptr | .type} name [dims] [= init] {, name [dims] [= init]} ;
    bool ParseVarDecl(std::vector<Variable> &out, Linkage lk) {
        Variable proto;
        proto.linkage = lk;
        proto.loc = Peek().loc;
        proto.space = SpaceFromWord(Next().text);
        if (!ParseVarAttributes(proto, false)) return false;
        while (true) {
            Variable v = proto;
            if (!ParseVarName(v)) return false;
            if (IsPunct('=')) {
                Next();
                v.has_init = true;
                if (!ParseInitializer(v.init, 0)) return false;
            }
            out.push_back(std::move(v));
            if (!IsPunct(',')) break;
            Next();
        }
        return Expect(';');
    }

    bool ParseVarAttributes(Variable &v, bool is_param) {
        while (Peek().kind == Tok::DOTWORD) {
            const Token &t = Peek();
            std::string_view w = t.text;
            if (w == "align") {
                Next();
                uint32_t a = 0;
                SourceLoc loc = Peek().loc;
                if (!ExpectU32(a, "alignment")) return false;
                if (a == 0 || (a & (a - 1)) != 0) return Fail(loc, "alignment must be a power of two");
                if (v.is_ptr) v.ptr_align = a;
                else v.align = a;
                continue;
            }
            if (w == "ptr" && is_param) {
                Next();
                v.is_ptr = true;
                continue;
            }
            if (v.is_ptr && SpaceFromWord(w) != StateSpace::NONE) {
                Next();
                v.ptr_space = SpaceFromWord(w);
                continue;
            }
            uint8_t vec = ModifierValue(ModGroup::VEC, w);
            if (vec != 0) {
                Next();
                v.vec = static_cast<VecWidth>(vec);
                continue;
            }
            Type ty = TypeFromName(w);
            if (ty != Type::NONE) {
                if (v.type != Type::NONE) return FailAt(t, "more than one type in a declaration");
                Next();
                v.type = ty;
                continue;
            }
            if (w == "attribute" || w == "texref" || w == "samplerref" || w == "surfref")
                return FailAt(t, "unsupported PTX construct '." + std::string(w) + "'");
            return FailAt(t, "unexpected " + Describe(t) + " in a declaration");
        }
        if (v.type == Type::NONE) return FailAt(Peek(), "declaration without a type");
        return true;
    }

    bool ParseVarName(Variable &v) {
        const Token &t = Peek();
        if (t.kind != Tok::IDENT) return FailAt(t, "expected a variable name but found " + Describe(t));
        v.name = std::string(t.text);
        v.loc = t.loc;
        Next();
        while (IsPunct('[')) {
            Next();
            if (IsPunct(']')) {
                if (!v.dims.empty()) return FailAt(Peek(), "only the first array dimension may be unsized");
                Next();
                v.dims.push_back(0);
                continue;
            }
            uint64_t d = 0;
            if (!ExpectUInt(d, "array size")) return false;
            if (d == 0) return FailAt(Peek(), "array size must be positive");
            v.dims.push_back(d);
            if (!Expect(']')) return false;
            if (v.dims.size() > 8) return FailAt(Peek(), "too many array dimensions");
        }
        return true;
    }

    bool ParseInitializer(std::vector<InitValue> &out, int depth) {
        if (depth > kMaxInitDepth) return FailAt(Peek(), "initializer nested too deeply");
        if (IsPunct('{')) {
            Next();
            if (IsPunct('}')) return FailAt(Peek(), "empty initializer list");
            while (true) {
                if (!ParseInitializer(out, depth + 1)) return false;
                if (IsPunct(',')) {
                    Next();
                    continue;
                }
                return Expect('}');
            }
        }
        InitValue iv;
        const Token &t = Peek();
        if (t.kind == Tok::IDENT) {
            iv.is_symbol = true;
            if (t.text == "generic" && IsPunct('(', 1)) {
                Next();
                Next();
                if (Peek().kind != Tok::IDENT) return FailAt(Peek(), "expected a symbol in generic()");
                iv.symbol = std::string(Next().text);
                iv.generic = true;
                if (!Expect(')')) return false;
            } else {
                iv.symbol = std::string(Next().text);
            }
            out.push_back(std::move(iv));
            return true;
        }
        if (!ParseImmediate(iv.imm)) return false;
        out.push_back(std::move(iv));
        return true;
    }

    bool ParseImmediate(Immediate &imm) {
        bool neg = false;
        if (IsPunct('-')) {
            Next();
            neg = true;
        }
        const Token &t = Peek();
        if (t.kind == Tok::INT) {
            imm.kind = ImmKind::INT;
            imm.bits = neg ? (~t.bits + 1) : t.bits;
        } else if (t.kind == Tok::F32) {
            imm.kind = ImmKind::F32;
            imm.bits = neg ? (t.bits ^ 0x80000000u) : t.bits;
        } else if (t.kind == Tok::F64) {
            imm.kind = ImmKind::F64;
            imm.bits = neg ? (t.bits ^ 0x8000000000000000ull) : t.bits;
        } else {
            return FailAt(t, "expected a constant but found " + Describe(t));
        }
        Next();
        return true;
    }

    // ---- functions ----
    bool ParseParam(Variable &p, bool allow_unnamed) {
        p.loc = Peek().loc;
        if (IsDot("reg")) return FailAt(Peek(), "unsupported PTX construct: .reg function parameters");
        if (!IsDot("param")) return FailAt(Peek(), "expected .param but found " + Describe(Peek()));
        Next();
        p.space = StateSpace::PARAM;
        if (!ParseVarAttributes(p, true)) return false;
        if (allow_unnamed && Peek().kind != Tok::IDENT) return true;
        return ParseVarName(p);
    }

    bool ParseParamList(std::vector<Variable> &out) {
        if (!Expect('(')) return false;
        if (IsPunct(')')) {
            Next();
            return true;
        }
        while (true) {
            Variable p;
            if (!ParseParam(p, false)) return false;
            for (const Variable &q : out)
                if (q.name == p.name) return Fail(p.loc, "duplicate parameter '" + p.name + "'");
            out.push_back(std::move(p));
            if (IsPunct(',')) {
                Next();
                continue;
            }
            return Expect(')');
        }
    }

    bool ParseFunction(Linkage lk, SourceLoc loc) {
        Function f;
        f.loc = loc;
        f.linkage = lk;
        f.is_entry = Next().text == "entry";
        if (!f.is_entry && IsPunct('(')) {
            if (!ParseParamList(f.ret_params)) return false;
        }
        if (Peek().kind != Tok::IDENT) return FailAt(Peek(), "expected a function name but found " + Describe(Peek()));
        f.name = std::string(Next().text);
        if (IsPunct('(')) {
            if (!ParseParamList(f.params)) return false;
        }
        // Performance directives and attributes.
        while (Peek().kind == Tok::DOTWORD) {
            const Token &t = Peek();
            std::string_view w = t.text;
            PerfDirective kind;
            size_t max_vals = 1;
            if (w == "maxntid") { kind = PerfDirective::MAXNTID; max_vals = 3; }
            else if (w == "reqntid") { kind = PerfDirective::REQNTID; max_vals = 3; }
            else if (w == "minnctapersm") kind = PerfDirective::MINNCTAPERSM;
            else if (w == "maxnctapersm") kind = PerfDirective::MAXNCTAPERSM;
            else if (w == "maxnreg") kind = PerfDirective::MAXNREG;
            else if (w == "noreturn") {
                Next();
                f.noreturn = true;
                continue;
            } else if (w == "pragma") {
                Next();
                if (Peek().kind != Tok::STRING) return FailAt(Peek(), "expected a string after .pragma");
                f.pragmas.emplace_back(Next().text);
                if (!Expect(';')) return false;
                continue;
            } else {
                return FailAt(t, "unexpected " + Describe(t) + " in a function header");
            }
            Next();
            Performance p;
            p.kind = kind;
            while (true) {
                uint32_t v = 0;
                if (!ExpectU32(v, "a number")) return false;
                p.values.push_back(v);
                if (!IsPunct(',')) break;
                Next();
                if (p.values.size() >= max_vals) return FailAt(Peek(), "too many values for ." + std::string(w));
            }
            f.perf.push_back(std::move(p));
        }
        uint32_t existing = m_.FindFunction(f.name);
        if (m_.FindGlobal(f.name) != kNoId) return Fail(f.loc, "redefinition of '" + f.name + "'");
        if (IsPunct(';')) {
            Next();
            if (existing == kNoId) {
                m_.order.push_back(ModuleItem{ItemKind::FUNCTION, static_cast<uint32_t>(m_.functions.size())});
                m_.functions.push_back(std::move(f));
            }
            return true;
        }
        if (!IsPunct('{')) return FailAt(Peek(), "expected '{' or ';' after the function header but found " + Describe(Peek()));
        if (existing != kNoId && m_.functions[existing].has_body) return Fail(f.loc, "redefinition of function '" + f.name + "'");
        uint32_t index;
        if (existing != kNoId) {
            // A definition after a prototype replaces the prototype in place.
            index = existing;
            m_.functions[index] = std::move(f);
        } else {
            index = static_cast<uint32_t>(m_.functions.size());
            m_.order.push_back(ModuleItem{ItemKind::FUNCTION, index});
            m_.functions.push_back(std::move(f));
        }
        cur_fn_ = index;
        Function &fn = m_.functions[index];
        fn.has_body = true;
        bool ok = ParseBody(fn);
        cur_fn_ = kNoId;
        return ok;
    }

    // ---- function bodies ----
    bool ParseBody(Function &fn) {
        scopes_.clear();
        Expect('{');
        scopes_.emplace_back();
        while (true) {
            const Token &t = Peek();
            if (t.kind == Tok::END) return FailAt(t, "unexpected end of input inside function '" + fn.name + "'");
            if (IsPunct('}')) {
                Next();
                scopes_.pop_back();
                if (scopes_.empty()) break;
                Statement st;
                st.kind = StatementKind::BLOCK_END;
                st.loc = t.loc;
                fn.body.push_back(std::move(st));
                continue;
            }
            if (IsPunct('{')) {
                if (scopes_.size() > 64) return FailAt(t, "blocks nested too deeply");
                Next();
                scopes_.emplace_back();
                Statement st;
                st.kind = StatementKind::BLOCK_BEGIN;
                st.loc = t.loc;
                fn.body.push_back(std::move(st));
                continue;
            }
            if (!ParseStatement(fn)) return false;
        }
        return true;
    }

    bool ParseStatement(Function &fn) {
        const Token &t = Peek();
        if (t.kind == Tok::DOTWORD) {
            std::string_view w = t.text;
            if (w == "reg") return ParseRegDecl(fn);
            if (w == "loc") {
                Next();
                uint64_t v = 0;
                for (int i = 0; i < 3; ++i)
                    if (!ExpectUInt(v, "a number")) return false;
                while (IsPunct(',')) {  // ", function_name label+off, inlined_at ..." forms
                    Next();
                    while (!AtEnd() && !IsPunct(',') && Peek().loc.line == t.loc.line) Next();
                }
                return true;
            }
            if (w == "pragma") {
                Next();
                if (Peek().kind != Tok::STRING) return FailAt(Peek(), "expected a string after .pragma");
                Statement st;
                st.kind = StatementKind::PRAGMA;
                st.loc = t.loc;
                st.text = std::string(Next().text);
                fn.body.push_back(std::move(st));
                return Expect(';');
            }
            StateSpace sp = SpaceFromWord(w);
            if (sp == StateSpace::LOCAL || sp == StateSpace::SHARED || sp == StateSpace::PARAM || sp == StateSpace::CONST ||
                sp == StateSpace::GLOBAL) {
                std::vector<Variable> vars;
                if (!ParseVarDecl(vars, Linkage::NONE)) return false;
                for (Variable &v : vars) {
                    Scope &sc = scopes_.back();
                    if (sc.vars.count(v.name) != 0 || sc.regs.count(v.name) != 0)
                        return Fail(v.loc, "redefinition of '" + v.name + "'");
                    uint32_t id = static_cast<uint32_t>(fn.vars.size());
                    sc.vars[v.name] = id;
                    Statement st;
                    st.kind = StatementKind::VAR_DECL;
                    st.id = id;
                    st.loc = v.loc;
                    fn.vars.push_back(std::move(v));
                    fn.body.push_back(std::move(st));
                }
                return true;
            }
            return FailAt(t, "unsupported or unknown directive " + Describe(t) + " in a function body");
        }
        if (t.kind == Tok::IDENT && IsPunct(':', 1)) {
            // label definition
            std::string name(t.text);
            LabelId id = GetLabel(fn, name, t.loc);
            if (fn.labels[id].stmt != kNoId) return FailAt(t, "duplicate label '" + name + "'");
            Next();
            Next();
            fn.labels[id].stmt = static_cast<uint32_t>(fn.body.size());
            Statement st;
            st.kind = StatementKind::LABEL;
            st.id = id;
            st.loc = t.loc;
            fn.body.push_back(std::move(st));
            return true;
        }
        Instruction inst;
        if (!ParseInstruction(fn, inst)) return false;
        Statement st;
        st.kind = StatementKind::INSTRUCTION;
        st.loc = inst.loc;
        st.inst = std::move(inst);
        fn.body.push_back(std::move(st));
        return true;
    }

    bool ParseRegDecl(Function &fn) {
        SourceLoc loc = Next().loc;  // .reg
        Type ty = Type::NONE;
        while (Peek().kind == Tok::DOTWORD) {
            const Token &t = Peek();
            if (ModifierValue(ModGroup::VEC, t.text) != 0) return FailAt(t, "unsupported PTX construct: vector registers");
            if (t.text == "align") return FailAt(t, "unexpected .align in a register declaration");
            Type x = TypeFromName(t.text);
            if (x == Type::NONE) return FailAt(t, "unknown register type " + Describe(t));
            if (ty != Type::NONE) return FailAt(t, "more than one type in a register declaration");
            ty = x;
            Next();
        }
        if (ty == Type::NONE) return FailAt(Peek(), "register declaration without a type");
        while (true) {
            const Token &nt = Peek();
            if (nt.kind != Tok::IDENT) return FailAt(nt, "expected a register name but found " + Describe(nt));
            std::string name(nt.text);
            Next();
            RegDecl d;
            d.type = ty;
            d.name = name;
            d.loc = nt.loc;
            d.first = static_cast<RegId>(fn.regs.size());
            uint32_t decl_id = static_cast<uint32_t>(fn.reg_decls.size());
            Scope &sc = scopes_.back();
            if (IsPunct('<')) {
                Next();
                uint64_t n = 0;
                SourceLoc nloc = Peek().loc;
                if (!ExpectUInt(n, "register count")) return false;
                if (n == 0 || n > kMaxRegRange || fn.regs.size() + n > kMaxRegRange)
                    return Fail(nloc, "register count out of range (at most " + std::to_string(kMaxRegRange) + " per function)");
                if (!Expect('>')) return false;
                d.count = static_cast<uint32_t>(n);
                for (uint32_t i = 0; i < d.count; ++i) {
                    std::string rn = name + std::to_string(i);
                    if (sc.regs.count(rn) != 0 || sc.vars.count(rn) != 0) return Fail(nt.loc, "redefinition of register '" + rn + "'");
                    sc.regs[rn] = static_cast<RegId>(fn.regs.size());
                    fn.regs.push_back(Register{rn, ty, decl_id});
                }
            } else {
                if (sc.regs.count(name) != 0 || sc.vars.count(name) != 0) return Fail(nt.loc, "redefinition of register '" + name + "'");
                sc.regs[name] = static_cast<RegId>(fn.regs.size());
                fn.regs.push_back(Register{name, ty, decl_id});
            }
            fn.reg_decls.push_back(d);
            Statement st;
            st.kind = StatementKind::REG_DECL;
            st.id = decl_id;
            st.loc = nt.loc;
            fn.body.push_back(std::move(st));
            if (!IsPunct(',')) break;
            Next();
        }
        (void)loc;
        return Expect(';');
    }

    LabelId GetLabel(Function &fn, const std::string &name, SourceLoc use) {
        auto it = labels_.find(name);
        if (it != labels_.end() && it->second.first == cur_fn_) return it->second.second;
        LabelId id = fn.AddLabel(name);
        fn.labels[id].first_use = use;
        labels_[name] = {cur_fn_, id};
        return id;
    }

    // Register lookup through the scope stack; creates an undeclared register when absent.
    RegId LookupOrCreateReg(Function &fn, const std::string &name) {
        for (size_t i = scopes_.size(); i-- > 0;) {
            auto it = scopes_[i].regs.find(name);
            if (it != scopes_[i].regs.end()) return it->second;
        }
        auto it = undeclared_.find(name);
        if (it != undeclared_.end() && it->second.first == cur_fn_) return it->second.second;
        RegId id = static_cast<RegId>(fn.regs.size());
        fn.regs.push_back(Register{name, Type::NONE, kNoId});
        undeclared_[name] = {cur_fn_, id};
        return id;
    }

    bool FindReg(const std::string &name, RegId &out) const {
        for (size_t i = scopes_.size(); i-- > 0;) {
            auto it = scopes_[i].regs.find(name);
            if (it != scopes_[i].regs.end()) {
                out = it->second;
                return true;
            }
        }
        return false;
    }

    bool FindSymbol(const Function &fn, const std::string &name, SymbolRef &out) const {
        for (size_t i = scopes_.size(); i-- > 0;) {
            auto it = scopes_[i].vars.find(name);
            if (it != scopes_[i].vars.end()) {
                out = {SymbolKind::LOCAL, it->second};
                return true;
            }
        }
        for (size_t i = 0; i < fn.params.size(); ++i)
            if (fn.params[i].name == name) {
                out = {SymbolKind::PARAM, static_cast<uint32_t>(i)};
                return true;
            }
        for (size_t i = 0; i < fn.ret_params.size(); ++i)
            if (fn.ret_params[i].name == name) {
                out = {SymbolKind::RET_PARAM, static_cast<uint32_t>(i)};
                return true;
            }
        uint32_t g = m_.FindGlobal(name);
        if (g != kNoId) {
            out = {SymbolKind::GLOBAL, g};
            return true;
        }
        uint32_t f = m_.FindFunction(name);
        if (f != kNoId) {
            out = {SymbolKind::FUNCTION, f};
            return true;
        }
        return false;
    }

    // ---- instructions ----
    bool ParseInstruction(Function &fn, Instruction &inst) {
        inst.loc = Peek().loc;
        if (IsPunct('@')) {
            Next();
            inst.guard.present = true;
            if (IsPunct('!')) {
                Next();
                inst.guard.negated = true;
            }
            const Token &g = Peek();
            if (g.kind != Tok::IDENT) return FailAt(g, "expected a predicate register after '@'");
            inst.guard.reg = LookupOrCreateReg(fn, std::string(g.text));
            Next();
        }
        const Token &mt = Peek();
        if (mt.kind != Tok::IDENT) return FailAt(mt, "expected an instruction but found " + Describe(mt));
        // Mnemonic words: the identifier plus the dot words glued to it.
        std::vector<const Token *> parts;
        parts.push_back(&Next());
        while (Peek().kind == Tok::DOTWORD && !Peek().space_before) parts.push_back(&Next());
        // Longest dotted prefix naming an opcode.
        size_t used = 0;
        for (size_t k = std::min<size_t>(parts.size(), 3); k >= 1; --k) {
            std::string name(parts[0]->text);
            for (size_t i = 1; i < k; ++i) {
                name += '.';
                name += parts[i]->text;
            }
            Opcode op = OpcodeFromName(name);
            if (op != Opcode::NONE) {
                inst.opcode = op;
                used = k;
                break;
            }
        }
        if (inst.opcode == Opcode::NONE) {
            static const char *const kUnsupported[] = {"tex", "tld4", "suld", "sust", "sured", "suq", "txq", "mma", "wmma",
                                                       "ldmatrix", "stmatrix", "cp", "mbarrier", "wgmma", "tcgen05",
                                                       "cvt.pack", "brx", "vadd", "vsub", "vmad", "vabsdiff", "vmin",
                                                       "vmax", "vshl", "vshr", "vset", "elect", "griddepcontrol",
                                                       "setmaxnreg", "multimem", "istypep", "stackrestore", "stacksave",
                                                       "alloca", "getctarank", "mapa", "createpolicy", "discard",
                                                       "applypriority", "prefetchu", "pmevent", "clusterlaunchcontrol"};
            for (const char *u : kUnsupported)
                if (mt.text == u) return FailAt(mt, "unsupported PTX instruction '" + std::string(mt.text) + "'");
            return FailAt(mt, "unknown instruction '" + std::string(mt.text) + "'");
        }
        const OpcodeInfo &info = GetOpcodeInfo(inst.opcode);
        for (size_t i = used; i < parts.size(); ++i) {
            std::string_view w = parts[i]->text;
            Type ty = TypeFromName(w);
            if (ty != Type::NONE) {
                if (inst.type == Type::NONE) inst.type = ty;
                else if (inst.type2 == Type::NONE) inst.type2 = ty;
                else return FailAt(*parts[i], "too many type suffixes");
                continue;
            }
            if (inst.type != Type::NONE)
                return FailAt(*parts[i], "modifier '." + std::string(w) + "' after the type suffix");
            // Modifier: the first group this opcode accepts that knows the token; two-word tokens
            // such as "xorsign.abs" are tried first.
            bool matched = false;
            for (int two = 1; two >= 0 && !matched; --two) {
                if (two && i + 1 >= parts.size()) continue;
                std::string tok(w);
                if (two) {
                    tok += '.';
                    tok += parts[i + 1]->text;
                }
                for (int g = 0; g < kMaxModGroups && info.groups[g] != ModGroup::NONE; ++g) {
                    uint8_t v = ModifierValue(info.groups[g], tok);
                    if (v == 0) continue;
                    if (inst.mods.Get(info.groups[g]) != 0)
                        return FailAt(*parts[i], "conflicting modifier '." + tok + "' for '" + std::string(OpcodeName(inst.opcode)) + "'");
                    inst.mods.Set(info.groups[g], v);
                    matched = true;
                    if (two) ++i;
                    break;
                }
            }
            if (!matched)
                return FailAt(*parts[i], "unknown modifier '." + std::string(w) + "' for '" + std::string(OpcodeName(inst.opcode)) + "'");
        }
        if (inst.opcode == Opcode::CALL) return ParseCallOperands(fn, inst);
        const RoleList &roles = OperandRoles(inst.opcode);
        bool branch = (info.flags & OP_BRANCH) != 0;
        if (!IsPunct(';')) {
            while (true) {
                if (inst.operands.size() >= 16) return FailAt(Peek(), "too many operands");
                Operand op;
                if (!ParseOperand(fn, op, branch && inst.operands.empty())) return false;
                inst.operands.push_back(std::move(op));
                if (IsPunct('|')) {
                    if (inst.operands.size() != 1 || roles.count == 0 || !roles.roles[0].pipe_next)
                        return FailAt(Peek(), "unexpected '|'");
                    Next();
                    Operand op2;
                    if (!ParseOperand(fn, op2, false)) return false;
                    inst.operands.push_back(std::move(op2));
                    inst.num_dests = 2;
                }
                if (!IsPunct(',')) break;
                Next();
            }
        }
        if (inst.num_dests == 0 && roles.count > 0 && IsDestRole(roles.roles[0].role) && !inst.operands.empty())
            inst.num_dests = 1;
        return Expect(';');
    }

    bool ParseCallOperands(Function &fn, Instruction &inst) {
        // call{.uni} [(ret, ...),] func [, (arg, ...)] ;
        std::vector<Operand> rets, args;
        auto parse_list = [&](std::vector<Operand> &out) -> bool {
            if (!Expect('(')) return false;
            if (IsPunct(')')) {
                Next();
                return true;
            }
            while (true) {
                if (out.size() >= 256) return FailAt(Peek(), "too many call operands");
                Operand op;
                if (!ParseOperand(fn, op, false)) return false;
                out.push_back(std::move(op));
                if (IsPunct(',')) {
                    Next();
                    continue;
                }
                return Expect(')');
            }
        };
        if (IsPunct('(')) {
            if (!parse_list(rets)) return false;
            if (!Expect(',')) return false;
        }
        const Token &ft = Peek();
        if (ft.kind != Tok::IDENT) return FailAt(ft, "expected a function name in call");
        uint32_t callee = m_.FindFunction(std::string(ft.text));
        if (callee == kNoId) {
            RegId r;
            if (FindReg(std::string(ft.text), r)) return FailAt(ft, "unsupported PTX construct: indirect call");
            return FailAt(ft, "call to undeclared function '" + std::string(ft.text) + "'");
        }
        Next();
        if (IsPunct(',')) {
            Next();
            if (!parse_list(args)) return false;
        }
        if (IsPunct(',')) return FailAt(Peek(), "unsupported PTX construct: call with a prototype (indirect call)");
        inst.num_dests = static_cast<uint8_t>(rets.size());
        for (Operand &o : rets) inst.operands.push_back(std::move(o));
        inst.operands.push_back(Operand::Symbol({SymbolKind::FUNCTION, callee}));
        for (Operand &o : args) inst.operands.push_back(std::move(o));
        return Expect(';');
    }

    bool ParseOperand(Function &fn, Operand &op, bool as_label) {
        const Token &t = Peek();
        if (IsPunct('!')) {
            Next();
            if (IsPunct('!')) return FailAt(Peek(), "'!' may appear only once");
            if (!ParseOperand(fn, op, false)) return false;
            if (op.kind != OperandKind::REG) return FailAt(t, "'!' applies only to predicate registers");
            op.negated = true;
            return true;
        }
        if (IsPunct('[')) return ParseAddress(fn, op);
        if (IsPunct('{')) {
            Next();
            op.kind = OperandKind::VECTOR;
            while (true) {
                if (op.elems.size() >= 8) return FailAt(Peek(), "too many vector elements");
                Operand e;
                if (IsPunct('{') || IsPunct('[')) return FailAt(Peek(), "nested vector operand");
                if (!ParseOperand(fn, e, false)) return false;
                if (e.kind != OperandKind::REG && e.kind != OperandKind::IMM && e.kind != OperandKind::SINK)
                    return FailAt(t, "vector elements must be registers, constants or '_'");
                op.elems.push_back(std::move(e));
                if (IsPunct(',')) {
                    Next();
                    continue;
                }
                break;
            }
            return Expect('}');
        }
        if (t.kind == Tok::INT || t.kind == Tok::F32 || t.kind == Tok::F64 || IsPunct('-')) {
            op.kind = OperandKind::IMM;
            return ParseImmediate(op.imm);
        }
        if (t.kind != Tok::IDENT) return FailAt(t, "expected an operand but found " + Describe(t));
        std::string name(t.text);
        Next();
        if (name == "_") {
            op.kind = OperandKind::SINK;
            return true;
        }
        if (as_label) {
            op.kind = OperandKind::LABEL;
            op.label = GetLabel(fn, name, t.loc);
            return true;
        }
        if (name[0] == '%') {
            // Special register, possibly with a ".x" component glued to it.
            std::string full = name;
            if (Peek().kind == Tok::DOTWORD && !Peek().space_before) {
                full += '.';
                full += Peek().text;
                SpecialReg s = SpecialRegFromName(full);
                if (s != SpecialReg::NONE) {
                    Next();
                    op.kind = OperandKind::SREG;
                    op.sreg = s;
                    return true;
                }
            }
            SpecialReg s = SpecialRegFromName(name);
            if (s != SpecialReg::NONE) {
                RegId shadow;
                if (!FindReg(name, shadow)) {
                    op.kind = OperandKind::SREG;
                    op.sreg = s;
                    return true;
                }
            }
        }
        RegId r;
        if (FindReg(name, r)) {
            op.kind = OperandKind::REG;
            op.reg = r;
            return true;
        }
        SymbolRef sym;
        if (FindSymbol(fn, name, sym)) {
            op.kind = OperandKind::SYMBOL;
            op.sym = sym;
            if (IsPunct('+') && (Peek(1).kind == Tok::INT || IsPunct('-', 1))) {
                Next();
                Immediate imm;
                if (!ParseImmediate(imm) || imm.kind != ImmKind::INT) return FailAt(Peek(), "expected an integer offset");
                op.offset = imm.AsInt();
            }
            return true;
        }
        op.kind = OperandKind::REG;
        op.reg = LookupOrCreateReg(fn, name);
        return true;
    }

    bool ParseAddress(Function &fn, Operand &op) {
        SourceLoc loc = Next().loc;  // '['
        op.kind = OperandKind::ADDRESS;
        Address &a = op.addr;
        const Token &t = Peek();
        if (t.kind == Tok::IDENT) {
            std::string name(t.text);
            Next();
            RegId r;
            SymbolRef sym;
            if (FindReg(name, r)) {
                a.base = AddrBase::REG;
                a.reg = r;
            } else if (FindSymbol(fn, name, sym)) {
                a.base = AddrBase::SYMBOL;
                a.sym = sym;
            } else {
                a.base = AddrBase::REG;
                a.reg = LookupOrCreateReg(fn, name);
            }
            if (IsPunct('+') || IsPunct('-')) {
                bool minus = IsPunct('-');
                Next();
                Immediate imm;
                if (!ParseImmediate(imm)) return false;
                if (imm.kind != ImmKind::INT) return Fail(loc, "address offset must be an integer");
                a.offset = minus ? -imm.AsInt() : imm.AsInt();
            }
        } else {
            Immediate imm;
            if (!ParseImmediate(imm)) return false;
            if (imm.kind != ImmKind::INT) return Fail(loc, "absolute address must be an integer");
            a.base = AddrBase::ABSOLUTE;
            a.offset = imm.AsInt();
        }
        return Expect(']');
    }

    std::vector<Token> t_;
    size_t pos_ = 0;
    std::string_view file_;
    std::string error_;
    Module m_;
    uint32_t cur_fn_ = kNoId;
    std::vector<Scope> scopes_;
    std::unordered_map<std::string, std::pair<uint32_t, LabelId>> labels_;
    std::unordered_map<std::string, std::pair<uint32_t, RegId>> undeclared_;
};

}  // namespace

Expected<Module> ParseModule(std::string_view text, std::string_view filename) {
    std::vector<Token> toks;
    SourceLoc eloc;
    std::string emsg;
    if (!Tokenize(text, toks, eloc, emsg)) return Status::ParseError(LocPrefix(filename, eloc) + emsg);
    Parser p(std::move(toks), filename);
    return p.Run();
}

}  // namespace rndn::ptx
