// rndn's own regular-expression matcher for a subset of PostgreSQL's Advanced Regular
// Expressions (Henry Spencer's engine, src/backend/regex), with PostgreSQL's semantics exactly:
//
//   * the subset: literals, `.`, bracket expressions `[...]` (ranges by code point, `^`
//     negation, `]` first and `-` first/last literal, the escapes below inside), anchors `^`
//     `$` (string start and end: no newline-sensitive mode), the greedy quantifiers `*` `+` `?`
//     `{m}` `{m,}` `{m,n}` (m, n <= 255), capturing `( )` and non-capturing `(?: )` groups,
//     alternation `|`, the class escapes `\d \D \s \S \w \W` (ASCII classes: the C/POSIX
//     ctype), the entry escapes `\n \t \r \f \v` and `\` before any other non-alphanumeric
//     ASCII character (that character).  Case-insensitive matching folds ASCII letters only
//     (the C/POSIX ctype).  Anything else - back references, lookaround, non-greedy
//     quantifiers, POSIX classes `[[:alpha:]]`, embedded options, empty branches, a quantified
//     group that holds a capture, bounds over 255 - is refused by Compile with a reason, and
//     the caller keeps PostgreSQL's plan.
//   * the match: the leftmost start, then the longest end (every quantifier of the subset is
//     greedy, so the whole RE is); captures as PostgreSQL's dissection assigns them: a
//     concatenation is cut into maximal capture-free runs and the atoms that hold captures,
//     and from the left each part takes the longest span that lets the rest match what
//     remains; an alternation that holds captures takes its first branch, in order, that
//     matches the span exactly.
//
// Text and patterns are UTF-8; matching works on code points.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace rndn::hir::regex {

struct Program;

struct Options {
    bool icase = false;  // ASCII case folding (flag 'i', ~*)
};

// Parses and compiles a pattern; Status::Unsupported (with the reason) outside the subset.
Expected<std::shared_ptr<const Program>> Compile(std::string_view pattern, const Options &options);

// True when the pattern uses a class escape (\d \s \w and their negations): their meaning is
// the C/POSIX ctype's, so a caller under another ctype must not use this matcher for them.
bool UsesClasses(const Program &p);
int NumCaptures(const Program &p);

// Decoded text: code points and the byte offset of each (plus one past the end).
struct Text {
    std::vector<char32_t> cp;
    std::vector<size_t> off;
};
void Decode(std::string_view s, Text &out);

// Is there a match anywhere in the text?
bool Exists(const Program &p, const Text &t);

// The leftmost-longest match starting at or after `from` (a code-point index); false when none.
// caps[0] is the whole match; caps[k] (k = 1..NumCaptures) the k-th capture or {-1, -1}.
bool Search(const Program &p, const Text &t, size_t from, std::vector<std::pair<long, long>> &caps);

}  // namespace rndn::hir::regex
