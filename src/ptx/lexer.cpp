// PTX tokenizer.
#include "ptx/lexer.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rndn::ptx {
namespace {

bool IsIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}
bool IsIdentChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
int HexVal(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

class Lexer {
public:
    Lexer(std::string_view text, std::vector<Token> &out) : s_(text), out_(out) {}

    bool Run(SourceLoc &eloc, std::string &emsg) {
        bool space = true;
        while (true) {
            space |= SkipSpaceAndComments();
            if (!error_.empty()) break;
            if (pos_ >= s_.size()) break;
            Token t;
            t.space_before = space;
            t.loc = Loc();
            space = false;
            if (!LexOne(t)) break;
            out_.push_back(t);
        }
        if (!error_.empty()) {
            eloc = error_loc_;
            emsg = error_;
            return false;
        }
        Token end;
        end.kind = Tok::END;
        end.space_before = true;
        end.loc = Loc();
        out_.push_back(end);
        return true;
    }

private:
    SourceLoc Loc() const { return SourceLoc{line_, static_cast<uint32_t>(pos_ - line_start_ + 1)}; }

    void Advance() {
        if (s_[pos_] == '\n') {
            ++line_;
            line_start_ = pos_ + 1;
        }
        ++pos_;
    }

    void Error(SourceLoc loc, std::string msg) {
        if (error_.empty()) {
            error_loc_ = loc;
            error_ = std::move(msg);
        }
    }

    // Returns true if anything was skipped.
    bool SkipSpaceAndComments() {
        size_t start = pos_;
        while (pos_ < s_.size()) {
            char c = s_[pos_];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
                Advance();
            } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
                while (pos_ < s_.size() && s_[pos_] != '\n') Advance();
            } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
                SourceLoc at = Loc();
                Advance();
                Advance();
                bool closed = false;
                while (pos_ < s_.size()) {
                    if (s_[pos_] == '*' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
                        Advance();
                        Advance();
                        closed = true;
                        break;
                    }
                    Advance();
                }
                if (!closed) {
                    Error(at, "unterminated /* comment");
                    return true;
                }
            } else {
                break;
            }
        }
        return pos_ != start;
    }

    // Word characters plus "::" continuations (state spaces like shared::cta, L1::evict_last).
    void LexWordBody() {
        while (pos_ < s_.size()) {
            if (IsIdentChar(s_[pos_])) {
                Advance();
            } else if (s_[pos_] == ':' && pos_ + 2 < s_.size() && s_[pos_ + 1] == ':' && IsIdentChar(s_[pos_ + 2])) {
                Advance();
                Advance();
            } else {
                break;
            }
        }
    }

    bool LexOne(Token &t) {
        char c = s_[pos_];
        size_t start = pos_;
        if (IsIdentStart(c)) {
            Advance();
            while (pos_ < s_.size() && IsIdentChar(s_[pos_])) Advance();
            t.kind = Tok::IDENT;
            t.text = s_.substr(start, pos_ - start);
            return true;
        }
        // A dot word: ".global", and also ".2d" when glued to the preceding word ("tex.2d").
        bool glued = !t.space_before && !out_.empty() && (out_.back().kind == Tok::IDENT || out_.back().kind == Tok::DOTWORD);
        if (c == '.' && pos_ + 1 < s_.size() && IsIdentChar(s_[pos_ + 1]) && (glued || !IsDigit(s_[pos_ + 1]))) {
            Advance();
            size_t ws = pos_;
            LexWordBody();
            t.kind = Tok::DOTWORD;
            t.text = s_.substr(ws, pos_ - ws);
            return true;
        }
        if (c == '.' && pos_ + 1 < s_.size() && IsDigit(s_[pos_ + 1])) {
            // ".v2"-style words never start with a digit; a leading-dot number is a float.
            return LexNumber(t);
        }
        if (IsDigit(c)) return LexNumber(t);
        if (c == '"') {
            Advance();
            size_t ws = pos_;
            while (pos_ < s_.size() && s_[pos_] != '"' && s_[pos_] != '\n') Advance();
            if (pos_ >= s_.size() || s_[pos_] != '"') {
                Error(t.loc, "unterminated string literal");
                return false;
            }
            t.kind = Tok::STRING;
            t.text = s_.substr(ws, pos_ - ws);
            Advance();
            return true;
        }
        if (std::strchr(",;:{}[]()+-!@|<>=", c) != nullptr && c != '\0') {
            Advance();
            t.kind = Tok::PUNCT;
            t.punct = c;
            t.text = s_.substr(start, 1);
            return true;
        }
        char buf[64];
        if (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f)
            std::snprintf(buf, sizeof buf, "unexpected character '%c'", c);
        else
            std::snprintf(buf, sizeof buf, "unexpected byte 0x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
        Error(t.loc, buf);
        return false;
    }

    bool LexNumber(Token &t) {
        size_t start = pos_;
        auto rest = [&](size_t k) { return pos_ + k < s_.size() ? s_[pos_ + k] : '\0'; };
        if (s_[pos_] == '0' && (rest(1) == 'f' || rest(1) == 'F' || rest(1) == 'd' || rest(1) == 'D')) {
            bool is_f = rest(1) == 'f' || rest(1) == 'F';
            size_t want = is_f ? 8 : 16;
            Advance();
            Advance();
            uint64_t v = 0;
            size_t n = 0;
            while (pos_ < s_.size() && HexVal(s_[pos_]) >= 0) {
                v = (v << 4) | static_cast<uint64_t>(HexVal(s_[pos_]));
                ++n;
                Advance();
            }
            if (n != want) {
                Error(t.loc, is_f ? "0f literal needs exactly 8 hex digits" : "0d literal needs exactly 16 hex digits");
                return false;
            }
            t.kind = is_f ? Tok::F32 : Tok::F64;
            t.bits = v;
            t.text = s_.substr(start, pos_ - start);
            return CheckEnd(t);
        }
        if (s_[pos_] == '0' && (rest(1) == 'x' || rest(1) == 'X')) {
            Advance();
            Advance();
            uint64_t v = 0;
            size_t n = 0;
            while (pos_ < s_.size() && HexVal(s_[pos_]) >= 0) {
                if (v >> 60) {
                    Error(t.loc, "integer literal out of range");
                    return false;
                }
                v = (v << 4) | static_cast<uint64_t>(HexVal(s_[pos_]));
                ++n;
                Advance();
            }
            if (n == 0) {
                Error(t.loc, "hex literal without digits");
                return false;
            }
            return FinishInt(t, start, v);
        }
        if (s_[pos_] == '0' && (rest(1) == 'b' || rest(1) == 'B')) {
            Advance();
            Advance();
            uint64_t v = 0;
            size_t n = 0;
            while (pos_ < s_.size() && (s_[pos_] == '0' || s_[pos_] == '1')) {
                if (v >> 63) {
                    Error(t.loc, "integer literal out of range");
                    return false;
                }
                v = (v << 1) | static_cast<uint64_t>(s_[pos_] - '0');
                ++n;
                Advance();
            }
            if (n == 0) {
                Error(t.loc, "binary literal without digits");
                return false;
            }
            return FinishInt(t, start, v);
        }
        // Decimal integer, octal integer, or decimal floating point.
        size_t p = pos_;
        while (p < s_.size() && IsDigit(s_[p])) ++p;
        bool is_float = false;
        if (p < s_.size() && s_[p] == '.' && !(p + 1 < s_.size() && IsIdentStart(s_[p + 1]))) is_float = true;
        if (p < s_.size() && (s_[p] == 'e' || s_[p] == 'E')) is_float = true;
        if (is_float) {
            size_t q = p;
            if (q < s_.size() && s_[q] == '.') {
                ++q;
                while (q < s_.size() && IsDigit(s_[q])) ++q;
            }
            if (q < s_.size() && (s_[q] == 'e' || s_[q] == 'E')) {
                size_t e = q + 1;
                if (e < s_.size() && (s_[e] == '+' || s_[e] == '-')) ++e;
                if (e < s_.size() && IsDigit(s_[e])) {
                    while (e < s_.size() && IsDigit(s_[e])) ++e;
                    q = e;
                } else {
                    Error(t.loc, "malformed exponent in floating-point literal");
                    return false;
                }
            }
            std::string text(s_.substr(pos_, q - pos_));
            while (pos_ < q) Advance();
            double d = std::strtod(text.c_str(), nullptr);
            uint64_t b;
            std::memcpy(&b, &d, sizeof b);
            t.kind = Tok::F64;
            t.bits = b;
            t.text = s_.substr(start, pos_ - start);
            return CheckEnd(t);
        }
        bool octal = s_[pos_] == '0' && p - pos_ > 1;
        uint64_t v = 0;
        while (pos_ < p) {
            uint64_t digit = static_cast<uint64_t>(s_[pos_] - '0');
            if (octal) {
                if (digit > 7) {
                    Error(t.loc, "invalid digit in octal literal");
                    return false;
                }
                if (v >> 61) {
                    Error(t.loc, "integer literal out of range");
                    return false;
                }
                v = v * 8 + digit;
            } else {
                if (v > (UINT64_MAX - digit) / 10) {
                    Error(t.loc, "integer literal out of range");
                    return false;
                }
                v = v * 10 + digit;
            }
            Advance();
        }
        return FinishInt(t, start, v);
    }

    bool FinishInt(Token &t, size_t start, uint64_t v) {
        if (pos_ < s_.size() && (s_[pos_] == 'U' || s_[pos_] == 'u')) Advance();
        t.kind = Tok::INT;
        t.bits = v;
        t.text = s_.substr(start, pos_ - start);
        return CheckEnd(t);
    }

    bool CheckEnd(const Token &t) {
        if (pos_ < s_.size() && (IsIdentChar(s_[pos_]) || s_[pos_] == '%')) {
            Error(t.loc, "malformed number");
            return false;
        }
        return true;
    }

    std::string_view s_;
    std::vector<Token> &out_;
    size_t pos_ = 0;
    uint32_t line_ = 1;
    size_t line_start_ = 0;
    std::string error_;
    SourceLoc error_loc_;
};

}  // namespace

bool Tokenize(std::string_view text, std::vector<Token> &out, SourceLoc &error_loc, std::string &error_msg) {
    Lexer lx(text, out);
    return lx.Run(error_loc, error_msg);
}

}  // namespace rndn::ptx
