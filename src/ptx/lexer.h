// PTX tokenizer (internal).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ptx/ptx.h"

namespace rndn::ptx {

enum class Tok : uint8_t {
    END,
    IDENT,    // name, %name, $name, _name
    DOTWORD,  // .word (text without the dot), may contain "::"
    INT,      // integer literal (value in `bits`)
    F32,      // 0fXXXXXXXX
    F64,      // 0dXXXXXXXXXXXXXXXX or a decimal literal with '.' / exponent
    STRING,   // "..." (text without quotes)
    PUNCT,    // one of , ; : { } [ ] ( ) + - ! @ | < > =
};

struct Token {
    Tok kind = Tok::END;
    char punct = 0;
    bool space_before = false;  // whitespace or a comment precedes the token
    std::string_view text;      // raw text (for DOTWORD/STRING: without '.' / quotes)
    uint64_t bits = 0;          // INT / F32 / F64 value
    SourceLoc loc;
};

// Tokenizes all of `text`.  On a lexical error returns false and sets error_loc/error_msg.
bool Tokenize(std::string_view text, std::vector<Token> &out, SourceLoc &error_loc, std::string &error_msg);

}  // namespace rndn::ptx
