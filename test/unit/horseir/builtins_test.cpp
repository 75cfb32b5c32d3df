// Builtin semantics: every builtin on its types, NULLs, empty vectors, overflow and errors.
// Expected values are worked out by hand from the language reference, or (decimal rows) were
// printed by PostgreSQL 15 for the same SQL expression (noted beside them).
#include <cmath>
#include <cstdio>

#include "test_util.h"

namespace rndn::hir::testing {
namespace {

TEST(Arithmetic, IntegerTypesAndWidening) {
    EXPECT_EQ(E("@plus((1,2,3):i32, (10,20,30):i32)"), "11,22,33");
    EXPECT_EQ(E("@plus((1,2,3):i32, 5:i64)"), "6,7,8");
    EXPECT_EQ(TypeOf("@plus((1,2,3):i32, 5:i64)"), "i64");
    EXPECT_EQ(TypeOf("@plus(1:i16, 2:i8)"), "i16");
    EXPECT_EQ(E("@minus((1,2):i16, 3:i16)"), "-2,-1");
    EXPECT_EQ(E("@mul(1:bool, 2.5:f64)"), "2.5");
    EXPECT_EQ(E("@mul((1,0,1):bool, 3:i32)"), "3,0,3");
    EXPECT_EQ(E("@div(7:i32, 2:i32)"), "3");
    EXPECT_EQ(E("@div(-7:i32, 2:i32)"), "-3");
    EXPECT_EQ(E("@div(7:f64, 2:i32)"), "3.5");
    EXPECT_EQ(E("@mod((7,-7):i64, 3:i64)"), "1,-1");
    EXPECT_EQ(E("@mod(7.5:f64, 2:f64)"), "1.5");
    EXPECT_EQ(TypeOf("@mod(1:bool, 1:bool)"), "i16");
    EXPECT_EQ(E("@plus(1:i32, (0.5,1.5):f64)"), "1.5,2.5");
    EXPECT_EQ(TypeOf("@plus(1:i64, 1:f32)"), "f32");  // rank order, not precision order
}

TEST(Arithmetic, OverflowAndDivisionByZeroUsePostgresWording) {
    EXPECT_EQ(E("@plus(2147483647:i32, 1:i32)"), "ERROR 22003: integer out of range");
    EXPECT_EQ(E("@mul(65536:i32, 65536:i32)"), "ERROR 22003: integer out of range");
    EXPECT_EQ(E("@minus(-32768:i16, 1:i16)"), "ERROR 22003: smallint out of range");
    EXPECT_EQ(E("@plus(9223372036854775807:i64, 1:i64)"), "ERROR 22003: bigint out of range");
    EXPECT_EQ(E("@minus(-9223372036854775807:i64, 2:i64)"), "ERROR 22003: bigint out of range");
    EXPECT_EQ(E("@mul(4611686018427387904:i64, 2:i64)"), "ERROR 22003: bigint out of range");
    EXPECT_EQ(E("@div(-9223372036854775807:i64, -1:i64)"), "9223372036854775807");
    EXPECT_EQ(E("@neg(-2147483648:i32)"), "ERROR 22003: integer out of range");
    EXPECT_EQ(E("@abs(-9223372036854775807:i64)"), "9223372036854775807");
    EXPECT_EQ(E("@div((1,2):i32, (1,0):i32)"), "ERROR 22012: division by zero");
    EXPECT_EQ(E("@mod(1:i64, 0:i64)"), "ERROR 22012: division by zero");
    EXPECT_EQ(E("@div(1:f64, 0:f64)"), "Infinity");
    EXPECT_EQ(E("@sum((2147483647,1):i32)"), "ERROR 22003: integer out of range");
    EXPECT_EQ(E("@sum((9223372036854775807,1):i64)"), "ERROR 22003: bigint out of range");
}

TEST(Arithmetic, NullsPropagateAndHideErrors) {
    EXPECT_EQ(E("@plus((1,null,3):i32, 1:i32)"), "2,null,4");
    EXPECT_EQ(E("@div((1,2):i32, (null,2):i32)"), "null,1");
    EXPECT_EQ(E("@div((1,2):i32, (0,2):i32)"), "ERROR 22012: division by zero");
    EXPECT_EQ(E("@div((5,2):i32, (0,2):i32)", ""), "ERROR 22012: division by zero");
    // a NULL row whose data would overflow is not an error
    EXPECT_EQ(E("@plus((2147483647,null):i32, (null,1):i32)"), "null,null");
}

// Decimal literals: 38 significant digits at most, whatever the scale pads them to (a fuzz
// input once overflowed __int128 by scaling "1" to 10^40).
TEST(Arithmetic, DecimalLiteralsStayWithin38Digits) {
    std::string nines(38, '9');
    auto max = ParseDecimal(nines, 0);
    ASSERT_TRUE(max.ok());
    EXPECT_EQ(FormatDecimal(*max, 0), nines);
    EXPECT_EQ(ParseDecimal(nines + "9", 0).status().sqlstate(), sqlstate::kNumericOutOfRange);
    EXPECT_EQ(ParseDecimal("-" + nines + "9", 0).status().sqlstate(), sqlstate::kNumericOutOfRange);
    auto e37 = ParseDecimal("1", 37);
    ASSERT_TRUE(e37.ok());
    EXPECT_EQ(FormatDecimal(*e37, 37), "1." + std::string(37, '0'));
    EXPECT_EQ(ParseDecimal("1", 38).status().sqlstate(), sqlstate::kNumericOutOfRange);
    EXPECT_EQ(ParseDecimal("1.5", 1000).status().sqlstate(), sqlstate::kNumericOutOfRange);
    auto zero = ParseDecimal("0.000", 1000);
    ASSERT_TRUE(zero.ok());
    EXPECT_EQ(*zero, 0);
    auto rounded = ParseDecimal("-2.345", 2);
    ASSERT_TRUE(rounded.ok());
    EXPECT_EQ(FormatDecimal(*rounded, 2), "-2.35");
}

TEST(Arithmetic, ShapesAndEmpty) {
    EXPECT_EQ(E("@plus((1,2):i32, (1,2,3):i32)"), "ERROR 22023: @plus: operand lengths 2 and 3 do not match");
    EXPECT_EQ(E("@plus(z, 1:i32)", "z:? = @compress(0:bool, 1:i32);"), "");
    EXPECT_EQ(E("@len(y)", "z:? = @compress(0:bool, 1:i32); y:? = @plus(z, 1:i32);"), "0");
    EXPECT_EQ(E("@plus(z, z)", "z:? = @compress(0:bool, 1:i64);"), "");
}

TEST(Arithmetic, MathFunctions) {
    EXPECT_EQ(E("@sqrt(16:f64)"), "4");
    EXPECT_EQ(TypeOf("@sqrt(16:i32)"), "f32");
    EXPECT_EQ(TypeOf("@sqrt(16:i64)"), "f64");
    EXPECT_EQ(E("@exp(0:f64)"), "1");
    EXPECT_EQ(E("@log(1:f64)"), "0");
    EXPECT_EQ(E("@power(2:f64, 10:f64)"), "1024");
    EXPECT_EQ(E("@logb(2:f64, 8:f64)"), "3");
    EXPECT_EQ(E("@abs((-3,4):i32)"), "3,4");
    EXPECT_EQ(E("@neg((1.5,-2):f64)"), "-1.5,2");
    EXPECT_EQ(TypeOf("@neg(1:bool)"), "i16");
    EXPECT_EQ(E("@signum((-5,0,7):i64)"), "-1,0,1");
    EXPECT_EQ(E("@ceil((1.2,-1.2):f64)"), "2,-1");
    EXPECT_EQ(E("@floor((1.2,-1.2):f64)"), "1,-2");
    EXPECT_EQ(E("@round((2.5,-2.5,1.4):f64)"), "3,-3,1");
    EXPECT_EQ(E("@fact((0,5):i32)"), "1,120");
    EXPECT_EQ(E("@recip(4:f64)"), "0.25");
}

TEST(Compare, AllTypes) {
    EXPECT_EQ(E("@lt((1,5,3):i32, 3:i32)"), "1,0,0");
    EXPECT_EQ(E("@leq((1,5,3):i32, 3:i64)"), "1,0,1");
    EXPECT_EQ(E("@gt(0.5:f64, (0,1):i32)"), "1,0");
    EXPECT_EQ(E("@geq((1994-01-01,1993-12-31):date, 1994-01-01:date)"), "1,0");
    EXPECT_EQ(E("@eq(('R','A'):char, 'R':char)"), "1,0");
    EXPECT_EQ(E("@eq((`ab,`b):sym, `ab:sym)"), "1,0");
    EXPECT_EQ(E("@neq((`ab,`b):sym, `ab:sym)"), "0,1");
    EXPECT_EQ(E("@lt((\"a\",\"ab\",\"b\"):str, \"ab\":str)"), "1,0,0");
    EXPECT_EQ(E("@eq((1,null):i32, 1:i32)"), "1,null");
    EXPECT_EQ(E("@lt(12:30:minute, 13:00:minute)"), "1");
    EXPECT_EQ(E("@lt(1994-01:month, 1994-02:month)"), "1");
    EXPECT_EQ(E("@lt(1:i32, 1994-01-01:date)").substr(0, 11), "ERROR 42804");
}

TEST(Logic, KleeneNulls) {
    EXPECT_EQ(E("@and((1,1,0,0):bool, (1,0,1,0):bool)"), "1,0,0,0");
    EXPECT_EQ(E("@or((1,1,0,0):bool, (1,0,1,0):bool)"), "1,1,1,0");
    EXPECT_EQ(E("@xor((1,1,0,0):bool, (1,0,1,0):bool)"), "0,1,1,0");
    EXPECT_EQ(E("@nand((1,0):bool, 1:bool)"), "0,1");
    EXPECT_EQ(E("@nor((1,0):bool, 0:bool)"), "0,1");
    EXPECT_EQ(E("@and((null,null,null):bool, (1,0,null):bool)"), "null,0,null");
    EXPECT_EQ(E("@or((null,null,null):bool, (1,0,null):bool)"), "1,null,null");
    EXPECT_EQ(E("@not((1,0,null):bool)"), "0,1,null");
}

TEST(Selection, WhereCompressIndex) {
    EXPECT_EQ(E("@where((1,0,1,0):bool)"), "0,2");
    EXPECT_EQ(E("@where((1,null,1):bool)"), "0,2");
    EXPECT_EQ(E("@compress((1,1,0):bool, (53,11,12):i32)"), "53,11");
    EXPECT_EQ(E("@compress((1,null,1):bool, (`a,`b,`c):sym)"), "a,c");
    EXPECT_EQ(E("@compress((1,0):bool, (1,2,3):i32)"), "ERROR 22023: @compress: mask length 2 differs from data length 3");
    EXPECT_EQ(E("@index((-1,2,3):i32, (2,1):i32)"), "3,2");
    EXPECT_EQ(E("@index((\"x\",\"yy\",\"z\"):str, (1,1,0):i64)"), "yy,yy,x");
    EXPECT_EQ(E("@index((1,2):i32, 2:i64)"), "ERROR 22023: index 2 out of range for a vector of length 2");
    EXPECT_EQ(E("@index((1,null,3):i32, (1,2):i64)"), "null,3");
    EXPECT_EQ(E("@index_a((-1,2,3):i32, (2,1):i64, 0:i32)", "x:? = 1:i32;"), "-1,0,0");
    EXPECT_EQ(Eval("x:? = (-1,2,3):i32;\n y:? = @index_a(x, (2,1):i64, (7,8):i32);\n return x;"), "-1,2,3");
    EXPECT_EQ(E("@index_a(v, (1,3):i64, 1:bool)", "v:? = @vector(4:i32, 0:bool);"), "0,1,0,1");
    EXPECT_EQ(E("@index_a((\"a\",\"bb\",null,\"d\"):str, (2,0):i64, (\"x\",null):str)"), "null,bb,x,d");
    EXPECT_EQ(E("@index_a((\"a\",\"bb\"):str, (1):i64, \"zz\":str)"), "a,zz");
    EXPECT_EQ(E("check_cast((2.5,-2.5,3.49):dec128<2>, i32)"), "3,-3,3");
}

TEST(Sorting, OrderGroupUnique) {
    EXPECT_EQ(E("@order((32,12,7,78,23,45):i32, 1:bool)"), "2,1,4,0,5,3");
    EXPECT_EQ(E("@order((32,12,7,78,23,45):i32, 0:bool)"), "3,5,0,4,1,2");
    EXPECT_EQ(E("@order(k, (1,0):bool)", "a:? = (32,12,7,78,12,45):i32; b:? = (56,34,32,45,78,23):i32; k:? = @list(a, b);"), "2,4,1,0,5,3");
    EXPECT_EQ(E("@order((`b,`a,`c,`a):sym, 1:bool)"), "1,3,0,2");
    EXPECT_EQ(E("@order((2,null,1):i32, 1:bool)"), "2,0,1");  // NULLS LAST ascending
    EXPECT_EQ(E("@order((2,null,1):i32, 0:bool)"), "1,0,2");  // NULLS FIRST descending
    EXPECT_EQ(E("@order((1.5,-0.5):f64, 1:bool)"), "1,0");
    EXPECT_EQ(E("@keys(g)", "g:? = @group((-1,3,2,3):i32);"), "0,2,1");
    EXPECT_EQ(E("@values(g)", "g:? = @group((-1,3,2,3):i32);"), "(0),(2),(1,3)");
    EXPECT_EQ(E("@values(g)", "a:? = (1,1,2,2):i32; b:? = ('x','y','x','x'):char; k:? = @list(a,b); g:? = @group(k);"), "(0),(1),(2,3)");
    EXPECT_EQ(E("@unique((-1,2,2,3,3):i16)"), "0,1,3");
    EXPECT_EQ(E("@unique((`b,`a,`b):sym)"), "0,1");
    EXPECT_EQ(E("@len(k)", "z:? = @compress(0:bool, 1:i32); g:? = @group(z); k:? = @keys(g);"), "0");
}

// String keys rank in unsigned byte order on both ranking paths: packed (every string at most
// six bytes) and hashed (a longer string present); multi-byte UTF-8 sorts above ASCII.
TEST(Sorting, StringKeysInByteOrder) {
    const char *short_keys = "(\"b\",\"\xc3\xa4\",\"a\",\"\",\"ab\",\"\xc3\xa4\",\"zz\"):str";
    const char *long_keys = "(\"bbbbbbbbb\",\"\xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4\",\"a\",\"\",\"ab\",\"\xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4\",\"zz\"):str";
    for (const char *keys : {short_keys, long_keys}) {
        EXPECT_EQ(E("@keys(g)", std::string("g:? = @group(") + keys + ");"), "3,2,4,0,6,1") << keys;
        EXPECT_EQ(E("@values(g)", std::string("g:? = @group(") + keys + ");"), "(3),(2),(4),(0),(6),(1,5)") << keys;
        EXPECT_EQ(E(std::string("@order(") + keys + ", 1:bool)"), "3,2,4,0,6,1,5") << keys;
        EXPECT_EQ(E(std::string("@unique(") + keys + ")"), "0,1,2,3,4,6") << keys;
    }
    EXPECT_EQ(E("@compress((1,0,1,1):bool, (\"x\",\"yy\",\"\",\"zzz\"):str)"), "x,,zzz");
}

TEST(Sets, MemberIndexOfJoin) {
    EXPECT_EQ(E("@member((-1,2,3):i32, (1,3,-1):i32)"), "1,0,1");
    EXPECT_EQ(E("@member((`a,`q):sym, (\"a\",\"b\"):str)"), "1,0");
    EXPECT_EQ(E("@member((1,null):i32, (1,2):i32)"), "1,null");
    EXPECT_EQ(E("@member(3:i32, (1,null):i32)"), "null");
    EXPECT_EQ(E("@member((1,2):i64, (1.0,3.5):f64)"), "1,0");
    EXPECT_EQ(E("@index_of((3,4):i32, (4,9,16):i32)"), "3,0");
    EXPECT_EQ(E("@join_index(@eq, (1,2,3):i32, (3,1,1):i32)"), "(2,0,0),(0,1,2)");
    EXPECT_EQ(E("@join_index(@lt, (1,2):i32, (2,3):i32)"), "(0,0,1),(0,1,1)");
    EXPECT_EQ(E("@join_index(@lt, @eq, a, b)", "a:? = @list((1,5,1):i32, (7,7,8):i32); b:? = @list((3,3):i32, (7,8):i32);"),
              "(0,2),(0,1)");
    EXPECT_EQ(E("@join_index(@eq, (1,null):i32, (null,1):i32)"), "(0),(1)");
    EXPECT_EQ(E("@join_index(@eq, 5:i64, (5,1,5):i32)"), "(0,0),(0,2)");
}

TEST(Vectors, AppendVectorRangeTakeDropReverse) {
    EXPECT_EQ(E("@append(0:i32, (-1,2,3):i32)"), "0,-1,2,3");
    EXPECT_EQ(E("@append(1:i32, 2.5:f64)"), "1,2.5");
    EXPECT_EQ(E("@append((`a):sym, (`b,`c):sym)"), "a,b,c");
    EXPECT_EQ(E("@vector(5:i32, (-1,2,3):i32)"), "-1,2,3,-1,2");
    EXPECT_EQ(E("@vector(2:i32, 0:bool)"), "0,0");
    EXPECT_EQ(E("@range(4:i32)"), "0,1,2,3");
    EXPECT_EQ(E("@range(9000000000000000000:i64)").substr(0, 11), "ERROR 53200");
    EXPECT_EQ(E("@vector(-1:i32, 1:i32)"), "ERROR 22023: @vector: negative length");
    EXPECT_EQ(E("@take(2:i32, (1,2,3):i32)"), "1,2");
    EXPECT_EQ(E("@take(-2:i32, (1,2,3):i32)"), "2,3");
    EXPECT_EQ(E("@drop(1:i32, (1,2,3):i32)"), "2,3");
    EXPECT_EQ(E("@drop(-1:i32, (1,2,3):i32)"), "1,2");
    EXPECT_EQ(E("@reverse((1,2,3):i32)"), "3,2,1");
}

TEST(Reductions, SumAvgMinMaxLenCount) {
    EXPECT_EQ(E("@sum((1,2):i32)"), "3");
    EXPECT_EQ(TypeOf("@sum((1,2):i16)"), "i32");
    EXPECT_EQ(TypeOf("@sum((1,2):i64)"), "i64");
    EXPECT_EQ(E("@sum((1.5,2.25):f64)"), "3.75");
    EXPECT_EQ(E("@sum(z)", "z:? = @compress(0:bool, 1:i32);"), "0");  // HorseIR: empty sum is 0
    EXPECT_EQ(E("@sum((null,null):i32)"), "null");       // SQL: no valid rows -> NULL
    EXPECT_EQ(E("@sum((1,null,2):i64)"), "3");
    EXPECT_EQ(E("@avg((1,2):i32)"), "1.5");
    EXPECT_EQ(TypeOf("@avg((1,2):i32)"), "f32");
    EXPECT_EQ(E("@avg((1,null,4):f64)"), "2.5");
    EXPECT_EQ(E("@min((3,1,2):i32)"), "1");
    EXPECT_EQ(E("@max((-3.5,-1.5):f64)"), "-1.5");
    EXPECT_EQ(E("@max((1994-01-01,1995-06-30):date)"), "1995-06-30");
    EXPECT_EQ(E("@min((`pear,`apple):sym)"), "apple");
    EXPECT_EQ(E("@max((null,4,null):i32)"), "4");
    EXPECT_EQ(E("@len((1,2,3):f32)"), "3");
    EXPECT_EQ(E("@count((1,null,3):f32)"), "2");
    EXPECT_EQ(E("@any((0,1):bool)"), "1");
    EXPECT_EQ(E("@all((0,1):bool)"), "0");
    // PostgreSQL's float8 var_pop/var_samp/stddev_pop/stddev_samp (values checked with psql)
    EXPECT_EQ(E("@float_var((1.0,2.0,4.0):f64, 0:i64)"), "1.5555555555555556");
    EXPECT_EQ(E("@float_var((1.0,2.0,4.0):f64, 1:i64)"), "2.3333333333333335");
    EXPECT_EQ(E("@float_var((1.0,null,2.0,4.0):f64, 3:i64)"), "1.5275252316519468");
    EXPECT_EQ(E("@float_var((5.0):f64, 1:i64)"), "null");
    EXPECT_EQ(E("@float_var((5.0):f64, 2:i64)"), "0");
}

TEST(Lists, EachRazeTolist) {
    const char *setup = "c:? = (10,20,30):i32; l:? = @list((0,2):i64, 1:i64);";
    EXPECT_EQ(E("@each_right(@index, c, l)", setup), "(10,30),(20)");
    EXPECT_EQ(E("@raze(s)", std::string(setup) + " x:? = @each_right(@index, c, l); s:? = @each(@sum, x);"), "40,20");
    EXPECT_EQ(E("@each_left(@plus, l, 1:i64)", setup), "(1,3),(2)");
    EXPECT_EQ(E("@each_item(@plus, l, l)", setup), "(0,4),(2)");
    EXPECT_EQ(E("@raze(l)", "l:? = @list((1,2):i32, 3:i32);"), "1,2,3");
    EXPECT_EQ(E("@tolist((1,2):i32)"), "(1),(2)");
    EXPECT_EQ(E("@len(l)", "l:? = @list((1,2):i32, 3:i32);"), "2");
    EXPECT_EQ(E("@index(l, 1:i64)", "l:? = @list((1,2):i32, (3):i32);"), "3");
    EXPECT_EQ(E("@match((1,2):i32, (1,2):i32)"), "1");
    EXPECT_EQ(E("@each(@unique, l)", "l:? = @list((1,1,2):i32, (3,3):i32);"), "(0,2),(0)");
    // an empty cell (an empty @raze is i64) adds no element and no type: grouping sets raze the
    // groups of an empty input with the total row
    const std::string none = "c:? = (\"a\",\"b\"):str; m:? = (0,0):bool; k:? = @compress(m, c); g:? = @group(k); "
                             "v:? = @values(g); p:? = @each_right(@index, k, v); s:? = @each(@min, p); e:? = @raze(s); ";
    EXPECT_EQ(E("@raze(l)", none + "l:? = @list(e, (\"x\",\"y\"):str);"), "x,y");
    EXPECT_EQ(E("@raze(l)", none + "l:? = @list((\"x\"):str, e);"), "x");
    EXPECT_EQ(E("@len(q)", none + "l:? = @list(e, e); q:? = @raze(l);"), "0");
}

TEST(Strings, LikeSubstring) {
    EXPECT_EQ(E("@like((`\"PROMO X\",`XPROMO):sym, `\"PROMO%\":sym)"), "1,0");
    EXPECT_EQ(E("@like((\"abc\",\"aXc\",\"ac\"):str, \"a_c\":str)"), "1,1,0");
    EXPECT_EQ(E("@like((`\"special requests\",`\"specialrequest\"):sym, `\"%special%requests%\":sym)"), "1,0");
    EXPECT_EQ(E("@like(\"\":str, \"%\":str)"), "1");
    EXPECT_EQ(E("@sub_string((\"13-999\",\"31-1\",\"7\"):str, (1,2):i32)"), "13,31,7");
    EXPECT_EQ(E("@sub_string(\"hello\":str, (2,3):i64)"), "ell");
    EXPECT_EQ(E("@sub_string(\"hello\":str, (0,3):i64)"), "he");  // SQL: start 0 counts one position before the string
}

TEST(Calendar, ExtractAndArithmetic) {
    EXPECT_EQ(E("@date_year(1995-03-15:date)"), "1995");
    EXPECT_EQ(TypeOf("@date_year(1995-03-15:date)"), "i16");
    EXPECT_EQ(E("@date_month((1995-03-15,2000-12-31):date)"), "3,12");
    EXPECT_EQ(E("@date_day(1996-02-29:date)"), "29");
    EXPECT_EQ(E("@date_year(1969-12-31:date)"), "1969");
    EXPECT_EQ(E("@plus(1998-12-01:date, -90:i32)"), "1998-09-02");
    EXPECT_EQ(E("@minus(1995-01-01:date, 1994-01-01:date)"), "365");
    EXPECT_EQ(E("@datetime_add(1996-01-31:date, 1:i32, `month:sym)"), "1996-02-29");
    EXPECT_EQ(E("@datetime_sub(1996-02-29:date, 1:i32, `year:sym)"), "1995-02-28");
    EXPECT_EQ(E("@time_hour(12:30:15:second)"), "12");
    EXPECT_EQ(E("@time_minute(12:30:15.250:time)"), "30");
    EXPECT_EQ(E("@time_mill(12:30:15.250:time)"), "250");
    EXPECT_EQ(E("@date(2019-01-02T17:10:21.001:dt)"), "2019-01-02");
    EXPECT_EQ(E("@time_second(2019-01-02T17:10:21.001:dt)"), "21");
}

TEST(Calendar, DateTruncOnTimestamps) {
    // 2013-07-14 was a Sunday: its ISO week starts on Monday 2013-07-08
    const std::string t = "(2013-07-14T10:15:30.250, null, 1999-12-31T23:59:59.999, 1970-01-01T00:00:00.000):dt";
    EXPECT_EQ(E("@date_trunc(" + t + ", `minute:sym)"), "2013-07-14T10:15:00.000,null,1999-12-31T23:59:00.000,1970-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(" + t + ", `hour:sym)"), "2013-07-14T10:00:00.000,null,1999-12-31T23:00:00.000,1970-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(" + t + ", `second:sym)"), "2013-07-14T10:15:30.000,null,1999-12-31T23:59:59.000,1970-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(" + t + ", `milliseconds:sym)"), "2013-07-14T10:15:30.250,null,1999-12-31T23:59:59.999,1970-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(" + t + ", `day:sym)"), "2013-07-14T00:00:00.000,null,1999-12-31T00:00:00.000,1970-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(" + t + ", `week:sym)"), "2013-07-08T00:00:00.000,null,1999-12-27T00:00:00.000,1969-12-29T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(" + t + ", `month:sym)"), "2013-07-01T00:00:00.000,null,1999-12-01T00:00:00.000,1970-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(" + t + ", `quarter:sym)"), "2013-07-01T00:00:00.000,null,1999-10-01T00:00:00.000,1970-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(" + t + ", `year:sym)"), "2013-01-01T00:00:00.000,null,1999-01-01T00:00:00.000,1970-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(0001-01-01T12:00:00.000:dt, `week:sym)"), "0001-01-01T00:00:00.000");  // a Monday
    EXPECT_EQ(TypeOf("@date_trunc(2013-07-14T10:15:30.250:dt, `day:sym)"), "dt");
    EXPECT_EQ(E("@len(z)", "e:? = @compress(0:bool, 2013-07-14T10:15:30.250:dt); z:? = @date_trunc(e, `day:sym);"), "0");
    EXPECT_EQ(E("@date_trunc(2013-07-14T10:15:30.250:dt, `fortnight:sym)"),
              "ERROR 22023: @date_trunc: unknown unit 'fortnight' (microseconds, milliseconds, second, minute, hour, day, week, month, quarter, year, decade, century, millennium)");
    EXPECT_EQ(TypeOf("@date_trunc(2013-07-14:date, `day:sym)"), "ERROR: t.hir:5:11: @date_trunc: expects (dt, sym) (arguments: date, sym)");
}

// @date_field / @date_field_us / @date_field_f: PostgreSQL 15's extract and date_part (values
// checked with psql; 2013-07-14 was a Sunday, 2005-01-01 lies in ISO week 53 of 2004)
TEST(Calendar, DateFields) {
    const std::string t = "(2013-07-14T10:15:30.250, null):dt";
    EXPECT_EQ(E("@date_field(" + t + ", `dow:sym)"), "0,null");
    EXPECT_EQ(E("@date_field(" + t + ", `isodow:sym)"), "7,null");
    EXPECT_EQ(E("@date_field(" + t + ", `week:sym)"), "28,null");
    EXPECT_EQ(E("@date_field(" + t + ", `doy:sym)"), "195,null");
    EXPECT_EQ(E("@date_field(" + t + ", `microseconds:sym)"), "30250000,null");
    EXPECT_EQ(E("@date_field_us(" + t + ", `second:sym)"), "30.250000,null");
    EXPECT_EQ(E("@date_field_us(" + t + ", `milliseconds:sym)"), "30250.000000,null");
    EXPECT_EQ(E("@date_field_us(" + t + ", `epoch:sym)"), "1373796930.250000,null");
    EXPECT_EQ(E("@date_field_f(" + t + ", `julian:sym)"), "2456488.427433449,null");
    EXPECT_EQ(E("@date_field_f(" + t + ", `epoch:sym)"), "1373796930.25,null");
    const std::string d = "(2005-01-01, 2000-02-29):date";
    EXPECT_EQ(E("@date_field(" + d + ", `week:sym)"), "53,9");
    EXPECT_EQ(E("@date_field(" + d + ", `isoyear:sym)"), "2004,2000");
    EXPECT_EQ(E("@date_field(" + d + ", `decade:sym)"), "200,200");
    EXPECT_EQ(E("@date_field(" + d + ", `century:sym)"), "21,20");
    EXPECT_EQ(E("@date_field(" + d + ", `millennium:sym)"), "3,2");
    EXPECT_EQ(E("@date_field(" + d + ", `julian:sym)"), "2453372,2451604");
    EXPECT_EQ(E("@date_field(" + d + ", `epoch:sym)"), "1104537600,951782400");
    EXPECT_EQ(E("@date_field_f(" + d + ", `hour:sym)"), "0,0");  // date_part of the date's midnight
    EXPECT_EQ(E("@date_field(" + d + ", `hour:sym)"), "ERROR 0A000: unit \"hour\" not supported for type date");
    EXPECT_EQ(E("@date_field(" + t + ", `fortnight:sym)"), "ERROR 22023: @date_field: unknown field 'fortnight'");
    EXPECT_EQ(TypeOf("@date_field_us(2013-07-14T10:15:30.250:dt, `second:sym)"), "dec128<6>");
    EXPECT_EQ(TypeOf("@date_field_f(2013-07-14:date, `dow:sym)"), "f64");
    EXPECT_EQ(E("@len(z)", "e:? = @compress(0:bool, 2013-07-14:date); z:? = @date_field(e, `dow:sym);"), "0");
}

// @interval_add: PostgreSQL's timestamp_pl_interval / date_pl_interval (values checked with psql)
TEST(Calendar, IntervalAdd) {
    const std::string t = "(2000-01-31T10:00:00.000, null, 2000-02-29T00:00:00.000):dt";
    EXPECT_EQ(E("@interval_add(" + t + ", (1,0,0):i64)"), "2000-02-29T10:00:00.000,null,2000-03-29T00:00:00.000");
    EXPECT_EQ(E("@interval_add(" + t + ", (12,1,1000):i64)"), "2001-02-01T10:00:00.001,null,2001-03-01T00:00:00.001");
    EXPECT_EQ(E("@interval_add(" + t + ", (-1,0,-1000):i64)"), "1999-12-31T09:59:59.999,null,2000-01-28T23:59:59.999");
    EXPECT_EQ(E("@interval_add((2001-01-31, 2000-02-29):date, (1,1,3600000000):i64)"),
              "2001-03-01T01:00:00.000,2000-03-30T01:00:00.000");  // months, then days, then time
    EXPECT_EQ(TypeOf("@interval_add(2000-01-01:date, (0,1,0):i64)"), "dt");
    EXPECT_EQ(E("@interval_add(2000-01-01:date, (3600000,0,0):i64)"), "ERROR 22008: timestamp out of range");
    EXPECT_EQ(E("@interval_add(2000-01-01:date, (0,0):i64)"),
              "ERROR 22023: @interval_add: the interval is (months, days, microseconds), three i64");
}

TEST(Calendar, TimePartsOfTimestamps) {
    const std::string t = "(2013-07-14T10:15:30.250, null, 1969-12-31T23:59:59.999):dt";
    EXPECT_EQ(E("@time_hour(" + t + ")"), "10,null,23");
    EXPECT_EQ(E("@time_minute(" + t + ")"), "15,null,59");
    EXPECT_EQ(E("@time_second(" + t + ")"), "30,null,59");
    EXPECT_EQ(E("@date_day(" + t + ")"), "14,null,31");
}

TEST(Strings, CharLengthCountsUtf8Characters) {
    EXPECT_EQ(E("@char_length((\"\", \"abc\", null, \"погода\", \"a€b\", \"𝄞\"):str)"), "0,3,null,6,3,1");
    EXPECT_EQ(TypeOf("@char_length(\"abc\":str)"), "i32");
    EXPECT_EQ(E("@char_length(`abc:sym)"), "3");
    EXPECT_EQ(TypeOf("@char_length(1:i32)"), "ERROR: t.hir:5:11: @char_length: expects a string argument (arguments: i32)");
}

TEST(Strings, StringFunctionsCountCharacters) {
    const std::string s = "(\"\", \"a€b€c\", null, \"hello\"):str";
    EXPECT_EQ(E("@str_left(" + s + ", 2:i32)"), ",a€,null,he");
    EXPECT_EQ(E("@str_right(" + s + ", -1:i32)"), ",€b€c,null,ello");
    EXPECT_EQ(E("@str_position(" + s + ", \"b\":str)"), "0,3,null,0");
    EXPECT_EQ(E("@str_reverse(" + s + ")"), ",c€b€a,null,olleh");
    EXPECT_EQ(E("@str_split_part(" + s + ", \"€\":str, -1:i32)"), ",c,null,hello");
    EXPECT_EQ(E("@str_lpad(" + s + ", 4:i32, \"xy\":str)"), "xyxy,a€b€,null,hell");
    EXPECT_EQ(E("@str_concat_ws(\"-\":str, (\"a\", null):str, \"b\":str)"), "a-b,b");
    EXPECT_EQ(E("@str_concat((\"a\", null):str, \"b\":str)"), "ab,null");
    EXPECT_EQ(E("@str_upper(\"aé\":str, \"C\":str)"), "Aé");
    EXPECT_EQ(E("@str_initcap(\"hELLO wORLD-x1y\":str, \"C\":str)"), "Hello World-X1y");
    EXPECT_EQ(E("@str_split_part(\"a,b\":str, \",\":str, 0:i32)"), "ERROR 22023: field position must not be zero");
}

TEST(Strings, RegexLeftmostLongestAndCaptures) {
    EXPECT_EQ(E("@regex_replace(\"https://www.example.com/x/y\":str, \"^https?://(?:www\\\\.)?([^/]+)/.*$\":str, \"\\\\1\":str, \"\":str)"),
              "example.com");
    // POSIX leftmost-longest, not Perl's leftmost-first
    EXPECT_EQ(E("@regex_replace(\"abcd\":str, \"a|ab|abc\":str, \"X\":str, \"\":str)"), "Xd");
    EXPECT_EQ(E("@regex_replace(\"aXbX\":str, \"x\":str, \"-\":str, \"gi\":str)"), "a-b-");
    EXPECT_EQ(E("@regex_match((\"abc\", \"xyz\", null):str, \"^[a-c]+$\":str, \"\":str)"), "1,0,null");
}

// @collate_rank: ranks in a collation's order, ties (strings the collation calls equal) broken by
// the bytes, as PostgreSQL's varstr_cmp.  en_US.UTF-8 is generated by tools/deps.sh: a machine
// without it fails here rather than skipping.
TEST(Strings, CollateRankOrdersByTheCollationThenTheBytes) {
    EXPECT_EQ(E("@collate_rank((\"b\", \"a\", \"B\", \"A\", null, \"a\", \"\"):str, \"libc:C\":str)"), "4,3,2,1,null,3,0");
    EXPECT_EQ(E("@collate_rank((\"b\", \"a\", \"B\", \"A\", null, \"a\", \"\"):str, \"libc:en_US.UTF-8\":str)"), "3,1,4,2,null,1,0");
    // glibc's en_US ignores punctuation at the first levels: co-op, coop, co op sort together
    EXPECT_EQ(E("@collate_rank((\"cop\", \"co-op\", \"coop\", \"co op\", \"Coop\"):str, \"libc:en_US.UTF-8\":str)"), "4,1,2,0,3");
    EXPECT_EQ(TypeOf("@collate_rank(\"a\":str, \"libc:C\":str)"), "i64");
    EXPECT_EQ(TypeOf("@collate_rank(1:i32, \"libc:C\":str)"),
              "ERROR: t.hir:5:11: @collate_rank: expects (string vector, collation string) (arguments: i32, str)");
    // a provider whose comparison calls every pair equal: the bytes decide
    RegisterCollationProvider("alleq", [](const std::string &) -> Expected<CollationCompare> {
        return CollationCompare([](std::string_view, std::string_view) { return 0; });
    });
    EXPECT_EQ(E("@collate_rank((\"b\", \"é\", \"é\", \"B\"):str, \"alleq:x\":str)"), "1,3,2,0");
    EXPECT_EQ(E("@collate_rank(\"a\":str, \"nosuch:x\":str)"), "ERROR 0A000: collation provider \"nosuch\" is not available");
    EXPECT_EQ(E("@collate_rank(\"a\":str, \"libc:xx_NOWHERE\":str)"), "ERROR 0A000: collation: locale \"xx_NOWHERE\" is not available");
}

TEST(Casts, CheckCastAtRunTime) {
    EXPECT_EQ(E("check_cast((1,2):i32, i64)"), "1,2");
    EXPECT_EQ(E("check_cast((1.9,-1.9):f64, i64)"), "1,-1");
    EXPECT_EQ(E("check_cast((0,5):i32, bool)"), "0,1");
    EXPECT_EQ(E("check_cast(`abc:sym, str)"), "abc");
    EXPECT_EQ(E("check_cast(1.25:dec64<2>, f64)"), "1.25");
    EXPECT_EQ(E("check_cast(1.255:dec64<3>, dec64<2>)"), "1.26");  // rounds half away from zero
    EXPECT_EQ(E("check_cast(7:i32, dec64<2>)"), "7.00");
    EXPECT_EQ(TypeOf("check_cast((\"1\",\"2\"):str, i32)"), "ERROR: t.hir:5:11: cannot cast str to i32");
}

// One expression and its expected result ("value" or "ERROR <state>: message") under default
// options and under SQL options.
struct TwoWayCase {
    const char *expr;
    const char *plain;
    const char *sql;
};

// Runs r:? = EXPR for every case with default options and with `sql`, and checks both results.
void ExpectTwoWays(std::initializer_list<TwoWayCase> cases, const InterpretOptions &sql) {
    auto show = [](const Expected<Value> &r) {
        return r.ok() ? Show(*r) : std::string("ERROR ") + r.status().sqlstate().chars + ": " + r.status().message();
    };
    for (const TwoWayCase &c : cases) {
        auto p = ParseProgram(Wrap(std::string("r:? = ") + c.expr + "; return r;"), "two.hir");
        ASSERT_TRUE(p.ok()) << c.expr << ": " << p.status().ToString();
        ASSERT_TRUE(CheckProgram(*p).ok()) << c.expr;
        DataRegistry reg;
        InterpretOptions plain;
        EXPECT_EQ(show(Interpret(*p, reg, plain)), c.plain) << c.expr;
        EXPECT_EQ(show(Interpret(*p, reg, sql)), c.sql) << c.expr;
    }
}

// Narrowing casts: HorseIR's C conversions by default; with sql_casts, PostgreSQL's range errors
// and rint rounding (select 2.5::float8::int -> 2, 3.5::float8::int -> 4, 3000000000::int8::int
// -> integer out of range, 1e300::float8::float4 -> value out of range: overflow).
TEST(Casts, NarrowingWithAndWithoutSqlCasts) {
    InterpretOptions sql;
    sql.sql_casts = true;
    ExpectTwoWays({
        {"check_cast((3000000000,5):i64, i32)", "-1294967296,5", "ERROR 22003: integer out of range"},
        {"check_cast((3000000000,null):i64, i32)", "-1294967296,null", "ERROR 22003: integer out of range"},
        {"check_cast((5,null):i64, i16)", "5,null", "5,null"},
        {"check_cast(40000:i32, i16)", "-25536", "ERROR 22003: smallint out of range"},
        {"check_cast((2.5,3.5,-2.5,2.7):f64, i32)", "2,3,-2,2", "2,4,-2,3"},
        {"check_cast(3e+09:f64, i32)", "2147483647", "ERROR 22003: integer out of range"},
        {"check_cast(-2147483648.4:f64, i32)", "-2147483648", "-2147483648"},
        {"check_cast(1e+300:f64, f32)", "Infinity", "ERROR 22003: value out of range: overflow"},
        {"check_cast(1e-300:f64, f32)", "0", "ERROR 22003: value out of range: underflow"},
        {"check_cast(0.5:f64, f32)", "0.5", "0.5"},
    }, sql);
}

TEST(Nulls, IsNullCoalesce) {
    EXPECT_EQ(E("@is_null((1,null):i32)"), "0,1");
    EXPECT_EQ(E("@is_not_null((1,null):i32)"), "1,0");
    EXPECT_EQ(E("@coalesce((1,null,null):i32, (5,6,null):i32)"), "1,6,null");
    EXPECT_EQ(E("@coalesce((\"a\",null):str, \"z\":str)"), "a,z");
}

TEST(Tables, TableKeysValuesEnums) {
    DataRegistry reg;
    auto keys = MakeVector(TypeKind::I32, 3).value();
    for (int i = 0; i < 3; ++i) keys->Data<int32_t>()[i] = 10 * (i + 1);  // 10,20,30
    auto names = MakeVector(TypeKind::SYM, 0).value();
    for (const char *s : {"ten", "twenty", "thirty"}) names->AppendString(s);
    ASSERT_TRUE(reg.AddTable("dim", {"d_key", "d_name"}, {Value(keys), Value(names)}).ok());
    auto fk = MakeVector(TypeKind::I32, 4).value();
    int32_t vals[] = {30, 10, 30, 20};
    for (int i = 0; i < 4; ++i) fk->Data<int32_t>()[i] = vals[i];
    auto e = MakeEnum(keys, fk, "dim");
    ASSERT_TRUE(e.ok());
    ASSERT_TRUE(reg.AddTable("fact", {"f_key"}, {Value(std::shared_ptr<const Enum>(e.value()))}).ok());
    const std::string load = "t:? = @load_table(`fact:sym); e:enum<i32> = check_cast(@column_value(t, `f_key:sym), enum<i32>);";
    EXPECT_EQ(Eval(load + " r:? = @values(e); return r;", &reg), "2,0,2,1");
    EXPECT_EQ(Eval(load + " r:? = @fetch(e); return r;", &reg), "30,10,30,20");
    EXPECT_EQ(Eval(load + " r:? = @keys(e); return r;", &reg), "10,20,30");
    EXPECT_EQ(Eval(load + " d:? = @load_table(`dim:sym); n:sym = check_cast(@column_value(d, `d_name:sym), sym); r:? = @index(n, @values(e)); return r;", &reg)
                  .substr(0, 5),
              "ERROR");  // calls do not nest
    EXPECT_EQ(Eval(load + " d:? = @load_table(`dim:sym); n:sym = check_cast(@column_value(d, `d_name:sym), sym); v:? = @values(e); r:? = @index(n, v); return r;", &reg),
              "thirty,ten,thirty,twenty");
    EXPECT_EQ(Eval("t:? = @load_table(`nope:sym); return t;", &reg), "ERROR 22023: table \"nope\" not found in the data registry");
    EXPECT_EQ(Eval("t:? = @load_table(`dim:sym); c:? = @column_value(t, `zz:sym); return c;", &reg), "ERROR 22023: column \"zz\" does not exist");
    EXPECT_EQ(Eval("t:? = @load_table(`dim:sym); r:? = @keys(t); return r;", &reg), "d_key,d_name");
    EXPECT_EQ(Eval("t:? = @load_table(`dim:sym); r:? = @len(t); return r;", &reg), "3");
    EXPECT_EQ(Eval("n:? = (`a,`b):sym; c:? = @list((1,2):i32, (`x,`y):sym); t:? = @table(n, c); return t;"), "a|b\n1|x\n2|y\n");
    EXPECT_EQ(Eval("n:? = (`a,`a):sym; c:? = @list((1,2):i32, (1,2):i32); t:? = @table(n, c); return t;"),
              "ERROR 22023: @table: duplicate column name \"a\"");
    EXPECT_EQ(Eval("n:? = (`a,`b):sym; c:? = @list((1,2):i32, 1:i32); t:? = @table(n, c); return t;"), "ERROR 22023: @table: columns differ in length");
    // a foreign-key value missing from the keys is an error
    auto bad = MakeVector(TypeKind::I32, 1).value();
    bad->Data<int32_t>()[0] = 99;
    EXPECT_FALSE(MakeEnum(keys, bad).ok());
    EXPECT_EQ(E("@values(@enum((1,2,3):i32, (3,3,1):i32))").substr(0, 5), "ERROR");  // nested call: parse error
    EXPECT_EQ(E("@values(x)", "x:? = @enum((1,2,3):i32, (3,3,1):i32);"), "2,2,0");
    EXPECT_EQ(E("@keys(x)", "x:? = @dict((1,2):i32, (`a,`b):sym);"), "1,2");
}

TEST(Interpreter, CancelAndMemoryBudget) {
    auto p = ParseProgram(Wrap("x:? = @range(1000:i64); y:? = @plus(x, x); return y;"), "c.hir");
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(CheckProgram(*p).ok());
    DataRegistry reg;
    InterpretOptions opts;
    opts.should_cancel = [] { return true; };
    auto r = Interpret(*p, reg, opts);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Code::CANCELLED);
    InterpretOptions small;
    small.memory_budget = 1000;
    auto r2 = Interpret(*p, reg, small);
    ASSERT_FALSE(r2.ok());
    EXPECT_EQ(r2.status().code(), Code::OUT_OF_MEMORY);
    InterpretOptions fine;
    fine.memory_budget = 1 << 20;
    EXPECT_TRUE(Interpret(*p, reg, fine).ok());
}

TEST(Interpreter, SqlEmptyAggregatesOption) {
    auto p = ParseProgram(Wrap("z:? = @compress(0:bool, 1:i32); s:? = @sum(z); m:? = @max(z); l:? = @list(s, m); return l;"), "a.hir");
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(CheckProgram(*p).ok());
    DataRegistry reg;
    InterpretOptions horse;
    auto r1 = Interpret(*p, reg, horse);
    ASSERT_TRUE(r1.ok());
    EXPECT_EQ(Show(*r1), "(0),(-2147483648)");  // HorseIR: identities
    InterpretOptions sql;
    sql.sql_empty_aggregates = true;
    auto r2 = Interpret(*p, reg, sql);
    ASSERT_TRUE(r2.ok());
    EXPECT_EQ(Show(*r2), "(null),(null)");
}

// With sql_float_errors, float arithmetic raises where PostgreSQL's float8/float4 operators do
// (select 1e308::float8 * 10 -> 22003 overflow; 1e-320 * 1e-10 -> underflow; x / 0 -> 22012);
// zero operands and NULL rows raise nothing.  Without it: IEEE results.
TEST(Interpreter, SqlFloatErrorsOption) {
    InterpretOptions sql;
    sql.sql_float_errors = true;
    ExpectTwoWays({
        {"@mul((1e+308,2):f64, 10:f64)", "Infinity,20", "ERROR 22003: value out of range: overflow"},
        {"@plus(1e+308:f64, 1e+308:f64)", "Infinity", "ERROR 22003: value out of range: overflow"},
        {"@minus(-3e+38:f32, 3e+38:f32)", "-Infinity", "ERROR 22003: value out of range: overflow"},
        {"@mul(1e-320:f64, 1e-10:f64)", "0", "ERROR 22003: value out of range: underflow"},
        {"@div(1e-320:f64, 1e+10:f64)", "0", "ERROR 22003: value out of range: underflow"},
        {"@div((1,2):f64, (1,0):f64)", "1,Infinity", "ERROR 22012: division by zero"},
        {"@mul((1e+308,null):f64, (10,10):f64)", "Infinity,null", "ERROR 22003: value out of range: overflow"},
        {"@mul((null,2):f64, (10,10):f64)", "null,20", "null,20"},
        {"@mul(1e+308:f64, 0:f64)", "0", "0"},
        {"@mul(0:f64, 1e-320:f64)", "0", "0"},
    }, sql);
}

TEST(Interpreter, ControlFlowAndUserFunctions) {
    const char *prog = R"(module m{
  import Builtin.*;
  def twice(x:i64) : i64, i64{
    y:? = @plus(x, x);
    return y, x;
  }
  def main() : i64{
    var s:i64;
    s = 0:i64;
    i:i64 = 0:i64;
    repeat (5:i32) {
      s = @plus(s, i);
      i = @plus(i, 1:i64);
    }
    c:bool = @lt(s, 100:i64);
    while (c) {
      s = @mul(s, 2:i64);
      c = @lt(s, 100:i64);
      if (@Builtin.eq(s, 0:i64)) break;
    }
    a:i64, b:i64 = @twice(s);
    if (@Builtin.gt(a, b)) {
      r:? = @minus(a, b);
      return r;
    } else {
      return b;
    }
  }
})";
    auto r = RunProgram(prog);
    ASSERT_FALSE(r.ok());  // if conditions are operands, not calls
    std::string fixed = prog;
    auto replace = [&](const std::string &from, const std::string &to) {
        size_t p = fixed.find(from);
        ASSERT_NE(p, std::string::npos);
        fixed.replace(p, from.size(), to);
    };
    replace("      if (@Builtin.eq(s, 0:i64)) break;", "      z:bool = @Builtin.eq(s, 0:i64);\n      if (z) break;");
    replace("    if (@Builtin.gt(a, b)) {", "    g:bool = @Builtin.gt(a, b);\n    if (g) {");
    auto r2 = RunProgram(fixed);
    ASSERT_TRUE(r2.ok()) << r2.status().ToString();
    // s = 0+1+2+3+4 = 10 -> 20 -> 40 -> 80 -> 160; twice(160) = (320, 160); 320 - 160
    EXPECT_EQ(Show(*r2), "160");
}

}  // namespace
}  // namespace rndn::hir::testing

namespace rndn::hir::testing {
namespace {

// Trigonometric, hyperbolic and logarithm builtins against the C library on the same inputs.
TEST(Arithmetic, TrigHyperbolicAndLogsMatchLibm) {
    struct Case {
        const char *name;
        double (*ref)(double);
        double x;
    };
    const Case cases[] = {
        {"cos", [](double v) { return std::cos(v); }, 0.5},   {"sin", [](double v) { return std::sin(v); }, 0.5},
        {"tan", [](double v) { return std::tan(v); }, 0.5},   {"acos", [](double v) { return std::acos(v); }, 0.5},
        {"asin", [](double v) { return std::asin(v); }, 0.5}, {"atan", [](double v) { return std::atan(v); }, 0.5},
        {"cosh", [](double v) { return std::cosh(v); }, 0.5}, {"sinh", [](double v) { return std::sinh(v); }, 0.5},
        {"tanh", [](double v) { return std::tanh(v); }, 0.5}, {"acosh", [](double v) { return std::acosh(v); }, 1.5},
        {"asinh", [](double v) { return std::asinh(v); }, 0.5}, {"atanh", [](double v) { return std::atanh(v); }, 0.5},
        {"log2", [](double v) { return std::log2(v); }, 10.0}, {"log10", [](double v) { return std::log10(v); }, 10.0},
    };
    for (const Case &c : cases) {
        char lit[64];
        std::snprintf(lit, sizeof lit, "%.17g", c.x);
        const std::string expr = std::string("@") + c.name + "(" + lit + ":f64)";
        const std::string got = E(expr);
        ASSERT_EQ(got.rfind("ERROR", 0), std::string::npos) << expr << ": " << got;
        EXPECT_DOUBLE_EQ(std::stod(got), c.ref(c.x)) << expr;
        EXPECT_EQ(E(std::string("@") + c.name + "(null:f64)"), "null") << c.name;
    }
    // dt difference in milliseconds: one day and ten seconds
    EXPECT_EQ(E("@datetime_diff(2000-01-02T00:00:10.000:dt, 2000-01-01T00:00:00.000:dt)"), "86410000");
    const std::string pi = E("@pi(2:f64)");
    ASSERT_EQ(pi.rfind("ERROR", 0), std::string::npos) << pi;
    EXPECT_DOUBLE_EQ(std::stod(pi), 2 * 3.14159265358979323846);
}

}  // namespace
}  // namespace rndn::hir::testing
