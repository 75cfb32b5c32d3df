// rndn's matcher for a subset of PostgreSQL's ARE syntax (see regex.h): a parser into a small
// tree, Thompson NFAs simulated over code points (no backtracking: time O(text x states) per
// simulation), and PostgreSQL's dissection rules for the captures.
#include "horseir/regex.h"

#include <algorithm>
#include <map>

namespace rndn::hir::regex {

namespace {

constexpr int kMaxStates = 20000;  // larger expansions ({m,n} of big atoms) are refused
constexpr int kDupMax = 255;       // PostgreSQL's DUPMAX

enum ClassBit : unsigned { C_DIGIT = 1, C_SPACE = 2, C_WORD = 4 };

struct CharSet {
    std::vector<std::pair<char32_t, char32_t>> ranges;
    unsigned classes = 0;      // members by class
    unsigned neg_classes = 0;  // members: everything outside the class (\D \S \W)
    bool negated = false;
    bool any = false;          // `.`
};

bool AsciiDigit(char32_t c) { return c >= '0' && c <= '9'; }
bool AsciiAlpha(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool AsciiSpace(char32_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool InClass(unsigned bit, char32_t c) {
    switch (bit) {
        case C_DIGIT: return AsciiDigit(c);
        case C_SPACE: return AsciiSpace(c);
        default: return AsciiDigit(c) || AsciiAlpha(c) || c == '_';
    }
}

bool SetHas(const CharSet &s, char32_t c) {
    if (s.any) return true;
    bool in = false;
    for (const auto &r : s.ranges)
        if (c >= r.first && c <= r.second) {
            in = true;
            break;
        }
    for (unsigned b = 1; !in && b <= C_WORD; b <<= 1) {
        if ((s.classes & b) && InClass(b, c)) in = true;
        if ((s.neg_classes & b) && !InClass(b, c)) in = true;
    }
    return in != s.negated;
}

// Adds the other ASCII case of every letter in the set's ranges (flag 'i').
void AddCases(CharSet &s) {
    std::vector<std::pair<char32_t, char32_t>> extra;
    for (const auto &r : s.ranges)
        for (char32_t c = std::max<char32_t>(r.first, 'A'); c <= std::min<char32_t>(r.second, 'z'); ++c) {
            if (c >= 'A' && c <= 'Z') extra.push_back({c + 32, c + 32});
            else if (c >= 'a' && c <= 'z') extra.push_back({c - 32, c - 32});
        }
    s.ranges.insert(s.ranges.end(), extra.begin(), extra.end());
}

struct Node {
    enum Kind { SET, BOL, EOL, CAT, ALT, REP, GROUP } kind;
    explicit Node(Kind k) : kind(k) {}
    int set = -1;            // SET
    std::vector<int> kids;   // CAT, ALT: parts; REP, GROUP: one child
    int min = 1, max = 1;    // REP (max -1: unbounded)
    int cap = -1;            // GROUP: capture number (1-based) or -1
    bool has_cap = false;    // a capture inside (or this node is one)
};

// ---- NFA
struct State {
    enum Kind { SET, SPLIT, EMPTY, BOL, EOL, MATCH } kind;
    int set = -1;
    int out = -1, out2 = -1;
};

struct Nfa {
    std::vector<State> st;
    int start = -1;
};

}  // namespace

struct Program {
    std::vector<CharSet> sets;
    std::vector<Node> nodes;
    int root = -1;
    int ncap = 0;
    bool uses_classes = false;
    bool anchored = false;  // every branch starts with ^
    Nfa main;
    // NFAs of the parts the dissection matches separately, by (node, first part, end part)
    std::map<std::tuple<int, int, int>, Nfa> parts;
    // CAT node -> its parts: [first item, end item) ranges (runs without captures merged)
    std::map<int, std::vector<std::pair<int, int>>> cuts;
};

namespace {

// ---- parser
class Parser {
public:
    Parser(Program &p, const std::vector<char32_t> &pat, const Options &o) : p_(p), s_(pat), o_(o) {}

    Status Run() {
        RNDN_ASSIGN_OR_RETURN(p_.root, Alt());
        if (i_ != s_.size()) return Unsup(s_[i_] == ')' ? "an unmatched ')'" : "this pattern");
        return Status::Ok();
    }

private:
    Status Unsup(const std::string &what) const {
        return Status::Unsupported("regular expression with " + what + " (outside rndn's ARE subset)");
    }
    bool More() const { return i_ < s_.size(); }
    char32_t Peek(size_t k = 0) const { return i_ + k < s_.size() ? s_[i_ + k] : 0; }
    int Add(Node n) {
        p_.nodes.push_back(std::move(n));
        return static_cast<int>(p_.nodes.size()) - 1;
    }
    int AddSet(CharSet cs) {
        if (o_.icase) AddCases(cs);
        p_.sets.push_back(std::move(cs));
        Node n(Node::SET);
        n.set = static_cast<int>(p_.sets.size()) - 1;
        return Add(n);
    }

    Expected<int> Alt() {
        std::vector<int> branches;
        for (;;) {
            RNDN_ASSIGN_OR_RETURN(int b, Branch());
            branches.push_back(b);
            if (More() && Peek() == '|') {
                ++i_;
                continue;
            }
            break;
        }
        if (branches.size() == 1) return branches[0];
        Node n(Node::ALT);
        n.kids = branches;
        for (int b : branches) n.has_cap |= p_.nodes[b].has_cap;
        return Add(n);
    }

    Expected<int> Branch() {
        std::vector<int> items;
        while (More() && Peek() != '|' && Peek() != ')') {
            RNDN_ASSIGN_OR_RETURN(int it, Piece());
            items.push_back(it);
        }
        if (items.empty()) return Unsup("an empty branch or group");
        if (items.size() == 1) return items[0];
        Node n(Node::CAT);
        n.kids = items;
        for (int k : items) n.has_cap |= p_.nodes[k].has_cap;
        return Add(n);
    }

    static bool IsQuant(char32_t c) { return c == '*' || c == '+' || c == '?' || c == '{'; }

    Expected<int> Piece() {
        RNDN_ASSIGN_OR_RETURN(int atom, Atom());
        if (!More() || !IsQuant(Peek())) return atom;
        const Node::Kind k = p_.nodes[atom].kind;
        if (k == Node::BOL || k == Node::EOL) return Unsup("a quantified anchor");
        int mn = 0, mx = -1;
        const char32_t q = s_[i_++];
        if (q == '*') mn = 0, mx = -1;
        else if (q == '+') mn = 1, mx = -1;
        else if (q == '?') mn = 0, mx = 1;
        else {
            auto num = [&](int &v) {
                if (!More() || !AsciiDigit(Peek())) return false;
                v = 0;
                while (More() && AsciiDigit(Peek())) {
                    v = v * 10 + static_cast<int>(s_[i_++] - '0');
                    if (v > kDupMax) return false;
                }
                return true;
            };
            if (!num(mn)) return Unsup("a '{' that is not a bound of at most 255");
            if (More() && Peek() == ',') {
                ++i_;
                if (More() && Peek() == '}') mx = -1;
                else if (!num(mx)) return Unsup("a '{' that is not a bound of at most 255");
            } else {
                mx = mn;
            }
            if (!More() || Peek() != '}') return Unsup("a '{' that is not a bound");
            ++i_;
            if (mx >= 0 && mx < mn) return Unsup("a bound {m,n} with m > n");
        }
        if (More() && (IsQuant(Peek()))) return Unsup(Peek() == '?' ? "a non-greedy quantifier" : "a quantifier after a quantifier");
        if (p_.nodes[atom].has_cap) return Unsup("a quantified group that holds a capture");
        if (mn == 1 && mx == 1) return atom;
        Node n(Node::REP);
        n.kids = {atom};
        n.min = mn;
        n.max = mx;
        return Add(n);
    }

    // One escaped character after '\' (i_ at the character): a class or a literal.
    Status Escape(CharSet &cs, bool in_bracket) {
        if (!More()) return Unsup("a trailing backslash");
        const char32_t c = s_[i_++];
        switch (c) {
            case 'd': cs.classes |= C_DIGIT; p_.uses_classes = true; return Status::Ok();
            case 's': cs.classes |= C_SPACE; p_.uses_classes = true; return Status::Ok();
            case 'w': cs.classes |= C_WORD; p_.uses_classes = true; return Status::Ok();
            case 'D':
            case 'S':
            case 'W':
                if (in_bracket) return Unsup("\\D, \\S or \\W inside brackets");
                cs.neg_classes |= c == 'D' ? C_DIGIT : c == 'S' ? C_SPACE : C_WORD;
                p_.uses_classes = true;
                return Status::Ok();
            case 'n': cs.ranges.push_back({'\n', '\n'}); return Status::Ok();
            case 't': cs.ranges.push_back({'\t', '\t'}); return Status::Ok();
            case 'r': cs.ranges.push_back({'\r', '\r'}); return Status::Ok();
            case 'f': cs.ranges.push_back({'\f', '\f'}); return Status::Ok();
            case 'v': cs.ranges.push_back({'\v', '\v'}); return Status::Ok();
            default: break;
        }
        if (c < 0x80 && !AsciiDigit(c) && !AsciiAlpha(c) && c > 0x20 && c != 0x7f) {
            cs.ranges.push_back({c, c});
            return Status::Ok();
        }
        return Unsup(std::string("the escape \\") + (c < 0x80 ? std::string(1, static_cast<char>(c)) : std::string("(non-ASCII)")));
    }

    Expected<int> Atom() {
        const char32_t c = s_[i_];
        if (c == '(') {
            ++i_;
            int cap = -1;
            if (Peek() == '?') {
                if (Peek(1) != ':') return Unsup("'(?' other than '(?:' (lookaround or options)");
                i_ += 2;
            } else {
                cap = ++p_.ncap;
            }
            RNDN_ASSIGN_OR_RETURN(int inner, Alt());
            if (!More() || Peek() != ')') return Unsup("an unclosed '('");
            ++i_;
            Node n(Node::GROUP);
            n.kids = {inner};
            n.cap = cap;
            n.has_cap = cap > 0 || p_.nodes[inner].has_cap;
            return Add(n);
        }
        if (c == '[') return Bracket();
        if (c == '.') {
            ++i_;
            CharSet cs;
            cs.any = true;
            return AddSet(cs);
        }
        if (c == '^' || c == '$') {
            ++i_;
            return Add(Node(c == '^' ? Node::BOL : Node::EOL));
        }
        if (c == '\\') {
            ++i_;
            CharSet cs;
            RNDN_RETURN_IF_ERROR(Escape(cs, false));
            return AddSet(cs);
        }
        if (IsQuant(c)) return Unsup("a quantifier without an atom");
        if (c == ')' || c == ']' || c == '}') return Unsup(std::string("a literal '") + static_cast<char>(c) + "'");
        if (c == '*' && i_ == 0) return Unsup("a leading '*'");
        ++i_;
        CharSet cs;
        cs.ranges.push_back({c, c});
        return AddSet(cs);
    }

    Expected<int> Bracket() {
        ++i_;  // '['
        CharSet cs;
        if (Peek() == '^') {
            cs.negated = true;
            ++i_;
        }
        bool first = true;
        for (;;) {
            if (!More()) return Unsup("an unclosed '['");
            char32_t c = s_[i_];
            if (c == ']' && !first) {
                ++i_;
                break;
            }
            if (c == '[') return Unsup("'[' inside brackets (POSIX classes, collating elements)");
            char32_t lo;
            if (c == '\\') {
                ++i_;
                CharSet esc;
                RNDN_RETURN_IF_ERROR(Escape(esc, true));
                if (esc.classes) {
                    cs.classes |= esc.classes;
                    first = false;
                    if (Peek() == '-' && Peek(1) != ']') return Unsup("a range from a class");
                    continue;
                }
                lo = esc.ranges[0].first;
            } else {
                if (c == '-' && !first && Peek(1) != ']') return Unsup("a '-' inside brackets that is not first or last");
                lo = c;
                ++i_;
            }
            first = false;
            char32_t hi = lo;
            if (Peek() == '-' && Peek(1) != ']' && More()) {
                i_ += 1;
                if (!More()) return Unsup("an unclosed '['");
                char32_t e = s_[i_];
                if (e == '[') return Unsup("'[' inside brackets (POSIX classes, collating elements)");
                if (e == '\\') {
                    ++i_;
                    CharSet esc;
                    RNDN_RETURN_IF_ERROR(Escape(esc, true));
                    if (esc.classes) return Unsup("a range to a class");
                    hi = esc.ranges[0].first;
                } else {
                    hi = e;
                    ++i_;
                }
                if (hi < lo) return Unsup("an invalid range");
                if (Peek() == '-' && Peek(1) != ']') return Unsup("a '-' after a range");
            }
            cs.ranges.push_back({lo, hi});
        }
        return AddSet(cs);
    }

    Program &p_;
    const std::vector<char32_t> &s_;
    Options o_;
    size_t i_ = 0;
};

// ---- Thompson construction
struct Frag {
    int start;
    std::vector<int *> outs;  // dangling exits (pointers into st, valid until st grows: indices below)
};

class Builder {
public:
    Builder(const Program &p, Nfa &n) : p_(p), n_(n) {}

    // Builds items [first, end) of a CAT node (or the node itself when cat < 0) and a MATCH.
    Status Build(int node, int first, int end) {
        std::vector<Exit> exits;
        int start;
        if (first < 0) {
            RNDN_ASSIGN_OR_RETURN(start, Gen(node, exits));
        } else {
            RNDN_ASSIGN_OR_RETURN(start, GenSeq(p_.nodes[node].kids, first, end, exits));
        }
        const int m = NewState({State::MATCH});
        Patch(exits, m);
        n_.start = start;
        return Status::Ok();
    }

private:
    struct Exit {
        int state;
        bool second;
    };
    Expected<int> Check() {
        if (static_cast<int>(n_.st.size()) > kMaxStates) return Status::Unsupported("regular expression too large for rndn's matcher");
        return 0;
    }
    int NewState(State s) {
        n_.st.push_back(s);
        return static_cast<int>(n_.st.size()) - 1;
    }
    void Patch(const std::vector<Exit> &ex, int to) {
        for (const Exit &e : ex) (e.second ? n_.st[e.state].out2 : n_.st[e.state].out) = to;
    }

    Expected<int> GenSeq(const std::vector<int> &items, int first, int end, std::vector<Exit> &exits) {
        int start = -1;
        std::vector<Exit> pending;
        for (int k = first; k < end; ++k) {
            std::vector<Exit> ex;
            RNDN_ASSIGN_OR_RETURN(int s, Gen(items[k], ex));
            if (start < 0) start = s;
            else Patch(pending, s);
            pending = std::move(ex);
        }
        exits = std::move(pending);
        return start;
    }

    Expected<int> Gen(int node, std::vector<Exit> &exits) {
        RNDN_RETURN_IF_ERROR(Check().status());
        const Node &nd = p_.nodes[node];
        switch (nd.kind) {
            case Node::SET: {
                const int s = NewState({State::SET, nd.set});
                exits = {{s, false}};
                return s;
            }
            case Node::BOL:
            case Node::EOL: {
                const int s = NewState({nd.kind == Node::BOL ? State::BOL : State::EOL});
                exits = {{s, false}};
                return s;
            }
            case Node::GROUP: return Gen(nd.kids[0], exits);
            case Node::CAT: return GenSeq(nd.kids, 0, static_cast<int>(nd.kids.size()), exits);
            case Node::ALT: {
                // a chain of SPLITs: out -> branch, out2 -> the next split (last: the branch)
                std::vector<int> starts;
                exits.clear();
                for (int k : nd.kids) {
                    std::vector<Exit> ex;
                    RNDN_ASSIGN_OR_RETURN(int s, Gen(k, ex));
                    starts.push_back(s);
                    exits.insert(exits.end(), ex.begin(), ex.end());
                }
                int next = starts.back();
                for (int k = static_cast<int>(starts.size()) - 2; k >= 0; --k) next = NewState({State::SPLIT, -1, starts[k], next});
                return next;
            }
            case Node::REP: {
                // min mandatory copies, then (max - min) optional ones or a loop
                int start = -1;
                std::vector<Exit> pending;
                auto chain = [&](int s, std::vector<Exit> ex) {
                    if (start < 0) start = s;
                    else Patch(pending, s);
                    pending = std::move(ex);
                };
                for (int k = 0; k < nd.min; ++k) {
                    std::vector<Exit> ex;
                    RNDN_ASSIGN_OR_RETURN(int s, Gen(nd.kids[0], ex));
                    chain(s, std::move(ex));
                }
                if (nd.max < 0) {
                    std::vector<Exit> ex;
                    RNDN_ASSIGN_OR_RETURN(int s, Gen(nd.kids[0], ex));
                    const int split = NewState({State::SPLIT, -1, s, -1});
                    Patch(ex, split);
                    chain(split, {{split, true}});
                } else {
                    std::vector<Exit> skips;
                    for (int k = nd.min; k < nd.max; ++k) {
                        std::vector<Exit> ex;
                        RNDN_ASSIGN_OR_RETURN(int s, Gen(nd.kids[0], ex));
                        const int split = NewState({State::SPLIT, -1, s, -1});
                        skips.push_back({split, true});
                        chain(split, std::move(ex));
                    }
                    pending.insert(pending.end(), skips.begin(), skips.end());
                }
                if (start < 0) {  // {0} / {0,0}: matches the empty string
                    const int e = NewState({State::EMPTY});
                    start = e;
                    pending = {{e, false}};
                }
                exits = std::move(pending);
                return start;
            }
        }
        return Status::Internal("regex node");
    }

    const Program &p_;
    Nfa &n_;
};

// ---- simulation
class Sim {
public:
    Sim(const Program &p, const Nfa &n, const Text &t) : p_(p), n_(n), t_(t), mark_(n.st.size(), 0) {}

    // Adds state s and its epsilon closure at text position pos to list.
    void Add(std::vector<int> &list, int s, size_t pos) {
        if (s < 0 || mark_[s] == gen_) return;
        mark_[s] = gen_;
        const State &st = n_.st[s];
        switch (st.kind) {
            case State::SPLIT:
                Add(list, st.out, pos);
                Add(list, st.out2, pos);
                return;
            case State::EMPTY: Add(list, st.out, pos); return;
            case State::BOL:
                if (pos == 0) Add(list, st.out, pos);
                return;
            case State::EOL:
                if (pos == t_.cp.size()) Add(list, st.out, pos);
                return;
            default: list.push_back(s); return;
        }
    }
    bool HasMatch(const std::vector<int> &list) const {
        for (int s : list)
            if (n_.st[s].kind == State::MATCH) return true;
        return false;
    }
    void Step(const std::vector<int> &cur, std::vector<int> &next, size_t pos) {
        ++gen_;
        next.clear();
        const char32_t c = t_.cp[pos];
        for (int s : cur) {
            const State &st = n_.st[s];
            if (st.kind == State::SET && SetHas(p_.sets[st.set], c)) Add(next, st.out, pos + 1);
        }
    }

    // Ends e in [a, limit] where the NFA matches [a, e]: ends[e - a] = 1.  Returns the longest
    // (-1: none).
    long Ends(size_t a, size_t limit, std::vector<char> *ends) {
        std::vector<int> cur, next;
        ++gen_;
        Add(cur, n_.start, a);
        long best = -1;
        if (ends) ends->assign(limit - a + 1, 0);
        for (size_t pos = a;; ++pos) {
            if (HasMatch(cur)) {
                best = static_cast<long>(pos);
                if (ends) (*ends)[pos - a] = 1;
            }
            if (pos == limit || cur.empty()) break;
            Step(cur, next, pos);
            cur.swap(next);
        }
        return best;
    }
    bool Exact(size_t a, size_t b) {
        std::vector<int> cur, next;
        ++gen_;
        Add(cur, n_.start, a);
        for (size_t pos = a; pos < b && !cur.empty(); ++pos) {
            Step(cur, next, pos);
            cur.swap(next);
        }
        return HasMatch(cur);
    }
    // A match starting anywhere (the start state re-entered at every position).
    bool Anywhere() {
        std::vector<int> cur, next;
        ++gen_;
        Add(cur, n_.start, 0);
        for (size_t pos = 0;; ++pos) {
            if (HasMatch(cur)) return true;
            if (pos == t_.cp.size()) return false;
            Step(cur, next, pos);
            Add(next, n_.start, pos + 1);
            cur.swap(next);
        }
    }

private:
    const Program &p_;
    const Nfa &n_;
    const Text &t_;
    std::vector<uint32_t> mark_;
    uint32_t gen_ = 0;
};

// The parts of a CAT node as PostgreSQL's parser cuts a branch: each atom that holds a capture
// alone, the capture-free runs between them merged.
std::vector<std::pair<int, int>> Cuts(const Program &p, int cat) {
    std::vector<std::pair<int, int>> out;
    const auto &k = p.nodes[cat].kids;
    int run = -1;
    for (int i = 0; i < static_cast<int>(k.size()); ++i) {
        if (p.nodes[k[i]].has_cap) {
            if (run >= 0) out.push_back({run, i});
            run = -1;
            out.push_back({i, i + 1});
        } else if (run < 0) {
            run = i;
        }
    }
    if (run >= 0) out.push_back({run, static_cast<int>(k.size())});
    return out;
}

Status Prepare(Program &p, int node) {
    const Node &nd = p.nodes[node];
    if (!nd.has_cap) return Status::Ok();
    if (nd.kind == Node::GROUP) return Prepare(p, nd.kids[0]);
    if (nd.kind == Node::ALT) {
        for (size_t b = 0; b < nd.kids.size(); ++b) {
            Nfa &n = p.parts[{node, static_cast<int>(b), -2}];
            RNDN_RETURN_IF_ERROR(Builder(p, n).Build(nd.kids[b], -1, -1));
            RNDN_RETURN_IF_ERROR(Prepare(p, nd.kids[b]));
        }
        return Status::Ok();
    }
    if (nd.kind == Node::CAT) {
        auto cuts = Cuts(p, node);
        const int nitems = static_cast<int>(nd.kids.size());
        for (size_t c = 0; c < cuts.size(); ++c) {
            // the part, and the rest after it
            RNDN_RETURN_IF_ERROR(Builder(p, p.parts[{node, cuts[c].first, cuts[c].second}]).Build(node, cuts[c].first, cuts[c].second));
            if (cuts[c].second < nitems)
                RNDN_RETURN_IF_ERROR(Builder(p, p.parts[{node, cuts[c].second, nitems}]).Build(node, cuts[c].second, nitems));
            for (int i = cuts[c].first; i < cuts[c].second; ++i) RNDN_RETURN_IF_ERROR(Prepare(p, nd.kids[i]));
        }
        p.cuts[node] = std::move(cuts);
    }
    return Status::Ok();
}

// Assigns the captures inside `node`, which matches [a, b] exactly.
void Dissect(const Program &p, const Text &t, int node, size_t a, size_t b, std::vector<std::pair<long, long>> &caps) {
    const Node &nd = p.nodes[node];
    if (!nd.has_cap) return;
    if (nd.kind == Node::GROUP) {
        if (nd.cap > 0) caps[nd.cap] = {static_cast<long>(a), static_cast<long>(b)};
        Dissect(p, t, nd.kids[0], a, b, caps);
        return;
    }
    if (nd.kind == Node::ALT) {
        for (size_t k = 0; k < nd.kids.size(); ++k) {
            const Nfa &n = p.parts.at({node, static_cast<int>(k), -2});
            if (Sim(p, n, t).Exact(a, b)) {
                Dissect(p, t, nd.kids[k], a, b, caps);
                return;
            }
        }
        return;
    }
    if (nd.kind == Node::CAT) {
        const auto &cuts = p.cuts.at(node);
        const int nitems = static_cast<int>(nd.kids.size());
        size_t pos = a;
        for (size_t c = 0; c < cuts.size(); ++c) {
            size_t end = b;
            if (cuts[c].second < nitems) {
                // the longest span of this part after which the rest matches up to b
                std::vector<char> ends;
                Sim part(p, p.parts.at({node, cuts[c].first, cuts[c].second}), t);
                part.Ends(pos, b, &ends);
                const Nfa &rest = p.parts.at({node, cuts[c].second, nitems});
                long found = -1;
                for (long e = static_cast<long>(b); e >= static_cast<long>(pos); --e)
                    if (ends[static_cast<size_t>(e) - pos] && Sim(p, rest, t).Exact(static_cast<size_t>(e), b)) {
                        found = e;
                        break;
                    }
                if (found < 0) return;  // cannot happen: the whole matched [a, b]
                end = static_cast<size_t>(found);
            }
            for (int i = cuts[c].first; i < cuts[c].second; ++i)
                if (p.nodes[nd.kids[i]].has_cap) Dissect(p, t, nd.kids[i], pos, end, caps);
            pos = end;
        }
    }
}

bool StartsAnchored(const Program &p, int node) {
    const Node &nd = p.nodes[node];
    switch (nd.kind) {
        case Node::BOL: return true;
        case Node::CAT: return StartsAnchored(p, nd.kids[0]);
        case Node::GROUP: return StartsAnchored(p, nd.kids[0]);
        case Node::ALT:
            for (int k : nd.kids)
                if (!StartsAnchored(p, k)) return false;
            return true;
        default: return false;
    }
}

}  // namespace

void Decode(std::string_view s, Text &out) {
    out.cp.clear();
    out.off.clear();
    size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        size_t l = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
        if (l > s.size() - i) l = s.size() - i;
        char32_t v = l == 1 ? c : l == 2 ? (c & 0x1F) : l == 3 ? (c & 0x0F) : (c & 0x07);
        for (size_t k = 1; k < l; ++k) v = (v << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out.cp.push_back(v);
        out.off.push_back(i);
        i += l;
    }
    out.off.push_back(s.size());
}

Expected<std::shared_ptr<const Program>> Compile(std::string_view pattern, const Options &options) {
    auto p = std::make_shared<Program>();
    Text t;
    Decode(pattern, t);
    if (t.cp.empty()) return Status::Unsupported("an empty regular expression (outside rndn's ARE subset)");
    if (pattern.rfind("***", 0) == 0) return Status::Unsupported("a '***' director (outside rndn's ARE subset)");
    Parser ps(*p, t.cp, options);
    RNDN_RETURN_IF_ERROR(ps.Run());
    RNDN_RETURN_IF_ERROR(Builder(*p, p->main).Build(p->root, -1, -1));
    RNDN_RETURN_IF_ERROR(Prepare(*p, p->root));
    p->anchored = StartsAnchored(*p, p->root);
    return std::shared_ptr<const Program>(std::move(p));
}

bool UsesClasses(const Program &p) { return p.uses_classes; }
int NumCaptures(const Program &p) { return p.ncap; }

bool Exists(const Program &p, const Text &t) { return Sim(p, p.main, t).Anywhere(); }

bool Search(const Program &p, const Text &t, size_t from, std::vector<std::pair<long, long>> &caps) {
    caps.assign(static_cast<size_t>(p.ncap) + 1, {-1, -1});
    Sim sim(p, p.main, t);
    const size_t n = t.cp.size();
    for (size_t st = from; st <= n; ++st) {
        if (p.anchored && st > 0) return false;
        const long e = sim.Ends(st, n, nullptr);
        if (e < 0) continue;
        caps[0] = {static_cast<long>(st), e};
        Dissect(p, t, p.root, st, static_cast<size_t>(e), caps);
        return true;
    }
    return false;
}

}  // namespace rndn::hir::regex
