-- The correctness contract, as differential cases: each query runs with rndn.enabled off and on
-- and must give the same text (rows, order where ORDER BY fixes it, numeric scale, dates) or
-- the same error and SQLSTATE.  test/differential/run.py also reports which queries rndn ran.
--
-- Format: everything before the first '-- SQL math and bit operations, mixed integer widths, bool <-> int, char(n) lengths, timestamp::date
CREATE TABLE mathx (id int, x float8, y float8, i2 smallint, j2 smallint, i4 int, i8 bigint, c char(6), ts timestamp, bo bool);
INSERT INTO mathx VALUES
  (1, 4, 0.5, 3, 2, 7, 12, 'ab', '2024-02-29 13:45:00', true),
  (2, 0, 2, -5, -1, -9, -1, 'x   ', '1999-12-31 23:59:59.999999', false),
  (3, -8, 3, 32767, 7, 2147483647, 9223372036854775807, '', '0044-03-15 12:00:00 BC', NULL),
  (4, 'NaN', 0, -32768, 3, -2147483648, -9223372036854775808, 'ÄÖ ', 'infinity', true),
  (5, 'Infinity', -1, 0, -7, 0, 0, NULL, '-infinity', false),
  (6, '-Infinity', 'NaN', NULL, NULL, NULL, NULL, 'zz', NULL, true),
  (7, 1e300, 1.5, 1, 5, 1, 1, 'q', '1970-01-01 00:00:00', false),
  (8, '-0', -2, 2, 4, 31, 63, ' lead', '2000-01-01 00:00:00', true),
  (9, 2.5, 'Infinity', 4, 9, 33, 65, 'mid', '1900-03-01 00:00:01', NULL),
  (10, 0.1, 1e-300, 8, 2, -1, -1, 'tail ', '2262-04-11 23:47:16', false);

-- query:' line is set-up, run once.  Each
-- '-- query: NAME' line starts one case, which runs until the next such line.  Queries without
-- ORDER BY are compared after sorting their output lines.  Every case must run through rndn
-- (Custom Scan (rndn) in its plan, and no fallback at run time) unless its first line is
-- '-- fallback: REASON': such a case must stay with PostgreSQL (a comparison passes trivially
-- when rndn stood aside, so an unexpected fallback fails the case).

CREATE TABLE nums (id int PRIMARY KEY, i2 smallint, i4 int, i8 bigint, f4 real, f8 float8,
                   n numeric(15,2), n4 numeric(12,4), d date, t text, v varchar(20), c char(8), b bool);
INSERT INTO nums VALUES
  (1,  1,   10,  100,  1.5,  2.25,  10.50,  1.2500, '1994-01-01', 'alpha',  'AIR',   'A', true),
  (2,  2,   20,  200, -2.5, -0.5,   20.25,  0.3333, '1995-06-15', 'beta',   'RAIL',  'B', false),
  (3,  NULL, 30, NULL, NULL, 3.0,   NULL,   2.0000, NULL,         NULL,     NULL,    NULL, NULL),
  (4,  4,   NULL, 400,  4.0,  NULL,  0.01,   NULL,   '1998-12-01', 'gamma',  'SHIP',  'C', true),
  (5,  5,   50,  500,  0.0,  1e10,  -7.77,  -1.5000, '1992-02-29', 'delta',  'AIR',   'A', false),
  (6,  6,   60,  600,  6.5,  6.5,   123456789.99, 9.9999, '1996-02-29', 'Ärger', 'TRUCK', 'D', true),
  (7,  7,   0,   0,    7.0,  0.0,   0.00,   0.0000, '1970-01-01', 'über',   'MAIL',  'E', NULL),
  (8,  8,   -80, -800, -8.0, -8.25, -100.10, 3.1416, '2000-02-29', 'naïve',  'REG AIR','F', true),
  (9,  9,   90,  9000000000, 9.5, 9.75, 99.99, 0.5000, '2024-12-31', '', 'AIR', '', false),
  (10, 10,  100, 1000, 10.0, 10.0,  10.50,  1.2500, '1994-01-01', 'alpha',  'RAIL',  'A', true);

CREATE TABLE big (k int, g int, x numeric(15,2), y float8, s text);
INSERT INTO big SELECT i, i % 7, (i % 1000) / 100.0, i * 0.5, 'row' || (i % 13)
  FROM generate_series(1, 100000) AS i;
INSERT INTO big VALUES (NULL, NULL, NULL, NULL, NULL), (100001, NULL, 1.00, NULL, 'row1');

CREATE TABLE empty (k int, x numeric(15,2), s text);

CREATE TABLE lhs (k int, a text);
CREATE TABLE rhs (k int, b text);
INSERT INTO lhs VALUES (1, 'l1'), (2, 'l2'), (2, 'l2b'), (3, 'l3'), (NULL, 'lnull');
INSERT INTO rhs VALUES (2, 'r2'), (3, 'r3'), (3, 'r3b'), (4, 'r4'), (NULL, 'rnull');

CREATE TABLE overflow (a int, b int, c bigint, s smallint);
INSERT INTO overflow VALUES (2147483647, 1, 9223372036854775807, 32767), (1, 1, 1, 1);

CREATE TABLE parted (k int, d date, x numeric(10,2), s text) PARTITION BY RANGE (d);
CREATE TABLE parted_1994 PARTITION OF parted FOR VALUES FROM ('1994-01-01') TO ('1995-01-01');
CREATE TABLE parted_1995 PARTITION OF parted FOR VALUES FROM ('1995-01-01') TO ('1996-01-01');
CREATE TABLE parted_rest PARTITION OF parted DEFAULT;
INSERT INTO parted SELECT i, DATE '1993-07-01' + (i % 1000), (i % 97) / 4.0, 'p' || (i % 5)
  FROM generate_series(1, 5000) AS i;
INSERT INTO parted VALUES (NULL, NULL, NULL, NULL), (-1, DATE '1994-06-01', NULL, 'pnull');

-- issue 19 (a demanding user's findings): text groups with NULL maxima, DISTINCT keys fixed by
-- an equality, and edge values of every type.
CREATE TABLE kr (g int, t text);
INSERT INTO kr SELECT i, CASE WHEN i % 2 = 0 THEN 'x' END FROM generate_series(1, 5000) i;
CREATE TABLE u (x int, s text, d date);
INSERT INTO u VALUES (5, 'a', '1995-01-01'), (5, 'a', '1995-01-01'), (6, 'b', '1996-01-01'), (NULL, NULL, NULL);

CREATE TABLE fe (id int, x float8, r real, i int, s smallint, n numeric(10,2));
INSERT INTO fe VALUES (1, 1, 1, -2147483648, -32768, 1.50), (2, 'NaN', 'NaN', NULL, NULL, 'NaN'),
  (3, 2, 2, 5, 5, 2.00), (4, '-0', '-0', 3, 3, NULL), (5, NULL, NULL, 7, 7, 3.25),
  (6, 'NaN', 'NaN', 1, 1, NULL), (7, '-Infinity', '-Infinity', 2, 2, -1), (8, 'Infinity', 'Infinity', 9, 9, 0);
CREATE TABLE fe_one (x float8, r real);
INSERT INTO fe_one VALUES ('-0', '-0');

CREATE TABLE dd (id int, d date);
INSERT INTO dd VALUES (1, '0044-03-15 BC'), (2, 'infinity'), (3, '-infinity'), (4, '5874897-12-31'),
  (5, '4714-11-24 BC'), (6, '2000-01-01'), (7, NULL), (8, '0001-01-01'), (9, '0001-12-31 BC');

CREATE TABLE nq (id int, x int, m numeric(10,2));
INSERT INTO nq VALUES (1, 100, 1.5), (2, 1, 2.25), (3, 7, NULL), (4, NULL, 3), (5, 123456, -0.07), (6, 100, 100);

CREATE TABLE cq (id int, c char(10), d char(4), e char(1));
INSERT INTO cq VALUES (1, 'MACHINERY', 'ab', ''), (2, 'BUILDING', NULL, 'x'), (3, NULL, 'abcd', NULL);

CREATE COLLATION ci_nd (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE nd (id int, s text COLLATE ci_nd);
INSERT INTO nd VALUES (1, 'abc'), (2, 'ABC'), (3, 'Abc'), (4, 'x'), (5, NULL);

-- Text under collations other than the bytes' order (issue 19 item 15): libc's en_US.UTF-8 (the
-- locale tools/deps.sh generates) and ICU's en-US, as column collations and COLLATE clauses.
-- Mixed case, accents (precomposed and combining: equal to the collation, told apart by the
-- bytes), punctuation, spaces, digits, empty strings, NULLs.
CREATE COLLATION en_us_libc (provider = libc, locale = 'en_US.UTF-8');
CREATE COLLATION en_us_icu (provider = icu, locale = 'en-US');
CREATE TABLE coll (id int, s text, v varchar(12), e text COLLATE en_us_libc, u text COLLATE en_us_icu);
INSERT INTO coll SELECT i, w, upper(w), w, w FROM (
  SELECT i, CASE WHEN i % 29 = 0 THEN NULL ELSE
    (ARRAY['a', 'A', 'b', 'B', 'é', E'e\u0301', 'É', 'e', 'E', 'z', 'Z', '1', '10', '9', ' ', '-', '''', '.', '',
           'co-op', 'coop', 'co op', 'ß', 'ss', 'æ', 'Ö', 'o', 'ñ', '中', '_'])[1 + i % 30] ||
    (ARRAY['', 'a', 'B', ' x', '-y', '2', 'é', 'E', 'z', '.', 'ab', 'Ab', 'AB'])[1 + (i / 30) % 13] END
  FROM generate_series(1, 1200) AS i) AS w(i, w);

CREATE TABLE zt (id int, f float8, r real, n numeric(6,4));
INSERT INTO zt VALUES (1, 0, '-0', 0), (2, '-0', 0, 1), (3, NULL, NULL, NULL);

CREATE TABLE sq1 (k int); INSERT INTO sq1 VALUES (1), (2), (NULL), (10), (3);
CREATE TABLE sq2 (k int); INSERT INTO sq2 VALUES (1), (NULL), (3);
CREATE TABLE sq3 (k int); INSERT INTO sq3 VALUES (1), (3);
CREATE TABLE chc (ch char(4)); INSERT INTO chc VALUES ('ab'), ('x'), (NULL);
CREATE TABLE chv (vc varchar(8)); INSERT INTO chv VALUES ('ab '), ('x'), ('ab'), ('x  '), (NULL);

-- issue 18: timestamp columns (int64 microseconds in rndn), date_trunc, extract, length.
CREATE TABLE ts (id int, t timestamp, s text);
INSERT INTO ts VALUES
  (1, '2013-07-14 10:15:30.25', 'plain'), (2, '2013-07-14 23:59:59.999999', 'погода'),
  (3, '1969-12-31 23:59:59.5', 'a€b'), (4, '1999-12-31 00:00:00', ''), (5, NULL, NULL),
  (6, 'infinity', 'inf'), (7, '-infinity', '-inf'), (8, '0044-03-15 12:34:56 BC', 'caesar'),
  (9, '0001-01-01 00:00:00', 'one'), (10, '2000-01-01 00:00:00', 'epoch'),
  (11, '2013-07-08 00:00:00', 'monday'), (12, '2012-01-01 06:07:08.000123', 'sunday'),
  (13, '294276-12-31 23:59:59.999999', 'max'), (14, '2013-07-14 10:15:30.25', 'dup');
CREATE TABLE ts_min (id int, t timestamp);
INSERT INTO ts_min VALUES (1, '4714-11-24 00:00:00 BC'), (2, '4714-11-24 10:00:00 BC');
CREATE TABLE ts_empty (t timestamp, s text);
CREATE TABLE tsb (k int, t timestamp);
INSERT INTO tsb SELECT i, TIMESTAMP '2013-07-01 00:00:00' + (i * 37) * INTERVAL '1 second'
  FROM generate_series(1, 20000) AS i;

CREATE TABLE strs (id int, s text, t text, n int, v varchar(30));
INSERT INTO strs VALUES
  (1, 'hello world', 'o', 3, 'Mixed Case Words'), (2, '  padded  ', ' ', -2, 'ÄRGER über'),
  (3, 'a,b,,c', ',', 0, 'x'), (4, '', '', 1, ''), (5, NULL, 'x', NULL, NULL),
  (6, 'погода в норме', 'о', 2, 'ǅemal ŉ ß'), (7, 'a€b€c', '€', -1, '123abc DEF'),
  (8, 'xxabcxx', 'x', 7, 'o''neil-smith_jr'), (9, 'abc', NULL, 5, 'tab	sep'), (10, '𝄞 clef 𝄞', '𝄞', -5, 'ÉCOLE élève');
CREATE TABLE rx (id int, s text);
INSERT INTO rx VALUES
  (1, 'https://www.example.com/path/to?q=1'), (2, 'http://example.org/'), (3, 'ftp://files.example.net/x'),
  (4, 'https://sub.domain.co.uk/a/b/c'), (5, 'http://www./'), (6, ''), (7, NULL), (8, 'abcabcabc'),
  (9, 'aaa bbb  ccc'), (10, 'ABC abc AbC'), (11, 'line1
line2'), (12, 'año 2024 – ключ 42'), (13, 'xyz'), (14, 'a.b.c'), (15, '12-34-5678'),
  (16, 'https://example.com'), (17, 'foo_bar baz9'), (18, 'aXbXXcXXXd');

-- issue 18: every extract/date_part field over ISO-week and year boundaries, leap days, BC
-- dates and the ends of the timestamp range (one row per day around 2000 and around 1 BC, and
-- samples from 4714 BC to 288000 AD)
CREATE TABLE dfx (id int, d date, t timestamp);
INSERT INTO dfx SELECT i, DATE '1999-12-20' + i, TIMESTAMP '1999-12-20 00:00:00' + i * INTERVAL '1 day 1 hour 1 minute 1.234567 second'
  FROM generate_series(0, 4000) i;
INSERT INTO dfx SELECT 10000 + i, DATE '0012-12-20 BC' + i, TIMESTAMP '0012-12-20 00:00:00 BC' + i * INTERVAL '23:59:59.999999'
  FROM generate_series(0, 4500) i;
INSERT INTO dfx SELECT 20000 + i, DATE '4714-11-24 BC' + i * 48611, TIMESTAMP '4714-11-24 00:00:00 BC' + i * INTERVAL '48611 days 13:17:19.000321'
  FROM generate_series(0, 2200) i;
INSERT INTO dfx VALUES (30000, NULL, NULL), (30001, '5874897-12-31', '294276-12-31 23:59:59.999999'),
  (30002, '0001-01-01', '0001-01-01 00:00:00'), (30003, '0001-12-31 BC', '0001-12-31 23:59:59.999999 BC'),
  (30004, '2000-02-29', '2000-02-29 12:00:00.5'), (30005, '1900-02-28', '1900-03-01 00:00:00.000001'),
  (30006, '2004-12-31', '1970-01-01 00:00:00'), (30007, '2008-12-29', '1969-12-31 23:59:59.999999');

CREATE TABLE ime (d date);  -- month ends and leap days for timestamp/date + interval
INSERT INTO ime VALUES ('2000-01-31'), ('2001-01-31'), ('2000-02-29'), ('1900-01-31'), ('2004-03-31'), ('0001-01-31 BC'),
  ('0005-02-29 BC'), ('2013-12-31'), (NULL), ('infinity'), ('-infinity');

CREATE TABLE tz (id int, t timestamptz);
INSERT INTO tz VALUES (1, '2013-07-14 10:15:30.25+04'), (2, '2013-03-31 01:30:00 UTC'), (3, NULL),
  (4, 'infinity'), (5, '1969-12-31 23:59:59.5-08'), (6, '0044-03-15 12:00:00+00 BC'),
  (7, '2013-07-14 06:15:30.25+00'), (8, '2013-10-27 00:59:59.999999 UTC');

-- issue 18 items 1-3: timestamptz under the session's TimeZone.  Instants on both sides of DST
-- changes (America/New_York, Europe/Berlin, Australia/Lord_Howe's 30-minute shift), Kathmandu's
-- +05:30 -> +05:45 in 1986, Amsterdam's historic +00:19:32, far past and future, infinities;
-- wall times in spring-forward gaps and fall-back overlaps of those zones.  Rows with id >= 90
-- hold infinities (extract of the fields that grow with time is ±Infinity there: see the cases).
CREATE TABLE tzd (id int, t timestamptz, ts timestamp, d date);
INSERT INTO tzd VALUES
  (1, '2021-03-14 06:59:59.999999+00', '2021-03-14 02:30:00', '2021-03-14'),
  (2, '2021-03-14 07:00:00+00', '2021-03-14 03:00:00', '2021-03-13'),
  (3, '2021-11-07 05:30:00+00', '2021-11-07 01:30:00', '2021-11-07'),
  (4, '2021-11-07 06:30:00.5+00', '2021-11-07 00:59:59.999999', '2021-11-08'),
  (5, '2021-03-28 00:59:59+00', '2021-03-28 02:30:00', '2021-03-28'),
  (6, '2021-03-28 01:00:00+00', '2021-10-31 02:30:00', '2021-10-31'),
  (7, '2021-10-31 00:30:00+00', '2021-10-31 03:00:00', '2021-10-30'),
  (8, '2021-10-31 01:30:00+00', '2021-10-03 02:15:00', '2021-10-03'),
  (9, '2021-04-03 14:45:00+00', '2021-04-04 01:45:00', '2021-04-04'),
  (10, '2021-04-03 15:15:00+00', '2021-10-03 02:30:00', '2021-10-02'),
  (11, '2021-10-02 15:20:00+00', '1986-01-01 00:10:00', '1986-01-01'),
  (12, '2021-10-02 15:40:00+00', '1985-12-31 23:59:59', '1985-12-31'),
  (13, '1985-12-31 18:29:59+00', '1850-06-01 12:00:00', '1850-06-01'),
  (14, '1985-12-31 18:30:00+00', '1937-07-01 00:00:00', '1937-07-01'),
  (15, '1850-06-01 12:00:00+00', '1916-05-01 23:40:00', '1916-05-01'),
  (16, '1937-06-30 23:40:28+00', '2199-06-01 12:00:00', '2199-12-31'),
  (17, '2199-06-01 00:00:00+00', '2000-02-29 23:59:59.5', '2000-02-29'),
  (18, '2000-02-29 23:30:00+00', '1970-01-01 00:00:00', '1970-01-01'),
  (19, '0044-03-15 12:00:00+00 BC', '0044-03-15 12:00:00 BC', '0044-03-15 BC'),
  (20, '2013-12-31 23:59:59.999999+00', '2013-12-31 23:59:59.999999', '2013-12-31'),
  (21, NULL, NULL, NULL),
  (90, 'infinity', 'infinity', 'infinity'),
  (91, '-infinity', '-infinity', '-infinity'),
  (92, '2021-06-01 12:00:00+00', 'infinity', '-infinity');
-- far beyond the zone tables (2200): the program falls back at run time under a DST zone
CREATE TABLE tzfar (id int, t timestamptz);
INSERT INTO tzfar VALUES (1, '2250-06-01 12:00:00+00'), (2, '2021-06-01 12:00:00+00');
-- issue 18 (tsx18): infinite and microsecond constants, date_trunc's long units, extract(julian),
-- timestamptz +- a column interval, casts to text/varchar/char/uuid.  NULLs, infinities, BC,
-- DST changes (New York, Lord Howe, Kolkata), month ends and leap days.
CREATE TABLE tsx (id int, t timestamp, tz timestamptz, d date, iv interval, s text, u uuid);
INSERT INTO tsx VALUES
  (1, '2013-07-14 10:15:30.25', '2021-03-14 06:59:59.999999+00', '2013-07-14', '1 mon 2 days 03:04:05.000006', 'abcdef', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
  (2, '2000-01-01 00:00:00', '2021-11-07 05:30:00+00', '2000-01-01', '-1 mon', 'äöüß€x', '00000000-0000-0000-0000-000000000000'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, 'infinity', 'infinity', 'infinity', '1 day', 'inf', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
  (5, '-infinity', '-infinity', '-infinity', '-1 day', '', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A12'),
  (6, '0044-03-15 12:34:56.789012 BC', '0044-03-15 12:00:00+00 BC', '0044-03-15 BC', '1 year 6 mons', 'caesar', NULL),
  (7, '2000-02-29 23:59:59.999999', '2021-04-03 15:15:00+00', '2000-02-29', '1 mon', 'leap  ', '12345678-1234-5678-1234-567812345678'),
  (8, '1999-12-31 23:59:59.999999', '2021-10-02 15:40:00+00', '2001-01-01', '12 hours', 'y2k', '87654321-4321-8765-4321-876543218765'),
  (9, '2001-01-01 00:00:00', '2024-01-31 12:00:00+00', '2100-12-31', '1 mon 1 day', '𝄞 clef', 'deadbeef-dead-beef-dead-beefdeadbeef'),
  (10, '0001-01-01 00:00:00', '1985-12-31 18:29:59+00', '0001-01-01', '-1 mon -1 day -00:00:00.000001', 'one', '01234567-89ab-cdef-0123-456789abcdef'),
  (11, '0001-12-31 23:59:59.999999 BC', '2000-01-01 00:00:00+00', '0001-12-31 BC', '25 hours', 'bc', '11111111-2222-3333-4444-555555555555'),
  (12, '0100-06-15 08:00:00 BC', '1999-12-31 23:59:59.999999+00', '0100-01-01 BC', '3 days 1 hour', 'cent', '99999999-8888-7777-6666-555555555555'),
  (13, '1900-01-01 00:00:00', '1916-05-01 23:40:00+00', '1901-01-01', '-36 hours', 'x', 'abcdefab-cdef-abcd-efab-cdefabcdefab'),
  (14, '2013-07-14 10:15:30.000001', '2021-02-28 12:00:00+00', '2020-02-29', '1 year', 'mon', 'fedcba98-7654-3210-fedc-ba9876543210');
CREATE TABLE tsyears (y int, t timestamp);
INSERT INTO tsyears SELECT y, TIMESTAMP '2001-06-15 12:00:00 BC' + (y * INTERVAL '1 year') FROM generate_series(0, 4010) y;
CREATE TABLE tsmicro (k int, t timestamp);
INSERT INTO tsmicro SELECT k, TIMESTAMP '2000-01-01 00:00:00' + k * INTERVAL '1 microsecond' FROM generate_series(0, 2000) k;
CREATE TABLE tstext (id int, s text);
INSERT INTO tstext VALUES (1, '2021-03-14 02:30:00'), (2, '2021-11-07 01:30:00'), (3, '2021-03-14T06:59:59Z'),
  (4, ' 2021-03-14 06:59:59.5+05:30 '), (5, '2021-03-14 01:00-03:30:45'), (6, NULL), (7, 'infinity'), (8, '-INFINITY'),
  (9, '2000-02-29'), (10, '2021-10-03 02:15:00'), (11, '1985-12-31 23:59:59.999999-15:59:59'), (12, '2021-04-04 01:45:00+11'),
  (13, '1900-01-01 00:00:00'), (14, '2024-01-31 23:59:59.999999-00:30');

CREATE MATERIALIZED VIEW mv_unpopulated AS SELECT k, g FROM big WITH NO DATA;
CREATE MATERIALIZED VIEW mv_populated AS SELECT k, g, s FROM big WHERE k < 50;

-- issue 18: FILTER, bool_and/bool_or, INTERSECT/EXCEPT over a small table with NULLs and ties
CREATE TABLE an (id int, g int, i2 smallint, i8 bigint, n numeric(10,2), f float8, t text, d date, b bool);
INSERT INTO an VALUES
  (1, 1, 1, 10, 1.50, 0.5, 'a', '2000-01-01', true),
  (2, 1, 2, 20, 2.25, -1.5, 'b', '2001-02-03', false),
  (3, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, 2, 4, 40, -3.00, 2.0, 'a', '1999-12-31', true),
  (5, 2, 4, 40, -3.00, 2.0, 'a', '1999-12-31', true),
  (6, 3, 0, 0, 0.00, 0, '', '2024-02-29', NULL),
  (7, NULL, 7, 9000000000, 99999999.99, 1e300, 'zz', '1970-01-01', false),
  (8, 3, -8, -80, -0.01, -0.0, 'b', '2000-01-01', NULL),
  (9, 4, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE an2 (id int, g int, i2 smallint, i8 bigint, n numeric(10,2), f float8, t text, d date, b bool);
INSERT INTO an2 SELECT * FROM an WHERE id IN (1, 3, 4, 4, 7);
INSERT INTO an2 SELECT * FROM an WHERE id IN (4, 9);
INSERT INTO an2 VALUES (10, 5, 5, 50, 5.00, 5.5, 'e', '2005-05-05', true);

-- issue 18 item 4: window functions over frames, lag/lead/first/last/nth_value
CREATE TABLE wn (id int, g int, o int, i2 smallint, i4 int, i8 bigint, f4 real, f8 float8,
                 n numeric(10,2), d date, ts timestamp, t text, b bool);
INSERT INTO wn VALUES
  (1, 1, 1, 1, 10, 100, 1.5, 0.1, 1.10, '2000-01-01', '2000-01-01 10:00', 'a', true),
  (2, 1, 2, 2, 20, 200, -2.5, 0.2, 2.20, '2000-01-02', '2000-01-02 11:00', 'b', false),
  (3, 1, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, 1, 3, 4, 40, 400, 4.25, 0.3, -3.30, '2000-01-04', '2000-01-04 12:30', 'd', true),
  (5, 1, NULL, 5, 50, 500, 1e30, 1e300, 99999999.99, '1999-12-31', '1999-12-31 23:59', 'e', false),
  (6, 2, 1, 6, 60, 9000000000, 0.5, -0.0, 0.00, '2024-02-29', '2024-02-29 00:00', '', true),
  (7, 3, 5, 7, 70, 700, -0.0, 'NaN', 7.77, '2001-01-01', '2001-01-01 01:01', 'zz', NULL),
  (8, 3, 5, 8, 80, 800, 'Infinity', 1.5, 8.88, '2002-02-02', '2002-02-02 02:02', 'y', true),
  (9, 3, 6, 9, 90, 900, 2.5, 'Infinity', -8.88, '2003-03-03', '2003-03-03 03:03', 'x', false),
  (10, NULL, 1, 10, 100, 1000, 3.5, 2.5, 10.00, '2004-04-04', '2004-04-04 04:04', 'w', true),
  (11, NULL, 1, NULL, 110, NULL, NULL, 1e-300, NULL, '2005-05-05', NULL, 'v', NULL),
  (12, 4, 1, 12, 120, 1200, 0.1, 0.1, 0.10, '2006-06-06', '2006-06-06 06:06', 'u', false),
  (13, 4, 2, 13, 130, 1300, 0.2, 0.2, 0.20, '2007-07-07', '2007-07-07 07:07', 'u', true),
  (14, 4, 3, 14, 140, 1400, 0.3, 0.3, 0.30, '2008-08-08', '2008-08-08 08:08', 't', false),
  (15, 4, 4, 15, 150, 1500, 0.4, 0.7, 0.40, '2009-09-09', '2009-09-09 09:09', 's', true);
CREATE TABLE topn (k int, s text, f float8, n numeric(12,3), d date);
INSERT INTO topn SELECT i, 's' || (i * 7919 % 1000), CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 31 % 997) / 8.0 END,
  (i * 13 % 5003) / 1000.0, DATE '2000-01-01' + (i * 17 % 4000)
  FROM generate_series(1, 50000) AS i;
INSERT INTO topn VALUES (NULL, NULL, NULL, NULL, NULL), (NULL, 's1', 'NaN', NULL, NULL), (0, 's0', '-0', 0, NULL);

-- issue 18 item 3: stddev/variance of smallint/int/bigint/numeric (exact sums, PostgreSQL's
-- numeric digits and display scales): NULLs, negatives, a constant column (numerator 0), one-row
-- and empty groups, bigints whose squares pass 128 bits, numerics of mixed display scales (n / 3:
-- past dec128, PostgreSQL answers)
CREATE TABLE sv (id int, g int, i2 smallint, i4 int, i8 bigint, n numeric(20,4), u numeric(30,6), c int);
INSERT INTO sv VALUES
  (1, 1, 1, 10, 3000000000000000000, 1.5000, 1.5, 7),
  (2, 1, -2, -20, -3000000000000000001, -2.2500, 2.25, 7),
  (3, 1, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, 1, 32767, 2147483647, 2999999999999999999, 99999999.9999, 0.001, 7),
  (5, 2, -32768, -2147483648, 5, 0.0001, 3, 7),
  (6, 2, 4, 40, 6, -0.0001, -3.10, 7),
  (7, 2, 4, 40, 7, 0.0000, 100, 7),
  (8, 3, 9, 90, 9000000000, 12.3400, 0.000001, 7),
  (9, 4, NULL, NULL, NULL, NULL, NULL, NULL),
  (10, NULL, 0, 0, 0, 0, 0.0, 7),
  (11, NULL, 11, 110, -1100, 1.1000, 11.11, 7);
CREATE TABLE sv_ext (g int, i8 bigint);
INSERT INTO sv_ext VALUES (1, 9223372036854775807), (1, -9223372036854775808), (2, 9223372036854775807),
  (2, 9223372036854775806), (2, 9223372036854775805);

-- issue 18 items 1-2: interval columns (months, days, microseconds as PostgreSQL's Interval):
-- NULLs, negative and mixed-sign fields, equal spans with different fields ('1 day' and
-- '24 hours', '1 mon' and '30 days'), the field limits; timestamps at month ends, leap days and
-- infinities beside them.
CREATE TABLE ivl (id int, i interval, j interval, t timestamp, u timestamp, d date, tz timestamptz);
INSERT INTO ivl VALUES
  (1, '1 day', '24 hours', '2000-01-31 10:00', '2000-03-01', '2000-01-31', '2013-07-14 10:15:30.25+04'),
  (2, '24 hours', '1 day', '2000-02-29 00:00', '1999-02-28 23:59:59.999999', '2000-02-29', '2013-03-31 01:30:00 UTC'),
  (3, '1 mon', '30 days', '2001-01-31 12:00', '2001-01-31 12:00', '2001-01-31', NULL),
  (4, '-1 mon 3 days -04:05:06.789', '1 mon -3 days +04:05:06.789', '2024-02-29 23:59:59.5', '1970-01-01', '2024-02-29', '1969-12-31 23:59:59.5-08'),
  (5, NULL, '2 hours', NULL, '2000-01-01', NULL, NULL),
  (6, '1 year 2 mons 3 days 04:05:06', NULL, '1999-12-31 23:59:59', NULL, '1999-12-31', '2013-10-27 00:59:59.999999 UTC'),
  (7, '-2 years -11 mons -29 days -23:59:59.999999', '00:00:00.000001', '2013-07-14 10:15:30.25', '2013-07-14 10:15:30.25', '2013-07-14', '2013-07-14 06:15:30.25+00'),
  (8, '-25 hours', '-1 day -1 hour', '0044-03-15 12:34:56 BC', '0001-01-01', '0001-01-01', '0044-03-15 12:00:00+00 BC'),
  (9, '2147483647 mons 2147483647 days 2562047788:00:54.775807', '-2147483648 days', '294276-12-31 23:59:59.999999', '4713-11-24 00:00 BC', '2000-01-01', NULL),
  (10, '0', '-00:00:00.000001', '2000-01-01', '2000-01-01', '2000-01-01', '2000-01-01 00:00 UTC');
CREATE TABLE ivl_inf (id int, t timestamp, i interval);
INSERT INTO ivl_inf VALUES (1, '2000-01-01', '1 day'), (2, 'infinity', '2 days'), (3, '-infinity', NULL);
CREATE TABLE ivl_empty (i interval, t timestamp);
-- issue 18: 2,000 intervals of mixed signs and fractional seconds with float8 factors of mixed
-- signs and magnitudes (some zero, some NULL), for interval * / float8 bit for bit
CREATE TABLE ivf AS SELECT g, make_interval(months => (g * 7919) % 97 - 48, days => (g * 104729) % 61 - 30,
    secs => ((g * 7877) % 1000003 - 500000) / 7.0) AS i,
  CASE WHEN g % 53 = 0 THEN NULL ELSE ((g * 31) % 201 - 100) / 13.0 * power(10.0, (g % 9) - 4) END::float8 AS f
  FROM generate_series(1, 2000) g;
ANALYZE;


-- issue 18 (num18): unconstrained numeric (each value's own display scale: 1.5 and 1.50 print as
-- written), NaN and values beyond 38 digits (run-time fallback), uuid (ordered by its bytes)
CREATE TABLE un (id int, g int, x numeric, y numeric, n2 numeric(12,2));
INSERT INTO un VALUES
  (1, 1, 1.5, 2, 1.50), (2, 1, 1.50, 0.25, -3.25), (3, 2, -2.125, 3.0, 0.00), (4, 2, 0.000, -1, 7.00),
  (5, 3, NULL, 4.5, NULL), (6, 3, 12345678901234567890.12345, 1e-10, 10.01),
  (7, 1, 100, NULL, 99.99), (8, 2, -0.5, 0.5, -0.50), (9, 3, 99999999999999999999999999999.999999999, 1, 1.00),
  (10, 4, 0, 7, 2.50);
CREATE TABLE un_nan (id int, x numeric);
INSERT INTO un_nan VALUES (1, 1.5), (2, 'NaN'), (3, 2.25);
CREATE TABLE un_wide (id int, x numeric);
INSERT INTO un_wide VALUES (1, 1.5), (2, 123456789012345678901234567890123456789012);
CREATE TABLE un_mix (id int, x numeric);
INSERT INTO un_mix VALUES (1, 12345678901234567890123456789012345678), (2, 0.5);
CREATE TABLE uu (id int, u uuid, g int);
INSERT INTO uu VALUES (1, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 1), (2, '00000000-0000-0000-0000-000000000000', 1),
  (3, 'ffffffff-ffff-ffff-ffff-ffffffffffff', 2), (4, NULL, 2), (5, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 3),
  (6, '7f000000-0000-0000-8000-000000000000', 3), (7, '80000000-0000-0000-0000-000000000001', 1), (8, '0a000000-0000-0000-0000-0000000000ff', 2);
-- count(DISTINCT x) per group (@group_distinct): NULLs not counted, NaN = NaN and -0 = 0 as
-- PostgreSQL compares floats, 1.0 = 1.00 for numeric, '' a value, a group whose values are all
-- NULL (0), groups of one row
CREATE TABLE cdg (g int, f float8, t text, n numeric, d date);
INSERT INTO cdg VALUES (1, 'NaN', 'a', 1.0, '2024-01-01'), (1, 'NaN', '', 1.00, '2024-01-01'), (1, '-0', 'a', NULL, NULL),
  (1, 0, NULL, 2.5, '2024-01-02'), (2, NULL, NULL, NULL, NULL), (2, NULL, NULL, NULL, NULL), (3, 1e300, 'Ab', -0.0, '4713-01-01 BC'),
  (NULL, 7, 'x', 7, '2000-02-29'), (NULL, 7, 'y', 7.000, '2000-02-29'), (4, '-Infinity', 'é', 3, 'infinity'), (4, 'Infinity', 'e', 3.0, '-infinity');
CREATE TABLE uref (u uuid, label text);
INSERT INTO uref VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'first'), ('ffffffff-ffff-ffff-ffff-ffffffffffff', 'max'), (NULL, 'null');

-- to_char(timestamp/timestamptz/date, format): BC years, year 12345, ISO-week year ends, leap days,
-- microseconds, infinities (NULL) and NULLs
CREATE TABLE tch (id int, t timestamp, tz timestamptz, d date);
INSERT INTO tch VALUES
  (1, '2000-01-01 00:00:00', '2000-01-01 00:00:00+00', '2000-01-01'),
  (2, '2024-02-29 13:05:09.123456', '2024-02-29 13:05:09.123456+05:30', '2024-02-29'),
  (3, '1999-12-31 23:59:59.999999', '1999-12-31 23:59:59.999999-08', '1999-12-31'),
  (4, '0044-03-15 12:00:00 BC', '0044-03-15 12:00:00+00 BC', '0044-03-15 BC'),
  (5, '0001-01-01 00:00:00 BC', '0001-01-01 00:00:00+00 BC', '0001-01-01 BC'),
  (6, '0001-01-01 00:00:00', '0001-01-01 00:00:00+00', '0001-01-01'),
  (7, '2021-01-03 11:59:00', '2021-01-03 11:59:00+00', '2021-01-03'),
  (8, '2020-12-31 12:00:00', '2020-12-31 12:00:00+00', '2020-12-31'),
  (9, '2008-12-29 00:00:01', '2008-12-29 00:00:01+00', '2008-12-29'),
  (10, '12345-06-07 08:09:10', '12345-06-07 08:09:10+00', '12345-06-07'),
  (11, 'infinity', 'infinity', 'infinity'),
  (12, '-infinity', '-infinity', '-infinity'),
  (13, NULL, NULL, NULL),
  (14, '2013-03-31 02:30:00', '2013-03-31 01:30:00+00', '2013-03-31'),
  (15, '1900-10-11 21:00:00', '1900-10-11 21:00:00+00', '1900-10-11'),
  (16, '0150-07-04 00:00:00 BC', '0150-07-04 00:00:00+00 BC', '0150-07-04 BC'),
  (17, '2011-01-01 00:00:00', '2011-01-01 00:00:00+00', '2011-01-01'),
  (18, '2012-11-12 12:12:12.000001', '2012-11-12 12:12:12.000001+00', '2012-11-12');

-- float::numeric (%.15g / %.6g read as numeric_in), numeric text with exponents, simple CASE
CREATE TABLE flt (id int, f float8, r real);
INSERT INTO flt VALUES (1, 0.1, 0.1), (2, -0.0, -0.0), (3, 1e20, 1e20), (4, 1.5e-7, 1.5e-7), (5, 123456789.123456789, 1234.5678),
  (6, 2.5, 2.5), (7, -1e-300, -1e-30), (8, NULL, NULL), (9, 1e37, 1e37), (10, 33.333333333333336, 3.3333333), (11, 5e-324, 1e-45),
  (12, 9007199254740993, 16777217), (13, -123.456e10, -123.456e10);
CREATE TABLE flt_nan (id int, f float8);
INSERT INTO flt_nan VALUES (1, 1.5), (2, 'NaN'), (3, 'Infinity');
CREATE TABLE numtxt (id int, s text);
INSERT INTO numtxt VALUES (1, '1e5'), (2, '1.5E-7'), (3, ' -2.50e+2 '), (4, '0.000e3'), (5, '12e-1'), (6, '7E0'), (7, NULL), (8, '+.5e1');
CREATE TABLE numtxt_bad (id int, s text);
INSERT INTO numtxt_bad VALUES (1, '2.5'), (2, '1e'), (3, '1e+');

-- rows in the heap in the reverse of their index order (inserted descending): a plan that
-- reads the inner side through its index sees another order than a sequential read.  f sums
-- differently in either order (1e16 + 1 loses the 1), x holds equal numerics of different
-- display scales (min/max keep one of them by position)
CREATE TABLE ofree_o (k int PRIMARY KEY, g int);
CREATE TABLE ofree_l (k int, n int, f float8, x numeric, t text, PRIMARY KEY (k, n));
INSERT INTO ofree_o SELECT k, k % 3 FROM generate_series(60, 1, -1) k;
INSERT INTO ofree_l SELECT k, n, (ARRAY[1e16, 1, -1e16, 1])[n], (ARRAY[1.0, 1.00, 1, 1.000])[n], 'v' || (k * n) % 7
  FROM generate_series(60, 1, -1) k, generate_series(4, 1, -1) n;
ANALYZE ofree_o;
ANALYZE ofree_l;

-- Semi-join reduction (a decorrelated subquery's or a parameterized inner side's scans keep
-- only rows whose key an outer row has) and nested-loop join filters turned into join keys.
CREATE TABLE sjr_o (k int, k8 bigint, g int, t text, d date);
CREATE TABLE sjr_i (k int, k8 bigint, v numeric(10,2), f float8, t text, d date);
INSERT INTO sjr_o VALUES (1, 1, 0, 'a', '2020-01-01'), (2, 2, 5, 'b', '2020-01-02'), (2, 2, 50, 'b', NULL),
  (7, 7, 1, NULL, '2020-01-07'), (NULL, NULL, 3, 'z', '2020-01-01'), (999, 999, 0, 'none', '1999-01-01'),
  (40, 41, 10, 'c', '2020-02-09');
INSERT INTO sjr_i SELECT i % 50, i % 60, (i % 17) * 1.25, (ARRAY[1e16, 1, -1e16, 0.5])[i % 4 + 1],
  CASE WHEN i % 11 = 0 THEN NULL ELSE 't' || i % 5 END, DATE '2020-01-01' + i % 40
  FROM generate_series(1, 3000) i;
INSERT INTO sjr_i VALUES (NULL, NULL, 1.00, 1, 'null key', NULL), (7, 7, NULL, NULL, NULL, '2020-01-07');
CREATE INDEX sjr_i_k ON sjr_i (k);
ANALYZE sjr_o;
ANALYZE sjr_i;

-- query: scan_all_types
SELECT * FROM nums ORDER BY id;
-- query: filter_and_project
SELECT id, i4 * 2 + 1 AS x, n * 2 AS n2, f8 / 2 AS half FROM nums WHERE i4 > 15 AND b ORDER BY id;
-- query: null_arithmetic
SELECT id, i4 + i2, i8 - i4, f8 * f4, n + n4, -n, abs(n4) FROM nums ORDER BY id;
-- query: null_comparisons
SELECT id, i4 > 20, i4 = i2 * 10, n >= 10, d < '1996-01-01', t = 'alpha', t <> v FROM nums ORDER BY id;
-- query: three_valued_logic
SELECT id, b AND i4 > 20, b OR i4 > 20, NOT b, (i4 IS NULL) OR b FROM nums ORDER BY id;
-- query: where_null_is_false
SELECT id FROM nums WHERE NOT (i4 > 20) ORDER BY id;
-- query: case_coalesce_nullif
SELECT id, CASE WHEN i4 > 50 THEN 'big' WHEN i4 > 10 THEN 'mid' ELSE 'small' END,
       COALESCE(i2, -1), COALESCE(n, n4, 0), NULLIF(i4, 0), NULLIF(v, 'AIR') FROM nums ORDER BY id;
-- query: in_lists_and_between
SELECT id, i4 IN (10, 30, 50), i4 NOT IN (10, NULL), v IN ('AIR', 'MAIL'),
       d BETWEEN '1994-01-01' AND '1996-12-31', n NOT BETWEEN 0 AND 100 FROM nums ORDER BY id;
-- query: like_utf8
-- fallback: non-ASCII text where the program counts bytes (run time)
SELECT id, t LIKE 'a%', t LIKE '%e%', t NOT LIKE '_ber', t LIKE 'Ä%', t LIKE 'na_ve', v LIKE '%AIR' FROM nums ORDER BY id;
-- query: substring_utf8
-- fallback: non-ASCII text where the program counts bytes (run time)
SELECT id, substring(t FROM 1 FOR 2), substring(t FROM 2), substring(v FROM 2 FOR 3) FROM nums ORDER BY id;
-- query: extract_year_and_dates
SELECT id, extract(year FROM d), d + 30, d - 1, d - DATE '1992-01-01' FROM nums ORDER BY id;
-- query: date_interval_constant
SELECT id FROM nums WHERE d < DATE '1998-12-01' - INTERVAL '90 days' ORDER BY id;
-- query: casts
SELECT id, i4::bigint, i4::numeric(10,2), n::int, n::float8, f8::int, i2::float4, t::varchar(3), c::text || '|' FROM nums ORDER BY id;
-- query: numeric_scale
SELECT id, n * n4, n / 3, n4 / 7, n * 1.5, round(n, 1) FROM nums WHERE n IS NOT NULL AND n4 IS NOT NULL ORDER BY id;
-- query: aggregates_plain
SELECT count(*), count(i4), count(DISTINCT v), sum(i4), sum(i8), sum(n), avg(n), avg(i4), avg(f8),
       min(n4), max(d), min(t), max(v), sum(f4) FROM nums;
-- query: aggregates_grouped
SELECT v, count(*), sum(n), avg(n4), min(d), max(i8) FROM nums GROUP BY v ORDER BY v;
-- query: aggregates_group_null_keys
SELECT g, count(*), sum(x), avg(x), max(s) FROM big GROUP BY g ORDER BY g NULLS FIRST;
-- query: aggregates_having
SELECT g, sum(x) FROM big GROUP BY g HAVING sum(x) > 70000 ORDER BY 2 DESC;
-- query: aggregates_big
SELECT count(*), sum(k), sum(x), avg(x), avg(y), min(s), max(s), count(DISTINCT s) FROM big;
-- query: count_distinct_grouped
SELECT g, count(DISTINCT s), count(DISTINCT x) FROM big GROUP BY g ORDER BY g;
-- query: empty_table_aggregates
SELECT count(*), sum(x), avg(x), min(s), max(k) FROM empty;
-- query: empty_table_grouped
SELECT k, sum(x) FROM empty GROUP BY k ORDER BY k;
-- query: empty_filter_result
SELECT * FROM nums WHERE i4 > 1000 ORDER BY id;
-- query: order_by_nulls
SELECT id, i4 FROM nums ORDER BY i4 NULLS FIRST, id;
-- query: order_by_desc_multi
SELECT v, n, id FROM nums ORDER BY v DESC NULLS LAST, n ASC, id DESC;
-- query: order_by_text_c
SELECT t FROM nums ORDER BY t, id;
-- query: order_by_text_icu
SELECT t FROM nums ORDER BY t COLLATE "und-x-icu", id;
-- query: compare_text_icu
SELECT id FROM nums WHERE t COLLATE "und-x-icu" < 'b' ORDER BY id;
-- query: coll_order_default
SELECT s, id FROM coll ORDER BY s, id;
-- query: coll_order_default_desc_nulls_last
SELECT s, id FROM coll ORDER BY s DESC NULLS LAST, id;
-- query: coll_order_libc_clause
SELECT s, id FROM coll ORDER BY s COLLATE en_us_libc, id DESC;
-- query: coll_order_libc_column
SELECT e, v, id FROM coll ORDER BY e NULLS FIRST, v, id;
-- query: coll_order_icu_column
SELECT u, id FROM coll ORDER BY u DESC, id;
-- query: coll_order_icu_clause_over_c
SELECT s, id FROM coll ORDER BY s COLLATE en_us_icu, s COLLATE "C", id;
-- query: coll_order_c_override
SELECT e, id FROM coll ORDER BY e COLLATE "C", id;
-- query: coll_distinct_sorted
SELECT DISTINCT u FROM coll ORDER BY u;
-- query: coll_group_order
SELECT e, count(*) FROM coll GROUP BY e ORDER BY e;
-- query: coll_min_max
SELECT min(s), max(s), min(e), max(e), min(u), max(u), min(v), max(v), min(s COLLATE "C") FROM coll;
-- query: coll_min_max_grouped
SELECT id % 7, min(e), max(e), min(u), max(u), max(s), min(v) FROM coll GROUP BY id % 7 ORDER BY 1;
-- query: coll_min_max_empty_and_null_groups
SELECT id % 29, min(e), max(u) FROM coll WHERE id % 29 = 0 OR id < 3 GROUP BY id % 29 ORDER BY 1;
-- query: coll_min_max_no_rows
SELECT min(e), max(u) FROM coll WHERE id < 0;
-- query: coll_compare_constant
SELECT count(*) FROM coll WHERE e < 'b';
-- query: coll_compare_columns
SELECT id, e, v FROM coll WHERE e >= v COLLATE en_us_libc AND u > 'co op' ORDER BY id;
-- query: coll_compare_between_icu
SELECT id FROM coll WHERE u BETWEEN 'e' AND 'o' ORDER BY id;
-- query: coll_order_limit
SELECT u, e, id FROM coll ORDER BY u, e, id LIMIT 40;
-- query: limit_offset
SELECT k, x FROM big ORDER BY x DESC, k LIMIT 5 OFFSET 3;
-- query: distinct
SELECT DISTINCT v FROM nums ORDER BY v;
-- query: distinct_on
SELECT DISTINCT ON (v) v, id, n FROM nums ORDER BY v, id DESC;
-- query: join_inner
SELECT l.a, r.b FROM lhs l JOIN rhs r ON l.k = r.k ORDER BY 1, 2;
-- query: join_left
SELECT l.a, r.b FROM lhs l LEFT JOIN rhs r ON l.k = r.k ORDER BY 1, 2;
-- query: join_right
SELECT l.a, r.b FROM lhs l RIGHT JOIN rhs r ON l.k = r.k ORDER BY 1, 2;
-- query: join_full
SELECT l.a, r.b FROM lhs l FULL JOIN rhs r ON l.k = r.k ORDER BY 1 NULLS FIRST, 2 NULLS FIRST;
-- query: semi_exists
SELECT a FROM lhs l WHERE EXISTS (SELECT 1 FROM rhs r WHERE r.k = l.k) ORDER BY a;
-- query: anti_not_exists
SELECT a FROM lhs l WHERE NOT EXISTS (SELECT 1 FROM rhs r WHERE r.k = l.k) ORDER BY a;
-- query: in_subquery
SELECT a FROM lhs WHERE k IN (SELECT k FROM rhs) ORDER BY a;
-- query: not_in_subquery_with_null
SELECT a FROM lhs WHERE k NOT IN (SELECT k FROM rhs) ORDER BY a;
-- query: not_in_subquery_without_null
SELECT a FROM lhs WHERE k NOT IN (SELECT k FROM rhs WHERE k IS NOT NULL) ORDER BY a;
-- query: scalar_subquery
SELECT id, n, (SELECT max(n) FROM nums) - n AS gap FROM nums WHERE n > (SELECT avg(n) FROM nums) ORDER BY id;
-- query: correlated_scalar_subquery
SELECT a, (SELECT count(*) FROM rhs r WHERE r.k = l.k) FROM lhs l ORDER BY a;
-- query: scalar_subquery_too_many_rows
-- fallback: correlated subquery that is not a plain aggregate
SELECT a, (SELECT b FROM rhs r WHERE r.k >= l.k) FROM lhs l ORDER BY a;
-- query: cte
WITH s AS (SELECT g, sum(x) AS total FROM big GROUP BY g) SELECT g, total FROM s WHERE total > (SELECT avg(total) FROM s) ORDER BY g;
-- query: join_aggregate
SELECT l.k, count(*), string_agg(r.b, ',' ORDER BY r.b) FROM lhs l JOIN rhs r ON l.k = r.k GROUP BY l.k ORDER BY l.k;
-- query: division_by_zero_int
SELECT id, 100 / i4 FROM nums ORDER BY id;
-- query: division_by_zero_numeric
SELECT id, n / (i4 - i4) FROM nums WHERE i4 IS NOT NULL ORDER BY id;
-- query: division_by_zero_float
SELECT f8 / 0 FROM nums WHERE id = 1;
-- query: modulo_by_zero
SELECT i8 % (i4 - i4) FROM nums WHERE id = 1;
-- query: int4_overflow
SELECT a + b FROM overflow ORDER BY 1;
-- query: int8_overflow
SELECT c * 2 FROM overflow ORDER BY 1;
-- query: int2_overflow
SELECT s + s FROM overflow ORDER BY 1;
-- query: sum_int4_no_overflow
SELECT sum(a), sum(a::bigint * 4) FROM overflow;
-- query: int8_sum_overflow
SELECT sum(c) FROM overflow;
-- query: numeric_overflow_cast
SELECT n::numeric(5,2) FROM nums WHERE id = 6;
-- query: unordered_group_by
SELECT s, count(*) FROM big GROUP BY s;
-- query: prepared_statement
PREPARE q(int, numeric) AS SELECT id, n FROM nums WHERE i4 > $1 AND n < $2 ORDER BY id;
EXECUTE q(15, 100);
EXECUTE q(0, 50);
-- query: prepared_generic_plan
SET plan_cache_mode = force_generic_plan;
PREPARE g(int) AS SELECT g, count(*), sum(x) FROM big WHERE k > $1 GROUP BY g ORDER BY g;
EXECUTE g(50000);
EXECUTE g(99990);
-- query: tpch_q6_shape
SELECT sum(x * y) AS revenue FROM big WHERE x BETWEEN 0.05 AND 0.07 AND k < 24000;
-- query: tpch_q1_shape
SELECT g, sum(x) AS sum_qty, sum(x * (1 - y / 100000)) AS sum_disc, avg(x), avg(y), count(*)
  FROM big WHERE k <= 90000 GROUP BY g ORDER BY g;
-- query: union_all_ordered
SELECT k, a FROM lhs UNION ALL SELECT k, b FROM rhs ORDER BY 1, 2;
-- query: union_all_with_nulls_and_numeric
SELECT id, n FROM nums WHERE id < 4 UNION ALL SELECT id + 100, n FROM nums WHERE n IS NULL OR n > 50 ORDER BY id;
-- query: union_distinct
SELECT k FROM lhs UNION SELECT k FROM rhs ORDER BY 1;
-- query: union_distinct_text
SELECT a FROM lhs UNION SELECT b FROM rhs;
-- query: union_all_aggregate
SELECT s, count(*), sum(x) FROM (SELECT s, x FROM big WHERE k < 100 UNION ALL SELECT t, n FROM nums) u GROUP BY s ORDER BY s;
-- query: partitioned_scan
SELECT count(*), sum(x), min(k), max(k) FROM parted;
-- query: partitioned_pruned_group
SELECT s, count(*), sum(x) FROM parted WHERE d >= DATE '1994-03-01' AND d < DATE '1995-03-01' GROUP BY s ORDER BY s;
-- query: partitioned_ordered_limit
SELECT k, d, x FROM parted ORDER BY d, k LIMIT 20;
-- query: cte_materialized_twice
WITH c AS MATERIALIZED (SELECT g, sum(x) AS sx, count(*) AS n FROM big GROUP BY g)
SELECT a.g, a.sx, b.n FROM c a JOIN c b ON a.g = b.g ORDER BY a.g;
-- query: cte_referenced_twice
WITH c AS (SELECT k, a FROM lhs WHERE k IS NOT NULL)
SELECT x.k, x.a, y.a FROM c x JOIN c y ON x.k = y.k ORDER BY 1, 2, 3;
-- query: float_overflow_mul
SELECT id, f8 * 1e308 FROM nums WHERE f8 IS NOT NULL ORDER BY id;
-- query: float_underflow_mul
SELECT id, f8 * 1e-320 FROM nums WHERE f8 > 1 ORDER BY id;
-- query: float_overflow_plus_ok_and_mixed
SELECT id, f8 + 1e308, f4 * f8, f8 - f4, f4 + 1 FROM nums WHERE f8 IS NOT NULL AND f8 < 1e9 ORDER BY id;
-- query: float_div_constant
SELECT id, f8 / 3, f4 / 2 FROM nums ORDER BY id;
-- query: prepared_generic_plan_typed_params
SET plan_cache_mode = force_generic_plan;
PREPARE gp(date, text, int, float8) AS
  SELECT id, d, t, i4, f8 FROM nums WHERE d >= $1 AND (t <> $2 OR t IS NULL) AND coalesce(i4, 0) < $3 AND coalesce(f8, 0) < $4 ORDER BY id;
EXECUTE gp('1994-06-01', 'beta', 95, 100);
EXECUTE gp('1990-01-01', 'alpha', 1000, 1e20);
EXECUTE gp(NULL, 'x', 1, 1);
-- query: generic_params_types_and_nulls
SET plan_cache_mode = force_generic_plan;
PREPARE gt(smallint, bigint, real, boolean, varchar, date) AS
  SELECT id, i2, i8, f4, b, v, d FROM nums
  WHERE i2 >= $1 AND i8 <= $2 AND f4 < $3 AND b = $4 AND v <> $5 AND d > $6 ORDER BY id;
EXECUTE gt(1, 1000, 100, true, 'SHIP', '1990-01-01');
EXECUTE gt(2, 9000000000, 7.5, false, 'AIR', '1980-01-01');
EXECUTE gt(NULL, 1000, 100, true, 'SHIP', '1990-01-01');
EXECUTE gt(1, 1000, 100, NULL, NULL, NULL);
EXECUTE gt(1, 1000, 100, true, 'SHIP', '1990-01-01');
-- query: generic_params_in_projection
SET plan_cache_mode = force_generic_plan;
PREPARE gpj(int, float8, text, bigint) AS
  SELECT id, i4 + $1, f8 * $2, coalesce(t, $3), $3, i8 - $4, $4 FROM nums ORDER BY id;
EXECUTE gpj(5, 0.5, 'none', 7);
EXECUTE gpj(-7, 2, 'x', -9000000000);
EXECUTE gpj(NULL, NULL, NULL, NULL);
-- query: generic_params_overflow_error
SET plan_cache_mode = force_generic_plan;
PREPARE gov(int) AS SELECT id, i4 * $1 FROM nums WHERE i4 IS NOT NULL ORDER BY id;
EXECUTE gov(2);
EXECUTE gov(2147483647);
EXECUTE gov(3);
-- query: generic_params_aggregate_reexecuted
SET plan_cache_mode = force_generic_plan;
PREPARE ga(int, int, float8) AS
  SELECT g, count(*), sum(x), min(y) FROM big WHERE k BETWEEN $1 AND $2 AND y > $3 GROUP BY g ORDER BY g;
EXECUTE ga(1, 100, 0);
EXECUTE ga(500, 90000, 1000.5);
EXECUTE ga(10, 1, 0);
EXECUTE ga(NULL, 5, 0);
EXECUTE ga(1, 100, 0);
-- query: generic_params_join_and_in
SET plan_cache_mode = force_generic_plan;
PREPARE gj(int, text) AS
  SELECT l.k, l.a, r.b FROM lhs l JOIN rhs r ON l.k = r.k WHERE l.k >= $1 AND r.b <> $2 ORDER BY 1, 2, 3;
EXECUTE gj(2, 'r3');
EXECUTE gj(0, '');
EXECUTE gj(NULL, 'r2');
-- query: generic_params_numeric_compared
SET plan_cache_mode = force_generic_plan;
PREPARE gnc(numeric, numeric) AS
  SELECT count(*), sum(x * 2), min(k) FROM big WHERE x BETWEEN $1 - 0.01 AND $1 + 0.01 AND k < $2 AND k > -$1;
EXECUTE gnc(3, 50000);
EXECUTE gnc(0.06, 90000.00);
EXECUTE gnc(7.12345, 100);
EXECUTE gnc(2.50000000000000000000, 1e5);
EXECUTE gnc(NULL, 1000);
EXECUTE gnc(5, NULL);
EXECUTE gnc(123456789012345678901234, 1);
EXECUTE gnc(3, 50000);
-- query: generic_params_numeric_compared_no_exact_form
-- fallback: values without an exact dec128<12> form run PostgreSQL's plan at run time
SET plan_cache_mode = force_generic_plan;
PREPARE gnf(numeric, numeric) AS
  SELECT count(*), sum(x * 2), min(k) FROM big WHERE x BETWEEN $1 - 0.01 AND $1 + 0.01 AND k < $2 AND k > -$1;
EXECUTE gnf(0.06000000000000000001, 90000);
EXECUTE gnf(1e30, 90000);
EXECUTE gnf('NaN', 90000);
EXECUTE gnf('Infinity', 90000);
EXECUTE gnf(5, '-Infinity');
EXECUTE gnf(5, 9e40);
-- query: generic_params_numeric_shown
SET plan_cache_mode = force_generic_plan;
PREPARE gns(numeric) AS SELECT id, n * $1, n4 + $1, $1, n < $1 FROM nums ORDER BY id;
EXECUTE gns(0.5000);
EXECUTE gns(-12.2500);
EXECUTE gns(NULL);
EXECUTE gns(99999999.9999);
-- query: generic_params_numeric_shown_other_scales
-- fallback: a value of another display scale than the program's runs PostgreSQL's plan at run time
SET plan_cache_mode = force_generic_plan;
PREPARE gno(numeric) AS SELECT id, n * $1, n4 + $1, $1, n < $1 FROM nums ORDER BY id;
EXECUTE gno(2);
EXECUTE gno(0.5);
EXECUTE gno(0.12345);
EXECUTE gno(1.50000000000000000000);
EXECUTE gno('NaN');
EXECUTE gno(0.50);
EXECUTE gno(0.50000);
-- query: generic_params_numeric_aggregate
SET plan_cache_mode = force_generic_plan;
PREPARE gna(numeric) AS SELECT g, sum(x * $1), avg(x + $1), max($1 - x) FROM big WHERE x > $1 GROUP BY g ORDER BY g;
EXECUTE gna(2.50);
EXECUTE gna(9.99);
EXECUTE gna(NULL);
-- query: prepared_generic_plan_grouped
SET plan_cache_mode = force_generic_plan;
PREPARE gg(int, text) AS SELECT s, count(*), sum(x) FROM big WHERE k < $1 AND s <> $2 GROUP BY s ORDER BY s;
EXECUTE gg(50000, 'row3');
EXECUTE gg(10, 'row"$P1:i32$');
-- query: date_vs_timestamp_constants
SELECT id, d < TIMESTAMP '1995-06-15 12:00', d <= TIMESTAMP '1995-06-15 12:00', d > TIMESTAMP '1995-06-15 12:00',
       d >= TIMESTAMP '1995-06-15 12:00', d = TIMESTAMP '1995-06-15 12:00', d <> TIMESTAMP '1995-06-15 12:00',
       d = TIMESTAMP '1995-06-15', TIMESTAMP '1995-06-15' <= d, TIMESTAMP '1996-02-29 00:00:01' > d
  FROM nums ORDER BY id;
-- query: tpch_q1_qgen_interval
SELECT count(*), min(d), max(d) FROM nums WHERE d <= DATE '1998-12-01' - INTERVAL '90' DAY;
-- query: tpch_q6_qgen_interval_year
SELECT id, d FROM nums WHERE d >= DATE '1994-01-01' AND d < DATE '1994-01-01' + INTERVAL '1' YEAR ORDER BY id;
-- query: substring_to_end
-- fallback: non-ASCII text where the program counts bytes (run time)
SELECT id, substring(t FROM 3), substring(v FROM 1) FROM nums WHERE t IS NULL OR t < 'b' ORDER BY id;
-- query: float_division_by_column
SELECT id, f8 / f4 FROM nums WHERE f4 <> 0 ORDER BY id;
-- query: float_division_by_zero_column
SELECT id, f8 / f4 FROM nums ORDER BY id;
-- query: float_division_zero_in_null_row
SELECT id, f8 / (f4 - f4) FROM nums WHERE f4 IS NULL;
-- query: division_guarded_by_earlier_qual
-- fallback: a division in a qual after the first (PostgreSQL may skip it)
SELECT id FROM nums WHERE i4 <> 0 AND 100 / i4 > 1 ORDER BY id;
-- query: float_division_guarded_by_earlier_qual
-- fallback: a division in a qual after the first (PostgreSQL may skip it)
SELECT id FROM nums WHERE f4 <> 0 AND f8 / f4 > 1 ORDER BY id;
-- query: division_guarded_in_or
-- fallback: a division after the first argument of AND/OR (PostgreSQL may skip it)
SELECT id FROM nums WHERE i4 = 0 OR 100 / i4 > 1 ORDER BY id;
-- query: case_division_by_constant
SELECT id, CASE WHEN i4 > 20 THEN i4 / 2 ELSE i4 / 3 END, CASE WHEN f8 > 1 THEN f8 / 2 END FROM nums ORDER BY id;
-- query: narrowing_casts
SELECT id, n::int, n::bigint, n::smallint, f8::int, f8::bigint, f4::int, i8::int, i4::smallint, f8::real, i4::real, n::real
  FROM nums WHERE id <> 9 ORDER BY id;
-- query: cast_rounding_half_even_and_away
SELECT id, (id - 0.5)::float8::int, (id - 0.5)::int, (0.5 - id)::float8::bigint, (0.5 - id)::smallint FROM nums ORDER BY id;
-- query: cast_out_of_range_int
SELECT i8::int FROM nums ORDER BY id;
-- query: cast_out_of_range_smallint
SELECT i4::smallint * 0 FROM nums WHERE i4 > 50 ORDER BY id;
-- query: cast_float_overflow_real
SELECT (f8 * 1e300)::real FROM nums WHERE f8 > 1 ORDER BY id;
-- query: coalesce_numeric_mixed_scales
SELECT id, COALESCE(n, n4, 0), COALESCE(n, 0.00) FROM nums ORDER BY id;
-- query: case_numeric_mixed_scales
SELECT id, CASE WHEN n > 1 THEN n WHEN n < 0 THEN -n ELSE 0 END, CASE WHEN n > 1 THEN n ELSE 0.00 END FROM nums ORDER BY id;
-- query: in_list_with_null
SELECT id, i4 IN (10, NULL), i4 NOT IN (10, NULL), v IN ('AIR', NULL), i4 IN (NULL::int), i4 NOT IN (NULL::int) FROM nums ORDER BY id;
-- query: in_list_with_null_filter
SELECT id FROM nums WHERE i4 NOT IN (20, NULL) OR id > 8 ORDER BY id;
-- query: round_numeric
SELECT id, round(n, 1), round(n, 0), round(n4, 2), round(n, 4), round(-n, 1) FROM nums ORDER BY id;
-- query: values_join
SELECT n.id, v.label, v.w FROM nums n JOIN (VALUES (1, 'one', 1.5), (4, 'four', 2.0), (7, NULL, NULL)) v(k, label, w) ON n.id = v.k ORDER BY n.id;
-- query: values_filtered
SELECT x, y FROM (VALUES (3, DATE '1995-01-01'), (1, NULL), (2, DATE '1994-06-30')) v(x, y) WHERE y IS NOT NULL OR x = 1 ORDER BY x;
-- query: correlated_count_zero_for_no_rows
SELECT l.k, l.a, (SELECT count(*) FROM rhs r WHERE r.k = l.k), (SELECT count(r.b) FROM rhs r WHERE r.k = l.k AND r.b <> 'r3') FROM lhs l ORDER BY 1, 2;
-- query: correlated_theta_where
SELECT id, f FROM an t1 WHERE t1.f > (SELECT avg(f) FROM an t2 WHERE t2.id < t1.id) ORDER BY id;
-- query: correlated_theta_select_list
SELECT id, (SELECT count(*) FROM an t2 WHERE t2.i8 < t1.i8), (SELECT sum(n) FROM an t2 WHERE t2.g <> t1.g),
       (SELECT max(t) FROM an t2 WHERE t2.d > t1.d) FROM an t1 ORDER BY id;
-- query: correlated_theta_equality_and_inequality
SELECT id, (SELECT min(t2.n) FROM an t2 WHERE t2.g = t1.g AND t2.id > t1.id),
       (SELECT count(t2.i2) FROM an t2 WHERE t2.i8 = t1.i8 AND t2.id <> t1.id) FROM an t1 ORDER BY id;
-- query: correlated_theta_several_params
SELECT id, (SELECT count(*) FROM nums t2 WHERE t2.i4 > t1.i4 AND t2.d < t1.d),
       (SELECT sum(t2.i8) FROM nums t2 WHERE t2.n BETWEEN t1.n - 20 AND t1.n + 20) FROM nums t1 ORDER BY id;
-- query: correlated_theta_or_case_nulls
SELECT id, (SELECT count(*) FROM an t2 WHERE t2.i2 < t1.i2 OR t1.i2 IS NULL),
       (SELECT sum(i8) FROM an t2 WHERE CASE WHEN t1.g = 1 THEN t2.id < t1.id ELSE t2.id > t1.id END) FROM an t1 ORDER BY id;
-- query: correlated_theta_empty_inner
SELECT id, (SELECT count(*) FROM empty e WHERE e.k < t1.id), (SELECT max(x) FROM empty e WHERE e.k <> t1.id) FROM an t1 ORDER BY id;
-- query: correlated_theta_empty_outer
SELECT k, (SELECT count(*) FROM an t2 WHERE t2.id < e.k) FROM empty e;
-- query: correlated_theta_having
SELECT g, sum(i8) FROM an t1 GROUP BY g HAVING count(*) > (SELECT count(*) FROM an t2 WHERE t2.g > t1.g) ORDER BY g;
-- query: correlated_theta_duplicate_keys_big_inner
SELECT g, (SELECT count(*) FROM big b WHERE b.g < a.g), (SELECT max(x) FROM big b WHERE b.k > a.id * 9990) FROM an a ORDER BY id;
-- query: correlated_theta_refused_over_memory_limit
-- fallback: non-equality correlation: about 10 x 100002 row pairs, over rndn.memory_limit
SET rndn.memory_limit = '1MB';
SELECT id, (SELECT count(*) FROM big b WHERE b.k < n.i4) FROM nums n ORDER BY id;
-- query: correlated_exists_theta
SELECT id, EXISTS (SELECT 1 FROM an t2 WHERE t2.i8 > t1.i8), NOT EXISTS (SELECT 1 FROM an2 t2 WHERE t2.g = t1.g AND t2.id > t1.id) FROM an t1 ORDER BY id;
-- query: correlated_exists_under_or
SELECT id FROM nums t1 WHERE EXISTS (SELECT 1 FROM nums t2 WHERE t2.f8 > t1.f8 * 2) OR id = 3 ORDER BY id;
-- query: correlated_exists_empty_inner_null_keys
SELECT id, EXISTS (SELECT 1 FROM empty e WHERE e.k < t1.i2), EXISTS (SELECT 1 FROM an2 t2 WHERE t2.i2 >= t1.i2 OR t1.i2 IS NULL) FROM an t1 ORDER BY id;
-- query: correlated_theta_few_distinct_keys_by_statistics
SET rndn.memory_limit = '16MB';
SELECT count(*) FROM big b WHERE (SELECT count(*) FROM nums WHERE nums.i4 < b.g) = 2;
-- query: correlated_theta_many_distinct_keys_refused
-- fallback: non-equality correlation: about 100002 x 10 row pairs, over rndn.memory_limit
SET rndn.memory_limit = '16MB';
SELECT count(*) FROM big b WHERE (SELECT count(*) FROM nums WHERE nums.i4 < b.k) = 2;
-- query: correlated_in_theta
SELECT id, g IN (SELECT t2.g FROM an2 t2 WHERE t2.id < t1.id), i8 NOT IN (SELECT t2.i8 FROM an2 t2 WHERE t2.i2 <= t1.i2 OR t1.i2 IS NULL) FROM an t1 ORDER BY id;
-- query: correlated_in_theta_where
SELECT id FROM an t1 WHERE g IN (SELECT t2.g FROM an2 t2 WHERE t2.n > t1.n) ORDER BY id;
SELECT id FROM an t1 WHERE g NOT IN (SELECT t2.g FROM an2 t2 WHERE t2.n > t1.n) ORDER BY id;
-- query: correlated_in_equality_and_inequality_empty
SELECT id, i2 IN (SELECT t2.i2 FROM an2 t2 WHERE t2.g = t1.g AND t2.id <> t1.id), id IN (SELECT k FROM empty e WHERE e.k > t1.id) FROM an t1 ORDER BY id;
-- query: correlated_in_text
SELECT id, t IN (SELECT t2.t FROM an2 t2 WHERE t2.id < t1.id) FROM an t1 ORDER BY id;
-- query: correlated_in_text_not_in
SELECT id, t NOT IN (SELECT t2.t || '' FROM an2 t2 WHERE t2.id > t1.id AND t2.g <> t1.g) FROM an t1 ORDER BY id;
-- query: correlated_theta_division
-- fallback: a division in a non-equality correlation
SELECT id, (SELECT count(*) FROM nums t2 WHERE t2.i4 / t1.id > 3) FROM nums t1 ORDER BY id;
-- query: issue19_text_max_per_group_with_nulls
SELECT g, max(t), min(t) FROM kr GROUP BY g;
-- query: issue19_text_max_per_group_collate_c
SELECT g % 100, max(t COLLATE "C"), count(t) FROM kr GROUP BY g % 100;
-- query: issue19_distinct_key_fixed_by_equality
SELECT DISTINCT x FROM u WHERE x = 5;
-- query: issue19_distinct_on_key_fixed_by_equality
SELECT DISTINCT ON (x) x, s FROM u WHERE x = 5 ORDER BY x, s;
-- query: issue19_distinct_key_fixed_by_in_list
SELECT DISTINCT x FROM u WHERE x IN (5);
-- query: issue19_distinct_text_key_fixed
SELECT DISTINCT s FROM u WHERE s = 'a';
-- query: issue19_distinct_date_key_fixed
SELECT DISTINCT d FROM u WHERE d = DATE '1995-01-01';
-- query: issue19_distinct_keys_fixed_no_rows
SELECT DISTINCT x, s FROM u WHERE x = 7 AND s = 'a';
-- query: issue19_float_nan_compare
SELECT sum(CASE WHEN x > 1 THEN 1 ELSE 0 END), sum(CASE WHEN x <> x THEN 1 ELSE 0 END),
       sum(CASE WHEN x = x THEN 1 ELSE 0 END), sum(CASE WHEN x >= r THEN 1 ELSE 0 END),
       sum(CASE WHEN r < 3 THEN 1 ELSE 0 END), sum(CASE WHEN x <= r THEN 1 ELSE 0 END) FROM fe;
-- query: issue19_float_nan_where
SELECT id FROM fe WHERE x > 1 ORDER BY id;
-- query: issue19_float_nan_minmax
SELECT max(x), min(x), max(r), min(r) FROM fe;
-- query: issue19_float_nan_minmax_grouped
SELECT id % 2, max(x), min(x), max(r) FROM fe GROUP BY id % 2;
-- query: issue19_float_nan_sort
SELECT id, x FROM fe ORDER BY x, id;
-- query: issue19_float_nan_sort_desc
SELECT id, r FROM fe ORDER BY r DESC, id;
-- query: issue19_float_nan_group
SELECT x, count(*) FROM fe GROUP BY x;
-- query: issue19_float_nan_join
SELECT a.id, b.id FROM fe a JOIN fe b ON a.x = b.x ORDER BY 1, 2;
-- query: issue19_float_nan_case
SELECT id, CASE WHEN x > 100 THEN 'big' ELSE 'small' END, x = r, x < 1e308, r > x FROM fe ORDER BY id;
-- query: issue19_float_nan_constant
SELECT id FROM fe WHERE x = 'NaN' OR x < '-Infinity' ORDER BY id;
-- query: float_nonfinite_constants_compare
SELECT id, x = 'NaN'::float8, x < 'Infinity', x > '-Infinity'::float8, r <> 'NaN'::real, r >= '-Infinity'::float4,
       x <= 'NaN', 'NaN'::float8 = 'NaN'::float8 FROM fe ORDER BY id;
-- query: float_nonfinite_constants_arith
SELECT id, x + 'Infinity'::float8, x - '-Infinity'::float8, x * 'NaN'::float8, r + 'Infinity'::real,
       'Infinity'::float8 - 'Infinity'::float8, -('-Infinity'::float8), abs('-Infinity'::float8) FROM fe ORDER BY id;
-- query: float_nonfinite_constants_select_group
SELECT coalesce(x, 'NaN'), count(*), max(coalesce(r, '-Infinity')), min(CASE WHEN id > 4 THEN 'Infinity'::float8 ELSE x END)
  FROM fe GROUP BY 1 ORDER BY 1;
-- query: float_nonfinite_constants_in_list
SELECT id FROM fe WHERE x IN ('NaN', 'Infinity', 2) ORDER BY id;
-- query: float_nonfinite_constants_empty
SELECT max(x), 'NaN'::float8, count(*) FROM fe_one WHERE x < 'Infinity';
-- query: float_nonfinite_params
SET plan_cache_mode = force_generic_plan;
PREPARE fnp(float8) AS SELECT id, x < $1, x = $1 FROM fe ORDER BY id;
EXECUTE fnp('NaN');
EXECUTE fnp('-Infinity');
EXECUTE fnp('Infinity');
EXECUTE fnp(2);
-- query: issue19_numeric_nan_falls_back
-- fallback: numeric NaN cannot be loaded (run time)
SELECT sum(n), max(n), min(n) FROM fe;
-- query: issue19_int_min_div_minus_one_with_null
SELECT i / -1 FROM fe;
-- query: issue19_smallint_min_div_minus_one_with_null
SELECT s / (-1)::smallint FROM fe;
-- query: issue19_int_min_mod_minus_one_with_null
SELECT id, i % -1 FROM fe ORDER BY id;
-- query: issue19_float_sum_lone_negative_zero
SELECT sum(x), sum(r), avg(x) FROM fe_one;
-- query: issue19_float_sum_negative_zero_grouped
SELECT id, sum(x), sum(r) FROM fe WHERE id = 4 GROUP BY id;
-- query: issue19_date_infinity_plus_days
SELECT id, d + 1, d - 7 FROM dd WHERE id IN (2, 3, 6, 7) ORDER BY id;
-- query: issue19_date_plus_out_of_range
SELECT id, d + 1 FROM dd WHERE id = 4;
-- query: issue19_date_minus_out_of_range
SELECT id, d - 1 FROM dd WHERE id = 5;
-- query: issue19_int_plus_date_out_of_range
SELECT id, 1 + d FROM dd WHERE id >= 4 ORDER BY id;
-- query: issue19_date_subtract_infinite
SELECT d - DATE '2000-01-01' FROM dd WHERE id = 2;
-- query: issue19_date_subtract_finite
SELECT id, d - DATE '2000-01-01', DATE '2000-01-01' - d FROM dd WHERE id NOT IN (2, 3) ORDER BY id;
-- query: issue19_date_extract_bc
SELECT id, extract(year FROM d), extract(month FROM d), extract(day FROM d) FROM dd WHERE id NOT IN (2, 3, 4) ORDER BY id;
-- query: issue19_date_extract_infinity
-- fallback: extract(year) of an infinite date or beyond year 32767 (run time)
SELECT id, extract(year FROM d), extract(month FROM d) FROM dd ORDER BY id;
-- query: issue19_date_extract_month_infinity
SELECT id, extract(month FROM d), extract(day FROM d) FROM dd ORDER BY id;
-- query: issue19_date_order_with_infinity
SELECT id, d FROM dd ORDER BY d, id;
-- query: issue19_numeric_scale_plus_division
SELECT id, x + x::numeric / 3 FROM nq ORDER BY id;
-- query: issue19_numeric_scale_division_of_division
SELECT id, (x::numeric / 0.001) / 7.0 FROM nq ORDER BY id;
-- query: issue19_numeric_scale_mixed_around_division
SELECT id, x::numeric / 3 * 2, x::numeric / 3 - m, m / 3 * m, (m / 7) % 1, -(m / 3) FROM nq ORDER BY id;
-- query: issue19_numeric_scale_division_filter
SELECT id, m / 3 + 1 FROM nq WHERE x::numeric / 7 > 1 ORDER BY id;
-- query: issue19_char_max_keeps_padding
-- fallback: char(n) output without a declared length (blank padding)
SELECT max(c), min(d), max(e) FROM cq;
-- query: issue19_char_coalesce_keeps_padding
-- fallback: char(n) output without a declared length (blank padding)
SELECT id, coalesce(c, 'q'), coalesce(d, c) FROM cq ORDER BY id;
-- query: issue19_char_case_keeps_padding
-- fallback: char(n) output without a declared length (blank padding)
SELECT id, CASE WHEN id = 1 THEN c ELSE d END FROM cq ORDER BY id;
-- query: issue19_char_union_keeps_padding
-- fallback: char(n) output without a declared length (blank padding)
SELECT c FROM cq UNION SELECT d FROM cq ORDER BY 1;
-- query: issue19_char_same_length_case_and_union_all
SELECT id, CASE WHEN id > 1 THEN c ELSE c END FROM cq UNION ALL SELECT id, c FROM cq ORDER BY 1, 2;
-- query: issue19_char_columns_padded
SELECT id, c, d, e FROM cq ORDER BY id;
-- query: issue19_limit_over_cross_join
-- fallback: LIMIT over a join of about 10^10 rows (PostgreSQL stops early)
SELECT count(*) FROM (SELECT b1.k FROM big b1 LEFT JOIN big b2 ON true LIMIT 5) s;
-- query: issue19_limit_over_huge_equi_join
-- fallback: LIMIT over a join of about 1.4 * 10^9 rows (PostgreSQL stops early)
SELECT count(*) FROM (SELECT b1.k, b2.s FROM big b1 JOIN big b2 ON b1.g = b2.g LIMIT 123) s;
-- query: issue19_limit_over_small_join_runs_through_rndn
SELECT l.k, r.b FROM lhs l JOIN rhs r ON l.k = r.k ORDER BY 1, 2 LIMIT 2;
-- query: issue19_over_memory_limit_falls_back
-- fallback: over rndn.memory_limit (run time): PostgreSQL's plan answers
SET rndn.memory_limit = '1MB';
SELECT count(*), max(s) FROM big WHERE s LIKE '%9%';
-- query: issue19_nondeterministic_group_by
-- fallback: text under a nondeterministic collation
SELECT s, count(*) FROM nd GROUP BY s;
-- query: issue19_nondeterministic_equality
-- fallback: text under a nondeterministic collation
SELECT id FROM nd WHERE s = 'abc' ORDER BY id;
-- query: issue19_nondeterministic_distinct
-- fallback: text under a nondeterministic collation
SELECT count(DISTINCT s), count(*) FROM (SELECT DISTINCT s FROM nd) d;
-- query: issue19_nondeterministic_join
-- fallback: text under a nondeterministic collation
SELECT a.id, b.id FROM nd a JOIN nd b ON a.s = b.s ORDER BY 1, 2;
-- query: issue19_nondeterministic_like_error
-- fallback: text under a nondeterministic collation
SELECT id FROM nd WHERE s LIKE 'a%';
-- query: issue19_nondeterministic_collate_clause
-- fallback: text under a nondeterministic collation
SELECT id FROM nums WHERE t COLLATE ci_nd = 'ALPHA' ORDER BY id;
-- query: issue19_nondeterministic_column_not_compared
SELECT id FROM nd ORDER BY id;
-- query: issue19_case_mixed_scales_sum_grouped
SELECT g, sum(CASE WHEN k % 3 = 0 THEN x * 2 ELSE 0 END), sum(CASE WHEN k % 5 = 0 THEN x END),
       max(CASE WHEN k % 2 = 0 THEN x * x ELSE 1 END) FROM big GROUP BY g ORDER BY g;
-- query: issue19_case_mixed_scales_sum_by_group_scale
SELECT id % 3, sum(CASE WHEN id > 5 THEN n ELSE 7 END), avg(CASE WHEN id > 5 THEN n4 ELSE 1 END) FROM nums GROUP BY id % 3 ORDER BY 1;
-- query: issue19_case_mixed_scales_no_else_and_empty
SELECT sum(CASE WHEN k < 0 THEN x * 1.5 END), sum(CASE WHEN k > 10 THEN 1 ELSE x END) FROM big WHERE k < 100;
-- query: issue19_case_mixed_scales_arithmetic
SELECT id, 100.00 * CASE WHEN b THEN n ELSE 0 END / 7, CASE WHEN b THEN n4 ELSE 2 END + 1 FROM nums ORDER BY id;
-- query: issue19_sum_of_division
SELECT g, sum(x / 3), avg(x / 7) FROM big WHERE k < 1000 GROUP BY g ORDER BY g;
-- query: issue19_minmax_ties_keep_the_later_value
SELECT min(f), max(f), min(r), max(r), max(CASE WHEN id = 1 THEN n ELSE 0 END), min(CASE WHEN id = 2 THEN 0 ELSE n END) FROM zt;
-- query: issue19_unpopulated_matview_error
-- fallback: a materialized view that has not been populated (PostgreSQL raises its error)
SELECT count(*) FROM mv_unpopulated;
-- query: issue19_populated_matview
SELECT g, count(*), max(s) FROM mv_populated GROUP BY g;
-- query: issue19_or_not_exists_null_keys
SELECT count(*) FROM sq1 x WHERE x.k = 10 OR NOT EXISTS (SELECT 1 FROM sq2 z WHERE z.k = x.k);
-- query: issue19_or_not_exists_rows
SELECT x.k FROM sq1 x WHERE x.k = 10 OR NOT EXISTS (SELECT 1 FROM sq2 z WHERE x.k = z.k);
-- query: issue19_or_exists
SELECT x.k FROM sq1 x WHERE x.k = 2 OR EXISTS (SELECT 1 FROM sq2 z WHERE z.k = x.k);
-- query: issue19_and_not_exists_in_or
SELECT x.k FROM sq1 x WHERE x.k IS NOT NULL AND (x.k > 2 OR NOT EXISTS (SELECT 1 FROM sq3 z WHERE z.k = x.k));
-- query: issue19_or_in_with_null
SELECT x.k FROM sq1 x WHERE x.k = 10 OR x.k IN (SELECT k FROM sq2);
-- query: issue19_or_not_in_with_null
SELECT x.k FROM sq1 x WHERE x.k = 10 OR x.k NOT IN (SELECT k FROM sq2);
-- query: issue19_or_not_in_without_null
SELECT x.k FROM sq1 x WHERE x.k = 10 OR x.k NOT IN (SELECT k FROM sq3);
-- query: issue19_in_subplan_as_value
SELECT x.k, x.k IN (SELECT k FROM sq2), x.k NOT IN (SELECT k FROM sq3) FROM sq1 x;
-- query: issue19_char_varchar_join
-- fallback: text or varchar compared as char(n) (trailing blanks ignored)
SELECT count(*) FROM chc JOIN chv ON chc.ch = chv.vc;
-- query: issue19_char_varchar_where
-- fallback: text or varchar compared as char(n) (trailing blanks ignored)
SELECT ch, vc FROM chc, chv WHERE ch = vc;
-- query: issue19_char_varchar_nullif
-- fallback: text or varchar compared as char(n) (trailing blanks ignored)
SELECT count(*), count(NULLIF(vc, 'x')), count(NULLIF(vc, ch)) FROM chc, chv;
-- query: issue19_char_in_varchar_subquery
-- fallback: text or varchar compared as char(n) (trailing blanks ignored)
SELECT ch FROM chc WHERE ch IN (SELECT vc FROM chv);
-- query: issue19_char_varchar_case
-- fallback: text or varchar compared as char(n) (trailing blanks ignored)
SELECT CASE WHEN ch = vc THEN 1 ELSE 0 END, count(*) FROM chc, chv GROUP BY 1;
-- query: issue19_char_group_distinct
SELECT ch, count(*) FROM chc GROUP BY ch;
-- query: issue19_char_distinct_count
SELECT count(DISTINCT ch), count(DISTINCT vc) FROM chc, chv;
-- query: issue19_char_const_compare
SELECT count(*) FROM chc WHERE ch = 'ab  ';
-- query: ts_load_and_output
SELECT id, t FROM ts ORDER BY id;
-- query: ts_order_group_infinities
SELECT t, count(*) FROM ts GROUP BY t ORDER BY t;
-- query: ts_order_desc_limit
SELECT id, t FROM ts ORDER BY t DESC NULLS LAST, id LIMIT 5;
-- query: ts_min_max_distinct
SELECT min(t), max(t), count(t), count(DISTINCT t) FROM ts;
-- query: ts_min_max_empty
SELECT min(t), max(t), count(DISTINCT t) FROM ts_empty;
-- query: ts_compare_constants
SELECT id FROM ts WHERE t >= '2013-07-14 00:00:00' AND t < TIMESTAMP '2013-07-15' ORDER BY id;
-- query: ts_compare_constant_ms
SELECT id, t = '2013-07-14 10:15:30.25', t <> '1999-12-31', t <= '0001-01-01' FROM ts ORDER BY id;
-- query: ts_compare_constant_micro
SELECT id FROM ts WHERE t > '2013-07-14 23:59:59.999998' ORDER BY id;
-- query: ts_compare_infinity_constant
SELECT id FROM ts WHERE t < 'infinity' ORDER BY id;
-- query: ts_compare_columns
SELECT a.id, b.id FROM ts a JOIN ts b ON a.t = b.t WHERE a.id < b.id ORDER BY 1, 2;
-- query: ts_extract_fields
SELECT id, extract(hour FROM t), extract(minute FROM t), extract(day FROM t), extract(month FROM t) FROM ts ORDER BY id;
-- query: ts_extract_year
SELECT id, extract(year FROM t) FROM ts WHERE id NOT IN (6, 7, 13) ORDER BY id;
-- query: ts_extract_year_infinity
-- fallback: extract(year) of an infinite timestamp is +-Infinity (run time)
SELECT id, extract(year FROM t) FROM ts ORDER BY id;
-- query: ts_extract_second
SELECT id, extract(second FROM t) FROM ts ORDER BY id;
-- query: dfx_extract_date_fields
SELECT id, extract(century FROM d), extract(decade FROM d), extract(millennium FROM d),
       extract(isoyear FROM d), extract(quarter FROM d), extract(month FROM d), extract(week FROM d), extract(day FROM d),
       extract(dow FROM d), extract(isodow FROM d), extract(doy FROM d), extract(epoch FROM d), extract(julian FROM d)
  FROM dfx WHERE id <> 30001 ORDER BY id;
-- query: dfx_extract_date_fields_last_date
SELECT id, extract(century FROM d), extract(decade FROM d), extract(millennium FROM d), extract(isoyear FROM d),
       extract(week FROM d), extract(dow FROM d), extract(doy FROM d), extract(epoch FROM d), extract(julian FROM d)
  FROM dfx WHERE id >= 30000 ORDER BY id;
-- query: dfx_extract_year_past_32767
-- fallback: extract(year) beyond year 32767 (run time)
SELECT id, extract(year FROM d) FROM dfx WHERE id >= 30000 ORDER BY id;
-- query: dfx_extract_timestamp_fields
SELECT id, extract(century FROM t), extract(decade FROM t), extract(millennium FROM t), extract(isoyear FROM t),
       extract(quarter FROM t), extract(week FROM t), extract(dow FROM t), extract(isodow FROM t), extract(doy FROM t),
       extract(hour FROM t), extract(minute FROM t), extract(second FROM t), extract(milliseconds FROM t),
       extract(microseconds FROM t), extract(epoch FROM t)
  FROM dfx WHERE id <> 30001 ORDER BY id;
-- query: dfx_extract_epoch_last_timestamp
-- fallback: extract(epoch) after 294247 AD divides numerics in PostgreSQL (run time)
SELECT id, extract(epoch FROM t) FROM dfx WHERE id >= 30000 ORDER BY id;
-- query: dfx_extract_last_timestamp
SELECT id, extract(second FROM t), extract(week FROM t), extract(isoyear FROM t), extract(microseconds FROM t)
  FROM dfx WHERE id >= 30000 ORDER BY id;
-- query: dfx_date_part_timestamp
SELECT id, date_part('century', t), date_part('decade', t), date_part('millennium', t), date_part('isoyear', t),
       date_part('quarter', t), date_part('week', t), date_part('dow', t), date_part('isodow', t), date_part('doy', t),
       date_part('second', t), date_part('milliseconds', t), date_part('microseconds', t), date_part('epoch', t),
       date_part('julian', t), date_part('year', t)
  FROM dfx ORDER BY id;
-- query: dfx_date_part_date
SELECT id, date_part('century', d), date_part('isoyear', d), date_part('week', d), date_part('dow', d), date_part('doy', d),
       date_part('epoch', d), date_part('julian', d), date_part('hour', d), date_part('second', d), date_part('year', d),
       date_part('day', d)
  FROM dfx WHERE id <> 30001 ORDER BY id;
-- query: dfx_date_part_date_beyond_timestamps
SELECT id, date_part('dow', d) FROM dfx ORDER BY id;
-- query: dfx_extract_group_and_filter
SELECT extract(isodow FROM t) AS w, extract(quarter FROM d) AS q, count(*), min(extract(epoch FROM t)), max(date_part('julian', d))
  FROM dfx WHERE extract(week FROM d) IN (1, 52, 53) AND id < 20000 GROUP BY 1, 2 ORDER BY 1, 2;
-- query: dfx_date_part_aliases
SELECT id, date_part('msecs', t), date_part('us', t), date_part('secs', t), date_part('mins', t), date_part('hrs', t),
       date_part('days', t), date_part('w', t), date_part('mons', t), date_part('qtr', t), date_part('yrs', t),
       date_part('decs', t), date_part('cent', t), date_part('millennia', t), date_part('J', t), date_part('ISODOW', t)
  FROM dfx WHERE id >= 30000 ORDER BY id;
-- query: ts_extract_fields_infinity
SELECT id, extract(dow FROM t), extract(week FROM t), extract(second FROM t), extract(milliseconds FROM t),
       extract(microseconds FROM t), date_part('epoch', t), date_part('julian', t), date_part('isoyear', t),
       date_part('century', t), date_part('doy', t)
  FROM ts ORDER BY id;
-- query: ts_extract_epoch_infinity
-- fallback: extract(epoch) of an infinite timestamp is numeric ±Infinity (run time)
SELECT id, extract(epoch FROM t) FROM ts ORDER BY id;
-- query: date_extract_fields_infinity
SELECT id, extract(dow FROM d), extract(week FROM d), extract(quarter FROM d), extract(doy FROM d), extract(isodow FROM d)
  FROM dd ORDER BY id;
-- query: date_extract_century_infinity
-- fallback: extract(century) of an infinite date is numeric ±Infinity (run time)
SELECT id, extract(century FROM d) FROM dd ORDER BY id;
-- query: date_extract_century_finite
SELECT id, extract(century FROM d), extract(millennium FROM d), extract(isoyear FROM d), extract(julian FROM d),
       extract(epoch FROM d) FROM dd WHERE id NOT IN (2, 3) ORDER BY id;
-- query: date_extract_hour_rejected
-- fallback: extract(hour) of a date (PostgreSQL raises "unit not supported for type date")
SELECT id, extract(hour FROM d) FROM dd ORDER BY id;
-- query: ts_extract_julian_numeric
SELECT id, extract(julian FROM t) FROM ts WHERE id NOT IN (6, 7) ORDER BY id;
-- query: ts_plus_interval
SELECT id, t + INTERVAL '1 month', t - INTERVAL '1 month', t + INTERVAL '1 year 2 months 3 days 04:05:06.789012',
       t - INTERVAL '-1 day +00:00:00.000001', INTERVAL '36 hours' + t FROM ts WHERE id NOT IN (8, 13) ORDER BY id;
-- query: ts_plus_interval_month_ends
SELECT d, d + INTERVAL '1 month', d + INTERVAL '1 month' + INTERVAL '1 month', d + INTERVAL '2 months', d - INTERVAL '1 year',
       d + INTERVAL '12 months 1 day', d::timestamp + INTERVAL '-1 month -1 microsecond'
  FROM ime ORDER BY d;
-- query: ts_plus_interval_bc_and_infinity
SELECT id, t + INTERVAL '1 day', t - INTERVAL '1000 years', t + INTERVAL '-5 months 23:59:59.999999' FROM ts
  WHERE id IN (5, 6, 7, 8, 9) ORDER BY id;
-- query: ts_plus_interval_out_of_range
SELECT id, t + INTERVAL '1 day' FROM ts WHERE id NOT IN (6, 7) ORDER BY id;
-- query: ts_minus_interval_before_min
SELECT id, t - INTERVAL '1 microsecond' FROM ts_min ORDER BY id;
-- query: ts_interval_compare_group
SELECT date_trunc('day', t + INTERVAL '2 hours 30 minutes') AS dday, count(*), min(t - INTERVAL '1 month'), max(t + INTERVAL '1 mon')
  FROM tsb WHERE t + INTERVAL '1 day' > TIMESTAMP '2013-07-05' GROUP BY 1 ORDER BY 1;
-- query: date_plus_interval_columns
SELECT id, d + INTERVAL '1 month', d - INTERVAL '3 days 12 hours', d + INTERVAL '1 year', INTERVAL '1 week' + d,
       extract(dow FROM d + INTERVAL '1 day') FROM nums ORDER BY id;
-- query: date_plus_interval_past_timestamps
SELECT id, d + INTERVAL '1 day' FROM dd ORDER BY id;
-- query: dfx_plus_interval_fields
SELECT id, extract(isodow FROM t + INTERVAL '1 mon 1 day 1 us'), date_part('epoch', d - INTERVAL '1 month') FROM dfx
  WHERE id < 30001 AND id % 7 = 0 ORDER BY id;
-- query: date_cast_to_timestamp
SELECT id, d::timestamp, d::timestamp < TIMESTAMP '2000-01-01 00:00:00' FROM dd WHERE id <> 4 ORDER BY id;
-- query: date_cast_to_timestamp_out_of_range
SELECT id, d::timestamp FROM dd ORDER BY id;
-- query: ts_interval_non_constant
SELECT id, t + (id * INTERVAL '1 hour') FROM ts WHERE id < 5 ORDER BY id;
-- query: ts_extract_fields_empty
SELECT extract(isodow FROM t), count(*), max(extract(second FROM t)), sum(date_part('epoch', t)) FROM ts_empty GROUP BY 1;
-- query: ts_extract_fields_min_timestamp
SELECT id, extract(week FROM t), extract(isoyear FROM t), extract(dow FROM t), extract(epoch FROM t), date_part('julian', t)
  FROM ts_min ORDER BY id;
-- query: ts_date_part
SELECT id, date_part('minute', t), date_part('hour', t), date_part('day', t) FROM ts ORDER BY id;
-- query: ts_extract_group
SELECT extract(minute FROM t) AS m, count(*) FROM tsb GROUP BY m ORDER BY count(*) DESC, m LIMIT 7;
-- query: ts_date_trunc_units
SELECT id, date_trunc('microseconds', t), date_trunc('milliseconds', t), date_trunc('second', t),
       date_trunc('minute', t), date_trunc('hour', t), date_trunc('day', t) FROM ts ORDER BY id;
-- query: ts_date_trunc_calendar_units
SELECT id, date_trunc('week', t), date_trunc('month', t), date_trunc('quarter', t), date_trunc('YEAR', t)
  FROM ts ORDER BY id;
-- query: ts_date_trunc_min_timestamp_day
SELECT id, date_trunc('day', t), date_trunc('hour', t) FROM ts_min ORDER BY id;
-- query: ts_date_trunc_before_min_timestamp
SELECT id, date_trunc('month', t) FROM ts_min ORDER BY id;
-- query: ts_date_trunc_unit_decade
SELECT id, date_trunc('decade', t) FROM ts ORDER BY id;
-- query: ts_date_trunc_group_offset
SELECT date_trunc('minute', t) AS m, count(*) FROM tsb WHERE t >= '2013-07-02' AND t <= '2013-07-05'
  GROUP BY date_trunc('minute', t) ORDER BY date_trunc('minute', t) LIMIT 10 OFFSET 1000;
-- query: ts_date_trunc_empty
SELECT date_trunc('hour', t), count(*) FROM ts_empty GROUP BY 1;
-- query: text_length_utf8
SELECT id, length(s), char_length(s), character_length(s) FROM ts ORDER BY id;
-- query: text_length_avg_group
SELECT length(t) % 3 AS k, avg(length(t)), count(*) FROM nums GROUP BY k ORDER BY k;
-- query: text_length_varchar_empty
SELECT length(v), count(*) FROM nums WHERE v IS NOT NULL GROUP BY 1 ORDER BY 1;
-- query: text_length_of_empty_table
SELECT max(length(s)) FROM ts_empty;
-- query: tz_load_and_output_session_zone
SET TimeZone = 'Europe/Berlin';
SELECT id, t FROM tz ORDER BY id;
-- query: tz_compare_order_group
SELECT t, count(*) FROM tz WHERE t >= '2013-07-14 06:15:30.25+00' OR t < '1970-01-01' GROUP BY t ORDER BY t;
-- query: tz_min_max_distinct
SELECT min(t), max(t), count(DISTINCT t) FROM tz;
-- query: tz_extract
SELECT id, extract(hour FROM t) FROM tz ORDER BY id;
-- query: tz_date_trunc
SELECT id, date_trunc('day', t) FROM tz ORDER BY id;
-- query: filter_count_star_plain
SELECT count(*) FILTER (WHERE b), count(*) FILTER (WHERE NOT b), count(*) FILTER (WHERE id > 100), count(*) FROM an;
-- query: filter_every_type_plain
SELECT sum(i2) FILTER (WHERE g = 1), sum(i8) FILTER (WHERE b), sum(n) FILTER (WHERE b), sum(f) FILTER (WHERE id < 3),
       avg(i2) FILTER (WHERE b), avg(n) FILTER (WHERE g > 1), avg(f) FILTER (WHERE g = 2),
       min(t) FILTER (WHERE id > 1), max(t) FILTER (WHERE g < 3), min(d) FILTER (WHERE b), max(d) FILTER (WHERE NOT b),
       count(n) FILTER (WHERE id > 2), count(DISTINCT t) FILTER (WHERE id > 1)
FROM an;
-- query: filter_nothing_passes
SELECT sum(i2) FILTER (WHERE false), avg(n) FILTER (WHERE id < 0), min(t) FILTER (WHERE id < 0), max(d) FILTER (WHERE id < 0),
       count(*) FILTER (WHERE id < 0), count(DISTINCT n) FILTER (WHERE id < 0), bool_and(b) FILTER (WHERE id < 0) FROM an;
-- query: filter_grouped
SELECT g, count(*) FILTER (WHERE b), count(*) FILTER (WHERE b IS NULL), sum(n) FILTER (WHERE n > 0), avg(i8) FILTER (WHERE i2 <> 4),
       min(t) FILTER (WHERE t <> 'a'), max(f) FILTER (WHERE f < 1), count(DISTINCT d) FILTER (WHERE id <> 5), sum(n), count(*)
FROM an GROUP BY g ORDER BY g;
-- query: filter_division_guarded
SELECT g, sum(100 / i2::int) FILTER (WHERE i2 <> 0), avg(n / i2::int) FILTER (WHERE i2 <> 0) FROM an GROUP BY g ORDER BY g;
-- query: filter_division_guarded_plain
SELECT sum(100 / i2::int) FILTER (WHERE i2 <> 0), count(*) FILTER (WHERE 10 / NULLIF(i2::int, 0) > 1) FROM an;
-- query: filter_division_error
SELECT sum(100 / i2::int) FILTER (WHERE i2 IS NOT NULL) FROM an;
-- query: filter_empty_table
SELECT count(*) FILTER (WHERE k > 0), sum(x) FILTER (WHERE k > 0), min(s) FILTER (WHERE s <> '') FROM empty;
-- query: filter_empty_table_grouped
SELECT k, count(*) FILTER (WHERE x > 0), sum(x) FILTER (WHERE k > 0) FROM empty GROUP BY k;
-- query: filter_having
SELECT g, sum(i8) FILTER (WHERE b) FROM an GROUP BY g HAVING count(*) FILTER (WHERE b) > 0 ORDER BY g;
-- query: filter_big_grouped
SELECT g, count(*) FILTER (WHERE x > 5), sum(x) FILTER (WHERE k % 3 = 0), avg(y) FILTER (WHERE s = 'row1'),
       count(DISTINCT s) FILTER (WHERE k < 50000) FROM big GROUP BY g ORDER BY g;
-- query: filter_numeric_division_arg
SELECT g, sum(n / 3) FILTER (WHERE n > 0), max(n / 7) FILTER (WHERE n <> 0) FROM an GROUP BY g ORDER BY g;
-- query: bool_and_or_plain
SELECT bool_and(b), bool_or(b), every(b), bool_and(b) FILTER (WHERE id < 2), bool_or(b) FILTER (WHERE id = 2) FROM an;
-- query: bool_and_or_grouped
SELECT g, bool_and(b), bool_or(b), every(b), bool_and(i2 > 0), bool_or(t = 'a') FROM an GROUP BY g ORDER BY g;
-- query: bool_and_or_all_null
SELECT bool_and(b), bool_or(b) FROM an WHERE id IN (3, 6, 9);
-- query: bool_and_or_empty
SELECT bool_and(k > 0), bool_or(k > 0), every(s = 'x') FROM empty;
-- query: bool_and_or_having
SELECT g FROM an GROUP BY g HAVING bool_or(b) ORDER BY g;
-- query: setop_intersect
SELECT g, i2, t FROM an INTERSECT SELECT g, i2, t FROM an2;
-- query: setop_intersect_all
SELECT g, i8, n, d FROM an INTERSECT ALL SELECT g, i8, n, d FROM an2;
-- query: setop_except
SELECT g, t, b FROM an EXCEPT SELECT g, t, b FROM an2;
-- query: setop_except_all
SELECT i2, n FROM an2 EXCEPT ALL SELECT i2, n FROM an WHERE id <> 5;
-- query: setop_except_all_dups
SELECT t FROM an2 EXCEPT ALL SELECT t FROM an WHERE id IN (1, 4);
-- query: setop_nulls_equal
SELECT g, i2 FROM an WHERE i2 IS NULL INTERSECT SELECT g, i2 FROM an2;
-- query: setop_ordered
SELECT t, d FROM an INTERSECT SELECT t, d FROM an2 ORDER BY 1, 2;
-- query: setop_sorted_strategy
SET enable_hashagg = off;
SELECT g, t FROM an EXCEPT ALL SELECT g, t FROM an2 WHERE id > 3 ORDER BY 1 NULLS FIRST, 2;
SELECT g, t FROM an INTERSECT SELECT g, t FROM an2;
-- query: setop_empty_sides
SELECT k, s FROM empty INTERSECT SELECT id, t FROM an;
-- query: setop_except_empty
SELECT g, t FROM an EXCEPT SELECT k, s FROM empty;
-- query: setop_chain
SELECT g FROM an INTERSECT SELECT g FROM an2 EXCEPT SELECT k FROM sq1 UNION SELECT k + 40 FROM sq1 WHERE k < 3;
-- query: setop_limit_count
SELECT count(*) FROM (SELECT s FROM big INTERSECT ALL SELECT s FROM big WHERE k % 5 = 0) q;
-- query: setop_big
SELECT g, s FROM big EXCEPT SELECT g, s FROM big WHERE k % 3 = 0 ORDER BY 1, 2;
-- query: setop_float_key
SELECT f FROM an INTERSECT SELECT f FROM an2;
-- query: setop_float_signed_zero_first_seen
SELECT f FROM an EXCEPT SELECT f FROM an2;
SELECT f FROM an WHERE id >= 6 INTERSECT SELECT f8 FROM wn;
SELECT f8 FROM wn INTERSECT ALL SELECT f FROM an WHERE id <> 6;
-- query: setop_float_nan_infinity_all
SELECT f8, f4 FROM wn INTERSECT ALL SELECT f8, f4 FROM wn WHERE id > 5;
SELECT f FROM topn WHERE k IS NULL OR k = 0 EXCEPT ALL SELECT f8 FROM wn;
SELECT f8 FROM wn EXCEPT ALL SELECT f FROM topn WHERE k IS NULL OR k < 3;
-- query: setop_float4_and_mixed_columns
SELECT f4, g FROM wn EXCEPT SELECT f4, i2 FROM nums;
SELECT f4 FROM nums INTERSECT ALL SELECT f4 FROM wn UNION ALL SELECT f4 FROM nums WHERE id > 6;
-- query: setop_float_empty_sides
SELECT y FROM big WHERE k < 0 INTERSECT SELECT f FROM an;
SELECT f FROM an EXCEPT ALL SELECT y FROM big WHERE k < 0;
-- query: setop_float_sorted_strategy
-- fallback: float column in INTERSECT/EXCEPT over a sorted or reordered input (PostgreSQL's sort leaves -0 and 0 in its own order)
SET enable_hashagg = off;
SELECT f FROM an INTERSECT SELECT f FROM an2;
-- query: setop_float_over_join
-- fallback: float column in INTERSECT/EXCEPT over a sorted or reordered input (a join's row order is its plan's)
SELECT a.f FROM an a JOIN an2 b ON a.id = b.id INTERSECT SELECT f FROM an;
-- query: gsets_rollup
SELECT g, t, count(*), sum(n), avg(i8), min(d), GROUPING(g, t) FROM an GROUP BY ROLLUP (g, t);
-- query: gsets_rollup_ordered
SELECT g, t, count(*), sum(n), GROUPING(g), GROUPING(t, g) FROM an GROUP BY ROLLUP (g, t) ORDER BY g, t, 6;
-- query: gsets_rollup_sorted_strategy
SET enable_hashagg = off;
SELECT g, t, count(*), sum(i2), max(t) FROM an GROUP BY ROLLUP (g, t) ORDER BY g, t;
SELECT g, d, count(*), bool_or(b) FROM an GROUP BY ROLLUP (g, d);
-- query: gsets_cube
SELECT g, b, count(*), sum(f), GROUPING(g, b) FROM an GROUP BY CUBE (g, b);
-- query: gsets_grouping_sets
SELECT g, t, d, count(*), sum(i8) FILTER (WHERE b) FROM an GROUP BY GROUPING SETS ((g), (t, d), ());
-- query: gsets_having
SELECT g, t, count(*) FROM an GROUP BY ROLLUP (g, t) HAVING count(*) > 1 OR GROUPING(t) = 1;
-- query: gsets_empty_input
SELECT k, s, count(*), sum(x), min(s), GROUPING(k, s) FROM empty GROUP BY ROLLUP (k, s);
-- query: gsets_empty_input_no_total
SELECT k, count(*), sum(x) FROM empty GROUP BY GROUPING SETS ((k), (s));
-- query: gsets_big
SELECT g, s, count(*), sum(x), avg(x) FROM big GROUP BY CUBE (g, s) ORDER BY 1, 2, 3;
-- query: gsets_expression_keys
SELECT g % 2, extract(year FROM d), count(*) FROM an GROUP BY ROLLUP (g % 2, extract(year FROM d));
-- query: window_ranking
SELECT id, g, t, row_number() OVER (PARTITION BY g ORDER BY t, id), rank() OVER (PARTITION BY g ORDER BY t),
       dense_rank() OVER (PARTITION BY g ORDER BY t) FROM an ORDER BY id;
-- query: window_ranking_no_partition
SELECT id, n, row_number() OVER (ORDER BY n DESC, id), rank() OVER (ORDER BY n DESC), dense_rank() OVER (ORDER BY n DESC)
FROM an ORDER BY id;
-- query: window_ranking_ties_types
SELECT id, rank() OVER (ORDER BY d), dense_rank() OVER (PARTITION BY b ORDER BY i8), rank() OVER (PARTITION BY t ORDER BY i2 DESC)
FROM an ORDER BY id;
-- query: window_partition_aggregates
SELECT id, g, sum(n) OVER (PARTITION BY g), count(*) OVER (PARTITION BY g), count(t) OVER (PARTITION BY g),
       min(t) OVER (PARTITION BY g), max(d) OVER (PARTITION BY g), avg(i8) OVER (PARTITION BY g) FROM an ORDER BY id;
-- query: window_whole_table_aggregates
SELECT id, sum(i2) OVER (), count(*) OVER (), avg(n) OVER (), bool_and(b) OVER () FROM an ORDER BY id;
-- query: window_unbounded_frame
SELECT id, sum(n) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM an ORDER BY id;
-- query: window_empty
SELECT k, row_number() OVER (ORDER BY k), rank() OVER (PARTITION BY s ORDER BY k), sum(x) OVER (PARTITION BY s) FROM empty;
-- query: window_big
SELECT g, s, rank() OVER (PARTITION BY g ORDER BY s), dense_rank() OVER (PARTITION BY g ORDER BY s), count(*) OVER (PARTITION BY g, s)
FROM big WHERE k % 97 = 0 ORDER BY g, s, 3;
-- query: window_two_windows
SELECT id, row_number() OVER (ORDER BY id DESC), dense_rank() OVER (PARTITION BY b ORDER BY g) FROM an ORDER BY id;
-- query: window_running_sum
SELECT id, sum(n) OVER (ORDER BY id) FROM an ORDER BY id;
-- query: window_running_peers_all_types
SELECT id, sum(i2) OVER w, sum(i4) OVER w, sum(i8) OVER w, sum(f4) OVER w, sum(f8) OVER w, sum(n) OVER w,
       count(*) OVER w, count(t) OVER w, avg(i4) OVER w, avg(f8) OVER w, avg(n) OVER w, min(t) OVER w, max(d) OVER w,
       min(ts) OVER w, max(f4) OVER w, bool_and(b) OVER w, bool_or(b) OVER w
FROM wn WINDOW w AS (PARTITION BY g ORDER BY o) ORDER BY id;
-- query: window_running_desc_nulls
SELECT id, sum(n) OVER (PARTITION BY g ORDER BY o DESC NULLS LAST), count(f8) OVER (ORDER BY o NULLS FIRST, id),
       max(t) OVER (PARTITION BY g ORDER BY t DESC) FROM wn ORDER BY id;
-- query: window_rows_frames
SELECT id, sum(i4) OVER (PARTITION BY g ORDER BY o, id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
       sum(f8) OVER (PARTITION BY g ORDER BY o, id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
       avg(n) OVER (PARTITION BY g ORDER BY o, id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
       count(*) OVER (PARTITION BY g ORDER BY o, id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING),
       min(t) OVER (PARTITION BY g ORDER BY o, id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING),
       max(f4) OVER (PARTITION BY g ORDER BY o, id ROWS 1 PRECEDING),
       sum(i8) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
FROM wn ORDER BY id;
-- query: window_rows_offsets_beyond
SELECT id, sum(n) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 100 PRECEDING AND 100 FOLLOWING),
       count(*) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 5 FOLLOWING AND 9 FOLLOWING),
       sum(i4) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 9 PRECEDING AND 7 PRECEDING),
       sum(f8) OVER (ORDER BY id ROWS BETWEEN 9223372036854775807 PRECEDING AND 0 FOLLOWING),
       count(*) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 1 FOLLOWING)
FROM wn ORDER BY id;
-- query: window_range_current_row
SELECT id, sum(f8) OVER (PARTITION BY g ORDER BY o RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
       count(*) OVER (ORDER BY o RANGE BETWEEN CURRENT ROW AND CURRENT ROW),
       last_value(t) OVER (PARTITION BY g ORDER BY o, id RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)
FROM wn ORDER BY id;
-- query: window_float_sum_order
SELECT id, sum(f8) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
       sum(f8) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING), avg(f8) OVER (ORDER BY id ROWS 3 PRECEDING)
FROM (VALUES (1, float8 '1e16'), (2, 1.0), (3, -1e16), (4, 1.0), (5, 3.0), (6, 1e-16), (7, -3.0)) v(id, f8) ORDER BY id;
-- query: window_lag_lead
SELECT id, lag(i4) OVER w, lead(i4) OVER w, lag(t, 2) OVER w, lead(n, 2, 0.5) OVER w, lag(d, 1, '1900-01-01') OVER w,
       lead(f8, -1) OVER w, lag(ts, 0) OVER w, lag(b, 3, true) OVER w, lead(i8, 100) OVER w, lag(f4, 1, f4) OVER w,
       lead(i2) OVER (ORDER BY id), lag(t, 1, 'none') OVER (ORDER BY id)
FROM wn WINDOW w AS (PARTITION BY g ORDER BY o, id) ORDER BY id;
-- query: window_first_last_nth
SELECT id, first_value(t) OVER w, last_value(t) OVER w, nth_value(t, 2) OVER w, first_value(n) OVER w,
       last_value(f8) OVER w, nth_value(i8, 3) OVER w, nth_value(d, 10) OVER w,
       last_value(i4) OVER (PARTITION BY g ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
       first_value(b) OVER (PARTITION BY g ORDER BY o, id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING),
       nth_value(t, 2) OVER (PARTITION BY g ORDER BY o, id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)
FROM wn WINDOW w AS (PARTITION BY g ORDER BY o, id) ORDER BY id;
-- query: window_frames_empty_and_one_row
SELECT k, lag(x) OVER (ORDER BY k), sum(x) OVER (ORDER BY k ROWS 2 PRECEDING), first_value(s) OVER (ORDER BY k) FROM empty;
SELECT id, lag(t) OVER (PARTITION BY id), lead(t, 1, 'd') OVER (PARTITION BY id ORDER BY o), sum(n) OVER (PARTITION BY id ORDER BY o),
       nth_value(i4, 1) OVER (PARTITION BY id ORDER BY o), count(*) OVER (PARTITION BY id ORDER BY o ROWS 1 PRECEDING) FROM wn ORDER BY id;
-- query: window_frames_big
SELECT k, sum(x) OVER (PARTITION BY g ORDER BY k), avg(y) OVER (PARTITION BY g ORDER BY k ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING),
       lag(s, 2) OVER (PARTITION BY g ORDER BY k), max(k) OVER (PARTITION BY g ORDER BY s)
FROM big WHERE k % 53 = 0 ORDER BY k;
-- query: window_range_offset
-- fallback: RANGE window frame with an offset
SELECT id, sum(i4) OVER (ORDER BY o RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wn ORDER BY id;
-- query: window_groups_frame
-- fallback: GROUPS window frame
SELECT id, sum(i4) OVER (ORDER BY o GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wn ORDER BY id;
-- query: window_exclude
-- fallback: window frame with EXCLUDE
SELECT id, sum(i4) OVER (ORDER BY o, id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM wn ORDER BY id;
-- query: window_frame_offset_errors
-- fallback: negative window frame offset
SELECT id, sum(i4) OVER (ORDER BY id ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM wn ORDER BY id;
-- query: window_nth_value_zero
-- fallback: nth_value with a position that is not a positive constant
SELECT id, nth_value(t, 0) OVER (ORDER BY id) FROM wn ORDER BY id;
-- query: window_lag_expression
SELECT id, lag(100 / i4) OVER (ORDER BY id) FROM wn WHERE i4 <> 0 ORDER BY id;
-- query: topn_basic
SELECT k, s FROM topn ORDER BY s, k LIMIT 10;
SELECT k, f FROM topn ORDER BY f DESC, k LIMIT 7 OFFSET 3;
SELECT k, f FROM topn ORDER BY f NULLS FIRST, k LIMIT 12;
SELECT k, n, d FROM topn ORDER BY n DESC NULLS LAST, d, k LIMIT 5;
-- query: topn_ties_stable
SELECT s FROM topn ORDER BY s LIMIT 25;
SELECT d, n FROM topn ORDER BY d DESC, n, k LIMIT 3 OFFSET 2;
-- query: topn_edges
SELECT k FROM topn ORDER BY k LIMIT 0;
SELECT k FROM topn ORDER BY k DESC LIMIT 5 OFFSET 49999;
SELECT k FROM wn, topn WHERE topn.k = wn.id ORDER BY k DESC LIMIT 100;
SELECT id FROM wn ORDER BY t LIMIT 4;
SELECT k, s FROM topn ORDER BY f, s, k LIMIT 20000 OFFSET 10;
-- query: float_stddev_variance
SELECT stddev(f), stddev_samp(f), stddev_pop(f), variance(f), var_samp(f), var_pop(f) FROM an WHERE id <> 7;
-- query: float_stddev_grouped
SELECT g, stddev(f), var_pop(f), stddev_pop(f4), variance(f4) FROM (SELECT g, f, f::real AS f4 FROM an) s GROUP BY g ORDER BY g;
-- query: float_stddev_big
SELECT g, stddev(y), var_samp(y), stddev_pop(y) FROM big GROUP BY g ORDER BY g;
-- query: float_stddev_edges
SELECT stddev(x), var_pop(x), stddev_samp(r), var_samp(r) FROM fe;
-- query: float_stddev_one_and_empty
SELECT stddev(x), stddev_pop(x), var_samp(x), var_pop(x) FROM fe_one;
SELECT stddev(y), var_pop(y) FROM big WHERE k < 0;
-- query: float_stddev_overflow
SELECT var_pop(f) FROM an;
-- query: float_stddev_filter_window
SELECT g, stddev(f) FILTER (WHERE f > -1), var_pop(f) OVER (PARTITION BY g) FROM an GROUP BY g, f ORDER BY 1, 2, 3;
-- query: numeric_stddev
SELECT stddev(n) FROM an;
-- query: str_position_left_right
SELECT id, strpos(s, t), position(t IN s), left(s, n), right(s, n), left(s, 2), right(s, -2) FROM strs ORDER BY id;
-- query: str_trims
SELECT id, btrim(s), ltrim(s), rtrim(s), btrim(s, 'xa '), ltrim(s, t), rtrim(s, t), '[' || btrim(v, 'É') || ']' FROM strs ORDER BY id;
-- query: str_replace_concat
SELECT id, replace(s, t, '<>'), replace(s, 'o', ''), s || t, s || '-' || v, concat(s, t, v), concat_ws('|', s, t, v),
       concat_ws(t, s, v) FROM strs ORDER BY id;
-- query: str_split_part
SELECT id, split_part(s, t, 1), split_part(s, t, 2), split_part(s, t, -1), split_part(s, t, -2), split_part(s, ',', 3),
       split_part(s, '', 1), split_part(s, '', 2) FROM strs ORDER BY id;
-- query: str_split_part_zero_field
SELECT split_part(s, t, n) FROM strs WHERE id = 3;
-- query: str_repeat_reverse_starts
SELECT id, repeat(s, 2), repeat(t, -1), reverse(s), reverse(v), starts_with(s, t), starts_with(s, '') FROM strs ORDER BY id;
-- query: str_pad
SELECT id, lpad(s, 12), rpad(s, 12), lpad(s, 4, 'ab'), rpad(s, 15, '€x'), lpad(s, -1, 'x'), rpad(s, 5, ''), lpad(t, 3, 'ж') FROM strs ORDER BY id;
-- query: str_case_default_collation
SELECT id, upper(s), lower(v), initcap(v), upper(v), initcap(s) FROM strs ORDER BY id;
-- query: str_case_c_collation
SELECT id, upper(v COLLATE "C"), lower(v COLLATE "C"), initcap(v COLLATE "C"), upper(s COLLATE "POSIX") FROM strs ORDER BY id;
-- query: str_functions_group_where
SELECT lower(left(s, 1)) AS k, count(*), max(reverse(s)) FROM strs WHERE strpos(coalesce(s, ''), 'b') > 0 OR length(s) > 8
  GROUP BY 1 ORDER BY 1;
-- query: str_functions_empty_table
SELECT upper(s), replace(s, 'a', 'b'), split_part(s, ',', 2), s ~ 'a' FROM empty;
-- query: str_concat_non_text
SELECT concat(s, n) FROM strs;
-- query: str_concat_char_n
-- fallback: concat of char(n) (PostgreSQL prints the blank padding)
SELECT id, concat(c, '|'), c || '|' FROM nums ORDER BY id;
-- query: str_repeat_non_constant
-- fallback: repeat with a non-constant count
SELECT repeat(s, n) FROM strs;
-- query: regex_clickbench_referer
SELECT id, regexp_replace(s, '^https?://(?:www\.)?([^/]+)/.*$', '\1') FROM rx ORDER BY id;
-- query: regex_match_operators
SELECT id, s ~ 'b+c', s !~ '^a', (s COLLATE "C") ~* 'abc', (s COLLATE "C") !~* 'X{2,}', (s COLLATE "C") ~ '\d{2}', s ~ '^$' FROM rx ORDER BY id;
-- query: regex_replace_flags_and_escapes
SELECT id, regexp_replace(s, 'b', 'B'), regexp_replace(s, 'b', 'B', 'g'), regexp_replace(s, '[a-c]+', '<\&>', 'g'),
       regexp_replace(s, 'X*', '-', 'g'), regexp_replace(s COLLATE "C", '(a)(b|c)', '\2\1\3\\\x', 'gi') FROM rx ORDER BY id;
-- query: regex_where_group
SELECT s ~ '^https?://', count(*) FROM rx GROUP BY 1 ORDER BY 1;
-- query: regex_backreference_in_pattern
-- fallback: back reference in the pattern
SELECT id, s ~ '(a)\1' FROM rx ORDER BY id;
-- query: regex_non_greedy
-- fallback: non-greedy quantifier
SELECT id, regexp_replace(s, 'a.*?c', 'X') FROM rx ORDER BY id;
-- query: regex_quantified_capture
-- fallback: quantified group holding a capture
SELECT id, regexp_replace(s, '(a)(b)?', '\2\1') FROM rx ORDER BY id;
-- query: regex_lookahead
-- fallback: lookahead
SELECT id, s ~ 'a(?=b)' FROM rx ORDER BY id;
-- query: regex_posix_class
-- fallback: POSIX class not built
SELECT id, s ~ '[[:alpha:]]+' FROM rx ORDER BY id;
-- query: regex_non_constant_pattern
-- fallback: non-constant pattern
SELECT id, s ~ s FROM rx ORDER BY id;
-- query: regex_class_under_icu
-- fallback: \w under an ICU collation's ctype
SELECT id, (s COLLATE "und-x-icu") ~ '\w+' FROM rx ORDER BY id;
-- query: str_upper_under_icu
-- fallback: upper under an ICU collation
SELECT id, upper(s COLLATE "und-x-icu") FROM strs ORDER BY id;
-- query: regex_class_under_c_collation
SELECT id, (s COLLATE "C") ~ '\w+\s\w', regexp_replace(s COLLATE "C", '\W+', '_', 'g'), regexp_replace(s COLLATE "C", '(\d+)-(\d+)', '\2:\1') FROM rx ORDER BY id;
-- query: regex_heldout_alternation_longest
SELECT id, regexp_replace(s, '(a|ab)(c|bcd)', '[\1|\2]', 'g'), regexp_replace(s, 'abc|abcabc', '#') FROM rx ORDER BY id;
-- query: regex_heldout_prefix_merge
SELECT id, regexp_replace(s, 'a*(?:ab)?(b?)', '[\1]'), regexp_replace(s, '(a*)((?:a|b)*)', '<\1|\2>') FROM rx ORDER BY id;
-- query: regex_heldout_nested_groups
SELECT id, regexp_replace(s COLLATE "C", '((\w)\w*)\.(\w+)', '\3/\2/\1', 'g'), regexp_replace(s, '(([a-z]+))', '{\1}') FROM rx ORDER BY id;
-- query: regex_heldout_bounds_brackets
SELECT id, regexp_replace(s, '[^a-z0-9]{1,3}', '.', 'g'), s ~ '^[a-c]{3}$', s ~ '[]x-]', regexp_replace(s, '(X{1,2})(X?)', '<\1,\2>', 'g') FROM rx ORDER BY id;
-- query: regex_heldout_nonascii
SELECT id, regexp_replace(s, '[а-я]+', 'R', 'g'), regexp_replace(s, '(.)(.)$', '\2\1'), s ~ '–', regexp_replace(s, '.', '*', 'g') FROM rx ORDER BY id;
-- query: regex_heldout_anchors_newline
SELECT id, regexp_replace(s, '^', '>', 'g'), regexp_replace(s, '$', '<', 'g'), s ~ 'line1.line2', regexp_replace(s, '\n', ' ') FROM rx ORDER BY id;
-- query: regex_heldout_capture_alternation_first_branch
SELECT id, regexp_replace(s, '(?:(a)|(ab))(c*)', '1=\1 2=\2 3=\3'), regexp_replace(s, '(b|bb)(b*)', '[\1,\2]', 'g') FROM rx ORDER BY id;
-- query: greatest_least_mixed_nulls
SELECT id, greatest(i4, i2, 25), least(i4, i2), greatest(f8, f4), least(n, 10.50), greatest(d, DATE '1995-01-01'),
       least(t, v), greatest(t, 'beta') FROM nums ORDER BY id;
-- query: greatest_least_all_null_and_floats
SELECT id, greatest(NULL::int, i4), least(f8, -1.5::float8), greatest(f8, 1e300::float8), least(f8, f4, NULL) FROM nums ORDER BY id;
-- query: greatest_numeric_scales_differ
SELECT id, greatest(n, n4) FROM nums ORDER BY id;
-- query: is_distinct_from
SELECT id, i4 IS DISTINCT FROM i2 * 10, i4 IS NOT DISTINCT FROM NULL, t IS DISTINCT FROM v, n IS NOT DISTINCT FROM 10.5,
       d IS DISTINCT FROM DATE '1994-01-01' FROM nums ORDER BY id;
-- query: is_distinct_from_where
SELECT count(*) FROM nums WHERE i2 IS DISTINCT FROM i4 / 10;
-- query: boolean_tests
SELECT id, b IS TRUE, b IS NOT TRUE, b IS FALSE, b IS NOT FALSE, b IS UNKNOWN, b IS NOT UNKNOWN, (i4 > 20) IS NOT TRUE
  FROM nums ORDER BY id;
-- query: boolean_tests_where_group
SELECT b IS NOT FALSE AS k, count(*) FROM nums WHERE (i4 > 10) IS NOT FALSE GROUP BY 1 ORDER BY 1;
-- query: float_fns_rounding_sign
SELECT id, floor(x), ceil(x), ceiling(x), round(x), trunc(x), sign(x), cbrt(x), sqrt(abs(x)) FROM mathx ORDER BY id;
-- query: float_fns_log_exp_where
SELECT id, ln(x), log(x), log10(x), exp(y), degrees(x / 1e300), radians(y) FROM mathx WHERE x > 0 AND y < 100 ORDER BY id;
-- query: float_fn_sqrt_negative_raises
SELECT sqrt(x) FROM mathx WHERE id <> 6;
-- query: float_fn_ln_zero_raises
SELECT ln(x) FROM mathx WHERE id = 2 OR id = 1;
-- query: float_fn_ln_negative_raises
SELECT log(x) FROM mathx WHERE id = 3;
-- query: float_fn_exp_overflow_raises
SELECT exp(x) FROM mathx WHERE id = 7;
-- query: float_fn_exp_underflow_raises
SELECT exp(-x) FROM mathx WHERE id = 7;
-- query: float_fn_in_case
SELECT id, CASE WHEN id < 5 THEN sqrt(abs(x)) ELSE exp(y / 1000) END, CASE WHEN bo THEN ln(abs(x) + 1) END
  FROM mathx ORDER BY id;
-- query: float_fn_in_case_raises_for_skipped_rows
-- fallback: a CASE branch raises for rows PostgreSQL never evaluates it for (rndn falls back at run time)
SELECT id, CASE WHEN x > 0 AND x < 1e10 THEN ln(x) WHEN x = 0 THEN 0 ELSE -1 END,
       CASE WHEN x >= 0 THEN sqrt(x) END FROM mathx ORDER BY id;
-- query: float_pow_cases
SELECT id, power(abs(x), y), power(y, 2), power(x, 0), power(1, y), power(2.5, x) FROM mathx
  WHERE id NOT IN (2, 7, 8) ORDER BY id;
-- query: float_pow_zero_negative_raises
SELECT power(x, y) FROM mathx WHERE id = 8;
-- query: float_pow_negative_fraction_raises
SELECT power(x, 0.5) FROM mathx WHERE id = 3;
-- query: float_pow_overflow_raises
SELECT power(x, 2) FROM mathx WHERE id = 7;
-- query: float_fns_of_real_and_int
SELECT id, sqrt(abs(i2)), floor(i4 / 3.0::float8), round(x::real), exp(i2 / 100.0::float8) FROM mathx
  WHERE i2 IS NOT NULL AND i2 < 100 ORDER BY id;
-- query: bit_ops_int
SELECT id, i4 & 12, i4 | 3, i4 # 5, ~i4, i4 << 3, i4 >> 2, i4 << 33, i4 >> 40 FROM mathx ORDER BY id;
-- query: bit_ops_smallint_bigint
SELECT id, i2 & j2, i2 | j2, i2 # j2, ~i2, i2 << 3, i2 >> 1, i2 << 17, i8 & 255, i8 | i8, ~i8, i8 << 60, i8 >> 65
  FROM mathx ORDER BY id;
-- query: bit_ops_column_shift
SELECT id, i4 << j2, i2 >> j2, i8 << j2 FROM mathx ORDER BY id;
-- query: bit_ops_group_where
SELECT i4 & 1 AS odd, count(*) FROM mathx WHERE (i8 >> 1) & 1 = 0 GROUP BY 1 ORDER BY 1;
-- query: mixed_int_division_modulo
SELECT id, i2 / j2, i4 / j2, j2 / i4, i8 / i4, i4 / i8, i8 / j2, j2 / i8, i2 % j2, abs(j2), +i4, -j2
  FROM mathx WHERE i4 <> 0 ORDER BY id;
-- query: mixed_int_multiplication
SELECT id, j2 * i8, i8 * j2 FROM mathx WHERE id NOT IN (3, 4) ORDER BY id;
-- query: int4_min_div_smallint_minus_one_raises
SELECT i4 / j2 FROM mathx WHERE id IN (2, 4);
-- query: int8_min_div_int_minus_one_raises
SELECT i8 / i4 FROM mathx WHERE id = 4 OR id = 10;
-- query: smallint_min_abs_raises
SELECT abs(i2) FROM mathx WHERE id = 4;
-- query: smallint_div_zero_raises
SELECT i2 / (j2 - j2) FROM mathx WHERE id = 1;
-- query: bool_int_casts
SELECT id, bo::int, (i4 % 3)::bool, bo::int + 1, sum(bo::int) OVER () FROM mathx ORDER BY id;
-- query: char_length_of_char
SELECT id, length(c), char_length(c), character_length(c) FROM mathx ORDER BY id;
-- query: timestamp_to_date
SELECT id, ts::date, ts::date + 1, date(ts) FROM mathx ORDER BY id;
-- query: timestamp_to_date_group
SELECT ts::date, count(*) FROM mathx GROUP BY 1 ORDER BY 1;

-- query: numeric_var_all_kinds
SELECT var_pop(i2), var_samp(i2), variance(i4), stddev_pop(i4), stddev_samp(i8), stddev(i8),
       var_pop(n), stddev_samp(n), variance(u), stddev_pop(u), var_samp(c), stddev(c) FROM sv;
-- query: numeric_var_grouped
SELECT g, var_pop(i2), var_samp(i4), stddev_pop(i4), stddev_samp(n), variance(u), stddev(c),
       count(*) FROM sv GROUP BY g ORDER BY g;
-- query: numeric_var_grouped_magnitudes
-- fallback: one group's 19-digit result and another's scale-28 one do not fit one dec128 column (kept at the largest scale)
SELECT g, stddev_pop(i8), var_samp(n) FROM sv GROUP BY g ORDER BY g;
-- query: numeric_var_empty_and_one_row
SELECT var_pop(i4), var_samp(i4), stddev_pop(n), stddev_samp(u) FROM sv WHERE id = 8;
-- query: numeric_var_no_rows
SELECT var_pop(i8), stddev_samp(n), variance(u) FROM sv WHERE id > 100;
-- query: numeric_var_empty_table
SELECT variance(k), stddev_pop(x) FROM empty;
-- query: numeric_var_filter
SELECT g, var_samp(i4) FILTER (WHERE i4 > 0), stddev_pop(n) FILTER (WHERE id % 2 = 1),
       variance(u) FILTER (WHERE u < 50) FROM sv GROUP BY g ORDER BY g;
-- query: numeric_var_int8_beyond_128_bits
SELECT var_pop(i8), var_samp(i8), stddev_pop(i8), stddev_samp(i8) FROM sv WHERE g = 1;
-- query: numeric_var_int8_near_max
SELECT g, var_pop(i8), stddev_samp(i8) FROM sv_ext WHERE g = 2 GROUP BY g;
-- query: numeric_var_int8_extremes
-- fallback: a variance of 2^127 (38 digits past 10^38) does not fit a dec128: PostgreSQL answers
SELECT var_samp(i8) FROM sv_ext WHERE g = 1;
-- query: numeric_var_expressions
SELECT g, stddev_samp(i2 * 2 + 1), variance(u * u) FROM sv GROUP BY g ORDER BY g;
-- query: numeric_var_mixed_scales
-- fallback: divisions give display scales near 20: the squares' scale 40 passes dec128's 38
SELECT variance(i4 / 7.0), stddev(n / 3) FROM sv;
-- query: numeric_var_huge_groups
SELECT g, var_samp(k), stddev_pop(k), variance(x), stddev(x) FROM big GROUP BY g ORDER BY g;
-- query: numeric_var_huge_ungrouped
SELECT var_pop(k), stddev_samp(x), variance(g) FROM big;
-- query: numeric_var_in_expression
SELECT g, stddev(i4) > 10, variance(i2) > 1, var_samp(i2) IS NULL FROM sv GROUP BY g ORDER BY g;
-- query: numeric_var_window_partition
SELECT id, g, var_samp(i4) OVER (PARTITION BY g), stddev_pop(n) OVER (PARTITION BY g) FROM sv ORDER BY id;
-- query: numeric_var_window_frame
SELECT id, variance(i4) OVER (ORDER BY id) FROM sv ORDER BY id;
-- issue 18 (num18): unconstrained numeric, numeric typmod casts and rounding, uuid
-- query: unnum_values_keep_their_scales
SELECT id, x, y, n2 FROM un ORDER BY id;
-- query: unnum_arithmetic_scales
SELECT id, x + y, x - y, x * y, -x, abs(x), x + 1.5, x * 2, x + n2 FROM un WHERE id < 9 ORDER BY id;
-- query: unnum_division
SELECT id, x / y, x / 3, 1 / y FROM un WHERE y <> 0 AND id < 6 ORDER BY id;
-- query: unnum_division_beyond_38_digits
-- fallback: the quotient needs more than 38 digits (run time)
SELECT id, x / y FROM un WHERE y <> 0 AND id <> 9 ORDER BY id;
-- query: unnum_group_aggregates
SELECT g, sum(x), count(x), min(x), max(x), sum(y), min(y), max(y) FROM un GROUP BY g ORDER BY g;
-- query: unnum_avg
SELECT g, avg(x), avg(y) FROM un WHERE id <> 9 AND id <> 6 GROUP BY g ORDER BY g;
-- query: unnum_filters_and_order
SELECT id, x FROM un WHERE x > 1 OR x = 1.5 OR x <= -0.5 ORDER BY x DESC, id;
-- query: unnum_sum_all_and_empty
SELECT sum(x), sum(y), count(DISTINCT x) FROM un;
-- query: unnum_sum_of_nulls
SELECT sum(x), min(x), count(*) FROM un WHERE x IS NULL;
-- query: unnum_nan_falls_back
-- fallback: numeric NaN in a loaded column (run time)
SELECT x, x + 1 FROM un_nan ORDER BY id;
-- query: unnum_beyond_38_digits_falls_back
-- fallback: a value with more than 38 digits (run time)
SELECT sum(x) FROM un_wide;
-- query: unnum_38_digits_at_the_largest_scale_falls_back
-- fallback: 38 digits plus another row's scale exceed 38 (run time)
SELECT x FROM un_mix ORDER BY id;
-- query: unnum_case_coalesce_greatest
SELECT id, CASE WHEN x > 0 THEN x ELSE y END, coalesce(x, y), coalesce(x, n2, 0), greatest(x, y), least(x, n2)
  FROM un WHERE id <> 9 ORDER BY id;
-- query: unnum_join_and_distinct
SELECT DISTINCT a.x FROM un a JOIN un b ON a.x = b.y ORDER BY 1;
-- query: unnum_join_across_scales
SELECT a.id, b.id, a.x, b.n2 FROM un a JOIN un b ON a.x = b.n2 ORDER BY 1, 2;
-- query: unnum_self_join_equal_values
SELECT a.id, b.id, a.x, b.x FROM un a JOIN un b ON a.x = b.x WHERE a.id <> b.id ORDER BY 1, 2;
-- query: unnum_prepared_parameter
PREPARE unp(numeric) AS SELECT id, x FROM un WHERE x > $1 ORDER BY id;
EXECUTE unp(1.4);
EXECUTE unp(0);
DEALLOCATE unp;
-- query: numeric_typmod_casts
SELECT id, x::numeric(30,2) AS a, n2::numeric(5,1) AS b, id::numeric(6,2) AS c, (id * 1000)::bigint::numeric(10,3) AS d,
       y::numeric(12,0) AS e FROM un WHERE id <> 6 AND id <> 9 ORDER BY id;
-- query: numeric_typmod_round_half_away
SELECT id, x::numeric(4,1) AS a, x::numeric(5,2) AS b, (-x)::numeric(5,2) AS c, x::numeric(2,0) AS d FROM un
  WHERE id IN (1, 2, 3, 4, 8, 10) ORDER BY id;
-- query: numeric_typmod_overflow
SELECT id, x::numeric(3,2) FROM un ORDER BY id;
-- query: numeric_typmod_overflow_integer
SELECT (g * 1000)::numeric(4,1) FROM un;
-- query: numeric_round_trunc
SELECT id, round(x), round(x, 2), round(n2), trunc(x), trunc(x, 1), trunc(n2, 1), trunc(x, 6), trunc(y, 3)
  FROM un WHERE id <> 9 ORDER BY id;
-- query: numeric_ceil_floor_sign_abs
SELECT id, ceil(x), floor(x), ceiling(n2), floor(n2), sign(x), sign(n2), abs(n2), ceil(y), floor(-y) FROM un ORDER BY id;
-- query: numeric_ceil_floor_heldout
SELECT ceil(n), floor(n), sign(n4), trunc(n4, 2), round(n4), n4::numeric(6,1) FROM nums ORDER BY id;
-- query: uuid_order
SELECT id, u FROM uu ORDER BY u, id;
-- query: uuid_order_desc
SELECT id, u FROM uu ORDER BY u DESC NULLS LAST, id;
-- query: uuid_group_distinct_count
SELECT u, count(*), min(id) FROM uu GROUP BY u ORDER BY u;
-- query: uuid_distinct
SELECT DISTINCT u FROM uu;
-- query: uuid_count_distinct
SELECT g, count(DISTINCT u), count(u) FROM uu GROUP BY g ORDER BY g;
-- query: count_distinct_per_group
SELECT g, count(DISTINCT f), count(DISTINCT t), count(DISTINCT n), count(DISTINCT d), count(*) FROM cdg GROUP BY g ORDER BY g;
-- query: count_distinct_per_group_having
SELECT t, count(DISTINCT g) AS groups FROM cdg GROUP BY t HAVING count(DISTINCT f) > 0 ORDER BY 2 DESC, 1;
-- query: uuid_comparisons
SELECT id, u = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', u < '7f000000-0000-0000-8000-000000000000', u >= '80000000-0000-0000-0000-000000000001',
       u <> '00000000-0000-0000-0000-000000000000', u IS NULL FROM uu ORDER BY id;
-- query: uuid_in_list
SELECT id FROM uu WHERE u IN ('00000000-0000-0000-0000-000000000000', '{FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF}') ORDER BY id;
-- query: uuid_join
SELECT uu.id, uref.label FROM uu JOIN uref ON uu.u = uref.u ORDER BY uu.id;
-- query: uuid_left_join
SELECT uu.id, uref.label FROM uu LEFT JOIN uref ON uu.u = uref.u ORDER BY uu.id;
-- query: uuid_top_n
SELECT id, u FROM uu WHERE u IS NOT NULL ORDER BY u DESC LIMIT 3;
-- issue 18 items 1-3: timestamptz under the session's TimeZone, AT TIME ZONE, now() (table tzd)
-- query: tz_casts_compare_utc
SET TimeZone = 'UTC';
SELECT id, t, t::timestamp, t::date, ts::timestamptz, d::timestamptz, ts < t, ts = t, d <= t, t > d, t <> ts
  FROM tzd ORDER BY id;
-- query: tz_extract_fields_utc
SET TimeZone = 'UTC';
SELECT id, extract(year FROM t), extract(month FROM t), extract(day FROM t), extract(hour FROM t),
       extract(minute FROM t), extract(second FROM t), extract(milliseconds FROM t), extract(microseconds FROM t),
       extract(epoch FROM t), extract(dow FROM t), extract(isodow FROM t), extract(doy FROM t), extract(week FROM t),
       extract(quarter FROM t), extract(isoyear FROM t), extract(decade FROM t), extract(century FROM t),
       extract(millennium FROM t), extract(timezone FROM t), extract(timezone_hour FROM t), extract(timezone_minute FROM t)
  FROM tzd WHERE id < 90 ORDER BY id;
-- query: tz_date_part_and_infinities_utc
SET TimeZone = 'UTC';
SELECT id, date_part('year', t), date_part('hour', t), date_part('minute', t), date_part('second', t),
       date_part('epoch', t), date_part('timezone', t), date_part('timezone_h', t), date_part('timezone_m', t),
       date_part('julian', t), date_part('dow', t), extract(hour FROM t), extract(timezone FROM t), extract(day FROM t)
  FROM tzd ORDER BY id;
-- query: tz_date_trunc_utc
SET TimeZone = 'UTC';
SELECT id, date_trunc('microseconds', t), date_trunc('milliseconds', t), date_trunc('second', t),
       date_trunc('minute', t), date_trunc('hour', t), date_trunc('day', t), date_trunc('week', t),
       date_trunc('month', t), date_trunc('quarter', t), date_trunc('year', t)
  FROM tzd ORDER BY id;
-- query: tz_interval_arith_utc
SET TimeZone = 'UTC';
SELECT id, t + interval '1 day', t - interval '1 day', t + interval '1 month', t - interval '1 mon 2 days 03:04:05.5',
       t + interval '24 hours', t + interval '-1 year 1 day', interval '2 days' + t
  FROM tzd ORDER BY id;
-- query: tz_casts_compare_new_york
SET TimeZone = 'America/New_York';
SELECT id, t, t::timestamp, t::date, ts::timestamptz, d::timestamptz, ts < t, ts = t, d <= t, t > d, t <> ts
  FROM tzd ORDER BY id;
-- query: tz_extract_fields_new_york
SET TimeZone = 'America/New_York';
SELECT id, extract(year FROM t), extract(month FROM t), extract(day FROM t), extract(hour FROM t),
       extract(minute FROM t), extract(second FROM t), extract(milliseconds FROM t), extract(microseconds FROM t),
       extract(epoch FROM t), extract(dow FROM t), extract(isodow FROM t), extract(doy FROM t), extract(week FROM t),
       extract(quarter FROM t), extract(isoyear FROM t), extract(decade FROM t), extract(century FROM t),
       extract(millennium FROM t), extract(timezone FROM t), extract(timezone_hour FROM t), extract(timezone_minute FROM t)
  FROM tzd WHERE id < 90 ORDER BY id;
-- query: tz_date_part_and_infinities_new_york
SET TimeZone = 'America/New_York';
SELECT id, date_part('year', t), date_part('hour', t), date_part('minute', t), date_part('second', t),
       date_part('epoch', t), date_part('timezone', t), date_part('timezone_h', t), date_part('timezone_m', t),
       date_part('julian', t), date_part('dow', t), extract(hour FROM t), extract(timezone FROM t), extract(day FROM t)
  FROM tzd ORDER BY id;
-- query: tz_date_trunc_new_york
SET TimeZone = 'America/New_York';
SELECT id, date_trunc('microseconds', t), date_trunc('milliseconds', t), date_trunc('second', t),
       date_trunc('minute', t), date_trunc('hour', t), date_trunc('day', t), date_trunc('week', t),
       date_trunc('month', t), date_trunc('quarter', t), date_trunc('year', t)
  FROM tzd ORDER BY id;
-- query: tz_interval_arith_new_york
SET TimeZone = 'America/New_York';
SELECT id, t + interval '1 day', t - interval '1 day', t + interval '1 month', t - interval '1 mon 2 days 03:04:05.5',
       t + interval '24 hours', t + interval '-1 year 1 day', interval '2 days' + t
  FROM tzd ORDER BY id;
-- query: tz_casts_compare_berlin
SET TimeZone = 'Europe/Berlin';
SELECT id, t, t::timestamp, t::date, ts::timestamptz, d::timestamptz, ts < t, ts = t, d <= t, t > d, t <> ts
  FROM tzd ORDER BY id;
-- query: tz_extract_fields_berlin
SET TimeZone = 'Europe/Berlin';
SELECT id, extract(year FROM t), extract(month FROM t), extract(day FROM t), extract(hour FROM t),
       extract(minute FROM t), extract(second FROM t), extract(milliseconds FROM t), extract(microseconds FROM t),
       extract(epoch FROM t), extract(dow FROM t), extract(isodow FROM t), extract(doy FROM t), extract(week FROM t),
       extract(quarter FROM t), extract(isoyear FROM t), extract(decade FROM t), extract(century FROM t),
       extract(millennium FROM t), extract(timezone FROM t), extract(timezone_hour FROM t), extract(timezone_minute FROM t)
  FROM tzd WHERE id < 90 ORDER BY id;
-- query: tz_date_part_and_infinities_berlin
SET TimeZone = 'Europe/Berlin';
SELECT id, date_part('year', t), date_part('hour', t), date_part('minute', t), date_part('second', t),
       date_part('epoch', t), date_part('timezone', t), date_part('timezone_h', t), date_part('timezone_m', t),
       date_part('julian', t), date_part('dow', t), extract(hour FROM t), extract(timezone FROM t), extract(day FROM t)
  FROM tzd ORDER BY id;
-- query: tz_date_trunc_berlin
SET TimeZone = 'Europe/Berlin';
SELECT id, date_trunc('microseconds', t), date_trunc('milliseconds', t), date_trunc('second', t),
       date_trunc('minute', t), date_trunc('hour', t), date_trunc('day', t), date_trunc('week', t),
       date_trunc('month', t), date_trunc('quarter', t), date_trunc('year', t)
  FROM tzd ORDER BY id;
-- query: tz_interval_arith_berlin
SET TimeZone = 'Europe/Berlin';
SELECT id, t + interval '1 day', t - interval '1 day', t + interval '1 month', t - interval '1 mon 2 days 03:04:05.5',
       t + interval '24 hours', t + interval '-1 year 1 day', interval '2 days' + t
  FROM tzd ORDER BY id;
-- query: tz_casts_compare_lord_howe
SET TimeZone = 'Australia/Lord_Howe';
SELECT id, t, t::timestamp, t::date, ts::timestamptz, d::timestamptz, ts < t, ts = t, d <= t, t > d, t <> ts
  FROM tzd ORDER BY id;
-- query: tz_extract_fields_lord_howe
SET TimeZone = 'Australia/Lord_Howe';
SELECT id, extract(year FROM t), extract(month FROM t), extract(day FROM t), extract(hour FROM t),
       extract(minute FROM t), extract(second FROM t), extract(milliseconds FROM t), extract(microseconds FROM t),
       extract(epoch FROM t), extract(dow FROM t), extract(isodow FROM t), extract(doy FROM t), extract(week FROM t),
       extract(quarter FROM t), extract(isoyear FROM t), extract(decade FROM t), extract(century FROM t),
       extract(millennium FROM t), extract(timezone FROM t), extract(timezone_hour FROM t), extract(timezone_minute FROM t)
  FROM tzd WHERE id < 90 ORDER BY id;
-- query: tz_date_part_and_infinities_lord_howe
SET TimeZone = 'Australia/Lord_Howe';
SELECT id, date_part('year', t), date_part('hour', t), date_part('minute', t), date_part('second', t),
       date_part('epoch', t), date_part('timezone', t), date_part('timezone_h', t), date_part('timezone_m', t),
       date_part('julian', t), date_part('dow', t), extract(hour FROM t), extract(timezone FROM t), extract(day FROM t)
  FROM tzd ORDER BY id;
-- query: tz_date_trunc_lord_howe
SET TimeZone = 'Australia/Lord_Howe';
SELECT id, date_trunc('microseconds', t), date_trunc('milliseconds', t), date_trunc('second', t),
       date_trunc('minute', t), date_trunc('hour', t), date_trunc('day', t), date_trunc('week', t),
       date_trunc('month', t), date_trunc('quarter', t), date_trunc('year', t)
  FROM tzd ORDER BY id;
-- query: tz_interval_arith_lord_howe
SET TimeZone = 'Australia/Lord_Howe';
SELECT id, t + interval '1 day', t - interval '1 day', t + interval '1 month', t - interval '1 mon 2 days 03:04:05.5',
       t + interval '24 hours', t + interval '-1 year 1 day', interval '2 days' + t
  FROM tzd ORDER BY id;
-- query: tz_casts_compare_kathmandu
SET TimeZone = 'Asia/Kathmandu';
SELECT id, t, t::timestamp, t::date, ts::timestamptz, d::timestamptz, ts < t, ts = t, d <= t, t > d, t <> ts
  FROM tzd ORDER BY id;
-- query: tz_extract_fields_kathmandu
SET TimeZone = 'Asia/Kathmandu';
SELECT id, extract(year FROM t), extract(month FROM t), extract(day FROM t), extract(hour FROM t),
       extract(minute FROM t), extract(second FROM t), extract(milliseconds FROM t), extract(microseconds FROM t),
       extract(epoch FROM t), extract(dow FROM t), extract(isodow FROM t), extract(doy FROM t), extract(week FROM t),
       extract(quarter FROM t), extract(isoyear FROM t), extract(decade FROM t), extract(century FROM t),
       extract(millennium FROM t), extract(timezone FROM t), extract(timezone_hour FROM t), extract(timezone_minute FROM t)
  FROM tzd WHERE id < 90 ORDER BY id;
-- query: tz_date_part_and_infinities_kathmandu
SET TimeZone = 'Asia/Kathmandu';
SELECT id, date_part('year', t), date_part('hour', t), date_part('minute', t), date_part('second', t),
       date_part('epoch', t), date_part('timezone', t), date_part('timezone_h', t), date_part('timezone_m', t),
       date_part('julian', t), date_part('dow', t), extract(hour FROM t), extract(timezone FROM t), extract(day FROM t)
  FROM tzd ORDER BY id;
-- query: tz_date_trunc_kathmandu
SET TimeZone = 'Asia/Kathmandu';
SELECT id, date_trunc('microseconds', t), date_trunc('milliseconds', t), date_trunc('second', t),
       date_trunc('minute', t), date_trunc('hour', t), date_trunc('day', t), date_trunc('week', t),
       date_trunc('month', t), date_trunc('quarter', t), date_trunc('year', t)
  FROM tzd ORDER BY id;
-- query: tz_interval_arith_kathmandu
SET TimeZone = 'Asia/Kathmandu';
SELECT id, t + interval '1 day', t - interval '1 day', t + interval '1 month', t - interval '1 mon 2 days 03:04:05.5',
       t + interval '24 hours', t + interval '-1 year 1 day', interval '2 days' + t
  FROM tzd ORDER BY id;
-- query: tz_casts_compare_amsterdam
SET TimeZone = 'Europe/Amsterdam';
SELECT id, t, t::timestamp, t::date, ts::timestamptz, d::timestamptz, ts < t, ts = t, d <= t, t > d, t <> ts
  FROM tzd ORDER BY id;
-- query: tz_extract_fields_amsterdam
SET TimeZone = 'Europe/Amsterdam';
SELECT id, extract(year FROM t), extract(month FROM t), extract(day FROM t), extract(hour FROM t),
       extract(minute FROM t), extract(second FROM t), extract(milliseconds FROM t), extract(microseconds FROM t),
       extract(epoch FROM t), extract(dow FROM t), extract(isodow FROM t), extract(doy FROM t), extract(week FROM t),
       extract(quarter FROM t), extract(isoyear FROM t), extract(decade FROM t), extract(century FROM t),
       extract(millennium FROM t), extract(timezone FROM t), extract(timezone_hour FROM t), extract(timezone_minute FROM t)
  FROM tzd WHERE id < 90 ORDER BY id;
-- query: tz_date_part_and_infinities_amsterdam
SET TimeZone = 'Europe/Amsterdam';
SELECT id, date_part('year', t), date_part('hour', t), date_part('minute', t), date_part('second', t),
       date_part('epoch', t), date_part('timezone', t), date_part('timezone_h', t), date_part('timezone_m', t),
       date_part('julian', t), date_part('dow', t), extract(hour FROM t), extract(timezone FROM t), extract(day FROM t)
  FROM tzd ORDER BY id;
-- query: tz_date_trunc_amsterdam
SET TimeZone = 'Europe/Amsterdam';
SELECT id, date_trunc('microseconds', t), date_trunc('milliseconds', t), date_trunc('second', t),
       date_trunc('minute', t), date_trunc('hour', t), date_trunc('day', t), date_trunc('week', t),
       date_trunc('month', t), date_trunc('quarter', t), date_trunc('year', t)
  FROM tzd ORDER BY id;
-- query: tz_interval_arith_amsterdam
SET TimeZone = 'Europe/Amsterdam';
SELECT id, t + interval '1 day', t - interval '1 day', t + interval '1 month', t - interval '1 mon 2 days 03:04:05.5',
       t + interval '24 hours', t + interval '-1 year 1 day', interval '2 days' + t
  FROM tzd ORDER BY id;
-- query: tz_at_time_zone_new_york
SET TimeZone = 'America/New_York';
SELECT id, t AT TIME ZONE 'America/New_York', t AT TIME ZONE 'Australia/Lord_Howe', ts AT TIME ZONE 'Europe/Berlin',
       ts AT TIME ZONE 'Asia/Kathmandu', t AT TIME ZONE 'EST', ts AT TIME ZONE 'UTC', timezone('Europe/Amsterdam', t),
       date_trunc('day', t, 'Europe/Berlin'), date_trunc('hour', t, 'Asia/Kathmandu'), date_trunc('month', t, 'EST')
  FROM tzd ORDER BY id;
-- query: tz_group_by_local_day_new_york
SET TimeZone = 'America/New_York';
SELECT date_trunc('day', t) AS day, count(*), min(t), max(extract(hour FROM t))
  FROM tzd WHERE id < 90 GROUP BY 1 ORDER BY 1;
-- query: tz_filter_on_local_fields_new_york
SET TimeZone = 'America/New_York';
SELECT id, t FROM tzd WHERE extract(hour FROM t) BETWEEN 1 AND 3 OR t::date = DATE '2021-03-14'
  OR t < TIMESTAMP '1900-01-01' ORDER BY id;
-- query: tz_at_time_zone_kathmandu
SET TimeZone = 'Asia/Kathmandu';
SELECT id, t AT TIME ZONE 'America/New_York', t AT TIME ZONE 'Australia/Lord_Howe', ts AT TIME ZONE 'Europe/Berlin',
       ts AT TIME ZONE 'Asia/Kathmandu', t AT TIME ZONE 'EST', ts AT TIME ZONE 'UTC', timezone('Europe/Amsterdam', t),
       date_trunc('day', t, 'Europe/Berlin'), date_trunc('hour', t, 'Asia/Kathmandu'), date_trunc('month', t, 'EST')
  FROM tzd ORDER BY id;
-- query: tz_group_by_local_day_kathmandu
SET TimeZone = 'Asia/Kathmandu';
SELECT date_trunc('day', t) AS day, count(*), min(t), max(extract(hour FROM t))
  FROM tzd WHERE id < 90 GROUP BY 1 ORDER BY 1;
-- query: tz_filter_on_local_fields_kathmandu
SET TimeZone = 'Asia/Kathmandu';
SELECT id, t FROM tzd WHERE extract(hour FROM t) BETWEEN 1 AND 3 OR t::date = DATE '2021-03-14'
  OR t < TIMESTAMP '1900-01-01' ORDER BY id;
-- query: tz_fixed_offset_session_zone
SET TIME ZONE -3.5;
SELECT id, t::timestamp, extract(timezone_minute FROM t), date_trunc('day', t), t + interval '1 month' FROM tzd ORDER BY id;
-- query: tz_beyond_table_utc
SET TimeZone = 'UTC';
SELECT id, extract(hour FROM t), t::date FROM tzfar ORDER BY id;
-- query: tz_beyond_table_kathmandu_fixed_since_1986
SET TimeZone = 'Asia/Kathmandu';
SELECT id, extract(hour FROM t), t::date FROM tzfar ORDER BY id;
-- query: tz_beyond_table_new_york
-- fallback: an instant after 2200 lies beyond the zone table: PostgreSQL's plan at run time
SET TimeZone = 'America/New_York';
SELECT id, extract(hour FROM t), t::date FROM tzfar ORDER BY id;
-- query: tz_unknown_zone_name
-- fallback: an unknown time zone: PostgreSQL raises
SELECT id, t AT TIME ZONE 'Nowhere/Zone' FROM tzd ORDER BY id;
-- query: tz_cached_plan_after_set_timezone
-- fallback: the second EXECUTE runs the plan cached under UTC: the executor runs PostgreSQL's plan
SET TimeZone = 'UTC';
SET plan_cache_mode = force_generic_plan;
PREPARE tzp AS SELECT id, extract(hour FROM t), date_trunc('day', t) FROM tzd ORDER BY id;
EXECUTE tzp;
SET TimeZone = 'Asia/Kathmandu';
EXECUTE tzp;
-- query: tz_now_stable_per_statement
SET TimeZone = 'Europe/Berlin';
SELECT id, t < now(), t <= current_timestamp, t < transaction_timestamp() - interval '1 day', t <= statement_timestamp(),
       d <= current_date, ts < localtimestamp, now() = transaction_timestamp()
  FROM tzd ORDER BY id;
-- query: tz_now_prepared_twice
SET client_min_messages = warning;
DROP TABLE IF EXISTS tzn;
CREATE TABLE tzn (t timestamptz);
SET plan_cache_mode = force_generic_plan;
PREPARE tzq AS SELECT count(*), count(*) FILTER (WHERE t = now()), count(*) FILTER (WHERE t <= statement_timestamp()) FROM tzn;
BEGIN;
INSERT INTO tzn VALUES (now());
EXECUTE tzq;
COMMIT;
BEGIN;
INSERT INTO tzn VALUES (now());
EXECUTE tzq;
COMMIT;

-- issue 18 items 1-2: the interval type
-- query: interval_columns_returned
SELECT id, i, j FROM ivl ORDER BY id;
-- query: interval_timestamp_minus_timestamp
SELECT id, t - u, u - t, t - t FROM ivl WHERE id < 9 ORDER BY id;
-- query: interval_timestamptz_minus_timestamptz
SELECT id, tz - TIMESTAMPTZ '2013-07-14 06:15:30.25+00', tz - tz FROM ivl ORDER BY id;
-- query: interval_ts_minus_ts_extremes
SELECT id, t - u FROM ivl WHERE id = 9;
-- query: interval_ts_minus_infinity
SELECT id, t - TIMESTAMP '2000-01-01' FROM ivl_inf ORDER BY id;
-- query: interval_ts_minus_ts_finite_only
SELECT id, t - TIMESTAMP '2000-01-01' FROM ivl_inf WHERE id = 1;
-- query: interval_plus_minus_interval
SELECT id, i + j, i - j, j - i, -j FROM ivl WHERE id <> 9 ORDER BY id;
-- query: interval_overflow_plus
SELECT id, i + j FROM ivl WHERE id = 9;
-- query: interval_overflow_neg
SELECT -j FROM ivl WHERE id = 9;
-- query: interval_overflow_minus
SELECT i - INTERVAL '-1 mon' FROM ivl WHERE id = 9;
-- query: interval_justify
SELECT id, justify_hours(i), justify_days(i), justify_interval(i), justify_interval(j) FROM ivl WHERE id <> 9 ORDER BY id;
-- query: interval_justify_overflow
SELECT justify_hours(i) FROM ivl WHERE id = 9;
-- query: interval_timestamp_plus_column
SELECT id, t + i, t - i, d + j, d - j, i + t FROM ivl WHERE id NOT IN (8, 9) ORDER BY id;
-- query: interval_timestamp_plus_column_out_of_range
SELECT t + i FROM ivl WHERE id = 9;
-- query: interval_infinite_timestamp_plus_column
SELECT id, t + i, t - i FROM ivl_inf ORDER BY id;
-- query: interval_constant_plus_column
SELECT id, TIMESTAMP '2000-02-29' + j, DATE '2000-01-31' - j, j + INTERVAL '1 mon -1 day' FROM ivl WHERE id <> 9 ORDER BY id;
-- query: interval_compare_equal_spans
SELECT id, i = j, i <> j, i < j, i <= j, i > j, i >= j, i = INTERVAL '30 days' FROM ivl ORDER BY id;
-- query: interval_filter_by_span
SELECT id FROM ivl WHERE i > INTERVAL '0' AND i < INTERVAL '2 mons' ORDER BY id;
-- query: interval_order_by
SELECT id, i FROM ivl ORDER BY i, id;
-- query: interval_order_by_desc
SELECT id, j FROM ivl ORDER BY j DESC, id;
-- interval_group_counts: '1 day' and '24 hours' form one group; which of the two PostgreSQL
-- prints depends on its plan (rndn prints the group's first row), so the key is left out
-- query: interval_group_counts
SELECT count(*), min(id), max(id) FROM ivl GROUP BY i;
-- query: interval_group_key
SELECT j, count(*) FROM ivl WHERE id > 2 GROUP BY j;
-- query: interval_distinct
SELECT DISTINCT j FROM ivl WHERE id > 2;
-- query: interval_min_max
SELECT min(i), max(i), min(j), max(j), count(i) FROM ivl WHERE id > 2;
-- query: interval_min_max_grouped
SELECT id % 3, min(j), max(j) FROM ivl WHERE id > 2 GROUP BY 1 ORDER BY 1;
-- query: interval_min_max_empty
SELECT min(i), max(i) FROM ivl_empty;
-- query: interval_join_on_span
SELECT a.id, b.id FROM ivl a JOIN ivl b ON a.i = b.j ORDER BY 1, 2;
-- query: interval_greatest_least
SELECT id, GREATEST(j, INTERVAL '1 hour'), LEAST(j, INTERVAL '0') FROM ivl WHERE id > 2 ORDER BY id;
-- query: interval_null_constant
SELECT id, t + NULL::interval, i + NULL::interval FROM ivl WHERE id < 4 ORDER BY id;
-- query: interval_sum
SELECT sum(i) FROM ivl WHERE id < 9;
-- query: interval_extract
SELECT extract(epoch FROM i) FROM ivl WHERE id < 9;
-- issue 18 item 2: casts between text and the other types (@to_text / @from_text): PostgreSQL's
-- text forms (shortest float digits, ISO dates and timestamps with BC and infinities, -0, NaN)
-- and its input rules and errors; spellings rndn does not read stay with PostgreSQL at run time.
-- query: cast_ints_bool_numeric_to_text
SELECT id, i2::text, i4::text, i8::text, b::text, b::varchar, n::text, n4::text, (i4 * 10)::text || 'x', i2::varchar
  FROM nums ORDER BY id;
-- query: cast_int_extremes_to_text
SELECT a::text, b::text, c::text, s::text, (-c - 1)::text, (-s - 1)::smallint::text, (-a - 1)::text FROM overflow ORDER BY a;
-- query: cast_floats_to_text
SELECT id, f4::text, f8::text, (f8 * 1e20)::text, (f8 / 3)::text, (f8 * 1e-7)::text, (f4 * 1000000)::text, (f8 * 10000)::text
  FROM nums ORDER BY id;
-- query: cast_float_specials_to_text
SELECT id, x::text, r::text, (x * 1e300)::text, (r / 7)::text FROM fe ORDER BY id;
-- query: cast_negative_zero_to_text
SELECT id, f::text, r::text, n::text, (-f)::text FROM zt ORDER BY id;
-- query: cast_float_layout_boundaries
SELECT k, (k::float8 * 1e13)::text, (k::float8 * 1e14)::text, (k::float8 / 10000)::text, (k::float8 / 100000)::text,
       (k::float4 * 10000)::text, (k::float4 * 100000)::text, (1 / k::float8)::text, (k::float8 * k * k * 1e290)::text
  FROM sq1 WHERE k IS NOT NULL ORDER BY k;
-- query: cast_float_text_many_values
SELECT count(*), count(DISTINCT (y / 7 + y * 1e-9)::text), min((y / 7)::text), max((y * 1.1e17)::text), min((y::real / 3)::text) FROM big;
-- query: cast_dates_to_text
SELECT id, d::text, (d + 1)::text, d::varchar FROM dd ORDER BY id;
-- query: cast_timestamps_to_text
SELECT id, t::text, t::varchar FROM ts ORDER BY id;
-- query: cast_dates_of_nums_to_text_grouped
SELECT d::text, count(*) FROM nums GROUP BY d::text ORDER BY 1;
-- query: cast_text_to_int_whitespace_signs
SELECT id, (CASE WHEN id = 1 THEN ' 12 ' WHEN id = 2 THEN '+7' WHEN id = 3 THEN '-2147483648' WHEN id = 4 THEN E'\t5\n' WHEN id = 5 THEN NULL
                    ELSE i4::text END)::int,
       (i2::text || '0')::smallint, (' -' || i8::text)::bigint, ('00' || id)::int
  FROM nums WHERE id <= 9 ORDER BY id;
-- query: cast_text_to_int_invalid
SELECT id, (t || '1')::int FROM nums WHERE id = 1;
-- query: cast_text_to_int_empty
SELECT id, t::int FROM nums WHERE id = 9;
-- query: cast_text_to_int_decimal_point
SELECT (n::text)::int FROM nums WHERE id = 1;
-- query: cast_text_to_int_out_of_range
SELECT (a::text || '0')::int FROM overflow WHERE b = 1 AND a > 1;
-- query: cast_text_to_bigint_out_of_range
SELECT (c::text || '9')::bigint FROM overflow WHERE c > 1;
-- query: cast_text_to_smallint_out_of_range
SELECT ('-' || s::text || '9')::smallint FROM overflow WHERE s > 1;
-- query: cast_text_to_bool_spellings
SELECT id, (CASE WHEN id = 1 THEN 't' WHEN id = 2 THEN ' FALSE ' WHEN id = 3 THEN 'yes' WHEN id = 4 THEN 'No' WHEN id = 5 THEN 'on'
                    WHEN id = 6 THEN 'OFF' WHEN id = 7 THEN '1' WHEN id = 8 THEN '0' WHEN id = 9 THEN 'tr' ELSE NULL END)::bool,
       b::text::bool
  FROM nums ORDER BY id;
-- query: cast_text_to_bool_invalid
SELECT (CASE WHEN id = 2 THEN 'o' ELSE 'true' END)::bool FROM nums;
-- query: cast_text_to_float8
SELECT id, (CASE WHEN id = 1 THEN ' 1.5e3 ' WHEN id = 2 THEN '-Infinity' WHEN id = 3 THEN 'nan' WHEN id = 4 THEN '-0' WHEN id = 5 THEN '.25'
                    WHEN id = 6 THEN '4.9e-324' WHEN id = 7 THEN '+inf' WHEN id = 8 THEN '1e-310' ELSE f8::text END)::float8,
       f8::text::float8 = f8, f4::text::real = f4
  FROM nums ORDER BY id;
-- query: cast_text_to_float_roundtrip_many
SELECT count(*) FILTER (WHERE (y / 7)::text::float8 = y / 7), count(*) FILTER (WHERE (y::real / 3)::text::real = y::real / 3) FROM big;
-- query: cast_text_to_float8_out_of_range
SELECT (f8::text || '0e400')::float8 FROM nums WHERE id = 1;
-- query: cast_text_to_float8_underflow
SELECT ('1e-400' || t)::float8 FROM nums WHERE id = 9;
-- query: cast_text_to_real_out_of_range
SELECT (f4::text || 'e39')::real FROM nums WHERE id = 7;
-- query: cast_text_to_float8_invalid
SELECT (t || '1')::float8 FROM nums WHERE id = 2;
-- query: cast_text_to_numeric_scales
SELECT id, n::text::numeric, (CASE WHEN id = 1 THEN ' 1.50 ' WHEN id = 2 THEN '-.5' WHEN id = 3 THEN '7.' WHEN id = 4 THEN '-0.000'
                    WHEN id = 5 THEN '+123456789012345678.123' ELSE n4::text END)::numeric,
       n4::text::numeric * 2, n4::text::numeric + n
  FROM nums ORDER BY id;
-- query: cast_text_to_numeric_invalid
SELECT (n::text || '.1')::numeric FROM nums WHERE id = 2;
-- query: cast_text_to_numeric_sum
SELECT sum(x::text::numeric), max(x::text::numeric), count(DISTINCT x::text::numeric) FROM big;
-- query: cast_text_to_date_and_timestamp
SELECT id, d::text::date, d::text::timestamp, ('  ' || d::text || ' 13:45')::timestamp, (d::text || ' 23:59:59.123')::timestamp
  FROM nums ORDER BY id;
-- query: cast_timestamp_text_roundtrip
SELECT id, t::text::timestamp = t, t::text::timestamp FROM ts WHERE id NOT IN (8, 13) ORDER BY id;
-- query: cast_text_to_timestamp_long_year_falls_back
-- fallback: a year of more than four digits is read by PostgreSQL (run time)
SELECT id, t::text::timestamp FROM ts WHERE id = 13;
-- query: cast_text_to_date_other_spellings_fall_back
-- fallback: a date spelled other than YYYY-MM-DD is read by PostgreSQL (run time)
SELECT id, (CASE WHEN id = 1 THEN 'Jan 5 2024' ELSE d::text END)::date FROM nums ORDER BY id;
-- query: cast_text_to_date_bc_falls_back
-- fallback: BC dates, and years past four digits, are read by PostgreSQL (run time)
SELECT id, d::text::date FROM dd ORDER BY id;
-- query: cast_text_to_date_invalid_day
SELECT (CASE WHEN id = 2 THEN '2023-02-29' ELSE d::text END)::date FROM nums;
-- query: cast_text_casts_in_where_and_group
SELECT i4::text LIKE '%0' AS k, count(*), sum(t::text::int) FROM (SELECT i4, length(t) AS t FROM nums) s WHERE i4::text <> '30'
  GROUP BY 1 ORDER BY 1;
-- query: cast_float_text_interval_ends
SELECT k, (k * 48199590583418624::float8)::text, (k * -18837256908904808::float8)::text, (k * -386591616::real)::text,
       (k * 3664176128::real)::text, (k * 1e23::float8)::text, (k * 9007199254740993::float8)::text
  FROM sq1 WHERE k IS NOT NULL ORDER BY k;

-- query: tochar_basic
SELECT id, to_char(t, 'YYYY-MM-DD HH24:MI:SS') FROM tch ORDER BY id;
-- query: tochar_names
SELECT id, to_char(t, 'Day DAY day Dy DY dy Month MONTH month Mon MON mon'), to_char(t, 'FMDay, FMMonth FMDD') FROM tch ORDER BY id;
-- query: tochar_numbers
SELECT id, to_char(t, 'HH HH12 HH24 MI SS MS US FF1 FF2 FF3 FF4 FF5 FF6 SSSS SSSSS'), to_char(t, 'FMHH12:FMMI am A.M. pm P.M. AM a.m.') FROM tch ORDER BY id;
-- query: tochar_years
SELECT id, to_char(t, 'Y,YYY YYYY YYY YY Y IYYY IYY IY I CC BC B.C. ad a.d. FMCC FMYYYY'), to_char(t, 'IW IDDD ID WW W DDD DD D J Q RM rm FMRM') FROM tch ORDER BY id;
-- query: tochar_th
SELECT id, to_char(t, 'DDth DDTH FMDDth MMth Qth CCth Jth YYYYth HH24th FMDDDth IWth Wth Dth') FROM tch ORDER BY id;
-- query: tochar_literals
SELECT id, to_char(t, '"Year" YYYY "of \"the\" \\ end" \"x\ yz FX tz TZ OF TZH:TZM FMOF'), to_char(t, 'tmp fmx Fmx "unterminated') FROM tch ORDER BY id;
-- query: tochar_tricky
SELECT id, to_char(t, 'dAY mOnTh DdD yYyY HhMi IyYy hH24 Day1 MONTHS YEAR'), to_char(t, 'FMMONTH.FMDAY.FMMon') FROM tch ORDER BY id;
-- query: tochar_tz
SELECT id, to_char(tz, 'YYYY-MM-DD HH24:MI:SS.US Dy IW'), to_char(tz, 'FMHH12 am DDD') FROM tch ORDER BY id;
-- query: tochar_date
SELECT id, to_char(d, 'YYYY/MM/DD FMDay IYYY-IW'), to_char(d, 'Mon YY') FROM tch ORDER BY id;
-- query: tochar_group
SELECT to_char(t, 'YYYY-Q') AS q, count(*) FROM tch GROUP BY 1 ORDER BY 1;
-- query: tochar_empty_format
SELECT id, to_char(t, '') IS NULL FROM tch ORDER BY id;
-- query: tochar_where
SELECT id FROM tch WHERE to_char(t, 'Dy') = 'Sat' ORDER BY id;
-- query: tochar_tz_kolkata
SET TimeZone = 'Asia/Kolkata';
SELECT id, to_char(tz, 'YYYY-MM-DD HH24:MI:SS'), to_char(d, 'YYYY-MM-DD HH24:MI') FROM tch ORDER BY id;
-- query: tochar_tm_name
-- fallback: TM gives the lc_time locale's names (PostgreSQL's plan)
SELECT id, to_char(t, 'TMMonth') FROM tch ORDER BY id;
-- query: tochar_tz_pattern
-- fallback: a zone abbreviation of a timestamptz (PostgreSQL's plan)
SELECT id, to_char(tz, 'YYYY TZ') FROM tch ORDER BY id;
-- query: tochar_nonconst
-- fallback: a format that is not a constant
SELECT id, to_char(t, CASE WHEN id > 3 THEN 'YYYY' ELSE 'MM' END) FROM tch ORDER BY id;

-- query: float_numeric_cast
SELECT id, f::numeric, r::numeric FROM flt WHERE id NOT IN (7, 9, 11) ORDER BY id;
-- query: float_numeric_big
SELECT id, f::numeric, r::numeric FROM flt WHERE id IN (3, 9, 12) ORDER BY id;
-- query: float_numeric_typmod
SELECT id, f::numeric(30,3), r::numeric(12,2) FROM flt WHERE id IN (1, 2, 4, 5, 6, 10, 13) ORDER BY id;
-- query: float_numeric_overflow
SELECT id, f::numeric(5,2) FROM flt WHERE id = 5;
-- query: float_numeric_arith
SELECT id, f::numeric + 1, round(f::numeric, 3), sum(f::numeric) OVER () FROM flt WHERE id IN (1, 4, 6, 10) ORDER BY id;
-- query: float_numeric_tiny
-- fallback: 1e-300 and 5e-324 have more than 38 fraction digits (run time)
SELECT id, f::numeric FROM flt ORDER BY id;
-- query: float_numeric_nan
-- fallback: numeric NaN and Infinity from a float (run time)
SELECT id, f::numeric FROM flt_nan ORDER BY id;
-- query: numeric_text_exponent
SELECT id, s::numeric FROM numtxt ORDER BY id;
-- query: numeric_text_exponent_bad
SELECT id, s::numeric FROM numtxt_bad ORDER BY id;
-- query: case_simple
SELECT id, CASE id % 3 WHEN 0 THEN 'zero' WHEN 1 THEN 'one' ELSE 'two' END, CASE f WHEN 0.1 THEN 1 WHEN 2.5 THEN 2 END FROM flt ORDER BY id;
-- query: case_simple_nested
SELECT id, CASE id WHEN 1 THEN CASE r WHEN 0.1 THEN 'a' ELSE 'b' END WHEN 2 THEN 'c' END, CASE NULL::int WHEN 1 THEN 'x' ELSE 'y' END FROM flt ORDER BY id;
-- query: case_simple_text
SELECT id, CASE (id::text || 'x') WHEN '1x' THEN 10 WHEN '13x' THEN 13 ELSE 0 END FROM flt ORDER BY id;
-- query: tsx_infinite_constants_compare
SELECT id, t < 'infinity', t > '-infinity', t = 'infinity', t <= '-infinity'::timestamp, tz < 'infinity'::timestamptz,
       tz = '-infinity'::timestamptz, d < 'infinity'::date, d = '-infinity'::date, d >= 'infinity'::date,
       d < 'infinity'::timestamp, d = '-infinity'::timestamp, 'infinity'::timestamp > d, d <> 'infinity'::timestamp
  FROM tsx ORDER BY id;
-- query: tsx_infinite_constants_order_and_coalesce
SELECT id, coalesce(t, 'infinity') AS k, coalesce(d, '-infinity'::date), coalesce(tz, '-infinity')
  FROM tsx ORDER BY k DESC, id;
-- query: tsx_infinite_constants_case_extract_trunc
SELECT id, CASE WHEN id % 2 = 0 THEN t ELSE 'infinity' END AS k,
       extract(dow FROM CASE WHEN id % 2 = 0 THEN t ELSE '-infinity' END),
       date_trunc('day', CASE WHEN id % 2 = 0 THEN t ELSE 'infinity' END),
       CASE WHEN id % 3 = 0 THEN d ELSE 'infinity'::date END
  FROM tsx ORDER BY id;
-- query: tsx_infinite_constants_min_max_group
SELECT d < 'infinity'::date AS fin, min(coalesce(t, '-infinity')), max(coalesce(t, 'infinity')), count(*)
  FROM tsx GROUP BY 1 ORDER BY 1;
-- query: tsx_microsecond_constants
SELECT id, t > '1999-12-31 23:59:59.999998', t = '2000-02-29 23:59:59.999999', t < '0001-01-01 00:00:00.000001',
       tz >= '2021-03-14 06:59:59.999999+00', tz > '1999-12-31 23:59:59.999998+00',
       coalesce(t, '2013-07-14 10:15:30.000001') = '2013-07-14 10:15:30.000001'
  FROM tsx ORDER BY id;
-- query: tsx_microsecond_constant_in_list
SELECT id FROM tsx WHERE t IN ('2013-07-14 10:15:30.000001', '1999-12-31 23:59:59.999999', 'infinity') ORDER BY id;
-- query: tsx_infinite_constants_new_york
SET TimeZone = 'America/New_York';
SELECT id, tz < 'infinity', tz > '2021-03-14 01:59:59.999999', date_trunc('hour', coalesce(tz, 'infinity')),
       coalesce(tz, '-infinity')::timestamp, coalesce(tz, 'infinity')::date
  FROM tsx ORDER BY id;
-- query: tsx_date_trunc_long_units
SELECT id, date_trunc('decade', t), date_trunc('century', t), date_trunc('millennium', t), date_trunc('Decade', d::timestamp),
       date_trunc('CENTURY', d::timestamp), date_trunc('millennium', d::timestamp)
  FROM tsx ORDER BY id;
-- query: tsx_date_trunc_long_units_bc_years
SELECT id, t, date_trunc('decade', t), date_trunc('century', t), date_trunc('millennium', t)
  FROM dfx WHERE (id % 97 = 0 OR id >= 30000) AND id <> 20000 ORDER BY id;
-- query: tsx_date_trunc_long_units_every_year_around_the_era
SELECT y, date_trunc('decade', t), date_trunc('century', t), date_trunc('millennium', t)
  FROM tsyears WHERE y % 10 IN (0, 1, 2, 8, 9) OR y BETWEEN 1990 AND 2030 ORDER BY y;
-- query: tsx_date_trunc_century_before_min_timestamp
SELECT id, date_trunc('century', t) FROM ts_min ORDER BY id;
-- query: tsx_date_trunc_long_units_group
SELECT date_trunc('century', t) AS c, date_trunc('decade', d::timestamp) AS dd, count(*) FROM dfx
  WHERE id >= 10000 AND id < 20000 GROUP BY 1, 2 ORDER BY 1, 2;
-- query: tsx_date_trunc_long_units_timestamptz_new_york
SET TimeZone = 'America/New_York';
SELECT id, date_trunc('decade', tz), date_trunc('century', tz), date_trunc('millennium', tz), date_trunc('century', d)
  FROM tsx ORDER BY id;
-- query: tsx_date_trunc_long_units_timestamptz_zone_argument
SET TimeZone = 'Australia/Lord_Howe';
SELECT id, date_trunc('decade', tz, 'Asia/Kolkata'), date_trunc('millennium', tz, 'America/New_York'), date_trunc('century', tz)
  FROM tsx ORDER BY id;
-- query: tsx_extract_julian
SET TimeZone = 'Asia/Kolkata';
SELECT id, extract(julian FROM t), extract(julian FROM d), extract(julian FROM tz), date_part('julian', t)
  FROM tsx WHERE id NOT IN (4, 5) ORDER BY id;
-- query: tsx_extract_julian_many_times_of_day
SELECT id, t, extract(julian FROM t) FROM dfx WHERE id % 11 = 0 OR id >= 30000 ORDER BY id;
-- query: tsx_extract_julian_small_fractions
SELECT k, extract(julian FROM t) AS j, extract(julian FROM t + INTERVAL '1 second'), extract(julian FROM t + INTERVAL '1 hour')
  FROM tsmicro WHERE k < 20 OR k BETWEEN 860 AND 870 OR k % 97 = 0 ORDER BY k;
-- query: tsx_extract_julian_group_and_sum
SELECT extract(julian FROM t) < 2451545 AS before2000, count(*), min(extract(julian FROM t)), max(extract(julian FROM t))
  FROM dfx WHERE id < 20000 GROUP BY 1 ORDER BY 1;
-- query: tsx_extract_julian_infinity
-- fallback: extract(julian) of an infinite timestamp is numeric ±Infinity (run time)
SELECT id, extract(julian FROM t) FROM tsx ORDER BY id;
-- query: tsx_timestamptz_plus_interval_column_new_york
SET TimeZone = 'America/New_York';
SELECT id, tz + iv, tz - iv, iv + tz, (tz + iv) IS NULL FROM tsx WHERE id NOT IN (6) ORDER BY id;
-- query: tsx_timestamptz_plus_interval_column_dst_zones
SET TimeZone = 'Australia/Lord_Howe';
SELECT d.id, x.id, d.t + x.iv, d.t - x.iv FROM tzd d JOIN tsx x ON x.id IN (1, 2, 7, 8, 9, 10, 13)
  WHERE d.id NOT IN (16, 17) ORDER BY 1, 2;
-- query: tsx_timestamptz_plus_interval_column_kolkata
SET TimeZone = 'Asia/Kolkata';
SELECT d.id, x.id, d.t + x.iv, d.t - x.iv, extract(hour FROM d.t + x.iv) FROM tzd d JOIN tsx x ON x.id IN (1, 3, 9, 10, 11, 12, 14)
  ORDER BY 1, 2;
-- query: tsx_timestamptz_plus_interval_column_utc
SET TimeZone = 'UTC';
SELECT id, tz + iv, tz - iv, now() + iv > now() FROM tsx ORDER BY id;
-- query: tsx_timestamptz_plus_interval_expression
SET TimeZone = 'America/New_York';
SELECT id, tz + (iv + INTERVAL '1 day'), tz - CASE WHEN id % 2 = 0 THEN iv ELSE INTERVAL '1 mon' END, tz + NULL::interval
  FROM tsx WHERE id NOT IN (6) ORDER BY id;
-- query: tsx_timestamptz_minus_timestamptz
SET TimeZone = 'America/New_York';
SELECT a.id, a.tz - b.tz, b.tz - a.tz FROM tsx a JOIN tsx b ON b.id = a.id + 1 WHERE a.id NOT IN (3, 4, 5) AND b.id NOT IN (4, 5)
  ORDER BY a.id;
-- query: tsx_timestamptz_to_text_new_york
SET TimeZone = 'America/New_York';
SELECT id, tz::text, tz::varchar, (tz + INTERVAL '1 hour')::text FROM tsx ORDER BY id;
-- query: tsx_timestamptz_to_text_zones
SET TimeZone = 'Australia/Lord_Howe';
SELECT id, t::text FROM tzd ORDER BY id;
-- query: tsx_timestamptz_to_text_kolkata
SET TimeZone = 'Asia/Kolkata';
SELECT id, t::text, length(t::text) FROM tzd ORDER BY id;
-- query: tsx_timestamptz_to_text_utc_and_offset
SET TimeZone = 'UTC';
SELECT id, tz::text FROM tsx ORDER BY id;
-- query: tsx_timestamptz_to_text_fixed_offset
SET TIME ZONE -3.5;
SELECT id, tz::text FROM tsx ORDER BY id;
-- query: tsx_text_to_timestamptz_new_york
SET TimeZone = 'America/New_York';
SELECT id, s::timestamptz, s::timestamptz::text FROM tstext ORDER BY id;
-- query: tsx_text_to_timestamptz_lord_howe
SET TimeZone = 'Australia/Lord_Howe';
SELECT id, s::timestamptz FROM tstext ORDER BY id;
-- query: tsx_text_to_timestamptz_roundtrip
SET TimeZone = 'Asia/Kolkata';
SELECT id, tz::text::timestamptz = tz, tz::text::timestamptz FROM tsx WHERE id <> 6 ORDER BY id;
-- query: tsx_text_to_timestamptz_other_spellings
-- fallback: a zone name, BC or another date order is read by PostgreSQL (run time)
SELECT id, (CASE WHEN id = 1 THEN '2021-03-14 12:00 Europe/Berlin' ELSE s END)::timestamptz FROM tstext ORDER BY id;
-- query: tsx_text_to_timestamptz_invalid_date
SELECT (CASE WHEN id = 1 THEN '2021-02-30 10:00:00+00' ELSE s END)::timestamptz FROM tstext WHERE id IN (1, 2);
-- query: tsx_uuid_text
SELECT id, u::text, u::text::uuid = u, upper(u::text)::uuid, ('{' || u::text || '}')::uuid, replace(u::text, '-', '')::uuid,
       u::varchar(8)
  FROM tsx ORDER BY id;
-- query: tsx_uuid_text_hyphen_groups
SELECT id, (substr(replace(u::text, '-', ''), 1, 4) || '-' || substr(replace(u::text, '-', ''), 5, 4) || '-' ||
            substr(replace(u::text, '-', ''), 9))::uuid
  FROM tsx WHERE u IS NOT NULL ORDER BY id;
-- query: tsx_uuid_text_invalid
SELECT id, ('x' || u::text)::uuid FROM tsx WHERE id = 1;
-- query: tsx_uuid_text_invalid_trailing_hyphen
SELECT id, (u::text || '-')::uuid FROM tsx WHERE id = 2;
-- query: tsx_uuid_text_group
SELECT lower(u::text)::uuid AS k, count(*) FROM tsx GROUP BY 1 ORDER BY 1;
-- query: tsx_varchar_char_casts
SELECT id, s::varchar(3), s::char(3), s::varchar(1), s::char(8), length(s::char(3)), s::char(3) = 'abc', (s || '   ')::varchar(8),
       length(s::varchar(2)), CAST(s AS character varying(4)) || '|'
  FROM tsx ORDER BY id;
-- query: tsx_varchar_char_casts_where_group
SELECT s::varchar(2) AS k, count(*) FROM tsx WHERE s::char(2) <> 'ca' GROUP BY 1 ORDER BY 1;
-- query: tsx_varchar_casts_of_text_columns
SELECT id, t::varchar(3), v::varchar(2), c::varchar(1), t::char(2), v::char(10) FROM nums ORDER BY id;
-- issue 18 (winx18): lag/lead and frame aggregates of expressions (computed as a column over
-- every row first), non-constant lag/lead offsets, stddev/variance over ORDER BY and ROWS frames
-- (exact numeric for integers and numerics, float8 in PostgreSQL's order of accumulation), ntile,
-- percent_rank, cume_dist, concat/concat_ws of non-text arguments
-- query: window_lag_lead_expressions
SELECT id, lag(i4 * 2 + 1) OVER w, lead(t || '!', 2) OVER w, lag(n * 3, 1, n) OVER w, lead(f8 / 2, 1, -f8) OVER w,
       lag(upper(t), -1, 'none') OVER w, lead(i8 - i4, 3, 0) OVER w, lag(i4 % 7 = 0) OVER w, lag(d + 1, 1, d) OVER w
FROM wn WINDOW w AS (PARTITION BY g ORDER BY o, id) ORDER BY id;
-- query: window_lag_lead_column_offsets
SELECT id, lag(t, i2 % 3) OVER w, lead(i4, o) OVER w, lag(n, g, 0) OVER w, lead(d, -o, '1900-01-01') OVER w,
       lag(i8, NULL::int) OVER w, lag(f8, i2 - 4) OVER w, lead(t, 2147483647) OVER w, lag(t, -2147483648, '-') OVER w
FROM wn WINDOW w AS (PARTITION BY g ORDER BY o, id) ORDER BY id;
-- query: window_lag_lead_expression_empty_and_one_row
SELECT k, lag(x * 2) OVER (ORDER BY k), lead(s || 'z', 1, 'd') OVER (ORDER BY k) FROM empty;
SELECT id, lag(i4 + 1) OVER (PARTITION BY id), lead(n * 2, 1, n) OVER (PARTITION BY id ORDER BY o), lag(t, o, 'x') OVER (PARTITION BY id)
FROM wn ORDER BY id;
-- query: window_lag_expression_raises_at_unread_row
-- fallback: a division by zero at a row lag never reads (PostgreSQL's plan at run time)
SELECT id, lag(100 / (i4 - 150)) OVER (ORDER BY id) FROM wn ORDER BY id;
-- query: window_lag_expression_raises
SELECT id, lead(100 / (i4 - 150)) OVER (ORDER BY id) FROM wn ORDER BY id;
-- query: window_first_last_nth_expressions
SELECT id, first_value(i4 * 10) OVER w, last_value(t || '.') OVER w, nth_value(n - 1, 2) OVER w,
       first_value(f8 * 2) OVER (PARTITION BY g ORDER BY o, id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING)
FROM wn WINDOW w AS (PARTITION BY g ORDER BY o, id) ORDER BY id;
-- query: window_aggregate_expression_skipping_frame
SELECT id, sum(i4 * 2) OVER (PARTITION BY g ORDER BY o, id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING),
       avg(n * 2) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING),
       count(t || 'x') FILTER (WHERE i4 > 20) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING),
       max(upper(t)) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 PRECEDING)
FROM wn ORDER BY id;
-- query: var_window_running_peers
SELECT id, var_samp(i4) OVER w, stddev(n) OVER w, stddev_pop(u) OVER w, variance(i2) OVER w, stddev_samp(c) OVER w
FROM sv WINDOW w AS (PARTITION BY g ORDER BY i2) ORDER BY id;
-- query: var_window_results_beyond_one_dec128
-- fallback: a 37-digit variance and another row's scale 20 do not fit one dec128 column (run time)
SELECT id, var_pop(i8) OVER (PARTITION BY g ORDER BY i2) FROM sv ORDER BY id;
SELECT id, stddev_samp(i8) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) FROM sv ORDER BY id;
-- query: var_window_rows_frames
SELECT id, variance(i4) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
       stddev(n) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
       var_pop(u) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
       stddev_samp(i8 / 1000000000) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING),
       var_samp(i2) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 5 PRECEDING AND 4 PRECEDING),
       stddev_pop(c * 2) OVER (ORDER BY id DESC ROWS 3 PRECEDING)
FROM sv ORDER BY id;
-- query: var_window_mixed_scales
SELECT id, variance(x) OVER (ORDER BY id), stddev(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW),
       var_pop(x) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING)
FROM (SELECT id, CASE WHEN id % 3 = 0 THEN n4 WHEN id % 3 = 1 THEN n * 0.001 ELSE i4::numeric END AS x FROM nums) v
ORDER BY id;
-- query: var_window_float
SELECT id, variance(f8) OVER w, stddev(f4) OVER w, var_pop(f8) OVER (ORDER BY id ROWS 2 PRECEDING),
       stddev_pop(f8) OVER (PARTITION BY g ORDER BY o, id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
       var_samp(f4) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
FROM wn WHERE id <> 5 WINDOW w AS (PARTITION BY g ORDER BY o) ORDER BY id;
-- query: var_window_float_order_of_accumulation
SELECT id, variance(f8) OVER (ORDER BY id), stddev_samp(f8) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
       var_pop(f8) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING), stddev(f8) OVER (ORDER BY id DESC)
FROM (VALUES (1, float8 '1e16'), (2, 1.0), (3, -1e16), (4, 1.0), (5, 3.0), (6, 1e-16), (7, -3.0), (8, 0.1), (9, 0.2)) v(id, f8)
ORDER BY id;
-- query: var_window_float_overflow
SELECT id, variance(f8) OVER (ORDER BY id) FROM wn ORDER BY id;
-- query: var_window_big
SELECT k, stddev(y) OVER (PARTITION BY g ORDER BY k), variance(x) OVER (PARTITION BY g ORDER BY k ROWS 5 PRECEDING),
       var_pop(k) OVER (PARTITION BY g ORDER BY s), stddev_samp(g) OVER (ORDER BY k ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING)
FROM big WHERE k % 53 = 0 ORDER BY k;
-- query: var_window_empty
SELECT k, variance(x) OVER (ORDER BY k), stddev(k) OVER (ORDER BY k ROWS 1 PRECEDING) FROM empty;
-- query: window_ntile_percent_rank_cume_dist
SELECT id, ntile(3) OVER u, ntile(1) OVER u, ntile(100) OVER u, percent_rank() OVER w, cume_dist() OVER w,
       ntile(4) OVER (ORDER BY id), percent_rank() OVER (ORDER BY o), cume_dist() OVER (ORDER BY o DESC NULLS LAST),
       cume_dist() OVER (), percent_rank() OVER (PARTITION BY id), ntile(2) OVER (PARTITION BY id), ntile(2) OVER (ORDER BY o, id)
FROM wn WINDOW w AS (PARTITION BY g ORDER BY o), u AS (PARTITION BY g ORDER BY o, id) ORDER BY id;
-- query: window_ntile_big
SELECT k, ntile(7) OVER (PARTITION BY g ORDER BY k), ntile(2147483647) OVER (ORDER BY k),
       percent_rank() OVER (PARTITION BY g ORDER BY s), cume_dist() OVER (PARTITION BY g ORDER BY s)
FROM big WHERE k % 101 = 0 ORDER BY k;
-- query: window_ntile_percent_rank_empty
SELECT k, ntile(3) OVER (ORDER BY k), percent_rank() OVER (ORDER BY k), cume_dist() OVER (ORDER BY k) FROM empty;
-- query: window_ntile_zero
-- fallback: ntile with a bucket count that is not a positive constant
SELECT id, ntile(0) OVER (ORDER BY id) FROM wn ORDER BY id;
-- query: window_ntile_column
-- fallback: ntile with a bucket count that is not a positive constant
SELECT id, ntile(o) OVER (ORDER BY id) FROM wn ORDER BY id;
-- query: str_concat_all_types
SELECT id, concat(i2, '|', i4, '|', i8, '|', n, '|', n4, '|', d, '|', b), concat_ws(',', id, f8, f4, t, d, n),
       concat(t, NULL::int, i4), concat_ws(NULL, i4, t), concat(i4 / 3, n / 7), concat_ws('', b, NULL, i8 * 2)
FROM nums ORDER BY id;
-- query: str_concat_timestamps_floats
SELECT id, concat(ts, ' ', d, ' ', f8, ' ', b), concat_ws('-', i2, f4, n), concat(o), concat_ws(o::text, g, id)
FROM wn ORDER BY id;
-- query: str_concat_group_where
SELECT concat(g, ':', o IS NULL) AS k, count(*) FROM wn WHERE concat(i4, 'x') <> '10x' GROUP BY 1 ORDER BY 1;
-- query: string_agg_ordered_by_value
SELECT g, string_agg(t, ',' ORDER BY t), string_agg(t, '' ORDER BY t DESC), string_agg(upper(t), NULL ORDER BY upper(t)), count(*)
FROM wn GROUP BY g ORDER BY g;
SELECT string_agg(s, ' / ' ORDER BY s), string_agg(v, '-' ORDER BY v DESC) FROM strs;
SELECT string_agg(s, ',' ORDER BY s) FROM empty;
SELECT k % 3, string_agg(s, '|' ORDER BY s DESC), min(k) FROM big WHERE k % 997 = 0 GROUP BY 1 ORDER BY 1;
-- query: string_agg_input_order
-- fallback: string_agg without ORDER BY (PostgreSQL's plan's input order)
SELECT g, string_agg(t, ',') FROM wn GROUP BY g ORDER BY g;
-- query: string_agg_other_key
-- fallback: string_agg ORDER BY another expression than the value (ties in PostgreSQL's sort order)
SELECT g, string_agg(t, ',' ORDER BY id) FROM wn GROUP BY g ORDER BY g;
-- issue 18: interval * and / a number (float8; integer and numeric factors cast to float8),
-- extract/date_part of an interval, sum/avg of intervals
-- query: interval_mul_fractions
SELECT id, i * 0.1, i * (1/3.0), i * 1e-7, i * -2.5, 2 * j, j * id, id * j FROM ivl WHERE id <> 9 ORDER BY id;
-- query: interval_mul_numeric_and_float_columns
SELECT id, i * (id::numeric / 4), i * (id / 7.0)::float8, j * (id::float4 / 3), i * (id - 5) FROM ivl WHERE id <> 9 ORDER BY id;
-- query: interval_div_fractions
SELECT id, i / 3, i / -0.7, j / 1e-3, i / (1/3.0), j / NULLIF(id - 5, 0), i / 2.5::float8 FROM ivl WHERE id <> 9 ORDER BY id;
-- query: interval_div_infinity
SELECT id, i / 'Infinity'::float8, j / '-Infinity'::float8 FROM ivl ORDER BY id;
-- query: interval_div_by_zero
SELECT id, j / (id - 10) FROM ivl WHERE id >= 9 ORDER BY id;
-- query: interval_mul_overflow
SELECT i * 2 FROM ivl WHERE id = 9;
-- query: interval_mul_overflow_time
SELECT j * 1e19 FROM ivl WHERE id = 7;
-- query: interval_div_overflow
SELECT j / 0.5 FROM ivl WHERE id = 9;
-- query: interval_mul_nan
SELECT i * 'NaN'::float8 FROM ivl WHERE id = 1;
-- query: interval_mul_infinity
SELECT j * 'Infinity'::float8 FROM ivl WHERE id = 10;
-- query: interval_mul_edge_factor
SELECT INTERVAL '1 mon' * (2147483647.5 + id - 1) FROM ivl WHERE id = 1;
-- query: interval_mul_in_arithmetic
SELECT id, t + i * 0.5, t - j / 4, (i + j) * 1.5 FROM ivl WHERE id NOT IN (8, 9) ORDER BY id;
-- query: interval_extract_fields
SELECT id, extract(microseconds FROM i), extract(milliseconds FROM i), extract(second FROM i), extract(minute FROM i),
       extract(hour FROM i), extract(day FROM i), extract(month FROM i), extract(quarter FROM i), extract(year FROM i),
       extract(decade FROM i), extract(century FROM i), extract(millennium FROM i), extract(epoch FROM i)
FROM ivl ORDER BY id;
-- query: interval_date_part_fields
SELECT id, date_part('microseconds', j), date_part('milliseconds', j), date_part('second', j), date_part('minute', j),
       date_part('hour', j), date_part('day', j), date_part('month', j), date_part('quarter', j), date_part('year', j),
       date_part('decade', j), date_part('century', j), date_part('millennium', j), date_part('epoch', j)
FROM ivl ORDER BY id;
-- query: interval_date_part_extremes
SELECT id, date_part('epoch', i), date_part('hour', i), date_part('msec', i), extract(epoch FROM -j) FROM ivl WHERE id IN (8, 9) ORDER BY id;
-- query: interval_extract_aliases
SELECT id, date_part('secs', i), date_part('MSEC', i), date_part('us', i), date_part('mins', i), date_part('y', i), date_part('Mon', i) FROM ivl ORDER BY id;
-- query: interval_extract_in_expressions
SELECT id FROM ivl WHERE extract(epoch FROM i) > 3600 AND extract(day FROM j) <> 0 ORDER BY id;
-- query: interval_extract_of_difference
SELECT id, extract(epoch FROM t - u), extract(day FROM t - u), date_part('hour', t - u) FROM ivl WHERE id < 9 ORDER BY id;
-- query: interval_extract_grouped
SELECT extract(month FROM i), count(*), sum(extract(epoch FROM j)) FROM ivl GROUP BY 1 ORDER BY 1;
-- query: interval_extract_week
-- fallback: extract(week) of an interval (PostgreSQL raises "unit not supported")
SELECT extract(week FROM i) FROM ivl;
-- query: interval_sum_avg
SELECT sum(i), avg(i), sum(j), avg(j), count(i) FROM ivl WHERE id < 9;
-- query: interval_sum_avg_grouped
SELECT id % 3, sum(i), avg(i), avg(j), count(*) FROM ivl WHERE id <> 9 GROUP BY 1 ORDER BY 1;
-- query: interval_sum_avg_empty_groups
SELECT id % 4, sum(i) FILTER (WHERE id > 6), avg(j) FILTER (WHERE id > 6) FROM ivl WHERE id <> 9 GROUP BY 1 ORDER BY 1;
-- query: interval_sum_avg_empty
SELECT sum(i), avg(i) FROM ivl_empty;
-- query: interval_sum_avg_all_null
SELECT sum(i), avg(i) FROM ivl WHERE id = 5;
-- query: interval_sum_overflow
SELECT sum(i) FROM ivl WHERE id IN (6, 9);
-- query: interval_avg_overflow
SELECT avg(j) FROM ivl WHERE id IN (8, 9);
-- query: interval_sum_of_expressions
SELECT sum(t - u), avg(i * 0.5), sum(j / 3) FROM ivl WHERE id < 9;
-- query: interval_sum_window
SELECT id, sum(i) OVER (ORDER BY id), avg(j) OVER (PARTITION BY id % 2) FROM ivl WHERE id <> 9 ORDER BY id;
-- query: interval_sum_window_rows
SELECT id, sum(j) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), avg(i) OVER (ORDER BY id ROWS 2 PRECEDING) FROM ivl WHERE id <> 9 ORDER BY id;
-- query: interval_mul_div_many
SELECT g, i * f, f * i, i / NULLIF(f, 0), i * (f / 3), i / (1 + abs(f)) FROM ivf ORDER BY g;
-- query: interval_parts_many
SELECT g, extract(epoch FROM i * f), date_part('epoch', i / (1 + abs(f))), extract(second FROM i), date_part('millisecond', i * f),
       extract(hour FROM i), date_part('quarter', i) FROM ivf ORDER BY g;
-- query: interval_sum_avg_many
SELECT g % 7, sum(i), avg(i), avg(i * f), count(*) FROM ivf GROUP BY 1 ORDER BY 1;
-- query: interval_as_text
SELECT id, i::text, j::text, 'span: ' || (i * 0.5), length(j::text) FROM ivl ORDER BY id;
-- query: interval_text_round_trip
SELECT id, i::text::interval, (t - u)::text FROM ivl WHERE id < 9 ORDER BY id;
-- query: interval_from_text_spellings
SELECT s, s::interval FROM (VALUES ('1 day 2 hours'), ('3 mons'), ('01:02:03'), ('-1 year'), ('  1 YEAR  -2 Mons +3 days -04:05:06.5 '),
  ('100:59:59.123456'), ('2 hours 3 minutes 4 seconds'), ('-1 day -2 hours'), (NULL)) v(s), ivl WHERE id = 1 ORDER BY 1;
-- query: interval_from_text_other_spelling
-- fallback: '1.5 days' is not among rndn's interval spellings (read by PostgreSQL's plan at run time)
SELECT s::interval FROM (VALUES ('1 day'), ('1.5 days')) v(s), ivl WHERE id = 1;
-- interval_from_text_invalid: '1 year 1 year' is not among rndn's spellings: the executor runs
-- PostgreSQL's plan at run time, which raises its syntax error (the same error either way)
-- query: interval_from_text_invalid
SELECT s::interval FROM (VALUES ('1 day'), ('1 year 1 year')) v(s), ivl WHERE id = 1;
-- query: interval_text_iso_style
-- fallback: interval as text under IntervalStyle iso_8601 (rndn writes IntervalStyle postgres only)
SET IntervalStyle = 'iso_8601';
SELECT id, i::text, 'P1D'::text::interval FROM ivl ORDER BY id;
-- interval_text_style_guard: a generic plan made under IntervalStyle postgres, run under
-- sql_standard: the run-time guard runs PostgreSQL's plan
-- query: interval_text_style_guard
-- fallback: the plan's interval text was made for IntervalStyle postgres (the run-time guard runs PostgreSQL's plan)
SET plan_cache_mode = force_generic_plan;
PREPARE ivq AS SELECT i::text, count(*) FROM ivl GROUP BY 1 ORDER BY 1;
EXECUTE ivq;
SET IntervalStyle = 'sql_standard';
EXECUTE ivq;

-- Aggregates over a nested loop whose inner side is read in index order: order-sensitive ones
-- (a float sum, min/max of numerics of several display scales) must see PostgreSQL's row
-- order; order-insensitive ones let the translator skip the index order (same results).
-- query: order_free_float_sum_keeps_index_order
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off; SET enable_bitmapscan = off;
SELECT o.g, sum(l.f), count(*) FROM ofree_o o JOIN ofree_l l ON l.k = o.k GROUP BY o.g ORDER BY o.g;
-- query: order_free_float_sum_plain
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off; SET enable_bitmapscan = off;
SELECT sum(l.f), sum(l.f * 2) FROM ofree_o o JOIN ofree_l l ON l.k = o.k WHERE o.k < 40;
-- query: order_free_numeric_min_max_keep_index_order
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off; SET enable_bitmapscan = off;
SELECT o.g, min(l.x), max(l.x), min(l.x + 0), max(l.x * 1) FROM ofree_o o JOIN ofree_l l ON l.k = o.k GROUP BY o.g ORDER BY o.g;
-- query: order_free_insensitive_aggregates
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off; SET enable_bitmapscan = off;
SELECT o.g, count(*), sum(l.n), avg(l.n), min(l.t), max(l.t), sum(l.x) FROM ofree_o o JOIN ofree_l l ON l.k = o.k GROUP BY o.g ORDER BY 2 DESC, o.g;
-- query: order_free_sorted_group_then_order_by
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_hashagg = off;
SELECT l.t, count(*), sum(l.k) FROM ofree_o o JOIN ofree_l l ON l.k = o.k GROUP BY l.t ORDER BY 3 DESC, 1;

-- Semi-join reduction: the subquery's scan keeps only rows whose key some outer row has (NULL
-- keys, keys without rows, duplicate outer keys; count() of no rows is 0).
-- query: semijoin_reduction_correlated_aggregates
SELECT o.k, o.g, (SELECT count(*) FROM sjr_i i WHERE i.k = o.k) AS c, (SELECT sum(i.v) FROM sjr_i i WHERE i.k = o.k) AS s,
       (SELECT max(i.t) FROM sjr_i i WHERE i.k = o.k AND i.k8 = o.k8) AS m
FROM sjr_o o ORDER BY o.k NULLS FIRST, o.g;
-- query: semijoin_reduction_in_where
SELECT o.k, o.g FROM sjr_o o WHERE o.g < (SELECT avg(i.v) FROM sjr_i i WHERE i.k = o.k) ORDER BY 1, 2;
-- query: semijoin_reduction_float_sum_order
SELECT o.k, (SELECT sum(i.f) FROM sjr_i i WHERE i.k = o.k) FROM sjr_o o ORDER BY 1 NULLS LAST, 2;
-- query: semijoin_reduction_date_key_and_other_types
SELECT o.d, o.t, (SELECT count(*) FROM sjr_i i WHERE i.d = o.d), (SELECT min(i.v) FROM sjr_i i WHERE i.t = o.t),
       (SELECT max(i.v) FROM sjr_i i WHERE i.k8 = o.k) FROM sjr_o o ORDER BY 1 NULLS FIRST, 2 NULLS FIRST;
-- query: semijoin_reduction_nested_loop_inner
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off; SET enable_bitmapscan = off;
SELECT o.k, i.v, i.t FROM sjr_o o JOIN sjr_i i ON i.k = o.k
WHERE i.v > (SELECT avg(i2.v) FROM sjr_i i2 WHERE i2.k8 = i.k8) ORDER BY 1, 2, 3 NULLS FIRST;
-- query: nested_loop_filter_keys_inner
SET enable_hashjoin = off; SET enable_mergejoin = off;
SELECT o.k, o.g, i.v FROM sjr_o o JOIN sjr_i i ON i.k8 = o.k8 AND i.v > o.g ORDER BY 1, 2, 3;
-- query: nested_loop_filter_keys_left
SET enable_hashjoin = off; SET enable_mergejoin = off;
SELECT o.k, o.g, count(i.v), sum(i.v) FROM sjr_o o LEFT JOIN sjr_i i ON i.k = o.k AND i.d = o.d GROUP BY 1, 2 ORDER BY 1 NULLS FIRST, 2;
-- query: nested_loop_filter_keys_semi_anti
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_hashagg = off;
SELECT o.k, o.g, EXISTS (SELECT 1 FROM sjr_i i WHERE i.k8 = o.k8 AND i.v >= o.g) AS e FROM sjr_o o
WHERE NOT EXISTS (SELECT 1 FROM sjr_i i WHERE i.k = o.k AND i.t = 'nothing') ORDER BY 1 NULLS FIRST, 2;
-- query: nested_loop_filter_key_types_differ
SET enable_hashjoin = off; SET enable_mergejoin = off;
SELECT o.k, count(*) FROM sjr_o o JOIN sjr_i i ON i.k8 = o.k GROUP BY 1 ORDER BY 1;
-- query: order_free_extract_group_keys
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_hashagg = off;
SELECT extract(year FROM i.d), extract(day FROM i.d), count(*), sum(i.v) FROM sjr_o o JOIN sjr_i i ON i.k = o.k
GROUP BY 1, 2 ORDER BY 1, 2;
-- query: extract_fraction_group_keys
SET enable_hashagg = off;
SELECT extract(second FROM i.d::timestamp + i.k * interval '1.5 second'), count(*), sum(i.f) FROM sjr_i i GROUP BY 1 ORDER BY 1 NULLS FIRST;
