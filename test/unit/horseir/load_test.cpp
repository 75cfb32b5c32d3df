// Schema + .tbl loading (bin/rndn-hir run --schema --data).
#include <sys/stat.h>

#include <fstream>

#include "test_util.h"

namespace rndn::hir::testing {
namespace {

TEST(Loader, SchemaForeignKeysAndBothLineEndings) {
    std::string dir = "build/test/horseir_load_test";
    mkdir("build", 0755);
    mkdir("build/test", 0755);
    mkdir(dir.c_str(), 0755);
    {
        std::ofstream(dir + "/dim.tbl") << "1|one|1.50|1994-01-01|\n2|two|-0.25|2000-02-29|\n";
        std::ofstream(dir + "/fact.tbl") << "2|X\n1|Y\n2|Z\n";  // no trailing '|'
    }
    const char *schema =
        "-- comment\n"
        "CREATE TABLE dim (d_key integer NOT NULL PRIMARY KEY, d_name varchar(10), d_amt numeric(15,2), d_day date);\n"
        "CREATE TABLE fact (f_key integer NOT NULL REFERENCES dim (d_key), f_flag char(1));\n";
    DataRegistry reg;
    Status st = LoadSchemaAndData(schema, dir, reg);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(Eval("t:? = @load_table(`dim:sym); a:dec64<2> = check_cast(@column_value(t, `d_amt:sym), dec64<2>); return a;", &reg), "1.50,-0.25");
    EXPECT_EQ(Eval("t:? = @load_table(`dim:sym); d:date = check_cast(@column_value(t, `d_day:sym), date); return d;", &reg),
              "1994-01-01,2000-02-29");
    EXPECT_EQ(Eval("t:? = @load_table(`fact:sym); e:enum<i32> = check_cast(@column_value(t, `f_key:sym), enum<i32>); v:? = @values(e); return v;", &reg),
              "1,0,1");
    EXPECT_EQ(Eval("t:? = @load_table(`fact:sym); c:char = check_cast(@column_value(t, `f_flag:sym), char); return c;", &reg), "X,Y,Z");
    // a foreign key that references nothing is an error
    std::ofstream(dir + "/fact.tbl") << "3|X|\n";
    DataRegistry reg2;
    EXPECT_FALSE(LoadSchemaAndData(schema, dir, reg2).ok());
    // malformed rows report file:line
    std::ofstream(dir + "/fact.tbl") << "1|X|\nfoo|Y|\n";
    DataRegistry reg3;
    Status bad = LoadSchemaAndData(schema, dir, reg3);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.message().find("fact.tbl:2: invalid i32 value \"foo\""), std::string::npos) << bad.message();
}

}  // namespace
}  // namespace rndn::hir::testing
